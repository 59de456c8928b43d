/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The hardware-faithful L2 wired as a user would (token_plugin's
 * mem_script drives INI-wired components): GPGPU-Sim's routing of
 * addresses to slices with their partition addresses, through
 * slice_router and l2_slice_set; DRAM counted per channel; the
 * configurations refused; and the equivalence of one l2_slice_set of 48
 * TITAN V slices with a slice_router in front of 48 sector_caches, on the
 * same scripted stream: the same DRAM traffic in the same order, the same
 * counters summed and per slice.
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>
#include "internal.h"
#include "simrun.h"
#include "cache_params.h"

static char *tmpdir;

/* ---- l2hw_tap: logs what passes, with the partition address ---------------- */

/* What every tap of the current run saw, in order. */
static GString *tap_log;

static const struct ss_port_desc tap_ports[] = {
	{ "in", SS_PORT_IN, MEM_PROTOCOL, true, true, "requests, logged" },
	{ "out", SS_PORT_OUT, MEM_PROTOCOL, true, false, "in[i] passes on to out[i] when linked" },
	{ NULL, 0, NULL, false, false, NULL },
};

struct tap {
	struct ss_component c;
	unsigned n_out;
};

static int tap_create(struct ss_component *c, const struct ss_params *p,
		      GError **err)
{
	SS_COMPONENT(c, struct tap, c)->n_out = ss_component_port_count(c, "out");
	return 0;
}

static void tap_recv(struct ss_component *c, struct ss_port *in,
		     const struct ss_msg *m)
{
	struct tap *t = SS_COMPONENT(c, struct tap, c);
	const struct mem_req *r = (const struct mem_req *)m;
	static const char *const ctl[] = { "?", "invalidate", "flush", "begin", "end" };

	if (m->kind == MEM_CONTROL)
		g_string_append_printf(tap_log, "%u:%s ", in->index,
				       ctl[r->ctl <= 4 ? r->ctl : 0]);
	else
		g_string_append_printf(tap_log, "%u:%c%#" G_GINT64_MODIFIER "x@%#"
				       G_GINT64_MODIFIER "x/%u/%x ", in->index,
				       "?RWAD"[m->kind <= 4 ? m->kind : 0], r->addr,
				       r->part_addr, r->size, r->mask);
	if (in->index < t->n_out)
		ss_port_send(ss_component_port(c, "out", in->index), m);
}

static const struct ss_component_ops tap_ops = {
	.xcreate = tap_create,
	.xrecv = tap_recv,
};

static const struct ss_component_type tap_type = {
	.abi_version = SS_ABI_VERSION,
	.name = "l2hw_tap",
	.summary = "Test: logs the requests passing through, partition address included",
	.ports = tap_ports,
	.ops = &tap_ops,
	.instance_size = sizeof(struct tap),
};

/*
 * l2hw_run_tap: a tap that takes batches (SS_PORT_BATCHES), so that a
 * cache above it sends runs (mem.h); with `held` it is TIMELESS, so that
 * the cache may hold requests for a run; with `any_delay`, ANY_DELAY.
 * It logs each run as "run:N " and then its requests as the tap would.
 */
static const struct ss_param_desc run_tap_params[] = {
	{ "held", SS_P_BOOL, "false", "TIMELESS (and ANY_DELAY)", NULL, 0, 0, 0 },
	{ "any_delay", SS_P_BOOL, "false", "ANY_DELAY", NULL, 0, 0, 0 },
	{ NULL, 0, NULL, NULL, NULL, 0, 0, 0 },
};

static int run_tap_create(struct ss_component *c, const struct ss_params *p,
			  GError **err)
{
	bool held = ss_param_bool(p, "held");

	ss_component_set_port_flags(c, "in", SS_PORT_SILENT | SS_PORT_BATCHES |
				    (held ? SS_PORT_TIMELESS : 0) |
				    (held || ss_param_bool(p, "any_delay") ? SS_PORT_ANY_DELAY : 0));
	return tap_create(c, p, err);
}

static void run_tap_recv(struct ss_component *c, struct ss_port *in,
			 const struct ss_msg *m)
{
	const struct mem_run *run = (const struct mem_run *)m;

	if (m->kind != MEM_RUN) {
		tap_recv(c, in, m);
		return;
	}
	g_assert_cmpuint(run->n, >=, 1);
	g_assert_cmpuint(run->n, <=, MEM_RUN_MAX);
	g_assert_cmpuint(m->size, ==, mem_run_bytes(run->n));
	g_string_append_printf(tap_log, "run:%u ", run->n);
	for (unsigned k = 0; k < run->n; k++) {
		struct mem_req r;

		mem_run_request(run, k, &r);
		tap_recv(c, in, &r.hdr);
	}
}

static const struct ss_component_ops run_tap_ops = {
	.xcreate = run_tap_create,
	.xrecv = run_tap_recv,
};

static const struct ss_component_type run_tap_type = {
	.abi_version = SS_ABI_VERSION,
	.name = "l2hw_run_tap",
	.summary = "Test: logs what passes, runs included",
	.params = run_tap_params,
	.ports = tap_ports,
	.ops = &run_tap_ops,
	.instance_size = sizeof(struct tap),
};

/* ---- running an INI ---------------------------------------------------------- */

static const struct ss_component_type *const test_types[] = { &tap_type, &run_tap_type, NULL };

