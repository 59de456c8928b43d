/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sdcm_cache: the stack-distance cache model, the paper's
 * baseline, with the ports of a sector_cache so that an INI swaps one for
 * the other.  It keeps no lines: each access gets its reuse distance over
 * the kernel's stream (in sectors), counted per category (ldl, ldg, stl,
 * stg); at the kernel's end the hit rates follow from the histograms and
 * the hit probability of each distance (p_hit), and are published as
 * SS_STAT_REAL statistics for the report.
 *
 * What goes to the next level (forward): random_ref is the reference's
 * filter, a load going down when a CPython random() drawn for it exceeds
 * the approximate hit probability of its distance (stores always go),
 * with the generator re-seeded at every kernel; all sends every access;
 * none sends only control.  Several inputs are merged round-robin
 * (rr_merge.h), as the reference's L2 stream is.
 *
 * In timing mode (timing = true) it is a cache in time, as Nugteren et
 * al.'s GPU cache model has it (doc/nugteren-model.md): size / (assoc x
 * sector_bytes) sets, each an LRU stack of its lines' completions.  A
 * read's distance is measured when it comes: below assoc it is a hit,
 * else a miss, which goes down as a read of the line and holds the line
 * in the MSHRs until the answer.  The stack changes only when an access
 * completes: a hit at the next MEM_CTL_COMPLETE from above or the end of
 * its tick, a miss at the first of those after its answer; then per set
 * its hits, then its misses, each in the order they came.  A miss of a
 * line already in flight is a miss again (nothing merges).  With
 * mshr_lines, a miss that comes when that many lines were in flight at the
 * start of its tick is refused if its request is MEM_F_MAY_WAIT, and
 * taken otherwise.  Distances are counted per kernel as cold, within
 * assoc (assoc itself included) and beyond it: what the model's miss
 * split is computed from.  With miss_latency, a miss's latency is drawn
 * when it is looked up, as the model draws it (a miss then refused draws
 * too), and completes it no earlier than that, whenever the level below
 * answers; the generator starts anew at every kernel, as the model's.
 *
 * With the run's profile file (--rd-profile FILE, ss_engine_profile_output())
 * each instance adds, at every kernel's end, the histogram of its stream's
 * reuse distances and its cumulative distribution (CSDD: the share of
 * accesses at distance <= x) to FILE, as CSV.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sectorsim/sectorsim.h>
#include <sectorsim/protocols/mem.h>
#include <sectorsim/protocols/cache_stats.h>
#include "cache_params.h"
#include "latency.h"
#include "rr_merge.h"
#include "sdcm.h"
#include "setindex.h"

enum forward { FWD_RANDOM_REF, FWD_ALL, FWD_NONE };

static const char *const p_hit_names[] = { "exact", "approx_ref", "approx_fixed", NULL };
static const char *const forward_names[] = { "random_ref", "all", "none", NULL };

static const struct ss_param_desc params[] = {
	{ "size", SS_P_SIZE, NULL, "capacity: with sector_bytes it gives the number of blocks B of the model", NULL, 1, UINT64_C(1) << 40, 0 },
	{ "assoc", SS_P_UINT, NULL, "associativity A of the model", NULL, 1, 1024, 0 },
	{ "sector_bytes", SS_P_SIZE, "32B", "the unit of reuse: distances count distinct sectors", NULL, 1, 65536, SS_PF_POW2 },
	{ "size_from_kernel", SS_P_BOOL, "false", "true: the capacity is what each kernel's begin carries (the L1 left by the carveout)", NULL, 0, 0, 0 },
	{ "p_hit", SS_P_ENUM, "exact", "hit probability of a distance: exact (binomial, the paper's formula 1), approx_ref (the reference's normal approximation, |x| quirk included), approx_fixed (without the quirk)", p_hit_names, 0, 0, 0 },
	{ "forward", SS_P_ENUM, "random_ref", "what goes down: random_ref (the reference's seeded random filter of loads; stores always), all, none", forward_names, 0, 0, 0 },
	{ "seed", SS_P_UINT, "0", "seed of the random filter, as CPython's random.seed(seed), at every kernel (timing: of the miss latencies, at every kernel)", NULL, 0, UINT32_MAX, 0 },
	{ "miss_latency", SS_P_UINT, "0", "timing: cycles a miss takes at least, drawn when it is looked up, stalled misses included (Nugteren et al.'s model's memory latency); its answer from below completes it no earlier", NULL, 0, 100000000, 0 },
	{ "miss_latency_sigma", SS_P_DOUBLE, "0", "timing: sigma of the half-normal part: miss_latency + |N(0, sigma^2)|, rounded, from libstdc++'s mt19937 seeded with `seed` anew at every kernel", NULL, 0, 0, 0 },
	{ "timing", SS_P_BOOL, "false", "timing mode: a cache of size / (assoc x sector_bytes) sets whose LRU stacks change when an access completes (Nugteren et al.'s model); reads are answered, misses go down as reads of their line; one input; forward and p_hit are not used", NULL, 0, 0, 0 },
	{ "index", SS_P_ENUM, "linear", sc_index_doc, sc_index_names, 0, 0, 0 },
	{ "mshr_lines", SS_P_UINT, "0", "timing: lines with a miss in flight that count as the MSHRs full (0: no limit); a miss that finds them full at the start of its tick is refused if its request may wait (MEM_F_MAY_WAIT), else taken beyond the limit", NULL, 0, UINT32_MAX, 0 },
	{ "mshr_line_bits", SS_P_UINT, "64", "timing: low bits of a line's number by which the MSHRs tell lines apart (Nugteren et al.'s model keeps 32)", NULL, 1, 64, 0 },
	{ NULL, 0, NULL, NULL, NULL, 0, 0, 0 },
};

