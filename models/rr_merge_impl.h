/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The round-robin merge's state and the taking of its next request
 * (rr_merge_take), inline, for a loop that drains a merge of its own: the
 * loops of sector_cache.c that serve an L2 from its merge.  There the call
 * per request of rr_merge_next() was on the critical path of the L2's
 * partition (titanv-ref, full benchmark app, two threads, inline against
 * the call, two sets of 11 to 15 pairs: 0.955 and 0.960 of the wall time
 * of its streaming kernel alone, 0.977 and 0.974 of the whole app's, with
 * the same instructions within 0.3 %).  Everything else goes through
 * rr_merge.h.
 */
#ifndef SS_RR_MERGE_IMPL_H
#define SS_RR_MERGE_IMPL_H

#include <stdbool.h>
#include <string.h>
#include <glib.h>
#include "rr_merge.h"
#include "prefetch.h"

/*
 * A queued request in 16 bytes instead of mem_req's 48.  The L2 of the
 * full benchmark app queues up to half a million requests while one SM's
 * turn waits for the others', and what costs there is the rings' memory
 * traffic, not their instructions: titanv-ref on two threads ran 12 %
 * faster with 16-byte entries, though packing and unpacking one takes
 * some 50 more instructions than a copy.
 *
 * A slot keeps what changes from request to request: the address, with
 * the kind and space in its low 5 bits (a request is 32-byte aligned),
 * the byte mask and the warp.  What an input's requests share, its SM,
 * size, flags and part_addr (none, or the address, as an SM sends it),
 * is the input's `usual`, taken from the request pushed into an empty
 * ring.  Any other request (another shape, or answer fields set) waits
 * whole in the input's `whole` ring, in order, and its slot has kind 0.
 * Either way serve() sees the request pushed, byte for byte.
 */
struct rr_slot {
	uint64_t addr;		/* low 5 bits: kind (4; 0: whole), space (1) */
	uint32_t mask, warp;
};

#define SLOT_LOW (MEM_ATOM - 1)

G_STATIC_ASSERT(sizeof(struct rr_slot) == 16);
G_STATIC_ASSERT(sizeof(struct mem_req) == 48);	/* no padding to copy */

/* What the slots of an input's ring leave out. */
struct usual {
	uint32_t size;
	uint16_t sm;
	uint8_t flags;
	bool part_is_addr;	/* part_addr: the address; else 0 */
};

/* A ring that grows: cap 0 or a power of two (index & (cap - 1)). */
struct ring {
	void *buf;
	size_t cap, head, n;
};

/*
 * The requests of one input not served yet.  `tmpl` is a request with the
 * usual's fields set and the rest zero, so that a slot becomes a request
 * with a copy and the five fields it has.
 */
struct rr_fifo {
	struct mem_req tmpl;
	struct ring slot;	/* struct rr_slot */
	struct ring whole;	/* struct mem_req, for the slots of kind 0 */
	struct usual usual;
	bool ended;
};

/* The usual of f's requests from now on (its rings are empty). */
static inline void usual_set(struct rr_fifo *f, struct usual u)
{
	f->usual = u;
	f->tmpl = (struct mem_req){
		.hdr = { sizeof(f->tmpl), MEM_READ },
		.size = u.size,
		.sm = u.sm,
		.flags = u.flags,
	};
}

/*
 * Between calls, the input whose turn it is (cursor) has nothing queued
 * and has not ended, unless every input has ended: drain() leaves it so.
 * A request from another input therefore cannot let anything be served,
 * and is only queued.  (Inside a serve(), where a loop in the graph may
 * push or end an input, the drain that is running takes what was queued.)
 */
struct rr_round_input;

struct rr_merge {
	unsigned n_in, cursor, n_ended;
	bool arrival;			/* no order: serve as they come */
	bool in_rounds;			/* rr_merge_rounds() .. _done() */
	unsigned n_round;		/* inputs in round[] */
	struct rr_round_input *round;	/* n_in of them */
	rr_serve_fn serve;
	rr_drain_fn drain;		/* NULL: drain() serves one by one */
	void *ctx;
	struct rr_fifo fifo[];
};

/* What slot s (not of kind 0) of f's holds, into *r, whose other fields
 * are f's template's. */
static inline __attribute__((always_inline)) void
slot_fields(const struct rr_fifo *f, const struct rr_slot *s, struct mem_req *r)
{
	uint64_t addr = s->addr & ~(uint64_t)SLOT_LOW;

	r->hdr.kind = s->addr & 15;
	r->addr = addr;
	if (f->usual.part_is_addr)
		r->part_addr = addr;
	r->mask = s->mask;
	r->space = (uint8_t)(s->addr >> 4 & 1);
	r->warp = s->warp;
}

