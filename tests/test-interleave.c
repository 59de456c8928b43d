/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * warp_interleaver as an INI wires it: a scripted block scheduler (each
 * dispatch message at a tick and priority of its own; the DONEs it gets
 * back logged) in front, a log of every request and control message with
 * its tick behind.  The blocks come from tests/data/interleave through the
 * trace readers.  Expected orders, addresses and masks are worked out by
 * hand in the comments, from the rules of warp_interleaver.c (sub-core
 * issue, the opcode table, generic windows, the local layout) that each
 * states.
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>
#include <sectorsim/protocols/gpu.h>
#include <sectorsim/protocols/mem.h>
#include "internal.h"
#include "simrun.h"
#include "trace.h"

static char *tmpdir;

/* ---- the script and the log ------------------------------------------------ */

struct action {
	uint64_t tick;
	int16_t prio;
	uint32_t op;		/* enum gpu_dispatch_op */
	uint32_t sm, slot;
	uint64_t block;		/* BLOCK: its id */
	const struct gpu_block *made;	/* BLOCK: this one instead, made by hand */
};

struct entry {
	uint64_t tick;
	bool done;		/* a DONE from an SM, else a memory message */
	struct mem_req r;
	struct gpu_dispatch_msg d;
};

static struct {
	GArray *actions;	/* struct action */
	const struct gpu_kernel *kernel;
	struct gpu_occupancy occ;
	struct trace_reader *trace;
	GArray *log;		/* struct entry */
} script;

struct tb_driver {
	struct ss_component c;
};

static struct tb_driver *driver;

static void act(struct ss_engine *e, void *data)
{
	const struct action *a = data;
	struct gpu_dispatch_msg m = {
		.hdr = { sizeof(m), a->op }, .kernel = script.kernel,
		.occ = &script.occ, .slot = a->slot,
	};
	GError *err = NULL;

	(void)e;
	if (a->made)
		m.block = a->made;
	else if (a->op == GPU_DISPATCH_BLOCK)
		g_assert_true(trace_load_blocks(script.trace, &a->block, 1, &m.block, &err));
	g_assert_no_error(err);
	if (m.block) {
		m.n_lines = m.block->n_lines;
		m.n_shared = m.block->n_shared;
		m.n_unknown = m.block->n_unknown;
	}
	ss_port_send(ss_component_port(&driver->c, "dispatch", a->sm), &m.hdr);
}

static int driver_create(struct ss_component *c, const struct ss_params *p, GError **err)
{
	(void)p;
	(void)err;
	driver = SS_COMPONENT(c, struct tb_driver, c);
	return 0;
}

static int driver_start(struct ss_component *c, GError **err)
{
	(void)err;
	for (guint i = 0; i < script.actions->len; i++) {
		struct action *a = &g_array_index(script.actions, struct action, i);

		ss_schedule(c->engine, a->tick, a->prio, act, a);
	}
	return 0;
}

static void driver_recv(struct ss_component *c, struct ss_port *in, const struct ss_msg *m)
{
	struct entry e = { .tick = ss_engine_now(c->engine), .done = true };

	(void)in;
	g_assert_cmpuint(m->kind, ==, GPU_DISPATCH_DONE);
	e.d = *(const struct gpu_dispatch_msg *)m;
	g_array_append_val(script.log, e);
}

static const struct ss_port_desc driver_ports[] = {
	{ "dispatch", SS_PORT_OUT, GPU_DISPATCH_PROTOCOL, true, true, "to each SM" },
	{ "done", SS_PORT_IN, GPU_DISPATCH_PROTOCOL, true, false, "from each SM" },
	{ NULL, 0, NULL, false, false, NULL },
};

static const struct ss_component_ops driver_ops = {
	.xcreate = driver_create, .xstart = driver_start, .xrecv = driver_recv,
};

static const struct ss_component_type driver_type = {
	.abi_version = SS_ABI_VERSION,
	.name = "tb_driver",
	.summary = "Test: sends scripted dispatch messages, logs DONEs",
	.ports = driver_ports,
	.ops = &driver_ops,
	.instance_size = sizeof(struct tb_driver),
};

static void log_recv(struct ss_component *c, struct ss_port *in, const struct ss_msg *m)
{
	struct entry e = { .tick = ss_engine_now(c->engine) };

	(void)in;
	e.r = *(const struct mem_req *)m;
	g_array_append_val(script.log, e);
}

static const struct ss_port_desc log_ports[] = {
	{ "in", SS_PORT_IN, MEM_PROTOCOL, true, true, "from each SM" },
	{ NULL, 0, NULL, false, false, NULL },
};

static const struct ss_component_ops log_ops = { .xrecv = log_recv };

static const struct ss_component_type log_type = {
	.abi_version = SS_ABI_VERSION,
	.name = "req_log",
	.summary = "Test: logs memory messages with their tick",
	.ports = log_ports,
	.ops = &log_ops,
	.instance_size = sizeof(struct ss_component),
};

/* ---- setting up a run -------------------------------------------------------- */

/* Kernel `k` (1-based) of tests/data/interleave/FORMAT. */
static void use_kernel(const char *format, unsigned k, uint32_t num_sms, uint32_t max_active)
{
	char *path = g_test_build_filename(G_TEST_DIST, "data", "interleave", format, NULL);
	GError *err = NULL;

	script.trace = trace_open(path, TRACE_AUTO, &err);
	g_assert_no_error(err);
	for (unsigned i = 0; i < k; i++)
		script.kernel = trace_next_kernel(script.trace, &err);
	g_assert_no_error(err);
	g_assert_nonnull(script.kernel);
	script.occ = (struct gpu_occupancy){ .max_active = max_active, .num_sms = num_sms };
	script.actions = g_array_new(FALSE, FALSE, sizeof(struct action));
	script.log = g_array_new(FALSE, FALSE, sizeof(struct entry));
	g_free(path);
}

