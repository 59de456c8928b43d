/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The paper tracer's format ("ppt"): app_config.py, read as text by a
 * small tokenizer (never executed), and memory_traces/kernel_K_block_B.mem,
 * one file per block, opened when the block is asked for (or, with loaders
 * to share, by the next kernel's read-ahead: see below).  A block
 * file's lines are its lines in issue order, each an opcode and then
 * hexadecimal addresses, separated by spaces.
 *
 * app_config.py is read with Python's meaning where the grammar leaves
 * room: a later assignment to the same name, or a later key in a dict,
 * replaces the earlier one; '#' starts a comment; strings take ' or " and
 * backslash escapes.  Only the kernels listed in app_kernels_id are checked
 * field by field; cuda_stream_id may be absent (it is unused, and the
 * ancestor tracer did not always write it), the other five are required.
 *
 * Limitation: the tracer's optional fields (tracing-level bit 4: the warp
 * id after the opcode; bit 8: predicate info) carry no mark that tells
 * them from addresses, so files written with them read wrongly; a warp id
 * such as "3" reads as the address 0x3.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include <glib/gstdio.h>

#include <string.h>
#include "trace_internal.h"

#define APP_CONFIG "app_config.py"

struct ppt_readahead;

struct ppt_kernel {
	uint32_t id;
	char *name;
	uint32_t regs, smem, bsize;
	uint64_t grid, stream;
};

struct ppt_state {
	GArray *kernels;	/* struct ppt_kernel, in app_kernels_id order */
	size_t next;
	char *traces;		/* DIR/memory_traces */
	GHashTable *files_by_id;	/* kernel id -> struct ppt_files */
	/* the next kernel's blocks being built ahead (NULL: none yet), and
	 * the current kernel's built ahead, not yet asked for (id -> struct
	 * ppt_ahead; under the reader's lock while loaders share a load) */
	struct ppt_readahead *ra;
	GHashTable *ahead;
};

/* ---- app_config.py ------------------------------------------------------ */

enum tok_kind { T_END, T_NAME, T_INT, T_STR, T_PUNCT };

struct tok {
	enum tok_kind kind;
	const char *src;	/* as written, for messages */
	size_t len;
	unsigned line;
};

/* A value as the file gives it; the used fields of a kernel dict. */
struct pval {
	bool set;
	bool is_int, neg, big;	/* big: beyond 64 bits */
	uint64_t u;
	char *str;		/* a string's text, escapes resolved */
	const char *src;
	size_t len;
	unsigned line;
};

enum { F_NAME, F_REGS, F_SMEM, F_GRID, F_BSIZE, F_STREAM, N_FIELDS };

static const char *const field_key[N_FIELDS] = {
	"kernel_name", "num_registers", "shared_mem_bytes", "grid_size",
	"block_size", "cuda_stream_id",
};

struct pdict {
	unsigned line;
	struct pval f[N_FIELDS];
};

struct parser {
	const char *p, *end;
	unsigned line;
	struct tok tok;		/* the current token */
	GHashTable *dicts;	/* kernel number -> struct pdict */
	GArray *list;		/* struct pval of app_kernels_id, or NULL */
	unsigned list_line;
	GError **err;
};

static void pval_clear(struct pval *v)
{
	g_free(v->str);
	memset(v, 0, sizeof(*v));
}

static void pdict_free(gpointer p)
{
	struct pdict *d = p;

	for (int i = 0; i < N_FIELDS; i++)
		pval_clear(&d->f[i]);
	g_free(d);
}

static bool is_name_start(char c)
{
	return g_ascii_isalpha(c) || c == '_';
}

static bool lex_error(struct parser *ps, unsigned line, const char *what)
{
	trace_error(ps->err, APP_CONFIG, line, "%s", what);
	return false;
}

