/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The sector cache's hardware-faithful state machine (write_miss =
 * lazy_fetch: GPGPU-Sim's sector cache made functional, with its kernel
 * ends) against a plain model of the same rules, on random configurations
 * and random streams.
 *
 * sector_cache.c is built for speed: fingerprints, a circular recency
 * list with links of one or two bytes, the last line remembered, epochs
 * for invalidation, a running count of modified lines, an access path
 * compiled per policy.  None of that is in the spec.  The model below
 * keeps none of it: a timestamp per line, a state per sector, a scan of
 * the set for every lookup and victim, a scan of the whole cache for the
 * count that protect_dirty_pct needs.  It states each rule where it
 * applies, and is meant to be slow and obviously right.
 *
 * Both get the same requests.  After every access the test compares the
 * probe sc_access() returns and the requests sent down, in order: op,
 * address, size, and the mask of every write and of every request that
 * passes by (a fetch's mask is not compared: the mask of a read means
 * nothing, mem.h).  At every kernel end it compares the write-backs (as a
 * set: nothing fixes the order of a flush) and every counter of sc_stats().
 *
 * A trial is one seed: it draws 1, 2 or 4 sets of 1 to 300 ways (links of
 * one byte and of two), write-back or write-through, protect_dirty_pct
 * 0, 10, 25, 50 or 100, bypass none or flagged, final_writeback count,
 * report or none, at_kernel_end invalidate or (but for count) keep, and
 * either fixed ways or ways that each kernel gives (sc_resize with the
 * sets fixed, the adaptive L1).  Its stream mixes loads, full and partial
 * stores, atomics and reductions of both spaces, some of them flagged
 * MEM_F_BYPASS, over a quarter more lines than the cache holds, so that
 * sets fill and evict, in one to four kernels.  Odd seeds spread the
 * requests over six SMs, each often coming back to its last line, and
 * the cache remembers five of them (sm_memos).  A failure names the
 * seed, the configuration and the access; SECTOR_MODEL_SEED=n runs trial
 * n alone.  The trials together must reach every rule that matters (see
 * struct coverage), so that a change of the generator cannot leave the
 * comparison with nothing to compare.  500 trials take a third of a
 * second, about a second under AddressSanitizer.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include "sector_cache.h"

#define TRIALS 500
#define LINE_BYTES 128u
#define SECTOR_BYTES 32u
#define SECTORS (LINE_BYTES / SECTOR_BYTES)
#define ALL_BYTES UINT32_MAX	/* a byte mask covering a whole sector */
#define BASE UINT64_C(0x7f0000000000)
#define TRIAL_SMS 6		/* SMs of a trial with sm_memos, one too many */

/* ---- one trial's configuration -------------------------------------------- */

struct trial {
	guint32 seed;
	uint32_t sets, ways;	/* ways: of the first kernel */
	bool write_back;	/* else write-through */
	uint32_t protect_pct;
	bool bypass;		/* bypass = flagged */
	bool ways_from_kernel;	/* size_from_kernel: sc_resize each kernel */
	enum sc_final_writeback final;
	bool keep;		/* at_kernel_end = keep, else invalidate */
};

static char *trial_name(const struct trial *t, uint32_t ways)
{
	static const char *const finals[] = { "count", "report", "none" };

	return g_strdup_printf("seed %u: %u sets x %u ways%s, %s, protect_dirty_pct %u, bypass %s, final_writeback %s, at_kernel_end %s",
			       t->seed, t->sets, ways,
			       t->ways_from_kernel ? " (from the kernel)" : "",
			       t->write_back ? "write_back" : "write_through",
			       t->protect_pct, t->bypass ? "flagged" : "none",
			       finals[t->final], t->keep ? "keep" : "invalidate");
}

/* ---- what goes down ------------------------------------------------------- */

struct down {
	enum mem_op op;
	uint64_t addr;
	uint32_t size, mask;
	bool any_mask;		/* a fetch: its mask is not compared */
};

static void append(GArray *log, enum mem_op op, uint64_t addr, uint32_t mask,
		   bool any_mask)
{
	struct down d = { op, addr, SECTOR_BYTES, mask, any_mask };

	g_array_append_val(log, d);
}

/* sector_cache's emit callback */
static void record(void *ctx, const struct mem_req *r)
{
	struct down d = { r->hdr.kind, r->addr, r->size, r->mask, false };

	g_array_append_val((GArray *)ctx, d);
}

static bool same_down(const struct down *got, const struct down *want)
{
	return got->op == want->op && got->addr == want->addr &&
	       got->size == want->size &&
	       (want->any_mask || got->mask == want->mask);
}

