/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The Accel-Sim reader with helper threads (trace_set_loaders > 1) against
 * the reader alone: the same blocks, the same errors, for every way of
 * loading a kernel.  The kernels are made here, with a seed: blocks of one
 * to three warps in a shuffled order with some ids absent, lines of every
 * address mode, memory and not; then copies with one or two faults each,
 * an instruction line's or the file structure's, in any place.  Slabs are
 * set small and the queue short, so that blocks go to the helpers, to the
 * reading thread when the queue is full, and from a slab back to it when
 * they outgrow one; and the cores are taken to be many, so that the pool
 * runs on any machine.
 *
 * The reader's source is included so that those limits can be set.
 */
#define SLAB_MAX 4096
#define POOL_QUEUE 2
#define POOL_CORES() 8u
#include "trace_accelsim.c"

#include <glib/gstdio.h>

#define GRID 40

static char *dir;

/* One instruction line of warp w, kind k (0..5). */
static char *make_line(GRand *r, unsigned k)
{
	uint32_t mask = g_rand_boolean(r) ? 0xffffffffu : g_rand_int(r) | 1u;
	unsigned n = (unsigned)__builtin_popcount(mask);
	uint64_t base = 0x7f0000000000ull + ((uint64_t)g_rand_int_range(r, 0, 1 << 20) << 4);
	unsigned pc = (unsigned)g_rand_int_range(r, 0, 0x10000) * 16;
	GString *s = g_string_new(NULL);

	switch (k) {
	case 0:		/* mode 1: base and stride */
		g_string_printf(s, "%04x %08x 1 R4 LDG.E.64 1 R2 8 1 0x%" G_GINT64_MODIFIER "x %d 0",
				pc, mask, base, 8 * g_rand_int_range(r, -4, 5));
		break;
	case 1:		/* mode 0: every address */
		g_string_printf(s, "%04x %08x 0 STG.E 2 R2 R4 4 0", pc, mask);
		for (unsigned i = 0; i < n; i++)
			g_string_append_printf(s, " 0x%" G_GINT64_MODIFIER "x",
					       base + 4 * (uint64_t)g_rand_int_range(r, 0, 64));
		g_string_append(s, " 0");
		break;
	case 2:		/* mode 2: n - 1 deltas */
		g_string_printf(s, "%04x %08x 1 R1 LDG.E.CONSTANT 1 R2 4 2 0x%" G_GINT64_MODIFIER "x",
				pc, mask, base);
		for (unsigned i = 1; i < n; i++)
			g_string_append_printf(s, " %d", 4 * g_rand_int_range(r, -3, 9));
		g_string_append(s, " 0");
		break;
	case 3:		/* no memory */
		g_string_printf(s, "%04x %08x 1 R3 IADD 2 R1 R2 0 0", pc, mask);
		break;
	case 4:		/* shared memory: counted, not kept */
		g_string_printf(s, "%04x %08x 1 R3 LDS 1 R2 4 1 0x40 4 0", pc, mask);
		break;
	default:	/* an atomic, of another opcode text */
		g_string_printf(s, "%04x %08x 1 R5 ATOMG.E.ADD.STRONG.GPU 2 R2 R4 4 1 0x%" G_GINT64_MODIFIER "x 4 0",
				pc, mask, base);
		break;
	}
	return g_string_free(s, FALSE);
}