/* `ini` built, run when `run`; the tap's log starts empty. */
static struct sim_run load(const char *ini, bool run)
{
	g_string_truncate(tap_log, 0);
	return sim_run(tmpdir, ini, test_types, NULL, run);
}

static struct sim_run run_ini(const char *ini)
{
	struct sim_run rn = load(ini, true);

	if (sim_run_error(&rn))
		g_error("%s", sim_run_error(&rn));
	return rn;
}

/* run_ini on `threads` threads. */
static struct sim_run run_ini_threads(const char *ini, int threads)
{
	struct ss_run_options opts = { .threads = threads };
	struct sim_run rn;

	g_string_truncate(tap_log, 0);
	rn = sim_run_with(tmpdir, ini, test_types, NULL, &opts, true);
	if (sim_run_error(&rn))
		g_error("%s", sim_run_error(&rn));
	return rn;
}

static void expect_refused(const char *ini, const char *needle)
{
	struct sim_run rn = load(ini, false);
	const char *error = sim_run_error(&rn);

	if (!error)
		g_error("accepted; expected an error about '%s'", needle);
	if (!strstr(error, needle))
		g_error("'%s' does not mention '%s'", error, needle);
	g_assert_null(strchr(error, '\n'));
	sim_run_free(&rn);
}

static bool has_stat(struct sim_run *rn, const char *name)
{
	double v;

	return ss_stats_lookup(ss_sim_engine(rn->sim), name, &v);
}

