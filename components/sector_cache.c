/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sector_cache: the component around the sector cache model
 * (models/sector_cache.h): one cache behind mem.sector ports, serving as an
 * SM's L1, an L2 slice or any level a configuration wires.  Several inputs
 * (cpu_side[*]: a level shared by several caches above) are merged as the
 * L2 merges its L1s (models/rr_merge.h): round-robin, the reference's, or
 * in order of arrival; a kernel begins with the first input's begin and
 * ends once every input has ended it.
 */
#include "config.h"

#include <sectorsim/sectorsim.h>
#include <sectorsim/protocols/mem.h>
#include "sector_cache.h"
#include "cache_params.h"
#include "cache_timing.h"
#include "cache_mrc.h"
#include "rr_merge.h"
/* ---- the component -------------------------------------------------------- */

static const char *const forward_names[] = { "misses", "all", NULL };
static const char *const merge_names[] = { "rr", "arrival", NULL };
static const char *const bypass_names[] = { "none", "flagged", NULL };

static const struct ss_param_desc params[] = {
	SC_PARAM_ROWS,
	CT_PARAM_ROWS,
	{ "size_from_kernel", SS_P_BOOL, "false", "true: the capacity is what each kernel's begin carries (the L1 left by the shared-memory carveout); it changes the ways when sets is given (GPGPU-Sim's adaptive L1), else the sets", NULL, 0, 0, 0 },
	{ "bypass", SS_P_ENUM, "none", "none: every request goes through the cache; flagged: a request marked to bypass the first level (an SM's atomics, reductions, .STRONG.GPU loads) counts as a line miss of its kind, changes nothing and goes down as it came", bypass_names, 0, 0, 0 },
	{ "forward", SS_P_ENUM, "misses", "what goes to the next level: this cache's traffic (misses, write-throughs, write-backs), or every request as it came (all: a cache that only observes)", forward_names, 0, 0, 0 },
	{ "merge", SS_P_ENUM, "rr", "with several inputs (cpu_side[*]): rr (round-robin over the inputs, one request at a time, as the reference's L2) or arrival (as they come; timing = true needs it)", merge_names, 0, 0, 0 },
	CACHE_MRC_PARAM_ROWS,
	SC_TIMEPAR_PARAM_ROWS,
	{ NULL, 0, NULL, NULL, NULL, 0, 0, 0 },
};

static const struct ss_port_desc ports[] = {
	{ "cpu_side", SS_PORT_IN, MEM_PROTOCOL, true, true, "requests and control from the level above (cpu_side, or several: cpu_side[*], merged as `merge` says); in timing mode, answers back to each" },
	{ "mem_side", SS_PORT_OUT, MEM_PROTOCOL, false, true, "fetches, write-throughs, write-backs and control to the next level; in timing mode, its answers" },
	{ NULL, 0, NULL, false, false, NULL },
};

static const struct ss_stat_desc stats[] = {
	SC_STAT_ROWS,
	{ NULL, 0, NULL, NULL, NULL },
};

G_STATIC_ASSERT(G_N_ELEMENTS(stats) == SC_N_STATS + 1);

