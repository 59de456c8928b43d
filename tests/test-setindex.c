/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Set-index functions against the sets GPGPU-Sim and the reference compute
 * for the same addresses, and their table against its readers.  Also the
 * other tables of names that two sides must agree on: the counters a
 * report reads from the caches, DRAM and the SMs
 * (protocols/cache_stats.h), against the types' statistics, and the table
 * of the report's metrics and their Nsight names (report_metrics.h).
 */
#include "config.h"

#include <string.h>
#include <glib.h>
#include "setindex.h"
#include "cache_params.h"
#include "registry.h"
#include "builtin.h"
#include <sectorsim/protocols/cache_stats.h>
#include "report_metrics.h"

static uint32_t idx(enum set_index_fn fn, uint64_t a, uint32_t n)
{
	return set_index(fn, a, 7, n, n & (n - 1) ? 0 : __builtin_ctz(n));
}

static void test_gpgpusim_vectors(void)
{
	/* address, linear 4, linear 32, xor 32, xor 128, ipoly 16, ipoly 32, ipoly 64 */
	static const struct { uint64_t a; uint32_t v[7]; } rows[] = {
		{ 0x0, { 0, 0, 0, 0, 0, 0, 0 } },
		{ 0x80, { 1, 1, 1, 1, 1, 1, 1 } },
		{ 0x1000, { 0, 0, 1, 32, 6, 5, 32 } },
		{ 0x12345680, { 1, 13, 8, 124, 10, 25, 34 } },
		{ 0xfffc00, { 0, 24, 7, 7, 4, 9, 26 } },
		{ 0x7f2a40000000, { 0, 0, 0, 0, 0, 0, 41 } },
		{ 0x7f2a40000080, { 1, 1, 1, 1, 1, 1, 40 } },
		{ 0x7f2a40800f80, { 3, 31, 31, 31, 14, 4, 37 } },
		{ 0x7fb0fc430e00, { 0, 28, 12, 16, 3, 14, 8 } },
		{ 0x7fd165500100, { 2, 2, 2, 66, 14, 20, 4 } },
		{ 0x7f1269c00108, { 2, 2, 2, 2, 1, 21, 63 } },
		{ 0x7f6233c00600, { 0, 12, 12, 12, 15, 24, 16 } },
	};
	static const struct { enum set_index_fn fn; uint32_t n; } cols[] = {
		{ SET_INDEX_LINEAR, 4 }, { SET_INDEX_LINEAR, 32 }, { SET_INDEX_XOR, 32 },
		{ SET_INDEX_XOR, 128 }, { SET_INDEX_IPOLY, 16 }, { SET_INDEX_IPOLY, 32 },
		{ SET_INDEX_IPOLY, 64 },
	};

	for (size_t r = 0; r < G_N_ELEMENTS(rows); r++)
		for (size_t k = 0; k < G_N_ELEMENTS(cols); k++) {
			uint32_t got = idx(cols[k].fn, rows[r].a, cols[k].n);

			if (got != rows[r].v[k])
				g_error("address 0x%" G_GINT64_MODIFIER "x column %zu: got %u, want %u",
					rows[r].a, k, got, rows[r].v[k]);
		}
}

static void test_fib_double_vectors(void)
{
	/* address, 256, 384, 1152, 10240 sets */
	static const struct { uint64_t a; uint32_t v[4]; } rows[] = {
		{ 0x0, { 0, 0, 0, 0 } },
		{ 0x80, { 158, 237, 711, 6328 } },
		{ 0x1000, { 198, 298, 895, 7957 } },
		{ 0xfffc00, { 1, 2, 7, 68 } },
		{ 0x7f2a40000000, { 35, 53, 161, 1433 } },
		{ 0x7f2a40000080, { 194, 291, 873, 7762 } },
		{ 0x7f2a40800000, { 157, 236, 709, 6302 } },
		{ 0x7fd165500000, { 3, 5, 16, 150 } },
		{ 0x7fb0fc430e00, { 117, 176, 528, 4697 } },
		{ 0x7f2a41000000, { 23, 34, 104, 931 } },
	};
	static const uint32_t sets[] = { 256, 384, 1152, 10240 };

	for (size_t r = 0; r < G_N_ELEMENTS(rows); r++)
		for (size_t k = 0; k < 4; k++)
			g_assert_cmpuint(idx(SET_INDEX_FIB_DOUBLE, rows[r].a, sets[k]), ==, rows[r].v[k]);
	/* a 2-set cache: lines 0, 2, 4, 5 -> 0; 1, 3 -> 1 */
	static const uint32_t two[] = { 0, 1, 0, 1, 0, 0 };

	for (uint64_t line = 0; line < 6; line++)
		g_assert_cmpuint(set_index_fib_double(line, 2), ==, two[line]);
}

