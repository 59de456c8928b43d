/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Partitions (kernel/partition.c): which links the port promises cut,
 * how partitions of a kind group, a partitioned run on 1, 2, 3 and 8
 * threads that delivers every message of every cut link, in order, each
 * tick's messages together, and one in time order that gives what one
 * queue gives; a failure in one partition halts them all, or in time
 * order the earliest failure is the one kept, with everything before it
 * delivered and nothing after, as on one queue.
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
	uint64_t credit;	/* what the hub last told the source */
};

struct src {
	struct ss_component c;
	uint32_t id, seq;
	uint64_t ticks;
	uint64_t credit;	/* from the hub, read by the next tick */
	uint64_t fail_at;	/* fails in its tick of this count (0: never) */
	bool distinct_prio;	/* its events at a priority of its own */
	bool spread;		/* sends each message 0 to 3 ticks later */
	bool sizes;		/* messages of many sizes (msg_size), with a tail */
};

/* What the sink saw, in order, to compare runs. */
struct seen {
	uint32_t src, seq;
	uint64_t tick, now, credit;
};

struct sink {
	struct ss_component c;
	uint32_t next[8];	/* per input: the seq expected */
	uint64_t tick_of[8];	/* per input: the sender's tick last seen */
	uint64_t now_of[8];	/* per input: the sink's tick it came at */
	unsigned got, disorder, split;
	GArray *seen;		/* struct seen */
	bool hub;		/* answers every source at the next tick */
	bool hub_queued;
	unsigned fail_on;	/* fails on the message of this count (0: never) */
	unsigned bad_tail;	/* messages whose bytes past a seq_msg are wrong */
	unsigned hints;		/* xprefetch calls */
	unsigned late_hints;	/* ... for a message already received */
	/*
	 * With a hub: every deaf_period ticks (0: never) an event of its own
	 * turns it deaf (v inert: it answers nothing) or back; turning back,
	 * it answers at the next tick.
	 */
	uint64_t deaf_period;
	bool deaf;
	unsigned phases;	/* phase events run */
};

/*
 * With src->sizes, message `seq` of a source has this size: runs of one
 * size and changes, sizes that are and are not multiples of 8, up to
 * SS_MSG_MAX (kernel/partition.c codes messages of up to 64 bytes by their
 * changed words, the others whole).
 */
static uint32_t msg_size(uint32_t seq)
{
	static const uint32_t sizes[] = { 40, 40, 44, 64, 64, 72, SS_MSG_MAX, 48, 41 };

	return sizes[(seq / 3) % G_N_ELEMENTS(sizes)];
}

/* Byte i of a message past its seq_msg. */
static unsigned char tail_byte(uint32_t src, uint32_t seq, uint32_t i)
{
	/* mostly alike from one message to the next, as a run's are */
	return (unsigned char)(i < 24 ? src * 31 + i : src + seq * 7 + i);
}

static void src_tick(struct ss_engine *e, void *data)
{
	struct src *s = data;
	struct ss_port *o = ss_component_port(&s->c, "o", 0);
	int16_t prio = s->distinct_prio ? SS_PRIO_ISSUE + 1 + s->id : SS_PRIO_ISSUE;

	for (unsigned k = 0; k < PER_TICK; k++) {
		union {
			struct seq_msg m;
			unsigned char bytes[SS_MSG_MAX];
		} u = { .m = { { sizeof(u.m), 1 }, s->id, s->seq++,
			       ss_engine_now(e), s->credit } };

		if (s->sizes) {
			u.m.hdr.size = msg_size(u.m.seq);
			for (uint32_t i = sizeof(u.m); i < u.m.hdr.size; i++)
				u.bytes[i] = tail_byte(s->id, u.m.seq, i - (uint32_t)sizeof(u.m));
		}
		/* later ones may arrive first: arrivals out of the order sent */
		ss_port_send_after(o, &u.m.hdr, s->spread ? (u.m.seq * 7 + s->id) % 4 : 0);
	}
	if (s->fail_at && s->ticks == s->fail_at) {
		ss_component_fail(&s->c, SS_ERROR_INPUT, "stopped on purpose");
		return;
	}
	/* with a hub, how far ahead depends on what it said */
	if (++s->ticks < TICKS)
		ss_schedule_in(e, 1 + (s->id + s->credit) % 3, prio, src_tick, s);
}