static bool same_log(const GArray *got, const GArray *want)
{
	if (got->len != want->len)
		return false;
	for (guint i = 0; i < got->len; i++)
		if (!same_down(&g_array_index(got, struct down, i),
			       &g_array_index(want, struct down, i)))
			return false;
	return true;
}

static int by_address(gconstpointer a, gconstpointer b)
{
	const struct down *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

/* "r0x7f0000000020 w0x7f0000000000&ff": what a log holds, for messages */
static char *log_text(const GArray *log)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < log->len; i++) {
		const struct down *d = &g_array_index(log, struct down, i);

		g_string_append_printf(s, "%s%c0x%" G_GINT64_MODIFIER "x",
				       i ? " " : "", "?rwad?"[MIN(d->op, 5)], d->addr);
		if (d->size != SECTOR_BYTES)
			g_string_append_printf(s, "/%u", d->size);
		if (!d->any_mask && d->mask != ALL_BYTES)
			g_string_append_printf(s, "&%x", d->mask);
	}
	if (!log->len)
		g_string_append(s, "nothing");
	return g_string_free(s, FALSE);
}

/* ---- the plain model: a state per sector, a stamp per line ---------------- */

enum sector_state { INVALID, VALID, MODIFIED };

struct msector {
	enum sector_state state;
	bool readable;		/* what a MODIFIED sector needs to be read */
	uint32_t written;	/* the line's byte mask over this sector */
};

struct mline {
	bool valid;
	uint64_t tag;		/* the line number */
	uint64_t stamp;		/* the last access: the least is the LRU line */
	struct msector sector[SECTORS];
};

/* How often the streams reached the rules a bug would hide in. */
struct coverage {
	uint64_t protected_victims;	/* a victim other than the LRU line */
	uint64_t overrides;
	uint64_t unreadable_reads;	/* a read of a MODIFIED, unreadable sector */
	uint64_t filled_by_parts;	/* partial writes that add up to a sector */
	uint64_t wb_evict, wb_flush, dirty_at_end;
	uint64_t bypassed, wide_kernels, resizes;
	uint64_t kept;			/* kernel ends that keep the lines */
};

struct model {
	const struct trial *t;
	uint32_t ways;
	struct mline *lines;	/* sets x ways, set by set */
	uint64_t clock;
	uint64_t st[SC_N_STATS];
	GArray *down;		/* what the model sends down */
	struct coverage *cov;
};

static void model_init(struct model *m, const struct trial *t, uint32_t ways,
		       struct coverage *cov)
{
	*m = (struct model){ .t = t, .cov = cov };
	m->down = g_array_new(FALSE, FALSE, sizeof(struct down));
	m->ways = ways;
	m->lines = g_new0(struct mline, (size_t)t->sets * ways);
}

static void model_free(struct model *m)
{
	g_free(m->lines);
	g_array_free(m->down, TRUE);
}

/* A new geometry for the next kernel: an empty cache. */
static void model_resize(struct model *m, uint32_t ways)
{
	g_free(m->lines);
	m->ways = ways;
	m->lines = g_new0(struct mline, (size_t)m->t->sets * ways);
}

static uint64_t line_of(uint64_t addr)
{
	return addr / LINE_BYTES;
}

static unsigned sector_of(uint64_t addr)
{
	return addr % LINE_BYTES / SECTOR_BYTES;
}

/* index = linear: the line number modulo the sets */
static struct mline *set_of(struct model *m, uint64_t line)
{
	return &m->lines[line % m->t->sets * m->ways];
}

static struct mline *find(struct model *m, uint64_t line)
{
	struct mline *set = set_of(m, line);

	for (uint32_t w = 0; w < m->ways; w++)
		if (set[w].valid && set[w].tag == line)
			return &set[w];
	return NULL;
}

static bool is_modified(const struct mline *l)
{
	for (unsigned s = 0; s < SECTORS; s++)
		if (l->sector[s].state == MODIFIED)
			return true;
	return false;
}

static uint64_t modified_lines(const struct model *m)
{
	uint64_t n = 0;

	for (size_t i = 0; i < (size_t)m->t->sets * m->ways; i++)
		n += m->lines[i].valid && is_modified(&m->lines[i]);
	return n;
}

/*
 * Ineligible as a victim: a modified line while 100 x modified lines /
 * all lines < protect_dirty_pct.  Compared multiplied out, as the exact
 * quotient: with an integer pct, rounding it down would not change the
 * answer anyway.
 */
