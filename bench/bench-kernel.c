/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Micro-benchmarks of the core's two hot paths: an event scheduled and
 * dispatched, and a message sent on a zero-latency port (a direct call).
 * Prints events/s and ns per call; run it on an idle machine.
 *
 *   bench/bench-kernel [ITERATIONS]
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include "internal.h"

/* Keep a standing population of events so the heap has a realistic depth:
 * every dispatch schedules one successor, like an SM issuing each tick. */
#define STANDING 1024

struct chain {
	uint64_t left;
	uint32_t x;
};

static void chain_step(struct ss_engine *e, void *data)
{
	struct chain *c = data;

	if (c->left == 0)
		return;
	c->left--;
	/* xorshift: successors land 1..16 ticks ahead, in mixed order */
	c->x ^= c->x << 13;
	c->x ^= c->x >> 17;
	c->x ^= c->x << 5;
	ss_schedule(e, ss_engine_now(e) + 1 + (c->x & 15),
		    (int16_t)(SS_PRIO_ISSUE + (c->x >> 28)), chain_step, c);
}

static double bench_eventq(uint64_t n)
{
	struct ss_engine *e = ss_engine_new();
	struct chain *chains = g_new(struct chain, STANDING);

	for (unsigned i = 0; i < STANDING; i++) {
		chains[i].left = n / STANDING;
		chains[i].x = 2463534242u + i * 7919u;
		ss_schedule(e, 0, SS_PRIO_ISSUE, chain_step, &chains[i]);
	}
	gint64 t0 = g_get_monotonic_time();
	uint64_t ran = ss_engine_run(e, SS_TICK_MAX);
	double secs = (g_get_monotonic_time() - t0) / 1e6;

	printf("event queue, random (1..16 ticks ahead, 16 priorities, %d standing): %" G_GUINT64_FORMAT " pairs, %.3f s: %.1f M pairs/s\n",
	       STANDING, ran, secs, ran / secs / 1e6);
	g_free(chains);
	ss_engine_free(e);
	return ran / secs;
}

/*
 * The shape of a GPU run: 80 issuers (SMs) each issue once per tick at
 * priority ISSUE + id, and each issue leaves a delivery 4 ticks later at
 * DELIVER priority, as a link with latency would.
 */
#define ISSUERS 80

struct issuer {
	uint64_t left;
	int16_t id;
	uint64_t *delivered;
};

static void deliver(struct ss_engine *e, void *data)
{
	(*(uint64_t *)data)++;
}

static void issue(struct ss_engine *e, void *data)
{
	struct issuer *is = data;

	ss_schedule(e, ss_engine_now(e) + 4, SS_PRIO_DELIVER, deliver, is->delivered);
	if (--is->left)
		ss_schedule(e, ss_engine_now(e) + 1, SS_PRIO_ISSUE + is->id, issue, is);
}

static double bench_gpu_shape(uint64_t n)
{
	struct ss_engine *e = ss_engine_new();
	struct issuer *is = g_new(struct issuer, ISSUERS);
	uint64_t delivered = 0;

	for (int i = 0; i < ISSUERS; i++) {
		is[i] = (struct issuer){ n / 2 / ISSUERS, i, &delivered };
		ss_schedule(e, 0, SS_PRIO_ISSUE + i, issue, &is[i]);
	}
	gint64 t0 = g_get_monotonic_time();
	uint64_t ran = ss_engine_run(e, SS_TICK_MAX);
	double secs = (g_get_monotonic_time() - t0) / 1e6;

	printf("event queue, GPU shape (%d issuers + deliveries): %" G_GUINT64_FORMAT " pairs, %.3f s: %.1f M pairs/s\n",
	       ISSUERS, ran, secs, ran / secs / 1e6);
	g_free(is);
	ss_engine_free(e);
	return ran / secs;
}

/* ---- a zero-latency port call ----------------------------------------------- */

struct counter {
	struct ss_component c;
	uint64_t sum;
};

static void counter_recv(struct ss_component *c, struct ss_port *in,
			 const struct ss_msg *m)
{
	SS_COMPONENT(c, struct counter, c)->sum += m->kind;
}

static const struct ss_port_desc pinger_ports[] = {
	{ "out", SS_PORT_OUT, "bench.ping", false, true, "" },
	{ NULL, 0, NULL, false, false, NULL },
};
static const struct ss_port_desc counter_ports[] = {
	{ "in", SS_PORT_IN, "bench.ping", false, true, "" },
	{ NULL, 0, NULL, false, false, NULL },
};
static const struct ss_component_ops counter_ops = { .xrecv = counter_recv };
static const struct ss_component_type pinger_type = {
	SS_ABI_VERSION, "pinger", "", NULL, pinger_ports, NULL, &counter_ops,
	sizeof(struct counter), 0,
};
static const struct ss_component_type counter_type = {
	SS_ABI_VERSION, "counter", "", NULL, counter_ports, NULL, &counter_ops,
	sizeof(struct counter), 0,
};

static double bench_port(uint64_t n)
{
	struct ss_engine *e = ss_engine_new();
	struct ss_component *a = ss_engine_add_component(e, &pinger_type, "a", -1, 1);
	struct ss_component *b = ss_engine_add_component(e, &counter_type, "b", -1, 1);

	ss_component_alloc_ports(a, 0, 1);
	ss_component_alloc_ports(b, 0, 1);
	if (ss_port_link(&a->port_groups[0].ports[0], &b->port_groups[0].ports[0], 0) != SS_LINK_OK)
		abort();

	/* volatile: the compiler must not hoist the port out of the loop
	 * and turn the indirect call into something cheaper than a send */
	struct ss_port *volatile port = ss_component_port(a, "out", 0);
	struct ss_msg m = { sizeof(m), 1 };
	gint64 t0 = g_get_monotonic_time();

	for (uint64_t i = 0; i < n; i++)
		ss_port_send(port, &m);
	double secs = (g_get_monotonic_time() - t0) / 1e6;
	uint64_t sum = SS_COMPONENT(b, struct counter, c)->sum;

	printf("zero-latency port call: %" G_GUINT64_FORMAT " calls, %.3f s: %.2f ns/call (%.1f M calls/s)\n",
	       sum, secs, secs * 1e9 / n, n / secs / 1e6);
	if (sum != n)
		abort();
	ss_engine_free(e);
	return secs * 1e9 / n;
}

int main(int argc, char **argv)
{
	uint64_t n = argc > 1 ? g_ascii_strtoull(argv[1], NULL, 10) : 50000000;

	if (n < STANDING)
		n = STANDING;
	bench_eventq(n);
	bench_gpu_shape(n);
	bench_port(n * 4);
	return 0;
}
