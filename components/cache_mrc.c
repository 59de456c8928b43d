/* SPDX-License-Identifier: BSD-3-Clause */
/* A cache's miss-ratio curve for --mrc FILE: see cache_mrc.h. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include "cache_mrc.h"
#include "mrc.h"

#define MRC_HEADER "cache,kernel,method,rate,accesses,capacity_lines,capacity_bytes,miss_ratio\n"
#define MRC_POINTS 512

struct cache_mrc {
	struct ss_component *c;
	struct mrc *curve;
	uint32_t line_bytes;
	uint32_t kernel;
	bool exact, failed;
	FILE *out;
};

struct cache_mrc *cache_mrc_new(struct ss_component *c, const struct ss_params *p,
				uint32_t line_bytes, GError **err)
{
	double rate = ss_param_double(p, "mrc_sampling");
	struct cache_mrc *m;
	GError *inner = NULL;
	FILE *out;

	if (!(rate > 0 && rate <= 1)) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "mrc_sampling = %g: expected a rate above 0 and at most 1 (1: exact)", rate);
		return NULL;
	}
	if (!ss_param_bool(p, "mrc"))
		return NULL;
	out = ss_engine_mrc_output(c->engine, MRC_HEADER, "miss-ratio curves", &inner);
	if (inner) {
		g_propagate_error(err, inner);
		return NULL;
	}
	if (!out)
		return NULL;	/* no --mrc: nothing to keep */
	m = g_new0(struct cache_mrc, 1);
	m->c = c;
	m->exact = rate >= 1;
	m->curve = mrc_new(rate, ss_param_uint(p, "mrc_lines"));
	m->line_bytes = line_bytes;
	m->out = out;
	return m;
}

void cache_mrc_free(struct cache_mrc *m)
{
	if (!m)
		return;
	mrc_free(m->curve);
	g_free(m);
}

void cache_mrc_begin(struct cache_mrc *m, uint32_t kernel)
{
	m->kernel = kernel;
	mrc_reset(m->curve);
}

void cache_mrc_access(struct cache_mrc *m, uint64_t line)
{
	if (G_UNLIKELY(!mrc_access(m->curve, line)) && !m->failed) {
		m->failed = true;
		ss_engine_fail(m->c->engine, g_error_new(SS_ERROR, SS_ERROR_LIMIT,
			"%s: kernel %u touches more distinct lines than its miss-ratio curve can track (2^30, or this machine's memory); expected %s",
			m->c->name, m->kernel, m->exact ? "mrc_sampling below 1" : "mrc_lines above 0"));
	}
}

void cache_mrc_end(struct cache_mrc *m)
{
	uint64_t cap[MRC_POINTS];
	double mr[MRC_POINTS];
	size_t n = mrc_curve(m->curve, cap, mr, MRC_POINTS);
	GString *o = g_string_new(NULL);

	if (!mrc_accesses(m->curve)) {
		g_string_free(o, TRUE);
		return;		/* a kernel that never reached this cache */
	}
	for (size_t k = 0; k < n; k++)
		g_string_append_printf(o, "%s,%u,%s,%.9g,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%.9g\n",
				       m->c->name, m->kernel, m->exact ? "exact" : "shards",
				       mrc_rate(m->curve), mrc_accesses(m->curve),
				       cap[k], cap[k] * m->line_bytes, mr[k]);
	/* written and flushed at once: the instances never interleave lines */
	if (o->len && (fwrite(o->str, 1, o->len, m->out) != o->len || fflush(m->out) != 0))
		ss_engine_fail(m->c->engine, g_error_new(SS_ERROR, SS_ERROR_INTERNAL,
			"write error on %s: %s", ss_engine_run_options(m->c->engine)->mrc,
			g_strerror(errno)));
	g_string_free(o, TRUE);
	mrc_reset(m->curve);
}
