/* SPDX-License-Identifier: BSD-3-Clause */
/* A sector cache in timing mode (cache_timing.h). */
#include "config.h"

#include <string.h>
#include <math.h>
#include "cache_timing.h"
#include "camat.h"
#include "latency.h"
#include <sectorsim/protocols/cache_stats.h>

const char *const ct_lookup_names[] = { "parallel", "serial", NULL };

static const struct {
	const char *name, *doc;
} ct_stat_rows[CT_N_STATS] = {
	[CT_S_LATENCY_MISSES] = { TIMING_STAT_LATENCY_MISSES, "timing: reads of a sector already asked for, answered with it (neither hits nor misses)" },
	[CT_S_MERGES] = { TIMING_STAT_MERGES, "timing: requests that joined an MSHR entry's sector in flight" },
	[CT_S_REFUSED_ENTRIES] = { TIMING_STAT_REFUSED_ENTRIES, "timing: requests that found every MSHR entry holding another line: refused, or queued (mshr_queue; those queued behind them are not counted)" },
	[CT_S_REFUSED_TARGETS] = { TIMING_STAT_REFUSED_TARGETS, "timing: requests that found their line's MSHR entry with no target left: refused, or queued (mshr_queue)" },
	[CT_S_PEAK] = { TIMING_STAT_PEAK, "timing: most MSHR entries in use at once (of the component's caches, the most any had; --stats sums an array's)" },
	[CT_S_LOAD_CYCLES] = { TIMING_STAT_LOAD_CYCLES, "timing: cycles from arrival to answer, summed over the reads answered" },
	[CT_S_LOADS] = { TIMING_STAT_LOADS, "timing: reads, atomics and reductions answered" },
	[CT_S_CAMAT_ACCESSES] = { TIMING_STAT_CAMAT_ACCESSES, "timing, C-AMAT: loads answered (reads, atomics, reductions; writes are posted and take no time)" },
	[CT_S_CAMAT_HITS] = { TIMING_STAT_CAMAT_HITS, "timing, C-AMAT: loads answered at their lookup" },
	[CT_S_CAMAT_MISSES] = { TIMING_STAT_CAMAT_MISSES, "timing, C-AMAT: loads that waited for the level below (misses and latency misses)" },
	[CT_S_CAMAT_HIT_CYCLES] = { TIMING_STAT_CAMAT_HIT_CYCLES, "timing, C-AMAT: cycles of lookups (hit phases), summed" },
	[CT_S_CAMAT_MISS_CYCLES] = { TIMING_STAT_CAMAT_MISS_CYCLES, "timing, C-AMAT: cycles from a lookup's end to the data (miss phases), summed" },
	[CT_S_CAMAT_OVERLAP_HIT] = { TIMING_STAT_CAMAT_OVERLAP_HIT, "timing, C-AMAT: cycles with some load in its hit phase" },
	[CT_S_CAMAT_PURE_MISSES] = { TIMING_STAT_CAMAT_PURE_MISSES, "timing, C-AMAT: loads with a pure miss cycle (one no load spent in a lookup)" },
	[CT_S_CAMAT_PURE_TIME] = { TIMING_STAT_CAMAT_PURE_TIME, "timing, C-AMAT: pure miss cycles, summed over loads" },
	[CT_S_CAMAT_PURE_OVERLAP] = { TIMING_STAT_CAMAT_PURE_OVERLAP, "timing, C-AMAT: cycles with some pure miss cycle" },
	[CT_S_CAMAT_ACTIVE] = { TIMING_STAT_CAMAT_ACTIVE, "timing, C-AMAT: cycles with some load in either phase" },
};

/* A request waiting in the queue for room in the MSHR table. */
struct queued {
	struct mem_req req;
	uint64_t at;
	uint32_t input;
	uint8_t reason;		/* what it waits for: MEM_REFUSED_* */
};

