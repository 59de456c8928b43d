/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * l2_slice_set: the L2 as a set of sector-cache slices behind one set of
 * ports, without a crossbar model.  Requests from the SMs' L1s arrive on
 * cpu_side[i]; each goes to the slice its address maps to (mapping:
 * single, line, or gpgpusim, GPGPU-Sim's decoding, which also gives the
 * partition address the slice's set index takes, addrdec.h).  The slices
 * are spread evenly over the mem_side ports in order: with one port per
 * slice, DRAM knows each request's slice by the port it came in on; with
 * one per channel (slices / n_sub ports), by its channel.
 *
 * merge = rr is the reference's L2 input (models/rr_merge.h): the L1
 * miss streams merged round-robin over the inputs, one request at a time.
 * merge = arrival serves requests as they come.
 *
 * A kernel's end, once every input has ended it, and a flush or an
 * invalidation go through the ports in order: each port's slices act on
 * it, then it goes down that port.  This is what the same slices as
 * separate sector_cache components behind a slice_router do, so both
 * topologies send DRAM the same sequence.
 *
 * In timing mode (merge = arrival) each slice is a cache of
 * cache_timing.h: requests are served as they come, answers go back up
 * the input each request came in on, and a kernel's end waits until no
 * slice waits for DRAM.  The slices share one set of timing counters.
 *
 * Statistics: with one slice, the table is the slice's own counters.
 * With several, each slice counts on its own and the table holds their
 * sums, together with slice[s].<total> for each slice's totals (accesses,
 * hits, ..., dirty_at_kernel_end, hit_rate), whose array sum is
 * l2.slice.<total>.  A slice's counts go into both at each kernel's end,
 * before the end goes down, and when the run finishes.
 */
#include "config.h"

#include <string.h>
#include <sectorsim/sectorsim.h>
#include <sectorsim/protocols/mem.h>
#include "cache_params.h"
#include "cache_timing.h"
#include "cache_mrc.h"
#include "rr_merge.h"
#include "sc_stack.h"

enum l2_merge { MERGE_RR, MERGE_ARRIVAL };

static const char *const merge_names[] = { "rr", "arrival", NULL };

static const struct ss_param_desc params[] = {
	{ "slices", SS_P_UINT, "1", "number of slices; every cache parameter is per slice", NULL, 1, 4096, 0 },
	SLICE_MAP_PARAM_ROWS,
	{ "merge", SS_P_ENUM, "rr", "order of the inputs: rr (round-robin over inputs, one request at a time, the reference's) or arrival", merge_names, 0, 0, 0 },
	SC_PARAM_ROWS,
	CT_PARAM_ROWS,
	CACHE_MRC_PARAM_ROWS,
	SC_TIMEPAR_PARAM_ROWS,
	{ NULL, 0, NULL, NULL, NULL, 0, 0, 0 },
};

static const struct ss_port_desc ports[] = {
	{ "cpu_side", SS_PORT_IN, MEM_PROTOCOL, true, true, "requests from the L1s, one input per SM; in timing mode, answers back" },
	{ "mem_side", SS_PORT_OUT, MEM_PROTOCOL, true, true, "traffic to DRAM; the slices are spread evenly over the ports in order: slice s uses mem_side[s / (slices / mem_side_count)]" },
	{ NULL, 0, NULL, false, false, NULL },
};

static const struct ss_stat_desc stats[] = {
	SC_STAT_ROWS,
	{ NULL, 0, NULL, NULL, NULL },
};

G_STATIC_ASSERT(G_N_ELEMENTS(stats) == SC_N_STATS + 1);

struct l2_slice_set;

/* The totals each slice of several reports as slice[s].<name>: the rows
 * from SC_S_TOTAL to SC_S_PROTECT_OVERRIDES of the table, then hit_rate. */
#define L2_N_SLICE_STATS (SC_S_PROTECT_OVERRIDES + 1 - SC_S_TOTAL)
/* SMs whose last line a round-robin L2 remembers (struct sc_config sm_memos) */
#define L2_SM_MEMOS 256

struct l2_slice {
	struct l2_slice_set *l2;
	struct sc_cache *cache;
	struct ss_port *out;
	uint64_t *counts;	/* several slices: its own counters (SC_N_STATS) */
	uint64_t *total[L2_N_SLICE_STATS];	/* slice[s].<total> */
	struct cache_timing *timing;	/* timing mode, else NULL */
	struct sc_timepar *timepar;	/* parallel = time, else NULL */
	uint64_t replayed_seen;		/* its count, as last added */
	struct sc_stack *stack;		/* the run's lanes, else NULL */
	uint64_t sent[SC_N_SENT];	/* with lanes: what it sent, by kind */
	/* what it sends in a drain, counted, to a DRAM that only counts */
	struct mem_tally tally;
};

/* A lane's counters (COMPONENT.lane[i].NAME): the cache's counters of
 * the rows below (their index in the table), its capacity, and what it
 * would send DRAM. */