/* The hub's answer: every source learns how much the sink has got. */
static void hub_tick(struct ss_engine *e, void *data)
{
	struct sink *k = data;

	(void)e;
	k->hub_queued = false;
	for (unsigned i = 0; i < ss_component_port_count(&k->c, "back"); i++) {
		struct seq_msg m = { { sizeof(m), 2 }, 0, 0, 0, k->got };

		ss_port_send(ss_component_port(&k->c, "back", i), &m.hdr);
	}
}

static void sink_recv(struct ss_component *c, struct ss_port *in,
		      const struct ss_msg *m)
{
	struct sink *k = SS_COMPONENT(c, struct sink, c);
	const struct seq_msg *s = (const struct seq_msg *)m;
	uint64_t now = ss_engine_now(c->engine);
	struct seen v = { s->src, s->seq, s->tick, now, s->credit };

	k->got++;
	g_array_append_val(k->seen, v);
	for (uint32_t i = sizeof(*s); i < m->size; i++)
		if (((const unsigned char *)m)[i] != tail_byte(s->src, s->seq, i - (uint32_t)sizeof(*s))) {
			k->bad_tail++;
			break;
		}
	if (s->src != in->index || s->seq != k->next[in->index])
		k->disorder++;
	k->next[in->index] = s->seq + 1;
	/* a tick's messages together: same sender tick, same sink tick */
	if (s->seq % PER_TICK && (s->tick != k->tick_of[in->index] ||
				  now != k->now_of[in->index]))
		k->split++;
	k->tick_of[in->index] = s->tick;
	k->now_of[in->index] = now;
	if (k->got == k->fail_on) {
		ss_component_fail(c, SS_ERROR_INPUT, "sink stopped on purpose");
		return;
	}
	if (k->hub && !k->deaf && !k->hub_queued) {
		k->hub_queued = true;
		ss_schedule_in(c->engine, 1, SS_PRIO_ISSUE - 1, hub_tick, k);
	}
}

/*
 * The sink's phases: deaf, `v` is inert (ss_port_promise_inert), which it
 * may promise anywhere; hearing again, which it may say only in an event
 * of its own, never on a message through `v`.
 */
static void sink_phase(struct ss_engine *e, void *data)
{
	struct sink *k = data;

	k->phases++;
	k->deaf = !k->deaf;
	ss_port_promise_inert(&k->c, 0, k->deaf);
	if (!k->deaf && !k->hub_queued) {
		k->hub_queued = true;
		ss_schedule_in(e, 1, SS_PRIO_ISSUE - 1, hub_tick, k);
	}
	if (ss_engine_now(e) < TICKS)
		ss_schedule_in(e, k->deaf_period, SS_PRIO_ISSUE - 2, sink_phase, k);
}

/* A hint comes before its message, never after. */
static void sink_prefetch(struct ss_component *c, struct ss_port *in,
			  const struct ss_msg *m)
{
	struct sink *k = SS_COMPONENT(c, struct sink, c);
	const struct seq_msg *s = (const struct seq_msg *)m;

	k->hints++;
	if (s->src != in->index || s->seq < k->next[in->index])
		k->late_hints++;
}

static void src_recv(struct ss_component *c, struct ss_port *in,
		     const struct ss_msg *m)
{
	(void)in;
	SS_COMPONENT(c, struct src, c)->credit = ((const struct seq_msg *)m)->credit;
}

static const struct ss_port_desc src_ports[] = {
	{ "o", SS_PORT_OUT, "proto.a", false, true, "" },
	{ "in", SS_PORT_IN, "proto.a", false, false, "" },
	{ NULL, 0, NULL, false, false, NULL },
};
static const struct ss_port_desc sink_ports[] = {
	{ "v", SS_PORT_IN, "proto.a", true, true, "" },
	{ "back", SS_PORT_OUT, "proto.a", true, false, "" },
	{ NULL, 0, NULL, false, false, NULL },
};
static const struct ss_component_ops src_ops = { .xrecv = src_recv };
static const struct ss_component_ops sink_ops = { .xrecv = sink_recv, .xprefetch = sink_prefetch };
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

/*
 * N_SRC sources, each linked to an input of one sink, with these
 * promises; with `hub`, the sink answers each source on `back` a tick
 * after it hears from any (a lookahead of 1), and the sources act on it
 * in their own events (DEFERS).
 */
