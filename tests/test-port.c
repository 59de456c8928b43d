/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Ports: binding checks with their reasons, the zero-latency direct call,
 * delivery through the queue with latency, replies on the same link, and
 * the unbound-port stop.  The reasons that only the INI wiring can produce
 * (unknown component or port, index, cardinality, unbound) are covered by
 * test-config.
 */
#include "config.h"

#include <string.h>
#include "internal.h"

enum { PING = 1, PONG = 2 };

struct big_msg {
	struct ss_msg hdr;
	uint64_t payload[8];
};

struct node {
	struct ss_component c;
	unsigned got, pongs;
	uint64_t last_tick, last_payload;
	unsigned last_index;
	bool reply;
};

static void node_recv(struct ss_component *c, struct ss_port *in,
		      const struct ss_msg *m)
{
	struct node *n = SS_COMPONENT(c, struct node, c);

	if (m->kind == PONG) {
		n->pongs++;
		return;
	}
	n->got++;
	n->last_tick = ss_engine_now(c->engine);
	n->last_index = in->index;
	if (m->size == sizeof(struct big_msg))
		n->last_payload = ((const struct big_msg *)m)->payload[7];
	if (n->reply) {
		struct ss_msg pong = { sizeof(pong), PONG };

		ss_port_send(in, &pong);
	}
}

static const struct ss_port_desc req_ports[] = {
	{ "o", SS_PORT_OUT, "proto.a", false, true, "" },
	{ "o2", SS_PORT_OUT, "proto.a", false, false, "" },
	{ NULL, 0, NULL, false, false, NULL },
};
static const struct ss_port_desc resp_ports[] = {
	{ "i", SS_PORT_IN, "proto.a", false, true, "" },
	{ "j", SS_PORT_IN, "proto.b", false, false, "" },
	{ "v", SS_PORT_IN, "proto.a", true, false, "" },
	{ NULL, 0, NULL, false, false, NULL },
};
static const struct ss_component_ops node_ops = { .xrecv = node_recv };
static const struct ss_component_type req_type = {
	SS_ABI_VERSION, "req", "", NULL, req_ports, NULL, &node_ops, sizeof(struct node), 0,
};
static const struct ss_component_type resp_type = {
	SS_ABI_VERSION, "resp", "", NULL, resp_ports, NULL, &node_ops, sizeof(struct node), 0,
};

struct fixture {
	struct ss_engine *e;
	struct ss_component *a, *b;
};

static void setup(struct fixture *f, gconstpointer data)
{
	f->e = ss_engine_new();
	f->a = ss_engine_add_component(f->e, &req_type, "a", -1, 1);
	f->b = ss_engine_add_component(f->e, &resp_type, "b", -1, 1);
	ss_component_alloc_ports(f->a, 0, 1);
	ss_component_alloc_ports(f->a, 1, 1);
	ss_component_alloc_ports(f->b, 0, 1);
	ss_component_alloc_ports(f->b, 1, 1);
	ss_component_alloc_ports(f->b, 2, 3);
}

static void teardown(struct fixture *f, gconstpointer data)
{
	ss_engine_free(f->e);
}

#define PORT(c, name, i) ss_component_port((c), (name), (i))

static void test_reasons(struct fixture *f, gconstpointer data)
{
	struct ss_port *o = PORT(f->a, "o", 0), *o2 = PORT(f->a, "o2", 0);
	struct ss_port *i = PORT(f->b, "i", 0), *j = PORT(f->b, "j", 0);

	g_assert_cmpint(ss_port_link(i, o, 0), ==, SS_LINK_WRONG_DIR);
	g_assert_cmpint(ss_port_link(o, o2, 0), ==, SS_LINK_WRONG_DIR);
	g_assert_cmpint(ss_port_link(o, j, 0), ==, SS_LINK_PROTOCOL);
	g_assert_false(ss_port_is_bound(o));
	g_assert_false(ss_port_is_bound(j));
	g_assert_cmpint(ss_port_link(o, i, 0), ==, SS_LINK_OK);
	g_assert_true(ss_port_is_bound(o) && ss_port_is_bound(i));
	g_assert_cmpint(ss_port_link(o2, i, 0), ==, SS_LINK_WAS_LINKED);
	g_assert_cmpint(ss_port_link(o, PORT(f->b, "v", 0), 0), ==, SS_LINK_WAS_LINKED);
	g_assert_false(ss_port_is_bound(o2));
	for (int r = SS_LINK_OK; r >= SS_LINK_UNBOUND; r--)
		g_assert_cmpstr(ss_link_result_str(r), !=, "unknown link result");
}

/* The check alone, on descriptions: what the INI planner asks before any
 * port exists.  Direction is refused before protocol, protocol before an
 * end already linked. */
static void test_check(void)
{
	const struct ss_port_desc *o = &req_ports[0];
	const struct ss_port_desc *i = &resp_ports[0], *j = &resp_ports[1];

	g_assert_cmpint(ss_port_check_link(o, false, i, false), ==, SS_LINK_OK);
	g_assert_cmpint(ss_port_check_link(i, false, o, false), ==, SS_LINK_WRONG_DIR);
	g_assert_cmpint(ss_port_check_link(o, false, o, false), ==, SS_LINK_WRONG_DIR);
	g_assert_cmpint(ss_port_check_link(i, true, j, true), ==, SS_LINK_WRONG_DIR);
	g_assert_cmpint(ss_port_check_link(o, false, j, false), ==, SS_LINK_PROTOCOL);
	g_assert_cmpint(ss_port_check_link(o, true, j, false), ==, SS_LINK_PROTOCOL);
	g_assert_cmpint(ss_port_check_link(o, true, i, false), ==, SS_LINK_WAS_LINKED);
	g_assert_cmpint(ss_port_check_link(o, false, i, true), ==, SS_LINK_WAS_LINKED);
}