static double stat_of(struct sim_run *rn, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static double stat_of(struct sim_run *rn, const char *fmt, ...)
{
	va_list ap;
	char *name;
	double v;

	va_start(ap, fmt);
	name = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	if (!ss_stats_lookup(ss_sim_engine(rn->sim), name, &v))
		g_error("no statistic %s", name);
	g_free(name);
	return v;
}

#define PLUGIN "[simulation]\nplugins = token_plugin\n"

#define TITANV_MAP "n_channels = 24\nn_sub = 2\nchip_shift = 8\nbank_mask = 0x7100\nsubpart_indexing = ipoly\n"
#define A100_MAP "n_channels = 40\nn_sub = 4\nchip_shift = 8\nbank_mask = 0x7080\nsubpart_indexing = consecutive\n"

/* A TITAN V slice (GPGPU-Sim's SM7_TITANV): 32 sets x 24 ways, IPOLY on the partition address. */
#define TITANV_SLICE \
	"sets = 32\nassoc = 24\nline_bytes = 128B\nsector_bytes = 32B\n" \
	"index = ipoly\nindex_on = partition\nwrite_hit = write_back\n" \
	"write_miss = lazy_fetch\ncount_write_misses = true\n"

#define TITANV_L2 \
	"[component l2]\ntype = l2_slice_set\nslices = 48\nmapping = gpgpusim\n" \
	"merge = arrival\n" TITANV_MAP TITANV_SLICE

/* ---- routing ---------------------------------------------------------------- */

/* Addresses from GPGPU-Sim's own decoding tests (the unaligned
 * 0x7f1269c00108 as its sector, 0x...100). */
static const struct {
	uint64_t addr;
	unsigned titanv_slice;
	uint64_t titanv_pa;
	unsigned a100_slice;
	uint64_t a100_pa;
} routes[] = {
	{ 0x80, 0, 0x80, 1, 0x0 },
	{ 0x100, 2, 0x0, 4, 0x0 },
	{ 0x1000, 32, 0x0, 64, 0x0 },
	{ 0x12345680, 18, 0x611780, 25, 0x1d2100 },
	{ 0x7fd165500080, 1, 0x2a9b21c5580, 129, 0xcc823bb600 },
	{ 0x7f6233c00600, 29, 0x2a761140000, 58, 0xcbd052c980 },
	{ 0x7fb0fc430e00, 37, 0x2a905416500, 24, 0xcc4e606e80 },
	{ 0x7f1269c00100, 15, 0x2a5b7895500, 132, 0xcb50a93600 },
};

static char *route_requests(void)
{
	GString *s = g_string_new(NULL);

	for (size_t i = 0; i < G_N_ELEMENTS(routes); i++)
		g_string_append_printf(s, "R%#" G_GINT64_MODIFIER "x ", routes[i].addr);
	return g_string_free(s, FALSE);
}

static char *route_log(bool a100)
{
	GString *s = g_string_new(NULL);

	for (size_t i = 0; i < G_N_ELEMENTS(routes); i++)
		g_string_append_printf(s, "%u:R%#" G_GINT64_MODIFIER "x@%#" G_GINT64_MODIFIER "x/32/ffffffff ",
				       a100 ? routes[i].a100_slice : routes[i].titanv_slice,
				       routes[i].addr,
				       a100 ? routes[i].a100_pa : routes[i].titanv_pa);
	return g_string_free(s, FALSE);
}

/* The router sends each request to its slice's output with its partition
 * address, at once; the kernel's end goes to every output. */
static void test_router_routes(void)
{
	static const struct { const char *map; unsigned slices; bool a100; } gpus[] = {
		{ TITANV_MAP, 48, false }, { A100_MAP, 160, true },
	};

	for (size_t g = 0; g < G_N_ELEMENTS(gpus); g++) {
		char *reqs = route_requests(), *want = route_log(gpus[g].a100);
		char *ini = g_strdup_printf(PLUGIN
			"[component a]\ntype = mem_script\nrequests = %s\n"
			"[component xbar]\ntype = slice_router\nmapping = gpgpusim\n%s"
			"[component tap]\ntype = l2hw_tap\n"
			"[link la]\nfrom = a.out\nto = xbar.cpu_side[0]\n"
			"[link lt]\nfrom = xbar.mem_side[0..%u]\nto = tap.in[*]\n",
			reqs, gpus[g].map, gpus[g].slices - 1);
		struct sim_run rn = run_ini(ini);

		g_assert_cmpstr(tap_log->str, ==, want);
		sim_run_free(&rn);
		g_free(ini);
		g_free(reqs);
		g_free(want);
	}
}

/* l2_slice_set: each read misses in its slice, whose fill goes down that
 * slice's port carrying the partition address; the slice counts it. */
static void test_l2_routes(void)
{
	char *reqs = route_requests(), *want = route_log(false);
	char *ini = g_strdup_printf(PLUGIN
		"[component a]\ntype = mem_script\nrequests = %s\n"
		TITANV_L2
		"[component tap]\ntype = l2hw_tap\n"
		"[link la]\nfrom = a.out\nto = l2.cpu_side[0]\n"
		"[link lt]\nfrom = l2.mem_side[0..47]\nto = tap.in[*]\n", reqs);
	struct sim_run rn = run_ini(ini);

	g_assert_cmpstr(tap_log->str, ==, want);
	for (size_t i = 0; i < G_N_ELEMENTS(routes); i++) {
		g_assert_cmpfloat(stat_of(&rn, "l2.slice[%u].accesses", routes[i].titanv_slice), ==, 1);
		g_assert_cmpfloat(stat_of(&rn, "l2.slice[%u].line_misses", routes[i].titanv_slice), ==, 1);
	}
	g_assert_cmpfloat(stat_of(&rn, "l2.slice[3].accesses"), ==, 0);
	/* the table and the array's sum are the slices' totals */
	g_assert_cmpfloat(stat_of(&rn, "l2.accesses"), ==, G_N_ELEMENTS(routes));
	g_assert_cmpfloat(stat_of(&rn, "l2.slice.accesses"), ==, G_N_ELEMENTS(routes));
	g_assert_cmpfloat(stat_of(&rn, "l2.global_load_line_misses"), ==, G_N_ELEMENTS(routes));
	g_assert_cmpfloat(stat_of(&rn, "l2.slice.hit_rate"), ==, 0);
	sim_run_free(&rn);
	g_free(ini);
	g_free(reqs);
	g_free(want);
}

/* Reads: 0x100 slice 2 (channel 1), 0x1000 slice 32 (16), 0x12345680
 * slice 18 (9), two lines of slice 1 (channel 0); a write to
 * 0x7fb0fc430e00, slice 37 (18), written back by the flush. */
#define CHANNEL_REQS \
	"requests = R0x100 R0x1000 R0x12345680 R0x7fd165500000 R0x7fd165500080 W0x7fb0fc430e00 F E\n"

static void check_channels(struct sim_run *rn)
{
	for (unsigned k = 0; k < 24; k++) {
		double reads = k == 0 ? 2 : k == 1 || k == 9 || k == 16 ? 1 : 0;

		g_assert_cmpfloat(stat_of(rn, "dram.channel[%u].reads", k), ==, reads);
		g_assert_cmpfloat(stat_of(rn, "dram.channel[%u].writes", k), ==, k == 18);
	}
	g_assert_cmpfloat(stat_of(rn, "dram.reads"), ==, 5);
	g_assert_cmpfloat(stat_of(rn, "dram.writes"), ==, 1);
	g_assert_cmpfloat(stat_of(rn, "dram.channel.reads"), ==, 5);
}

/* DRAM by channel: one input per slice (48 -> 24 channels) or per channel. */
static void test_dram_channels(void)
{
	static const char *const wirings[] = {
		"[link ld]\nfrom = l2.mem_side[0..47]\nto = dram.req[*]\n",
		"[link ld]\nfrom = l2.mem_side[0..23]\nto = dram.req[*]\n",
	};

	for (size_t w = 0; w < G_N_ELEMENTS(wirings); w++) {
		char *ini = g_strconcat(PLUGIN
			"[component a]\ntype = mem_script\n" CHANNEL_REQS
			TITANV_L2 "final_writeback = report\n"
			"[component dram]\ntype = dram_counter\nchannels = 24\n"
			"[link la]\nfrom = a.out\nto = l2.cpu_side[0]\n", wirings[w], NULL);
		struct sim_run rn = run_ini(ini);

		g_test_message("wiring %zu", w);
		check_channels(&rn);
		sim_run_free(&rn);
		g_free(ini);
	}
}

/* The same through a router and 48 sector_caches, and dram_counter's
 * spreading on its own: 4 inputs over 2 channels, or one per input. */
static void test_dram_channels_router(void)
{
	struct sim_run rn = run_ini(PLUGIN
		"[component a]\ntype = mem_script\n" CHANNEL_REQS
		"[component xbar]\ntype = slice_router\nmapping = gpgpusim\n" TITANV_MAP
		"[component l2]\ntype = sector_cache\ncount = 48\n" TITANV_SLICE
		"[component dram]\ntype = dram_counter\nchannels = 24\n"
		"[link la]\nfrom = a.out\nto = xbar.cpu_side[0]\n"
		"[link lx]\nfrom = xbar.mem_side[0..47]\nto = l2[*].cpu_side\n"
		"[link ld]\nfrom = l2[*].mem_side\nto = dram.req[*]\n");

	check_channels(&rn);
	sim_run_free(&rn);

	rn = run_ini(PLUGIN
		"[component a]\ntype = mem_script\nrequests = R0x0 W0x20 E\n"
		"[component b]\ntype = mem_script\nrequests = R0x40 E\n"
		"[component c]\ntype = mem_script\nrequests = R0x60 R0x80 E\n"
		"[component d]\ntype = mem_script\nrequests = W0xa0 E\n"
		"[component dram]\ntype = dram_counter\nchannels = 2\n"
		"[link la]\nfrom = a.out\nto = dram.req[0]\n"
		"[link lb]\nfrom = b.out\nto = dram.req[1]\n"
		"[link lc]\nfrom = c.out\nto = dram.req[2]\n"
		"[link ld]\nfrom = d.out\nto = dram.req[3]\n");
	g_assert_cmpfloat(stat_of(&rn, "dram.channel[0].reads"), ==, 2);
	g_assert_cmpfloat(stat_of(&rn, "dram.channel[0].writes"), ==, 1);
	g_assert_cmpfloat(stat_of(&rn, "dram.channel[1].reads"), ==, 2);
	g_assert_cmpfloat(stat_of(&rn, "dram.channel[1].writes"), ==, 1);
	g_assert_false(has_stat(&rn, "dram.channel[2].reads"));
	sim_run_free(&rn);

	/* one channel: no per-channel statistics, as in the ref configurations */
	rn = run_ini(PLUGIN
		"[component a]\ntype = mem_script\nrequests = R0x0 E\n"
		"[component b]\ntype = mem_script\nrequests = R0x40 E\n"
		"[component dram]\ntype = dram_counter\nchannels = 1\n"
		"[link la]\nfrom = a.out\nto = dram.req[0]\n"
		"[link lb]\nfrom = b.out\nto = dram.req[1]\n");
	g_assert_cmpfloat(stat_of(&rn, "dram.reads"), ==, 2);
	g_assert_false(has_stat(&rn, "dram.channel[0].reads"));
	sim_run_free(&rn);
}

/* The router's control messages: one begin per kernel, the end once every
 * input has ended it, a flush at once; each to every slice in order. */
static void test_router_control(void)
{
	struct sim_run rn = run_ini(PLUGIN
		"[component a]\ntype = mem_script\nrequests = B0 R0x0 E\n"
		"[component b]\ntype = mem_script\nrequests = B0 F R0x80 E\n"
		"[component xbar]\ntype = slice_router\nmapping = line\n"
		"[component tap]\ntype = l2hw_tap\n"
		"[link la]\nfrom = a.out\nto = xbar.cpu_side[0]\n"
		"[link lb]\nfrom = b.out\nto = xbar.cpu_side[1]\n"
		"[link lt]\nfrom = xbar.mem_side[0..1]\nto = tap.in[*]\n");

	g_assert_cmpstr(tap_log->str, ==,
			"0:begin 1:begin 0:R0@0/32/ffffffff 0:flush 1:flush "
			"1:R0x80@0x80/32/ffffffff 0:end 1:end ");
	sim_run_free(&rn);
}

#define SCRIPT "[component a]\ntype = mem_script\nrequests = R0x0 E\n"
#define TO_L2 "[link la]\nfrom = a.out\nto = l2.cpu_side[0]\n"
#define TO_XBAR "[link la]\nfrom = a.out\nto = xbar.cpu_side[0]\n"
#define L2_TO_DRAM(n) "[component dram]\ntype = dram_counter\n" \
	"[link ld]\nfrom = l2.mem_side[0.." #n "]\nto = dram.req[*]\n"
#define L2_TO_DRAM_CHANNELS(n, ch) "[component dram]\ntype = dram_counter\nchannels = " #ch "\n" \
	"[link ld]\nfrom = l2.mem_side[0.." #n "]\nto = dram.req[*]\n"
#define XBAR_TO_DRAM(n) "[component dram]\ntype = dram_counter\n" \
	"[link ld]\nfrom = xbar.mem_side[0.." #n "]\nto = dram.req[*]\n"

static void test_refused(void)
{
	/* 40 slices are not 24 channels x 2 */
	expect_refused(PLUGIN SCRIPT
		"[component l2]\ntype = l2_slice_set\nslices = 40\nmapping = gpgpusim\n"
		TITANV_MAP TITANV_SLICE TO_L2 L2_TO_DRAM(0),
		"n_channels x n_sub = 24 x 2 = 48 slices, but slices = 40");
	expect_refused(PLUGIN SCRIPT
		"[component xbar]\ntype = slice_router\nmapping = gpgpusim\n" TITANV_MAP
		TO_XBAR XBAR_TO_DRAM(46),
		"48 slices, but 47 mem_side outputs");
	/* gpgpusim without its channel count; the decoder's keys without gpgpusim */
	expect_refused(PLUGIN SCRIPT
		"[component l2]\ntype = l2_slice_set\nslices = 48\nmapping = gpgpusim\n"
		TITANV_SLICE TO_L2 L2_TO_DRAM(0),
		"n_channels: required with mapping = gpgpusim");
	expect_refused(PLUGIN SCRIPT
		"[component l2]\ntype = l2_slice_set\nslices = 48\nmapping = line\nbank_mask = 0x7100\n"
		TITANV_SLICE TO_L2 L2_TO_DRAM(0),
		"bank_mask: used only with mapping = gpgpusim");
	expect_refused(PLUGIN SCRIPT
		"[component xbar]\ntype = slice_router\nmapping = gpgpusim\nline_bytes = 64B\n" TITANV_MAP
		TO_XBAR XBAR_TO_DRAM(47),
		"line_bytes: used only with mapping = line");
	/* the decoder's own checks, named by key */
	expect_refused(PLUGIN SCRIPT
		"[component l2]\ntype = l2_slice_set\nslices = 160\nmapping = gpgpusim\n"
		"n_channels = 40\nn_sub = 4\nbank_mask = 0x7080\nsubpart_indexing = ipoly\n"
		TITANV_SLICE TO_L2 L2_TO_DRAM(0),
		"subpart_indexing = ipoly");
	expect_refused(PLUGIN SCRIPT
		"[component l2]\ntype = l2_slice_set\nslices = 48\nmapping = gpgpusim\n"
		"n_channels = 24\nn_sub = 2\n"
		TITANV_SLICE TO_L2 L2_TO_DRAM(0),
		"bank_mask = 0");
	expect_refused(PLUGIN SCRIPT
		"[component l2]\ntype = l2_slice_set\nslices = 48\nmapping = gpgpusim\n"
		"n_channels = 16\nn_sub = 3\nbank_mask = 0x7100\n"
		TITANV_SLICE TO_L2 L2_TO_DRAM(0),
		"n_sub");
	/* single means one slice, or one output */
	expect_refused(PLUGIN SCRIPT
		"[component xbar]\ntype = slice_router\n" TO_XBAR XBAR_TO_DRAM(1),
		"mapping = single takes one slice, not 2 mem_side outputs");
	/* ports must share the slices evenly; so must channels the inputs */
	expect_refused(PLUGIN SCRIPT TITANV_L2 TO_L2 L2_TO_DRAM(4),
		       "mem_side: 5 ports cannot share 48 slices evenly");
	expect_refused(PLUGIN SCRIPT TITANV_L2 TO_L2 L2_TO_DRAM_CHANNELS(47, 5),
		       "channels = 5: the 48 req inputs cannot be spread evenly");
}

/* ---- the two topologies, request for request ---------------------------------- */

/*
 * A stream for `inputs` inputs, written to files s<i>.txt: a hot region
 * that stays in the L2, a 12 MiB one that does not (the L2 holds 4.5 MiB),
 * reads, full and partial writes and atomics; input 1 invalidates and
 * input 2 flushes in the middle.  With one input, `kernels` kernels.
 */
static void write_stream(unsigned inputs, unsigned kernels, unsigned per_kernel)
{
	GRand *rng = g_rand_new_with_seed(48);

	for (unsigned i = 0; i < inputs; i++) {
		GString *s = g_string_new(NULL);
		char *name = g_strdup_printf("s%u.txt", i);
		char *path = g_build_filename(tmpdir, name, NULL);

		for (unsigned k = 0; k < kernels; k++) {
			g_string_append(s, "B0\n");
			for (unsigned j = 0; j < per_kernel; j++) {
				bool hot = g_rand_int_range(rng, 0, 10) < 4;
				uint64_t base = hot ? UINT64_C(0x7f0000000000) : UINT64_C(0x7f1000000000);
				uint32_t lines = hot ? 2048 : 12 * 8192;
				uint64_t a = base + (uint64_t)g_rand_int_range(rng, 0, lines) * 128 +
					     32 * g_rand_int_range(rng, 0, 4);
				int op = g_rand_int_range(rng, 0, 100);

				if (op < 55)
					g_string_append_printf(s, "R%#" G_GINT64_MODIFIER "x ", a);
				else if (op < 75)
					g_string_append_printf(s, "W%#" G_GINT64_MODIFIER "x ", a);
				else if (op < 95)
					g_string_append_printf(s, "W%#" G_GINT64_MODIFIER "x&%x ", a,
							       g_rand_int(rng) | 1);
				else
					g_string_append_printf(s, "A%#" G_GINT64_MODIFIER "x ", a);
				if (j == per_kernel / 2 && (i == 1 || (inputs == 1 && k == kernels - 1)))
					g_string_append(s, "I ");
				if (j == per_kernel / 2 + 1 && (i == 2 || (inputs == 1 && k == 1)))
					g_string_append(s, "F ");
				if (j % 16 == 15)
					g_string_append_c(s, '\n');
			}
			g_string_append(s, "E\n");
		}
		g_assert_true(g_file_set_contents(path, s->str, -1, NULL));
		g_string_free(s, TRUE);
		g_free(name);
		g_free(path);
	}
	g_rand_free(rng);
}

static void remove_stream(unsigned inputs)
{
	for (unsigned i = 0; i < inputs; i++) {
		char *name = g_strdup_printf("s%u.txt", i);
		char *path = g_build_filename(tmpdir, name, NULL);

		g_unlink(path);
		g_free(name);
		g_free(path);
	}
}

/* The INI of one topology: scripts -> L2 -> tap -> dram (24 channels). */
static char *topology(bool router, unsigned inputs, const char *policy)
{
	GString *s = g_string_new(PLUGIN);

	for (unsigned i = 0; i < inputs; i++)
		g_string_append_printf(s, "[component s%u]\ntype = mem_script\nfile = %s/s%u.txt\n"
				       "[link ls%u]\nfrom = s%u.out\nto = %s.cpu_side[%u]\n",
				       i, tmpdir, i, i, i, router ? "xbar" : "l2", i);
	if (router)
		g_string_append(s,
			"[component xbar]\ntype = slice_router\nmapping = gpgpusim\n" TITANV_MAP
			"[component l2]\ntype = sector_cache\ncount = 48\n" TITANV_SLICE
			"[link lx]\nfrom = xbar.mem_side[0..47]\nto = l2[*].cpu_side\n"
			"[link lt]\nfrom = l2[*].mem_side\nto = tap.in[*]\n");
	else
		g_string_append(s, TITANV_L2
			"[link lt]\nfrom = l2.mem_side[0..47]\nto = tap.in[*]\n");
	g_string_append(s, "[component tap]\ntype = l2hw_tap\n"
			"[component dram]\ntype = dram_counter\nchannels = 24\n"
			"[link ld]\nfrom = tap.out[0..47]\nto = dram.req[*]\n");
	/* the policy goes to the L2 section, whichever it is */
	char *text = g_string_free(s, FALSE);
	char **parts = g_strsplit(text, "[component l2]\n", 2);
	char *out = g_strconcat(parts[0], "[component l2]\n", policy, parts[1], NULL);

	g_strfreev(parts);
	g_free(text);
	return out;
}

/* Every statistic of the comparison, by name in each topology. */
static GPtrArray *compared_names(bool router)
{
	static const struct ss_stat_desc rows[] = { SC_STAT_ROWS };
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);

	/* the L2's: summed over the 48 components, the table of the set */
	for (size_t k = 0; k < G_N_ELEMENTS(rows); k++)
		g_ptr_array_add(names, g_strdup_printf("l2.%s", rows[k].name));
	/* each slice's totals */
	for (unsigned s = 0; s < 48; s++)
		for (unsigned k = SC_S_TOTAL; k <= SC_S_HIT_RATE; k++)
			g_ptr_array_add(names, router ?
					g_strdup_printf("l2[%u].%s", s, rows[k].name) :
					g_strdup_printf("l2.slice[%u].%s", s, rows[k].name));
	g_ptr_array_add(names, g_strdup("dram.reads"));
	g_ptr_array_add(names, g_strdup("dram.writes"));
	g_ptr_array_add(names, g_strdup("dram.atomics"));
	for (unsigned c = 0; c < 24; c++) {
		g_ptr_array_add(names, g_strdup_printf("dram.channel[%u].reads", c));
		g_ptr_array_add(names, g_strdup_printf("dram.channel[%u].writes", c));
	}
	return names;
}

