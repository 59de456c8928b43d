/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The trace readers (readers/trace.h).  Bundled fixtures in
 * tests/data/trace/: a ppt app and an Accel-Sim app (plain, .gz and .xz
 * kernel files) whose blocks are checked line by line against decodings
 * worked out by hand (each warp's lanes' addresses decoded, the warps'
 * memory lines interleaved round by round); one bad-* directory per kind
 * of malformed input with its exact "FILE:LINE: found; expected" message.
 * With ../shared: both formats of the same golden app must give the same
 * blocks, and every golden app must load whole with the kept-line counts
 * of golden/real/SOURCES.md.
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>
#include "trace.h"
#include "linereader.h"
#include "trace_internal.h"
#include "native.h"
#include "unit_pool.h"
#include "accelsim_grid.h"
#include "coalesce.h"
#include <zlib.h>
#include <zstd.h>

static char *shared;		/* NULL when ../shared is absent */

static char *fixture(const char *name)
{
	return g_test_build_filename(G_TEST_DIST, "data", "trace", name, NULL);
}

static struct trace_reader *open_ok(const char *path, enum trace_format_id fmt)
{
	GError *err = NULL;
	struct trace_reader *t = trace_open(path, fmt, &err);

	g_assert_no_error(err);
	g_assert_nonnull(t);
	return t;
}

static struct trace_reader *open_fixture(const char *name,
					 enum trace_format_id fmt)
{
	char *path = fixture(name);
	struct trace_reader *t = open_ok(path, fmt);

	g_free(path);
	return t;
}

static const struct gpu_kernel *next_ok(struct trace_reader *t)
{
	GError *err = NULL;
	const struct gpu_kernel *k = trace_next_kernel(t, &err);

	g_assert_no_error(err);
	g_assert_nonnull(k);
	return k;
}

static void assert_end(struct trace_reader *t)
{
	GError *err = NULL;

	g_assert_null(trace_next_kernel(t, &err));
	g_assert_no_error(err);
}

static const struct gpu_block *block(struct trace_reader *t, uint64_t id)
{
	const struct gpu_block *b = NULL;
	GError *err = NULL;

	g_assert_true(trace_load_blocks(t, &id, 1, &b, &err));
	g_assert_no_error(err);
	g_assert_nonnull(b);
	g_assert_cmpuint(b->id, ==, id);
	return b;
}

/* Every block of the current kernel, in one call. */
static const struct gpu_block **all_blocks(struct trace_reader *t,
					   const struct gpu_kernel *k)
{
	uint64_t *ids = g_new(uint64_t, k->grid_size);
	const struct gpu_block **out = g_new0(const struct gpu_block *,
					      k->grid_size);
	GError *err = NULL;

	for (uint64_t i = 0; i < k->grid_size; i++)
		ids[i] = i;
	g_assert_true(trace_load_blocks(t, ids, k->grid_size, out, &err));
	g_assert_no_error(err);
	for (uint64_t i = 0; i < k->grid_size; i++)
		g_assert_cmpuint(out[i]->id, ==, i);
	g_free(ids);
	return out;
}

static void check_line(const struct gpu_line *l, const char *opcode,
		       uint32_t warp, const uint64_t *addr, uint32_t n)
{
	g_assert_cmpstr(l->opcode, ==, opcode);
	g_assert_cmpuint(l->warp, ==, warp);
	g_assert_cmpuint(l->n_addr, ==, n);
	for (uint32_t i = 0; i < n; i++)
		g_assert_cmphex(gpu_line_addr(l, i), ==, addr[i]);
}

/* base, base + step, ... (n addresses) */
static uint64_t *run(uint64_t *a, uint64_t base, uint64_t step, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		a[i] = base + i * step;
	return a;
}

#define A(...) ((const uint64_t[]){ __VA_ARGS__ }), \
	(uint32_t)(sizeof((const uint64_t[]){ __VA_ARGS__ }) / sizeof(uint64_t))

/* ---- reference format --------------------------------------------------- */

static void test_ppt_kernels(void)
{
	struct trace_reader *t = open_fixture("ppt", TRACE_AUTO);
	const struct gpu_kernel *k;

	g_assert_cmpint(trace_format_of(t), ==, TRACE_PPT);
	/* app_kernels_id = [2, 1]; kernel_7 has a dict but is not listed */
	k = next_ok(t);
	g_assert_cmpuint(k->id, ==, 2);
	g_assert_cmpstr(k->name, ==, "second");
	g_assert_cmpuint(k->grid_size, ==, 2);
	g_assert_cmpuint(k->block_size, ==, 32);
	g_assert_cmpuint(k->regs, ==, 8);
	g_assert_cmpuint(k->smem, ==, 1024);
	g_assert_cmpuint(k->stream_id, ==, 0);
	g_assert_cmpuint(k->grid[0], ==, 2);
	g_assert_cmpuint(k->grid[1], ==, 1);
	g_assert_cmpuint(k->block[0], ==, 32);
	k = next_ok(t);
	g_assert_cmpuint(k->id, ==, 1);
	/* a quoted name may hold braces and commas */
	g_assert_cmpstr(k->name, ==, "copy<{int, float}>");
	g_assert_cmpuint(k->grid_size, ==, 3);
	g_assert_cmpuint(k->block_size, ==, 64);
	g_assert_cmpuint(k->regs, ==, 24);
	g_assert_cmpuint(k->stream_id, ==, UINT64_MAX);
	assert_end(t);
	assert_end(t);
	trace_close(t);
}

static void test_ppt_blocks(void)
{
	struct trace_reader *t = open_fixture("ppt", TRACE_PPT);
	const struct gpu_block *b;
	const uint64_t none[1] = { 0 };

	next_ok(t);
	/* a blank line is an address-less line with an empty opcode */
	b = block(t, 0);
	g_assert_cmpuint(b->n_lines, ==, 3);
	check_line(&b->lines[0], "LDG.E", GPU_WARP_UNKNOWN, A(0x1000));
	check_line(&b->lines[1], "", GPU_WARP_UNKNOWN, none, 0);
	check_line(&b->lines[2], "STG.E", GPU_WARP_UNKNOWN, A(0x2000));
	g_assert_cmpuint(block(t, 1)->n_lines, ==, 0);	/* no file */

	next_ok(t);
	b = block(t, 0);
	g_assert_cmpuint(b->n_lines, ==, 5);
	check_line(&b->lines[0], "LDG.E.SYS", GPU_WARP_UNKNOWN,
		   A(0x7f2a40000000, 0x7f2a40000004));
	/* 0x prefix, an empty token, upper case */
	check_line(&b->lines[1], "STG.E.64.SYS", GPU_WARP_UNKNOWN,
		   A(0x7f2a40400000, 0x7f2a40400008));
	/* any first token is an opcode; a line may have no address */
	check_line(&b->lines[2], "=====", GPU_WARP_UNKNOWN, none, 0);
	check_line(&b->lines[3], "LDL", GPU_WARP_UNKNOWN, none, 0);
	check_line(&b->lines[4], "RED.E.ADD", GPU_WARP_UNKNOWN, A(0x10, 0x10));
	g_assert_cmpuint(block(t, 1)->n_lines, ==, 0);
	/* the last line lacks its line end */
	b = block(t, 2);
	g_assert_cmpuint(b->n_lines, ==, 2);
	check_line(&b->lines[0], "LDG.E", GPU_WARP_UNKNOWN, A(0x100));
	check_line(&b->lines[1], "STG.E", GPU_WARP_UNKNOWN, A(0x200));
	/* interned: one pointer per opcode text */
	g_assert_true(b->lines[0].opcode == block(t, 2)->lines[0].opcode);
	trace_close(t);
}

/* ---- Accel-Sim format --------------------------------------------------- */

/* A small Accel-Sim kernel and the line stream it becomes, by hand. */
static void test_accelsim_example(void)
{
	struct trace_reader *t = open_fixture("accelsim", TRACE_AUTO);
	const struct gpu_kernel *k;
	const struct gpu_block *b;
	uint64_t a[32];

	g_assert_cmpint(trace_format_of(t), ==, TRACE_ACCELSIM);
	k = next_ok(t);
	g_assert_cmpuint(k->id, ==, 1);
	g_assert_cmpstr(k->name, ==, "_Z9vectorAddPKfS0_Pfi");
	g_assert_cmpuint(k->grid_size, ==, 2);
	g_assert_cmpuint(k->grid[0], ==, 2);
	g_assert_cmpuint(k->block_size, ==, 64);
	g_assert_cmpuint(k->regs, ==, 12);
	g_assert_cmpuint(k->smem, ==, 0);
	b = block(t, 1);
	g_assert_cmpuint(b->n_lines, ==, 4);
	check_line(&b->lines[0], "LDG.E", 0, run(a, 0x7fb0fc430e00, 4, 32), 32);
	check_line(&b->lines[1], "LDG.E", 1, A(0x7fb0fc430e80, 0x7fb0fc431e80));
	check_line(&b->lines[2], "LDG.E.64", 0,
		   A(0x7fb0fc400000, 0x7fb0fc400100, 0x7fb0fc400200,
		     0x7fb0fc400300));
	check_line(&b->lines[3], "STG.E", 0, run(a, 0x7fb0fc461c00, 4, 32), 32);
	g_assert_cmpuint(block(t, 0)->n_lines, ==, 0);
	trace_close(t);
}

/*
 * kernel-2.traceg.gz (listed without .gz), v3: a 3-D grid, warps listed
 * out of order and of different lengths, mode 1 with a negative stride and
 * a wrap below zero, mode 2 with negative deltas, the n-delta variant, a
 * mask-0 mode 2 and an all-zero mode 1 (dropped), a block of shared
 * accesses only.
 */
static void test_accelsim_modes(void)
{
	struct trace_reader *t = open_fixture("accelsim", TRACE_ACCELSIM);
	const struct gpu_kernel *k;
	const struct gpu_block **all, *b;

	next_ok(t);
	k = next_ok(t);
	g_assert_cmpuint(k->id, ==, 2);
	g_assert_cmpuint(k->grid[0], ==, 2);
	g_assert_cmpuint(k->grid[1], ==, 2);
	g_assert_cmpuint(k->grid[2], ==, 2);
	g_assert_cmpuint(k->grid_size, ==, 8);
	g_assert_cmpuint(k->block[0], ==, 96);
	g_assert_cmpuint(k->smem, ==, 512);
	g_assert_cmpuint(k->regs, ==, 40);
	g_assert_cmpuint(k->stream_id, ==, 7);
	all = all_blocks(t, k);
	/* thread block (1,0,1) = 1*2*2 + 0*2 + 1 */
	b = all[5];
	g_assert_cmpuint(b->n_lines, ==, 5);
	/* round 0: w0 MOV, w1 MOV, w2 LDG.E.U8 (mode 0, lanes 0 and 31) */
	check_line(&b->lines[0], "LDG.E.U8", 2, A(0x3000, 0x3001));
	/* round 1: w0 LDG.E (stride -4), w1 IADD3, w2 ST.E (n deltas) */
	check_line(&b->lines[1], "LDG.E", 0, A(0x1000, 0xffc, 0xff8, 0xff4));
	check_line(&b->lines[2], "ST.E", 2, A(0x4000, 0x4010));
	/* round 2: w0 STG.E.64 (deltas -8, 24), w1 LDL (lane 1 is 0) */
	check_line(&b->lines[3], "STG.E.64", 0, A(0x2000, 0x1ff8, 0x2010));
	check_line(&b->lines[4], "LDL", 1, A(0x10, 0xfffffffffffffff0));
	for (uint64_t i = 0; i < k->grid_size; i++)
		if (i != 5)
			g_assert_cmpuint(all[i]->n_lines, ==, 0);
	g_free(all);
	trace_close(t);
}

/*
 * kernel-3.traceg.xz, v6 with line numbers: two immediates then Val|NoVal
 * (a Val with values after a mode-2 payload), a GMMA token, a TMA line with
 * a payload of its own, cluster lines.
 */
static void test_accelsim_v6(void)
{
	struct trace_reader *t = open_fixture("accelsim", TRACE_AUTO);
	const struct gpu_kernel *k;
	const struct gpu_block *b;
	uint64_t a[16];

	next_ok(t);
	next_ok(t);
	k = next_ok(t);
	g_assert_cmpuint(k->id, ==, 3);
	g_assert_cmpuint(k->stream_id, ==, 94841573040128);
	b = block(t, 0);
	g_assert_cmpuint(b->n_lines, ==, 3);
	check_line(&b->lines[0], "LDG.E", 1, A(0x9000));
	check_line(&b->lines[1], "LDG.E.128", 0, run(a, 0x7000, 16, 16), 16);
	check_line(&b->lines[2], "STG.E", 0, A(0x8000, 0x8004));
	trace_close(t);
}

/* kernel-4.traceg: tracer 1.2 (four leading fields), no '#traces format' */
static void test_accelsim_v1(void)
{
	struct trace_reader *t = open_fixture("accelsim", TRACE_AUTO);
	const struct gpu_block *b;
	uint64_t a[32];

	for (int i = 0; i < 4; i++)
		next_ok(t);
	b = block(t, 1);
	g_assert_cmpuint(b->n_lines, ==, 2);
	check_line(&b->lines[0], "LDG.E", 0, A(0xa000, 0xa004));
	check_line(&b->lines[1], "STG.E", 0, run(a, 0xb000, 4, 32), 32);
	g_assert_cmpuint(block(t, 0)->n_lines, ==, 0);
	assert_end(t);
	trace_close(t);
}

/*
 * Loads in several calls: a block loaded twice is the same object, a block
 * behind the stream is found again, and the block source is the same.
 */
static void test_accelsim_reload(void)
{
	struct trace_reader *t = open_fixture("accelsim", TRACE_AUTO);
	struct gpu_block_source *src = trace_block_source(t);
	const struct gpu_block *b5, *out[3];
	const uint64_t ids[3] = { 2, 5, 7 };
	GError *err = NULL;

	next_ok(t);
	next_ok(t);
	g_assert_cmpuint(block(t, 7)->n_lines, ==, 0);
	b5 = block(t, 5);
	g_assert_cmpuint(b5->n_lines, ==, 5);
	g_assert_true(src->ops->load(src, ids, 3, out, &err));
	g_assert_no_error(err);
	g_assert_true(out[1] == b5);
	g_assert_cmpuint(out[0]->id, ==, 2);
	g_assert_cmpuint(out[0]->n_lines, ==, 0);
	g_assert_cmpuint(out[2]->n_lines, ==, 0);
	/* a block id beyond the grid is the caller's mistake */
	g_assert_false(trace_load_blocks(t, (const uint64_t[]){ 8 }, 1, out,
					 &err));
	g_assert_error(err, SS_ERROR, SS_ERROR_INTERNAL);
	g_clear_error(&err);
	trace_close(t);
}

/*
 * How far a kernel's files have been read, for a progress line inside a
 * kernel: 0 as it starts, never going back, never past the kernel's bytes,
 * and all of them once every block is loaded; a format that does not
 * count says so.
 */
static void check_bytes_read(const char *name, enum trace_format_id fmt, bool counts)
{
	struct trace_reader *t = open_fixture(name, fmt);
	struct gpu_block_source *src = trace_block_source(t);
	GError *err = NULL;
	const struct gpu_kernel *k;
	unsigned kernels = 0;

	while ((k = trace_next_kernel(t, &err))) {
		uint64_t n = 1, last = 0;
		const struct gpu_block *out;

		g_assert_nonnull(src->ops->bytes_read);
		if (!counts) {
			g_assert_false(src->ops->bytes_read(src, &n));
			kernels++;
			continue;
		}
		g_assert_true(src->ops->bytes_read(src, &n));
		g_assert_cmpuint(n, ==, 0);
		for (uint64_t id = 0; id < k->grid_size; id++) {
			g_assert_true(src->ops->load(src, &id, 1, &out, &err));
			g_assert_no_error(err);
			g_assert_true(src->ops->bytes_read(src, &n));
			/* more than the kernel's bytes means all of them */
			n = MIN(n, k->trace_bytes);
			g_assert_cmpuint(n, >=, last);
			last = n;
		}
		g_assert_cmpuint(last, ==, k->trace_bytes);
		kernels++;
	}
	g_assert_no_error(err);
	g_assert_cmpuint(kernels, >, 0);
	trace_close(t);
}

static void test_bytes_read(void)
{
	check_bytes_read("accelsim", TRACE_AUTO, true);
	check_bytes_read("ppt", TRACE_AUTO, true);
	check_bytes_read("native/accelsim.sst", TRACE_AUTO, true);
	check_bytes_read("native/ppt.sst", TRACE_AUTO, true);
	check_bytes_read("trc", TRACE_AUTO, false);
}

/*
 * What the hardware-faithful model needs beyond the line stream: lanes,
 * the generic windows, the instructions dropped (shared memory, no known
 * space).
 */
static void test_accelsim_lanes(void)
{
	struct trace_reader *t = open_fixture("accelsim", TRACE_AUTO);
	const struct gpu_kernel *k;
	const struct gpu_block *b;

	k = next_ok(t);
	g_assert_cmphex(k->shmem_base, ==, 0x7fb139000000);
	g_assert_cmphex(k->local_base, ==, 0x7fb137000000);
	b = block(t, 1);
	g_assert_cmphex(b->lines[0].lanes, ==, 0xffffffff);
	g_assert_cmphex(b->lines[1].lanes, ==, 0x101);	/* mode 2, lanes 0 and 8 */
	g_assert_cmphex(b->lines[2].lanes, ==, 0xf);
	g_assert_cmphex(b->lines[3].lanes, ==, 0xffffffff);
	/* w1's STS; w1's STG.E with mask 0 is nothing */
	g_assert_cmpuint(b->n_shared, ==, 1);
	g_assert_cmpuint(b->n_unknown, ==, 0);
	g_assert_cmpuint(block(t, 0)->n_shared, ==, 0);

	k = next_ok(t);
	/* no base in the header */
	g_assert_cmphex(k->shmem_base, ==, 0);
	g_assert_cmphex(k->local_base, ==, 0);
	b = block(t, 5);
	g_assert_cmphex(b->lines[0].lanes, ==, 0x80000001);	/* LDG.E.U8, mode 0 */
	g_assert_cmphex(b->lines[1].lanes, ==, 0xf);
	g_assert_cmphex(b->lines[2].lanes, ==, 0x3);		/* ST.E, n deltas */
	g_assert_cmphex(b->lines[3].lanes, ==, 0x7);
	g_assert_cmphex(b->lines[4].lanes, ==, 0x5);		/* LDL: lane 1's address is 0 */
	g_assert_cmpuint(b->n_shared, ==, 0);
	/* a block of one LDS: no line, one shared instruction */
	b = block(t, 2);
	g_assert_cmpuint(b->n_lines, ==, 0);
	g_assert_cmpuint(b->n_shared, ==, 1);
	trace_close(t);

	/* the reference format knows no lanes */
	t = open_fixture("ppt", TRACE_AUTO);
	next_ok(t);
	b = block(t, 0);
	for (uint32_t i = 0; i < b->n_lines; i++)
		g_assert_cmphex(b->lines[i].lanes, ==, 0);
	g_assert_cmpuint(b->n_shared + b->n_unknown, ==, 0);
	g_assert_cmphex(next_ok(t)->shmem_base, ==, 0);
	trace_close(t);
}