static const struct ss_port_desc ports[] = {
	{ "cpu_side", SS_PORT_IN, MEM_PROTOCOL, true, true, "requests from the level above; several inputs are merged round-robin (timing: one input, answered)" },
	{ "mem_side", SS_PORT_OUT, MEM_PROTOCOL, false, true, "what the filter lets through (timing: the misses, as reads of their line), and control" },
	{ NULL, 0, NULL, false, false, NULL },
};

/* Categories in the reference's order. */
enum cat { C_LDL, C_LDG, C_STL, C_STG, N_CATS };

enum {
	S_LDL, S_LDG, S_STL, S_STG,		/* accesses per category */
	S_FORWARDED,
	S_HIT_LDL, S_HIT_LDG, S_HIT_STL, S_HIT_STG,
	S_HIT_TOT, S_HIT_LD, S_HIT_ST,
	S_N,
};

static const struct ss_stat_desc stats[] = {
	[S_LDL] = { SDCM_STAT_LDL_ACCESSES, SS_STAT_COUNTER, "local load sectors", NULL, NULL },
	[S_LDG] = { SDCM_STAT_LDG_ACCESSES, SS_STAT_COUNTER, "global load sectors", NULL, NULL },
	[S_STL] = { SDCM_STAT_STL_ACCESSES, SS_STAT_COUNTER, "local store sectors", NULL, NULL },
	[S_STG] = { SDCM_STAT_STG_ACCESSES, SS_STAT_COUNTER, "global store sectors (atomics and reductions count here)", NULL, NULL },
	[S_FORWARDED] = { "forwarded", SS_STAT_COUNTER, "requests sent to the next level", NULL, NULL },
	[S_HIT_LDL] = { "hit_ldl", SS_STAT_REAL, "hit rate of local loads", NULL, NULL },
	[S_HIT_LDG] = { SDCM_STAT_HIT_LDG, SS_STAT_REAL, "hit rate of global loads", NULL, NULL },
	[S_HIT_STL] = { "hit_stl", SS_STAT_REAL, "hit rate of local stores", NULL, NULL },
	[S_HIT_STG] = { SDCM_STAT_HIT_STG, SS_STAT_REAL, "hit rate of global stores", NULL, NULL },
	[S_HIT_TOT] = { SDCM_STAT_HIT_TOT, SS_STAT_REAL, "hit rate of all accesses (categories weighted by their share)", NULL, NULL },
	[S_HIT_LD] = { SDCM_STAT_HIT_LD, SS_STAT_REAL, "hit rate of loads", NULL, NULL },
	[S_HIT_ST] = { SDCM_STAT_HIT_ST, SS_STAT_REAL, "hit rate of stores", NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

G_STATIC_ASSERT(G_N_ELEMENTS(stats) == S_N + 1);

/*
 * timing: a set of line keys, open-addressed (linear probing, at most half
 * full; a removal shifts its run back, so there are no tombstones).  Only
 * lane 0 is ever held back by the MSHRs, so a thousand or more lines may
 * be in flight at once: they are looked up on every miss and completion.
 */
struct line_set {
	uint64_t *key;
	uint8_t *used;
	uint32_t cap, len;	/* cap: a power of two */
};

static uint32_t ls_home(const struct line_set *s, uint64_t k)
{
	return (uint32_t)((k * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & (s->cap - 1);
}

/* Whether k is in s; *at: its slot, or the free slot it would take. */
static bool ls_find(const struct line_set *s, uint64_t k, uint32_t *at)
{
	uint32_t i = ls_home(s, k);

	while (s->used[i]) {
		if (s->key[i] == k) {
			*at = i;
			return true;
		}
		i = (i + 1) & (s->cap - 1);
	}
	*at = i;
	return false;
}

static void ls_init(struct line_set *s, uint32_t cap)
{
	s->cap = cap;
	s->len = 0;
	s->key = g_new(uint64_t, cap);
	s->used = g_new0(uint8_t, cap);
}

static void ls_add(struct line_set *s, uint64_t k)
{
	uint32_t at;

	if (ls_find(s, k, &at))
		return;
	s->key[at] = k;
	s->used[at] = 1;
	if (2 * ++s->len <= s->cap)
		return;

	struct line_set big;

	ls_init(&big, 2 * s->cap);
	for (uint32_t i = 0; i < s->cap; i++)
		if (s->used[i])
			ls_add(&big, s->key[i]);
	g_free(s->key);
	g_free(s->used);
	*s = big;
}

static void ls_remove(struct line_set *s, uint64_t k)
{
	uint32_t hole, m = s->cap - 1;

	if (!ls_find(s, k, &hole))
		return;
	s->used[hole] = 0;
	s->len--;
	/* what follows in the run moves into the hole unless its home lies
	 * after the hole (cyclically), where a search would not reach it */
	for (uint32_t j = (hole + 1) & m; s->used[j]; j = (j + 1) & m) {
		if (((j - ls_home(s, s->key[j])) & m) < ((j - hole) & m))
			continue;
		s->key[hole] = s->key[j];
		s->used[hole] = 1;
		s->used[j] = 0;
		hole = j;
	}
}

static void ls_clear(struct line_set *s)
{
	memset(s->used, 0, s->cap);
	s->len = 0;
}

/* timing: an access waiting to complete */
struct pending {
	uint64_t seq;		/* the order it came in */
	uint64_t line;
	uint32_t set;
	uint64_t due;		/* a miss: the tick + 1 it completes at the earliest */
	struct mem_req up;	/* the request, to answer */
};

enum { TS_COLD, TS_WITHIN, TS_BEYOND, TS_MISSES, TS_REFUSED, TS_N };

/* The timing mode's statistics: its distances (cold: never completed;
 * within: up to assoc, assoc itself included; beyond), what it sent down
 * and what it refused. */
static const char *const timing_stat_names[TS_N][2] = {
	[TS_COLD] = { SDCM_STAT_RD_COLD, "timing: reads of a line never completed in its set (infinite distance)" },
	[TS_WITHIN] = { SDCM_STAT_RD_WITHIN, "timing: reads at a finite distance up to assoc, assoc included" },
	[TS_BEYOND] = { SDCM_STAT_RD_BEYOND, "timing: reads at a finite distance above assoc" },
	[TS_MISSES] = { "misses", "timing: reads at distance assoc or more or cold: sent down" },
	[TS_REFUSED] = { "refused", "timing: reads refused for want of MSHRs (MEM_F_MAY_WAIT)" },
};

struct sdcm_timing {
	uint32_t sets, line_shift, set_shift;
	enum set_index_fn index;
	uint32_t mshr_lines;
	uint64_t key_mask;		/* of a line number, in the MSHRs */
	struct rd_tracker **set;	/* per set */
	/* the MSHRs: keys of the lines with a miss outstanding */
	struct line_set in_flight;
	GArray *hits;			/* struct pending: hits to complete */
	GArray *arrived;		/* struct pending: answered misses */
	GArray *misses;			/* struct pending, by slot (tag below) */
	GArray *free_slots;		/* uint32_t */
	uint64_t seq;
	uint64_t snap_tick;		/* tick + 1 of the snapshot below */
	uint32_t snap_used;		/* lines in flight at its start */
	bool end_queued;		/* a tick_end is scheduled */
	bool refused;			/* owes the input a MEM_RETRY */
	struct ss_port *up;		/* the input */
	uint64_t *st[TS_N];
	/* miss_latency: the draws, and the answered misses not yet due,
	 * by due tick then order (a few dozen: kept sorted) */
	uint64_t lat_min;
	double lat_sigma;
	uint32_t seed;
	struct latency_model *lat;
	GArray *waiting;		/* struct pending */
};

struct sdcm_cache {
	struct ss_component c;
	struct sdcm_timing *t;		/* timing = true; NULL: functional */
	uint64_t size, sector_bytes, seed;
	uint32_t assoc;
	bool size_from_kernel;
	enum sdcm_p_hit p_hit;
	enum forward forward;
	struct ss_port *mem_side;
	struct rr_merge *merge;
	struct rd_tracker *rd;
	struct sd_hist *hist[N_CATS];
	struct py_random rng;
	bool begun;
	uint32_t kernel;	/* id of the kernel under way */
	FILE *profile;		/* the run's profile output, or NULL */
};

static void serve(void *ctx, const struct mem_req *r);
static int timing_create(struct sdcm_cache *s, const struct ss_params *p,
			 GError **err);

static int sdcm_create(struct ss_component *c, const struct ss_params *p,
		       GError **err)
{
	struct sdcm_cache *s = SS_COMPONENT(c, struct sdcm_cache, c);

	s->size = ss_param_uint(p, "size");
	s->assoc = ss_param_uint(p, "assoc");
	s->sector_bytes = ss_param_uint(p, "sector_bytes");
	s->size_from_kernel = ss_param_bool(p, "size_from_kernel");
	s->p_hit = ss_param_enum(p, "p_hit");
	s->forward = ss_param_enum(p, "forward");
	s->seed = ss_param_uint(p, "seed");
	if (s->size / s->sector_bytes < s->assoc) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "size %" G_GUINT64_FORMAT " holds %" G_GUINT64_FORMAT " sectors, fewer than assoc %u",
			    s->size, s->size / s->sector_bytes, s->assoc);
		return -1;
	}
	s->mem_side = ss_component_port(c, "mem_side", 0);
	if (ss_param_bool(p, "timing"))
		return timing_create(s, p, err);
	s->merge = rr_merge_new(ss_component_port_count(c, "cpu_side"), false,
				serve, s);
	/*
	 * It answers nothing upstream.  Merging several inputs round-robin,
	 * it serves the same order whenever their requests come (--threads).
	 * Writing the run's profile file, every instance appends to it as it
	 * ends a kernel, an order only one clock gives: all stay joined.
	 */
	if (ss_engine_run_options(c->engine)->rd_profile) {
		ss_component_set_port_flags(c, "cpu_side", SS_PORT_JOINED | SS_PORT_BATCHES);
		ss_component_set_port_flags(c, "mem_side", SS_PORT_JOINED);
	} else {
		ss_component_set_port_flags(c, "cpu_side", SS_PORT_SILENT |
			SS_PORT_BATCHES | (ss_component_port_count(c, "cpu_side") > 1 ?
			 SS_PORT_ANY_DELAY : 0));
	}
	s->rd = rd_new();
	for (int k = 0; k < N_CATS; k++)
		s->hist[k] = sd_hist_new();
	py_random_seed(&s->rng, s->seed);
	return 0;
}

/* --rd-profile: the first instance starts the file, all append to it. */
static int sdcm_start(struct ss_component *c, GError **err)
{
	struct sdcm_cache *s = SS_COMPONENT(c, struct sdcm_cache, c);
	GError *inner = NULL;

	/* merging several inputs round-robin, with what it lets through
	 * free to come later too (DRAM counts it), as l2_slice_set's */
	if (!s->t && !ss_engine_run_options(c->engine)->rd_profile &&
	    ss_component_port_count(c, "cpu_side") > 1 &&
	    ss_component_port_timeless(c, "mem_side"))
		ss_component_add_port_flags(c, "cpu_side", SS_PORT_TIMELESS);
	s->profile = ss_engine_profile_output(c->engine,
		"cache,kernel,distance,count,csdd\n", "reuse-distance profile",
		&inner);
	if (inner) {
		g_propagate_error(err, inner);
		return -1;
	}
	return 0;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/*
 * The kernel's reuse-distance histogram over all categories and its CSDD:
 * the cold accesses (-1) counted at the largest distance + 1, distances
 * ascending, csdd(x) = accesses at distance <= x / all.  Written and flushed
 * at once, so that the instances sharing the file never interleave lines.
 */
static void write_profile(struct sdcm_cache *s)
{
	GHashTable *all = g_hash_table_new(g_int64_hash, g_int64_equal);
	GArray *keys = g_array_new(FALSE, FALSE, sizeof(int64_t));
	GString *out = g_string_new(NULL);
	uint64_t n = 0, cold = 0, acc = 0;
	int64_t max_sd = -1;

	for (int k = 0; k < N_CATS; k++)
		for (size_t i = 0; i < sd_hist_len(s->hist[k]); i++) {
			int64_t sd;
			uint64_t count;

			sd_hist_entry(s->hist[k], i, &sd, &count);
			n += count;
			if (sd < 0) {
				cold += count;
				continue;
			}
			max_sd = MAX(max_sd, sd);

			uint64_t *slot = g_hash_table_lookup(all, &sd);

			if (!slot) {
				int64_t *key = g_new(int64_t, 1);

				*key = sd;
				slot = g_new0(uint64_t, 1);
				g_hash_table_insert(all, key, slot);
				g_array_append_val(keys, sd);
			}
			*slot += count;
		}
	if (keys->len)	/* an empty GArray has no data to sort */
		qsort(keys->data, keys->len, sizeof(int64_t), cmp_i64);
	for (guint i = 0; i <= keys->len && n; i++) {
		int64_t sd = i < keys->len ? g_array_index(keys, int64_t, i) : max_sd + 1;
		uint64_t count = i < keys->len ? *(uint64_t *)g_hash_table_lookup(all, &sd) : cold;

		if (!count)
			continue;
		acc += count;
		g_string_append_printf(out, "%s,%u,%" G_GINT64_FORMAT ",%" G_GUINT64_FORMAT ",%.17g\n",
				       s->c.name, s->kernel, sd, count, (double)acc / n);
	}
	if (out->len && (fwrite(out->str, 1, out->len, s->profile) != out->len ||
			 fflush(s->profile) != 0))
		ss_engine_fail(s->c.engine, g_error_new(SS_ERROR, SS_ERROR_INTERNAL,
			"write error on %s: %s",
			!strcmp(ss_engine_run_options(s->c.engine)->rd_profile, "-") ?
			"standard output" : ss_engine_run_options(s->c.engine)->rd_profile,
			g_strerror(errno)));
	/* keys and counts were allocated one by one */
	GHashTableIter it;
	gpointer key, val;

	g_hash_table_iter_init(&it, all);
	while (g_hash_table_iter_next(&it, &key, &val)) {
		g_free(key);
		g_free(val);
	}
	g_hash_table_destroy(all);
	g_array_free(keys, TRUE);
	g_string_free(out, TRUE);
}

/* One access of the merged stream. */
static void serve(void *ctx, const struct mem_req *r)
{
	struct sdcm_cache *s = ctx;
	bool store = r->hdr.kind != MEM_READ;
	enum cat k = (store ? C_STL : C_LDL) + (r->space == MEM_GLOBAL);
	int64_t sd = rd_access(s->rd, r->addr & ~(s->sector_bytes - 1));
	bool down;

	if (G_UNLIKELY(sd == RD_FULL)) {
		/* once: the run stops after this event; a limit of the
		 * model, so the finished kernels are kept (SS_ERROR_LIMIT) */
		if (!ss_engine_failure(s->c.engine))
			ss_engine_fail(s->c.engine, g_error_new(SS_ERROR, SS_ERROR_LIMIT,
				"%s: kernel %u touches more distinct sectors than its reuse-distance tracker can hold (2^30, or this machine's memory)",
				s->c.name, s->kernel));
		return;
	}
	sd_hist_add(s->hist[k], sd);
	s->c.stats[S_LDL + k]++;
	switch (s->forward) {
	case FWD_RANDOM_REF:
		/* every load draws, whatever its distance; whatever p_hit
		 * says, the filter uses the reference's normal approximation,
		 * its absolute value included */
		down = store || py_random(&s->rng) >
			sdcm_p_hit(SDCM_APPROX_REF, sd, s->assoc, s->size / s->sector_bytes);
		break;
	case FWD_ALL:
		down = true;
		break;
	default:
		down = false;
		break;
	}
	if (down) {
		s->c.stats[S_FORWARDED]++;
		ss_port_send(s->mem_side, &r->hdr);
	}
}

/*
 * The kernel's hit rates: a category's is the mean of its distances' hit
 * probabilities weighted by their counts, the totals weight the categories
 * by their accesses; summed in the reference's order.
 */
static void end_kernel(struct sdcm_cache *s)
{
	uint64_t blocks = s->size / s->sector_bytes, n = 0, cnt[N_CATS];
	double hit[N_CATS], tot = 0;

	for (int k = 0; k < N_CATS; k++) {
		cnt[k] = sd_hist_total(s->hist[k]);
		n += cnt[k];
		hit[k] = 0;
		for (size_t i = 0; i < sd_hist_len(s->hist[k]); i++) {
			int64_t sd;
			uint64_t count;

			sd_hist_entry(s->hist[k], i, &sd, &count);
			hit[k] += sdcm_p_hit(s->p_hit, sd, s->assoc, blocks) *
				  ((double)count / (double)cnt[k]);
		}
	}
	for (int k = 0; k < N_CATS && n; k++)
		tot += hit[k] * ((double)cnt[k] / (double)n);

	double rh = hit[C_LDL] * cnt[C_LDL] + hit[C_LDG] * cnt[C_LDG];
	double wh = hit[C_STL] * cnt[C_STL] + hit[C_STG] * cnt[C_STG];
	uint64_t nl = cnt[C_LDL] + cnt[C_LDG], ns = cnt[C_STL] + cnt[C_STG];
	uint64_t *st = s->c.stats;

	for (int k = 0; k < N_CATS; k++)
		ss_stat_set_real(&st[S_HIT_LDL + k], hit[k]);
	ss_stat_set_real(&st[S_HIT_TOT], tot);
	ss_stat_set_real(&st[S_HIT_LD], nl ? rh / nl : 0);
	ss_stat_set_real(&st[S_HIT_ST], ns ? wh / ns : 0);
}

static void new_kernel(struct sdcm_cache *s, const struct mem_req *r)
{
	if (s->size_from_kernel && r->addr) {
		if (r->addr / s->sector_bytes < s->assoc) {
			ss_component_fail(&s->c, SS_ERROR_CONFIG,
					  "the kernel's L1 of %" G_GUINT64_FORMAT " bytes holds fewer sectors than assoc %u",
					  r->addr, s->assoc);
			return;
		}
		s->size = r->addr;
	}
	s->kernel = r->warp;
	rd_reset(s->rd);
	for (int k = 0; k < N_CATS; k++)
		sd_hist_reset(s->hist[k]);
	py_random_seed(&s->rng, s->seed);
}


/* ---- timing mode ----------------------------------------------------------- */

static void t_tick_end(struct ss_engine *e, void *data);

static int timing_create(struct sdcm_cache *s, const struct ss_params *p,
			 GError **err)
{
	struct ss_component *c = &s->c;
	struct sdcm_timing *t;
	uint64_t per_set = s->assoc * s->sector_bytes;
	uint32_t bits = ss_param_uint(p, "mshr_line_bits");
	enum set_index_fn index = ss_param_enum(p, "index");
	const char *why;

	/* what can be refused is, before anything is allocated (a component
	 * that fails to be created is not destroyed) */
	if (ss_component_port_count(c, "cpu_side") != 1) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "timing = true takes one input on cpu_side, not %u",
			    ss_component_port_count(c, "cpu_side"));
		return -1;
	}
	if (s->size % per_set || s->size / per_set > UINT32_MAX) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "size %" G_GUINT64_FORMAT " is not a whole number of sets of assoc %u x sector_bytes %" G_GUINT64_FORMAT,
			    s->size, s->assoc, s->sector_bytes);
		return -1;
	}
	if (s->size_from_kernel) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "timing = true keeps its sets: size_from_kernel must be false");
		return -1;
	}
	why = set_index_check(index, (uint32_t)(s->size / per_set), (uint32_t)s->sector_bytes);
	if (why) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG, "index = %s: %s",
			    set_index_fns[index].name, why);
		return -1;
	}
	{
		double sigma = ss_param_double(p, "miss_latency_sigma");

		if (!(sigma >= 0 && sigma <= LATENCY_SIGMA_MAX)) {
			g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
				    "miss_latency_sigma = %g: expected a sigma from 0 to %g",
				    sigma, LATENCY_SIGMA_MAX);
			return -1;
		}
	}
	t = s->t = g_new0(struct sdcm_timing, 1);
	t->sets = (uint32_t)(s->size / per_set);
	t->index = index;
	t->line_shift = (uint32_t)__builtin_ctzll(s->sector_bytes);
	t->set_shift = (uint32_t)__builtin_ctz(t->sets) ;
	t->mshr_lines = ss_param_uint(p, "mshr_lines");
	t->lat_min = ss_param_uint(p, "miss_latency");
	t->lat_sigma = ss_param_double(p, "miss_latency_sigma");
	t->seed = (uint32_t)s->seed;
	t->waiting = g_array_new(FALSE, FALSE, sizeof(struct pending));
	t->key_mask = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
	t->set = g_new(struct rd_tracker *, t->sets);
	for (uint32_t i = 0; i < t->sets; i++)
		t->set[i] = rd_new();
	ls_init(&t->in_flight, 64);
	t->hits = g_array_new(FALSE, FALSE, sizeof(struct pending));
	t->arrived = g_array_new(FALSE, FALSE, sizeof(struct pending));
	t->misses = g_array_new(FALSE, FALSE, sizeof(struct pending));
	t->free_slots = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	t->up = ss_component_port(c, "cpu_side", 0);
	for (int k = 0; k < TS_N; k++)
		t->st[k] = ss_stat_add_counter(c, timing_stat_names[k][0],
					       timing_stat_names[k][1]);
	for (int k = 0; k < N_CATS; k++)
		s->hist[k] = sd_hist_new();
	/* answers go back up in the tick of the request or of the answer
	 * from below: the hierarchy stays on one thread */
	ss_component_set_port_flags(c, "cpu_side", SS_PORT_JOINED);
	ss_component_set_port_flags(c, "mem_side", SS_PORT_JOINED);
	return 0;
}

