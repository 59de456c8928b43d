/* SPDX-License-Identifier: BSD-3-Clause */
/* The round-robin merge of request streams (rr_merge.h). */
#include "config.h"

#include <glib.h>
#include "rr_merge.h"

/* The requests of one input not served yet: a ring that grows. */
struct rr_fifo {
	struct mem_req *buf;
	size_t cap, head, n;	/* cap: 0 or a power of two (index & (cap - 1)) */
	bool ended;
};

/*
 * Between calls, the input whose turn it is (cursor) has nothing queued
 * and has not ended, unless every input has ended: drain() leaves it so.
 * A request from another input therefore cannot let anything be served,
 * and is only queued.  (Inside a serve(), where a loop in the graph may
 * push or end an input, the drain that is running takes what was queued.)
 */
struct rr_merge {
	unsigned n_in, cursor, n_ended;
	bool arrival;			/* no order: serve as they come */
	rr_serve_fn serve;
	void *ctx;
	struct rr_fifo fifo[];
};

struct rr_merge *rr_merge_new(unsigned n_inputs, bool arrival,
			       rr_serve_fn serve, void *ctx)
{
	struct rr_merge *m = g_malloc0(sizeof(*m) + n_inputs * sizeof(m->fifo[0]));

	m->n_in = n_inputs;
	m->arrival = arrival;
	m->serve = serve;
	m->ctx = ctx;
	return m;
}

void rr_merge_free(struct rr_merge *m)
{
	if (!m)
		return;
	for (unsigned i = 0; i < m->n_in; i++)
		g_free(m->fifo[i].buf);
	g_free(m);
}

static __attribute__((noinline)) void fifo_grow(struct rr_fifo *f)
{
	size_t cap = f->cap ? 2 * f->cap : 64;
	struct mem_req *buf = g_new(struct mem_req, cap);

	/* unwrap the ring into the new buffer */
	for (size_t i = 0; i < f->n; i++)
		buf[i] = f->buf[(f->head + i) & (f->cap - 1)];
	g_free(f->buf);
	f->buf = buf;
	f->cap = cap;
	f->head = 0;
}

static inline void fifo_push(struct rr_fifo *f, const struct mem_req *r)
{
	if (G_UNLIKELY(f->n == f->cap))
		fifo_grow(f);
	f->buf[(f->head + f->n) & (f->cap - 1)] = *r;
	f->n++;
}

/* The next input's turn (no division: this runs per request). */
static inline void next_turn(struct rr_merge *m)
{
	if (++m->cursor == m->n_in)
		m->cursor = 0;
}

/*
 * Serve inputs in turn while the one whose turn it is can go.  A request
 * leaves its ring, as a copy, before serve() sees it: serve() may push
 * (and grow the ring) or end an input, and drain again, through a loop
 * in the graph.  Such drains nest as deep as the loop's chain of
 * requests; the stock graphs have no loop back into a merge (what is
 * below an L2 sends nothing up).
 */
static void drain(struct rr_merge *m)
{
	unsigned skipped = 0;

	while (skipped < m->n_in) {
		struct rr_fifo *f = &m->fifo[m->cursor];

		if (f->n) {
			struct mem_req r = f->buf[f->head];

			f->head = (f->head + 1) & (f->cap - 1);
			f->n--;
			skipped = 0;
			next_turn(m);
			m->serve(m->ctx, &r);
		} else if (f->ended) {
			skipped++;
			next_turn(m);
		} else {
			return;		/* its next request is still to come */
		}
	}
}

/* rr_merge_push for all but a request queued into a ring with room. */
static __attribute__((noinline)) void push_slow(struct rr_merge *m, unsigned i,
						 const struct mem_req *r)
{
	struct rr_fifo *f = &m->fifo[i];

	if (m->arrival) {
		m->serve(m->ctx, r);
		return;
	}
	if (i != m->cursor) {
		/* not its turn: only queued (see struct rr_merge) */
		fifo_push(f, r);
		return;
	}
	if (f->n) {
		/* its turn inside a serve(), behind its own queue */
		fifo_push(f, r);
	} else {
		/* its turn and nothing before it: no need to queue */
		next_turn(m);
		m->serve(m->ctx, r);
	}
	drain(m);
}

/*
 * Once per request: one not of the input whose turn it is, whose ring has
 * room, is queued without a call (no registers saved); the rest is a tail
 * call.
 */
void rr_merge_push(struct rr_merge *m, unsigned i, const struct mem_req *r)
{
	struct rr_fifo *f = &m->fifo[i];

	if (G_LIKELY(!m->arrival && i != m->cursor && f->n != f->cap)) {
		f->buf[(f->head + f->n) & (f->cap - 1)] = *r;
		f->n++;
		return;
	}
	push_slow(m, i, r);
}

bool rr_merge_end(struct rr_merge *m, unsigned i)
{
	if (m->fifo[i].ended)
		g_error("rr_merge: input %u ended the kernel twice", i);
	m->fifo[i].ended = true;
	if (!m->arrival)
		drain(m);
	if (++m->n_ended < m->n_in)
		return false;
	for (unsigned k = 0; k < m->n_in; k++) {
		g_assert(m->fifo[k].n == 0);
		m->fifo[k].ended = false;
	}
	m->n_ended = 0;
	m->cursor = 0;
	return true;
}
