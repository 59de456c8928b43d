/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The trace reader's public side (trace.h): picking the format, the kernel
 * sequence, the blocks of the current kernel and their storage; plus what
 * every format uses: number parsing and showing a token in a message.  The
 * formats are driven through their struct trace_format (trace_internal.h)
 * and listed below; they read with linereader.c (which also words every
 * reader's errors, trace_error) and build blocks with block_builder.c.
 *
 * Storage: a block is one allocation (block_builder.c), kept by its id
 * until the next kernel starts, when all blocks of the kernel are freed.
 */
/* SCHED_IDLE */
#define _GNU_SOURCE
#include "config.h"

#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "trace_internal.h"
#include "unit_pool.h"

const char *trace_show(struct shown *buf, const char *tok, size_t len)
{
	size_t n = len > SHOWN_MAX ? SHOWN_MAX : len, i;

	/* one line of ASCII whatever the input holds */
	for (i = 0; i < n; i++) {
		unsigned char c = tok[i];

		buf->s[i] = c < 0x20 || c >= 0x7f ? '?' : c;
	}
	if (n < len) {
		memcpy(buf->s + n, "...", 3);
		n += 3;
	}
	buf->s[n] = '\0';
	return buf->s;
}

/* ---- numbers ------------------------------------------------------------ */

const int8_t trace_hexval[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/* ---- blocks of the current kernel -------------------------------------- */

const char *trace_intern(struct trace_reader *t, const char *s)
{
	return g_string_chunk_insert_const(t->strings, s);
}

bool trace_finish_block(struct trace_reader *t, uint64_t id, bool sort,
			GError **err)
{
	struct gpu_block *b = builder_finish(&t->build, id, sort, err);

	if (!b)
		return false;
	g_hash_table_replace(t->loaded, &b->id, b);
	return true;
}

bool trace_store_block(struct trace_reader *t, struct block_builder *bb,
		       uint64_t id, bool sort, GError **err)
{
	struct gpu_block *b = builder_finish(bb, id, sort, err);

	if (!b)
		return false;
	pthread_mutex_lock(&t->lock);
	g_hash_table_replace(t->loaded, &b->id, b);
	pthread_mutex_unlock(&t->lock);
	return true;
}

void trace_store_built(struct trace_reader *t, struct gpu_block *b)
{
	pthread_mutex_lock(&t->lock);
	g_hash_table_replace(t->loaded, &b->id, b);
	pthread_mutex_unlock(&t->lock);
}

/* ---- read-ahead ------------------------------------------------------------ */

void trace_readahead_init(struct trace_readahead *ra)
{
	memset(ra, 0, sizeof(*ra));
	ra->strings = g_string_chunk_new(4096);
}

static gpointer readahead_thread(gpointer data)
{
	struct trace_readahead *ra = data;
#ifdef SCHED_IDLE
	struct sched_param idle = { 0 };

	/* may be refused (a seccomp filter): it then takes its share */
	pthread_setschedparam(pthread_self(), SCHED_IDLE, &idle);
#endif
	return ra->fn(ra->data);
}

void trace_readahead_start(struct trace_readahead *ra, size_t kernel,
			   GDestroyNotify free_value, GThreadFunc fn, void *data)
{
	sigset_t all, old;

	ra->kernel = kernel;
	ra->stop = 0;
	ra->fn = fn;
	ra->data = data;
	ra->blocks = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL,
					   free_value);
	/* a signal goes to a thread that acts on it (ss_interrupt_enter_thread) */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ra->thread = g_thread_try_new("sectorsim-ahead", readahead_thread, ra, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!ra->thread)
		g_clear_pointer(&ra->blocks, g_hash_table_destroy);
}

/* Stop it (at its next block) and wait for it. */
static void readahead_join(struct trace_readahead *ra)
{
	if (!ra->thread)
		return;
	__atomic_store_n(&ra->stop, 1, __ATOMIC_RELAXED);
	g_thread_join(ra->thread);
	ra->thread = NULL;
}

GHashTable *trace_readahead_take(struct trace_reader *t, struct trace_readahead *ra,
				 size_t next)
{
	GHashTable *blocks = NULL;

	if (!ra->blocks)
		return NULL;	/* none started */
	readahead_join(ra);
	if (ra->kernel == next && g_hash_table_size(ra->blocks)) {
		GStringChunk *empty = t->strings;

		t->strings = ra->strings;
		ra->strings = empty;
		blocks = ra->blocks;
	} else {
		g_hash_table_destroy(ra->blocks);
	}
	ra->blocks = NULL;
	g_string_chunk_clear(ra->strings);
	return blocks;
}

size_t trace_readahead_wait(struct trace_readahead *ra)
{
	if (!ra->blocks)
		return 0;
	if (ra->thread) {
		g_thread_join(ra->thread);
		ra->thread = NULL;
	}
	return g_hash_table_size(ra->blocks);
}

void trace_readahead_clear(struct trace_readahead *ra)
{
	readahead_join(ra);
	if (ra->blocks)
		g_hash_table_destroy(ra->blocks);
	if (ra->strings)
		g_string_chunk_free(ra->strings);
	memset(ra, 0, sizeof(*ra));
}

void trace_block_cut(struct trace_reader *t, uint64_t id, const char *name)
{
	pthread_mutex_lock(&t->lock);
	/* the lowest block's: the same whichever loader read which */
	if (!t->n_cut++ || id < t->first_cut) {
		t->first_cut = id;
		g_free(t->first_cut_name);
		t->first_cut_name = g_strdup(name);
	}
	pthread_mutex_unlock(&t->lock);
}

/* ---- loaders ---------------------------------------------------------------- */

void loader_init(struct block_loader *l)
{
	memset(l, 0, sizeof(*l));
	lr_init(&l->lr);
	l->path = g_string_new(NULL);
	/* keys and values are the reader's interned texts */
	l->opcodes = g_hash_table_new(g_str_hash, g_str_equal);
}

void loader_free(struct block_loader *l)
{
	lr_free(&l->lr);
	builder_free(&l->build);
	if (l->path)
		g_string_free(l->path, TRUE);
	if (l->opcodes)
		g_hash_table_destroy(l->opcodes);
	memset(l, 0, sizeof(*l));
}

/* Whether memo entry e holds the text s of len bytes. */
static inline bool memo_holds(const struct loader_memo *e, const char *s, size_t len)
{
	return e->text && e->len == len && memcmp(e->text, s, len) == 0;
}

const char *loader_intern(struct trace_reader *t, struct block_loader *l,
			  const char *s, size_t len)
{
	uint64_t head = 0, mid = 0;
	struct loader_memo *pair, e;
	const char *v;

	/* the reader's texts were cleared with the last kernel */
	if (l->kernel != t->n_read) {
		g_hash_table_remove_all(l->opcodes);
		memset(l->memo, 0, sizeof(l->memo));
		l->kernel = t->n_read;
	}
	/*
	 * The pair of entries a text may be in: by its first 8 bytes, its
	 * length and the 8 bytes in its middle (ATOMG.E.CAS.STRONG.GPU and
	 * ATOMG.E.ADD.STRONG.GPU share the rest).  Two entries, the text last
	 * used first, so that two texts of one pair do not take turns in a
	 * single entry, missing every time.
	 */
	memcpy(&head, s, MIN(len, sizeof(head)));
	if (len > sizeof(mid))
		memcpy(&mid, s + (len - sizeof(mid)) / 2, sizeof(mid));
	pair = &l->memo[2 * (((((head ^ len) * UINT64_C(0x9e3779b97f4a7c15)) ^ mid) *
			     UINT64_C(0x9e3779b97f4a7c15)) >> 61)];
	if (memo_holds(&pair[0], s, len))
		return pair[0].text;
	if (memo_holds(&pair[1], s, len)) {
		e = pair[1];
		pair[1] = pair[0];
		pair[0] = e;
		return e.text;
	}
	v = g_hash_table_lookup(l->opcodes, s);
	if (!v) {
		pthread_mutex_lock(&t->lock);
		v = g_string_chunk_insert_const(t->strings, s);
		pthread_mutex_unlock(&t->lock);
		g_hash_table_insert(l->opcodes, (gpointer)v, (gpointer)v);
	}
	pair[1] = pair[0];
	pair[0] = (struct loader_memo){ v, len };
	return v;
}

/* A load shared among loaders (unit_pool.h): a unit is a block. */
struct shared_load {
	struct trace_reader *t;
	const uint64_t *ids;
};

static bool load_unit(void *shared, void *worker, size_t unit, GError **err)
{
	struct shared_load *sl = shared;

	return sl->t->fmt->load_block(sl->t, worker, sl->ids[unit], err);
}

/* Below this many blocks a load is not worth a second thread. */
#define SHARED_LOAD_MIN 8

static bool load_with_loaders(struct trace_reader *t, const uint64_t *ids,
			      size_t n, GError **err)
{
	/* a thread only for 4 blocks or more, and no more than the cores */
	unsigned k = n >= SHARED_LOAD_MIN
		? MIN(MIN(t->n_loaders, (unsigned)MIN(n / 4, 1024u)),
		      MAX(g_get_num_processors(), 1u))
		: 1;
	struct shared_load sl = { .t = t, .ids = ids };
	struct block_loader *extra = g_new0(struct block_loader, k);
	void **loaders = g_new(void *, k);
	bool ok;

	/* the caller's loader is the reader's own */
	for (unsigned i = 0; i < k; i++) {
		if (i)
			loader_init(&extra[i]);
		loaders[i] = i ? &extra[i] : &t->loader;
	}
	ok = unit_pool_run(n, k, &sl, loaders, load_unit, err);
	for (unsigned i = 1; i < k; i++)
		loader_free(&extra[i]);
	g_free(loaders);
	g_free(extra);
	return ok;
}

void trace_set_loaders(struct trace_reader *t, unsigned n)
{
	t->n_loaders = MAX(n, 1u);
}

bool trace_set_loads_only(struct trace_reader *t, GError **err)
{
	if (!t->fmt->set_loads_only)
		return ss_set_error(err, SS_ERROR_CONFIG,
				    "%s traces cannot be read as loads only; only trc traces (Nugteren et al.'s) can",
				    t->fmt->name);
	t->fmt->set_loads_only(t);
	return true;
}

void trace_keep_pyset_sectors(struct trace_reader *t)
{
	if (t->fmt->keep_pyset_sectors)
		t->fmt->keep_pyset_sectors(t);
}

void trace_stream_lines(struct trace_reader *t)
{
	if (t->fmt->stream_lines)
		t->fmt->stream_lines(t);
}

void trace_block_free(gpointer block)
{
	struct gpu_block *b = block;

	if (b->stream)
		((const struct trace_block_stream *)b->stream)->free(b);
	else
		g_free(b);
}

const struct gpu_block *trace_find_block(struct trace_reader *t, uint64_t id)
{
	return g_hash_table_lookup(t->loaded, &id);
}

/* ---- the public API ----------------------------------------------------- */

static bool source_load(struct gpu_block_source *s, const uint64_t *ids,
			size_t n, const struct gpu_block **out, GError **err)
{
	struct trace_reader *t = (struct trace_reader *)
		((char *)s - offsetof(struct trace_reader, source));

	return trace_load_blocks(t, ids, n, out, err);
}

static void source_release(struct gpu_block_source *s, const struct gpu_block *b)
{
	struct trace_reader *t = (struct trace_reader *)
		((char *)s - offsetof(struct trace_reader, source));

	g_hash_table_remove(t->loaded, &b->id);
}

static uint64_t source_next_held(struct gpu_block_source *s, uint64_t from)
{
	struct trace_reader *t =
		(struct trace_reader *)((char *)s - offsetof(struct trace_reader, source));
	uint64_t next;

	if (!t->in_kernel || t->failed || !t->fmt->next_stored ||
	    from >= t->kernel.grid_size)
		return from;
	next = t->fmt->next_stored(t, from);
	return MAX(from, MIN(next, t->kernel.grid_size));
}

static bool source_count_held(struct gpu_block_source *s, uint64_t *n,
			      GError **err)
{
	struct trace_reader *t =
		(struct trace_reader *)((char *)s - offsetof(struct trace_reader, source));

	if (!t->in_kernel)
		return ss_set_error(err, SS_ERROR_INTERNAL,
				    "trace: blocks counted with no current kernel");
	if (!t->fmt->count_stored) {
		*n = t->kernel.grid_size;	/* not known: taken as whole */
		return true;
	}
	if (t->failed) {
		g_propagate_error(err, g_error_copy(t->failed));
		return false;
	}
	GError *e = NULL;

	if (!t->fmt->count_stored(t, n, &e)) {
		/* as for load: every later use reports it again */
		t->failed = e;
		g_propagate_error(err, g_error_copy(e));
		return false;
	}
	return true;
}

static uint64_t source_cut_short(struct gpu_block_source *s, const char **first)
{
	struct trace_reader *t =
		(struct trace_reader *)((char *)s - offsetof(struct trace_reader, source));

	*first = t->first_cut_name;
	return t->n_cut;
}

static bool source_bytes_read(struct gpu_block_source *s, uint64_t *n)
{
	struct trace_reader *t =
		(struct trace_reader *)((char *)s - offsetof(struct trace_reader, source));

	if (!t->fmt->counts_bytes_read)
		return false;
	/* any thread: the kernel's size (which a caller knows) is not read
	 * here, since the reader changes it at the next kernel */
	*n = __atomic_load_n(&t->bytes_read, __ATOMIC_RELAXED);
	return true;
}

static const struct gpu_block_source_ops source_ops = {
	.load = source_load,
	.release = source_release,
	.next_held = source_next_held,
	.count_held = source_count_held,
	.cut_short = source_cut_short,
	.bytes_read = source_bytes_read,
};

/*
 * The formats, in the order in which a directory is tried for their marker
 * files; TRACE_PPT, TRACE_ACCELSIM, ... (trace.h) number them from 1 in
 * this order.  A new format is a file defining its struct trace_format, and
 * a row here.
 */
extern const struct trace_format trace_format_ppt, trace_format_accelsim,
	trace_format_native, trace_format_trc;

static const struct trace_format *const formats[] = {
	&trace_format_ppt,
	&trace_format_accelsim,
	&trace_format_native,
	&trace_format_trc,
};

/* "auto", then each row of formats[] by its .name, in order */
const char *const trace_format_names[] = { "auto", "ppt", "accelsim", "native", "trc", NULL };
G_STATIC_ASSERT(G_N_ELEMENTS(trace_format_names) == G_N_ELEMENTS(formats) + 2);

static struct trace_reader *reader_new(const struct trace_format *fmt,
				       const char *dir)
{
	struct trace_reader *t = g_new0(struct trace_reader, 1);

	t->source.ops = &source_ops;
	t->fmt = fmt;
	t->dir = g_strdup(dir);
	t->strings = g_string_chunk_new(4096);
	t->loaded = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL,
					  trace_block_free);
	loader_init(&t->loader);
	t->n_loaders = 1;
	pthread_mutex_init(&t->lock, NULL);
	return t;
}