static void t_free(struct sdcm_timing *t)
{
	if (!t)
		return;
	for (uint32_t i = 0; t->set && i < t->sets; i++)
		rd_free(t->set[i]);
	g_free(t->set);
	g_free(t->in_flight.key);
	g_free(t->in_flight.used);
	if (t->hits)
		g_array_free(t->hits, TRUE);
	if (t->arrived)
		g_array_free(t->arrived, TRUE);
	if (t->misses)
		g_array_free(t->misses, TRUE);
	if (t->free_slots)
		g_array_free(t->free_slots, TRUE);
	if (t->waiting)
		g_array_free(t->waiting, TRUE);
	latency_free(t->lat);
	g_free(t);
}

static void t_answer(struct sdcm_timing *t, const struct mem_req *r,
		     enum mem_op kind, uint8_t reason)
{
	struct mem_req a = *r;

	a.ctl = (uint8_t)r->hdr.kind;
	a.hdr.kind = kind;
	a.reason = reason;
	ss_port_send(t->up, &a.hdr);
}

static void t_record(struct sdcm_cache *s, int64_t d)
{
	struct sdcm_timing *t = s->t;

	if (d < 0)
		(*t->st[TS_COLD])++;
	else if (d <= s->assoc)
		(*t->st[TS_WITHIN])++;
	else
		(*t->st[TS_BEYOND])++;
	sd_hist_add(s->hist[C_LDG], d);
	s->c.stats[S_LDG]++;
}