/* A request that passes by, waiting for its answer from below. */
struct passing {
	struct mem_req req;	/* as it came */
	uint64_t at;
	uint32_t input;
	uint32_t next_free;	/* slot index + 1; 0: none */
	bool in_use;
};

struct cache_timing {
	struct ss_component *c;
	struct sc_cache *cache;
	struct mshr *mshr;
	struct camat *camat;	/* this kernel's timeline of loads */
	const struct ct_ops *ops;
	void *ctx;
	uint64_t hit_latency, miss_latency;
	struct latency_model *hit_draw;	/* latency_sigma > 0, else NULL */
	uint64_t *st[CT_N_STATS];
	uint32_t sector_bytes;
	/* bypassing requests by tag - 1 (tags of requests sent down: 0, a
	 * fetch of this cache; k > 0, passing slot k - 1) */
	GArray *passing;	/* struct passing */
	uint32_t free_passing;	/* slot + 1, 0: none */
	uint32_t n_passing;
	/* refused below, to send again in order from blocked_head on */
	GArray *blocked;	/* struct mem_req */
	guint blocked_head;
	bool resending;		/* resend_blocked() is sending them */
	bool refused_now;	/* ... and the level below refused the one sent */
	bool retry_again;	/* ... and a retry came meanwhile */
	uint8_t *refused;	/* per input: refused, owed a MEM_RETRY */
	/* waiting for MSHR room, oldest first: a ring of queue_ring_cap (0 or
	 * a power of 2) from queue_head, queue_n long (at most mshr_queue) */
	struct queued *queue_ring;
	uint32_t queue_ring_cap, queue_head, queue_n;
	uint32_t queue_cap;
	bool serving;		/* serve_queue() is taking them */
	uint32_t inputs;
	bool any_refused;
	bool drain_wanted;
	bool passing_now;	/* pass_by() is sending its request down */
	uint64_t down_at;	/* tick of the last thing sent down */
	uint64_t arrival_now;	/* the time of the answer on_arrival() acts on */
};

bool ct_wanted(const struct ss_params *p)
{
	return ss_param_bool(p, "timing");
}

void ct_add_stats(struct ss_component *c, uint64_t *stats[CT_N_STATS])
{
	for (int i = 0; i < CT_N_STATS; i++)
		stats[i] = ss_stat_add_counter(c, ct_stat_rows[i].name, ct_stat_rows[i].doc);
	ss_stat_add_ratio(c, "mean_load_latency",
			  "timing: mean cycles from a read's arrival to its answer",
			  ct_stat_rows[CT_S_LOAD_CYCLES].name, ct_stat_rows[CT_S_LOADS].name);
}

struct cache_timing *ct_new(struct ss_component *c, const struct ss_params *p,
			    uint64_t *const stats[CT_N_STATS], struct sc_cache *cache,
			    uint32_t inputs, uint32_t stream, const struct ct_ops *ops,
			    void *ctx, GError **err)
{
	uint64_t tag = ss_param_uint(p, "tag_latency"), data = ss_param_uint(p, "data_latency");
	bool serial = ss_param_enum(p, "lookup") == 1;
	double sigma = ss_param_double(p, "latency_sigma");
	uint64_t *mst[MSHR_N_STATS];
	struct cache_timing *t;

	if (!(sigma >= 0 && sigma <= LATENCY_SIGMA_MAX)) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "latency_sigma = %g: expected a value from 0 to %g", sigma, LATENCY_SIGMA_MAX);
		return NULL;
	}
	t = g_new0(struct cache_timing, 1);

	t->c = c;
	t->cache = cache;
	t->ops = ops;
	t->ctx = ctx;
	t->inputs = inputs;
	t->hit_latency = serial ? tag + data : MAX(tag, data);
	t->miss_latency = serial ? tag : MAX(tag, data);
	t->sector_bytes = sc_sector_bytes(cache);
	if (sigma > 0)
		t->hit_draw = latency_new(t->hit_latency, sigma,
					  (uint32_t)(ss_param_uint(p, "seed") + stream));
	for (int i = 0; i < CT_N_STATS; i++)
		t->st[i] = stats[i];
	mst[MSHR_S_MERGES] = t->st[CT_S_MERGES];
	mst[MSHR_S_REFUSED_ENTRIES] = t->st[CT_S_REFUSED_ENTRIES];
	mst[MSHR_S_REFUSED_TARGETS] = t->st[CT_S_REFUSED_TARGETS];
	mst[MSHR_S_PEAK] = t->st[CT_S_PEAK];
	t->mshr = mshr_new(ss_param_uint(p, "mshr_entries"), ss_param_uint(p, "mshr_targets"), mst);
	t->camat = camat_new();
	t->passing = g_array_new(FALSE, FALSE, sizeof(struct passing));
	t->blocked = g_array_new(FALSE, FALSE, sizeof(struct mem_req));
	t->queue_cap = (uint32_t)ss_param_uint(p, "mshr_queue");
	t->refused = g_new0(uint8_t, MAX(inputs, 1));
	return t;
}