static void add(uint64_t tick, int16_t prio, uint32_t op, uint32_t sm, uint32_t slot,
		uint64_t block)
{
	struct action a = { tick, prio, op, sm, slot, block, NULL };

	g_array_append_val(script.actions, a);
}

/* At tick 0 as the scheduler does it: begin, blocks, go (SM 0's blocks). */
static void start(unsigned n_sms, const uint64_t *blocks, const uint32_t *slots, size_t n)
{
	for (unsigned sm = 0; sm < n_sms; sm++)
		add(0, SS_PRIO_DELIVER, GPU_DISPATCH_BEGIN, sm, 0, 0);
	for (size_t i = 0; i < n; i++)
		add(0, SS_PRIO_DELIVER, GPU_DISPATCH_BLOCK, 0, slots[i], blocks[i]);
	for (unsigned sm = 0; sm < n_sms; sm++)
		add(0, SS_PRIO_DELIVER, GPU_DISPATCH_GO, sm, 0, 0);
}

/* A block for SM sm, slot `slot` at tick t, as a refill sends it. */
static void refill(uint64_t t, uint32_t sm, uint32_t slot, uint64_t block)
{
	add(t, SS_PRIO_ISSUE - 1, GPU_DISPATCH_BLOCK, sm, slot, block);
}

static void last(uint64_t t, unsigned n_sms)
{
	for (unsigned sm = 0; sm < n_sms; sm++)
		add(t, SS_PRIO_ISSUE - 1, GPU_DISPATCH_LAST, sm, 0, 0);
}

static const struct ss_component_type *const test_types[] = {
	&driver_type, &log_type, NULL,
};

/*
 * n_sms warp interleavers with `params` between the driver and the log;
 * *err set when the configuration or the run fails.
 */
static struct sim_run run_sms(unsigned n_sms, const char *params, GError **err)
{
	char *ini = g_strdup_printf(
		"[component drv]\ntype = tb_driver\n"
		"[component sm]\ntype = warp_interleaver\ncount = %u\n%s\n"
		"[component log]\ntype = req_log\n"
		"[link d]\nfrom = drv.dispatch[*]\nto = sm[*].tb_in\n"
		"[link m]\nfrom = sm[*].mem\nto = log.in[*]\n"
		"[link done]\nfrom = sm[*].done\nto = drv.done[*]\n", n_sms, params);
	struct sim_run rn = sim_run(tmpdir, ini, test_types, NULL, true);

	if (rn.load_error)
		g_error("%s", rn.load_error);
	if (rn.err)
		g_propagate_error(err, g_steal_pointer(&rn.err));
	g_free(ini);
	return rn;
}

static struct sim_run run_ok(unsigned n_sms, const char *params)
{
	GError *err = NULL;
	struct sim_run rn = run_sms(n_sms, params, &err);

	g_assert_no_error(err);
	return rn;
}

static uint64_t counter(struct sim_run *rn, const char *name)
{
	double v;

	if (!ss_stats_lookup(ss_sim_engine(rn->sim), name, &v))
		g_error("no statistic %s", name);
	return (uint64_t)v;
}

static void finish(struct sim_run *rn)
{
	sim_run_free(rn);
	trace_close(script.trace);
	g_array_free(script.actions, TRUE);
	g_array_free(script.log, TRUE);
	memset(&script, 0, sizeof(script));
}

/* ---- reading the log ------------------------------------------------------- */

/*
 * The loads of the issue-order fixtures as "TICK:bBLOCKwWARP.I": block b,
 * warp w, instruction i loads 0x10000000 (b + 1) + 0x1000 w + 0x100 i.
 */
static char *issued(void)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < script.log->len; i++) {
		const struct entry *e = &g_array_index(script.log, struct entry, i);
		uint64_t a = e->r.addr;

		if (e->done || e->r.hdr.kind == MEM_CONTROL)
			continue;
		g_string_append_printf(s, "%s%" G_GUINT64_FORMAT ":b%" G_GUINT64_FORMAT "w%u.%u",
				       s->len ? " " : "", e->tick, (a >> 28) - 1,
				       (unsigned)(a >> 12 & 0xf), (unsigned)(a >> 8 & 0xf));
	}
	return g_string_free(s, FALSE);
}

/* DONEs as "TICK:done(SM,SLOT,BLOCK)", kernel ends as "TICK:end(SM)". */
static char *events(void)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < script.log->len; i++) {
		const struct entry *e = &g_array_index(script.log, struct entry, i);

		if (e->done) {
			g_assert_true(e->d.kernel == script.kernel);
			g_string_append_printf(s, " %" G_GUINT64_FORMAT ":done(%u,%u,%" G_GUINT64_FORMAT ")",
					       e->tick, e->d.sm, e->d.slot, e->d.block->id);
		} else if (e->r.hdr.kind == MEM_CONTROL && e->r.ctl == MEM_CTL_KERNEL_END) {
			g_string_append_printf(s, " %" G_GUINT64_FORMAT ":end(%u)", e->tick, e->r.sm);
		}
	}
	return g_strchug(g_string_free(s, FALSE));
}

/* Requests as "KIND SPACE ADDR MASK[ bypass]", KIND R W A (atomic) D (reduction). */
static char *requests(void)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < script.log->len; i++) {
		const struct entry *e = &g_array_index(script.log, struct entry, i);
		static const char kinds[] = "?RWAD";

		if (e->done || e->r.hdr.kind == MEM_CONTROL)
			continue;
		g_assert_cmpuint(e->r.size, ==, 32);
		g_string_append_printf(s, "%c %c %" G_GINT64_MODIFIER "x %x%s\n",
				       kinds[e->r.hdr.kind], e->r.space == MEM_LOCAL ? 'L' : 'G',
				       e->r.addr, e->r.mask,
				       e->r.flags & MEM_F_BYPASS ? " bypass" : "");
	}
	return g_string_free(s, FALSE);
}

