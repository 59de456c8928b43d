/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The engine: the event queue and its run loop.  The queue is a timing wheel
 * for events less than WHEEL_SLOTS ticks ahead (one FIFO run per priority in
 * each slot) and a 4-ary heap for the rest; see internal.h for why.  Records
 * are pooled, so scheduling allocates nothing once the simulation has
 * reached its working size.  The engine's other parts have files of their
 * own: held.c (messages delayed by links), instance.c (components),
 * interrupt.c, suggest.c, error.c.
 */
#include "config.h"

#include <pthread.h>
#include <unistd.h>

#include <string.h>
#include "internal.h"

#define SEQ_BITS 48
#define SEQ_MASK ((UINT64_C(1) << SEQ_BITS) - 1)

__thread struct ss_engine *ss_running_queue;

/* The queue alone: a partition's (partition.c), or the start of an engine. */
struct ss_engine *ss_engine_new_queue(struct ss_engine *root)
{
	struct ss_engine *q = g_new0(struct ss_engine, 1);

	q->root = root;
	q->cap_events = 64;
	q->free_node = NODE_NIL;
	q->heap = g_new(struct ss_event, q->cap_events);
	q->held_slabs = g_ptr_array_new_with_free_func(g_free);
	return q;
}

static void free_queue_parts(struct ss_engine *e)
{
	g_ptr_array_free(e->held_slabs, TRUE);
	for (unsigned i = 0; i < WHEEL_SLOTS; i++)
		g_free(e->wheel[i].runs);
	g_free(e->nodes);
	g_free(e->heap);
}

void ss_engine_free_queue(struct ss_engine *q)
{
	if (!q)
		return;
	free_queue_parts(q);
	g_free(q);
}

struct ss_engine *ss_engine_new(void)
{
	struct ss_engine *e = ss_engine_new_queue(NULL);

	e->root = e;
	e->components = g_ptr_array_new();
	e->by_name = g_hash_table_new(g_str_hash, g_str_equal);
	e->stats = ss_stats_new();
	return e;
}

void ss_engine_free(struct ss_engine *e)
{
	if (!e)
		return;
	ss_partition_free(e);
	if (e->thread_group)
		g_hash_table_destroy(e->thread_group);
	ss_instances_destroy(e);
	g_ptr_array_free(e->components, TRUE);
	g_hash_table_destroy(e->by_name);
	ss_run_free(e);
	g_clear_error(&e->failure);
	ss_stats_free(e->stats);
	free_queue_parts(e);
	g_free(e);
}

uint64_t ss_engine_now(const struct ss_engine *e)
{
	return ss_queue_of((struct ss_engine *)e)->now;
}

/*
 * The far heap is 4-ary: half the depth of a binary one, and the four
 * children of a node share two cache lines.
 */
#define ARITY 4

static void heap_push(struct ss_engine *e, unsigned __int128 key,
		      ss_event_fn fn, void *data)
{
	if (G_UNLIKELY(e->n_events == e->cap_events)) {
		e->cap_events *= 2;
		e->heap = g_renew(struct ss_event, e->heap, e->cap_events);
	}
	struct ss_event *h = e->heap;
	size_t i = e->n_events++;

	while (i > 0) {
		size_t parent = (i - 1) / ARITY;

		if (key >= h[parent].key)
			break;
		h[i] = h[parent];
		i = parent;
	}
	h[i] = (struct ss_event){ key, fn, data };
}

static void heap_pop(struct ss_engine *e)
{
	struct ss_event *h = e->heap;
	size_t n = --e->n_events, i = 0;
	unsigned __int128 last = h[n].key;

	for (;;) {
		size_t first = ARITY * i + 1, best;

		if (first >= n)
			break;
		best = first;
		size_t end = MIN(first + ARITY, n);

		for (size_t c = first + 1; c < end; c++)
			if (h[c].key < h[best].key)
				best = c;
		if (h[best].key >= last)
			break;
		h[i] = h[best];
		i = best;
	}
	h[i] = h[n];
}

