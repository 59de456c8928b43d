/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reading INI files.  iniparser 4.1 folds case, keeps the last of duplicate
 * keys, merges duplicate sections, drops sections with ':' and gives no line
 * numbers; so every file is first scanned line by line here, which finds
 * those cases and remembers where each key stands, and iniparser then
 * supplies the values (its quoting and inline-comment rules).
 */
#include "config.h"

#include <pthread.h>

#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "inidoc.h"
#include "ini_compat.h"
#include "sim.h"

#define MAX_INCLUDE_DEPTH 16
#define MAX_LINE 1000

void ini_doc_error(struct ini_doc *d, const char *loc, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_ptr_array_add(d->errors, g_strdup_printf("%s: %s", loc, msg));
	g_free(msg);
}


static void entry_free(gpointer p)
{
	struct ini_entry *e = p;

	g_free(e->key);
	g_free(e->value);
	g_free(e->loc);
	g_free(e->dir);
	g_free(e);
}

static void section_free(gpointer p)
{
	struct ini_section *s = p;

	g_free(s->kind);
	g_free(s->name);
	g_free(s->loc);
	g_free(s->dir);
	g_ptr_array_free(s->entries, TRUE);
	g_free(s);
}

void ini_doc_free(struct ini_doc *d)
{
	if (!d)
		return;
	g_hash_table_destroy(d->by_name);
	g_ptr_array_free(d->sections, TRUE);
	g_ptr_array_free(d->errors, TRUE);
	g_free(d->main_file);
	g_free(d);
}

struct ini_section *ini_doc_section(struct ini_doc *d, const char *name)
{
	return g_hash_table_lookup(d->by_name, name);
}

struct ini_entry *ini_section_get(struct ini_section *s, const char *key)
{
	for (guint i = 0; i < s->entries->len; i++) {
		struct ini_entry *e = s->entries->pdata[i];

		if (strcmp(e->key, key) == 0)
			return e;
	}
	return NULL;
}

struct ini_section *ini_doc_add_section(struct ini_doc *d, const char *kind,
					const char *name, const char *loc,
					const char *dir)
{
	struct ini_section *s;

	if (ini_doc_section(d, name))
		return NULL;
	s = g_new0(struct ini_section, 1);
	s->kind = g_strdup(kind);
	s->name = g_strdup(name);
	s->loc = g_strdup(loc);
	s->dir = g_strdup(dir);
	s->entries = g_ptr_array_new_with_free_func(entry_free);
	g_ptr_array_add(d->sections, s);
	g_hash_table_insert(d->by_name, s->name, s);
	return s;
}

struct ini_entry *ini_section_set(struct ini_section *s, const char *key,
				  const char *value, const char *loc,
				  const char *dir)
{
	struct ini_entry *e = ini_section_get(s, key);

	if (!e) {
		e = g_new0(struct ini_entry, 1);
		e->key = g_strdup(key);
		g_ptr_array_add(s->entries, e);
	}
	g_free(e->value);
	g_free(e->loc);
	g_free(e->dir);
	e->value = g_strdup(value);
	e->loc = g_strdup(loc);
	e->dir = g_strdup(dir);
	return e;
}

static bool is_name(const char *s, size_t len)
{
	if (len == 0 || !g_ascii_islower(s[0]))
		return false;
	for (size_t i = 1; i < len; i++)
		if (!g_ascii_islower(s[i]) && !g_ascii_isdigit(s[i]) && s[i] != '_')
			return false;
	return true;
}

/* name, name[N] or name[A..B] */
static bool is_key(const char *k);

/* A [sweep] key: a parameter as -p names it, SECTION.KEY, SECTION[N].KEY,
 * SECTION[*].KEY (`sectorsim sweep` checks it further, as -p does). */
static bool is_sweep_key(const char *k)
{
	const char *dot = strrchr(k, '.');

	if (!dot || dot == k || !is_key(dot + 1))
		return false;
	for (const char *p = k; p < dot; p++)
		if (!g_ascii_islower(*p) && !g_ascii_isdigit(*p) && !strchr("_[]*.", *p))
			return false;
	return g_ascii_islower(*k);
}

static bool is_key(const char *k)
{
	const char *br = strchr(k, '[');

	if (!br)
		return is_name(k, strlen(k));
	if (!is_name(k, br - k) || k[strlen(k) - 1] != ']')
		return false;
	const char *p = br + 1;
	size_t digits = 0;

	for (; g_ascii_isdigit(*p); p++)
		digits++;
	if (!digits)
		return false;
	if (p[0] == '.' && p[1] == '.') {
		p += 2;
		digits = 0;
		for (; g_ascii_isdigit(*p); p++)
			digits++;
		if (!digits)
			return false;
	}
	return p[0] == ']' && p[1] == '\0';
}

