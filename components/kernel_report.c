/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * kernel_report: what Nsight Compute would say about each kernel, from the
 * counters of the SMs (warp_interleaver), their L1s, the L2 and DRAM, and
 * the scheduler's plan.  mode = ref computes the reference's metrics
 * with its exact arithmetic: per-SM rates from each L1, sums
 * over the active SMs in ascending order, then one multiplication by the
 * scale (a different order changes the last bits).
 *
 * A kernel is over when every `done` input has ended it (the DRAM counter
 * passes the end on once the L2 has flushed): the report reads the
 * counters, closes the statistics phase (which zeroes them for the next
 * kernel) and tells the trace source through `next`.
 *
 * Results: a table per kernel on standard output, and the run options
 * "json" and "csv" (the command line's --json FILE and --csv FILE).  Each
 * kernel is written when it ends, so memory does not grow with the number
 * of kernels; the files are written beside their names and renamed at the
 * end, so a reader never sees half of one.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <sectorsim/sectorsim.h>
#include <sectorsim/protocols/gpu.h>
#include <sectorsim/protocols/mem.h>
#include <math.h>
#include "camat.h"
#include <sectorsim/protocols/cache_stats.h>
#include "report_metrics.h"
#include "nugteren.h"
#ifdef HAVE_DEMANGLE
#include <libiberty/demangle.h>
#endif

static const char *const mode_names[] = { "ref", "hw", "nugteren", NULL };
static const char *const model_names[] = { "simulator", "sdcm", NULL };

static const struct ss_param_desc params[] = {
	{ "mode", SS_P_ENUM, "ref", "metric formulas: ref (the reference's: per-SM counters summed in SM order and scaled to the whole grid, as doubles), hw (integer counts over every SM, L2 slice and DRAM channel, no scaling) or nugteren (Nugteren et al.'s model's hits and miss split, from the four timed sdcm_caches named by `cases`)", mode_names, 0, 0, 0 },
	{ "cases", SS_P_STRING, "", "mode = nugteren: the sdcm_caches (timing = true) of the model's four simulations, comma-separated, in its order: normal, fully associative, no latency, no MSHR limit", NULL, 0, 0, 0 },
	{ "sm", SS_P_STRING, "sm", "name of the warp_interleaver array (one per SM)", NULL, 0, 0, 0 },
	{ "l1", SS_P_STRING, "l1", "name of the L1 array (one sector_cache per SM); empty: the SMs have no L1 (mode = hw only)", NULL, 0, 0, 0 },
	{ "l2", SS_P_STRING, "l2", "name of the L2: an l2_slice_set or sector_cache, or an array of sector_caches (one per slice), whose counters are summed", NULL, 0, 0, 0 },
	{ "dram", SS_P_STRING, "dram", "name of the dram_counter", NULL, 0, 0, 0 },
	{ "l1_model", SS_P_ENUM, "simulator", "what the L1s are: simulator (sector_cache) or sdcm (sdcm_cache, the paper's baseline)", model_names, 0, 0, 0 },
	{ "l2_model", SS_P_ENUM, "simulator", "what the L2 is: simulator (l2_slice_set) or sdcm (sdcm_cache; DRAM then follows from its hit rates)", model_names, 0, 0, 0 },
	{ "progress_ms", SS_P_UINT, "250", "on a terminal, the least milliseconds between two progress lines while a kernel runs (four a second by default)", NULL, 1, 3600000, 0 },
	{ "levels", SS_P_STRING, "auto", "the other cache levels reported, by component name, comma-separated (an array's caches summed): auto (every component with a sector cache's counters besides l1 and l2), or none", NULL, 0, 0, 0 },
	{ NULL, 0, NULL, NULL, NULL, 0, 0, 0 },
};

static const struct ss_port_desc ports[] = {
	{ "plan", SS_PORT_IN, GPU_KERNEL_PROTOCOL, false, true, "each kernel's launch data and occupancy, from the block scheduler" },
	{ "done", SS_PORT_IN, MEM_PROTOCOL, true, true, "kernel ends from the last level (the DRAM counter); the kernel is over when every input has ended it" },
	{ "next", SS_PORT_OUT, GPU_KERNEL_PROTOCOL, false, true, "kernel done, to the trace source" },
	{ "also_plan", SS_PORT_IN, GPU_KERNEL_PROTOCOL, true, false, "the block schedulers of further hierarchies run side by side on the same trace, lockstep by kernel (mode = nugteren's four cases): their plans, which plan's stands for" },
	{ "also_next", SS_PORT_OUT, GPU_KERNEL_PROTOCOL, true, false, "kernel done, to the trace sources of those hierarchies" },
	{ NULL, 0, NULL, false, false, NULL },
};

enum { KR_KERNELS };

static const struct ss_stat_desc stats[] = {
	[KR_KERNELS] = { "kernels", SS_STAT_COUNTER, "kernels reported", NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

/* ---- the metrics -------------------------------------------------------- */

/* The metrics and their Nsight names are report_metrics.h's; here, the
 * modes by their short names. */
#define REF REPORT_REF
#define HW REPORT_HW
#define NUG REPORT_NUG

/* The column of Nsight names in the text table: the longest, ..._lookup_hit.sum */
#define NCU_WIDTH 57

/* The counters one SM contributes (warp_interleaver and its L1). */
enum sm_counter {
	C_GMEM_LD_REQS, C_GMEM_ST_REQS, C_GMEM_LD_SECTORS, C_GMEM_ST_SECTORS,
	C_LMEM_LD_REQS, C_LMEM_ST_REQS, C_ATOM_REQS, C_RED_REQS,
	C_ATOM_RED_TRANS, C_UMEM_LD_SECTORS, C_UMEM_ST_SECTORS,
	N_REF_SM_COUNTERS,
	/* read in mode = hw only */
	C_LMEM_LD_SECTORS = N_REF_SM_COUNTERS, C_LMEM_ST_SECTORS,
	C_ATOM_SECTORS, C_RED_SECTORS, C_LINES,
	N_SM_COUNTERS
};

static const char *const sm_counter_names[N_SM_COUNTERS] = { SM_STAT_NAMES };
G_STATIC_ASSERT(N_REF_SM_COUNTERS == SM_STAT_N_REF);
G_STATIC_ASSERT(G_N_ELEMENTS(((const char *[]){ SM_STAT_NAMES })) == N_SM_COUNTERS);

typedef const uint64_t *sm_slots[N_SM_COUNTERS];

/* Of a cache: accesses and misses per space and operation. */
enum { SP_GLOBAL, SP_LOCAL, N_SPACES };
enum { DIR_LOAD, DIR_STORE, DIR_ATOMIC, DIR_REDUCTION, N_DIRS };
enum { CC_ACCESSES, CC_SECTOR_MISSES, CC_LINE_MISSES, N_CC };

static const char *const space_names[N_SPACES] = { CACHE_STAT_SPACES };
static const char *const dir_names[N_DIRS] = { CACHE_STAT_OPS };
static const char *const cc_names[N_CC] = { CACHE_STAT_COUNTS };

/* A timed cache's counters the report reads, in the order of ct_names. */
enum cache_timing_stat {
	CT_LATENCY_MISSES, CT_MERGES, CT_REFUSED_ENTRIES, CT_REFUSED_TARGETS,
	CT_PEAK, CT_LOAD_CYCLES, CT_LOADS,
	/* C-AMAT's, in the order of struct camat_counts */
	CT_CAMAT_FIRST, CT_CAMAT_LAST = CT_CAMAT_FIRST + 9, N_CT,
};

static const char *const ct_names[N_CT] = {
	TIMING_STAT_LATENCY_MISSES, TIMING_STAT_MERGES, TIMING_STAT_REFUSED_ENTRIES,
	TIMING_STAT_REFUSED_TARGETS, TIMING_STAT_PEAK, TIMING_STAT_LOAD_CYCLES,
	TIMING_STAT_LOADS,
	TIMING_STAT_CAMAT_ACCESSES, TIMING_STAT_CAMAT_HITS, TIMING_STAT_CAMAT_MISSES,
	TIMING_STAT_CAMAT_HIT_CYCLES, TIMING_STAT_CAMAT_MISS_CYCLES,
	TIMING_STAT_CAMAT_OVERLAP_HIT, TIMING_STAT_CAMAT_PURE_MISSES,
	TIMING_STAT_CAMAT_PURE_TIME, TIMING_STAT_CAMAT_PURE_OVERLAP,
	TIMING_STAT_CAMAT_ACTIVE,
};

struct cache_slots {
	bool sdcm;
	/* a sector cache */
	const uint64_t *c[N_SPACES][N_DIRS][N_CC];
	/* sectors sent down, read and written; NULL: a cache that does not
	 * say (has_down false) */
	const uint64_t *down[N_SPACES][N_DIRS][2];
	bool has_down;
	const uint64_t *wb_evict, *wb_flush, *dirty_at_end;
	const uint64_t *capacity;	/* NULL: a cache that does not say */
	/* timing mode: enum cache_timing_stat, NULL when not timed */
	const uint64_t *tm[N_CT];
	/* an sdcm_cache: accesses per category (ldl, ldg, stl, stg), rates */
	const uint64_t *cat[4];
	const uint64_t *hit_tot, *hit_ld, *hit_st, *hit_ldg, *hit_stg;
};

struct kernel_row {
	uint32_t id;
	char *name;
	uint64_t grid_size;
	uint32_t block_size, regs, smem;
	bool runs;
	/* blocks of the grid the trace holds, when its source says (a
	 * kernel that runs): fewer than grid_size, the rest counted empty */
	bool traced_known;
	uint64_t blocks_traced;
	uint32_t ordinal;	/* in the trace */
	uint64_t bytes_done, bytes_total;	/* of the trace, after this kernel */
	struct gpu_occupancy occ;
	double m[N_REPORT_METRICS];
	unsigned mode;		/* REF or HW */
	bool absent[N_REPORT_METRICS];	/* metrics the model does not compute */
	/* a rate's numerator and denominator, for the app total
	 * (REPORT_TOTAL_RATIO; noted: computed this kernel) */
	double num[N_REPORT_METRICS], den[N_REPORT_METRICS];
	bool noted[N_REPORT_METRICS];
	/* the other cache levels: n_levels x N_REPORT_LEVEL_METRICS, the
	 * report's (a run with lanes has none: resolve_levels) */
	const struct report_level *levels;
	unsigned n_levels;
	struct level_value *lv;
	unsigned n_levels_csv;	/* the levels' columns, whether it ran or not */
};

/* One metric of one other cache level in a kernel. */
struct level_value {
	double v, num, den;	/* a rate: num / den */
	bool absent;
};

/* A cache level beyond the L1s and the L2 (kernel_report's `levels`). */
struct report_level {
	char *name;		/* the component, or array */
	unsigned n;		/* its caches */
	struct cache_slots *cs;
};

/* The app total over the kernels this run simulated (enum report_total). */
struct app_total {
	unsigned kernels;
	double v[N_REPORT_METRICS];	/* SUM, MIN, MAX so far */
	double num[N_REPORT_METRICS], den[N_REPORT_METRICS];
	double last[N_REPORT_METRICS];	/* RATIO: the last kernel's value */
	unsigned count[N_REPORT_METRICS];	/* kernels that had it */
	unsigned noted[N_REPORT_METRICS];	/* RATIO: kernels that noted it */
	/* the other levels' metrics: sums (num, den for rates), and how
	 * many kernels had each; n_levels x N_REPORT_LEVEL_METRICS */
	struct level_value *lsum;
	unsigned *lcount;
};

/* A results file being written (ss_output_open: PATH.part, renamed to
 * `path` when complete, or written directly when not a regular file). */
struct out_file {
	char *path;
	const char *head;
	struct ss_output *out;
};

/*
 * A lane of the run (ss_run_options lane_values, claimed by the L2): the
 * same kernels with the L2 of another associativity, its counters at
 * L2.lane[i], written to results files of their own (FILE.lane<i>).
 */
struct report_lane {
	struct cache_slots l2;
	const uint64_t *dram_reads, *dram_writes;
	struct out_file json, csv;
	char *json_head, *csv_head;	/* with the lane's parameters */
};

struct kernel_report {
	struct ss_component c;
	char *names[4];		/* sm, l1, l2, dram */
	unsigned n_sms, n_done, ended;
	sm_slots *sm;
	struct cache_slots *l1;	/* n_sms of them, or none: no L1 */
	struct cache_slots *l2;	/* n_l2: one, or one per slice component */
	unsigned n_l2;
	unsigned l2_slices;	/* an l2_slice_set's slices, or n_l2 */
	unsigned mode;		/* REF, HW or NUG */
	/* mode = nugteren: per case (enum nug_case), its distance counts */
	char *cases[NUG_CASES];
	const uint64_t *nug[NUG_CASES][3];	/* cold, within, beyond */
	unsigned n_next;
	const uint64_t *dram_reads, *dram_writes;
	/* timing mode (NULL: functional): per SM the ticks + 1 of its first
	 * issue and last answer, and its refusals; DRAM's answers and queue */
	const uint64_t **sm_first, **sm_last, **sm_refused;
	const uint64_t *dram_answered, *dram_latency, *dram_queue;
	struct ss_port **next;
	struct kernel_row row;	/* the kernel under way */
	/* where its blocks came from (valid until our GPU_KERNEL_DONE) */
	struct gpu_block_source *blocks;
	uint64_t blocks_bytes;	/* the kernel's trace, as stored */
	const char *trace_file;
	bool l1_sdcm, l2_sdcm;
	bool planned;
	unsigned n_rows;	/* entries in the files (kept ones included) */
	unsigned n_shown;	/* kernels of this run */
	/* the app summary: sums over the kernels this run simulated */
	double msum[N_REPORT_METRICS];
	unsigned mcount[N_REPORT_METRICS];
	struct app_total total;
	struct out_file json, csv;
	uint64_t l1_accesses;	/* of the whole run, for the speed */
	gint64 t0;
	bool progress;		/* a line on a terminal, updated per kernel */
	/*
	 * and inside a kernel, from the bytes of its trace read, by a thread
	 * of its own every progress_us microseconds: outside the engine, so
	 * that a terminal changes nothing of a run (its events, its end).
	 * Under progress_lock: running (a kernel under way, whose row,
	 * blocks and sizes the thread may read), progress_shown, stop.
	 */
	pthread_t progress_thread;
	bool progress_thread_on;
	pthread_mutex_t progress_lock;
	pthread_cond_t progress_cond;
	bool progress_stop, running;
	gint64 progress_shown;	/* when the line was last written */
	gint64 progress_us;	/* the parameter progress_ms */
	unsigned total_kernels;	/* in the trace, 0: not known */
	uint64_t bytes_at_start;	/* of the trace, before this run's first kernel */
	bool seen_kernel;
	bool interrupted;
	char *csv_head;
	char *json_head;	/* the provenance, then "kernels" */
	struct report_lane *lanes;
	unsigned n_lanes;
	char *levels_param;
	struct report_level *levels;
	unsigned n_levels;
	struct level_value *lv;	/* the kernel under way's */
	/* L2.lanes_own: 1 + the lane of the run's own L2, 0: none */
	const uint64_t *lane_own;
};

static double div0(double a, double b)
{
	return b == 0 ? 0 : a / b;
}

/* Rate k of the kernel is num / den, for the app total; its value is set
 * apart, in the arithmetic its model uses. */
static void note_ratio(struct kernel_row *row, enum report_metric k,
		       double num, double den)
{
	row->num[k] = num;
	row->den[k] = den;
	row->noted[k] = true;
}

/* Metric k of the row is num / den (0 for 0 / 0). */
static void rate(struct kernel_row *row, enum report_metric k, double num, double den)
{
	row->m[k] = div0(num, den);
	note_ratio(row, k, num, den);
}

static uint64_t get(const uint64_t *slot)
{
	return slot ? *slot : 0;
}

/* Accesses and misses of one direction of n caches (the slices of an
 * L2), over `spaces`. */
static void cache_dir(const struct cache_slots *cs, unsigned n, int dir,
		      bool global_only, uint64_t *cnt, uint64_t *miss)
{
	*cnt = *miss = 0;
	for (unsigned i = 0; i < n; i++)
		for (int sp = 0; sp < (global_only ? 1 : N_SPACES); sp++) {
			*cnt += get(cs[i].c[sp][dir][CC_ACCESSES]);
			*miss += get(cs[i].c[sp][dir][CC_SECTOR_MISSES]) +
				 get(cs[i].c[sp][dir][CC_LINE_MISSES]);
		}
}

/* One counter of n caches, summed over the spaces and operations whose
 * bits are set in the masks. */
static uint64_t cache_sum(const struct cache_slots *cs, unsigned n,
			  unsigned spaces, unsigned dirs, int cc)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		for (int sp = 0; sp < N_SPACES; sp++)
			for (int d = 0; d < N_DIRS; d++)
				if ((spaces >> sp & 1) && (dirs >> d & 1))
					v += get(cs[i].c[sp][d][cc]);
	return v;
}

/* Sector accesses the cache saw in the kernel. */
static uint64_t cache_accesses(const struct cache_slots *cs)
{
	uint64_t n = 0;

	if (cs->sdcm) {
		for (int k = 0; k < 4; k++)
			n += get(cs->cat[k]);
		return n;
	}
	return cache_sum(cs, 1, ~0u, ~0u, CC_ACCESSES);
}

static double real(const uint64_t *slot)
{
	return slot ? ss_stat_real(slot) : 0;
}

/*
 * Hit rates of an L1: loads, stores, global loads, global stores.  A
 * sector cache counts them (1 - misses / accesses, the reference's
 * arithmetic; no access: 1); the SDCM computed them (no access: 0, which
 * multiplies 0 sectors either way).
 */
static void l1_rates(const struct cache_slots *cs, double *ld, double *st,
		     double *ldg, double *stg)
{
	uint64_t rc, rm, wc, wm;

	if (cs->sdcm) {
		*ld = real(cs->hit_ld);
		*st = real(cs->hit_st);
		*ldg = real(cs->hit_ldg);
		*stg = real(cs->hit_stg);
		return;
	}
	cache_dir(cs, 1, DIR_LOAD, false, &rc, &rm);
	*ld = 1 - div0(rm, rc);
	cache_dir(cs, 1, DIR_STORE, false, &wc, &wm);
	*st = 1 - div0(wm, wc);
	cache_dir(cs, 1, DIR_LOAD, true, &rc, &rm);
	*ldg = 1 - div0(rm, rc);
	cache_dir(cs, 1, DIR_STORE, true, &wc, &wm);
	*stg = 1 - div0(wm, wc);
}

/* mode = ref: the reference's formulas in its order of operations. */
static void compute_ref(struct kernel_report *r, struct kernel_row *row)
{
	double scale = row->occ.scale;
	uint64_t isum[N_SM_COUNTERS] = { 0 }, umem_ld_reqs = 0, umem_st_reqs = 0;
	double gmem_ld_hit = 0, gmem_st_hit = 0, umem_ld_hit = 0, umem_st_hit = 0;
	unsigned n_act = 0;
	double *m = row->m;

	for (unsigned s = 0; s < r->n_sms; s++) {
		const struct cache_slots *l1 = &r->l1[s];
		uint64_t v[N_REF_SM_COUNTERS];
		double ld, st, ldg, stg;

		uint64_t used = cache_accesses(l1);

		/* an SM that sent its L1 nothing is dropped, counters and all */
		if (!used)
			continue;
		r->l1_accesses += used;
		n_act++;
		for (int k = 0; k < N_REF_SM_COUNTERS; k++) {
			v[k] = get(r->sm[s][k]);
			isum[k] += v[k];
		}
		umem_ld_reqs += v[C_GMEM_LD_REQS] + v[C_LMEM_LD_REQS];
		umem_st_reqs += v[C_GMEM_ST_REQS] + v[C_LMEM_ST_REQS];
		l1_rates(l1, &ld, &st, &ldg, &stg);

		gmem_ld_hit += v[C_GMEM_LD_SECTORS] * ldg;
		gmem_st_hit += v[C_GMEM_ST_SECTORS] * stg;
		umem_ld_hit += v[C_UMEM_LD_SECTORS] * ld;
		umem_st_hit += v[C_UMEM_ST_SECTORS] * st;
	}

	/* K[x]: the sum over active SMs, then times the scale */
#define K(k) ((double)isum[k] * scale)
	double k_umem_ld = K(C_UMEM_LD_SECTORS), k_umem_st = K(C_UMEM_ST_SECTORS);
	double k_gmem_ld = K(C_GMEM_LD_SECTORS), k_gmem_st = K(C_GMEM_ST_SECTORS);
	double k_umem_ld_hit = umem_ld_hit * scale, k_umem_st_hit = umem_st_hit * scale;
	double k_gmem_ld_hit = gmem_ld_hit * scale, k_gmem_st_hit = gmem_st_hit * scale;
	uint64_t l2rc, l2rm, l2wc, l2wm;

	m[RM_l1_cache_size] = row->occ.l1_bytes;
	m[RM_scale] = scale;
	rate(row, RM_l1_hit_rate, k_umem_ld_hit + k_umem_st_hit, k_umem_ld + k_umem_st);
	rate(row, RM_l1_hit_rate_ld, k_umem_ld_hit, k_umem_ld);
	rate(row, RM_l1_hit_rate_st, k_umem_st_hit, k_umem_st);
	rate(row, RM_l1_hit_rate_g, k_gmem_ld_hit + k_gmem_st_hit, k_gmem_ld + k_gmem_st);
	rate(row, RM_l1_hit_rate_ldg, k_gmem_ld_hit, k_gmem_ld);
	rate(row, RM_l1_hit_rate_stg, k_gmem_st_hit, k_gmem_st);

	if (r->l2->sdcm) {
		l2rc = get(r->l2->cat[0]) + get(r->l2->cat[1]);
		l2wc = get(r->l2->cat[2]) + get(r->l2->cat[3]);
		m[RM_l2_hit_rate] = real(r->l2->hit_tot);
		m[RM_l2_hit_rate_ld] = real(r->l2->hit_ld);
		m[RM_l2_hit_rate_st] = real(r->l2->hit_st);
		/* scaled, as the kernel's counts are */
		note_ratio(row, RM_l2_hit_rate, m[RM_l2_hit_rate] * (l2rc + l2wc) * scale,
			   (l2rc + l2wc) * scale);
		note_ratio(row, RM_l2_hit_rate_ld, m[RM_l2_hit_rate_ld] * l2rc * scale,
			   l2rc * scale);
		note_ratio(row, RM_l2_hit_rate_st, m[RM_l2_hit_rate_st] * l2wc * scale,
			   l2wc * scale);
	} else {
		cache_dir(r->l2, r->n_l2, DIR_LOAD, false, &l2rc, &l2rm);
		cache_dir(r->l2, r->n_l2, DIR_STORE, false, &l2wc, &l2wm);
		m[RM_l2_hit_rate] = 1 - div0(l2rm + l2wm, l2rc + l2wc);
		m[RM_l2_hit_rate_ld] = 1 - div0(l2rm, l2rc);
		m[RM_l2_hit_rate_st] = 1 - div0(l2wm, l2wc);
		note_ratio(row, RM_l2_hit_rate, (double)(l2rc - l2rm + l2wc - l2wm) * scale,
			   (double)(l2rc + l2wc) * scale);
		note_ratio(row, RM_l2_hit_rate_ld, (double)(l2rc - l2rm) * scale,
			   (double)l2rc * scale);
		note_ratio(row, RM_l2_hit_rate_st, (double)(l2wc - l2wm) * scale,
			   (double)l2wc * scale);
	}

	m[RM_gmem_ld_reqs] = K(C_GMEM_LD_REQS);
	m[RM_gmem_st_reqs] = K(C_GMEM_ST_REQS);
	m[RM_gmem_tot_reqs] = m[RM_gmem_ld_reqs] + m[RM_gmem_st_reqs];
	m[RM_gmem_ld_sectors] = k_gmem_ld;
	m[RM_gmem_st_sectors] = k_gmem_st;
	m[RM_gmem_tot_sectors] = k_gmem_ld + k_gmem_st;
	/* requests are never negative: div0's "none" is the reference's > 0 */
	rate(row, RM_gmem_ld_diverg, k_gmem_ld, m[RM_gmem_ld_reqs]);
	rate(row, RM_gmem_st_diverg, k_gmem_st, m[RM_gmem_st_reqs]);
	rate(row, RM_gmem_tot_diverg, m[RM_gmem_tot_sectors], m[RM_gmem_tot_reqs]);
	m[RM_gmem_tot_sectors_per_sm] = div0(m[RM_gmem_tot_sectors], n_act);
	m[RM_lmem_ld_reqs] = K(C_LMEM_LD_REQS);
	m[RM_lmem_st_reqs] = K(C_LMEM_ST_REQS);
	m[RM_umem_ld_reqs] = (double)umem_ld_reqs * scale;
	m[RM_umem_st_reqs] = (double)umem_st_reqs * scale;
	m[RM_umem_ld_sectors] = k_umem_ld;
	m[RM_umem_st_sectors] = k_umem_st;
	m[RM_umem_tot_sectors] = k_umem_ld + k_umem_st;
	m[RM_l2_ld_trans] = (double)l2rc * scale;
	m[RM_l2_st_trans] = (double)l2wc * scale;
	m[RM_l2_tot_trans] = m[RM_l2_ld_trans] + m[RM_l2_st_trans];
	if (r->l2->sdcm) {
		/* what misses the model's L2 goes to DRAM:
		 * store misses, not write-backs, and tot need not be ld + st */
		m[RM_dram_tot_trans] = m[RM_l2_tot_trans] * (1 - m[RM_l2_hit_rate]);
		m[RM_dram_ld_trans] = m[RM_l2_ld_trans] * (1 - m[RM_l2_hit_rate_ld]);
		m[RM_dram_st_trans] = m[RM_l2_st_trans] * (1 - m[RM_l2_hit_rate_st]);
		row->absent[RM_write_evict] = row->absent[RM_write_flush] = true;
	} else {
		m[RM_dram_ld_trans] = (double)get(r->dram_reads) * scale;
		m[RM_dram_st_trans] = (double)get(r->dram_writes) * scale;
		m[RM_dram_tot_trans] = m[RM_dram_ld_trans] + m[RM_dram_st_trans];
		m[RM_write_evict] = 0;
		m[RM_write_flush] = 0;
		for (unsigned i = 0; i < r->n_l2; i++) {
			m[RM_write_evict] += get(r->l2[i].wb_evict);
			m[RM_write_flush] += get(r->l2[i].wb_flush);
		}
	}
	m[RM_atom_tot_reqs] = div0(K(C_ATOM_REQS), n_act);
	m[RM_red_tot_reqs] = div0(K(C_RED_REQS), n_act);
	m[RM_atom_red_tot_trans] = div0(K(C_ATOM_RED_TRANS), n_act);
#undef K
	if (!n_act)
		fprintf(stderr, "sectorsim: kernel %u (%s): no SM sent its L1 anything; per-SM averages are 0\n",
			row->id, row->name);
}

/* ---- wiring: the counters by name ---------------------------------------- */

static const uint64_t *slot(struct kernel_report *r, const char *inst,
			    const char *counter)
{
	/* g_strconcat, not a printf: ~100 of these per cache at start */
	char *name = g_strconcat(inst, ".", counter, NULL);
	const uint64_t *p = ss_stats_counter(r->c.engine, name);

	g_free(name);
	return p;
}

/* How many of PREFIX[0], PREFIX[1], ... in a row have counter `counter`:
 * an array's instances, an L2's slices. */
static unsigned count_indexed(struct kernel_report *r, const char *prefix,
			      const char *counter)
{
	unsigned n = 0;

	for (;; n++) {
		char *inst = g_strdup_printf("%s[%u]", prefix, n);
		bool there = slot(r, inst, counter) != NULL;

		g_free(inst);
		if (!there)
			return n;
	}
}

static bool resolve_sdcm(struct kernel_report *r, const char *inst,
			 struct cache_slots *cs, GError **err)
{
	static const char *const cats[4] = { SDCM_STAT_CATEGORIES };

	cs->sdcm = true;
	for (int k = 0; k < 4; k++)
		cs->cat[k] = slot(r, inst, cats[k]);
	cs->hit_tot = slot(r, inst, SDCM_STAT_HIT_TOT);
	cs->hit_ld = slot(r, inst, SDCM_STAT_HIT_LD);
	cs->hit_st = slot(r, inst, SDCM_STAT_HIT_ST);
	cs->hit_ldg = slot(r, inst, SDCM_STAT_HIT_LDG);
	cs->hit_stg = slot(r, inst, SDCM_STAT_HIT_STG);
	if (!cs->cat[0] || !cs->hit_tot) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "'%s' has no counter %s or %s; expected an sdcm_cache",
			    inst, cats[0], SDCM_STAT_HIT_TOT);
		return false;
	}
	return true;
}