/* The next token into ps->tok. */
static bool lex(struct parser *ps)
{
	const char *p = ps->p, *end = ps->end;

	for (;;) {
		while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' ||
				   *p == '\f' || *p == '\n')) {
			if (*p == '\n')
				ps->line++;
			p++;
		}
		if (p < end && *p == '#') {
			while (p < end && *p != '\n')
				p++;
			continue;
		}
		if (p + 1 < end && *p == '\\' && p[1] == '\n') {
			ps->line++;
			p += 2;
			continue;
		}
		break;
	}
	ps->tok.src = p;
	ps->tok.line = ps->line;
	if (p == end) {
		ps->tok.kind = T_END;
		ps->tok.len = 0;
	} else if (is_name_start(*p)) {
		while (p < end && (is_name_start(*p) || g_ascii_isdigit(*p)))
			p++;
		ps->tok.kind = T_NAME;
	} else if (g_ascii_isdigit(*p)) {
		while (p < end && g_ascii_isdigit(*p))
			p++;
		ps->tok.kind = T_INT;
	} else if (*p == '"' || *p == '\'') {
		char q = *p++;

		while (p < end && *p != q && *p != '\n')
			p += *p == '\\' && p + 1 < end && p[1] != '\n' ? 2 : 1;
		if (p == end || *p != q)
			return lex_error(ps, ps->tok.line,
					 "found a string without its closing quote; expected the quote on the same line");
		p++;
		ps->tok.kind = T_STR;
	} else if (strchr("={}[]:,;-()", *p)) {
		p++;
		ps->tok.kind = T_PUNCT;
	} else {
		struct shown s;

		trace_error(ps->err, APP_CONFIG, ps->line,
			    "found '%s'; expected a name, a number, a string or punctuation",
			    trace_show(&s, p, 1));
		return false;
	}
	ps->tok.len = (size_t)(p - ps->tok.src);
	ps->p = p;
	return true;
}

static bool is_punct(const struct parser *ps, char c)
{
	return ps->tok.kind == T_PUNCT && ps->tok.src[0] == c;
}

static bool expected(struct parser *ps, const char *what)
{
	struct shown s;

	if (ps->tok.kind == T_END)
		trace_error(ps->err, APP_CONFIG, ps->tok.line,
			    "found the end of the file; expected %s", what);
	else
		trace_error(ps->err, APP_CONFIG, ps->tok.line,
			    "found '%s'; expected %s",
			    trace_show(&s, ps->tok.src, ps->tok.len), what);
	return false;
}

static bool expect_punct(struct parser *ps, char c, const char *what)
{
	if (!is_punct(ps, c))
		return expected(ps, what);
	return lex(ps);
}

static char *unquote(const char *src, size_t len)
{
	GString *s = g_string_sized_new(len);

	for (size_t i = 1; i + 1 < len; i++) {
		char c = src[i];

		if (c == '\\' && i + 2 < len) {
			c = src[++i];
			if (c == 'n')
				c = '\n';
			else if (c == 't')
				c = '\t';
			else if (c != '\\' && c != '"' && c != '\'')
				g_string_append_c(s, '\\');
		}
		g_string_append_c(s, c);
	}
	return g_string_free(s, FALSE);
}

/* A scalar: an integer with an optional minus, a string, or a bare name. */
static bool parse_scalar(struct parser *ps, struct pval *v)
{
	const char *src = ps->tok.src;
	unsigned line = ps->tok.line;
	bool neg = false;

	pval_clear(v);
	if (is_punct(ps, '-')) {
		neg = true;
		if (!lex(ps))
			return false;
		if (ps->tok.kind != T_INT)
			return expected(ps, "a number after '-'");
	}
	v->set = true;
	v->line = line;
	v->src = src;
	v->len = (size_t)(ps->tok.src + ps->tok.len - src);
	switch (ps->tok.kind) {
	case T_INT:
		v->is_int = true;
		v->neg = neg;
		v->big = !parse_u64(ps->tok.src, ps->tok.len, &v->u);
		break;
	case T_STR:
		v->str = unquote(ps->tok.src, ps->tok.len);
		break;
	case T_NAME:
		break;
	default:
		return expected(ps, "a number or a string");
	}
	return lex(ps);
}

static int field_of(const char *key)
{
	for (int i = 0; i < N_FIELDS; i++)
		if (!strcmp(key, field_key[i]))
			return i;
	return -1;
}

/* { "key" : value, ... } with the current token at '{'. */
static bool parse_dict(struct parser *ps, struct pdict *d)
{
	if (!lex(ps))
		return false;
	while (!is_punct(ps, '}')) {
		struct pval key = { 0 }, val = { 0 };
		int f;

		if (ps->tok.kind != T_STR)
			return expected(ps, "a quoted key or '}'");
		key.str = unquote(ps->tok.src, ps->tok.len);
		f = field_of(key.str);
		pval_clear(&key);
		if (!lex(ps) || !expect_punct(ps, ':', "':' after the key") ||
		    !parse_scalar(ps, &val)) {
			pval_clear(&val);
			return false;
		}
		if (f >= 0 && d) {
			pval_clear(&d->f[f]);
			d->f[f] = val;
		} else {
			pval_clear(&val);
		}
		if (is_punct(ps, ',')) {
			if (!lex(ps))
				return false;
		} else if (!is_punct(ps, '}')) {
			return expected(ps, "',' or '}'");
		}
		if (ps->tok.kind == T_END)
			return expected(ps, "'}'");
	}
	return lex(ps);
}

