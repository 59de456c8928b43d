/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A plain model of Nugteren et al.'s GPU cache model (doc/nugteren-model.md),
 * written from those rules alone, against the numbers the model itself gives
 * on tests/data/nugteren (expected-*.json): every case's reuse-distance
 * histogram, and the accesses, hits, miss split and miss rate as the model
 * prints them (models/nugteren.c), on every kernel and configuration.  It
 * checks that the rules as written are the model's; the configuration that
 * reproduces the model with the stock components
 * (configs/validation/fermi-nugteren.ini) is checked against the same
 * numbers by test-golden-nugteren.  The kernels are read with the trc
 * reader as the model reads them (loads only) and coalesced with
 * coalesce_lane_groups; the distances come from sdcm.h's tracker, read at
 * issue and recorded at completion, as the component does.  Also: an
 * occupancy of 1536 threads (counted as warps of one) and 8 blocks is the
 * model's number of blocks at a time.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include "trace.h"
#include "coalesce.h"
#include "json.h"
#include "nugteren.h"
#include "sdcm.h"
#include "occupancy.h"

#define INF_DIST 99999999u
#define WARP 32
#define MAX_THREADS_PER_CORE 1536
#define MAX_BLOCKS_PER_CORE 8

/* One thread's load: its line and whether it makes the request. */
struct access {
	uint64_t line;
	uint32_t bytes;
	bool leader;
};

/* A warp: per lane, its loads in order. */
struct warp {
	uint32_t lanes;			/* threads in it */
	GArray *acc[WARP];		/* struct access */
};

struct config {
	uint32_t line, bytes, ways, mshr, latency;
};

/* ---- a kernel, as the model sees it --------------------------------------- */

/* The warps of kernel k, block by block, warp by warp. */
static GPtrArray *read_warps(struct trace_reader *t, const struct gpu_kernel *k,
			     uint32_t line_bytes)
{
	GPtrArray *warps = g_ptr_array_new();
	uint32_t wpb = (k->block_size + WARP - 1) / WARP;

	for (uint64_t id = 0; id < k->grid_size; id++) {
		const struct gpu_block *b;
		GError *err = NULL;
		struct warp *w0 = NULL;

		g_assert_true(trace_load_blocks(t, &id, 1, &b, &err));
		for (uint32_t w = 0; w < wpb; w++) {
			struct warp *w1 = g_new0(struct warp, 1);

			w1->lanes = MIN(WARP, k->block_size - w * WARP);
			for (uint32_t l = 0; l < WARP; l++)
				w1->acc[l] = g_array_new(FALSE, FALSE, sizeof(struct access));
			g_ptr_array_add(warps, w1);
			if (!w)
				w0 = w1;
		}
		for (uint32_t i = 0; i < b->n_lines; i++) {
			const struct gpu_line *l = &b->lines[i];
			struct warp *w = g_ptr_array_index(warps, warps->len - wpb + l->warp);
			uint32_t bytes = (uint32_t)atoi(strrchr(l->opcode, '.') + 1) / 8;
			uint64_t out[WARP];
			uint8_t lead[WARP];
			uint64_t buf[GPU_STEP_MAX];
			uint32_t m = coalesce_lane_groups(gpu_line_addrs(l, buf), l->n_addr, l->lanes,
							  bytes, line_bytes, out, lead);
			uint32_t rest = l->lanes;

			for (uint32_t j = 0; j < l->n_addr; j++, rest &= rest - 1) {
				uint32_t lane = (uint32_t)__builtin_ctz(rest);
				struct access a = { gpu_line_addr(l, j) / line_bytes, bytes, false };

				for (uint32_t q = 0; q < m; q++)
					a.leader |= lead[q] == lane;
				g_array_append_val(w->acc[lane], a);
			}
		}
		(void)w0;
	}
	return warps;
}

static void free_warps(GPtrArray *warps)
{
	for (guint i = 0; i < warps->len; i++) {
		struct warp *w = warps->pdata[i];

		for (uint32_t l = 0; l < WARP; l++)
			g_array_free(w->acc[l], TRUE);
		g_free(w);
	}
	g_ptr_array_free(warps, TRUE);
}

/* ---- the cache: distances among completed accesses, per set ------------ */

/*
 * A line's distance is the reuse distance of the stream of its set's
 * completions (sdcm.h's tracker): read when an access issues, recorded
 * when one completes.
 */
struct rdcache {
	uint32_t sets;
	struct rd_tracker **set;
	GHashTable *in_flight;		/* lines with a miss outstanding (the MSHRs) */
};