static bool resolve_cache(struct kernel_report *r, const char *inst,
			  bool sdcm, struct cache_slots *cs, GError **err)
{
	if (sdcm)
		return resolve_sdcm(r, inst, cs, err);

	for (int sp = 0; sp < N_SPACES; sp++)
		for (int d = 0; d < N_DIRS; d++)
			for (int k = 0; k < N_CC; k++) {
				char *n = g_strconcat(space_names[sp], "_", dir_names[d],
							      "_", cc_names[k], NULL);

				cs->c[sp][d][k] = slot(r, inst, n);
				g_free(n);
				if (!cs->c[sp][d][k]) {
					g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
						    "'%s' has no counter %s_%s_%s; expected a sector cache or an l2_slice_set",
						    inst, space_names[sp], dir_names[d], cc_names[k]);
					return false;
				}
			}
	cs->has_down = true;
	for (int sp = 0; sp < N_SPACES; sp++)
		for (int d = 0; d < N_DIRS; d++)
			for (int k = 0; k < 2; k++) {
				char *n = g_strconcat(space_names[sp], "_", dir_names[d], "_",
						      k ? CACHE_STAT_WRITES_DOWN : CACHE_STAT_READS_DOWN,
						      NULL);

				cs->down[sp][d][k] = slot(r, inst, n);
				cs->has_down &= cs->down[sp][d][k] != NULL;
				g_free(n);
			}
	cs->wb_evict = slot(r, inst, CACHE_STAT_WB_EVICT);
	cs->wb_flush = slot(r, inst, CACHE_STAT_WB_FLUSH);
	cs->dirty_at_end = slot(r, inst, CACHE_STAT_DIRTY_AT_KERNEL_END);
	cs->capacity = slot(r, inst, CACHE_STAT_CAPACITY);
	for (int k = 0; k < N_CT; k++)
		cs->tm[k] = slot(r, inst, ct_names[k]);
	return true;
}