/* The request of f's slot s (not of kind 0) into *r. */
static inline __attribute__((always_inline)) void
slot_request(const struct rr_fifo *f, const struct rr_slot *s, struct mem_req *r)
{
	*r = f->tmpl;
	slot_fields(f, s, r);
}

/* The request at the head of f, out of its ring(s) into *r. */
static inline void fifo_pop(struct rr_fifo *f, struct mem_req *r)
{
	const struct rr_slot *s = (const struct rr_slot *)f->slot.buf + f->slot.head;

	if (G_LIKELY(s->addr & 15)) {
		slot_request(f, s, r);
	} else {
		memcpy(r, (const struct mem_req *)f->whole.buf + f->whole.head, sizeof(*r));
		f->whole.head = (f->whole.head + 1) & (f->whole.cap - 1);
		f->whole.n--;
	}
	f->slot.head = (f->slot.head + 1) & (f->slot.cap - 1);
	f->slot.n--;
}

/* The next input's turn (no division: this runs per request). */
static inline void next_turn(struct rr_merge *m)
{
	if (++m->cursor == m->n_in)
		m->cursor = 0;
}

/* rr_merge_next(), inline. */
static inline __attribute__((always_inline)) bool
rr_merge_take(struct rr_merge *m, struct mem_req *r)
{
	for (unsigned skipped = 0; skipped < m->n_in; ) {
		struct rr_fifo *f = &m->fifo[m->cursor];

		if (f->slot.n) {
			fifo_pop(f, r);
			next_turn(m);
			return true;
		}
		if (!f->ended)
			return false;	/* its next request is still to come */
		skipped++;
		next_turn(m);
	}
	return false;
}

/*
 * Whole rounds.  The merge's order is that of (the request's place in its
 * input's stream, the input), so while every input that has not ended
 * holds R requests or more, and every ended one still holding some holds
 * R or more, the next R x (those inputs) requests are the heads of their
 * rings, round after round in the cursor's order, and taking them needs
 * none of rr_merge_take()'s per-request bookkeeping (the turn, the ring's
 * head and count): titanv-ref's L2 takes most of its requests so (the
 * full benchmark app: drains that find 4 to 16 whole rounds waiting are
 * half of them, while the SMs send a tick's lines at a time).
 *
 * rr_merge_rounds() says how many whole rounds there are (0: none, or an
 * input holds a request of its `whole` ring) and lists their inputs;
 * rr_round_take() gives input k's request of round r; rr_merge_rounds_done()
 * takes the R rounds out.  In between, nothing may push into the merge
 * or end an input (the rings' places would move): only a loop whose
 * serving sends nothing that can come back to it takes rounds (an L2
 * whose level below only counts, SS_PORT_COUNTS), and the merge
 * g_error()s on a push or end meanwhile.
 */
struct rr_round_input {
	const struct rr_slot *slot;	/* f's ring, as it was at rr_merge_rounds() */
	size_t head, mask;
	struct rr_fifo *f;
	/* the input's request: its template, copied in once, then each
	 * slot's fields (titanv-ref, native benchmark app, one thread: 24 M
	 * of 5,273 M instructions fewer than a copy of the template per
	 * request) */
	struct mem_req req;
};

size_t rr_merge_rounds(struct rr_merge *m);

/* The inputs of the rounds, *n of them, in the order of a round. */
static inline struct rr_round_input *rr_merge_round_inputs(const struct rr_merge *m,
							    unsigned *n)
{
	*n = m->n_round;
	return m->round;
}

/*
 * How many rounds ahead rr_round_take() asks the memory for an input's
 * slot.  An input's ring is read one slot a round, 80 inputs apart on
 * titanv-ref's L2, and the slots of an input that ran ahead of the others
 * were written long before (the full benchmark app queues up to half a
 * million): the L2's partition, the critical path of the app's streaming
 * kernel on two threads, waited on them.  Asking 8 rounds (two cache
 * lines) ahead costs ~5 instructions a request (+0.9 % of the app's) and
 * took 0.91 to 0.96 of the app's wall time on two threads (native file,
 * three sittings of 21 to 25 pairs); 4 and 16 rounds did no better.
 */
#define RR_PREFETCH_ROUNDS 8

/* Round r's request of input `in` (as fifo_pop() makes it), in in->req
 * until the next take of that input. */
static inline __attribute__((always_inline)) const struct mem_req *
rr_round_take(struct rr_round_input *in, size_t round)
{
	ss_prefetch(in->slot + ((in->head + round + RR_PREFETCH_ROUNDS) & in->mask));
	slot_fields(in->f, in->slot + ((in->head + round) & in->mask), &in->req);
	return &in->req;
}

void rr_merge_rounds_done(struct rr_merge *m, size_t rounds);

#endif