void ct_free(struct cache_timing *t)
{
	if (!t)
		return;
	mshr_free(t->mshr);
	camat_free(t->camat);
	latency_free(t->hit_draw);
	g_array_free(t->passing, TRUE);
	g_array_free(t->blocked, TRUE);
	g_free(t->queue_ring);
	g_free(t->refused);
	g_free(t);
}

static uint64_t now(const struct cache_timing *t)
{
	return ss_engine_now(t->c->engine);
}

/* r down, `delay` after n, the event's time. */
static void send_down(struct cache_timing *t, const struct mem_req *r, uint64_t delay,
		      uint64_t n)
{
	uint64_t at = n + delay;

	if (at > t->down_at)
		t->down_at = at;
	t->ops->down(t->ctx, r, delay);
}

uint64_t ct_control_delay(const struct cache_timing *t)
{
	uint64_t n = now(t);

	return t->down_at > n ? t->down_at - n : 0;
}

void ct_emit(struct cache_timing *t, const struct mem_req *r)
{
	if (!t->passing_now && r->hdr.kind == MEM_READ && mem_req_wants_answer(r)) {
		/* a read the model sends for a write (write_miss = fetch):
		 * nobody waits for it */
		struct mem_req f = *r;

		f.flags |= MEM_F_POSTED;
		send_down(t, &f, 0, now(t));
		return;
	}
	send_down(t, r, 0, now(t));
}

/* An answer or a refusal of r, up to its input. */
static void answer(struct cache_timing *t, uint32_t input, const struct mem_req *r,
		   enum mem_op kind, uint8_t reason, uint64_t delay)
{
	struct mem_req a = *r;

	a.ctl = (uint8_t)r->hdr.kind;
	a.hdr.kind = kind;
	a.reason = reason;
	t->ops->up(t->ctx, input, &a, delay);
}

static void refuse(struct cache_timing *t, uint32_t input, const struct mem_req *r,
		   uint8_t reason)
{
	if (input < t->inputs && !t->refused[input]) {
		t->refused[input] = 1;
		t->any_refused = true;
	}
	answer(t, input, r, MEM_REFUSE, reason, 0);
}

static void answered(struct cache_timing *t, uint64_t cycles)
{
	(*t->st[CT_S_LOAD_CYCLES]) += cycles;
	(*t->st[CT_S_LOADS])++;
}

/* A request that passes by: down with a tag of this cache's, answered up
 * when its answer comes. */
