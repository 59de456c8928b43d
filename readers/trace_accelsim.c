/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Accel-Sim traces: kernelslist.g, then per kernel a kernel-N.traceg
 * (plain, .gz or .xz) whose header is read when the kernel starts and
 * whose body is read when blocks are asked for.  Each block kept is turned
 * into the reference's line stream: its warps in lockstep over all their
 * instruction lines (the i-th line of every warp, then the (i+1)-th, ...),
 * memory instructions of the traced spaces kept, lanes' addresses in lane
 * order (and which lanes they are).  Of the instructions not kept, a block
 * counts those of shared memory with an active lane (their address may
 * well be 0) and those of other bases with a non-zero address (surface,
 * TMA, ...); constant and texture loads carry none and are not counted.
 *
 * Validation: a first pass reads the kernel's file once, from the top to
 * the end, checking every line.  It reads only as far as the blocks a load
 * asks for, and the next load goes on from there while the blocks it wants
 * lie ahead, so a scheduler that asks for the grid in order (dynamic
 * dispatch) reads each line once; whatever the first pass has not reached
 * when the kernel ends is read then (as_next_kernel), so a malformed line
 * anywhere in the file is reported before the next kernel starts, never
 * skipped.  A load that wants a block the stream has passed first finishes
 * the pass, then reads the file again from the start, or goes on from
 * where it stopped if they all lie ahead, and stops once it has them.
 * What is remembered between passes is each listed block's id and
 * position: 16 bytes a block.
 *
 * Decisions where Accel-Sim's format leaves room:
 *  - No '#traces format' line: the trailing fields come from the version
 *    (below 5: none; 5: one immediate; 6: two, then Val|NoVal).
 *  - Register counts may go up to 32, not only to Accel-Sim's 1 and 5:
 *    the counts alone say where the opcode is, and register tokens are
 *    checked to be names, which catches a count that does not match.
 *  - Not every warp of a listed block need be present (trimmed traces list
 *    fewer, golden real/atax-*), but a warp id must lie inside the block.
 *  - After Val or NoVal anything may follow (a value block of any length).
 *  - Messages name the file as opened, e.g. kernel-2.traceg.gz:17.
 */
#include "config.h"

#include <sys/stat.h>
#include <glib/gstdio.h>

#include <stdarg.h>
#include <string.h>
#include "opcode.h"
#include "trace_internal.h"

struct as_entry {
	char *path;		/* as opened: NAME, NAME.gz or NAME.xz */
	char *name;		/* the same, relative to the list's directory */
};

struct seen_block {
	uint64_t id;
	uint64_t ord;		/* its position among the file's blocks */
};

enum body_state {
	B_OUTSIDE,		/* between #END_TB and #BEGIN_TB */
	B_START,		/* after #BEGIN_TB */
	B_BLOCK,		/* after 'thread block =' */
	B_WARP_HDR,		/* after 'warp =' */
	B_WARP,			/* after 'insts =': instruction lines */
};

/*
 * What reading instruction lines takes, apart from where they are in the
 * file: the kernel's grammar, the line's place for messages, its warp,
 * and the builder and opcode cache its block goes to.  The reading thread
 * has one (as_state.in); so has each thread that reads a load's blocks
 * beside it (struct as_pool).
 */
struct as_lines {
	unsigned version;		/* integer part */
	bool lineinfo;
	unsigned n_imm;			/* trailing immediates */
	bool val_layout;		/* then Val|NoVal and values */
	const char *name;		/* the file, as messages name it */
	uint64_t lineno;		/* the line being read */
	uint32_t warp;
	bool keep;			/* the block is built, not only checked */
	struct trace_reader *t;
	struct block_loader *l;		/* the block's builder, the opcodes */
	/* the tokens of one line (slow_instruction) */
	char **tok, **tend;
	size_t cap_tok;
};

struct as_state {
	char *list_name;
	GArray *entries;		/* struct as_entry */
	size_t next;
	/* the current kernel */
	const struct as_entry *cur;
	struct line_reader lr;
	struct as_lines in;		/* this thread's, with the grammar */
	uint64_t gx, gy, gz;
	uint64_t warps;			/* per block */
	bool validated;			/* the whole file has been read once */
	enum body_state state;
	uint64_t pos;			/* blocks the stream has passed */
	GArray *seen;			/* struct seen_block, ascending id */
	/* the block being read */
	uint64_t bx, by, bz, blk;
	GArray *warps_seen;		/* uint32_t, ascending */
	uint64_t insts, n_insts, insts_line;
	/* the blocks the current load wants */
	const uint64_t *want;
	size_t n_want, left;
	struct as_pool *pool;		/* the scan's helpers, NULL: none */
	/* blocks handed to a pool in slabs, and slabs read here after all */
	uint64_t n_slabs, n_taken_back;
};

/* An error at the line just read; false, to end the caller's check. */
#define line_error(s, err, ...) \
	(trace_error((err), (s)->lr.name, (s)->lr.lineno, __VA_ARGS__), false)

static void entry_clear(gpointer p)
{
	struct as_entry *e = p;

	g_free(e->path);
	g_free(e->name);
}

/* ---- kernelslist.g ------------------------------------------------------ */

static char *trim(char *p, size_t *len)
{
	char *end = p + *len;

	while (p < end && g_ascii_isspace(*p))
		p++;
	while (end > p && g_ascii_isspace(end[-1]))
		end--;
	*end = '\0';
	*len = (size_t)(end - p);
	return p;
}

/* A listed kernel file: NAME, else NAME.gz, else NAME.xz. */
static bool resolve(struct trace_reader *t, const char *listed,
		    struct as_entry *e)
{
	static const char *const suffix[] = { "", ".gz", ".xz" };

	for (size_t i = 0; i < G_N_ELEMENTS(suffix); i++) {
		char *name = g_strconcat(listed, suffix[i], NULL);
		char *path = g_path_is_absolute(name) ? g_strdup(name)
			: g_build_filename(t->dir, name, NULL);

		/* a named pipe will do too: a kernel decompressed on the fly */
		if (g_file_test(path, G_FILE_TEST_EXISTS) &&
		    !g_file_test(path, G_FILE_TEST_IS_DIR)) {
			e->name = name;
			e->path = path;
			return true;
		}
		g_free(name);
		g_free(path);
	}
	return false;
}

/* `list`: the kernel list, kernelslist.g or a file of any name. */
static bool as_open(struct trace_reader *t, const char *list, GError **err)
{
	struct as_state *s = g_new0(struct as_state, 1);
	struct line_reader r;
	char *line;
	size_t len;
	int rc;

	t->state = s;
	s->list_name = g_path_get_basename(list);
	s->entries = g_array_new(FALSE, TRUE, sizeof(struct as_entry));
	g_array_set_clear_func(s->entries, entry_clear);
	s->seen = g_array_new(FALSE, FALSE, sizeof(struct seen_block));
	s->warps_seen = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	s->in.t = t;
	s->in.l = &t->loader;
	lr_init(&s->lr);
	lr_init(&r);
	if (!lr_open(&r, list, s->list_name, NULL, err)) {
		lr_free(&r);
		return false;
	}
	/* a kernel is any line starting with "kernel"; the rest is ignored */
	while ((rc = lr_next(&r, &line, &len, err)) > 0) {
		struct as_entry e;

		line = trim(line, &len);
		if (strncmp(line, "kernel", 6))
			continue;
		if (!resolve(t, line, &e)) {
			struct shown sh;

			trace_error(err, s->list_name, r.lineno,
				    "%s: no such file (also tried .gz, .xz)",
				    trace_show(&sh, line, len));
			rc = -1;
			break;
		}
		g_array_append_val(s->entries, e);
	}
	/* random bytes, or a list of copies only: not a trace to run as
	 * one of no kernels */
	if (rc == 0 && !s->entries->len) {
		trace_error(err, s->list_name, r.lineno,
			    "no line names a kernel file; expected lines such as kernel-1.traceg");
		rc = -1;
	}
	lr_free(&r);
	return rc == 0;
}

static void as_close(struct trace_reader *t)
{
	struct as_state *s = t->state;

	if (!s)
		return;
	lr_free(&s->lr);
	g_array_free(s->entries, TRUE);
	g_array_free(s->seen, TRUE);
	g_array_free(s->warps_seen, TRUE);
	g_free(s->in.tok);
	g_free(s->in.tend);
	g_free(s->list_name);
	g_free(s);
	t->state = NULL;
}

/* ---- the header --------------------------------------------------------- */

enum { H_NAME, H_GRID, H_BLOCK, H_SHMEM, H_NREGS, H_STREAM, H_VERSION, N_REQ };