/* The float hash of 47-bit addresses reaches only 8192 sets: a double's 53
 * bits leave 13 for the fraction of a 40-bit line number. */
static void test_fib_double_precision(void)
{
	GHashTable *seen = g_hash_table_new(g_direct_hash, g_direct_equal);

	for (uint64_t line = 0; line < (1u << 20); line++)
		g_hash_table_add(seen, GUINT_TO_POINTER(set_index_fib_double(
			(UINT64_C(0x7f2a40000000) >> 7) + line, 10240) + 1));
	g_assert_cmpuint(g_hash_table_size(seen), ==, 8192);
	g_hash_table_destroy(seen);
}

static void test_fermi(void)
{
	/* lower = bits 7..11, upper from bits 13..15, 17, 19; bit 12 for 64 sets */
	g_assert_cmpuint(idx(SET_INDEX_FERMI, 0x80, 32), ==, 1);
	g_assert_cmpuint(idx(SET_INDEX_FERMI, 0x2000, 32), ==, 1);
	g_assert_cmpuint(idx(SET_INDEX_FERMI, 0x2080, 32), ==, 0);
	g_assert_cmpuint(idx(SET_INDEX_FERMI, 0x20000, 32), ==, 8);
	g_assert_cmpuint(idx(SET_INDEX_FERMI, 0x80000, 32), ==, 16);
	g_assert_cmpuint(idx(SET_INDEX_FERMI, 0x1000, 64), ==, 32);
	g_assert_cmpuint(idx(SET_INDEX_FERMI, 0x1000, 32), ==, 0);
}

/*
 * The set mapping of Nugteren et al.'s model (doc/nugteren-model.md), in
 * its own terms over the line address a: (a0..a4 XOR a6 + 2 a7 + 4 a8 +
 * 8 a10 + 16 a12) + 32 a5, modulo the sets.  `fermi` is it, for 128-byte
 * lines and 32 or 64 sets, on lines with every pattern of the 13 low
 * bits that matter (and random bits above them).
 */
static void test_fermi_is_nugteren(void)
{
	GRand *r = g_rand_new_with_seed(19);

	for (int i = 0; i < 200000; i++) {
		uint64_t a = (uint64_t)i | ((uint64_t)g_rand_int(r) << 20);
		uint64_t addr = a << 7 | (uint64_t)(i & 0x7f);
		uint32_t bit[13], lo, hi, want;

		for (int b = 0; b < 13; b++)
			bit[b] = (uint32_t)(a >> b) & 1;
		lo = (uint32_t)(a & 0x1f);
		hi = bit[6] + 2 * bit[7] + 4 * bit[8] + 8 * bit[10] + 16 * bit[12];
		want = (lo ^ hi) + 32 * bit[5];
		g_assert_cmpuint(idx(SET_INDEX_FERMI, addr, 32), ==, want % 32);
		g_assert_cmpuint(idx(SET_INDEX_FERMI, addr, 64), ==, want % 64);
		/* the model's own, for any count: fermi's where that has one */
		for (uint32_t n = 1; n <= 64; n++)
			g_assert_cmpuint(idx(SET_INDEX_NUGTEREN, addr, n), ==, want % n);
	}
	g_rand_free(r);
}

/* Every selector has its row; the names differ; every function keeps to
 * the sets of every geometry its check accepts. */
static void test_table(void)
{
	static const uint32_t counts[] = { 1, 2, 3, 4, 16, 32, 64, 128, 384, 1152, 2048 };
	static const uint32_t lines[] = { 32, 64, 128, 256 };
	unsigned accepted[SET_INDEX_N] = { 0 };

	for (unsigned i = 0; i < SET_INDEX_N; i++) {
		const struct set_index_desc *d = &set_index_fns[i];

		g_assert_nonnull(d->name);
		g_assert_nonnull(d->check);
		for (unsigned j = 0; j < i; j++)
			g_assert_cmpstr(d->name, !=, set_index_fns[j].name);
		g_assert_nonnull(set_index_check(i, 0, 128));
		for (size_t n = 0; n < G_N_ELEMENTS(counts); n++)
			for (size_t l = 0; l < G_N_ELEMENTS(lines); l++) {
				uint32_t nsets = counts[n];
				unsigned shift = __builtin_ctz(lines[l]);
				uint64_t a = UINT64_C(0x7f2a40000000);

				if (set_index_check(i, nsets, lines[l]))
					continue;
				accepted[i]++;
				for (unsigned k = 0; k < 4096; k++) {
					a = a * 6364136223846793005u + 1442695040888963407u;
					g_assert_cmpuint(set_index(i, a >> 17, shift, nsets,
						nsets & (nsets - 1) ? 0 : __builtin_ctz(nsets)), <, nsets);
				}
			}
		/* a check that takes nothing leaves the function unusable */
		g_assert_cmpuint(accepted[i], >, 0);
	}
	g_assert_cmpstr(set_index_check(SET_INDEX_N, 64, 128), ==, "unknown index function");
}