static struct rdcache *rdcache_new(uint32_t sets)
{
	struct rdcache *c = g_new0(struct rdcache, 1);

	c->sets = sets;
	c->set = g_new(struct rd_tracker *, sets);
	for (uint32_t s = 0; s < sets; s++)
		c->set[s] = rd_new();
	c->in_flight = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
	return c;
}

static void rdcache_free(struct rdcache *c)
{
	for (uint32_t s = 0; s < c->sets; s++)
		rd_free(c->set[s]);
	g_free(c->set);
	g_hash_table_destroy(c->in_flight);
	g_free(c);
}

/* The set of a line: the model's Fermi hash, modulo the sets. */
static uint32_t set_of(uint64_t a, uint32_t sets)
{
	uint32_t lo = (uint32_t)(a & 0x1f);
	uint32_t hi = (uint32_t)(((a >> 6) & 1) + 2 * ((a >> 7) & 1) + 4 * ((a >> 8) & 1) +
				 8 * ((a >> 10) & 1) + 16 * ((a >> 12) & 1));

	return ((lo ^ hi) + 32 * (uint32_t)((a >> 5) & 1)) % sets;
}

/* Lines of the set completed since this one last was (INF_DIST: never). */
static uint32_t distance(const struct rdcache *c, uint32_t s, uint64_t line)
{
	int64_t d = rd_distance(c->set[s], line);

	return d < 0 ? INF_DIST : (uint32_t)d;
}

static void complete(struct rdcache *c, uint32_t s, uint64_t line)
{
	g_assert_cmpint(rd_access(c->set[s], line), !=, RD_FULL);
}

/* ---- one case -------------------------------------------------------------- */

struct pending {
	uint64_t at, seq, line;
	uint32_t set;
	bool miss;
};

