/* SPDX-License-Identifier: BSD-3-Clause */
/* The round-robin merge of request streams (rr_merge.h). */
#include "config.h"

#include <stddef.h>
#include <string.h>
#include <glib.h>
#include "rr_merge_impl.h"

struct rr_merge *rr_merge_new(unsigned n_inputs, bool arrival,
			       rr_serve_fn serve, void *ctx)
{
	struct rr_merge *m = g_malloc0(sizeof(*m) + n_inputs * sizeof(m->fifo[0]));

	m->n_in = n_inputs;
	m->arrival = arrival;
	m->serve = serve;
	m->ctx = ctx;
	m->round = g_new(struct rr_round_input, n_inputs);
	return m;
}

void rr_merge_free(struct rr_merge *m)
{
	if (!m)
		return;
	for (unsigned i = 0; i < m->n_in; i++) {
		g_free(m->fifo[i].slot.buf);
		g_free(m->fifo[i].whole.buf);
	}
	g_free(m->round);
	g_free(m);
}

static __attribute__((noinline)) void ring_grow(struct ring *q, size_t elem)
{
	size_t cap = q->cap ? 2 * q->cap : 64;
	char *buf = g_malloc(cap * elem);
	/* unwrap the ring into the new buffer: head to the end, then the rest */
	size_t first = q->n ? MIN(q->n, q->cap - q->head) : 0;

	if (first)
		memcpy(buf, (char *)q->buf + q->head * elem, first * elem);
	if (q->n > first)
		memcpy(buf + first * elem, q->buf, (q->n - first) * elem);
	g_free(q->buf);
	q->buf = buf;
	q->cap = cap;
	q->head = 0;
}

/* Where the next element goes (a ring with room). */
static inline void *ring_tail(struct ring *q, size_t elem)
{
	return (char *)q->buf + ((q->head + q->n) & (q->cap - 1)) * elem;
}

/* Whether r goes in a slot of an input whose usual is u. */
static inline bool slot_fits(const struct mem_req *r, const struct usual *u)
{
	return !((r->addr & SLOT_LOW) | r->ctl | r->reason | r->route | r->tag |
		 (r->space >> 1) | (r->hdr.size ^ (uint32_t)sizeof(*r)) |
		 (r->size ^ u->size) | (r->sm ^ u->sm) | (r->flags ^ u->flags) |
		 (r->part_addr ^ (u->part_is_addr ? r->addr : 0))) &&
	       r->hdr.kind - 1 < 15;
}

static inline void slot_put(struct rr_fifo *f, const struct mem_req *r)
{
	struct rr_slot *s = ring_tail(&f->slot, sizeof(*s));

	s->addr = mem_run_addr(r);	/* coded as a run's entry is */
	s->mask = r->mask;
	s->warp = r->warp;
	f->slot.n++;
}

static inline void fifo_push(struct rr_fifo *f, const struct mem_req *r)
{
	if (G_UNLIKELY(f->slot.n == f->slot.cap))
		ring_grow(&f->slot, sizeof(struct rr_slot));
	if (!f->slot.n)
		usual_set(f, (struct usual){
			.size = r->size, .sm = r->sm, .flags = r->flags,
			.part_is_addr = r->part_addr && r->part_addr == r->addr,
		});
	if (G_LIKELY(slot_fits(r, &f->usual))) {
		slot_put(f, r);
		return;
	}
	if (f->whole.n == f->whole.cap)
		ring_grow(&f->whole, sizeof(*r));
	memcpy(ring_tail(&f->whole, sizeof(*r)), r, sizeof(*r));
	f->whole.n++;
	/* kind 0: the rest of the slot is not read */
	*(struct rr_slot *)ring_tail(&f->slot, sizeof(struct rr_slot)) = (struct rr_slot){ 0 };
	f->slot.n++;
}

bool rr_merge_next(struct rr_merge *m, struct mem_req *r)
{
	return rr_merge_take(m, r);
}

/*
 * Serve inputs in turn while the one whose turn it is can go.  A request
 * leaves its ring, as a copy, before serve() sees it: serve() may push
 * (and grow the ring) or end an input, and drain again, through a loop
 * in the graph.  Such drains nest as deep as the loop's chain of
 * requests; the stock graphs have no loop back into a merge (what is
 * below an L2 sends nothing up).  A drain of the owner's own
 * (rr_merge_set_drain) takes the same requests in the same order.
 */
static void drain(struct rr_merge *m)
{
	struct mem_req r;

	if (m->drain) {
		m->drain(m->ctx);
		return;
	}
	while (rr_merge_next(m, &r))
		m->serve(m->ctx, &r);
}

size_t rr_merge_rounds(struct rr_merge *m)
{
	size_t rounds = SIZE_MAX;
	unsigned n = 0;

	if (m->arrival)
		return 0;
	for (unsigned k = 0, i = m->cursor; k < m->n_in; k++) {
		struct rr_fifo *f = &m->fifo[i];

		if (f->slot.n || !f->ended) {
			/* an input with nothing yet, or a request kept whole */
			if (!f->slot.n || f->whole.n)
				return 0;
			rounds = MIN(rounds, f->slot.n);
			m->round[n++] = (struct rr_round_input){
				f->slot.buf, f->slot.head, f->slot.cap - 1, f, f->tmpl,
			};
		}
		if (++i == m->n_in)
			i = 0;
	}
	if (!n)
		return 0;
	m->n_round = n;
	m->in_rounds = true;
	return rounds;
}