static uint32_t node_get(struct ss_engine *e)
{
	if (G_UNLIKELY(e->free_node == NODE_NIL)) {
		uint32_t old = e->n_nodes, n = old ? 2 * old : 1024;

		e->nodes = g_renew(struct ss_node, e->nodes, n);
		for (uint32_t i = old; i < n; i++)
			e->nodes[i].next = i + 1 < n ? i + 1 : NODE_NIL;
		e->free_node = old;
		e->n_nodes = n;
	}
	uint32_t i = e->free_node;

	e->free_node = e->nodes[i].next;
	return i;
}

static void wheel_insert(struct ss_engine *e, uint64_t tick, int32_t prio,
			 ss_event_fn fn, void *data)
{
	unsigned idx = tick & WHEEL_MASK;
	struct ss_slot *s = &e->wheel[idx];
	uint32_t node = node_get(e);
	struct ss_run *r;

	e->nodes[node] = (struct ss_node){ fn, data, NODE_NIL };
	if (G_LIKELY(s->n > s->first && s->runs[s->n - 1].prio == prio)) {
		r = &s->runs[s->n - 1];
		e->nodes[r->tail].next = node;
		r->tail = node;
		goto out;
	}
	/* find the run of this priority, or where it belongs */
	uint32_t lo = s->first, hi = s->n;

	if (s->n > s->first && s->runs[s->n - 1].prio < prio) {
		lo = s->n;
	} else {
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;

			if (s->runs[mid].prio < prio)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < s->n && s->runs[lo].prio == prio) {
			r = &s->runs[lo];
			e->nodes[r->tail].next = node;
			r->tail = node;
			goto out;
		}
	}
	if (lo == s->first && s->first > 0) {
		/* an earlier priority than all left in the current slot */
		s->runs[--s->first] = (struct ss_run){ prio, node, node };
		goto out;
	}
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 8;
		s->runs = g_renew(struct ss_run, s->runs, s->cap);
	}
	memmove(s->runs + lo + 1, s->runs + lo, (s->n - lo) * sizeof(*s->runs));
	s->runs[lo] = (struct ss_run){ prio, node, node };
	s->n++;
out:
	e->wheel_map[idx / 64] |= UINT64_C(1) << (idx % 64);
	e->n_wheel++;
}

bool ss_schedule(struct ss_engine *e, uint64_t when, int16_t prio,
		 ss_event_fn fn, void *data)
{
	e = ss_queue_of(e);
	if (G_UNLIKELY(when < e->now)) {
		g_critical("event scheduled in the past: tick %" G_GUINT64_FORMAT
			   " < now %" G_GUINT64_FORMAT, when, e->now);
		return false;
	}
	uint64_t order = ((uint64_t)(uint16_t)(prio + 32768) << SEQ_BITS) |
			 (e->seq++ & SEQ_MASK);

	if (G_LIKELY(when - e->now < WHEEL_SLOTS))
		wheel_insert(e, when, prio, fn, data);
	else
		heap_push(e, ((unsigned __int128)when << 64) | order, fn, data);
	return true;
}

/* Time moved to e->now: far events that entered the window join the wheel. */
static void migrate_far(struct ss_engine *e)
{
	while (e->n_events) {
		uint64_t tick = (uint64_t)(e->heap[0].key >> 64);

		if (tick - e->now >= WHEEL_SLOTS)
			break;
		struct ss_event ev = e->heap[0];

		heap_pop(e);
		wheel_insert(e, tick,
			     (int32_t)(((uint64_t)ev.key >> SEQ_BITS) & 0xffff) - 32768,
			     ev.fn, ev.data);
	}
}

