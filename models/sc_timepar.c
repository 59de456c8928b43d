/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Time-parallel simulation of a sector cache.
 *
 * The requests are held until a batch is full (or its owner runs it, at
 * a control message), then cut into `segments` equal runs of consecutive
 * requests.  Segment 0 is simulated on the cache itself, which holds the
 * true state it starts from, and sends as it goes.  Each other segment is
 * simulated at the same time, on a thread, in a copy of the cache: first,
 * from empty, the requests just before it, to guess the state it starts
 * from (most sets forget where they started within a few times their
 * ways), that guess saved set by set; then its own requests, keeping what
 * it sends down.
 *
 * The sets of a cache are independent (protect_dirty_pct, which counts
 * modified lines over the whole cache, is refused), so a segment's
 * results can be wrong only in the accesses of each set before that set
 * forgot its guess.  In order, each segment after the first is corrected
 * in one pass over its requests: a set whose true state at the segment's
 * start (the cache's, which by then is the end of the segment before)
 * matches the guess is right as it is; any other is simulated again from
 * its true state in one copy, and from the guess in another, which
 * repeats what the segment did; every `assoc` accesses of the set the two
 * are compared, and once they hold the same lines in the same order with
 * the same sectors (whatever ways hold them), they answer alike from then
 * on: the segment's later results for the set stand, and its final set is
 * the true one with the ways renumbered as the comparison paired them.  A
 * set that never matches has its true run's end.  The segment's counts
 * lose the guess copy's and gain the true copy's; what it sent for the
 * accesses simulated again is replaced by what the true copy sent.  What
 * the segments sent goes down in the order of the requests.
 *
 * The result, and what is simulated again, are the same whatever the
 * thread timing: each segment is a pure function of the batch, and the
 * corrections run in order on the caller's thread.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "sc_timepar.h"

#define NONE UINT32_MAX

/* A segment's copy is warmed up on the requests before it: this many
 * times the cache's lines (or all there are). */
#define WARM_UP_LINES 4

/* A request a segment sent down for request `at` of the batch. */
struct tp_down {
	uint32_t at;
	struct mem_req r;
};

struct tp_seg {
	struct sc_timepar *tp;
	struct sc_cache *cache;		/* segment 0: the cache itself */
	uint64_t st[SC_N_STATS];
	size_t first, end;		/* its requests in the batch */
	uint32_t at;			/* the request being simulated */
	bool warming;			/* before its first request: sends nothing */
	GArray *down;			/* struct tp_down */
	uint8_t *start;			/* per set: its state at the first request */
	pthread_t thread;
	bool threaded;
	/* `start` is ready: the corrections may begin while the segment
	 * is simulated */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool started;
};

/* Where a set is in the correction of a segment. */
enum { SET_UNSEEN, SET_OPEN, SET_DONE };

struct sc_timepar {
	struct sc_cache *c;
	sc_emit_fn emit;
	void *ctx;
	unsigned n_seg;
	size_t batch, n, room;		/* at most, held, room for */
	struct mem_req *req;
	uint8_t *redone;		/* per request: simulated again */
	struct tp_seg seg[SC_TIMEPAR_MAX_SEGMENTS];
	uint32_t sets;			/* of the per-set arrays */
	size_t state_bytes;
	uint8_t *set_status;		/* per set: SET_* */
	uint32_t *set_count;		/* per set: accesses simulated again */
	uint32_t open;			/* sets SET_OPEN */
	/* the corrections: the true run, and the replay from the guess */
	struct sc_cache *truth, *replay;
	uint64_t truth_st[SC_N_STATS], replay_st[SC_N_STATS];
	GArray *truth_down;		/* struct tp_down */
	uint32_t truth_at;
	uint8_t *state, *other;		/* set states */
	uint16_t *maps;			/* per set done: its ways' pairing */
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
	struct tp_down d = { .at = s->at, .r = *r };

	if (!s->warming)
		g_array_append_val(s->down, d);
}

static void keep_truth_down(void *ctx, const struct mem_req *r)
{
	struct sc_timepar *tp = ctx;
	struct tp_down d = { .at = tp->truth_at, .r = *r };

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
		g_free(s->start);
		if (s->tp) {
			pthread_mutex_destroy(&s->lock);
			pthread_cond_destroy(&s->cond);
		}
	}
	sc_free(tp->truth);
	sc_free(tp->replay);
	if (tp->truth_down)
		g_array_free(tp->truth_down, TRUE);
	g_free(tp->req);
	g_free(tp->redone);
	g_free(tp->set_status);
	g_free(tp->set_count);
	g_free(tp->state);
	g_free(tp->other);
	g_free(tp->maps);
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
	for (unsigned j = 0; j < segments; j++) {
		struct tp_seg *s = &tp->seg[j];

		s->tp = tp;
		s->down = g_array_new(FALSE, FALSE, sizeof(struct tp_down));
		pthread_mutex_init(&s->lock, NULL);
		pthread_cond_init(&s->cond, NULL);
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

/* Room for the requests held grows to the batch: a cache that sees few
 * requests (one L2 slice of 48) holds little. */
static void grow(struct sc_timepar *tp)
{
	size_t room = MIN(MAX(tp->room * 2, (size_t)4096), tp->batch);

	tp->req = g_renew(struct mem_req, tp->req, room);
	tp->redone = g_renew(uint8_t, tp->redone, room);
	memset(tp->redone + tp->room, 0, room - tp->room);
	tp->room = room;
}

static inline __attribute__((always_inline)) void hold(struct sc_timepar *tp,
						     const struct mem_req *r)
{
	if (tp->n == tp->room)
		grow(tp);
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

/* Requests simulated before a segment's first, to warm its copy up. */
static size_t warm_up(const struct sc_timepar *tp, const struct tp_seg *s)
{
	size_t lines = (size_t)sc_sets(tp->c) * sc_ways(tp->c);

	return MIN(s->first, WARM_UP_LINES * lines);
}

/*
 * A segment after the first, in a copy of the cache: first the requests
 * just before it, from empty, to guess the state it starts from (most
 * sets forget where they started within a few times their ways); that
 * state kept; then its own, keeping what it sends.
 */
static void *simulate_segment(void *data)
{
	struct tp_seg *s = data;
	struct sc_timepar *tp = s->tp;
	const struct mem_req *req = tp->req;

	s->warming = true;
	for (size_t i = s->first - warm_up(tp, s); i < s->first; i++)
		sc_access(s->cache, &req[i]);
	s->warming = false;
	memset(s->st, 0, sizeof(s->st));
	for (uint32_t set = 0; set < tp->sets; set++)
		sc_set_save(s->cache, set, s->start + (size_t)set * tp->state_bytes);
	pthread_mutex_lock(&s->lock);
	s->started = true;
	pthread_cond_signal(&s->cond);
	pthread_mutex_unlock(&s->lock);
	for (size_t i = s->first; i < s->end; i++) {
		s->at = (uint32_t)i;
		sc_access(s->cache, &req[i]);
	}
	return NULL;
}

/* The copies take the cache's geometry (a kernel may have resized it);
 * false when one cannot (its tables refused). */
static bool match_geometry(struct sc_timepar *tp, struct sc_cache *copy)
{
	uint32_t sets = sc_sets(tp->c), ways = sc_ways(tp->c);
	char *why = NULL;

	if (sc_sets(copy) == sets && sc_ways(copy) == ways)
		return true;
	if (sc_resize(copy, (uint64_t)sets * ways * sc_config_of(tp->c)->line_bytes, &why) &&
	    sc_sets(copy) == sets && sc_ways(copy) == ways)
		return true;
	g_free(why);
	return false;
}

/* The copies and the arrays for the cache as it is; false when a copy
 * cannot take its geometry. */
static bool size_arrays(struct sc_timepar *tp)
{
	uint32_t sets = sc_sets(tp->c);

	for (unsigned j = 0; j < tp->n_seg; j++)
		if (!match_geometry(tp, tp->seg[j].cache))
			return false;
	if (!match_geometry(tp, tp->truth) || !match_geometry(tp, tp->replay))
		return false;
	if (sets == tp->sets && tp->state_bytes == sc_set_state_bytes(tp->c))
		return true;
	tp->sets = sets;
	tp->state_bytes = sc_set_state_bytes(tp->c);
	for (unsigned j = 1; j < tp->n_seg; j++)
		tp->seg[j].start = g_realloc(tp->seg[j].start, (size_t)sets * tp->state_bytes);
	tp->set_status = g_renew(uint8_t, tp->set_status, sets);
	tp->set_count = g_renew(uint32_t, tp->set_count, sets);
	tp->state = g_realloc(tp->state, tp->state_bytes);
	tp->other = g_realloc(tp->other, tp->state_bytes);
	tp->maps = g_renew(uint16_t, tp->maps, (size_t)sets * sc_ways(tp->c));
	return true;
}

static void start_segment(struct sc_timepar *tp, unsigned j)
{
	struct tp_seg *s = &tp->seg[j];

	/* equal parts: the split, and so what is simulated again, does not
	 * depend on the machine */
	s->first = tp->n * j / tp->n_seg;
	s->end = tp->n * (j + 1) / tp->n_seg;
	s->started = false;
	g_array_set_size(s->down, 0);
	if (!j)
		return;
	sc_invalidate(s->cache);
	memset(s->st, 0, sizeof(s->st));
	/* with no thread, the segment is simulated here, in turn */
	s->threaded = pthread_create(&s->thread, NULL, simulate_segment, s) == 0;
}

/* ---- the corrections, in order -------------------------------------------------- */

static uint16_t *map_of(struct sc_timepar *tp, uint32_t set)
{
	return tp->maps + (size_t)set * sc_ways(tp->c);
}

/* The first access of segment s to `set`: its true state, the cache's,
 * against the one the segment guessed. */
static void open_set(struct sc_timepar *tp, struct tp_seg *s, uint32_t set)
{
	const uint8_t *guess = s->start + (size_t)set * tp->state_bytes;

	sc_set_save(tp->c, set, tp->state);
	if (sc_set_state_match(tp->c, guess, tp->state, map_of(tp, set))) {
		tp->set_status[set] = SET_DONE;
		return;
	}
	sc_set_load(tp->truth, set, tp->state);
	sc_set_load(tp->replay, set, guess);
	tp->set_status[set] = SET_OPEN;
	tp->set_count[set] = 0;
	tp->open++;
}

/* Request i of the segment, to an open set, again: from the truth and
 * from the guess, compared now and then. */
static void redo(struct sc_timepar *tp, uint32_t set, size_t i)
{
	tp->truth_at = (uint32_t)i;
	sc_access(tp->truth, &tp->req[i]);
	sc_access(tp->replay, &tp->req[i]);
	tp->redone[i] = 1;
	if (++tp->set_count[set] % sc_ways(tp->c))
		return;
	if (sc_sets_match(tp->replay, tp->truth, set, map_of(tp, set))) {
		tp->set_status[set] = SET_DONE;
		tp->open--;
	}
}

/*
 * Segment s, corrected: its requests in order, until every set of the
 * cache has been seen and is done (to its end, when the segment leaves
 * some set untouched or some set never matches).  The sets still
 * open at its end take their true run's end now; those done take the
 * segment's once it has one (finish_segment()).  This needs only the
 * cache's state, so it runs while the segment is still simulated.
 */
static void correct_segment(struct sc_timepar *tp, struct tp_seg *s)
{
	bool bypasses = sc_bypasses(tp->c);
	uint32_t seen = 0;

	memset(tp->set_status, SET_UNSEEN, tp->sets);
	tp->open = 0;
	for (size_t i = s->first; i < s->end; i++) {
		const struct mem_req *r = &tp->req[i];
		uint32_t set;

		if (bypasses && (r->flags & MEM_F_BYPASS))
			continue;	/* the same whatever the state */
		set = sc_set_of(tp->c, r->addr, r->part_addr);
		if (tp->set_status[set] == SET_UNSEEN) {
			open_set(tp, s, set);
			seen++;
		}
		if (tp->set_status[set] == SET_OPEN)
			redo(tp, set, i);
		else if (seen == tp->sets && !tp->open)
			break;	/* every set done: the rest stands */
	}
	for (uint32_t set = 0; tp->open && set < tp->sets; set++)
		if (tp->set_status[set] == SET_OPEN) {
			sc_set_save(tp->truth, set, tp->state);
			sc_set_load(tp->c, set, tp->state);
			tp->set_status[set] = SET_UNSEEN;	/* taken */
			tp->open--;
		}
}

/* Once segment s is simulated: each set done takes the segment's end,
 * its ways renumbered as they were paired. */
static void finish_segment(struct sc_timepar *tp, struct tp_seg *s)
{
	for (uint32_t set = 0; set < tp->sets; set++)
		if (tp->set_status[set] == SET_DONE) {
			sc_set_save(s->cache, set, tp->other);
			sc_set_state_renumber(tp->c, tp->other, map_of(tp, set), tp->state);
			sc_set_load(tp->c, set, tp->state);
		}
}

/* What segment s sent, with the corrected requests' new requests down. */
static void send_segment(struct sc_timepar *tp, struct tp_seg *s)
{
	const struct tp_down *d = (const struct tp_down *)(void *)s->down->data;
	const struct tp_down *t = (const struct tp_down *)(void *)tp->truth_down->data;
	size_t nd = s->down->len, nt = tp->truth_down->len, a = 0, b = 0;

	/* both in the order of the requests */
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

/* Wait for segment s's guess of its start (or make it, with no thread). */
static void wait_started(struct tp_seg *s)
{
	if (!s->threaded)
		return;
	pthread_mutex_lock(&s->lock);
	while (!s->started)
		pthread_cond_wait(&s->cond, &s->lock);
	pthread_mutex_unlock(&s->lock);
}

void sc_timepar_run(struct sc_timepar *tp)
{
	if (!tp->n)
		return;
	if (!size_arrays(tp)) {
		/* no room for the copies: request by request, the same result */
		for (size_t i = 0; i < tp->n; i++)
			sc_access(tp->c, &tp->req[i]);
		tp->n = 0;
		return;
	}
	for (unsigned j = 0; j < tp->n_seg; j++)
		start_segment(tp, j);
	/* segment 0 here, on the cache, sending as it goes: it comes first */
	for (size_t i = tp->seg[0].first; i < tp->seg[0].end; i++)
		sc_access(tp->c, &tp->req[i]);
	for (unsigned j = 1; j < tp->n_seg; j++) {
		struct tp_seg *s = &tp->seg[j];

		memset(tp->truth_st, 0, sizeof(tp->truth_st));
		memset(tp->replay_st, 0, sizeof(tp->replay_st));
		g_array_set_size(tp->truth_down, 0);
		if (!s->threaded)
			simulate_segment(s);
		wait_started(s);
		correct_segment(tp, s);
		if (s->threaded)
			pthread_join(s->thread, NULL);
		finish_segment(tp, s);
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
