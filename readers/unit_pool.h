/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Units of work (blocks, runs of chunks) shared among k workers: the
 * caller's thread is worker 0, and k - 1 threads more are started (a
 * worker whose thread cannot be had leaves its share to the others).
 * Each worker takes the next unit not taken yet, in ascending order, and
 * stops at its first failure or once another has failed.  Every unit
 * before the lowest that failed was done, and the error given back is
 * that unit's: the failure one worker would have met first.  Each
 * worker's thread takes its part of a Ctrl-C (ss_interrupt_enter_thread).
 */
#ifndef SS_UNIT_POOL_H
#define SS_UNIT_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <glib.h>

/* Unit `unit` with worker state `worker` (workers[i] of unit_pool_run). */
typedef bool (*unit_fn)(void *shared, void *worker, size_t unit, GError **err);

/* False with *err when a unit failed. */
bool unit_pool_run(size_t n_units, unsigned k, void *shared, void *const *workers,
		   unit_fn fn, GError **err);

#endif