enum { LANE_KINDS = SC_S_TOTAL, LANE_EVICTIONS = LANE_KINDS,
       LANE_N_CACHE = LANE_EVICTIONS + (SC_S_PROTECT_OVERRIDES + 1 - SC_S_EVICTIONS),
       LANE_CAPACITY = LANE_N_CACHE, LANE_SENT_READS, LANE_SENT_WRITES, LANE_N };

struct l2_lane {
	uint32_t ways;
	uint64_t *slot[LANE_N];
};

struct l2_slice_set {
	struct ss_component c;
	unsigned n_in, n_out, n_slices;
	unsigned slices_per_port;	/* mem_side[p] carries slices p * this, ... */
	struct slice_map map;
	struct l2_slice *slice;
	struct ss_port **mem_side;
	uint64_t *counts;	/* several slices: theirs, one block */
	struct sc_kernel_end end;
	struct rr_merge *merge;		/* the inputs, in the order of `merge` */
	bool merge_rr;			/* merge = rr: inputs may come any time */
	bool begun;
	struct mem_req end_msg;		/* the last input's kernel end, for end_tick */
	bool end_due;			/* end_msg waits for end_tick */
	/* timing mode */
	bool timed;
	struct ss_port **cpu_side;
	unsigned ended;			/* inputs that ended the kernel */
	bool end_waits;			/* for slices to drain */
	/* mrc = true with --mrc: the curve of every line served, in the
	 * order served (the slices' lines together), else NULL */
	struct cache_mrc *mrc;
	unsigned line_shift;
	uint64_t *capacity;	/* the counter CACHE_STAT_CAPACITY */
	uint64_t *replayed;	/* parallel = time: requests simulated again */
	/* the run's lanes (ss_run_options lane_key = NAME.assoc): other
	 * associativities of the same slices, simulated in one pass */
	struct l2_lane *lanes;
	unsigned n_lanes;
	uint32_t line_bytes;
	bool not_plain;		/* some slice holds its requests or counts lanes */
	bool below_asked, tally_below;	/* drain_one: to a DRAM that only counts */
	uint64_t *lanes_own;	/* 1 + the lane of its own ways, 0: none */
	unsigned own_lane;
};

static void l2_destroy(struct ss_component *c);
static void serve(void *ctx, const struct mem_req *r);
static void serve_other(void *ctx, const struct mem_req *r);
static void serve_curve(void *ctx, const struct mem_req *r);
static void serve_one(void *ctx, const struct mem_req *r);
static void drain_one(void *ctx);

/* The slice's tally of requests goes down, and it starts again. */
G_GNUC_NO_INLINE static void send_tally(struct l2_slice *s)
{
	s->tally.hdr = (struct ss_msg){ sizeof(s->tally), MEM_TALLY };
	ss_port_send(s->out, &s->tally.hdr);
	memset(&s->tally, 0, sizeof(s->tally));
}

static void emit_down(void *ctx, const struct mem_req *r)
{
	struct l2_slice *s = ctx;

	if (G_UNLIKELY(s->tally.n))
		send_tally(s);
	ss_port_send(s->out, &r->hdr);
}

/* With lanes: what goes down counted too, in 32-byte transactions, to
 * check the lane of the cache's own ways against it. */
static void emit_down_counted(void *ctx, const struct mem_req *r)
{
	struct l2_slice *s = ctx;

	s->sent[r->hdr.kind == MEM_READ ? SC_SENT_READS :
		r->hdr.kind == MEM_WRITE ? SC_SENT_WRITES : SC_SENT_OTHER] +=
		mem_atoms(r->size);
	emit_down(ctx, r);
}

/* ---- timing mode ------------------------------------------------------------ */

static void timed_emit(void *ctx, const struct mem_req *r)
{
	struct l2_slice *s = ctx;

	ct_emit(s->timing, r);
}

static void timed_up(void *ctx, uint32_t input, const struct mem_req *r, uint64_t delay)
{
	struct l2_slice *s = ctx;

	ss_port_send_after(s->l2->cpu_side[input], &r->hdr, delay);
}

static void timed_down(void *ctx, const struct mem_req *r, uint64_t delay)
{
	struct l2_slice *s = ctx;

	ss_port_send_after(s->out, &r->hdr, delay);
}

static void end_now(struct l2_slice_set *l2);

static bool all_idle(const struct l2_slice_set *l2)
{
	for (unsigned s = 0; s < l2->n_slices; s++)
		if (!ct_idle(l2->slice[s].timing))
			return false;
	return true;
}

static void timed_drained(void *ctx)
{
	struct l2_slice *s = ctx;
	struct l2_slice_set *l2 = s->l2;

	if (l2->end_waits && all_idle(l2)) {
		l2->end_waits = false;
		end_now(l2);
	}
}

