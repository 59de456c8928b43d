/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The run's options (struct ss_run_options), their command-line table, and
 * the outputs the components of a run share (the profile file), kept by the
 * engine in one struct ss_run_state created on first use.
 */
#include "config.h"

#include <errno.h>
#include "internal.h"

#define FIELD(f) offsetof(struct ss_run_options, f)

const struct ss_run_option_desc ss_run_option_table[] = {
	{ "json", 0, G_OPTION_ARG_FILENAME, FIELD(json),
	  "Write the per-kernel results as JSON to FILE", "FILE" },
	{ "csv", 0, G_OPTION_ARG_FILENAME, FIELD(csv),
	  "Write the per-kernel results as CSV to FILE", "FILE" },
	{ "resume", 0, G_OPTION_ARG_NONE, FIELD(resume),
	  "Finish an interrupted run: keep the kernels already in the --json/--csv FILE.part files, run the rest", NULL },
	{ "rd-profile", 0, G_OPTION_ARG_FILENAME, FIELD(rd_profile),
	  "Write the reuse-distance profiles of the components that keep them as CSV to FILE", "FILE" },
	{ "quiet", 'q', G_OPTION_ARG_NONE, FIELD(quiet),
	  "Print nothing but results and errors", NULL },
	{ NULL, 0, 0, 0, NULL, NULL },
};

struct ss_run_state {
	struct ss_run_options opts;	/* the engine's copy */
	FILE *profile;			/* opened by the first user */
};

static struct ss_run_state *run_of(struct ss_engine *e)
{
	if (!e->run)
		e->run = g_new0(struct ss_run_state, 1);
	return e->run;
}

void ss_run_options_clear(struct ss_run_options *o)
{
	for (const struct ss_run_option_desc *d = ss_run_option_table;
	     d->long_name; d++)
		if (d->arg == G_OPTION_ARG_FILENAME)
			g_free(*(char **)ss_run_option_field(o, d));
	/* raw_stats_unread is no command-line option: zeroing covers it */
	memset(o, 0, sizeof(*o));
}

void ss_engine_set_run_options(struct ss_engine *e,
			       const struct ss_run_options *o)
{
	struct ss_run_options *mine = &run_of(e)->opts;

	ss_run_options_clear(mine);
	*mine = *o;
	for (const struct ss_run_option_desc *d = ss_run_option_table;
	     d->long_name; d++)
		if (d->arg == G_OPTION_ARG_FILENAME) {
			char **s = ss_run_option_field(mine, d);

			*s = g_strdup(*s);
		}
}

const struct ss_run_options *ss_engine_run_options(const struct ss_engine *e)
{
	static const struct ss_run_options unset;

	return e->run ? &e->run->opts : &unset;
}

FILE *ss_engine_profile_output(struct ss_engine *e, const char *header,
			       const char *what, GError **err)
{
	struct ss_run_state *r = run_of(e);
	const char *path = r->opts.rd_profile;

	if (!path || r->profile)
		return r->profile;
	r->profile = fopen(path, "w");
	if (!r->profile) {
		ss_set_error(err, SS_ERROR_CONFIG, "%s: cannot write the %s: %s",
			     path, what, g_strerror(errno));
		return NULL;
	}
	/* on the disk at once, as the rows each user flushes */
	if (header && (fputs(header, r->profile) < 0 || fflush(r->profile)))
		g_warning("%s: %s", path, g_strerror(errno));
	return r->profile;
}

bool ss_engine_has_type_flag(const struct ss_engine *e, unsigned flags)
{
	for (guint i = 0; i < e->components->len; i++) {
		const struct ss_component *c = e->components->pdata[i];

		if ((c->type->flags & flags) == flags)
			return true;
	}
	return false;
}

void ss_run_free(struct ss_engine *e)
{
	if (!e->run)
		return;
	if (e->run->profile)
		fclose(e->run->profile);
	ss_run_options_clear(&e->run->opts);
	g_free(e->run);
	e->run = NULL;
}
