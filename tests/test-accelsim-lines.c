/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The Accel-Sim reader's two instruction-line parsers against each other.
 * fast_instruction() reads a well-formed line in one pass and gives up on
 * anything else; slow_instruction() tokenizes first and decides every
 * line.  Every line the fast one takes must come out of both alike: the
 * same verdict, the same error, the same lines, addresses, lanes and
 * counts in the block being built.  The lines: every instruction line of
 * the Accel-Sim traces in tests/data (and ../shared/golden when present),
 * each also mutated many ways (a byte changed, a token doubled or dropped,
 * blanks, signs, long numbers), under every trace-format setting the
 * reader knows (versions before 3, 5 and 6, line numbers, 0-2 trailing
 * immediates, kept or not).
 *
 * The reader's source is included so that its static parsers are in reach.
 */
#include "trace_accelsim.c"

#include <glib.h>

#define BUF 4096

struct outcome {
	bool handled, ok;
	char *error;
	struct block_builder build;
};

struct setting {
	unsigned version;
	bool lineinfo;
	unsigned n_imm;
	bool keep;
};

static const struct setting settings[] = {
	{ 5, false, 1, true }, { 5, false, 0, true }, { 5, false, 2, true },
	{ 5, false, 1, false }, { 6, false, 1, true }, { 4, true, 1, true },
	{ 2, false, 1, true }, { 2, true, 0, true },
};

static GPtrArray *lines;		/* char *, each a line without its end */
static guint n_fast, n_real_fast, n_real;	/* what the fast path took */

static void state_init(struct as_lines *s, struct trace_reader *t,
		       struct block_loader *l, const struct setting *set)
{
	memset(s, 0, sizeof(*s));
	memset(t, 0, sizeof(*t));
	loader_init(l);
	pthread_mutex_init(&t->lock, NULL);
	/* what the messages call the file and line */
	s->name = "t.traceg";
	s->lineno = 7;
	s->version = set->version;
	s->lineinfo = set->lineinfo;
	s->n_imm = set->n_imm;
	s->keep = set->keep;
	s->warp = 3;
	s->t = t;
	s->l = l;
	t->strings = g_string_chunk_new(256);
}

static void state_free(struct as_lines *s, struct trace_reader *t,
		       struct block_loader *l, struct outcome *o)
{
	o->build = l->build;	/* moved: freed by outcome_free */
	memset(&l->build, 0, sizeof(l->build));
	loader_free(l);
	pthread_mutex_destroy(&t->lock);
	g_free(s->tok);
	g_free(s->tend);
	/* the opcodes the builder points at stay until outcome_free */
}

static void run_one(const char *line, const struct setting *set, bool fast,
		    struct outcome *o, GStringChunk **strings)
{
	struct as_lines s;
	struct trace_reader t;
	struct block_loader l;
	GError *err = NULL;
	size_t len = strlen(line);
	char *buf = g_malloc0(len + LR_SLACK + 1);

	memcpy(buf, line, len);
	state_init(&s, &t, &l, set);
	memset(o, 0, sizeof(*o));
	if (fast) {
		o->handled = fast_instruction(&s, buf, len, 5, &o->ok, &err);
		if (!o->handled) {
			/* a refusal changes nothing: the exact parser starts afresh */
			g_assert_cmpuint(l.build.n_pend, ==, 0);
			g_assert_cmpuint(l.build.n_shared, ==, 0);
			g_assert_cmpuint(l.build.n_unknown, ==, 0);
			g_assert_null(err);
			g_assert_cmpmem(buf, len, line, len);
		}
	} else {
		o->handled = true;
		o->ok = slow_instruction(&s, buf, len, 5, &err);
	}
	g_assert_true(!o->handled || o->ok == (err == NULL));
	if (err) {
		o->error = g_strdup(err->message);
		g_error_free(err);
	}
	state_free(&s, &t, &l, o);
	*strings = t.strings;
	g_free(buf);
}

static void outcome_free(struct outcome *o, GStringChunk *strings)
{
	builder_free(&o->build);
	g_free(o->error);
	g_string_chunk_free(strings);
}

static void expect_same(const char *line, const struct setting *set,
			const struct outcome *f, const struct outcome *x)
{
	const struct block_builder *a = &f->build, *b = &x->build;

	if (f->ok != x->ok || g_strcmp0(f->error, x->error))
		g_error("'%s' (v%u, lineinfo %d, %u imm): fast %s (%s), exact %s (%s)",
			line, set->version, set->lineinfo, set->n_imm,
			f->ok ? "ok" : "fails", f->error ? f->error : "",
			x->ok ? "ok" : "fails", x->error ? x->error : "");
	g_assert_cmpuint(a->n_shared, ==, b->n_shared);
	g_assert_cmpuint(a->n_unknown, ==, b->n_unknown);
	g_assert_cmpuint(a->n_pend, ==, b->n_pend);
	for (size_t i = 0; i < a->n_pend; i++) {
		const struct pending_line *p = &a->pend[i], *q = &b->pend[i];

		g_assert_cmphex(p->key, ==, q->key);
		g_assert_cmpstr(p->opcode, ==, q->opcode);
		g_assert_cmpuint(p->n_addr, ==, q->n_addr);
		g_assert_cmpuint(p->warp, ==, q->warp);
		g_assert_cmphex(p->lanes, ==, q->lanes);
		g_assert_cmpint(p->step, ==, q->step);
		/* a progression keeps its first address only */
		g_assert_cmpmem(a->pool + p->addr_off,
				(p->step ? 1 : p->n_addr) * sizeof(uint64_t),
				b->pool + q->addr_off,
				(q->step ? 1 : q->n_addr) * sizeof(uint64_t));
	}
}