static bool is_file(const char *dir, const char *name)
{
	char *p = g_build_filename(dir, name, NULL);
	bool yes = g_file_test(p, G_FILE_TEST_IS_REGULAR);

	g_free(p);
	return yes;
}

/* "neither A nor B found" over the formats' marker files. */
static void no_marker_error(const char *path, GError **err)
{
	GString *s = g_string_new(NULL);
	const char *markers[G_N_ELEMENTS(formats)];
	size_t n = 0;

	for (size_t i = 0; i < G_N_ELEMENTS(formats); i++)
		if (formats[i]->marker || formats[i]->marker_pattern)
			markers[n++] = formats[i]->marker ? formats[i]->marker
							  : formats[i]->marker_pattern;
	for (size_t i = 0; i < n; i++)
		g_string_append_printf(s, "%s%s", !i ? (n > 1 ? "neither " : "no ")
				       : i + 1 < n ? ", " : " nor ",
				       markers[i]);
	g_set_error(err, SS_ERROR, SS_ERROR_INPUT,
		    "%s: %s found; expected a trace directory", path, s->str);
	g_string_free(s, TRUE);
}

/*
 * The format of a trace directory: the one asked for, which must find its
 * marker file there, or else the first whose marker is there.  A directory
 * holding both app_config.py and kernelslist.g is thus read as ppt, the
 * reference's format: it is what the golden converter writes next to an
 * Accel-Sim trace, and what the reference itself would read; asking for
 * TRACE_ACCELSIM reads the other one.
 */