struct sector_cache {
	struct ss_component c;
	struct sc_cache *cache;
	struct ss_port *cpu_side, *mem_side;	/* cpu_side[0] */
	/* several inputs: each port, their merge (functional), and the
	 * kernel's begin and end as they come from them */
	unsigned n_in;
	struct ss_port **inputs;
	struct rr_merge *merge;
	bool merge_rr;
	bool begun;		/* this kernel's begin has gone down */
	unsigned ended;		/* timing: inputs that ended the kernel */
	bool end_due;		/* functional: every input ended it; at the tick's end */
	struct mem_req due_msg;
	struct sc_kernel_end end;
	bool size_from_kernel, forward_all;
	bool unsized;		/* no kernel has given the cache its size yet */
	struct cache_timing *timing;	/* timing mode, else NULL */
	struct mem_req end_msg;		/* timing: a kernel's end waiting for
					   the misses in flight */
	bool end_waits;
	/* a request from above goes straight to the model: sized, not
	 * forward = all, not timed, no curve kept */
	bool plain;
	struct cache_mrc *mrc;	/* mrc = true with --mrc, else NULL */
	uint64_t *capacity;	/* the counter CACHE_STAT_CAPACITY */
	uint32_t line_bytes;
	/* parallel = time: the requests held for simulation by segments,
	 * else NULL; and the count of those simulated again */
	struct sc_timepar *timepar;
	uint64_t *replayed, replayed_seen;
	/*
	 * Functional, to a level that takes batches (SS_PORT_BATCHES): what
	 * goes down goes in runs of up to MEM_RUN_MAX requests, so that it
	 * crosses to that level's thread, and reaches it, once per run.
	 * Held from message to message when the level is TIMELESS (the
	 * reference's L2, which merges whole streams, in front of DRAM);
	 * else made only while a run from above is served, and sent at its
	 * end, in the same event.  `collect`: emit_down adds to the run now.
	 */
	enum { RUNS_UNKNOWN, RUNS_OFF, RUNS_PER_EVENT, RUNS_HELD } down_runs;
	bool collect;
	struct mem_run run;
};

/* The capacity counter: this kernel's sets x ways x line. */
static void count_capacity(struct sector_cache *sc)
{
	*sc->capacity = (uint64_t)sc_sets(sc->cache) * sc_ways(sc->cache) * sc->line_bytes;
}

static void update_plain(struct sector_cache *sc)
{
	sc->plain = !sc->unsized && !sc->forward_all && !sc->timing && !sc->mrc &&
		    !sc->timepar && sc->n_in == 1;
}

/* The run held for mem_side, if any, goes down. */
static void send_run(struct sector_cache *sc)
{
	if (sc->run.n) {
		ss_port_send(sc->mem_side, &sc->run.hdr);
		sc->run.n = 0;
	}
}

/*
 * How what goes down goes, asked once something does: the level below
 * sets its ports' flags as late as its xinit, and a source may send from
 * its xstart, before this cache's.
 */
G_GNUC_NO_INLINE static void resolve_runs(struct sector_cache *sc)
{
	unsigned below = ss_port_peer_flags(sc->mem_side);
	/*
	 * Held only on several partitions: there a round-robin level
	 * refuses a flush or invalidation in mid-kernel (its place among
	 * the inputs' requests would be the threads'), while on one it acts
	 * when it comes, and a request held here would come after it.  And only on
	 * a link without latency: a run still held when the simulation
	 * ends (no kernel's end came) goes in xfinish, where a delayed send
	 * is an event that never runs.
	 */
	bool held = (below & SS_PORT_TIMELESS) && sc->mem_side->latency == 0 &&
		    ss_engine_partitions(sc->c.engine) > 1;

	sc->down_runs = !(below & SS_PORT_BATCHES) ? RUNS_OFF
		      : held ? RUNS_HELD : RUNS_PER_EVENT;
	sc->collect = sc->down_runs == RUNS_HELD;
}

/* What the model sends down, through the run when it fits in one. */
static void emit_down(void *ctx, const struct mem_req *r)
{
	struct sector_cache *sc = ctx;

	if (G_UNLIKELY(sc->down_runs == RUNS_UNKNOWN))
		resolve_runs(sc);
	if (sc->collect) {
		if (G_LIKELY(mem_run_add(&sc->run, r)))
			return;
		send_run(sc);
		if (mem_run_add(&sc->run, r))
			return;
	}
	ss_port_send(sc->mem_side, &r->hdr);
}

static void timed_emit(void *ctx, const struct mem_req *r)
{
	struct sector_cache *sc = ctx;

	ct_emit(sc->timing, r);
}