static const char *const req_key[N_REQ] = {
	"kernel name", "grid dim", "block dim", "shmem", "nregs",
	"cuda stream id", "accelsim tracer version",
};

static const char *const req_form[N_REQ] = {
	"-kernel name = NAME", "-grid dim = (x,y,z)", "-block dim = (x,y,z)",
	"-shmem = BYTES", "-nregs = N", "-cuda stream id = N",
	"-accelsim tracer version = V",
};

static void skip_spaces(const char **p)
{
	while (**p == ' ' || **p == '\t')
		(*p)++;
}

static bool parse_dec_at(const char **p, uint64_t *v)
{
	const char *q = *p;

	while (g_ascii_isdigit(*q))
		q++;
	if (!parse_u64(*p, (size_t)(q - *p), v))
		return false;
	*p = q;
	return true;
}

/* "x,y,z", each part decimal; in parentheses when `paren`. */
static bool parse_triple(const char *p, bool paren, uint64_t v[3])
{
	skip_spaces(&p);
	if (paren && *p++ != '(')
		return false;
	for (int i = 0; i < 3; i++) {
		skip_spaces(&p);
		if (!parse_dec_at(&p, &v[i]))
			return false;
		skip_spaces(&p);
		if (i < 2 && *p++ != ',')
			return false;
	}
	if (paren && *p++ != ')')
		return false;
	skip_spaces(&p);
	return *p == '\0';
}

static bool parse_whole_u64(const char *p, uint64_t *v)
{
	return parse_u64(p, strlen(p), v);
}

/*
 * The '#traces format' words after [mem_addresses]: the fields that trail
 * an instruction line's addresses, one per immediate, immediate1 or
 * immediate2, then a Val|NoVal block when NoVal is named.
 */
static bool parse_format(struct as_state *s, char *line)
{
	char **w = g_strsplit_set(line, " \t", -1);
	bool after = false;

	s->in.n_imm = 0;
	s->in.val_layout = false;
	for (char **p = w; *p; p++) {
		if (!after) {
			after = !strcmp(*p, "[mem_addresses]");
			continue;
		}
		if (!strcmp(*p, "immediate") || !strcmp(*p, "immediate1") ||
		    !strcmp(*p, "immediate2"))
			s->in.n_imm++;
		else if (strstr(*p, "NoVal"))
			s->in.val_layout = true;
	}
	g_strfreev(w);
	return after;
}

static bool header_value(struct trace_reader *t, struct as_state *s,
			 int key, const char *v, uint64_t line, GError **err)
{
	const char *file = s->cur->name;
	struct shown sh;
	uint64_t u, d[3];

	switch (key) {
	case H_NAME:
		if (!*v)
			break;
		if (strpbrk(v, "\"\\")) {
			trace_error(err, file, line,
				    "kernel name contains '\"' or '\\'; expected a name without them");
			return false;
		}
		t->kernel.name = g_string_chunk_insert(t->strings, v);
		return true;
	case H_GRID:
	case H_BLOCK:
		if (!parse_triple(v, true, d) || !d[0] || !d[1] || !d[2] ||
		    d[0] > UINT32_MAX || d[1] > UINT32_MAX || d[2] > UINT32_MAX)
			break;
		if (key == H_GRID) {
			if (d[1] * d[2] > UINT64_MAX / d[0])
				break;
			s->gx = d[0];
			s->gy = d[1];
			s->gz = d[2];
			t->kernel.grid_size = d[0] * d[1] * d[2];
			for (int i = 0; i < 3; i++)
				t->kernel.grid[i] = (uint32_t)d[i];
		} else {
			if (d[0] * d[1] * d[2] > UINT32_MAX)
				break;
			t->kernel.block_size = (uint32_t)(d[0] * d[1] * d[2]);
			for (int i = 0; i < 3; i++)
				t->kernel.block[i] = (uint32_t)d[i];
			s->warps = (t->kernel.block_size + 31) / 32;
		}
		return true;
	case H_SHMEM:
	case H_NREGS:
		if (!parse_whole_u64(v, &u) || u > UINT32_MAX)
			break;
		*(key == H_SHMEM ? &t->kernel.smem : &t->kernel.regs) =
			(uint32_t)u;
		return true;
	case H_STREAM:
		if (!parse_whole_u64(v, &t->kernel.stream_id))
			break;
		return true;
	case H_VERSION: {
		const char *p = v;

		/* "1.2", "3", ...: the integer part decides the grammar */
		if (!parse_dec_at(&p, &u))
			break;
		if (*p == '.') {
			p++;
			if (!parse_dec_at(&p, &d[0]))
				break;
		}
		if (*p || (u != 1 && (u < 3 || u > 6))) {
			trace_error(err, file, line,
				    "accelsim tracer version '%s' is not supported; expected 1.2, 3, 4, 5 or 6",
				    trace_show(&sh, v, strlen(v)));
			return false;
		}
		s->in.version = (unsigned)u;
		return true;
	}
	}
	trace_error(err, file, line, "'-%s = %s' is malformed; expected '%s'",
		    req_key[key], trace_show(&sh, v, strlen(v)), req_form[key]);
	return false;
}

/*
 * Header lines up to the first #BEGIN_TB: "-key = value" lines (the keys
 * of req_key required; '-enable lineinfo' and the shared and local base
 * addresses read when there; other keys ignored), an optional '#traces
 * format' line, blank lines.
 */
static bool read_header(struct trace_reader *t, struct as_state *s,
			bool *begin, GError **err)
{
	const char *file = s->cur->name;
	bool have[N_REQ] = { false }, have_format = false;
	char *line;
	size_t len;
	int rc;

	*begin = false;
	s->in.lineinfo = false;
	while ((rc = lr_next(&s->lr, &line, &len, err)) > 0) {
		char *eq;
		int key;

		line = trim(line, &len);
		if (!len)
			continue;
		if (!strcmp(line, "#BEGIN_TB")) {
			*begin = true;
			break;
		}
		if (g_str_has_prefix(line, "#traces format")) {
			if (!parse_format(s, line)) {
				trace_error(err, file, s->lr.lineno,
					    "'#traces format' names no [mem_addresses]; expected the tracer's operand list");
				return false;
			}
			have_format = true;
			continue;
		}
		eq = line[0] == '-' ? strstr(line, " = ") : NULL;
		if (!eq) {
			trace_error(err, file, s->lr.lineno,
				    "unexpected line before #BEGIN_TB");
			return false;
		}
		*eq = '\0';
		for (key = 0; key < N_REQ; key++)
			if (!strcmp(line + 1, req_key[key]))
				break;
		if (key < N_REQ) {
			if (!header_value(t, s, key, eq + 3, s->lr.lineno, err))
				return false;
			have[key] = true;
		} else if (!strcmp(line + 1, "enable lineinfo")) {
			if (strcmp(eq + 3, "0") && strcmp(eq + 3, "1")) {
				struct shown sh;

				trace_error(err, file, s->lr.lineno,
					    "'-enable lineinfo = %s' is malformed; expected 0 or 1",
					    trace_show(&sh, eq + 3, strlen(eq + 3)));
				return false;
			}
			s->in.lineinfo = eq[3] == '1';
		} else if (!strcmp(line + 1, "shmem base_addr") ||
			   !strcmp(line + 1, "local mem base_addr")) {
			/* the generic windows, for hw classification */
			bool shmem = line[1] == 's';
			const char *v = eq + 3;

			if (!parse_hex64(v, strlen(v), shmem ? &t->kernel.shmem_base
							       : &t->kernel.local_base)) {
				struct shown sh;

				trace_error(err, file, s->lr.lineno,
					    "'-%s = %s' is malformed; expected '-%s = 0xHEX'",
					    line + 1, trace_show(&sh, v, strlen(v)), line + 1);
				return false;
			}
		}
		else if (!strcmp(line + 1, "binary version")) {
			/* the compute capability the kernel was compiled for */
			const char *v = eq + 3;
			uint64_t n;

			if (!parse_u64(v, strlen(v), &n) || n > 1023) {
				struct shown sh;

				trace_error(err, file, s->lr.lineno,
					    "'-binary version = %s' is malformed; expected a compute capability such as 70 or 90",
					    trace_show(&sh, v, strlen(v)));
				return false;
			}
			t->kernel.binary_version = (uint32_t)n;
		}
		/* other keys (kernel id, stream, ...) are informational */
	}
	if (rc < 0)
		return false;
	for (int k = 0; k < N_REQ; k++) {
		if (!have[k]) {
			/* the line where the header ends: #BEGIN_TB, or the
			 * file's last line */
			trace_error(err, file, s->lr.lineno,
				    "the header ending here lacks '%s'", req_form[k]);
			return false;
		}
	}
	if (!have_format) {
		s->in.n_imm = s->in.version < 5 ? 0 : s->in.version == 5 ? 1 : 2;
		s->in.val_layout = s->in.version >= 6;
	}
	return true;
}