/*
 * tests/data/interleave's classification kernel: a shared store (STS,
 * counted, with its addresses from shared address 0), a masked-off LDS
 * (not counted), a surface store (a base of no known space with an
 * address), LDC without addresses (not counted).
 */
static void test_accelsim_dropped(void)
{
	char *path = g_test_build_filename(G_TEST_DIST, "data", "interleave", "accelsim", NULL);
	struct trace_reader *t = open_ok(path, TRACE_AUTO);
	const struct gpu_kernel *k;
	const struct gpu_block *b;

	next_ok(t);
	k = next_ok(t);
	g_assert_cmphex(k->shmem_base, ==, 0x7f1000000000);
	g_assert_cmphex(k->local_base, ==, 0x7f0e00000000);
	b = block(t, 0);
	g_assert_cmpuint(b->n_lines, ==, 14);
	g_assert_cmpuint(b->n_shared, ==, 1);
	g_assert_cmpuint(b->n_unknown, ==, 1);
	/* LDG.E.U16, two lanes */
	check_line(&b->lines[13], "LDG.E.U16", 0, A(0x7f200000801e, 0x7f2000008020));
	g_assert_cmphex(b->lines[13].lanes, ==, 0x3);
	trace_close(t);
	g_free(path);
}

/* ---- opening ------------------------------------------------------------ */

static void test_open(void)
{
	char *list = g_test_build_filename(G_TEST_DIST, "data", "trace",
					   "accelsim", "kernelslist.g", NULL);
	char *config = g_test_build_filename(G_TEST_DIST, "data", "trace",
					     "ppt", "app_config.py", NULL);
	char *both = fixture("both");
	struct trace_reader *t;
	GError *err = NULL;

	t = open_ok(list, TRACE_AUTO);
	g_assert_cmpint(trace_format_of(t), ==, TRACE_ACCELSIM);
	g_assert_cmpuint(next_ok(t)->grid_size, ==, 2);
	trace_close(t);
	t = open_ok(config, TRACE_AUTO);
	g_assert_cmpint(trace_format_of(t), ==, TRACE_PPT);
	trace_close(t);
	/* both formats in one directory: the reference format wins */
	t = open_ok(both, TRACE_AUTO);
	g_assert_cmpint(trace_format_of(t), ==, TRACE_PPT);
	g_assert_cmpstr(next_ok(t)->name, ==, "from_app_config");
	trace_close(t);
	t = open_ok(both, TRACE_ACCELSIM);
	g_assert_cmpint(trace_format_of(t), ==, TRACE_ACCELSIM);
	g_assert_cmpstr(next_ok(t)->name, ==, "from_kernelslist");
	trace_close(t);
	g_assert_null(trace_open("/nonexistent/trace", TRACE_AUTO, &err));
	g_assert_error(err, SS_ERROR, SS_ERROR_INPUT);
	g_assert_cmpstr(err->message, ==,
			"/nonexistent/trace: no such file or directory");
	g_clear_error(&err);
	trace_close(NULL);
	g_free(list);
	g_free(config);
	g_free(both);
}

/* ---- malformed input: one "FILE:LINE: ..." message each ---------------- */

static void assert_input_error(GError *err, const char *msg)
{
	g_assert_nonnull(err);
	g_assert_error(err, SS_ERROR, SS_ERROR_INPUT);
	g_assert_null(strchr(err->message, '\n'));
	if (msg[0] == '^')
		g_assert_true(g_regex_match_simple(msg, err->message, 0, 0));
	else
		g_assert_cmpstr(err->message, ==, msg);
}

static void expect_open_error(const char *name, enum trace_format_id fmt,
			      const char *msg)
{
	char *path = fixture(name);
	GError *err = NULL;

	g_assert_null(trace_open(path, fmt, &err));
	assert_input_error(err, msg);
	g_error_free(err);
	g_free(path);
}

/*
 * msgs[i]: the error of the i-th kernel, from trace_next_kernel, from
 * loading all its blocks, or, when it lies past the last block, from the
 * trace_next_kernel after it (the first pass reads on to the end of the
 * file when the kernel ends).  A message starting with '^' is a regex.
 */
static void expect_kernel_errors(const char *name, const char *const *msgs)
{
	struct trace_reader *t = open_fixture(name, TRACE_AUTO);

	for (; *msgs; msgs++) {
		GError *err = NULL;
		const struct gpu_kernel *k = trace_next_kernel(t, &err);
		uint64_t *ids;
		const struct gpu_block **out;

		if (!k) {
			assert_input_error(err, *msgs);
			g_error_free(err);
			continue;
		}
		ids = g_new(uint64_t, k->grid_size);
		out = g_new(const struct gpu_block *, k->grid_size);
		for (uint64_t i = 0; i < k->grid_size; i++)
			ids[i] = i;
		if (trace_load_blocks(t, ids, k->grid_size, out, &err)) {
			/* past the last block: found on the way to the next kernel */
			g_assert_null(trace_next_kernel(t, &err));
			assert_input_error(err, *msgs);
			g_clear_error(&err);
			g_free(ids);
			g_free(out);
			continue;
		}
		assert_input_error(err, *msgs);
		g_clear_error(&err);
		/* asked again: the same error, not a partial success */
		g_assert_false(trace_load_blocks(t, ids, 1, out, &err));
		assert_input_error(err, *msgs);
		g_clear_error(&err);
		g_free(ids);
		g_free(out);
	}
	trace_close(t);
}

static void test_bad_app_config(void)
{
	char *dir = fixture("bad-appconfig-missing");
	char *msg = g_strdup_printf("app_config.py: no such file in '%s'", dir);
	char *neither = g_strdup_printf(
		"%s: neither app_config.py, kernelslist.g nor NAME_00.trc found; expected a trace directory",
		dir);

	expect_open_error("bad-appconfig-missing", TRACE_PPT, msg);
	expect_open_error("bad-appconfig-missing", TRACE_AUTO, neither);
	expect_open_error("bad-appconfig-syntax", TRACE_AUTO,
			  "app_config.py:4: found '8'; expected ':' after the key");
	expect_open_error("bad-appconfig-field", TRACE_AUTO,
			  "app_config.py:6: \"grid_size\" of kernel_1 is '\"many\"'; expected a positive 64-bit integer");
	expect_open_error("bad-appconfig-undefined", TRACE_AUTO,
			  "app_config.py:14: kernel_3 listed in app_kernels_id but not defined");
	g_free(dir);
	g_free(msg);
	g_free(neither);
}

static void test_bad_mem(void)
{
	static const char *const msgs[] = {
		"kernel_1_block_7.mem:3: address token 'zz12' is not hexadecimal",
		"kernel_2_block_0.mem:1: address token '123456789abcdef01' does not fit in 64 bits",
		NULL,
	};

	expect_kernel_errors("bad-mem-hex", msgs);
}

static void test_bad_kernelslist(void)
{
	expect_open_error("bad-kernelslist", TRACE_AUTO,
			  "kernelslist.g:5: kernel-4.traceg: no such file (also tried .gz, .xz)");
}

/* ---- traces written by the test ------------------------------------------- */

/* A new temporary folder holding files[0] = files[1], files[2] = ... */
static char *write_trace(const char *const *files)
{
	char *dir = g_dir_make_tmp("sectorsim-trace-XXXXXX", NULL);

	g_assert_nonnull(dir);
	for (; *files; files += 2) {
		char *path = g_build_filename(dir, files[0], NULL);
		char *sub = g_path_get_dirname(path);

		g_assert_cmpint(g_mkdir_with_parents(sub, 0755), ==, 0);
		g_assert_true(g_file_set_contents(path, files[1], -1, NULL));
		g_free(sub);
		g_free(path);
	}
	return dir;
}

static void remove_tree(const char *path)
{
	GDir *d = g_dir_open(path, 0, NULL);
	const char *name;

	while (d && (name = g_dir_read_name(d))) {
		char *p = g_build_filename(path, name, NULL);

		if (g_file_test(p, G_FILE_TEST_IS_DIR))
			remove_tree(p);
		else
			g_unlink(p);
		g_free(p);
	}
	if (d)
		g_dir_close(d);
	g_rmdir(path);
}

/* Opening `files` fails with exactly `msg` (GLib's test mode makes a
 * warning, such as an error set twice, fatal). */
static void expect_written_open_error(const char *const *files, const char *msg)
{
	char *dir = write_trace(files);
	GError *err = NULL;

	g_assert_null(trace_open(dir, TRACE_AUTO, &err));
	assert_input_error(err, msg);
	g_error_free(err);
	remove_tree(dir);
	g_free(dir);
}

/*
 * A statement that fails ends the reading: the list is not then checked
 * too (which set a second error over the first); a string read before a
 * failing token is freed (the leak shows under ASan).
 */
static void test_bad_app_config_once(void)
{
	static const char *const bare[] = { "app_config.py", "x\n", NULL };
	static const char *const lacks[] = { "app_config.py",
		"kernel_2 = {\"kernel_name\": \"k\", \"num_registers\": 1,\n"
		" \"shared_mem_bytes\": 0, \"block_size\": 32}\n"
		"app_kernels_id = [2]\nkernel_3 =\n", NULL };
	static const char *const str[] = { "app_config.py",
		"app_kernels_id = ['a' $\n", NULL };
	static const char *const open_str[] = { "app_config.py",
		"app_kernels_id = ['a' \n", NULL };

	expect_written_open_error(bare, "app_config.py:2: found the end of the file; expected '=' after the name");
	expect_written_open_error(lacks, "app_config.py:5: found the end of the file; expected '{' starting the kernel's parameters");
	expect_written_open_error(str, "app_config.py:1: found '$'; expected a name, a number, a string or punctuation");
	expect_written_open_error(open_str, "app_config.py:1: found ''a'' in a list; expected a kernel number");
}

/* A list that names no kernel file is not a trace of no kernels. */
static void test_bad_kernelslist_empty(void)
{
	static const char *const copies[] = { "kernelslist.g",
		"MemcpyHtoD,0x00007f0000000000,4096\nfoo.traceg\n", NULL };
	static const char *const binary[] = { "kernelslist.g",
		"\x8b\x1f\x7f\x01\xfe\n\xff\x80", NULL };

	expect_written_open_error(copies, "kernelslist.g:2: no line names a kernel file; expected lines such as kernel-1.traceg");
	expect_written_open_error(binary, "kernelslist.g:2: no line names a kernel file; expected lines such as kernel-1.traceg");
}

/* One paper-format line: `op`, then n addresses from first, step apart. */
static void ppt_progression(GString *m, const char *op, uint64_t first,
			    uint64_t step, unsigned n)
{
	g_string_append(m, op);
	for (unsigned k = 0; k < n; k++)
		g_string_append_printf(m, " %" G_GINT64_MODIFIER "x", first + k * step);
	g_string_append_c(m, '\n');
}

/*
 * A line whose addresses are an arithmetic progression of 2 to 32
 * addresses, with a step that fits 32 bits, is kept as its first address
 * and its step (gpu_line.step); every other line lists its addresses.
 * Either way gpu_line_addr() and gpu_line_addrs() give the trace's.
 */
static void test_progression_lines(void)
{
	static const struct {
		uint64_t first, step;
		unsigned n;
		int32_t want_step;
	} lines[] = {
		{ 0x7f0000000000, 4, 32, 4 },
		{ 0x7f0000001000, (uint64_t)-8, 32, -8 },	/* down */
		{ 0x7f0000002000, 128, 2, 128 },
		{ 0x7f0000003000, 4, 33, 0 },		/* longer than a warp */
		{ 0x7f0000004000, 4, 1, 0 },		/* one address */
		{ 0x7f0000005000, 0, 3, 0 },		/* the same three times */
		{ 0x7f0000000000, UINT64_C(1) << 31, 3, 0 },	/* past INT32_MAX */
		{ 0x7f8000000000, (uint64_t)INT32_MIN, 3, INT32_MIN },
		{ 0x7f0000006000, INT32_MAX, 2, INT32_MAX },
	};
	GString *m = g_string_new(NULL);
	uint64_t buf[GPU_STEP_MAX];
	struct trace_reader *t;
	const struct gpu_block *b;
	char *dir;

	for (unsigned i = 0; i < G_N_ELEMENTS(lines); i++)
		ppt_progression(m, "LDG.E", lines[i].first, lines[i].step, lines[i].n);
	/* not a progression: the last step differs */
	g_string_append(m, "STG.E 100 104 108 110\n");
	{
		const char *const files[] = {
			"app_config.py",
			"kernel_1 = {\n\"kernel_name\": \"k\",\n\"num_registers\": 8,\n"
			"\"shared_mem_bytes\": 0,\n\"grid_size\": 1,\n\"block_size\": 32,\n"
			"\"cuda_stream_id\": 0\n}\napp_kernels_id = [1]\n",
			"memory_traces/kernel_1_block_0.mem", m->str,
			NULL,
		};

		dir = write_trace(files);
	}
	t = open_ok(dir, TRACE_PPT);
	next_ok(t);
	b = block(t, 0);
	g_assert_cmpuint(b->n_lines, ==, G_N_ELEMENTS(lines) + 1);
	for (unsigned i = 0; i < G_N_ELEMENTS(lines); i++) {
		const struct gpu_line *l = &b->lines[i];
		const uint64_t *all = gpu_line_addrs(l, buf);

		g_assert_cmpuint(l->n_addr, ==, lines[i].n);
		g_assert_cmpint(l->step, ==, lines[i].want_step);
		for (unsigned k = 0; k < lines[i].n; k++) {
			g_assert_cmphex(gpu_line_addr(l, k), ==, lines[i].first + k * lines[i].step);
			g_assert_cmphex(all[k], ==, lines[i].first + k * lines[i].step);
		}
	}
	g_assert_cmpint(b->lines[G_N_ELEMENTS(lines)].step, ==, 0);
	check_line(&b->lines[G_N_ELEMENTS(lines)], "STG.E", GPU_WARP_UNKNOWN,
		   A(0x100, 0x104, 0x108, 0x110));
	/* the block holds one address per progression */
	g_assert_true(b->lines[1].addr == b->lines[0].addr + 1);
	g_assert_true(b->lines[2].addr == b->lines[1].addr + 1);
	trace_close(t);
	remove_tree(dir);
	g_free(dir);
	g_string_free(m, TRUE);
}

/*
 * A loader interns an opcode text once per kernel, and gives the same
 * pointer for it every time after: through its memo for texts that
 * alternate (two that share their length and their first and last 8
 * bytes among them), and through its table for more texts than the memo
 * holds.
 */
static void test_loader_intern(void)
{
	static const char *const texts[] = {
		"ATOMG.E.CAS.STRONG.GPU", "ATOMG.E.ADD.STRONG.GPU", "LDG.E.SYS",
		"STG.E.SYS", "LDG.E.64.SYS", "RED.E.ADD.STRONG.GPU", "LDG.E.128.SYS",
		"STG.E.64.SYS", "LD.E", "ST.E", "LDL", "STL", "ATOM.E.ADD", "RED.E.ADD",
		"LDG.E.CONSTANT.SYS", "LDG.E.EL.SYS", "LDG.E.LU.SYS", "LDS", "STS",
		"LDG.E.U8.SYS", "X", "",
	};
	enum { N = G_N_ELEMENTS(texts) };
	struct trace_reader *t = open_fixture("ppt", TRACE_PPT);
	struct block_loader l;
	const char *first[N];

	next_ok(t);
	loader_init(&l);
	for (int round = 0; round < 5; round++)
		for (unsigned i = 0; i < N; i++) {
			/* round 0 all the texts; then pairs that alternate */
			unsigned k = round ? (i % 2 ? (i / 2) % 2 : 0) : i;
			char *copy = g_strdup(texts[k]);
			const char *v = loader_intern(t, &l, copy, strlen(copy));

			g_assert_cmpstr(v, ==, texts[k]);
			if (!round)
				first[k] = v;
			else
				g_assert_true(v == first[k]);
			g_free(copy);
		}
	loader_free(&l);
	trace_close(t);
}

/* A first memory instruction of no lane: no address, and no pointer
 * arithmetic on the builder's empty pool (UBSan). */
static void test_accelsim_first_mask_zero(void)
{
	static const char *const files[] = {
		"kernelslist.g", "kernel-1.traceg\n",
		"kernel-1.traceg",
		"-kernel name = k\n-kernel id = 1\n-grid dim = (1,1,1)\n"
		"-block dim = (32,1,1)\n-shmem = 0\n-nregs = 16\n-cuda stream id = 0\n"
		"-accelsim tracer version = 5\n\n"
		"#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses] immediate\n\n"
		"#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 2\n"
		"0000 00000000 0 STG.E 2 R6 R9 4 1 0x0 0 0\n"
		"0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x7f0000000000 4 0\n"
		"#END_TB\n",
		NULL,
	};
	char *dir = write_trace(files);
	struct trace_reader *t = open_ok(dir, TRACE_AUTO);
	const struct gpu_block *b;

	next_ok(t);
	b = block(t, 0);
	g_assert_cmpuint(b->n_lines, ==, 1);
	g_assert_cmphex(b->lines[0].lanes, ==, 0xffffffff);
	trace_close(t);
	remove_tree(dir);
	g_free(dir);
}

static void test_bad_header(void)
{
	static const char *const msgs[] = {
		"kernel-1.traceg:10: the header ending here lacks '-grid dim = (x,y,z)'",
		"kernel-2.traceg:3: '-block dim = (64,1)' is malformed; expected '-block dim = (x,y,z)'",
		"kernel-3.traceg:7: accelsim tracer version '7' is not supported; expected 1.2, 3, 4, 5 or 6",
		"kernel-4.traceg:1: kernel name contains '\"' or '\\'; expected a name without them",
		"kernel-5.traceg:9: '#traces format' names no [mem_addresses]; expected the tracer's operand list",
		NULL,
	};

	expect_kernel_errors("bad-header", msgs);
}