#define ASSERT_LOG(fn, want) do { \
		char *got_ = fn(); \
		g_assert_cmpstr(got_, ==, want); \
		g_free(got_); \
	} while (0)

/* ---- issue order: warp hw on sub-core hw % 4, one instruction each a tick -- */

#define SUBCORE "classify = hw\nsector_order = ascending\nissue = "

/*
 * Kernel 1, block 0 in slot 0: 8 warps of 3, 1, 2, 0, 2, 3, 1, 2
 * instructions (warp 5 also has an IMAD, which is no line).  Sub-core s
 * has warps s and s + 4.  LRR, from before warp 0: tick 1 takes each
 * sub-core's first (0 1 2 7; warp 3 has none), tick 2 the one after (4 5
 * 6 7), tick 3 wraps (0, 5 since 1 is done, 2; 7 is done), then 4 5, then
 * 0.
 */
static void test_lrr(void)
{
	struct sim_run rn;

	use_kernel("accelsim", 1, 1, 1);
	start(1, (const uint64_t[]){ 0 }, (const uint32_t[]){ 0 }, 1);
	last(0, 1);
	rn = run_ok(1, SUBCORE "subcore_lrr");
	ASSERT_LOG(issued, "1:b0w0.0 1:b0w1.0 1:b0w2.0 1:b0w7.0 "
		   "2:b0w4.0 2:b0w5.0 2:b0w6.0 2:b0w7.1 "
		   "3:b0w0.1 3:b0w5.1 3:b0w2.1 "
		   "4:b0w4.1 4:b0w5.2 "
		   "5:b0w0.2");
	ASSERT_LOG(events, "5:done(0,0,0) 5:end(0)");
	g_assert_cmpuint(counter(&rn, "sm.lines"), ==, 14);
	g_assert_cmpuint(counter(&rn, "sm.blocks"), ==, 1);
	finish(&rn);
}

/* The same block, greedy then oldest: each sub-core drains its lower warp
 * first. */
static void test_gto(void)
{
	struct sim_run rn;

	use_kernel("accelsim", 1, 1, 1);
	start(1, (const uint64_t[]){ 0 }, (const uint32_t[]){ 0 }, 1);
	last(0, 1);
	rn = run_ok(1, SUBCORE "subcore_gto");
	ASSERT_LOG(issued, "1:b0w0.0 1:b0w1.0 1:b0w2.0 1:b0w7.0 "
		   "2:b0w0.1 2:b0w5.0 2:b0w2.1 2:b0w7.1 "
		   "3:b0w0.2 3:b0w5.1 3:b0w6.0 "
		   "4:b0w4.0 4:b0w5.2 "
		   "5:b0w4.1");
	ASSERT_LOG(events, "5:done(0,0,0) 5:end(0)");
	finish(&rn);
}

/*
 * Blocks 1 (warp 0: 2 instructions, warp 4: 1) and 2 (warp 0: 1, warp 4:
 * 2), block 1 dispatched first but to slot 1: sub-core 0 holds hardware
 * warps 0, 4 (block 2) and 8, 12 (block 1).  The SM runs dry at tick 6;
 * block 0 arrives at tick 10 and issues in tick 10; LAST at tick 20 ends
 * the kernel then, not before.
 */
static void dispatch_case(const char *issue, const char *want_issued, const char *want_events)
{
	char *params = g_strconcat(SUBCORE, issue, NULL);
	struct sim_run rn;

	use_kernel("accelsim", 1, 1, 2);
	start(1, (const uint64_t[]){ 1, 2 }, (const uint32_t[]){ 1, 0 }, 2);
	refill(10, 0, 0, 0);
	last(20, 1);
	rn = run_ok(1, params);
	ASSERT_LOG(issued, want_issued);
	ASSERT_LOG(events, want_events);
	g_assert_cmpuint(counter(&rn, "sm.blocks"), ==, 3);
	finish(&rn);
	g_free(params);
}

static void test_dispatch(void)
{
	/* LRR in hardware warp order: 0, 4, 8, 12, then 4 and 8 again */
	dispatch_case("subcore_lrr",
		      "1:b2w0.0 2:b2w4.0 3:b1w0.0 4:b1w4.0 5:b2w4.1 6:b1w0.1 "
		      "10:b0w0.0 10:b0w1.0 10:b0w2.0 10:b0w7.0 "
		      "11:b0w4.0 11:b0w5.0 11:b0w6.0 11:b0w7.1 "
		      "12:b0w0.1 12:b0w5.1 12:b0w2.1 "
		      "13:b0w4.1 13:b0w5.2 "
		      "14:b0w0.2",
		      "5:done(0,0,2) 6:done(0,1,1) 14:done(0,0,0) 20:end(0)");
	/*
	 * GTO: the oldest is block 1, whatever its slot; block 0 starts
	 * afresh (hardware warp 4 of block 2, the greedy one, is gone).
	 */
	dispatch_case("subcore_gto",
		      "1:b1w0.0 2:b1w0.1 3:b1w4.0 4:b2w0.0 5:b2w4.0 6:b2w4.1 "
		      "10:b0w0.0 10:b0w1.0 10:b0w2.0 10:b0w7.0 "
		      "11:b0w0.1 11:b0w5.0 11:b0w2.1 11:b0w7.1 "
		      "12:b0w0.2 12:b0w5.1 12:b0w6.0 "
		      "13:b0w4.0 13:b0w5.2 "
		      "14:b0w4.1",
		      "3:done(0,1,1) 6:done(0,0,2) 14:done(0,0,0) 20:end(0)");
}