static void t_schedule_end(struct sdcm_cache *s)
{
	if (s->t->end_queued)
		return;
	s->t->end_queued = true;
	/* after every issue of the tick, before any kernel end */
	ss_schedule_in(s->c.engine, 0, SS_PRIO_DRAIN - 1, t_tick_end, s);
}

static void t_complete_one(struct sdcm_cache *s, const struct pending *p)
{
	if (G_UNLIKELY(rd_access(s->t->set[p->set], p->line) == RD_FULL) &&
	    !ss_engine_failure(s->c.engine))
		ss_engine_fail(s->c.engine, g_error_new(SS_ERROR, SS_ERROR_LIMIT,
			"%s: kernel %u touches more distinct lines than its reuse-distance tracker can hold (2^30, or this machine's memory)",
			s->c.name, s->kernel));
}

static int cmp_seq(const void *a, const void *b)
{
	const struct pending *x = a, *y = b;

	return (x->seq > y->seq) - (x->seq < y->seq);
}

/*
 * What is due now completes: the hits, then the answered misses, each in
 * the order they came (sets are independent, so this is each set's hits
 * before its misses); a completing miss frees its line's MSHR even if
 * another miss of the line is in flight.
 */
static void t_complete(struct sdcm_cache *s)
{
	struct sdcm_timing *t = s->t;
	bool had_room = !t->mshr_lines || t->in_flight.len < t->mshr_lines;

	for (guint i = 0; i < t->hits->len; i++) {
		const struct pending *p = &g_array_index(t->hits, struct pending, i);

		t_complete_one(s, p);
		t_answer(t, &p->up, MEM_RESPONSE, 0);
	}
	g_array_set_size(t->hits, 0);
	if (t->arrived->len > 1)
		g_array_sort(t->arrived, cmp_seq);
	for (guint i = 0; i < t->arrived->len; i++) {
		const struct pending *p = &g_array_index(t->arrived, struct pending, i);
		ls_remove(&t->in_flight, p->line & t->key_mask);
		t_complete_one(s, p);
		t_answer(t, &p->up, MEM_RESPONSE, 0);
	}
	g_array_set_size(t->arrived, 0);
	if (t->refused && !had_room && t->in_flight.len < t->mshr_lines) {
		struct mem_req retry;

		mem_req_init(&retry, MEM_RETRY, 0, 0);
		t->refused = false;
		ss_port_send(t->up, &retry.hdr);
	}
}