/* The caches' `index` parameter: its choices and its doc are the table's. */
static void test_param_row(void)
{
	static const struct ss_param_desc rows[] = { SC_PARAM_ROWS };
	const struct ss_param_desc *index = NULL;

	for (size_t r = 0; r < G_N_ELEMENTS(rows); r++)
		if (!strcmp(rows[r].name, "index"))
			index = &rows[r];
	g_assert_nonnull(index);
	g_assert_true(index->choices == (const char *const *)sc_index_names);
	for (unsigned i = 0; i < SET_INDEX_N; i++) {
		g_assert_cmpstr(index->choices[i], ==, set_index_fns[i].name);
		g_assert_nonnull(strstr(index->doc, set_index_fns[i].name));
		if (set_index_fns[i].note)
			g_assert_nonnull(strstr(index->doc, set_index_fns[i].note));
	}
	g_assert_null(index->choices[SET_INDEX_N]);
	g_assert_cmpstr(index->doc, ==, "set-index function: fib_double (the reference's float hash), linear, xor, ipoly (16/32/64 sets), fermi, nugteren (Nugteren et al.'s model's hash, any set count)");
}

/* ---- the counters a report reads (protocols/cache_stats.h) --------------- */

static bool has_stat(struct ss_registry *reg, const char *type, const char *name)
{
	const struct ss_component_type *t = ss_registry_lookup(reg, type);

	g_assert_nonnull(t);
	for (const struct ss_stat_desc *d = t->stats; d && d->name; d++)
		if (!strcmp(d->name, name))
			return true;
	return false;
}

/* Every name kernel_report reads is in the statistics of the types it
 * reads it from: a rename on one side alone fails here, not in a run. */
static void test_report_protocol(void)
{
	static const char *const spaces[] = { CACHE_STAT_SPACES };
	static const char *const ops[] = { CACHE_STAT_OPS };
	static const char *const counts[] = {
		CACHE_STAT_COUNTS, CACHE_STAT_READS_DOWN, CACHE_STAT_WRITES_DOWN,
	};
	static const char *const cache_more[] = {
		CACHE_STAT_WB_EVICT, CACHE_STAT_WB_FLUSH, CACHE_STAT_DIRTY_AT_KERNEL_END,
	};
	static const char *const sdcm[] = {
		SDCM_STAT_CATEGORIES, SDCM_STAT_HIT_TOT, SDCM_STAT_HIT_LD,
		SDCM_STAT_HIT_ST, SDCM_STAT_HIT_LDG, SDCM_STAT_HIT_STG,
	};
	static const char *const dram[] = { DRAM_STAT_READS, DRAM_STAT_WRITES };
	static const char *const sm[] = { SM_STAT_NAMES };
	static const char *const caches[] = { "sector_cache", "l2_slice_set" };
	struct ss_registry *reg = ss_registry_new();
	GError *err = NULL;

	g_assert_true(ss_components_register(reg, &err));
	g_assert_no_error(err);
	for (size_t c = 0; c < G_N_ELEMENTS(caches); c++) {
		for (size_t sp = 0; sp < G_N_ELEMENTS(spaces); sp++)
			for (size_t op = 0; op < G_N_ELEMENTS(ops); op++)
				for (size_t k = 0; k < G_N_ELEMENTS(counts); k++) {
					char *n = g_strdup_printf("%s_%s_%s", spaces[sp], ops[op], counts[k]);

					if (!has_stat(reg, caches[c], n))
						g_error("%s has no statistic %s", caches[c], n);
					g_free(n);
				}
		for (size_t i = 0; i < G_N_ELEMENTS(cache_more); i++)
			if (!has_stat(reg, caches[c], cache_more[i]))
				g_error("%s has no statistic %s", caches[c], cache_more[i]);
	}
	g_assert_cmpstr(CACHE_STAT(CACHE_STAT_GLOBAL, CACHE_STAT_LOAD, CACHE_STAT_ACCESSES),
			==, "global_load_accesses");
	for (size_t i = 0; i < G_N_ELEMENTS(sdcm); i++)
		if (!has_stat(reg, "sdcm_cache", sdcm[i]))
			g_error("sdcm_cache has no statistic %s", sdcm[i]);
	for (size_t i = 0; i < G_N_ELEMENTS(dram); i++)
		if (!has_stat(reg, "dram_counter", dram[i]))
			g_error("dram_counter has no statistic %s", dram[i]);
	for (size_t i = 0; i < G_N_ELEMENTS(sm); i++)
		if (!has_stat(reg, "warp_interleaver", sm[i]))
			g_error("warp_interleaver has no statistic %s", sm[i]);
	ss_registry_free(reg);
}