static void timed_up(void *ctx, uint32_t input, const struct mem_req *r, uint64_t delay)
{
	struct sector_cache *sc = ctx;

	ss_port_send_after(sc->inputs[input], &r->hdr, delay);
}

static void timed_down(void *ctx, const struct mem_req *r, uint64_t delay)
{
	struct sector_cache *sc = ctx;

	ss_port_send_after(sc->mem_side, &r->hdr, delay);
}

static void end_kernel_now(struct sector_cache *sc, const struct mem_req *r);

static void timed_drained(void *ctx)
{
	struct sector_cache *sc = ctx;

	sc->end_waits = false;
	end_kernel_now(sc, &sc->end_msg);
}

static const struct ct_ops timed_ops = {
	.up = timed_up,
	.down = timed_down,
	.drained = timed_drained,
};

/* forward = all: the next level sees the requests, not this cache's traffic */
static void emit_nothing(void *ctx, const struct mem_req *r)
{
}

static void serve_request(void *ctx, const struct mem_req *r);

static int sector_cache_create(struct ss_component *c, const struct ss_params *p,
			       GError **err)
{
	struct sector_cache *sc = SS_COMPONENT(c, struct sector_cache, c);
	struct sc_config cfg;
	char *why = NULL;

	if (!sc_config_from_params(p, c->engine, &cfg, &sc->end, err))
		return -1;
	sc->size_from_kernel = ss_param_bool(p, "size_from_kernel");
	cfg.size_from_kernel = sc->size_from_kernel;
	cfg.bypass = ss_param_enum(p, "bypass");
	sc->forward_all = ss_param_enum(p, "forward") == 1;
	sc->n_in = ss_component_port_count(c, "cpu_side");
	sc->cpu_side = ss_component_port(c, "cpu_side", 0);
	sc->mem_side = ss_component_port(c, "mem_side", 0);
	sc->merge_rr = ss_param_enum(p, "merge") == 0;
	bool timed = ct_wanted(p);

	if (timed && sc->n_in > 1 && sc->merge_rr) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "timing = true with %u inputs needs merge = arrival: in timing mode requests are served when they come",
			    sc->n_in);
		return -1;
	}

	if (timed && sc->forward_all) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "timing = true with forward = all: a cache that only observes has no time of its own; expected forward = misses");
		return -1;
	}
	/* functional: no responses, what it passes on goes down (--threads);
	 * round-robin takes input k's turn only once k has sent or ended, so
	 * the order served is the whole streams', whenever requests come */
	if (!timed)
		ss_component_set_port_flags(c, "cpu_side", SS_PORT_SILENT |
			(sc->n_in > 1 ? SS_PORT_BATCHES : 0) |
			(sc->n_in > 1 && sc->merge_rr ? SS_PORT_ANY_DELAY : 0));
	sc->cache = sc_new(&cfg, c->stats,
			   timed ? timed_emit : sc->forward_all ? emit_nothing : emit_down,
			   sc, &why);
	if (!sc->cache) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG, "%s", why);
		g_free(why);
		return -1;
	}
	sc->unsized = !sc_ways(sc->cache);
	sc->line_bytes = cfg.line_bytes;
	sc->capacity = ss_stat_add_counter(c, CACHE_STAT_CAPACITY,
					   "bytes the cache holds during the kernel: sets x ways x line");
	if (timed && ss_param_bool(p, "mrc")) {
		/* retried requests would count twice, and the order is the
		 * timing's: the curve is of a functional cache's stream */
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "mrc = true with timing = true: the curve is a functional cache's; expected timing = false");
		sc_free(sc->cache);
		sc->cache = NULL;
		return -1;
	}
	sc->mrc = cache_mrc_new(c, p, cfg.line_bytes, err);
	if (!sc->mrc && err && *err) {
		sc_free(sc->cache);
		sc->cache = NULL;
		return -1;
	}
	if (sc->mrc) {
		/* functional (timing refused above): silent, and one thread */
		ss_component_set_port_flags(c, "cpu_side", SS_PORT_SILENT | SS_PORT_JOINED);
		ss_component_set_port_flags(c, "mem_side", SS_PORT_JOINED);
	}
	if (timed) {
		uint64_t *st[CT_N_STATS];

		ct_add_stats(c, st);
		sc->timing = ct_new(c, p, st, sc->cache, sc->n_in, MAX(c->index, 0), &timed_ops, sc, err);
		if (!sc->timing) {
			/* a failed create is not destroyed: it cleans up */
			sc_free(sc->cache);
			sc->cache = NULL;
			cache_mrc_free(sc->mrc);
			sc->mrc = NULL;
			return -1;
		}
	}
	if (!timed) {
		sc->timepar = cache_timepar_new(p, sc->cache, sc->forward_all ? emit_nothing : emit_down,
						sc, err);
		if (!sc->timepar && err && *err) {
			sc_free(sc->cache);
			sc->cache = NULL;
			cache_mrc_free(sc->mrc);
			sc->mrc = NULL;
			return -1;
		}
	} else if (ss_param_enum(p, "parallel") != 0) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "parallel = time with timing = true: a timed cache answers each request in its time; expected parallel = none");
		ct_free(sc->timing);
		sc->timing = NULL;
		sc_free(sc->cache);
		sc->cache = NULL;
		cache_mrc_free(sc->mrc);
		sc->mrc = NULL;
		return -1;
	}
	if (sc->timepar)
		sc->replayed = ss_stat_add_counter(c, CACHE_STAT_TIMEPAR_REPLAYED,
						   "parallel = time: requests simulated again to correct the segments");
	sc->inputs = g_new(struct ss_port *, sc->n_in);
	for (unsigned i = 0; i < sc->n_in; i++)
		sc->inputs[i] = ss_component_port(c, "cpu_side", i);
	if (!timed && sc->n_in > 1)
		sc->merge = rr_merge_new(sc->n_in, !sc->merge_rr, serve_request, sc);
	update_plain(sc);
	return 0;
}