static void t_tick_end(struct ss_engine *e, void *data)
{
	struct sdcm_cache *s = data;

	(void)e;
	s->t->end_queued = false;
	t_complete(s);
}

/* A read from above. */
static void t_read(struct sdcm_cache *s, const struct mem_req *r)
{
	struct sdcm_timing *t = s->t;
	uint64_t now = ss_engine_now(s->c.engine) + 1;
	uint64_t line = r->addr >> t->line_shift;
	uint32_t set = set_index(t->index, r->addr, t->line_shift, t->sets, t->set_shift);
	int64_t d = rd_distance(t->set[set], line);
	struct pending p = { .seq = t->seq++, .line = line, .set = set, .up = *r, .due = now };

	if (t->snap_tick != now) {
		/* the MSHRs in use as the tick starts, before any completion */
		t->snap_tick = now;
		t->snap_used = t->in_flight.len;
	}
	if (d >= 0 && d < s->assoc) {
		t_record(s, d);
		g_array_append_val(t->hits, p);
		t_schedule_end(s);
		return;
	}
	/* the model draws a miss's latency before it knows the miss stalls */
	if (t->lat)
		p.due += latency_draw(t->lat);
	if ((r->flags & MEM_F_MAY_WAIT) && t->mshr_lines && t->snap_used >= t->mshr_lines) {
		(*t->st[TS_REFUSED])++;
		t->refused = true;
		t_answer(t, r, MEM_REFUSE, MEM_REFUSED_ENTRIES);
		return;
	}
	t_record(s, d);
	(*t->st[TS_MISSES])++;

	uint32_t slot;

	if (t->free_slots->len) {
		slot = g_array_index(t->free_slots, uint32_t, t->free_slots->len - 1);
		g_array_set_size(t->free_slots, t->free_slots->len - 1);
		g_array_index(t->misses, struct pending, slot) = p;
	} else {
		slot = t->misses->len;
		g_array_append_val(t->misses, p);
	}
	ls_add(&t->in_flight, line & t->key_mask);

	struct mem_req down;

	mem_req_init(&down, MEM_READ, line << t->line_shift, (uint32_t)s->sector_bytes);
	down.space = r->space;
	down.sm = r->sm;
	down.warp = r->warp;
	down.tag = slot;
	s->c.stats[S_FORWARDED]++;
	ss_port_send(s->mem_side, &down.hdr);
}