/* ---- the report's metrics and their Nsight names (report_metrics.h) ------- */

static void test_report_metrics(void)
{
	for (unsigned i = 1; i < N_NCU_METRICS; i++) {
		const struct ncu_metric_desc *n = &ncu_metrics[i];

		g_assert_nonnull(n->name);
		for (unsigned j = 1; j < i; j++)
			g_assert_cmpstr(n->name, !=, ncu_metrics[j].name);
		/* the unit is the one the name says, and so is the factor */
		g_assert_cmpint(g_str_has_suffix(n->name, ".pct"), ==, n->unit == NCU_PCT);
		g_assert_cmpint(strstr(n->name, "__bytes") != NULL, ==, n->unit == NCU_BYTES);
		g_assert_cmpfloat(n->factor, ==, n->unit == NCU_PCT ? 100 : n->unit == NCU_BYTES ? 32 : 1);
	}
	g_assert_null(ncu_metrics[NCU_NONE].name);
	for (unsigned k = 0; k < N_REPORT_METRICS; k++) {
		const struct report_metric_desc *d = &report_metrics[k];

		g_assert_nonnull(d->key);
		for (unsigned j = 0; j < k; j++)
			g_assert_cmpstr(d->key, !=, report_metrics[j].key);
		/* an Nsight name only in modes that compute the metric */
		g_assert_cmpuint(d->ncu_modes & ~d->modes, ==, 0);
		g_assert_cmpint(d->ncu == NCU_NONE, ==, d->ncu_modes == 0);
		g_assert_true(report_ncu_name(k, REPORT_REF) == (d->ncu_modes & REPORT_REF ? ncu_metrics[d->ncu].name : NULL));
	}
	/* an alias stands where its metric's own Nsight name does */
	for (unsigned a = 0; a < n_report_ncu_aliases; a++) {
		g_assert_cmpuint(report_metrics[report_ncu_aliases[a].m].ncu_modes, !=, 0);
		g_assert_cmpuint(report_ncu_aliases[a].ncu, !=, NCU_NONE);
	}
}

/*
 * The ipoly tables give set_index_ipoly's set for every line, at each
 * size ipoly takes, over random 64-bit lines and single bits; sizes it
 * does not take have none.
 */
static void test_ipoly_tables(void)
{
	static const uint32_t sizes[] = { 16, 32, 64 };
	GRand *rng = g_rand_new_with_seed(5);

	g_assert_null(set_index_ipoly_tables(8));
	g_assert_null(set_index_ipoly_tables(128));
	for (size_t k = 0; k < G_N_ELEMENTS(sizes); k++) {
		uint32_t n = sizes[k];
		unsigned shift = (unsigned)__builtin_ctz(n);
		const uint8_t (*t)[128] = set_index_ipoly_tables(n);

		g_assert_nonnull(t);
		g_assert_true(t == set_index_ipoly_tables(n));	/* shared */
		for (int i = 0; i < 200000; i++) {
			uint64_t line = i < 64 ? UINT64_C(1) << i
				: (uint64_t)g_rand_int(rng) << 32 | g_rand_int(rng);

			g_assert_cmpuint(set_index_ipoly_tabled(t, line, n, shift), ==,
					 set_index_ipoly(line & (n - 1), line >> shift, n));
		}
	}
	g_rand_free(rng);
}

static void test_checks(void)
{
	g_assert_null(set_index_check(SET_INDEX_FIB_DOUBLE, 1152, 128));
	g_assert_nonnull(set_index_check(SET_INDEX_LINEAR, 1152, 128));
	g_assert_null(set_index_check(SET_INDEX_XOR, 2048, 128));
	g_assert_nonnull(set_index_check(SET_INDEX_IPOLY, 128, 128));
	g_assert_null(set_index_check(SET_INDEX_IPOLY, 64, 128));
	g_assert_nonnull(set_index_check(SET_INDEX_FERMI, 32, 64));
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/setindex/gpgpusim-vectors", test_gpgpusim_vectors);
	g_test_add_func("/setindex/fib-double-vectors", test_fib_double_vectors);
	g_test_add_func("/setindex/fib-double-precision", test_fib_double_precision);
	g_test_add_func("/setindex/fermi", test_fermi);
	g_test_add_func("/setindex/fermi-is-nugteren", test_fermi_is_nugteren);
	g_test_add_func("/setindex/checks", test_checks);
	g_test_add_func("/setindex/ipoly-tables", test_ipoly_tables);
	g_test_add_func("/setindex/table", test_table);
	g_test_add_func("/setindex/param-row", test_param_row);
	g_test_add_func("/protocols/report-counters", test_report_protocol);
	g_test_add_func("/report-metrics/table", test_report_metrics);
	return g_test_run();
}