/*
 * Lookups that did not miss: the hits, and with count_write_misses =
 * false (fix_l2) the store misses too, so that the parameter means in hw
 * what it means in ref.
 */
static uint64_t not_missed(const struct cache_slots *cs, unsigned n,
			   unsigned spaces, unsigned dirs)
{
	return cache_sum(cs, n, spaces, dirs, CC_ACCESSES) -
	       cache_sum(cs, n, spaces, dirs, CC_SECTOR_MISSES) -
	       cache_sum(cs, n, spaces, dirs, CC_LINE_MISSES);
}

/* ... over the lookups (0 without any), as metric k of the row. */
static void hit_rate(struct kernel_row *row, enum report_metric k,
		     const struct cache_slots *cs, unsigned n,
		     unsigned spaces, unsigned dirs)
{
	double hits = (double)not_missed(cs, n, spaces, dirs);
	double lookups = (double)cache_sum(cs, n, spaces, dirs, CC_ACCESSES);

	row->m[k] = div0(hits, lookups);
	note_ratio(row, k, hits, lookups);
}


static void compute_timing(struct kernel_report *r, struct kernel_row *row);

/* mode = hw: integer counts, summed over the SMs, the L2's slices and
 * the DRAM channels; no scale. */
static void compute_hw(struct kernel_report *r, struct kernel_row *row)
{
	uint64_t v[N_SM_COUNTERS] = { 0 };
	unsigned n_act = 0;
	double *m = row->m;
	const unsigned G = 1u << SP_GLOBAL, ALL = ~0u;
	const unsigned LD = 1u << DIR_LOAD, ST = 1u << DIR_STORE;
	const unsigned AT = 1u << DIR_ATOMIC, RD = 1u << DIR_REDUCTION;

	for (unsigned s = 0; s < r->n_sms; s++) {
		/* active: the SM issued an instruction */
		if (!get(r->sm[s][C_LINES]))
			continue;
		n_act++;
		for (int k = 0; k < N_SM_COUNTERS; k++)
			v[k] += get(r->sm[s][k]);
	}

	m[RM_l1_cache_size] = row->occ.l1_bytes;
	m[RM_scale] = 1;
	if (r->l1) {
		const struct cache_slots *l1 = r->l1;
		unsigned n = r->n_sms;

		r->l1_accesses += cache_sum(l1, n, ALL, ALL, CC_ACCESSES);
		hit_rate(row, RM_l1_hit_rate, l1, n, ALL, ALL);
		hit_rate(row, RM_l1_hit_rate_ld, l1, n, ALL, LD);
		hit_rate(row, RM_l1_hit_rate_st, l1, n, ALL, ST);
		hit_rate(row, RM_l1_hit_rate_g, l1, n, G, ALL);
		hit_rate(row, RM_l1_hit_rate_ldg, l1, n, G, LD);
		hit_rate(row, RM_l1_hit_rate_stg, l1, n, G, ST);
		m[RM_gmem_ld_sectors_hit] = not_missed(l1, n, G, LD);
		m[RM_gmem_st_sectors_hit] = not_missed(l1, n, G, ST);
	} else {
		for (int k = RM_l1_hit_rate; k <= RM_l1_hit_rate_stg; k++)
			row->absent[k] = true;
		row->absent[RM_gmem_ld_sectors_hit] = row->absent[RM_gmem_st_sectors_hit] = true;
	}

	const struct cache_slots *l2 = r->l2;
	unsigned n2 = r->n_l2;
	uint64_t rd = cache_sum(l2, n2, ALL, LD, CC_ACCESSES);
	uint64_t wr = cache_sum(l2, n2, ALL, ST, CC_ACCESSES);
	uint64_t at = cache_sum(l2, n2, ALL, AT, CC_ACCESSES);
	uint64_t re = cache_sum(l2, n2, ALL, RD, CC_ACCESSES);

	hit_rate(row, RM_l2_hit_rate, l2, n2, ALL, ALL);
	hit_rate(row, RM_l2_hit_rate_ld, l2, n2, ALL, LD);
	hit_rate(row, RM_l2_hit_rate_st, l2, n2, ALL, ST);
	m[RM_l2_read_sectors] = rd;
	m[RM_l2_write_sectors] = wr;
	m[RM_l2_atom_sectors] = at;
	m[RM_l2_red_sectors] = re;
	/* the nvprof definitions the paper's hardware side uses */
	m[RM_l2_ld_trans] = rd + at + re;
	m[RM_l2_st_trans] = wr + at + re;
	m[RM_l2_tot_trans] = m[RM_l2_ld_trans] + m[RM_l2_st_trans];

	m[RM_gmem_ld_reqs] = v[C_GMEM_LD_REQS];
	m[RM_gmem_st_reqs] = v[C_GMEM_ST_REQS];
	m[RM_gmem_tot_reqs] = m[RM_gmem_ld_reqs] + m[RM_gmem_st_reqs];
	m[RM_gmem_ld_sectors] = v[C_GMEM_LD_SECTORS];
	m[RM_gmem_st_sectors] = v[C_GMEM_ST_SECTORS];
	m[RM_gmem_tot_sectors] = m[RM_gmem_ld_sectors] + m[RM_gmem_st_sectors];
	rate(row, RM_gmem_ld_diverg, m[RM_gmem_ld_sectors], m[RM_gmem_ld_reqs]);
	rate(row, RM_gmem_st_diverg, m[RM_gmem_st_sectors], m[RM_gmem_st_reqs]);
	rate(row, RM_gmem_tot_diverg, m[RM_gmem_tot_sectors], m[RM_gmem_tot_reqs]);
	m[RM_gmem_tot_sectors_per_sm] = div0(m[RM_gmem_tot_sectors], n_act);
	m[RM_lmem_ld_reqs] = v[C_LMEM_LD_REQS];
	m[RM_lmem_st_reqs] = v[C_LMEM_ST_REQS];
	m[RM_lmem_ld_sectors] = v[C_LMEM_LD_SECTORS];
	m[RM_lmem_st_sectors] = v[C_LMEM_ST_SECTORS];
	m[RM_umem_ld_reqs] = v[C_GMEM_LD_REQS] + v[C_LMEM_LD_REQS];
	m[RM_umem_st_reqs] = v[C_GMEM_ST_REQS] + v[C_LMEM_ST_REQS];
	m[RM_umem_ld_sectors] = v[C_UMEM_LD_SECTORS];
	m[RM_umem_st_sectors] = v[C_UMEM_ST_SECTORS];
	m[RM_umem_tot_sectors] = m[RM_umem_ld_sectors] + m[RM_umem_st_sectors];

	m[RM_dram_ld_trans] = get(r->dram_reads);
	m[RM_dram_st_trans] = get(r->dram_writes);
	m[RM_dram_tot_trans] = m[RM_dram_ld_trans] + m[RM_dram_st_trans];
	m[RM_l2_dirty_at_kernel_end] = m[RM_write_evict] = m[RM_write_flush] = 0;
	for (unsigned i = 0; i < n2; i++) {
		m[RM_l2_dirty_at_kernel_end] += get(l2[i].dirty_at_end);
		m[RM_write_evict] += get(l2[i].wb_evict);
		m[RM_write_flush] += get(l2[i].wb_flush);
	}
	/* every L1 and the L2 together; absent when a cache does not say */
	m[RM_cache_capacity_bytes] = 0;
	for (unsigned i = 0; i < n2; i++) {
		if (!l2[i].capacity)
			row->absent[RM_cache_capacity_bytes] = true;
		m[RM_cache_capacity_bytes] += get(l2[i].capacity);
	}
	for (unsigned s = 0; r->l1 && s < r->n_sms; s++) {
		if (!r->l1[s].capacity)
			row->absent[RM_cache_capacity_bytes] = true;
		m[RM_cache_capacity_bytes] += get(r->l1[s].capacity);
	}
	m[RM_atom_reqs] = v[C_ATOM_REQS];
	m[RM_red_reqs] = v[C_RED_REQS];
	m[RM_atom_sectors] = v[C_ATOM_SECTORS];
	m[RM_red_sectors] = v[C_RED_SECTORS];
	/* means per active SM: no app total (report_metrics.h) */
	m[RM_atom_tot_reqs] = div0(v[C_ATOM_REQS], n_act);
	m[RM_red_tot_reqs] = div0(v[C_RED_REQS], n_act);
	m[RM_atom_red_tot_trans] = div0(v[C_ATOM_RED_TRANS], n_act);
	compute_timing(r, row);
}

/*
 * The other cache levels in the kernel (REPORT_LEVEL_METRICS), each summed
 * over its caches, its counts scaled as the row's are (mode = ref).
 */
static void compute_levels(struct kernel_report *r, struct kernel_row *row)
{
	const unsigned ALL = ~0u, LD = 1u << DIR_LOAD, ST = 1u << DIR_STORE;
	double scale = r->mode == REF ? row->occ.scale : 1;

	row->levels = r->levels;
	row->n_levels = r->n_levels;
	row->lv = r->lv;
	for (unsigned l = 0; l < r->n_levels; l++) {
		const struct cache_slots *cs = r->levels[l].cs;
		unsigned n = r->levels[l].n;
		struct level_value *v = &r->lv[(size_t)l * N_REPORT_LEVEL_METRICS];
		double down[2] = { 0, 0 }, capacity = 0;
		bool has_down = true, has_capacity = true;
		struct { enum report_level_metric k; unsigned dirs; } rates[] = {
			{ RL_hit_rate, ALL }, { RL_hit_rate_ld, LD }, { RL_hit_rate_st, ST },
		};

		memset(v, 0, sizeof(*v) * N_REPORT_LEVEL_METRICS);
		for (unsigned i = 0; i < n; i++) {
			has_down &= cs[i].has_down;
			has_capacity &= cs[i].capacity != NULL;
			capacity += get(cs[i].capacity);
			for (int sp = 0; sp < N_SPACES; sp++)
				for (int d = 0; d < N_DIRS; d++)
					for (int k = 0; k < 2; k++)
						down[k] += get(cs[i].down[sp][d][k]);
			down[1] += get(cs[i].wb_evict) + get(cs[i].wb_flush);
		}
		v[RL_lookups].v = scale * cache_sum(cs, n, ALL, ALL, CC_ACCESSES);
		v[RL_hits].v = scale * not_missed(cs, n, ALL, ALL);
		for (unsigned k = 0; k < G_N_ELEMENTS(rates); k++) {
			struct level_value *x = &v[rates[k].k];

			x->num = scale * not_missed(cs, n, ALL, rates[k].dirs);
			x->den = scale * cache_sum(cs, n, ALL, rates[k].dirs, CC_ACCESSES);
			x->v = div0(x->num, x->den);
		}
		v[RL_reads_down].v = scale * down[0];
		v[RL_writes_down].v = scale * down[1];
		v[RL_reads_down].absent = v[RL_writes_down].absent = !has_down;
		v[RL_capacity_bytes].v = capacity;
		v[RL_capacity_bytes].absent = !has_capacity;
		/* the hierarchy's capacity is every level's */
		if (!has_capacity)
			row->absent[RM_cache_capacity_bytes] = true;
		else if (!row->absent[RM_cache_capacity_bytes])
			row->m[RM_cache_capacity_bytes] += capacity;
	}
}

/* A level's timing metrics, from RM_<level>_mean_load_latency on in
 * the order of REPORT_TIMING_METRICS; absent when it is not timed. */
static void timing_level(const struct cache_slots *cs, unsigned n, struct kernel_row *row,
			 enum report_metric first)
{
	static const enum cache_timing_stat sums[] = {
		CT_LATENCY_MISSES, CT_MERGES, CT_REFUSED_ENTRIES, CT_REFUSED_TARGETS,
	};
	uint64_t cycles = 0, loads = 0, peak = 0;
	double *m = row->m;

	if (!cs || !cs[0].tm[CT_LOADS]) {
		for (unsigned k = 0; k <= G_N_ELEMENTS(sums) + 1; k++)
			row->absent[first + k] = true;
		return;
	}
	for (unsigned k = 0; k < G_N_ELEMENTS(sums); k++)
		m[first + 1 + k] = 0;
	for (unsigned i = 0; i < n; i++) {
		cycles += get(cs[i].tm[CT_LOAD_CYCLES]);
		loads += get(cs[i].tm[CT_LOADS]);
		peak = MAX(peak, get(cs[i].tm[CT_PEAK]));
		for (unsigned k = 0; k < G_N_ELEMENTS(sums); k++)
			m[first + 1 + k] += get(cs[i].tm[sums[k]]);
	}
	rate(row, first, cycles, loads);
	m[first + 1 + G_N_ELEMENTS(sums)] = peak;
}

/* Where a C-AMAT metric is among its level's, from camat_accesses on:
 * the same for every level. */
#define CAMAT_OFF(name) (RM_l1_##name - RM_l1_camat_accesses)
G_STATIC_ASSERT(RM_l2_amat - RM_l2_camat_accesses == CAMAT_OFF(amat));

/*
 * A level's C-AMAT metrics, from RM_<level>_camat_accesses on in the order
 * of REPORT_TIMING_METRICS: the counts summed over its caches, then the
 * ratios of the sums; a ratio of nothing is absent.
 */
static void camat_level(const struct cache_slots *cs, unsigned n, struct kernel_row *row,
			enum report_metric first)
{
	struct camat_counts c = { 0 };
	struct camat_ratios q;
	uint64_t *v[] = {
		&c.accesses, &c.hits, &c.misses, &c.hit_cycles, &c.miss_cycles,
		&c.overlap_hit_time, &c.pure_misses, &c.pure_miss_time,
		&c.pure_miss_overlap_time, &c.active_cycles,
	};
	/* the counts shown, and the ratios, in the metrics' order */
	const uint64_t *shown[] = {
		&c.accesses, &c.hits, &c.misses, &c.overlap_hit_time, &c.pure_misses,
		&c.pure_miss_time, &c.pure_miss_overlap_time, &c.active_cycles,
	};
	const double *ratios[] = {
		&q.C_h, &q.C_m, &q.pMR, &q.pAMP, &q.mean_hit_time, &q.camat, &q.amat,
	};
	double *m = row->m;
	unsigned k;