static void test_bad_header_line(void)
{
	static const char *const msgs[] = {
		"kernel-1.traceg:12: unexpected line before #BEGIN_TB",
		NULL,
	};

	expect_kernel_errors("bad-header-line", msgs);
}

static void test_bad_structure(void)
{
	static const char *const msgs[] = {
		"kernel-1.traceg:12: thread block (2,0,0) is outside the grid (2,1,1)",
		"kernel-2.traceg:17: warp 3: 'insts = 3' but 2 instruction lines",
		"kernel-3.traceg:18: thread block (1,0,0) listed twice",
		"kernel-4.traceg:16: warp 1 listed twice in thread block (0,0,0)",
		"kernel-5.traceg:13: instruction line before 'warp = w'",
		"kernel-6.traceg:17: line outside a thread block; expected #BEGIN_TB",
		"kernel-7.traceg:15: file ends inside thread block (0,0,0); expected #END_TB",
		"kernel-8.traceg:13: warp 2 is outside the thread block of 2 warps",
		NULL,
	};

	expect_kernel_errors("bad-structure", msgs);
}

/*
 * The first pass reads only as far as the blocks asked for: blocks 0 then
 * 1 load without a look at block 2, whose line is malformed, and each
 * load goes on where the last stopped.  The rest of the file is read when
 * the kernel ends, so the error comes from the next trace_next_kernel,
 * and the kernel after it is read as usual.
 */
static void test_late_error(void)
{
	struct trace_reader *t = open_fixture("late-error", TRACE_AUTO);
	const struct gpu_kernel *k;
	const struct gpu_block *b;
	GError *err = NULL;
	uint64_t id;

	k = trace_next_kernel(t, &err);
	g_assert_nonnull(k);
	g_assert_cmpuint(k->grid_size, ==, 3);
	id = 0;
	g_assert_true(trace_load_blocks(t, &id, 1, &b, &err));
	g_assert_cmphex(b->lines[0].addr[0], ==, 0x1000);
	id = 1;
	g_assert_true(trace_load_blocks(t, &id, 1, &b, &err));
	g_assert_cmphex(b->lines[0].addr[0], ==, 0x2000);
	g_assert_null(trace_next_kernel(t, &err));
	assert_input_error(err, "kernel-1.traceg:29: cannot decode addresses: unknown mode 7");
	g_clear_error(&err);
	k = trace_next_kernel(t, &err);
	g_assert_nonnull(k);
	g_assert_cmpstr(k->name, ==, "after");
	trace_close(t);
}

static void test_bad_decode(void)
{
	static const char *const msgs[] = {
		"kernel-1.traceg:15: cannot decode addresses: unknown mode 7",
		"kernel-2.traceg:15: cannot decode addresses: address '0xq004' is not hexadecimal",
		"kernel-3.traceg:15: cannot decode addresses: delta '+-4' is not a signed 64-bit decimal",
		"kernel-4.traceg:15: truncated instruction line: no destination count",
		"kernel-5.traceg:15: active mask 'fffffffff0' is not a 32-bit hexadecimal mask",
		"kernel-6.traceg:15: cannot decode addresses: stride '2147483648' is not a signed 32-bit decimal",
		NULL,
	};

	expect_kernel_errors("bad-decode", msgs);
}

static void test_bad_deltas(void)
{
	static const char *const msgs[] = {
		"kernel-1.traceg:15: mode 2 with 5 deltas for 3 active lanes",
		NULL,
	};

	expect_kernel_errors("bad-deltas", msgs);
}

static void test_bad_trailing(void)
{
	static const char *const msgs[] = {
		"kernel-1.traceg:15: expected 1 field after the operands (per '#traces format'), got 0",
		"kernel-2.traceg:15: expected 2 fields then Val or NoVal after the operands (per '#traces format'), got no Val or NoVal",
		"kernel-3.traceg:15: expected 0 fields after the operands (per '#traces format'), got 1",
		NULL,
	};

	expect_kernel_errors("bad-trailing", msgs);
}

/*
 * Where a decoder notices corrupt data depends on the zlib / liblzma
 * version, so the byte offset of those two is matched loosely; a cut file
 * is noticed at its end.
 */
static void test_bad_compressed(void)
{
	static const char *const msgs[] = {
		"^kernel-1\\.traceg\\.xz: xz data is corrupt \\(at byte [0-9]+\\)$",
		"^kernel-2\\.traceg\\.gz: gzip data is corrupt \\(at byte [0-9]+\\)$",
		"kernel-3.traceg.gz: gzip data is truncated (at byte 400)",
		NULL,
	};

	expect_kernel_errors("bad-compressed", msgs);
}

/* ---- golden apps (../shared) -------------------------------------------- */

static char *golden(const char *path)
{
	return g_build_filename(shared, "golden", path, NULL);
}

static bool have_golden(const char *path)
{
	char *p;
	bool yes;

	if (!shared) {
		g_test_skip("../shared not found (set SECTORSIM_SHARED to the shared folder)");
		return false;
	}
	p = golden(path);
	yes = g_file_test(p, G_FILE_TEST_IS_DIR);
	if (!yes)
		g_test_skip("golden trace not found");
	g_free(p);
	return yes;
}

static void assert_same_block(const struct gpu_block *a,
			      const struct gpu_block *b)
{
	g_assert_cmpuint(a->id, ==, b->id);
	g_assert_cmpuint(a->n_lines, ==, b->n_lines);
	for (uint32_t i = 0; i < a->n_lines; i++) {
		const struct gpu_line *x = &a->lines[i], *y = &b->lines[i];

		g_assert_cmpstr(x->opcode, ==, y->opcode);
		g_assert_cmpuint(x->n_addr, ==, y->n_addr);
		g_assert_cmpint(x->step, ==, y->step);
		for (uint32_t k = 0; k < x->n_addr; k++)
			g_assert_cmphex(gpu_line_addr(x, k), ==, gpu_line_addr(y, k));
	}
}

/* APP/accelsim read by the conversion rule = APP/ppt, the converter's output */
static void test_golden_same_app(gconstpointer data)
{
	const char *app = data;
	char *as_path, *ppt_path, *sub = g_strconcat(app, "/ppt", NULL);
	struct trace_reader *as, *ppt;
	const struct gpu_kernel *ka;
	unsigned kernels = 0;

	if (!have_golden(sub)) {
		g_free(sub);
		return;
	}
	as_path = g_build_filename(shared, "golden", app, "accelsim", NULL);
	ppt_path = g_build_filename(shared, "golden", app, "ppt", NULL);
	as = open_ok(as_path, TRACE_ACCELSIM);
	ppt = open_ok(ppt_path, TRACE_PPT);
	while ((ka = trace_next_kernel(as, NULL))) {
		const struct gpu_kernel *kp = next_ok(ppt);
		const struct gpu_block **ba, **bp;

		g_assert_cmpuint(ka->id, ==, kp->id);
		g_assert_cmpstr(ka->name, ==, kp->name);
		g_assert_cmpuint(ka->grid_size, ==, kp->grid_size);
		g_assert_cmpuint(ka->block_size, ==, kp->block_size);
		g_assert_cmpuint(ka->regs, ==, kp->regs);
		g_assert_cmpuint(ka->smem, ==, kp->smem);
		g_assert_cmpuint(ka->stream_id, ==, kp->stream_id);
		ba = all_blocks(as, ka);
		bp = all_blocks(ppt, kp);
		for (uint64_t b = 0; b < ka->grid_size; b++)
			assert_same_block(ba[b], bp[b]);
		g_free(ba);
		g_free(bp);
		kernels++;
	}
	assert_end(ppt);
	g_assert_cmpuint(kernels, >, 0);
	trace_close(as);
	trace_close(ppt);
	g_free(as_path);
	g_free(ppt_path);
	g_free(sub);
}

/*
 * Blocks loaded one at a time, last first (every load goes back to the
 * start of the file) or first to last (every load after the first goes on
 * from where the previous one stopped), give what one load of all gives.
 */
static void test_golden_piecewise(void)
{
	char *path;
	struct trace_reader *whole, *down, *up;
	const struct gpu_kernel *k;

	if (!have_golden("accelsim_features/accelsim"))
		return;
	path = golden("accelsim_features/accelsim");
	whole = open_ok(path, TRACE_AUTO);
	down = open_ok(path, TRACE_AUTO);
	up = open_ok(path, TRACE_AUTO);
	while ((k = trace_next_kernel(whole, NULL))) {
		const struct gpu_block **all = all_blocks(whole, k);

		g_assert_cmpuint(next_ok(down)->id, ==, k->id);
		g_assert_cmpuint(next_ok(up)->id, ==, k->id);
		for (uint64_t b = k->grid_size; b-- > 0;)
			assert_same_block(block(down, b), all[b]);
		for (uint64_t b = 0; b < k->grid_size; b++)
			assert_same_block(block(up, b), all[b]);
		g_free(all);
	}
	assert_end(down);
	assert_end(up);
	trace_close(whole);
	trace_close(down);
	trace_close(up);
	g_free(path);
}

/*
 * accelsim_features, per kernel: shared and unknown instructions, kept
 * lines and the sum of their lane masks, from an independent decoding of
 * the trace (a Python script reading the instruction lines itself).  Its
 * ppt conversion knows none of them.
 */
static void test_golden_lanes(void)
{
	static const struct {
		uint64_t shared, unknown, lines, lanesum;
	} want[] = {
		{ 40, 0, 260, 717873395735 }, { 20, 0, 135, 380732611942 },
		{ 48, 0, 312, 861411586769 }, { 0, 0, 8, 34359738360 },
		{ 340, 0, 2210, 6110806748256 }, { 0, 0, 12, 51539607540 },
	};
	const char *const fmt[] = { "accelsim_features/accelsim", "accelsim_features/ppt" };

	for (int f = 0; f < 2; f++) {
		struct trace_reader *t;
		const struct gpu_kernel *k;
		char *path;
		size_t i = 0;

		if (!have_golden(fmt[f]))
			return;
		path = golden(fmt[f]);
		t = open_ok(path, TRACE_AUTO);
		while ((k = trace_next_kernel(t, NULL))) {
			const struct gpu_block **all = all_blocks(t, k);
			uint64_t shared = 0, unknown = 0, lines = 0, lanesum = 0;

			g_assert_cmpuint(i, <, G_N_ELEMENTS(want));
			for (uint64_t b = 0; b < k->grid_size; b++) {
				shared += all[b]->n_shared;
				unknown += all[b]->n_unknown;
				lines += all[b]->n_lines;
				for (uint32_t l = 0; l < all[b]->n_lines; l++) {
					const struct gpu_line *x = &all[b]->lines[l];

					lanesum += x->lanes;
					if (f == 0)
						g_assert_cmpuint(__builtin_popcount(x->lanes), ==, x->n_addr);
				}
			}
			g_assert_cmpuint(lines, ==, want[i].lines);
			if (f == 0) {
				g_assert_cmphex(k->shmem_base, ==, 0x7f2a58000000);
				g_assert_cmphex(k->local_base, ==, 0x7f2a56000000);
				g_assert_cmpuint(shared, ==, want[i].shared);
				g_assert_cmpuint(unknown, ==, want[i].unknown);
				g_assert_cmpuint(lanesum, ==, want[i].lanesum);
			} else {
				g_assert_cmpuint(shared + unknown + lanesum, ==, 0);
			}
			g_free(all);
			i++;
		}
		g_assert_cmpuint(i, ==, G_N_ELEMENTS(want));
		trace_close(t);
		g_free(path);
	}
}

struct golden_app {
	const char *path;
	unsigned kernels;
	uint64_t kept;		/* lines, golden/real/SOURCES.md */
};

static const struct golden_app golden_apps[] = {
	{ "real/vectoradd-a100-v5", 1, 4689 },
	{ "real/bfs-a100-v3", 16, 30949 },
	{ "real/btree-h100-v5", 2, 29328 },
	{ "real/backprop-h100-v5", 33, 9745 },
	{ "real/matrixmul-pascal-v4", 1, 96 },
	{ "real/vectoradd-pascal-v4", 1, 12 },
	{ "real/atax-h100-v5", 1, 2 },
	{ "real/atax-h100-v6", 1, 2 },
	{ "synth/app", 2, 13760 },	/* every line of its .mem files */
	{ "accelsim_features/accelsim", 6, 2937 },
	{ "accelsim_features/ppt", 6, 2937 },
};

/* Every kernel and every block; the time is reported, not checked. */
static void test_golden_load(gconstpointer data)
{
	const struct golden_app *app = data;
	struct trace_reader *t;
	const struct gpu_kernel *k;
	GError *err = NULL;
	unsigned kernels = 0;
	uint64_t kept = 0;
	gint64 start;
	char *path;

	if (!have_golden(app->path))
		return;
	path = golden(app->path);
	start = g_get_monotonic_time();
	t = open_ok(path, TRACE_AUTO);
	while ((k = trace_next_kernel(t, &err))) {
		const struct gpu_block **all = all_blocks(t, k);

		for (uint64_t b = 0; b < k->grid_size; b++)
			kept += all[b]->n_lines;
		g_free(all);
		kernels++;
	}
	g_assert_no_error(err);
	trace_close(t);
	g_test_message("%s: %u kernels, %" G_GUINT64_FORMAT " lines in %.1f ms",
		       app->path, kernels, kept,
		       (g_get_monotonic_time() - start) / 1000.0);
	g_assert_cmpuint(kernels, ==, app->kernels);
	g_assert_cmpuint(kept, ==, app->kept);
	g_free(path);
}

/* ---- the line reader -------------------------------------------------------- */

/* `r` (open) gives exactly the lines of `text` ("" gives none). */
static void expect_lines(struct line_reader *r, const char *text)
{
	char **want = g_strsplit(text, "\n", -1);
	guint n = g_strv_length(want);
	GError *err = NULL;
	char *line;
	size_t len;

	if (n && !*want[n - 1])	/* a final "\n" ends the last line */
		n--;
	for (guint i = 0; i < n; i++) {
		g_assert_cmpint(lr_next(r, &line, &len, &err), ==, 1);
		g_assert_cmpuint(len, ==, strlen(want[i]));
		g_assert_cmpstr(line, ==, want[i]);
		for (size_t k = 0; k < LR_SLACK; k++) {
			/* readable (ASan), defined (valgrind) */
			volatile char c = line[len + k];

			(void)c;
		}
	}
	g_assert_cmpint(lr_next(r, &line, &len, &err), ==, 0);
	g_assert_no_error(err);
	g_strfreev(want);
}

/* `n` bytes of lines of lengths 0..`longest`, "\n"-ended but the last. */
static char *some_text(size_t n, size_t longest)
{
	GString *s = g_string_sized_new(n);

	for (size_t i = 0; s->len < n; i++) {
		size_t len = MIN((i * 7919) % (longest + 1), n - s->len);

		for (size_t k = 0; k < len; k++)
			g_string_append_c(s, (char)('a' + (i + k) % 26));
		if (s->len < n)
			g_string_append_c(s, '\n');
	}
	return g_string_free(s, FALSE);
}

/*
 * One reader over files of every size its first buffer is chosen for:
 * empty, small (no final newline, a "\r\n"), a small file after a bigger
 * one (the buffer kept) and a bigger after a small one (replaced), one of
 * a single line longer than a chunk, a file that grew after it was opened
 * (its first buffer, sized from the old size, must grow), and a file of
 * /proc, whose size says 0 but which holds lines.
 */
static void test_linereader_sizes(void)
{
	const size_t sizes[] = { 0, 1, 10, 4095, 4096, 5000, 100000, 60,
				 131071, 131072, 300000, 7 };
	char *dir = g_dir_make_tmp("sectorsim-lr-XXXXXX", NULL);
	char *path = g_build_filename(dir, "f", NULL);
	struct line_reader r;
	GError *err = NULL;
	char *text, *more, *line;
	size_t len;
	FILE *f;

	g_assert_nonnull(dir);
	lr_init(&r);
	for (size_t i = 0; i < G_N_ELEMENTS(sizes); i++) {
		text = some_text(sizes[i], i == 10 ? 300000 : 150);
		g_assert_true(g_file_set_contents(path, text, -1, NULL));
		g_assert_true(lr_open(&r, path, "f", NULL, &err));
		expect_lines(&r, text);
		g_free(text);
	}

	g_assert_true(g_file_set_contents(path, "a\r\nb\r\n\r\nc", -1, NULL));
	g_assert_true(lr_open(&r, path, "f", NULL, &err));
	expect_lines(&r, "a\nb\n\nc");

	/* grown after the open: 100 bytes said, 200000 read */
	text = some_text(100, 40);
	more = some_text(200000, 2000);
	g_assert_true(g_file_set_contents(path, text, -1, NULL));
	lr_free(&r);
	lr_init(&r);
	g_assert_true(lr_open(&r, path, "f", NULL, &err));
	f = fopen(path, "ab");
	g_assert_nonnull(f);
	fputc('\n', f);
	fputs(more, f);
	g_assert_cmpint(fclose(f), ==, 0);
	{
		char *all = g_strconcat(text, "\n", more, NULL);

		expect_lines(&r, all);
		g_free(all);
	}
	g_free(text);
	g_free(more);

	/* size 0, yet lines */
	if (g_file_test("/proc/self/maps", G_FILE_TEST_EXISTS)) {
		int n = 0, ret;

		g_assert_true(lr_open(&r, "/proc/self/maps", "maps", NULL, &err));
		while ((ret = lr_next(&r, &line, &len, &err)) == 1)
			n++;
		g_assert_cmpint(ret, ==, 0);
		g_assert_cmpint(n, >, 0);
	}
	g_assert_no_error(err);
	lr_free(&r);
	g_unlink(path);
	g_rmdir(dir);
	g_free(path);
	g_free(dir);
}

/* ---- compressed files: decoded inline when small, on a thread when big -- */

static GBytes *gzip_bytes(const char *text, size_t n)
{
	z_stream z = { 0 };
	size_t cap = deflateBound(&z, (uLong)n) + 64;
	unsigned char *out = g_malloc(cap);

	g_assert_cmpint(deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8,
				     Z_DEFAULT_STRATEGY), ==, Z_OK);
	z.next_in = (Bytef *)text;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	g_assert_cmpint(deflate(&z, Z_FINISH), ==, Z_STREAM_END);
	n = z.total_out;
	deflateEnd(&z);
	return g_bytes_new_take(out, n);
}