static bool is_protected(const struct model *m, const struct mline *l,
			 uint64_t modified)
{
	uint64_t lines = (uint64_t)m->t->sets * m->ways;

	return is_modified(l) && 100 * modified < m->t->protect_pct * lines;
}

/*
 * The way for a new line: a free way if the set has one, else the LRU line
 * among the eligible ones, else (every line protected) the plain LRU line,
 * counted as an override.
 */
static struct mline *choose_victim(struct model *m, struct mline *set)
{
	struct mline *lru = NULL, *eligible = NULL;
	uint64_t modified = modified_lines(m);

	for (uint32_t w = 0; w < m->ways; w++)
		if (!set[w].valid)
			return &set[w];
	for (uint32_t w = 0; w < m->ways; w++) {
		struct mline *l = &set[w];

		if (!lru || l->stamp < lru->stamp)
			lru = l;
		if (!is_protected(m, l, modified) &&
		    (!eligible || l->stamp < eligible->stamp))
			eligible = l;
	}
	if (!eligible) {
		m->st[SC_S_PROTECT_OVERRIDES]++;
		m->cov->overrides++;
		return lru;
	}
	m->cov->protected_victims += eligible != lru;
	return eligible;
}

/* Take a way for `line` (most recent, no sector valid); *old is what it
 * held, to be written back once the access has sent its own request. */
static struct mline *replace(struct model *m, uint64_t line, struct mline *old)
{
	struct mline *l = choose_victim(m, set_of(m, line));

	*old = *l;
	if (old->valid)
		m->st[SC_S_EVICTIONS]++;
	*l = (struct mline){ .valid = true, .tag = line, .stamp = ++m->clock };
	return l;
}

/* A write-back cache writes each MODIFIED sector of a victim, whole; a
 * write-through cache never writes back. */
static void write_back(struct model *m, const struct mline *old,
		       enum sc_stat counter)
{
	if (!m->t->write_back || !old->valid)
		return;
	for (unsigned s = 0; s < SECTORS; s++) {
		if (old->sector[s].state != MODIFIED)
			continue;
		m->st[counter]++;
		append(m->down, MEM_WRITE,
		       old->tag * LINE_BYTES + s * SECTOR_BYTES, ALL_BYTES, false);
	}
}

static uint64_t *kind(struct model *m, const struct mem_req *r)
{
	return m->st + sc_stat_index(r->space, r->hdr.kind, 0);
}

static void count_probe(struct model *m, const struct mem_req *r,
			enum sc_probe p)
{
	kind(m, r)[SC_M_ACCESSES]++;
	kind(m, r)[SC_M_HITS + p]++;
}

/* One read of the sector to the next level. */
static void fetch(struct model *m, const struct mem_req *r)
{
	kind(m, r)[SC_M_READS_DOWN]++;
	append(m->down, MEM_READ, r->addr, 0, true);
}

/* A write-through cache forwards every write, with its mask. */
static void write_through(struct model *m, const struct mem_req *r)
{
	if (m->t->write_back)
		return;
	kind(m, r)[SC_M_WRITES_DOWN]++;
	append(m->down, MEM_WRITE, r->addr, r->mask, false);
}

/*
 * Atomics and reductions are read-modify-writes: probed and fetched as
 * reads, and in a write-back cache (the L2) the sector is then MODIFIED,
 * readable (it was, or was just fetched), with their bytes in the mask.
 * The rules describe them at the L2 only; in a write-through cache they leave
 * the sector as a read does (what sector_cache does: the hw L1 lets them
 * pass by).
 */
static void modify(struct model *m, const struct mem_req *r,
		   struct msector *s)
{
	if (r->hdr.kind == MEM_READ || !m->t->write_back)
		return;
	s->state = MODIFIED;
	s->written |= r->mask;
}

static bool readable(const struct msector *s)
{
	return s->state == VALID || (s->state == MODIFIED && s->readable);
}

/* Read, atomic or reduction of a line that is there. */
static enum sc_probe read_present(struct model *m, const struct mem_req *r,
				  struct mline *l)
{
	struct msector *s = &l->sector[sector_of(r->addr)];
	enum sc_probe p = readable(s) ? SC_HIT : SC_SECTOR_MISS;

	if (p == SC_SECTOR_MISS) {
		m->cov->unreadable_reads += s->state == MODIFIED;
		fetch(m, r);
		if (s->state == INVALID)
			s->state = VALID;
		s->readable = true;	/* a MODIFIED sector stays MODIFIED */
	}
	modify(m, r, s);
	l->stamp = ++m->clock;
	return p;
}