static int cmp_pending(const void *a, const void *b)
{
	const struct pending *x = a, *y = b;

	if (x->set != y->set)
		return x->set < y->set ? -1 : 1;
	if (x->miss != y->miss)
		return x->miss ? 1 : -1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Complete what arrives at `now`: set by set, hits before misses, each in
 * the order issued; a completing miss frees its line's MSHR. */
static void complete_now(struct rdcache *c, GArray *pend, uint64_t now)
{
	GArray *due = g_array_new(FALSE, FALSE, sizeof(struct pending));
	guint k = 0;

	for (guint i = 0; i < pend->len; i++) {
		struct pending *p = &g_array_index(pend, struct pending, i);

		if (p->at == now)
			g_array_append_val(due, *p);
		else
			g_array_index(pend, struct pending, k++) = *p;
	}
	g_array_set_size(pend, k);
	g_array_sort(due, cmp_pending);
	for (guint i = 0; i < due->len; i++) {
		const struct pending *p = &g_array_index(due, struct pending, i);

		if (p->miss) {
			/* the model keeps the lines in 32 bits */
			uint64_t key = p->line & 0xffffffffu;

			g_hash_table_remove(c->in_flight, &key);
		}
		complete(c, p->set, p->line);
	}
	g_array_free(due, TRUE);
}

/* The histogram (distance -> count) of one case over the warps. */
static GHashTable *run_case(GPtrArray *warps, uint32_t wpb, uint32_t active,
			    uint32_t sets, uint32_t ways, uint32_t latency,
			    uint32_t mshr)
{
	GHashTable *hist = g_hash_table_new(g_direct_hash, g_direct_equal);
	struct rdcache *c = rdcache_new(sets);
	GArray *pend = g_array_new(FALSE, FALSE, sizeof(struct pending));
	uint64_t now = 0, seq = 0;
	uint32_t n_blocks = warps->len / wpb;

	for (uint32_t b0 = 0; b0 < n_blocks; b0 += active) {
		uint32_t first = b0 * wpb, n = MIN(active, n_blocks - b0) * wpb, done = 0;
		GQueue q = G_QUEUE_INIT;
		uint32_t *pc = g_new0(uint32_t, (size_t)n * WARP);
		int64_t *flight = g_new(int64_t, n);	/* countdown, -1: not in flight */

		/* a batch starts with no request pending, nor MSHR held */
		g_array_set_size(pend, 0);
		g_hash_table_remove_all(c->in_flight);
		for (uint32_t w = 0; w < n; w++) {
			g_queue_push_tail(&q, GUINT_TO_POINTER(w));
			flight[w] = -1;
		}
		while (done < n) {
			uint32_t used = g_hash_table_size(c->in_flight);

			if (!g_queue_is_empty(&q)) {
				uint32_t wi = GPOINTER_TO_UINT(g_queue_pop_head(&q));
				const struct warp *w = warps->pdata[first + wi];
				uint32_t *wpc = pc + (size_t)wi * WARP;
				uint32_t maxlat = 0, tdone = 0, bytes = 1, portions, per;

				if (wpc[0] < w->acc[0]->len)
					bytes = g_array_index(w->acc[0], struct access, wpc[0]).bytes;
				portions = MAX(1u, bytes / 4);
				per = WARP / portions;
				/* with 3 portions (12 to 15 bytes) lanes 30 and
				 * 31 wait for a visit with a narrower lane 0 */
				for (uint32_t j = 0; j < portions; j++) {
					for (uint32_t l = j * per; l < (j + 1) * per && l < w->lanes; l++) {
						const struct access *a;
						uint32_t s, d;

						if (wpc[l] >= w->acc[l]->len) {
							tdone++;
							continue;
						}
						a = &g_array_index(w->acc[l], struct access, wpc[l]++);
						if (!a->leader)
							continue;
						s = set_of(a->line, sets);
						d = distance(c, s, a->line);
						if (d >= ways) {
							maxlat = MAX(maxlat, latency);
							if (used >= mshr && l == 0) {
								wpc[0]--;
								maxlat = 0;
								break;
							}
							struct pending p = { now + latency, seq++, a->line, s, true };
							uint64_t *key = g_new(uint64_t, 1);

							*key = a->line & 0xffffffffu;
							g_array_append_val(pend, p);
							g_hash_table_add(c->in_flight, key);
						} else {
							struct pending p = { now, seq++, a->line, s, false };

							g_array_append_val(pend, p);
						}
						g_hash_table_insert(hist, GUINT_TO_POINTER(d),
								    GUINT_TO_POINTER(GPOINTER_TO_UINT(
									g_hash_table_lookup(hist, GUINT_TO_POINTER(d))) + 1));
					}
					complete_now(c, pend, now);
				}
				if (tdone == w->lanes)
					done++;
				else if (!maxlat)
					g_queue_push_tail(&q, GUINT_TO_POINTER(wi));
				else
					flight[wi] = maxlat;
			}
			complete_now(c, pend, now);
			for (uint32_t w = 0; w < n; w++) {
				if (flight[w] < 0)
					continue;
				if (flight[w] == 0) {
					flight[w] = -1;
					g_queue_push_tail(&q, GUINT_TO_POINTER(w));
				} else {
					flight[w]--;
				}
			}
			now++;
		}
		g_queue_clear(&q);
		g_free(pc);
		g_free(flight);
	}
	g_array_free(pend, TRUE);
	rdcache_free(c);
	return hist;
}

/* ---- against the model's numbers ------------------------------------------- */

static void check_hist(GHashTable *got, const struct json *want, const char *what)
{
	g_assert_cmpuint(g_hash_table_size(got), ==, want->keys->len);
	for (guint i = 0; i < want->keys->len; i++) {
		uint32_t d = (uint32_t)strtoul(want->keys->pdata[i], NULL, 10);
		uint32_t n = GPOINTER_TO_UINT(g_hash_table_lookup(got, GUINT_TO_POINTER(d)));
		const struct json *v = want->items->pdata[i];

		if (n != (uint32_t)v->num)
			g_error("%s: distance %u: %u, the model %u", what, d, n, (uint32_t)v->num);
	}
}

static void check_config(const char *name)
{
	char *root = g_build_filename(g_getenv("G_TEST_SRCDIR"), "data/nugteren", NULL);
	char *base = g_strdup_printf("expected-%s.json", name);
	char *file = g_build_filename(root, base, NULL), *why = NULL;
	struct json *want = json_parse_file(file, &why);
	const struct json *conf, *benches;
	struct config cf;
	uint32_t sets;

	g_assert_null(why);
	conf = json_get(want, "config");
	cf = (struct config){
		(uint32_t)json_get(conf, "LINE_SIZE")->num, (uint32_t)json_get(conf, "CACHE_BYTES")->num,
		(uint32_t)json_get(conf, "CACHE_WAYS")->num, (uint32_t)json_get(conf, "NUM_MSHR")->num,
		(uint32_t)json_get(conf, "MEM_LATENCY")->num,
	};
	g_assert_cmpuint((uint32_t)json_get(conf, "MEM_LATENCY_STDDEV")->num, ==, 0);
	sets = cf.bytes / (cf.line * cf.ways);
	benches = json_get(want, "benches");
	for (guint b = 0; b < benches->keys->len; b++) {
		const struct json *kernels = benches->items->pdata[b];
		char *dir = g_build_filename(root, benches->keys->pdata[b], NULL);
		GError *err = NULL;
		struct trace_reader *t = trace_open(dir, TRACE_AUTO, &err);

		g_assert_no_error(err);
		g_assert_true(trace_set_loads_only(t, &err));
		for (guint k = 0; k < kernels->items->len; k++) {
			const struct gpu_kernel *kn = trace_next_kernel(t, &err);
			const struct json *kw = kernels->items->pdata[k];
			const struct json *hists = json_get(kw, "histograms");
			uint32_t wpb = (kn->block_size + WARP - 1) / WARP;
			uint32_t active = MIN((uint32_t)kn->grid_size,
					      MIN(MAX_THREADS_PER_CORE / kn->block_size,
						  MAX_BLOCKS_PER_CORE));
			GPtrArray *warps = read_warps(t, kn, cf.line);
			/* normal, fully associative, no latency, no MSHR limit */
			const uint32_t case_sets[4] = { sets, 1, sets, sets };
			const uint32_t case_ways[4] = { cf.ways, cf.ways * sets, cf.ways, cf.ways };
			const uint32_t case_lat[4] = { cf.latency, cf.latency, 0, cf.latency };
			const uint32_t case_mshr[4] = { cf.mshr, cf.mshr, cf.mshr, INF_DIST };

			struct nug_case_counts counts[NUG_CASES] = { { 0, 0, 0 } };
			struct nug_split sp;
			char rate[32];

			g_assert_cmpuint(active, ==, (uint32_t)json_get(kw, "active_blocks")->num);
			/* the occupancy of fermi-nugteren.ini's schedulers (1536
			 * threads counted one by one, 8 blocks) runs as many */
			{
				static const uint32_t carve[] = { 48 };
				const struct occ_gpu fermi = {
					.num_sms = 1, .warp_size = 1, .max_warps = 1536,
					.max_blocks = 8, .regs = 32768, .reg_unit = 64,
					.smem_unit = 128, .unified_bytes = 65536,
					.carveouts_kib = carve, .n_carveouts = 1,
					.rule = CARVEOUT_OFF, .fixed_l1_bytes = 16384,
					.policy = POLICY_DYNAMIC,
				};
				struct gpu_occupancy occ;
				char *no = NULL;

				g_assert_true(occupancy_plan(&fermi, kn, &occ, &no));
				g_assert_cmpuint(occ.max_active, ==, active);
			}
			for (unsigned cs = 0; cs < 4; cs++) {
				GHashTable *h = run_case(warps, wpb, active, case_sets[cs],
							 case_ways[cs], case_lat[cs], case_mshr[cs]);
				char *what = g_strdup_printf("%s, %s_%02u, case %u", name,
							     (char *)benches->keys->pdata[b], k, cs);
				GHashTableIter it;
				gpointer d, n;

				check_hist(h, hists->items->pdata[cs], what);
				g_hash_table_iter_init(&it, h);
				while (g_hash_table_iter_next(&it, &d, &n)) {
					uint32_t dist = GPOINTER_TO_UINT(d), cnt = GPOINTER_TO_UINT(n);

					if (dist == INF_DIST)
						counts[cs].cold += cnt;
					else if (dist > case_ways[cs])
						counts[cs].beyond += cnt;
					else
						counts[cs].within += cnt;
				}
				g_free(what);
				g_hash_table_destroy(h);
			}
			/* the model's arithmetic on them: what it prints */
			sp = nugteren_split(counts);
			g_assert_cmpint(sp.total, ==, (int64_t)json_get(kw, "accesses")->num);
			g_assert_cmpint(sp.hits, ==, (int64_t)json_get(kw, "hits")->num);
			g_assert_cmpint(sp.compulsory, ==, (int64_t)json_get(kw, "misses_compulsory")->num);
			g_assert_cmpint(sp.capacity, ==, (int64_t)json_get(kw, "misses_capacity")->num);
			g_assert_cmpint(sp.associativity, ==, (int64_t)json_get(kw, "misses_associativity")->num);
			g_assert_cmpint(sp.latency, ==, (int64_t)json_get(kw, "misses_latency")->num);
			g_assert_cmpint(sp.mshr, ==, (int64_t)json_get(kw, "misses_mshr")->num);
			g_assert_cmpint(sp.case_misses[NUG_FULL_ASSOC], ==,
					(int64_t)json_get(kw, "misses_case_full_assoc")->num);
			g_assert_cmpint(sp.case_misses[NUG_NO_LATENCY], ==,
					(int64_t)json_get(kw, "misses_case_no_latency")->num);
			g_assert_cmpint(sp.case_misses[NUG_NO_MSHR_LIMIT], ==,
					(int64_t)json_get(kw, "misses_case_no_mshr_limit")->num);
			/* six significant digits, as a C++ stream prints a float */
			g_snprintf(rate, sizeof(rate), "%g", (double)sp.miss_rate);
			g_assert_cmpstr(rate, ==, json_get(kw, "miss_rate_printed")->str);
			free_warps(warps);
		}
		trace_close(t);
		g_free(dir);
	}
	json_free(want);
	g_free(file);
	g_free(base);
	g_free(root);
}

static void test_fermi16(void)
{
	check_config("fermi16");
}

static void test_fermi48(void)
{
	check_config("fermi48");
}

static void test_fermi16_mshr8(void)
{
	check_config("fermi16-mshr8");
}

/*
 * Overlapping shares (a negative rest): the model subtracts the rest from
 * the MSHR share if it exceeds the overlap, else from the latency share,
 * else from the associativity share, so each grows by the overlap.
 * normal: 10 cold + 10 beyond; full assoc. 12 misses (assoc. 8); no
 * latency 4 cold (latency 6, compulsory 4); no MSHR limit `nomshr`.
 */
static void test_split_overlap(void)
{
	static const struct { uint64_t nomshr; int64_t assoc, lat, mshr; } rows[] = {
		/* mshr 5, rest -3: MSHR 5 > 3, so 8 */
		{ 15, 8, 6, 8 },
		/* mshr 1: rest +1, capacity, nothing moved */
		{ 19, 8, 6, 1 },
		/* mshr 2, rest 0 */
		{ 18, 8, 6, 2 },
	};
	struct nug_case_counts c[NUG_CASES] = {
		{ 10, 10, 5 }, { 2, 10, 0 }, { 4, 16, 0 }, { 0, 0, 0 },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
		struct nug_split s;

		c[NUG_NO_MSHR_LIMIT] = (struct nug_case_counts){ 10, rows[i].nomshr - 10, 0 };
		s = nugteren_split(c);
		g_assert_cmpint(s.compulsory, ==, 4);
		g_assert_cmpint(s.associativity, ==, rows[i].assoc);
		g_assert_cmpint(s.latency, ==, rows[i].lat);
		g_assert_cmpint(s.mshr, ==, rows[i].mshr);
		g_assert_cmpint(s.misses, ==, 20);
		g_assert_cmpint(s.hits, ==, 5);
	}
	/* MSHR share too small: the latency share takes it (6 > 3: 9) */
	c[NUG_NO_MSHR_LIMIT] = (struct nug_case_counts){ 10, 8, 0 };	/* mshr 2 */
	c[NUG_FULL_ASSOC] = (struct nug_case_counts){ 2, 8, 0 };	/* assoc 10 */
	{
		/* rest = 20 - (4 + 6 + 10 + 2) = -2; mshr 2 is not > 2 */
		struct nug_split s = nugteren_split(c);

		g_assert_cmpint(s.mshr, ==, 2);
		g_assert_cmpint(s.latency, ==, 8);
		g_assert_cmpint(s.associativity, ==, 10);
		g_assert_cmpint(s.capacity, ==, 0);
	}
	/* neither share is larger than the overlap: the associativity one */
	c[NUG_NO_LATENCY] = (struct nug_case_counts){ 9, 11, 0 };	/* lat 1, comp 9 */
	{
		/* rest = 20 - (9 + 1 + 10 + 2) = -2: mshr 2 and latency 1 are
		 * not > 2, so associativity 10 - (-2) = 12 */
		struct nug_split s = nugteren_split(c);

		g_assert_cmpint(s.associativity, ==, 12);
		g_assert_cmpint(s.latency, ==, 1);
		g_assert_cmpint(s.mshr, ==, 2);
	}
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/nugteren-ref/fermi16", test_fermi16);
	g_test_add_func("/nugteren-ref/fermi48", test_fermi48);
	g_test_add_func("/nugteren-ref/fermi16-mshr8", test_fermi16_mshr8);
	g_test_add_func("/nugteren-ref/split-overlap", test_split_overlap);
	return g_test_run();
}
