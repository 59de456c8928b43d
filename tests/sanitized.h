/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * SS_SANITIZED: this build runs under a sanitizer that shadows memory
 * (AddressSanitizer, ThreadSanitizer), with gcc or clang.  Such a build
 * maps terabytes of address space and keeps freed memory resident, so the
 * tests of resident memory and address-space limits say nothing in it.
 */
#ifndef SS_TESTS_SANITIZED_H
#define SS_TESTS_SANITIZED_H

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SS_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SS_SANITIZED 1
#endif
#endif

#endif