void rr_merge_rounds_done(struct rr_merge *m, size_t rounds)
{
	for (unsigned k = 0; k < m->n_round; k++) {
		struct rr_fifo *f = m->round[k].f;

		f->slot.head = (f->slot.head + rounds) & (f->slot.cap - 1);
		f->slot.n -= rounds;
	}
	m->in_rounds = false;
}

/* A push or end between rr_merge_rounds() and _done() (see there). */
static void check_not_in_rounds(const struct rr_merge *m)
{
	if (G_UNLIKELY(m->in_rounds))
		g_error("rr_merge: a request pushed or an input ended while whole rounds were being taken");
}

void rr_merge_set_drain(struct rr_merge *m, rr_drain_fn drain_fn)
{
	m->drain = drain_fn;
}

/* rr_merge_push for all but a request queued into a ring with room. */
static __attribute__((noinline)) void push_slow(struct rr_merge *m, unsigned i,
						 const struct mem_req *r)
{
	struct rr_fifo *f = &m->fifo[i];

	check_not_in_rounds(m);
	if (m->arrival) {
		m->serve(m->ctx, r);
		return;
	}
	if (i != m->cursor) {
		/* not its turn: only queued (see struct rr_merge) */
		fifo_push(f, r);
		return;
	}
	if (f->slot.n) {
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

	if (G_LIKELY(!(m->arrival | m->in_rounds) && i != m->cursor &&
		     f->slot.n != f->slot.cap &&
		     f->slot.n && slot_fits(r, &f->usual))) {
		slot_put(f, r);
		return;
	}
	push_slow(m, i, r);
}

/*
 * A run's entries are coded as the slots are (struct rr_slot), so a run
 * for an input whose turn it is not, behind requests of its shape (or
 * none), is copied in whole; otherwise its requests are queued one by
 * one, then served if it is the input's turn.  (With `arrival`, served
 * one by one: such a merge promises no order among inputs, and a sender
 * sends runs only to one that does.)
 */
G_STATIC_ASSERT(sizeof(struct mem_run_entry) == sizeof(struct rr_slot));
G_STATIC_ASSERT(offsetof(struct mem_run_entry, mask) == offsetof(struct rr_slot, mask));
G_STATIC_ASSERT(offsetof(struct mem_run_entry, warp) == offsetof(struct rr_slot, warp));

void rr_merge_push_run(struct rr_merge *m, unsigned i, const struct mem_run *run)
{
	struct rr_fifo *f = &m->fifo[i];
	const struct usual u = { .size = run->size, .sm = run->sm, .part_is_addr = true };

	check_not_in_rounds(m);
	/* the input whose turn it is too: it then holds nothing (see struct
	 * rr_merge), takes the whole run, and is drained */
	if (!m->arrival &&
	    (!f->slot.n || (f->usual.size == u.size && f->usual.sm == u.sm &&
			    !f->usual.flags && f->usual.part_is_addr))) {
		if (!f->slot.n)
			usual_set(f, u);
		while (f->slot.cap - f->slot.n < run->n)
			ring_grow(&f->slot, sizeof(struct rr_slot));

		/* the entries at the tail, up to the ring's end, then from 0 */
		size_t tail = (f->slot.head + f->slot.n) & (f->slot.cap - 1);
		size_t first = MIN((size_t)run->n, f->slot.cap - tail);
		struct rr_slot *buf = f->slot.buf;

		memcpy(buf + tail, run->req, first * sizeof(*buf));
		memcpy(buf, run->req + first, (run->n - first) * sizeof(*buf));
		f->slot.n += run->n;
		if (i == m->cursor)
			drain(m);
		return;
	}
	/*
	 * The whole run is queued before anything of it is served: a request
	 * that a serve() pushes to input i came after the run, as on a link.
	 */
	struct mem_req r;

	if (G_UNLIKELY(!run->n))
		return;		/* none of mem_run's (1 .. MEM_RUN_MAX) */
	mem_run_request(run, 0, &r);
	for (unsigned k = 0; k < run->n; k++) {
		mem_run_next(run, k, &r);
		if (m->arrival)
			m->serve(m->ctx, &r);
		else
			fifo_push(f, &r);
	}
	if (!m->arrival && i == m->cursor)
		drain(m);
}

bool rr_merge_end(struct rr_merge *m, unsigned i)
{
	check_not_in_rounds(m);
	if (m->fifo[i].ended)
		g_error("rr_merge: input %u ended the kernel twice", i);
	m->fifo[i].ended = true;
	if (!m->arrival)
		drain(m);
	if (++m->n_ended < m->n_in)
		return false;
	for (unsigned k = 0; k < m->n_in; k++) {
		g_assert(m->fifo[k].slot.n == 0 && m->fifo[k].whole.n == 0);
		m->fifo[k].ended = false;
	}
	m->n_ended = 0;
	m->cursor = 0;
	return true;
}
