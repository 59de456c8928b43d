/* SPDX-License-Identifier: BSD-3-Clause */
/* The event queue: order (tick, priority, FIFO), the past, limits, pooling. */
#include "config.h"

#include "internal.h"

struct rec {
	GArray *log;
	int id;
};

static void log_id(struct ss_engine *e, void *data)
{
	struct rec *r = data;

	g_array_append_val(r->log, r->id);
}

static void test_order(void)
{
	struct ss_engine *e = ss_engine_new();
	GArray *log = g_array_new(FALSE, FALSE, sizeof(int));
	/* id: tick, prio; same (tick, prio) must keep insertion order */
	struct { uint64_t tick; int16_t prio; } ev[] = {
		{ 5, 10 },	/* 0 */
		{ 5, 10 },	/* 1 */
		{ 5, -3 },	/* 2 */
		{ 1, 500 },	/* 3 */
		{ 5, 10 },	/* 4 */
		{ WHEEL_SLOTS + 644, 0 },	/* 5: far, beyond the wheel */
		{ WHEEL_SLOTS + 644, 0 },	/* 6 */
		{ WHEEL_SLOTS + 644, -1 },	/* 7 */
		{ 5, 2 },	/* 8 */
	};
	int expect[] = { 3, 2, 8, 0, 1, 4, 7, 5, 6 };
	struct rec recs[G_N_ELEMENTS(ev)];

	for (unsigned i = 0; i < G_N_ELEMENTS(ev); i++) {
		recs[i] = (struct rec){ log, (int)i };
		g_assert_true(ss_schedule(e, ev[i].tick, ev[i].prio, log_id, &recs[i]));
	}
	g_assert_cmpuint(ss_engine_pending(e), ==, G_N_ELEMENTS(ev));
	g_assert_cmpuint(ss_engine_run(e, SS_TICK_MAX), ==, G_N_ELEMENTS(ev));
	g_assert_cmpuint(log->len, ==, G_N_ELEMENTS(expect));
	for (unsigned i = 0; i < log->len; i++)
		g_assert_cmpint(g_array_index(log, int, i), ==, expect[i]);
	g_assert_cmpuint(ss_engine_now(e), ==, WHEEL_SLOTS + 644);
	g_array_free(log, TRUE);
	ss_engine_free(e);
}

/*
 * Random events that schedule more events (same tick, lower or higher
 * priority, near and far ticks): every dispatch must be the minimum
 * (tick, prio, seq) of everything pending, checked against a plain sorted
 * reference.
 */
struct key {
	uint64_t tick;
	int prio;
	uint64_t seq;
};

struct model {
	struct ss_engine *e;
	GRand *rng;
	GArray *pending;	/* struct key, unsorted */
	struct key *slots;	/* one per scheduled event, by seq */
	uint64_t seq, budget, checked;
};