static const struct ct_ops timed_ops = {
	.up = timed_up,
	.down = timed_down,
	.drained = timed_drained,
};

/* slice[s].accesses ... slice[s].hit_rate */
static void add_slice_stats(struct l2_slice_set *l2, unsigned s)
{
	struct ss_component *c = &l2->c;
	const struct ss_stat_desc *t = c->type->stats;
	char *name, *hits, *accesses;

	for (unsigned k = 0; k < L2_N_SLICE_STATS; k++) {
		name = g_strdup_printf("slice[%u].%s", s, t[SC_S_TOTAL + k].name);
		l2->slice[s].total[k] = ss_stat_add_counter(c, name, t[SC_S_TOTAL + k].doc);
		g_free(name);
	}
	name = g_strdup_printf("slice[%u].%s", s, t[SC_S_HIT_RATE].name);
	hits = g_strdup_printf("slice[%u].hits", s);
	accesses = g_strdup_printf("slice[%u].accesses", s);
	ss_stat_add_ratio(c, name, t[SC_S_HIT_RATE].doc, hits, accesses);
	g_free(name);
	g_free(hits);
	g_free(accesses);
}

/*
 * The run's lanes, when they are this L2's associativity (lane_key
 * NAME.assoc) and its slices can be simulated in one pass (sets given,
 * not size; the policies of sc_stack_unsupported()): their ways, else
 * none.  Lanes this L2 cannot take are left to separate runs.
 */
static unsigned lanes_asked(struct l2_slice_set *l2, const struct sc_config *cfg,
			    uint32_t **ways)
{
	const struct ss_run_options *o = ss_engine_run_options(l2->c.engine);
	char *key;
	bool mine;
	unsigned n;

	*ways = NULL;
	if (!o->lane_key || !o->lane_values || l2->timed || !cfg->sets || cfg->size ||
	    sc_stack_unsupported(cfg))
		return 0;
	key = g_strdup_printf("%s.assoc", l2->c.name);
	mine = !strcmp(key, o->lane_key);
	g_free(key);
	n = g_strv_length(o->lane_values);
	if (!mine || !n || n > SC_STACK_MAX_LANES)
		return 0;
	*ways = g_new(uint32_t, n);
	for (unsigned i = 0; i < n; i++) {
		guint64 w;

		if (!g_ascii_string_to_unsigned(o->lane_values[i], 10, 1, SC_MAX_ASSOC, &w, NULL)) {
			g_clear_pointer(ways, g_free);
			return 0;
		}
		(*ways)[i] = (uint32_t)w;
	}
	return n;
}

/* lane[i].NAME for each lane: the cache's counters, capacity, traffic. */
static void add_lane_stats(struct l2_slice_set *l2)
{
	struct ss_component *c = &l2->c;
	const struct ss_stat_desc *t = c->type->stats;

	for (unsigned i = 0; i < l2->n_lanes; i++) {
		struct l2_lane *ln = &l2->lanes[i];
		char *name;

		for (unsigned k = 0; k < LANE_N_CACHE; k++) {
			unsigned row = k < LANE_KINDS ? k : SC_S_EVICTIONS + (k - LANE_EVICTIONS);

			name = g_strdup_printf("lane[%u].%s", i, t[row].name);
			ln->slot[k] = ss_stat_add_counter(c, name, t[row].doc);
			g_free(name);
		}
		name = g_strdup_printf("lane[%u].%s", i, CACHE_STAT_CAPACITY);
		ln->slot[LANE_CAPACITY] = ss_stat_add_counter(c, name, "the lane's bytes: slices x sets x its ways x line");
		g_free(name);
		name = g_strdup_printf("lane[%u].sent_reads", i);
		ln->slot[LANE_SENT_READS] = ss_stat_add_counter(c, name, "read requests the lane would send DRAM");
		g_free(name);
		name = g_strdup_printf("lane[%u].sent_writes", i);
		ln->slot[LANE_SENT_WRITES] = ss_stat_add_counter(c, name, "write requests (write-backs included) the lane would send DRAM");
		g_free(name);
	}
}

/*
 * A kernel's end in slice sl's lanes: their counts into the lane
 * counters, and the lane of the slice's own ways checked against the
 * slice itself, counter by counter (before fold_counts() takes them).
 */