static GBytes *xz_bytes(const char *text, size_t n)
{
	size_t cap = lzma_stream_buffer_bound(n), pos = 0;
	uint8_t *out = g_malloc(cap);

	g_assert_cmpint(lzma_easy_buffer_encode(1, LZMA_CHECK_CRC64, NULL,
						(const uint8_t *)text, n, out,
						&pos, cap), ==, LZMA_OK);
	return g_bytes_new_take(out, pos);
}

/* `n` bytes of lines of random hex: about half as big compressed */
static char *hex_text(size_t n, guint32 seed)
{
	GRand *rng = g_rand_new_with_seed(seed);
	char *s = g_malloc(n + 1);

	for (size_t i = 0; i < n; i++)
		s[i] = i % 41 == 40 ? '\n' : "0123456789abcdef"[g_rand_int(rng) % 16];
	s[n] = '\0';
	g_rand_free(rng);
	return s;
}

/*
 * Both codecs, a file smaller than one read (decoded by the reader) and
 * one bigger (by the decoding thread), whole and cut: the same lines as
 * the plain text; for a cut file every line decoded before the cut, in
 * order, then the codec's error; for a damaged one, text then the error.
 */
static void test_linereader_compressed(void)
{
	const size_t sizes[] = { 0, 1000, 60000, 400000 };
	char *dir = g_dir_make_tmp("sectorsim-lrz-XXXXXX", NULL);
	struct line_reader r;

	g_assert_nonnull(dir);
	lr_init(&r);
	for (int codec = 0; codec < 2; codec++) {
		const char *suffix = codec ? ".xz" : ".gz";
		char *path = g_strconcat(dir, "/f", suffix, NULL);
		bool saw_small = false, saw_big = false;

		for (size_t i = 0; i < G_N_ELEMENTS(sizes); i++) {
			char *text = hex_text(sizes[i], (guint32)i);
			GBytes *z = codec ? xz_bytes(text, sizes[i])
				: gzip_bytes(text, sizes[i]);
			size_t zlen;
			const char *zdata = g_bytes_get_data(z, &zlen);
			GError *err = NULL;
			char *line;
			size_t len, at = 0;
			int ret;

			g_assert_true(g_file_set_contents(path, zdata, (gssize)zlen, NULL));
			g_assert_true(lr_open(&r, path, "f", NULL, &err));
			g_assert_cmpint(r.threaded, ==, zlen > 64 * 1024);
			saw_small |= !r.threaded;
			saw_big |= r.threaded;
			expect_lines(&r, text);

			/* cut at two thirds: a prefix of the lines, then the error */
			g_assert_true(g_file_set_contents(path, zdata,
							  (gssize)(zlen * 2 / 3), NULL));
			g_assert_true(lr_open(&r, path, "f", NULL, &err));
			while ((ret = lr_next(&r, &line, &len, &err)) == 1) {
				g_assert_cmpmem(line, len, text + at, len);
				at += len;
				g_assert_true(text[at] == '\n' || !text[at]);
				at++;
			}
			g_assert_cmpint(ret, ==, -1);
			g_assert_nonnull(err);
			g_assert_true(strstr(err->message, "truncated") ||
				      strstr(err->message, "corrupt"));
			/* the text before the cut came first, small or big */
			if (sizes[i] >= 60000)
				g_assert_cmpuint(at, >, sizes[i] / 3);
			g_clear_error(&err);

			/*
			 * damaged at two thirds: text (maybe wrong after the
			 * damage), then the error; a decoder that meets the
			 * damage in the call that decodes the text before it
			 * must still hand that text over first
			 */
			{
				char *bad = g_memdup2(zdata, zlen);

				for (size_t k = zlen * 2 / 3; k < zlen * 2 / 3 + 64 && k < zlen; k++)
					bad[k] = (char)(bad[k] ^ 0x5a);
				g_assert_true(g_file_set_contents(path, bad, (gssize)zlen, NULL));
				g_free(bad);
			}
			g_assert_true(lr_open(&r, path, "f", NULL, &err));
			at = 0;
			while ((ret = lr_next(&r, &line, &len, &err)) == 1)
				at += len + 1;
			g_assert_cmpint(ret, ==, -1);
			g_assert_nonnull(err);
			if (sizes[i] >= 60000)
				g_assert_cmpuint(at, >, sizes[i] / 3);
			g_clear_error(&err);
			g_bytes_unref(z);
			g_free(text);
		}
		g_assert_true(saw_small && saw_big);
		g_unlink(path);
		g_free(path);
	}
	lr_free(&r);
	g_rmdir(dir);
	g_free(dir);
}

/*
 * The word-at-a-time hex scanners against parse_hex64 on tokens of every
 * length 0..20, of every digit and case, with every kind of byte after
 * them: the same end, the same value, and NULL exactly where a token has
 * more than 16 digits.
 */
typedef const char *(*scan_fn)(const char *, uint64_t *);

static void check_scan(scan_fn scan, const char *tok, size_t n)
{
	uint64_t want = 0, got = 0;
	bool ok = parse_hex64(tok, n, &want);
	const char *end = scan(tok, &got);

	if (n > 16) {
		g_assert_null(end);
		return;
	}
	g_assert_true(end == tok + n);
	g_assert_true(ok == (n > 0));
	if (n && got != want)
		g_error("'%.*s' (%zu digits): %" G_GINT64_MODIFIER "x, expected %"
			G_GINT64_MODIFIER "x", (int)n, tok, n, got, want);
}

/* Every hex digit, both cases, for the scanners' random tokens. */
static const char hex_digits[] = "0123456789abcdefABCDEF";

/* buf[from..to) as random hex digits. */
static void random_hex(GRand *rnd, char *buf, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		buf[i] = hex_digits[g_rand_int_range(rnd, 0, sizeof(hex_digits) - 1)];
}

static void test_scan_hex(void)
{
	static const char after[] = { ' ', '\0', '\n', 'g', 'G', 'x', '/', ':',
				      '@', '`', '\x80', '\xb0', '\xe1', '\xff' };
	scan_fn scans[] = { scan_hex_swar, scan_hex,
#ifdef HAVE_SCAN_HEX_SSE2
		scan_hex_sse2,
#endif
	};
	GRand *rnd = g_rand_new_with_seed(12);
	char buf[48];

	for (size_t n = 0; n <= 20; n++) {
		for (guint rep = 0; rep < 400; rep++) {
			random_hex(rnd, buf, 0, n);
			if (rep < 22 && n)	/* every digit in every place */
				memset(buf, hex_digits[rep], n);
			buf[n] = after[rep % sizeof(after)];
			random_hex(rnd, buf, n + 1, sizeof(buf));
			for (size_t f = 0; f < G_N_ELEMENTS(scans); f++)
				check_scan(scans[f], buf, n);
		}
	}
	g_rand_free(rnd);
}

typedef const char *(*token_fn)(const char *p, const char *end, uint64_t *v);

/*
 * scan_hex_token's verdict on the token at p of a line ending at end: 1
 * to 15 hex digits, no prefix, then a space or the end; NULL otherwise.
 */
static const char *token_expected(const char *p, const char *end, uint64_t *v)
{
	size_t n = 0;

	while (p + n < end && g_ascii_isxdigit(p[n]))
		n++;
	if (n == 0 || n > 15 || (p + n != end && p[n] != ' '))
		return NULL;
	g_assert_true(parse_hex64(p, n, v));
	return p + n + 1;
}

/*
 * scan_hex_token, on SSE2 and plain, against the rule written out: tokens
 * of 0 to 20 digits, with and without 0x, before every kind of byte and
 * at the line's end (a NUL there, whatever follows in the buffer).
 */
static void test_scan_hex_token(void)
{
	static const char after[] = { ' ', '\0', '\n', '\t', 'g', 'x', '/', ':',
				      '@', '`', '\x80', '\xff', '0', 'f' };
	token_fn scans[] = { scan_hex_token, scan_hex_token_plain,
#ifdef HAVE_SCAN_HEX_SSE2
		scan_hex_token_sse2,
#endif
	};
	GRand *rnd = g_rand_new_with_seed(13);
	char buf[64];
	unsigned fast = 0;

	for (size_t n = 0; n <= 20; n++) {
		for (guint rep = 0; rep < 600; rep++) {
			size_t pre = rep % 5 == 4 ? 2 : 0, tok = pre + n, line;
			uint64_t want = 0;
			const char *w;

			random_hex(rnd, buf, 0, sizeof(buf));
			if (pre)
				memcpy(buf, rep % 2 ? "0x" : "0X", 2);
			buf[tok] = after[rep % sizeof(after)];
			/* the line ends at the token, or a little after it */
			line = rep % 3 == 0 ? tok : tok + 1 + (size_t)g_rand_int_range(rnd, 0, 20);
			buf[line] = '\0';
			w = token_expected(buf, buf + line, &want);
			fast += w != NULL;
			for (size_t f = 0; f < G_N_ELEMENTS(scans); f++) {
				uint64_t got = 0;
				const char *q = scans[f](buf, buf + line, &got);

				if (q != w || (w && got != want))
					g_error("scan %zu on '%s' (line of %zu): %s, expected %s",
						f, buf, line, q ? "a token" : "NULL",
						w ? "a token" : "NULL");
			}
		}
	}
	/* both verdicts were met, many times */
	g_assert_cmpuint(fast, >, 1000);
	g_assert_cmpuint(fast, <, 21 * 600 - 1000);
	g_rand_free(rnd);
}

/*
 * scan_hex_line's rule written out: -1 unless every byte of the line is a
 * hex digit or a space and every token has 1 to 16 digits; else the
 * tokens' values, empty ones skipped.
 */
static long line_expected(const char *p, const char *end, uint64_t *v)
{
	long n = 0;

	for (const char *q = p; q < end; q++)
		if (*q != ' ' && !g_ascii_isxdigit(*q))
			return -1;
	while (p < end) {
		const char *t = p;

		while (p < end && *p != ' ')
			p++;
		if (p - t > 16)
			return -1;
		if (p > t)
			g_assert_true(parse_hex64(t, (size_t)(p - t), &v[n++]));
		if (p < end)
			p++;
	}
	return n;
}

/*
 * scan_hex_line against that rule: lines of 0 to 300 bytes (several of
 * its 64-byte windows, tokens across their edges), tokens of 0 to 18
 * digits in both cases, one to three spaces between them and at either
 * end, now and then a stray byte; after the line's NUL, hex digits up to
 * LR_SLACK, which it must not take for the line's.
 */
static void test_scan_hex_line(void)
{
	static const char stray[] = { 'g', 'x', '\t', '/', ':', '@', '`', '\x80', '\xff', 'G' };
	GRand *rnd = g_rand_new_with_seed(15);
	char buf[400 + LR_SLACK];
	uint64_t want[200], got[200];
	unsigned whole = 0, refused = 0;

	for (guint rep = 0; rep < 20000; rep++) {
		size_t len = 0, cap = (size_t)g_rand_int_range(rnd, 0, 301);
		int max_digits = rep % 4 ? 16 : 18;
		long w, g;

		while (len < cap) {
			size_t spaces = (size_t)g_rand_int_range(rnd, rep % 3 ? 1 : 0, 4);
			size_t digits = (size_t)g_rand_int_range(rnd, 0, max_digits + 1);

			for (size_t k = 0; k < spaces && len < cap; k++)
				buf[len++] = ' ';
			digits = MIN(digits, cap - len);
			random_hex(rnd, buf, len, len + digits);
			len += digits;
		}
		if (rep % 7 == 0 && len)
			buf[g_rand_int_range(rnd, 0, (gint32)len)] =
				stray[g_rand_int_range(rnd, 0, sizeof(stray))];
		buf[len] = '\0';
		random_hex(rnd, buf, len + 1, len + LR_SLACK);
		w = line_expected(buf, buf + len, want);
		g = scan_hex_line(buf, buf + len, got);
#ifdef HAVE_SCAN_HEX_SSE2
		if (g != w)
			g_error("'%s' (%zu bytes): %ld tokens, expected %ld", buf, len, g, w);
		for (long k = 0; k < w; k++)
			if (got[k] != want[k])
				g_error("'%s': token %ld is %" G_GINT64_MODIFIER "x, expected %"
					G_GINT64_MODIFIER "x", buf, k, got[k], want[k]);
#else
		g_assert_cmpint(g, ==, -1);	/* no fast path: token by token */
#endif
		whole += w >= 0;
		refused += w < 0;
	}
	/* both answers, many times */
	g_assert_cmpuint(whole, >, 5000);
	g_assert_cmpuint(refused, >, 2000);
	g_rand_free(rnd);
}

/*
 * scan_hex_line_fixed, its AVX2 form (where the processor has AVX2) and
 * scan_hex_line_usual, which picks one, take the usual paper-format line
 * (tokens of one length, 1 to 15 digits, one space after each but maybe
 * the last) and give scan_hex_line's rule's answer for it; for any other
 * line, -1.
 * Lines of 0 to 24 tokens of 1 to 16 digits in both cases, with or
 * without the last space, and one line in two spoilt in one place: a
 * token a digit longer or shorter, two spaces, a space first, a stray
 * byte; after the line's NUL, hex digits up to LR_SLACK.
 */
static void test_scan_hex_line_fixed(void)
{
	GRand *rnd = g_rand_new_with_seed(16);
	char buf[24 * 18 + 8 + LR_SLACK];
	uint64_t want[40], got[40];
	unsigned taken = 0, refused = 0;

	for (guint rep = 0; rep < 30000; rep++) {
		unsigned digits = (unsigned)g_rand_int_range(rnd, 1, 17);
		unsigned tokens = (unsigned)g_rand_int_range(rnd, 0, 25);
		bool last_space = g_rand_boolean(rnd);
		size_t len = 0;
		long w, g;

		for (unsigned k = 0; k < tokens; k++) {
			random_hex(rnd, buf, len, len + digits);
			len += digits;
			if (k + 1 < tokens || last_space)
				buf[len++] = ' ';
		}
		if (rep % 2 && len) {
			size_t at = (size_t)g_rand_int_range(rnd, 0, (gint32)len);

			switch (g_rand_int_range(rnd, 0, 5)) {
			case 0:		/* a token one digit longer: the rest moves */
				memmove(buf + at + 1, buf + at, len - at);
				buf[at] = buf[at + 1] == ' ' ? 'a' : buf[at + 1];
				len++;
				break;
			case 1:		/* one byte fewer: a shorter token, or a space gone */
				memmove(buf + at, buf + at + 1, len - at - 1);
				len--;
				break;
			case 2:		/* a space more */
				memmove(buf + at + 1, buf + at, len - at);
				buf[at] = ' ';
				len++;
				break;
			case 3:
				buf[at] = "gx:/"[g_rand_int_range(rnd, 0, 4)];
				break;
			default:	/* a space first */
				memmove(buf + 1, buf, len);
				buf[0] = ' ';
				len++;
				break;
			}
		}
		buf[len] = '\0';
		random_hex(rnd, buf, len + 1, len + LR_SLACK);
		w = line_expected(buf, buf + len, want);
		g = scan_hex_line_usual(buf, buf + len, got);
#ifdef HAVE_SCAN_HEX_SSE2
		for (int f = 0; f < 3; f++) {
			long h;

			/* each way the processor may take; avx2 where it can */
			memset(got, 0xa5, sizeof(got));
			if (f == 0)
				h = scan_hex_line_usual(buf, buf + len, got);
			else if (f == 1)
				h = scan_hex_line_fixed(buf, buf + len, got);
			else if (__builtin_cpu_supports("avx2"))
				h = scan_hex_line_fixed_avx2(buf, buf + len, got);
			else
				continue;
			/* the unspoilt lines of 1 to 15 digits are taken, whole */
			if (!(rep % 2) && digits <= 15 && h != w)
				g_error("'%s' (%zu bytes): way %d, %ld tokens, expected %ld",
					buf, len, f, h, w);
			if (h < 0)
				continue;
			if (h != w)
				g_error("'%s' (%zu bytes): way %d, %ld tokens, expected %ld",
					buf, len, f, h, w);
			for (long k = 0; k < w; k++)
				if (got[k] != want[k])
					g_error("'%s': way %d, token %ld is %" G_GINT64_MODIFIER
						"x, expected %" G_GINT64_MODIFIER "x",
						buf, f, k, got[k], want[k]);
		}
#endif
		taken += g >= 0;
		refused += g < 0;
	}
#ifdef HAVE_SCAN_HEX_SSE2
	g_assert_cmpuint(taken, >, 12000);
	g_assert_cmpuint(refused, >, 8000);
#else
	g_assert_cmpuint(taken, ==, 0);	/* no fast path */
#endif
	g_rand_free(rnd);
}

/* find_space against the byte loop: spaces anywhere, or none, before and
 * after a line's end at every place in the first 48 bytes. */
static void test_find_space(void)
{
	GRand *rnd = g_rand_new_with_seed(14);
	char buf[48 + 64];

	for (size_t line = 0; line <= 48; line++) {
		for (guint rep = 0; rep < 200; rep++) {
			char *want;

			for (size_t i = 0; i < sizeof(buf); i++)
				buf[i] = g_rand_int_range(rnd, 0, 8) ? 'a' + (char)(i % 26) : ' ';
			if (rep % 4 == 0)	/* no space before the end */
				memset(buf, 'x', line);
			buf[line] = '\0';
			want = buf;
			while (want < buf + line && *want != ' ')
				want++;
			g_assert_true(find_space(buf, buf + line) == want);
		}
	}
	g_rand_free(rnd);
}

/* ---- Nugteren's .trc ------------------------------------------------------ */

static void check_trc_line(const struct gpu_line *l, const char *op, uint32_t warp,
		       uint32_t lanes, uint64_t base, uint64_t step)
{
	uint32_t k = 0;

	g_assert_cmpstr(l->opcode, ==, op);
	g_assert_cmpuint(l->warp, ==, warp);
	g_assert_cmpuint(l->lanes, ==, lanes);
	g_assert_cmpuint(l->n_addr, ==, (uint32_t)__builtin_popcount(lanes));
	for (uint32_t lane = 0; lane < 32; lane++)
		if (lanes & (1u << lane))
			g_assert_cmpuint(gpu_line_addr(l, k++), ==, base + step * lane);
}