static void pass_by(struct cache_timing *t, uint32_t input, const struct mem_req *r)
{
	struct mem_req d = *r;
	struct passing *ps;
	uint32_t slot;

	if (!mem_req_wants_answer(r)) {
		sc_access(t->cache, r);
		return;
	}
	if (t->free_passing) {
		slot = t->free_passing - 1;
		ps = &g_array_index(t->passing, struct passing, slot);
		t->free_passing = ps->next_free;
	} else {
		slot = t->passing->len;
		g_array_set_size(t->passing, slot + 1);
		ps = &g_array_index(t->passing, struct passing, slot);
	}
	*ps = (struct passing){ .req = *r, .at = now(t), .input = input, .in_use = true };
	t->n_passing++;
	d.tag = slot + 1;
	/* counted as the functional mode counts it, and sent down through
	 * the model's emit, as it came but for the tag */
	t->passing_now = true;
	sc_access(t->cache, &d);
	t->passing_now = false;
}

static bool take(struct cache_timing *t, uint32_t input, const struct mem_req *r,
		 uint64_t at, uint64_t n, uint8_t *reason);

static uint32_t queue_len(const struct cache_timing *t)
{
	return t->queue_n;
}

/* The oldest waiting (the queue is not empty). */
static struct queued *queue_front(const struct cache_timing *t)
{
	return &t->queue_ring[t->queue_head];
}

/* q at the end of the queue, which grows when full (never past mshr_queue). */
static void queue_push(struct cache_timing *t, const struct queued *q)
{
	if (t->queue_n == t->queue_ring_cap) {
		uint32_t cap = MAX(64, 2 * t->queue_ring_cap);
		struct queued *ring = g_new(struct queued, cap);

		for (uint32_t i = 0; i < t->queue_n; i++)
			ring[i] = t->queue_ring[(t->queue_head + i) & (t->queue_ring_cap - 1)];
		g_free(t->queue_ring);
		t->queue_ring = ring;
		t->queue_ring_cap = cap;
		t->queue_head = 0;
	}
	t->queue_ring[(t->queue_head + t->queue_n) & (t->queue_ring_cap - 1)] = *q;
	t->queue_n++;
}

/* The oldest leaves the queue. */
static void queue_pop(struct cache_timing *t)
{
	t->queue_head = (t->queue_head + 1) & (t->queue_ring_cap - 1);
	t->queue_n--;
}

/*
 * r waits in the queue for room in the table (a queue in front of the
 * cache), or is refused when the queue is full.  `behind`: it was not
 * looked at, as others wait before it; its refusal counts for the reason
 * the head waits (a request looked at was counted by mshr_add_at).
 */
static void wait_or_refuse(struct cache_timing *t, uint32_t input, const struct mem_req *r,
			   uint64_t at, uint8_t reason, bool behind)
{
	if (queue_len(t) >= t->queue_cap) {
		if (behind)
			(*t->st[reason == MEM_REFUSED_TARGETS ? CT_S_REFUSED_TARGETS
							      : CT_S_REFUSED_ENTRIES])++;
		refuse(t, input, r, reason);
		return;
	}
	struct queued q = { .req = *r, .at = at, .input = input, .reason = reason };

	queue_push(t, &q);
}

/* Room in the table: the queue's head requests go in, in order, while
 * the table takes them. */
static void serve_queue(struct cache_timing *t)
{
	/* once per answer from below: a cache without a queue reads no more */
	if (t->serving || !t->queue_cap || !queue_len(t))
		return;
	const uint64_t n = now(t);

	t->serving = true;
	while (queue_len(t)) {
		/* a copy: answering may queue more behind it */
		struct queued q = *queue_front(t);
		uint8_t reason;

		if (!mshr_can_add(t->mshr, sc_line_of(t->cache, q.req.addr)))
			break;
		queue_pop(t);
		if (!take(t, q.input, &q.req, q.at, n, &reason))
			g_error("%s: the MSHR table refused a queued request it had room for",
				t->c->name);
	}
	t->serving = false;
}