static void build_lat(struct graph *g, unsigned src_flags, unsigned sink_flags,
		      bool hub, uint64_t latency, bool lookahead)
{
	g->e = ss_engine_new();
	g->sink = (struct sink *)ss_engine_add_component(g->e, &sink_type, "sink", -1, 1);
	g->sink->seen = g_array_new(FALSE, FALSE, sizeof(struct seen));
	g->sink->hub = hub;
	ss_component_alloc_ports(&g->sink->c, 0, N_SRC);
	ss_component_alloc_ports(&g->sink->c, 1, hub ? N_SRC : 0);
	ss_component_set_port_flags(&g->sink->c, "v", sink_flags);
	if (hub && lookahead)
		ss_component_set_port_lookahead(&g->sink->c, "v", 1);
	for (unsigned i = 0; i < N_SRC; i++) {
		g->src[i] = (struct src *)ss_engine_add_component(g->e, &src_type, "src", (int)i, N_SRC);
		g->src[i]->id = i;
		ss_component_alloc_ports(&g->src[i]->c, 0, 1);
		ss_component_alloc_ports(&g->src[i]->c, 1, 1);
		ss_component_set_port_flags(&g->src[i]->c, "o", src_flags);
		if (hub)
			ss_component_set_port_flags(&g->src[i]->c, "in", SS_PORT_SILENT |
						    (lookahead ? SS_PORT_DEFERS : 0));
		g_assert_cmpint(ss_port_link(ss_component_port(&g->src[i]->c, "o", 0),
					     ss_component_port(&g->sink->c, "v", i), latency),
				==, SS_LINK_OK);
		if (hub)
			g_assert_cmpint(ss_port_link(ss_component_port(&g->sink->c, "back", i),
						     ss_component_port(&g->src[i]->c, "in", 0), latency),
					==, SS_LINK_OK);
	}
}

static void build_ex(struct graph *g, unsigned src_flags, unsigned sink_flags,
		     bool hub)
{
	build_lat(g, src_flags, sink_flags, hub, 0, true);
}

static void build(struct graph *g, unsigned src_flags, unsigned sink_flags)
{
	build_ex(g, src_flags, sink_flags, false);
}

static void graph_free(struct graph *g)
{
	g_array_free(g->sink->seen, TRUE);
	ss_engine_free(g->e);
}

static void test_plan(void)
{
	static const struct {
		unsigned src, sink, parts;
	} cases[] = {
		/*
		 * a fan-in is cut, in time order, unless an answer could come
		 * back at the time it left: the sink may answer, and neither
		 * end answers later
		 */
		{ 0, 0, 1 },
		{ 0, SS_PORT_ANY_DELAY, 1 },
		{ 0, SS_PORT_SILENT, N_SRC + 1 },
		{ 0, SS_PORT_ANY_DELAY | SS_PORT_SILENT, N_SRC + 1 },
		{ SS_PORT_SENDS_WHEN_IDLE, SS_PORT_SILENT, N_SRC + 1 },
		{ SS_PORT_SENDS_WHEN_IDLE, 0, 1 },
		/* the sources send nothing: no loop */
		{ SS_PORT_SILENT, SS_PORT_ANY_DELAY, N_SRC + 1 },
		{ SS_PORT_SILENT | SS_PORT_ANY_DELAY, 0, N_SRC + 1 },
		/* one end answers later: the other's answers still come back at once */
		{ 0, SS_PORT_DEFERS, 1 },
		/* both do */
		{ SS_PORT_DEFERS, SS_PORT_DEFERS, N_SRC + 1 },
		/* promises, but one end is joined */
		{ SS_PORT_JOINED, SS_PORT_ANY_DELAY | SS_PORT_SILENT, 1 },
		{ 0, SS_PORT_ANY_DELAY | SS_PORT_SILENT | SS_PORT_JOINED, 1 },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct graph g;

		build(&g, cases[i].src, cases[i].sink);
		g_assert_cmpuint(ss_partition_plan(g.e, 64), ==, cases[i].parts);
		if (cases[i].parts > 1) {
			g_assert_cmpuint(g.sink->c.part, ==, 0);
			for (unsigned k = 0; k < N_SRC; k++)
				g_assert_cmpuint(g.src[k]->c.part, ==, k + 1);
		}
		graph_free(&g);
	}
}

