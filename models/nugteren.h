/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The arithmetic of Nugteren et al.'s cache model (doc/nugteren-model.md,
 * "Four cases per kernel, and the miss split"): from the reuse distances of
 * its four simulations of a kernel, the hits and the misses split into
 * compulsory, capacity, associativity, latency and MSHR, quirks included.
 * Pure; the report of the Nugteren-compatible configuration and the tests
 * use it.
 */
#ifndef SS_NUGTEREN_H
#define SS_NUGTEREN_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The cases, in the model's order. */
enum nug_case { NUG_NORMAL, NUG_FULL_ASSOC, NUG_NO_LATENCY, NUG_NO_MSHR_LIMIT, NUG_CASES };

/* What the split needs of one case's distances. */
struct nug_case_counts {
	uint64_t cold;		/* accesses of infinite distance (never used before) */
	uint64_t beyond;	/* of finite distance above the case's ways */
	uint64_t within;	/* of finite distance up to the ways, that one included */
};

struct nug_split {
	int64_t compulsory, capacity, associativity, latency, mshr;
	int64_t misses, hits, total;	/* misses = the normal case's */
	int64_t case_misses[NUG_CASES];	/* the .out file's tot_* are 1..3 */
	float miss_rate;		/* percent, as the model computes it */
};

/*
 * The split as the model prints it: in integers; when the shares overlap
 * (a negative rest), the overlap is added to the MSHR share if that is
 * larger, else to the latency share if that is, else to the associativity
 * share (the model subtracts the negative rest, where it meant to take
 * the overlap away); shares below 0 print as 0.  A distance equal to the
 * ways is a hit here, though the simulation took it for a miss.
 */
struct nug_split nugteren_split(const struct nug_case_counts c[NUG_CASES]);

#ifdef __cplusplus
}
#endif

#endif