static size_t as_kernel_count(const struct trace_reader *t)
{
	const struct as_state *s = t->state;

	return s->entries->len;
}

static uint64_t as_kernel_bytes(struct trace_reader *t, size_t i)
{
	const struct as_state *s = t->state;
	GStatBuf st;
	const struct as_entry *e = &g_array_index(s->entries, struct as_entry, i);

	return g_stat(e->path, &st) == 0 && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
}

static bool pooled_scan(struct trace_reader *t, struct as_state *s, bool first,
			bool stop_early, GError **err);

/* The rest of the first pass, keeping nothing: the current kernel's
 * file is then known to be well-formed. */
static bool finish_first_pass(struct trace_reader *t, struct as_state *s,
			      GError **err)
{
	bool ok;

	s->want = NULL;
	s->n_want = 0;
	s->left = 0;
	ok = pooled_scan(t, s, true, false, err);
	s->validated = ok;
	return ok;
}

static bool as_next_kernel(struct trace_reader *t, bool *end, GError **err)
{
	struct as_state *s = t->state;
	bool begin;

	if (s->cur && !s->validated && lr_is_open(&s->lr) &&
	    !finish_first_pass(t, s, err)) {
		lr_close(&s->lr);
		return false;
	}
	lr_close(&s->lr);
	g_array_set_size(s->seen, 0);
	s->validated = false;
	s->pos = 0;
	if (s->next >= s->entries->len) {
		*end = true;
		return true;
	}
	s->cur = &g_array_index(s->entries, struct as_entry, s->next);
	t->kernel.id = (uint32_t)++s->next;
	t->kernel.trace_file = s->cur->name;
	s->in.name = s->cur->name;
	if (!lr_open(&s->lr, s->cur->path, s->cur->name, NULL, err) ||
	    !read_header(t, s, &begin, err)) {
		lr_close(&s->lr);
		return false;
	}
	s->state = begin ? B_START : B_OUTSIDE;
	if (!begin) {
		/* no blocks at all: nothing left to check */
		s->validated = true;
		lr_close(&s->lr);
	}
	return true;
}

/* ---- small sorted sets -------------------------------------------------- */