/* One key of one section as found by the scan. */
struct scanned_key {
	char *key;
	int line;
};

struct scanned_section {
	char *header;		/* as iniparser stores it */
	char *kind, *name;
	int line;
	GPtrArray *keys;	/* struct scanned_key * */
};

static void scanned_key_free(gpointer p)
{
	struct scanned_key *k = p;

	g_free(k->key);
	g_free(k);
}

static void scanned_section_free(gpointer p)
{
	struct scanned_section *s = p;

	g_free(s->header);
	g_free(s->kind);
	g_free(s->name);
	g_ptr_array_free(s->keys, TRUE);
	g_free(s);
}

static const char *const section_kinds[] = {
	"simulation", "template", "component", "link", NULL
};

static struct scanned_section *scan_header(struct ini_doc *d, const char *file,
					   int line, char *text)
{
	char *loc = g_strdup_printf("%s:%d", file, line);
	size_t len = strlen(text);
	struct scanned_section *s = NULL;

	if (text[len - 1] != ']') {
		ini_doc_error(d, loc, "section header '%s' does not end with ']'; expected [kind name]", text);
		goto out;
	}
	char *inner = g_strstrip(g_strndup(text + 1, len - 2));
	char **words = g_strsplit_set(inner, " \t", -1);
	GPtrArray *w = g_ptr_array_new();

	for (char **p = words; *p; p++)
		if (**p)
			g_ptr_array_add(w, *p);
	if (strpbrk(inner, ":[]")) {
		ini_doc_error(d, loc, "section header [%s] contains ':', '[' or ']'; expected [kind name] with name of [a-z0-9_]", inner);
	} else if (w->len == 1 && (strcmp(w->pdata[0], "simulation") == 0 ||
				   strcmp(w->pdata[0], "sweep") == 0)) {
		/* the two sections that stand alone */
		s = g_new0(struct scanned_section, 1);
		s->kind = g_strdup(w->pdata[0]);
		s->name = g_strdup(w->pdata[0]);
	} else if (w->len == 2 && g_strv_contains(section_kinds + 1, w->pdata[0]) &&
		   is_name(w->pdata[1], strlen(w->pdata[1]))) {
		s = g_new0(struct scanned_section, 1);
		s->kind = g_strdup(w->pdata[0]);
		s->name = g_strdup(w->pdata[1]);
	} else if (w->len == 2 && g_strv_contains(section_kinds + 1, w->pdata[0])) {
		ini_doc_error(d, loc, "section name '%s' is not valid; expected lower-case letters, digits and '_', starting with a letter",
			      (char *)w->pdata[1]);
	} else {
		ini_doc_error(d, loc, "unknown section [%s]; expected [simulation], [template NAME], [component NAME], [link NAME] or [sweep]", inner);
	}
	if (s) {
		s->header = g_strdup(inner);
		s->line = line;
		s->keys = g_ptr_array_new_with_free_func(scanned_key_free);
	}
	g_ptr_array_free(w, TRUE);
	g_strfreev(words);
	g_free(inner);
out:
	g_free(loc);
	return s;
}