static enum sc_probe read_miss(struct model *m, const struct mem_req *r)
{
	struct mline old;
	struct mline *l = replace(m, line_of(r->addr), &old);
	struct msector *s = &l->sector[sector_of(r->addr)];

	s->state = VALID;
	s->readable = true;
	modify(m, r, s);
	fetch(m, r);
	write_back(m, &old, SC_S_WB_EVICT);
	return SC_MISS;
}

/*
 * A write of a line that is there: a HIT unless the sector is INVALID.
 * The sector becomes MODIFIED and readable once its bytes are all written
 * (a readable sector stays readable); a sector miss fetches nothing.
 */
static enum sc_probe write_present(struct model *m, const struct mem_req *r,
				   struct mline *l)
{
	struct msector *s = &l->sector[sector_of(r->addr)];
	enum sc_probe p = s->state == INVALID ? SC_SECTOR_MISS : SC_HIT;
	bool was_readable = readable(s);

	write_through(m, r);
	s->written |= r->mask;
	if (p == SC_HIT)
		s->readable = was_readable || s->written == ALL_BYTES;
	else
		s->readable = r->mask == ALL_BYTES || s->written == ALL_BYTES;
	m->cov->filled_by_parts += !was_readable && s->readable &&
				   r->mask != ALL_BYTES;
	s->state = MODIFIED;
	l->stamp = ++m->clock;
	return p;
}

static enum sc_probe write_miss(struct model *m, const struct mem_req *r)
{
	struct mline old;
	struct mline *l = replace(m, line_of(r->addr), &old);
	struct msector *s = &l->sector[sector_of(r->addr)];

	s->state = MODIFIED;
	s->written = r->mask;
	s->readable = r->mask == ALL_BYTES;
	write_through(m, r);
	write_back(m, &old, SC_S_WB_EVICT);
	return SC_MISS;
}

/* bypass = flagged: a line miss of its kind, nothing changes, and the
 * request goes down as it came. */
static enum sc_probe pass_by(struct model *m, const struct mem_req *r)
{
	bool is_write = r->hdr.kind == MEM_WRITE;

	kind(m, r)[SC_M_ACCESSES]++;
	kind(m, r)[SC_M_LINE_MISSES]++;
	kind(m, r)[is_write ? SC_M_WRITES_DOWN : SC_M_READS_DOWN]++;
	append(m->down, r->hdr.kind, r->addr, r->mask, false);
	m->cov->bypassed++;
	return SC_MISS;
}

static enum sc_probe model_access(struct model *m, const struct mem_req *r)
{
	struct mline *l;
	enum sc_probe p;

	if (m->t->bypass && (r->flags & MEM_F_BYPASS))
		return pass_by(m, r);
	l = find(m, line_of(r->addr));
	if (r->hdr.kind == MEM_WRITE)
		p = l ? write_present(m, r, l) : write_miss(m, r);
	else
		p = l ? read_present(m, r, l) : read_miss(m, r);
	count_probe(m, r, p);
	return p;
}

static unsigned modified_sectors(const struct mline *l)
{
	unsigned n = 0;

	for (unsigned s = 0; s < SECTORS; s++)
		n += l->sector[s].state == MODIFIED;
	return n;
}

/*
 * At a kernel's end, final_writeback = count writes the dirty sectors
 * back, report only counts them (write-back caches: a write-through one
 * has nothing left to write), none does neither; then the cache is invalidated, or keeps its lines
 * as they are (never drawn with count: see random_trial()).
 */
static void model_end_kernel(struct model *m)
{
	for (size_t i = 0; i < (size_t)m->t->sets * m->ways; i++) {
		struct mline *l = &m->lines[i];

		if (!l->valid)
			continue;
		if (m->t->final == SC_FINAL_COUNT)
			write_back(m, l, SC_S_WB_FLUSH);
		else if (m->t->final == SC_FINAL_REPORT && m->t->write_back)
			m->st[SC_S_DIRTY_AT_END] += modified_sectors(l);
		if (!m->t->keep)
			*l = (struct mline){ 0 };
	}
}

/* The totals, as the statistic rows define them: sums over the kinds,
 * and the write-backs among the writes sent down. */
static void model_totals(struct model *m)
{
	for (unsigned k = 0; k < SC_N_METRICS; k++) {
		m->st[SC_S_TOTAL + k] = 0;
		for (unsigned i = 0; i < SC_N_KINDS; i++)
			m->st[SC_S_TOTAL + k] += m->st[i * SC_N_METRICS + k];
	}
	m->st[SC_S_TOTAL + SC_M_WRITES_DOWN] += m->st[SC_S_WB_EVICT] +
						m->st[SC_S_WB_FLUSH];
}

