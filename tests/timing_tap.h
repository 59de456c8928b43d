/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The timing tests' tap: a component between an SM and its L1 that logs
 * every request and answer with its tick and passes it on, both ways.
 * An entry is "TICK:R NAMEk" for a read of unit k, "A" an answer, "X" a
 * refusal, where unit k is at tap_base + tap_unit * k and NAME is
 * tap_name ("x" for the 32-byte elements of test-timing-examples, "L"
 * for the lines of test-nugteren-parts).  timing_tap_log() gives the log
 * with its ticks counted from the first entry's.
 */
#ifndef SS_TEST_TIMING_TAP_H
#define SS_TEST_TIMING_TAP_H

#include <sectorsim/sectorsim.h>

extern const struct ss_component_type timing_tap_type;

/* Start a log of units of `unit` bytes from `base`, named `name`. */
void timing_tap_start(uint64_t base, unsigned unit, const char *name);
/* The log so far, ticks from the first entry (g_free it). */
char *timing_tap_log(void);
void timing_tap_free(void);

#endif
