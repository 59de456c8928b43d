/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Time-parallel simulation of a sector cache.
 *
 * The requests are held until a batch is full (or its owner runs it at a
 * kernel's end), then cut into `segments` runs of consecutive requests.
 * Segment 0 is simulated on the cache itself, which holds the true state
 * it starts from; each other segment at the same time, on a thread, in a
 * copy of the cache that starts empty, keeping what it sends down and,
 * per set, a copy of the set after its 1st, 2nd, 4th, 8th... access.
 *
 * The sets of a cache are independent (protect_dirty_pct, which counts
 * modified lines over the whole cache, is refused), so a segment's
 * results are wrong only in the accesses of each set before that set
 * forgot where it started.  In order, for each segment after the first
 * and each set it touched, the set's accesses are simulated again from
 * the true state (the cache's, which by then is the end of the segment
 * before) until, at one of the copies, the set holds what the copy holds:
 * the same lines in the same order with the same sectors, whatever ways
 * hold them.  From there the two runs answer alike, so the segment's
 * later results stand, and its final set is the true one with its ways
 * renumbered as the comparison paired them.  A set that never matches
 * was simulated again whole.  What the segment counted and sent for the
 * accesses simulated again is replaced by the new results (its counts
 * found by simulating those accesses once more from the empty set), and
 * the cache takes each set's true final state.  What the segments sent
 * goes down in the order of the requests, segment after segment.
 *
 * The result equals sequential simulation whatever the thread timing:
 * each segment is a pure function of its requests, and the corrections
 * run in order on the caller's thread.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "sc_timepar.h"

#define NONE UINT32_MAX

/* A request a segment sent down for request `at` of the batch. */
struct tp_down {
	uint32_t at, seq;
	struct mem_req r;
};

/* A set's copy after its k-th access in a segment; then the state. */
struct tp_snap {
	uint32_t k, next;
};

struct tp_seg {
	struct sc_timepar *tp;
	struct sc_cache *cache;		/* segment 0: the cache itself */
	uint64_t st[SC_N_STATS];
	size_t first, end;		/* its requests in the batch */
	uint32_t at;			/* the request being simulated */
	GArray *down;			/* struct tp_down */
	uint32_t *set_first, *set_last, *set_count, *snap_first, *snap_last;
	GArray *snaps;			/* struct tp_snap + set state, each */
	pthread_t thread;
	bool threaded;
};

struct sc_timepar {
	struct sc_cache *c;
	sc_emit_fn emit;
	void *ctx;
	unsigned n_seg;
	size_t batch, n;		/* capacity, requests held */
	struct mem_req *req;
	uint32_t *set;			/* per request: its set, NONE: no set */
	uint32_t *next;			/* per request: the next of its set in
					   its segment */
	uint8_t *redone;		/* per request: simulated again */
	struct tp_seg seg[SC_TIMEPAR_MAX_SEGMENTS];
	uint32_t sets;			/* of the arrays below and per segment */
	size_t state_bytes, snap_bytes;
	/* the corrections: the true run and the replay from empty */
	struct sc_cache *truth, *replay;
	uint64_t truth_st[SC_N_STATS], replay_st[SC_N_STATS];
	GArray *truth_down;		/* struct tp_down */
	uint32_t truth_at;
	uint8_t *empty, *state, *other;	/* set states */
	uint16_t *map;
	uint32_t line_shift;
	struct sc_timepar_counts counts;
};

const char *sc_timepar_unsupported(const struct sc_config *cfg)
{
	if (cfg->protect_dirty_pct)
		return "protect_dirty_pct ties the sets together (a line is protected by the count of modified lines in the whole cache); expected protect_dirty_pct = 0";
	return NULL;
}

static void keep_down(void *ctx, const struct mem_req *r)
{
	struct tp_seg *s = ctx;
	struct tp_down d = { .at = s->at, .seq = s->down->len, .r = *r };

	g_array_append_val(s->down, d);
}

static void keep_truth_down(void *ctx, const struct mem_req *r)
{
	struct sc_timepar *tp = ctx;
	struct tp_down d = { .at = tp->truth_at, .seq = tp->truth_down->len, .r = *r };

	g_array_append_val(tp->truth_down, d);
}

static void drop_down(void *ctx, const struct mem_req *r)
{
	(void)ctx;
	(void)r;
}

static struct sc_cache *copy_of(struct sc_timepar *tp, uint64_t *st,
				sc_emit_fn emit, void *ctx, char **why)
{
	return sc_new(sc_config_of(tp->c), st, emit, ctx, why);
}

void sc_timepar_free(struct sc_timepar *tp)
{
	if (!tp)
		return;
	for (unsigned j = 0; j < tp->n_seg; j++) {
		struct tp_seg *s = &tp->seg[j];

		if (j)
			sc_free(s->cache);
		if (s->down)
			g_array_free(s->down, TRUE);
		if (s->snaps)
			g_array_free(s->snaps, TRUE);
		g_free(s->set_first);
		g_free(s->set_last);
		g_free(s->set_count);
		g_free(s->snap_first);
		g_free(s->snap_last);
	}
	sc_free(tp->truth);
	sc_free(tp->replay);
	if (tp->truth_down)
		g_array_free(tp->truth_down, TRUE);
	g_free(tp->req);
	g_free(tp->set);
	g_free(tp->next);
	g_free(tp->redone);
	g_free(tp->empty);
	g_free(tp->state);
	g_free(tp->other);
	g_free(tp->map);
	g_free(tp);
}

struct sc_timepar *sc_timepar_new(struct sc_cache *c, sc_emit_fn emit, void *ctx,
				  unsigned segments, size_t batch, char **why)
{
	const struct sc_config *cfg = sc_config_of(c);
	const char *no = sc_timepar_unsupported(cfg);
	struct sc_timepar *tp;

	*why = NULL;
	if (no) {
		*why = g_strdup(no);
		return NULL;
	}
	if (segments < 2 || segments > SC_TIMEPAR_MAX_SEGMENTS || batch < segments ||
	    batch >= NONE) {
		*why = g_strdup_printf("%u segments of a batch of %zu requests: expected 2 to %u segments and a batch of at least as many requests, below 2^32",
				       segments, batch, SC_TIMEPAR_MAX_SEGMENTS);
		return NULL;
	}
	tp = g_new0(struct sc_timepar, 1);
	tp->c = c;
	tp->emit = emit;
	tp->ctx = ctx;
	tp->n_seg = segments;
	tp->batch = batch;
	tp->line_shift = __builtin_ctz(cfg->line_bytes);
	tp->req = g_try_new(struct mem_req, batch);
	tp->set = g_try_new(uint32_t, batch);
	tp->next = g_try_new(uint32_t, batch);
	tp->redone = g_try_new0(uint8_t, batch);
	if (!tp->req || !tp->set || !tp->next || !tp->redone) {
		*why = g_strdup_printf("out of memory holding a batch of %zu requests", batch);
		sc_timepar_free(tp);
		return NULL;
	}
	for (unsigned j = 0; j < segments; j++) {
		struct tp_seg *s = &tp->seg[j];

		s->tp = tp;
		s->down = g_array_new(FALSE, FALSE, sizeof(struct tp_down));
		if (!j) {
			s->cache = c;
			continue;
		}
		s->cache = copy_of(tp, s->st, keep_down, s, why);
		if (!s->cache) {
			tp->n_seg = j + 1;
			sc_timepar_free(tp);
			return NULL;
		}
	}
	tp->truth = copy_of(tp, tp->truth_st, keep_truth_down, tp, why);
	tp->replay = tp->truth ? copy_of(tp, tp->replay_st, drop_down, NULL, why) : NULL;
	if (!tp->replay) {
		sc_timepar_free(tp);
		return NULL;
	}
	tp->truth_down = g_array_new(FALSE, FALSE, sizeof(struct tp_down));
	return tp;
}

const struct sc_timepar_counts *sc_timepar_counts(const struct sc_timepar *tp)
{
	return &tp->counts;
}

/* ---- holding the requests ----------------------------------------------------- */

static void hold(struct sc_timepar *tp, const struct mem_req *r)
{
	tp->req[tp->n++] = *r;
	if (tp->n == tp->batch)
		sc_timepar_run(tp);
}

/*
 * A request over several lines is held as one per line, so that each
 * belongs to one set; the cache makes the same requests down from the
 * pieces as from the whole (their bytes included).  A request that
 * passes the cache by goes as it is.
 */
void sc_timepar_add(struct sc_timepar *tp, const struct mem_req *r)
{
	uint64_t end = r->addr + (r->size ? r->size : MEM_ATOM);

	if ((r->addr >> tp->line_shift) == ((end - 1) >> tp->line_shift) ||
	    ((r->flags & MEM_F_BYPASS) && sc_bypasses(tp->c))) {
		hold(tp, r);
		return;
	}
	for (uint64_t a = r->addr; a < end;) {
		uint64_t next = MIN(((a >> tp->line_shift) + 1) << tp->line_shift, end);
		struct mem_req p = *r;

		p.hdr.size = sizeof(p);
		p.addr = a;
		p.part_addr = r->part_addr + (a - r->addr);
		p.size = (uint32_t)(next - a);
		p.mask = UINT32_MAX;
		p.ctl = 0;
		hold(tp, &p);
		a = next;
	}
}

/* ---- the segments, at once ------------------------------------------------------ */

static bool checkpoint(uint32_t k)
{
	return !(k & (k - 1));
}

static uint8_t *snap_state(struct tp_seg *s, uint32_t i)
{
	return (uint8_t *)s->snaps->data + (size_t)i * s->tp->snap_bytes + sizeof(struct tp_snap);
}

static struct tp_snap *snap_at(struct tp_seg *s, uint32_t i)
{
	return (struct tp_snap *)((uint8_t *)s->snaps->data + (size_t)i * s->tp->snap_bytes);
}

static void take_snap(struct tp_seg *s, uint32_t set, uint32_t k)
{
	uint32_t i = s->snaps->len;
	struct tp_snap *h;

	g_array_set_size(s->snaps, i + 1);
	h = snap_at(s, i);
	h->k = k;
	h->next = NONE;
	sc_set_save(s->cache, set, snap_state(s, i));
	if (s->snap_first[set] == NONE)
		s->snap_first[set] = i;
	else
		snap_at(s, s->snap_last[set])->next = i;
	s->snap_last[set] = i;
}

/* A segment after the first: from an empty cache, its sets followed. */
static void *simulate_segment(void *data)
{
	struct tp_seg *s = data;
	struct sc_timepar *tp = s->tp;
	bool bypasses = sc_bypasses(s->cache);

	for (size_t i = s->first; i < s->end; i++) {
		const struct mem_req *r = &tp->req[i];
		uint32_t set, k;

		s->at = (uint32_t)i;
		if (bypasses && (r->flags & MEM_F_BYPASS)) {
			tp->set[i] = NONE;	/* the same whatever the state */
			sc_access(s->cache, r);
			continue;
		}
		set = sc_set_of(s->cache, r->addr, r->part_addr);
		tp->set[i] = set;
		tp->next[i] = NONE;
		if (s->set_first[set] == NONE)
			s->set_first[set] = (uint32_t)i;
		else
			tp->next[s->set_last[set]] = (uint32_t)i;
		s->set_last[set] = (uint32_t)i;
		sc_access(s->cache, r);
		k = ++s->set_count[set];
		if (checkpoint(k))
			take_snap(s, set, k);
	}
	return NULL;
}

/* The copies take the cache's geometry (a kernel may have resized it). */
static void match_geometry(struct sc_timepar *tp, struct sc_cache *copy)
{
	uint32_t sets = sc_sets(tp->c), ways = sc_ways(tp->c);
	char *why = NULL;

	if (sc_sets(copy) == sets && sc_ways(copy) == ways)
		return;
	if (!sc_resize(copy, (uint64_t)sets * ways * sc_config_of(tp->c)->line_bytes, &why) ||
	    sc_sets(copy) != sets || sc_ways(copy) != ways)
		g_error("sc_timepar: a copy of the cache cannot take its %u sets of %u ways: %s",
			sets, ways, why ? why : "another geometry");
}

static void size_arrays(struct sc_timepar *tp)
{
	uint32_t sets = sc_sets(tp->c);

	for (unsigned j = 0; j < tp->n_seg; j++)
		match_geometry(tp, tp->seg[j].cache);
	match_geometry(tp, tp->truth);
	match_geometry(tp, tp->replay);
	if (sets == tp->sets && tp->state_bytes == sc_set_state_bytes(tp->c))
		return;
	tp->sets = sets;
	tp->state_bytes = sc_set_state_bytes(tp->c);
	tp->snap_bytes = sizeof(struct tp_snap) +
			 (tp->state_bytes + sizeof(uint64_t) - 1) / sizeof(uint64_t) * sizeof(uint64_t);
	for (unsigned j = 1; j < tp->n_seg; j++) {
		struct tp_seg *s = &tp->seg[j];

		s->set_first = g_renew(uint32_t, s->set_first, sets);
		s->set_last = g_renew(uint32_t, s->set_last, sets);
		s->set_count = g_renew(uint32_t, s->set_count, sets);
		s->snap_first = g_renew(uint32_t, s->snap_first, sets);
		s->snap_last = g_renew(uint32_t, s->snap_last, sets);
		if (s->snaps)
			g_array_free(s->snaps, TRUE);
		s->snaps = g_array_new(FALSE, FALSE, tp->snap_bytes);
	}
	tp->empty = g_realloc(tp->empty, tp->state_bytes);
	tp->state = g_realloc(tp->state, tp->state_bytes);
	tp->other = g_realloc(tp->other, tp->state_bytes);
	tp->map = g_renew(uint16_t, tp->map, sc_ways(tp->c));
	sc_set_state_empty(tp->c, tp->empty);
}

static void start_segment(struct sc_timepar *tp, unsigned j)
{
	struct tp_seg *s = &tp->seg[j];

	s->first = tp->n * j / tp->n_seg;
	s->end = tp->n * (j + 1) / tp->n_seg;
	g_array_set_size(s->down, 0);
	if (!j)
		return;
	sc_invalidate(s->cache);
	memset(s->st, 0, sizeof(s->st));
	memset(s->set_first, 0xff, tp->sets * sizeof(uint32_t));
	memset(s->snap_first, 0xff, tp->sets * sizeof(uint32_t));
	memset(s->set_count, 0, tp->sets * sizeof(uint32_t));
	g_array_set_size(s->snaps, 0);
	/* with no thread, the segment is simulated here, in turn */
	s->threaded = pthread_create(&s->thread, NULL, simulate_segment, s) == 0;
}

/* ---- the corrections, in order -------------------------------------------------- */

/*
 * Set `set` of segment s from its true state, the cache's: simulated
 * again until it matches one of the segment's copies, its counts and
 * requests down replaced, and its true final state into the cache.
 */
static void correct_set(struct sc_timepar *tp, struct tp_seg *s, uint32_t set)
{
	uint32_t redone = 0, snap = s->snap_first[set];
	bool matched = false;

	sc_set_save(tp->c, set, tp->state);
	/* before its first access, the copy's set is empty */
	if (!sc_set_state_match(tp->c, tp->empty, tp->state, tp->map)) {
		sc_set_load(tp->truth, set, tp->state);
		for (uint32_t i = s->set_first[set]; i != NONE && !matched; i = tp->next[i]) {
			tp->truth_at = i;
			sc_access(tp->truth, &tp->req[i]);
			tp->redone[i] = 1;
			redone++;
			if (snap == NONE || snap_at(s, snap)->k != redone)
				continue;
			sc_set_save(tp->truth, set, tp->other);
			matched = sc_set_state_match(tp->c, snap_state(s, snap), tp->other, tp->map);
			snap = snap_at(s, snap)->next;
		}
		/* what the segment counted for them, from the empty set */
		sc_set_load(tp->replay, set, tp->empty);
		for (uint32_t i = s->set_first[set], n = redone; n; n--, i = tp->next[i])
			sc_access(tp->replay, &tp->req[i]);
		if (!matched) {
			/* all of them again: the true run's end is the set's */
			sc_set_save(tp->truth, set, tp->state);
			sc_set_load(tp->c, set, tp->state);
			return;
		}
	}
	/* the segment's end, with its ways renumbered as they matched */
	sc_set_save(s->cache, set, tp->other);
	sc_set_state_renumber(tp->c, tp->other, tp->map, tp->state);
	sc_set_load(tp->c, set, tp->state);
}

static int by_request(const void *a, const void *b)
{
	const struct tp_down *x = a, *y = b;

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* What segment s sent, with the corrected requests' new requests down. */
static void send_segment(struct sc_timepar *tp, struct tp_seg *s)
{
	const struct tp_down *d = (const struct tp_down *)(void *)s->down->data;
	const struct tp_down *t = (const struct tp_down *)(void *)tp->truth_down->data;
	size_t nd = s->down->len, nt = tp->truth_down->len, a = 0, b = 0;

	qsort(tp->truth_down->data, nt, sizeof(*t), by_request);
	while (a < nd || b < nt) {
		if (a < nd && tp->redone[d[a].at]) {
			a++;
			continue;
		}
		if (b < nt && (a == nd || t[b].at < d[a].at))
			tp->emit(tp->ctx, &t[b++].r);
		else
			tp->emit(tp->ctx, &d[a++].r);
	}
}

void sc_timepar_run(struct sc_timepar *tp)
{
	if (!tp->n)
		return;
	size_arrays(tp);
	for (unsigned j = 0; j < tp->n_seg; j++)
		start_segment(tp, j);
	/* segment 0 here, on the cache, sending as it goes: it comes first */
	for (size_t i = tp->seg[0].first; i < tp->seg[0].end; i++)
		sc_access(tp->c, &tp->req[i]);
	for (unsigned j = 1; j < tp->n_seg; j++) {
		struct tp_seg *s = &tp->seg[j];

		if (s->threaded)
			pthread_join(s->thread, NULL);
		else
			simulate_segment(s);
	}
	for (unsigned j = 1; j < tp->n_seg; j++) {
		struct tp_seg *s = &tp->seg[j];

		memset(tp->truth_st, 0, sizeof(tp->truth_st));
		memset(tp->replay_st, 0, sizeof(tp->replay_st));
		g_array_set_size(tp->truth_down, 0);
		for (uint32_t set = 0; set < tp->sets; set++)
			if (s->set_first[set] != NONE)
				correct_set(tp, s, set);
		sc_add_counts(tp->c, s->st, NULL);
		sc_add_counts(tp->c, tp->truth_st, tp->replay_st);
		send_segment(tp, s);
		for (size_t i = s->first; i < s->end; i++)
			tp->counts.replayed += tp->redone[i];
		memset(tp->redone + s->first, 0, s->end - s->first);
	}
	tp->counts.runs++;
	tp->counts.requests += tp->n;
	tp->n = 0;
}
