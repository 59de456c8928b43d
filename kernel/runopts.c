/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The run's options (struct ss_run_options), their command-line table, and
 * the outputs the components of a run share (the profile file), kept by the
 * engine in one struct ss_run_state created on first use.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include "internal.h"

#define FIELD(f) offsetof(struct ss_run_options, f)

const struct ss_run_option_desc ss_run_option_table[] = {
	{ "json", 0, G_OPTION_ARG_FILENAME, FIELD(json),
	  "Write the per-kernel results as JSON to FILE (- for standard output)", "FILE" },
	{ "csv", 0, G_OPTION_ARG_FILENAME, FIELD(csv),
	  "Write the per-kernel results as CSV to FILE (- for standard output)", "FILE" },
	{ "resume", 0, G_OPTION_ARG_NONE, FIELD(resume),
	  "Finish an interrupted run: keep the kernels already in the --json/--csv FILE.part files, run the rest", NULL },
	{ "rd-profile", 0, G_OPTION_ARG_FILENAME, FIELD(rd_profile),
	  "Write the reuse-distance profiles of the components that keep them as CSV to FILE (- for standard output)", "FILE" },
	{ "mrc", 0, G_OPTION_ARG_FILENAME, FIELD(mrc),
	  "Write the miss-ratio curves of the caches that keep one (mrc = true) as CSV to FILE (- for standard output)", "FILE" },
	{ "quiet", 'q', G_OPTION_ARG_NONE, FIELD(quiet),
	  "Print nothing but results, warnings and errors", NULL },
	{ "threads", 0, G_OPTION_ARG_INT, FIELD(threads),
	  "Run on N threads (default: one per online core, or 1 with a component type that does not promise to run split); every output is the same for every N", "N" },
	{ "strict", 0, G_OPTION_ARG_NONE, FIELD(strict),
	  "Stop with exit status 2 at the first warning about the input (a trace cut short, say), instead of going on", NULL },
	{ NULL, 0, 0, 0, NULL, NULL },
};

struct ss_run_state {
	struct ss_run_options opts;	/* the engine's copy */
	struct ss_output *profile;	/* opened by the first user */
	struct ss_output *mrc;		/* likewise */
	char *lanes_by;			/* the component that claimed the lanes */
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
	/* neither are these, which the program sets */
	g_free(o->version);
	g_free(o->config);
	g_free(o->config_digest);
	g_free(o->trace);
	g_free(o->trace_digest);
	g_strfreev(o->params);
	g_free(o->lane_key);
	g_strfreev(o->lane_values);
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
	mine->version = g_strdup(o->version);
	mine->config = g_strdup(o->config);
	mine->config_digest = g_strdup(o->config_digest);
	mine->trace = g_strdup(o->trace);
	mine->trace_digest = g_strdup(o->trace_digest);
	mine->params = g_strdupv(o->params);
	mine->lane_key = g_strdup(o->lane_key);
	mine->lane_values = g_strdupv(o->lane_values);
}

const struct ss_run_options *ss_engine_run_options(const struct ss_engine *e)
{
	static const struct ss_run_options unset;

	return e->run ? &e->run->opts : &unset;
}

bool ss_engine_warn_input(struct ss_engine *e, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	if (ss_engine_run_options(e)->strict) {
		ss_engine_fail(e, g_error_new(SS_ERROR, SS_ERROR_INPUT,
					      "%s (--strict)", msg));
		g_free(msg);
		return false;
	}
	ss_print_message(stderr, "sectorsim: warning: ", msg);
	g_free(msg);
	return true;
}

/* A file the components of a run share: opened by the first caller. */
static FILE *shared_output(const char *path, struct ss_output **slot,
			   const char *header, const char *what, GError **err)
{
	GError *inner = NULL;

	if (!path || *slot)
		return *slot ? ss_output_file(*slot) : NULL;
	/* PATH.part, renamed at the end; a device or a FIFO directly */
	*slot = ss_output_open(path, &inner);
	if (!*slot) {
		int why = errno;

		g_error_free(inner);
		ss_set_error(err, SS_ERROR_CONFIG, "%s: cannot write the %s: %s",
			     path, what, g_strerror(why));
		return NULL;
	}
	/* on the disk with the first rows, which their writer flushes and
	 * checks (ss_engine_close_outputs checks the rest) */
	if (header)
		fputs(header, ss_output_file(*slot));
	return ss_output_file(*slot);
}

FILE *ss_engine_profile_output(struct ss_engine *e, const char *header,
			       const char *what, GError **err)
{
	struct ss_run_state *r = run_of(e);

	return shared_output(r->opts.rd_profile, &r->profile, header, what, err);
}

FILE *ss_engine_mrc_output(struct ss_engine *e, const char *header,
			   const char *what, GError **err)
{
	struct ss_run_state *r = run_of(e);

	return shared_output(r->opts.mrc, &r->mrc, header, what, err);
}

bool ss_engine_mrc_used(struct ss_engine *e)
{
	return run_of(e)->mrc != NULL;
}

void ss_engine_claim_lanes(struct ss_engine *e, const char *component)
{
	struct ss_run_state *r = run_of(e);

	g_free(r->lanes_by);
	r->lanes_by = g_strdup(component);
}

const char *ss_engine_lanes_claimed(const struct ss_engine *e)
{
	return e->run ? e->run->lanes_by : NULL;
}

bool ss_engine_close_outputs(struct ss_engine *e, GError **err)
{
	struct ss_output **slots[2] = {
		e->run ? &e->run->profile : NULL, e->run ? &e->run->mrc : NULL,
	};

	bool ok = true;

	for (int i = 0; i < 2; i++) {
		struct ss_output *p = slots[i] ? *slots[i] : NULL;

		if (!p)
			continue;
		*slots[i] = NULL;
		/* after a failure the others are dropped, not committed */
		if (!ok)
			ss_output_abort(p);
		else if (!ss_output_commit(p, ok ? err : NULL))
			ok = false;
	}
	return ok;
}

/* Whether any instance's type (every one's, when `every`) has `flags`. */
static bool types_have_flag(const struct ss_engine *e, unsigned flags, bool every)
{
	for (guint i = 0; i < e->components->len; i++) {
		const struct ss_component *c = e->components->pdata[i];

		if (((c->type->flags & flags) == flags) != every)
			return !every;
	}
	return every;
}

bool ss_engine_has_type_flag(const struct ss_engine *e, unsigned flags)
{
	return types_have_flag(e, flags, false);
}

bool ss_engine_every_type_has_flag(const struct ss_engine *e, unsigned flags)
{
	return types_have_flag(e, flags, true);
}

void ss_run_free(struct ss_engine *e)
{
	if (!e->run)
		return;
	struct ss_output *outs[2] = { e->run->profile, e->run->mrc };

	for (int i = 0; i < 2; i++) {
		GError *err = NULL;

		if (!outs[i])
			continue;
		/* a run that did not finish leaves the file as it was */
		if (e->failure || ss_interrupted())
			ss_output_abort(outs[i]);
		else if (!ss_output_commit(outs[i], &err)) {
			g_warning("%s", err->message);
			g_error_free(err);
		}
	}
	ss_run_options_clear(&e->run->opts);
	g_free(e->run->lanes_by);
	g_free(e->run);
	e->run = NULL;
}