/*
 * Threads' accesses by index make a warp's instructions: a line per
 * direction and size at each index, round-robin over a block's warps; a
 * short last warp; lines of threads in any order; kernels NAME_00, _01.
 */
static void test_trc_blocks(void)
{
	GString *k0 = g_string_new("blocksize: 40 1 1\n");
	char *dir, *path;
	GError *err = NULL;
	struct trace_reader *t;
	const struct gpu_kernel *k;
	const struct gpu_block *b[2];
	const uint64_t ids[2] = { 0, 1 };

	/* threads backwards: only the order within a thread counts */
	for (int tid = 79; tid >= 0; tid--) {
		g_string_append_printf(k0, "%d 0 %d 4\n", tid, 1000 + 4 * tid);
		if (tid == 3)
			g_string_append(k0, "  3 1 3000 4 \n\n");
		else if (tid % 2 == 0)
			g_string_append_printf(k0, "%d 0 %d 8\n", tid, 5000 + 8 * tid);
	}
	{
		const char *const files[] = { "prog/prog_00.trc", k0->str,
			"prog/prog_01.trc", "x 32 1 1\n5 0 64 16\n", "prog/prog_03.trc", "x 1 1 1\n0 0 0 4\n", NULL };

		dir = write_trace(files);
	}
	path = g_build_filename(dir, "prog", NULL);
	t = trace_open(path, TRACE_AUTO, &err);
	g_assert_no_error(err);
	g_assert_cmpstr(trace_format_names[trace_format_of(t)], ==, "trc");
	k = trace_next_kernel(t, &err);
	g_assert_no_error(err);
	g_assert_cmpuint(k->id, ==, 1);
	g_assert_cmpstr(k->name, ==, "prog_00");
	g_assert_cmpuint(k->grid_size, ==, 2);
	g_assert_cmpuint(k->block_size, ==, 40);
	g_assert_cmpuint(k->block[0], ==, 40);
	g_assert_cmpuint(k->n_kernels, ==, 2);
	g_assert_true(trace_load_blocks(t, ids, 2, b, &err));
	g_assert_no_error(err);
	/* block 0: round 0, warps 0 and 1; round 1: warp 0's 8-byte loads
	 * of its even threads, then thread 3's store; warp 1's even threads */
	g_assert_cmpuint(b[0]->n_lines, ==, 5);
	check_trc_line(&b[0]->lines[0], "LDG.E.32", 0, 0xffffffffu, 1000, 4);
	check_trc_line(&b[0]->lines[1], "LDG.E.32", 1, 0xffu, 1000 + 4 * 32, 4);
	check_trc_line(&b[0]->lines[2], "LDG.E.64", 0, 0x55555555u, 5000, 8);
	g_assert_cmpstr(b[0]->lines[3].opcode, ==, "STG.E.32");
	g_assert_cmpuint(b[0]->lines[3].lanes, ==, 1u << 3);
	g_assert_cmpuint(b[0]->lines[3].addr[0], ==, 3000);
	check_trc_line(&b[0]->lines[4], "LDG.E.64", 1, 0x55u, 5000 + 8 * 32, 8);
	/* block 1: threads 40..79, warps of 32 and 8 */
	g_assert_cmpuint(b[1]->n_lines, ==, 4);
	check_trc_line(&b[1]->lines[0], "LDG.E.32", 0, 0xffffffffu, 1000 + 4 * 40, 4);
	check_trc_line(&b[1]->lines[1], "LDG.E.32", 1, 0xffu, 1000 + 4 * 72, 4);
	check_trc_line(&b[1]->lines[2], "LDG.E.64", 0, 0x55555555u, 5000 + 8 * 40, 8);
	check_trc_line(&b[1]->lines[3], "LDG.E.64", 1, 0x55u, 5000 + 8 * 72, 8);
	/* the next kernel; _02 is missing, so _03 is not one */
	k = trace_next_kernel(t, &err);
	g_assert_no_error(err);
	g_assert_cmpuint(k->id, ==, 2);
	g_assert_cmpuint(k->grid_size, ==, 1);
	g_assert_true(trace_load_blocks(t, ids, 1, b, &err));
	g_assert_cmpuint(b[0]->n_lines, ==, 1);
	check_trc_line(&b[0]->lines[0], "LDG.E.128", 0, 1u << 5, 64 - 16 * 5, 16);
	g_assert_null(trace_next_kernel(t, &err));
	g_assert_no_error(err);
	trace_close(t);
	g_string_free(k0, TRUE);
	g_free(path);
	remove_tree(dir);
	g_free(dir);
}

/* Each malformed kernel file: one FILE:LINE message. */
static void test_trc_bad(void)
{
	static const struct { const char *text, *msg; } cases[] = {
		{ "", "p_00.trc: empty; expected a header such as 'blocksize: 256 1 1'" },
		{ "blocksize: 0 1 1\n", "p_00.trc:1: a malformed header; expected a word and the block's dimensions, as 'blocksize: 256 1 1' (at most 1048576 threads)" },
		{ "blocksize: 32 1\n", "p_00.trc:1: a malformed header; expected a word and the block's dimensions, as 'blocksize: 256 1 1' (at most 1048576 threads)" },
		{ "b 32 1 1\n", "p_00.trc: no accesses; expected lines 'tid dir addr bytes' after the header" },
		{ "b 32 1 1\n0 0 4\n", "p_00.trc:2: 3 fields; expected 'tid dir addr bytes'" },
		{ "b 32 1 1\n0 0 4 4 4\n", "p_00.trc:2: more than 4 fields; expected 'tid dir addr bytes'" },
		{ "b 32 1 1\n0 0 0x10 4\n", "p_00.trc:2: '0x10' is not an address; expected 'tid dir addr bytes' in decimal" },
		{ "b 32 1 1\n-1 0 16 4\n", "p_00.trc:2: '-1' is not a thread id; expected 'tid dir addr bytes' in decimal" },
		{ "b 32 1 1\n0 2 16 4\n", "p_00.trc:2: direction 2; expected 0 (a load) or 1 (a store)" },
		{ "b 32 1 1\n0 0 16 0\n", "p_00.trc:2: an access of 0 bytes; expected 1 to 16" },
		{ "b 32 1 1\n0 0 16 32\n", "p_00.trc:2: an access of 32 bytes; expected 1 to 16" },
		{ "b 32 1 1\n0 0 18446744073709551615 4\n", "p_00.trc:2: an access of 4 bytes at 18446744073709551615 runs past the address space" },
		{ "b 32 1 1\n16777216 0 16 4\n", "p_00.trc:2: thread id 16777216 is too large; expected below 16777216" },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		const char *const files[] = { "p/p_00.trc", cases[i].text, NULL };
		char *dir = write_trace(files), *path = g_build_filename(dir, "p", NULL);
		GError *err = NULL;
		struct trace_reader *t = trace_open(path, TRACE_AUTO, &err);

		g_assert_no_error(err);
		g_assert_null(trace_next_kernel(t, &err));
		assert_input_error(err, cases[i].msg);
		g_error_free(err);
		trace_close(t);
		g_free(path);
		remove_tree(dir);
		g_free(dir);
	}
}

/*
 * Loads only, as the model reads: a store takes no index among a thread's
 * accesses, a thread with stores only adds no block, and a kernel with no
 * load ends the trace; other formats refuse it.
 */
static void test_trc_loads_only(void)
{
	static const char *const files[] = {
		"q/q_00.trc", "b 32 1 1\n0 0 256 4\n0 1 512 4\n0 0 768 4\n40 1 0 4\n",
		"q/q_01.trc", "b 32 1 1\n0 1 0 4\n",
		"q/q_02.trc", "b 32 1 1\n0 0 0 4\n", NULL };
	char *dir = write_trace(files), *path = g_build_filename(dir, "q", NULL);
	char *ppt = g_build_filename(g_getenv("G_TEST_SRCDIR"), "data/trace/ppt", NULL);
	const uint64_t id = 0;
	const struct gpu_block *b;
	const struct gpu_kernel *k;
	GError *err = NULL;
	struct trace_reader *t;

	/* as written: three lines, and thread 40's store makes a block */
	t = trace_open(path, TRACE_AUTO, &err);
	g_assert_no_error(err);
	k = trace_next_kernel(t, &err);
	g_assert_cmpuint(k->grid_size, ==, 2);
	g_assert_true(trace_load_blocks(t, &id, 1, &b, &err));
	g_assert_cmpuint(b->n_lines, ==, 3);
	g_assert_cmpstr(b->lines[1].opcode, ==, "STG.E.32");
	g_assert_nonnull(trace_next_kernel(t, &err));
	g_assert_nonnull(trace_next_kernel(t, &err));
	trace_close(t);
	/* loads only: two lines, one block, and q_01 ends the trace */
	t = trace_open(path, TRACE_AUTO, &err);
	g_assert_true(trace_set_loads_only(t, &err));
	k = trace_next_kernel(t, &err);
	g_assert_cmpuint(k->grid_size, ==, 1);
	g_assert_true(trace_load_blocks(t, &id, 1, &b, &err));
	g_assert_cmpuint(b->n_lines, ==, 2);
	g_assert_cmpstr(b->lines[1].opcode, ==, "LDG.E.32");
	g_assert_cmpuint(b->lines[1].addr[0], ==, 768);
	g_assert_null(trace_next_kernel(t, &err));
	g_assert_no_error(err);
	g_assert_null(trace_next_kernel(t, &err));
	g_assert_no_error(err);
	trace_close(t);
	/* a malformed store is still an error */
	{
		static const char *const bad[] = { "r/r_00.trc", "b 32 1 1\n0 1 0 0\n", NULL };
		char *d2 = write_trace(bad), *p2 = g_build_filename(d2, "r", NULL);

		t = trace_open(p2, TRACE_AUTO, &err);
		g_assert_true(trace_set_loads_only(t, &err));
		g_assert_null(trace_next_kernel(t, &err));
		assert_input_error(err, "r_00.trc:2: an access of 0 bytes; expected 1 to 16");
		g_clear_error(&err);
		trace_close(t);
		g_free(p2);
		remove_tree(d2);
		g_free(d2);
	}
	/* asked for, a file of any name is one kernel */
	{
		static const char *const other[] = { "kernel.txt", "b 32 1 1\n0 0 64 8\n", NULL };
		char *d3 = write_trace(other), *p3 = g_build_filename(d3, "kernel.txt", NULL);

		t = trace_open(p3, TRACE_TRC, &err);
		g_assert_no_error(err);
		k = trace_next_kernel(t, &err);
		g_assert_no_error(err);
		g_assert_cmpstr(k->name, ==, "kernel.txt");
		g_assert_null(trace_next_kernel(t, &err));
		trace_close(t);
		g_free(p3);
		remove_tree(d3);
		g_free(d3);
	}
	/* the other formats refuse */
	t = trace_open(ppt, TRACE_AUTO, &err);
	g_assert_no_error(err);
	g_assert_false(trace_set_loads_only(t, &err));
	g_assert_error(err, SS_ERROR, SS_ERROR_CONFIG);
	g_assert_cmpstr(err->message, ==, "ppt traces cannot be read as loads only; only trc traces (Nugteren et al.'s) can");
	g_clear_error(&err);
	trace_close(t);
	g_free(ppt);
	g_free(path);
	remove_tree(dir);
	g_free(dir);
}

/* A folder of several programs is read only when named after one. */
static void test_trc_folder(void)
{
	static const char *const two[] = { "a_00.trc", "b 1 1 1\n0 0 0 4\n",
					    "b_00.trc", "b 1 1 1\n0 0 0 4\n", NULL };
	char *dir = write_trace(two), *msg, *own, *from;
	GError *err = NULL;
	struct trace_reader *t;

	g_assert_null(trace_open(dir, TRACE_AUTO, &err));
	msg = g_strdup_printf("%s: 2 files named NAME_00.trc; expected the traces of one program (or one named after the folder)", dir);
	assert_input_error(err, msg);
	g_clear_error(&err);
	g_free(msg);
	/* asked for as trc, the same; a file named after the folder wins */
	g_assert_null(trace_open(dir, TRACE_TRC, &err));
	g_clear_error(&err);
	{
		char *base = g_path_get_basename(dir);

		own = g_strconcat(base, "_00.trc", NULL);
		g_free(base);
	}
	from = g_build_filename(dir, "a_00.trc", NULL);
	{
		char *to = g_build_filename(dir, own, NULL);

		g_assert_cmpint(g_rename(from, to), ==, 0);
		g_free(to);
	}
	t = trace_open(dir, TRACE_AUTO, &err);
	g_assert_no_error(err);
	g_assert_cmpuint(trace_next_kernel(t, &err)->grid_size, ==, 1);
	trace_close(t);
	g_free(own);
	g_free(from);
	remove_tree(dir);
	g_free(dir);
}

/* trace_format_names[] is indexed by the format each trace is read as. */
static void test_format_names(void)
{
	static const struct { const char *path, *name; } cases[] = {
		{ "data/trace/ppt", "ppt" },
		{ "data/trace/accelsim", "accelsim" },
		{ "data/trace/native/ppt.sst", "native" },
		{ "data/trace/trc", "trc" },
		{ "data/trace/trc/trc_01.trc", "trc" },
	};

	g_assert_cmpstr(trace_format_names[TRACE_AUTO], ==, "auto");
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		char *path = g_build_filename(g_getenv("G_TEST_SRCDIR"), cases[i].path, NULL);
		GError *err = NULL;
		struct trace_reader *t = trace_open(path, TRACE_AUTO, &err);

		g_assert_no_error(err);
		g_assert_cmpstr(trace_format_names[trace_format_of(t)], ==, cases[i].name);
		trace_close(t);
		g_free(path);
	}
}

/*
 * Concatenated gzip members (what `cat a.gz b.gz` makes) read as one text,
 * small and big, whichever decoder was built (ISA-L or zlib); bytes after a
 * member that do not start another are corrupt, after the text before them.
 */
static void test_linereader_gzip_members(void)
{
	const size_t sizes[] = { 1000, 300000 };
	char *dir = g_dir_make_tmp("sectorsim-lrm-XXXXXX", NULL);
	char *path = g_strconcat(dir, "/m.gz", NULL);
	struct line_reader r;

	lr_init(&r);
	for (size_t i = 0; i < G_N_ELEMENTS(sizes); i++) {
		char *a = hex_text(sizes[i], 7), *b = hex_text(sizes[i] / 2, 8);
		char *a_nl = g_strconcat(a, "\n", NULL), *b_nl = g_strconcat(b, "\n", NULL);
		char *ab = g_strconcat(a_nl, b_nl, NULL);
		GBytes *za = gzip_bytes(a_nl, strlen(a_nl)), *zb = gzip_bytes(b_nl, strlen(b_nl));
		GByteArray *cat = g_byte_array_new();
		GError *err = NULL;
		char *line;
		size_t len, at = 0;
		int ret;

		g_byte_array_append(cat, g_bytes_get_data(za, NULL), (guint)g_bytes_get_size(za));
		g_byte_array_append(cat, g_bytes_get_data(zb, NULL), (guint)g_bytes_get_size(zb));
		g_assert_true(g_file_set_contents(path, (const char *)cat->data,
						  (gssize)cat->len, NULL));
		g_assert_true(lr_open(&r, path, "m.gz", NULL, &err));
		expect_lines(&r, ab);

		/* a third "member" that is no gzip at all */
		g_byte_array_append(cat, (const guint8 *)"not gzip\n", 9);
		g_assert_true(g_file_set_contents(path, (const char *)cat->data,
						  (gssize)cat->len, NULL));
		g_assert_true(lr_open(&r, path, "m.gz", NULL, &err));
		while ((ret = lr_next(&r, &line, &len, &err)) == 1)
			at += len + 1;
		g_assert_cmpint(ret, ==, -1);
		g_assert_cmpuint(at, ==, strlen(ab));
		g_assert_nonnull(strstr(err->message, "m.gz: gzip data is corrupt (at byte "));
		g_clear_error(&err);

		g_byte_array_unref(cat);
		g_bytes_unref(za);
		g_bytes_unref(zb);
		g_free(a_nl);
		g_free(b_nl);
		g_free(ab);
		g_free(a);
		g_free(b);
	}
	lr_free(&r);
	g_unlink(path);
	g_rmdir(dir);
	g_free(path);
	g_free(dir);
}

/*
 * A NUL inside a paper-format opcode cuts the text that is interned
 * ("A"); lines repeating it get that text from the loader's memo, which
 * compares no further than it.  The kernel name "k", the first opcode
 * and "A" fill the reader's 4096-byte string chunk exactly, so that
 * reading past "A" reads past the chunk, which ASan reports.
 */
static void test_ppt_nul_in_opcode(void)
{
	static const char *const files[] = { "app_config.py",
		"kernel_1 = {\"kernel_name\": \"k\", \"num_registers\": 8,\n"
		" \"shared_mem_bytes\": 0, \"grid_size\": 1, \"block_size\": 32}\n"
		"app_kernels_id = [1]\n", NULL };
	static const char repeat[] = "A\0BBBBBBBB 20\n";
	char *dir = write_trace(files);
	char *mem = g_build_filename(dir, "memory_traces", "kernel_1_block_0.mem", NULL);
	char *sub = g_path_get_dirname(mem);
	GString *text = g_string_new(NULL);
	struct trace_reader *t;
	const struct gpu_block *b;

	for (int i = 0; i < 4091; i++)
		g_string_append_c(text, 'O');
	g_string_append(text, " 10\n");
	for (int i = 0; i < 3; i++)
		g_string_append_len(text, repeat, sizeof(repeat) - 1);
	g_assert_cmpint(g_mkdir_with_parents(sub, 0755), ==, 0);
	g_assert_true(g_file_set_contents(mem, text->str, (gssize)text->len, NULL));
	t = open_ok(dir, TRACE_AUTO);
	next_ok(t);
	b = block(t, 0);
	g_assert_cmpuint(b->n_lines, ==, 4);
	for (uint32_t i = 1; i < 4; i++) {
		g_assert_cmpstr(b->lines[i].opcode, ==, "A");
		g_assert_true(b->lines[i].opcode == b->lines[1].opcode);
	}
	trace_close(t);
	g_string_free(text, TRUE);
	g_free(sub);
	g_free(mem);
	remove_tree(dir);
	g_free(dir);
}

/*
 * A block file the folder listed when the kernel started but that is gone
 * when its block is read (deleted or moved while the run reads the trace)
 * is an input error, not an empty block: the numbers would silently lack
 * it.  A block never listed is an empty block, as always.
 */