static const struct trace_format *dir_format(const char *path,
					     const struct trace_format *want,
					     GError **err)
{
	if (want) {
		if (want->marker && is_file(path, want->marker))
			return want;
		if (want->detect && want->detect(path))
			return want;
		if (want->detect)
			g_set_error(err, SS_ERROR, SS_ERROR_INPUT,
				    "%s: no file named %s; expected a %s trace directory",
				    path, want->marker_pattern, want->name);
		else if (!want->marker)
			g_set_error(err, SS_ERROR, SS_ERROR_INPUT,
				    "%s: a directory; a %s trace is a single file",
				    path, want->name);
		else
			trace_error(err, want->marker, 0, "no such file in '%s'", path);
		return NULL;
	}
	for (size_t i = 0; i < G_N_ELEMENTS(formats); i++)
		if ((formats[i]->marker && is_file(path, formats[i]->marker)) ||
		    (formats[i]->detect && formats[i]->detect(path)))
			return formats[i];
	no_marker_error(path, err);
	return NULL;
}

/*
 * Whether the file at path starts with fmt's magic bytes, or nearly: one
 * byte of them damaged, or the file cut inside them after four.  Such a
 * file is the format's, so its reader says what is wrong with it, rather
 * than another format's finding no sense in it.  (No text trace file has
 * seven of the eight bytes of a binary magic number.)
 */