struct outcome {
	char *log;
	GArray *values;		/* double, in the order of compared_names() */
};

static struct outcome run_topology(bool router, unsigned inputs, const char *policy)
{
	char *ini = topology(router, inputs, policy);
	struct sim_run rn = run_ini(ini);
	GPtrArray *names = compared_names(router);
	struct outcome o = { g_strdup(tap_log->str), g_array_new(FALSE, FALSE, sizeof(double)) };

	for (guint i = 0; i < names->len; i++) {
		double v = stat_of(&rn, "%s", (char *)names->pdata[i]);

		g_array_append_val(o.values, v);
	}
	/* the channel of slice s is s / 2: its DRAM reads are its fills */
	for (unsigned c = 0; c < 24; c++) {
		double fills = router ?
			stat_of(&rn, "l2[%u].reads_down", 2 * c) + stat_of(&rn, "l2[%u].reads_down", 2 * c + 1) :
			stat_of(&rn, "l2.slice[%u].reads_down", 2 * c) + stat_of(&rn, "l2.slice[%u].reads_down", 2 * c + 1);

		g_assert_cmpfloat(stat_of(&rn, "dram.channel[%u].reads", c), ==, fills);
	}
	g_ptr_array_unref(names);
	sim_run_free(&rn);
	g_free(ini);
	return o;
}

