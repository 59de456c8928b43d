/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The MSHR table (mshr.h).  Entries and targets come from slabs that are
 * never moved or freed before the table, through free lists, so that a
 * steady stream of misses allocates nothing; a line finds its entry
 * through an open-addressing table of entry pointers (linear probing,
 * deletion by backward shift), at most half full, which grows only when
 * the number of entries is unlimited.
 */
#include "config.h"

#include <glib.h>
#include "mshr.h"
#include "prefetch.h"

#define MSHR_SLAB 64

struct mshr_target {
	struct mshr_wait w;
	uint32_t sbit;
	struct mshr_target *next;
};

/*
 * The targets of an entry, in lists by sector: sectors 0 to 3 (every
 * sector of a 128-byte line of 32-byte sectors) one list each, the rest
 * together.  An arrival takes its sector's list whole, without reading
 * the other sectors' targets: scattered records, each a cache miss.
 */
#define MSHR_LISTS 5

struct mshr_entry {
	uint64_t line;		/* the hash table's key points here */
	uint32_t pending;	/* sectors asked for, not arrived */
	uint32_t n_targets;
	struct mshr_target *head[MSHR_LISTS], *tail[MSHR_LISTS];
};

/* The list of the targets of sector `sbit`. */
static unsigned list_of(uint32_t sbit)
{
	unsigned k = (unsigned)__builtin_ctz(sbit);

	return k < MSHR_LISTS - 1 ? k : MSHR_LISTS - 1;
}

/*
 * Records of one size from slabs that are never moved or freed before the
 * table, through a free list threaded through the free records' first
 * bytes (their contents mean nothing while free).
 */
struct pool {
	size_t size;
	void *free;
};

G_STATIC_ASSERT(sizeof(struct mshr_entry) % sizeof(void *) == 0);

G_STATIC_ASSERT(sizeof(struct mshr_target) % sizeof(void *) == 0);

struct mshr {
	uint32_t max_entries, max_targets;	/* 0: unlimited */
	uint32_t used;
	uint64_t waiting;
	uint64_t *st[MSHR_N_STATS];
	struct mshr_entry **slot;	/* by the line's hash */
	uint32_t slot_mask;
	unsigned slot_shift;		/* 64 - log2(slots) */
	struct pool entries, targets;
	GPtrArray *slabs;	/* of both pools */
};

struct mshr *mshr_new(uint32_t entries, uint32_t targets,
		      uint64_t *const stats[MSHR_N_STATS])
{
	struct mshr *m = g_new0(struct mshr, 1);

	m->max_entries = entries;
	m->max_targets = targets;
	for (int i = 0; i < MSHR_N_STATS; i++)
		m->st[i] = stats[i];
	m->slabs = g_ptr_array_new_with_free_func(g_free);
	m->entries.size = sizeof(struct mshr_entry);
	m->targets.size = sizeof(struct mshr_target);
	/* twice the entries, so that probes stay short */
	m->slot_mask = 15;
	while (entries && m->slot_mask + 1 < (uint64_t)entries * 2)
		m->slot_mask = m->slot_mask * 2 + 1;
	m->slot_shift = 64 - __builtin_ctz(m->slot_mask + 1);
	m->slot = g_new0(struct mshr_entry *, m->slot_mask + 1);
	return m;
}

void mshr_free(struct mshr *m)
{
	if (!m)
		return;
	g_free(m->slot);
	g_ptr_array_free(m->slabs, TRUE);
	g_free(m);
}

static inline void pool_put(struct pool *p, void *rec)
{
	*(void **)rec = p->free;
	p->free = rec;
}

/* A new slab of p's records, all free. */
static G_GNUC_NO_INLINE void pool_grow(struct mshr *m, struct pool *p)
{
	char *slab = g_malloc0(p->size * MSHR_SLAB);

	for (unsigned i = 0; i < MSHR_SLAB; i++)
		pool_put(p, slab + i * p->size);
	g_ptr_array_add(m->slabs, slab);
}

static inline void *pool_get(struct mshr *m, struct pool *p)
{
	if (G_UNLIKELY(!p->free))
		pool_grow(m, p);

	void *rec = p->free;

	p->free = *(void **)rec;
	return rec;
}

static uint32_t home_of(const struct mshr *m, uint64_t line)
{
	return (uint32_t)((line * UINT64_C(0x9e3779b97f4a7c15)) >> m->slot_shift);
}

void mshr_prefetch(const struct mshr *m, uint64_t line)
{
	ss_prefetch(&m->slot[home_of(m, line)]);
}

static struct mshr_entry *entry_of(const struct mshr *m, uint64_t line)
{
	for (uint32_t i = home_of(m, line);; i = (i + 1) & m->slot_mask) {
		struct mshr_entry *e = m->slot[i];

		if (!e || e->line == line)
			return e;
	}
}

static void slot_put(struct mshr *m, struct mshr_entry *e)
{
	uint32_t i = home_of(m, e->line);

	while (m->slot[i])
		i = (i + 1) & m->slot_mask;
	m->slot[i] = e;
}

/* Room for one more entry, the table at most half full. */
static void slots_reserve(struct mshr *m)
{
	struct mshr_entry **old = m->slot;
	uint32_t n = m->slot_mask + 1;

	if ((uint64_t)(m->used + 1) * 2 <= n)
		return;
	m->slot_mask = n * 2 - 1;
	m->slot_shift--;
	m->slot = g_new0(struct mshr_entry *, (size_t)n * 2);
	for (uint32_t i = 0; i < n; i++)
		if (old[i])
			slot_put(m, old[i]);
	g_free(old);
}