static void test_ppt_file_gone(void)
{
	static const char *const files[] = { "app_config.py",
		"kernel_1 = {\"kernel_name\": \"k\", \"num_registers\": 8,\n"
		" \"shared_mem_bytes\": 0, \"grid_size\": 3, \"block_size\": 32}\n"
		"app_kernels_id = [1]\n",
		"memory_traces/kernel_1_block_0.mem", "LDG.E 10\n",
		"memory_traces/kernel_1_block_1.mem", "LDG.E 20\n", NULL };
	char *dir = write_trace(files);
	char *gone = g_build_filename(dir, "memory_traces", "kernel_1_block_1.mem", NULL);
	struct trace_reader *t = open_ok(dir, TRACE_AUTO);
	uint64_t ids[] = { 0, 1, 2 };
	const struct gpu_block *out[3];
	GError *err = NULL;

	next_ok(t);
	g_assert_cmpint(g_unlink(gone), ==, 0);
	g_assert_false(trace_load_blocks(t, ids, 3, out, &err));
	assert_input_error(err, "kernel_1_block_1.mem: no such file, though the folder listed it when the run started (deleted or moved while the run read the trace)");
	g_clear_error(&err);
	trace_close(t);
	/* never listed: an empty block */
	t = open_ok(dir, TRACE_AUTO);
	next_ok(t);
	g_assert_cmpuint(block(t, 1)->n_lines, ==, 0);
	g_assert_cmpuint(block(t, 2)->n_lines, ==, 0);
	trace_close(t);
	g_free(gone);
	remove_tree(dir);
	g_free(dir);
}

/*
 * Damage that only a crafted native file holds (the writer never makes
 * it): the one-line trace below is converted, `mutate` changes the first
 * BLOCKS chunk's payload in place, whose checksum and frame are made
 * anew (a skippable frame pads the frame to its old length, so that no
 * offset moves), and loading the block must fail with `want`.  The line
 * is a load of 32 lanes 4 bytes apart: a progression (form step).
 */
typedef void (*raw_mutate_fn)(uint8_t *raw, size_t len);

/* native_crafted_damage() of the file's chunk `nth` (0: the BLOCKS
 * chunk, 1: its PYSET chunk), read keeping the pyset sectors. */
static void native_crafted_chunk_damage(raw_mutate_fn mutate, unsigned nth,
					const char *want, const char *stream_want)
{
	static const char *const files[] = { "kernelslist.g", "kernel-1.traceg\n",
		"kernel-1.traceg",
		"-kernel name = k\n-kernel id = 1\n-grid dim = (1,1,1)\n"
		"-block dim = (32,1,1)\n-shmem = 0\n-nregs = 16\n"
		"-binary version = 70\n-cuda stream id = 0\n"
		"-shmem base_addr = 0x0\n-local mem base_addr = 0x0\n"
		"-nvbit version = 1.5.5\n-accelsim tracer version = 3\n\n"
		"#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses] immediate\n\n"
		"#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
		"0000 ffffffff 1 R2 LDG.E 1 R4 4 1 0x7f0000000000 4 0\n#END_TB\n",
		NULL };
	char *dir = write_trace(files);
	char *sst = g_build_filename(dir, "k.sst", NULL);
	struct native_chunk_header h;
	GError *err = NULL;
	gchar *bytes;
	gsize len;
	uint8_t *raw, *frame;
	size_t got, packed = 0;
	uint64_t id = 0;
	const struct gpu_block *out;
	struct trace_reader *t;
	size_t at = NATIVE_FILE_HEADER;

	native_convert(dir, TRACE_ACCELSIM, sst, 3, NULL, &err);
	g_assert_no_error(err);
	/* a reader takes the converted file as it is */
	t = open_ok(sst, TRACE_AUTO);
	next_ok(t);
	g_assert_cmpuint(block(t, 0)->lines[0].warp, ==, 0);
	g_assert_cmpuint(block(t, 0)->lines[0].n_addr, ==, 32);
	trace_close(t);

	g_assert_true(g_file_get_contents(sst, &bytes, &len, NULL));
	native_get_header((const uint8_t *)bytes + at, &h);
	if (nth) {
		at += NATIVE_CHUNK_HEADER + h.stored_len;
		native_get_header((const uint8_t *)bytes + at, &h);
	}
	g_assert_cmpuint(h.type, ==, nth ? NATIVE_PYSET : NATIVE_BLOCKS);
	raw = g_malloc(h.raw_len);
	got = ZSTD_decompress(raw, h.raw_len, bytes + at + NATIVE_CHUNK_HEADER,
			      h.stored_len);
	g_assert_cmpuint(got, ==, h.raw_len);
	mutate(raw, h.raw_len);
	frame = g_malloc(ZSTD_compressBound(h.raw_len));
	for (int level = 1; level <= 19; level++) {
		packed = ZSTD_compress(frame, ZSTD_compressBound(h.raw_len), raw,
				       h.raw_len, level);
		g_assert_false(ZSTD_isError(packed));
		if (packed == h.stored_len || packed + 8 <= h.stored_len)
			break;
	}
	g_assert_true(packed == h.stored_len || packed + 8 <= h.stored_len);
	memcpy(bytes + at + NATIVE_CHUNK_HEADER, frame, packed);
	if (packed < h.stored_len) {
		/* a skippable frame: magic, length, that many bytes */
		uint8_t *pad = (uint8_t *)bytes + at + NATIVE_CHUNK_HEADER + packed;
		uint32_t skip = h.stored_len - (uint32_t)packed - 8;

		memcpy(pad, "\x50\x2a\x4d\x18", 4);
		for (int i = 0; i < 4; i++)
			pad[4 + i] = (uint8_t)(skip >> (8 * i));
		memset(pad + 8, 0, skip);
	}
	h.crc = (uint32_t)crc32(crc32(0, NULL, 0), raw, h.raw_len);
	native_put_header((uint8_t *)bytes + at, &h);
	g_assert_true(g_file_set_contents(sst, bytes, (gssize)len, NULL));

	t = open_ok(sst, TRACE_AUTO);
	trace_keep_pyset_sectors(t);
	next_ok(t);
	g_assert_false(trace_load_blocks(t, &id, 1, &out, &err));
	assert_input_error(err, want);
	g_clear_error(&err);
	trace_close(t);

	/* streamed, the block loads, and its damaged line fails as it is read */
	struct gpu_block_gathered g = { 0 };

	t = open_ok(sst, TRACE_AUTO);
	trace_keep_pyset_sectors(t);
	trace_stream_lines(t);
	next_ok(t);
	if (stream_want) {
		g_assert_true(trace_load_blocks(t, &id, 1, &out, &err));
		g_assert_no_error(err);
		g_assert_nonnull(out->stream);
		g_assert_null(gpu_block_gather(out, &g, &err));
		assert_input_error(err, stream_want);
	} else {
		/* what a block's head says is checked as it loads */
		g_assert_false(trace_load_blocks(t, &id, 1, &out, &err));
		assert_input_error(err, want);
	}
	g_clear_error(&err);
	gpu_block_gathered_free(&g);
	trace_close(t);
	g_unlink(sst);
	g_free(sst);
	g_free(frame);
	g_free(raw);
	g_free(bytes);
	remove_tree(dir);
	g_free(dir);
}

static void native_crafted_damage(raw_mutate_fn mutate, const char *want,
				  const char *stream_want)
{
	native_crafted_chunk_damage(mutate, 0, want, stream_want);
}

/* Where the k-th varint of the crafted payload starts: the block's head
 * (id delta, shared, unknown, lines, the lines' bytes) is 0 to 4, the
 * line's opcode 5, warp 6, lanes 7, count and form 8, first address 9,
 * step 10. */
static uint8_t *crafted_varint(uint8_t *raw, size_t len, int k)
{
	const uint8_t *p = raw;
	uint64_t v;

	for (int i = 0; i < k; i++)
		g_assert_true(native_get_uv(&p, raw + len, &v));
	return raw + (p - raw);
}

static void warp_outside(uint8_t *raw, size_t len)
{
	uint8_t *p = crafted_varint(raw, len, 6);

	/* its warp, stored plus one: 1 byte, and the block has 1 warp */
	g_assert_cmpuint(*p, ==, 1);
	*p = 0x7f;
}

/* The crafted line's count and form, 32 << 3 | step: two varint bytes. */
static uint8_t *crafted_count(uint8_t *raw, size_t len)
{
	uint8_t *p = crafted_varint(raw, len, 8);

	g_assert_cmpuint(p[0], ==, ((32 << NATIVE_FORM_BITS | NATIVE_FORM_STEP) & 0x7f) | 0x80);
	g_assert_cmpuint(p[1], ==, 32 << NATIVE_FORM_BITS >> 7);
	return p;
}

static void form_unknown(uint8_t *raw, size_t len)
{
	uint8_t *p = crafted_count(raw, len);

	p[0] = (uint8_t)(p[0] & ~7u) | NATIVE_N_FORMS;
}

static void step_too_long(uint8_t *raw, size_t len)
{
	uint8_t *p = crafted_count(raw, len);

	/* 33 addresses, more than a warp's lanes */
	p[0] = ((33 << NATIVE_FORM_BITS | NATIVE_FORM_STEP) & 0x7f) | 0x80;
	g_assert_cmpuint(p[1], ==, 33 << NATIVE_FORM_BITS >> 7);
}

/* The crafted line's step (4, zigzagged: one byte, 8) made 0. */
static void step_zero(uint8_t *raw, size_t len)
{
	uint8_t *p = crafted_varint(raw, len, 10);

	g_assert_cmpuint(*p, ==, 8);
	*p = 0;
}

static void fixed_past_end(uint8_t *raw, size_t len)
{
	uint8_t *p = crafted_count(raw, len);

	/* 31 differences of 4 bytes: more than the chunk holds after them */
	p[0] = (uint8_t)(p[0] & ~7u) | NATIVE_FORM_FIXED4;
}

/*
 * The crafted block's PYSET entry: its bytes (6), then its line's: its 4
 * sectors (4 << 2, offsets of 1 byte), in 1 line, then the 4 offsets.
 */
static void pyset_head(const uint8_t *raw, size_t len)
{
	g_assert_cmpuint(len, ==, 7);
	g_assert_cmpuint(raw[0], ==, 6);
	g_assert_cmpuint(raw[1], ==, 4 << NATIVE_PYSET_W_BITS | NATIVE_PYSET_W1);
	g_assert_cmpuint(raw[2], ==, 1);
}

static void pyset_none(uint8_t *raw, size_t len)
{
	pyset_head(raw, len);
	raw[1] = NATIVE_PYSET_W1;	/* no sector */
}

static void pyset_lines_over(uint8_t *raw, size_t len)
{
	pyset_head(raw, len);
	raw[2] = 5;		/* more lines than sectors */
}

static void pyset_wide_past_end(uint8_t *raw, size_t len)
{
	pyset_head(raw, len);
	raw[1] = 4 << NATIVE_PYSET_W_BITS | NATIVE_PYSET_W8;	/* 32 bytes of offsets */
}

static void pyset_fewer(uint8_t *raw, size_t len)
{
	pyset_head(raw, len);
	raw[1] = 3 << NATIVE_PYSET_W_BITS | NATIVE_PYSET_W1;	/* a byte left over */
}

/* The crafted block's lines said to take a byte more than they do. */
static void block_longer(uint8_t *raw, size_t len)
{
	uint8_t *p = crafted_varint(raw, len, 4);

	(*p)++;
}

/*
 * A native file whose line names a warp outside its block (which the text
 * readers refuse), or whose count and form say what no writer writes, is
 * damage (a step of 0 too, which would make 32 addresses of a few bytes),
 * refused at load with the chunk's offset; a streamed block (version 5
 * on) loads, and its line is refused as it is read, naming the block.
 */
static void test_native_crafted_damage(void)
{
#define AT16 "^.*/k\\.sst: chunk at byte 16: "
#define AT_PYSET "^.*/k\\.sst: chunk at byte [1-9][0-9]*: "
#define DAMAGED "; the file is damaged$"
	native_crafted_damage(warp_outside, AT16 "a line's warp is outside its block" DAMAGED,
			      AT16 "block 0: a line's warp is outside its block" DAMAGED);
	native_crafted_damage(form_unknown, AT16 "a line's address count does not fit its form" DAMAGED,
			      AT16 "block 0: a line's address count does not fit its form" DAMAGED);
	native_crafted_damage(step_too_long, AT16 "a line's address count does not fit its form" DAMAGED,
			      AT16 "block 0: a line's address count does not fit its form" DAMAGED);
	native_crafted_damage(fixed_past_end, AT16 "a line's address count does not fit its form" DAMAGED,
			      AT16 "block 0: a line's address count does not fit its form" DAMAGED);
	native_crafted_damage(step_zero, AT16 "a line's step is 0 or does not fit 32 bits" DAMAGED,
			      AT16 "block 0: a line's step is 0 or does not fit 32 bits" DAMAGED);
	native_crafted_damage(block_longer, AT16 "a block's length does not fit its chunk" DAMAGED, NULL);
	/* the PYSET chunk's, named by its own offset */
	native_crafted_chunk_damage(pyset_none, 1, AT_PYSET "a line's sector counts do not fit its addresses" DAMAGED,
				    AT_PYSET "block 0: a line's sector counts do not fit its addresses" DAMAGED);
	native_crafted_chunk_damage(pyset_lines_over, 1, AT_PYSET "a line's sector counts do not fit its addresses" DAMAGED,
				    AT_PYSET "block 0: a line's sector counts do not fit its addresses" DAMAGED);
	native_crafted_chunk_damage(pyset_wide_past_end, 1, AT_PYSET "a line's sector counts do not fit its addresses" DAMAGED,
				    AT_PYSET "block 0: a line's sector counts do not fit its addresses" DAMAGED);
	native_crafted_chunk_damage(pyset_fewer, 1, AT_PYSET "bytes follow a block's last line's sectors" DAMAGED,
				    AT_PYSET "block 0: bytes follow the block's last line's sectors" DAMAGED);
#undef AT16
#undef AT_PYSET
#undef DAMAGED
}

/*
 * The pyset sectors a native file holds (version 4): kept on request
 * (trace_keep_pyset_sectors), those the reference's coalescer makes of
 * each line's addresses, with its line count; passed over otherwise, and
 * absent from a version-3 file.  The traces: the sample and the small
 * paper-format and Accel-Sim ones.
 */
static size_t check_pyset(const char *sst, bool keep, bool want)
{
	struct trace_reader *t = open_ok(sst, TRACE_AUTO);
	struct coalescer *co = coalescer_new(COALESCE_PYSET, GPU_PYSET_SECTOR_BYTES,
					     GPU_PYSET_LINE_BYTES);
	const struct gpu_kernel *k;
	GError *err = NULL;
	size_t n_lines = 0, n_kept = 0, n_far = 0;
	uint64_t *sec = NULL;
	uint32_t cap = 0;

	if (keep)
		trace_keep_pyset_sectors(t);
	while ((k = trace_next_kernel(t, &err))) {
		const struct gpu_block **b = all_blocks(t, k);

		for (uint64_t i = 0; i < k->grid_size; i++)
			for (uint32_t j = 0; j < b[i]->n_lines; j++) {
				const struct gpu_line *l = &b[i]->lines[j];
				uint64_t buf[GPU_STEP_MAX];
				uint32_t n, lines;

				bool near = true;

				n_lines++;
				if (!want || !l->n_addr) {
					g_assert_null(l->pyset_sectors);
					continue;
				}
				if (l->n_addr > cap) {
					cap = l->n_addr;
					sec = g_renew(uint64_t, sec, cap);
				}
				n = coalesce(co, gpu_line_addrs(l, buf), l->n_addr, sec, &lines);
				/* offsets of 8 bytes are not kept (the fixture's
				 * local load whose lanes wrap past 0 has them) */
				for (uint32_t s = 0; s < n; s++) {
					int64_t off = (int64_t)((sec[s] >> GPU_PYSET_SECTOR_SHIFT) -
								(l->addr[0] >> GPU_PYSET_SECTOR_SHIFT));

					near = near && off >= INT32_MIN && off <= INT32_MAX;
				}
				if (!near) {
					g_assert_null(l->pyset_sectors);
					n_far++;
					continue;
				}
				g_assert_nonnull(l->pyset_sectors);
				n_kept++;
				g_assert_cmpuint(l->n_pyset_sectors, ==, n);
				g_assert_cmpuint(l->pyset_lines, ==, lines);
				for (uint32_t s = 0; s < n; s++)
					g_assert_cmphex(((l->addr[0] >> GPU_PYSET_SECTOR_SHIFT) +
							 (uint64_t)(int64_t)l->pyset_sectors[s])
							<< GPU_PYSET_SECTOR_SHIFT, ==, sec[s]);
			}
		g_free(b);
	}
	g_assert_no_error(err);
	g_assert_cmpuint(n_lines, >, 0);
	if (want)
		g_assert_cmpuint(n_kept, >, 0);
	g_free(sec);
	coalescer_free(co);
	trace_close(t);
	return n_far;
}

static void test_native_pyset(void)
{
	static const char *const sources[] = { "ppt", "accelsim" };
	char *dir = g_dir_make_tmp("sectorsim-pyset-XXXXXX", NULL);
	char *sst = g_build_filename(dir, "t.sst", NULL);
	char *v3 = fixture("native/vectoradd-a100-v3.sst");
	GError *err = NULL;
	size_t far = 0;

	for (size_t i = 0; i < G_N_ELEMENTS(sources) + 1; i++) {
		char *src = i < G_N_ELEMENTS(sources) ? fixture(sources[i])
			    : g_test_build_filename(G_TEST_DIST, "..", "traces",
						    "vectoradd-a100", NULL);

		native_convert(src, TRACE_AUTO, sst, 3, NULL, &err);
		g_assert_no_error(err);
		far += check_pyset(sst, true, true);
		check_pyset(sst, false, false);
		g_free(src);
	}
	g_assert_cmpuint(far, ==, 1);	/* the fixture's wrapping line */
	check_pyset(v3, true, false);
	g_unlink(sst);
	g_rmdir(dir);
	g_free(v3);
	g_free(sst);
	g_free(dir);
}