/* A link with latency may be cut: in time order, or free (its delay goes). */
static void test_latency(void)
{
	struct graph g;

	g.e = ss_engine_new();
	g.sink = (struct sink *)ss_engine_add_component(g.e, &sink_type, "sink", -1, 1);
	g.sink->seen = g_array_new(FALSE, FALSE, sizeof(struct seen));
	ss_component_alloc_ports(&g.sink->c, 0, N_SRC);
	ss_component_alloc_ports(&g.sink->c, 1, 0);
	ss_component_set_port_flags(&g.sink->c, "v", SS_PORT_SILENT);
	for (unsigned i = 0; i < N_SRC; i++) {
		g.src[i] = (struct src *)ss_engine_add_component(g.e, &src_type, "src", (int)i, N_SRC);
		ss_component_alloc_ports(&g.src[i]->c, 0, 1);
		ss_component_alloc_ports(&g.src[i]->c, 1, 0);
		g_assert_cmpint(ss_port_link(ss_component_port(&g.src[i]->c, "o", 0),
					     ss_component_port(&g.sink->c, "v", i), 3),
				==, SS_LINK_OK);
	}
	g_assert_cmpuint(ss_partition_plan(g.e, 64), ==, N_SRC + 1);
	/* free, the delay may go */
	ss_component_set_port_flags(&g.sink->c, "v", SS_PORT_SILENT | SS_PORT_ANY_DELAY);
	g_assert_cmpuint(ss_partition_plan(g.e, 64), ==, N_SRC + 1);
	graph_free(&g);
}

/* Partitions of one kind join into as many groups as threads, in order. */
static void test_groups(void)
{
	struct graph g;

	build(&g, 0, SS_PORT_SILENT);
	g_assert_cmpuint(ss_partition_plan(g.e, 2), ==, 3);
	/* 5 sources in 2 groups: 0-2 and 3-4 */
	g_assert_cmpuint(g.src[0]->c.part, ==, 1);
	g_assert_cmpuint(g.src[2]->c.part, ==, 1);
	g_assert_cmpuint(g.src[3]->c.part, ==, 2);
	g_assert_cmpuint(g.src[4]->c.part, ==, 2);
	g_assert_cmpuint(ss_partition_plan(g.e, N_SRC), ==, N_SRC + 1);
	graph_free(&g);

	/* thread_group: its components together, apart from the rest */
	build(&g, 0, SS_PORT_SILENT);
	ss_partition_set_group(&g.src[1]->c, g_intern_static_string("x"));
	ss_partition_set_group(&g.src[4]->c, g_intern_static_string("x"));
	ss_partition_set_group(&g.sink->c, g_intern_static_string("y"));
	g_assert_cmpuint(ss_partition_plan(g.e, 64), ==, N_SRC);
	g_assert_cmpuint(g.src[1]->c.part, ==, g.src[4]->c.part);
	g_assert_cmpuint(g.src[1]->c.part, !=, g.src[0]->c.part);
	graph_free(&g);
}

static void start(struct graph *g, bool partitioned)
{
	for (unsigned i = 0; i < N_SRC; i++) {
		if (partitioned)
			ss_partition_enter(&g->src[i]->c);
		ss_schedule(g->e, i, g->src[i]->distinct_prio ?
			    SS_PRIO_ISSUE + 1 + i : SS_PRIO_ISSUE, src_tick, g->src[i]);
		if (partitioned)
			ss_partition_leave();
	}
	if (g->sink->deaf_period) {
		if (partitioned)
			ss_partition_enter(&g->sink->c);
		ss_schedule(g->e, g->sink->deaf_period, SS_PRIO_ISSUE - 2, sink_phase, g->sink);
		if (partitioned)
			ss_partition_leave();
	}
}

static void run_on(struct graph *g, unsigned threads)
{
	unsigned n = ss_partition_plan(g->e, threads);

	g_assert_cmpuint(n, >, 1);
	ss_partition_prepare(g->e, n);
	start(g, true);
	ss_partition_run(g->e, threads);
	g_assert_cmpuint(ss_engine_partitions(g->e), ==, n);
	g_assert_cmpuint(ss_engine_threads(g->e), ==, MIN(threads, n));
}

/*
 * The busiest partition of a run on several: one of the plan's (the
 * sink alone, or a group of sources named as one range), its time
 * within the run's.  Which one it is depends on the threads' timing.
 */
