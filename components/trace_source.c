/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * trace_source: the kernels of a memory trace, one after another.  It
 * sends a kernel's launch data with a source of its blocks (the scheduler
 * loads only the blocks it runs) and starts the next kernel when told the
 * kernel is done.  Every format of readers/trace.c is read (ppt, Accel-Sim);
 * malformed input stops the run with the reader's "FILE:LINE: ..." message.
 *
 * `path` is the run's input: the command line's TRACE replaces it.
 */
#include "config.h"

#include <sectorsim/sectorsim.h>
#include <sectorsim/protocols/gpu.h>
#include "trace.h"

static const struct ss_param_desc params[] = {
	{ "path", SS_P_PATH, NULL, "trace directory (app_config.py or kernelslist.g inside), an Accel-Sim kernelslist.g or a native trace file (sectorsim convert); the command line's TRACE replaces it", NULL, 0, 0, SS_PF_INPUT },
	{ "format", SS_P_ENUM, "auto", "auto (a file with the native magic number: native; app_config.py: ppt, else kernelslist.g: accelsim, else NAME_00.trc or a file NAME.trc: trc), ppt, accelsim, native or trc (Nugteren et al.'s cache model)", trace_format_names, 0, 0, 0 },
	{ "kernels", SS_P_LIST, "", "ids of the kernels to run (as reported: kernel_id); empty: all", NULL, 0, 0, 0 },
	{ "loads_only", SS_P_BOOL, "false", "read the trace's loads only, as Nugteren et al.'s cache model does (trc traces only): stores dropped before a thread's accesses are numbered, and a kernel without a load ends the trace", NULL, 0, 0, 0 },
	{ "pyset_sectors", SS_P_BOOL, "false", "keep the sectors of the reference's coalescing that a native trace holds (version 4 on: a Python set's order of 32-byte sectors, 128-byte lines), which a warp_interleaver coalescing so (sector_order = pyset, sector_bytes = 32B, line_bytes = 128B) takes instead of coalescing each line again; false: they are passed over (the reference-compatible configurations set true)", NULL, 0, 0, 0 },
	{ "launch_gap", SS_P_UINT, "4096", "ticks from a kernel's end to the next kernel's start (its launch); nothing runs between kernels, so no count depends on it, but the components on other threads than the trace source may run up to that far ahead of those that end a kernel (--threads)", NULL, 1, 1u << 30, 0 },
	{ NULL, 0, NULL, NULL, NULL, 0, 0, 0 },
};

static const struct ss_port_desc ports[] = {
	{ "kernels", SS_PORT_OUT, GPU_KERNEL_PROTOCOL, false, true, "kernel launches with their block source" },
	{ "done", SS_PORT_IN, GPU_KERNEL_PROTOCOL, false, true, "a kernel is done (every counter final): the next one starts" },
	{ NULL, 0, NULL, false, false, NULL },
};

enum { TS_KERNELS };