/* Every reason has its own text; a value outside the enum says so. */
static void test_reason_text(void)
{
	GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);

	for (int r = SS_LINK_OK; r >= SS_LINK_UNBOUND; r--) {
		const char *t = ss_link_result_str(r);

		g_assert_false(g_hash_table_contains(seen, t));
		g_hash_table_add(seen, (gpointer)t);
	}
	g_assert_cmpstr(ss_link_result_str(SS_LINK_PROTOCOL), ==, "protocol mismatch");
	g_assert_cmpstr(ss_link_result_str(SS_LINK_UNBOUND - 1), ==, "unknown link result");
	g_assert_cmpstr(ss_link_result_str(1), ==, "unknown link result");
	g_hash_table_destroy(seen);
}

static void test_lookup(struct fixture *f, gconstpointer data)
{
	g_assert_cmpuint(ss_component_port_count(f->b, "v"), ==, 3);
	g_assert_cmpuint(ss_component_port_count(f->b, "i"), ==, 1);
	g_assert_cmpuint(ss_component_port_count(f->b, "nope"), ==, 0);
	g_assert_nonnull(PORT(f->b, "v", 2));
	g_assert_null(PORT(f->b, "v", 3));
	g_assert_null(PORT(f->b, "nope", 0));
	g_assert_cmpuint(PORT(f->b, "v", 2)->index, ==, 2);
}

static void test_direct_call(struct fixture *f, gconstpointer data)
{
	struct node *b = SS_COMPONENT(f->b, struct node, c);
	struct ss_msg m = { sizeof(m), PING };

	g_assert_cmpint(ss_port_link(PORT(f->a, "o", 0), PORT(f->b, "v", 1), 0), ==, SS_LINK_OK);
	ss_port_send(PORT(f->a, "o", 0), &m);
	/* delivered inside the call: nothing queued, time did not move */
	g_assert_cmpuint(b->got, ==, 1);
	g_assert_cmpuint(b->last_index, ==, 1);
	g_assert_cmpuint(ss_engine_pending(f->e), ==, 0);
}

static void test_latency(struct fixture *f, gconstpointer data)
{
	struct node *b = SS_COMPONENT(f->b, struct node, c);
	struct big_msg m = { { sizeof(m), PING }, { 0 } };

	g_assert_cmpint(ss_port_link(PORT(f->a, "o", 0), PORT(f->b, "i", 0), 3), ==, SS_LINK_OK);
	m.payload[7] = 77;
	ss_port_send(PORT(f->a, "o", 0), &m.hdr);
	m.payload[7] = 0;	/* the link must have kept its own copy */
	g_assert_cmpuint(b->got, ==, 0);
	g_assert_cmpuint(ss_engine_pending(f->e), ==, 1);
	ss_engine_run(f->e, SS_TICK_MAX);
	g_assert_cmpuint(b->got, ==, 1);
	g_assert_cmpuint(b->last_tick, ==, 3);
	g_assert_cmpuint(b->last_payload, ==, 77);
}

static void test_reply(struct fixture *f, gconstpointer data)
{
	struct node *a = SS_COMPONENT(f->a, struct node, c);
	struct node *b = SS_COMPONENT(f->b, struct node, c);
	struct ss_msg m = { sizeof(m), PING };

	b->reply = true;
	g_assert_cmpint(ss_port_link(PORT(f->a, "o", 0), PORT(f->b, "i", 0), 0), ==, SS_LINK_OK);
	ss_port_send(PORT(f->a, "o", 0), &m);
	g_assert_cmpuint(b->got, ==, 1);
	g_assert_cmpuint(a->pongs, ==, 1);
}

static void test_unbound_send(void)
{
	if (g_test_subprocess()) {
		struct fixture f;
		struct ss_msg m = { sizeof(m), PING };

		setup(&f, NULL);
		ss_port_send(PORT(f.a, "o2", 0), &m);
		return;
	}
	g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
	g_test_trap_assert_failed();
	g_test_trap_assert_stderr("*a: message sent on port 'o2' that is not linked*");
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add("/port/bind-reasons", struct fixture, NULL, setup, test_reasons, teardown);
	g_test_add_func("/port/check-order", test_check);
	g_test_add_func("/port/reason-text", test_reason_text);
	g_test_add("/port/lookup", struct fixture, NULL, setup, test_lookup, teardown);
	g_test_add("/port/zero-latency-is-a-direct-call", struct fixture, NULL, setup, test_direct_call, teardown);
	g_test_add("/port/latency-goes-through-the-queue", struct fixture, NULL, setup, test_latency, teardown);
	g_test_add("/port/reply-on-the-same-link", struct fixture, NULL, setup, test_reply, teardown);
	g_test_add_func("/port/unbound-send-stops", test_unbound_send);
	return g_test_run();
}