static void fold_lanes(struct l2_slice_set *l2, struct l2_slice *sl)
{
	sc_stack_end_kernel(sl->stack, &l2->end);
	for (unsigned i = 0; i < l2->n_lanes; i++) {
		struct l2_lane *ln = &l2->lanes[i];
		const uint64_t *st = sc_stack_stats(sl->stack, i);
		const uint64_t *sent = sc_stack_sent(sl->stack, i);

		for (unsigned k = 0; k < LANE_N; k++) {
			unsigned row = k < LANE_KINDS ? k : SC_S_EVICTIONS + (k - LANE_EVICTIONS);
			uint64_t v = k == LANE_CAPACITY ? 0 :
				     k == LANE_SENT_READS ? sent[SC_SENT_READS] :
				     k == LANE_SENT_WRITES ? sent[SC_SENT_WRITES] : st[row];
			uint64_t own = k == LANE_CAPACITY ? 0 :
				       k == LANE_SENT_READS ? sl->sent[SC_SENT_READS] :
				       k == LANE_SENT_WRITES ? sl->sent[SC_SENT_WRITES] : sl->counts[row];

			*ln->slot[k] += v;
			if (ln->ways == sc_ways(sl->cache) && v != own && !ss_engine_failure(l2->c.engine))
				ss_component_fail(&l2->c, SS_ERROR_INTERNAL,
						  "lane[%u] (%u ways): %" G_GUINT64_FORMAT " lane[%u] counts in one pass, %" G_GUINT64_FORMAT " the slice itself (counter %u); the one-pass model and the cache disagree",
						  i, ln->ways, v, i, own, k);
		}
	}
	sc_stack_zero(sl->stack);
	memset(sl->sent, 0, sizeof(sl->sent));
}