static const struct ss_stat_desc stats[] = {
	[TS_KERNELS] = { "kernels", SS_STAT_COUNTER, "kernels sent", NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

struct trace_source {
	struct ss_component c;
	char *path;
	enum trace_format_id format;
	GHashTable *only;	/* kernel ids to run; NULL: all */
	GHashTable *skip;	/* kernel ids not to run (GPU_KERNEL_SKIP) */
	struct trace_reader *reader;
	struct ss_port *out;
	unsigned n_seen;	/* kernels of the trace read */
	unsigned n_sent;	/* of those, sent to be simulated (the stats
				   count per phase, a kernel each) */
	unsigned n_skipped;	/* of those, done already (GPU_KERNEL_SKIP) */
	uint64_t launch_gap;	/* ticks from a kernel's end to the next's start */
	bool loads_only;
	bool pyset_sectors;
};

static int ts_create(struct ss_component *c, const struct ss_params *p,
		     GError **err)
{
	struct trace_source *t = SS_COMPONENT(c, struct trace_source, c);
	size_t n;
	const uint64_t *ids = ss_param_list(p, "kernels", &n);

	t->path = g_strdup(ss_param_string(p, "path"));
	t->format = ss_param_enum(p, "format");
	if (n) {
		t->only = g_hash_table_new(g_direct_hash, g_direct_equal);
		for (size_t i = 0; i < n; i++)
			g_hash_table_add(t->only, GSIZE_TO_POINTER(ids[i]));
	}
	t->out = ss_component_port(c, "kernels", 0);
	t->skip = g_hash_table_new(g_direct_hash, g_direct_equal);
	/* a kernel's end starts the next one launch_gap ticks later (ts_recv) */
	t->launch_gap = ss_param_uint(p, "launch_gap");
	t->loads_only = ss_param_bool(p, "loads_only");
	t->pyset_sectors = ss_param_bool(p, "pyset_sectors");
	ss_component_set_port_flags(c, "done", SS_PORT_SILENT);
	ss_component_set_port_lookahead(c, "done", t->launch_gap);
	return 0;
}

/*
 * At the end of the trace: a run that simulated no kernel has no result,
 * so it is an error, unless every kernel was done already (a resumed run
 * that was complete).
 */
static void check_some_kernel(struct trace_source *t, struct ss_engine *e)
{
	const char *path = t->path && *t->path ? t->path : "trace";

	if (t->n_sent || t->n_skipped)
		return;
	if (t->only && t->n_seen)
		ss_engine_fail(e, g_error_new(SS_ERROR, SS_ERROR_INPUT,
					      "%s: no kernel to simulate: %s.kernels selects none of the trace's %u kernels",
					      path, t->c.name, t->n_seen));
	else if (t->loads_only)
		ss_engine_fail(e, g_error_new(SS_ERROR, SS_ERROR_INPUT,
					      "%s: no kernel to simulate: the first kernel has no load, and %s.loads_only ends the trace there",
					      path, t->c.name));
	else
		ss_engine_fail(e, g_error_new(SS_ERROR, SS_ERROR_INPUT,
					      "%s: no kernel to simulate: the trace lists none",
					      path));
}

static void next_kernel(struct ss_engine *e, void *data)
{
	struct trace_source *t = data;
	GError *err = NULL;
	const struct gpu_kernel *k;

	/* an interrupt stops the run between kernels, never inside one */
	if (ss_interrupted()) {
		ss_engine_stop(e);
		return;
	}
	if (!t->reader) {
		t->reader = trace_open(t->path, t->format, &err);
		if (!t->reader) {
			ss_engine_fail(e, err);
			return;
		}
		/*
		 * A kernel's first blocks are read while the rest of the run
		 * waits for them: on every thread the run has.
		 */
		trace_set_loaders(t->reader, ss_engine_threads(e));
		if (t->pyset_sectors)
			trace_keep_pyset_sectors(t->reader);
		/* every receiver of gpu.dispatch reads streamed blocks */
		trace_stream_lines(t->reader);
		if (t->loads_only && !trace_set_loads_only(t->reader, &err)) {
			ss_component_fail(&t->c, SS_ERROR_CONFIG, "loads_only = true: %s",
					  err->message);
			g_error_free(err);
			return;
		}
	}
	for (;;) {
		k = trace_next_kernel(t->reader, &err);
		if (!k)
			break;
		t->n_seen++;
		if (t->only && !g_hash_table_contains(t->only, GSIZE_TO_POINTER((gsize)k->id)))
			continue;
		if (!g_hash_table_contains(t->skip, GSIZE_TO_POINTER((gsize)k->id)))
			break;
		t->n_skipped++;
	}
	if (!k) {
		/* an interrupt can cut a read short (EINTR): it wins */
		if (err && ss_interrupted()) {
			g_clear_error(&err);
			ss_engine_stop(e);
		}
		if (err)
			ss_engine_fail(e, err);
		else
			check_some_kernel(t, e);
		return;		/* the end of the trace */
	}

	struct gpu_kernel_msg m = {
		.hdr = { sizeof(m), GPU_KERNEL_BEGIN },
		.kernel = k,
		.blocks = trace_block_source(t->reader),
	};

	t->c.stats[TS_KERNELS]++;
	t->n_sent++;
	ss_port_send(t->out, &m.hdr);
}

static int ts_start(struct ss_component *c, GError **err)
{
	/* in an event, so that reading errors stop the run like any other */
	ss_schedule(c->engine, 0, SS_PRIO_ISSUE, next_kernel,
		    SS_COMPONENT(c, struct trace_source, c));
	return 0;
}

static void ts_recv(struct ss_component *c, struct ss_port *in,
		    const struct ss_msg *m)
{
	struct trace_source *t = SS_COMPONENT(c, struct trace_source, c);
	const struct gpu_kernel_msg *km = (const struct gpu_kernel_msg *)m;

	/* the kernel's blocks stay valid until the next kernel is read, which
	 * happens after whoever sent this has returned */
	if (m->kind == GPU_KERNEL_DONE)
		ss_schedule_in(c->engine, t->launch_gap, SS_PRIO_ISSUE, next_kernel, t);
	else if (m->kind == GPU_KERNEL_SKIP)
		g_hash_table_add(t->skip, GSIZE_TO_POINTER((gsize)km->kernel->id));
}

static void ts_destroy(struct ss_component *c)
{
	struct trace_source *t = SS_COMPONENT(c, struct trace_source, c);

	if (t->reader)
		trace_close(t->reader);
	if (t->only)
		g_hash_table_destroy(t->only);
	if (t->skip)
		g_hash_table_destroy(t->skip);
	g_free(t->path);
}

static const struct ss_component_ops ops = {
	.xcreate = ts_create,
	.xstart = ts_start,
	.xrecv = ts_recv,
	.xdestroy = ts_destroy,
};

static const struct ss_component_type trace_source_type = {
	.abi_version = SS_ABI_VERSION,
	.name = "trace_source",
	.summary = "The kernels of a memory trace (the paper tracer's or Accel-Sim's), one after another",
	.params = params,
	.ports = ports,
	.stats = stats,
	.ops = &ops,
	.instance_size = sizeof(struct trace_source),
	.flags = SS_TYPE_PARTITION_SAFE,
};

SS_PLUGIN_ENTRY(trace_source)
{
	return ss_registry_add(r, &trace_source_type, error);
}