/*
 * Reference format: no warps, a block is a stream, one line per tick, LRR
 * over the slots.  Blocks 0, 1, 2 (3, 1 and 2 lines) in slots 0, 1, 2;
 * block 1 is done in tick 2, block 3 (2 lines) refills slot 1 in tick 4,
 * after slot 2 issued in tick 3: so slot 0, then 1, then 2.  GTO does not
 * apply without warps.  block_rr keeps the reference's rounds, one line
 * of each block per tick.
 */
static void test_unknown_warps(void)
{
	static const char *const issue[] = { "subcore_lrr", "subcore_gto" };
	struct sim_run rn;

	for (int i = 0; i < 2; i++) {
		char *params = g_strconcat(SUBCORE, issue[i], NULL);

		use_kernel("ppt", 1, 1, 3);
		start(1, (const uint64_t[]){ 0, 1, 2 }, (const uint32_t[]){ 0, 1, 2 }, 3);
		refill(4, 0, 1, 3);
		last(5, 1);
		rn = run_ok(1, params);
		ASSERT_LOG(issued, "1:b0w0.0 2:b1w0.0 3:b2w0.0 4:b0w0.1 5:b3w0.0 "
			   "6:b2w0.1 7:b0w0.2 8:b3w0.1");
		ASSERT_LOG(events, "2:done(0,1,1) 6:done(0,2,2) 7:done(0,0,0) 8:done(0,1,3) 8:end(0)");
		finish(&rn);
		g_free(params);
	}
	use_kernel("ppt", 1, 1, 3);
	start(1, (const uint64_t[]){ 0, 1, 2 }, (const uint32_t[]){ 0, 1, 2 }, 3);
	last(0, 1);
	rn = run_ok(1, "");
	ASSERT_LOG(issued, "1:b0w0.0 1:b1w0.0 1:b2w0.0 2:b0w0.1 2:b2w0.1 3:b0w0.2");
	ASSERT_LOG(events, "1:done(0,1,1) 2:done(0,2,2) 3:done(0,0,0) 3:end(0)");
	finish(&rn);
}

/*
 * block_rr's rounds per tick (issue_sectors), reference format, blocks of
 * 3, 1, 2 and 2 lines.  Blocks 0 and 3 alone: one round a tick issues
 * 0 3 | 0 3 | 0 over three ticks; with 256 sectors a tick the rounds go on
 * until block 3 ends (a block's end ends the tick), so two ticks.  Blocks
 * 0, 1, 2 with block 3 refilling block 1's slot at the start of tick 2,
 * as a dynamic scheduler answers block 1's end in tick 1: the same lines
 * in the same ticks either way, 3 joining the round of tick 2.  Rounds
 * that went on past block 1's end would issue 0's last line before 3's
 * first.
 */
static void test_block_rr_rounds(void)
{
	static const char *const budget[] = { "issue_sectors = 0\n", "issue_sectors = 256\n" };
	static const char *const alone[] = {
		"1:b0w0.0 1:b3w0.0 2:b0w0.1 2:b3w0.1 3:b0w0.2",
		"1:b0w0.0 1:b3w0.0 1:b0w0.1 1:b3w0.1 2:b0w0.2",
	};
	struct sim_run rn;

	for (int i = 0; i < 2; i++) {
		use_kernel("ppt", 1, 1, 3);
		start(1, (const uint64_t[]){ 0, 3 }, (const uint32_t[]){ 0, 1 }, 2);
		last(0, 1);
		rn = run_ok(1, budget[i]);
		ASSERT_LOG(issued, alone[i]);
		finish(&rn);

		use_kernel("ppt", 1, 1, 3);
		start(1, (const uint64_t[]){ 0, 1, 2 }, (const uint32_t[]){ 0, 1, 2 }, 3);
		refill(2, 0, 1, 3);
		last(3, 1);
		rn = run_ok(1, budget[i]);
		ASSERT_LOG(issued, "1:b0w0.0 1:b1w0.0 1:b2w0.0 2:b0w0.1 2:b2w0.1 2:b3w0.0 "
			   "3:b0w0.2 3:b3w0.1");
		ASSERT_LOG(events, "1:done(0,1,1) 2:done(0,2,2) 3:done(0,0,0) 3:done(0,1,3) 3:end(0)");
		finish(&rn);
	}
}

/* The tick of the first request. */
static uint64_t first_request(void)
{
	for (guint i = 0; i < script.log->len; i++) {
		const struct entry *e = &g_array_index(script.log, struct entry, i);

		if (!e->done && e->r.hdr.kind != MEM_CONTROL)
			return e->tick;
	}
	return UINT64_MAX;
}

/*
 * Kernel 3 (grid 2): block 0 is not in the trace, an empty block, which
 * finishes as it arrives: no slot, no DONE.  Block 1 has 4 instructions,
 * all in warp 2.  Without LAST the kernel does not end, however idle the
 * SMs; with it, it ends when LAST comes.
 */