static int l2_create(struct ss_component *c, const struct ss_params *p,
		     GError **err)
{
	struct l2_slice_set *l2 = SS_COMPONENT(c, struct l2_slice_set, c);
	struct sc_config cfg;
	char *given;
	bool ok;

	if (!sc_config_from_params(p, c->engine, &cfg, &l2->end, err))
		return -1;
	l2->n_slices = ss_param_uint(p, "slices");
	given = g_strdup_printf("slices = %u", l2->n_slices);
	ok = slice_map_from_params(p, l2->n_slices, given, cfg.line_bytes,
				   &l2->map, err);
	g_free(given);
	if (!ok)
		return -1;
	l2->n_in = ss_component_port_count(c, "cpu_side");
	l2->n_out = ss_component_port_count(c, "mem_side");
	if (l2->n_slices % l2->n_out) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "mem_side: %u ports cannot share %u slices evenly; expected a divisor of slices (one per slice, or one per channel)",
			    l2->n_out, l2->n_slices);
		return -1;
	}
	l2->merge_rr = ss_param_enum(p, "merge") == MERGE_RR;
	l2->timed = ct_wanted(p);
	if (l2->timed && l2->merge_rr) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "timing = true needs merge = arrival: in timing mode requests are served when they come");
		return -1;
	}
	if (l2->timed && ss_param_bool(p, "mrc")) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "mrc = true with timing = true: the curve is a functional cache's; expected timing = false");
		return -1;
	}
	/* before anything else is allocated: a failed create is not destroyed */
	l2->line_shift = (unsigned)__builtin_ctz(cfg.line_bytes);
	l2->mrc = cache_mrc_new(c, p, cfg.line_bytes, err);
	if (!l2->mrc && err && *err)
		return -1;
	l2->capacity = ss_stat_add_counter(c, CACHE_STAT_CAPACITY,
					   "bytes the slices hold together: slices x sets x ways x line");
	l2->slices_per_port = l2->n_slices / l2->n_out;
	l2->mem_side = g_new0(struct ss_port *, l2->n_out);
	for (unsigned i = 0; i < l2->n_out; i++)
		l2->mem_side[i] = ss_component_port(c, "mem_side", i);
	/* a curve's line in a serve of its own: the plain one stays a tail
	 * call to the slice, once per request */
	/* holding requests or counting lanes: a serve of its own, so that
	 * the plain one stays as short as it was */
	uint32_t *lane_ways = NULL;
	unsigned n_lanes = lanes_asked(l2, &cfg, &lane_ways);

	l2->not_plain = n_lanes || (!l2->timed && ss_param_enum(p, "parallel") != 0);
	/* one slice that hashes the request's own address: no routing, and
	 * its cache's loop drains the merge */
	bool one = !l2->mrc && !l2->not_plain && l2->n_slices == 1 &&
		   l2->map.mapping != SLICE_MAP_GPGPUSIM;

	l2->merge = rr_merge_new(l2->n_in, !l2->merge_rr,
				 l2->mrc ? serve_curve : l2->not_plain ? serve_other :
				 one ? serve_one : serve, l2);
	if (one)
		rr_merge_set_drain(l2->merge, drain_one);
	/*
	 * Functional: it answers nothing upstream, and the round-robin merge
	 * takes input k's turn only once k has sent or ended: the order
	 * served is that of the whole streams, whenever their requests come
	 * (--threads).
	 */
	if (!l2->timed)
		ss_component_set_port_flags(c, "cpu_side", SS_PORT_SILENT |
			SS_PORT_BATCHES | (l2->merge_rr ? SS_PORT_ANY_DELAY : 0) |
			(l2->mrc ? SS_PORT_JOINED : 0));
	if (l2->mrc)	/* the curves' file takes one clock's order */
		ss_component_set_port_flags(c, "mem_side", SS_PORT_JOINED);
	uint64_t *tst[CT_N_STATS];

	if (l2->timed) {
		ct_add_stats(c, tst);
		l2->cpu_side = g_new0(struct ss_port *, l2->n_in);
		for (unsigned i = 0; i < l2->n_in; i++)
			l2->cpu_side[i] = ss_component_port(c, "cpu_side", i);
	}
	sc_emit_fn down = n_lanes ? emit_down_counted : emit_down;

	l2->line_bytes = cfg.line_bytes;
	/* round-robin, consecutive requests are of different SMs: each
	 * slice remembers every SM's last line (up to a GPU's SM count) */
	if (l2->merge_rr)
		cfg.sm_memos = L2_SM_MEMOS;
	l2->slice = g_new0(struct l2_slice, l2->n_slices);
	if (l2->n_slices > 1)
		l2->counts = g_new0(uint64_t, (size_t)SC_N_STATS * l2->n_slices);
	for (unsigned s = 0; s < l2->n_slices; s++) {
		struct l2_slice *sl = &l2->slice[s];
		char *why = NULL;

		sl->l2 = l2;
		sl->out = l2->mem_side[s / l2->slices_per_port];
		/* one slice counts straight into the table: the ref L2 */
		sl->counts = l2->counts ? &l2->counts[(size_t)SC_N_STATS * s] : c->stats;
		sl->cache = sc_new(&cfg, sl->counts, l2->timed ? timed_emit : down, sl, &why);
		if (!sl->cache) {
			g_set_error(err, SS_ERROR, SS_ERROR_CONFIG, "%s", why);
			g_free(why);
			g_free(lane_ways);
			l2_destroy(c);	/* a failed create cleans up after itself */
			return -1;
		}
		/* lanes a slice cannot take (out of memory) go to separate runs */
		if (n_lanes && !(sl->stack = sc_stack_new(&cfg, lane_ways, n_lanes, &why))) {
			g_clear_pointer(&why, g_free);
			for (unsigned k = 0; k < s; k++)
				g_clear_pointer(&l2->slice[k].stack, sc_stack_free);
			n_lanes = 0;
		}
		if (l2->timed) {
			sl->timing = ct_new(c, p, tst, sl->cache, l2->n_in, s, &timed_ops, sl, err);
			if (!sl->timing) {
				g_free(lane_ways);
				l2_destroy(c);
				return -1;
			}
		}
		if (!l2->timed) {
			sl->timepar = cache_timepar_new(p, sl->cache, down, sl, err);
			if (!sl->timepar && err && *err) {
				g_free(lane_ways);
				l2_destroy(c);
				return -1;
			}
		}
		if (l2->counts)
			add_slice_stats(l2, s);
	}
	if (l2->timed && ss_param_enum(p, "parallel") != 0) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "parallel = time with timing = true: a timed cache answers each request in its time; expected parallel = none");
		l2_destroy(c);
		return -1;
	}
	if (l2->slice[0].timepar)
		l2->replayed = ss_stat_add_counter(c, CACHE_STAT_TIMEPAR_REPLAYED,
						   "parallel = time: requests simulated again to correct the segments, over the slices");
	if (n_lanes) {
		l2->n_lanes = n_lanes;
		l2->lanes = g_new0(struct l2_lane, n_lanes);
		for (unsigned i = 0; i < n_lanes; i++)
			l2->lanes[i].ways = lane_ways[i];
		add_lane_stats(l2);
		l2->lanes_own = ss_stat_add_counter(c, "lanes_own",
						    "1 + the lane of the L2's own ways (0: none), which the report checks against DRAM");
		for (unsigned i = 0; i < n_lanes; i++)
			if (lane_ways[i] == sc_ways(l2->slice[0].cache))
				l2->own_lane = i + 1;
		ss_engine_claim_lanes(c->engine, c->name);
	}
	g_free(lane_ways);
	return 0;
}

/* serve() when the slices hold their requests (parallel = time) or
 * count lanes. */
static void serve_other(void *ctx, const struct mem_req *r)
{
	struct l2_slice_set *l2 = ctx;
	struct mem_req routed = *r;
	uint32_t s = slice_map_route(&l2->map, r, &routed.part_addr);
	struct l2_slice *sl = &l2->slice[s];

	/* the slice hashes the partition address: the request carries it */
	if (l2->map.mapping != SLICE_MAP_GPGPUSIM)
		routed.part_addr = r->part_addr;
	if (sl->stack)
		sc_stack_access(sl->stack, &routed);
	if (sl->timepar)
		sc_timepar_add(sl->timepar, &routed);
	else
		sc_access(sl->cache, &routed);
}

