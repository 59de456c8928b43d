/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The run's outputs (results, statistics, profiles): the one place that
 * decides how a path given as an output is written.
 *
 *   "-"                        standard output, never closed here
 *   a regular file, or nothing written to PATH.part, renamed over PATH by
 *   there yet                  ss_output_commit(): a reader never sees half
 *                              a file, and an unfinished run leaves PATH
 *                              as it was
 *   a symbolic link            followed: its target is replaced as above,
 *                              the link stays
 *   anything else (character   written directly: no PATH.part, no rename,
 *   device, FIFO)              so what the user pointed at stays what it is;
 *                              a socket cannot be opened as a file: refused
 *                              (ENXIO), and stays too
 *
 * Every write error is kept (the first errno) and reported by
 * ss_output_flush() and ss_output_commit() as "write error on NAME: REASON".
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <glib/gstdio.h>
#include "internal.h"

struct ss_output {
	char *path;	/* as given */
	char *part;	/* PATH.part (of the link's target), or NULL: direct */
	char *target;	/* what is replaced: the path or the link's target */
	FILE *f;
	bool is_stdout;
	int error;	/* the first errno of a failed write, 0: none */
};

/* Follows symbolic links to what PATH names in the end (not necessarily
 * there); NULL with errno on a loop.  *st holds its lstat, *exists whether
 * it is there. */
static char *resolve(const char *path, struct stat *st, bool *exists)
{
	char *p = g_strdup(path);

	for (int hops = 0; hops < 40; hops++) {
		char *to, *dir;

		if (lstat(p, st) != 0) {
			*exists = false;
			return p;
		}
		*exists = true;
		if (!S_ISLNK(st->st_mode))
			return p;
		to = g_file_read_link(p, NULL);
		if (!to)
			return p;	/* opening it will say why */
		if (!g_path_is_absolute(to)) {
			dir = g_path_get_dirname(p);
			g_free(p);
			p = g_build_filename(dir, to, NULL);
			g_free(dir);
			g_free(to);
		} else {
			g_free(p);
			p = to;
		}
	}
	g_free(p);
	errno = ELOOP;
	return NULL;
}

char *ss_output_part_name(const char *path)
{
	struct stat st;
	bool exists;
	char *target, *part = NULL;

	if (!path || !strcmp(path, "-"))
		return NULL;
	target = resolve(path, &st, &exists);
	if (!target)
		return g_strdup_printf("%s.part", path);	/* fails on open */
	if (!exists || S_ISREG(st.st_mode))
		part = g_strdup_printf("%s.part", target);
	g_free(target);
	return part;
}

static struct ss_output *output_new(const char *path)
{
	struct ss_output *o = g_new0(struct ss_output, 1);

	o->path = g_strdup(path);
	return o;
}

static void output_free(struct ss_output *o)
{
	g_free(o->path);
	g_free(o->part);
	g_free(o->target);
	g_free(o);
}

/*
 * An output that could not be opened: "NAME: reason" from errno, the
 * handle freed, and errno kept for the caller (as after fopen()).
 */
static struct ss_output *open_failed(struct ss_output *o, const char *name,
				     GError **err)
{
	int why = errno;

	ss_set_error(err, SS_ERROR_CONFIG, "%s: %s", name, g_strerror(why));
	output_free(o);
	errno = why;
	return NULL;
}

/* On failure errno says why, as after fopen(). */
static struct ss_output *open_as(const char *path, bool resume, size_t keep,
				 GError **err)
{
	struct ss_output *o = output_new(path);
	struct stat st;
	bool exists;

	if (!strcmp(path, "-")) {
		if (resume)
			goto not_regular;
		o->is_stdout = true;
		o->f = stdout;
		return o;
	}
	o->target = resolve(path, &st, &exists);
	if (!o->target)
		return open_failed(o, path, err);
	/* a folder: refused before a run whose results could not go there */
	if (exists && S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		return open_failed(o, path, err);
	}
	if (!exists || S_ISREG(st.st_mode)) {
		o->part = g_strdup_printf("%s.part", o->target);
		if (resume && truncate(o->part, keep) != 0)
			o->f = NULL;
		else
			o->f = fopen(o->part, resume ? "a" : "w");
		if (!o->f)
			return open_failed(o, o->part, err);
		return o;
	}
	if (resume)
		goto not_regular;
	o->f = fopen(o->target, "w");
	if (!o->f)
		return open_failed(o, path, err);
	return o;

not_regular:
	g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
		    "%s: not a regular file, so there is no partial file to resume",
		    path);
	output_free(o);
	errno = EINVAL;
	return NULL;
}

struct ss_output *ss_output_open(const char *path, GError **err)
{
	return open_as(path, false, 0, err);
}

struct ss_output *ss_output_resume(const char *path, size_t keep, GError **err)
{
	return open_as(path, true, keep, err);
}

FILE *ss_output_file(const struct ss_output *o)
{
	return o->f;
}

const char *ss_output_name(const struct ss_output *o)
{
	return o->is_stdout ? "standard output" : o->path;
}

const char *ss_output_part(const struct ss_output *o)
{
	return o->part;
}

bool ss_output_is_stdout(const struct ss_output *o)
{
	return o->is_stdout;
}

static void note(struct ss_output *o, bool failed)
{
	if (!failed || o->error)
		return;
	if (!errno && ferror(o->f)) {
		/* a write inside stdio failed earlier: try again for the
		 * reason (what it could not write is still buffered) */
		clearerr(o->f);
		if (fflush(o->f) == 0 && !ferror(o->f))
			errno = EIO;
	}
	o->error = errno ? errno : EIO;
}

bool ss_output_write(struct ss_output *o, const void *buf, size_t len)
{
	errno = 0;
	note(o, len && fwrite(buf, 1, len, o->f) != len);
	return !o->error;
}

static bool report(struct ss_output *o, GError **err)
{
	if (!o->error)
		return true;
	g_set_error(err, SS_ERROR, SS_ERROR_INTERNAL, "write error on %s: %s",
		    ss_output_name(o), g_strerror(o->error));
	return false;
}

bool ss_output_flush(struct ss_output *o, GError **err)
{
	errno = 0;
	note(o, fflush(o->f) != 0 || ferror(o->f));
	return report(o, err);
}

/* Closes the stream (never standard output, only flushed). */
static void finish(struct ss_output *o)
{
	if (!o->f)
		return;
	errno = 0;
	note(o, fflush(o->f) != 0 || ferror(o->f));
	if (!o->is_stdout) {
		FILE *f = o->f;

		o->f = NULL;
		errno = 0;
		if (fclose(f) != 0 && !o->error)
			o->error = errno ? errno : EIO;
	}
	o->f = NULL;
}

bool ss_output_commit(struct ss_output *o, GError **err)
{
	bool ok;

	if (!o)
		return true;
	finish(o);
	if (!o->error && o->part) {
		errno = 0;
		note(o, g_rename(o->part, o->target) != 0);
	}
	ok = report(o, err);
	if (!ok && o->part)
		g_unlink(o->part);
	output_free(o);
	return ok;
}

void ss_output_abort(struct ss_output *o)
{
	if (!o)
		return;
	finish(o);
	if (o->part)
		g_unlink(o->part);
	output_free(o);
}

void ss_output_keep(struct ss_output *o)
{
	if (!o)
		return;
	finish(o);
	output_free(o);
}