static bool has_magic(const char *path, const struct trace_format *fmt)
{
	char head[16];
	size_t got = 0, same = 0;
	FILE *f;

	if (!fmt->magic || fmt->magic_len > sizeof(head))
		return false;
	f = fopen(path, "rb");
	if (!f)
		return false;
	got = fread(head, 1, fmt->magic_len, f);
	fclose(f);
	for (size_t i = 0; i < got; i++)
		same += head[i] == fmt->magic[i];
	if (got == fmt->magic_len)
		return same + 1 >= got;
	return got >= 4 && same == got;
}

/*
 * The format of a file given as the trace: the one asked for, if it takes
 * a file of that name or starts with its magic; or else the first whose
 * magic the file starts with, else the first whose marker has that name,
 * else the first whose suffix ends it, else the first that takes any name.
 */
static const struct trace_format *file_format(const char *path,
					      const char *base,
					      const struct trace_format *want,
					      GError **err)
{
	if (want) {
		/* a format with a magic number checks it itself, and says so;
		 * a suffix only picks a format that was not named */
		if (want->any_name || (want->marker && !strcmp(base, want->marker)) ||
		    want->magic || want->suffix)
			return want;
		g_set_error(err, SS_ERROR, SS_ERROR_INPUT,
			    "%s: a file; expected a directory with %s", path,
			    want->marker);
		return NULL;
	}
	for (size_t i = 0; i < G_N_ELEMENTS(formats); i++)
		if (has_magic(path, formats[i]))
			return formats[i];
	for (size_t i = 0; i < G_N_ELEMENTS(formats); i++)
		if (formats[i]->marker && !strcmp(base, formats[i]->marker))
			return formats[i];
	for (size_t i = 0; i < G_N_ELEMENTS(formats); i++)
		if (formats[i]->suffix && g_str_has_suffix(base, formats[i]->suffix))
			return formats[i];
	for (size_t i = 0; i < G_N_ELEMENTS(formats); i++)
		if (formats[i]->any_name)
			return formats[i];
	g_set_error(err, SS_ERROR, SS_ERROR_INPUT,
		    "%s: a file no trace format reads; expected a trace directory",
		    path);
	return NULL;
}