/* Index of the first element of a[0..n) not below `id`. */
static size_t lower_seen(const struct seen_block *a, size_t n, uint64_t id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const struct seen_block *find_seen(const struct as_state *s,
					  uint64_t id)
{
	const struct seen_block *a = (const struct seen_block *)s->seen->data;
	size_t i = lower_seen(a, s->seen->len, id);

	return i < s->seen->len && a[i].id == id ? &a[i] : NULL;
}

/* False when `id` is there already.  Files list blocks in ascending order,
 * so the usual insertion is an append. */
static bool add_seen(struct as_state *s, uint64_t id, uint64_t ord)
{
	struct seen_block b = { id, ord };
	const struct seen_block *a = (const struct seen_block *)s->seen->data;
	size_t n = s->seen->len, i;

	if (!n || a[n - 1].id < id) {
		g_array_append_val(s->seen, b);
		return true;
	}
	i = lower_seen(a, n, id);
	if (i < n && a[i].id == id)
		return false;
	g_array_insert_val(s->seen, i, b);
	return true;
}

static bool add_warp(struct as_state *s, uint32_t w)
{
	uint32_t *a = (uint32_t *)s->warps_seen->data;
	size_t n = s->warps_seen->len, i = 0;

	if (!n || a[n - 1] < w) {
		g_array_append_val(s->warps_seen, w);
		return true;
	}
	while (i < n && a[i] < w)
		i++;
	if (a[i] == w)
		return false;
	g_array_insert_val(s->warps_seen, i, w);
	return true;
}

static bool wanted(const struct as_state *s, uint64_t id)
{
	size_t lo = 0, hi = s->n_want;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->want[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->n_want && s->want[lo] == id;
}

/*
 * ---- instruction lines -------------------------------------------------
 *
 * [4 prefix numbers, version < 3] [line number, with lineinfo] PC, active
 * mask, destination count and registers, opcode, source count and
 * registers, [a commit-group token after a GMMA, version 6] memory width;
 * when the width is not 0 an address mode and its addresses; then the
 * trailing fields of '#traces format'.
 */

static inline size_t tlen(const struct as_lines *s, size_t k)
{
	return (size_t)(s->tend[k] - s->tok[k]);
}

/* An error at instruction line s->lineno; false, to end the caller's check. */
#define lines_error(s, err, ...) \
	(trace_error((err), (s)->name, (s)->lineno, __VA_ARGS__), false)

static G_GNUC_NO_INLINE bool bad_token(struct as_lines *s, size_t k,
					const char *what, const char *expect,
					GError **err)
{
	struct shown sh;

	return lines_error(s, err, "%s '%s' is not %s", what,
			   trace_show(&sh, s->tok[k], tlen(s, k)), expect);
}

static bool bad_address(struct as_lines *s, size_t k, const char *what,
			const char *expect, GError **err)
{
	struct shown sh;

	return lines_error(s, err, "cannot decode addresses: %s '%s' is not %s",
			   what, trace_show(&sh, s->tok[k], tlen(s, k)), expect);
}

static G_GNUC_NO_INLINE bool truncated(struct as_lines *s, const char *what,
					GError **err)
{
	return lines_error(s, err, "truncated instruction line: no %s", what);
}

static bool trailing_error(struct as_lines *s, size_t got, GError **err)
{
	if (s->val_layout)
		return lines_error(s, err,
				   "expected %u field%s then Val or NoVal after the operands (per '#traces format'), got %zu",
				   s->n_imm, s->n_imm == 1 ? "" : "s", got);
	return lines_error(s, err,
			   "expected %u field%s after the operands (per '#traces format'), got %zu",
			   s->n_imm, s->n_imm == 1 ? "" : "s", got);
}

/*
 * Split on blanks (any byte up to ' ', so tabs too) into s->tok[k] ..
 * s->tend[k].  Lines are 45 bytes on average and most of the time goes
 * here, so on little-endian hosts eight bytes are looked at a time.
 */
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
#define HIGH_BITS 0x8080808080808080ULL

/* The high bit of every byte up to ' ' (no carry crosses a byte). */
static inline uint64_t blank_bytes(const char *p)
{
	uint64_t x;

	memcpy(&x, p, 8);
	return ~(((x & ~HIGH_BITS) + 0x5f5f5f5f5f5f5f5fULL) | x) & HIGH_BITS;
}

static size_t split(struct as_lines *s, char *p, size_t len)
{
	uint64_t in_token = 0;	/* the previous byte's flag, at bit 7 */
	size_t n_start = 0, n_end = 0;

	/* up to len + 7: the line reader's slack (LR_SLACK) */
	for (size_t off = 0; off <= len; off += 8) {
		uint64_t blank = blank_bytes(p + off), word, b;

		if (len - off < 8)
			blank |= ~0ULL << (8 * (len - off)) & HIGH_BITS;
		word = ~blank & HIGH_BITS;
		/* starts and ends alternate, so the k-th of each pair up */
		for (b = word & (blank << 8 | (in_token ^ 0x80)); b; b &= b - 1)
			s->tok[n_start++] = p + off + (__builtin_ctzll(b) >> 3);
		for (b = blank & (word << 8 | in_token); b; b &= b - 1)
			s->tend[n_end++] = p + off + (__builtin_ctzll(b) >> 3);
		in_token = word >> 56;
	}
	return n_end;
}
#else
static size_t split(struct as_lines *s, char *p, size_t len)
{
	char *q = p, *end = p + len;
	size_t n = 0;

	while (q < end) {
		char *start;

		while (q < end && (unsigned char)*q <= ' ')
			q++;
		if (q == end)
			break;
		start = q;
		while (q < end && (unsigned char)*q > ' ')
			q++;
		s->tok[n] = start;
		s->tend[n++] = q;
	}
	return n;
}
#endif

static size_t tokenize(struct as_lines *s, char *p, size_t len)
{
	size_t most = len / 2 + 1;	/* "a b c" */

	if (s->cap_tok < most) {
		s->cap_tok = MAX(most, 64);
		s->tok = g_renew(char *, s->tok, s->cap_tok);
		s->tend = g_renew(char *, s->tend, s->cap_tok);
	}
	return split(s, p, len);
}

static bool contains(const char *s, size_t n, const char *what)
{
	size_t m = strlen(what);

	for (size_t i = 0; i + m <= n; i++)
		if (!memcmp(s + i, what, m))
			return true;
	return false;
}

static bool is_val(const struct as_lines *s, size_t k)
{
	size_t n = tlen(s, k);

	return (n == 3 && !memcmp(s->tok[k], "Val", 3)) ||
		(n == 5 && !memcmp(s->tok[k], "NoVal", 5));
}

static inline bool decimal_field(struct as_lines *s, size_t k,
				 const char *what, uint64_t max, uint64_t *v,
				 GError **err)
{
	if (G_LIKELY(parse_u64(s->tok[k], tlen(s, k), v) && *v <= max))
		return true;
	return bad_token(s, k, what, max == UINT64_MAX ? "an unsigned decimal"
			 : "a register count (0 to 32)", err);
}

/* Registers: R<n>, UR<n>, P<n>, UP<n>, ...: a name, never a number. */
static inline bool registers(struct as_lines *s, size_t *i, size_t nt,
			     const char *count_what, const char *reg_what,
			     GError **err)
{
	uint64_t n = 0;

	if (G_UNLIKELY(*i >= nt))
		return truncated(s, count_what, err);
	if (!decimal_field(s, (*i)++, count_what, 32, &n, err))
		return false;
	for (uint64_t r = 0; r < n; r++, (*i)++) {
		if (G_UNLIKELY(*i >= nt))
			return truncated(s, reg_what, err);
		if (G_UNLIKELY(!g_ascii_isupper(s->tok[*i][0])))
			return bad_token(s, *i, reg_what, "a register name", err);
	}
	return true;
}

/*
 * The lanes' addresses of a line with memw > 0 into lanes[0..n-1], the
 * payload starting at token i; `stop` = where the trailing fields and
 * the Val block can begin (the first Val|NoVal, or the line's end).
 */
static bool decode(struct as_lines *s, size_t i, size_t stop, uint32_t n,
		   uint64_t *lanes, GError **err)
{
	uint64_t mode, base;
	struct shown sh;
	size_t avail;
	int64_t d;

	if (stop <= i)
		return lines_error(s, err,
				   "cannot decode addresses: no address mode after the memory width");
	avail = stop - i - 1;	/* tokens after the mode */
	if (!parse_u64(s->tok[i], tlen(s, i), &mode))
		return bad_address(s, i, "mode", "a number", err);
	i++;
	switch (mode) {
	case 0:
		if (avail < n)
			return lines_error(s, err,
					   "cannot decode addresses: mode 0 with %zu addresses for %u active lanes",
					   avail, n);
		for (uint32_t k = 0; k < n; k++, i++)
			if (!parse_hex64(s->tok[i], tlen(s, i), &lanes[k]))
				return bad_address(s, i, "address",
						   "hexadecimal", err);
		if (avail - n != s->n_imm)
			return trailing_error(s, avail - n, err);
		return true;
	case 1:
		if (avail < 2)
			return lines_error(s, err,
					   "cannot decode addresses: mode 1 needs a base address and a stride");
		if (!parse_hex64(s->tok[i], tlen(s, i), &base))
			return bad_address(s, i, "base address", "hexadecimal",
					   err);
		if (!parse_i64(s->tok[i + 1], tlen(s, i + 1), &d) ||
		    d < INT32_MIN || d > INT32_MAX)
			return bad_address(s, i + 1, "stride",
					   "a signed 32-bit decimal", err);
		if (avail - 2 != s->n_imm)
			return trailing_error(s, avail - 2, err);
		for (uint32_t k = 0; k < n; k++)
			lanes[k] = base + (uint64_t)d * k;
		return true;
	case 2: {
		size_t deltas;

		if (avail < 1)
			return lines_error(s, err,
					   "cannot decode addresses: mode 2 without a base address");
		if (avail - 1 < s->n_imm)
			return trailing_error(s, avail - 1, err);
		deltas = avail - 1 - s->n_imm;
		/* n - 1 from Accel-Sim's tracer, n from other writers */
		if (deltas != n && deltas + 1 != n)
			return lines_error(s, err,
					   "mode 2 with %zu deltas for %u active lanes",
					   deltas, n);
		if (!parse_hex64(s->tok[i], tlen(s, i), &base))
			return bad_address(s, i, "base address", "hexadecimal",
					   err);
		if (n)
			lanes[0] = base;
		for (size_t k = 1; k <= deltas; k++) {
			if (!parse_i64(s->tok[i + k], tlen(s, i + k), &d))
				return bad_address(s, i + k, "delta",
						   "a signed 64-bit decimal", err);
			if (k < n)	/* the variant's n-th delta is unused */
				lanes[k] = lanes[k - 1] + (uint64_t)d;
		}
		return true;
	}
	}
	return lines_error(s, err, "cannot decode addresses: unknown mode %s",
			   trace_show(&sh, s->tok[i - 1], tlen(s, i - 1)));
}

/*
 * A decoded memory instruction into the block being built: the op's
 * class decides whether it is kept (loads, stores, atomics...), counted
 * (shared, unknown spaces) or dropped; lanes[0..n-1] are the addresses of
 * mask's active lanes.  op ends at op_end, where a NUL is written.
 */
static bool keep_line(struct as_lines *s, char *op,
		      size_t baselen, char *op_end, uint64_t mask, uint32_t n,
		      const uint64_t *lanes, uint64_t round, GError **err)
{
	struct op_base base = op_base_of(op, baselen);
	uint32_t m = 0, listed = 0;
	uint64_t *dst;

	if (base.cls < OP_LOAD) {
		/* shared address 0 is a real address: the mask decides */
		if (base.cls == OP_SHARED) {
			s->l->build.n_shared += mask != 0;
		} else if (base.cls == OP_UNKNOWN) {
			uint32_t k = 0;

			while (k < n && !lanes[k])
				k++;
			s->l->build.n_unknown += k < n;
		}
		return true;
	}
	dst = builder_reserve(&s->l->build, n);
	/* the k-th active lane is the k-th set bit of the mask */
	for (uint32_t k = 0, rest = (uint32_t)mask; k < n; k++, rest &= rest - 1) {
		if (lanes[k]) {
			dst[m++] = lanes[k];
			listed |= rest & -rest;
		}
	}
	if (!m)
		return true;
	if (round > UINT32_MAX)
		return lines_error(s, err, "warp %u has more than %u instruction lines",
				   s->warp, UINT32_MAX);
	*op_end = '\0';	/* a blank, or the line's end */
	builder_add(&s->l->build, round << 32 | s->warp,
		    loader_intern(s->t, s->l, op, (size_t)(op_end - op)), m,
		    s->warp, listed);
	return true;
}

/* TMA and bulk copies carry a payload of their own: dropped unread. */
static inline bool is_bulk_copy(const char *op, size_t baselen)
{
	return baselen >= 4 && (!memcmp(op, "UTMA", 4) || !memcmp(op, "UBLK", 4));
}

/*
 * The exact parser: the line cut into tokens first, each field checked,
 * every malformed one reported.  Well-formed lines mostly take the one-pass
 * fast_instruction() below instead.
 */
static bool slow_instruction(struct as_lines *s,
			     char *line, size_t len, uint64_t round,
			     GError **err)
{
	size_t nt = tokenize(s, line, len), i = 0, stop, baselen, opi;
	uint64_t v, mask, memw = 0;
	uint64_t lanes[32];
	const char *dot;
	char *op;
	uint32_t n;

	if (s->version < 3) {
		for (int k = 0; k < 4; k++, i++) {
			if (i >= nt)
				return truncated(s, "thread block and warp prefix",
						 err);
			if (!decimal_field(s, i, "prefix field", UINT64_MAX, &v,
					   err))
				return false;
		}
	}
	if (s->lineinfo) {
		if (i >= nt)
			return truncated(s, "line number", err);
		if (!decimal_field(s, i++, "line number", UINT64_MAX, &v, err))
			return false;
	}
	if (i >= nt)
		return truncated(s, "PC", err);
	if (!parse_hex64(s->tok[i], tlen(s, i), &v))
		return bad_token(s, i, "PC", "hexadecimal", err);
	if (++i >= nt)
		return truncated(s, "active mask", err);
	if (!parse_hex64(s->tok[i], tlen(s, i), &mask) || mask > UINT32_MAX)
		return bad_token(s, i, "active mask", "a 32-bit hexadecimal mask",
				 err);
	i++;
	if (!registers(s, &i, nt, "destination count", "destination register",
		       err))
		return false;
	if (i >= nt)
		return truncated(s, "opcode", err);
	opi = i++;
	op = s->tok[opi];
	dot = memchr(op, '.', tlen(s, opi));
	baselen = dot ? (size_t)(dot - op) : tlen(s, opi);
	/* counted as instructions of no known space */
	if (is_bulk_copy(op, baselen)) {
		s->l->build.n_unknown += s->keep && mask;
		return true;
	}
	if (!registers(s, &i, nt, "source count", "source register", err))
		return false;
	if (s->version >= 6 && contains(op, baselen, "GMMA")) {
		if (i >= nt)
			return truncated(s, "GMMA commit-group token", err);
		i++;
	}
	if (i >= nt)
		return truncated(s, "memory width", err);
	if (!decimal_field(s, i++, "memory width", UINT64_MAX, &memw, err))
		return false;
	stop = nt;
	if (s->val_layout) {
		for (stop = i; stop < nt && !is_val(s, stop); stop++)
			;
		if (stop == nt)
			return lines_error(s, err,
					   "expected %u field%s then Val or NoVal after the operands (per '#traces format'), got no Val or NoVal",
					   s->n_imm, s->n_imm == 1 ? "" : "s");
	}
	if (!memw) {
		if (stop - i != s->n_imm)
			return trailing_error(s, stop - i, err);
		return true;
	}
	n = (uint32_t)__builtin_popcount((uint32_t)mask);
	if (!decode(s, i, stop, n, lanes, err))
		return false;
	if (!s->keep)
		return true;
	return keep_line(s, op, baselen, s->tend[opi], mask, n, lanes, round,
			 err);
}

/*
 * ---- the fast path ----
 * Cutting a line into tokens and then parsing each token costs about twice
 * what one pass from left to right does, and nearly every line is well
 * formed.  fast_instruction() reads a line in one pass and gives up
 * (returns false) at anything it does not take -- a field that does not
 * parse, a number of more than 18 digits, a count that does not match,
 * the Val layout -- before it has changed any state; the line then goes
 * to slow_instruction(), which decides it and words any error.  So the
 * two read every line they both take alike, and only the exact parser
 * ever reports.  tests/test-trace.c checks both on the same lines.
 */
static inline bool is_blank(char c)
{
	return (unsigned char)c <= ' ';
}

static inline char *skip_blanks(char *p, const char *end)
{
	while (p < end && is_blank(*p))
		p++;
	return p;
}

/* The end of the token at p (the line's NUL ends the last one). */
static inline char *token_end(char *p)
{
	while (!is_blank(*p))
		p++;
	return p;
}

/* A decimal token of 1 to 18 digits: its end, else NULL. */
static inline char *fast_u64(char *p, uint64_t *v)
{
	uint64_t acc = 0;
	char *q = p;
	unsigned d;

	while ((d = (unsigned)(unsigned char)*q - '0') < 10) {
		acc = acc * 10 + d;	/* wraps only past 19 digits: refused */
		q++;
	}
	if (q == p || q - p > 18 || !is_blank(*q))
		return NULL;
	*v = acc;
	return q;
}

static inline char *fast_i64(char *p, int64_t *v)
{
	bool neg = *p == '-';
	uint64_t mag;

	if (*p == '-' || *p == '+')
		p++;
	if (!(p = fast_u64(p, &mag)))
		return NULL;
	*v = neg ? -(int64_t)mag : (int64_t)mag;
	return p;
}

/* A hexadecimal token, 0x or not, of at most 15 digits: its end, or NULL. */
static inline char *fast_hex(char *p, uint64_t *v)
{
	const char *q;

	if (p[0] == '0' && (p[1] | 0x20) == 'x')
		p += 2;
	q = scan_hex(p, v);
	if (!q || q == p || !is_blank(*q))
		return NULL;
	return (char *)q;
}

/* n register names (each starts upper case) after their count. */
static inline char *fast_registers(char *p, const char *end)
{
	uint64_t n;

	if (!(p = fast_u64(skip_blanks(p, end), &n)) || n > 32)
		return NULL;
	while (n--) {
		p = skip_blanks(p, end);
		if (!g_ascii_isupper(*p))
			return NULL;
		p = token_end(p);
	}
	return p;
}

/* Exactly `want` more tokens to the line's end. */
static inline bool fast_rest_is(char *p, const char *end, unsigned want)
{
	for (unsigned got = 0;; got++) {
		p = skip_blanks(p, end);
		if (p == end)
			return got == want;
		if (got == want)
			return false;
		p = token_end(p);
	}
}

static bool fast_instruction(struct as_lines *s,
			     char *line, size_t len, uint64_t round,
			     bool *ok, GError **err)
{
	char *p = line, *end = line + len, *op, *op_end;
	uint64_t v, mask, memw, mode, base;
	uint64_t lanes[32];
	int64_t d;
	size_t baselen;
	const char *dot;
	uint32_t n;

	for (int k = s->version < 3 ? 4 : 0; k > 0; k--)
		if (!(p = fast_u64(skip_blanks(p, end), &v)))
			return false;
	if (s->lineinfo && !(p = fast_u64(skip_blanks(p, end), &v)))
		return false;
	if (!(p = fast_hex(skip_blanks(p, end), &v)))		/* PC */
		return false;
	if (!(p = fast_hex(skip_blanks(p, end), &mask)) || mask > UINT32_MAX)
		return false;
	if (!(p = fast_registers(p, end)))
		return false;
	op = skip_blanks(p, end);
	if (op == end)
		return false;
	op_end = p = token_end(op);
	dot = memchr(op, '.', (size_t)(op_end - op));
	baselen = dot ? (size_t)(dot - op) : (size_t)(op_end - op);
	if (is_bulk_copy(op, baselen)) {
		s->l->build.n_unknown += s->keep && mask;
		*ok = true;
		return true;
	}
	if (!(p = fast_registers(p, end)))
		return false;
	if (s->version >= 6 && contains(op, baselen, "GMMA")) {
		p = skip_blanks(p, end);
		if (p == end)
			return false;
		p = token_end(p);
	}
	if (!(p = fast_u64(skip_blanks(p, end), &memw)))
		return false;
	if (!memw) {
		if (!fast_rest_is(p, end, s->n_imm))
			return false;
		*ok = true;
		return true;
	}
	n = (uint32_t)__builtin_popcount((uint32_t)mask);
	if (!(p = fast_u64(skip_blanks(p, end), &mode)))
		return false;
	switch (mode) {
	case 0:
		for (uint32_t k = 0; k < n; k++)
			if (!(p = fast_hex(skip_blanks(p, end), &lanes[k])))
				return false;
		break;
	case 1:
		if (!(p = fast_hex(skip_blanks(p, end), &base)) ||
		    !(p = fast_i64(skip_blanks(p, end), &d)) ||
		    d < INT32_MIN || d > INT32_MAX)
			return false;
		for (uint32_t k = 0; k < n; k++)
			lanes[k] = base + (uint64_t)d * k;
		break;
	case 2:
		/*
		 * n - 1 deltas (Accel-Sim's tracer; the other count, n, is
		 * left to the exact parser)
		 */
		if (!n || !(p = fast_hex(skip_blanks(p, end), &base)))
			return false;
		lanes[0] = base;
		for (uint32_t k = 1; k < n; k++) {
			if (!(p = fast_i64(skip_blanks(p, end), &d)))
				return false;
			lanes[k] = lanes[k - 1] + (uint64_t)d;
		}
		break;
	default:
		return false;
	}
	if (!fast_rest_is(p, end, s->n_imm))
		return false;
	*ok = !s->keep || keep_line(s, op, baselen, op_end, mask, n, lanes,
				    round, err);
	return true;
}

/* Instruction line `round` of warp s->warp, at line s->lineno. */
static bool read_instruction(struct as_lines *s, char *line, size_t len,
			     uint64_t round, GError **err)
{
	bool ok;

	if (!s->val_layout && fast_instruction(s, line, len, round, &ok, err))
		return ok;
	return slow_instruction(s, line, len, round, err);
}

/*
 * ---- a load's blocks read on several threads ----------------------------
 *
 * An Accel-Sim kernel is one file, read in order, and nearly all of the
 * reading is its instruction lines.  With a pool, the reading thread still
 * follows the file's structure (blocks, warps, counts: every check but an
 * instruction line's) and decides which blocks are kept, but copies a
 * block's instruction lines into a slab, with each line's number, warp and
 * round, and queues it; the pool's threads read the slabs (read_slab) and
 * store the blocks kept.  When the queue is full the reading thread reads
 * the block's lines itself as it meets them, so the work is shared whatever
 * the threads' speeds, and a block whose text outgrows SLAB_MAX is read
 * the same way from there on (its slab first), so memory stays bounded.
 *
 * The results are those of one thread: a block is built from the same
 * lines in the same order whoever reads it, blocks are stored by id, and
 * interned opcodes are texts.  The error is the one a single thread meets
 * first.  Slabs are numbered in file order; every line of every slab lies
 * before where the reading thread is, so the failure of the lowest slab,
 * if any, comes first, else the reading thread's own; a block's slab that
 * an error of the reading thread cut short is queued too, since its lines
 * come before that error.  Once a slab has failed the reading thread stops
 * at the next block and the pool skips the slabs after it.
 */

/* (tests/test-accelsim-pool.c sets these small, to reach every path) */
#ifndef SLAB_MAX
/* A block's text held for the pool, at most (it is read in place above) */
#define SLAB_MAX (4u << 20)
#endif
#ifndef POOL_QUEUE
/* Slabs queued, at most */
#define POOL_QUEUE 4
#endif
#ifndef POOL_CORES
#define POOL_CORES() MAX(g_get_num_processors(), 1u)
#endif

/* An instruction line in a slab: this, the text, its NUL, to 8 bytes. */
struct slab_line {
	uint64_t lineno, round;
	uint32_t warp, len;
};

struct as_slab {
	uint64_t seq;			/* its place among the pool's slabs */
	uint64_t blk;
	bool keep;			/* its lines are built, not only checked */
	bool finish;			/* the block is stored when they are */
	char *buf;			/* slab_line records, then LR_SLACK zeros */
	size_t len, cap;
	struct as_slab *next;		/* in the spare list */
};

struct as_worker {
	struct as_pool *pool;
	struct as_lines in;
	struct block_loader l;
	GThread *th;
};

struct as_pool {
	/* a pthread mutex and conditions, which ThreadSanitizer sees */
	pthread_mutex_t mu;
	pthread_cond_t more;		/* a slab queued, or closing */
	struct as_slab *queue[POOL_QUEUE];
	unsigned head, n;		/* queued: queue[head], ... */
	struct as_slab *spare;		/* read, kept for their buffers */
	bool closing;
	uint64_t next_seq;
	int failed;			/* atomic: fail is set */
	uint64_t fail_seq;		/* the lowest slab that failed */
	GError *fail;			/* its error */
	struct as_slab *cur;		/* the reading thread's, NULL: read in place */
	unsigned n_workers;
	struct as_worker *w;
};

/* Slab b, read or given up, back to the spare list for its buffer. */
static void pool_spare(struct as_pool *p, struct as_slab *b)
{
	pthread_mutex_lock(&p->mu);
	b->next = p->spare;
	p->spare = b;
	pthread_mutex_unlock(&p->mu);
}

/* The pool's memory, once its threads are joined (or none started). */
static void pool_free(struct as_pool *p)
{
	while (p->spare) {
		struct as_slab *b = p->spare;

		p->spare = b->next;
		g_free(b->buf);
		g_free(b);
	}
	pthread_cond_destroy(&p->more);
	pthread_mutex_destroy(&p->mu);
	g_free(p->w);
	g_free(p);
}

/* A slab's records: false with *err at the first line that fails. */
static bool read_slab(struct as_lines *x, struct as_slab *b, GError **err)
{
	x->keep = b->keep;
	if (b->keep)
		builder_reset(&x->l->build);
	for (size_t at = 0; at < b->len;) {
		struct slab_line h;
		char *text = b->buf + at + sizeof(h);

		memcpy(&h, b->buf + at, sizeof(h));
		x->lineno = h.lineno;
		x->warp = h.warp;
		if (!read_instruction(x, text, h.len, h.round, err))
			return false;
		at += (sizeof(h) + h.len + 1 + 7) & ~(size_t)7;
	}
	return !b->finish || trace_store_block(x->t, &x->l->build, b->blk, true, err);
}

/*
 * The next queued slab read with x (the failure, if it is the lowest so
 * far, kept): false when none is queued and, with `wait`, none will be.
 */
static bool pool_read_next(struct as_pool *p, struct as_lines *x, bool wait)
{
	struct as_slab *b;
	GError *e = NULL;
	bool skip;

	pthread_mutex_lock(&p->mu);
	while (wait && !p->n && !p->closing)
		pthread_cond_wait(&p->more, &p->mu);
	if (!p->n) {
		pthread_mutex_unlock(&p->mu);
		return false;
	}
	b = p->queue[p->head];
	p->head = (p->head + 1) % POOL_QUEUE;
	p->n--;
	skip = p->fail && b->seq > p->fail_seq;
	pthread_mutex_unlock(&p->mu);
	if (!skip && !read_slab(x, b, &e)) {
		pthread_mutex_lock(&p->mu);
		if (!p->fail || b->seq < p->fail_seq) {
			g_clear_error(&p->fail);
			p->fail = e;
			p->fail_seq = b->seq;
			g_atomic_int_set(&p->failed, 1);
		} else {
			g_error_free(e);
		}
		pthread_mutex_unlock(&p->mu);
	}
	pool_spare(p, b);
	return true;
}

static gpointer pool_worker(gpointer data)
{
	struct as_worker *w = data;

	ss_interrupt_enter_thread();
	while (pool_read_next(w->pool, &w->in, true))
		;
	ss_interrupt_leave_thread();
	return NULL;
}

/*
 * A pool of up to `n` threads for the scan that follows (n of 0 or a
 * thread that cannot be had: none; the scan reads alone).
 */
static void pool_start(struct as_state *s, unsigned n)
{
	struct as_pool *p;

	if (!n)
		return;
	p = g_new0(struct as_pool, 1);
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->more, NULL);
	p->w = g_new0(struct as_worker, n);
	for (unsigned i = 0; i < n; i++) {
		struct as_worker *w = &p->w[p->n_workers];

		w->pool = p;
		w->in = s->in;
		w->in.tok = w->in.tend = NULL;
		w->in.cap_tok = 0;
		loader_init(&w->l);
		w->in.l = &w->l;
		w->th = g_thread_try_new("sectorsim-read", pool_worker, w, NULL);
		if (!w->th) {
			loader_free(&w->l);
			break;
		}
		p->n_workers++;
	}
	if (!p->n_workers) {
		pool_free(p);
		return;
	}
	s->pool = p;
}

/* A slab for block s->blk, or NULL (the queue is full: read in place). */
static struct as_slab *pool_slab(struct as_state *s)
{
	struct as_pool *p = s->pool;
	struct as_slab *b;

	pthread_mutex_lock(&p->mu);
	if (p->n == POOL_QUEUE) {
		pthread_mutex_unlock(&p->mu);
		return NULL;
	}
	if ((b = p->spare))
		p->spare = b->next;
	pthread_mutex_unlock(&p->mu);
	if (!b)
		b = g_new0(struct as_slab, 1);
	s->n_slabs++;
	b->seq = p->next_seq++;
	b->blk = s->blk;
	b->keep = s->in.keep;
	b->finish = false;
	b->len = 0;
	return b;
}

/* The reading thread's slab to the workers (the queue has room: only the
 * reading thread fills it, and it took the slab with room to spare). */
static void pool_queue(struct as_pool *p, struct as_slab *b)
{
	pthread_mutex_lock(&p->mu);
	p->queue[(p->head + p->n) % POOL_QUEUE] = b;
	p->n++;
	pthread_cond_signal(&p->more);
	pthread_mutex_unlock(&p->mu);
}

/*
 * The block's lines so far, kept in its slab, are read here after all
 * (it outgrew SLAB_MAX): the rest of the block is read as it comes.
 */
static bool slab_to_reader(struct as_state *s, GError **err)
{
	struct as_pool *p = s->pool;
	struct as_slab *b = p->cur;
	uint32_t warp = s->in.warp;
	bool ok;

	p->cur = NULL;
	s->n_taken_back++;
	ok = read_slab(&s->in, b, err);
	s->in.warp = warp;
	pool_spare(p, b);
	return ok;
}

/* Line `line` (len bytes), instruction `round` of s->in.warp, into the
 * slab. */
static void slab_add(struct as_slab *b, const struct as_state *s,
		     const char *line, size_t len, uint64_t round)
{
	struct slab_line h = {
		.lineno = s->lr.lineno, .round = round,
		.warp = s->in.warp, .len = (uint32_t)len,
	};
	size_t text = b->len + sizeof(h), end = text + len;
	size_t need = (end + 1 + 7) & ~(size_t)7;	/* b->len is a multiple of 8 */

	if (need + LR_SLACK > b->cap) {
		b->cap = MAX(need + LR_SLACK, 2 * b->cap);
		b->buf = g_realloc(b->buf, b->cap);
	}
	memcpy(b->buf + b->len, &h, sizeof(h));
	memcpy(b->buf + text, line, len);
	/* the NUL, the padding and the slack a scanner may read */
	memset(b->buf + end, 0, need + LR_SLACK - end);
	b->len = need;
}

/*
 * The end of the pool: the reading thread's slab, if a block was cut
 * short, queued; the workers joined.  `ok` and *scan_err: how the scan
 * ended.  The result is the first failure in file order, into *err.
 */
static bool pool_end(struct as_state *s, bool ok, GError *scan_err, GError **err)
{
	struct as_pool *p = s->pool;

	if (!p) {
		if (scan_err)
			g_propagate_error(err, scan_err);
		return ok;
	}
	if (p->cur) {
		if (p->cur->len)
			pool_queue(p, p->cur);
		else
			pool_spare(p, p->cur);
		p->cur = NULL;
	}
	/* what is queued is read here too, rather than waited for */
	while (pool_read_next(p, &s->in, false))
		;
	pthread_mutex_lock(&p->mu);
	p->closing = true;
	pthread_cond_broadcast(&p->more);
	pthread_mutex_unlock(&p->mu);
	for (unsigned i = 0; i < p->n_workers; i++) {
		g_thread_join(p->w[i].th);
		g_free(p->w[i].in.tok);
		g_free(p->w[i].in.tend);
		loader_free(&p->w[i].l);
	}
	if (p->fail) {
		g_clear_error(&scan_err);
		g_propagate_error(err, p->fail);
		ok = false;
	} else if (scan_err) {
		g_propagate_error(err, scan_err);
	}
	pool_free(p);
	s->pool = NULL;
	return ok;
}

static bool instruction(struct as_state *s, char *line, size_t len, GError **err)
{
	if (s->pool && s->pool->cur) {
		slab_add(s->pool->cur, s, line, len, s->n_insts++);
		return s->pool->cur->len <= SLAB_MAX || slab_to_reader(s, err);
	}
	s->in.lineno = s->lr.lineno;
	return read_instruction(&s->in, line, len, s->n_insts++, err);
}

/*
 * ---- blocks and warps --------------------------------------------------
 *
 * #BEGIN_TB, 'thread block = x,y,z', then per warp 'warp = w', 'insts = K'
 * and K instruction lines, #END_TB.
 */

/* The value of "key = value", or NULL when the line is not that. */
static const char *after_key(const char *p, const char *key)
{
	size_t n = strlen(key);

	if (strncmp(p, key, n))
		return NULL;
	p += n;
	skip_spaces(&p);
	if (*p != '=')
		return NULL;
	p++;
	skip_spaces(&p);
	return p;
}

static bool end_warp(struct as_state *s, GError **err)
{
	if (s->n_insts == s->insts)
		return true;
	trace_error(err, s->lr.name, s->insts_line,
		    "warp %u: 'insts = %" G_GUINT64_FORMAT "' but %" G_GUINT64_FORMAT " instruction lines",
		    s->in.warp, s->insts, s->n_insts);
	return false;
}

static bool end_block(struct trace_reader *t, struct as_state *s,
		      GError **err)
{
	s->state = B_OUTSIDE;
	if (s->pool && s->pool->cur) {
		struct as_slab *b = s->pool->cur;

		s->pool->cur = NULL;
		b->finish = b->keep;
		s->left -= b->keep;
		pool_queue(s->pool, b);
		return true;
	}
	if (!s->in.keep)
		return true;
	s->left--;
	return trace_store_block(t, &s->in.l->build, s->blk, true, err);
}

/* A value of a block or warp line as a message quotes it. */
#define show(v) trace_show(&(struct shown){ { 0 } }, (v), strlen(v))

#define TB_FMT "(%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ")"

/* trace_find_block() while the pool's threads may be storing blocks. */
static const struct gpu_block *find_block(struct trace_reader *t, uint64_t id)
{
	const struct gpu_block *b;

	pthread_mutex_lock(&t->lock);
	b = trace_find_block(t, id);
	pthread_mutex_unlock(&t->lock);
	return b;
}

static bool thread_block(struct trace_reader *t, struct as_state *s,
			 const char *v, bool first, GError **err)
{
	uint64_t d[3];

	if (s->state == B_OUTSIDE)
		return line_error(s, err,
				  "line outside a thread block; expected #BEGIN_TB");
	if (s->state != B_START)
		return line_error(s, err,
				  "second 'thread block' line in thread block " TB_FMT,
				  s->bx, s->by, s->bz);
	if (!parse_triple(v, false, d))
		return line_error(s, err,
				  "'thread block = %s' is malformed; expected 'thread block = x,y,z'",
				  show(v));
	if (d[0] >= s->gx || d[1] >= s->gy || d[2] >= s->gz)
		return line_error(s, err,
				  "thread block " TB_FMT " is outside the grid " TB_FMT,
				  d[0], d[1], d[2], s->gx, s->gy, s->gz);
	s->bx = d[0];
	s->by = d[1];
	s->bz = d[2];
	s->blk = (d[2] * s->gy + d[1]) * s->gx + d[0];
	if (first && !add_seen(s, s->blk, s->pos))
		return line_error(s, err, "thread block " TB_FMT " listed twice",
				  d[0], d[1], d[2]);
	s->pos++;
	s->in.keep = wanted(s, s->blk) && !find_block(t, s->blk);
	if (s->pool) {
		/* a block before this one failed: it is the error */
		if (g_atomic_int_get(&s->pool->failed))
			return false;
		s->pool->cur = pool_slab(s);
	}
	if (s->in.keep && !(s->pool && s->pool->cur))
		builder_reset(&s->in.l->build);
	g_array_set_size(s->warps_seen, 0);
	s->state = B_BLOCK;
	return true;
}

static bool warp_line(struct as_state *s, const char *v, GError **err)
{
	uint64_t w;

	switch (s->state) {
	case B_OUTSIDE:
		return line_error(s, err,
				  "line outside a thread block; expected #BEGIN_TB");
	case B_START:
		return line_error(s, err,
				  "'warp = %s' before 'thread block = x,y,z'", show(v));
	case B_WARP_HDR:
		return line_error(s, err, "warp %u: 'warp = %s' before 'insts = K'",
				  s->in.warp, show(v));
	case B_WARP:
		if (!end_warp(s, err))
			return false;
		break;
	case B_BLOCK:
		break;
	}
	if (!parse_whole_u64(v, &w) || w > UINT32_MAX)
		return line_error(s, err, "'warp = %s' is malformed; expected 'warp = N'",
				  show(v));
	if (w >= s->warps)
		return line_error(s, err,
				  "warp %" G_GUINT64_FORMAT " is outside the thread block of %" G_GUINT64_FORMAT " warps",
				  w, s->warps);
	if (!add_warp(s, (uint32_t)w))
		return line_error(s, err,
				  "warp %" G_GUINT64_FORMAT " listed twice in thread block " TB_FMT,
				  w, s->bx, s->by, s->bz);
	s->in.warp = (uint32_t)w;
	s->state = B_WARP_HDR;
	return true;
}

static bool insts_line(struct as_state *s, const char *v, GError **err)
{
	switch (s->state) {
	case B_OUTSIDE:
		return line_error(s, err,
				  "line outside a thread block; expected #BEGIN_TB");
	case B_START:
	case B_BLOCK:
		return line_error(s, err, "'insts = %s' before 'warp = w'",
				  show(v));
	case B_WARP:
		return line_error(s, err, "warp %u: a second 'insts =' line",
				  s->in.warp);
	case B_WARP_HDR:
		break;
	}
	if (!parse_whole_u64(v, &s->insts))
		return line_error(s, err,
				  "'insts = %s' is malformed; expected 'insts = K'",
				  show(v));
	s->n_insts = 0;
	s->insts_line = s->lr.lineno;
	s->state = B_WARP;
	return true;
}

/* A line that is no block or warp keyword, outside a warp's instructions. */
static bool stray_line(struct as_state *s, const char *p, GError **err)
{
	struct shown sh;

	switch (s->state) {
	case B_OUTSIDE:
		return line_error(s, err,
				  "line outside a thread block; expected #BEGIN_TB");
	case B_START:
	case B_BLOCK:
		return line_error(s, err, "instruction line before 'warp = w'");
	case B_WARP_HDR:
		return line_error(s, err,
				  "warp %u: instruction line before 'insts = K'",
				  s->in.warp);
	case B_WARP:
		break;
	}
	return line_error(s, err, "unexpected line '%s' in warp %u",
			  trace_show(&sh, p, strlen(p)), s->in.warp);
}

/*
 * Read the body from where the stream is.  `first`: the first pass, which
 * records the blocks it sees.  `stop_early`: return once the blocks wanted
 * are built (s->left == 0) instead of going on to the end.
 */
static bool scan(struct trace_reader *t, struct as_state *s, bool first,
		 bool stop_early, GError **err)
{
	struct line_reader *r = &s->lr;
	const char *v;
	char *line;
	size_t len;
	int rc;

	if (stop_early && !s->left)
		return true;
	while ((rc = lr_next(r, &line, &len, err)) > 0) {
		char *p = line;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			continue;
		/* instruction lines start with a PC, line number or prefix */
		if (s->state == B_WARP && g_ascii_isxdigit(*p) &&
		    (*p != 'c' || !g_str_has_prefix(p, "cluster"))) {
			if (!instruction(s, p, len - (size_t)(p - line), err))
				return false;
			continue;
		}
		len = strlen(p);
		p = trim(p, &len);
		if (!strcmp(p, "#BEGIN_TB")) {
			if (s->state == B_START)
				return line_error(s, err,
						  "#BEGIN_TB after #BEGIN_TB; expected 'thread block = x,y,z'");
			if (s->state != B_OUTSIDE)
				return line_error(s, err,
						  "#BEGIN_TB inside thread block " TB_FMT "; expected #END_TB first",
						  s->bx, s->by, s->bz);
			s->state = B_START;
		} else if (!strcmp(p, "#END_TB")) {
			switch (s->state) {
			case B_OUTSIDE:
				return line_error(s, err,
						  "#END_TB outside a thread block");
			case B_START:
				return line_error(s, err,
						  "#END_TB before 'thread block = x,y,z'");
			case B_WARP_HDR:
				return line_error(s, err,
						  "warp %u: #END_TB before 'insts = K'",
						  s->in.warp);
			case B_WARP:
				if (!end_warp(s, err))
					return false;
				break;
			case B_BLOCK:
				break;
			}
			if (!end_block(t, s, err))
				return false;
			if (stop_early && !s->left)
				return true;
		} else if ((v = after_key(p, "thread block"))) {
			if (!thread_block(t, s, v, first, err))
				return false;
		} else if ((v = after_key(p, "warp"))) {
			if (!warp_line(s, v, err))
				return false;
		} else if ((v = after_key(p, "insts"))) {
			if (!insts_line(s, v, err))
				return false;
		} else if (g_str_has_prefix(p, "cluster ")) {
			/* Hopper-era cluster id / cta / rank: not used */
			if (s->state != B_START && s->state != B_BLOCK)
				return stray_line(s, p, err);
		} else if (!stray_line(s, p, err)) {
			return false;
		}
	}
	if (rc < 0)
		return false;
	if (s->state == B_START)
		return line_error(s, err,
				  "file ends after #BEGIN_TB; expected 'thread block = x,y,z' and #END_TB");
	if (s->state != B_OUTSIDE)
		return line_error(s, err,
				  "file ends inside thread block " TB_FMT "; expected #END_TB",
				  s->bx, s->by, s->bz);
	lr_close(r);
	return true;
}

/* Below this many blocks wanted a load is not worth a thread. */
#define POOL_MIN_BLOCKS 8

/*
 * scan() with a pool when the reader may use more threads than one and
 * the scan may be long: a load of many blocks, or the rest of the first
 * pass (want NULL), whose length is not known.
 */
static bool pooled_scan(struct trace_reader *t, struct as_state *s, bool first,
			bool stop_early, GError **err)
{
	unsigned cores = POOL_CORES();
	unsigned n = t->n_loaders > 1 && cores > 1 &&
		     (!s->want || s->n_want >= POOL_MIN_BLOCKS)
		? MIN(t->n_loaders, cores) - 1 : 0;
	GError *e = NULL;
	bool ok;

	pool_start(s, n);
	ok = scan(t, s, first, stop_early, &e);
	return pool_end(s, ok, e, err);
}

/* Back to the first block of the current kernel's file. */
static bool rewind_body(struct as_state *s, GError **err)
{
	char *line;
	size_t len;
	int rc;

	if (!lr_open(&s->lr, s->cur->path, s->cur->name, NULL, err))
		return false;
	s->pos = 0;
	s->state = B_OUTSIDE;
	while ((rc = lr_next(&s->lr, &line, &len, err)) > 0) {
		if (!strcmp(trim(line, &len), "#BEGIN_TB")) {
			s->state = B_START;
			return true;
		}
	}
	return rc == 0;
}

/* Load blocks of a file the first pass has read to the end: from where
 * the stream stopped if they all lie ahead, else from the top. */
static bool load_known(struct trace_reader *t, struct as_state *s,
		       const uint64_t *ids, size_t n, GError **err)
{
	uint64_t first_ord = UINT64_MAX;
	size_t present = 0;

	/* only blocks the file lists can be found again */
	for (size_t i = 0; i < n; i++) {
		const struct seen_block *b = find_seen(s, ids[i]);

		if (b && !trace_find_block(t, ids[i])) {
			present++;
			first_ord = MIN(first_ord, b->ord);
		}
	}
	if (!present)
		return true;
	s->left = present;
	if (!lr_is_open(&s->lr) || first_ord < s->pos) {
		if (!rewind_body(s, err))
			return false;
	}
	return pooled_scan(t, s, false, true, err);
}

/* How far the kernel's file has been read, for a progress line: all of
 * it once closed after a whole pass. */
static void note_bytes_read(struct trace_reader *t, const struct as_state *s)
{
	trace_set_bytes_read(t, lr_is_open(&s->lr) ? lr_stored_offset(&s->lr)
				: s->validated ? UINT64_MAX : 0, false);
}

static bool as_load(struct trace_reader *t, const uint64_t *ids, size_t n,
		    GError **err)
{
	struct as_state *s = t->state;
	bool behind = false, ok;

	s->want = ids;
	s->n_want = n;
	if (s->validated) {
		ok = load_known(t, s, ids, n, err);
		goto out;
	}
	for (size_t i = 0; i < n && !behind; i++)
		behind = find_seen(s, ids[i]) != NULL;
	s->left = n;
	/* all ahead of the first pass: it goes on, and stops with them;
	 * else it reads on to the end, then the file is searched again */
	ok = pooled_scan(t, s, true, !behind, err);
	if (ok && !lr_is_open(&s->lr))
		s->validated = true;	/* it reached the end */
	if (ok && behind)
		ok = load_known(t, s, ids, n, err);
out:
	if (!ok)
		lr_close(&s->lr);
	s->want = NULL;
	s->n_want = 0;
	note_bytes_read(t, s);
	return ok;
}

/*
 * Once the first pass has read the kernel's file to its end, the blocks it
 * lists are known: the next one from `from` on, so that a grid far larger
 * than the file (absent blocks are empty) is passed over, not dispatched
 * block by block.  Before that, any block may still come.
 */
static uint64_t as_next_stored(struct trace_reader *t, uint64_t from)
{
	const struct as_state *s = t->state;
	const struct seen_block *a = (const struct seen_block *)s->seen->data;
	size_t i;

	if (!s->validated)
		return from;
	i = lower_seen(a, s->seen->len, from);
	return i < s->seen->len ? a[i].id : UINT64_MAX;
}

/* The blocks the kernel's file lists (inside the grid, each once: the
 * first pass refuses others), read to its end if need be. */
static bool as_count_stored(struct trace_reader *t, uint64_t *n, GError **err)
{
	struct as_state *s = t->state;

	if (!s->validated) {
		bool ok;

		/* not validated: the first pass stopped with the file open
		 * (a load that failed would have ended the kernel's reading) */
		if (!lr_is_open(&s->lr))
			return ss_set_error(err, SS_ERROR_INTERNAL,
					    "%s: counted after the first pass stopped",
					    s->cur->name);
		ok = finish_first_pass(t, s, err);
		lr_close(&s->lr);
		if (!ok)
			return false;
	}
	*n = s->seen->len;
	note_bytes_read(t, s);
	return true;
}

const struct trace_format trace_format_accelsim = {
	.name = "accelsim",
	.marker = "kernelslist.g",
	.any_name = true,
	.open = as_open,
	.close = as_close,
	.next_kernel = as_next_kernel,
	.kernel_count = as_kernel_count,
	.kernel_bytes = as_kernel_bytes,
	.load = as_load,
	.next_stored = as_next_stored,
	.count_stored = as_count_stored,
	.counts_bytes_read = true,
};
