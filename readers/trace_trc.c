/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The .trc format of Nugteren et al.'s GPU cache model (its Ocelot
 * tracer's output): a kernel per file, NAME_00.trc, NAME_01.trc, ... in a
 * folder (kernels in that order, up to the first number missing), or one
 * file given alone.  A file is a header, a word and the block's three
 * dimensions ("blocksize: 256 1 1"), then a line per access of a thread,
 * "tid dir addr bytes" in decimal: the thread's flat global id (block id
 * x threads per block + thread in block), 0 for a load or 1 for a store,
 * the byte address, the access's size.  Lines of different threads may
 * come in any order; a thread's accesses are in file order.
 *
 * The accesses carry no instructions: a warp's k-th memory instruction is
 * the k-th access of each of its threads that has one, as the model
 * aligns them.  Threads t of block t / S (S threads per block) form warps
 * of 32 by (t mod S) / 32.  A warp's k-th accesses of one direction and
 * size are one line (LDG.E.<bits> or STG.E.<bits>, a global access of
 * that width); threads that differ at k give a line each, in the order of
 * their first thread.  A block's lines go round-robin over its warps, one
 * instruction each a round, as Accel-Sim blocks do.  The grid is the
 * blocks up to the highest thread id, in one dimension.
 *
 * Lines of different threads interleave, so a kernel's file is read whole
 * when the kernel starts; the trace's memory is that of one kernel.
 *
 * Read as loads only (trace_set_loads_only), as the model reads it: the
 * stores are checked and dropped, so accesses are numbered among a
 * thread's loads and the grid reaches the highest thread that loads, and
 * a kernel without a load ends the trace.
 */
#include "config.h"

#include <sys/stat.h>
#include <glib/gstdio.h>

#include <string.h>
#include "trace_internal.h"

#define TRC_SUFFIX ".trc"
#define TRC_FIRST "_00" TRC_SUFFIX
#define TRC_MAX_BYTES 16	/* the widest access of a GPU thread (128 bits) */
#define TRC_MAX_BLOCK (1u << 20)	/* threads per block */
/* thread ids: a table of this many entries is made per kernel */
#define TRC_MAX_THREADS (1u << 24)

/* One access, as read. */
struct trc_access {
	uint64_t addr;
	uint32_t tid;
	uint8_t store;
	uint8_t bytes;
};

struct trc_state {
	/* the kernels' files: a folder's NAME_KK.trc, or the one file */
	GPtrArray *paths, *names;	/* char *: to open; as messages name it */
	size_t next;
	/* the current kernel */
	GArray *acc;			/* struct trc_access, file order */
	uint32_t *order;		/* acc indices by thread, file order kept */
	uint32_t *first;		/* per thread: its first in order[]; n_threads + 1 */
	uint64_t n_threads;
	uint32_t block_size, warps;	/* threads and warps per block */
	bool loads_only;		/* trace_set_loads_only: the model's reading */
	bool ended;			/* ... and a kernel without a load ended it */
	const char *opcode[2][TRC_MAX_BYTES + 1];	/* [store][bytes], interned */
};

/* ---- the kernels' files ------------------------------------------------- */

/* NAME_KK.trc of a folder, KK = 00, 01, ...: the path and its name. */
static char *kernel_file(const char *dir, const char *stem, size_t k)
{
	char *base = g_strdup_printf("%s_%02zu" TRC_SUFFIX, stem, k);
	char *path = g_build_filename(dir, base, NULL);

	g_free(base);
	return path;
}

static bool is_regular(const char *path)
{
	return g_file_test(path, G_FILE_TEST_IS_REGULAR);
}

/*
 * The folder's NAME_00.trc files: how many, and the stem NAME of the first
 * (NULL when none).
 */
static size_t first_files(const char *dir, char **stem)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *e;
	size_t found = 0, f = strlen(TRC_FIRST);

	*stem = NULL;
	while (d && (e = g_dir_read_name(d))) {
		size_t n = strlen(e);
		char *path;

		if (n <= f || strcmp(e + n - f, TRC_FIRST))
			continue;
		path = g_build_filename(dir, e, NULL);
		if (is_regular(path) && found++ == 0)
			*stem = g_strndup(e, n - f);
		g_free(path);
	}
	if (d)
		g_dir_close(d);
	return found;
}

/*
 * The stem NAME of a folder's kernels: the folder's own name if it holds
 * NAME_00.trc of that name (the model's output/BENCH/BENCH_00.trc), else
 * that of the only NAME_00.trc it holds.  NULL with *err otherwise.
 */