bool ct_request(struct cache_timing *t, uint32_t input, const struct mem_req *r)
{
	uint64_t sector = r->addr & ~(uint64_t)(t->sector_bytes - 1);
	uint8_t reason;

	if (G_UNLIKELY(r->hdr.kind < MEM_READ || r->hdr.kind > MEM_REDUCTION)) {
		ss_component_fail(t->c, SS_ERROR_CONFIG,
				  "timing mode: a message of kind %u from above, where only requests come; expected the level above to pass answers up, not down (is it in timing mode?)",
				  r->hdr.kind);
		return false;
	}
	if (r->hdr.kind == MEM_WRITE) {
		sc_access(t->cache, r);
		return true;
	}
	if (r->flags & MEM_F_BYPASS && sc_bypasses(t->cache)) {
		pass_by(t, input, r);
		return true;
	}
	if (G_UNLIKELY(r->addr + r->size > sector + t->sector_bytes)) {
		ss_component_fail(t->c, SS_ERROR_CONFIG,
				  "timing mode: a request of %u bytes at 0x%" G_GINT64_MODIFIER "x spans several of this cache's %u-byte sectors; expected the level above to send requests within one sector (its sector_bytes at most this cache's)",
				  r->size, r->addr, t->sector_bytes);
		return false;
	}
	const uint64_t n = now(t);

	if (t->queue_cap && queue_len(t) && mem_req_wants_answer(r)) {
		/* behind those that wait, as a queue in front of the cache */
		wait_or_refuse(t, input, r, n, queue_front(t)->reason, true);
		return true;
	}
	if (!take(t, input, r, n, n, &reason)) {
		if (t->queue_cap)
			wait_or_refuse(t, input, r, n, reason, false);
		else
			refuse(t, input, r, reason);
	}
	return true;
}

/*
 * A read, atomic or reduction looked up and acted on: answered (a hit),
 * or waiting in an MSHR entry; false, with the reason, when the table has
 * no room for it (mshr_add_at counted the refusal).
 */
/*
 * A load that came at `at` and waits for the level below, now in an MSHR
 * target that holds camat_next_ticket() as it was and its lookup's time:
 * C-AMAT's miss of that ticket (lookups begin in time order, so
 * camat_begin takes it), and the cycles it queued before its lookup into
 * its latency now (the rest when it is answered).
 */
static void begin_miss(struct cache_timing *t, uint64_t at, uint64_t n)
{
	camat_begin(t->camat, n, t->miss_latency, true, NULL);
	(*t->st[CT_S_LOAD_CYCLES]) += n - at;
}

/* n: the event's time, which stays while it is handled (reading it is a
 * call, made once by the caller) */
static bool take(struct cache_timing *t, uint32_t input, const struct mem_req *r,
		 uint64_t at, uint64_t n, uint8_t *reason)
{
	struct mshr_entry *e;
	struct mshr_wait *w;
	enum mshr_state ms;
	enum sc_probe p;
	uint64_t line;
	uint32_t sbit;
	bool posted;

	line = sc_line_of(t->cache, r->addr);
	sbit = sc_sector_bit(t->cache, r->addr);
	e = mshr_find(t->mshr, line);
	ms = mshr_entry_state(e, sbit);
	/* whoever sent a posted request cannot send it again: it is taken
	 * whatever room the table has; the others are loads, which C-AMAT
	 * times from their lookup (now) */
	posted = !mem_req_wants_answer(r);
	if (ms == MSHR_PENDING) {
		w = mshr_add_at(t->mshr, e, line, sbit, false, posted, reason);
		if (!w)
			return false;
		/* timed from its lookup, now; the time it queued is counted apart */
		*w = (struct mshr_wait){ .req = *r, .at = n, .input = input,
					 .ticket = (uint32_t)camat_next_ticket(t->camat) };
		if (!posted)
			begin_miss(t, at, n);
		sc_count_access(t->cache, r);
		(*t->st[CT_S_LATENCY_MISSES])++;
		return true;
	}
	p = sc_probe(t->cache, r);
	if (p == SC_HIT) {
		sc_access(t->cache, r);
		if (mem_req_wants_answer(r)) {
			uint64_t lat = t->hit_draw ? latency_draw(t->hit_draw) : t->hit_latency;

			answered(t, n - at + lat);
			camat_begin(t->camat, n, lat, false, NULL);
			answer(t, input, r, MEM_RESPONSE, 0, lat);
		}
		return true;
	}
	w = mshr_add_at(t->mshr, e, line, sbit, true, posted, reason);
	if (!w)
		return false;
	*w = (struct mshr_wait){ .req = *r, .at = n, .input = input,
				 .ticket = (uint32_t)camat_next_ticket(t->camat) };
	if (!posted)
		begin_miss(t, at, n);
	/* an entry holds the line: its other sectors find it reserved */
	if (ms == MSHR_LINE && p == SC_MISS)
		p = SC_SECTOR_MISS;
	sc_count_issue(t->cache, r, p, true);

	struct mem_req out, f = *sc_fetch_of(t->cache, r, &out);

	f.hdr.kind = MEM_READ;
	f.flags &= (uint8_t)~MEM_F_POSTED;
	f.tag = 0;
	send_down(t, &f, t->miss_latency, n);
	return true;
}