/* [ int, ... ] with the current token at '['; into ps->list when keep. */
static bool parse_list(struct parser *ps, bool keep)
{
	if (!lex(ps))
		return false;
	if (keep) {
		if (ps->list)
			g_array_set_size(ps->list, 0);
		else
			ps->list = g_array_new(FALSE, TRUE, sizeof(struct pval));
	}
	while (!is_punct(ps, ']')) {
		struct pval v = { 0 };

		if (!parse_scalar(ps, &v)) {
			pval_clear(&v);
			return false;
		}
		if (!v.is_int) {
			struct shown s;

			trace_error(ps->err, APP_CONFIG, v.line,
				    "found '%s' in a list; expected a kernel number",
				    trace_show(&s, v.src, v.len));
			pval_clear(&v);
			return false;
		}
		if (keep)
			g_array_append_val(ps->list, v);
		if (is_punct(ps, ',')) {
			if (!lex(ps))
				return false;
		} else if (!is_punct(ps, ']')) {
			return expected(ps, "',' or ']'");
		}
		if (ps->tok.kind == T_END)
			return expected(ps, "']'");
	}
	return lex(ps);
}

/* kernel_<N>: the kernel number, or -1 for any other name. */
static int64_t kernel_number(const char *s, size_t n)
{
	uint64_t k;

	if (n <= 7 || strncmp(s, "kernel_", 7) || !parse_u64(s + 7, n - 7, &k) ||
	    k > UINT32_MAX)
		return -1;
	return (int64_t)k;
}

static bool parse_statement(struct parser *ps)
{
	const char *name = ps->tok.src;
	size_t n = ps->tok.len;
	int64_t k;

	if (ps->tok.kind != T_NAME)
		return expected(ps, "a name such as kernel_1 or app_kernels_id");
	k = kernel_number(name, n);
	if (!lex(ps) || !expect_punct(ps, '=', "'=' after the name"))
		return false;
	if (k >= 0) {
		struct pdict *d;

		if (!is_punct(ps, '{'))
			return expected(ps, "'{' starting the kernel's parameters");
		d = g_new0(struct pdict, 1);
		d->line = ps->tok.line;
		if (!parse_dict(ps, d)) {
			pdict_free(d);
			return false;
		}
		g_hash_table_replace(ps->dicts, GUINT_TO_POINTER((guint)k), d);
		return true;
	}
	if (n == 14 && !strncmp(name, "app_kernels_id", 14)) {
		if (!is_punct(ps, '['))
			return expected(ps, "'[' starting the kernel list");
		ps->list_line = ps->tok.line;
		return parse_list(ps, true);
	}
	/* anything else: read past its value */
	if (is_punct(ps, '{'))
		return parse_dict(ps, NULL);
	if (is_punct(ps, '['))
		return parse_list(ps, false);
	struct pval v = { 0 };
	bool ok = parse_scalar(ps, &v);

	pval_clear(&v);
	return ok;
}

static bool field_error(const struct pval *v,
			uint32_t k, int f, const char *what, GError **err)
{
	struct shown s;

	trace_error(err, APP_CONFIG, v->line, "\"%s\" of kernel_%u is '%s'; expected %s",
		    field_key[f], k, trace_show(&s, v->src, v->len), what);
	return false;
}

static bool get_uint(const struct pdict *d, uint32_t k,
		     int f, uint64_t max, bool positive, uint64_t *out,
		     GError **err)
{
	const struct pval *v = &d->f[f];

	if (!v->set) {
		trace_error(err, APP_CONFIG, d->line, "kernel_%u lacks \"%s\"", k,
			    field_key[f]);
		return false;
	}
	if (!v->is_int || v->neg || v->big || v->u > max ||
	    (positive && !v->u))
		return field_error(v, k, f, max == UINT32_MAX
				   ? (positive ? "a positive 32-bit integer"
				      : "a non-negative 32-bit integer")
				   : (positive ? "a positive 64-bit integer"
				      : "a non-negative 64-bit integer"), err);
	*out = v->u;
	return true;
}