	G_STATIC_ASSERT(G_N_ELEMENTS(v) == CT_CAMAT_LAST - CT_CAMAT_FIRST + 1);
	if (!cs || !cs[0].tm[CT_CAMAT_FIRST]) {
		for (k = 0; k < G_N_ELEMENTS(shown) + G_N_ELEMENTS(ratios); k++)
			row->absent[first + k] = true;
		return;
	}
	for (unsigned i = 0; i < n; i++)
		for (k = 0; k < G_N_ELEMENTS(v); k++)
			*v[k] += get(cs[i].tm[CT_CAMAT_FIRST + k]);
	camat_ratios(&c, &q);
	for (k = 0; k < G_N_ELEMENTS(shown); k++)
		m[first + k] = (double)*shown[k];
	for (unsigned j = 0; j < G_N_ELEMENTS(ratios); j++, k++) {
		if (isnan(*ratios[j]))
			row->absent[first + k] = true;
		else
			m[first + k] = *ratios[j];
	}
	/* the ratios as camat_ratios() makes them, for the app total */
	note_ratio(row, first + CAMAT_OFF(C_h), c.hit_cycles, c.overlap_hit_time);
	note_ratio(row, first + CAMAT_OFF(C_m), c.pure_miss_time, c.pure_miss_overlap_time);
	note_ratio(row, first + CAMAT_OFF(pMR), c.pure_misses, c.accesses);
	note_ratio(row, first + CAMAT_OFF(pAMP), c.pure_miss_time, c.pure_misses);
	note_ratio(row, first + CAMAT_OFF(mean_hit_time), c.hit_cycles, c.accesses);
	note_ratio(row, first + CAMAT_OFF(amat), c.hit_cycles + c.miss_cycles, c.accesses);
}

/* mode = hw in timing mode: the kernel's time and its levels'. */
static void compute_timing(struct kernel_report *r, struct kernel_row *row)
{
	uint64_t first = UINT64_MAX, last = 0, lo = UINT64_MAX, hi = 0, refused = 0;
	double *m = row->m;

	if (!r->sm_first) {
		for (int k = RM_mem_cycles; k <= RM_l2_amat; k++)
			row->absent[k] = true;
		return;
	}
	for (unsigned s = 0; s < r->n_sms; s++) {
		uint64_t f = get(r->sm_first[s]), l = get(r->sm_last[s]);

		refused += get(r->sm_refused[s]);
		if (!f)
			continue;	/* issued nothing */
		l = MAX(l, f);		/* stores only: its time is its issue */
		first = MIN(first, f);
		last = MAX(last, l);
		lo = MIN(lo, l - f);
		hi = MAX(hi, l - f);
	}
	m[RM_mem_cycles] = last >= first ? last - first : 0;
	m[RM_sm_mem_cycles_min] = lo == UINT64_MAX ? 0 : lo;
	m[RM_sm_mem_cycles_max] = hi;
	m[RM_sm_refused] = refused;
	timing_level(r->l1, r->n_sms, row, RM_l1_mean_load_latency);
	timing_level(r->l2, r->n_l2, row, RM_l2_mean_load_latency);
	camat_level(r->l1, r->n_sms, row, RM_l1_camat_accesses);
	camat_level(r->l2, r->n_l2, row, RM_l2_camat_accesses);
	if (r->dram_answered)
		rate(row, RM_dram_mean_latency, get(r->dram_latency), get(r->dram_answered));
	else
		row->absent[RM_dram_mean_latency] = true;
	if (r->dram_queue)
		rate(row, RM_dram_mean_queue_delay, get(r->dram_queue),
		     get(r->dram_reads) + get(r->dram_writes));
	else
		row->absent[RM_dram_mean_queue_delay] = true;
}

/*
 * The L2: one component (an l2_slice_set sums its slices), or an array of
 * them, one per slice behind a router, whose counters the report sums.
 */
static bool resolve_l2(struct kernel_report *r, GError **err)
{
	const char *name = r->names[2];
	const char *probe = CACHE_STAT(CACHE_STAT_GLOBAL, CACHE_STAT_LOAD,
				       CACHE_STAT_ACCESSES);

	/* an SDCM L2 is one component: its own error names what it lacks */
	if (r->l2_sdcm || slot(r, name, probe)) {
		/* an l2_slice_set of several slices says each one's totals */
		char *slices = g_strdup_printf("%s.slice", name);

		r->l2_slices = MAX(count_indexed(r, slices, "accesses"), 1);
		g_free(slices);
		r->n_l2 = 1;
		r->l2 = g_new0(struct cache_slots, 1);
		return resolve_cache(r, name, r->l2_sdcm, r->l2, err);
	}
	r->n_l2 = count_indexed(r, name, probe);
	if (!r->n_l2) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "l2 = %s: no l2_slice_set, sector_cache or array of sector_caches of that name",
			    name);
		r->n_l2 = 0;
		return false;
	}
	r->l2_slices = r->n_l2;
	r->l2 = g_new0(struct cache_slots, r->n_l2);
	for (unsigned i = 0; i < r->n_l2; i++) {
		char *inst = g_strdup_printf("%s[%u]", name, i);
		bool ok = resolve_cache(r, inst, false, &r->l2[i], err);

		g_free(inst);
		if (!ok)
			return false;
	}
	return true;
}

/* A level named `name`: one component, or an array of them (name[i]);
 * its caches' counters, or false with *err. */
static bool add_level(struct kernel_report *r, const char *name, GError **err)
{
	const char *probe = CACHE_STAT(CACHE_STAT_GLOBAL, CACHE_STAT_LOAD,
				       CACHE_STAT_ACCESSES);
	struct report_level lv = { .name = g_strdup(name) };
	bool array = !slot(r, name, probe);

	lv.n = array ? count_indexed(r, name, probe) : 1;
	if (!lv.n) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "levels: '%s' has no counter %s; expected a sector_cache, an array of them or an l2_slice_set",
			    name, probe);
		g_free(lv.name);
		return false;
	}
	lv.cs = g_new0(struct cache_slots, lv.n);
	r->levels = g_renew(struct report_level, r->levels, r->n_levels + 1);
	r->levels[r->n_levels++] = lv;
	for (unsigned i = 0; i < lv.n; i++) {
		char *inst = array ? g_strdup_printf("%s[%u]", name, i) : g_strdup(name);
		bool ok = resolve_cache(r, inst, false, &lv.cs[i], err);

		g_free(inst);
		if (!ok)
			return false;
	}
	return true;
}

/* Whether `name` is a level reported already: the L1s, the L2, another. */
static bool level_known(const struct kernel_report *r, const char *name)
{
	if (!strcmp(name, r->names[1]) || !strcmp(name, r->names[2]))
		return true;
	for (unsigned i = 0; i < r->n_levels; i++)
		if (!strcmp(name, r->levels[i].name))
			return true;
	return false;
}

/*
 * The other cache levels: those `levels` names, or with auto every
 * component whose counters are a sector cache's (INSTANCE.global_load_
 * accesses, the instance a component or an array's element), in the order
 * they were made, but the L1s and the L2.
 */
static bool resolve_levels(struct kernel_report *r, GError **err)
{
	const char *want = r->levels_param;
	bool ok = true;

	if (r->mode == NUG || !strcmp(want, "none"))
		return true;
	if (strcmp(want, "auto")) {
		char **v = g_strsplit(want, ",", -1);

		for (char **p = v; *p && ok; p++) {
			char *name = g_strstrip(*p);

			if (!*name)
				continue;
			if (level_known(r, name)) {
				g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
					    "levels: '%s' is reported already (the L1s, the L2 or named twice); expected another cache", name);
				ok = false;
				break;
			}
			ok = add_level(r, name, err);
		}
		g_strfreev(v);
	} else {
		const char *suffix =
			"." CACHE_STAT(CACHE_STAT_GLOBAL, CACHE_STAT_LOAD, CACHE_STAT_ACCESSES);
		GPtrArray *names = ss_stats_counters_ending(r->c.engine, suffix);

		for (guint i = 0; i < names->len && ok; i++) {
			const char *n = names->pdata[i];
			/* INSTANCE: COMP or COMP[i]; one with a '.' is a part of a
			 * component (an L2's slice or lane), counted in its whole */
			char *inst = g_strndup(n, strlen(n) - strlen(suffix));
			char *comp = g_strndup(inst, strcspn(inst, "["));

			if (!strchr(inst, '.') && !level_known(r, comp))
				ok = add_level(r, comp, err);
			g_free(comp);
			g_free(inst);
		}
		g_ptr_array_unref(names);
	}
	/* a lane is the L2 of other ways: where the other levels stand, and
	 * what they would count under it, the counters cannot tell */
	if (ok && r->n_levels && r->n_lanes) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "lanes of %s: the report has other cache levels (%s%s), whose numbers one pass of the L2's lanes cannot give; expected each associativity run on its own",
			    r->names[2], r->levels[0].name, r->n_levels > 1 ? ", ..." : "");
		ok = false;
	}
	if (ok && r->n_levels)
		r->lv = g_new0(struct level_value, (size_t)r->n_levels * N_REPORT_LEVEL_METRICS);
	return ok;
}

/* mode = nugteren: the four caches' names. */
static bool parse_cases(struct kernel_report *r, const char *list, GError **err)
{
	char **v = g_strsplit(list, ",", -1);
	guint n = g_strv_length(v);

	if (n != NUG_CASES) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "cases = '%s': expected the %u sdcm_caches of the normal, fully associative, no-latency and unlimited-MSHR simulations, comma-separated",
			    list, NUG_CASES);
		g_strfreev(v);
		return false;
	}
	for (guint i = 0; i < n; i++)
		r->cases[i] = g_strdup(g_strstrip(v[i]));
	g_strfreev(v);
	return true;
}

static int report_create(struct ss_component *c, const struct ss_params *p,
			 GError **err)
{
	struct kernel_report *r = SS_COMPONENT(c, struct kernel_report, c);

	/* what can be refused is, before anything is allocated (a component
	 * that fails to be created is not destroyed) */
	r->l1_sdcm = ss_param_enum(p, "l1_model") == 1;
	r->l2_sdcm = ss_param_enum(p, "l2_model") == 1;
	r->mode = (unsigned[]){ REF, HW, NUG }[ss_param_enum(p, "mode")];
	if (r->mode != NUG && *ss_param_string(p, "cases")) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "cases: only for mode = nugteren");
		return -1;
	}
	if (r->mode == HW && (r->l1_sdcm || r->l2_sdcm)) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "mode = hw counts sector caches; expected l1_model and l2_model = simulator");
		return -1;
	}
	if (r->mode == REF && !*ss_param_string(p, "l1")) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "l1 is empty: mode = ref needs the L1s (its rates are per-SM L1 rates); expected the name of the L1 array");
		return -1;
	}
	if (r->mode == NUG && !parse_cases(r, ss_param_string(p, "cases"), err))
		return -1;
	r->names[0] = g_strdup(ss_param_string(p, "sm"));
	r->names[1] = g_strdup(ss_param_string(p, "l1"));
	r->names[2] = g_strdup(ss_param_string(p, "l2"));
	r->names[3] = g_strdup(ss_param_string(p, "dram"));
	r->levels_param = g_strdup(ss_param_string(p, "levels"));
	r->progress_us = (gint64)ss_param_uint(p, "progress_ms") * 1000;
	r->n_done = ss_component_port_count(c, "done");
	r->n_next = 1 + ss_component_port_count(c, "also_next");
	r->next = g_new(struct ss_port *, r->n_next);
	r->next[0] = ss_component_port(c, "next", 0);
	for (unsigned i = 1; i < r->n_next; i++)
		r->next[i] = ss_component_port(c, "also_next", i - 1);
	/* it sends only on next */
	ss_component_set_port_flags(c, "plan", SS_PORT_SILENT);
	ss_component_set_port_flags(c, "also_plan", SS_PORT_SILENT);
	ss_component_set_port_flags(c, "done", SS_PORT_SILENT);
	return 0;
}

/*
 * The kernels a partial results file holds, in order: the id and the end
 * of each complete entry (a JSON object ends with "\n    }", a CSV row with
 * its newline).  An entry cut short by a kill is not one.
 */
struct kept {
	GArray *ids;	/* uint32_t */
	GArray *ends;	/* size_t: offset just after the entry */
};

static void scan_kept(const char *text, size_t len, size_t head_len, bool json,
		      struct kept *k)
{
	static const char key[] = "\n    {\n      \"kernel_id\": ";
	const char *p = text + head_len, *end = text + len;

	k->ids = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	k->ends = g_array_new(FALSE, FALSE, sizeof(size_t));
	while (p < end) {
		const char *stop;
		uint32_t id;

		if (json) {
			const char *e = g_strstr_len(p, end - p, key);

			if (!e)
				break;
			id = strtoul(e + sizeof(key) - 1, NULL, 10);
			stop = g_strstr_len(e + 1, end - e - 1, "\n    }");
			if (!stop)
				break;
			stop += 6;
		} else {
			stop = memchr(p, '\n', end - p);
			if (!stop)
				break;
			id = strtoul(p, NULL, 10);
			stop += 1;
		}
		size_t off = stop - text;

		g_array_append_val(k->ids, id);
		g_array_append_val(k->ends, off);
		p = stop;
	}
}

/*
 * Results go to PATH.part, a kernel at a time, flushed, and are renamed to
 * PATH when the run is complete: an interrupted run keeps every finished
 * kernel there, and --resume continues it.  What is not a regular file (a
 * device, a FIFO, "-" for standard output) is written directly.
 */
static bool out_open(struct out_file *o, const char *path, const char *head,
		     GError **err)
{
	GError *inner = NULL;

	if (!path)
		return true;
	path = g_strdup(path);		/* it may be o->path */
	g_free(o->path);
	o->path = (char *)path;
	o->head = head;
	o->out = ss_output_open(path, &inner);
	if (!o->out) {
		int why = errno;
		char *part = ss_output_part_name(path);

		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG, "%s: cannot write the results: %s",
			    part ? part : path, g_strerror(why));
		g_free(part);
		g_error_free(inner);
		return false;
	}
	/* flushed with the first kernel, whose flush reports a write error
	 * as the run's own */
	fputs(head, ss_output_file(o->out));
	return true;
}

static bool same_provenance(const char *part, const char *text, size_t len,
			    const char *want, bool json, GError **err);

/* The results of an interrupted run, if PATH.part holds any: read them
 * (*k) without opening the file for writing yet.  One made by another run
 * (same_provenance, JSON or CSV) is an error, *err set. */
