/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Time-parallel simulation of one cache against sequential simulation, on
 * a real L2 stream: the requests a configuration's L1s send its L2.
 *
 *   bench/bench-timepar CONFIG TRACE [RUNS [SEGMENTS [BATCH]]]
 *
 * CONFIG must have one L2 of one slice named l2, fed through a link named
 * l1_l2 and served in arrival order (configs/ablations/titanv-l2-unified.ini:
 * the TITAN V's 4.5 MiB as one cache).  The program runs it once on TRACE
 * with a component between the L1s and the L2 that keeps every request
 * and kernel boundary the L2 sees, in order.  Then, RUNS times each
 * (default 5), it simulates that stream on a bare copy of the L2 (the
 * model, no framework): request by request, and by SEGMENTS segments
 * (default 2) of batches of BATCH requests (default 4194304, the
 * parameter's default; each kernel's end runs what is held).  It checks
 * that both send down the same requests and count the same, and prints
 * the median times, the speed-up, and how many requests the corrections
 * simulated again.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gstdio.h>
#include <sectorsim/sectorsim.h>
#include <sectorsim/protocols/mem.h>
#include "registry.h"
#include "sim.h"
#include "builtin.h"
#include "sector_cache.h"
#include "sc_timepar.h"

/* ---- the stream, kept by a component between the L1s and the L2 ---------- */

static GArray *stream;	/* struct mem_req, kernel ends included */

static const struct ss_port_desc tap_ports[] = {
	{ "in", SS_PORT_IN, MEM_PROTOCOL, true, true, "from the L1s" },
	{ "out", SS_PORT_OUT, MEM_PROTOCOL, false, true, "to the L2: the requests, and one end per kernel" },
	{ NULL, 0, NULL, false, false, NULL },
};

static const struct ss_param_desc tap_params[] = {
	{ NULL, 0, NULL, NULL, NULL, 0, 0, 0 },
};

static unsigned tap_inputs, tap_ended;

static void tap_recv(struct ss_component *c, struct ss_port *in, const struct ss_msg *m)
{
	const struct mem_req *r = (const struct mem_req *)m;

	(void)in;
	/* a kernel ends once every input has ended it: one end, there */
	if (m->kind == MEM_CONTROL && r->ctl == MEM_CTL_KERNEL_END) {
		if (++tap_ended < tap_inputs)
			return;
		tap_ended = 0;
	}
	if (m->kind != MEM_CONTROL || r->ctl == MEM_CTL_KERNEL_END)
		g_array_append_vals(stream, r, 1);
	ss_port_send(ss_component_port(c, "out", 0), m);
}

static int tap_create(struct ss_component *c, const struct ss_params *p, GError **err)
{
	(void)p;
	(void)err;
	tap_inputs = ss_component_port_count(c, "in");
	ss_component_set_port_flags(c, "in", SS_PORT_SILENT | SS_PORT_JOINED);
	ss_component_set_port_flags(c, "out", SS_PORT_JOINED);
	return 0;
}

static const struct ss_component_ops tap_ops = {
	.xcreate = tap_create,
	.xrecv = tap_recv,
};

static const struct ss_component_type tap_type = {
	.abi_version = SS_ABI_VERSION,
	.name = "stream_tap",
	.summary = "keeps the requests it passes on (bench-timepar)",
	.params = tap_params,
	.ports = tap_ports,
	.ops = &tap_ops,
	.instance_size = sizeof(struct ss_component),
};

static void keep_stream(const char *config, const char *trace)
{
	struct ss_registry *reg = ss_registry_new();
	char *dir = g_dir_make_tmp("bench-timepar-XXXXXX", NULL);
	char *path = g_build_filename(dir, "tap.ini", NULL);
	char *abs = g_canonicalize_filename(config, NULL);
	char *ini = g_strdup_printf("[simulation]\ninclude = %s\n\n"
				    "[component tap]\ntype = stream_tap\n\n"
				    "[link l1_l2]\nto = tap.in[*]\n\n"
				    "[link tap_l2]\nfrom = tap.out\nto = l2.cpu_side[0]\n", abs);
	struct ss_run_options opts = { .threads = 1, .quiet = TRUE, .raw_stats_unread = TRUE, .table_off = TRUE };
	GPtrArray *errors = NULL;
	GError *err = NULL;
	struct ss_sim *sim;

	if (!ss_components_register(reg, &err) || !ss_registry_add(reg, &tap_type, &err))
		g_error("%s", err->message);
	g_file_set_contents(path, ini, -1, NULL);
	sim = ss_sim_load(reg, path, NULL, trace, &errors);
	if (!sim) {
		fprintf(stderr, "bench-timepar: %s\n", (char *)errors->pdata[0]);
		exit(2);
	}
	ss_sim_set_run_options(sim, &opts);
	if (!ss_sim_build(sim, &err) || !ss_sim_run(sim, &err)) {
		fprintf(stderr, "bench-timepar: %s\n", err->message);
		exit(2);
	}
	ss_sim_free(sim);
	ss_registry_free(reg);
	g_unlink(path);
	g_rmdir(dir);
	g_free(path);
	g_free(dir);
	g_free(abs);
	g_free(ini);
}

/* ---- the two simulations ------------------------------------------------- */

/* configs/parts/l2-unified.ini with the size of titanv-l2-unified.ini */
static const struct sc_config l2_config = {
	.size = 4718592, .assoc = 32, .line_bytes = 128, .sector_bytes = 32,
	.index = SET_INDEX_FIB_DOUBLE, .replacement = SC_LRU,
	.write_hit = SC_WRITE_BACK, .write_miss = SC_LAZY_FETCH,
	.count_write_misses = true,
};
static const struct sc_kernel_end l2_end = { SC_FINAL_REPORT, true };

struct sent {
	uint64_t n, hash;
};

/* What goes down: how many and a hash of their order and contents. */
static void sent(void *ctx, const struct mem_req *r)
{
	struct sent *s = ctx;

	s->n++;
	s->hash = (s->hash ^ r->addr ^ ((uint64_t)r->hdr.kind << 56)) * UINT64_C(0x100000001b3);
}

/*
 * One simulation of the stream by cache c, through tp when not NULL.  The
 * cache and tp are made once and used for every run, as a component uses
 * them for every kernel: what they allocate is allocated by then.
 */
static double run(struct sc_cache *c, struct sc_timepar *tp, struct sent *out,
		  uint64_t *stats, uint64_t *replayed)
{
	const struct mem_req *r = (const struct mem_req *)(void *)stream->data;
	uint64_t replayed_before = tp ? sc_timepar_counts(tp)->replayed : 0;
	gint64 t0;

	memset(out, 0, sizeof(*out));
	memset(stats, 0, SC_N_STATS * sizeof(*stats));
	sc_invalidate(c);
	t0 = g_get_monotonic_time();
	for (guint i = 0; i < stream->len; i++) {
		if (r[i].hdr.kind != MEM_CONTROL) {
			if (tp)
				sc_timepar_add(tp, &r[i]);
			else
				sc_access(c, &r[i]);
		} else if (r[i].ctl == MEM_CTL_KERNEL_END) {
			if (tp)
				sc_timepar_run(tp);
			sc_end_kernel(c, &l2_end);
		}
	}
	if (tp)
		sc_timepar_run(tp);
	*replayed = tp ? sc_timepar_counts(tp)->replayed - replayed_before : 0;
	return (g_get_monotonic_time() - t0) / 1e6;
}

static struct sc_cache *new_l2(uint64_t *stats, struct sent *out)
{
	char *why = NULL;
	struct sc_cache *c = sc_new(&l2_config, stats, sent, out, &why);

	if (!c)
		g_error("%s", why);
	return c;
}

static int by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	unsigned runs = argc > 3 ? atoi(argv[3]) : 5;
	unsigned segments = argc > 4 ? atoi(argv[4]) : 2;
	size_t batch = argc > 5 ? strtoull(argv[5], NULL, 10) : 4194304;
	double *seq, *par;
	uint64_t st_seq[SC_N_STATS], st_par[SC_N_STATS], replayed = 0, requests = 0;
	struct sent s_seq, s_par;

	if (argc < 3 || !runs || segments < 2) {
		fprintf(stderr, "usage: %s CONFIG TRACE [RUNS [SEGMENTS [BATCH]]]\n", argv[0]);
		return 2;
	}
	stream = g_array_new(FALSE, FALSE, sizeof(struct mem_req));
	keep_stream(argv[1], argv[2]);
	for (guint i = 0; i < stream->len; i++) {
		struct mem_req *r = &g_array_index(stream, struct mem_req, i);

		requests += r->hdr.kind != MEM_CONTROL;
	}
	seq = g_new(double, runs);
	par = g_new(double, runs);
	struct sc_cache *c_seq = new_l2(st_seq, &s_seq), *c_par = new_l2(st_par, &s_par);
	char *why = NULL;
	struct sc_timepar *tp = sc_timepar_new(c_par, sent, &s_par, segments, batch, &why);

	if (!tp)
		g_error("%s", why);
	/* a first run of each allocates and touches what they use */
	run(c_seq, NULL, &s_seq, st_seq, &replayed);
	run(c_par, tp, &s_par, st_par, &replayed);
	for (unsigned k = 0; k < runs; k++) {
		seq[k] = run(c_seq, NULL, &s_seq, st_seq, &replayed);
		par[k] = run(c_par, tp, &s_par, st_par, &replayed);
		if (s_seq.n != s_par.n || s_seq.hash != s_par.hash ||
		    memcmp(sc_stats(c_seq), sc_stats(c_par), SC_S_HIT_RATE * sizeof(*st_seq))) {
			fprintf(stderr, "bench-timepar: the two simulations differ\n");
			return 1;
		}
	}
	sc_timepar_free(tp);
	sc_free(c_seq);
	sc_free(c_par);
	qsort(seq, runs, sizeof(*seq), by_double);
	qsort(par, runs, sizeof(*par), by_double);
	printf("L2 stream: %" G_GUINT64_FORMAT " requests, %" G_GUINT64_FORMAT " sent down, %" G_GUINT64_FORMAT " hits\n",
	       requests, s_seq.n, st_seq[SC_S_TOTAL + SC_M_HITS]);
	printf("sequential:              %.3f s (median of %u)\n", seq[runs / 2], runs);
	printf("%u segments, batch %zu: %.3f s (median of %u), speed-up %.2fx\n",
	       segments, batch, par[runs / 2], runs, seq[runs / 2] / par[runs / 2]);
	printf("simulated again: %" G_GUINT64_FORMAT " requests (%.2f %%)\n",
	       replayed, 100.0 * replayed / requests);
	g_free(seq);
	g_free(par);
	g_array_free(stream, TRUE);
	return 0;
}