static double value(const struct outcome *o, const char *name)
{
	GPtrArray *names = compared_names(false);
	double v = -1;

	for (guint i = 0; i < names->len; i++)
		if (strcmp(names->pdata[i], name) == 0)
			v = g_array_index(o->values, double, i);
	g_ptr_array_unref(names);
	return v;
}

static void compare_topologies(unsigned inputs, unsigned kernels,
			       unsigned per_kernel, const char *policy,
			       const char *const *nonzero)
{
	struct outcome set, routed;
	GPtrArray *names = compared_names(false);

	write_stream(inputs, kernels, per_kernel);
	set = run_topology(false, inputs, policy);
	routed = run_topology(true, inputs, policy);
	remove_stream(inputs);

	if (strcmp(set.log, routed.log) != 0) {
		size_t i = 0;

		while (set.log[i] == routed.log[i])
			i++;
		g_error("the DRAM logs part at byte %zu: l2_slice_set '%.60s', slice_router '%.60s'",
			i, set.log + (i > 20 ? i - 20 : 0), routed.log + (i > 20 ? i - 20 : 0));
	}
	for (guint i = 0; i < names->len; i++) {
		double a = g_array_index(set.values, double, i);
		double b = g_array_index(routed.values, double, i);

		if (a != b)
			g_error("%s: l2_slice_set %g, slice_router %g", (char *)names->pdata[i], a, b);
	}
	/* a stream that exercises what it should */
	for (const char *const *n = nonzero; *n; n++)
		if (value(&set, *n) <= 0)
			g_error("%s is %g: the stream does not exercise it", *n, value(&set, *n));
	g_test_message("%zu bytes of DRAM log, %g DRAM reads, %g writes",
		       strlen(set.log), value(&set, "dram.reads"), value(&set, "dram.writes"));
	g_free(set.log);
	g_free(routed.log);
	g_array_free(set.values, TRUE);
	g_array_free(routed.values, TRUE);
	g_ptr_array_unref(names);
}