static bool out_read_kept(struct out_file *o, bool json, struct kept *k,
			  GError **err)
{
	char *part = o->path ? ss_output_part_name(o->path) : NULL;
	char *text = NULL;
	size_t len = 0;
	bool there = part && g_file_get_contents(part, &text, &len, NULL);

	if (there && !same_provenance(part, text, len, o->head, json, err)) {
		g_free(part);
		g_free(text);
		return false;
	}
	g_free(part);
	if (!there)
		return false;
	if (len < strlen(o->head) || memcmp(text, o->head, strlen(o->head))) {
		g_free(text);
		return false;
	}
	scan_kept(text, len, strlen(o->head), json, k);
	g_free(text);
	return true;
}

/* Keep the first n entries of PATH.part and append after them. */
static bool out_keep(struct out_file *o, const struct kept *k, guint n, GError **err)
{
	size_t end = n ? g_array_index(k->ends, size_t, n - 1) : strlen(o->head);
	GError *inner = NULL;

	o->out = ss_output_resume(o->path, end, &inner);
	if (!o->out) {
		int why = errno;
		char *part = ss_output_part_name(o->path);

		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG, "%s: cannot resume the results: %s",
			    part ? part : o->path, g_strerror(why));
		g_free(part);
		g_error_free(inner);
		return false;
	}
	return true;
}

/* After each kernel: what was written reached the file, or the run stops. */
static bool out_flush(struct kernel_report *r, struct out_file *o)
{
	GError *err = NULL;

	if (!o->out || ss_output_flush(o->out, &err))
		return true;
	ss_engine_fail(r->c.engine, err);
	return false;
}

/* Complete: the tail, then rename over the name asked for. */
static bool out_commit(struct out_file *o, const char *tail, GError **err)
{
	struct ss_output *out = o->out;

	o->out = NULL;
	if (!out)
		return true;
	fputs(tail, ss_output_file(out));
	return ss_output_commit(out, err);
}

/* Not complete: leave PATH.part for --resume (keep), or throw it away. */
static void out_end(struct out_file *o, bool keep)
{
	if (keep)
		ss_output_keep(o->out);
	else
		ss_output_abort(o->out);
	o->out = NULL;
}

/* The table on standard output reached it, or the run stops. */
static bool flush_stdout(struct kernel_report *r)
{
	struct ss_output *so = ss_output_open("-", NULL);
	GError *err = NULL;
	bool ok = ss_output_flush(so, &err);

	ss_output_keep(so);
	if (!ok)
		ss_engine_fail(r->c.engine, err);
	return ok;
}

/* mode = nugteren: each case's distance counts. */
static bool resolve_cases(struct kernel_report *r, GError **err)
{
	static const char *const names[3] = {
		SDCM_STAT_RD_COLD, SDCM_STAT_RD_WITHIN, SDCM_STAT_RD_BEYOND,
	};

	for (int k = 0; k < NUG_CASES; k++)
		for (int i = 0; i < 3; i++) {
			r->nug[k][i] = slot(r, r->cases[k], names[i]);
			if (!r->nug[k][i]) {
				g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
					    "cases: '%s' has no counter %s; expected an sdcm_cache with timing = true",
					    r->cases[k], names[i]);
				return false;
			}
		}
	return true;
}

/* mode = nugteren: the model's numbers from its four cases. */
static void compute_nug(struct kernel_report *r, struct kernel_row *row)
{
	struct nug_case_counts cc[NUG_CASES];
	struct nug_split sp;
	double *m = row->m;

	for (int k = 0; k < NUG_CASES; k++)
		cc[k] = (struct nug_case_counts){
			.cold = *r->nug[k][0], .within = *r->nug[k][1],
			.beyond = *r->nug[k][2],
		};
	sp = nugteren_split(cc);
	r->l1_accesses += (uint64_t)sp.total;
	m[RM_accesses] = (double)sp.total;
	m[RM_hits] = (double)sp.hits;
	m[RM_misses] = (double)sp.misses;
	m[RM_misses_compulsory] = (double)sp.compulsory;
	m[RM_misses_capacity] = (double)sp.capacity;
	m[RM_misses_associativity] = (double)sp.associativity;
	m[RM_misses_latency] = (double)sp.latency;
	m[RM_misses_mshr] = (double)sp.mshr;
	m[RM_miss_rate_pct] = sp.miss_rate;
	note_ratio(row, RM_miss_rate_pct, 100.0 * sp.misses, (double)sp.total);
	m[RM_misses_full_assoc] = (double)sp.case_misses[NUG_FULL_ASSOC];
	m[RM_misses_no_latency] = (double)sp.case_misses[NUG_NO_LATENCY];
	m[RM_misses_no_mshr_limit] = (double)sp.case_misses[NUG_NO_MSHR_LIMIT];
}

/* Every component exists and has registered its counters by now. */
/*
 * The run's lanes, when the L2 this report reads claimed them: each
 * lane's L2 counters, and the 32-byte transactions it sends for DRAM's
 * (the lanes are for a dram_counter right below the L2: each kernel's end
 * checks that the lane of the run's own L2 sent what DRAM counted).
 */
static bool resolve_lanes(struct kernel_report *r, GError **err)
{
	const char *by = ss_engine_lanes_claimed(r->c.engine);
	char **values = ss_engine_run_options(r->c.engine)->lane_values;

	if (!by || strcmp(by, r->names[2]) || r->n_l2 != 1 || r->l2_sdcm)
		return true;
	r->n_lanes = g_strv_length(values);
	r->lanes = g_new0(struct report_lane, r->n_lanes);
	for (unsigned i = 0; i < r->n_lanes; i++) {
		struct report_lane *ln = &r->lanes[i];
		char *inst = g_strdup_printf("%s.lane[%u]", r->names[2], i);
		bool ok = resolve_cache(r, inst, false, &ln->l2, err);

		ln->dram_reads = slot(r, inst, "sent_reads");
		ln->dram_writes = slot(r, inst, "sent_writes");
		g_free(inst);
		if (!ok)
			return false;
	}
	r->lane_own = slot(r, r->names[2], "lanes_own");
	return true;
}

static int report_init(struct ss_component *c, GError **err)
{
	struct kernel_report *r = SS_COMPONENT(c, struct kernel_report, c);
	char *inst;

	if (r->mode == NUG)
		return resolve_cases(r, err) ? 0 : -1;
	r->n_sms = count_indexed(r, r->names[0], SM_STAT_LINES);
	if (!r->n_sms) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "sm = %s: no warp_interleaver array of that name", r->names[0]);
		return -1;
	}
	r->sm = g_new0(sm_slots, r->n_sms);
	if (*r->names[1])
		r->l1 = g_new0(struct cache_slots, r->n_sms);
	for (unsigned s = 0; s < r->n_sms; s++) {
		inst = g_strdup_printf("%s[%u]", r->names[0], s);
		for (int k = 0; k < N_SM_COUNTERS; k++) {
			r->sm[s][k] = slot(r, inst, sm_counter_names[k]);
			if (!r->sm[s][k] && (k < N_REF_SM_COUNTERS || r->mode == HW)) {
				g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
					    "'%s' has no counter %s; expected a warp_interleaver%s",
					    inst, sm_counter_names[k],
					    r->mode == HW ? " (mode = hw needs its hw counters)" : "");
				g_free(inst);
				return -1;
			}
		}
		g_free(inst);
		if (!r->l1)
			continue;
		inst = g_strdup_printf("%s[%u]", r->names[1], s);
		bool ok = resolve_cache(r, inst, r->l1_sdcm, &r->l1[s], err);

		g_free(inst);
		if (!ok)
			return -1;
	}
	if (!resolve_l2(r, err))
		return -1;
	r->dram_reads = slot(r, r->names[3], DRAM_STAT_READS);
	r->dram_writes = slot(r, r->names[3], DRAM_STAT_WRITES);
	r->dram_answered = slot(r, r->names[3], DRAM_STAT_ANSWERED);
	r->dram_latency = slot(r, r->names[3], DRAM_STAT_LATENCY_CYCLES);
	r->dram_queue = slot(r, r->names[3], DRAM_STAT_QUEUE_CYCLES);
	inst = g_strdup_printf("%s[0]", r->names[0]);
	if (slot(r, inst, SM_STAT_FIRST_ISSUE)) {
		r->sm_first = g_new0(const uint64_t *, r->n_sms);
		r->sm_last = g_new0(const uint64_t *, r->n_sms);
		r->sm_refused = g_new0(const uint64_t *, r->n_sms);
		for (unsigned s = 0; s < r->n_sms; s++) {
			char *sm = g_strdup_printf("%s[%u]", r->names[0], s);

			r->sm_first[s] = slot(r, sm, SM_STAT_FIRST_ISSUE);
			r->sm_last[s] = slot(r, sm, SM_STAT_LAST_ANSWER);
			r->sm_refused[s] = slot(r, sm, SM_STAT_REFUSED);
			g_free(sm);
		}
	}
	g_free(inst);
	/* an SDCM L2 predicts DRAM from its hit rates: no counter needed */
	if (!r->l2_sdcm && (!r->dram_reads || !r->dram_writes)) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "dram = %s: no dram_counter of that name", r->names[3]);
		return -1;
	}
	return resolve_lanes(r, err) && resolve_levels(r, err) ? 0 : -1;
}

static void json_string(FILE *f, const char *v);

/* A JSON string, or null for NULL. */
static void json_string_or_null(FILE *f, const char *v)
{
	if (v)
		json_string(f, v);
	else
		fputs("null", f);
}

/*
 * What produced the results (the run options the program sets), in both
 * files: each key's value is one line of JSON, written as `  "KEY":
 * VALUE,` at the head of the JSON and as `# KEY: VALUE` lines before the
 * CSV's header (CSV readers skip them as comments: pandas' comment='#',
 * R's comment.char), so that --resume checks either file alike, line by
 * line.  "schema" numbers this layout.
 */
static const char *const provenance_keys[] = {
	"schema", "sectorsim", "config", "trace", "params", NULL
};

static void provenance_value(FILE *f, const struct ss_run_options *o, int key)
{
	switch (key) {
	case 0:
		fputs("1", f);
		break;
	case 1:
		json_string_or_null(f, o->version);
		break;
	case 2:
	case 3:
		fputs("{\"path\": ", f);
		json_string_or_null(f, key == 2 ? o->config : o->trace);
		fputs(", \"digest\": ", f);
		json_string_or_null(f, key == 2 ? o->config_digest : o->trace_digest);
		fputs("}", f);
		break;
	default:
		fputs("[", f);
		for (char **p = o->params; p && *p; p++) {
			if (p != o->params)
				fputs(", ", f);
			json_string(f, *p);
		}
		fputs("]", f);
	}
}

/* The head of a results file up to its first kernel: the JSON's through
 * `"kernels": [`, or the CSV's comment lines and `columns`. */
static char *results_head(const struct ss_run_options *o, bool json,
			  const char *columns)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		g_error("out of memory");
	fputs(json ? "{\n" : "# sectorsim results\n", f);
	for (int k = 0; provenance_keys[k]; k++) {
		fprintf(f, json ? "  \"%s\": " : "# %s: ", provenance_keys[k]);
		provenance_value(f, o, k);
		fputs(json ? ",\n" : "\n", f);
	}
	fputs(json ? "  \"kernels\": [" : columns, f);
	fclose(f);
	return buf;
}

/* The value of `key` in `head` (results_head()'s, of the JSON or the
 * CSV): the rest of its line, without a trailing comma; NULL when there is
 * none. */
static char *head_value(const char *head, const char *key, bool json)
{
	char *start = json ? g_strdup_printf("\n  \"%s\": ", key)
			   : g_strdup_printf("\n# %s: ", key);
	const char *p = strstr(head, start), *e;
	char *v = NULL;

	if (p) {
		p += strlen(start);
		e = strchr(p, '\n');
		if (!e)
			e = p + strlen(p);
		if (e > p && e[-1] == ',')
			e--;
		v = g_strndup(p, e - p);
	}
	g_free(start);
	return v;
}

/* The string `"name": "..."` of a one-line object `v`, shortened to 8
 * characters and an ellipsis when it is a digest; "null" if not there. */
static char *object_field(const char *v, const char *name, bool shorten)
{
	char *start = g_strdup_printf("\"%s\": ", name);
	const char *p = v ? strstr(v, start) : NULL;

	if (!p) {
		g_free(start);
		return g_strdup("null");
	}
	p += strlen(start);
	g_free(start);
	if (*p != '"')
		return g_strdup("null");
	const char *e = strchr(p + 1, '"');
	size_t n = e ? (size_t)(e - p - 1) : strlen(p + 1);

	if (shorten && n > 8)
		return g_strdup_printf("%.8s\u2026", p + 1);
	return g_strndup(p + 1, n);
}

/*
 * --resume: `text`, a partial JSON or CSV file, was made by this very run
 * (same sectorsim, -p, trace and configuration), or *err says what
 * differs.  The first difference is told, the most telling first: the
 * digest of the configuration covers -p and the trace's path too.
 */
static bool same_provenance(const char *part, const char *text, size_t len,
			    const char *want, bool json, GError **err)
{
	const char *k = g_strstr_len(text, len, json ? "\n  \"kernels\": [" : "\nkernel_id,");
	char *have = k ? g_strndup(text, k - text + 1) : NULL;
	char *schema = have ? head_value(have, "schema", json) : NULL;
	char *why = NULL;

	/* ours, or the start of ours (killed before the first kernel) */
	if ((have && !strncmp(text, want, strlen(want))) ||
	    (len <= strlen(want) && !memcmp(text, want, len)))
		goto same;
	if (!schema || strcmp(schema, "1")) {
		why = g_strdup("made by another version of sectorsim, which records no provenance");
	} else {
		static const char *const keys[] = { "sectorsim", "params", "trace", "config" };

		for (int i = 0; i < 4 && !why; i++) {
			char *a = head_value(have, keys[i], json), *b = head_value(want, keys[i], json);

			if (!a || strcmp(a, b)) {
				char *pa = object_field(a, "path", false), *pb = object_field(b, "path", false);
				char *da = object_field(a, "digest", true), *db = object_field(b, "digest", true);

				switch (i) {
				case 0:
					why = g_strdup_printf("made by another sectorsim (%s \u2260 %s)", a ? a : "null", b);
					break;
				case 1:
					why = g_strdup_printf("made with other -p settings (%s \u2260 %s)", a ? a : "null", b);
					break;
				case 2:
					why = strcmp(pa, pb)
					      ? g_strdup_printf("made from another trace (%s \u2260 %s)", pa, pb)
					      : g_strdup_printf("made from another trace (kernel list digest %s \u2260 %s)", da, db);
					break;
				default:
					why = strcmp(da, db)
					      ? g_strdup_printf("made by another configuration (digest %s \u2260 %s)", da, db)
					      : g_strdup_printf("made by another configuration file (%s \u2260 %s)", pa, pb);
				}
				g_free(pa);
				g_free(pb);
				g_free(da);
				g_free(db);
			}
			g_free(a);
			g_free(b);
		}
		if (!why)
			why = g_strdup("made by another version of sectorsim (its provenance differs)");
	}
	g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
		    "%s: %s; run without --resume to start afresh", part, why);
	g_free(why);
	g_free(have);
	g_free(schema);
	return false;