struct trace_reader *trace_open(const char *path, enum trace_format_id id,
				GError **err)
{
	const struct trace_format *want = NULL, *fmt;
	struct trace_reader *t = NULL;
	char *dir = NULL, *file = NULL, *base = NULL;

	if (id != TRACE_AUTO) {
		g_return_val_if_fail((size_t)id <= G_N_ELEMENTS(formats), NULL);
		want = formats[id - 1];
	}
	if (g_file_test(path, G_FILE_TEST_IS_DIR)) {
		dir = g_strdup(path);
		fmt = dir_format(path, want, err);
		if (fmt)
			file = g_build_filename(path, fmt->marker, NULL);
	} else if (g_file_test(path, G_FILE_TEST_IS_REGULAR)) {
		dir = g_path_get_dirname(path);
		base = g_path_get_basename(path);
		fmt = file_format(path, base, want, err);
		file = g_strdup(path);
	} else {
		g_set_error(err, SS_ERROR, SS_ERROR_INPUT,
			    "%s: no such file or directory", path);
		fmt = NULL;
	}
	if (fmt) {
		t = reader_new(fmt, dir);
		if (!fmt->open(t, file, err))
			g_clear_pointer(&t, trace_close);
	}
	g_free(dir);
	g_free(file);
	g_free(base);
	return t;
}