/* Tick of the first non-empty slot at or after now; the wheel is not empty. */
static uint64_t wheel_next_tick(const struct ss_engine *e)
{
	unsigned start = e->now & WHEEL_MASK;

	for (unsigned k = 0; k <= WHEEL_SLOTS / 64; k++) {
		unsigned bit = (start + k * 64) & WHEEL_MASK;
		unsigned w = bit / 64, off = bit % 64;
		uint64_t word = e->wheel_map[w] >> off;

		if (off && k < WHEEL_SLOTS / 64)
			word |= e->wheel_map[(w + 1) % (WHEEL_SLOTS / 64)] << (64 - off);
		if (word) {
			unsigned idx = (bit + __builtin_ctzll(word)) & WHEEL_MASK;

			return e->now + ((idx - start) & WHEEL_MASK);
		}
	}
	g_assert_not_reached();
}

/* The priority of the first event of a tick that has events. */
static int32_t first_prio(const struct ss_engine *e, uint64_t tick)
{
	if (e->n_wheel && tick - e->now < WHEEL_SLOTS) {
		const struct ss_slot *s = &e->wheel[tick & WHEEL_MASK];

		if (s->first != s->n)
			return s->runs[s->first].prio;
	}
	return (int32_t)(((uint64_t)e->heap[0].key >> SEQ_BITS) & 0xffff) - 32768;
}

/*
 * Run events up to (tick_limit, prio_limit): at tick_limit itself, only
 * those of priority prio_limit or lower.
 */
static uint64_t run_until(struct ss_engine *e, uint64_t tick_limit,
			  int32_t prio_limit)
{
	uint64_t ran = 0;

	e->stop = false;
	while (!e->stop) {
		struct ss_slot *s = &e->wheel[e->now & WHEEL_MASK];

		if (s->first == s->n) {
			uint64_t next;

			if (e->n_wheel)
				next = wheel_next_tick(e);
			else if (e->n_events)
				next = (uint64_t)(e->heap[0].key >> 64);
			else
				break;
			if (next > tick_limit ||
			    (next == tick_limit && prio_limit < INT32_MAX &&
			     first_prio(e, next) > prio_limit))
				break;	/* the clock stays at the last event run */
			e->now = next;
			migrate_far(e);
			s = &e->wheel[next & WHEEL_MASK];
		} else if (e->now > tick_limit) {
			break;
		}
		struct ss_run *r = &s->runs[s->first];

		if (G_UNLIKELY(e->now == tick_limit && r->prio > prio_limit))
			break;
		uint32_t node = r->head;
		struct ss_node ev = e->nodes[node];

		e->nodes[node].next = e->free_node;
		e->free_node = node;
		if (node == r->tail) {
			if (++s->first == s->n) {
				unsigned idx = e->now & WHEEL_MASK;

				s->first = s->n = 0;
				e->wheel_map[idx / 64] &= ~(UINT64_C(1) << (idx % 64));
			}
		} else {
			r->head = ev.next;
		}
		e->n_wheel--;
		e->prio_now = r->prio;
		ev.fn(e->root, ev.data);
		ran++;
	}
	e->events_run += ran;
	return ran;
}

uint64_t ss_engine_run(struct ss_engine *e, uint64_t tick_limit)
{
	return run_until(e, tick_limit, INT32_MAX);
}

uint64_t ss_engine_run_to(struct ss_engine *q, uint64_t tick, int32_t prio)
{
	return run_until(q, tick, prio);
}

/*
 * The queue's clock moves to a message's time (tick, prio) before it is
 * delivered; every event before that time has run.
 */
void ss_engine_advance(struct ss_engine *q, uint64_t tick, int32_t prio)
{
	if (tick > q->now) {
		q->now = tick;
		migrate_far(q);
	}
	q->prio_now = prio;
}

bool ss_engine_next_key(const struct ss_engine *q, uint64_t *tick,
			int32_t *prio)
{
	if (!ss_engine_next_tick(q, tick))
		return false;
	*prio = first_prio(q, *tick);
	return true;
}