/* One Accel-Sim load of the lanes in `mask`, lane l's address addr(l). */
static void forms_inst(GString *t, unsigned pc, uint32_t mask,
		       uint64_t (*addr)(unsigned lane))
{
	g_string_append_printf(t, "%04x %08x 1 R2 LDG.E 1 R4 4 0", pc, mask);
	for (unsigned l = 0; l < 32; l++)
		if (mask >> l & 1)
			g_string_append_printf(t, " 0x%" G_GINT64_MODIFIER "x", addr(l));
	g_string_append(t, " 0\n");
}

#define FORMS_BASE UINT64_C(0x7f0000000000)
static uint64_t up4(unsigned l) { return FORMS_BASE + 4 * l; }
static uint64_t down8(unsigned l) { return FORMS_BASE + 4096 - 8 * l; }
static uint64_t by128(unsigned l) { return FORMS_BASE + 128 * l; }
static uint64_t small(unsigned l) { return FORMS_BASE + 8 * l + (l & 1) * 4; }
static uint64_t mid(unsigned l) { return FORMS_BASE + 1000 * l + (l & 1) * 8; }
static uint64_t wide(unsigned l) { return FORMS_BASE + (UINT64_C(1) << 24) * l + (l & 1) * 8; }
static uint64_t huge(unsigned l) { return FORMS_BASE + (UINT64_C(1) << 33) * l + (l & 1) * 8; }
static uint64_t same(unsigned l) { (void)l; return FORMS_BASE + 64; }

/*
 * Each way a native file codes a line's addresses (doc/trace-format.md,
 * "forms") is written where it fits and read back as the source trace
 * gives it: progressions up and down, of a full and a partial warp; one
 * lane; differences of 1, 2, 4 bytes and beyond.
 */
static void test_native_forms(void)
{
	static const struct {
		uint32_t mask;
		uint64_t (*addr)(unsigned lane);
		enum native_form form;
	} lines[] = {
		{ 0xffffffff, up4, NATIVE_FORM_STEP },
		{ 0xffffffff, down8, NATIVE_FORM_STEP },
		{ 0x0000001f, by128, NATIVE_FORM_STEP },
		{ 0x00000100, up4, NATIVE_FORM_DELTAS },
		{ 0xffffffff, small, NATIVE_FORM_FIXED1 },
		{ 0xffff0000, mid, NATIVE_FORM_FIXED2 },
		{ 0xffffffff, wide, NATIVE_FORM_FIXED4 },
		{ 0xffffffff, huge, NATIVE_FORM_DELTAS },
		/* two lanes are a progression, but its step is past 32 bits */
		{ 0x80000001, huge, NATIVE_FORM_DELTAS },
		{ 0x80000001, wide, NATIVE_FORM_STEP },
		/* every lane at one address: a step of 0, which no line holds */
		{ 0xffffffff, same, NATIVE_FORM_FIXED1 },
	};
	GString *t = g_string_new("-kernel name = forms\n-kernel id = 1\n-grid dim = (1,1,1)\n"
		"-block dim = (32,1,1)\n-shmem = 0\n-nregs = 16\n-cuda stream id = 0\n"
		"-accelsim tracer version = 5\n\n"
		"#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses] immediate\n\n");
	char *dir, *sst;
	struct native_chunk_header h;
	struct trace_reader *src, *nat;
	const struct gpu_block *a, *b;
	GError *err = NULL;
	gchar *bytes;
	gsize len;
	uint8_t *raw;
	const uint8_t *p, *end;
	uint64_t v = 0;

	g_string_append_printf(t, "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = %u\n",
			       (unsigned)G_N_ELEMENTS(lines));
	for (unsigned i = 0; i < G_N_ELEMENTS(lines); i++)
		forms_inst(t, 16 * i, lines[i].mask, lines[i].addr);
	g_string_append(t, "#END_TB\n");
	{
		const char *const files[] = { "kernelslist.g", "kernel-1.traceg\n",
					      "kernel-1.traceg", t->str, NULL };

		dir = write_trace(files);
	}
	sst = g_build_filename(dir, "k.sst", NULL);
	native_convert(dir, TRACE_ACCELSIM, sst, 3, NULL, &err);
	g_assert_no_error(err);

	/* read back: what the source trace gives, line for line */
	src = open_ok(dir, TRACE_AUTO);
	nat = open_ok(sst, TRACE_AUTO);
	next_ok(src);
	next_ok(nat);
	a = block(src, 0);
	b = block(nat, 0);
	g_assert_cmpuint(b->n_lines, ==, G_N_ELEMENTS(lines));
	g_assert_cmpuint(a->n_lines, ==, b->n_lines);
	for (uint32_t i = 0; i < a->n_lines; i++) {
		g_assert_cmpstr(b->lines[i].opcode, ==, a->lines[i].opcode);
		g_assert_cmpuint(b->lines[i].warp, ==, a->lines[i].warp);
		g_assert_cmpuint(b->lines[i].lanes, ==, lines[i].mask);
		g_assert_cmpuint(b->lines[i].lanes, ==, a->lines[i].lanes);
		g_assert_cmpuint(b->lines[i].n_addr, ==, a->lines[i].n_addr);
		g_assert_cmpint(b->lines[i].step, ==, a->lines[i].step);
		for (uint32_t k = 0; k < a->lines[i].n_addr; k++)
			g_assert_cmphex(gpu_line_addr(&b->lines[i], k), ==,
					gpu_line_addr(&a->lines[i], k));
	}
	trace_close(src);
	trace_close(nat);

	/* the form each line was written in */
	g_assert_true(g_file_get_contents(sst, &bytes, &len, NULL));
	g_assert_cmpuint(bytes[8], ==, NATIVE_VERSION);
	native_get_header((const uint8_t *)bytes + NATIVE_FILE_HEADER, &h);
	g_assert_cmpuint(h.type, ==, 1);	/* BLOCKS */
	raw = g_malloc(h.raw_len);
	g_assert_cmpuint(ZSTD_decompress(raw, h.raw_len,
					 bytes + NATIVE_FILE_HEADER + NATIVE_CHUNK_HEADER,
					 h.stored_len), ==, h.raw_len);
	p = raw;
	end = raw + h.raw_len;
	/* id delta, shared, unknown, lines, the lines' bytes */
	for (int i = 0; i < 5; i++)
		g_assert_true(native_get_uv(&p, end, &v));
	g_assert_cmpuint(v, ==, (uint64_t)(end - p));	/* the chunk's one block */
	for (unsigned i = 0; i < G_N_ELEMENTS(lines); i++) {
		uint64_t n_form = 0, n;
		unsigned form;

		for (int k = 0; k < 3; k++)	/* opcode, warp, lanes */
			g_assert_true(native_get_uv(&p, end, &v));
		g_assert_true(native_get_uv(&p, end, &n_form));
		n = n_form >> NATIVE_FORM_BITS;
		form = n_form & 7;
		g_assert_cmpuint(n, ==, (unsigned)__builtin_popcount(lines[i].mask));
		g_assert_cmpuint(form, ==, lines[i].form);
		if (form == NATIVE_FORM_DELTAS) {
			for (uint64_t k = 0; k < n; k++)
				g_assert_true(native_get_uv(&p, end, &v));
		} else {
			g_assert_true(native_get_uv(&p, end, &v));
			if (form == NATIVE_FORM_STEP)
				g_assert_true(native_get_uv(&p, end, &v));
			else
				p += (n - 1) << (form - NATIVE_FORM_FIXED1);
		}
	}
	g_assert_true(p == end);
	g_free(raw);
	g_free(bytes);
	g_unlink(sst);
	g_free(sst);
	remove_tree(dir);
	g_free(dir);
	g_string_free(t, TRUE);
}

/* mode 0: every lane's address, not a progression (which a native file
 * holds in a few bytes), so that the chunks fill */
static void grid_inst(FILE *f, unsigned b, unsigned i)
{
	fprintf(f, "ffffffff 1 R2 LDG.E 1 R4 4 0");
	for (unsigned lane = 0; lane < 32; lane++)
		fprintf(f, " 0x%llx", 0x7f0000000000ULL +
			((unsigned long long)b * 16 + i) * 4096 +
			(unsigned long long)lane * 36 * (b % 7 + 1) +
			(lane * 2654435761u + b * 7 + i) % 97 * 4);
	fprintf(f, " 0\n");
}

/* An Accel-Sim trace of `blocks` one-warp blocks of 16 loads each. */
static char *write_accelsim_grid(unsigned blocks)
{
	char *dir = g_dir_make_tmp("sectorsim-trace-XXXXXX", NULL);

	write_accelsim_grid_in(dir, blocks, grid_inst);
	return dir;
}

/* Every block of kernel 1 of `path`, loaded by `loaders` loaders. */
static bool load_all(const char *path, unsigned loaders, unsigned blocks,
		     const struct gpu_block **out, struct trace_reader **tp,
		     GError **err)
{
	struct trace_reader *t = open_ok(path, TRACE_AUTO);
	uint64_t *ids = g_new(uint64_t, blocks);
	bool ok;

	trace_set_loaders(t, loaders);
	next_ok(t);
	for (unsigned b = 0; b < blocks; b++)
		ids[b] = b;
	ok = trace_load_blocks(t, ids, blocks, out, err);
	g_free(ids);
	*tp = t;
	return ok;
}

/*
 * A native kernel of several chunks is read by several loaders at once,
 * a chunk each: the same blocks as one loader reads; with two chunks
 * damaged, the error is the first one's, whichever loader met it.
 */
static void test_native_shared_load(void)
{
	enum { BLOCKS = 3000 };
	char *dir = write_accelsim_grid(BLOCKS);
	char *sst = g_build_filename(dir, "k.sst", NULL);
	const struct gpu_block **one = g_new(const struct gpu_block *, BLOCKS);
	const struct gpu_block **four = g_new(const struct gpu_block *, BLOCKS);
	struct trace_reader *t1, *t4;
	struct native_chunk_header h;
	uint64_t off[8];
	unsigned n_chunks = 0;
	GError *err = NULL;
	gchar *bytes;
	gsize len;

	native_convert(dir, TRACE_ACCELSIM, sst, 1, NULL, &err);
	g_assert_no_error(err);
	g_assert_true(load_all(sst, 1, BLOCKS, one, &t1, &err));
	g_assert_no_error(err);
	g_assert_true(load_all(sst, 4, BLOCKS, four, &t4, &err));
	g_assert_no_error(err);
	for (unsigned b = 0; b < BLOCKS; b++) {
		g_assert_cmpuint(four[b]->id, ==, b);
		g_assert_cmpuint(four[b]->n_lines, ==, one[b]->n_lines);
		for (uint32_t i = 0; i < one[b]->n_lines; i++) {
			g_assert_cmpuint(four[b]->lines[i].n_addr, ==, one[b]->lines[i].n_addr);
			g_assert_cmpint(four[b]->lines[i].step, ==, one[b]->lines[i].step);
			for (uint32_t k = 0; k < one[b]->lines[i].n_addr; k++)
				g_assert_cmphex(gpu_line_addr(&four[b]->lines[i], k), ==,
						gpu_line_addr(&one[b]->lines[i], k));
			g_assert_cmpuint(four[b]->lines[i].warp, ==, one[b]->lines[i].warp);
		}
	}
	trace_close(t1);
	trace_close(t4);

	/* the BLOCKS chunks (type 1): at least 3, or the test proves nothing */
	g_assert_true(g_file_get_contents(sst, &bytes, &len, NULL));
	for (gsize at = NATIVE_FILE_HEADER; at + NATIVE_CHUNK_HEADER <= len;
	     at += NATIVE_CHUNK_HEADER + h.stored_len) {
		native_get_header((const uint8_t *)bytes + at, &h);
		if (h.type == 1 && n_chunks < G_N_ELEMENTS(off))
			off[n_chunks++] = at;
	}
	g_assert_cmpuint(n_chunks, >=, 3);
	/* the second and the last of the first 8 chunks damaged: their
	   checksums flipped */
	for (unsigned j = 1; j < n_chunks; j += n_chunks - 2) {
		native_get_header((const uint8_t *)bytes + off[j], &h);
		h.crc ^= 1;
		native_put_header((uint8_t *)bytes + off[j], &h);
	}
	g_assert_true(g_file_set_contents(sst, bytes, (gssize)len, NULL));
	for (unsigned loaders = 1; loaders <= 4; loaders += 3) {
		char *want = g_strdup_printf("^.*/k\\.sst: chunk at byte %" G_GUINT64_FORMAT ": checksum [0-9a-f]{8}, expected [0-9a-f]{8}; the file is damaged$",
					     (guint64)off[1]);

		g_assert_false(load_all(sst, loaders, BLOCKS, one, &t1, &err));
		assert_input_error(err, want);
		g_clear_error(&err);
		trace_close(t1);
		g_free(want);
	}
	g_free(bytes);
	g_unlink(sst);
	g_free(sst);
	g_free(one);
	g_free(four);
	remove_tree(dir);
	g_free(dir);
}

/* Blocks a and b are the same in everything a reader gives (opcodes: the
 * same texts, not the same pointers): assert_same_block's, and the rest. */
static void assert_identical_block(const struct gpu_block *a, const struct gpu_block *b)
{
	assert_same_block(a, b);
	g_assert_cmpuint(a->n_shared, ==, b->n_shared);
	g_assert_cmpuint(a->n_unknown, ==, b->n_unknown);
	for (uint32_t i = 0; i < a->n_lines; i++) {
		g_assert_cmpuint(a->lines[i].warp, ==, b->lines[i].warp);
		g_assert_cmpuint(a->lines[i].lanes, ==, b->lines[i].lanes);
	}
}

/*
 * With loaders to share, a native trace's next kernel is built ahead
 * while one runs: its blocks are those one loader reads, their opcodes
 * the kernel's own interned texts (one pointer per text, which the warp
 * interleaver's tables key on); streamed (a run's blocks), built ahead
 * as the chunks' payloads, read line by line into the same; a kernel
 * damaged after its first chunk
 * gives the blocks before the damage and then the error one loader
 * meets, at the same block.
 */
static void test_native_readahead(void)
{
	enum { BLOCKS = 3000, KERNELS = 3 };
	char *dir = write_accelsim_grid(BLOCKS);
	char *sst = g_build_filename(dir, "k.sst", NULL);
	char *list = g_build_filename(dir, "kernelslist.g", NULL);
	const struct gpu_block **one = g_new(const struct gpu_block *, BLOCKS);
	const struct gpu_block **two = g_new(const struct gpu_block *, BLOCKS);
	uint64_t *ids = g_new(uint64_t, BLOCKS), second = 0;
	struct native_chunk_header h;
	GError *err = NULL;
	gchar *bytes;
	gsize len;

	for (unsigned b = 0; b < BLOCKS; b++)
		ids[b] = b;
	g_assert_true(g_file_set_contents(list, "kernel-1.traceg\nkernel-1.traceg\n"
					  "kernel-1.traceg\n", -1, NULL));
	native_convert(dir, TRACE_ACCELSIM, sst, 1, NULL, &err);
	g_assert_no_error(err);

	struct trace_reader *t1 = open_ok(sst, TRACE_AUTO), *t2 = open_ok(sst, TRACE_AUTO);
	/* streamed: the read-ahead loads the chunks, the blocks are their heads */
	struct trace_reader *t3 = open_ok(sst, TRACE_AUTO);
	const struct gpu_block **three = g_new(const struct gpu_block *, BLOCKS);
	struct gpu_block_gathered g = { 0 };

	trace_set_loaders(t2, 2);
	trace_set_loaders(t3, 2);
	trace_stream_lines(t3);
	for (unsigned k = 1; k <= KERNELS; k++) {
		next_ok(t1);
		next_ok(t2);
		next_ok(t3);
		/* the next kernel is built ahead, whole (it is far below the budget) */
		g_assert_cmpuint(native_readahead_wait(t2), ==, k < KERNELS ? BLOCKS : 0);
		g_assert_cmpuint(native_readahead_wait(t3), ==, k < KERNELS ? BLOCKS : 0);
		g_assert_true(trace_load_blocks(t3, ids, BLOCKS, three, &err));
		g_assert_no_error(err);
		g_assert_true(trace_load_blocks(t1, ids, BLOCKS, one, &err));
		g_assert_no_error(err);
		/* in two loads, as a dynamic scheduler asks */
		g_assert_true(trace_load_blocks(t2, ids, BLOCKS / 3, two, &err));
		g_assert_true(trace_load_blocks(t2, ids + BLOCKS / 3, BLOCKS - BLOCKS / 3,
						two + BLOCKS / 3, &err));
		g_assert_no_error(err);
		for (unsigned b = 0; b < BLOCKS; b++) {
			assert_identical_block(two[b], one[b]);
			for (uint32_t i = 0; i < two[b]->n_lines; i++)
				g_assert_true(two[b]->lines[i].opcode ==
					      trace_intern(t2, two[b]->lines[i].opcode));
			if (three[b]->n_lines)
				g_assert_nonnull(three[b]->stream);

			const struct gpu_block *got = gpu_block_gather(three[b], &g, &err);

			g_assert_no_error(err);
			assert_identical_block(got, one[b]);
			for (uint32_t i = 0; i < got->n_lines; i++)
				g_assert_true(got->lines[i].opcode ==
					      trace_intern(t3, got->lines[i].opcode));
		}
	}
	g_assert_null(trace_next_kernel(t2, &err));
	g_assert_no_error(err);
	g_assert_null(trace_next_kernel(t3, &err));
	g_assert_no_error(err);
	trace_close(t1);
	trace_close(t2);
	trace_close(t3);
	gpu_block_gathered_free(&g);
	g_free(three);

	/* kernel 2's second BLOCKS chunk damaged (its checksum flipped) */
	g_assert_true(g_file_get_contents(sst, &bytes, &len, NULL));
	for (gsize at = NATIVE_FILE_HEADER, blocks_seen = 0, kernels = 0;
	     at + NATIVE_CHUNK_HEADER <= len && !second; at += NATIVE_CHUNK_HEADER + h.stored_len) {
		native_get_header((const uint8_t *)bytes + at, &h);
		kernels += h.type == 2;
		if (h.type == 1 && kernels == 1 && ++blocks_seen == 2)
			second = at;
	}
	g_assert_cmpuint(second, !=, 0);
	native_get_header((const uint8_t *)bytes + second, &h);
	h.crc ^= 1;
	native_put_header((uint8_t *)bytes + second, &h);
	g_assert_true(g_file_set_contents(sst, bytes, (gssize)len, NULL));

	char *want = g_strdup_printf("^.*/k\\.sst: chunk at byte %" G_GUINT64_FORMAT ": checksum [0-9a-f]{8}, expected [0-9a-f]{8}; the file is damaged$",
				     (guint64)second);
	uint64_t first_chunk = h.a;	/* the damaged chunk's first block */

	t2 = open_ok(sst, TRACE_AUTO);
	trace_set_loaders(t2, 2);
	next_ok(t2);
	/* only the first chunk's blocks: the read-ahead stops at the damage */
	g_assert_cmpuint(native_readahead_wait(t2), ==, first_chunk);
	next_ok(t2);
	g_assert_true(trace_load_blocks(t2, ids, first_chunk, two, &err));
	g_assert_no_error(err);
	g_assert_false(trace_load_blocks(t2, ids + first_chunk, 1, two, &err));
	assert_input_error(err, want);
	g_clear_error(&err);
	trace_close(t2);

	g_free(want);
	g_free(bytes);
	g_unlink(sst);
	g_free(sst);
	g_free(list);
	g_free(ids);
	g_free(one);
	g_free(two);
	remove_tree(dir);
	g_free(dir);
}

