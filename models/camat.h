/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Concurrent average memory-access time (C-AMAT, after Sun and Wang) of
 * one cache level: each access has a hit phase (the cycles the level
 * looks it up) and, when it misses, a miss phase right after it (the
 * cycles until the level below delivers).  A cycle counts once however
 * many accesses it holds; a miss cycle is *pure* when no access is in
 * its hit phase then.
 *
 * The accumulator takes accesses in the order their hit phases start
 * (a simulator's arrival order) and sweeps merged intervals as they are
 * completed, never cycle by cycle: its memory follows the accesses whose
 * phases may still meet a later one, not the kernel's length.  Misses
 * must come in the order their miss phases start as well, which holds
 * when every miss's hit phase is as long (a cache's miss latency);
 * camat_compute takes phases in any order and sorts them.
 */
#ifndef SS_CAMAT_H
#define SS_CAMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The counts of a level over a kernel; the ratios come from camat_ratios. */
struct camat_counts {
	uint64_t accesses, hits, misses;
	uint64_t hit_cycles;		/* sum of hit phases' lengths */
	uint64_t miss_cycles;		/* sum of miss phases' lengths */
	uint64_t overlap_hit_time;	/* cycles with some access in its hit phase */
	uint64_t pure_misses;		/* misses with a pure miss cycle */
	uint64_t pure_miss_time;	/* pure miss cycles, summed over accesses */
	uint64_t pure_miss_overlap_time;	/* cycles with some pure miss cycle */
	uint64_t active_cycles;		/* cycles with some phase */
};

/* A ratio that has no value (nothing to divide by) is NAN. */
struct camat_ratios {
	double C_h;		/* hit cycles / overlap_hit_time: hit concurrency */
	double C_m;		/* pure_miss_time / pure_miss_overlap_time */
	double pMR;		/* pure_misses / accesses */
	double pAMP;		/* pure_miss_time / pure_misses */
	double mean_hit_time;	/* hit cycles / accesses */
	double camat;		/* mean_hit_time / C_h + pMR * pAMP / C_m */
	double amat;		/* mean_hit_time + miss rate * mean miss penalty */
};

void camat_ratios(const struct camat_counts *c, struct camat_ratios *r);

struct camat;

struct camat *camat_new(void);
void camat_free(struct camat *a);
/* Back to no access, keeping the memory. */
void camat_reset(struct camat *a);

/*
 * An access whose hit phase starts at cycle `start` and lasts
 * `hit_cycles`; a miss's miss phase follows, until camat_end says when
 * its data came.  Starts must not decrease, and neither must the misses'
 * start + hit_cycles; false (and nothing counted) when one does.  *ticket
 * names a miss for camat_end.
 */
bool camat_begin(struct camat *a, uint64_t start, uint64_t hit_cycles, bool miss,
		 uint64_t *ticket);
/* The miss of `ticket` was served at cycle `end`: its miss phase is the
 * cycles from its hit phase's end up to end - 1.  Only the ticket's low
 * 32 bits matter while fewer than 2^32 misses are open, so a caller may
 * keep it in 32 bits. */
void camat_end(struct camat *a, uint64_t ticket, uint64_t end);

/* The ticket the next miss begun will have. */
uint64_t camat_next_ticket(const struct camat *a);

/* camat_begin and, for a miss (miss_cycles > 0), camat_end at once. */
bool camat_add(struct camat *a, uint64_t start, uint64_t hit_cycles, uint64_t miss_cycles);

/* The counts of everything added so far, every miss ended: this
 * finishes the sweep, so camat_reset comes before anything more. */
void camat_counts(struct camat *a, struct camat_counts *c);

/* Phases in any order: n accesses of start[i], hit[i], miss[i]. */
void camat_compute(const uint64_t *start, const uint64_t *hit, const uint64_t *miss,
		   size_t n, struct camat_counts *c);

#ifdef __cplusplus
}
#endif

#endif