static void check_line(const char *line, bool real)
{
	for (size_t k = 0; k < G_N_ELEMENTS(settings); k++) {
		struct outcome f, x;
		GStringChunk *sf, *sx;
		bool usual = real && k == 0;

		run_one(line, &settings[k], true, &f, &sf);
		if (f.handled || usual) {
			run_one(line, &settings[k], false, &x, &sx);
			if (f.handled)
				expect_same(line, &settings[k], &f, &x);
			n_fast += f.handled;
			n_real += usual && x.ok;
			n_real_fast += usual && x.ok && f.handled;
			if (usual && x.ok && !f.handled)
				g_test_message("exact parser only: '%s'", line);
			outcome_free(&x, sx);
		}
		outcome_free(&f, sf);
	}
}

/* Instruction lines (they start with a hex digit) of one trace file. */
static void add_lines_of(const char *path)
{
	struct line_reader r;
	GError *err = NULL;
	char *line;
	size_t len;
	int rc;

	lr_init(&r);
	if (!lr_open(&r, path, path, NULL, &err))
		g_error("%s", err->message);
	(void)rc;
	while ((rc = lr_next(&r, &line, &len, &err)) > 0)
		if (len && len < BUF / 2 && g_ascii_isxdigit(line[0]))
			g_ptr_array_add(lines, g_strndup(line, len));
	/* tests/data/trace/bad-compressed ends in an error: its lines count */
	g_clear_error(&err);
	lr_free(&r);
}

static void add_traces_under(const char *dir, guint most)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *name;

	if (!d)
		return;
	while ((name = g_dir_read_name(d)) && lines->len < most) {
		char *path = g_build_filename(dir, name, NULL);

		if (g_file_test(path, G_FILE_TEST_IS_DIR))
			add_traces_under(path, most);
		else if (strstr(name, ".traceg"))
			add_lines_of(path);
		g_free(path);
	}
	g_dir_close(d);
}

/* Lines the traces may not hold: every mode, every field gone wrong. */
static const char *const made[] = {
	"0010 ffffffff 1 R0 LDG.E 1 R2 4 0 0x7f0000000000 0x7f0000000004 "
	"0x7f0000000008 0x7f000000000c 0x7f0000000010 0x7f0000000014 "
	"0x7f0000000018 0x7f000000001c 0x7f0000000020 0x7f0000000024 "
	"0x7f0000000028 0x7f000000002c 0x7f0000000030 0x7f0000000034 "
	"0x7f0000000038 0x7f000000003c 0x7f0000000040 0x7f0000000044 "
	"0x7f0000000048 0x7f000000004c 0x7f0000000050 0x7f0000000054 "
	"0x7f0000000058 0x7f000000005c 0x7f0000000060 0x7f0000000064 "
	"0x7f0000000068 0x7f000000006c 0x7f0000000070 0x7f0000000074 "
	"0x7f0000000078 0x7f000000007c 0",
	"0010 00000003 1 R0 LDG.E 1 R2 4 0 0x10 0x0 0",
	"0010 0000000f 0 STG.E 2 R2 R4 4 1 0x7f0000000000 -4 0",
	"0010 0000000f 0 STG.E 2 R2 R4 4 1 0x7f0000000000 4294967296 0",
	"0010 00000101 1 R0 LDG.E 1 R2 4 2 0x7f0000001000 -8 0",
	"0010 00000101 1 R0 LDG.E 1 R2 4 2 0x7f0000001000 -8 +8 0",
	"0010 80000000 1 R0 ATOMG.E.ADD 1 R2 4 2 0x7f0000001000 0",
	"0010 ffffffff 1 R0 LDS 1 R2 4 1 0x0 4 0",
	"0010 ffffffff 0 UTMALDG 2 UR4 UR6 0 0",
	"0010 ffffffff 0 UBLKCP.S.G 3 UR4 UR6 UR8 16 0 junk 0",
	"0010 ffffffff 1 R0 HGMMA.64x128x16 2 R2 R4 0 0 0",
	"0010 ffffffff 1 R0 LDG.E 1 R2 4 1 0x7f0000000000 4",
	"0010 ffffffff 1 R0 LDG.E 1 R2 4 1 0x7f0000000000 4 0 0",
	"0010 ffffffff 1 r0 LDG.E 1 R2 4 1 0x7f0000000000 4 0",
	"0010 ffffffff 33 R0 LDG.E 1 R2 4 1 0x7f0000000000 4 0",
	"0010 1ffffffff 1 R0 LDG.E 1 R2 4 1 0x7f0000000000 4 0",
	"0010 ffffffff 1 R0 LDG.E 1 R2 4 3 0x7f0000000000 4 0",
	"0010 ffffffff 1 R0 LDG.E 1 R2 4 1 0x7f00000000000000000 4 0",
	"0010 ffffffff 1 R0 LDG.E 1 R2 4 1 0x00000000000000007f00 4 0",
	"0010 ffffffff 1 R0 LDG.E 1 R2 0000000000000000004 1 0x7f00 4 0",
	"0010 ffffffff 1 R0 LDG.E 1 R2 4 1 0x7f00 99999999999999999999 0",
	"0010\tffffffff 1 R0 LDG.E 1 R2 4 1 0x7f00\t4 0\t",
	"0010 ffffffff 1 R0 LDG.E 1 R2 4",
	"0010 ffffffff 1 R0",
	"0010",
	"1 2 3 4 0010 ffffffff 1 R0 LDG.E 1 R2 4 1 0x7f00 4 0",
	"12 0010 ffffffff 1 R0 LDG.E 1 R2 4 1 0x7f00 4 0",
};