static void serve(void *ctx, const struct mem_req *r)
{
	struct l2_slice_set *l2 = ctx;
	struct mem_req routed;
	uint64_t part_addr;
	uint32_t s = slice_map_route(&l2->map, r, &part_addr);

	if (l2->map.mapping != SLICE_MAP_GPGPUSIM) {
		sc_access(l2->slice[s].cache, r);
		return;
	}
	/* the slice hashes the partition address: the request carries it */
	routed = *r;
	routed.part_addr = part_addr;
	sc_access(l2->slice[s].cache, &routed);
}

/* serve() of a single slice that hashes the request's own partition
 * address: the request goes to its cache as it came, a tail call. */
static void serve_one(void *ctx, const struct mem_req *r)
{
	struct l2_slice_set *l2 = ctx;

	sc_access(l2->slice[0].cache, r);
}

/*
 * Whether the slice's port leads to a DRAM that only counts (asked once
 * the run has started: the DRAM sets its flags in xcreate, but a source
 * may send from its xstart).
 */
G_GNUC_NO_INLINE static void ask_below(struct l2_slice_set *l2)
{
	l2->below_asked = true;
	l2->tally_below = ss_port_peer_flags(l2->slice[0].out) & SS_PORT_COUNTS;
}

/*
 * The merge's drain with serve_one(): the slice's loop takes the
 * requests in turn, with no call per request to reach the cache.  What
 * it sends a DRAM that only counts (SS_PORT_COUNTS) is tallied and goes
 * as one message at the drain's end, no call per request either: the
 * same counts, in the same event, before anything else on the link.
 */
static void drain_one(void *ctx)
{
	struct l2_slice_set *l2 = ctx;
	struct l2_slice *sl = &l2->slice[0];

	if (G_UNLIKELY(!l2->below_asked))
		ask_below(l2);
	sc_access_merged(sl->cache, l2->merge, l2->tally_below ? &sl->tally : NULL);
	if (sl->tally.n)
		send_tally(sl);
}

/* serve(), with the line looked up added to the miss-ratio curve first. */
static void serve_curve(void *ctx, const struct mem_req *r)
{
	struct l2_slice_set *l2 = ctx;

	cache_mrc_access(l2->mrc, r->addr >> l2->line_shift);
	if (l2->not_plain)
		serve_other(ctx, r);
	else
		serve(ctx, r);
}

/* Several slices: what slice s counted goes into the table and its
 * slice[s] totals, and it starts again from zero. */
static void fold_counts(struct l2_slice_set *l2, struct l2_slice *sl)
{
	uint64_t *table = l2->c.stats;
	const uint64_t *st;

	if (!l2->counts)
		return;
	st = sc_stats(sl->cache);	/* with its totals summed */
	for (unsigned k = 0; k < SC_S_TOTAL; k++)
		table[k] += st[k];
	/* the totals are sums the table makes itself; the rest is counted */
	for (unsigned k = SC_S_EVICTIONS; k <= SC_S_PROTECT_OVERRIDES; k++)
		table[k] += st[k];
	for (unsigned k = 0; k < L2_N_SLICE_STATS; k++)
		*sl->total[k] += st[SC_S_TOTAL + k];
	memset(sl->counts, 0, SC_N_STATS * sizeof(*sl->counts));
}

enum slice_act { ACT_END_KERNEL, ACT_FLUSH, ACT_INVALIDATE };

/*
 * Port by port: the port's slices act, then the message goes down it, as
 * each slice would pass it on were it a component of its own (in timing
 * mode, behind what its slices sent before).
 */
static void act_then_pass(struct l2_slice_set *l2, enum slice_act act,
			  const struct mem_req *m)
{
	if (act == ACT_END_KERNEL && l2->mrc)
		cache_mrc_end(l2->mrc);
	for (unsigned p = 0; p < l2->n_out; p++) {
		uint64_t delay = 0;

		for (unsigned k = 0; k < l2->slices_per_port; k++) {
			struct l2_slice *sl = &l2->slice[p * l2->slices_per_port + k];

			/* what the slice holds comes first */
			if (sl->timepar)
				cache_timepar_run(sl->timepar, l2->replayed, &sl->replayed_seen);
			switch (act) {
			case ACT_END_KERNEL:
				sc_end_kernel(sl->cache, &l2->end);
				if (sl->timing)
					ct_kernel_end(sl->timing);
				if (sl->stack)
					fold_lanes(l2, sl);
				fold_counts(l2, sl);
				break;
			case ACT_FLUSH:
				sc_flush(sl->cache);
				if (sl->stack)
					sc_stack_flush(sl->stack);
				break;
			case ACT_INVALIDATE:
				sc_invalidate(sl->cache);
				if (sl->stack)
					sc_stack_invalidate(sl->stack);
				break;
			}
			if (sl->timing)
				delay = MAX(delay, ct_control_delay(sl->timing));
		}
		ss_port_send_after(l2->mem_side[p], &m->hdr, delay);
	}
}