/* A kernel's file as lines; its listed block ids in *ids, in file order. */
static GPtrArray *make_kernel(GRand *r, unsigned id, GArray *ids)
{
	GPtrArray *l = g_ptr_array_new_with_free_func(g_free);
	unsigned order[GRID];

	g_ptr_array_add(l, g_strdup_printf("-kernel name = k%u", id));
	g_ptr_array_add(l, g_strdup_printf("-grid dim = (%u,1,1)", GRID));
	g_ptr_array_add(l, g_strdup("-block dim = (96,1,1)"));
	g_ptr_array_add(l, g_strdup("-shmem = 0"));
	g_ptr_array_add(l, g_strdup("-nregs = 8"));
	g_ptr_array_add(l, g_strdup("-cuda stream id = 0"));
	g_ptr_array_add(l, g_strdup("-accelsim tracer version = 5"));
	g_ptr_array_add(l, g_strdup(""));
	g_ptr_array_add(l, g_strdup("#traces format = PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses] immediate"));
	for (unsigned i = 0; i < GRID; i++)
		order[i] = i;
	for (unsigned i = GRID - 1; i > 0; i--) {
		unsigned j = (unsigned)g_rand_int_range(r, 0, (gint32)i + 1), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	for (unsigned b = 0; b < GRID; b++) {
		if (g_rand_int_range(r, 0, 10) == 0)
			continue;	/* absent: an empty block */
		g_array_append_val(ids, order[b]);
		g_ptr_array_add(l, g_strdup("#BEGIN_TB"));
		g_ptr_array_add(l, g_strdup_printf("thread block = %u,0,0", order[b]));
		for (unsigned w = 0; w < 3; w++) {
			/* some blocks far above a slab, most below */
			unsigned n = g_rand_int_range(r, 0, 8) == 0
				? (unsigned)g_rand_int_range(r, 20, 60)
				: (unsigned)g_rand_int_range(r, 0, 12);

			if (w && g_rand_int_range(r, 0, 4) == 0)
				continue;	/* a warp not traced */
			g_ptr_array_add(l, g_strdup_printf("warp = %u", w));
			g_ptr_array_add(l, g_strdup_printf("insts = %u", n));
			for (unsigned i = 0; i < n; i++)
				g_ptr_array_add(l, make_line(r, (unsigned)g_rand_int_range(r, 0, 6)));
		}
		g_ptr_array_add(l, g_strdup("#END_TB"));
	}
	return l;
}

/* A fault at a random line of l: an instruction line's or the file's. */
static void fault(GRand *r, GPtrArray *l, const GArray *ids)
{
	for (;;) {
		guint i = (guint)g_rand_int_range(r, 9, (gint32)l->len);
		char *s = l->pdata[i], *t = NULL;

		switch (g_rand_int_range(r, 0, 6)) {
		case 0:	/* an instruction line's mask is no hexadecimal */
			if (g_ascii_isxdigit(s[0]) && strlen(s) > 5)
				t = g_strdup_printf("%.5szz%s", s, s + 7);
			break;
		case 1:	/* an instruction line's last field goes */
			if (g_ascii_isxdigit(s[0]) && strrchr(s, ' '))
				t = g_strndup(s, (gsize)(strrchr(s, ' ') - s));
			break;
		case 2:	/* a count that does not match */
			if (g_str_has_prefix(s, "insts = "))
				t = g_strdup_printf("insts = %d", atoi(s + 8) + 1);
			break;
		case 3:	/* a block that does not end */
			if (!strcmp(s, "#END_TB"))
				t = g_strdup("");
			break;
		case 4:	/* a block listed twice */
			if (g_str_has_prefix(s, "thread block") && ids->len > 1)
				t = g_strdup_printf("thread block = %u,0,0",
						    g_array_index(ids, unsigned, 0));
			break;
		default:	/* a stray line among instructions */
			if (g_ascii_isxdigit(s[0]))
				t = g_strdup("not an instruction");
			break;
		}
		if (t) {
			g_free(l->pdata[i]);
			l->pdata[i] = t;
			return;
		}
	}
}

/*
 * Two faults in one block: an instruction line's, then the structure's
 * further on (a stray line), so that the block's slab is cut short by the
 * reading thread's error while its lines before hold the first one.
 */
static void fault_pair(GRand *r, GPtrArray *l)
{
	for (;;) {
		guint i = (guint)g_rand_int_range(r, 9, (gint32)l->len), j;
		char *s = l->pdata[i];

		if (!g_ascii_isxdigit(s[0]) || strlen(s) <= 7)
			continue;
		for (j = i + 1; j < l->len && g_ascii_isxdigit(((char *)l->pdata[j])[0]); j++)
			;
		/* j: the line after the warp's instructions */
		if (j >= l->len || j == i + 1)
			continue;
		j = i + 1 + (guint)g_rand_int_range(r, 0, (gint32)(j - i - 1));
		l->pdata[i] = g_strdup_printf("%.5szz%s", s, s + 7);
		g_free(s);
		g_free(l->pdata[j]);
		l->pdata[j] = g_strdup("not an instruction");
		return;
	}
}

static void write_lines(const char *name, const GPtrArray *l)
{
	GString *s = g_string_new(NULL);
	char *path = g_build_filename(dir, name, NULL);

	for (guint i = 0; i < l->len; i++)
		g_string_append_printf(s, "%s\n", (const char *)l->pdata[i]);
	g_assert_true(g_file_set_contents(path, s->str, (gssize)s->len, NULL));
	g_string_free(s, TRUE);
	g_free(path);
}

static void describe_block(GString *o, const struct gpu_block *b)
{
	g_string_append_printf(o, "block %" G_GUINT64_FORMAT ": %u lines, %u shared, %u unknown\n",
			       b->id, b->n_lines, b->n_shared, b->n_unknown);
	for (uint32_t i = 0; i < b->n_lines; i++) {
		const struct gpu_line *x = &b->lines[i];

		g_string_append_printf(o, " %s w%u %08x:", x->opcode, x->warp, x->lanes);
		for (uint32_t k = 0; k < x->n_addr; k++)
			g_string_append_printf(o, " %" G_GINT64_MODIFIER "x", gpu_line_addr(x, k));
		g_string_append_c(o, '\n');
	}
}

/*
 * What reading the trace in dir gives with `loaders` threads, loading
 * each kernel's grid: whole (pattern 0), 8 blocks at a time (1), or its
 * second half first (2: the first pass passes the first half, which is
 * then read again).
 */
static char *transcript(unsigned loaders, int pattern)
{
	GError *err = NULL;
	struct trace_reader *t = trace_open(dir, TRACE_AUTO, &err);
	GString *o = g_string_new(NULL);
	const struct gpu_kernel *k;
	uint64_t ids[GRID];
	const struct gpu_block *out[GRID];

	g_assert_no_error(err);
	trace_set_loaders(t, loaders);
	while ((k = trace_next_kernel(t, &err))) {
		size_t from[3] = { 0 }, n[3] = { 0 }, parts;

		g_assert_cmpuint(k->grid_size, ==, GRID);
		for (unsigned i = 0; i < GRID; i++)
			ids[i] = i;
		if (pattern == 0) {
			parts = 1, n[0] = GRID;
		} else if (pattern == 2) {
			parts = 2, from[0] = GRID / 2, n[0] = GRID / 2, n[1] = GRID / 2;
		} else {
			parts = 0;
		}
		for (size_t p = 0; pattern == 1 ? p * 8 < GRID : p < parts; p++) {
			size_t f = pattern == 1 ? p * 8 : from[p], m = pattern == 1 ? 8 : n[p];

			if (!trace_load_blocks(t, ids + f, m, out, &err)) {
				g_string_append_printf(o, "load: %s\n", err->message);
				g_clear_error(&err);
				break;
			}
			for (size_t i = 0; i < m; i++)
				describe_block(o, out[i]);
		}
		g_string_append_printf(o, "kernel %u done\n", k->id);
	}
	g_string_append_printf(o, "end: %s\n", err ? err->message : "ok");
	g_clear_error(&err);
	trace_close(t);
	return g_string_free(o, FALSE);
}

/* faults: 0 to 2 anywhere, or 3: fault_pair() */
static void check_variant(GRand *r, unsigned faults, unsigned *n_failed)
{
	GArray *ids1 = g_array_new(FALSE, FALSE, sizeof(unsigned));
	GArray *ids2 = g_array_new(FALSE, FALSE, sizeof(unsigned));
	GPtrArray *k1 = make_kernel(r, 1, ids1), *k2 = make_kernel(r, 2, ids2);

	if (faults == 3)
		fault_pair(r, k1);
	for (unsigned f = 0; f < faults && faults < 3; f++)
		fault(r, g_rand_boolean(r) ? k1 : k2, g_rand_boolean(r) ? ids1 : ids2);
	write_lines("kernel-1.traceg", k1);
	write_lines("kernel-2.traceg", k2);
	for (int pattern = 0; pattern < 3; pattern++) {
		char *alone = transcript(1, pattern);

		*n_failed += strstr(alone, "load: ") || !strstr(alone, "end: ok");
		for (unsigned loaders = 2; loaders <= 5; loaders += loaders == 2 ? 1 : 2) {
			char *pooled = transcript(loaders, pattern);

			if (strcmp(alone, pooled))
				g_error("%u fault(s), pattern %d, %u loaders:\n--- alone\n%s--- pooled\n%s",
					faults, pattern, loaders, alone, pooled);
			g_free(pooled);
		}
		g_free(alone);
	}
	g_ptr_array_unref(k1);
	g_ptr_array_unref(k2);
	g_array_unref(ids1);
	g_array_unref(ids2);
}

static void test_same_as_alone(void)
{
	GRand *r = g_rand_new_with_seed(20261129);
	unsigned failed = 0, runs = 0;

	for (unsigned v = 0; v < 12; v++, runs++)
		check_variant(r, 0, &failed);
	g_assert_cmpuint(failed, ==, 0);
	for (unsigned v = 0; v < 60; v++, runs++)
		check_variant(r, 1, &failed);
	for (unsigned v = 0; v < 40; v++, runs++)
		check_variant(r, 2, &failed);
	for (unsigned v = 0; v < 30; v++, runs++)
		check_variant(r, 3, &failed);
	/* the faults were met: most loads of a faulty copy fail */
	g_test_message("%u of %u loads of faulty copies failed", failed, (runs - 12) * 3);
	g_assert_cmpuint(failed, >, (runs - 12) * 3 / 2);
	g_rand_free(r);
}

/* A kernel's blocks really go to the pool: slabs are read by helpers,
 * some blocks in place, and some slabs are taken back. */
static void test_paths_taken(void)
{
	GRand *r = g_rand_new_with_seed(7);
	GArray *ids = g_array_new(FALSE, FALSE, sizeof(unsigned));
	GPtrArray *k = make_kernel(r, 1, ids);
	GError *err = NULL;
	struct trace_reader *t;
	uint64_t all[GRID];
	const struct gpu_block *out[GRID];
	struct as_state *s;
	uint64_t slabs;

	write_lines("kernel-1.traceg", k);
	write_lines("kernel-2.traceg", k);
	t = trace_open(dir, TRACE_AUTO, &err);
	g_assert_no_error(err);
	trace_set_loaders(t, 2);
	g_assert_nonnull(trace_next_kernel(t, &err));
	for (unsigned i = 0; i < GRID; i++)
		all[i] = i;
	s = t->state;
	g_assert_true(trace_load_blocks(t, all, GRID, out, &err));
	g_assert_no_error(err);
	slabs = s->n_slabs;
	g_test_message("%" G_GUINT64_FORMAT " slabs, %" G_GUINT64_FORMAT " taken back, %u blocks listed",
		       slabs, s->n_taken_back, ids->len);
	g_assert_cmpuint(slabs, >, 0);
	g_assert_cmpuint(slabs, <=, ids->len);
	g_assert_cmpuint(s->n_taken_back, >, 0);
	trace_close(t);
	g_ptr_array_unref(k);
	g_array_unref(ids);
	g_rand_free(r);
}

int main(int argc, char **argv)
{
	int rc;
	char *list;

	g_test_init(&argc, &argv, NULL);
	dir = g_dir_make_tmp("sectorsim-pool-XXXXXX", NULL);
	g_assert_nonnull(dir);
	list = g_build_filename(dir, "kernelslist.g", NULL);
	g_assert_true(g_file_set_contents(list, "kernel-1.traceg\nkernel-2.traceg\n", -1, NULL));
	g_test_add_func("/accelsim-pool/same-as-alone", test_same_as_alone);
	g_test_add_func("/accelsim-pool/paths-taken", test_paths_taken);
	rc = g_test_run();
	for (const char *f = "kernel-1.traceg"; f; f = strcmp(f, "kernel-1.traceg") ? NULL : "kernel-2.traceg") {
		char *p = g_build_filename(dir, f, NULL);

		g_remove(p);
		g_free(p);
	}
	g_remove(list);
	g_rmdir(dir);
	g_free(list);
	g_free(dir);
	return rc;
}