/* ---- one trial ------------------------------------------------------------ */

struct run {
	const struct trial *t;
	GRand *rng;
	struct sc_cache *c;
	GArray *got;		/* what sector_cache sent down */
	struct model m;
	int kernel;		/* from 0, for messages */
	uint64_t step;		/* accesses so far, for messages */
	/* odd seeds: requests of TRIAL_SMS SMs, each often asking for its
	 * last line again, to a cache that remembers them (sm_memos); from
	 * an rng of their own, so that the other draws stay as they were */
	GRand *sm_rng;
	uint64_t sm_line[TRIAL_SMS];
};

/*
 * Ways for a kernel: mostly few, where victims are chosen often; some
 * at the edge of one-byte links (256 ways) and beyond it.
 */
static uint32_t random_ways(GRand *rng)
{
	switch (g_rand_int_range(rng, 0, 8)) {
	case 0:
		if (g_rand_boolean(rng))
			return g_rand_int_range(rng, 255, 258);
		return g_rand_int_range(rng, 258, 301);
	case 1:
	case 2:
		return g_rand_int_range(rng, 9, 65);
	default:
		return g_rand_int_range(rng, 1, 9);
	}
}

static struct trial random_trial(guint32 seed, GRand *rng)
{
	static const uint32_t pcts[] = { 0, 10, 25, 50, 100 };
	struct trial t = { .seed = seed };

	t.sets = 1u << g_rand_int_range(rng, 0, 3);
	t.ways = random_ways(rng);
	t.write_back = g_rand_boolean(rng);
	t.protect_pct = pcts[g_rand_int_range(rng, 0, G_N_ELEMENTS(pcts))];
	t.bypass = g_rand_boolean(rng);
	t.ways_from_kernel = g_rand_boolean(rng);
	t.final = g_rand_int_range(rng, SC_FINAL_COUNT, SC_FINAL_NONE + 1);
	/*
	 * Not count with keep: the rules do not say what a sector written
	 * back and kept is.  sector_cache keeps it valid, clean and, if its
	 * bytes were not all written, unreadable, a state they do not have; and a
	 * write-through cache, which writes nothing back, forgets which of
	 * its lines were modified, which changes protect_dirty_pct's victims.
	 */
	t.keep = t.final != SC_FINAL_COUNT && g_rand_boolean(rng);
	return t;
}

static struct sc_cache *new_cache(const struct trial *t, GArray *got)
{
	struct sc_config cfg = {
		.sets = t->sets,
		.assoc = t->ways_from_kernel ? 0 : t->ways,
		.size_from_kernel = t->ways_from_kernel,
		.line_bytes = LINE_BYTES, .sector_bytes = SECTOR_BYTES,
		.index = SET_INDEX_LINEAR, .replacement = SC_LRU,
		.write_hit = t->write_back ? SC_WRITE_BACK : SC_WRITE_THROUGH,
		.write_miss = SC_LAZY_FETCH, .count_write_misses = true,
		.protect_dirty_pct = t->protect_pct,
		.bypass = t->bypass ? SC_BYPASS_FLAGGED : SC_BYPASS_NONE,
		.sm_memos = t->seed % 2 ? TRIAL_SMS - 1 : 0,
	};
	char *why = NULL;
	struct sc_cache *c = sc_new(&cfg, NULL, record, got, &why);

	if (!c)
		g_error("seed %u: sc_new: %s", t->seed, why);
	return c;
}

/* A byte mask: whole, whole quarters (which add up to whole sectors now
 * and then), or any bytes.  What matters is a store's; a load's must pass
 * by unchanged. */
static uint32_t random_mask(GRand *rng)
{
	uint32_t mask = 0;

	switch (g_rand_int_range(rng, 0, 5)) {
	case 0:
	case 1:
		return ALL_BYTES;
	case 2:
	case 3:
		while (!mask)
			for (unsigned q = 0; q < 4; q++)
				if (g_rand_boolean(rng))
					mask |= 0xffu << (8 * q);
		return mask;
	default:
		while (!mask)
			mask = g_rand_int(rng);
		return mask;
	}
}