/*
 * The paper format's read-ahead: with loaders to share, the next kernel's
 * block files are built while one runs, in ascending order up to the
 * grid; taken, they are the blocks one loader reads, their opcodes the
 * kernel's interned texts, and what the loads note (the bytes read, a
 * file cut inside its last line) is the same.  A file it cannot read
 * stops it: the blocks before it are built, and the load meets the
 * error, as one loader does.  A file that changes after it was read
 * ahead is the block it was when read.
 */
static void test_ppt_readahead(void)
{
	enum { GRID = 120, KERNELS = 3, HOLE = 5, CUT = 7, BAD = 50 };
	GString *cfg = g_string_new(NULL);
	char *dir = g_dir_make_tmp("sectorsim-trace-XXXXXX", NULL);
	char *traces = g_build_filename(dir, "memory_traces", NULL);
	uint64_t ids[GRID];
	const struct gpu_block *one[GRID], *two[GRID];
	GError *err = NULL, *err2 = NULL;

	g_assert_cmpint(g_mkdir_with_parents(traces, 0755), ==, 0);
	for (unsigned k = 1; k <= KERNELS; k++)
		g_string_append_printf(cfg, "kernel_%u = {\"kernel_name\": \"k%u\", \"num_registers\": 8,"
				       " \"shared_mem_bytes\": 0, \"grid_size\": %u, \"block_size\": 64}\n",
				       k, k, GRID);
	g_string_append(cfg, "app_kernels_id = [1, 2, 3]\n");
	char *app = g_build_filename(dir, "app_config.py", NULL);

	g_assert_true(g_file_set_contents(app, cfg->str, -1, NULL));
	for (unsigned k = 1; k <= KERNELS; k++)
		for (unsigned b = 0; b < GRID + 4; b++) {
			/* a hole (an empty block); past the grid only in kernel 2 */
			if (b == HOLE || (b >= GRID && k != 2))
				continue;
			GString *text = g_string_new(NULL);

			for (unsigned i = 0; i < 3 + b % 4; i++)
				g_string_append_printf(text, "%s 0x%x 0x%x\n",
						       (i + b) % 3 ? "LDG.E" : "STG.E.64",
						       0x1000 * k + 64 * b + 4 * i,
						       0x1000 * k + 64 * b + 4 * i + 128);
			if (k == 2 && b == CUT)
				g_string_append(text, "LDG.E 0x20");	/* no line end */
			if (k == 3 && b == BAD)
				g_string_append(text, "LDG.E zz\n");
			char *name = g_strdup_printf("kernel_%u_block_%u.mem", k, b);
			char *path = g_build_filename(traces, name, NULL);

			g_assert_true(g_file_set_contents(path, text->str, -1, NULL));
			g_free(path);
			g_free(name);
			g_string_free(text, TRUE);
		}
	for (unsigned b = 0; b < GRID; b++)
		ids[b] = b;

	struct trace_reader *t1 = open_ok(dir, TRACE_AUTO), *t2 = open_ok(dir, TRACE_AUTO);
	struct gpu_block_source *s1 = trace_block_source(t1), *s2 = trace_block_source(t2);

	trace_set_loaders(t2, 2);
	for (unsigned k = 1; k <= KERNELS; k++) {
		uint64_t n = k < KERNELS ? BAD : GRID;
		uint64_t bytes1, bytes2;
		const char *first1, *first2;

		next_ok(t1);
		if (k == KERNELS)
			n = BAD;
		g_assert_true(trace_load_blocks(t1, ids, n, one, &err));
		g_assert_no_error(err);
		/* a file of kernel 2 gone once it was built ahead: its block is
		 * the one built (a load would now fail), so the loads below do
		 * take what was built */
		if (k == 2) {
			char *gone = g_build_filename(traces, "kernel_2_block_3.mem", NULL);

			g_assert_cmpint(g_unlink(gone), ==, 0);
			g_free(gone);
		}
		next_ok(t2);
		/* kernel 2 whole (not the files past its grid), kernel 3 up to
		 * the bad file, then nothing */
		g_assert_cmpuint(ppt_readahead_wait(t2), ==,
				 k == 1 ? GRID - 1 : k == 2 ? BAD - 1 : 0);
		/* in two loads, as a dynamic scheduler asks */
		g_assert_true(trace_load_blocks(t2, ids, n / 3, two, &err));
		g_assert_true(trace_load_blocks(t2, ids + n / 3, n - n / 3, two + n / 3, &err));
		g_assert_no_error(err);
		for (unsigned b = 0; b < n; b++) {
			assert_identical_block(two[b], one[b]);
			for (uint32_t i = 0; i < two[b]->n_lines; i++)
				g_assert_true(two[b]->lines[i].opcode ==
					      trace_intern(t2, two[b]->lines[i].opcode));
		}
		g_assert_true(s1->ops->bytes_read(s1, &bytes1));
		g_assert_true(s2->ops->bytes_read(s2, &bytes2));
		g_assert_cmpuint(bytes2, ==, bytes1);
		g_assert_cmpuint(s2->ops->cut_short(s2, &first2), ==,
				 s1->ops->cut_short(s1, &first1));
		g_assert_cmpstr(first2, ==, first1);
		if (k == 2)
			g_assert_cmpstr(first2, ==, "kernel_2_block_7.mem");
	}
	/* the bad file: the same error either way */
	g_assert_false(trace_load_blocks(t1, ids + BAD, GRID - BAD, one, &err));
	g_assert_false(trace_load_blocks(t2, ids + BAD, GRID - BAD, two, &err2));
	g_assert_nonnull(err);
	g_assert_nonnull(err2);
	g_assert_cmpstr(err2->message, ==, err->message);
	g_clear_error(&err);
	g_clear_error(&err2);
	g_assert_null(trace_next_kernel(t2, &err));
	trace_close(t1);
	trace_close(t2);
	g_string_free(cfg, TRUE);
	g_free(app);
	g_free(traces);
	remove_tree(dir);
	g_free(dir);
}

/* ---- varints ---------------------------------------------------------------- */

/* v's varint decoded from a buffer that ends with it and from one that
 * goes on (the reader's one-load path for 3 to 8 bytes reads past the
 * varint, and must ignore what follows): the value and the bytes taken. */
static void check_varint(uint64_t v)
{
	GByteArray *b = g_byte_array_new();
	const uint8_t *p;
	uint64_t got = 0;
	guint len;

	native_put_uv(b, v);
	len = b->len;
	p = b->data;
	g_assert_true(native_get_uv(&p, b->data + len, &got));
	g_assert_cmpuint(got, ==, v);
	g_assert_true(p == b->data + len);
	for (int k = 0; k < 9; k++) {
		uint8_t x = 0xff;

		g_byte_array_append(b, &x, 1);
	}
	p = b->data;
	g_assert_true(native_get_uv(&p, b->data + b->len, &got));
	g_assert_cmpuint(got, ==, v);
	g_assert_true(p == b->data + len);
	/* cut short by one byte: no value */
	p = b->data;
	if (len > 1)
		g_assert_false(native_get_uv(&p, b->data + len - 1, &got));
	g_byte_array_unref(b);
}

/* Every length of varint, at its bounds and between, and what does not
 * decode: one over 64 bits, one that never ends. */
static void test_native_varint(void)
{
	GRand *r = g_rand_new_with_seed(7);
	static const uint8_t over[] = { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
					0x80, 0x02, 0, 0, 0, 0, 0, 0 };
	static const uint8_t endless[16] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
					     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	const uint8_t *p;
	uint64_t got;

	for (unsigned bits = 0; bits <= 64; bits++) {
		uint64_t top = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;

		check_varint(top);
		if (bits < 64)
			check_varint(top + 1);
		for (int k = 0; k < 50; k++) {
			uint64_t x = (uint64_t)g_rand_int(r) << 32 | g_rand_int(r);

			check_varint(bits == 64 ? x : x & top);
		}
	}
	p = over;
	g_assert_false(native_get_uv(&p, over + sizeof(over), &got));
	p = endless;
	g_assert_false(native_get_uv(&p, endless + sizeof(endless), &got));
	g_rand_free(r);
}

/* ---- the chunks' checksum ---------------------------------------------------- */

/* native_crc32 is zlib's crc32, whichever library computes it. */
static void test_native_crc32(void)
{
	GRand *rng = g_rand_new_with_seed(7);
	guint8 *buf = g_malloc(70000);

	for (size_t i = 0; i < 70000; i++)
		buf[i] = (guint8)g_rand_int(rng);
	g_assert_cmpuint(native_crc32(buf, 0), ==, 0);
	g_assert_cmpuint(native_crc32("123456789", 9), ==, 0xcbf43926u);	/* the CRC-32 check value */
	for (int k = 0; k < 200; k++) {
		size_t off = g_rand_int_range(rng, 0, 64), len = g_rand_int_range(rng, 0, 70000 - 64);

		g_assert_cmpuint(native_crc32(buf + off, len), ==,
				 (uint32_t)crc32(crc32(0, NULL, 0), buf + off, (uInt)len));
	}
	g_free(buf);
	g_rand_free(rng);
}

/* ---- the loaders' pool ------------------------------------------------------ */

struct pool_probe {
	size_t n;
	size_t fail[2];		/* units that fail: fail[1] < fail[0] */
	int *done;		/* atomic, per unit: how many times it ran */
	/*
	 * With several workers, fail[1] waits (up to 2 s) until fail[0]
	 * has failed on another worker: the higher failure always comes
	 * first in time, and the lower must still be the one given back.
	 */
	bool hold_low;
	int high_failed;	/* atomic */
	bool silent;		/* units fail without a GError */
};

static bool probe_unit(void *shared, void *worker, size_t unit, GError **err)
{
	struct pool_probe *p = shared;

	g_assert_nonnull(worker);
	g_atomic_int_inc(&p->done[unit]);
	if (unit == p->fail[1] && p->hold_low)
		for (int wait = 0; wait < 2000 && !g_atomic_int_get(&p->high_failed); wait++)
			g_usleep(1000);
	if (unit == p->fail[0])
		g_atomic_int_set(&p->high_failed, 1);
	if (unit == p->fail[0] || unit == p->fail[1]) {
		if (!p->silent)
			g_set_error(err, SS_ERROR, SS_ERROR_INPUT, "unit %zu failed", unit);
		return false;
	}
	return true;
}

/*
 * Every unit runs once; with failures, every unit below the lowest
 * failing one ran and its error is the one given back, for any number of
 * workers, also when the higher failure comes first (hold_low).
 */
static void test_unit_pool(void)
{
	static int slot[8];
	void *workers[8];

	for (unsigned i = 0; i < G_N_ELEMENTS(workers); i++)
		workers[i] = &slot[i];
	for (unsigned k = 1; k <= 8; k++)
		for (int round = 0; round < 20; round++) {
			struct pool_probe p = { .n = 500, .fail = { SIZE_MAX, SIZE_MAX } };
			GError *err = NULL;
			bool failing = round % 2;

			if (failing) {
				p.fail[0] = 120 + round * 7;
				p.fail[1] = 60 + round * 3;
				p.hold_low = k > 1;
			}
			p.done = g_new0(int, p.n);
			g_assert_true(unit_pool_run(p.n, k, &p, workers, probe_unit, &err) == !failing);
			if (!failing) {
				g_assert_no_error(err);
				for (size_t u = 0; u < p.n; u++)
					g_assert_cmpint(p.done[u], ==, 1);
			} else {
				char *want = g_strdup_printf("unit %zu failed", p.fail[1]);

				g_assert_nonnull(err);
				g_assert_cmpstr(err->message, ==, want);
				for (size_t u = 0; u <= p.fail[1]; u++)
					g_assert_cmpint(p.done[u], ==, 1);
				g_free(want);
				g_error_free(err);
			}
			g_free(p.done);
		}
	/* nothing to do */
	g_assert_true(unit_pool_run(0, 4, NULL, workers, probe_unit, NULL));
	/* a unit that fails without saying why still fails the pool */
	for (unsigned k = 1; k <= 2; k++) {
		struct pool_probe p = { .n = 50, .fail = { 40, 30 }, .silent = true };
		GError *err = NULL;

		p.done = g_new0(int, p.n);
		g_assert_false(unit_pool_run(p.n, k, &p, workers, probe_unit, &err));
		g_assert_error(err, SS_ERROR, SS_ERROR_INTERNAL);
		g_assert_nonnull(strstr(err->message, "failed without saying why"));
		g_error_free(err);
		g_free(p.done);
	}
}

int main(int argc, char **argv)
{
	const char *env = g_getenv("SECTORSIM_SHARED");
	int status;

	g_test_init(&argc, &argv, NULL);
	shared = env ? g_strdup(env)
		: g_build_filename(g_getenv("G_TEST_SRCDIR") ?
				   g_getenv("G_TEST_SRCDIR") : "tests",
				   "..", "..", "shared", NULL);
	if (!g_file_test(shared, G_FILE_TEST_IS_DIR))
		g_clear_pointer(&shared, g_free);

	g_test_add_func("/trace/scan-hex", test_scan_hex);
	g_test_add_func("/trace/scan-hex-token", test_scan_hex_token);
	g_test_add_func("/trace/scan-hex-line-fixed", test_scan_hex_line_fixed);
	g_test_add_func("/trace/scan-hex-line", test_scan_hex_line);
	g_test_add_func("/trace/find-space", test_find_space);
	g_test_add_func("/trace/unit-pool", test_unit_pool);
	g_test_add_func("/trace/native/crc32", test_native_crc32);
	g_test_add_func("/trace/native/varint", test_native_varint);
	g_test_add_func("/trace/format-names", test_format_names);
	g_test_add_func("/trace/bytes-read", test_bytes_read);
	g_test_add_func("/trace/ppt/kernels", test_ppt_kernels);
	g_test_add_func("/trace/ppt/blocks", test_ppt_blocks);
	g_test_add_func("/trace/accelsim/example", test_accelsim_example);
	g_test_add_func("/trace/accelsim/modes", test_accelsim_modes);
	g_test_add_func("/trace/accelsim/v6", test_accelsim_v6);
	g_test_add_func("/trace/accelsim/v1.2", test_accelsim_v1);
	g_test_add_func("/trace/accelsim/reload", test_accelsim_reload);
	g_test_add_func("/trace/accelsim/lanes", test_accelsim_lanes);
	g_test_add_func("/trace/accelsim/dropped", test_accelsim_dropped);
	g_test_add_func("/trace/open", test_open);
	g_test_add_func("/trace/trc/blocks", test_trc_blocks);
	g_test_add_func("/trace/trc/bad", test_trc_bad);
	g_test_add_func("/trace/trc/folder", test_trc_folder);
	g_test_add_func("/trace/trc/loads-only", test_trc_loads_only);
	g_test_add_func("/trace/linereader/sizes", test_linereader_sizes);
	g_test_add_func("/trace/linereader/compressed", test_linereader_compressed);
	g_test_add_func("/trace/linereader/gzip-members", test_linereader_gzip_members);
	g_test_add_func("/trace/ppt/nul-in-opcode", test_ppt_nul_in_opcode);
	g_test_add_func("/trace/ppt/file-gone", test_ppt_file_gone);
	g_test_add_func("/trace/progression-lines", test_progression_lines);
	g_test_add_func("/trace/loader-intern", test_loader_intern);
	g_test_add_func("/trace/native/crafted-damage", test_native_crafted_damage);
	g_test_add_func("/trace/native/forms", test_native_forms);
	g_test_add_func("/trace/native/pyset", test_native_pyset);
	g_test_add_func("/trace/native/shared-load", test_native_shared_load);
	g_test_add_func("/trace/native/readahead", test_native_readahead);
	g_test_add_func("/trace/ppt/readahead", test_ppt_readahead);
	g_test_add_func("/trace/bad/app-config", test_bad_app_config);
	g_test_add_func("/trace/bad/mem-token", test_bad_mem);
	g_test_add_func("/trace/bad/kernelslist", test_bad_kernelslist);
	g_test_add_func("/trace/bad/kernelslist-no-kernel", test_bad_kernelslist_empty);
	g_test_add_func("/trace/bad/app-config-one-error", test_bad_app_config_once);
	g_test_add_func("/trace/accelsim/first-mask-zero", test_accelsim_first_mask_zero);
	g_test_add_func("/trace/bad/header", test_bad_header);
	g_test_add_func("/trace/bad/header-line", test_bad_header_line);
	g_test_add_func("/trace/bad/structure", test_bad_structure);
	g_test_add_func("/trace/bad/decode", test_bad_decode);
	g_test_add_func("/trace/bad/late-error", test_late_error);
	g_test_add_func("/trace/bad/deltas", test_bad_deltas);
	g_test_add_func("/trace/bad/trailing", test_bad_trailing);
	g_test_add_func("/trace/bad/compressed", test_bad_compressed);
	g_test_add_data_func("/trace/golden/same-app/accelsim_features",
			     "accelsim_features", test_golden_same_app);
	g_test_add_data_func("/trace/golden/same-app/conversion_example",
			     "conversion_example", test_golden_same_app);
	g_test_add_func("/trace/golden/piecewise", test_golden_piecewise);
	g_test_add_func("/trace/golden/lanes", test_golden_lanes);
	for (size_t i = 0; i < G_N_ELEMENTS(golden_apps); i++) {
		char *name = g_strconcat("/trace/golden/load/",
					 golden_apps[i].path, NULL);

		g_test_add_data_func(name, &golden_apps[i], test_golden_load);
		g_free(name);
	}
	status = g_test_run();
	g_free(shared);
	return status;
}
