/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Partitions (kernel/partition.c): which links the port promises cut, and
 * a partitioned run on 1, 2, 3 and 8 threads that delivers every message
 * of every cut link, in order, each tick's messages together; a failure
 * in one partition halts them all.
 */
#include "config.h"

#include <string.h>
#include "internal.h"

#define TICKS 200
#define PER_TICK 7

struct seq_msg {
	struct ss_msg hdr;
	uint32_t src, seq;
	uint64_t tick;
};

struct src {
	struct ss_component c;
	uint32_t id, seq;
	uint64_t ticks;
	bool fail_at_half;
};

struct sink {
	struct ss_component c;
	uint32_t next[8];	/* per input: the seq expected */
	uint64_t tick_of[8];	/* per input: the sender's tick last seen */
	uint64_t now_of[8];	/* per input: the sink's tick it came at */
	unsigned got, disorder, split;
};

static void src_tick(struct ss_engine *e, void *data)
{
	struct src *s = data;
	struct ss_port *o = ss_component_port(&s->c, "o", 0);

	for (unsigned k = 0; k < PER_TICK; k++) {
		struct seq_msg m = { { sizeof(m), 1 }, s->id, s->seq++,
				     ss_engine_now(e) };

		ss_port_send(o, &m.hdr);
	}
	if (s->fail_at_half && s->ticks == TICKS / 2) {
		ss_component_fail(&s->c, SS_ERROR_INPUT, "stopped on purpose");
		return;
	}
	if (++s->ticks < TICKS)
		ss_schedule_in(e, 1 + s->id % 3, SS_PRIO_ISSUE, src_tick, s);
}

static void sink_recv(struct ss_component *c, struct ss_port *in,
		      const struct ss_msg *m)
{
	struct sink *k = SS_COMPONENT(c, struct sink, c);
	const struct seq_msg *s = (const struct seq_msg *)m;
	uint64_t now = ss_engine_now(c->engine);

	k->got++;
	if (s->src != in->index || s->seq != k->next[in->index])
		k->disorder++;
	k->next[in->index] = s->seq + 1;
	/* a tick's messages together: same sender tick, same sink tick */
	if (s->seq % PER_TICK && (s->tick != k->tick_of[in->index] ||
				  now != k->now_of[in->index]))
		k->split++;
	k->tick_of[in->index] = s->tick;
	k->now_of[in->index] = now;
}

static void nothing(struct ss_component *c, struct ss_port *in,
		    const struct ss_msg *m)
{
	(void)c, (void)in, (void)m;
}

static const struct ss_port_desc src_ports[] = {
	{ "o", SS_PORT_OUT, "proto.a", false, true, "" },
	{ NULL, 0, NULL, false, false, NULL },
};
static const struct ss_port_desc sink_ports[] = {
	{ "v", SS_PORT_IN, "proto.a", true, true, "" },
	{ NULL, 0, NULL, false, false, NULL },
};
static const struct ss_component_ops src_ops = { .xrecv = nothing };
static const struct ss_component_ops sink_ops = { .xrecv = sink_recv };
static const struct ss_component_type src_type = {
	SS_ABI_VERSION, "src", "", NULL, src_ports, NULL, &src_ops, sizeof(struct src), 0,
};
static const struct ss_component_type sink_type = {
	SS_ABI_VERSION, "sink", "", NULL, sink_ports, NULL, &sink_ops, sizeof(struct sink), 0,
};

#define N_SRC 5

struct graph {
	struct ss_engine *e;
	struct src *src[N_SRC];
	struct sink *sink;
};

/* N_SRC sources, each linked to an input of one sink, with these promises */
static void build(struct graph *g, unsigned src_flags, unsigned sink_flags)
{
	g->e = ss_engine_new();
	g->sink = (struct sink *)ss_engine_add_component(g->e, &sink_type, "sink", -1, 1);
	ss_component_alloc_ports(&g->sink->c, 0, N_SRC);
	ss_component_set_port_flags(&g->sink->c, "v", sink_flags);
	for (unsigned i = 0; i < N_SRC; i++) {
		g->src[i] = (struct src *)ss_engine_add_component(g->e, &src_type, "src", (int)i, N_SRC);
		g->src[i]->id = i;
		ss_component_alloc_ports(&g->src[i]->c, 0, 1);
		ss_component_set_port_flags(&g->src[i]->c, "o", src_flags);
		g_assert_cmpint(ss_port_link(ss_component_port(&g->src[i]->c, "o", 0),
					     ss_component_port(&g->sink->c, "v", i), 0),
				==, SS_LINK_OK);
	}
}