/* A random request over a quarter more lines than the cache holds. */
static struct mem_req random_request(struct run *run)
{
	static const enum mem_op ops[] = {
		MEM_READ, MEM_READ, MEM_READ, MEM_READ,
		MEM_WRITE, MEM_WRITE, MEM_WRITE, MEM_WRITE,
		MEM_ATOMIC, MEM_REDUCTION,
	};
	GRand *rng = run->rng;
	uint64_t lines = (uint64_t)run->t->sets * run->m.ways * 5 / 4 + 2;
	uint64_t line = g_rand_int_range(rng, 0, lines);
	struct mem_req r;

	mem_req_init(&r, ops[g_rand_int_range(rng, 0, G_N_ELEMENTS(ops))],
		     BASE + line * LINE_BYTES +
		     g_rand_int_range(rng, 0, SECTORS) * SECTOR_BYTES, MEM_ATOM);
	r.mask = random_mask(rng);
	r.space = g_rand_int_range(rng, 0, 10) ? MEM_GLOBAL : MEM_LOCAL;
	if (!g_rand_int_range(rng, 0, 10))
		r.flags = MEM_F_BYPASS;
	if (run->sm_rng) {
		r.sm = (uint16_t)g_rand_int_range(run->sm_rng, 0, TRIAL_SMS);
		if (run->sm_line[r.sm] && g_rand_boolean(run->sm_rng))
			r.addr = run->sm_line[r.sm] + (r.addr & (LINE_BYTES - 1));
		run->sm_line[r.sm] = r.addr & ~(uint64_t)(LINE_BYTES - 1);
	}
	return r;
}

static char *request_text(const struct mem_req *r)
{
	return g_strdup_printf("%s %s 0x%" G_GINT64_MODIFIER "x &%x%s",
			       r->space == MEM_LOCAL ? "local" : "global",
			       (const char *const[]){ "?", "load", "store", "atomic",
						      "reduction" }[r->hdr.kind],
			       r->addr, r->mask,
			       r->flags & MEM_F_BYPASS ? " flagged" : "");
}

/* The test fails: where (the access or the kernel's end), what, and
 * what each of the two says.  Takes the strings. */
static void fail_trial(const struct run *run, char *where, char *what,
		       char *got, char *want)
{
	char *name = trial_name(run->t, run->m.ways);

	g_test_fail_printf("%s; %s: %s: sector_cache %s, model %s",
			   name, where, what, got, want);
	g_free(name);
	g_free(where);
	g_free(what);
	g_free(got);
	g_free(want);
}

static char *access_text(const struct run *run)
{
	return g_strdup_printf("kernel %d, access #%" G_GUINT64_FORMAT " of the stream",
			       run->kernel, run->step);
}

static char *kernel_end_text(const struct run *run)
{
	return g_strdup_printf("the end of kernel %d, after %" G_GUINT64_FORMAT " accesses",
			       run->kernel, run->step);
}

static char *probe_text(enum sc_probe p, const GArray *log)
{
	char *down = log_text(log);
	char *s = g_strdup_printf("%c, %s", "HSM"[p], down);

	g_free(down);
	return s;
}

static bool check_access(struct run *run, const struct mem_req *r)
{
	enum sc_probe got, want;

	g_array_set_size(run->got, 0);
	g_array_set_size(run->m.down, 0);
	got = sc_access(run->c, r);
	want = model_access(&run->m, r);
	if (got == want && same_log(run->got, run->m.down))
		return true;
	fail_trial(run, access_text(run), request_text(r),
		   probe_text(got, run->got), probe_text(want, run->m.down));
	return false;
}

/* The name of counter i, as the component's statistic rows have it. */
static char *stat_name(unsigned i)
{
	static const char *const ops[] = { "load", "store", "atomic", "reduction" };
	static const char *const metrics[] = {
		"accesses", "hits", "sector_misses", "line_misses",
		"reads_down", "writes_down",
	};
	static const char *const others[] = {
		"evictions", "wb_evict", "wb_flush", "dirty_at_kernel_end",
		"protect_overrides",
	};

	if (i < SC_S_TOTAL)
		return g_strdup_printf("%s_%s_%s",
				       i / (SC_N_OPS * SC_N_METRICS) ? "local" : "global",
				       ops[i / SC_N_METRICS % SC_N_OPS],
				       metrics[i % SC_N_METRICS]);
	if (i < SC_S_EVICTIONS)
		return g_strdup(metrics[i - SC_S_TOTAL]);
	return g_strdup(others[i - SC_S_EVICTIONS]);
}