same:
	g_free(have);
	g_free(schema);
	return true;
}

static void skip_kernel(struct kernel_report *r, uint32_t id)
{
	struct gpu_kernel k = { .id = id };
	struct gpu_kernel_msg m = {
		.hdr = { sizeof(m), GPU_KERNEL_SKIP }, .kernel = &k,
	};

	for (unsigned i = 0; i < r->n_next; i++)
		ss_port_send(r->next[i], &m.hdr);
}

/*
 * --resume: the kernels both partial files hold (the JSON and the CSV end
 * within one kernel of each other) are kept and not run again, so the
 * final files are those of an uninterrupted run.
 */
static bool resume(struct kernel_report *r, GError **err)
{
	struct kept kj = { 0 }, kc = { 0 };
	GError *mismatch = NULL;
	bool has_j = out_read_kept(&r->json, true, &kj, &mismatch);
	bool has_c = !mismatch && out_read_kept(&r->csv, false, &kc, &mismatch);
	guint n = G_MAXUINT;
	const struct kept *k = has_j ? &kj : &kc;
	bool ok = true;

	/* made by another run: nothing is touched */
	if (mismatch) {
		g_propagate_error(err, mismatch);
		return false;
	}

	if (has_j)
		n = MIN(n, kj.ids->len);
	if (has_c)
		n = MIN(n, kc.ids->len);
	if ((r->json.path && !has_j) || (r->csv.path && !has_c))
		n = 0;		/* a file to start afresh: start all afresh */
	if (n == G_MAXUINT)
		n = 0;
	for (guint i = 0; i < n && has_j && has_c; i++)
		if (g_array_index(kj.ids, uint32_t, i) != g_array_index(kc.ids, uint32_t, i))
			n = i;
	if (r->json.path)
		ok = n ? out_keep(&r->json, &kj, n, err)
		       : out_open(&r->json, r->json.path, r->json.head, err);
	if (ok && r->csv.path)
		ok = n ? out_keep(&r->csv, &kc, n, err)
		       : out_open(&r->csv, r->csv.path, r->csv.head, err);
	for (guint i = 0; ok && i < n; i++)
		skip_kernel(r, g_array_index(k->ids, uint32_t, i));
	r->n_rows = n;
	if (ok && n && !ss_engine_run_options(r->c.engine)->quiet)
		fprintf(stderr, "sectorsim: resuming: %u kernels kept from the interrupted run\n", n);
	for (int x = 0; x < 2; x++) {
		struct kept *e = x ? &kc : &kj;

		if (e->ids) {
			g_array_free(e->ids, TRUE);
			g_array_free(e->ends, TRUE);
		}
	}
	return ok;
}

/* The metrics' modes this report shows: its mode's, and with mode = hw
 * the timing metrics when the SMs are in timing mode (compute_hw fills
 * them; the reference's formulas know no time). */
static unsigned shown_modes(const struct kernel_report *r)
{
	return r->mode | (r->mode == HW && r->sm_first ? REPORT_TIMING : 0);
}

/* The run's options are known by now. */
/*
 * Lane i's results heads: the run's, with the lane's value of the lane
 * key among the parameters (so that each lane's files say whose they
 * are), and no digest of the configuration, which is the run's own.
 */
static void lane_heads(struct kernel_report *r, const struct ss_run_options *o,
		       unsigned i, const char *columns)
{
	struct ss_run_options lo = *o;
	GPtrArray *params = g_ptr_array_new_with_free_func(g_free);
	size_t klen = strlen(o->lane_key);
	bool put = false;

	for (char **p = o->params; p && *p; p++) {
		bool ours = !strncmp(*p, o->lane_key, klen) && (*p)[klen] == '=';

		if (ours && put)
			continue;	/* the lane's value is set once */
		g_ptr_array_add(params, ours ? g_strdup_printf("%s=%s", o->lane_key, o->lane_values[i])
					     : g_strdup(*p));
		put |= ours;
	}
	if (!put)
		g_ptr_array_add(params, g_strdup_printf("%s=%s", o->lane_key, o->lane_values[i]));
	g_ptr_array_add(params, NULL);
	lo.params = (char **)params->pdata;
	lo.config_digest = NULL;
	r->lanes[i].json_head = results_head(&lo, true, NULL);
	r->lanes[i].csv_head = results_head(&lo, false, columns);
	g_ptr_array_free(params, TRUE);
}

static void *progress_main(void *data);

static int report_start(struct ss_component *c, GError **err)
{
	struct kernel_report *r = SS_COMPONENT(c, struct kernel_report, c);
	const struct ss_run_options *o = ss_engine_run_options(c->engine);
	const char *json = o->json;
	const char *csv = o->csv;
	GString *head = g_string_new("kernel_id,kernel_name");
	char *columns;

	r->t0 = g_get_monotonic_time();
	r->progress = isatty(2) && !o->quiet;
	if (r->progress) {
		sigset_t all, old;

		pthread_mutex_init(&r->progress_lock, NULL);
		pthread_cond_init(&r->progress_cond, NULL);
		/* the thread takes no signal (Ctrl-C is the simulation's to
		 * handle); without it, the line still moves as kernels end */
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		r->progress_thread_on =
			pthread_create(&r->progress_thread, NULL, progress_main, r) == 0;
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	for (int k = 0; k < N_REPORT_METRICS; k++)
		if (report_metrics[k].modes & shown_modes(r))
			g_string_append_printf(head, ",%s", report_metrics[k].key);
	g_string_append(head, ",blocks_in_grid,blocks_traced");
	for (unsigned l = 0; l < r->n_levels; l++)
		for (int k = 0; k < N_REPORT_LEVEL_METRICS; k++)
			g_string_append_printf(head, ",%s.%s", r->levels[l].name,
					       report_level_metrics[k].key);
	g_string_append_c(head, '\n');
	r->csv_head = results_head(o, false, head->str);
	columns = g_string_free(head, FALSE);
	r->json_head = results_head(o, true, NULL);
	if (o->resume) {
		r->json.path = json ? g_strdup(json) : NULL;
		r->json.head = r->json_head;
		r->csv.path = csv ? g_strdup(csv) : NULL;
		r->csv.head = r->csv_head;
		g_free(columns);
		return resume(r, err) ? 0 : -1;
	}
	if (!out_open(&r->json, json, r->json_head, err) ||
	    !out_open(&r->csv, csv, r->csv_head, err)) {
		g_free(columns);
		return -1;
	}
	for (unsigned i = 0; i < r->n_lanes; i++) {
		char *jl = json ? g_strdup_printf("%s.lane%u", json, i) : NULL;
		char *cl = csv ? g_strdup_printf("%s.lane%u", csv, i) : NULL;
		bool ok;

		lane_heads(r, o, i, columns);
		ok = out_open(&r->lanes[i].json, jl, r->lanes[i].json_head, err) &&
		     out_open(&r->lanes[i].csv, cl, r->lanes[i].csv_head, err);

		g_free(jl);
		g_free(cl);
		if (!ok) {
			g_free(columns);
			return -1;
		}
	}
	g_free(columns);
	return 0;
}

static void write_text(const struct kernel_row *row, bool first, const char *levels,
		       FILE *out);
static void write_json(const struct kernel_row *row, bool first, FILE *out);
static void write_csv(const struct kernel_row *row, FILE *out);

/* A size in bytes as people say it: 128 KiB, 4.5 MiB. */
static void format_bytes(char *buf, size_t len, uint64_t b)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)b;
	unsigned u = 0;

	while (v >= 1024 && u + 1 < G_N_ELEMENTS(unit)) {
		v /= 1024;
		u++;
	}
	g_snprintf(buf, len, v == floor(v) ? "%.0f %s" : "%.3g %s", v, unit[u]);
}

/* Before the first kernel: which configuration, on how many SMs. */
static void write_header(struct kernel_report *r, FILE *out)
{
	const struct ss_run_options *o = ss_engine_run_options(r->c.engine);

	if (!o->config)
		return;
	fprintf(out, "configuration %s", o->config);
	if (r->n_sms)
		fprintf(out, ", %u SMs", r->n_sms);
	fputs("\n\n", out);
}

/* What each cache level holds in the kernel, for the table: the L1 per
 * SM, the L2 in all (the levels that say their capacity); "" if none. */
static char *levels_text(struct kernel_report *r)
{
	GString *o = g_string_new(NULL);
	char b[32];
	uint64_t l2 = 0;

	if (r->l1 && r->l1[0].capacity && *r->l1[0].capacity) {
		format_bytes(b, sizeof(b), *r->l1[0].capacity);
		g_string_append_printf(o, "L1 %s per SM", b);
	}
	for (unsigned i = 0; i < r->n_l2; i++)
		if (r->l2[i].capacity)
			l2 += *r->l2[i].capacity;
	if (l2) {
		format_bytes(b, sizeof(b), l2);
		g_string_append_printf(o, "%sL2 %s in all", o->len ? ", " : "", b);
		if (r->l2_slices > 1) {
			format_bytes(b, sizeof(b), l2 / r->l2_slices);
			g_string_append_printf(o, ", %u slices of %s", r->l2_slices, b);
		}
	}
	/* the other levels: LEVEL 10 MiB in all, 40 of 256 KiB */
	for (unsigned l = 0; l < r->n_levels; l++) {
		const struct report_level *lv = &r->levels[l];
		uint64_t all = 0;

		for (unsigned i = 0; i < lv->n; i++)
			all += get(lv->cs[i].capacity);
		if (!all)
			continue;
		format_bytes(b, sizeof(b), all);
		g_string_append_printf(o, "%s%s %s", o->len ? ", " : "", lv->name, b);
		if (lv->n > 1) {
			format_bytes(b, sizeof(b), all / lv->n);
			g_string_append_printf(o, " in all, %u of %s", lv->n, b);
		}
	}
	return g_string_free(o, FALSE);
}


/*
 * On a terminal: where the run is, how fast, how long still.  `done`:
 * bytes of the trace read, the kernel's own included when it has ended
 * (row->bytes_done).  While a kernel runs (`running`), as far as its
 * reader has got and the time so far: the rate and the time left come
 * from ended kernels only, since a reader may read a kernel's blocks all
 * at once (first_wave) or as they run (dynamic).
 */
static void show_progress(struct kernel_report *r, const struct kernel_row *row,
			  uint64_t done, bool running)
{
	gint64 now = g_get_monotonic_time();
	double secs = (now - r->t0) / 1e6;
	unsigned total = r->total_kernels;

	r->progress_shown = now;
	fprintf(stderr, "\rsectorsim: kernel %u", row->ordinal);
	if (total)
		fprintf(stderr, " of %u", total);
	fprintf(stderr, " (%s)%s", row->name, running ? " running" : "");
	if (row->bytes_total)
		fprintf(stderr, ", %.1f of %.1f MB of trace%s", done / 1e6,
			row->bytes_total / 1e6, running ? " read" : "");
	if (running) {
		fprintf(stderr, ", %.0f s so far", secs);
	} else {
		fprintf(stderr, ", %.1f M sector accesses/s",
			secs > 0 ? r->l1_accesses / secs / 1e6 : 0);
		/* the time left from the bytes still to read, else the kernels */
		if (row->bytes_total && done && done < row->bytes_total &&
		    done > r->bytes_at_start)
			fprintf(stderr, ", about %.0f s left",
				secs / (done - r->bytes_at_start) * (row->bytes_total - done));
		else if (total && row->ordinal && row->ordinal < total)
			fprintf(stderr, ", about %.0f s left",
				secs / r->n_shown * (total - row->ordinal));
	}
	fputs("\033[K", stderr);
	fflush(stderr);
}

/*
 * The progress thread: while a kernel runs, how far its trace has been
 * read, if its source says (a single kernel of a gigabyte would show
 * nothing for its whole run otherwise).  bytes_read may be called from
 * any thread.
 */
static void *progress_main(void *data)
{
	struct kernel_report *r = data;

	pthread_mutex_lock(&r->progress_lock);
	while (!r->progress_stop) {
		struct timespec until;
		struct gpu_block_source *b;
		uint64_t n;

		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += r->progress_us / 1000000;
		until.tv_nsec += r->progress_us % 1000000 * 1000L;
		until.tv_sec += until.tv_nsec / 1000000000L;
		until.tv_nsec %= 1000000000L;
		pthread_cond_timedwait(&r->progress_cond, &r->progress_lock, &until);
		if (r->progress_stop || !r->running || ss_interrupted() ||
		    g_get_monotonic_time() - r->progress_shown < r->progress_us)
			continue;
		b = r->blocks;
		if (b && b->ops->bytes_read && b->ops->bytes_read(b, &n))
			show_progress(r, &r->row, r->row.bytes_done - r->blocks_bytes +
				      MIN(n, r->blocks_bytes), true);
	}
	pthread_mutex_unlock(&r->progress_lock);
	return NULL;
}

/* A kernel begins or ends, for the progress thread. */
static void set_running(struct kernel_report *r, bool running)
{
	if (!r->progress_thread_on)
		return;
	pthread_mutex_lock(&r->progress_lock);
	r->running = running;
	pthread_mutex_unlock(&r->progress_lock);
}

static void progress_thread_stop(struct kernel_report *r)
{
	if (!r->progress_thread_on)
		return;
	pthread_mutex_lock(&r->progress_lock);
	r->progress_stop = true;
	pthread_cond_signal(&r->progress_cond);
	pthread_mutex_unlock(&r->progress_lock);
	pthread_join(r->progress_thread, NULL);
	r->progress_thread_on = false;
}

/*
 * How many of the grid's blocks the trace holds, and a warning (under
 * --strict, an error) when it holds fewer: the missing ones ran as empty
 * blocks, so the numbers are not the whole kernel's.  False when the run
 * stops here (the count met malformed input, or --strict).
 */
static bool check_blocks(struct kernel_report *r, struct kernel_row *row)
{
	struct gpu_block_source *b = r->blocks;
	GError *err = NULL;
	uint64_t n;

	if (!row->runs || !b || !b->ops->count_held)
		return true;
	if (!b->ops->count_held(b, &n, &err)) {
		ss_engine_fail(r->c.engine, err);
		return false;
	}
	row->traced_known = true;
	row->blocks_traced = n;
	if (b->ops->cut_short) {
		const char *first = NULL;
		uint64_t cut = b->ops->cut_short(b, &first);

		if (cut) {
			if (r->progress)
				fputs("\r\033[K", stderr);
			if (!ss_engine_warn_input(r->c.engine,
						  "%s: kernel %u (%s): %" G_GUINT64_FORMAT " block file%s end%s inside a line, the first %s: cut short? Their last lines were read as they are",
						  r->trace_file ? r->trace_file : "trace",
						  row->id, row->name, cut, cut == 1 ? "" : "s",
						  cut == 1 ? "s" : "", first ? first : "?"))
				return false;
		}
	}
	if (n >= row->grid_size)
		return true;
	if (r->progress)
		fputs("\r\033[K", stderr);
	return ss_engine_warn_input(r->c.engine,
				    "%s: kernel %u (%s): the trace holds %" G_GUINT64_FORMAT " of the grid's %" G_GUINT64_FORMAT " thread blocks; the missing ones ran as empty blocks",
				    r->trace_file ? r->trace_file : "trace",
				    row->id, row->name, n, row->grid_size);
}