static char *folder_stem(const char *dir, GError **err)
{
	char *base = g_path_get_basename(dir);
	char *own = kernel_file(dir, base, 0), *stem;
	size_t found;

	if (is_regular(own)) {
		g_free(own);
		return base;
	}
	g_free(own);
	g_free(base);
	found = first_files(dir, &stem);
	if (found == 1)
		return stem;
	g_free(stem);
	g_set_error(err, SS_ERROR, SS_ERROR_INPUT, found
		    ? "%s: %zu files named NAME_00.trc; expected the traces of one program (or one named after the folder)"
		    : "%s: no file named NAME_00.trc; expected a trace directory",
		    dir, found);
	return NULL;
}

/* A folder with any NAME_00.trc is this format's (open says which). */
static bool trc_detect(const char *dir)
{
	char *stem;
	size_t found = first_files(dir, &stem);

	g_free(stem);
	return found > 0;
}

static bool trc_open(struct trace_reader *t, const char *file, GError **err)
{
	struct trc_state *s = g_new0(struct trc_state, 1);

	t->state = s;
	s->paths = g_ptr_array_new_with_free_func(g_free);
	s->names = g_ptr_array_new_with_free_func(g_free);
	s->acc = g_array_new(FALSE, FALSE, sizeof(struct trc_access));
	if (g_file_test(file, G_FILE_TEST_IS_DIR)) {
		char *stem = folder_stem(file, err);

		if (!stem)
			return false;
		for (size_t k = 0;; k++) {
			char *path = kernel_file(file, stem, k);

			if (!is_regular(path)) {
				g_free(path);
				break;
			}
			g_ptr_array_add(s->names, g_path_get_basename(path));
			g_ptr_array_add(s->paths, path);
		}
		g_free(stem);
	} else {
		g_ptr_array_add(s->paths, g_strdup(file));
		g_ptr_array_add(s->names, g_path_get_basename(file));
	}
	return true;
}

static void free_kernel(struct trc_state *s)
{
	g_array_set_size(s->acc, 0);
	g_clear_pointer(&s->order, g_free);
	g_clear_pointer(&s->first, g_free);
	s->n_threads = 0;
}

static void trc_close(struct trace_reader *t)
{
	struct trc_state *s = t->state;

	if (!s)
		return;
	free_kernel(s);
	g_array_free(s->acc, TRUE);
	g_ptr_array_free(s->paths, TRUE);
	g_ptr_array_free(s->names, TRUE);
	g_free(s);
	t->state = NULL;
}

static size_t trc_kernel_count(const struct trace_reader *t)
{
	return ((const struct trc_state *)t->state)->paths->len;
}

static uint64_t trc_kernel_bytes(struct trace_reader *t, size_t i)
{
	const struct trc_state *s = t->state;
	GStatBuf st;

	return g_stat(s->paths->pdata[i], &st) == 0 ? (uint64_t)st.st_size : 0;
}

/* ---- a kernel's file ---------------------------------------------------- */

/* The line's fields, split on blanks, at most `max` (then *n = max + 1). */
static size_t split_fields(char *p, char **tok, size_t *len, size_t max)
{
	size_t n = 0;

	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (!*p)
			return n;
		if (n == max)
			return n + 1;
		tok[n] = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\r')
			p++;
		len[n] = (size_t)(p - tok[n]);
		n++;
	}
}

static bool read_header(struct line_reader *r, struct trc_state *s,
			uint32_t dim[3], GError **err)
{
	char *line, *tok[5];
	size_t len, tl[5], n;
	uint64_t v[3];
	int rc;

	while ((rc = lr_next(r, &line, &len, err)) > 0) {
		n = split_fields(line, tok, tl, 4);
		if (!n)
			continue;
		if (n != 4 || !parse_u64(tok[1], tl[1], &v[0]) ||
		    !parse_u64(tok[2], tl[2], &v[1]) || !parse_u64(tok[3], tl[3], &v[2]) ||
		    !v[0] || !v[1] || !v[2] || v[0] > TRC_MAX_BLOCK ||
		    v[1] > TRC_MAX_BLOCK || v[2] > TRC_MAX_BLOCK ||
		    v[0] * v[1] * v[2] > TRC_MAX_BLOCK) {
			trace_error(err, r->name, r->lineno,
				    "a malformed header; expected a word and the block's dimensions, as 'blocksize: 256 1 1' (at most %u threads)",
				    TRC_MAX_BLOCK);
			return false;
		}
		for (int i = 0; i < 3; i++)
			dim[i] = (uint32_t)v[i];
		s->block_size = dim[0] * dim[1] * dim[2];
		s->warps = (s->block_size + 31) / 32;
		return true;
	}
	if (rc == 0)
		trace_error(err, r->name, 0,
			    "empty; expected a header such as 'blocksize: 256 1 1'");
	return false;
}