/* Each request waiting on an arrived sector: its effect, then its answer. */
static void on_arrival(void *ctx, const struct mshr_wait *w, bool first)
{
	struct cache_timing *t = ctx;

	/* the first brings the line; a read merged with it changes nothing
	 * more, an atomic or a reduction modifies the sector */
	if (first || w->req.hdr.kind != MEM_READ)
		sc_apply(t->cache, &w->req);
	if (mem_req_wants_answer(&w->req)) {
		/*
		 * A read that joined a fetch under way may see its data
		 * before its own lookup is over: it is answered when the
		 * lookup ends, not before.
		 */
		const uint64_t n = t->arrival_now;
		uint64_t ready = w->at + t->miss_latency;
		uint64_t delay = ready > n ? ready - n : 0;

		answered(t, n + delay - w->at);
		camat_end(t->camat, w->ticket, n + delay);
		answer(t, w->input, &w->req, MEM_RESPONSE, 0, delay);
	}
}

static void send_retries(struct cache_timing *t)
{
	if (!t->any_refused || !mshr_has_room(t->mshr))
		return;
	t->any_refused = false;
	for (uint32_t i = 0; i < t->inputs; i++) {
		struct mem_req m;

		if (!t->refused[i])
			continue;
		t->refused[i] = 0;
		mem_req_init(&m, MEM_RETRY, 0, 0);
		t->ops->up(t->ctx, i, &m, 0);
	}
}

static void check_drained(struct cache_timing *t)
{
	if (t->drain_wanted && ct_idle(t)) {
		t->drain_wanted = false;
		t->ops->drained(t->ctx);
	}
}

static void answer_passing(struct cache_timing *t, const struct mem_req *r)
{
	uint32_t slot = r->tag - 1;
	struct passing *ps;

	if (slot >= t->passing->len)
		g_error("%s: an answer from below with tag %u, which no request passing by has",
			t->c->name, r->tag);
	ps = &g_array_index(t->passing, struct passing, slot);
	if (!ps->in_use)
		g_error("%s: a second answer from below with tag %u", t->c->name, r->tag);

	struct passing done = *ps;

	/* free before the answer goes up, which may send more through here */
	ps->in_use = false;
	ps->next_free = t->free_passing;
	t->free_passing = slot + 1;
	t->n_passing--;
	answered(t, now(t) - done.at);
	answer(t, done.input, &done.req, MEM_RESPONSE, 0, 0);
}

/* Whether refusal r is of the request at the head of the queue, the one
 * resend_blocked() is sending. */
static bool refuses_head(const struct cache_timing *t, const struct mem_req *r)
{
	const struct mem_req *h;

	if (t->blocked_head >= t->blocked->len)
		return false;
	h = &g_array_index(t->blocked, struct mem_req, t->blocked_head);
	return h->addr == r->addr && h->tag == r->tag && h->hdr.kind == r->ctl;
}