static void t_due(struct ss_engine *e, void *data);

/* An answered miss not due yet: it waits, in due order, for an event at
 * its tick (before any issue of that tick, as an answer from below). */
static void t_wait(struct sdcm_cache *s, const struct pending *p, uint64_t now)
{
	GArray *w = s->t->waiting;
	guint i = w->len;
	bool fresh = true;

	for (guint k = 0; k < w->len; k++)
		fresh &= g_array_index(w, struct pending, k).due != p->due;
	while (i > 0) {
		const struct pending *q = &g_array_index(w, struct pending, i - 1);

		if (q->due < p->due || (q->due == p->due && q->seq < p->seq))
			break;
		i--;
	}
	g_array_insert_val(w, i, *p);
	if (fresh)
		ss_schedule_in(s->c.engine, p->due - now, SS_PRIO_DELIVER, t_due, s);
}

/* The misses due now join the answered ones. */
static void t_due(struct ss_engine *e, void *data)
{
	struct sdcm_cache *s = data;
	GArray *w = s->t->waiting;
	uint64_t now = ss_engine_now(e) + 1;
	guint n = 0;

	while (n < w->len && g_array_index(w, struct pending, n).due <= now) {
		g_array_append_val(s->t->arrived, g_array_index(w, struct pending, n));
		n++;
	}
	g_array_remove_range(w, 0, n);
	if (n)
		t_schedule_end(s);
}