/* The kernel's end, due: at the end of its tick, or before what comes next. */
static void end_now(struct l2_slice_set *l2)
{
	l2->end_due = false;
	act_then_pass(l2, ACT_END_KERNEL, &l2->end_msg);
}

static void end_tick(struct ss_engine *e, void *data)
{
	struct l2_slice_set *l2 = data;

	(void)e;
	if (l2->end_due)
		end_now(l2);
}

static void control(struct l2_slice_set *l2, struct ss_port *in,
		    const struct mem_req *r)
{
	switch (r->ctl) {
	case MEM_CTL_KERNEL_BEGIN:
		/* one begin per kernel goes down, not one per input */
		if (!l2->begun) {
			l2->begun = true;
			if (l2->mrc)
				cache_mrc_begin(l2->mrc, r->warp);
			*l2->capacity = (uint64_t)l2->n_slices * sc_sets(l2->slice[0].cache) *
					sc_ways(l2->slice[0].cache) << l2->line_shift;
			if (l2->lanes_own)
				*l2->lanes_own = l2->own_lane;
			for (unsigned i = 0; i < l2->n_lanes; i++)
				*l2->lanes[i].slot[LANE_CAPACITY] = (uint64_t)l2->n_slices *
					sc_sets(l2->slice[0].cache) * l2->lanes[i].ways << l2->line_shift;
			for (unsigned i = 0; i < l2->n_out; i++)
				ss_port_send(l2->mem_side[i], &r->hdr);
		}
		return;
	case MEM_CTL_KERNEL_END:
		/*
		 * The last input has ended the kernel: the slices end it at
		 * the end of the tick, in an event of the L2's own priority,
		 * not inside the last SM's (or before anything that comes
		 * first: l2_recv).  So the kernel's end leaves the L2 at a
		 * time no other component's message has, which is what
		 * orders it among the scheduler's messages on another thread.
		 */
		if (rr_merge_end(l2->merge, in->index)) {
			l2->begun = false;
			l2->end_msg = *r;
			l2->end_due = true;
			ss_schedule_in(l2->c.engine, 0,
				       SS_PRIO_DRAIN + MAX(l2->c.index, 0), end_tick, l2);
		}
		return;
	case MEM_CTL_FLUSH:
	case MEM_CTL_INVALIDATE:
		/*
		 * These act when they arrive, between requests: where the
		 * inputs run on threads of their own and merge = rr promised
		 * any delay, that place would be the scheduling's (in arrival
		 * order, the core keeps time order across threads).
		 */
		if (l2->merge_rr && ss_engine_partitions(l2->c.engine) > 1) {
			ss_component_fail(&l2->c, SS_ERROR_CONFIG,
					  "a flush or invalidation from cpu_side[%u] in mid-stream has no fixed place among the inputs' requests on several threads; run with --threads 1",
					  in->index);
			return;
		}
		act_then_pass(l2, r->ctl == MEM_CTL_FLUSH ? ACT_FLUSH : ACT_INVALIDATE, r);
		return;
	}
	for (unsigned i = 0; i < l2->n_out; i++)
		ss_port_send(l2->mem_side[i], &r->hdr);
}

/* Timing mode: everything that comes, from above or below. */
G_GNUC_NO_INLINE static void l2_recv_timed(struct l2_slice_set *l2, struct ss_port *in,
					   const struct mem_req *r)
{
	uint64_t part_addr;
	struct mem_req routed;
	uint32_t s;

	if (l2->end_due)
		end_now(l2);
	if (r->hdr.kind == MEM_CONTROL && in->desc->dir == SS_PORT_IN) {
		if (r->ctl != MEM_CTL_KERNEL_END) {
			control(l2, in, r);
			return;
		}
		/* the kernel ends once every input has ended it and no slice
		 * waits for DRAM: the next starts from what the misses brought */
		if (++l2->ended < l2->n_in)
			return;
		l2->ended = 0;
		l2->begun = false;
		l2->end_msg = *r;
		if (all_idle(l2)) {
			end_now(l2);
		} else {
			l2->end_waits = true;
			for (unsigned k = 0; k < l2->n_slices; k++)
				ct_wait_drained(l2->slice[k].timing);
		}
		return;
	}
	if (in->desc->dir == SS_PORT_OUT) {
		/* an answer from DRAM: the slice of the address it answers,
		 * which is the port's own when each slice has one */
		s = l2->slices_per_port == 1 ? in->index
					     : slice_map_route(&l2->map, r, &part_addr);
		ct_from_below(l2->slice[s].timing, r);
		return;
	}
	s = slice_map_route(&l2->map, r, &part_addr);
	routed = *r;
	if (l2->map.mapping == SLICE_MAP_GPGPUSIM)
		routed.part_addr = part_addr;
	ct_request(l2->slice[s].timing, in->index, &routed);
	/* a request after the kernel's end (a write's posted fetch that the
	 * slice refused, sent again) may keep a slice that was idle busy: it
	 * waits to drain too */
	if (l2->end_waits && !ct_idle(l2->slice[s].timing))
		ct_wait_drained(l2->slice[s].timing);
}