static int key_cmp(const struct key *a, const struct key *b)
{
	if (a->tick != b->tick)
		return a->tick < b->tick ? -1 : 1;
	if (a->prio != b->prio)
		return a->prio < b->prio ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static void model_fire(struct ss_engine *e, void *data);

static void model_schedule(struct model *m, uint64_t tick, int prio)
{
	struct key k = { tick, prio, m->seq };

	m->slots[m->seq] = k;
	g_array_append_val(m->pending, k);
	g_assert_true(ss_schedule(m->e, tick, prio, model_fire,
				  &m->slots[m->seq]));
	m->seq++;
}

static struct model *the_model;

static void model_fire(struct ss_engine *e, void *data)
{
	struct model *m = the_model;
	const struct key *k = data;
	guint best = 0;

	for (guint i = 1; i < m->pending->len; i++)
		if (key_cmp(&g_array_index(m->pending, struct key, i),
			    &g_array_index(m->pending, struct key, best)) < 0)
			best = i;
	g_assert_cmpuint(m->pending->len, >, 0);
	struct key *min = &g_array_index(m->pending, struct key, best);

	g_assert_cmpuint(min->seq, ==, k->seq);
	g_assert_cmpuint(ss_engine_now(e), ==, k->tick);
	g_array_remove_index_fast(m->pending, best);
	m->checked++;

	int children = g_rand_int_range(m->rng, 0, 3);

	for (int c = 0; c < children && m->budget; c++, m->budget--) {
		/* near, at the wheel's edge either side, far */
		static const uint64_t reach[] = {
			0, 1, 3, WHEEL_SLOTS - 1, WHEEL_SLOTS, WHEEL_SLOTS + 1, 8 * WHEEL_SLOTS,
		};
		uint64_t d = g_rand_int_range(m->rng, 0, reach[g_rand_int_range(m->rng, 0, 7)] + 1);

		model_schedule(m, ss_engine_now(e) + d, g_rand_int_range(m->rng, -4, 5));
	}
}

static void test_random_against_reference(void)
{
	struct model m = { 0 };

	m.e = ss_engine_new();
	m.rng = g_rand_new_with_seed(20261122);
	m.pending = g_array_new(FALSE, FALSE, sizeof(struct key));
	m.budget = 20000;
	m.slots = g_new(struct key, m.budget + 200);
	the_model = &m;
	for (int i = 0; i < 200; i++)
		model_schedule(&m, g_rand_int_range(m.rng, 0, 12 * WHEEL_SLOTS),
			       g_rand_int_range(m.rng, -4, 5));
	ss_engine_run(m.e, SS_TICK_MAX);
	g_assert_cmpuint(m.pending->len, ==, 0);
	g_assert_cmpuint(m.checked, ==, m.seq);
	g_assert_cmpuint(m.checked, >, 10000);
	g_free(m.slots);
	g_array_free(m.pending, TRUE);
	g_rand_free(m.rng);
	ss_engine_free(m.e);
}

static void noop(struct ss_engine *e, void *data)
{
	(void)e;
	(*(int *)data)++;
}

static void test_past_refused(void)
{
	struct ss_engine *e = ss_engine_new();
	int n = 0;

	ss_schedule(e, 10, 0, noop, &n);
	ss_engine_run(e, SS_TICK_MAX);
	g_assert_cmpuint(ss_engine_now(e), ==, 10);
	g_test_expect_message(NULL, G_LOG_LEVEL_CRITICAL, "*in the past*");
	g_assert_false(ss_schedule(e, 9, 0, noop, &n));
	g_test_assert_expected_messages();
	g_assert_cmpuint(ss_engine_pending(e), ==, 0);
	g_assert_true(ss_schedule(e, 10, 0, noop, &n));	/* now is fine */
	ss_engine_run(e, SS_TICK_MAX);
	g_assert_cmpint(n, ==, 2);
	ss_engine_free(e);
}

static void test_tick_limit(void)
{
	struct ss_engine *e = ss_engine_new();
	int n = 0;

	ss_schedule(e, 5, 0, noop, &n);
	ss_schedule(e, 10, 0, noop, &n);
	ss_schedule(e, 11, 0, noop, &n);
	ss_schedule(e, 5000, 0, noop, &n);
	g_assert_cmpuint(ss_engine_run(e, 10), ==, 2);
	g_assert_cmpint(n, ==, 2);
	g_assert_cmpuint(ss_engine_now(e), ==, 10);
	g_assert_cmpuint(ss_engine_pending(e), ==, 2);
	g_assert_cmpuint(ss_engine_run(e, 4999), ==, 1);
	g_assert_cmpuint(ss_engine_run(e, SS_TICK_MAX), ==, 1);
	g_assert_cmpuint(ss_engine_now(e), ==, 5000);
	g_assert_cmpuint(ss_engine_events_run(e), ==, 4);
	ss_engine_free(e);
}

static void stopper(struct ss_engine *e, void *data)
{
	(*(int *)data)++;
	ss_engine_stop(e);
}

static void test_stop(void)
{
	struct ss_engine *e = ss_engine_new();
	int n = 0;

	ss_schedule(e, 1, 0, noop, &n);
	ss_schedule(e, 2, 0, stopper, &n);
	ss_schedule(e, 3, 0, noop, &n);
	g_assert_cmpuint(ss_engine_run(e, SS_TICK_MAX), ==, 2);
	g_assert_cmpuint(ss_engine_pending(e), ==, 1);
	g_assert_cmpuint(ss_engine_run(e, SS_TICK_MAX), ==, 1);
	g_assert_cmpint(n, ==, 3);
	ss_engine_free(e);
}

static void failer(struct ss_engine *e, void *data)
{
	ss_engine_fail(e, g_error_new(SS_ERROR, SS_ERROR_INPUT, "%s",
				      (const char *)data));
}

/* A failure stops the run like ss_engine_stop(); the first one is kept. */
static void test_fail(void)
{
	struct ss_engine *e = ss_engine_new();
	int n = 0;

	g_assert_null(ss_engine_failure(e));
	ss_schedule(e, 1, 0, failer, "t.mem:3: first");
	ss_schedule(e, 1, 1, failer, "t.mem:4: second");
	ss_schedule(e, 2, 0, noop, &n);
	g_assert_cmpuint(ss_engine_run(e, SS_TICK_MAX), ==, 1);
	g_assert_cmpuint(ss_engine_run(e, SS_TICK_MAX), ==, 1);
	g_assert_cmpuint(ss_engine_run(e, SS_TICK_MAX), ==, 1);
	g_assert_cmpint(n, ==, 1);
	g_assert_error(ss_engine_failure(e), SS_ERROR, SS_ERROR_INPUT);
	g_assert_cmpstr(ss_engine_failure(e)->message, ==, "t.mem:3: first");

	ss_engine_free(e);
}

/*
 * The run's options: unset until the program sets them, copied (the
 * caller's strings may go), replaced whole by a second set; the table
 * names every command-line field once.
 */
static void test_run_options(void)
{
	struct ss_engine *e = ss_engine_new();
	struct ss_run_options o = { 0 };
	const struct ss_run_options *got = ss_engine_run_options(e);
	char *json = NULL;

	g_assert_null(got->json);
	g_assert_false(got->quiet);
	g_assert_false(got->raw_stats_unread);

	for (const struct ss_run_option_desc *d = ss_run_option_table;
	     d->long_name; d++)
		if (!strcmp(d->long_name, "json"))
			json = ss_run_option_field(&o, d);
	g_assert_true(json == (char *)&o.json);
	o.json = g_strdup("a.json");
	o.quiet = TRUE;
	ss_engine_set_run_options(e, &o);
	ss_run_options_clear(&o);
	g_assert_null(o.json);
	got = ss_engine_run_options(e);
	g_assert_cmpstr(got->json, ==, "a.json");
	g_assert_true(got->quiet);

	o.json = g_strdup("b.json");
	o.raw_stats_unread = TRUE;
	ss_engine_set_run_options(e, &o);
	got = ss_engine_run_options(e);
	g_assert_cmpstr(got->json, ==, "b.json");
	g_assert_false(got->quiet);
	g_assert_true(got->raw_stats_unread);
	g_assert_null(got->rd_profile);
	ss_run_options_clear(&o);
	ss_engine_free(e);
}

/*
 * The run's profile file: none without the option; else the first user
 * truncates it and writes its header, later ones share the stream.
 */
static void test_profile_output(void)
{
	char *dir = g_dir_make_tmp("ss-profile-XXXXXX", NULL);
	char *path = g_build_filename(dir, "p.csv", NULL);
	struct ss_run_options o = { .rd_profile = path };
	struct ss_engine *e = ss_engine_new();
	GError *err = NULL;
	FILE *f1, *f2;
	char *text;

	g_assert_null(ss_engine_profile_output(e, "h\n", "profile", &err));
	g_assert_no_error(err);
	g_assert_true(g_file_set_contents(path, "stale\n", -1, NULL));
	ss_engine_set_run_options(e, &o);
	f1 = ss_engine_profile_output(e, "a,b\n", "profile", &err);
	g_assert_no_error(err);
	g_assert_nonnull(f1);
	fputs("1,2\n", f1);
	f2 = ss_engine_profile_output(e, "c,d\n", "profile", &err);
	g_assert_true(f2 == f1);
	fputs("3,4\n", f2);
	ss_engine_free(e);
	g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
	g_assert_cmpstr(text, ==, "a,b\n1,2\n3,4\n");
	g_free(text);
	remove(path);

	e = ss_engine_new();
	o.rd_profile = g_build_filename(dir, "no", "p.csv", NULL);
	ss_engine_set_run_options(e, &o);
	g_assert_null(ss_engine_profile_output(e, "h\n", "thing's profile", &err));
	g_assert_error(err, SS_ERROR, SS_ERROR_CONFIG);
	g_assert_true(g_str_has_prefix(err->message, o.rd_profile));
	g_assert_nonnull(strstr(err->message, ": cannot write the thing's profile: "));
	g_clear_error(&err);
	g_free(o.rd_profile);
	ss_engine_free(e);
	remove(dir);
	g_free(path);
	g_free(dir);
}

struct ticker {
	uint64_t left;
	int16_t prio;
};

static void tick_again(struct ss_engine *e, void *data)
{
	struct ticker *t = data;

	if (--t->left)
		ss_schedule(e, ss_engine_now(e) + 1 + (t->left % 7), t->prio,
			    tick_again, t);
}

/* After warm-up, a workload of the same shape allocates no more records. */
static void test_pooled(void)
{
	struct ss_engine *e = ss_engine_new();
	struct ticker t[64];

	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < 64; i++) {
			t[i] = (struct ticker){ 1000, (int16_t)(i % 5) };
			ss_schedule(e, ss_engine_now(e), t[i].prio, tick_again, &t[i]);
		}
		size_t before = ss_engine_event_capacity(e);

		ss_engine_run(e, SS_TICK_MAX);
		if (round == 1)
			g_assert_cmpuint(ss_engine_event_capacity(e), ==, before);
	}
	ss_engine_free(e);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/eventq/order", test_order);
	g_test_add_func("/eventq/random-against-reference", test_random_against_reference);
	g_test_add_func("/eventq/past-refused", test_past_refused);
	g_test_add_func("/eventq/tick-limit", test_tick_limit);
	g_test_add_func("/eventq/stop", test_stop);
	g_test_add_func("/eventq/fail", test_fail);
	g_test_add_func("/eventq/run-options", test_run_options);
	g_test_add_func("/eventq/profile-output", test_profile_output);
	g_test_add_func("/eventq/pooled", test_pooled);
	return g_test_run();
}