/* An answer from below: the miss completes at the next completion point. */
static void t_arrived(struct sdcm_cache *s, const struct mem_req *r)
{
	struct sdcm_timing *t = s->t;

	if (r->hdr.kind != MEM_RESPONSE || r->tag >= t->misses->len) {
		ss_component_fail(&s->c, SS_ERROR_INTERNAL,
				  "kind %u (tag %u) from below, which owes only answers to its reads",
				  r->hdr.kind, r->tag);
		return;
	}
	const struct pending *p = &g_array_index(t->misses, struct pending, r->tag);
	uint64_t now = ss_engine_now(s->c.engine) + 1;

	if (p->due > now)
		t_wait(s, p, now);
	else {
		g_array_append_val(t->arrived, *p);
		t_schedule_end(s);
	}
	g_array_append_val(t->free_slots, r->tag);
}

static void t_new_kernel(struct sdcm_cache *s)
{
	struct sdcm_timing *t = s->t;

	for (uint32_t i = 0; i < t->sets; i++)
		rd_reset(t->set[i]);
	ls_clear(&t->in_flight);
	g_array_set_size(t->hits, 0);
	g_array_set_size(t->arrived, 0);
	g_array_set_size(t->misses, 0);
	g_array_set_size(t->free_slots, 0);
	g_array_set_size(t->waiting, 0);
	t->seq = 0;
	t->refused = false;
	/* a generator of its own per kernel, as the model makes one */
	latency_free(t->lat);
	t->lat = t->lat_min || t->lat_sigma > 0
		? latency_new(t->lat_min, t->lat_sigma, t->seed) : NULL;
}