/* The kernel as each lane saw it: its L2 and DRAM counters in place of
 * the run's, into its own files. */
static void write_lanes(struct kernel_report *r, const struct kernel_row *row)
{
	struct cache_slots *l2 = r->l2;
	const uint64_t *reads = r->dram_reads, *writes = r->dram_writes;
	uint64_t l1_accesses = r->l1_accesses;

	for (unsigned i = 0; i < r->n_lanes; i++) {
		struct report_lane *ln = &r->lanes[i];
		struct kernel_row lane = *row;

		r->l2 = &ln->l2;
		r->dram_reads = ln->dram_reads;
		r->dram_writes = ln->dram_writes;
		/* the metrics the mode leaves out stay out, the rest anew */
		if (lane.runs) {
			if (r->mode == HW)
				compute_hw(r, &lane);
			else
				compute_ref(r, &lane);
		}
		/* the lane of the run's own L2 sent what DRAM counted, or the
		 * lanes' DRAM numbers mean nothing */
		if (r->lane_own && *r->lane_own == i + 1 &&
		    (get(ln->dram_reads) != get(reads) || get(ln->dram_writes) != get(writes)) &&
		    !ss_engine_failure(r->c.engine))
			ss_engine_fail(r->c.engine, g_error_new(SS_ERROR, SS_ERROR_CONFIG,
				"lanes of %s: its own lane sent %" G_GUINT64_FORMAT " reads and %" G_GUINT64_FORMAT " writes, %s counted %" G_GUINT64_FORMAT " and %" G_GUINT64_FORMAT "; expected the dram_counter right below the L2",
				r->names[2], get(ln->dram_reads), get(ln->dram_writes), r->names[3],
				get(reads), get(writes)));
		if (ln->json.out) {
			write_json(&lane, r->n_rows == 0, ss_output_file(ln->json.out));
			out_flush(r, &ln->json);
		}
		if (ln->csv.out) {
			write_csv(&lane, ss_output_file(ln->csv.out));
			out_flush(r, &ln->csv);
		}
	}
	r->l2 = l2;
	r->dram_reads = reads;
	r->dram_writes = writes;
	r->l1_accesses = l1_accesses;
}

/* A kernel's metrics into the app total, each as its table row says. */
static void add_to_total(struct app_total *t, const struct kernel_row *row)
{
	t->kernels++;
	for (int k = 0; k < N_REPORT_METRICS; k++) {
		enum report_total how = report_metrics[k].total;
		double v = row->m[k];

		/* a rate of nothing this kernel still adds its 0 / 0 */
		if (how == REPORT_TOTAL_RATIO && row->noted[k]) {
			t->num[k] += row->num[k];
			t->den[k] += row->den[k];
			t->noted[k]++;
		}
		if (row->absent[k])
			continue;
		switch (how) {
		case REPORT_TOTAL_SUM:
			t->v[k] += v;
			break;
		case REPORT_TOTAL_MIN:
			t->v[k] = t->count[k] ? MIN(t->v[k], v) : v;
			break;
		case REPORT_TOTAL_MAX:
			t->v[k] = t->count[k] ? MAX(t->v[k], v) : v;
			break;
		case REPORT_TOTAL_RATIO:
			t->last[k] = v;
			break;
		case REPORT_TOTAL_CAMAT:
		case REPORT_TOTAL_NONE:
			break;
		}
		t->count[k]++;
	}
	if (!row->n_levels)
		return;
	size_t n = (size_t)row->n_levels * N_REPORT_LEVEL_METRICS;

	if (!t->lsum) {
		t->lsum = g_new0(struct level_value, n);
		t->lcount = g_new0(unsigned, n);
	}
	for (size_t i = 0; i < n; i++) {
		const struct level_value *x = &row->lv[i];
		struct level_value *s = &t->lsum[i];

		if (x->absent)
			continue;
		switch (report_level_metrics[i % N_REPORT_LEVEL_METRICS].total) {
		case REPORT_TOTAL_RATIO:
			s->num += x->num;
			s->den += x->den;
			/* a rate of nothing in every kernel: the kernels' 0 */
			if (!s->den)
				s->v = x->v;
			break;
		default:
			s->v += x->v;
			break;
		}
		t->lcount[i]++;
	}
}

/* A RATIO metric's total, num / den over the app. */
static double total_ratio(const struct app_total *t, int k)
{
	return t->num[k] / t->den[k];
}

/*
 * Metric k over the app, into *v; false: it has none (no kernel had it,
 * or it is a setting or a state).  A rate whose denominator stayed 0 in
 * every kernel keeps the value its model gives 0 / 0.
 */
static bool total_value(const struct app_total *t, int k, double *v)
{
	if (!t->count[k])
		return false;
	switch (report_metrics[k].total) {
	case REPORT_TOTAL_SUM:
	case REPORT_TOTAL_MIN:
	case REPORT_TOTAL_MAX:
		*v = t->v[k];
		return true;
	case REPORT_TOTAL_RATIO:
		/* every kernel that had the rate must have said its terms */
		if (t->noted[k] < t->count[k])
			return false;
		*v = t->den[k] ? total_ratio(t, k) : t->last[k];
		return true;
	case REPORT_TOTAL_CAMAT: {
		int first = k - CAMAT_OFF(camat);
		/* the level's counts over the app, back from its ratios' terms */
		struct camat_counts c = {
			.accesses = t->den[first + CAMAT_OFF(mean_hit_time)],
			.hit_cycles = t->num[first + CAMAT_OFF(mean_hit_time)],
			.miss_cycles = t->num[first + CAMAT_OFF(amat)] -
				       t->num[first + CAMAT_OFF(mean_hit_time)],
			.overlap_hit_time = t->den[first + CAMAT_OFF(C_h)],
			.pure_misses = t->num[first + CAMAT_OFF(pMR)],
			.pure_miss_time = t->num[first + CAMAT_OFF(C_m)],
			.pure_miss_overlap_time = t->den[first + CAMAT_OFF(C_m)],
		};
		struct camat_ratios q;

		if (t->noted[first + CAMAT_OFF(amat)] < t->count[k])
			return false;
		camat_ratios(&c, &q);
		*v = q.camat;
		return !isnan(*v);
	}
	case REPORT_TOTAL_NONE:
		break;
	}
	return false;
}

static void kernel_over(struct kernel_report *r)
{
	struct kernel_row *row = &r->row;
	struct gpu_kernel_msg done = { .hdr = { sizeof(done), GPU_KERNEL_DONE } };
	char *label;

	/* the progress thread leaves the row alone from here */
	set_running(r, false);
	if (!check_blocks(r, row))
		return;
	label = g_strdup_printf("kernel %u", row->id);
	if (row->runs) {
		if (r->mode == NUG)
			compute_nug(r, row);
		else if (r->mode == HW)
			compute_hw(r, row);
		else
			compute_ref(r, row);
		if (r->n_levels)
			compute_levels(r, row);
		for (int k = 0; k < N_REPORT_METRICS; k++)
			if (!row->absent[k]) {
				r->msum[k] += row->m[k];
				r->mcount[k]++;
			}
		add_to_total(&r->total, row);
	}
	if (r->progress)
		fputs("\r\033[K", stderr);	/* the table, not over the progress line */
	if (!ss_engine_run_options(r->c.engine)->table_off) {
		char *levels = levels_text(r);

		if (r->n_shown == 0)
			write_header(r, stdout);
		write_text(row, r->n_shown == 0, levels, stdout);
		g_free(levels);
		flush_stdout(r);
	}
	/* each finished kernel reaches the files at once: a kill keeps it */
	if (r->json.out) {
		write_json(row, r->n_rows == 0, ss_output_file(r->json.out));
		out_flush(r, &r->json);
	}
	if (r->csv.out) {
		write_csv(row, ss_output_file(r->csv.out));
		out_flush(r, &r->csv);
	}
	write_lanes(r, row);
	r->n_rows++;
	r->n_shown++;
	if (r->progress) {
		if (r->progress_thread_on)
			pthread_mutex_lock(&r->progress_lock);
		show_progress(r, row, row->bytes_done, false);
		if (r->progress_thread_on)
			pthread_mutex_unlock(&r->progress_lock);
	}
	g_clear_pointer(&row->name, g_free);
	r->c.stats[KR_KERNELS]++;
	r->planned = false;
	ss_stats_end_phase(r->c.engine, label);
	g_free(label);
	for (unsigned i = 0; i < r->n_next; i++)
		ss_port_send(r->next[i], &done.hdr);
}

static void report_recv(struct ss_component *c, struct ss_port *in,
			const struct ss_msg *m)
{
	struct kernel_report *r = SS_COMPONENT(c, struct kernel_report, c);

	if (m->kind == GPU_KERNEL_PLANNED) {
		const struct gpu_kernel_msg *km = (const struct gpu_kernel_msg *)m;
		const struct gpu_kernel *k = km->kernel;

		/* side-by-side hierarchies plan the same kernel: plan's
		 * stands for them */
		if (strcmp(in->desc->name, "plan"))
			return;
		g_free(r->row.name);
		r->row = (struct kernel_row){
			.id = k->id, .name = g_strdup(k->name),
			.grid_size = k->grid_size, .block_size = k->block_size,
			.regs = k->regs, .smem = k->smem, .runs = km->occ != NULL,
			.ordinal = k->ordinal,
			.bytes_done = k->trace_bytes_before + k->trace_bytes,
			.bytes_total = k->trace_bytes_total,
			.mode = shown_modes(r),
			.n_levels_csv = r->n_levels,
		};
		for (int i = 0; i < N_REPORT_METRICS; i++)
			r->row.absent[i] = !(report_metrics[i].modes & shown_modes(r));
		r->total_kernels = k->n_kernels;
		if (!r->seen_kernel) {
			/* a resumed run starts past the kept kernels */
			r->bytes_at_start = k->trace_bytes_before;
			r->seen_kernel = true;
		}
		if (km->occ)
			r->row.occ = *km->occ;
		r->blocks = km->blocks;
		r->blocks_bytes = k->trace_bytes;
		r->trace_file = k->trace_file;
		r->planned = true;
		set_running(r, true);
		return;
	}
	const struct mem_req *q = (const struct mem_req *)m;

	if (m->kind != MEM_CONTROL || q->ctl != MEM_CTL_KERNEL_END)
		return;
	if (++r->ended < r->n_done)
		return;
	r->ended = 0;
	if (!r->planned)
		g_error("%s: a kernel ended that the scheduler never planned", c->name);
	kernel_over(r);
}

/* ---- output ------------------------------------------------------------------ */

/* A number as the results files write it: every digit a double holds. */
static void format_number(char *buf, size_t len, double v, bool is_int)
{
	if (is_int)
		g_snprintf(buf, len, "%.0f", v);
	else
		g_snprintf(buf, len, "%.17g", v);
}

/*
 * A number as the table shows it, for people: a rate or a mean to 4
 * significant digits, without an exponent from 1e-6 up (0.006135,
 * 61.35, 12346); the files keep them whole.
 */
static void format_table_number(char *buf, size_t len, double v, bool is_int)
{
	double a = fabs(v);

	if (is_int || v == 0 || !isfinite(v)) {
		format_number(buf, len, v, is_int);
		return;
	}
	if (a < 1e-6) {
		g_snprintf(buf, len, "%.4g", v);
		return;
	}
	int decimals = 3 - (int)floor(log10(a));

	g_snprintf(buf, len, "%.*f", MAX(decimals, 0), v);
	/* 0.5, not 0.5000; 1, not 1.000 */
	if (decimals > 0 && strchr(buf, '.')) {
		char *end = buf + strlen(buf) - 1;

		while (*end == '0')
			*end-- = '\0';
		if (*end == '.')
			*end = '\0';
	}
}

/* One metric's line of the table: its value (an integer if is_int) and,
 * in `mode`, Nsight's. */
static void write_metric_line(FILE *out, int k, double v, bool is_int, unsigned mode)
{
	const struct report_metric_desc *d = &report_metrics[k];
	char buf[64];

	format_table_number(buf, sizeof(buf), v, is_int);
	fprintf(out, "  %-26s %20s", d->key, buf);
	if (report_ncu_name(k, mode)) {
		format_table_number(buf, sizeof(buf), v * ncu_metrics[d->ncu].factor, false);
		fprintf(out, "   %-*s %s", NCU_WIDTH, ncu_metrics[d->ncu].name, buf);
	}
	fputc('\n', out);
}

/* A line of another cache level's metric k: LEVEL.KEY and its value. */
static void write_level_line(FILE *out, const char *level, int k, double v, unsigned mode)
{
	char key[128], buf[64];

	g_snprintf(key, sizeof(key), "%s.%s", level, report_level_metrics[k].key);
	format_table_number(buf, sizeof(buf), v,
			    report_level_metrics[k].is_int && (mode & REPORT_HW));
	fprintf(out, "  %-26s %20s\n", key, buf);
}

static void write_text(const struct kernel_row *row, bool first, const char *levels,
		       FILE *out)
{
	/* the name as people read it (the files keep it as traced) */
#ifdef HAVE_DEMANGLE
	char *readable = cplus_demangle(row->name, DMGL_PARAMS | DMGL_ANSI);
#else
	char *readable = NULL;
#endif

	fprintf(out, "%skernel %u  %s\n", first ? "" : "\n", row->id,
		readable ? readable : row->name);
	free(readable);
	fprintf(out, "  grid %" G_GUINT64_FORMAT " x %u threads, %u registers, %u B shared",
		row->grid_size, row->block_size, row->regs, row->smem);
	if (row->traced_known && row->blocks_traced < row->grid_size)
		fprintf(out, "; only %" G_GUINT64_FORMAT " blocks traced",
			row->blocks_traced);
	if (!row->runs) {
		fprintf(out, "\n  not simulated: a block does not fit an SM\n");
		return;
	}
	if (row->occ.dynamic)
		fprintf(out, "; %u blocks/SM resident, all %" G_GUINT64_FORMAT " blocks dispatched over %u SMs\n",
			row->occ.max_active, row->grid_size, row->occ.num_sms);
	else
		fprintf(out, "; %u blocks/SM resident, %u simulated on %u SMs, scale %g\n",
			row->occ.max_active, row->occ.sim_blocks, row->occ.active_sms,
			row->occ.scale);
	if (*levels)
		fprintf(out, "  %s\n", levels);
	for (int k = 0; k < N_REPORT_METRICS; k++)
		if (!row->absent[k])
			write_metric_line(out, k, row->m[k], report_metrics[k].is_int, row->mode);
	for (unsigned l = 0; l < row->n_levels; l++)
		for (int k = 0; k < N_REPORT_LEVEL_METRICS; k++) {
			const struct level_value *x = &row->lv[(size_t)l * N_REPORT_LEVEL_METRICS + k];

			if (!x->absent)
				write_level_line(out, row->levels[l].name, k, x->v, row->mode);
		}
}