/* hw kernel end (dirty data reported, not written), four inputs, an
 * invalidation and a flush from two of them in the middle. */
static void test_equivalence_hw(void)
{
	static const char *const nonzero[] = {
		"l2.hits", "l2.sector_misses", "l2.line_misses", "l2.evictions",
		"l2.wb_evict", "l2.wb_flush", "l2.dirty_at_kernel_end",
		"l2.global_atomic_accesses", "dram.writes", "dram.channel[23].reads",
		NULL,
	};

	compare_topologies(4, 1, 30000, "final_writeback = report\nat_kernel_end = invalidate\n",
			   nonzero);
}

/* Three kernels of one input, the lines kept across kernels and the
 * dirty ones written back at each end. */
static void test_equivalence_kernels(void)
{
	static const char *const nonzero[] = {
		"l2.hits", "l2.evictions", "l2.wb_evict", "l2.wb_flush",
		"dram.writes", NULL,
	};

	compare_topologies(1, 3, 40000, "final_writeback = count\nat_kernel_end = keep\n",
			   nonzero);
}

/*
 * What a functional L1 sends down, as single requests or runs (mem.h):
 * to a level that takes batches and is TIMELESS, on a run split over
 * threads, runs of up to MEM_RUN_MAX held from message to message, each
 * sent before a control message; to one that takes batches alone (or on
 * one thread), runs only of what one run from above made; to any other,
 * single requests.  Whatever the form, the same requests in the same
 * order.  The stream: 40 writes, written through, a kernel's end, then
 * 20 reads that miss, each a fetch of one sector, and an end; from above
 * one by one, or in runs.
 */