static void check_busiest(struct graph *g, unsigned threads)
{
	double busy = -1, ran = -1;
	char *names = NULL;

	if (ss_engine_partitions(g->e) == 1) {
		g_assert_false(ss_engine_busiest_partition(g->e, &busy, &ran, &names));
		g_assert_null(names);
		return;
	}
	g_assert_true(ss_engine_busiest_partition(g->e, &busy, &ran, &names));
	g_test_message("%u threads: the busiest partition (%s) ran %.6f s of %.6f s",
		       threads, names, busy, ran);
	g_assert_cmpfloat(busy, >=, 0);
	g_assert_cmpfloat(busy, <=, ran);
	if (strcmp(names, "sink")) {
		/* src[i], or src[i..j]: consecutive sources, as planned */
		unsigned lo = 0, hi = 0;
		int got = sscanf(names, "src[%u..%u]", &lo, &hi);
		char *want = got == 2 ? g_strdup_printf("src[%u..%u]", lo, hi)
				      : g_strdup_printf("src[%u]", lo);

		g_assert_cmpint(got, >=, 1);
		g_assert_cmpstr(names, ==, want);
		g_assert_cmpuint(lo, <, N_SRC);
		if (got == 2)
			g_assert_true(lo < hi && hi < N_SRC);
		g_free(want);
	}
	g_free(names);
	/* every partition's names: the sink's, and ranges that cover the
	 * sources once each, in order */
	unsigned next = 0;

	for (unsigned i = 0; i < ss_engine_partitions(g->e); i++) {
		char *n = ss_partition_names(g->e, i);
		unsigned lo, hi;

		if (!strcmp(n, "sink")) {
			g_free(n);
			continue;
		}
		if (sscanf(n, "src[%u..%u]", &lo, &hi) != 2) {
			g_assert_cmpint(sscanf(n, "src[%u]", &lo), ==, 1);
			hi = lo;
		}
		char *want = lo == hi ? g_strdup_printf("src[%u]", lo)
				      : g_strdup_printf("src[%u..%u]", lo, hi);

		g_assert_cmpstr(n, ==, want);
		g_assert_cmpuint(lo, ==, next);
		next = hi + 1;
		g_free(want);
		g_free(n);
	}
	g_assert_cmpuint(next, ==, N_SRC);
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
		check_busiest(&g, threads[t]);
		graph_free(&g);
	}
}

/* One run on one queue, the reference of the time-ordered ones. */
static GArray *reference_sized(bool hub, bool sizes)
{
	struct graph g;
	GArray *seen;

	build_ex(&g, hub ? SS_PORT_DEFERS : 0, SS_PORT_SILENT, hub);
	for (unsigned i = 0; i < N_SRC; i++) {
		g.src[i]->distinct_prio = true;
		g.src[i]->sizes = sizes;
	}
	start(&g, false);
	ss_engine_run(g.e, SS_TICK_MAX);
	g_assert_null(ss_engine_failure(g.e));
	g_assert_cmpuint(g.sink->bad_tail, ==, 0);
	seen = g.sink->seen;
	g.sink->seen = NULL;
	ss_engine_free(g.e);
	return seen;
}

static GArray *reference(bool hub)
{
	return reference_sized(hub, false);
}

/*
 * Messages of many sizes, each ending in bytes the sink checks, cross
 * cut links whole and in order: a batch codes a message against the one
 * before it, or whole when it is larger than 64 bytes, not a multiple of
 * 8 or of another size.  In a free run and in time order (where the sink
 * sees what one queue shows it), from sources grouped so that a batch
 * holds several ports' messages.
 */
static void test_coded(void)
{
	static const unsigned threads[] = { 1, 2, 3, 8 };
	GArray *want = reference_sized(true, true);

	for (size_t t = 0; t < G_N_ELEMENTS(threads); t++) {
		for (int ordered = 0; ordered <= 1; ordered++) {
			struct graph g;

			if (ordered)
				build_ex(&g, SS_PORT_DEFERS, SS_PORT_SILENT, true);
			else
				build(&g, 0, SS_PORT_ANY_DELAY | SS_PORT_SILENT);
			for (unsigned i = 0; i < N_SRC; i++) {
				g.src[i]->distinct_prio = ordered;
				g.src[i]->sizes = true;
			}
			run_on(&g, threads[t]);
			g_assert_null(ss_engine_failure(g.e));
			g_assert_cmpuint(g.sink->got, ==, N_SRC * TICKS * PER_TICK);
			g_assert_cmpuint(g.sink->disorder, ==, 0);
			g_assert_cmpuint(g.sink->bad_tail, ==, 0);
			if (ordered) {
				g_assert_cmpuint(g.sink->seen->len, ==, want->len);
				g_assert_cmpint(memcmp(g.sink->seen->data, want->data,
						       want->len * sizeof(struct seen)), ==, 0);
			}
			graph_free(&g);
		}
	}
	g_array_free(want, TRUE);
}