/* Scan one file; returns its sections, or NULL after reporting errors. */
static GPtrArray *scan_file(struct ini_doc *d, const char *file,
			    const char *text)
{
	GPtrArray *secs = g_ptr_array_new_with_free_func(scanned_section_free);
	char **lines = g_strsplit(text, "\n", -1);
	struct scanned_section *cur = NULL;
	guint errors_before = d->errors->len;
	GString *joined = g_string_new(NULL);

	for (int i = 0; lines[i]; i++) {
		int line = i + 1;
		char *loc = g_strdup_printf("%s:%d", file, line);
		size_t rawlen = strlen(lines[i]);

		if (rawlen > MAX_LINE) {
			ini_doc_error(d, loc, "line of %zu characters; expected at most %d (iniparser refuses longer lines: use ranges instead of lists)",
				      rawlen, MAX_LINE);
			g_free(loc);
			continue;
		}
		g_string_assign(joined, lines[i]);
		/* iniparser joins a line ending in '\' with the next one. */
		while (joined->len && (joined->str[joined->len - 1] == '\\' ||
				       (joined->len > 1 && joined->str[joined->len - 1] == '\r' &&
					joined->str[joined->len - 2] == '\\')) &&
		       lines[i + 1]) {
			g_string_truncate(joined, strrchr(joined->str, '\\') - joined->str);
			g_string_append(joined, lines[++i]);
		}
		/* iniparser limits the joined line, not each piece */
		if (joined->len > MAX_LINE) {
			ini_doc_error(d, loc, "line of %zu characters after joining the lines ending in '\\'; expected at most %d (iniparser refuses longer lines)",
				      joined->len, MAX_LINE);
			g_free(loc);
			continue;
		}
		char *t = g_strstrip(g_strdup(joined->str));

		if (*t == '\0' || *t == '#' || *t == ';') {
			/* blank or comment */
		} else if (*t == '[') {
			cur = scan_header(d, file, line, t);
			if (cur) {
				for (guint k = 0; k < secs->len; k++) {
					struct scanned_section *o = secs->pdata[k];

					if (strcmp(o->name, cur->name) == 0)
						ini_doc_error(d, loc, "section [%s] repeats [%s] of line %d; expected each name once per file",
							      cur->header, o->header, o->line);
				}
				g_ptr_array_add(secs, cur);
			}
		} else {
			char *eq = strchr(t, '=');

			if (!eq) {
				ini_doc_error(d, loc, "'%s' is neither a section header nor a key; expected key = value", t);
			} else {
				char *key = g_strstrip(g_strndup(t, eq - t));

				if (cur && !strcmp(cur->kind, "sweep") ? !is_sweep_key(key) : !is_key(key)) {
					if (cur && !strcmp(cur->kind, "sweep"))
						ini_doc_error(d, loc, "[sweep] key '%s' is not valid; expected SECTION.KEY or SECTION[N].KEY, as -p takes it", key);
					else
						ini_doc_error(d, loc, "key '%s' is not valid; expected name, name[N] or name[A..B] with a lower-case name", key);
				} else if (!cur) {
					ini_doc_error(d, loc, "key '%s' stands before any section; expected it inside [simulation], [component NAME], ...", key);
				} else {
					struct scanned_key *k = NULL;

					for (guint j = 0; j < cur->keys->len; j++) {
						struct scanned_key *o = cur->keys->pdata[j];

						if (strcmp(o->key, key) == 0)
							k = o;
					}
					if (k) {
						ini_doc_error(d, loc, "[%s] key '%s' is repeated (first at line %d); expected each key once per section",
							      cur->header, key, k->line);
					} else {
						k = g_new0(struct scanned_key, 1);
						k->key = g_strdup(key);
						k->line = line;
						g_ptr_array_add(cur->keys, k);
					}
				}
				g_free(key);
			}
		}
		g_free(t);
		g_free(loc);
	}
	g_string_free(joined, TRUE);
	g_strfreev(lines);
	if (d->errors->len != errors_before) {
		g_ptr_array_free(secs, TRUE);
		return NULL;
	}
	return secs;
}

/* iniparser reports through a callback without user data, set for the
 * whole process: loads hold the lock while it is theirs. */
static _Thread_local GPtrArray *iniparser_messages;
static pthread_mutex_t iniparser_lock = PTHREAD_MUTEX_INITIALIZER;

static int collect_iniparser_error(const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	if (iniparser_messages)
		g_ptr_array_add(iniparser_messages, g_strstrip(msg));
	else
		g_free(msg);
	return 0;
}

/*
 * The configuration named "-": standard input, read once and kept for the
 * process, since a run may load its configuration more than once (a
 * sweep, a --threads probe).  NULL and *err: it could not be read.
 */
static GMutex stdin_lock;
static char *stdin_text;
static gsize stdin_len;
static char *stdin_error;

static const char *read_stdin(gsize *len, GError **err)
{
	g_mutex_lock(&stdin_lock);
	if (!stdin_text && !stdin_error) {
		GIOChannel *ch = g_io_channel_unix_new(0);
		GError *e = NULL;

		g_io_channel_set_encoding(ch, NULL, NULL);	/* bytes */
		if (g_io_channel_read_to_end(ch, &stdin_text, &stdin_len, &e) != G_IO_STATUS_NORMAL) {
			stdin_error = g_strdup(e ? e->message : "read failed");
			g_clear_error(&e);
			g_clear_pointer(&stdin_text, g_free);
		} else if (!stdin_text) {
			stdin_text = g_strdup("");
		}
		g_io_channel_unref(ch);
	}
	g_mutex_unlock(&stdin_lock);
	if (stdin_error) {
		g_set_error_literal(err, G_FILE_ERROR, G_FILE_ERROR_IO, stdin_error);
		return NULL;
	}
	*len = stdin_len;
	return stdin_text;
}