static void test_runs(void)
{
	/* the runs the stream makes: MEM_RUN_MAX writes, the other writes
	 * (40 in all, so two runs), then the 20 reads in one */
	char *first = g_strdup_printf("run:%u 0:W%#x@", MEM_RUN_MAX, 0x10000);
	char *second = g_strdup_printf("run:%u 0:W%#x@", 40 - MEM_RUN_MAX,
				       0x10000 + 32 * MEM_RUN_MAX);
	char *reads = g_strdup_printf("/ffffffff 0:end run:%u 0:R0x40000@",
				      MIN(20, MEM_RUN_MAX));
	const struct {
		bool script_runs;
		int threads;
		const char *tap, *want[3];
	} cases[] = {
		{ false, 2, "l2hw_tap", { NULL } },
		{ false, 2, "l2hw_run_tap\nheld = true", { first, second, reads } },
		{ false, 2, "l2hw_run_tap", { NULL } },
		{ true, 2, "l2hw_run_tap", { first, second, reads } },
		{ true, 2, "l2hw_tap", { NULL } },
		{ true, 2, "l2hw_run_tap\nheld = true", { first, second, reads } },
		/* ANY_DELAY without TIMELESS: nothing held */
		{ false, 2, "l2hw_run_tap\nany_delay = true", { NULL } },
		/* but runs from above make runs below, each in its event */
		{ true, 2, "l2hw_run_tap\nany_delay = true", { first, second, reads } },
		{ true, 1, "l2hw_run_tap\nany_delay = true", { first, NULL } },
		/* one thread, where a mid-kernel flush acts when it comes:
		 * nothing held */
		{ false, 1, "l2hw_run_tap\nheld = true", { NULL } },
	};
	G_STATIC_ASSERT(MEM_RUN_MAX < 40 && 40 - MEM_RUN_MAX <= MEM_RUN_MAX);
	GString *reqs = g_string_new(NULL);
	char *plain_log = NULL;
	GRegex *runs = g_regex_new("run:[0-9]+ ", 0, 0, NULL);

	for (unsigned k = 0; k < 40; k++)
		g_string_append_printf(reqs, "W%#x ", 0x10000 + 32 * k);
	g_string_append(reqs, "E ");
	for (unsigned k = 0; k < 20; k++)
		g_string_append_printf(reqs, "R%#x ", 0x40000 + 128 * k);
	g_string_append(reqs, "E");
	for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) {
		char *ini = g_strdup_printf(PLUGIN
			"[component a]\ntype = mem_script\nrequests = %s\nruns = %s\n"
			"[component l1]\ntype = sector_cache\nsize = 16KiB\nassoc = 4\n"
			"line_bytes = 128B\nsector_bytes = 32B\nwrite_hit = write_through\n"
			"write_miss = allocate\n"
			"[component tap]\ntype = %s\n"
			"[link la]\nfrom = a.out\nto = l1.cpu_side[0]\n"
			"[link lt]\nfrom = l1.mem_side\nto = tap.in[0]\n",
			reqs->str, cases[c].script_runs ? "true" : "false", cases[c].tap);
		struct sim_run rn = run_ini_threads(ini, cases[c].threads);
		char *stripped = g_regex_replace_literal(runs, tap_log->str, -1, 0, "", 0, NULL);

		if (!plain_log)
			plain_log = g_strdup(tap_log->str);
		g_assert_cmpstr(stripped, ==, plain_log);
		if (!cases[c].want[0])
			g_assert_null(strstr(tap_log->str, "run:"));
		for (int k = 0; k < 3 && cases[c].want[k]; k++)
			if (!strstr(tap_log->str, cases[c].want[k]))
				g_error("case %zu: no '%s' in %s", c, cases[c].want[k], tap_log->str);
		g_assert_true(g_str_has_suffix(tap_log->str, "/ffffffff 0:end "));
		g_free(stripped);
		sim_run_free(&rn);
		g_free(ini);
	}
	g_free(plain_log);
	g_regex_unref(runs);
	g_string_free(reqs, TRUE);
	g_free(first);
	g_free(second);
	g_free(reads);
}