static void json_string(FILE *f, const char *v)
{
	fputc('"', f);
	for (; *v; v++) {
		if (*v == '"' || *v == '\\')
			fprintf(f, "\\%c", *v);
		else if ((unsigned char)*v < 0x20)
			fprintf(f, "\\u%04x", *v);
		else
			fputc(*v, f);
	}
	fputc('"', f);
}

static void write_json(const struct kernel_row *row, bool first, FILE *f)
{
	const struct gpu_occupancy *o = &row->occ;
	char buf[64];
	bool first_ncu = true;

	fprintf(f, "%s\n    {\n      \"kernel_id\": %u,\n      \"kernel_name\": ",
		first ? "" : ",", row->id);
	json_string(f, row->name);
	fprintf(f, ",\n      \"grid_size\": %" G_GUINT64_FORMAT ",\n      \"block_size\": %u,\n      \"num_regs\": %u,\n      \"smem_size\": %u",
		row->grid_size, row->block_size, row->regs, row->smem);
	fprintf(f, ",\n      \"blocks_in_grid\": %" G_GUINT64_FORMAT, row->grid_size);
	if (!row->runs) {
		fprintf(f, ",\n      \"error\": \"a block does not fit an SM\"\n    }");
		return;
	}
	if (row->traced_known)
		fprintf(f, ",\n      \"blocks_traced\": %" G_GUINT64_FORMAT, row->blocks_traced);
	fprintf(f, ",\n      \"occupancy\": {\"block_per_sm_limit_warps\": %u, \"block_per_sm_limit_blocks\": %u, \"block_per_sm_limit_regs\": %u, \"block_per_sm_limit_smem\": %u, \"th_max_active_block_per_sm\": %u, \"allocted_block_per_sm\": %u, \"max_active_block_per_sm\": %u, \"adaptive_smem_size\": %" G_GUINT64_FORMAT "}",
		o->lim_warps, o->lim_blocks, o->lim_regs, o->lim_smem,
		o->th_max_active, o->alloc, o->max_active, o->carveout_bytes);
	fprintf(f, ",\n      \"metrics\": {");
	for (int k = 0, n = 0; k < N_REPORT_METRICS; k++) {
		if (row->absent[k])
			continue;
		format_number(buf, sizeof(buf), row->m[k], report_metrics[k].is_int);
		fprintf(f, "%s\n        \"%s\": %s", n++ ? "," : "", report_metrics[k].key, buf);
	}
	fprintf(f, "\n      },\n      \"ncu\": {");
	for (int k = 0; k < N_REPORT_METRICS; k++) {
		if (!report_ncu_name(k, row->mode) || row->absent[k])
			continue;
		const struct ncu_metric_desc *n = &ncu_metrics[report_metrics[k].ncu];

		format_number(buf, sizeof(buf), row->m[k] * n->factor, false);
		fprintf(f, "%s\n        \"%s\": %s", first_ncu ? "" : ",", n->name, buf);
		first_ncu = false;
	}
	for (unsigned a = 0; a < n_report_ncu_aliases; a++) {
		const struct report_ncu_alias *al = &report_ncu_aliases[a];
		const struct ncu_metric_desc *n = &ncu_metrics[al->ncu];

		if (!report_ncu_name(al->m, row->mode) || row->absent[al->m])
			continue;
		format_number(buf, sizeof(buf),
			      row->m[al->m] * n->factor, false);
		fprintf(f, ",\n        \"%s\": %s", n->name, buf);
	}
	fprintf(f, "\n      }");
	/* the other cache levels, each an object of its metrics */
	if (row->n_levels) {
		fprintf(f, ",\n      \"levels\": {");
		for (unsigned l = 0; l < row->n_levels; l++) {
			bool first_key = true;

			fprintf(f, "%s\n        ", l ? "," : "");
			json_string(f, row->levels[l].name);
			fputs(": {", f);
			for (int k = 0; k < N_REPORT_LEVEL_METRICS; k++) {
				const struct level_value *x =
					&row->lv[(size_t)l * N_REPORT_LEVEL_METRICS + k];

				if (x->absent)
					continue;
				format_number(buf, sizeof(buf), x->v,
					      report_level_metrics[k].is_int && (row->mode & REPORT_HW));
				fprintf(f, "%s\"%s\": %s", first_key ? "" : ", ",
					report_level_metrics[k].key, buf);
				first_key = false;
			}
			fputc('}', f);
		}
		fprintf(f, "\n      }");
	}
	fprintf(f, "\n    }");
}

static void write_csv(const struct kernel_row *row, FILE *f)
{
	char buf[64];
	const char *v = row->name;

	fprintf(f, "%u,", row->id);
	if (!strpbrk(v, ",\"\r\n")) {
		fputs(v, f);
	} else {
		fputc('"', f);
		for (; *v; v++) {
			if (*v == '"')
				fputc('"', f);
			fputc(*v, f);
		}
		fputc('"', f);
	}
	for (int k = 0; k < N_REPORT_METRICS; k++) {
		/* a kernel that did not run, or a metric its model does not
		 * compute: an empty field */
		bool has = row->runs && !row->absent[k];

		if (!(report_metrics[k].modes & row->mode))
			continue;

		if (has)
			format_number(buf, sizeof(buf), row->m[k], report_metrics[k].is_int);
		fprintf(f, ",%s", has ? buf : "");
	}
	/* last, so that the metrics keep their columns */
	fprintf(f, ",%" G_GUINT64_FORMAT ",", row->grid_size);
	if (row->traced_known)
		fprintf(f, "%" G_GUINT64_FORMAT, row->blocks_traced);
	/* then the other levels' (none in a kernel that did not run) */
	for (unsigned l = 0; l < row->n_levels_csv; l++)
		for (int k = 0; k < N_REPORT_LEVEL_METRICS; k++) {
			const struct level_value *x = row->n_levels ?
				&row->lv[(size_t)l * N_REPORT_LEVEL_METRICS + k] : NULL;

			if (x && !x->absent)
				format_number(buf, sizeof(buf), x->v,
					      report_level_metrics[k].is_int && (row->mode & REPORT_HW));
			fprintf(f, ",%s", x && !x->absent ? buf : "");
		}
	fputc('\n', f);
}

/*
 * The app's figures: its total over the kernels (counts summed, rates
 * recomputed from the summed counts: what Nsight would say of the app
 * as one kernel, but for the caches' state between kernels), then the
 * paper's per-app figure, each metric averaged over the kernels.
 */
static void write_summary(struct kernel_report *r, FILE *out)
{
	unsigned n = 0;

	for (int k = 0; k < N_REPORT_METRICS; k++)
		n = MAX(n, r->mcount[k]);
	if (n < 2)
		return;		/* one kernel is its own summary */
	fprintf(out, "\napp: total over the %u kernels simulated\n", r->total.kernels);
	for (int k = 0; k < N_REPORT_METRICS; k++) {
		double v;

		if (total_value(&r->total, k, &v))
			write_metric_line(out, k, v, report_metrics[k].is_int, r->mode);
	}
	for (unsigned l = 0; r->total.lsum && l < r->n_levels; l++)
		for (int k = 0; k < N_REPORT_LEVEL_METRICS; k++) {
			size_t i = (size_t)l * N_REPORT_LEVEL_METRICS + k;
			const struct level_value *s = &r->total.lsum[i];
			enum report_total how = report_level_metrics[k].total;

			if (!r->total.lcount[i] || how == REPORT_TOTAL_NONE)
				continue;
			write_level_line(out, r->levels[l].name, k,
					 how == REPORT_TOTAL_RATIO && s->den ? s->num / s->den : s->v,
					 r->mode);
		}
	fprintf(out, "\napp: mean over the %u kernels simulated\n", n);
	for (int k = 0; k < N_REPORT_METRICS; k++)
		if (r->mcount[k])
			write_metric_line(out, k, r->msum[k] / r->mcount[k], false, r->mode);
}

static void report_finish(struct ss_component *c)
{
	struct kernel_report *r = SS_COMPONENT(c, struct kernel_report, c);
	GError *err = NULL;

	double secs = (g_get_monotonic_time() - r->t0) / 1e6;
	bool stopped = ss_interrupted();

	if (r->progress)
		fputs("\r\033[K", stderr);
	if (!stopped && r->planned && !ss_engine_failure(c->engine)) {
		/* nothing left to run, and a kernel open: someone waits for
		 * what never comes, and its counts would be wrong */
		ss_engine_fail(c->engine, g_error_new(SS_ERROR, SS_ERROR_CONFIG,
			"kernel %u never finished: the run ran out of events with work of the kernel still waiting (a request never answered, say); in timing mode, expected every level from the SMs to DRAM to have timing = true",
			r->row.ordinal));
		return;
	}
	if (!stopped && !ss_engine_run_options(c->engine)->table_off)
		write_summary(r, stdout);
	if (!flush_stdout(r))
		return;
	if (!ss_engine_run_options(c->engine)->quiet)
		fprintf(stderr, "sectorsim: %u kernel%s, %" G_GUINT64_FORMAT " L1 sector accesses in %.3f s: %.1f M accesses/s\n",
			r->n_rows, r->n_rows == 1 ? "" : "s", r->l1_accesses, secs,
			secs > 0 ? r->l1_accesses / secs / 1e6 : 0);
	if (stopped) {
		/* the finished kernels stay in FILE.part for --resume */
		const char *jp = r->json.out ? ss_output_part(r->json.out) : NULL;
		const char *cp = r->csv.out ? ss_output_part(r->csv.out) : NULL;

		r->interrupted = true;
		fprintf(stderr, "sectorsim: interrupted after %u kernels", r->n_rows);
		if (jp || cp)
			fprintf(stderr, "; the results so far are in %s%s%s; --resume finishes them",
				jp ? jp : "", jp && cp ? " and " : "", cp ? cp : "");
		fputc('\n', stderr);
		out_end(&r->json, true);
		out_end(&r->csv, true);
		for (unsigned i = 0; i < r->n_lanes; i++) {
			out_end(&r->lanes[i].json, false);
			out_end(&r->lanes[i].csv, false);
		}
		return;
	}
	if (!out_commit(&r->json, "\n  ]\n}\n", &err) ||
	    !out_commit(&r->csv, "", &err)) {
		ss_engine_fail(c->engine, err);
		return;
	}
	for (unsigned i = 0; i < r->n_lanes; i++)
		if (!out_commit(&r->lanes[i].json, "\n  ]\n}\n", &err) ||
		    !out_commit(&r->lanes[i].csv, "", &err)) {
			ss_engine_fail(c->engine, err);
			return;
		}
}

/* The run is over, finished or not: no progress line after it, nor
 * during an error's message, and none that reads a freed trace. */
static void report_stop(struct ss_component *c)
{
	struct kernel_report *r = SS_COMPONENT(c, struct kernel_report, c);

	if (!r->progress_thread_on)
		return;
	progress_thread_stop(r);
	fputs("\r\033[K", stderr);
}

static void report_destroy(struct ss_component *c)
{
	struct kernel_report *r = SS_COMPONENT(c, struct kernel_report, c);

	progress_thread_stop(r);
	if (r->progress) {
		pthread_mutex_destroy(&r->progress_lock);
		pthread_cond_destroy(&r->progress_cond);
	}
	for (int i = 0; i < 4; i++)
		g_free(r->names[i]);
	for (int i = 0; i < NUG_CASES; i++)
		g_free(r->cases[i]);
	g_free(r->next);
	for (unsigned i = 0; i < r->n_levels; i++) {
		g_free(r->levels[i].name);
		g_free(r->levels[i].cs);
	}
	g_free(r->levels);
	g_free(r->levels_param);
	g_free(r->lv);
	g_free(r->total.lsum);
	g_free(r->total.lcount);
	/*
	 * A run that failed leaves no half-written results.  An interrupted
	 * one keeps the finished kernels for --resume, and so does one that
	 * stopped on an input error (a kernel's file malformed or cut short)
	 * or on a limit of the run (max_ticks): the kernels before it are
	 * good, and --resume continues from them (once the trace is
	 * repaired; after a limit, as far as the limit lets each run go).
	 * After an input error, not when every kernel of the trace had ended:
	 * the error lies past the last kernel's blocks, nothing is left to
	 * resume, and the run fails as a whole.  After a limit, even then:
	 * the results are whole, and --resume completes the file.
	 */
	const GError *why = ss_engine_failure(c->engine);
	bool ours = why && why->domain == SS_ERROR;
	bool input = ours && why->code == SS_ERROR_INPUT;
	bool limit = ours && why->code == SS_ERROR_LIMIT;
	bool all_ended = !r->planned && r->total_kernels &&
			 r->row.ordinal >= r->total_kernels;
	bool keep = r->interrupted || (input && r->n_rows && !all_ended) ||
		    (limit && r->n_rows);

	out_end(&r->json, keep);
	out_end(&r->csv, keep);
	for (unsigned i = 0; i < r->n_lanes; i++) {
		/* lanes are not resumed: a run that stopped leaves none */
		out_end(&r->lanes[i].json, false);
		out_end(&r->lanes[i].csv, false);
		g_free(r->lanes[i].json.path);
		g_free(r->lanes[i].csv.path);
		free(r->lanes[i].json_head);
		free(r->lanes[i].csv_head);
	}
	g_free(r->lanes);
	free(r->csv_head);
	free(r->json_head);
	g_free(r->json.path);
	g_free(r->csv.path);
	g_free(r->row.name);
	g_free(r->sm);
	g_free(r->sm_first);
	g_free(r->sm_last);
	g_free(r->sm_refused);
	g_free(r->l1);
	g_free(r->l2);
}

static const struct ss_component_ops ops = {
	.xcreate = report_create,
	.xinit = report_init,
	.xstart = report_start,
	.xrecv = report_recv,
	.xstop = report_stop,
	.xfinish = report_finish,
	.xdestroy = report_destroy,
};

static const struct ss_component_type kernel_report_type = {
	.abi_version = SS_ABI_VERSION,
	.name = "kernel_report",
	.summary = "Per-kernel metrics (hit rates, sectors, transactions) from the counters of the hierarchy",
	.params = params,
	.ports = ports,
	.stats = stats,
	.ops = &ops,
	.instance_size = sizeof(struct kernel_report),
	/* the run's results are this component's table, not the raw dump */
	.flags = SS_TYPE_REPORTS_RUN | SS_TYPE_PARTITION_SAFE,
};

SS_PLUGIN_ENTRY(kernel_report)
{
	return ss_registry_add(r, &kernel_report_type, error);
}