/* iniparser reads files only: standard input's text goes through a
 * temporary copy, which its messages then name as standard input. */
static dictionary *load_dict_from_text(const char *text, gsize len, GPtrArray *msgs,
				       const char *name)
{
	GError *err = NULL;
	char *tmp = NULL;
	int fd = g_file_open_tmp("sectorsim-config-XXXXXX.ini", &tmp, &err);
	dictionary *dict = NULL;

	if (fd < 0 || !g_file_set_contents(tmp, text, (gssize)len, &err)) {
		g_ptr_array_add(msgs, g_strdup_printf("cannot keep a copy for iniparser: %s",
						      err->message));
		g_error_free(err);
	} else {
		dict = iniparser_load(tmp);
	}
	if (fd >= 0) {
		close(fd);
		g_unlink(tmp);
	}
	for (guint i = 0; tmp && i < msgs->len; i++) {
		GString *m = g_string_new(msgs->pdata[i]);

		g_string_replace(m, tmp, name, 0);
		g_free(msgs->pdata[i]);
		msgs->pdata[i] = g_string_free(m, FALSE);
	}
	g_free(tmp);
	return dict;
}

static void merge_section(struct ini_doc *d, struct scanned_section *sc,
			  dictionary *dict, const char *file, const char *dir)
{
	struct ini_section *s = ini_doc_section(d, sc->name);
	char *loc = g_strdup_printf("%s:%d", file, sc->line);

	if (s && strcmp(s->kind, sc->kind) != 0) {
		ini_doc_error(d, loc, "name '%s' of [%s %s] is already taken by [%s %s] at %s; expected names unique across sections",
			      sc->name, sc->kind, sc->name, s->kind, s->name, s->loc);
		g_free(loc);
		return;
	}
	if (!s)
		s = ini_doc_add_section(d, sc->kind, sc->name, loc, dir);
	for (guint i = 0; i < sc->keys->len; i++) {
		struct scanned_key *k = sc->keys->pdata[i];
		char *full = g_strdup_printf("%s:%s", sc->header, k->key);
		const char *val = iniparser_getstring(dict, full, NULL);
		char *kloc = g_strdup_printf("%s:%d", file, k->line);

		/* A later file overrides what an included one said. */
		ini_section_set(s, k->key, val ? val : "", kloc, dir);
		g_free(kloc);
		g_free(full);
	}
	g_free(loc);
}

static void load_file(struct ini_doc *d, const char *path, const char *from,
		      GPtrArray *stack);

static void load_includes(struct ini_doc *d, GPtrArray *secs,
			  dictionary *dict, const char *file, const char *dir,
			  GPtrArray *stack)
{
	for (guint i = 0; i < secs->len; i++) {
		struct scanned_section *sc = secs->pdata[i];

		if (strcmp(sc->kind, "simulation") != 0)
			continue;
		for (guint j = 0; j < sc->keys->len; j++) {
			struct scanned_key *k = sc->keys->pdata[j];

			if (strcmp(k->key, "include") != 0)
				continue;
			char *full = g_strdup_printf("%s:include", sc->header);
			char **parts = g_strsplit(iniparser_getstring(dict, full, ""), ",", -1);
			char *loc = g_strdup_printf("%s:%d", file, k->line);

			for (char **p = parts; *p; p++) {
				char *name = g_strstrip(*p);

				if (!*name) {
					ini_doc_error(d, loc, "[simulation] include has an empty file name; expected a comma-separated list of INI files");
					continue;
				}
				char *inc = g_path_is_absolute(name) ? g_strdup(name)
					: (strcmp(dir, ".") == 0 ? g_strdup(name)
					   : g_build_filename(dir, name, NULL));

				load_file(d, inc, loc, stack);
				g_free(inc);
			}
			g_strfreev(parts);
			g_free(loc);
			g_free(full);
		}
	}
}