static bool check_stats(struct run *run)
{
	const uint64_t *got = sc_stats(run->c);

	model_totals(&run->m);
	for (unsigned i = 0; i < SC_S_HIT_RATE; i++) {
		if (got[i] == run->m.st[i])
			continue;
		fail_trial(run, kernel_end_text(run), stat_name(i),
			   g_strdup_printf("%" G_GUINT64_FORMAT, got[i]),
			   g_strdup_printf("%" G_GUINT64_FORMAT, run->m.st[i]));
		return false;
	}
	return true;
}

/* A kernel's end on both, then the same counters. */
static bool end_kernel(struct run *run)
{
	struct sc_kernel_end end = { run->t->final, !run->t->keep };
	bool same;

	g_array_set_size(run->got, 0);
	g_array_set_size(run->m.down, 0);
	sc_end_kernel(run->c, &end);
	model_end_kernel(&run->m);
	run->m.cov->kept += run->t->keep && !run->t->ways_from_kernel;
	g_array_sort(run->got, by_address);
	g_array_sort(run->m.down, by_address);
	same = same_log(run->got, run->m.down);
	if (!same)
		fail_trial(run, kernel_end_text(run), g_strdup("write-backs"),
			   log_text(run->got), log_text(run->m.down));
	return same && check_stats(run);
}

/* A kernel's begin: with ways from the kernel, new ways or the same
 * again; either way sc_resize() invalidates the cache. */
static void begin_kernel(struct run *run, bool first)
{
	uint32_t ways = run->m.ways;
	char *why = NULL;

	if (!run->t->ways_from_kernel)
		return;
	if (!first && g_rand_boolean(run->rng)) {
		ways = random_ways(run->rng);
		run->m.cov->resizes++;
	}
	model_resize(&run->m, ways);
	if (!sc_resize(run->c, (uint64_t)run->t->sets * ways * LINE_BYTES, &why))
		g_error("seed %u: sc_resize to %u ways: %s", run->t->seed, ways, why);
	g_assert_cmpuint(sc_ways(run->c), ==, ways);
}

/* One kernel: enough accesses to fill the cache and evict a good part. */
static bool run_kernel(struct run *run, bool first)
{
	uint64_t lines;
	int n;

	begin_kernel(run, first);
	lines = (uint64_t)run->t->sets * run->m.ways;
	run->m.cov->wide_kernels += run->m.ways > 256;
	n = g_rand_int_range(run->rng, 1, 3 * lines + 300);
	for (int i = 0; i < n; i++, run->step++) {
		struct mem_req r = random_request(run);

		if (!check_access(run, &r))
			return false;
	}
	return end_kernel(run);
}

static void tally(struct coverage *cov, const uint64_t *st)
{
	cov->wb_evict += st[SC_S_WB_EVICT];
	cov->wb_flush += st[SC_S_WB_FLUSH];
	cov->dirty_at_end += st[SC_S_DIRTY_AT_END];
}

static bool run_trial(guint32 seed, struct coverage *cov)
{
	GRand *rng = g_rand_new_with_seed(seed);
	struct trial t = random_trial(seed, rng);
	struct run run = {
		.t = &t, .rng = rng,
		.sm_rng = seed % 2 ? g_rand_new_with_seed(seed) : NULL,
	};
	int kernels = g_rand_int_range(rng, 1, 5);
	bool ok = true;

	run.got = g_array_new(FALSE, FALSE, sizeof(struct down));
	run.c = new_cache(&t, run.got);
	model_init(&run.m, &t, t.ways, cov);
	for (run.kernel = 0; run.kernel < kernels && ok; run.kernel++)
		ok = run_kernel(&run, run.kernel == 0);
	if (ok)
		tally(cov, run.m.st);
	sc_free(run.c);
	model_free(&run.m);
	g_array_free(run.got, TRUE);
	g_rand_free(rng);
	if (run.sm_rng)
		g_rand_free(run.sm_rng);
	return ok;
}