/* Requests, or a kernel without a size, before the cache has one: the
 * run fails, once. */
static void refuse_unsized(struct sector_cache *sc, const char *what)
{
	if (ss_engine_failure(sc->c.engine))
		return;
	ss_component_fail(&sc->c, SS_ERROR_CONFIG,
			  "%s before any kernel gave the cache its size (sets and no assoc); expected assoc, size, or kernels that carry their L1 size",
			  what);
}

/* Functional: one request from above, in the order of the merge. */
static void serve_request(void *ctx, const struct mem_req *r)
{
	struct sector_cache *sc = ctx;

	if (G_UNLIKELY(sc->unsized)) {
		refuse_unsized(sc, "a request arrives");
		return;
	}
	/* a request that passes the cache by is no lookup of it */
	if (sc->mrc && !((r->flags & MEM_F_BYPASS) && sc_bypasses(sc->cache)))
		cache_mrc_access(sc->mrc, sc_line_of(sc->cache, r->addr));
	if (sc->timepar)
		sc_timepar_add(sc->timepar, r);
	else
		sc_access(sc->cache, r);
	if (sc->forward_all)
		ss_port_send(sc->mem_side, &r->hdr);
}

static void sector_cache_control(struct sector_cache *sc, const struct mem_req *r)
{
	char *why = NULL;

	/* what is held comes first */
	if (sc->timepar)
		cache_timepar_run(sc->timepar, sc->replayed, &sc->replayed_seen);

	switch (r->ctl) {
	case MEM_CTL_FLUSH:
		sc_flush(sc->cache);
		break;
	case MEM_CTL_INVALIDATE:
		sc_invalidate(sc->cache);
		break;
	case MEM_CTL_KERNEL_BEGIN:
		if (sc->size_from_kernel && r->addr &&
		    !sc_resize(sc->cache, r->addr, &why)) {
			ss_component_fail(&sc->c, SS_ERROR_CONFIG,
					  "the kernel's L1 of %" G_GUINT64_FORMAT " bytes: %s",
					  r->addr, why);
			g_free(why);
		} else if (sc->unsized && !r->addr) {
			refuse_unsized(sc, "a kernel without an L1 size begins");
		} else {
			sc->unsized = !sc_ways(sc->cache);
			update_plain(sc);
		}
		if (sc->mrc)
			cache_mrc_begin(sc->mrc, r->warp);
		count_capacity(sc);
		break;
	case MEM_CTL_KERNEL_END:
		if (sc->mrc)
			cache_mrc_end(sc->mrc);
		sc_end_kernel(sc->cache, &sc->end);
		if (sc->timing)
			ct_kernel_end(sc->timing);
		break;
	}
}

