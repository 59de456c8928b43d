/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The real block_scheduler, fed by the real trace_source from
 * tests/data/dispatch (its README lists the kernels), drives SMs that this
 * test registers itself: a fake SM issues one line a tick, loose
 * round-robin over its block slots (as the real one does when the trace
 * has no warp ids), reports a block done in the tick its last line issues,
 * and writes everything it receives and issues to a journal.  The journals
 * below are derived by hand from the dynamic dispatch rules (first fill
 * slot by slot across the SMs; a slot freed in a tick refilled at the
 * start of the next, SMs ascending, then slots ascending, or under
 * policy = batch once all of its SM's slots are free; an empty block
 * finished at dispatch); ticks count from the kernel's begin.
 */
#include "config.h"

#include <stdarg.h>
#include <string.h>
#include <glib/gstdio.h>
#include <sectorsim/sectorsim.h>
#include <sectorsim/protocols/gpu.h>
#include "internal.h"
#include "simrun.h"

/* What the fakes saw, one line per event; one run at a time. */
static GString *journal;

static void note(uint64_t tick, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static void note(uint64_t tick, const char *fmt, ...)
{
	va_list ap;

	g_string_append_printf(journal, "%" G_GUINT64_FORMAT " ", tick);
	va_start(ap, fmt);
	g_string_append_vprintf(journal, fmt, ap);
	va_end(ap);
	g_string_append_c(journal, '\n');
}

/* ---- fake_sm: one SM, warps unknown -------------------------------------- */

static const struct ss_param_desc sm_params[] = {
	{ "done_slot_offset", SS_P_UINT, "0", "report slot + this on done (a faulty SM)", NULL, 0, 0, 0 },
	{ "reverse", SS_P_BOOL, "false", "issue the SMs in descending index within a tick, so that done arrives from the higher SM first", NULL, 0, 0, 0 },
	{ NULL, 0, NULL, NULL, NULL, 0, 0, 0 },
};

static const struct ss_port_desc sm_ports[] = {
	{ "tb_in", SS_PORT_IN, GPU_DISPATCH_PROTOCOL, false, true, "from the block scheduler" },
	{ "done", SS_PORT_OUT, GPU_DISPATCH_PROTOCOL, false, false, "blocks done, to the block scheduler" },
	{ "end", SS_PORT_OUT, GPU_KERNEL_PROTOCOL, false, true, "the SM has ended the kernel" },
	{ NULL, 0, NULL, false, false, NULL },
};

struct fake_slot {
	const struct gpu_block *block;	/* NULL: free */
	uint32_t next;			/* its next line */
};

struct fake_sm {
	struct ss_component c;
	struct ss_port *done, *end;
	uint32_t done_slot_offset;
	int16_t prio;			/* of its issue */
	const struct gpu_kernel *kernel;
	uint64_t begin;			/* the tick of the kernel's begin */
	GArray *slots;			/* struct fake_slot */
	uint32_t last_slot;		/* issued last (loose round-robin) */
	uint32_t resident;
	bool dynamic;			/* the kernel's blocks come as slots free up */
	bool go, last, issue_queued;
};

static int sm_create(struct ss_component *c, const struct ss_params *p,
		     GError **err)
{
	struct fake_sm *f = SS_COMPONENT(c, struct fake_sm, c);

	f->done = ss_component_port(c, "done", 0);
	f->end = ss_component_port(c, "end", 0);
	f->done_slot_offset = ss_param_uint(p, "done_slot_offset");
	f->prio = SS_PRIO_ISSUE + (ss_param_bool(p, "reverse") ? c->array_size - 1 - c->index
							      : (unsigned)c->index);
	f->slots = g_array_new(FALSE, TRUE, sizeof(struct fake_slot));
	return 0;
}

static uint64_t sm_tick(struct fake_sm *f)
{
	return ss_engine_now(f->c.engine) - f->begin;
}

static void sm_end(struct fake_sm *f)
{
	struct gpu_kernel_msg m = {
		.hdr = { sizeof(m), GPU_KERNEL_DONE }, .kernel = f->kernel,
	};

	note(sm_tick(f), "%s end", f->c.name);
	f->kernel = NULL;
	ss_port_send(f->end, &m.hdr);
}

static void sm_issue(struct ss_engine *e, void *data);

static void queue_issue(struct fake_sm *f, uint64_t when)
{
	if (f->issue_queued)
		return;
	f->issue_queued = true;
	ss_schedule(f->c.engine, when, f->prio, sm_issue, f);
}

/* One line of the first slot after the one issued last that holds a block. */
static void sm_issue(struct ss_engine *e, void *data)
{
	struct fake_sm *f = data;
	uint32_t n = f->slots->len, r = 0;
	struct fake_slot *s = NULL;

	f->issue_queued = false;
	for (uint32_t i = 1; i <= n && !s; i++) {
		r = (f->last_slot + i) % n;
		s = &g_array_index(f->slots, struct fake_slot, r);
		if (!s->block)
			s = NULL;
	}
	g_assert_nonnull(s);
	f->last_slot = r;
	if (++s->next < s->block->n_lines) {
		note(sm_tick(f), "%s slot%u b%" G_GUINT64_FORMAT " line%u", f->c.name,
		     r, s->block->id, s->next - 1);
	} else {
		struct gpu_dispatch_msg d = {
			.hdr = { sizeof(d), GPU_DISPATCH_DONE }, .kernel = f->kernel,
			.block = s->block, .slot = r + f->done_slot_offset,
			.sm = f->c.index,
		};

		note(sm_tick(f), "%s slot%u b%" G_GUINT64_FORMAT " line%u done", f->c.name,
		     r, s->block->id, s->next - 1);
		s->block = NULL;
		f->resident--;
		if (ss_port_is_bound(f->done))
			ss_port_send(f->done, &d.hdr);
	}
	if (f->resident)
		queue_issue(f, ss_engine_now(e) + 1);
	else if (f->last)
		sm_end(f);
}

static void sm_recv(struct ss_component *c, struct ss_port *in,
		    const struct ss_msg *m)
{
	struct fake_sm *f = SS_COMPONENT(c, struct fake_sm, c);
	const struct gpu_dispatch_msg *d = (const struct gpu_dispatch_msg *)m;
	struct fake_slot *s;

	switch (m->kind) {
	case GPU_DISPATCH_BEGIN:
		g_assert_null(f->kernel);
		g_assert_false(f->issue_queued);
		f->kernel = d->kernel;
		f->begin = ss_engine_now(c->engine);
		g_array_set_size(f->slots, 0);
		g_array_set_size(f->slots, d->occ->max_active);
		f->last_slot = d->occ->max_active ? d->occ->max_active - 1 : 0;
		f->resident = 0;
		f->dynamic = d->occ->dynamic;
		f->go = f->last = false;
		note(sm_tick(f), "%s begin k%u", c->name, d->kernel->id);
		break;
	case GPU_DISPATCH_BLOCK:
		g_assert_true(d->kernel == f->kernel);
		g_assert_cmpuint(d->sm, ==, c->index);
		g_assert_false(f->last);
		/* first_wave with granularity avg can give more blocks than slots */
		if (d->slot >= f->slots->len)
			g_array_set_size(f->slots, d->slot + 1);
		s = &g_array_index(f->slots, struct fake_slot, d->slot);
		g_assert_null(s->block);
		/* an empty block is done as it comes: it takes no turn (and
		 * under dynamic dispatch its slot takes the next block) */
		if (!d->block->n_lines) {
			note(sm_tick(f), "%s <- b%" G_GUINT64_FORMAT " slot%u empty",
			     c->name, d->block->id, d->slot);
			break;
		}
		*s = (struct fake_slot){ d->block, 0 };
		f->resident++;
		note(sm_tick(f), "%s <- b%" G_GUINT64_FORMAT " slot%u", c->name,
		     d->block->id, d->slot);
		/* a refill comes at the start of a tick: issue in it */
		if (f->go)
			queue_issue(f, ss_engine_now(c->engine));
		break;
	case GPU_DISPATCH_GO:
		f->go = true;
		note(sm_tick(f), "%s go", c->name);
		if (f->resident)
			queue_issue(f, ss_engine_now(c->engine) + 1);
		break;
	case GPU_DISPATCH_LAST:
		g_assert_true(f->go);
		f->last = true;
		note(sm_tick(f), "%s last", c->name);
		if (!f->resident)
			sm_end(f);
		break;
	default:
		g_error("%s: dispatch message %u", c->name, m->kind);
	}
}

static void sm_destroy(struct ss_component *c)
{
	g_array_free(SS_COMPONENT(c, struct fake_sm, c)->slots, TRUE);
}

static const struct ss_component_ops sm_ops = {
	.xcreate = sm_create,
	.xrecv = sm_recv,
	.xdestroy = sm_destroy,
};

static const struct ss_component_type fake_sm_type = {
	.abi_version = SS_ABI_VERSION,
	.name = "fake_sm",
	.summary = "Test: an SM issuing one line a tick, loose round-robin over its block slots",
	.params = sm_params,
	.ports = sm_ports,
	.ops = &sm_ops,
	.instance_size = sizeof(struct fake_sm),
};

/* ---- fake_join: the plan, and the kernel's end once every SM has ended ---- */

static const struct ss_port_desc join_ports[] = {
	{ "plan", SS_PORT_IN, GPU_KERNEL_PROTOCOL, false, true, "the scheduler's plan" },
	{ "ends", SS_PORT_IN, GPU_KERNEL_PROTOCOL, true, true, "one per SM" },
	{ "done", SS_PORT_OUT, GPU_KERNEL_PROTOCOL, false, true, "to the trace source" },
	{ NULL, 0, NULL, false, false, NULL },
};

struct fake_join {
	struct ss_component c;
	struct ss_port *done;
	unsigned n_sms, ended;
	uint64_t begin;
};

static int join_create(struct ss_component *c, const struct ss_params *p,
		       GError **err)
{
	struct fake_join *j = SS_COMPONENT(c, struct fake_join, c);

	j->done = ss_component_port(c, "done", 0);
	j->n_sms = ss_component_port_count(c, "ends");
	return 0;
}

static void join_recv(struct ss_component *c, struct ss_port *in,
		      const struct ss_msg *m)
{
	struct fake_join *j = SS_COMPONENT(c, struct fake_join, c);
	const struct gpu_kernel_msg *km = (const struct gpu_kernel_msg *)m;
	const struct gpu_occupancy *o = km->occ;
	char label[32];

	if (m->kind == GPU_KERNEL_PLANNED) {
		j->begin = ss_engine_now(c->engine);
		j->ended = 0;
		if (!o) {
			note(0, "plan k%u skipped", km->kernel->id);
			return;
		}
		g_assert_true(o->dynamic || o->scale >= 1.0);
		note(0, "plan k%u max_active %u active_sms %u sms %u carveout %" G_GUINT64_FORMAT " l1 %" G_GUINT64_FORMAT " sim %u avg %u scale %g %s",
		     km->kernel->id, o->max_active, o->active_sms, o->num_sms,
		     o->carveout_bytes, o->l1_bytes, o->sim_blocks, o->avg_blocks,
		     o->scale, o->dynamic ? "dynamic" : "first_wave");
		return;
	}
	g_assert_cmpuint(m->kind, ==, GPU_KERNEL_DONE);
	if (++j->ended < j->n_sms)
		return;
	note(ss_engine_now(c->engine) - j->begin, "join k%u done", km->kernel->id);
	g_snprintf(label, sizeof(label), "k%u", km->kernel->id);
	ss_stats_end_phase(c->engine, label);
	ss_port_send(j->done, m);
}

static const struct ss_component_ops join_ops = {
	.xcreate = join_create,
	.xrecv = join_recv,
};

static const struct ss_component_type fake_join_type = {
	.abi_version = SS_ABI_VERSION,
	.name = "fake_join",
	.summary = "Test: logs the plan, ends the kernel once every SM has",
	.ports = join_ports,
	.ops = &join_ops,
	.instance_size = sizeof(struct fake_join),
};

/* ---- running a configuration ------------------------------------------------ */

static char *tmpdir;

static const struct ss_component_type *const test_types[] = {
	&fake_sm_type, &fake_join_type, NULL,
};

/*
 * Two fake SMs wired to the scheduler (`sched` is its section body), the
 * trace of tests/data/dispatch limited to `kernels`; `links` are extra
 * [link] sections (done, usually).
 */
static struct sim_run run_config(const char *kernels, const char *sched,
				 const char *sm, const char *links,
				 const char *const *overrides)
{
	char *data = g_test_build_filename(G_TEST_DIST, "data", "dispatch", NULL);
	struct sim_run rn;
	char *ini = g_strdup_printf(
		"[component trace]\ntype = trace_source\npath = %s\nkernels = %s\n"
		"[component sched]\ntype = block_scheduler\nunified_bytes = 128KiB\n"
		"carveouts = 0,8,16,32,64,96\n%s"
		"[component sm]\ntype = fake_sm\ncount = 2\n%s"
		"[component join]\ntype = fake_join\n"
		"[link trace_sched]\nfrom = trace.kernels\nto = sched.kernels\n"
		"[link sched_sm]\nfrom = sched.dispatch[*]\nto = sm[*].tb_in\n"
		"[link sched_join]\nfrom = sched.plan\nto = join.plan\n"
		"[link sm_join]\nfrom = sm[*].end\nto = join.ends[*]\n"
		"[link join_trace]\nfrom = join.done\nto = trace.done\n%s",
		data, kernels, sched, sm, links);
	g_string_truncate(journal, 0);
	rn = sim_run(tmpdir, ini, test_types, overrides, true);
	if (rn.load_error)
		g_error("%s", rn.load_error);
	g_free(ini);
	g_free(data);
	return rn;
}

#define DYNAMIC "policy = dynamic\ncarveout_rule = eq7\n"
#define DONE_LINK "[link sm_sched]\nfrom = sm[*].done\nto = sched.done[*]\n"

static struct sim_run run_dynamic(const char *kernels)
{
	struct sim_run rn = run_config(kernels, DYNAMIC, "", DONE_LINK, NULL);

	if (rn.err)
		g_error("%s", rn.err->message);
	return rn;
}

/* The journal against `want`, naming the first line that differs. */
static void check_journal(const char *want)
{
	char **got_lines = g_strsplit(journal->str, "\n", -1);
	char **want_lines = g_strsplit(want, "\n", -1);
	guint i;

	for (i = 0; got_lines[i] && want_lines[i]; i++)
		if (strcmp(got_lines[i], want_lines[i]))
			break;
	if (got_lines[i] || want_lines[i])
		g_error("journal line %u: got '%s', want '%s'\n--- whole journal:\n%s",
			i + 1, got_lines[i] ? got_lines[i] : "(end)",
			want_lines[i] ? want_lines[i] : "(end)", journal->str);
	g_strfreev(got_lines);
	g_strfreev(want_lines);
}

/* Statistic `name` of the scheduler in phase (kernel) `phase`. */
static uint64_t sched_stat(struct sim_run *rn, unsigned phase, const char *name)
{
	char *full = g_strconcat("sched.", name, NULL);
	double v;

	if (!ss_stats_lookup_phase(ss_sim_engine(rn->sim), phase, full, &v))
		g_error("no statistic %s in phase %u", full, phase);
	g_free(full);
	return (uint64_t)v;
}

struct sched_counts {
	uint64_t kernels, skipped, blocks, empty, done, refills, refill_blocks;
};

static void check_counts(struct sim_run *rn, unsigned phase, struct sched_counts want)
{
	g_assert_cmpuint(sched_stat(rn, phase, "kernels"), ==, want.kernels);
	g_assert_cmpuint(sched_stat(rn, phase, "kernels_skipped"), ==, want.skipped);
	g_assert_cmpuint(sched_stat(rn, phase, "blocks"), ==, want.blocks);
	g_assert_cmpuint(sched_stat(rn, phase, "empty_blocks"), ==, want.empty);
	g_assert_cmpuint(sched_stat(rn, phase, "blocks_done"), ==, want.done);
	g_assert_cmpuint(sched_stat(rn, phase, "refills"), ==, want.refills);
	g_assert_cmpuint(sched_stat(rn, phase, "refill_blocks"), ==, want.refill_blocks);
}

/* ---- the expected journals ---------------------------------------------------- */

/*
 * Kernel 1: 2 SMs x 2 slots, block lengths 3 1 4 1 5 0 9 2 6 5.
 * The first fill is b0 -> SM0 slot 0, b1 -> SM1 slot 0, b2 -> SM0 slot 1,
 * b3 -> SM1 slot 1.  b1 ends in tick 1, so b4 takes its slot at the start
 * of tick 2; b3 ends in tick 2, and at tick 3 b5, empty, finishes on
 * dispatch and b6 takes the slot in the same refill.  b9 is the last
 * block (tick 10): both SMs are told, and each ends once its blocks have.
 */
static const char k1_dynamic[] =
	"0 plan k1 max_active 2 active_sms 2 sms 2 carveout 0 l1 131072 sim 5 avg 5 scale 1 dynamic\n"
	"0 sm[0] begin k1\n"
	"0 sm[1] begin k1\n"
	"0 sm[0] <- b0 slot0\n"
	"0 sm[1] <- b1 slot0\n"
	"0 sm[0] <- b2 slot1\n"
	"0 sm[1] <- b3 slot1\n"
	"0 sm[0] go\n"
	"0 sm[1] go\n"
	"1 sm[0] slot0 b0 line0\n"
	"1 sm[1] slot0 b1 line0 done\n"
	"2 sm[1] <- b4 slot0\n"
	"2 sm[0] slot1 b2 line0\n"
	"2 sm[1] slot1 b3 line0 done\n"
	"3 sm[1] <- b5 slot1 empty\n"
	"3 sm[1] <- b6 slot1\n"
	"3 sm[0] slot0 b0 line1\n"
	"3 sm[1] slot0 b4 line0\n"
	"4 sm[0] slot1 b2 line1\n"
	"4 sm[1] slot1 b6 line0\n"
	"5 sm[0] slot0 b0 line2 done\n"
	"5 sm[1] slot0 b4 line1\n"
	"6 sm[0] <- b7 slot0\n"
	"6 sm[0] slot1 b2 line2\n"
	"6 sm[1] slot1 b6 line1\n"
	"7 sm[0] slot0 b7 line0\n"
	"7 sm[1] slot0 b4 line2\n"
	"8 sm[0] slot1 b2 line3 done\n"
	"8 sm[1] slot1 b6 line2\n"
	"9 sm[0] <- b8 slot1\n"
	"9 sm[0] slot0 b7 line1 done\n"
	"9 sm[1] slot0 b4 line3\n"
	"10 sm[0] <- b9 slot0\n"
	"10 sm[0] last\n"
	"10 sm[1] last\n"
	"10 sm[0] slot1 b8 line0\n"
	"10 sm[1] slot1 b6 line3\n"
	"11 sm[0] slot0 b9 line0\n"
	"11 sm[1] slot0 b4 line4 done\n"
	"12 sm[0] slot1 b8 line1\n"
	"12 sm[1] slot1 b6 line4\n"
	"13 sm[0] slot0 b9 line1\n"
	"13 sm[1] slot1 b6 line5\n"
	"14 sm[0] slot1 b8 line2\n"
	"14 sm[1] slot1 b6 line6\n"
	"15 sm[0] slot0 b9 line2\n"
	"15 sm[1] slot1 b6 line7\n"
	"16 sm[0] slot1 b8 line3\n"
	"16 sm[1] slot1 b6 line8 done\n"
	"16 sm[1] end\n"
	"17 sm[0] slot0 b9 line3\n"
	"18 sm[0] slot1 b8 line4\n"
	"19 sm[0] slot0 b9 line4 done\n"
	"20 sm[0] slot1 b8 line5 done\n"
	"20 sm[0] end\n"
	"20 join k1 done\n";

/* refills at the start of ticks 2, 3, 6, 9, 10: b4, b5 + b6, b7, b8, b9 */
static const struct sched_counts k1_counts = { 1, 0, 10, 1, 9, 5, 6 };

/*
 * Kernel 2: 64 KiB of shared memory a block, so one slot per SM (eq7:
 * 96 KiB holds one, so does 64 KiB, which leaves a 64 KiB L1).  Lengths
 * 2 2 0 3: both SMs free their slot in tick 2; at tick 3 the lower SM
 * goes first, takes b2 (empty, done at once) and b3, and nothing is left
 * for SM 1, which ends on "last".
 */
static const char k2_dynamic[] =
	"0 plan k2 max_active 1 active_sms 2 sms 2 carveout 65536 l1 65536 sim 2 avg 2 scale 1 dynamic\n"
	"0 sm[0] begin k2\n"
	"0 sm[1] begin k2\n"
	"0 sm[0] <- b0 slot0\n"
	"0 sm[1] <- b1 slot0\n"
	"0 sm[0] go\n"
	"0 sm[1] go\n"
	"1 sm[0] slot0 b0 line0\n"
	"1 sm[1] slot0 b1 line0\n"
	"2 sm[0] slot0 b0 line1 done\n"
	"2 sm[1] slot0 b1 line1 done\n"
	"3 sm[0] <- b2 slot0 empty\n"
	"3 sm[0] <- b3 slot0\n"
	"3 sm[0] last\n"
	"3 sm[1] last\n"
	"3 sm[1] end\n"
	"3 sm[0] slot0 b3 line0\n"
	"4 sm[0] slot0 b3 line1\n"
	"5 sm[0] slot0 b3 line2 done\n"
	"5 sm[0] end\n"
	"5 join k2 done\n";

static const struct sched_counts k2_counts = { 1, 0, 4, 1, 3, 1, 2 };

/*
 * Kernel 3: lengths 0 2 0, the grid fits the first fill.  SM 0's slot 0
 * takes b0 (empty) and then b1; SM 1's slot 0 takes b2 (empty) and the
 * grid is used up: one SM runs a block, both are told "last" right after
 * "go", and SM 1 ends at once.
 */
static const char k3_dynamic[] =
	"0 plan k3 max_active 2 active_sms 1 sms 2 carveout 0 l1 131072 sim 2 avg 2 scale 1 dynamic\n"
	"0 sm[0] begin k3\n"
	"0 sm[1] begin k3\n"
	"0 sm[0] <- b0 slot0 empty\n"
	"0 sm[0] <- b1 slot0\n"
	"0 sm[1] <- b2 slot0 empty\n"
	"0 sm[0] go\n"
	"0 sm[1] go\n"
	"0 sm[0] last\n"
	"0 sm[1] last\n"
	"0 sm[1] end\n"
	"1 sm[0] slot0 b1 line0\n"
	"2 sm[0] slot0 b1 line1 done\n"
	"2 sm[0] end\n"
	"2 join k3 done\n";

static const struct sched_counts k3_counts = { 1, 0, 3, 2, 1, 0, 0 };

/* Kernel 4: 100000 B of shared memory, more than the 96 KiB carveout. */
static const char k4_skipped[] =
	"0 plan k4 skipped\n"
	"0 sm[0] begin k4\n"
	"0 sm[0] go\n"
	"0 sm[0] last\n"
	"0 sm[0] end\n"
	"0 sm[1] begin k4\n"
	"0 sm[1] go\n"
	"0 sm[1] last\n"
	"0 sm[1] end\n"
	"0 join k4 done\n";

static const struct sched_counts k4_counts = { 1, 1, 0, 0, 0, 0, 0 };

/*
 * Kernel 1 under policy = batch: an SM takes new blocks only once both
 * its slots are free, at the start of the next tick.  SM1's b1 and b3 end
 * in ticks 1 and 2, so at tick 3 it takes b4, b5 (empty, done at once)
 * and b6; SM0's b0 ends in tick 5 but b2 only in tick 7, so b7 and b8
 * come at tick 8; they end in ticks 10 and 15, and b9, the last block,
 * comes at tick 16, while SM1 still runs b6.
 */
static const char k1_batch[] =
	"0 plan k1 max_active 2 active_sms 2 sms 2 carveout 0 l1 131072 sim 5 avg 5 scale 1 dynamic\n"
	"0 sm[0] begin k1\n"
	"0 sm[1] begin k1\n"
	"0 sm[0] <- b0 slot0\n"
	"0 sm[1] <- b1 slot0\n"
	"0 sm[0] <- b2 slot1\n"
	"0 sm[1] <- b3 slot1\n"
	"0 sm[0] go\n"
	"0 sm[1] go\n"
	"1 sm[0] slot0 b0 line0\n"
	"1 sm[1] slot0 b1 line0 done\n"
	"2 sm[0] slot1 b2 line0\n"
	"2 sm[1] slot1 b3 line0 done\n"
	"3 sm[1] <- b4 slot0\n"
	"3 sm[1] <- b5 slot1 empty\n"
	"3 sm[1] <- b6 slot1\n"
	"3 sm[0] slot0 b0 line1\n"
	"3 sm[1] slot0 b4 line0\n"
	"4 sm[0] slot1 b2 line1\n"
	"4 sm[1] slot1 b6 line0\n"
	"5 sm[0] slot0 b0 line2 done\n"
	"5 sm[1] slot0 b4 line1\n"
	"6 sm[0] slot1 b2 line2\n"
	"6 sm[1] slot1 b6 line1\n"
	"7 sm[0] slot1 b2 line3 done\n"
	"7 sm[1] slot0 b4 line2\n"
	"8 sm[0] <- b7 slot0\n"
	"8 sm[0] <- b8 slot1\n"
	"8 sm[0] slot0 b7 line0\n"
	"8 sm[1] slot1 b6 line2\n"
	"9 sm[0] slot1 b8 line0\n"
	"9 sm[1] slot0 b4 line3\n"
	"10 sm[0] slot0 b7 line1 done\n"
	"10 sm[1] slot1 b6 line3\n"
	"11 sm[0] slot1 b8 line1\n"
	"11 sm[1] slot0 b4 line4 done\n"
	"12 sm[0] slot1 b8 line2\n"
	"12 sm[1] slot1 b6 line4\n"
	"13 sm[0] slot1 b8 line3\n"
	"13 sm[1] slot1 b6 line5\n"
	"14 sm[0] slot1 b8 line4\n"
	"14 sm[1] slot1 b6 line6\n"
	"15 sm[0] slot1 b8 line5 done\n"
	"15 sm[1] slot1 b6 line7\n"
	"16 sm[0] <- b9 slot0\n"
	"16 sm[0] last\n"
	"16 sm[1] last\n"
	"16 sm[0] slot0 b9 line0\n"
	"16 sm[1] slot1 b6 line8 done\n"
	"16 sm[1] end\n"
	"17 sm[0] slot0 b9 line1\n"
	"18 sm[0] slot0 b9 line2\n"
	"19 sm[0] slot0 b9 line3\n"
	"20 sm[0] slot0 b9 line4 done\n"
	"20 sm[0] end\n"
	"20 join k1 done\n";

/* refills at the start of ticks 3, 8, 16: b4 + b5 + b6, b7 + b8, b9 */
static const struct sched_counts k1_batch_counts = { 1, 0, 10, 1, 9, 3, 6 };

static void test_batch_waves(void)
{
	struct sim_run rn = run_config("1", "policy = batch\ncarveout_rule = eq7\n", "", DONE_LINK, NULL);

	if (rn.err)
		g_error("%s", rn.err->message);
	check_journal(k1_batch);
	check_counts(&rn, 0, k1_batch_counts);
	sim_run_free(&rn);
}

/* ---- dynamic dispatch ------------------------------------------------------------ */

static void test_dynamic_waves(void)
{
	struct sim_run rn = run_dynamic("1");

	check_journal(k1_dynamic);
	check_counts(&rn, 0, k1_counts);
	sim_run_free(&rn);
}

static void test_dynamic_tie(void)
{
	struct sim_run rn = run_dynamic("2");

	check_journal(k2_dynamic);
	check_counts(&rn, 0, k2_counts);
	sim_run_free(&rn);
}

/*
 * The same with SM 1 issuing before SM 0 in each tick: its done arrives
 * first, but the lower SM still gets the next block.
 */
static void test_dynamic_tie_reversed(void)
{
	struct sim_run rn = run_config("2", DYNAMIC, "reverse = true\n", DONE_LINK, NULL);
	char **lines = g_strsplit(k2_dynamic, "\n", -1);
	char *tmp;

	if (rn.err)
		g_error("%s", rn.err->message);
	/* lines 8-11: ticks 1 and 2, SM 1 before SM 0 */
	g_assert_true(g_str_has_prefix(lines[7], "1 sm[0]"));
	tmp = lines[7], lines[7] = lines[8], lines[8] = tmp;
	g_assert_true(g_str_has_prefix(lines[9], "2 sm[0]"));
	tmp = lines[9], lines[9] = lines[10], lines[10] = tmp;
	tmp = g_strjoinv("\n", lines);
	check_journal(tmp);
	check_counts(&rn, 0, k2_counts);
	g_free(tmp);
	g_strfreev(lines);
	sim_run_free(&rn);
}

static void test_dynamic_first_fill(void)
{
	struct sim_run rn = run_dynamic("3");

	check_journal(k3_dynamic);
	check_counts(&rn, 0, k3_counts);
	sim_run_free(&rn);
}

static void test_dynamic_skipped(void)
{
	struct sim_run rn = run_dynamic("4");

	check_journal(k4_skipped);
	check_counts(&rn, 0, k4_counts);
	sim_run_free(&rn);
}

/* Nothing of one kernel's dispatch leaks into the next. */
static void test_dynamic_kernels_in_a_row(void)
{
	struct sim_run rn = run_dynamic("1,2,3,4");
	char *want = g_strconcat(k1_dynamic, k2_dynamic, k3_dynamic, k4_skipped, NULL);

	check_journal(want);
	g_assert_cmpuint(ss_stats_n_phases(ss_sim_engine(rn.sim)), ==, 4);
	check_counts(&rn, 0, k1_counts);
	check_counts(&rn, 1, k2_counts);
	check_counts(&rn, 2, k3_counts);
	check_counts(&rn, 3, k4_counts);
	g_free(want);
	sim_run_free(&rn);
}

/*
 * Kernel 5 is kernel 1 with block 9 malformed.  Blocks are loaded a batch
 * of 4 (one per slot) at a time, so the error surfaces only when b8 is
 * needed, at the start of tick 9, after eight ticks of issue.
 */
static void test_dynamic_lazy_load(void)
{
	struct sim_run rn = run_config("5", DYNAMIC, "", DONE_LINK, NULL);
	char **parts = g_strsplit(k1_dynamic, " k1", -1);
	char *k5 = g_strjoinv(" k5", parts);
	char **lines = g_strsplit(k5, "\n", -1);
	GString *want = g_string_new(NULL);

	g_assert_error(rn.err, SS_ERROR, SS_ERROR_INPUT);
	if (!strstr(rn.err->message, "kernel_5_block_9.mem:1"))
		g_error("'%s' does not name the malformed block", rn.err->message);
	for (guint i = 0; lines[i] && g_ascii_strtoull(lines[i], NULL, 10) <= 8; i++)
		g_string_append_printf(want, "%s\n", lines[i]);
	check_journal(want->str);
	g_string_free(want, TRUE);
	g_strfreev(lines);
	g_free(k5);
	g_strfreev(parts);
	sim_run_free(&rn);
}

/* An SM that reports the wrong slot stops the run: its counts would be wrong. */
static void test_dynamic_bad_done(void)
{
	struct sim_run rn = run_config("1", DYNAMIC, "done_slot_offset = 1\n", DONE_LINK, NULL);

	g_assert_error(rn.err, SS_ERROR, SS_ERROR_INTERNAL);
	g_assert_cmpstr(rn.err->message, ==,
			"sched: done[1] reported SM 1, slot 1 done (block 1), which holds another block");
	sim_run_free(&rn);
}

static void expect_config_error(const char *sched, const char *links,
				const char *override, const char *message)
{
	const char *overrides[] = { override, NULL };
	struct sim_run rn = run_config("1", sched, "", links, overrides);

	g_assert_error(rn.err, SS_ERROR, SS_ERROR_CONFIG);
	if (!strstr(rn.err->message, message))
		g_error("'%s' lacks '%s'", rn.err->message, message);
	sim_run_free(&rn);
}

static void test_dynamic_config_errors(void)
{
	/* no slot would ever be refilled */
	expect_config_error(DYNAMIC, "", NULL,
			    "policy = dynamic: expected done linked from each of the 2 SMs of dispatch, found 0 links");
	expect_config_error(DYNAMIC, "[link sm_sched]\nfrom = sm[0].done\nto = sched.done[0]\n",
			    NULL, "found 1 link");
	expect_config_error(DYNAMIC "granularity = avg\n", DONE_LINK, NULL,
			    "granularity: only for policy = first_wave");
	expect_config_error(DYNAMIC, DONE_LINK, "sched.carveouts=0,8,16,32,64,96,132",
			    "carveouts: 132 KiB is more than unified_bytes (131072 B)");
}

/* ---- first wave, as before ------------------------------------------------------- */

/*
 * Kernel 1 under the reference's rules: max_active = min(2, ceil(10 / 2)),
 * SM s gets blocks s and s + 2 and nothing more, whatever the SMs report
 * done; the counts stand for 5 blocks an SM (scale 2.5).
 */
static const char k1_first_wave[] =
	"0 plan k1 max_active 2 active_sms 2 sms 2 carveout 0 l1 131072 sim 2 avg 5 scale 2.5 first_wave\n"
	"0 sm[0] begin k1\n"
	"0 sm[0] <- b0 slot0\n"
	"0 sm[0] <- b2 slot1\n"
	"0 sm[0] go\n"
	"0 sm[0] last\n"
	"0 sm[1] begin k1\n"
	"0 sm[1] <- b1 slot0\n"
	"0 sm[1] <- b3 slot1\n"
	"0 sm[1] go\n"
	"0 sm[1] last\n"
	"1 sm[0] slot0 b0 line0\n"
	"1 sm[1] slot0 b1 line0 done\n"
	"2 sm[0] slot1 b2 line0\n"
	"2 sm[1] slot1 b3 line0 done\n"
	"2 sm[1] end\n"
	"3 sm[0] slot0 b0 line1\n"
	"4 sm[0] slot1 b2 line1\n"
	"5 sm[0] slot0 b0 line2 done\n"
	"6 sm[0] slot1 b2 line2\n"
	"7 sm[0] slot1 b2 line3 done\n"
	"7 sm[0] end\n"
	"7 join k1 done\n";

static void test_first_wave(void)
{
	static const char *const links[] = { DONE_LINK, "" };

	/* with done linked or not: done is only counted */
	for (size_t i = 0; i < G_N_ELEMENTS(links); i++) {
		struct sim_run rn = run_config("1", "policy = first_wave\ngranularity = max_active\ncarveout_rule = ref\n",
					   "", links[i], NULL);

		if (rn.err)
			g_error("%s", rn.err->message);
		check_journal(k1_first_wave);
		check_counts(&rn, 0, (struct sched_counts){ 1, 0, 4, 0, i == 0 ? 4 : 0, 0, 0 });
		sim_run_free(&rn);
	}
}

/*
 * Kernel 3 (lengths 0 2 0) under the reference's rules: the first wave
 * sends its empty blocks too, b0 and b2 to SM 0, and counts them.
 */
static const char k3_first_wave[] =
	"0 plan k3 max_active 2 active_sms 2 sms 2 carveout 0 l1 131072 sim 2 avg 2 scale 1 first_wave\n"
	"0 sm[0] begin k3\n"
	"0 sm[0] <- b0 slot0 empty\n"
	"0 sm[0] <- b2 slot1 empty\n"
	"0 sm[0] go\n"
	"0 sm[0] last\n"
	"0 sm[0] end\n"
	"0 sm[1] begin k3\n"
	"0 sm[1] <- b1 slot0\n"
	"0 sm[1] go\n"
	"0 sm[1] last\n"
	"1 sm[1] slot0 b1 line0\n"
	"2 sm[1] slot0 b1 line1 done\n"
	"2 sm[1] end\n"
	"2 join k3 done\n";

static void test_first_wave_empty(void)
{
	struct sim_run rn = run_config("3", "", "", "", NULL);

	if (rn.err)
		g_error("%s", rn.err->message);
	check_journal(k3_first_wave);
	check_counts(&rn, 0, (struct sched_counts){ 1, 0, 3, 2, 0, 0, 0 });
	sim_run_free(&rn);
}

int main(int argc, char **argv)
{
	int status;

	g_test_init(&argc, &argv, NULL);
	journal = g_string_new(NULL);
	tmpdir = g_dir_make_tmp("test-dispatch-XXXXXX", NULL);
	g_assert_nonnull(tmpdir);
	g_test_add_func("/dispatch/dynamic/waves", test_dynamic_waves);
	g_test_add_func("/dispatch/dynamic/tie", test_dynamic_tie);
	g_test_add_func("/dispatch/dynamic/tie-reversed", test_dynamic_tie_reversed);
	g_test_add_func("/dispatch/dynamic/first-fill", test_dynamic_first_fill);
	g_test_add_func("/dispatch/dynamic/skipped", test_dynamic_skipped);
	g_test_add_func("/dispatch/dynamic/kernels-in-a-row", test_dynamic_kernels_in_a_row);
	g_test_add_func("/dispatch/dynamic/lazy-load", test_dynamic_lazy_load);
	g_test_add_func("/dispatch/dynamic/bad-done", test_dynamic_bad_done);
	g_test_add_func("/dispatch/dynamic/config-errors", test_dynamic_config_errors);
	g_test_add_func("/dispatch/batch/waves", test_batch_waves);
	g_test_add_func("/dispatch/first-wave", test_first_wave);
	g_test_add_func("/dispatch/first-wave/empty-blocks", test_first_wave_empty);
	status = g_test_run();
	g_rmdir(tmpdir);
	g_free(tmpdir);
	g_string_free(journal, TRUE);
	return status;
}