/* Every rule worth comparing was reached by some trial. */
static void check_coverage(const struct coverage *cov)
{
	g_test_message("protected victims %" G_GUINT64_FORMAT ", overrides %" G_GUINT64_FORMAT
		       ", reads of unreadable sectors %" G_GUINT64_FORMAT
		       ", sectors filled by parts %" G_GUINT64_FORMAT
		       ", wb_evict %" G_GUINT64_FORMAT ", wb_flush %" G_GUINT64_FORMAT
		       ", dirty_at_kernel_end %" G_GUINT64_FORMAT
		       ", bypassed %" G_GUINT64_FORMAT ", wide kernels %" G_GUINT64_FORMAT
		       ", resizes %" G_GUINT64_FORMAT ", kept %" G_GUINT64_FORMAT,
		       cov->protected_victims, cov->overrides, cov->unreadable_reads,
		       cov->filled_by_parts, cov->wb_evict, cov->wb_flush,
		       cov->dirty_at_end, cov->bypassed, cov->wide_kernels,
		       cov->resizes, cov->kept);
	g_assert_cmpuint(cov->protected_victims, >, 0);
	g_assert_cmpuint(cov->overrides, >, 0);
	g_assert_cmpuint(cov->unreadable_reads, >, 0);
	g_assert_cmpuint(cov->filled_by_parts, >, 0);
	g_assert_cmpuint(cov->wb_evict, >, 0);
	g_assert_cmpuint(cov->wb_flush, >, 0);
	g_assert_cmpuint(cov->dirty_at_end, >, 0);
	g_assert_cmpuint(cov->bypassed, >, 0);
	g_assert_cmpuint(cov->wide_kernels, >, 0);
	g_assert_cmpuint(cov->resizes, >, 0);
	g_assert_cmpuint(cov->kept, >, 0);
}

static void test_random_trials(void)
{
	const char *only = g_getenv("SECTOR_MODEL_SEED");
	struct coverage cov = { 0 };

	if (only) {
		run_trial(strtoul(only, NULL, 10), &cov);
		return;
	}
	for (guint32 seed = 1; seed <= TRIALS; seed++)
		if (!run_trial(seed, &cov))
			return;
	check_coverage(&cov);
}

/*
 * The memory account: asked before tables are made or replaced, with the
 * resident bytes (8 per set) and all the tables' bytes; a refusal leaves
 * the cache as it was; sc_free gives the resident bytes back.
 */
struct account {
	uint64_t resident, limit;
	unsigned calls;
};

static bool account_claim(void *ctx, uint64_t old_resident,
			  uint64_t new_resident, uint64_t tables, char **why)
{
	struct account *a = ctx;
	uint64_t sum = a->resident - old_resident + new_resident;

	a->calls++;
	g_assert_cmpuint(old_resident, <=, a->resident);
	if (new_resident)
		g_assert_cmpuint(tables, >=, new_resident);
	if (new_resident > old_resident && sum > a->limit) {
		*why = g_strdup("over the limit");
		return false;
	}
	a->resident = sum;
	return true;
}

static void test_memory_account(void)
{
	struct account a = { .limit = 64 * 8 };
	struct sc_config cfg = {
		.sets = 32, .size_from_kernel = true,
		.line_bytes = LINE_BYTES, .sector_bytes = SECTOR_BYTES,
		.index = SET_INDEX_LINEAR, .replacement = SC_LRU,
		.write_hit = SC_WRITE_BACK, .write_miss = SC_LAZY_FETCH,
		.count_write_misses = true,
		.memory = account_claim, .memory_ctx = &a,
	};
	char *why = NULL;
	struct sc_cache *c, *d;

	/* sets and a size from each kernel: no tables yet, but the sets'
	 * records are known and on the account from the start */
	c = sc_new(&cfg, NULL, record, NULL, &why);
	g_assert_nonnull(c);
	g_assert_cmpuint(a.resident, ==, 32 * 8);
	g_assert_true(sc_resize(c, 32 * 4 * LINE_BYTES, &why));
	g_assert_cmpuint(a.resident, ==, 32 * 8);
	/* more ways, the same sets: the same records, swapped */
	g_assert_true(sc_resize(c, 32 * 8 * LINE_BYTES, &why));
	g_assert_cmpuint(a.resident, ==, 32 * 8);
	g_assert_cmpuint(sc_ways(c), ==, 8);
	/* a second cache of 64 sets would pass the limit of 64 records */
	cfg.sets = 64;
	cfg.size_from_kernel = false;
	cfg.assoc = 2;
	d = sc_new(&cfg, NULL, record, NULL, &why);
	g_assert_null(d);
	g_assert_nonnull(strstr(why, "64 sets of 2 ways"));
	g_assert_nonnull(strstr(why, "over the limit"));
	g_clear_pointer(&why, g_free);
	g_assert_cmpuint(a.resident, ==, 32 * 8);
	sc_free(c);
	g_assert_cmpuint(a.resident, ==, 0);
	d = sc_new(&cfg, NULL, record, NULL, &why);
	g_assert_nonnull(d);
	g_assert_cmpuint(a.resident, ==, 64 * 8);
	sc_free(d);
	g_assert_cmpuint(a.resident, ==, 0);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sector-model/random-trials", test_random_trials);
	g_test_add_func("/sector-model/memory-account", test_memory_account);
	return g_test_run();
}