static bool read_access(struct line_reader *r, char *line, struct trc_state *s,
			GError **err)
{
	static const char *const what[4] = {
		"a thread id", "a direction", "an address", "a size",
	};
	char *tok[5];
	size_t tl[5], n = split_fields(line, tok, tl, 4);
	uint64_t v[4];
	struct shown sh;
	struct trc_access a;

	if (!n)
		return true;
	if (n != 4) {
		trace_error(err, r->name, r->lineno, "%s; expected 'tid dir addr bytes'",
			    n > 4 ? "more than 4 fields" : n == 1 ? "1 field"
			    : n == 2 ? "2 fields" : "3 fields");
		return false;
	}
	for (int i = 0; i < 4; i++) {
		if (!parse_u64(tok[i], tl[i], &v[i])) {
			trace_error(err, r->name, r->lineno,
				    "'%s' is not %s; expected 'tid dir addr bytes' in decimal",
				    trace_show(&sh, tok[i], tl[i]), what[i]);
			return false;
		}
	}
	if (v[0] >= TRC_MAX_THREADS) {
		trace_error(err, r->name, r->lineno,
			    "thread id %" G_GUINT64_FORMAT " is too large; expected below %u",
			    v[0], TRC_MAX_THREADS);
		return false;
	}
	if (v[1] > 1) {
		trace_error(err, r->name, r->lineno,
			    "direction %" G_GUINT64_FORMAT "; expected 0 (a load) or 1 (a store)",
			    v[1]);
		return false;
	}
	if (!v[3] || v[3] > TRC_MAX_BYTES) {
		trace_error(err, r->name, r->lineno,
			    "an access of %" G_GUINT64_FORMAT " bytes; expected 1 to %u",
			    v[3], TRC_MAX_BYTES);
		return false;
	}
	if (v[2] > UINT64_MAX - (v[3] - 1)) {
		trace_error(err, r->name, r->lineno,
			    "an access of %" G_GUINT64_FORMAT " bytes at %" G_GUINT64_FORMAT " runs past the address space",
			    v[3], v[2]);
		return false;
	}
	if (s->acc->len == UINT32_MAX) {
		trace_error(err, r->name, r->lineno, "more than %u accesses in one kernel",
			    UINT32_MAX);
		return false;
	}
	if (v[1] && s->loads_only)
		return true;	/* checked, then dropped */
	a = (struct trc_access){ .addr = v[2], .tid = (uint32_t)v[0],
				 .store = (uint8_t)v[1], .bytes = (uint8_t)v[3] };
	g_array_append_val(s->acc, a);
	s->n_threads = MAX(s->n_threads, (uint64_t)a.tid + 1);
	return true;
}

/* The accesses by thread, each thread's in file order (a counting sort). */
static void order_by_thread(struct trc_state *s)
{
	const struct trc_access *a = (const struct trc_access *)(void *)s->acc->data;
	uint32_t *at;

	s->first = g_new0(uint32_t, s->n_threads + 1);
	s->order = g_new(uint32_t, MAX(s->acc->len, 1u));
	for (guint i = 0; i < s->acc->len; i++)
		s->first[a[i].tid + 1]++;
	for (uint64_t t = 0; t < s->n_threads; t++)
		s->first[t + 1] += s->first[t];
	at = g_memdup2(s->first, (s->n_threads + 1) * sizeof(*at));
	for (guint i = 0; i < s->acc->len; i++)
		s->order[at[a[i].tid]++] = i;
	g_free(at);
}

static bool trc_next_kernel(struct trace_reader *t, bool *end, GError **err)
{
	struct trc_state *s = t->state;
	struct gpu_kernel *k = &t->kernel;
	struct line_reader r;
	uint32_t dim[3];
	const char *name;
	char *line, *stem;
	size_t len;
	int rc;
	bool ok;

	free_kernel(s);
	if (s->next >= s->paths->len || s->ended) {
		*end = true;
		return true;
	}
	name = s->names->pdata[s->next];
	lr_init(&r);
	ok = lr_open(&r, s->paths->pdata[s->next], name, NULL, err) &&
	     read_header(&r, s, dim, err);
	while (ok && (rc = lr_next(&r, &line, &len, err)) > 0)
		ok = read_access(&r, line, s, err);
	if (ok && rc < 0)
		ok = false;
	if (ok && !s->acc->len && s->loads_only) {
		/* the model's loop ends at a kernel with no load */
		lr_free(&r);
		s->ended = true;
		*end = true;
		return true;
	}
	if (ok && !s->acc->len) {
		trace_error(err, name, 0,
			    "no accesses; expected lines 'tid dir addr bytes' after the header");
		ok = false;
	}
	lr_free(&r);
	if (!ok)
		return false;
	order_by_thread(s);
	for (int st = 0; st < 2; st++)
		for (unsigned b = 1; b <= TRC_MAX_BYTES; b++) {
			char op[32];

			g_snprintf(op, sizeof(op), "%s.E.%u", st ? "STG" : "LDG", 8 * b);
			s->opcode[st][b] = trace_intern(t, op);
		}
	k->id = (uint32_t)++s->next;
	stem = g_strndup(name, strlen(name) - (g_str_has_suffix(name, TRC_SUFFIX)
					       ? strlen(TRC_SUFFIX) : 0));
	k->name = trace_intern(t, stem);
	g_free(stem);
	k->grid_size = (s->n_threads + s->block_size - 1) / s->block_size;
	k->grid[0] = (uint32_t)k->grid_size;	/* at most 2^32 / 1 blocks */
	k->grid[1] = k->grid[2] = 1;
	memcpy(k->block, dim, sizeof(dim));
	k->block_size = s->block_size;
	k->trace_file = name;
	return true;
}