static void test_last(void)
{
	struct sim_run rn;

	use_kernel("accelsim", 3, 2, 1);
	start(2, (const uint64_t[]){ 1 }, (const uint32_t[]){ 0 }, 1);
	refill(3, 1, 0, 0);
	rn = run_ok(2, SUBCORE "subcore_lrr");
	ASSERT_LOG(events, "4:done(0,0,1)");
	/* the absent block reached SM 1 but is the scheduler's to count */
	g_assert_cmpuint(counter(&rn, "sm[1].blocks"), ==, 0);
	g_assert_cmpuint(counter(&rn, "sm[1].lines"), ==, 0);
	finish(&rn);

	/* SM 1, idle since tick 1, gets block 1 in tick 2 and issues then */
	use_kernel("accelsim", 3, 2, 1);
	start(2, NULL, NULL, 0);
	refill(2, 0, 0, 0);
	refill(2, 1, 0, 1);
	last(9, 2);
	rn = run_ok(2, SUBCORE "subcore_lrr");
	g_assert_cmpuint(first_request(), ==, 2);
	ASSERT_LOG(events, "5:done(1,0,1) 9:end(0) 9:end(1)");
	g_assert_cmpuint(counter(&rn, "sm[1].lines"), ==, 4);
	finish(&rn);
}

/* ---- classification: opcode table, generic windows, byte masks ----------------- */

/*
 * Kernel 2: shared base 0x7f1000000000, local base 0x7f0e00000000, one
 * warp; see tests/data/interleave/accelsim/kernel-2.traceg.
 */
static const char classify_want[] =
	/* LDG.E.64 by 32 lanes: 8 full sectors, ascending */
	"R G 7f2000000000 ffffffff\nR G 7f2000000020 ffffffff\n"
	"R G 7f2000000040 ffffffff\nR G 7f2000000060 ffffffff\n"
	"R G 7f2000000080 ffffffff\nR G 7f20000000a0 ffffffff\n"
	"R G 7f20000000c0 ffffffff\nR G 7f20000000e0 ffffffff\n"
	/* STG.E.U8 at byte 5 */
	"W G 7f2000001000 20\n"
	/* LDG.E.128, two lanes */
	"R G 7f2000002000 ffffffff\n"
	/* .STRONG.GPU bypasses the L1; .STRONG.SYS does not */
	"R G 7f2000003000 f0 bypass\n"
	"R G 7f2000003000 f00\n"
	/* ATOMG (two lanes, one word), RED, generic-base ATOM of 8 bytes */
	"A G 7f2000004000 f bypass\n"
	"D G 7f2000004020 f bypass\n"
	"A G 7f2000004040 ff00 bypass\n"
	/* LD.E in the shared window: dropped; ST.E.64 in the local window */
	"W L 7f0e00000040 ff\n"
	/* LD.E outside both, and just past the shared window's 96 KiB */
	"R G 7f2000005000 f\n"
	"R G 7f1000018000 f\n"
	/* (STS, masked-off LDS, SUST, LDC, masked-off LDG: no lines) */
	/* LDGSTS: Accel-Sim keeps only the global half anyway */
	"R G 7f2000007000 ffffffff\n"
	/* LDG.E.U16 at the last 2 bytes of a sector and the first 2 of the next */
	"R G 7f2000008000 c0000000\n"
	"R G 7f2000008020 3\n";

static void test_classify(void)
{
	struct sim_run rn;
	char *want_desc;

	use_kernel("accelsim", 2, 1, 1);
	start(1, (const uint64_t[]){ 0 }, (const uint32_t[]){ 0 }, 1);
	last(0, 1);
	rn = run_ok(1, SUBCORE "subcore_lrr\nldgsts_shared = drop");
	ASSERT_LOG(requests, classify_want);
	g_assert_cmpuint(counter(&rn, "sm.lines"), ==, 14);
	g_assert_cmpuint(counter(&rn, "sm.gmem_ld_reqs"), ==, 8);
	g_assert_cmpuint(counter(&rn, "sm.gmem_ld_sectors"), ==, 16);
	g_assert_cmpuint(counter(&rn, "sm.gmem_ld_trans"), ==, 9);
	g_assert_cmpuint(counter(&rn, "sm.gmem_st_reqs"), ==, 1);
	g_assert_cmpuint(counter(&rn, "sm.gmem_st_sectors"), ==, 1);
	g_assert_cmpuint(counter(&rn, "sm.lmem_st_reqs"), ==, 1);
	g_assert_cmpuint(counter(&rn, "sm.lmem_st_sectors"), ==, 1);
	g_assert_cmpuint(counter(&rn, "sm.lmem_ld_reqs"), ==, 0);
	g_assert_cmpuint(counter(&rn, "sm.umem_ld_sectors"), ==, 16);
	g_assert_cmpuint(counter(&rn, "sm.umem_st_sectors"), ==, 2);
	g_assert_cmpuint(counter(&rn, "sm.atom_reqs"), ==, 2);
	g_assert_cmpuint(counter(&rn, "sm.atom_sectors"), ==, 2);
	g_assert_cmpuint(counter(&rn, "sm.red_reqs"), ==, 1);
	g_assert_cmpuint(counter(&rn, "sm.red_sectors"), ==, 1);
	g_assert_cmpuint(counter(&rn, "sm.atom_red_trans"), ==, 3);
	g_assert_cmpuint(counter(&rn, "sm.bypassed_loads"), ==, 1);
	/* the generic LD.E in the window and the reader's STS */
	g_assert_cmpuint(counter(&rn, "sm.shared_insts"), ==, 2);
	/* the reader's SUST */
	g_assert_cmpuint(counter(&rn, "sm.dropped_insts"), ==, 1);
	g_assert_cmpuint(counter(&rn, "sm.ldgsts_unsplit"), ==, 0);
	finish(&rn);

	/* descending: the LDG.E.64's sectors the other way round */
	use_kernel("accelsim", 2, 1, 1);
	start(1, (const uint64_t[]){ 0 }, (const uint32_t[]){ 0 }, 1);
	last(0, 1);
	rn = run_ok(1, "classify = hw\nsector_order = descending\nissue = subcore_lrr");
	want_desc = requests();
	g_assert_true(g_str_has_prefix(want_desc, "R G 7f20000000e0 ffffffff\nR G 7f20000000c0 ffffffff\n"));
	g_assert_true(g_str_has_suffix(want_desc, "R G 7f2000008020 3\nR G 7f2000008000 c0000000\n"));
	g_free(want_desc);
	finish(&rn);
}

