/* SPDX-License-Identifier: BSD-3-Clause */
/* Parameters to model configurations: see cache_params.h. */
#include "config.h"

#include <string.h>
#include "cache_params.h"

/* ---- sector caches -------------------------------------------------------- */

const char *sc_index_names[SET_INDEX_N + 1];
char sc_index_doc[512];

/*
 * The names and "set-index function: NAME (NOTE), NAME, ..." from the
 * table, before any component type is registered: the parameter rows are
 * static tables, which can point at these but not compute them.
 */
static void __attribute__((constructor)) sc_index_from_table(void)
{
	GString *doc = g_string_new("set-index function: ");

	for (unsigned i = 0; i < SET_INDEX_N; i++) {
		const struct set_index_desc *d = &set_index_fns[i];

		sc_index_names[i] = d->name;
		g_string_append_printf(doc, "%s%s", i ? ", " : "", d->name);
		if (d->note)
			g_string_append_printf(doc, " (%s)", d->note);
	}
	sc_index_names[SET_INDEX_N] = NULL;
	if (doc->len >= sizeof(sc_index_doc))
		g_error("cache_params: the doc of `index` needs more than %zu bytes",
			sizeof(sc_index_doc));
	memcpy(sc_index_doc, doc->str, doc->len + 1);
	g_string_free(doc, TRUE);
}
const char *const sc_index_on_names[] = { "address", "partition", NULL };
const char *const sc_replacement_names[] = { "lru", "fifo", NULL };
const char *const sc_write_hit_names[] = { "write_back", "write_through", NULL };
const char *const sc_write_miss_names[] = {
	"allocate", "no_allocate", "lazy_fetch", "fetch", NULL,
};
const char *const sc_final_writeback_names[] = { "count", "report", "none", NULL };
const char *const sc_at_kernel_end_names[] = { "invalidate", "keep", NULL };

/*
 * A cache's tables within the machine's memory: all of them, since a
 * cache that could never be filled is a mistake of its size, and, summed
 * over the run's caches on the run's account (ss_engine_claim_memory),
 * the records every kernel's end walks.  The rest of a table is touched
 * only as the trace uses lines, so many large caches run on a small trace.
 */
/* What the limit is: the machine's memory or [simulation] memory. */
static const char *memory_name(struct ss_engine *e)
{
	return ss_engine_memory(e) < ss_physical_memory()
		? "[simulation] memory" : "this machine's memory";
}

static bool claim_tables(void *ctx, uint64_t old_resident,
			 uint64_t new_resident, uint64_t tables, char **why)
{
	uint64_t phys = ss_engine_memory(ctx), total;

	if (phys && tables > phys) {
		*why = g_strdup_printf("the cache's tables need %" G_GUINT64_FORMAT " bytes, more than the %" G_GUINT64_FORMAT " bytes of %s",
				       tables, phys, memory_name(ctx));
		return false;
	}
	if (ss_engine_claim_memory(ctx, old_resident, new_resident, &total))
		return true;
	*why = g_strdup_printf("its %" G_GUINT64_FORMAT " bytes of per-set records, walked at every kernel's end, would bring those of the run's caches to %" G_GUINT64_FORMAT " bytes, more than the %" G_GUINT64_FORMAT " bytes of %s",
			       new_resident, total, phys, memory_name(ctx));
	return false;
}

bool sc_config_from_params(const struct ss_params *p, struct ss_engine *e,
			   struct sc_config *cfg, struct sc_kernel_end *end,
			   GError **err)
{
	*cfg = (struct sc_config){
		.memory = claim_tables,
		.memory_ctx = e,
		.size = ss_param_uint(p, "size"),
		.sets = ss_param_uint(p, "sets"),
		.assoc = ss_param_uint(p, "assoc"),
		.line_bytes = ss_param_uint(p, "line_bytes"),
		.sector_bytes = ss_param_uint(p, "sector_bytes"),
		.index = ss_param_enum(p, "index"),
		.index_on_partition = ss_param_enum(p, "index_on") == 1,
		.replacement = ss_param_enum(p, "replacement"),
		.write_hit = ss_param_enum(p, "write_hit"),
		.write_miss = ss_param_enum(p, "write_miss"),
		.count_write_misses = ss_param_bool(p, "count_write_misses"),
		.protect_dirty_pct = ss_param_uint(p, "protect_dirty_pct"),
	};
	end->final = ss_param_enum(p, "final_writeback");
	end->invalidate = ss_param_enum(p, "at_kernel_end") == 0;
	if (ss_param_uint(p, "sets") > UINT32_MAX)
		return ss_set_error(err, SS_ERROR_CONFIG, "sets: at most %u", UINT32_MAX);
	return true;
}

