/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A hint that *p will be read soon: the processor starts loading its
 * cache line into every level of its caches.  Changes nothing else.
 *
 * Not __builtin_prefetch on x86: GCC 12 at -O2 drops such prefetches, for
 * one when their address is computed on more than one path (a set index
 * of either kind, say): sector_cache.c's sc_prefetch kept one of its four,
 * and the prefetch of a run's sets compiled to nothing at all.  An asm
 * statement is kept as written.  Elsewhere the builtin, which may be
 * dropped, as a hint may.
 */
#ifndef SS_PREFETCH_H
#define SS_PREFETCH_H

static inline __attribute__((always_inline)) void ss_prefetch(const void *p)
{
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
	__asm__ volatile("prefetcht0 %0" : : "m"(*(const char *)p));
#else
	__builtin_prefetch(p);
#endif
}

#endif