/*
 * A fan-in without promises runs in time order: the sink sees what it
 * sees on one queue, message for message and at the same ticks, also
 * when it answers the sources (hub) and they act on the answer.
 */
static void test_ordered(void)
{
	static const unsigned threads[] = { 1, 2, 3, 8 };

	for (int hub = 0; hub <= 1; hub++) {
		GArray *want = reference(hub);

		g_assert_cmpuint(want->len, ==, N_SRC * TICKS * PER_TICK);
		for (size_t t = 0; t < G_N_ELEMENTS(threads); t++) {
			struct graph g;

			build_ex(&g, hub ? SS_PORT_DEFERS : 0, SS_PORT_SILENT, hub);
			for (unsigned i = 0; i < N_SRC; i++)
				g.src[i]->distinct_prio = true;
			run_on(&g, threads[t]);
			g_assert_null(ss_engine_failure(g.e));
			g_assert_cmpuint(g.sink->seen->len, ==, want->len);
			g_assert_cmpint(memcmp(g.sink->seen->data, want->data,
					       want->len * sizeof(struct seen)), ==, 0);
			graph_free(&g);
		}
		g_array_free(want, TRUE);
	}
}

/* The hub graph of test_inert: sources at priorities of their own, a
 * sink deaf every deaf_period ticks (0: never by itself). */
static void build_hub(struct graph *g, uint64_t deaf_period)
{
	build_ex(g, SS_PORT_DEFERS, SS_PORT_SILENT, true);
	g->sink->deaf_period = deaf_period;
	for (unsigned i = 0; i < N_SRC; i++)
		g->src[i]->distinct_prio = true;
}

/*
 * A hub that goes deaf in phases (its input inert) and hears again in
 * events of its own: while it is deaf the sources need not wait for it,
 * and when it hears again its answers still reach them at the ticks one
 * queue gives.  The sink sees what one queue shows it, credits and all;
 * a core that took a withdrawn promise for a standing one would let the
 * sources run past the answers (an internal error, or other credits).
 */
static void test_inert(void)
{
	static const unsigned threads[] = { 1, 2, 3, 8 };
	static const uint64_t periods[] = { 1, 5, 16 };

	for (size_t d = 0; d < G_N_ELEMENTS(periods); d++) {
		struct graph ref;

		build_hub(&ref, periods[d]);
		start(&ref, false);
		ss_engine_run(ref.e, SS_TICK_MAX);
		g_assert_null(ss_engine_failure(ref.e));
		g_assert_cmpuint(ref.sink->seen->len, ==, N_SRC * TICKS * PER_TICK);
		g_assert_cmpuint(ref.sink->phases, >, TICKS / periods[d] / 2);
		for (size_t t = 0; t < G_N_ELEMENTS(threads); t++) {
			struct graph g;

			build_hub(&g, periods[d]);
			run_on(&g, threads[t]);
			g_assert_null(ss_engine_failure(g.e));
			g_assert_cmpuint(g.sink->phases, ==, ref.sink->phases);
			g_assert_cmpuint(g.sink->seen->len, ==, ref.sink->seen->len);
			g_assert_cmpint(memcmp(g.sink->seen->data, ref.sink->seen->data,
					       ref.sink->seen->len * sizeof(struct seen)), ==, 0);
			for (unsigned i = 0; i < N_SRC; i++)
				g_assert_cmpuint(g.src[i]->credit, ==, ref.src[i]->credit);
			graph_free(&g);
		}
		graph_free(&ref);
	}

	/*
	 * What the promise is for: a sink deaf all run long lets the sources
	 * run STEP_TICKS (16) ticks a step, where a hearing one holds them
	 * to about a tick a step.  (Step counts depend on the threads'
	 * timing, but not by that much.)
	 */
	for (int deaf = 0; deaf <= 1; deaf++) {
		struct graph g;
		uint64_t steps;

		build_hub(&g, 0);
		if (deaf) {
			g.sink->deaf = true;
			ss_port_promise_inert(&g.sink->c, 0, true);
		}
		run_on(&g, 2);
		g_assert_null(ss_engine_failure(g.e));
		g_assert_cmpuint(g.sink->seen->len, ==, N_SRC * TICKS * PER_TICK);
		steps = ss_partition_steps(g.e, &g.src[0]->c);
		g_test_message("sink %s: the first source's partition ran %" G_GUINT64_FORMAT " steps",
			       deaf ? "deaf" : "hearing", steps);
		if (deaf)
			g_assert_cmpuint(steps, <, TICKS / 2);
		else
			g_assert_cmpuint(steps, >, TICKS);
		graph_free(&g);
	}
}