/*
 * The level below has room again: what it refused goes down again, in
 * order, until it refuses one more (a queue to the next level, as the
 * hardware's miss queue is), which stays at the head: the rest waits for
 * the next retry rather than being sent only to be refused.  A refusal
 * that comes later (a link with latency) puts its request at the end.
 */
static void resend_blocked(struct cache_timing *t)
{
	if (t->resending) {
		t->retry_again = true;
		return;
	}
	t->resending = true;
	do {
		t->retry_again = false;
		while (t->blocked_head < t->blocked->len) {
			/* a copy: the list may grow while it goes down */
			struct mem_req r = g_array_index(t->blocked, struct mem_req, t->blocked_head);

			t->refused_now = false;
			send_down(t, &r, 0, now(t));
			if (t->refused_now)
				break;
			t->blocked_head++;
		}
	} while (t->retry_again && !t->refused_now);
	if (t->blocked_head == t->blocked->len) {
		g_array_set_size(t->blocked, 0);
		t->blocked_head = 0;
	}
	t->resending = false;
}

void ct_prefetch_answer(const struct cache_timing *t, const struct mem_req *r)
{
	if (r->hdr.kind != MEM_RESPONSE || r->tag)
		return;
	sc_prefetch(t->cache, r);
	mshr_prefetch(t->mshr, sc_line_of(t->cache, r->addr));
}

void ct_from_below(struct cache_timing *t, const struct mem_req *r)
{
	switch (r->hdr.kind) {
	case MEM_RESPONSE:
		if (r->tag) {
			answer_passing(t, r);
		} else {
			t->arrival_now = now(t);
			if (!mshr_arrive(t->mshr, sc_line_of(t->cache, r->addr),
					 sc_sector_bit(t->cache, r->addr), on_arrival, t))
				g_error("%s: an answer from below for 0x%" G_GINT64_MODIFIER "x, which no MSHR entry waits for",
					t->c->name, r->addr);
		}
		serve_queue(t);
		send_retries(t);
		break;
	case MEM_REFUSE: {
		/* sent again, as it was, when the level below has room; the
		 * one being sent again stays where it is */
		struct mem_req again = *r;

		if (t->resending && !t->refused_now && refuses_head(t, r)) {
			t->refused_now = true;
			break;
		}

		again.hdr.kind = r->ctl;
		again.ctl = 0;
		again.reason = 0;
		g_array_append_val(t->blocked, again);
		break;
	}
	case MEM_RETRY:
		resend_blocked(t);
		break;
	default:
		g_error("%s: kind %u from below", t->c->name, r->hdr.kind);
	}
	check_drained(t);
}

void ct_kernel_end(struct cache_timing *t)
{
	struct camat_counts c;

	camat_counts(t->camat, &c);
	*t->st[CT_S_CAMAT_ACCESSES] += c.accesses;
	*t->st[CT_S_CAMAT_HITS] += c.hits;
	*t->st[CT_S_CAMAT_MISSES] += c.misses;
	*t->st[CT_S_CAMAT_HIT_CYCLES] += c.hit_cycles;
	*t->st[CT_S_CAMAT_MISS_CYCLES] += c.miss_cycles;
	*t->st[CT_S_CAMAT_OVERLAP_HIT] += c.overlap_hit_time;
	*t->st[CT_S_CAMAT_PURE_MISSES] += c.pure_misses;
	*t->st[CT_S_CAMAT_PURE_TIME] += c.pure_miss_time;
	*t->st[CT_S_CAMAT_PURE_OVERLAP] += c.pure_miss_overlap_time;
	*t->st[CT_S_CAMAT_ACTIVE] += c.active_cycles;
	camat_reset(t->camat);
}

bool ct_idle(const struct cache_timing *t)
{
	return !mshr_used(t->mshr) && !t->n_passing && t->blocked_head == t->blocked->len &&
		!queue_len(t);
}

bool ct_wait_drained(struct cache_timing *t)
{
	if (ct_idle(t))
		return false;
	t->drain_wanted = true;
	return true;
}