/* l2_recv when the last kernel's end is still due: it goes first. */
G_GNUC_NO_INLINE static void l2_recv_after_end(struct ss_component *c, struct ss_port *in,
					       const struct ss_msg *m)
{
	struct l2_slice_set *l2 = SS_COMPONENT(c, struct l2_slice_set, c);

	end_now(l2);
	if (m->kind == MEM_CONTROL)
		control(l2, in, (const struct mem_req *)m);
	else
		rr_merge_push(l2->merge, in->index, (const struct mem_req *)m);
}

static void l2_recv(struct ss_component *c, struct ss_port *in,
		    const struct ss_msg *m);

/* A run (mem.h) where the merge does not take it whole: each request. */
G_GNUC_NO_INLINE static void l2_recv_each(struct ss_component *c, struct ss_port *in,
					  const struct mem_run *run)
{
	for (unsigned k = 0; k < run->n; k++) {
		struct mem_req r;

		mem_run_request(run, k, &r);
		l2_recv(c, in, &r.hdr);
	}
}

/* Once per request: all but the merge are tail calls (no registers saved). */
static void l2_recv(struct ss_component *c, struct ss_port *in,
		    const struct ss_msg *m)
{
	struct l2_slice_set *l2 = SS_COMPONENT(c, struct l2_slice_set, c);
	const struct mem_req *r = (const struct mem_req *)m;

	if (G_UNLIKELY(l2->end_due | l2->timed)) {
		if (m->kind == MEM_RUN)
			l2_recv_each(c, in, (const struct mem_run *)m);
		else if (l2->timed)
			l2_recv_timed(l2, in, r);
		else
			l2_recv_after_end(c, in, m);
	}
	else if (m->kind == MEM_CONTROL)
		control(l2, in, r);
	else if (m->kind == MEM_RUN)
		rr_merge_push_run(l2->merge, in->index, (const struct mem_run *)m);
	else
		rr_merge_push(l2->merge, in->index, r);
}

/* What the slices counted since the last kernel's end (a run that ends
 * without one) reaches the table. */
static void l2_finish(struct ss_component *c)
{
	struct l2_slice_set *l2 = SS_COMPONENT(c, struct l2_slice_set, c);

	for (unsigned s = 0; s < l2->n_slices; s++) {
		struct l2_slice *sl = &l2->slice[s];

		/* a run that ends with requests held: simulated first */
		if (sl->timepar)
			cache_timepar_run(sl->timepar, l2->replayed, &sl->replayed_seen);
		fold_counts(l2, sl);
	}
}

static void l2_destroy(struct ss_component *c)
{
	struct l2_slice_set *l2 = SS_COMPONENT(c, struct l2_slice_set, c);

	for (unsigned s = 0; l2->slice && s < l2->n_slices; s++) {
		ct_free(l2->slice[s].timing);
		sc_timepar_free(l2->slice[s].timepar);
		sc_stack_free(l2->slice[s].stack);
		sc_free(l2->slice[s].cache);
	}
	g_free(l2->cpu_side);
	cache_mrc_free(l2->mrc);
	l2->mrc = NULL;
	rr_merge_free(l2->merge);
	g_free(l2->slice);
	g_free(l2->mem_side);
	g_free(l2->counts);
	g_free(l2->lanes);
}

/*
 * Round-robin over whole streams, it serves the same whenever requests
 * come; if what it sends below may come any time later too (DRAM counts
 * it), nothing anywhere changes with their time: TIMELESS, so that an L1
 * may hold its requests for runs (mem.h).
 */
static int l2_init(struct ss_component *c, GError **err)
{
	struct l2_slice_set *l2 = SS_COMPONENT(c, struct l2_slice_set, c);

	(void)err;
	if (!l2->timed && l2->merge_rr && ss_component_port_timeless(c, "mem_side"))
		ss_component_add_port_flags(c, "cpu_side", SS_PORT_TIMELESS);
	return 0;
}

static const struct ss_component_ops ops = {
	.xcreate = l2_create,
	.xinit = l2_init,
	.xrecv = l2_recv,
	.xfinish = l2_finish,
	.xdestroy = l2_destroy,
};

static const struct ss_component_type l2_slice_set_type = {
	.abi_version = SS_ABI_VERSION,
	.name = "l2_slice_set",
	.summary = "The L2: sector-cache slices behind one set of ports, inputs merged round-robin or on arrival",
	.params = params,
	.ports = ports,
	.stats = stats,
	.ops = &ops,
	.instance_size = sizeof(struct l2_slice_set),
	.flags = SS_TYPE_PARTITION_SAFE,
};

SS_PLUGIN_ENTRY(l2_slice_set)
{
	return ss_registry_add(r, &l2_slice_set_type, error);
}