/*
 * Links with latency and no promise at all: the loop from the sources to
 * the hub and back has no lookahead but the links' latency, which lets
 * each side run that far ahead; messages sent with different delays
 * arrive out of the order sent.  The sink sees what one queue shows it,
 * message for message, and so do the sources (their credit).
 */
static void test_ordered_latency(void)
{
	static const unsigned threads[] = { 1, 2, 3, 8 };
	static const uint64_t latencies[] = { 1, 5 };

	for (size_t l = 0; l < G_N_ELEMENTS(latencies); l++) {
		struct graph ref;

		build_lat(&ref, 0, SS_PORT_SILENT, true, latencies[l], false);
		for (unsigned i = 0; i < N_SRC; i++) {
			ref.src[i]->distinct_prio = true;
			ref.src[i]->spread = true;
		}
		start(&ref, false);
		ss_engine_run(ref.e, SS_TICK_MAX);
		g_assert_null(ss_engine_failure(ref.e));
		g_assert_cmpuint(ref.sink->seen->len, ==, N_SRC * TICKS * PER_TICK);
		for (size_t t = 0; t < G_N_ELEMENTS(threads); t++) {
			struct graph g;

			build_lat(&g, 0, SS_PORT_SILENT, true, latencies[l], false);
			for (unsigned i = 0; i < N_SRC; i++) {
				g.src[i]->distinct_prio = true;
				g.src[i]->spread = true;
			}
			run_on(&g, threads[t]);
			g_assert_null(ss_engine_failure(g.e));
			g_assert_cmpuint(g.sink->seen->len, ==, ref.sink->seen->len);
			g_assert_cmpint(memcmp(g.sink->seen->data, ref.sink->seen->data,
					       ref.sink->seen->len * sizeof(struct seen)), ==, 0);
			for (unsigned i = 0; i < N_SRC; i++)
				g_assert_cmpuint(g.src[i]->credit, ==, ref.src[i]->credit);
			g_assert_cmpuint(ss_partition_pending(g.e), ==, 0);
			/* a tick's messages of a sender crossed together, hinted */
			if (threads[t] > 1)
				g_assert_cmpuint(g.sink->hints, >, 0);
			g_assert_cmpuint(g.sink->late_hints, ==, 0);
			graph_free(&g);
		}
		graph_free(&ref);
	}
}

/*
 * A link with latency crossing threads delivers a tick's messages of one
 * sender as one event (timed_deliver).  A failure on one of them stops
 * there, as one queue stops between events: the rest are not delivered.
 */
static void setup_fail_in_burst(struct graph *g, unsigned fail_on)
{
	build_lat(g, 0, SS_PORT_SILENT, false, 3, false);
	for (unsigned i = 0; i < N_SRC; i++)
		g->src[i]->distinct_prio = true;
	g->sink->fail_on = fail_on;
}

static void test_fail_in_burst(void)
{
	static const unsigned threads[] = { 1, 2, 3, 8 };
	struct graph ref;
	unsigned fail_on = 0;

	/* a message in the middle of the run with one of its burst after it */
	setup_fail_in_burst(&ref, 0);
	start(&ref, false);
	ss_engine_run(ref.e, SS_TICK_MAX);
	for (guint i = ref.sink->seen->len / 2; i + 1 < ref.sink->seen->len && !fail_on; i++) {
		const struct seen *a = &g_array_index(ref.sink->seen, struct seen, i);

		if (a[1].src == a[0].src && a[1].tick == a[0].tick)
			fail_on = i + 1;
	}
	g_assert_cmpuint(fail_on, >, 0);
	graph_free(&ref);

	setup_fail_in_burst(&ref, fail_on);
	start(&ref, false);
	ss_engine_run(ref.e, SS_TICK_MAX);
	g_assert_nonnull(ss_engine_failure(ref.e));
	g_assert_cmpuint(ref.sink->seen->len, ==, fail_on);
	for (size_t t = 0; t < G_N_ELEMENTS(threads); t++) {
		struct graph g;

		setup_fail_in_burst(&g, fail_on);
		run_on(&g, threads[t]);
		g_assert_nonnull(ss_engine_failure(g.e));
		g_assert_cmpstr(ss_engine_failure(g.e)->message, ==,
				ss_engine_failure(ref.e)->message);
		g_assert_cmpuint(g.sink->seen->len, ==, fail_on);
		g_assert_cmpint(memcmp(g.sink->seen->data, ref.sink->seen->data,
				       fail_on * sizeof(struct seen)), ==, 0);
		graph_free(&g);
	}
	graph_free(&ref);
}