/* Control, then down behind what went before it. */
static void end_kernel_now(struct sector_cache *sc, const struct mem_req *r)
{
	sector_cache_control(sc, r);
	send_run(sc);
	if (sc->timing)
		ss_port_send_after(sc->mem_side, &r->hdr, ct_control_delay(sc->timing));
	else
		ss_port_send(sc->mem_side, &r->hdr);
}

/* Functional, several inputs: every input has ended the kernel. */
static void end_due_now(struct sector_cache *sc)
{
	sc->end_due = false;
	end_kernel_now(sc, &sc->due_msg);
}

static void end_tick(struct ss_engine *e, void *data)
{
	struct sector_cache *sc = data;

	(void)e;
	if (sc->end_due)
		end_due_now(sc);
}

/*
 * Functional, several inputs: one begin per kernel goes down, with the
 * first input's; the kernel ends when the last input has ended it and the
 * merge has served everything, at the end of that tick in an event of the
 * cache's own priority (as the L2's end), so that where it falls among
 * other messages does not depend on which thread the inputs ran on.
 */
static void inputs_control(struct sector_cache *sc, struct ss_port *in,
			   const struct mem_req *r)
{
	switch (r->ctl) {
	case MEM_CTL_KERNEL_BEGIN:
		if (!sc->begun) {
			sc->begun = true;
			end_kernel_now(sc, r);
		}
		return;
	case MEM_CTL_KERNEL_END:
		if (rr_merge_end(sc->merge, in->index)) {
			sc->begun = false;
			sc->due_msg = *r;
			sc->end_due = true;
			ss_schedule_in(sc->c.engine, 0, SS_PRIO_DRAIN + MAX(sc->c.index, 0),
				       end_tick, sc);
		}
		return;
	case MEM_CTL_FLUSH:
	case MEM_CTL_INVALIDATE:
		/* they act when they come: among inputs on threads of their
		 * own that merge = rr lets be late, that place is not fixed */
		if (sc->merge_rr && ss_engine_partitions(sc->c.engine) > 1) {
			ss_component_fail(&sc->c, SS_ERROR_CONFIG,
					  "a flush or invalidation from cpu_side[%u] in mid-stream has no fixed place among the inputs' requests on several threads; run with --threads 1",
					  in->index);
			return;
		}
		break;
	}
	end_kernel_now(sc, r);
}

/* Timing mode: what comes from above or below. */
G_GNUC_NO_INLINE static void sector_cache_recv_timed(struct sector_cache *sc, struct ss_port *in,
						     const struct mem_req *r)
{
	if (in == sc->mem_side) {
		ct_from_below(sc->timing, r);
		return;
	}
	if (r->hdr.kind == MEM_CONTROL) {
		/* several inputs: one begin goes down, and the kernel ends
		 * once the last input has ended it */
		if (sc->n_in > 1 && r->ctl == MEM_CTL_KERNEL_BEGIN) {
			if (sc->begun)
				return;
			sc->begun = true;
		}
		if (sc->n_in > 1 && r->ctl == MEM_CTL_KERNEL_END) {
			if (++sc->ended < sc->n_in)
				return;
			sc->ended = 0;
			sc->begun = false;
		}
		/* a kernel ends once its misses are in: the next one starts
		 * from the lines they brought */
		if (r->ctl == MEM_CTL_KERNEL_END && ct_wait_drained(sc->timing)) {
			sc->end_msg = *r;
			sc->end_waits = true;
			return;
		}
		end_kernel_now(sc, r);
		return;
	}
	if (G_UNLIKELY(sc->unsized)) {
		refuse_unsized(sc, "a request arrives");
		return;
	}
	ct_request(sc->timing, in->index, r);
}