/* The listed kernels' launch data, in list order. */
static bool collect_kernels(struct trace_reader *t, struct parser *ps,
			    GError **err)
{
	struct ppt_state *s = t->state;

	if (!ps->list) {
		trace_error(err, APP_CONFIG, 0,
			    "no 'app_kernels_id = [...]'; expected the list of traced kernels");
		return false;
	}
	for (guint i = 0; i < ps->list->len; i++) {
		const struct pval *id = &g_array_index(ps->list, struct pval, i);
		struct ppt_kernel pk = { 0 };
		const struct pdict *d;
		uint64_t v;

		if (id->neg || id->big || id->u > UINT32_MAX) {
			struct shown sh;

			trace_error(err, APP_CONFIG, id->line,
				    "kernel number '%s' in app_kernels_id; expected 0 .. %u",
				    trace_show(&sh, id->src, id->len), UINT32_MAX);
			return false;
		}
		pk.id = (uint32_t)id->u;
		d = g_hash_table_lookup(ps->dicts, GUINT_TO_POINTER(pk.id));
		if (!d) {
			trace_error(err, APP_CONFIG, id->line,
				    "kernel_%u listed in app_kernels_id but not defined",
				    pk.id);
			return false;
		}
		if (!d->f[F_NAME].set) {
			trace_error(err, APP_CONFIG, d->line,
				    "kernel_%u lacks \"kernel_name\"", pk.id);
			return false;
		}
		if (!d->f[F_NAME].str)
			return field_error(&d->f[F_NAME], pk.id, F_NAME,
					   "a quoted string", err);
		if (!get_uint(d, pk.id, F_REGS, UINT32_MAX, false, &v, err))
			return false;
		pk.regs = (uint32_t)v;
		if (!get_uint(d, pk.id, F_SMEM, UINT32_MAX, false, &v, err))
			return false;
		pk.smem = (uint32_t)v;
		if (!get_uint(d, pk.id, F_GRID, UINT64_MAX, true, &pk.grid, err))
			return false;
		if (!get_uint(d, pk.id, F_BSIZE, UINT32_MAX, true, &v, err))
			return false;
		pk.bsize = (uint32_t)v;
		if (d->f[F_STREAM].set &&
		    !get_uint(d, pk.id, F_STREAM, UINT64_MAX, false,
			      &pk.stream, err))
			return false;
		pk.name = g_strdup(d->f[F_NAME].str);
		g_array_append_val(s->kernels, pk);
	}
	return true;
}

static void ppt_kernel_clear(gpointer p)
{
	g_free(((struct ppt_kernel *)p)->name);
}

/*
 * `file` is DIR/app_config.py, or a file of that name whose directory is
 * DIR; it is read as DIR/app_config.py, the name messages give it.
 */
static bool ppt_open(struct trace_reader *t, const char *file, GError **err)
{
	char *path = g_build_filename(t->dir, APP_CONFIG, NULL);
	struct parser ps = { .line = 1, .err = err };
	struct ppt_state *s = g_new0(struct ppt_state, 1);
	GError *e = NULL;
	char *text;
	gsize len;
	bool ok = false;

	t->state = s;
	s->kernels = g_array_new(FALSE, TRUE, sizeof(struct ppt_kernel));
	g_array_set_clear_func(s->kernels, ppt_kernel_clear);
	s->traces = g_build_filename(t->dir, "memory_traces", NULL);
	if (!g_file_get_contents(path, &text, &len, &e)) {
		trace_error(err, APP_CONFIG, 0, "cannot read: %s", e->message);
		g_error_free(e);
		g_free(path);
		return false;
	}
	ps.p = text;
	ps.end = text + len;
	ps.dicts = g_hash_table_new_full(NULL, NULL, NULL, pdict_free);
	/* a statement that fails has set *err: nothing more is checked */
	ok = lex(&ps);
	while (ok && ps.tok.kind != T_END)
		ok = is_punct(&ps, ';') ? lex(&ps) : parse_statement(&ps);
	ok = ok && collect_kernels(t, &ps, err);
	if (ps.list) {
		for (guint i = 0; i < ps.list->len; i++)
			pval_clear(&g_array_index(ps.list, struct pval, i));
		g_array_free(ps.list, TRUE);
	}
	g_hash_table_destroy(ps.dicts);
	g_free(text);
	g_free(path);
	return ok;
}

static void readahead_free(struct ppt_state *s);

static void ppt_close(struct trace_reader *t)
{
	struct ppt_state *s = t->state;

	if (!s)
		return;
	readahead_free(s);
	if (s->ahead)
		g_hash_table_destroy(s->ahead);
	g_array_free(s->kernels, TRUE);
	g_free(s->traces);
	if (s->files_by_id)
		g_hash_table_destroy(s->files_by_id);
	g_free(s);
	t->state = NULL;
}

static size_t ppt_kernel_count(const struct trace_reader *t)
{
	const struct ppt_state *s = t->state;

	return s->kernels->len;
}

/* A kernel's block files: their bytes (progress) and block ids, sorted. */
struct ppt_files {
	uint64_t bytes;
	GArray *blocks;		/* uint64_t */
};

static void ppt_files_free(gpointer p)
{
	struct ppt_files *f = p;

	g_array_free(f->blocks, TRUE);
	g_free(f);
}

/* The digits of name[*i..] as written by the tracer (no sign, no leading
 * zero but in "0"), up to `stop`. */