/* ---- blocks ------------------------------------------------------------- */

/*
 * Warp w's k-th instruction of block b into the builder: a line per
 * direction and size among its threads' k-th accesses (some thread of the
 * warp has one).
 */
static void add_instruction(struct trace_reader *t, struct trc_state *s,
			    uint64_t b, uint32_t w, uint32_t k)
{
	const struct trc_access *acc = (const struct trc_access *)(void *)s->acc->data;
	uint64_t t0 = b * s->block_size + (uint64_t)w * 32;
	uint32_t lanes = MIN(32u, s->block_size - w * 32), done = 0, any = 0;

	for (uint32_t l = 0; l < lanes; l++) {
		uint64_t tid = t0 + l;

		if (tid < s->n_threads && s->first[tid + 1] - s->first[tid] > k)
			any |= 1u << l;
	}
	/* the kind of the first lane not yet put in a line, then its like */
	while (done != any) {
		uint32_t lead = (uint32_t)__builtin_ctz(any & ~done), mask = 0, n = 0;
		const struct trc_access *la = &acc[s->order[s->first[t0 + lead] + k]];
		uint64_t *dst = builder_reserve(&t->build, 32);

		for (uint32_t l = lead; l < lanes; l++) {
			const struct trc_access *a;

			if (!(any & ~done & (1u << l)))
				continue;
			a = &acc[s->order[s->first[t0 + l] + k]];
			if (a->store != la->store || a->bytes != la->bytes)
				continue;
			dst[n++] = a->addr;
			mask |= 1u << l;
		}
		done |= mask;
		builder_add(&t->build, 0, s->opcode[la->store][la->bytes], n, w, mask);
	}
}

/* Block b's warps' instruction counts (their threads' most accesses). */
static uint32_t warp_lengths(const struct trc_state *s, uint64_t b, uint32_t *len)
{
	uint32_t most = 0;

	for (uint32_t w = 0; w < s->warps; w++) {
		uint64_t t0 = b * s->block_size + (uint64_t)w * 32;
		uint32_t lanes = MIN(32u, s->block_size - w * 32);

		len[w] = 0;
		for (uint32_t l = 0; l < lanes && t0 + l < s->n_threads; l++)
			len[w] = MAX(len[w], s->first[t0 + l + 1] - s->first[t0 + l]);
		most = MAX(most, len[w]);
	}
	return most;
}

static bool trc_load(struct trace_reader *t, const uint64_t *ids, size_t n,
		     GError **err)
{
	struct trc_state *s = t->state;
	uint32_t *len = g_new(uint32_t, s->warps);

	for (size_t i = 0; i < n; i++) {
		uint64_t b = ids[i];
		uint32_t rounds = warp_lengths(s, b, len);

		builder_reset(&t->build);
		/* round-robin over the warps, an instruction of each a round;
		 * a warp that has run out is passed over without a look */
		for (uint32_t k = 0; k < rounds; k++)
			for (uint32_t w = 0; w < s->warps; w++)
				if (k < len[w])
					add_instruction(t, s, b, w, k);
		if (!trace_finish_block(t, b, false, err)) {
			g_free(len);
			return false;
		}
	}
	g_free(len);
	return true;
}

static void trc_set_loads_only(struct trace_reader *t)
{
	((struct trc_state *)t->state)->loads_only = true;
}

const struct trace_format trace_format_trc = {
	.name = "trc",
	.marker = NULL,
	.marker_pattern = "NAME_00.trc",
	.detect = trc_detect,
	.suffix = TRC_SUFFIX,
	.open = trc_open,
	.close = trc_close,
	.next_kernel = trc_next_kernel,
	.kernel_count = trc_kernel_count,
	.kernel_bytes = trc_kernel_bytes,
	.load = trc_load,
	.set_loads_only = trc_set_loads_only,
};