static void timing_recv(struct sdcm_cache *s, struct ss_port *in,
			const struct mem_req *r)
{
	struct sdcm_timing *t = s->t;

	if (in != t->up) {
		t_arrived(s, r);
		return;
	}
	switch (r->hdr.kind) {
	case MEM_READ:
		t_read(s, r);
		return;
	case MEM_CONTROL:
		break;
	default:
		ss_component_fail(&s->c, SS_ERROR_CONFIG,
				  "kind %u: timing = true takes reads only (a loads-only trace)",
				  r->hdr.kind);
		return;
	}
	switch (r->ctl) {
	case MEM_CTL_KERNEL_BEGIN:
		s->kernel = r->warp;
		t_new_kernel(s);
		for (int k = 0; k < N_CATS; k++)
			sd_hist_reset(s->hist[k]);
		break;
	case MEM_CTL_COMPLETE:
		t_complete(s);
		break;
	case MEM_CTL_KERNEL_END:
		t_complete(s);
		if (t->in_flight.len)
			ss_component_fail(&s->c, SS_ERROR_INTERNAL,
					  "kernel %u ended with %u lines in flight",
					  s->kernel, t->in_flight.len);
		if (s->profile)
			write_profile(s);
		break;
	default:
		break;
	}
	ss_port_send(s->mem_side, &r->hdr);
}

static void sdcm_recv(struct ss_component *c, struct ss_port *in,
		      const struct ss_msg *m)
{
	struct sdcm_cache *s = SS_COMPONENT(c, struct sdcm_cache, c);
	const struct mem_req *r = (const struct mem_req *)m;

	if (m->kind == MEM_RUN) {
		const struct mem_run *run = (const struct mem_run *)m;

		if (!s->t) {
			rr_merge_push_run(s->merge, in->index, run);
			return;
		}
		for (unsigned k = 0; k < run->n; k++) {
			struct mem_req q;

			mem_run_request(run, k, &q);
			timing_recv(s, in, &q);
		}
		return;
	}
	if (s->t) {
		timing_recv(s, in, r);
		return;
	}
	if (m->kind != MEM_CONTROL) {
		rr_merge_push(s->merge, in->index, r);
		return;
	}
	switch (r->ctl) {
	case MEM_CTL_KERNEL_BEGIN:
		/* the first input's begin starts the kernel; one goes down */
		if (s->begun)
			return;
		s->begun = true;
		new_kernel(s, r);
		break;
	case MEM_CTL_KERNEL_END:
		if (!rr_merge_end(s->merge, in->index))
			return;
		s->begun = false;
		end_kernel(s);
		if (s->profile)
			write_profile(s);
		break;
	default:
		/* no lines to flush or invalidate; the levels below may have */
		break;
	}
	ss_port_send(s->mem_side, m);
}

static void sdcm_destroy(struct ss_component *c)
{
	struct sdcm_cache *s = SS_COMPONENT(c, struct sdcm_cache, c);

	t_free(s->t);
	if (s->merge)
		rr_merge_free(s->merge);
	if (s->rd)
		rd_free(s->rd);
	for (int k = 0; k < N_CATS; k++)
		if (s->hist[k])
			sd_hist_free(s->hist[k]);
}

static const struct ss_component_ops ops = {
	.xcreate = sdcm_create,
	.xstart = sdcm_start,
	.xrecv = sdcm_recv,
	.xdestroy = sdcm_destroy,
};

static const struct ss_component_type sdcm_cache_type = {
	.abi_version = SS_ABI_VERSION,
	.name = "sdcm_cache",
	.summary = "The stack-distance cache model (the paper's baseline): hit rates from reuse distances",
	.params = params,
	.ports = ports,
	.stats = stats,
	.ops = &ops,
	.instance_size = sizeof(struct sdcm_cache),
	.flags = SS_TYPE_PARTITION_SAFE | SS_TYPE_RD_PROFILE,
};

SS_PLUGIN_ENTRY(sdcm_cache)
{
	return ss_registry_add(r, &sdcm_cache_type, error);
}