/*
 * Reference format under hw: the LDGSTS with 4 addresses loses its first
 * (shared) half, the one with 3 is kept whole and counted; an opcode of
 * no known space is dropped and counted, LDC and an address-less line are
 * nothing; STL keeps its traced address (no lanes to map); generic LD.E
 * is global without windows.
 */
static void test_ppt_hw(void)
{
	static const char *const want[] = {
		"R G 7f4000000000 ffffffff\n"
		"R G 7f3000000100 ffff\nR G 7f4000000100 ffffffff\n"
		"W L 0 ff0000\n"
		"R G 7f6000000000 f\n",
		"R G 7f3000000000 ffffffff\nR G 7f4000000000 ffffffff\n"
		"R G 7f3000000100 ffff\nR G 7f4000000100 ffffffff\n"
		"W L 0 ff0000\n"
		"R G 7f6000000000 f\n",
	};
	static const char *const params[] = {
		SUBCORE "subcore_lrr\nldgsts_shared = drop\nlocal_map = gpgpusim",
		SUBCORE "subcore_lrr",
	};

	for (int i = 0; i < 2; i++) {
		struct sim_run rn;

		use_kernel("ppt", 2, 1, 1);
		start(1, (const uint64_t[]){ 0 }, (const uint32_t[]){ 0 }, 1);
		last(0, 1);
		rn = run_ok(1, params[i]);
		ASSERT_LOG(requests, want[i]);
		g_assert_cmpuint(counter(&rn, "sm.ldgsts_unsplit"), ==, i == 0);
		g_assert_cmpuint(counter(&rn, "sm.dropped_insts"), ==, 1);
		g_assert_cmpuint(counter(&rn, "sm.lines"), ==, 7);
		g_assert_cmpuint(counter(&rn, "sm.gmem_ld_reqs"), ==, 3);
		finish(&rn);
	}
}

/*
 * Local addresses, GPGPU-Sim's interleaved layout: word i of a thread's
 * local memory at (off / 4 + i) * N * 4 + thread_base + 0x1f880000, N
 * the threads resident on the GPU at once.  Kernel 3: blocks of 128 threads
 * (nTpC = 128), block 1 in slot r = 1 of SM 3 of 80 with max_active 2,
 * warp 2, lane 5:
 *   tid = 1*128 + 2*32 + 5 = 197
 *   thread_base = 4 * (128 * (3 + 80 * (197 / 128)) + 197 % 128)
 *               = 4 * (128 * 83 + 69) = 42772 = 0xa714
 *   N * 4 = 128 * 2 * 80 * 4 = 81920 = 0x14000
 *   STL.64 at offset 0x10: words (4 + i) * 0x14000 + 0xa714 + 0x1f880000
 *     = 0x1f8da714 and 0x1f8ee714, 4 bytes at byte 20 of their sectors
 *   LDL.U8 at 0x13: 4 * 0x14000 + 3 + 0xa714 + 0x1f880000 = 0x1f8da717
 *   ST.E at local base + 0x20: offset 0x20, 8 * 0x14000 + ... = 0x1f92a714
 *   STL.128 by 32 lanes at 0x100: 4 words a lane, the lanes' words
 *     consecutive: 4 x 4 full sectors from 0x1fd8a700 (thread_base of
 *     lane 0 is 0xa700), 0x14000 apart
 */
static void test_local_map(void)
{
	struct sim_run rn;
	GString *want = g_string_new("W L 1f8da700 f00000\nW L 1f8ee700 f00000\n"
				     "R L 1f8da700 800000\n"
				     "W L 1f92a700 f00000\n");

	for (uint64_t i = 0; i < 4; i++)
		for (uint64_t s = 0; s < 4; s++)
			g_string_append_printf(want, "W L %" G_GINT64_MODIFIER "x ffffffff\n",
					       0x1fd8a700 + i * 0x14000 + s * 32);
	use_kernel("accelsim", 3, 80, 2);
	for (unsigned sm = 0; sm < 4; sm++)
		add(0, SS_PRIO_DELIVER, GPU_DISPATCH_BEGIN, sm, 0, 0);
	add(0, SS_PRIO_DELIVER, GPU_DISPATCH_BLOCK, 3, 1, 1);
	for (unsigned sm = 0; sm < 4; sm++)
		add(0, SS_PRIO_DELIVER, GPU_DISPATCH_GO, sm, 0, 0);
	last(0, 4);
	rn = run_ok(4, SUBCORE "subcore_lrr\nlocal_map = gpgpusim");
	ASSERT_LOG(requests, want->str);
	g_assert_cmpuint(counter(&rn, "sm[3].lmem_st_reqs"), ==, 3);
	g_assert_cmpuint(counter(&rn, "sm[3].lmem_st_sectors"), ==, 19);
	g_assert_cmpuint(counter(&rn, "sm[3].lmem_ld_reqs"), ==, 1);
	g_assert_cmpuint(counter(&rn, "sm[3].lmem_ld_sectors"), ==, 1);
	g_assert_cmpuint(counter(&rn, "sm[3].lmem_used"), ==, 1);
	g_assert_cmpuint(counter(&rn, "sm.lines"), ==, 4);
	finish(&rn);
	g_string_free(want, TRUE);

	/* local_map = none: the offsets as traced (the reference's aliasing) */
	use_kernel("accelsim", 3, 80, 2);
	start(1, (const uint64_t[]){ 1 }, (const uint32_t[]){ 1 }, 1);
	last(0, 1);
	rn = run_ok(1, SUBCORE "subcore_lrr");
	ASSERT_LOG(requests, "W L 0 ff0000\nR L 0 80000\nW L 7f0e00000020 f\nW L 100 ffff\n");
	finish(&rn);
}