static void load_file(struct ini_doc *d, const char *path, const char *from,
		      GPtrArray *stack)
{
	/* the main configuration "-" is standard input; its paths are
	 * relative to the working directory */
	bool is_stdin = !from && strcmp(path, SS_CONFIG_STDIN) == 0;
	const char *name = is_stdin ? SS_CONFIG_STDIN_NAME : path;
	char *canon = is_stdin ? g_strdup(name) : g_canonicalize_filename(path, NULL);
	char *text = NULL;
	gsize len = 0;
	GError *err = NULL;
	const char *where = from ? from : name;

	for (guint i = 0; i < stack->len; i++) {
		if (strcmp(stack->pdata[i], canon) == 0) {
			ini_doc_error(d, where, "include cycle: %s is already being read; expected a file to be included once per chain", path);
			g_free(canon);
			return;
		}
	}
	if (stack->len >= MAX_INCLUDE_DEPTH) {
		ini_doc_error(d, where, "includes nested more than %d deep", MAX_INCLUDE_DEPTH);
		g_free(canon);
		return;
	}
	if (is_stdin) {
		const char *in = read_stdin(&len, &err);

		if (in)
			text = g_memdup2(in, len + 1);
	} else {
		g_file_get_contents(path, &text, &len, &err);
	}
	if (!text) {
		if (from)
			ini_doc_error(d, from, "cannot read included file: %s", err->message);
		else
			g_ptr_array_add(d->errors, g_strdup_printf("%s: cannot read configuration: %s",
								   name, err->message));
		g_error_free(err);
		g_free(canon);
		return;
	}
	/* a NUL byte: not a text file (a trace, say, or compressed data),
	 * which iniparser would read as ending there */
	const char *nul = memchr(text, '\0', len);

	if (nul) {
		int line = 1;

		for (const char *p = text; p < nul; p++)
			line += *p == '\n';
		g_ptr_array_add(d->errors, g_strdup_printf("%s:%d: byte 0 (at byte %" G_GSIZE_FORMAT "): not a text file; expected an INI configuration",
							   name, line, (gsize)(nul - text)));
		g_free(text);
		g_free(canon);
		return;
	}
	GPtrArray *secs = scan_file(d, name, text);

	if (!secs) {
		g_free(text);
		g_free(canon);
		return;
	}
	GPtrArray *msgs = g_ptr_array_new_with_free_func(g_free);

	/* the callback is the library's, one for the process: engines
	 * loaded on several threads (sectorsim sweep) take turns */
	pthread_mutex_lock(&iniparser_lock);
	iniparser_messages = msgs;
	iniparser_set_error_callback(collect_iniparser_error);
	dictionary *dict = is_stdin ? load_dict_from_text(text, len, msgs, name)
				    : iniparser_load(path);

	g_free(text);
	iniparser_set_error_callback(NULL);
	iniparser_messages = NULL;
	pthread_mutex_unlock(&iniparser_lock);
	if (!dict) {
		for (guint i = 0; i < msgs->len; i++)
			ini_doc_error(d, name, "%s", (char *)msgs->pdata[i]);
		if (!msgs->len)
			ini_doc_error(d, name, "iniparser could not read the file");
	} else {
		char *dir = is_stdin ? g_strdup(".") : g_path_get_dirname(path);
		/* what the entries' paths are relative to, whatever the
		 * working directory (includes keep the names as given, for
		 * the messages) */
		char *abs_dir = g_canonicalize_filename(dir, NULL);

		g_ptr_array_add(stack, canon);
		load_includes(d, secs, dict, name, dir, stack);
		g_ptr_array_remove_index(stack, stack->len - 1);
		for (guint i = 0; i < secs->len; i++)
			merge_section(d, secs->pdata[i], dict, name, abs_dir);
		iniparser_freedict(dict);
		g_free(abs_dir);
		g_free(dir);
	}
	g_ptr_array_free(msgs, TRUE);
	g_ptr_array_free(secs, TRUE);
	g_free(canon);
}

struct ini_doc *ini_doc_load(const char *path)
{
	struct ini_doc *d = g_new0(struct ini_doc, 1);
	GPtrArray *stack = g_ptr_array_new();

	d->sections = g_ptr_array_new_with_free_func(section_free);
	d->by_name = g_hash_table_new(g_str_hash, g_str_equal);
	d->errors = g_ptr_array_new_with_free_func(g_free);
	d->main_file = g_strdup(strcmp(path, SS_CONFIG_STDIN) ? path : SS_CONFIG_STDIN_NAME);
	load_file(d, path, NULL, stack);
	g_ptr_array_free(stack, TRUE);
	/* The include key did its work while loading. */
	struct ini_section *sim = ini_doc_section(d, "simulation");
	struct ini_entry *inc = sim ? ini_section_get(sim, "include") : NULL;

	if (inc)
		inc->used = true;
	return d;
}