/* A run from above (mem.h), request by request; what goes down meanwhile
 * goes in runs of its own, sent at its end unless they may be held. */
static void serve_run(struct sector_cache *sc, struct ss_port *in,
		      const struct mem_run *run)
{
	bool per_event;

	if (G_UNLIKELY(!run->n))
		return;		/* takes nothing of mem_run's (1 .. MEM_RUN_MAX) */
	if (G_UNLIKELY(sc->down_runs == RUNS_UNKNOWN))
		resolve_runs(sc);
	per_event = sc->down_runs == RUNS_PER_EVENT;
	sc->collect |= per_event;
	if (sc->merge) {
		rr_merge_push_run(sc->merge, in->index, run);
	} else if (sc->plain) {
		/* what the model passes down as it came joins the run as is */
		sc_access_run(sc->cache, run, sc->collect ? &sc->run : NULL);
	} else {
		struct mem_req q;

		mem_run_request(run, 0, &q);
		for (unsigned k = 0; k < run->n; k++) {
			mem_run_next(run, k, &q);
			serve_request(sc, &q);
		}
	}
	if (per_event) {
		send_run(sc);
		sc->collect = false;
	}
}

/* sector_cache_recv for all but a plain request to a sized cache. */
G_GNUC_NO_INLINE static void sector_cache_recv_other(struct ss_component *c, struct ss_port *in,
						     const struct ss_msg *m)
{
	struct sector_cache *sc = SS_COMPONENT(c, struct sector_cache, c);
	const struct mem_req *r = (const struct mem_req *)m;

	if (sc->timing) {
		sector_cache_recv_timed(sc, in, r);
		return;
	}
	if (G_UNLIKELY(in->desc->dir != SS_PORT_IN)) {
		/* a timed level below answers: this one must be timed too */
		if (!ss_engine_failure(c->engine))
			ss_component_fail(c, SS_ERROR_CONFIG,
					  "an answer (kind %u) came up on %s, but this cache is functional; expected timing = true on every level between a timed one and the SMs",
					  m->kind, in->desc->name);
		return;
	}
	/* the last kernel's end, due at this tick's end, goes first */
	if (G_UNLIKELY(sc->end_due))
		end_due_now(sc);
	if (m->kind == MEM_RUN) {
		serve_run(sc, in, (const struct mem_run *)m);
		return;
	}
	if (G_LIKELY(m->kind != MEM_CONTROL)) {
		if (sc->merge)
			rr_merge_push(sc->merge, in->index, r);
		else
			serve_request(sc, r);
		return;
	}
	/* the levels below act on it too, after this one's write-backs */
	if (sc->n_in > 1)
		inputs_control(sc, in, r);
	else
		end_kernel_now(sc, r);
}

/*
 * Once per access: a request to a sized cache that forwards what it
 * does (not everything it sees) goes straight to the model, a tail call.
 */
/* Answers from below arrive in bursts across threads: warm their sets
 * and MSHR slots together. */
static void sector_cache_prefetch(struct ss_component *c, struct ss_port *in,
				  const struct ss_msg *m)
{
	struct sector_cache *sc = SS_COMPONENT(c, struct sector_cache, c);

	if (sc->timing && in == sc->mem_side)
		ct_prefetch_answer(sc->timing, (const struct mem_req *)m);
}