/* ---- errors --------------------------------------------------------------------- */

static void expect_config_error(const char *params, const char *msg)
{
	GError *err = NULL;
	struct sim_run rn;

	use_kernel("accelsim", 1, 1, 1);
	rn = run_sms(1, params, &err);
	g_assert_error(err, SS_ERROR, SS_ERROR_CONFIG);
	g_assert_nonnull(strstr(err->message, msg));
	g_clear_error(&err);
	finish(&rn);
}

static void test_errors(void)
{
	GError *err = NULL;
	struct sim_run rn;

	expect_config_error("local_map = gpgpusim", "local_map = gpgpusim needs classify = hw");
	expect_config_error("ldgsts_shared = drop", "ldgsts_shared = drop needs classify = hw");
	expect_config_error("classify = hw\nsector_bytes = 64B",
			    "classify = hw needs sector_bytes = 32B");

	/* a second block for a slot still busy */
	use_kernel("accelsim", 1, 1, 2);
	start(1, (const uint64_t[]){ 1, 2 }, (const uint32_t[]){ 0, 0 }, 2);
	last(0, 1);
	rn = run_sms(1, SUBCORE "subcore_lrr", &err);
	g_assert_error(err, SS_ERROR, SS_ERROR_INTERNAL);
	g_assert_cmpstr(err->message, ==,
			"sm[0]: kernel 1 block 2 dispatched to slot 0, which block 1 still holds");
	g_clear_error(&err);
	finish(&rn);
}

/* Blocks a trace reader would never make: the run stops, naming them. */
static void test_bad_blocks(void)
{
	static const uint64_t addr[] = { 0x1000 };
	static const struct gpu_line no_warp[] = {
		{ .opcode = "LDG.E", .addr = addr, .n_addr = 1, .warp = GPU_WARP_UNKNOWN },
	};
	static const struct gpu_line warp9[] = {
		{ .opcode = "LDG.E", .addr = addr, .n_addr = 1, .warp = 9, .lanes = 1 },
	};
	static const struct gpu_block made[] = {
		{ .id = 2, .n_lines = 1, .lines = no_warp },
		{ .id = 2, .n_lines = 1, .lines = warp9 },
	};
	static const char *const msg[] = {
		"sm[0]: kernel 1 block 2: without warp ids, unlike the blocks before it",
		"sm[0]: kernel 1 block 2 line 0: warp 9 of a block of 8 warps",
	};

	for (int i = 0; i < 2; i++) {
		GError *err = NULL;
		struct sim_run rn;

		use_kernel("accelsim", 1, 1, 2);
		start(1, (const uint64_t[]){ 1, 2 }, (const uint32_t[]){ 0, 1 }, 2);
		g_array_index(script.actions, struct action, 2).made = &made[i];
		last(0, 1);
		rn = run_sms(1, SUBCORE "subcore_lrr", &err);
		g_assert_error(err, SS_ERROR, SS_ERROR_INTERNAL);
		g_assert_cmpstr(err->message, ==, msg[i]);
		g_clear_error(&err);
		finish(&rn);
	}
}

/*
 * A line holding pyset sectors (a native trace's, gpu_line.pyset_sectors)
 * is not coalesced again by an interleaver whose coalescing they are
 * (classify = ref, sector_order = pyset, 32-byte sectors, 128-byte
 * lines): its sectors go in the order they hold, here made backwards on
 * purpose.  Any other coalescing coalesces the line's addresses itself:
 * ascending order, or 64-byte lines (a line count of its own).
 */
static void test_pyset_sectors(void)
{
	static const uint64_t addr[] = { 0x1000, 0x1020, 0x1040, 0x1060 };
	static const int32_t backwards[] = { 3, 2, 1, 0 };
	static const struct gpu_line line[] = {
		{ .opcode = "LDG.E", .addr = addr, .n_addr = 4, .warp = 0, .lanes = 0xf,
		  .pyset_sectors = backwards, .n_pyset_sectors = 4, .pyset_lines = 1 },
	};
	static const struct gpu_block made = { .id = 2, .n_lines = 1, .lines = line };
	static const struct {
		const char *params;
		const char *want;
		uint64_t trans;		/* gmem_ld_trans: the lines counted */
	} cases[] = {
		{ "sector_order = pyset\n",
		  "R G 1060 ffffffff\nR G 1040 ffffffff\nR G 1020 ffffffff\nR G 1000 ffffffff\n", 1 },
		{ "sector_order = ascending\n",
		  "R G 1000 ffffffff\nR G 1020 ffffffff\nR G 1040 ffffffff\nR G 1060 ffffffff\n", 1 },
		{ "sector_order = pyset\nline_bytes = 64B\n", NULL, 2 },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct sim_run rn;

		use_kernel("accelsim", 1, 1, 2);
		start(1, (const uint64_t[]){ 2 }, (const uint32_t[]){ 0 }, 1);
		g_array_index(script.actions, struct action, 1).made = &made;
		last(0, 1);
		rn = run_ok(1, cases[i].params);
		if (cases[i].want) {
			ASSERT_LOG(requests, cases[i].want);
		} else {
			char *got = requests();

			/* four sectors, not the line's backwards order */
			g_assert_cmpuint(strlen(got), ==, strlen("R G 1000 ffffffff\n") * 4);
			g_assert_true(!g_str_has_prefix(got, "R G 1060 ffffffff\nR G 1040 ffffffff\n"));
			g_free(got);
		}
		g_assert_cmpuint(counter(&rn, "sm[0].gmem_ld_trans"), ==, cases[i].trans);
		finish(&rn);
	}
}

