/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A test plugin: token_source emits numbered tokens on a timer, token_sink
 * counts them over a vector port, token_scale relays them multiplied;
 * mem_script plays a written list of mem.sector requests and mem_counter
 * counts what reaches it, so caches can be driven through an INI file.  Small enough that
 * every statistic can be computed by hand, and it exercises what a real
 * plugin does: parameters, scalar and vector ports, self-scheduled events,
 * replies on the same link, table and dynamic statistics, phases.
 */
#include <stdio.h>
#include <sectorsim/sectorsim.h>
#include <string.h>
#include <sectorsim/protocols/mem.h>

enum { TOKEN_DATA = 1, TOKEN_ACK = 2, CTL_DONE = 3 };

struct token_msg {
	struct ss_msg hdr;
	uint64_t value;
	uint64_t sent_at;
	uint64_t bytes;
};

/* ---- token_source --------------------------------------------------------- */

static const struct ss_param_desc source_params[] = {
	{ "tokens", SS_P_UINT, "10", "number of tokens to send", NULL, 0, 1000000000, 0 },
	{ "first", SS_P_UINT, "1", "value of the first token", NULL, 0, 0, 0 },
	{ "step", SS_P_UINT, "1", "increment between token values", NULL, 0, 0, 0 },
	{ "period", SS_P_UINT, "1", "ticks between two tokens", NULL, 1, 1000000, 0 },
	{ "start", SS_P_UINT, "0", "tick of the first token", NULL, 0, 0, 0 },
	{ "payload", SS_P_SIZE, "4B", "bytes a token carries", NULL, 1, 1 << 20, 0 },
	{ "enabled", SS_P_BOOL, "true", "false: send nothing", NULL, 0, 0, 0 },
	{ NULL, 0, NULL, NULL, NULL, 0, 0, 0 },
};

static const struct ss_port_desc source_ports[] = {
	{ "out", SS_PORT_OUT, "test.token", false, true, "tokens out; acknowledgements come back" },
	{ "ctl", SS_PORT_OUT, "test.ctl", false, false, "a 'done' message after the last token, when linked" },
	{ NULL, 0, NULL, false, false, NULL },
};

enum { SRC_SENT, SRC_ACKS, SRC_SUM, N_SRC_STATS };