/*
 * TIMELESS goes up from the counter: an L2 merging round-robin in front
 * of DRAM is, and so is a shared round-robin cache in front of it; a
 * shared cache in front of an L2 that serves as requests arrive is not
 * (what it sends there would arrive later), nor one merging on arrival.
 * What the L1s above each see, through ss_port_peer_flags.
 */
static void test_timeless(void)
{
	static const struct {
		const char *l15_merge, *l2_merge;
		bool l2_timeless, l15_timeless;
	} cases[] = {
		{ "rr", "rr", true, true },
		{ "rr", "arrival", false, false },
		{ "arrival", "rr", true, false },
	};

	for (size_t k = 0; k < G_N_ELEMENTS(cases); k++) {
		char *ini = g_strdup_printf(PLUGIN
			"[component a]\ntype = mem_script\nrequests = W0x40 E\n"
			"[component b]\ntype = mem_script\nrequests = W0x80 E\n"
			"[component l1]\ntype = sector_cache\ncount = 2\nsize = 4KiB\nassoc = 4\n"
			"line_bytes = 128B\nsector_bytes = 32B\nwrite_hit = write_through\n"
			"write_miss = allocate\n"
			"[component l15]\ntype = sector_cache\nsize = 8KiB\nassoc = 4\n"
			"line_bytes = 128B\nsector_bytes = 32B\nmerge = %s\n"
			"[component l2]\ntype = l2_slice_set\nsize = 64KiB\nassoc = 8\n"
			"line_bytes = 128B\nsector_bytes = 32B\nmerge = %s\n"
			"[component dram]\ntype = dram_counter\n"
			"[link la]\nfrom = a.out\nto = l1[0].cpu_side[0]\n"
			"[link lb]\nfrom = b.out\nto = l1[1].cpu_side[0]\n"
			"[link l1l15]\nfrom = l1[*].mem_side\nto = l15.cpu_side[*]\n"
			"[link l15l2]\nfrom = l15.mem_side\nto = l2.cpu_side[0]\n"
			"[link l2d]\nfrom = l2.mem_side\nto = dram.req\n",
			cases[k].l15_merge, cases[k].l2_merge);
		struct sim_run rn = run_ini(ini);
		struct ss_engine *e = ss_sim_engine(rn.sim);
		struct ss_component *l1 = ss_engine_component(e, "l1[0]");
		struct ss_component *l15 = ss_engine_component(e, "l15");

		g_assert_nonnull(l1);
		g_assert_nonnull(l15);
		g_assert_cmpint(!!(ss_port_peer_flags(ss_component_port(l15, "mem_side", 0)) &
				   SS_PORT_TIMELESS), ==, cases[k].l2_timeless);
		g_assert_cmpint(!!(ss_port_peer_flags(ss_component_port(l1, "mem_side", 0)) &
				   SS_PORT_TIMELESS), ==, cases[k].l15_timeless);
		sim_run_free(&rn);
		g_free(ini);
	}
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	tmpdir = g_dir_make_tmp("sectorsim-l2hw-XXXXXX", NULL);
	tap_log = g_string_new(NULL);
	g_test_add_func("/l2hw/router-routes", test_router_routes);
	g_test_add_func("/l2hw/l2-routes", test_l2_routes);
	g_test_add_func("/l2hw/router-control", test_router_control);
	g_test_add_func("/l2hw/dram-channels", test_dram_channels);
	g_test_add_func("/l2hw/dram-channels-router", test_dram_channels_router);
	g_test_add_func("/l2hw/refused", test_refused);
	g_test_add_func("/l2hw/equivalence-hw", test_equivalence_hw);
	g_test_add_func("/l2hw/equivalence-kernels", test_equivalence_kernels);
	g_test_add_func("/l2hw/runs", test_runs);
	g_test_add_func("/l2hw/timeless", test_timeless);

	int status = g_test_run();
	char *ini = g_build_filename(tmpdir, "t.ini", NULL);

	g_unlink(ini);
	g_rmdir(tmpdir);
	g_free(ini);
	g_string_free(tap_log, TRUE);
	return status;
}