/*
 * The queue running now stops after this event; in a partitioned run,
 * `halted` stops the others at their next step.
 */
void ss_engine_stop(struct ss_engine *e)
{
	ss_queue_of(e)->stop = true;
	g_atomic_int_set(&e->root->halted, 1);
}

/*
 * Partitions may fail at once, under this lock (POSIX's: ThreadSanitizer
 * sees through it).  The failure of the lowest rank wins, the first of
 * equal ones (ss_partition_fail_rank: in time order the time of the
 * failing event, which is what one thread meets first; in a free run the
 * partition's number).  A time-ordered run then goes on below that time
 * (ss_partition_failed), so that a failure earlier still is met; any
 * other run stops.
 */
static pthread_mutex_t fail_lock = PTHREAD_MUTEX_INITIALIZER;

void ss_engine_fail(struct ss_engine *e, GError *err)
{
	struct ss_engine *root = e->root;
	uint64_t rank = ss_partition_fail_rank();

	pthread_mutex_lock(&fail_lock);
	if (!root->failure || rank < root->failure_rank) {
		if (root->failure)
			g_error_free(root->failure);
		root->failure = err;
		root->failure_rank = rank;
	} else {
		g_error_free(err);
	}
	pthread_mutex_unlock(&fail_lock);
	if (!ss_partition_failed(e))
		ss_engine_stop(e);
}

bool ss_engine_next_tick(const struct ss_engine *q, uint64_t *tick)
{
	if (q->wheel[q->now & WHEEL_MASK].first != q->wheel[q->now & WHEEL_MASK].n)
		*tick = q->now;
	else if (q->n_wheel)
		*tick = wheel_next_tick(q);
	else if (q->n_events)
		*tick = (uint64_t)(q->heap[0].key >> 64);
	else
		return false;
	return true;
}

const GError *ss_engine_failure(const struct ss_engine *e)
{
	const GError *f;

	pthread_mutex_lock(&fail_lock);
	f = e->root->failure;
	pthread_mutex_unlock(&fail_lock);
	return f;
}

uint64_t ss_physical_memory(void)
{
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);

	if (pages > 0 && page > 0)
		return (uint64_t)pages * (uint64_t)page;
#endif
	return 0;
}

uint64_t ss_engine_memory(const struct ss_engine *e)
{
	uint64_t phys = ss_physical_memory(), limit = e->root->memory_limit;

	return limit && (!phys || limit < phys) ? limit : phys;
}

void ss_engine_set_memory(struct ss_engine *e, uint64_t bytes)
{
	e->root->memory_limit = bytes;
}

/* Partitions resize their caches at once (an L1 per SM at a kernel's start). */
/* POSIX's, not GLib's: ThreadSanitizer sees through these */
static pthread_mutex_t claim_lock = PTHREAD_MUTEX_INITIALIZER;

bool ss_engine_claim_memory(struct ss_engine *e, uint64_t old_bytes,
			    uint64_t new_bytes, uint64_t *total)
{
	uint64_t phys = ss_engine_memory(e);
	bool ok = true;

	e = e->root;
	pthread_mutex_lock(&claim_lock);
	uint64_t kept = e->claimed_bytes - MIN(old_bytes, e->claimed_bytes);
	uint64_t sum = kept + new_bytes < kept ? UINT64_MAX : kept + new_bytes;

	if (total)
		*total = sum;
	if (new_bytes > old_bytes && phys && sum > phys)
		ok = false;
	else
		e->claimed_bytes = sum;
	pthread_mutex_unlock(&claim_lock);
	return ok;
}

size_t ss_engine_pending(const struct ss_engine *e)
{
	return e->n_wheel + e->n_events;
}

uint64_t ss_engine_events_run(const struct ss_engine *e)
{
	return e->events_run;
}

size_t ss_engine_event_capacity(const struct ss_engine *e)
{
	size_t n = e->cap_events + e->held_total;

	return n + e->n_nodes;
}
