/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The round-robin merge (models/rr_merge.h) against a plain model of what
 * it must produce: request k of every input, inputs ascending, then request
 * k + 1 of every input that has one, and so on; that is, the requests of a
 * kernel sorted by (place in their input's stream, input).  The merge must
 * give that order for any interleaving of the inputs' pushes and ends,
 * also when serve() itself pushes (a loop in the graph, bursts that grow
 * a ring more than once while a request of it is being served) or ends an
 * input, the last one included, and when its owner drains it with a loop
 * of its own (rr_merge_next), whole rounds first (rr_merge_rounds) or not.  And serve() must see each request
 * byte for byte as pushed, whatever its shape: the merge keeps the usual
 * ones in a shorter form.
 */
#include "config.h"

#include <malloc.h>
#include <string.h>
#include <glib.h>
#include "rr_merge_impl.h"

/* A request's identity travels in addr: input << 32 | place in its stream. */
#define ID(input, seq) ((uint64_t)(input) << 32 | (seq))

struct world {
	struct rr_merge *m;
	GArray *served;		/* uint64_t ids, in serve order */
	GRand *rng;
	unsigned n_in;
	guint32 *pushed;	/* per input: requests pushed so far this kernel */
	guint32 *length;	/* per input: its stream's length this kernel */
	gboolean *ended;
	GArray **sent;		/* per input: its requests this kernel, in order */
	/* serve() pushes the next request of an input now and then */
	gboolean reenter;
	/* bursts go as runs (mem.h) where their requests fit in one */
	gboolean runs;
	unsigned in_runs;
	unsigned reentered;
	/* the world drains the merge itself (rr_merge_set_drain) */
	gboolean own_drain;
	unsigned own_drains;
	/* that drain takes whole rounds first (serve() must not reenter) */
	gboolean rounds;
	guint64 taken_in_rounds;
};

/*
 * Request seq of input i, its identity in mask (the input) and warp (the
 * place): mostly of the shape an SM's L1 sends (aligned, the SM's number,
 * part_addr the address or 0 as the input goes), now and then with a
 * field that the short form cannot hold.
 */
static struct mem_req make_request(struct world *w, unsigned i, guint32 seq)
{
	struct mem_req r;
	uint64_t addr = ((uint64_t)g_rand_int(w->rng) << 32 | g_rand_int(w->rng)) & ~(uint64_t)31;

	mem_req_init(&r, g_rand_boolean(w->rng) ? MEM_READ : MEM_WRITE, addr, 32);
	r.mask = i;
	r.warp = seq;
	r.sm = (uint16_t)i;
	r.space = (uint8_t)g_rand_int_range(w->rng, 0, 2);
	r.part_addr = i % 3 ? addr : 0;
	switch (g_rand_int_range(w->rng, 0, 40)) {
	case 0: r.addr |= 8; break;
	case 1: r.part_addr = addr ^ 4096; break;
	case 2: r.size = 64; break;
	case 3: r.sm = 999; break;
	case 4: r.flags = MEM_F_BYPASS; break;
	case 5: r.ctl = 1; break;
	case 6: r.reason = 2; break;
	case 7: r.route = 3; break;
	case 8: r.tag = 77; break;
	case 9: r.space = 2; break;
	case 10: r.hdr.kind = 16; break;
	case 11: r.hdr.kind = 0; break;
	case 12: r.hdr.kind = MEM_ATOMIC; break;
	case 13: r.hdr.size = 64; break;	/* a larger message's head */
	case 14: r.hdr.kind = 15; break;
	case 15: r.addr = r.part_addr = 0; break;
	case 16: r.flags = 0x80; break;
	case 17: r.space = 255; break;
	default: break;
	}
	return r;
}

static void push_next(struct world *w, unsigned i)
{
	struct mem_req r = make_request(w, i, w->pushed[i]);

	g_array_append_val(w->sent[i], r);
	w->pushed[i]++;
	rr_merge_push(w->m, i, &r);
}

/*
 * Requests held in a run go on record (sent, pushed) only as the run is
 * pushed: serve() may push the input's next request meanwhile, and that
 * one comes after them.
 */
static void record(struct world *w, unsigned i, const struct mem_req *r)
{
	g_array_append_val(w->sent[i], *r);
	w->pushed[i]++;
}

static void push_run(struct world *w, unsigned i, struct mem_run *run)
{
	struct mem_req r;

	for (unsigned k = 0; k < run->n; k++) {
		mem_run_request(run, k, &r);
		record(w, i, &r);
	}
	w->in_runs += run->n;
	rr_merge_push_run(w->m, i, run);
	run->n = 0;
}

/*
 * n requests of input i, as an L1 sends down to a level that takes runs:
 * each added to the run while it fits, the run pushed when the next does
 * not (and that one alone when it fits in no run) and at the burst's end.
 */
static void push_burst_runs(struct world *w, unsigned i, int n)
{
	struct mem_run run = { .n = 0 };

	for (; n > 0 && w->pushed[i] + run.n < w->length[i]; n--) {
		struct mem_req r = make_request(w, i, w->pushed[i] + run.n);

		if (mem_run_add(&run, &r))
			continue;
		if (run.n) {
			push_run(w, i, &run);
			/* serve() may have pushed the input's next ones */
			if (w->pushed[i] >= w->length[i])
				break;
			r.warp = w->pushed[i];
		}
		if (mem_run_add(&run, &r))
			continue;
		record(w, i, &r);
		rr_merge_push(w->m, i, &r);
	}
	if (run.n)
		push_run(w, i, &run);
}

static void serve(void *ctx, const struct mem_req *r)
{
	struct world *w = ctx;
	uint64_t id = ID(r->mask, r->warp);
	struct mem_req seen = *r;

	g_assert_cmpuint(r->mask, <, w->n_in);
	g_assert_cmpuint(r->warp, <, w->sent[r->mask]->len);
	g_assert_true(memcmp(r, &g_array_index(w->sent[r->mask], struct mem_req, r->warp),
			     sizeof(*r)) == 0);
	g_array_append_val(w->served, id);
	if (!w->reenter || g_rand_int_range(w->rng, 0, 4))
		return;

	unsigned i = g_rand_int_range(w->rng, 0, w->n_in);

	/*
	 * r must stay readable while the merge takes what serve() pushes:
	 * sometimes a burst long enough to grow a ring twice in one serve()
	 */
	for (int b = g_rand_int_range(w->rng, 0, 8) ? 1 : 300; b > 0 && w->pushed[i] < w->length[i]; b--) {
		w->reentered++;
		push_next(w, i);
		/* two at a time, within the stream's length */
		if (w->pushed[i] < w->length[i])
			push_next(w, i);
	}
	g_assert_true(memcmp(r, &seen, sizeof(*r)) == 0);
}

/* A drain of the world's own, as an L2's loop over its requests. */
static void world_drain(void *ctx)
{
	struct world *w = ctx;
	struct mem_req r;

	w->own_drains++;
	for (size_t rounds; w->rounds && (rounds = rr_merge_rounds(w->m)); ) {
		unsigned n_in;
		struct rr_round_input *in = rr_merge_round_inputs(w->m, &n_in);

		for (size_t k = 0; k < rounds; k++)
			for (unsigned i = 0; i < n_in; i++) {
				r = *rr_round_take(&in[i], k);
				serve(w, &r);
				w->taken_in_rounds++;
			}
		rr_merge_rounds_done(w->m, rounds);
	}
	while (rr_merge_next(w->m, &r))
		serve(w, &r);
}

/* The plain model: every request of the kernel, by (seq, input). */
static GArray *expected_order(const struct world *w)
{
	GArray *e = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	guint32 longest = 0;

	for (unsigned i = 0; i < w->n_in; i++)
		longest = MAX(longest, w->length[i]);
	for (guint32 k = 0; k < longest; k++)
		for (unsigned i = 0; i < w->n_in; i++)
			if (k < w->length[i]) {
				uint64_t id = ID(i, k);

				g_array_append_val(e, id);
			}
	return e;
}

/*
 * One kernel: inputs of random lengths (some empty, some long enough that
 * their rings grow), pushed and ended in a random interleaving.
 */
static void run_kernel(struct world *w, guint32 max_len)
{
	unsigned live = w->n_in;
	GArray *e;

	g_array_set_size(w->served, 0);
	for (unsigned i = 0; i < w->n_in; i++) {
		w->pushed[i] = 0;
		w->ended[i] = FALSE;
		g_array_set_size(w->sent[i], 0);
		w->length[i] = g_rand_int_range(w->rng, 0, 4) ? g_rand_int_range(w->rng, 0, max_len + 1) : 0;
	}
	while (live) {
		unsigned i = g_rand_int_range(w->rng, 0, w->n_in);

		if (w->ended[i])
			continue;
		if (w->pushed[i] < w->length[i]) {
			/* bursts, as a warp instruction's sectors come */
			int b = g_rand_int_range(w->rng, 1, w->runs ? 40 : 12);

			if (w->runs)
				push_burst_runs(w, i, b);
			for (; !w->runs && b > 0 && w->pushed[i] < w->length[i]; b--)
				push_next(w, i);
		} else {
			w->ended[i] = TRUE;
			live--;
			g_assert_true(rr_merge_end(w->m, i) == (live == 0));
		}
	}
	e = expected_order(w);
	g_assert_cmpuint(w->served->len, ==, e->len);
	for (guint k = 0; k < e->len; k++)
		if (g_array_index(w->served, uint64_t, k) != g_array_index(e, uint64_t, k))
			g_error("kernel of %u inputs: request %u served is input %u #%u, expected input %u #%u",
				w->n_in, k,
				(unsigned)(g_array_index(w->served, uint64_t, k) >> 32),
				(unsigned)g_array_index(w->served, uint64_t, k),
				(unsigned)(g_array_index(e, uint64_t, k) >> 32),
				(unsigned)g_array_index(e, uint64_t, k));
	g_array_free(e, TRUE);
}

/* Returns the requests taken in whole rounds. */
static guint64 run_world_rounds(unsigned n_in, gboolean reenter, gboolean runs,
				gboolean own_drain, gboolean rounds, guint32 seed)
{
	struct world w = {
		.served = g_array_new(FALSE, FALSE, sizeof(uint64_t)),
		.rng = g_rand_new_with_seed(seed),
		.n_in = n_in,
		.pushed = g_new0(guint32, n_in),
		.length = g_new0(guint32, n_in),
		.ended = g_new0(gboolean, n_in),
		.reenter = reenter,
		.runs = runs,
		.own_drain = own_drain,
		.rounds = rounds,
		.sent = g_new(GArray *, n_in),
	};

	for (unsigned i = 0; i < n_in; i++)
		w.sent[i] = g_array_new(FALSE, FALSE, sizeof(struct mem_req));

	w.m = rr_merge_new(n_in, FALSE, serve, &w);
	if (own_drain)
		rr_merge_set_drain(w.m, world_drain);
	/* kernels one after the other on the same merge: it must start afresh */
	for (int k = 0; k < 20; k++)
		run_kernel(&w, k % 5 == 4 ? 600 : 40);
	if (reenter)
		g_assert_cmpuint(w.reentered, >, 0);
	/* most requests went in runs, the rest alone */
	if (runs)
		g_assert_cmpuint(w.in_runs, >, 0);
	if (own_drain)
		g_assert_cmpuint(w.own_drains, >, 0);
	rr_merge_free(w.m);
	g_array_free(w.served, TRUE);
	g_rand_free(w.rng);
	g_free(w.pushed);
	g_free(w.length);
	g_free(w.ended);
	for (unsigned i = 0; i < n_in; i++)
		g_array_free(w.sent[i], TRUE);
	g_free(w.sent);
	return w.taken_in_rounds;
}

static void run_world_drained(unsigned n_in, gboolean reenter, gboolean runs,
			      gboolean own_drain, guint32 seed)
{
	(void)run_world_rounds(n_in, reenter, runs, own_drain, FALSE, seed);
}

static void run_world_as(unsigned n_in, gboolean reenter, gboolean runs, guint32 seed)
{
	run_world_drained(n_in, reenter, runs, FALSE, seed);
}

static void run_world(unsigned n_in, gboolean reenter, guint32 seed)
{
	run_world_as(n_in, reenter, FALSE, seed);
}

static void test_against_plain(void)
{
	for (guint32 seed = 1; seed <= 30; seed++)
		run_world(1 + seed % 9 * (seed % 3 ? 1 : 10), FALSE, seed);
}

static void test_serve_pushes(void)
{
	for (guint32 seed = 1; seed <= 30; seed++)
		run_world(1 + seed % 7 * 3, TRUE, seed);
}

/* Bursts pushed as runs, with serve() pushing or not. */
static void test_runs(void)
{
	for (guint32 seed = 1; seed <= 30; seed++)
		run_world_as(1 + seed % 9 * (seed % 3 ? 1 : 10), seed % 2, TRUE, seed);
}

/*
 * A drain of the owner's own, taking requests with rr_merge_next(), serves
 * the same order, with single requests and runs, also when serve() pushes
 * (the drain it makes runs inside the owner's) or ends inputs.
 */
static void test_own_drain(void)
{
	for (guint32 seed = 1; seed <= 40; seed++)
		run_world_drained(1 + seed % 9 * (seed % 3 ? 1 : 10), seed % 2,
				  seed % 4 >= 2, TRUE, seed);
}

/*
 * A drain of the owner's own that takes whole rounds first, then the
 * rest one by one (as an L2 in front of a counter does), serves the same
 * order, with single requests, runs, requests kept whole (which stop
 * the rounds) and inputs that end with requests still queued.
 */
static void test_rounds(void)
{
	guint64 in_rounds = 0;

	for (guint32 seed = 1; seed <= 40; seed++)
		in_rounds += run_world_rounds(1 + seed % 9 * (seed % 3 ? 1 : 10), FALSE,
					      seed % 2, TRUE, TRUE, seed);
	g_test_message("%" G_GUINT64_FORMAT " requests taken in whole rounds", in_rounds);
	g_assert_cmpuint(in_rounds, >, 1000);
}

static void serve_nothing(void *ctx, const struct mem_req *r)
{
	(void)ctx;
	(void)r;
}

/* rounds_refuse_child()'s drain: rounds taken, then what it refuses. */
struct refuse {
	struct rr_merge *m;
	int what;
};

static void refuse_drain(void *ctx)
{
	struct refuse *x = ctx;
	struct mem_run run = { .n = 0 };
	struct mem_req r;

	mem_req_init(&r, MEM_READ, 4096, 32);
	mem_run_add(&run, &r);
	/* input 0 holds 1, input 1 holds 2 */
	g_assert_cmpuint(rr_merge_rounds(x->m), ==, 1);
	switch (x->what) {
	case 0: rr_merge_push(x->m, 1, &r); break;
	case 1: rr_merge_push_run(x->m, 1, &run); break;
	default: rr_merge_end(x->m, 1); break;
	}
}

/*
 * Rounds taken in a drain, then (what) 0 a request pushed, 1 a run
 * pushed, 2 an input ended before rr_merge_rounds_done(): a component bug,
 * which ends the process (in a subprocess).
 */
static void rounds_refuse(int what)
{
	struct refuse x = { .what = what };
	struct mem_run run = { .n = 0 };
	struct mem_req r;

	if (!g_test_subprocess()) {
		g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
		g_test_trap_assert_failed();
		g_test_trap_assert_stderr("*whole rounds*");
		return;
	}
	x.m = rr_merge_new(2, FALSE, serve_nothing, &x);
	rr_merge_set_drain(x.m, refuse_drain);
	mem_req_init(&r, MEM_READ, 4096, 32);
	rr_merge_push(x.m, 1, &r);
	rr_merge_push(x.m, 1, &r);	/* queued: input 0's turn */
	mem_run_add(&run, &r);
	rr_merge_push_run(x.m, 0, &run);	/* its turn: the drain */
}

static void test_rounds_refuse_push(void)
{
	rounds_refuse(0);
}

static void test_rounds_refuse_run(void)
{
	rounds_refuse(1);
}

static void test_rounds_refuse_end(void)
{
	rounds_refuse(2);
}

/*
 * mem_run_add takes what mem_run_request gives back byte for byte, up to
 * MEM_RUN_MAX requests of one SM and size, and refuses, unchanged, a
 * request with any field a run cannot hold.
 */
static void test_run_fields(void)
{
	struct mem_run run = { .n = 0 };
	struct mem_req r, back;

	for (unsigned k = 0; k < MEM_RUN_MAX; k++) {
		mem_req_init(&r, MEM_READ + k % 4, (uint64_t)k << 40 | (uint64_t)k << 5, 32);
		r.space = (uint8_t)(k & 1);
		r.mask = 0x1234u * k;
		r.warp = 7 * k;
		r.sm = 3;
		g_assert_true(mem_run_add(&run, &r));
		g_assert_cmpuint(run.hdr.kind, ==, MEM_RUN);
		g_assert_cmpuint(run.hdr.size, ==, 16 + 16 * (k + 1));
		mem_run_request(&run, k, &back);
		g_assert_true(memcmp(&back, &r, sizeof(r)) == 0);
	}
	g_assert_cmpuint(sizeof(run), <=, SS_MSG_MAX);
	g_assert_false(mem_run_add(&run, &r));		/* full */
	for (int f = 0; f < 14; f++) {
		struct mem_run one = { .n = 0 }, before;

		mem_req_init(&r, MEM_WRITE, 4096, 32);
		r.sm = 3;
		g_assert_true(mem_run_add(&one, &r));
		switch (f) {
		case 0: r.addr |= 16; r.part_addr = r.addr; break;
		case 1: r.part_addr = 0; break;
		case 2: r.space = 2; break;
		case 3: r.ctl = 1; break;
		case 4: r.flags = MEM_F_BYPASS; break;
		case 5: r.reason = 1; break;
		case 6: r.route = 1; break;
		case 7: r.tag = 1; break;
		case 8: r.hdr.size = 64; break;
		case 9: r.hdr.kind = MEM_CONTROL; break;
		case 10: r.hdr.kind = 0; break;
		case 11: r.hdr.kind = MEM_RESPONSE; break;
		case 12: r.sm = 4; break;
		case 13: r.size = 64; break;
		}
		before = one;
		g_assert_false(mem_run_add(&one, &r));
		g_assert_true(memcmp(&before, &one, sizeof(one)) == 0);
	}
}

/* Input 0 ends from inside a serve() of input 1's request. */
struct end_inside {
	struct rr_merge *m;
	GArray *served;
	gboolean done;
	rr_serve_fn serve;	/* what own_drain_serve() serves with */
};

/* A drain of the test's own, serving as the merge would. */
static void own_drain_serve(void *ctx)
{
	struct end_inside *e = ctx;
	struct mem_req r;

	while (rr_merge_next(e->m, &r))
		e->serve(e, &r);
}

static void serve_then_end(void *ctx, const struct mem_req *r)
{
	struct end_inside *e = ctx;
	uint64_t id = r->addr;

	g_array_append_val(e->served, id);
	if (id == ID(1, 0))
		g_assert_false(rr_merge_end(e->m, 0));
}

static void end_inside_serve(gboolean own)
{
	struct end_inside e = { .served = g_array_new(FALSE, FALSE, sizeof(uint64_t)),
				.serve = serve_then_end };
	struct mem_req r;
	static const uint64_t want[] = { ID(0, 0), ID(1, 0), ID(2, 0), ID(1, 1), ID(2, 1) };

	e.m = rr_merge_new(3, FALSE, serve_then_end, &e);
	if (own)
		rr_merge_set_drain(e.m, own_drain_serve);
	mem_req_init(&r, MEM_READ, ID(1, 0), 32);
	rr_merge_push(e.m, 1, &r);
	mem_req_init(&r, MEM_READ, ID(1, 1), 32);
	rr_merge_push(e.m, 1, &r);
	mem_req_init(&r, MEM_READ, ID(2, 0), 32);
	rr_merge_push(e.m, 2, &r);
	mem_req_init(&r, MEM_READ, ID(2, 1), 32);
	rr_merge_push(e.m, 2, &r);
	g_assert_cmpuint(e.served->len, ==, 0);	/* input 0 has the turn */
	mem_req_init(&r, MEM_READ, ID(0, 0), 32);
	rr_merge_push(e.m, 0, &r);		/* input 0 ends in serve() */
	g_assert_false(rr_merge_end(e.m, 1));
	g_assert_true(rr_merge_end(e.m, 2));
	g_assert_cmpuint(e.served->len, ==, G_N_ELEMENTS(want));
	for (guint k = 0; k < G_N_ELEMENTS(want); k++)
		g_assert_cmpuint(g_array_index(e.served, uint64_t, k), ==, want[k]);
	rr_merge_free(e.m);
	g_array_free(e.served, TRUE);
}

static void test_end_inside_serve(void)
{
	end_inside_serve(FALSE);
	end_inside_serve(TRUE);
}

/*
 * The last input ends from inside a serve(): the merge ends the kernel
 * there, with everything served, and is ready for the next one.
 */
static void serve_then_last_end(void *ctx, const struct mem_req *r)
{
	struct end_inside *e = ctx;
	uint64_t id = r->addr;

	g_array_append_val(e->served, id);
	if (id == ID(1, 0)) {
		g_assert_true(rr_merge_end(e->m, 0));
		e->done = TRUE;
	}
}

static void last_end_inside_serve(gboolean own)
{
	struct end_inside e = { .served = g_array_new(FALSE, FALSE, sizeof(uint64_t)),
				.serve = serve_then_last_end };
	struct mem_req r;

	e.m = rr_merge_new(2, FALSE, serve_then_last_end, &e);
	if (own)
		rr_merge_set_drain(e.m, own_drain_serve);
	for (int kernel = 0; kernel < 3; kernel++) {
		e.done = FALSE;
		g_array_set_size(e.served, 0);
		mem_req_init(&r, MEM_READ, ID(1, 0), 32);
		rr_merge_push(e.m, 1, &r);
		g_assert_false(rr_merge_end(e.m, 1));
		mem_req_init(&r, MEM_READ, ID(0, 0), 32);
		rr_merge_push(e.m, 0, &r);	/* serves 0 #0, then 1 #0, where 0 ends */
		g_assert_true(e.done);
		g_assert_cmpuint(e.served->len, ==, 2);
		g_assert_cmpuint(g_array_index(e.served, uint64_t, 0), ==, ID(0, 0));
		g_assert_cmpuint(g_array_index(e.served, uint64_t, 1), ==, ID(1, 0));
	}
	rr_merge_free(e.m);
	g_array_free(e.served, TRUE);
}

static void test_last_end_inside_serve(void)
{
	last_end_inside_serve(FALSE);
	last_end_inside_serve(TRUE);
}

/* arrival: served as pushed, and only the end waits for every input */
static void serve_record(void *ctx, const struct mem_req *r)
{
	uint64_t id = r->addr;

	g_array_append_val((GArray *)ctx, id);
}

static void test_arrival(void)
{
	GArray *served = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	struct rr_merge *m = rr_merge_new(3, TRUE, serve_record, served);
	static const unsigned order[] = { 2, 2, 0, 1, 2, 0 };
	struct mem_req r;

	for (guint k = 0; k < G_N_ELEMENTS(order); k++) {
		mem_req_init(&r, MEM_WRITE, ID(order[k], k), 32);
		rr_merge_push(m, order[k], &r);
		g_assert_cmpuint(served->len, ==, k + 1);
		g_assert_cmpuint(g_array_index(served, uint64_t, k), ==, ID(order[k], k));
	}
	g_assert_false(rr_merge_end(m, 1));
	g_assert_false(rr_merge_end(m, 0));
	g_assert_true(rr_merge_end(m, 2));
	rr_merge_free(m);
	g_array_free(served, TRUE);
}

int main(int argc, char **argv)
{
#ifdef M_PERTURB
	/* freed memory is overwritten: a request read from a freed ring is
	   wrong even without AddressSanitizer */
	mallopt(M_PERTURB, 0xa5);
#endif
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/rr-merge/against-plain", test_against_plain);
	g_test_add_func("/rr-merge/serve-pushes", test_serve_pushes);
	g_test_add_func("/rr-merge/end-inside-serve", test_end_inside_serve);
	g_test_add_func("/rr-merge/last-end-inside-serve", test_last_end_inside_serve);
	g_test_add_func("/rr-merge/arrival", test_arrival);
	g_test_add_func("/rr-merge/runs", test_runs);
	g_test_add_func("/rr-merge/run-fields", test_run_fields);
	g_test_add_func("/rr-merge/own-drain", test_own_drain);
	g_test_add_func("/rr-merge/rounds", test_rounds);
	g_test_add_func("/rr-merge/rounds-refuse/push", test_rounds_refuse_push);
	g_test_add_func("/rr-merge/rounds-refuse/run", test_rounds_refuse_run);
	g_test_add_func("/rr-merge/rounds-refuse/end", test_rounds_refuse_end);
	return g_test_run();
}