static bool name_number(const char *name, size_t *i, char stop, uint64_t *v)
{
	size_t from = *i;

	while (g_ascii_isdigit(name[*i]))
		(*i)++;
	if (name[*i] != stop || *i == from ||
	    (name[from] == '0' && *i - from > 1))
		return false;
	return parse_u64(name + from, *i - from, v);
}

/* kernel_K_block_B.mem, spelt as ppt_load() opens it. */
static bool block_file_name(const char *name, uint64_t *k, uint64_t *b)
{
	size_t i = 7;

	if (strncmp(name, "kernel_", 7) || !name_number(name, &i, '_', k) ||
	    *k > UINT32_MAX || strncmp(name + i, "_block_", 7))
		return false;
	i += 7;
	return name_number(name, &i, '.', b) && !strcmp(name + i, ".mem");
}

static int cmp_id(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* memory_traces/ read once: each kernel's files, sizes summed. */
static GHashTable *ppt_files(struct ppt_state *s)
{
	GDir *d;
	const char *name;
	GHashTableIter it;
	gpointer v;

	if (s->files_by_id)
		return s->files_by_id;
	s->files_by_id = g_hash_table_new_full(g_direct_hash, g_direct_equal,
					       NULL, ppt_files_free);
	d = g_dir_open(s->traces, 0, NULL);
	while (d && (name = g_dir_read_name(d))) {
		uint64_t id, block;
		struct ppt_files *f;
		char *path;
		GStatBuf st;

		if (!block_file_name(name, &id, &block))
			continue;
		path = g_build_filename(s->traces, name, NULL);
		if (g_stat(path, &st) == 0) {
			f = g_hash_table_lookup(s->files_by_id, GUINT_TO_POINTER((guint)id));
			if (!f) {
				f = g_new0(struct ppt_files, 1);
				f->blocks = g_array_new(FALSE, FALSE, sizeof(uint64_t));
				g_hash_table_insert(s->files_by_id,
						    GUINT_TO_POINTER((guint)id), f);
			}
			f->bytes += st.st_size;
			g_array_append_val(f->blocks, block);
		}
		g_free(path);
	}
	if (d)
		g_dir_close(d);
	g_hash_table_iter_init(&it, s->files_by_id);
	while (g_hash_table_iter_next(&it, NULL, &v))
		g_array_sort(((struct ppt_files *)v)->blocks, cmp_id);
	return s->files_by_id;
}

static uint64_t ppt_kernel_bytes(struct trace_reader *t, size_t i)
{
	struct ppt_state *s = t->state;
	const struct ppt_kernel *k = &g_array_index(s->kernels, struct ppt_kernel, i);
	const struct ppt_files *f = g_hash_table_lookup(ppt_files(s),
							GUINT_TO_POINTER(k->id));

	return f ? f->bytes : 0;
}

/* Whether the folder's listing has kernel `kid`'s block `id`. */
static bool ppt_listed(struct ppt_state *s, uint32_t kid, uint64_t id)
{
	const struct ppt_files *f = g_hash_table_lookup(ppt_files(s),
							GUINT_TO_POINTER(kid));

	return f && bsearch(&id, f->blocks->data, f->blocks->len,
			    sizeof(uint64_t), cmp_id) != NULL;
}

/*
 * A block without a file is an empty block: the first block with one at
 * or after `from`, found in the folder's listing, lets the scheduler pass
 * over a grid of 10^10 blocks with three files in three steps.
 */
static uint64_t ppt_next_stored(struct trace_reader *t, uint64_t from)
{
	struct ppt_state *s = t->state;
	const struct ppt_files *f = g_hash_table_lookup(ppt_files(s),
							GUINT_TO_POINTER(t->kernel.id));
	guint lo = 0, hi;

	if (!f)
		return UINT64_MAX;
	hi = f->blocks->len;
	while (lo < hi) {
		guint mid = lo + (hi - lo) / 2;

		if (g_array_index(f->blocks, uint64_t, mid) < from)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < f->blocks->len ? g_array_index(f->blocks, uint64_t, lo) : UINT64_MAX;
}

/* The kernel's files of blocks inside its grid, from the folder's listing:
 * a block without a file is an empty block, or lost. */
static bool ppt_count_stored(struct trace_reader *t, uint64_t *n, GError **err)
{
	struct ppt_state *s = t->state;
	const struct ppt_files *f = g_hash_table_lookup(ppt_files(s),
							GUINT_TO_POINTER(t->kernel.id));
	guint lo = 0, hi = f ? f->blocks->len : 0;

	(void)err;
	while (lo < hi) {
		guint mid = lo + (hi - lo) / 2;

		if (g_array_index(f->blocks, uint64_t, mid) < t->kernel.grid_size)
			lo = mid + 1;
		else
			hi = mid;
	}
	*n = lo;
	return true;
}

static void readahead_start(struct trace_reader *t, struct ppt_state *s);
static void readahead_take(struct trace_reader *t, struct ppt_state *s);

static bool ppt_next_kernel(struct trace_reader *t, bool *end,
			    GError **err)
{
	struct ppt_state *s = t->state;
	const struct ppt_kernel *pk;
	struct gpu_kernel *k = &t->kernel;

	/* the last kernel's blocks built ahead and not asked for */
	g_clear_pointer(&s->ahead, g_hash_table_destroy);
	readahead_take(t, s);
	if (s->next >= s->kernels->len) {
		*end = true;
		return true;
	}
	pk = &g_array_index(s->kernels, struct ppt_kernel, s->next++);
	/* the listing, before any load: loaders only read it */
	ppt_files(s);
	k->id = pk->id;
	k->name = g_string_chunk_insert(t->strings, pk->name);
	/*
	 * The format keeps no dimensions: a 1-D launch of the same size has
	 * the same linear block ids.  A grid beyond 32 bits stays {0, 0, 0}.
	 */
	if (pk->grid <= UINT32_MAX) {
		k->grid[0] = (uint32_t)pk->grid;
		k->grid[1] = k->grid[2] = 1;
	}
	k->block[0] = pk->bsize;
	k->block[1] = k->block[2] = 1;
	k->grid_size = pk->grid;
	k->block_size = pk->bsize;
	k->regs = pk->regs;
	k->smem = pk->smem;
	k->stream_id = pk->stream;
	k->trace_file = s->traces;
	readahead_start(t, s);
	return true;
}

/* ---- kernel_K_block_B.mem ----------------------------------------------- */

static bool address_error(struct line_reader *r, const char *tok, size_t n,
			  GError **err)
{
	struct shown s;
	size_t i = n >= 2 && tok[0] == '0' && (tok[1] | 0x20) == 'x' ? 2 : 0;
	bool digits = i < n;

	for (; i < n; i++)
		digits = digits && g_ascii_isxdigit(tok[i]);
	trace_error(err, r->name, r->lineno, digits
		    ? "address token '%s' does not fit in 64 bits"
		    : "address token '%s' is not hexadecimal",
		    trace_show(&s, tok, n));
	return false;
}

static const char *readahead_intern(struct ppt_readahead *ra, const char *op);

/*
 * One file, open in l->lr, into l->build: every line a gpu_line in file
 * order, address-less ones too (they take a slot in the interleaving).
 * Split on single spaces, empty tokens ignored, so "OP  a" and "OP a "
 * read like "OP a"; a blank line is an address-less line with an empty
 * opcode, which is what the reference's line.strip().split(' ') makes of
 * it.  Opcode texts are interned among the reader's (ra NULL: a load) or
 * the read-ahead's (which touches nothing of t).
 */
static inline __attribute__((always_inline)) bool
parse_file(struct trace_reader *t, struct block_loader *l,
	   struct ppt_readahead *ra, GError **err)
{
	struct line_reader *r = &l->lr;
	uint64_t idx = 0;
	char *line;
	size_t len;
	int rc;

	builder_reset(&l->build);
	while ((rc = lr_next(r, &line, &len, err)) > 0) {
		char *p = line, *end = line + len, *op;
		size_t op_len;
		const char *opcode;
		uint64_t *dst;
		uint32_t n = 0;
		long whole;

		while (p < end && *p == ' ')
			p++;
		op = p;
		p = find_space(p, end);
		if (p < end)
			*p++ = '\0';
		/* not p - op: a NUL inside cuts the text that is interned */
		op_len = strlen(op);
		opcode = ra ? readahead_intern(ra, op) : loader_intern(t, l, op, op_len);
		/* at most one address per two bytes ("a ") */
		dst = builder_reserve(&l->build, (size_t)(end - p) / 2 + 1);
		/* the usual line whole; anything else token by token */
		whole = scan_hex_line_usual(p, end, dst);
		if (whole < 0)
			whole = scan_hex_line(p, end, dst);
		if (whole >= 0) {
			n = (uint32_t)whole;
			p = end;
		}
		while (p < end) {
			char *tok;
			const char *q = scan_hex_token(p, end, &dst[n]);

			/* the usual token and its space in one go */
			if (G_LIKELY(q)) {
				p = (char *)q;
				n++;
				continue;
			}
			if (*p == ' ') {
				p++;
				continue;
			}
			tok = p;
			/* line[len] is a NUL, so p[1] exists */
			if (p[0] == '0' && (p[1] | 0x20) == 'x')
				p += 2;
			q = scan_hex(p, &dst[n]);
			if (G_LIKELY(q && q > p && (q == end || *q == ' '))) {
				/* and the space after it, without a turn of the loop */
				p = (char *)q + (q < end);
			} else {
				/* the exact verdict, and its message */
				p = find_space(tok, end);
				if (!parse_hex64(tok, (size_t)(p - tok), &dst[n]))
					return address_error(r, tok,
							     (size_t)(p - tok),
							     err);
			}
			n++;
		}
		builder_add(&l->build, idx++, opcode, n, GPU_WARP_UNKNOWN, 0);
	}
	return rc == 0;
}

static bool load_file(struct trace_reader *t, struct block_loader *l,
		      uint64_t id, GError **err)
{
	if (!parse_file(t, l, NULL, err))
		return false;
	if (l->lr.cut_last)
		trace_block_cut(t, id, l->lr.name);
	return trace_store_block(t, &l->build, id, false, err);
}

static bool adopt_ahead(struct trace_reader *t, struct ppt_state *s, uint64_t id,
			const char *name);

/* Each block its own file, so that loaders may read several at once. */
static bool ppt_load_block(struct trace_reader *t, struct block_loader *l,
			   uint64_t id, GError **err)
{
	struct ppt_state *s = t->state;
	char name[64];
	bool missing, ok;

	g_snprintf(name, sizeof(name), "kernel_%u_block_%" G_GUINT64_FORMAT ".mem",
		   t->kernel.id, id);
	if (s->ahead && adopt_ahead(t, s, id, name))
		return true;
	g_string_printf(l->path, "%s" G_DIR_SEPARATOR_S "%s", s->traces, name);
	if (!lr_open(&l->lr, l->path->str, name, &missing, err)) {
		if (!missing)
			return false;
		/* no file: the block is there, empty; unless the folder listed
		 * it when the run started (the listing is read before any
		 * load, and only read since) */
		if (ppt_listed(s, t->kernel.id, id)) {
			trace_error(err, name, 0, "no such file, though the folder listed it when the run started (deleted or moved while the run read the trace)");
			return false;
		}
		return true;
	}
	ok = load_file(t, l, id, err);
	trace_set_bytes_read(t, lr_stored_offset(&l->lr), true);
	lr_close(&l->lr);
	return ok;
}

/* ---- read-ahead ------------------------------------------------------------ */

/*
 * While a kernel runs, a thread of idle priority builds the next kernel's
 * blocks, file by file in ascending block order, so that the next
 * kernel's loads find them done, as the native reader does
 * (trace_native.c).  A load of the paper format costs every core at a
 * kernel's start (the large benchmark app: 53 and 64 ms of a 0.69 s run
 * at its second and third kernels), while during a kernel a core is idle
 * now and then (its SMs waiting for the L2, the L2 draining the kernel's
 * tail); a thread of idle priority (SCHED_IDLE) runs only then.  Its
 * blocks are what a load builds from the same files; their opcode texts
 * are interned in a string chunk that becomes the reader's when the
 * kernel starts, so they are the kernel's own pointers.  What a load
 * would have noted as it read the file (the bytes read, for the progress
 * line; a last line cut short) is noted when the block is taken.  It
 * stops at the first file it cannot open or read and keeps nothing of
 * it: the load meets it again and reports it, as a run without the
 * read-ahead would.  A file changed or removed after it was read ahead
 * is the block it was then (a trace is not to change while it is run;
 * without the read-ahead, a file removed is an error).  Only when loads
 * are shared among threads (--threads above 1), and up to
 * PPT_READAHEAD_BYTES of blocks.
 */
#define PPT_READAHEAD_BYTES (UINT64_C(64) << 20)

/* A block built ahead, and what its load would have noted. */
struct ppt_ahead {
	struct gpu_block *b;
	uint64_t bytes;		/* of its file, as stored */
	bool cut;		/* its file ended inside a line */
};

struct ppt_readahead {
	struct trace_readahead base;
	struct ppt_state *s;
	struct block_loader l;	/* its line reader, builder and path; the
				 * opcode table maps a text to its interned copy */
};

static void ppt_ahead_free(gpointer p)
{
	struct ppt_ahead *a = p;

	g_free(a->b);
	g_free(a);
}

static const char *readahead_intern(struct ppt_readahead *ra, const char *op)
{
	const char *v = g_hash_table_lookup(ra->l.opcodes, op);

	if (!v) {
		/* _const: the loads of its kernel find the same copy */
		v = g_string_chunk_insert_const(ra->base.strings, op);
		g_hash_table_insert(ra->l.opcodes, (gpointer)v, (gpointer)v);
	}
	return v;
}

static gpointer readahead_main(gpointer data)
{
	struct ppt_readahead *ra = data;
	const struct ppt_kernel *pk =
		&g_array_index(ra->s->kernels, struct ppt_kernel, ra->base.kernel);
	const struct ppt_files *f =
		g_hash_table_lookup(ra->s->files_by_id, GUINT_TO_POINTER(pk->id));
	struct block_loader *l = &ra->l;
	uint64_t bytes = 0;
	GError *err = NULL;

	for (guint i = 0; f && i < f->blocks->len; i++) {
		uint64_t id = g_array_index(f->blocks, uint64_t, i);
		struct ppt_ahead *a;
		struct gpu_block *b;
		char name[64];
		bool missing, ok;

		/* sorted: no block at or past the grid is ever asked for */
		if (id >= pk->grid || bytes >= PPT_READAHEAD_BYTES ||
		    trace_readahead_stopped(&ra->base))
			break;
		g_snprintf(name, sizeof(name), "kernel_%u_block_%" G_GUINT64_FORMAT ".mem",
			   pk->id, id);
		g_string_printf(l->path, "%s" G_DIR_SEPARATOR_S "%s", ra->s->traces, name);
		/* a file it cannot open is left to the load, missing or not */
		if (!lr_open(&l->lr, l->path->str, name, &missing, &err))
			break;
		ok = parse_file(NULL, l, ra, &err);
		b = ok ? builder_finish(&l->build, id, false, &err) : NULL;
		if (b) {
			a = g_new(struct ppt_ahead, 1);
			*a = (struct ppt_ahead){ b, lr_stored_offset(&l->lr), l->lr.cut_last };
			g_hash_table_replace(ra->base.blocks, &b->id, a);
			bytes += l->build.finished_bytes;
		}
		lr_close(&l->lr);
		if (!b)
			break;
	}
	g_clear_error(&err);
	return NULL;
}

/* The next kernel's read-ahead, when there is a next kernel and loads
 * are shared among threads. */
static void readahead_start(struct trace_reader *t, struct ppt_state *s)
{
	struct ppt_readahead *ra = s->ra;

	if (t->n_loaders < 2 || s->next >= s->kernels->len)
		return;
	if (!ra) {
		ra = s->ra = g_new0(struct ppt_readahead, 1);
		ra->s = s;
		trace_readahead_init(&ra->base);
		loader_init(&ra->l);
	}
	/* its texts were the last kernel's, or emptied */
	g_hash_table_remove_all(ra->l.opcodes);
	trace_readahead_start(&ra->base, s->next, ppt_ahead_free, readahead_main, ra);
}

/* As kernel s->next starts: what the read-ahead built of it. */
static void readahead_take(struct trace_reader *t, struct ppt_state *s)
{
	if (s->ra)
		s->ahead = trace_readahead_take(t, &s->ra->base, s->next);
}

/*
 * Block `id` of the current kernel (file `name`) from those built ahead,
 * with what its load would have noted; false if it was not built ahead.
 * Loaders may ask at once: the reader's lock guards s->ahead too.
 */
static bool adopt_ahead(struct trace_reader *t, struct ppt_state *s, uint64_t id,
			const char *name)
{
	struct ppt_ahead *a;

	pthread_mutex_lock(&t->lock);
	a = g_hash_table_lookup(s->ahead, &id);
	if (a)
		g_hash_table_steal(s->ahead, &id);
	pthread_mutex_unlock(&t->lock);
	if (!a)
		return false;
	trace_store_built(t, a->b);
	trace_set_bytes_read(t, a->bytes, true);
	if (a->cut)
		trace_block_cut(t, id, name);
	g_free(a);
	return true;
}

extern const struct trace_format trace_format_ppt;

size_t ppt_readahead_wait(struct trace_reader *t)
{
	struct ppt_state *s = t->state;

	if (t->fmt != &trace_format_ppt || !s->ra)
		return 0;
	return trace_readahead_wait(&s->ra->base);
}

static void readahead_free(struct ppt_state *s)
{
	struct ppt_readahead *ra = s->ra;

	if (!ra)
		return;
	trace_readahead_clear(&ra->base);
	loader_free(&ra->l);
	g_free(ra);
	s->ra = NULL;
}

const struct trace_format trace_format_ppt = {
	.name = "ppt",
	.marker = APP_CONFIG,
	.any_name = false,
	.open = ppt_open,
	.close = ppt_close,
	.next_kernel = ppt_next_kernel,
	.kernel_count = ppt_kernel_count,
	.kernel_bytes = ppt_kernel_bytes,
	.counts_bytes_read = true,
	.load_block = ppt_load_block,
	.next_stored = ppt_next_stored,
	.count_stored = ppt_count_stored,
};
