/* SPDX-License-Identifier: BSD-3-Clause */
/* The timing tests' tap: see timing_tap.h. */
#include "config.h"

#include <string.h>
#include <sectorsim/protocols/mem.h>
#include "timing_tap.h"

static GString *tap_log;
static uint64_t tap_base;
static unsigned tap_unit = 1;
static const char *tap_name = "";

static const struct ss_port_desc tap_ports[] = {
	{ "in", SS_PORT_IN, MEM_PROTOCOL, false, true, "requests from the SM" },
	{ "out", SS_PORT_OUT, MEM_PROTOCOL, false, true, "to the L1; its answers come back" },
	{ NULL, 0, NULL, false, false, NULL },
};

struct tap {
	struct ss_component c;
};

static void tap_recv(struct ss_component *c, struct ss_port *in, const struct ss_msg *m)
{
	const struct mem_req *r = (const struct mem_req *)m;
	bool up = in == ss_component_port(c, "out", 0);

	if (m->kind != MEM_CONTROL && m->kind != MEM_RETRY)
		g_string_append_printf(tap_log, "%" G_GUINT64_FORMAT ":%c %s%" G_GUINT64_FORMAT " ",
				       ss_engine_now(c->engine),
				       m->kind == MEM_RESPONSE ? 'A' : m->kind == MEM_REFUSE ? 'X' : 'R',
				       tap_name, (r->addr - tap_base) / tap_unit);
	ss_port_send(ss_component_port(c, up ? "in" : "out", 0), m);
}

static const struct ss_component_ops tap_ops = { .xrecv = tap_recv };

const struct ss_component_type timing_tap_type = {
	.abi_version = SS_ABI_VERSION,
	.name = "timing_tap",
	.summary = "Test: logs requests and answers with their tick, and passes them on",
	.ports = tap_ports,
	.ops = &tap_ops,
	.instance_size = sizeof(struct tap),
};

void timing_tap_start(uint64_t base, unsigned unit, const char *name)
{
	if (!tap_log)
		tap_log = g_string_new(NULL);
	g_string_truncate(tap_log, 0);
	tap_base = base;
	tap_unit = unit;
	tap_name = name;
}

char *timing_tap_log(void)
{
	char **parts = g_strsplit(g_strstrip(tap_log->str), " ", -1);
	GString *rel = g_string_new(NULL);
	uint64_t t0 = 0;

	for (int i = 0; parts[i] && parts[i + 1]; i += 2) {
		uint64_t t = g_ascii_strtoull(parts[i], NULL, 10);

		if (i == 0)
			t0 = t;
		g_string_append_printf(rel, "%s%" G_GUINT64_FORMAT ":%s %s", i ? " " : "",
				       t - t0, strchr(parts[i], ':') + 1, parts[i + 1]);
	}
	g_strfreev(parts);
	return g_string_free(rel, FALSE);
}

void timing_tap_free(void)
{
	if (tap_log)
		g_string_free(tap_log, TRUE);
	tap_log = NULL;
}