/* The many ways a line may go wrong, seeded from its position. */
static char *mutate(const char *line, GRand *rnd)
{
	static const char *const bits[] = { " ", "  ", "\t", "-", "+", "0x",
		"x", "g", "G", "99999999999999999999", "0000000000000000000",
		"R7", "Val", "\xff", "12", "ffffffffffffffff" };
	size_t len = strlen(line), at = (size_t)g_rand_int_range(rnd, 0, (gint32)len + 1);
	GString *s = g_string_new(line);

	switch (g_rand_int_range(rnd, 0, 5)) {
	case 0:		/* a byte changed */
		if (len)
			s->str[MIN(at, len - 1)] = (char)g_rand_int_range(rnd, 1, 256);
		break;
	case 1:		/* something inserted */
		g_string_insert(s, (gssize)at,
				bits[g_rand_int_range(rnd, 0, G_N_ELEMENTS(bits))]);
		break;
	case 2:		/* a byte dropped */
		if (len)
			g_string_erase(s, (gssize)MIN(at, len - 1), 1);
		break;
	case 3: {	/* a token dropped or doubled */
		char **w = g_strsplit(line, " ", -1);
		guint n = g_strv_length(w), k = (guint)g_rand_int_range(rnd, 0, (gint32)n);
		bool twice = g_rand_boolean(rnd);

		g_string_truncate(s, 0);
		for (guint i = 0; i < n; i++) {
			if (i == k && !twice)
				continue;
			g_string_append_printf(s, "%s%s", s->len ? " " : "", w[i]);
			if (i == k)
				g_string_append_printf(s, " %s", w[i]);
		}
		g_strfreev(w);
		break;
	}
	default:	/* cut short */
		g_string_truncate(s, at);
		break;
	}
	return g_string_free(s, FALSE);
}

static void test_lines_agree(void)
{
	GRand *rnd = g_rand_new_with_seed(20261125);
	guint n_traced = lines->len;

	g_assert_cmpuint(n_traced, >=, 50);	/* tests/data alone has 94 */
	for (guint i = 0; i < n_traced; i++)
		check_line(lines->pdata[i], true);
	for (size_t i = 0; i < G_N_ELEMENTS(made); i++)
		check_line(made[i], false);
	for (guint i = 0; i < n_traced; i++) {
		for (int k = 0; k < 8; k++) {
			char *m = mutate(lines->pdata[i], rnd);

			check_line(m, false);
			g_free(m);
		}
	}
	g_test_message("%u traced lines well formed under the usual setting, "
		       "%u of them taken by the fast path; %u line-setting "
		       "pairs compared", n_real, n_real_fast, n_fast);
	/* the fast path is the one that runs: it takes nearly every line */
	g_assert_cmpuint(n_real, >=, 20);
	g_assert_cmpuint(n_real_fast, >=, n_real * 99 / 100);
	g_rand_free(rnd);
}

int main(int argc, char **argv)
{
	const char *env = g_getenv("SECTORSIM_SHARED");
	char *data, *golden;
	int rc;

	g_test_init(&argc, &argv, NULL);
	lines = g_ptr_array_new_with_free_func(g_free);
	data = g_build_filename(g_getenv("G_TEST_SRCDIR"), "data", "trace", NULL);
	add_traces_under(data, G_MAXUINT);
	/* ../shared/golden when it is there: real tracers' lines */
	golden = env ? g_build_filename(env, "golden", NULL)
		     : g_build_filename(g_getenv("G_TEST_SRCDIR"), "..", "..",
					"shared", "golden", NULL);
	add_traces_under(golden, lines->len + 40000);
	g_test_add_func("/accelsim-lines/fast-equals-exact", test_lines_agree);
	rc = g_test_run();
	g_ptr_array_free(lines, TRUE);
	g_free(golden);
	g_free(data);
	return rc;
}