static const struct ss_stat_desc source_stats[] = {
	[SRC_SENT] = { "sent", SS_STAT_COUNTER, "tokens sent", NULL, NULL },
	[SRC_ACKS] = { "acks", SS_STAT_COUNTER, "acknowledgements received", NULL, NULL },
	[SRC_SUM] = { "value_sum", SS_STAT_COUNTER, "sum of the values sent", NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

struct token_source {
	struct ss_component c;
	uint64_t tokens, next_value, step, period, start, left, payload;
	struct ss_port *out, *ctl;
};

static int source_create(struct ss_component *c, const struct ss_params *p,
			 GError **err)
{
	struct token_source *s = SS_COMPONENT(c, struct token_source, c);

	s->tokens = ss_param_uint(p, "tokens");
	s->next_value = ss_param_uint(p, "first");
	s->step = ss_param_uint(p, "step");
	s->period = ss_param_uint(p, "period");
	s->start = ss_param_uint(p, "start");
	s->payload = ss_param_uint(p, "payload");
	s->left = ss_param_bool(p, "enabled") ? s->tokens : 0;
	s->out = ss_component_port(c, "out", 0);
	s->ctl = ss_component_port(c, "ctl", 0);
	return 0;
}

static void source_emit(struct ss_engine *e, void *data)
{
	struct token_source *s = data;
	struct token_msg m = {
		.hdr = { sizeof(m), TOKEN_DATA },
		.value = s->next_value,
		.sent_at = ss_engine_now(e),
		.bytes = s->payload,
	};

	s->c.stats[SRC_SENT]++;
	s->c.stats[SRC_SUM] += m.value;
	s->next_value += s->step;
	ss_port_send(s->out, &m.hdr);
	if (--s->left)
		ss_schedule_in(e, s->period, SS_PRIO_ISSUE + s->c.index + 1,
			       source_emit, s);
	else if (ss_port_is_bound(s->ctl)) {
		struct ss_msg done = { sizeof(done), CTL_DONE };

		ss_port_send(s->ctl, &done);
	}
}

static int source_start(struct ss_component *c, GError **err)
{
	struct token_source *s = SS_COMPONENT(c, struct token_source, c);

	if (s->left)
		ss_schedule(c->engine, s->start, SS_PRIO_ISSUE + c->index + 1,
			    source_emit, s);
	return 0;
}

static void source_recv(struct ss_component *c, struct ss_port *in,
			const struct ss_msg *m)
{
	if (m->kind == TOKEN_ACK)
		c->stats[SRC_ACKS]++;
}

static const struct ss_component_ops source_ops = {
	.xcreate = source_create,
	.xstart = source_start,
	.xrecv = source_recv,
};

static const struct ss_component_type token_source_type = {
	.abi_version = SS_ABI_VERSION,
	.name = "token_source",
	.summary = "Test: sends numbered tokens on a timer",
	.params = source_params,
	.ports = source_ports,
	.stats = source_stats,
	.ops = &source_ops,
	.instance_size = sizeof(struct token_source),
};

/* ---- token_sink ----------------------------------------------------------- */

static const char *const sink_modes[] = { "count", "ack", NULL };

static const struct ss_param_desc sink_params[] = {
	{ "mode", SS_P_ENUM, "count", "count: only count tokens; ack: also answer each one", sink_modes, 0, 0, 0 },
	{ "phase_every", SS_P_UINT, "0", "close a statistics phase every N tokens (0: never)", NULL, 0, 0, 0 },
	{ "label", SS_P_STRING, "phase", "label of the phases it closes", NULL, 0, 0, 0 },
	{ NULL, 0, NULL, NULL, NULL, 0, 0, 0 },
};

static const struct ss_port_desc sink_ports[] = {
	{ "in", SS_PORT_IN, "test.token", true, true, "tokens from any number of sources (fan-in)" },
	{ "ctl", SS_PORT_IN, "test.ctl", true, false, "'done' messages from sources" },
	{ NULL, 0, NULL, false, false, NULL },
};

enum { SINK_TOKENS, SINK_SUM, SINK_LATENCY, SINK_MEAN, SINK_DONE, SINK_BYTES, N_SINK_STATS };

static const struct ss_stat_desc sink_stats[] = {
	[SINK_TOKENS] = { "tokens", SS_STAT_COUNTER, "tokens received", NULL, NULL },
	[SINK_SUM] = { "value_sum", SS_STAT_COUNTER, "sum of the values received", NULL, NULL },
	[SINK_LATENCY] = { "latency_sum", SS_STAT_COUNTER, "sum of ticks between sending and receiving", NULL, NULL },
	[SINK_MEAN] = { "mean_value", SS_STAT_RATIO, "mean value of a token", "value_sum", "tokens" },
	[SINK_DONE] = { "done", SS_STAT_COUNTER, "'done' messages received", NULL, NULL },
	[SINK_BYTES] = { "bytes", SS_STAT_COUNTER, "payload bytes received", NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

struct token_sink {
	struct ss_component c;
	bool ack;
	uint64_t phase_every, since_phase;
	unsigned phases;
	char *label;
	unsigned n_in;
	uint64_t **per_port;	/* dynamic stats: from[i].tokens */
};

static int sink_create(struct ss_component *c, const struct ss_params *p,
		       GError **err)
{
	struct token_sink *s = SS_COMPONENT(c, struct token_sink, c);

	s->ack = ss_param_enum(p, "mode") == 1;
	s->phase_every = ss_param_uint(p, "phase_every");
	s->label = g_strdup(ss_param_string(p, "label"));
	if (s->phase_every && !*s->label) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "label must not be empty when phase_every is set");
		g_free(s->label);
		return -1;
	}
	s->n_in = ss_component_port_count(c, "in");
	return 0;
}

static int sink_init(struct ss_component *c, GError **err)
{
	struct token_sink *s = SS_COMPONENT(c, struct token_sink, c);

	s->per_port = g_new0(uint64_t *, s->n_in);
	for (unsigned i = 0; i < s->n_in; i++) {
		char *name = g_strdup_printf("from[%u].tokens", i);

		s->per_port[i] = ss_stat_add_counter(c, name, "tokens received on in[i]");
		g_free(name);
	}
	return 0;
}

static void sink_recv(struct ss_component *c, struct ss_port *in,
		      const struct ss_msg *m)
{
	struct token_sink *s = SS_COMPONENT(c, struct token_sink, c);

	if (m->kind == CTL_DONE) {
		c->stats[SINK_DONE]++;
		return;
	}
	const struct token_msg *t = (const struct token_msg *)m;

	c->stats[SINK_TOKENS]++;
	c->stats[SINK_SUM] += t->value;
	c->stats[SINK_LATENCY] += ss_engine_now(c->engine) - t->sent_at;
	c->stats[SINK_BYTES] += t->bytes;
	(*s->per_port[in->index])++;
	if (s->ack) {
		struct token_msg a = { .hdr = { sizeof(a), TOKEN_ACK } };

		ss_port_send(in, &a.hdr);
	}
	if (s->phase_every && ++s->since_phase == s->phase_every) {
		char *label = g_strdup_printf("%s %u", s->label, s->phases++);

		s->since_phase = 0;
		ss_stats_end_phase(c->engine, label);
		g_free(label);
	}
}

static void sink_destroy(struct ss_component *c)
{
	struct token_sink *s = SS_COMPONENT(c, struct token_sink, c);

	g_free(s->per_port);
	g_free(s->label);
}

static const struct ss_component_ops sink_ops = {
	.xcreate = sink_create,
	.xinit = sink_init,
	.xrecv = sink_recv,
	.xdestroy = sink_destroy,
};

static const struct ss_component_type token_sink_type = {
	.abi_version = SS_ABI_VERSION,
	.name = "token_sink",
	.summary = "Test: counts tokens arriving on a vector port",
	.params = sink_params,
	.ports = sink_ports,
	.stats = sink_stats,
	.ops = &sink_ops,
	.instance_size = sizeof(struct token_sink),
};

/* ---- token_scale: a relay with a required parameter ------------------------ */

static const struct ss_param_desc scale_params[] = {
	{ "factor", SS_P_UINT, NULL, "multiplies the value of every token passing through", NULL, 0, 0, 0 },
	{ NULL, 0, NULL, NULL, NULL, 0, 0, 0 },
};

static const struct ss_port_desc scale_ports[] = {
	{ "in", SS_PORT_IN, "test.token", false, true, "tokens in; acknowledgements go back" },
	{ "out", SS_PORT_OUT, "test.token", false, true, "scaled tokens out" },
	{ NULL, 0, NULL, false, false, NULL },
};

struct token_scale {
	struct ss_component c;
	uint64_t factor;
	struct ss_port *in, *out;
};

static int scale_create(struct ss_component *c, const struct ss_params *p,
			GError **err)
{
	struct token_scale *s = SS_COMPONENT(c, struct token_scale, c);

	s->factor = ss_param_uint(p, "factor");
	s->in = ss_component_port(c, "in", 0);
	s->out = ss_component_port(c, "out", 0);
	return 0;
}

static void scale_recv(struct ss_component *c, struct ss_port *port,
		       const struct ss_msg *m)
{
	struct token_scale *s = SS_COMPONENT(c, struct token_scale, c);

	if (port == s->out) {		/* an acknowledgement on its way back */
		ss_port_send(s->in, m);
		return;
	}
	struct token_msg t = *(const struct token_msg *)m;

	t.value *= s->factor;
	ss_port_send(s->out, &t.hdr);
}

static const struct ss_component_ops scale_ops = {
	.xcreate = scale_create,
	.xrecv = scale_recv,
};

static const struct ss_component_type token_scale_type = {
	.abi_version = SS_ABI_VERSION,
	.name = "token_scale",
	.summary = "Test: multiplies token values on their way through",
	.params = scale_params,
	.ports = scale_ports,
	.ops = &scale_ops,
	.instance_size = sizeof(struct token_scale),
};

/* ---- mem_script and mem_counter ------------------------------------------- */

static const struct ss_param_desc script_params[] = {
	{ "requests", SS_P_STRING, "", "space-separated requests: R0x40, W0x40, W0x40&f (byte mask), A0x40 (atomic), F (flush), I (invalidate), B4096 (kernel begin, L1 bytes), E (kernel end)", NULL, 0, 0, 0 },
	{ "file", SS_P_STRING, "", "a file of requests, read instead of `requests`: the run's input (TRACE)", NULL, 0, 0, SS_PF_INPUT },
	{ "repeat", SS_P_UINT, "1", "times to play the list", NULL, 1, 1000000, 0 },
	{ "runs", SS_P_BOOL, "false", "requests in a row that fit go as runs (mem.h), when out's peer takes batches", NULL, 0, 0, 0 },
	{ NULL, 0, NULL, NULL, NULL, 0, 0, 0 },
};

static const struct ss_port_desc script_ports[] = {
	{ "out", SS_PORT_OUT, MEM_PROTOCOL, false, true, "the requests" },
	{ NULL, 0, NULL, false, false, NULL },
};

struct mem_script {
	struct ss_component c;
	GArray *reqs;		/* struct mem_req */
	uint64_t repeat;
	bool runs;
};

static int script_create(struct ss_component *c, const struct ss_params *p,
			 GError **err)
{
	struct mem_script *s = SS_COMPONENT(c, struct mem_script, c);
	const char *file = ss_param_string(p, "file");
	char *text = NULL;

	if (file && *file && !g_file_get_contents(file, &text, NULL, err)) {
		(*err)->code = SS_ERROR_CONFIG;
		return -1;
	}

	char **words = g_strsplit_set(text ? text : ss_param_string(p, "requests"),
				      " \t\n", -1);

	g_free(text);

	s->repeat = ss_param_uint(p, "repeat");
	s->runs = ss_param_bool(p, "runs");
	s->reqs = g_array_new(FALSE, FALSE, sizeof(struct mem_req));
	for (char **w = words; *w; w++) {
		struct mem_req r;
		char *end = NULL;

		if (!**w)
			continue;
		switch (**w) {
		case 'R': case 'W': case 'A':
			mem_req_init(&r, **w == 'R' ? MEM_READ : **w == 'W' ? MEM_WRITE : MEM_ATOMIC,
				     g_ascii_strtoull(*w + 1, &end, 0), MEM_ATOM);
			if (*end == '&')
				r.mask = g_ascii_strtoull(end + 1, &end, 16);
			break;
		case 'F': case 'I': case 'E':
			mem_req_init(&r, MEM_CONTROL, 0, 0);
			r.ctl = **w == 'F' ? MEM_CTL_FLUSH :
				**w == 'I' ? MEM_CTL_INVALIDATE : MEM_CTL_KERNEL_END;
			end = *w + 1;
			break;
		case 'B':	/* kernel begin, with an L1 size */
			mem_req_init(&r, MEM_CONTROL, g_ascii_strtoull(*w + 1, &end, 0), 0);
			r.ctl = MEM_CTL_KERNEL_BEGIN;
			break;
		default:
			end = *w;
			break;
		}
		if (!end || *end || (r.addr % MEM_ATOM)) {
			g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
				    "requests: '%s' is not R|W|A<32-byte aligned address>[&mask], F, I, B<bytes> or E", *w);
			g_strfreev(words);
			g_array_free(s->reqs, TRUE);
			return -1;
		}
		g_array_append_val(s->reqs, r);
	}
	g_strfreev(words);
	return 0;
}

static int script_start(struct ss_component *c, GError **err)
{
	struct mem_script *s = SS_COMPONENT(c, struct mem_script, c);
	struct ss_port *out = ss_component_port(c, "out", 0);

	struct mem_run run = { .n = 0 };
	bool runs = s->runs && (ss_port_peer_flags(out) & SS_PORT_BATCHES);

	/* functional: everything at tick 0, in order */
	for (uint64_t k = 0; k < s->repeat; k++)
		for (guint i = 0; i < s->reqs->len; i++) {
			const struct mem_req *r = &g_array_index(s->reqs, struct mem_req, i);

			if (runs && mem_run_add(&run, r))
				continue;
			if (run.n) {
				ss_port_send(out, &run.hdr);
				run.n = 0;
			}
			if (!runs || !mem_run_add(&run, r))
				ss_port_send(out, &r->hdr);
		}
	if (run.n)
		ss_port_send(out, &run.hdr);
	return 0;
}

static void script_destroy(struct ss_component *c)
{
	g_array_free(SS_COMPONENT(c, struct mem_script, c)->reqs, TRUE);
}

static void ignore_recv(struct ss_component *c, struct ss_port *in,
			const struct ss_msg *m)
{
}

static const struct ss_component_ops script_ops = {
	.xcreate = script_create,
	.xstart = script_start,
	.xrecv = ignore_recv,
	.xdestroy = script_destroy,
};

static const struct ss_component_type mem_script_type = {
	.abi_version = SS_ABI_VERSION,
	.name = "mem_script",
	.summary = "Test: plays a written list of memory requests",
	.params = script_params,
	.ports = script_ports,
	.ops = &script_ops,
	.instance_size = sizeof(struct mem_script),
};

static const struct ss_port_desc counter_ports[] = {
	{ "in", SS_PORT_IN, MEM_PROTOCOL, true, true, "requests from any number of sources" },
	{ NULL, 0, NULL, false, false, NULL },
};

enum { CNT_READS, CNT_WRITES, CNT_ATOMICS, CNT_CONTROLS, CNT_BYTES };

static const struct ss_stat_desc counter_stats[] = {
	[CNT_READS] = { "reads", SS_STAT_COUNTER, "read requests", NULL, NULL },
	[CNT_WRITES] = { "writes", SS_STAT_COUNTER, "write requests", NULL, NULL },
	[CNT_ATOMICS] = { "atomics", SS_STAT_COUNTER, "atomic and reduction requests", NULL, NULL },
	[CNT_CONTROLS] = { "controls", SS_STAT_COUNTER, "control messages", NULL, NULL },
	[CNT_BYTES] = { "bytes", SS_STAT_COUNTER, "bytes requested", NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

static void counter_recv(struct ss_component *c, struct ss_port *in,
			 const struct ss_msg *m)
{
	const struct mem_req *r = (const struct mem_req *)m;

	switch (m->kind) {
	case MEM_READ: c->stats[CNT_READS]++; break;
	case MEM_WRITE: c->stats[CNT_WRITES]++; break;
	case MEM_CONTROL: c->stats[CNT_CONTROLS]++; return;
	default: c->stats[CNT_ATOMICS]++; break;
	}
	c->stats[CNT_BYTES] += r->size;
}

static const struct ss_component_ops counter_ops = { .xrecv = counter_recv };

static const struct ss_component_type mem_counter_type = {
	.abi_version = SS_ABI_VERSION,
	.name = "mem_counter",
	.summary = "Test: counts the memory requests that reach it",
	.ports = counter_ports,
	.stats = counter_stats,
	.ops = &counter_ops,
	.instance_size = sizeof(struct ss_component),
};

/* ---- mem_log: what reaches it, in order, one line each, into a file ------- */

static const struct ss_param_desc log_params[] = {
	{ "file", SS_P_STRING, NULL, "where the lines go", NULL, 0, 0, 0 },
	{ NULL, 0, NULL, NULL, NULL, 0, 0, 0 },
};

struct mem_log {
	struct ss_component c;
	FILE *f;
};

static int log_create(struct ss_component *c, const struct ss_params *p,
		      GError **err)
{
	struct mem_log *l = SS_COMPONENT(c, struct mem_log, c);

	l->f = fopen(ss_param_string(p, "file"), "w");
	if (!l->f) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG, "cannot write %s",
			    ss_param_string(p, "file"));
		return -1;
	}
	return 0;
}

static void log_recv(struct ss_component *c, struct ss_port *in,
		     const struct ss_msg *m)
{
	struct mem_log *l = SS_COMPONENT(c, struct mem_log, c);
	const struct mem_req *r = (const struct mem_req *)m;
	static const char *const ctl[] = { "?", "invalidate", "flush", "begin", "end" };

	if (m->kind == MEM_CONTROL)
		fprintf(l->f, "%u:%s", in->index, ctl[r->ctl <= 4 ? r->ctl : 0]);
	else
		fprintf(l->f, "%u:%c%#" G_GINT64_MODIFIER "x", in->index,
			m->kind == MEM_READ ? 'R' : m->kind == MEM_WRITE ? 'W' : 'A',
			r->addr);
	if (m->kind == MEM_CONTROL && r->ctl == MEM_CTL_KERNEL_BEGIN)
		fprintf(l->f, "%" G_GUINT64_FORMAT, r->addr);
	fputc(' ', l->f);
}

static void log_destroy(struct ss_component *c)
{
	fclose(SS_COMPONENT(c, struct mem_log, c)->f);
}

static const struct ss_port_desc log_ports[] = {
	{ "in", SS_PORT_IN, MEM_PROTOCOL, true, true, "requests from any number of sources" },
	{ NULL, 0, NULL, false, false, NULL },
};

static const struct ss_component_ops log_ops = {
	.xcreate = log_create,
	.xrecv = log_recv,
	.xdestroy = log_destroy,
};

static const struct ss_component_type mem_log_type = {
	.abi_version = SS_ABI_VERSION,
	.name = "mem_log",
	.summary = "Test: writes the memory requests that reach it to a file, in order",
	.params = log_params,
	.ports = log_ports,
	.ops = &log_ops,
	.instance_size = sizeof(struct mem_log),
};

SS_PLUGIN_ENTRY(token)
{
	return ss_registry_add(r, &token_source_type, error) &&
	       ss_registry_add(r, &token_sink_type, error) &&
	       ss_registry_add(r, &token_scale_type, error) &&
	       ss_registry_add(r, &mem_script_type, error) &&
	       ss_registry_add(r, &mem_counter_type, error) &&
	       ss_registry_add(r, &mem_log_type, error);
}