/* Entry e leaves the table; the entries after it on its probe run move
 * back, so that no lookup meets a hole before its entry. */
static void slot_remove(struct mshr *m, const struct mshr_entry *e)
{
	uint32_t i = home_of(m, e->line), j;

	while (m->slot[i] != e)
		i = (i + 1) & m->slot_mask;
	for (j = i;;) {
		uint32_t k;

		j = (j + 1) & m->slot_mask;
		if (!m->slot[j])
			break;
		k = home_of(m, m->slot[j]->line);
		/* slot j's entry may fill hole i when its home is not in (i, j] */
		if ((i <= j) ? (k <= i || k > j) : (k <= i && k > j)) {
			m->slot[i] = m->slot[j];
			i = j;
		}
	}
	m->slot[i] = NULL;
}

struct mshr_entry *mshr_find(const struct mshr *m, uint64_t line)
{
	return entry_of(m, line);
}

enum mshr_state mshr_entry_state(const struct mshr_entry *e, uint32_t sbit)
{
	if (!e)
		return MSHR_ABSENT;
	return e->pending & sbit ? MSHR_PENDING : MSHR_LINE;
}

enum mshr_state mshr_state(const struct mshr *m, uint64_t line, uint32_t sbit)
{
	return mshr_entry_state(entry_of(m, line), sbit);
}

uint32_t mshr_used(const struct mshr *m)
{
	return m->used;
}

bool mshr_has_room(const struct mshr *m)
{
	return !m->max_entries || m->used < m->max_entries;
}

bool mshr_can_add(const struct mshr *m, uint64_t line)
{
	const struct mshr_entry *e = entry_of(m, line);

	return e ? !m->max_targets || e->n_targets < m->max_targets : mshr_has_room(m);
}

uint64_t mshr_waiting(const struct mshr *m)
{
	return m->waiting;
}

struct mshr_wait *mshr_add_at(struct mshr *m, struct mshr_entry *e, uint64_t line,
			      uint32_t sbit, bool fetch, bool force, uint8_t *reason)
{
	struct mshr_target *t;

	if (!e) {
		if (!force && !mshr_has_room(m)) {
			(*m->st[MSHR_S_REFUSED_ENTRIES])++;
			*reason = MEM_REFUSED_ENTRIES;
			return NULL;
		}
		slots_reserve(m);
		e = pool_get(m, &m->entries);
		*e = (struct mshr_entry){ .line = line };
		slot_put(m, e);
		if (++m->used > *m->st[MSHR_S_PEAK])
			*m->st[MSHR_S_PEAK] = m->used;
	} else if (!force && m->max_targets && e->n_targets >= m->max_targets) {
		(*m->st[MSHR_S_REFUSED_TARGETS])++;
		*reason = MEM_REFUSED_TARGETS;
		return NULL;
	}
	if (fetch)
		e->pending |= sbit;
	else
		(*m->st[MSHR_S_MERGES])++;
	t = pool_get(m, &m->targets);
	t->sbit = sbit;
	t->next = NULL;
	unsigned l = list_of(sbit);

	if (e->tail[l])
		e->tail[l]->next = t;
	else
		e->head[l] = t;
	e->tail[l] = t;
	e->n_targets++;
	m->waiting++;
	return &t->w;
}

bool mshr_add(struct mshr *m, uint64_t line, uint32_t sbit, bool fetch, bool force,
	      const struct mshr_wait *w, uint8_t *reason)
{
	struct mshr_wait *to = mshr_add_at(m, entry_of(m, line), line, sbit, fetch, force,
					   reason);

	if (to)
		*to = *w;
	return to != NULL;
}

uint32_t mshr_arrive(struct mshr *m, uint64_t line, uint32_t sbit,
		     mshr_target_fn fn, void *ctx)
{
	struct mshr_entry *e = entry_of(m, line);
	struct mshr_target *out, **out_tail = &out, **p;
	unsigned l;
	uint32_t n = 0;

	if (!e || !(e->pending & sbit))
		return 0;
	/* the sector's targets leave the entry before anyone hears of them,
	 * so that fn finds the table as it will stay */
	e->pending &= ~sbit;
	l = list_of(sbit);
	if (l < MSHR_LISTS - 1) {
		/* the sector's own list, whole */
		out = e->head[l];
		e->head[l] = e->tail[l] = NULL;
		for (struct mshr_target *t = out; t; t = t->next)
			n++;
	} else {
		/* the sectors that share a list: this one's out of it */
		e->tail[l] = NULL;
		for (p = &e->head[l]; *p;) {
			struct mshr_target *t = *p;

			if (t->sbit == sbit) {
				*p = t->next;
				t->next = NULL;
				*out_tail = t;
				out_tail = &t->next;
				n++;
			} else {
				e->tail[l] = t;
				p = &t->next;
			}
		}
		*out_tail = NULL;
	}
	e->n_targets -= n;
	m->waiting -= n;
	if (!e->n_targets) {
		slot_remove(m, e);
		pool_put(&m->entries, e);
		m->used--;
	}
	/* each target goes back to the pool once fn is done with it: fn's
	 * own adds take others */
	for (uint32_t k = 0; out; k++) {
		struct mshr_target *t = out;

		out = t->next;
		fn(ctx, &t->w, k == 0);
		pool_put(&m->targets, t);
	}
	return n;
}