static void sector_cache_recv(struct ss_component *c, struct ss_port *in,
			      const struct ss_msg *m)
{
	struct sector_cache *sc = SS_COMPONENT(c, struct sector_cache, c);

	if (G_LIKELY(m->kind < MEM_CONTROL && in == sc->cpu_side && sc->plain))
		sc_access(sc->cache, (const struct mem_req *)m);
	else
		sector_cache_recv_other(c, in, m);
}

/* A run that ends with requests held (no kernel's end came): they are
 * simulated, and their requests go down, before the counters are read. */
static void sector_cache_finish(struct ss_component *c)
{
	struct sector_cache *sc = SS_COMPONENT(c, struct sector_cache, c);

	if (sc->timepar)
		cache_timepar_run(sc->timepar, sc->replayed, &sc->replayed_seen);
	send_run(sc);
}

/*
 * One input (an SM's L1, on its SM's thread): runs from above whenever
 * the level below takes batches.  The model serves a run in one call
 * (sc_access_run), which asks for the sets of its lines together and
 * puts what it passes down as it came straight into the run this cache
 * sends below, without the checks mem_run_add() makes of a request
 * (titanv-ref, full app, two threads: 2 to 4 % less CPU time, 1 to 2 %
 * less wall time, than single requests from above).  Several inputs (a shared cache, which may hear
 * from other threads) always take runs; merged round-robin, they are
 * TIMELESS when what this cache sends below may come any time later too
 * (sector_cache_start).
 */
static int sector_cache_init(struct ss_component *c, GError **err)
{
	struct sector_cache *sc = SS_COMPONENT(c, struct sector_cache, c);
	unsigned below = ss_port_peer_flags(sc->mem_side);

	(void)err;
	if (sc->timing)
		return 0;
	if (sc->n_in == 1 && !sc->forward_all && (below & SS_PORT_BATCHES))
		ss_component_add_port_flags(c, "cpu_side", SS_PORT_BATCHES);
	return 0;
}

/* TIMELESS once every xinit has run: an L2 below decides in its own. */
static int sector_cache_start(struct ss_component *c, GError **err)
{
	struct sector_cache *sc = SS_COMPONENT(c, struct sector_cache, c);

	(void)err;
	if (!sc->timing && sc->n_in > 1 && sc->merge_rr &&
	    ss_component_port_timeless(c, "mem_side"))
		ss_component_add_port_flags(c, "cpu_side", SS_PORT_TIMELESS);
	return 0;
}

static void sector_cache_destroy(struct ss_component *c)
{
	struct sector_cache *sc = SS_COMPONENT(c, struct sector_cache, c);

	ct_free(sc->timing);
	sc_timepar_free(sc->timepar);
	sc_free(sc->cache);
	cache_mrc_free(sc->mrc);
	if (sc->merge)
		rr_merge_free(sc->merge);
	g_free(sc->inputs);
}

static const struct ss_component_ops ops = {
	.xcreate = sector_cache_create,
	.xinit = sector_cache_init,
	.xstart = sector_cache_start,
	.xrecv = sector_cache_recv,
	.xprefetch = sector_cache_prefetch,
	.xfinish = sector_cache_finish,
	.xdestroy = sector_cache_destroy,
};

static const struct ss_component_type sector_cache_type = {
	.abi_version = SS_ABI_VERSION,
	.name = "sector_cache",
	.summary = "Set-associative sector cache, functional or timed: an L1, an L2 slice, or a level several caches share (cpu_side[*])",
	.params = params,
	.ports = ports,
	.stats = stats,
	.ops = &ops,
	.instance_size = sizeof(struct sector_cache),
	.flags = SS_TYPE_PARTITION_SAFE,
};

SS_PLUGIN_ENTRY(sector_cache)
{
	return ss_registry_add(r, &sector_cache_type, error);
}