static void drop_kernel(struct trace_reader *t)
{
	t->n_cut = 0;
	g_clear_pointer(&t->first_cut_name, g_free);
	g_hash_table_remove_all(t->loaded);
	g_string_chunk_clear(t->strings);
	g_clear_error(&t->failed);
	memset(&t->kernel, 0, sizeof(t->kernel));
	t->in_kernel = false;
}

void trace_close(struct trace_reader *t)
{
	if (!t)
		return;
	t->fmt->close(t);
	drop_kernel(t);
	g_hash_table_destroy(t->loaded);
	g_string_chunk_free(t->strings);
	builder_free(&t->build);
	loader_free(&t->loader);
	pthread_mutex_destroy(&t->lock);
	g_free(t->kernel_bytes);
	g_free(t->dir);
	g_free(t);
}

enum trace_format_id trace_format_of(const struct trace_reader *t)
{
	size_t i = 0;

	while (formats[i] != t->fmt)
		i++;
	return (enum trace_format_id)(i + 1);
}

const struct gpu_kernel *trace_next_kernel(struct trace_reader *t,
					   GError **err)
{
	bool end = false, ok;

	drop_kernel(t);
	trace_set_bytes_read(t, 0, false);
	ok = t->fmt->next_kernel(t, &end, err);
	if (!ok || end)
		return NULL;
	t->in_kernel = true;
	t->kernel.ordinal = ++t->n_read;
	t->kernel.n_kernels = t->fmt->kernel_count(t);
	/* sizes for the progress line, measured once */
	if (!t->kernel_bytes) {
		t->kernel_bytes = g_new0(uint64_t, t->kernel.n_kernels + 1);
		for (size_t i = 0; i < t->kernel.n_kernels; i++)
			t->kernel_bytes[i] = t->fmt->kernel_bytes(t, i);
	}
	for (size_t i = 0; i < t->kernel.n_kernels; i++) {
		if (i + 1 < t->kernel.ordinal)
			t->kernel.trace_bytes_before += t->kernel_bytes[i];
		if (i + 1 == t->kernel.ordinal)
			t->kernel.trace_bytes = t->kernel_bytes[i];
		t->kernel.trace_bytes_total += t->kernel_bytes[i];
	}
	return &t->kernel;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

bool trace_load_blocks(struct trace_reader *t, const uint64_t *ids, size_t n,
		       const struct gpu_block **out, GError **err)
{
	uint64_t *want;
	size_t n_want = 0;
	bool sorted = true;

	if (!t->in_kernel) {
		g_set_error(err, SS_ERROR, SS_ERROR_INTERNAL,
			    "trace: blocks asked for with no current kernel");
		return false;
	}
	if (t->failed) {
		g_propagate_error(err, g_error_copy(t->failed));
		return false;
	}
	want = g_new(uint64_t, n ? n : 1);
	for (size_t i = 0; i < n; i++) {
		if (ids[i] >= t->kernel.grid_size) {
			g_set_error(err, SS_ERROR, SS_ERROR_INTERNAL,
				    "trace: block %" G_GUINT64_FORMAT " asked for, but kernel %u has %" G_GUINT64_FORMAT " blocks",
				    ids[i], t->kernel.id, t->kernel.grid_size);
			g_free(want);
			return false;
		}
		if (trace_find_block(t, ids[i]))
			continue;
		if (n_want && ids[i] <= want[n_want - 1])
			sorted = false;
		want[n_want++] = ids[i];
	}
	if (!sorted) {
		size_t k = 0;

		qsort(want, n_want, sizeof(*want), cmp_u64);
		for (size_t i = 0; i < n_want; i++)
			if (!k || want[i] != want[k - 1])
				want[k++] = want[i];
		n_want = k;
	}
	if (n_want) {
		GError *e = NULL;
		bool ok = t->fmt->load_block ? load_with_loaders(t, want, n_want, &e)
					     : t->fmt->load(t, want, n_want, &e);

		if (!ok) {
			t->failed = e;
			g_propagate_error(err, g_error_copy(e));
			g_free(want);
			return false;
		}
		/* what the trace lacks is an empty block */
		for (size_t i = 0; i < n_want; i++) {
			if (trace_find_block(t, want[i]))
				continue;
			builder_reset(&t->build);
			trace_finish_block(t, want[i], false, NULL);
		}
	}
	g_free(want);
	for (size_t i = 0; i < n; i++)
		out[i] = trace_find_block(t, ids[i]);
	return true;
}

struct gpu_block_source *trace_block_source(struct trace_reader *t)
{
	return &t->source;
}