/*
 * A block handed out streamed (gpu_block.stream, as the native reader
 * does from version 5 on): its lines, from a table here, one at a time;
 * the line `fail_at` is damaged.
 */
struct test_stream_block {
	struct gpu_block b;
	const struct gpu_line *lines;
	uint32_t fail_at;	/* UINT32_MAX: none */
};

static void ts_open(const struct gpu_block *b, struct gpu_line_cursor *cur)
{
	*cur = (struct gpu_line_cursor){ .left = b->n_lines };
}

static bool ts_next(const struct gpu_block *b, struct gpu_line_cursor *cur,
		    struct gpu_line *l, struct gpu_line_room *room, GError **err)
{
	const struct test_stream_block *tb = (const struct test_stream_block *)b;
	uint32_t i = b->n_lines - cur->left;
	const struct gpu_line *src = &tb->lines[i];
	size_t n = src->step ? 1 : src->n_addr;

	g_assert_cmpuint(cur->left, >, 0);
	if (i == tb->fail_at)
		return ss_set_error(err, SS_ERROR_INPUT, "t.sst: block %" G_GUINT64_FORMAT
				    " line %u: damaged", b->id, i);
	cur->left--;
	/* into the room, as a reader decodes: the source's storage unseen */
	gpu_line_room_reserve(room, n);
	memcpy(room->addr, src->addr, n * sizeof(*room->addr));
	*l = *src;
	l->addr = room->addr;
	return true;
}

static const struct gpu_block_stream test_stream = { .open = ts_open, .next = ts_next };

/*
 * Streamed blocks issue exactly as the same blocks holding their lines,
 * under block_rr (read line by line) and sub-core issue (gathered into
 * the slot); a damaged line stops the run with the reader's message, as
 * an input error.
 */
static void test_streamed_blocks(void)
{
	static const uint64_t a0[] = { 0x1000, 0x1020, 0x2000 }, a1[] = { 0x4000 };
	static const struct gpu_line lines[] = {
		{ .opcode = "LDG.E", .addr = a0, .n_addr = 3, .warp = 0, .lanes = 7 },
		{ .opcode = "STG.E", .addr = a1, .n_addr = 2, .warp = 1, .lanes = 3, .step = 64 },
		{ .opcode = "LDG.E", .addr = a0 + 1, .n_addr = 2, .warp = 0, .lanes = 3 },
	};
	static const struct gpu_block whole = { .id = 2, .n_lines = 3, .lines = lines };
	struct test_stream_block streamed = {
		.b = { .id = 2, .n_lines = 3, .stream = &test_stream },
		.lines = lines, .fail_at = UINT32_MAX,
	};
	static const char *const params[] = {
		"classify = ref\n", SUBCORE "subcore_lrr", SUBCORE "subcore_gto",
	};

	for (size_t i = 0; i < G_N_ELEMENTS(params); i++) {
		char *want[2];
		struct sim_run rn;

		for (int k = 0; k < 2; k++) {
			use_kernel("accelsim", 1, 1, 2);
			start(1, (const uint64_t[]){ 2 }, (const uint32_t[]){ 0 }, 1);
			g_array_index(script.actions, struct action, 1).made =
				k ? &streamed.b : &whole;
			last(0, 1);
			rn = run_ok(1, params[i]);
			want[k] = requests();
			g_assert_cmpuint(strlen(want[k]), >, 0);
			finish(&rn);
		}
		g_assert_cmpstr(want[1], ==, want[0]);
		g_free(want[0]);
		g_free(want[1]);

		GError *err = NULL;

		streamed.fail_at = 1;
		use_kernel("accelsim", 1, 1, 2);
		start(1, (const uint64_t[]){ 2 }, (const uint32_t[]){ 0 }, 1);
		g_array_index(script.actions, struct action, 1).made = &streamed.b;
		last(0, 1);
		rn = run_sms(1, params[i], &err);
		g_assert_error(err, SS_ERROR, SS_ERROR_INPUT);
		g_assert_cmpstr(err->message, ==, "t.sst: block 2 line 1: damaged");
		g_clear_error(&err);
		finish(&rn);
		streamed.fail_at = UINT32_MAX;
	}
}

int main(int argc, char **argv)
{
	int status;

	g_test_init(&argc, &argv, NULL);
	tmpdir = g_dir_make_tmp("test-interleave-XXXXXX", NULL);
	g_assert_nonnull(tmpdir);
	g_test_add_func("/interleave/issue/lrr", test_lrr);
	g_test_add_func("/interleave/issue/gto", test_gto);
	g_test_add_func("/interleave/issue/dispatch", test_dispatch);
	g_test_add_func("/interleave/issue/unknown-warps", test_unknown_warps);
	g_test_add_func("/interleave/issue/block-rr-rounds", test_block_rr_rounds);
	g_test_add_func("/interleave/issue/last", test_last);
	g_test_add_func("/interleave/classify/accelsim", test_classify);
	g_test_add_func("/interleave/classify/ppt", test_ppt_hw);
	g_test_add_func("/interleave/classify/local-map", test_local_map);
	g_test_add_func("/interleave/errors", test_errors);
	g_test_add_func("/interleave/bad-blocks", test_bad_blocks);
	g_test_add_func("/interleave/pyset-sectors", test_pyset_sectors);
	g_test_add_func("/interleave/streamed-blocks", test_streamed_blocks);
	status = g_test_run();
	g_rmdir(tmpdir);
	g_free(tmpdir);
	return status;
}
