/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Miss status holding registers: the lines a cache in timing mode has
 * asked the level below for and is waiting on.  An entry holds one line;
 * its sectors asked for are pending until their data arrives, and every
 * request waiting on the line is one of its targets, in arrival order.
 * A read of a pending sector is a latency miss: it merges into the entry
 * and goes nowhere.  The table knows nothing of caches or time; the
 * sector_cache component drives it (components/cache_timing.c).
 */
#ifndef SS_MSHR_H
#define SS_MSHR_H

#include <stdbool.h>
#include <stdint.h>
#include <sectorsim/protocols/mem.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the table holds for a line and one of its sectors. */
enum mshr_state {
	MSHR_ABSENT,		/* no entry for the line */
	MSHR_LINE,		/* an entry, but this sector is not asked for */
	MSHR_PENDING,		/* the sector is asked for: a latency miss */
};

enum mshr_stat {
	MSHR_S_MERGES,		/* requests that joined a pending sector */
	MSHR_S_REFUSED_ENTRIES,	/* refused: every entry held another line */
	MSHR_S_REFUSED_TARGETS,	/* refused: the line's entry was full */
	MSHR_S_PEAK,		/* most entries in use at once */
	MSHR_N_STATS,
};

struct mshr;

/*
 * A table of `entries` lines, each with up to `targets` waiting requests
 * (0: unlimited).  Statistics go to *stats[i], counters the caller owns
 * and may zero at any time (the peak then counts from what is in use).
 */
struct mshr *mshr_new(uint32_t entries, uint32_t targets,
		      uint64_t *const stats[MSHR_N_STATS]);
void mshr_free(struct mshr *m);

enum mshr_state mshr_state(const struct mshr *m, uint64_t line, uint32_t sbit);

/*
 * The same in two steps, for a caller that then adds to the line: its
 * entry (NULL: none), good until the table next changes, and what it
 * holds for a sector.
 */
struct mshr_entry;
struct mshr_entry *mshr_find(const struct mshr *m, uint64_t line);
enum mshr_state mshr_entry_state(const struct mshr_entry *e, uint32_t sbit);

/* A waiting request and what its owner keeps with it. */
struct mshr_wait {
	struct mem_req req;
	uint64_t at;		/* its owner's: when it came, or was looked up */
	uint32_t input;		/* where it came from */
	uint32_t ticket;	/* its owner's: the access's C-AMAT ticket (camat.h) */
};

/*
 * Request w->req waits on sector `sbit` of `line`; `fetch`: it is the one
 * that asks the level below for the sector (the sector becomes pending),
 * else it merges.  False, with *reason (enum mem_refusal) and the refusal
 * counted, when the table has no room: a new line needs a free entry, any
 * request a free target of its line's entry; unless `force`, which takes
 * it beyond the limits (a request that cannot be sent again).
 */
bool mshr_add(struct mshr *m, uint64_t line, uint32_t sbit, bool fetch, bool force,
	      const struct mshr_wait *w, uint8_t *reason);
/* mshr_add() of `line`, whose entry mshr_find() gave as e (the table not
 * changed since), that leaves the request to the caller: where to write
 * it, or NULL when refused. */
struct mshr_wait *mshr_add_at(struct mshr *m, struct mshr_entry *e, uint64_t line,
			      uint32_t sbit, bool fetch, bool force, uint8_t *reason);

/* Called with each request waiting on an arrived sector, in arrival order. */
typedef void (*mshr_target_fn)(void *ctx, const struct mshr_wait *w, bool first);

/*
 * The data of sector `sbit` of `line` arrived: every request waiting on it
 * leaves the entry, in order, through fn (`first`: the one that fetched
 * it), and the entry goes when nothing is left.  Returns how many left;
 * fn may add to the table, this line included.  A sector not pending
 * gives 0.
 */
uint32_t mshr_arrive(struct mshr *m, uint64_t line, uint32_t sbit,
		     mshr_target_fn fn, void *ctx);

/* Entries in use, and whether one is free. */
uint32_t mshr_used(const struct mshr *m);
bool mshr_has_room(const struct mshr *m);
/* Whether mshr_add would take a request for `line` now (counts nothing). */
bool mshr_can_add(const struct mshr *m, uint64_t line);
/* Start loading where `line`'s entry is looked for. */
void mshr_prefetch(const struct mshr *m, uint64_t line);
/* Requests waiting, over all entries. */
uint64_t mshr_waiting(const struct mshr *m);

#ifdef __cplusplus
}
#endif

#endif