static void test_plan(void)
{
	static const struct {
		unsigned src, sink, parts;
	} cases[] = {
		{ 0, 0, 1 },
		/* the sink takes any delay, but might answer: not cut */
		{ 0, SS_PORT_ANY_DELAY, 1 },
		{ 0, SS_PORT_SILENT, 1 },
		{ 0, SS_PORT_ANY_DELAY | SS_PORT_SILENT, N_SRC + 1 },
		{ SS_PORT_SENDS_WHEN_IDLE, SS_PORT_SILENT, N_SRC + 1 },
		{ SS_PORT_SENDS_WHEN_IDLE, 0, 1 },
		/* the sink may answer, and the source takes no delay */
		{ SS_PORT_SILENT, SS_PORT_ANY_DELAY, 1 },
		{ SS_PORT_SILENT | SS_PORT_ANY_DELAY, 0, N_SRC + 1 },
		/* promises, but one end is joined */
		{ SS_PORT_JOINED, SS_PORT_ANY_DELAY | SS_PORT_SILENT, 1 },
		{ 0, SS_PORT_ANY_DELAY | SS_PORT_SILENT | SS_PORT_JOINED, 1 },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct graph g;

		build(&g, cases[i].src, cases[i].sink);
		g_assert_cmpuint(ss_partition_plan(g.e), ==, cases[i].parts);
		if (cases[i].parts > 1) {
			g_assert_cmpuint(g.sink->c.part, ==, 0);
			for (unsigned k = 0; k < N_SRC; k++)
				g_assert_cmpuint(g.src[k]->c.part, ==, k + 1);
		}
		ss_engine_free(g.e);
	}
}

static void run_on(struct graph *g, unsigned threads)
{
	g_assert_cmpuint(ss_partition_plan(g->e), ==, N_SRC + 1);
	ss_partition_prepare(g->e, N_SRC + 1);
	for (unsigned i = 0; i < N_SRC; i++) {
		ss_partition_enter(&g->src[i]->c);
		ss_schedule(g->e, i, SS_PRIO_ISSUE, src_tick, g->src[i]);
		ss_partition_leave();
	}
	ss_partition_run(g->e, threads);
	g_assert_cmpuint(ss_engine_partitions(g->e), ==, N_SRC + 1);
	g_assert_cmpuint(ss_engine_threads(g->e), ==, MIN(threads, N_SRC + 1));
}

static void test_run(void)
{
	static const unsigned threads[] = { 1, 2, 3, 8 };

	for (size_t t = 0; t < G_N_ELEMENTS(threads); t++) {
		struct graph g;

		build(&g, 0, SS_PORT_ANY_DELAY | SS_PORT_SILENT);
		run_on(&g, threads[t]);
		g_assert_null(ss_engine_failure(g.e));
		g_assert_cmpuint(g.sink->got, ==, N_SRC * TICKS * PER_TICK);
		g_assert_cmpuint(g.sink->disorder, ==, 0);
		g_assert_cmpuint(g.sink->split, ==, 0);
		for (unsigned i = 0; i < N_SRC; i++)
			g_assert_cmpuint(g.sink->next[i], ==, TICKS * PER_TICK);
		g_assert_cmpuint(ss_partition_pending(g.e), ==, 0);
		ss_engine_free(g.e);
	}
}

static void test_fail(void)
{
	struct graph g;
	const GError *err;

	build(&g, 0, SS_PORT_ANY_DELAY | SS_PORT_SILENT);
	g.src[2]->fail_at_half = true;
	run_on(&g, 3);
	err = ss_engine_failure(g.e);
	g_assert_nonnull(err);
	g_assert_cmpstr(err->message, ==, "src[2]: stopped on purpose");
	/* the failing source went no further; what it sent before, in order */
	g_assert_cmpuint(g.src[2]->ticks, ==, TICKS / 2);
	g_assert_cmpuint(g.sink->disorder, ==, 0);
	ss_engine_free(g.e);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/partition/plan", test_plan);
	g_test_add_func("/partition/run", test_run);
	g_test_add_func("/partition/fail", test_fail);
	return g_test_run();
}
