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
 * and is only queued.
 */
struct rr_merge {
	unsigned n_in, cursor, n_ended;
	bool arrival;			/* no order: serve as they come */
	bool draining;			/* inside drain(): serve() is running */
	rr_serve_fn serve;
	void *ctx;
	struct mem_req *retired;	/* a ring outgrown while draining */
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
	g_free(m->retired);
	g_free(m);
}

static __attribute__((noinline)) void fifo_grow(struct rr_merge *m, struct rr_fifo *f)
{
	size_t cap = f->cap ? 2 * f->cap : 64;
	struct mem_req *buf = g_new(struct mem_req, cap);

	/* unwrap the ring into the new buffer */
	for (size_t i = 0; i < f->n; i++)
		buf[i] = f->buf[(f->head + i) & (f->cap - 1)];
	/*
	 * serve() may be reading a request of the old ring (it was handed a
	 * pointer into it) and pushing to this input again: the old ring
	 * lives until the drain ends.
	 */
	if (m->draining && f->buf) {
		g_free(m->retired);
		m->retired = f->buf;
	} else {
		g_free(f->buf);
	}
	f->buf = buf;
	f->cap = cap;
	f->head = 0;
}

static inline void fifo_push(struct rr_merge *m, struct rr_fifo *f, const struct mem_req *r)
{
	if (G_UNLIKELY(f->n == f->cap))
		fifo_grow(m, f);
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
 * is served in place, from its ring, and leaves the ring after serve():
 * a push that serve() makes (a loop in the graph) only queues, and this
 * loop takes it in turn.
 */
static void drain(struct rr_merge *m)
{
	unsigned skipped = 0;

	m->draining = true;
	while (skipped < m->n_in) {
		struct rr_fifo *f = &m->fifo[m->cursor];

		if (f->n) {
			size_t at = f->head;

			skipped = 0;
			next_turn(m);
			m->serve(m->ctx, &f->buf[at]);
			f->head = (f->head + 1) & (f->cap - 1);
			f->n--;
		} else if (f->ended) {
			skipped++;
			next_turn(m);
		} else {
			break;		/* its next request is still to come */
		}
	}
	m->draining = false;
	if (G_UNLIKELY(m->retired)) {
		g_free(m->retired);
		m->retired = NULL;
	}
}

void rr_merge_push(struct rr_merge *m, unsigned i, const struct mem_req *r)
{
	struct rr_fifo *f = &m->fifo[i];

	if (m->arrival) {
		m->serve(m->ctx, r);
		return;
	}
	if (i != m->cursor || m->draining) {
		/* not its turn, or a serve() is running: only queued */
		fifo_push(m, f, r);
		return;
	}
	/* its turn, so nothing of it is queued: no need to queue this one */
	next_turn(m);
	m->draining = true;
	m->serve(m->ctx, r);
	m->draining = false;
	drain(m);
}

bool rr_merge_end(struct rr_merge *m, unsigned i)
{
	if (m->fifo[i].ended)
		g_error("rr_merge: input %u ended the kernel twice", i);
	m->fifo[i].ended = true;
	if (!m->arrival && !m->draining)
		drain(m);	/* inside a serve(), the drain running goes on */
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