/* ---- time-parallel simulation ------------------------------------------------ */

const char *const sc_parallel_names[] = { "none", "time", NULL };

struct sc_timepar *cache_timepar_new(const struct ss_params *p, struct sc_cache *c,
				     sc_emit_fn emit, void *ctx, GError **err)
{
	struct sc_timepar *tp;
	char *why = NULL;

	if (ss_param_enum(p, "parallel") != 1)
		return NULL;
	tp = sc_timepar_new(c, emit, ctx, ss_param_uint(p, "segments"),
			    ss_param_uint(p, "time_batch"), &why);
	if (!tp) {
		ss_set_error(err, SS_ERROR_CONFIG, "parallel = time: %s", why);
		g_free(why);
	}
	return tp;
}

void cache_timepar_run(struct sc_timepar *tp, uint64_t *replayed, uint64_t *seen)
{
	uint64_t now;

	sc_timepar_run(tp);
	/* with the runs a full batch started since the last time */
	now = sc_timepar_counts(tp)->replayed;
	*replayed += now - *seen;
	*seen = now;
}

/* ---- address decoding and slice maps --------------------------------------- */

const char *const addrdec_indexing_names[] = {
	[ADDRDEC_CONSECUTIVE] = "consecutive", [ADDRDEC_IPOLY] = "ipoly", NULL,
};

static const char *const addrdec_keys[] = {
	"n_channels", "n_sub", "chip_shift", "bank_mask", "subpart_indexing",
};

bool addrdec_from_params(const struct ss_params *p, bool used,
			 struct addrdec *d, GError **err)
{
	if (!used) {
		for (size_t i = 0; i < G_N_ELEMENTS(addrdec_keys); i++)
			if (ss_param_is_set(p, addrdec_keys[i]))
				return ss_set_error(err, SS_ERROR_CONFIG, "%s: used only with mapping = gpgpusim",
					    addrdec_keys[i]);
		return true;
	}
	if (!ss_param_is_set(p, "n_channels"))
		return ss_set_error(err, SS_ERROR_CONFIG, "n_channels: required with mapping = gpgpusim (the DRAM channel count)");

	struct addrdec_config cfg = {
		.n_channels = ss_param_uint(p, "n_channels"),
		.n_sub = ss_param_uint(p, "n_sub"),
		.chip_shift = ss_param_uint(p, "chip_shift"),
		.bank_mask = ss_param_uint(p, "bank_mask"),
		.indexing = ss_param_enum(p, "subpart_indexing"),
	};

	char *why = NULL;

	if (!addrdec_init(d, &cfg, &why)) {
		g_set_error_literal(err, SS_ERROR, SS_ERROR_CONFIG, why);
		g_free(why);
		return false;
	}
	return true;
}

const char *const slice_mapping_names[] = {
	[SLICE_MAP_SINGLE] = "single", [SLICE_MAP_LINE] = "line",
	[SLICE_MAP_GPGPUSIM] = "gpgpusim", NULL,
};

bool slice_map_from_params(const struct ss_params *p, uint32_t n_slices,
			   const char *slices_given, uint32_t line_bytes,
			   struct slice_map *m, GError **err)
{
	*m = (struct slice_map){
		.mapping = ss_param_enum(p, "mapping"),
		.n_slices = n_slices,
		.line_shift = __builtin_ctz(line_bytes),
	};
	if (!addrdec_from_params(p, m->mapping == SLICE_MAP_GPGPUSIM, &m->dec, err))
		return false;
	switch (m->mapping) {
	case SLICE_MAP_SINGLE:
		if (n_slices != 1)
			return ss_set_error(err, SS_ERROR_CONFIG, "mapping = single takes one slice, not %s; expected mapping = line or gpgpusim for several",
				    slices_given);
		break;
	case SLICE_MAP_LINE:
		break;
	case SLICE_MAP_GPGPUSIM:
		if (m->dec.n_slices != n_slices)
			return ss_set_error(err, SS_ERROR_CONFIG, "mapping = gpgpusim: n_channels x n_sub = %u x %u = %u slices, but %s",
				    m->dec.cfg.n_channels, m->dec.cfg.n_sub,
				    m->dec.n_slices, slices_given);
		break;
	}
	return true;
}