/* Sources at one priority: two partitions act at one time; refused. */
static void test_same_key(void)
{
	struct graph g;
	const GError *err;

	build(&g, 0, SS_PORT_SILENT);
	run_on(&g, 2);
	err = ss_engine_failure(g.e);
	g_assert_nonnull(err);
	g_assert_nonnull(strstr(err->message, "two partitions acted at tick "));
	graph_free(&g);
}

static void test_fail(void)
{
	struct graph g;
	const GError *err;

	build(&g, 0, SS_PORT_ANY_DELAY | SS_PORT_SILENT);
	g.src[2]->fail_at = TICKS / 2;
	run_on(&g, 8);
	err = ss_engine_failure(g.e);
	g_assert_nonnull(err);
	g_assert_cmpstr(err->message, ==, "src[2]: stopped on purpose");
	/* the failing source went no further; what it sent before, in order */
	g_assert_cmpuint(g.src[2]->ticks, ==, TICKS / 2);
	g_assert_cmpuint(g.sink->disorder, ==, 0);
	graph_free(&g);
}

/*
 * Time order, two sources failing at different times: on every thread
 * count the failure kept is the one the single queue meets first, and the
 * sink got what it got there before that event, and nothing later (on one
 * queue the failing event's own messages still arrive, as it sends them
 * before it fails; partitions stop at its time).
 */
static void setup_two_failures(struct graph *g)
{
	build(g, 0, SS_PORT_SILENT);
	for (unsigned i = 0; i < N_SRC; i++)
		g->src[i]->distinct_prio = true;
	g->src[1]->fail_at = TICKS / 2;
	g->src[3]->fail_at = TICKS / 3;
}

static void test_fail_ordered(void)
{
	static const unsigned threads[] = { 1, 2, 3, 8 };
	struct graph ref;
	char *want_err;
	guint want_len;

	setup_two_failures(&ref);
	start(&ref, false);
	ss_engine_run(ref.e, SS_TICK_MAX);
	g_assert_nonnull(ss_engine_failure(ref.e));
	want_err = g_strdup(ss_engine_failure(ref.e)->message);
	g_assert_cmpstr(want_err, ==, "src[3]: stopped on purpose");
	g_assert_cmpuint(ref.sink->seen->len, >=, PER_TICK);
	want_len = ref.sink->seen->len - PER_TICK;
	for (size_t t = 0; t < G_N_ELEMENTS(threads); t++)
		for (int k = 0; k < 3; k++) {
			struct graph g;

			setup_two_failures(&g);
			run_on(&g, threads[t]);
			g_assert_nonnull(ss_engine_failure(g.e));
			g_assert_cmpstr(ss_engine_failure(g.e)->message, ==, want_err);
			/* the first to fail ran nothing after its failing event */
			g_assert_cmpuint(g.src[3]->ticks, ==, g.src[3]->fail_at);
			g_assert_cmpuint(g.sink->seen->len, ==, want_len);
			g_assert_cmpint(memcmp(g.sink->seen->data, ref.sink->seen->data,
					       want_len * sizeof(struct seen)), ==, 0);
			graph_free(&g);
		}
	g_free(want_err);
	graph_free(&ref);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/partition/plan", test_plan);
	g_test_add_func("/partition/latency", test_latency);
	g_test_add_func("/partition/groups", test_groups);
	g_test_add_func("/partition/run", test_run);
	g_test_add_func("/partition/ordered", test_ordered);
	g_test_add_func("/partition/coded", test_coded);
	g_test_add_func("/partition/inert", test_inert);
	g_test_add_func("/partition/ordered-latency", test_ordered_latency);
	g_test_add_func("/partition/fail-in-burst", test_fail_in_burst);
	g_test_add_func("/partition/same-key", test_same_key);
	g_test_add_func("/partition/fail", test_fail);
	g_test_add_func("/partition/fail-ordered", test_fail_ordered);
	return g_test_run();
}
