/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Running one simulation on several threads with the results of one
 * (`--threads`; doc/INTERNALS.md, "Partitions").
 *
 * The components fall into partitions: a link joins its two ends into one
 * partition unless it may be cut: its promises (SS_PORT_*, component.h)
 * make it free (no message on it depends on when it is received), or it
 * is part of a fan-in or -out, or it joins different thread_groups.  A
 * cut link's messages go into a queue instead of a call.  Each partition
 * has an event queue of its own (an engine whose root is the run's); a
 * pool of threads runs the partitions that have work, one on one thread
 * at a time, each on the thread it ran on last when that is free.  What a
 * partition sent over cut links leaves as a batch at the end of its step.
 *
 * When every cut link is free, partitions run freely: a step delivers
 * what came for the partition, in order per sender, then runs a few of
 * its ticks; nothing but the order of each link's messages and their
 * grouping by tick matters, and the queues keep both.
 *
 * Otherwise every cut link runs in time order: a message carries the key
 * (tick, priority) of the event that sent it, and a step merges the
 * partition's own events and what came for it by key, as far as its
 * senders' floors allow: a floor is a key below which a partition will
 * send nothing more, from its next event, the messages it has yet to
 * act on, and what may still reach it, delayed by its lookahead.  So each
 * partition sees what it would see on one queue.  Two partitions acting
 * at one key could not be ordered: the run stops, saying so.
 *
 * A sender whose undelivered batches hold more than a bound waits for its
 * receivers, delivering what comes for it meanwhile, so memory stays
 * bounded, whatever the number of threads.
 */
#include "config.h"

#include <pthread.h>
#include <string.h>
#include "internal.h"

/*
 * A step runs at most STEP_TICKS ticks, so that the partitions of a kind
 * (the SMs) advance together through the pool's queue and a receiver that
 * serves them in turn (a round-robin merge) holds little of any of them.
 * In a free run, FREE_STEP_TICKS_PER_THREAD ticks per thread of the run
 * up to STEP_TICKS (ss_partition_run: ps->free_step), so that a step
 * keeps about the same work however finely the threads split the SMs.  A
 * free run's ticks are large (a reference SM issues a line of every
 * resident block in each: the full benchmark app's SMs issue in ~550
 * ticks), and a merge that waits for the other SM groups keeps what came
 * meanwhile in its rings, out of the processor's caches once they grow:
 * on two threads, steps of 4 ticks and a skew (below) of 8 took 0.960 to
 * 0.974 of the wall time of 16 and 32 (titanv-ref, the native file, 31
 * to 40 pairs; the paper format 0.950-0.962, 21 pairs; each half of the
 * change ~0.97 alone).  On 64 threads on a 2-core machine they took 1.48
 * of it, steps of one or two SMs' work paying for the pool each time; the
 * step grows with the threads so that such runs keep the steps they had.
 * In time order 4 ticks were slower (titanv.ini 1.013, timing/titanv.ini
 * 1.053), each step paying for its floors: there it stays STEP_TICKS.
 */
#define STEP_TICKS 16
#define FREE_STEP_TICKS_PER_THREAD 2
/*
 * Free runs: how far (ticks) a partition may run ahead of the slowest of
 * its kind (the other SM groups) that has work or messages, SKEW_STEPS of
 * its steps.  A receiver that serves them in turn (a round-robin merge)
 * holds what the fast ones sent until the slow ones' turns come, so
 * without it that grows with the skew the pool's scheduling allows.  On
 * the full benchmark app under titanv-ref the merge held 23 MB on one
 * thread, 45-60 MB on 3 or 8 without a cap, the same at 256 ticks on 8,
 * and 23 MB again at 32.
 */
#define SKEW_STEPS 2
#define FLUSH_BYTES (64 * 1024)		/* a batch leaves early from this size */
#define SPIN_ROUNDS 2000		/* pauses a thread spins for work before sleeping */
/*
 * A sender's undelivered batches before it waits, on two threads.  Free
 * partitions of a kind are kept within SKEW_STEPS steps of each other; a
 * bound of a few of their steps lets them run on while their receiver reads
 * (with 256 KiB, a step of 40 SMs reached it, and the SMs and the L2 took
 * turns).  In time order the L2 may trail the SMs by many ticks, and a
 * step's batch to it holds about a third of its buffer, hence the larger
 * bound there.  What is counted is the batches' memory, their buffers'
 * capacity: a batch sent at a step's end with a few messages keeps a
 * buffer of FLUSH_BYTES and more, and counting only what the batches held
 * let titanv.ini's 64 SM groups on the full benchmark app keep ~170 MB of
 * them (1.2 GB under valgrind's scheduling).  An L1's request to the L2
 * takes about 20 bytes as coded (cut_append).
 *
 * With more threads there are more partitions of a kind, each a smaller
 * share of the work, so each sender's bound is its share of what two
 * threads' senders may hold (ss_partition_run: BOUND x 2 / threads), but
 * not below BOUND_MIN, a few batches: the run's memory does not grow with
 * its threads (titanv.ini on the full benchmark app at its peak: 118 MiB
 * on two threads, and on 64 319 MiB with every sender bounded alike, 156
 * MiB so).
 */
#define BOUND (2u * 1024 * 1024)
#define BOUND_ORDERED (12u * 1024 * 1024)
#define BOUND_MIN (512u * 1024)

/*
 * Time order: a message's key is the (tick, priority) of the event that
 * sent it, tick << 16 | priority + 32768, so keys compare as times do.
 */
#define KEY_NONE UINT64_MAX
#define KEY_TICK_MAX ((UINT64_C(1) << 48) - 1)

static inline uint64_t key_of(uint64_t tick, int32_t prio)
{
	return tick << 16 | (uint16_t)(prio + 32768);
}

static inline uint64_t key_tick(uint64_t key)
{
	return key >> 16;
}

static inline int32_t key_prio(uint64_t key)
{
	return (int32_t)(key & 0xffff) - 32768;
}

/*
 * The first key of the tick `lat` ticks after key's: the earliest that
 * what is sent at or after `key` on a link with that latency arrives
 * (any priority: a link's messages arrive at their sender's link_prio).
 */
static inline uint64_t key_shift(uint64_t key, uint64_t lat)
{
	if (!lat || key == KEY_NONE)
		return key;
	if (lat > KEY_TICK_MAX || key_tick(key) + lat > KEY_TICK_MAX)
		return KEY_NONE - 1;
	return (key_tick(key) + lat) << 16;
}

/*
 * A message in a timed batch: the port it is for, its key, the message
 * itself.
 */
struct cut_rec {
	struct ss_port *in;
	uint64_t key;
	uint32_t size;
	uint32_t pad;		/* timed, once taken: messages of the key from here */
};

/*
 * The messages of an untimed batch are coded against the one before in
 * the batch, since a step sends runs of alike messages (a warp's sectors:
 * one port, one key, requests that differ in their address): a record is
 * a byte of CUT_* flags, a byte of changed words, then the key (CUT_KEY),
 * the port (CUT_IN), and either the size and the whole message
 * (CUT_FULL) or the message's 8-byte words that changed, in order.  The
 * first record of a batch has them all, so a batch reads on its own.
 * (Records of 24 bytes and the message, as the timed ones, made a step
 * of the full benchmark app's SMs write some 72 bytes a request for the
 * L2's thread to read, and doubling that cost 11 % of the run's time.)
 */
enum { CUT_KEY = 1, CUT_IN = 2, CUT_FULL = 4 };
#define CUT_DELTA_MAX 64	/* the largest message coded by its words */

/* The most bytes the record of a message of `size` bytes takes. */
static inline size_t cut_rec_max(uint32_t size)
{
	return 2 + sizeof(uint64_t) + sizeof(struct ss_port *) +
		sizeof(uint32_t) + size;
}

/* The bytes of the timed record of a message of `size` bytes. */
static inline size_t timed_rec_bytes(uint32_t size)
{
	return sizeof(struct cut_rec) + ((size + 7u) & ~(size_t)7);
}

/* The room a message of `size` bytes needs in a batch of either kind. */
static inline size_t rec_room(uint32_t size)
{
	return MAX(cut_rec_max(size), timed_rec_bytes(size));
}

/* Where a reader of untimed records is: the last record's fields. */
struct cut_dec {
	struct ss_port *in;
	uint64_t key;
	uint32_t size;
	uint64_t msg[SS_MSG_MAX / sizeof(uint64_t)];	/* aligned for any message */
};

struct batch {
	struct batch *next;
	unsigned src;			/* the sending partition */
	size_t len, cap;
	unsigned char *data;		/* records: struct cut_rec or coded (CUT_*) */
	/*
	 * Messages of links with latency, each keyed by when it arrives:
	 * in the order sent, not of their keys (their delays differ).  The
	 * least key, and how many the receiver has yet to deliver.
	 */
	bool timed;
	uint64_t min_key;
	size_t live;
	/* untimed, as it is filled: the last record's fields (struct cut_dec) */
	struct ss_port *enc_in;
	uint64_t enc_key;
	uint32_t enc_size;
	uint64_t enc_msg[CUT_DELTA_MAX / sizeof(uint64_t)];
};

/* Messages of one sender taken by the receiver, not yet delivered. */
struct pending {
	struct batch *head, *tail;
	size_t at;			/* offset of the next record in head */
	struct cut_dec dec;		/* the record before it */
};

enum part_state { PART_IDLE, PART_QUEUED, PART_RUNNING };

/*
 * A thread of the pool and the partitions ready to run on it: each
 * partition runs where it ran last, so that its caches' state stays in
 * that core's cache; a thread with nothing of its own takes another's.
 */
struct pool_thread {
	struct ss_partitions *ps;
	unsigned id;
	struct part *ready_head, *ready_tail;
	pthread_cond_t cond;		/* work queued for it, or the run ended */
	bool idle;			/* waits on cond */
};

#define SRC_OWN UINT_MAX		/* last_src of the partition's own events */

struct part {
	struct ss_engine *q;		/* its events; q->root is the run's engine */
	unsigned id;
	/* the sender's own, touched by its step only */
	struct batch **out;		/* one being filled per destination, or NULL */
	struct batch **out_timed;	/* the same, of links with latency */
	size_t out_len;			/* bytes in them */
	/* under the run's lock */
	struct batch *in_head, *in_tail;	/* arrived, in arrival order */
	size_t sent_unread;		/* its batches not yet delivered: their
					   buffers' bytes (atomic) */
	bool over_bound;		/* waits for its receivers to read */
	enum part_state state;
	struct part *next_ready;
	unsigned home;			/* the pool thread it runs on */
	/*
	 * Free runs: the other partitions of its kind; the earliest tick of
	 * its work, as published at its last step's end (its next event, or
	 * a message that came while it ran) and lowered when a message comes
	 * while it is not running (UINT64_MAX: none; atomic, written under
	 * the lock); and whether it stopped SKEW_STEPS steps ahead of its kind.
	 */
	unsigned *kin, n_kin;
	uint64_t next_tick;
	bool capped;
	bool failed;			/* time order: it failed; it runs no more */
	/*
	 * Time order.  Under the lock, as of its last step's end: the key of
	 * its next event, and per sending partition the key of the first
	 * message it has not delivered (KEY_NONE: none).
	 */
	uint64_t head;
	uint64_t *in_first;
	uint64_t *in_first_t;		/* the least key of its timed messages not taken */
	unsigned *senders, n_senders;	/* partitions with cut links to it */
	uint64_t *delay_from;		/* per sending partition: how it answers (part_delays) */
	/*
	 * Per sending partition: the least latency of its cut links to this
	 * one (what it sends arrives that many ticks after its floor, at
	 * least), and the least latency above 0 (its timed messages of a
	 * tick have all come once its floor is that far behind).
	 */
	uint64_t *lat_from, *lat_min;
	/*
	 * Promises (ss_port_promise_quiet), per receiving partition: the port
	 * groups of this partition's ends that send to it, or NULL when one
	 * of those ends cannot promise (or none sends); and, under the lock,
	 * the least key they promised as the last step ended (0: none).
	 */
	GPtrArray **quiet_groups;
	uint64_t *quiet_to;
	/*
	 * Per sending partition: the port groups of this partition's ends
	 * that it sends to (NULL: none), and, under the lock, whether every
	 * one of them was inert (ss_port_promise_inert) as the last step
	 * ended, so that nothing it sends makes this partition send.
	 */
	GPtrArray **entry_groups;
	bool *inert_from;
	/* its step's own */
	struct pending *pend;		/* per sending partition */
	/* timed batches whose messages are events of its queue, in order */
	struct batch *timed_head, *timed_tail;
	uint64_t *sender_floor;		/* per sending partition, as the step began */
	uint64_t last_key;		/* of what it ran or delivered last */
	uint64_t last_sent;		/* key of its last message on a cut link */
	unsigned last_src;		/* the sender of that, or SRC_OWN */
	uint64_t steps;			/* run so far (tests: ss_partition_steps) */
	gint64 busy_us;			/* spent in its steps, so far */
};

struct ss_partitions {
	struct ss_engine *root;
	unsigned n;
	struct part *part;
	pthread_mutex_t lock;
	struct pool_thread *thread;	/* the pool's, the caller's first */
	unsigned queued;		/* partitions in the threads' queues (atomic reads) */
	unsigned running;		/* steps under way */
	unsigned threads;		/* the pool's, the caller's included */
	size_t bound;			/* a sender's batches' bytes before it waits */
	unsigned free_step;		/* a free run's step, in ticks */
	bool done;
	bool ordered;			/* cut links run in time order */
	gint64 run_us;			/* the pool's run, from start to join */
	uint64_t *floor;		/* under the lock: see compute_floors */
	uint64_t *inb;			/* under the lock: see compute_floors */
	/* under the lock, per partition: messages it took from links with
	 * latency wait as events of its queue (publish) */
	bool *timed_queued;
	/*
	 * Time order: the key of the earliest failure (atomic; KEY_NONE: none).
	 * Everything before it runs, as on one thread, where a failure earlier
	 * still would have been met first; nothing at or after it starts once
	 * it is known (a run of events under way in another partition when it
	 * is set may pass it, and nothing done there reaches an output: the
	 * failing kernel is never written).
	 */
	uint64_t horizon;
	struct batch *spare;		/* emptied batches, for reuse (under lock) */
};

/* The partition this thread runs now, for cut sends to know their sender. */
static __thread struct part *running_part
	__attribute__((tls_model("initial-exec")));
static struct ss_partitions *parts_of_root(struct ss_engine *e);
static void make_ready(struct ss_partitions *ps, struct part *p);

/* ---- planning ------------------------------------------------------------ */

static unsigned uf_find(unsigned *up, unsigned x)
{
	while (up[x] != x) {
		up[x] = up[up[x]];
		x = up[x];
	}
	return x;
}

static void uf_join(unsigned *up, unsigned a, unsigned b)
{
	a = uf_find(up, a);
	b = uf_find(up, b);
	up[MAX(a, b)] = MIN(a, b);
}

/* Whether what `from` sends to `to` may arrive any time later. */
static bool direction_free(const struct ss_port_group *from,
			   const struct ss_port_group *to)
{
	return (from->flags & (SS_PORT_SILENT | SS_PORT_SENDS_WHEN_IDLE)) ||
		(to->flags & SS_PORT_ANY_DELAY);
}

static struct ss_port_group *group_of(struct ss_port *p)
{
	struct ss_component *c = p->owner;

	for (unsigned g = 0; g < c->n_port_groups; g++)
		if (c->port_groups[g].desc == p->desc)
			return &c->port_groups[g];
	return NULL;
}

static bool link_free(struct ss_port *p)
{
	struct ss_port_group *a = group_of(p), *b = group_of(p->peer);

	return a && b && direction_free(a, b) && direction_free(b, a);
}

/* A vector port whose links reach several components: a fan-in or -out. */
static bool fans_out(const struct ss_port_group *g)
{
	if (!g->desc->vector)
		return false;
	for (unsigned k = 1; k < g->n; k++)
		if (g->ports[k].bound && g->ports[0].bound &&
		    g->ports[k].peer_comp != g->ports[0].peer_comp)
			return true;
	return false;
}

static const char *thread_group(struct ss_component *c)
{
	struct ss_engine *e = c->engine->root;

	return e->thread_group ? g_hash_table_lookup(e->thread_group, c) : NULL;
}

void ss_partition_set_group(struct ss_component *c, const char *interned)
{
	struct ss_engine *e = c->engine->root;

	if (!e->thread_group)
		e->thread_group = g_hash_table_new(g_direct_hash, g_direct_equal);
	g_hash_table_insert(e->thread_group, c, (gpointer)interned);
}

/*
 * Whether a link may run between two partitions: one between different
 * thread_groups, one its promises make free, or one of a fan-in or -out
 * (the SMs' links to a shared scheduler or L2); all but the free ones run
 * in time order, where a link's latency is the lookahead that lets its
 * two ends run apart.  Links of one component to one other (an SM and
 * its L1) stay calls, and so do those inside a thread_group.
 */
static bool link_is_cut(struct ss_port *p)
{
	struct ss_port_group *a = group_of(p), *b = group_of(p->peer);
	const char *ga = thread_group(p->owner), *gb = thread_group(p->peer_comp);

	if (!a || !b || ((a->flags | b->flags) & SS_PORT_JOINED))
		return false;
	if (ga != gb)
		return true;
	return !ga && (link_free(p) || fans_out(a) || fans_out(b));
}

/* Every bound port of every component, with its component's index. */
#define FOR_EACH_LINK_END(e, i, c, p)					\
	for (unsigned i = 0; i < (e)->components->len; i++)		\
		for (struct ss_component *c = (e)->components->pdata[i];	\
		     c; c = NULL)						\
			for (unsigned g_ = 0; g_ < c->n_port_groups; g_++)	\
				for (unsigned k_ = 0; k_ < c->port_groups[g_].n; k_++) \
					for (struct ss_port *p =		\
					     &c->port_groups[g_].ports[k_];	\
					     p && p->bound; p = NULL)

/* Whether this end of a link sends anything. */
static bool end_sends(struct ss_port *p)
{
	struct ss_port_group *g = group_of(p);

	return !g || !(g->flags & SS_PORT_SILENT);
}

/*
 * Number the partitions of the union-find in order of their first
 * component, into c->part; returns how many.
 */
static unsigned number_parts(struct ss_engine *e, unsigned *up)
{
	unsigned n = e->components->len, n_parts = 0;
	unsigned *num = g_new(unsigned, n);

	for (unsigned i = 0; i < n; i++)
		num[i] = UINT_MAX;
	for (unsigned i = 0; i < n; i++) {
		unsigned r = uf_find(up, i);

		if (num[r] == UINT_MAX)
			num[r] = n_parts++;
		((struct ss_component *)e->components->pdata[i])->part = num[r];
	}
	g_free(num);
	return n_parts;
}

/* Whether a cut link of the plan must run in time order. */
static bool plan_is_ordered(struct ss_engine *e)
{
	FOR_EACH_LINK_END(e, i, c, p)
		if (p->peer_comp->part != c->part && !link_free(p))
			return true;
	return false;
}

/*
 * How much later a partition answers what reaches it on a cut link, as a
 * delay: SAME (at the message's own key), LATER (at a later key: every
 * way through it passes a DEFERS port) or LATER + T (T ticks later: a
 * port with a lookahead of T).  Along a way the greatest counts, a bound
 * (the sum is the truth).
 */
#define SAME 0
#define LATER 1
#define NEVER UINT64_MAX

static uint64_t port_delay(const struct ss_port_group *g)
{
	return !g ? SAME : g->lookahead ? LATER + MIN(g->lookahead, KEY_TICK_MAX) :
		(g->flags & SS_PORT_DEFERS) ? LATER : SAME;
}

/* The first key by which an answer with this delay can come. */
static inline uint64_t key_after(uint64_t key, uint64_t delay)
{
	if (delay == SAME || key == KEY_NONE)
		return key;
	if (delay == NEVER)
		return KEY_NONE;
	if (delay == LATER)
		return key < KEY_NONE - 1 ? key + 1 : key;
	return key_tick(key) + (delay - LATER) > KEY_TICK_MAX ? KEY_NONE - 1 :
		(key_tick(key) + (delay - LATER)) << 16;
}

/*
 * delay[part]: how part answers what reaches it on cut links from
 * partition `from` (UINT_MAX: from any).  level[c] is the least, over
 * ways from such a link to component c inside its partition, of the
 * greatest port delay on the way; a partition's delay is the least of
 * those of its components that send on cut links (NEVER: none does).
 */
static void part_delays(struct ss_engine *e, unsigned n_parts, unsigned from,
			uint64_t *delay)
{
	unsigned n = e->components->len;
	uint64_t *level = g_new(uint64_t, n);
	GHashTable *index = g_hash_table_new(g_direct_hash, g_direct_equal);
	bool changed = true;

	for (unsigned i = 0; i < n; i++) {
		level[i] = NEVER;
		g_hash_table_insert(index, e->components->pdata[i], GUINT_TO_POINTER(i));
	}
	FOR_EACH_LINK_END(e, i, c, p)
		if (p->peer_comp->part != c->part && end_sends(p->peer) &&
		    (from == UINT_MAX || p->peer_comp->part == from))
			level[i] = MIN(level[i], port_delay(group_of(p)));
	while (changed) {
		changed = false;
		FOR_EACH_LINK_END(e, i, c, p) {
			if (p->peer_comp->part != c->part || level[i] == NEVER ||
			    !end_sends(p))
				continue;
			unsigned j = GPOINTER_TO_UINT(g_hash_table_lookup(index, p->peer_comp));
			uint64_t via = MAX(level[i], port_delay(group_of(p->peer)));

			if (via < level[j]) {
				level[j] = via;
				changed = true;
			}
		}
	}
	for (unsigned r = 0; r < n_parts; r++)
		delay[r] = NEVER;
	FOR_EACH_LINK_END(e, i, c, p)
		if (p->peer_comp->part != c->part && end_sends(p))
			delay[c->part] = MIN(delay[c->part], level[i]);
	g_hash_table_destroy(index);
	g_free(level);
}

/*
 * Join the partitions of every loop of cut links on which some partition
 * has no other that answers later: what it sends could come back at the
 * key it left, inside the event that sent it, an order only one clock
 * gives.  reach[a][b]: a way from a to b through partitions that answer
 * at once, over links without latency.  Returns whether it joined any.
 */
static bool join_zero_loops(struct ss_engine *e, unsigned *up, unsigned n_parts)
{
	uint64_t *delay = g_new(uint64_t, n_parts);
	bool *reach = g_new0(bool, (size_t)n_parts * n_parts), joined = false;
	unsigned *first = g_new(unsigned, n_parts);

#define REACH(a, b) reach[(size_t)(a) * n_parts + (b)]
	part_delays(e, n_parts, UINT_MAX, delay);
	FOR_EACH_LINK_END(e, i, c, p) {
		first[c->part] = i;
		/* a link with latency answers later by itself */
		if (p->peer_comp->part != c->part && end_sends(p) && !p->latency)
			REACH(c->part, p->peer_comp->part) = true;
	}
	for (unsigned k = 0; k < n_parts; k++)
		if (delay[k] == SAME)
			for (unsigned a = 0; a < n_parts; a++)
				if (REACH(a, k))
					for (unsigned b = 0; b < n_parts; b++)
						if (REACH(k, b))
							REACH(a, b) = true;
	for (unsigned a = 0; a < n_parts; a++)
		if (REACH(a, a))
			for (unsigned k = 0; k < n_parts; k++)
				if (k != a && delay[k] == SAME && REACH(a, k) && REACH(k, a)) {
					uf_join(up, first[a], first[k]);
					joined = true;
				}
#undef REACH
	g_free(reach);
	g_free(delay);
	g_free(first);
	return joined;
}

static int cmp_names(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * The names of a partition's components, without indices, sorted; each
 * name once when `distinct` (groups of 40 and of 41 SMs are one kind).
 */
static char *part_kind(struct ss_engine *e, unsigned part, bool distinct)
{
	GPtrArray *names = g_ptr_array_new();
	char *kind;

	for (unsigned i = 0; i < e->components->len; i++) {
		struct ss_component *c = e->components->pdata[i];

		if (c->part == part)
			g_ptr_array_add(names, (gpointer)c->base);
	}
	g_ptr_array_sort(names, cmp_names);
	if (distinct && names->len) {
		guint k = 1;

		for (guint i = 1; i < names->len; i++)
			if (strcmp(names->pdata[i], names->pdata[k - 1]))
				names->pdata[k++] = names->pdata[i];
		g_ptr_array_set_size(names, k);
	}
	g_ptr_array_add(names, NULL);
	kind = g_strjoinv(",", (char **)names->pdata);
	g_ptr_array_free(names, TRUE);
	return kind;
}

/*
 * Partitions of one kind (every SM with its L1) join into at most
 * `threads` groups of neighbours, so that a step does a share of the work
 * worth a thread's turn and the run keeps few queues.
 */
static void group_kinds(struct ss_engine *e, unsigned *up, unsigned n_parts,
			unsigned threads)
{
	char **kind = g_new(char *, n_parts);
	unsigned *first = g_new(unsigned, n_parts);
	bool *done = g_new0(bool, n_parts);

	for (unsigned i = e->components->len; i-- > 0;)
		first[((struct ss_component *)e->components->pdata[i])->part] = i;
	for (unsigned a = 0; a < n_parts; a++)
		kind[a] = part_kind(e, a, false);
	for (unsigned a = 0; a < n_parts; a++) {
		unsigned n_kind = 0, at = 0;

		if (done[a])
			continue;
		for (unsigned b = a; b < n_parts; b++)
			n_kind += strcmp(kind[a], kind[b]) == 0;
		if (n_kind <= threads) {
			done[a] = true;
			continue;
		}
		/* member `at` of the kind goes to group at * threads / n_kind */
		unsigned lead = a;

		for (unsigned b = a; b < n_parts; b++) {
			if (done[b] || strcmp(kind[a], kind[b]))
				continue;
			if (at * (uint64_t)threads / n_kind !=
			    (at ? (at - 1) * (uint64_t)threads / n_kind : UINT64_MAX))
				lead = b;
			else
				uf_join(up, first[lead], first[b]);
			done[b] = true;
			at++;
		}
	}
	for (unsigned a = 0; a < n_parts; a++)
		g_free(kind[a]);
	g_free(kind);
	g_free(first);
	g_free(done);
}

/*
 * Every component's partition (c->part), numbered in order of each
 * partition's first component, for a run on `threads` threads; returns
 * how many.
 */
unsigned ss_partition_plan(struct ss_engine *e, unsigned threads)
{
	unsigned n = e->components->len, n_parts;
	unsigned *up = g_new(unsigned, n);

	for (unsigned i = 0; i < n; i++) {
		((struct ss_component *)e->components->pdata[i])->part = i;
		up[i] = i;
	}
	FOR_EACH_LINK_END(e, i, c, p)
		if (!link_is_cut(p))
			uf_join(up, i, p->peer_comp->part);
	if (e->thread_group) {
		GHashTable *lead = g_hash_table_new(g_direct_hash, g_direct_equal);

		for (unsigned i = 0; i < n; i++) {
			const char *g = thread_group(e->components->pdata[i]);
			gpointer at;

			if (!g)
				continue;
			if (g_hash_table_lookup_extended(lead, g, NULL, &at))
				uf_join(up, GPOINTER_TO_UINT(at), i);
			else
				g_hash_table_insert(lead, (gpointer)g, GUINT_TO_POINTER(i));
		}
		g_hash_table_destroy(lead);
	}
	n_parts = number_parts(e, up);
	while (plan_is_ordered(e) && join_zero_loops(e, up, n_parts))
		n_parts = number_parts(e, up);
	group_kinds(e, up, n_parts, MAX(threads, 1));
	n_parts = number_parts(e, up);
	/* a group may close a loop through partitions of other kinds */
	while (plan_is_ordered(e) && join_zero_loops(e, up, n_parts))
		n_parts = number_parts(e, up);
	g_free(up);
	return n_parts;
}

/* ---- cut links ------------------------------------------------------------ */

/* Append b to the list head..tail (an inbox, or a sender's pending). */
static void batch_append(struct batch **head, struct batch **tail,
			 struct batch *b)
{
	b->next = NULL;
	if (*tail)
		(*tail)->next = b;
	else
		*head = b;
	*tail = b;
}

static struct batch *batch_get(struct ss_partitions *ps)
{
	struct batch *b;

	pthread_mutex_lock(&ps->lock);
	b = ps->spare;
	if (b)
		ps->spare = b->next;
	pthread_mutex_unlock(&ps->lock);
	if (!b) {
		/* room for what leaves at FLUSH_BYTES: no growing on the way */
		b = g_new0(struct batch, 1);
		b->cap = FLUSH_BYTES + 16 * rec_room(SS_MSG_MAX);
		b->data = g_malloc(b->cap);
	}
	b->next = NULL;
	b->len = 0;
	b->timed = false;
	b->min_key = KEY_NONE;
	b->live = 0;
	return b;
}

/*
 * What cut_recv refuses, and its sends outside the run: apart, so that the
 * path every crossing message takes stays a few loads and a copy.
 */
G_GNUC_NO_INLINE static void cut_recv_slow(struct ss_component *to, struct ss_port *in,
					  const struct ss_msg *m, struct part *from)
{
	if (!from) {
		/* outside the run (xfinish): every partition is still */
		to->type->ops->xrecv(to, in, m);
	} else if (from->q->now > KEY_TICK_MAX) {
		ss_component_fail(to, SS_ERROR_INTERNAL,
				  "%s: a message at tick %" G_GUINT64_FORMAT " cannot cross threads (at most %" G_GUINT64_FORMAT "); run with --threads 1",
				  in->desc->name, from->q->now, KEY_TICK_MAX);
	} else if (m->size < sizeof(*m) || m->size > SS_MSG_MAX) {
		ss_component_fail(to, SS_ERROR_INTERNAL,
				  "%s: a message of %u bytes cannot cross threads (at most %d); run with --threads 1",
				  in->desc->name, m->size, SS_MSG_MAX);
	} else {
		uint64_t key = key_of(from->q->now, from->q->prio_now);

		ss_component_fail(to, SS_ERROR_INTERNAL,
				  "%s: a message of tick %" G_GUINT64_FORMAT ", priority %d, sent after one of a later time (an event scheduled before the time that scheduled it); run with --threads 1",
				  in->desc->name, key_tick(key), key_prio(key));
	}
}

/*
 * Copy a message of `size` bytes: the usual sizes (multiples of 8, up to
 * 64) with moves of a size known here, without a call to memcpy.
 */
static inline void copy_msg(void *dst, const struct ss_msg *m, uint32_t size)
{
	switch (size) {
	case 8: memcpy(dst, m, 8); break;
	case 16: memcpy(dst, m, 16); break;
	case 24: memcpy(dst, m, 24); break;
	case 32: memcpy(dst, m, 32); break;
	case 40: memcpy(dst, m, 40); break;
	case 48: memcpy(dst, m, 48); break;
	case 56: memcpy(dst, m, 56); break;
	case 64: memcpy(dst, m, 64); break;
	default: memcpy(dst, m, size); break;
	}
}

/* Append m, arriving at `key`, to timed batch b of from (which has room). */
static inline void timed_append(struct part *from, struct batch *b, struct ss_port *in,
				const struct ss_msg *m, uint64_t key)
{
	uint32_t size = m->size;
	size_t need = timed_rec_bytes(size);
	struct cut_rec *r = (struct cut_rec *)(void *)(b->data + b->len);

	r->in = in;
	r->key = key;
	r->size = size;
	copy_msg(r + 1, m, size);
	b->len += need;
	from->out_len += need;
}

/* Append m, sent at `key`, to untimed batch b of from (which has room for
 * it), coded against the record before (struct cut_dec). */
static inline void cut_append(struct part *from, struct batch *b, struct ss_port *in,
			      const struct ss_msg *m, uint64_t key)
{
	uint32_t size = m->size;
	unsigned char *rec = b->data + b->len, *o = rec + 2;
	unsigned what = 0, words = 0;
	bool first = b->len == 0;

	if (first || key != b->enc_key) {
		what |= CUT_KEY;
		memcpy(o, &key, sizeof(key));
		o += sizeof(key);
		b->enc_key = key;
	}
	if (first || in != b->enc_in) {
		what |= CUT_IN;
		memcpy(o, &in, sizeof(in));
		o += sizeof(in);
		b->enc_in = in;
	}
	if (first || size != b->enc_size || size > CUT_DELTA_MAX || size % sizeof(uint64_t)) {
		what |= CUT_FULL;
		memcpy(o, &size, sizeof(size));
		o += sizeof(size);
		copy_msg(o, m, size);
		o += size;
		b->enc_size = size;
		if (size <= CUT_DELTA_MAX)
			memcpy(b->enc_msg, m, size);
	} else {
		for (unsigned i = 0; i < size / sizeof(uint64_t); i++) {
			uint64_t w;

			memcpy(&w, (const char *)m + i * sizeof(w), sizeof(w));
			if (w != b->enc_msg[i]) {
				words |= 1u << i;
				memcpy(o, &w, sizeof(w));
				o += sizeof(w);
				b->enc_msg[i] = w;
			}
		}
	}
	rec[0] = (unsigned char)what;
	rec[1] = (unsigned char)words;
	from->last_sent = key;
	b->len += (size_t)(o - rec);
	from->out_len += (size_t)(o - rec);
}

/* The key of the untimed record at r, d holding the record before. */
static inline uint64_t cut_key(const unsigned char *r, const struct cut_dec *d)
{
	uint64_t key;

	if (!(r[0] & CUT_KEY))
		return d->key;
	memcpy(&key, r + 2, sizeof(key));
	return key;
}

/* The key of an untimed batch's first record (which has every field). */
static inline uint64_t batch_first_key(const struct batch *b)
{
	uint64_t key;

	memcpy(&key, b->data + 2, sizeof(key));
	return key;
}

/* Decode the untimed record at r into d; where the next one starts. */
static inline size_t cut_decode(const unsigned char *r, struct cut_dec *d)
{
	const unsigned char *o = r + 2;
	unsigned what = r[0], words = r[1];

	if (what & CUT_KEY) {
		memcpy(&d->key, o, sizeof(d->key));
		o += sizeof(d->key);
	}
	if (what & CUT_IN) {
		memcpy(&d->in, o, sizeof(d->in));
		o += sizeof(d->in);
	}
	if (what & CUT_FULL) {
		memcpy(&d->size, o, sizeof(d->size));
		o += sizeof(d->size);
		memcpy(d->msg, o, d->size);
		o += d->size;
	}
	for (; words; words &= words - 1) {
		memcpy(&d->msg[__builtin_ctz(words)], o, sizeof(uint64_t));
		o += sizeof(uint64_t);
	}
	return (size_t)(o - r);
}

/*
 * The batch in *slot (from's, for `to`), made or grown to take m: a new
 * batch when there is none, the one there grown when it is full.
 */
static struct batch *batch_room(struct part *from, struct batch **slot,
				struct ss_component *to, const struct ss_msg *m)
{
	struct batch *b = *slot;
	size_t need = rec_room(m->size);

	if (!b) {
		b = batch_get(parts_of_root(to->engine));
		b->src = from->id;
		*slot = b;
	}
	if (b->len + need > b->cap) {
		while (b->len + need > b->cap)
			b->cap *= 2;
		b->data = g_realloc(b->data, b->cap);
	}
	return b;
}

/*
 * cut_recv when from has no batch for `to` yet or its batch is full: a
 * new batch, or the one there grown, and then the message.
 */
G_GNUC_NO_INLINE static void cut_recv_room(struct part *from, struct ss_component *to,
					   struct ss_port *in, const struct ss_msg *m,
					   uint64_t key)
{
	cut_append(from, batch_room(from, &from->out[to->part], to, m), in, m, key);
}

/*
 * The receive function of a cut link's ends: into the sender's batch.
 * Once per message crossing threads: everything but the append is a
 * tail call, so that the usual path saves no registers.
 */
static void cut_recv(struct ss_component *to, struct ss_port *in,
		     const struct ss_msg *m)
{
	struct part *from = running_part;

	/* a size outside [sizeof(*m), SS_MSG_MAX]: one unsigned compare */
	if (G_UNLIKELY(!from || from->q->now > KEY_TICK_MAX ||
		       m->size - sizeof(*m) > SS_MSG_MAX - sizeof(*m))) {
		cut_recv_slow(to, in, m, from);
		return;
	}

	uint64_t key = key_of(from->q->now, from->q->prio_now);

	if (G_UNLIKELY(key < from->last_sent) && parts_of_root(to->engine)->ordered) {
		cut_recv_slow(to, in, m, from);
		return;
	}

	struct batch *b = from->out[to->part];

	if (G_UNLIKELY(!b || b->len + cut_rec_max(m->size) > b->cap)) {
		cut_recv_room(from, to, in, m, key);
		return;
	}
	cut_append(from, b, in, m, key);
}

/*
 * A send on a cut link with latency (held.c): into the sender's timed
 * batch for the receiver at once, keyed by when it arrives, at the
 * sender's link priority, as one queue would deliver it.
 */
bool ss_partition_send_timed(struct ss_port *p, const struct ss_msg *m, uint64_t delay)
{
	struct part *from = running_part;
	struct ss_component *to = p->peer_comp;
	struct ss_port *in = p->peer;

	/* outside the run (xfinish): held as on one queue, where it stays */
	if (!from)
		return false;
	if (G_UNLIKELY(from->q->now > KEY_TICK_MAX ||
		       m->size - sizeof(*m) > SS_MSG_MAX - sizeof(*m))) {
		cut_recv_slow(to, in, m, from);
		return true;
	}

	uint64_t sent = key_of(from->q->now, from->q->prio_now);

	if (G_UNLIKELY(sent < from->last_sent || delay > KEY_TICK_MAX - from->q->now)) {
		if (sent < from->last_sent)
			cut_recv_slow(to, in, m, from);
		else
			ss_component_fail(to, SS_ERROR_INTERNAL,
					  "%s: a message arriving after tick %" G_GUINT64_FORMAT " cannot cross threads; run with --threads 1",
					  in->desc->name, KEY_TICK_MAX);
		return true;
	}

	struct batch *b = from->out_timed[to->part];
	uint64_t key = key_of(from->q->now + delay, p->owner->link_prio);

	if (G_UNLIKELY(!b || b->len + timed_rec_bytes(m->size) > b->cap)) {
		b = batch_room(from, &from->out_timed[to->part], to, m);
		b->timed = true;
	}
	timed_append(from, b, in, m, key);
	from->last_sent = sent;
	b->min_key = MIN(b->min_key, key);
	return true;
}

/*
 * Every cut link's two ends send through cut_recv, at once; in time order
 * a link with latency keeps it, and its sends cross through
 * ss_partition_send_timed instead.
 */
static void cut_links(struct ss_engine *e)
{
	bool ordered = parts_of_root(e)->ordered;

	for (guint i = 0; i < e->components->len; i++) {
		struct ss_component *c = e->components->pdata[i];

		for (unsigned g = 0; g < c->n_port_groups; g++)
			for (unsigned k = 0; k < c->port_groups[g].n; k++) {
				struct ss_port *p = &c->port_groups[g].ports[k];

				if (p->bound && p->peer_comp->part != c->part) {
					p->peer_recv = cut_recv;
					if (!ordered)
						p->latency = 0;
				}
			}
	}
}

/* ---- the pool ------------------------------------------------------------- */

/* Under the lock: wake threads waiting for work. */
static void wake_all(struct ss_partitions *ps)
{
	for (unsigned t = 0; t < ps->threads; t++)
		pthread_cond_signal(&ps->thread[t].cond);
}

/*
 * Under the lock: p has work; queue it on its thread unless it is queued
 * or running, and wake that thread, or else an idle one to take it.
 */
static void make_ready(struct ss_partitions *ps, struct part *p)
{
	struct pool_thread *t = &ps->thread[p->home];

	if (p->state != PART_IDLE)
		return;
	p->state = PART_QUEUED;
	p->next_ready = NULL;
	if (t->ready_tail)
		t->ready_tail->next_ready = p;
	else
		t->ready_head = p;
	t->ready_tail = p;
	__atomic_store_n(&ps->queued, ps->queued + 1, __ATOMIC_RELAXED);
	if (!t->idle)
		for (unsigned i = 0; i < ps->threads; i++)
			if (ps->thread[i].idle) {
				t = &ps->thread[i];
				break;
			}
	/* woken: the next partition made ready wakes another */
	t->idle = false;
	pthread_cond_signal(&t->cond);
}

/* Hand the batches p filled to their partitions. */
static void flush(struct ss_partitions *ps, struct part *p)
{
	if (!p->out_len)
		return;
	pthread_mutex_lock(&ps->lock);
	for (unsigned d = 0; d < ps->n; d++) {
		struct batch *b = p->out_timed[d];
		struct part *to = &ps->part[d];

		if (b) {
			/*
			 * Time order only: free runs drop latencies.  Not held
			 * to the sender's bound: what arrives in the future
			 * waits for the receiver's clock, which waits for the
			 * sender's, so a bound could stop both; the floors
			 * keep the two within the latency of a loop.
			 */
			p->out_timed[d] = NULL;
			batch_append(&to->in_head, &to->in_tail, b);
			to->in_first_t[p->id] = MIN(to->in_first_t[p->id], b->min_key);
		}
		b = p->out[d];
		if (!b)
			continue;
		p->out[d] = NULL;
		batch_append(&to->in_head, &to->in_tail, b);
		__atomic_add_fetch(&p->sent_unread, b->cap, __ATOMIC_RELAXED);
		if (!ps->ordered) {
			/*
			 * What came counts for its kind's caps at once, unless
			 * it is running: it publishes its tick, messages
			 * included, when its step ends (publish_tick), and
			 * until then its kin go by the tick it had.
			 */
			uint64_t at = key_tick(batch_first_key(b));

			if (to->state != PART_RUNNING && at < to->next_tick)
				__atomic_store_n(&to->next_tick, at, __ATOMIC_RELAXED);
			make_ready(ps, to);
		} else if (to->in_first[p->id] == KEY_NONE)
			to->in_first[p->id] = batch_first_key(b);
	}
	pthread_mutex_unlock(&ps->lock);
	p->out_len = 0;
}

static bool halted(struct ss_partitions *ps);

/*
 * What came for a partition, batch by batch.  Once the run halts nothing
 * more is delivered: on one thread nothing after the failing event runs
 * (an L2 handed every SM's kernel end after a failure would finish the
 * kernel and a report would write it).
 */
static void deliver(struct ss_partitions *ps, struct part *p, struct batch *list)
{
	struct cut_dec dec, *d = &dec;	/* each batch's first record sets it all */

	while (list) {
		struct batch *b = list;

		list = b->next;
		for (size_t at = 0; at < b->len && !halted(ps);) {
			struct ss_port *in;

			at += cut_decode(b->data + at, d);
			in = d->in;
			/*
			 * With nothing queued, its clock moves to the sender's
			 * time, as on one thread: partitions of a kind stay on
			 * one clock, which the skew cap compares.
			 */
			if (key_tick(d->key) > p->q->now && !ss_engine_pending(p->q))
				ss_engine_advance(p->q, key_tick(d->key), key_prio(d->key));
			in->owner->type->ops->xrecv(in->owner, in,
						    (const struct ss_msg *)(void *)d->msg);
		}
		pthread_mutex_lock(&ps->lock);
		struct part *src = &ps->part[b->src];

		size_t left = __atomic_sub_fetch(&src->sent_unread, b->cap,
						 __ATOMIC_RELAXED);

		if (src->over_bound && left <= ps->bound / 2) {
			src->over_bound = false;
			make_ready(ps, src);
		}
		b->next = ps->spare;
		ps->spare = b;
		pthread_mutex_unlock(&ps->lock);
	}
}

/*
 * A component stopped or failed the run.  Ctrl-C is the components' to
 * act on, at a boundary of theirs (a kernel), as on one thread.
 */
static bool halted(struct ss_partitions *ps)
{
	return g_atomic_int_get(&ps->root->halted) != 0;
}

/* ---- time order ------------------------------------------------------------ */

/*
 * Under the lock: a key below which partition sd sends nothing more to
 * partition r.  Its floor, or more where its components promised
 * (ss_port_promise_quiet): a promise holds until a message reaches the
 * component, and none can before sd may act on what comes from outside
 * (ps->inb[sd], which counts the messages sd has yet to take and those
 * of links with latency waiting in its queue; nothing inside sd sends to
 * a component that promises).
 */
static inline uint64_t link_floor(const struct ss_partitions *ps, unsigned sd,
				  unsigned r)
{
	uint64_t q = ps->part[sd].quiet_to ? ps->part[sd].quiet_to[r] : 0;

	return MAX(ps->floor[sd], MIN(ps->inb[sd], q));
}

/*
 * Under the lock: what partition r may yet be sent or answer (*in, its
 * inb) and its floor (*x), from the current values of its senders'.
 */
static inline void floor_inputs(const struct ss_partitions *ps, unsigned r,
				uint64_t *in_out, uint64_t *x_out)
{
	const struct part *p = &ps->part[r];
	uint64_t in = KEY_NONE, answer = KEY_NONE;

	for (unsigned i = 0; i < p->n_senders; i++) {
		unsigned sd = p->senders[i];
		uint64_t y = MIN(MIN(p->in_first[sd], p->in_first_t[sd]),
				 key_shift(link_floor(ps, sd, r), p->lat_from[sd]));
		uint64_t a = key_after(y, p->delay_from[sd]);

		in = MIN(in, a);
		/* what reaches only inert ports is still taken (in), and
		 * answered never */
		if (!p->inert_from[sd])
			answer = MIN(answer, a);
	}
	/* a message taken from a link with latency is an event still to
	 * come, and may reach a component that promised */
	if (ps->timed_queued[r])
		in = MIN(in, p->head);
	*in_out = in;
	*x_out = MIN(p->head, answer);
}

/*
 * Under the lock: ps->floor[r], a key below which partition r sends
 * nothing more over a cut link.  It sends at the keys of its own events
 * (head) and of the messages it has yet to deliver or to receive (its
 * senders' floors), from the next tick where it has the lookahead.
 *
 * Whatever a partition will send comes, through a chain of partitions,
 * from work that exists now: an event in a queue (a head) or a message
 * not yet taken (in_first), each partition on the way answering with its
 * delay.  A floor is therefore the least, over that work, of its key
 * delayed along a chain from it to the partition: a shortest way, with
 * delays that only add.  The passes find it from above, as Bellman and
 * Ford's algorithm does: they start with no bound (KEY_NONE), each pass
 * takes every partition's inputs as they are (floor_inputs, which only
 * grows with them), so the values only go down, and after k passes every
 * way of k partitions has been followed.  A shortest way need not pass a
 * partition twice (a loop only adds delay), so the values settle within
 * n passes and the next changes nothing.  Only the settled values are
 * bounds.
 *
 * (Climbing from the lowest key anywhere, where every round is a bound,
 * needs a round per loop's delay: on the full benchmark app the SMs and
 * the scheduler answer each other a tick later, and the SMs stayed within
 * a few ticks of the L2's work, each side waiting for the other.)
 */
static void compute_floors(struct ss_partitions *ps)
{
	for (unsigned r = 0; r < ps->n; r++)
		ps->floor[r] = ps->inb[r] = KEY_NONE;
	for (unsigned pass = 0; pass <= ps->n; pass++) {
		bool changed = false;

		for (unsigned r = 0; r < ps->n; r++) {
			uint64_t in, x;

			floor_inputs(ps, r, &in, &x);
			if (in != ps->inb[r] || x != ps->floor[r]) {
				g_assert(in <= ps->inb[r] && x <= ps->floor[r]);
				ps->inb[r] = in;
				ps->floor[r] = x;
				changed = true;
			}
		}
		if (!changed)
			return;
	}
	g_error("partition: the floors did not settle in %u passes", ps->n + 1);
}

/*
 * Under the lock, with the floors computed: whether p's first piece of
 * work may run.  Its own event may once no message can come before it;
 * a message once nothing can come before it and its sender has done
 * everything of its key (all of one event's messages arrive together).
 */
static bool can_progress(struct ss_partitions *ps, const struct part *p)
{
	uint64_t safe = KEY_NONE, key_in = KEY_NONE, done_to = KEY_NONE;

	for (unsigned i = 0; i < p->n_senders; i++) {
		unsigned sd = p->senders[i];

		uint64_t lf = link_floor(ps, sd, p->id);

		safe = MIN(safe, key_shift(lf, p->lat_from[sd]));
		if (p->in_first[sd] < key_in) {
			key_in = p->in_first[sd];
			done_to = lf;
		}
		if (p->in_first_t[sd] < key_in) {
			key_in = p->in_first_t[sd];
			done_to = key_shift(lf, p->lat_min[sd]);
		}
	}
	/* after a failure, nothing at or after its time */
	if (p->failed || MIN(p->head, key_in) >= __atomic_load_n(&ps->horizon, __ATOMIC_RELAXED))
		return false;
	if (p->head < key_in)
		return p->head <= safe &&
			__atomic_load_n(&p->sent_unread, __ATOMIC_RELAXED) <= ps->bound;
	return key_in != KEY_NONE && key_in <= safe && done_to > key_in;
}

/* The key of the next message of pd (which has one). */
static inline uint64_t pending_key(const struct pending *pd)
{
	return cut_key(pd->head->data + pd->at, &pd->dec);
}

/* Under the lock: p's state for the others' floors, as its step ends. */
static void publish(struct ss_partitions *ps, struct part *p)
{
	unsigned n_parts = ps->n;
	uint64_t tick;
	int32_t prio;

	for (unsigned r = 0; p->quiet_groups && r < n_parts; r++) {
		GPtrArray *gs = p->quiet_groups[r];
		uint64_t q = KEY_NONE;

		for (guint k = 0; gs && k < gs->len; k++) {
			uint64_t t = ((const struct ss_port_group *)gs->pdata[k])->quiet_until;

			q = MIN(q, t > KEY_TICK_MAX ? KEY_NONE - 1 : t << 16);
		}
		p->quiet_to[r] = gs ? q : 0;
	}
	for (unsigned i = 0; p->entry_groups && i < p->n_senders; i++) {
		unsigned sd = p->senders[i];
		GPtrArray *gs = p->entry_groups[sd];
		bool inert = gs != NULL;

		for (guint k = 0; inert && k < gs->len; k++) {
			const struct ss_port_group *g = gs->pdata[k];

			inert = g && g->inert;
		}
		p->inert_from[sd] = inert;
	}

	p->head = !ss_engine_next_key(p->q, &tick, &prio) ? KEY_NONE :
		tick > KEY_TICK_MAX ? KEY_NONE - 1 : key_of(tick, prio);
	ps->timed_queued[p->id] = p->timed_head != NULL;
	for (unsigned i = 0; i < p->n_senders; i++) {
		unsigned sd = p->senders[i];
		const struct pending *pd = &p->pend[sd];

		p->in_first[sd] = KEY_NONE;
		p->in_first_t[sd] = KEY_NONE;
		for (const struct batch *b = p->in_head; b; b = b->next)
			if (b->src == sd && b->timed)
				p->in_first_t[sd] = MIN(p->in_first_t[sd], b->min_key);
		if (pd->head) {
			p->in_first[sd] = pending_key(pd);
			continue;
		}
		for (const struct batch *b = p->in_head; b; b = b->next)
			if (b->src == sd && !b->timed) {
				p->in_first[sd] = batch_first_key(b);
				break;
			}
	}
}

/* Under the lock: every idle partition whose first work may run, queued. */
static void wake_ordered(struct ss_partitions *ps)
{
	compute_floors(ps);
	for (unsigned i = 0; i < ps->n; i++)
		if (ps->part[i].state == PART_IDLE && can_progress(ps, &ps->part[i]))
			make_ready(ps, &ps->part[i]);
}

/* The messages of `src` with this key, in order; emptied batches to *used. */
static void deliver_key(struct ss_partitions *ps, struct part *p, unsigned src,
			uint64_t key, struct batch **used)
{
	struct pending *pd = &p->pend[src];

	while (pd->head && !halted(ps)) {
		struct batch *b = pd->head;
		struct cut_dec *d = &pd->dec;

		if (pending_key(pd) != key)
			break;
		pd->at += cut_decode(b->data + pd->at, d);
		d->in->owner->type->ops->xrecv(d->in->owner, d->in,
					       (const struct ss_msg *)(void *)d->msg);
		if (pd->at >= b->len) {
			pd->head = b->next;
			if (!pd->head)
				pd->tail = NULL;
			pd->at = 0;
			b->next = *used;
			*used = b;
		}
	}
}

/* A record's size in its batch. */
static inline size_t rec_bytes(const struct cut_rec *r)
{
	return timed_rec_bytes(r->size);
}

/* The receivers' hint for every message of the run from r (xprefetch). */
static void prefetch_run(const struct cut_rec *r)
{
	for (uint32_t n = r->pad; n--; r = (const struct cut_rec *)(const void *)((const char *)r + rec_bytes(r))) {
		struct ss_component *c = r->in->owner;

		if (c->type->ops->xprefetch)
			c->type->ops->xprefetch(c, r->in, (const struct ss_msg *)(const void *)(r + 1));
	}
}

/*
 * The messages of a link with latency that arrive at one key, at the time
 * they arrive: r and the r->pad - 1 records after it.  A failure stops the
 * queue at once, as it would between events: the rest are not delivered.
 */
static void timed_deliver(struct ss_engine *e, void *data)
{
	struct cut_rec *r = data;
	/* r->key was used to schedule this; it holds the batch now */
	struct batch *b = (struct batch *)(uintptr_t)r->key;
	struct ss_engine *q = running_part->q;

	(void)e;
	if (r->pad > 1 && r->in->owner->type->ops->xprefetch)
		prefetch_run(r);
	for (uint32_t n = r->pad;;) {
		r->in->owner->type->ops->xrecv(r->in->owner, r->in,
					       (const struct ss_msg *)(void *)(r + 1));
		b->live--;
		if (!--n || G_UNLIKELY(q->stop))
			break;
		r = (struct cut_rec *)(void *)((char *)r + rec_bytes(r));
	}
}

/*
 * The messages of a timed batch become events of p's queue at their
 * arrival (tick, sender's link_prio), taken in the order sent: the queue
 * runs equal keys in the order scheduled, which is the order one queue
 * gives them, all of one key being one sender's.  None is earlier than
 * what p has run: the floors kept p below every arrival still to come.
 * Records next to each other with one key (a warp's sectors, sent in one
 * cycle) are one event: they would run one after the other anyway, as
 * nothing else is scheduled between them.
 */
static void timed_take(struct part *p, struct batch *b)
{
	for (size_t at = 0; at < b->len;) {
		struct cut_rec *r = (struct cut_rec *)(void *)(b->data + at);
		uint64_t key = r->key;
		uint32_t n = 0;

		ss_schedule(p->q, key_tick(key), (int16_t)key_prio(key), timed_deliver, r);
		do {
			at += rec_bytes((const struct cut_rec *)(void *)(b->data + at));
			n++;
		} while (at < b->len &&
			 ((const struct cut_rec *)(void *)(b->data + at))->key == key);
		r->key = (uint64_t)(uintptr_t)b;
		r->pad = n;
		b->live += n;
	}
	batch_append(&p->timed_head, &p->timed_tail, b);
}

/* Two partitions acted at one key: only one clock orders them. */
static void fail_same_key(struct part *p, uint64_t key)
{
	ss_engine_fail(p->q, g_error_new(SS_ERROR, SS_ERROR_INTERNAL,
		"two partitions acted at tick %" G_GUINT64_FORMAT ", priority %d, where only one thread orders them (components on different threads share a priority); run with --threads 1",
		key_tick(key), key_prio(key)));
}

/*
 * One step of p in time order: its own events and the messages that came
 * for it, merged by key, as far as its senders' floors allow and at most
 * STEP_TICKS ticks.  At one key its own events come first: a message of
 * the same key is answered by the events it schedules (they run after
 * it, as on one thread), and any other meeting of keys is refused.
 */
static void step_ordered(struct ss_partitions *ps, struct part *p)
{
	uint64_t safe = KEY_NONE, first_tick = 0;
	struct batch *used = NULL, *timed = NULL, *timed_tail = NULL;
	bool started = false;

	pthread_mutex_lock(&ps->lock);
	for (struct batch *b = p->in_head, *next; b; b = next) {
		next = b->next;
		if (b->timed) {
			batch_append(&timed, &timed_tail, b);
		} else {
			batch_append(&p->pend[b->src].head, &p->pend[b->src].tail, b);
		}
	}
	p->in_head = p->in_tail = NULL;
	compute_floors(ps);
	for (unsigned i = 0; i < p->n_senders; i++) {
		unsigned sd = p->senders[i];

		p->sender_floor[sd] = link_floor(ps, sd, p->id);
		safe = MIN(safe, key_shift(p->sender_floor[sd], p->lat_from[sd]));
	}
	pthread_mutex_unlock(&ps->lock);
	/* in the order they came: equal keys go by the order sent */
	for (struct batch *b = timed, *next; b; b = next) {
		next = b->next;
		timed_take(p, b);
	}

	running_part = p;
	ss_running_queue = p->q;
	while (!halted(ps) && !p->failed) {
		uint64_t key_in = KEY_NONE, key_own = KEY_NONE, tick, next, horizon;
		unsigned src = 0;
		int32_t prio;

		for (unsigned i = 0; i < p->n_senders; i++) {
			const struct pending *pd = &p->pend[p->senders[i]];

			if (pd->head && pending_key(pd) < key_in) {
				key_in = pending_key(pd);
				src = p->senders[i];
			}
		}
		if (ss_engine_next_key(p->q, &tick, &prio)) {
			if (G_UNLIKELY(tick > KEY_TICK_MAX)) {
				ss_engine_fail(p->q, g_error_new(SS_ERROR, SS_ERROR_INTERNAL,
					"an event at tick %" G_GUINT64_FORMAT " cannot be ordered across threads (at most %" G_GUINT64_FORMAT "); run with --threads 1",
					tick, KEY_TICK_MAX));
				break;
			}
			key_own = key_of(tick, prio);
		}
		next = MIN(key_in, key_own);
		horizon = __atomic_load_n(&ps->horizon, __ATOMIC_RELAXED);
		if (next == KEY_NONE || next >= horizon)
			break;
		if (!started) {
			first_tick = key_tick(next);
			started = true;
		} else if (key_tick(next) >= first_tick + STEP_TICKS) {
			break;
		}
		if (key_own < key_in) {
			uint64_t limit = MIN(MIN(safe, key_in - 1),
					     ((first_tick + STEP_TICKS) << 16) - 1);

			/* next < horizon (above), so horizon - 1 >= next */
			limit = MIN(limit, horizon - 1);

			/*
			 * Over the bound it waits for its receivers, but not
			 * with events at the key it has just delivered: its
			 * receivers wait for its floor to pass that key.
			 */
			if (key_own > safe ||
			    (key_own != p->last_key &&
			     __atomic_load_n(&p->sent_unread, __ATOMIC_RELAXED) > ps->bound))
				break;
			ss_engine_run_to(p->q, key_tick(limit), key_prio(limit));
			p->last_key = MAX(p->last_key, key_of(p->q->now, p->q->prio_now));
			p->last_src = SRC_OWN;
		} else {
			if (key_in > safe || p->sender_floor[src] <= key_in)
				break;
			if (G_UNLIKELY(key_in < p->last_key)) {
				ss_engine_fail(p->q, g_error_new(SS_ERROR, SS_ERROR_INTERNAL,
					"a message of tick %" G_GUINT64_FORMAT " came after the partition had passed it; run with --threads 1",
					key_tick(key_in)));
				break;
			}
			if (key_own == key_in || (key_in == p->last_key && p->last_src != src)) {
				fail_same_key(p, key_in);
				break;
			}
			ss_engine_advance(p->q, key_tick(key_in), key_prio(key_in));
			deliver_key(ps, p, src, key_in, &used);
			p->last_key = key_in;
			p->last_src = src;
		}
		if (p->out_len >= FLUSH_BYTES)
			flush(ps, p);
	}
	flush(ps, p);
	ss_running_queue = NULL;
	running_part = NULL;
	/* timed batches all of whose messages ran; mostly the oldest first */
	while (p->timed_head && !p->timed_head->live) {
		struct batch *b = p->timed_head;

		p->timed_head = b->next;
		if (!p->timed_head)
			p->timed_tail = NULL;
		b->next = used;
		used = b;
	}

	pthread_mutex_lock(&ps->lock);
	while (used) {
		struct batch *b = used;

		used = b->next;
		if (!b->timed)
			__atomic_sub_fetch(&ps->part[b->src].sent_unread, b->cap,
					   __ATOMIC_RELAXED);
		b->next = ps->spare;
		ps->spare = b;
	}
	pthread_mutex_unlock(&ps->lock);
}

/*
 * The last tick p may run: SKEW_STEPS steps past the slowest of its kind with
 * work (UINT64_MAX when alone).  Reads the others' next_tick unlocked: a
 * stale value only makes p stop early or late, and a stopped p is looked
 * at again under the lock (worker).
 */
static uint64_t kin_cap(const struct part *p)
{
	const struct ss_partitions *ps = parts_of_root(p->q->root);
	uint64_t low = UINT64_MAX;

	for (unsigned i = 0; i < p->n_kin; i++)
		low = MIN(low, __atomic_load_n(&ps->part[p->kin[i]].next_tick,
					       __ATOMIC_RELAXED));
	uint64_t skew = (uint64_t)SKEW_STEPS * ps->free_step;

	return low > UINT64_MAX - skew ? UINT64_MAX : low + skew;
}

/*
 * Under the lock: p's next tick, for its kind's caps: its next event's,
 * or the earliest of what came for it while it ran (a sender's batch
 * holds its messages in the order of their ticks).
 */
static void publish_tick(struct part *p)
{
	uint64_t tick, next = ss_engine_next_tick(p->q, &tick) ? tick : UINT64_MAX;

	for (const struct batch *b = p->in_head; b; b = b->next)
		if (b->len)
			next = MIN(next, key_tick(batch_first_key(b)));
	__atomic_store_n(&p->next_tick, next, __ATOMIC_RELAXED);
}

/*
 * One step of p in a free run: what came for it, then up to
 * ps->free_step of its ticks, stopping early when the batches it sent
 * that its receivers have not taken yet hold more than ps->bound (they
 * will run, and wake it, as their queues hold its batches), when its next
 * tick is past its kind's cap (kin_cap: it is capped, and the end of a
 * step of its kind wakes it), or when the run halts.
 */
static void step(struct ss_partitions *ps, struct part *p)
{
	struct batch *in;

	pthread_mutex_lock(&ps->lock);
	in = p->in_head;
	p->in_head = p->in_tail = NULL;
	pthread_mutex_unlock(&ps->lock);

	running_part = p;
	ss_running_queue = p->q;
	deliver(ps, p, in);
	uint64_t cap = kin_cap(p);

	for (unsigned t = 0; t < ps->free_step && !halted(ps); t++) {
		uint64_t tick;

		if (__atomic_load_n(&p->sent_unread, __ATOMIC_RELAXED) > ps->bound ||
		    !ss_engine_next_tick(p->q, &tick))
			break;
		if (tick > cap) {
			p->capped = true;
			break;
		}
		ss_engine_run(p->q, tick);
		if (p->out_len >= FLUSH_BYTES)
			flush(ps, p);
	}
	flush(ps, p);
	ss_running_queue = NULL;
	running_part = NULL;
}

/*
 * Under the lock: wait a little, unlocked, for work to be queued, before
 * sleeping: partitions in time order hand work to each other every tick,
 * and waking a sleeping thread costs more than such a step.
 */
static bool spin(struct ss_partitions *ps)
{
	bool got = false;

	pthread_mutex_unlock(&ps->lock);
	for (unsigned i = 0; i < SPIN_ROUNDS && !got; i++) {
		got = __atomic_load_n(&ps->queued, __ATOMIC_RELAXED) != 0 ||
		      g_atomic_int_get(&ps->root->halted);
		if (!got)
			__builtin_ia32_pause();
	}
	pthread_mutex_lock(&ps->lock);
	return got;
}

/* Under the lock: the next partition for thread `self`, its own first. */
static struct part *take_ready(struct ss_partitions *ps, struct pool_thread *self)
{
	for (unsigned k = 0; k < ps->threads; k++) {
		struct pool_thread *t = &ps->thread[(self->id + k) % ps->threads];
		struct part *p = t->ready_head;

		if (!p)
			continue;
		t->ready_head = p->next_ready;
		if (!t->ready_head)
			t->ready_tail = NULL;
		__atomic_store_n(&ps->queued, ps->queued - 1, __ATOMIC_RELAXED);
		p->home = self->id;
		return p;
	}
	return NULL;
}

static gpointer worker(gpointer data)
{
	struct pool_thread *self = data;
	struct ss_partitions *ps = self->ps;
	bool spun = false;

	/* any partition, so any read of the trace, may run here */
	ss_interrupt_enter_thread();
	pthread_mutex_lock(&ps->lock);
	for (;;) {
		struct part *p;

		if (ps->done)
			break;
		if (halted(ps)) {
			ps->done = true;
			wake_all(ps);
			break;
		}
		p = take_ready(ps, self);
		if (!p) {
			if (!ps->running) {
				ps->done = true;
				wake_all(ps);
				break;
			}
			/* everything is checked again after the spin */
			if (!spun) {
				spin(ps);
				spun = true;
				continue;
			}
			spun = false;
			self->idle = true;
			pthread_cond_wait(&self->cond, &ps->lock);
			self->idle = false;
			continue;
		}
		spun = false;
		p->state = PART_RUNNING;
		ps->running++;
		pthread_mutex_unlock(&ps->lock);

		gint64 t0 = g_get_monotonic_time();

		if (ps->ordered)
			step_ordered(ps, p);
		else
			step(ps, p);
		p->steps++;
		p->busy_us += g_get_monotonic_time() - t0;

		pthread_mutex_lock(&ps->lock);
		ps->running--;
		p->state = PART_IDLE;
		if (halted(ps)) {
			ps->done = true;
			wake_all(ps);
			break;
		}
		if (ps->ordered) {
			publish(ps, p);
			wake_ordered(ps);
			continue;
		}
		/*
		 * Work left: its inbox, or events it may run (not over the
		 * bound; over it, a receiver's delivery wakes it; not past
		 * its kind's cap, looked at again here, under the lock; past
		 * it, the end of a step of its kind wakes it).
		 */
		publish_tick(p);
		if (p->capped && !p->in_head && p->next_tick <= kin_cap(p))
			p->capped = false;
		if (p->in_head ||
		    (ss_engine_pending(p->q) && !p->capped &&
		     __atomic_load_n(&p->sent_unread, __ATOMIC_RELAXED) <= ps->bound))
			make_ready(ps, p);
		else if (ss_engine_pending(p->q) && !p->capped)
			p->over_bound = true;
		for (unsigned i = 0; i < p->n_kin; i++) {
			struct part *k = &ps->part[p->kin[i]];

			if (k->state == PART_IDLE && k->capped && k->next_tick <= kin_cap(k)) {
				k->capped = false;
				make_ready(ps, k);
			}
		}
	}
	pthread_mutex_unlock(&ps->lock);
	ss_interrupt_leave_thread();
	return NULL;
}

/* ---- the run's side ------------------------------------------------------- */

/* Whether nothing in c's own partition sends to c: only then does a
 * promise of c's hold until a message from another partition. */
static bool may_promise(struct ss_component *c)
{
	for (unsigned g = 0; g < c->n_port_groups; g++)
		for (unsigned k = 0; k < c->port_groups[g].n; k++) {
			struct ss_port *q = &c->port_groups[g].ports[k];

			if (q->bound && q->peer_comp->part == c->part && end_sends(q->peer))
				return false;
		}
	return true;
}

/* Each partition's quiet_groups (struct part). */
static void plan_promises(struct ss_engine *e, struct ss_partitions *ps)
{
	unsigned n = ps->n;
	bool *cannot = g_new0(bool, (size_t)n * n);

	for (unsigned i = 0; i < n; i++)
		ps->part[i].quiet_groups = g_new0(GPtrArray *, n);
	FOR_EACH_LINK_END(e, i, c, pt) {
		unsigned to = pt->peer_comp->part;
		struct ss_port_group *g;
		GPtrArray **gs = &ps->part[c->part].quiet_groups[to];

		if (to == c->part || !end_sends(pt) || cannot[(size_t)c->part * n + to])
			continue;
		g = group_of(pt);
		if (!g || !may_promise(c)) {
			cannot[(size_t)c->part * n + to] = true;
			g_clear_pointer(gs, g_ptr_array_unref);
			continue;
		}
		if (!*gs)
			*gs = g_ptr_array_new();
		if (!g_ptr_array_find(*gs, g, NULL))
			g_ptr_array_add(*gs, g);
	}
	for (unsigned i = 0; i < n; i++)
		ps->part[i].quiet_to = g_new0(uint64_t, n);
	g_free(cannot);
	/* inert promises: every group a sender reaches must make one */
	for (unsigned i = 0; i < n; i++)
		ps->part[i].entry_groups = g_new0(GPtrArray *, n);
	FOR_EACH_LINK_END(e, i, c, pt) {
		struct ss_port_group *g = group_of(pt);
		GPtrArray **gs = &ps->part[c->part].entry_groups[pt->peer_comp->part];

		if (pt->peer_comp->part == c->part || !end_sends(pt->peer))
			continue;
		if (!*gs)
			*gs = g_ptr_array_new();
		/* NULL, an end of no component's group, is never inert */
		if (!g_ptr_array_find(*gs, g, NULL))
			g_ptr_array_add(*gs, g);
	}
}

static struct ss_partitions *parts_of_root(struct ss_engine *e)
{
	return e->root->parts;
}

void ss_partition_prepare(struct ss_engine *e, unsigned n_parts)
{
	struct ss_partitions *ps = g_new0(struct ss_partitions, 1);

	ps->root = e;
	ps->n = n_parts;
	ps->part = g_new0(struct part, n_parts);
	ps->ordered = plan_is_ordered(e);
	ps->floor = g_new(uint64_t, n_parts);
	ps->inb = g_new(uint64_t, n_parts);
	ps->timed_queued = g_new0(bool, n_parts);
	ps->horizon = KEY_NONE;
	for (unsigned i = 0; i < n_parts; i++) {
		struct part *p = &ps->part[i];

		p->id = i;
		p->q = ss_engine_new_queue(e);
		p->q->prio_now = INT16_MIN;	/* xstart's sends: before any event */
		p->out = g_new0(struct batch *, n_parts);
		p->out_timed = g_new0(struct batch *, n_parts);
		p->head = KEY_NONE;
		p->in_first = g_new(uint64_t, n_parts);
		p->in_first_t = g_new(uint64_t, n_parts);
		p->lat_from = g_new(uint64_t, n_parts);
		p->lat_min = g_new(uint64_t, n_parts);
		for (unsigned j = 0; j < n_parts; j++) {
			p->in_first[j] = p->in_first_t[j] = KEY_NONE;
			p->lat_from[j] = p->lat_min[j] = UINT64_MAX;
		}
		p->pend = g_new0(struct pending, n_parts);
		p->sender_floor = g_new(uint64_t, n_parts);
		p->senders = g_new(unsigned, n_parts);
		p->delay_from = g_new(uint64_t, n_parts);
		p->inert_from = g_new0(bool, n_parts);
		p->last_src = SRC_OWN;
	}
	if (ps->ordered) {
		uint64_t *delay = g_new(uint64_t, n_parts);
		bool *sends = g_new0(bool, (size_t)n_parts * n_parts);

		FOR_EACH_LINK_END(e, i, c, pt)
			if (pt->peer_comp->part != c->part && end_sends(pt)) {
				struct part *to = &ps->part[pt->peer_comp->part];

				sends[(size_t)c->part * n_parts + pt->peer_comp->part] = true;
				to->lat_from[c->part] = MIN(to->lat_from[c->part], pt->latency);
				if (pt->latency)
					to->lat_min[c->part] = MIN(to->lat_min[c->part], pt->latency);
			}
		for (unsigned j = 0; j < n_parts; j++) {
			part_delays(e, n_parts, j, delay);
			for (unsigned i = 0; i < n_parts; i++)
				if (sends[(size_t)j * n_parts + i]) {
					struct part *p = &ps->part[i];

					p->senders[p->n_senders++] = j;
					p->delay_from[j] = delay[i];
				}
		}
		g_free(sends);
		g_free(delay);
		plan_promises(e, ps);
	}
	if (!ps->ordered) {
		/* free runs: each partition's kin, for the skew cap (kin_cap) */
		char **kind = g_new(char *, n_parts);

		for (unsigned i = 0; i < n_parts; i++)
			kind[i] = part_kind(e, i, true);
		for (unsigned i = 0; i < n_parts; i++) {
			struct part *p = &ps->part[i];

			p->kin = g_new(unsigned, n_parts);
			for (unsigned j = 0; j < n_parts; j++)
				if (j != i && !strcmp(kind[i], kind[j]))
					p->kin[p->n_kin++] = j;
		}
		for (unsigned i = 0; i < n_parts; i++)
			g_free(kind[i]);
		g_free(kind);
	}
	pthread_mutex_init(&ps->lock, NULL);
	e->parts = ps;
	cut_links(e);
}

void ss_partition_enter(struct ss_component *c)
{
	struct ss_partitions *ps = parts_of_root(c->engine);

	running_part = ps ? &ps->part[c->part] : NULL;
	ss_running_queue = ps ? ps->part[c->part].q : NULL;
	if (ps)
		ps->part[c->part].q->prio_now = INT16_MIN;
}

void ss_partition_leave(void)
{
	running_part = NULL;
	ss_running_queue = NULL;
}

/*
 * Run every partition with events or messages until none has any, the run
 * halts (a stop, a failure, Ctrl-C), on this thread and threads - 1 more.
 */
void ss_partition_run(struct ss_engine *e, unsigned threads)
{
	struct ss_partitions *ps = e->parts;
	GThread **pool;
	unsigned n_extra = MIN(threads, ps->n) - 1;

	ps->threads = n_extra + 1;
	ps->free_step = MIN(STEP_TICKS, FREE_STEP_TICKS_PER_THREAD * ps->threads);
	ps->bound = ps->ordered ? BOUND_ORDERED : BOUND;
	if (ps->threads > 2)
		ps->bound = MAX(BOUND_MIN, ps->bound * 2 / ps->threads);
	ps->thread = g_new0(struct pool_thread, ps->threads);
	for (unsigned t = 0; t < ps->threads; t++) {
		ps->thread[t].ps = ps;
		ps->thread[t].id = t;
		pthread_cond_init(&ps->thread[t].cond, NULL);
	}
	for (unsigned i = 0; i < ps->n; i++)
		ps->part[i].home = i % ps->threads;
	/* what xstart sent over cut links */
	for (unsigned i = 0; i < ps->n; i++)
		flush(ps, &ps->part[i]);
	pthread_mutex_lock(&ps->lock);
	if (ps->ordered) {
		for (unsigned i = 0; i < ps->n; i++)
			publish(ps, &ps->part[i]);
		wake_ordered(ps);
	} else {
		for (unsigned i = 0; i < ps->n; i++)
			publish_tick(&ps->part[i]);
		for (unsigned i = 0; i < ps->n; i++)
			if (ss_engine_pending(ps->part[i].q))
				make_ready(ps, &ps->part[i]);
	}
	pthread_mutex_unlock(&ps->lock);

	/*
	 * GLib sets up its error domains' lock at the first GError, with an
	 * atomic that ThreadSanitizer does not see: partitions failing at
	 * once would look like a race.  One error now, before the threads.
	 */
	g_error_free(g_error_new_literal(SS_ERROR, SS_ERROR_INTERNAL, ""));
	pool = g_new0(GThread *, n_extra + 1);
	gint64 start = g_get_monotonic_time();

	for (unsigned i = 0; i < n_extra; i++)
		pool[i] = g_thread_new("sectorsim-worker", worker, &ps->thread[i + 1]);
	worker(&ps->thread[0]);
	for (unsigned i = 0; i < n_extra; i++)
		g_thread_join(pool[i]);
	ps->run_us = g_get_monotonic_time() - start;
	g_free(pool);
	/* work left that no partition could take: the floors are wrong */
	if (ps->ordered && !halted(ps) && ps->horizon == KEY_NONE)
		for (unsigned i = 0; i < ps->n; i++) {
			struct part *p = &ps->part[i];
			bool left = ss_engine_pending(p->q) || p->in_head;

			for (unsigned j = 0; j < p->n_senders; j++)
				left |= p->pend[p->senders[j]].head != NULL;
			if (left) {
				ss_engine_fail(e, g_error_new(SS_ERROR, SS_ERROR_INTERNAL,
					"partition %u of %u was left with work that no floor let run; run with --threads 1",
					i, ps->n));
				break;
			}
		}
	for (unsigned i = 0; i < ps->n; i++) {
		e->events_run += ps->part[i].q->events_run;
		e->now = MAX(e->now, ps->part[i].q->now);
	}
}

uint64_t ss_partition_fail_rank(void)
{
	struct part *p = running_part;

	if (!p)
		return UINT64_MAX;
	if (!parts_of_root(p->q->root)->ordered)
		return p->id;
	return p->q->now > KEY_TICK_MAX ? KEY_NONE - 1 : key_of(p->q->now, p->q->prio_now);
}

bool ss_partition_failed(struct ss_engine *e)
{
	struct part *p = running_part;
	struct ss_partitions *ps = parts_of_root(e);

	if (!p || !ps || !ps->ordered)
		return false;
	uint64_t key = ss_partition_fail_rank(), h = __atomic_load_n(&ps->horizon, __ATOMIC_RELAXED);

	/* nothing after the failing event runs here: its queue stops now */
	p->failed = true;
	p->q->stop = true;
	while (key < h && !__atomic_compare_exchange_n(&ps->horizon, &h, key, false,
						       __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	return true;
}

unsigned ss_engine_partitions(const struct ss_engine *e)
{
	return e->root->parts ? e->root->parts->n : 1;
}

unsigned ss_engine_threads(const struct ss_engine *e)
{
	return e->root->parts ? e->root->parts->threads : 1;
}

/* Events still queued in any partition (a halted run). */
size_t ss_partition_pending(struct ss_engine *e)
{
	size_t n = 0;

	if (e->parts)
		for (unsigned i = 0; i < e->parts->n; i++)
			n += ss_engine_pending(e->parts->part[i].q);
	return n;
}

/* The index range an array's run of instances began, closed: "[3]" or
 * "[0..39]" (hi < 0: a component outside an array). */
static void range_close(GString *out, int lo, int hi)
{
	if (hi < 0)
		return;
	if (lo == hi)
		g_string_append_printf(out, "[%d]", lo);
	else
		g_string_append_printf(out, "[%d..%d]", lo, hi);
}

char *ss_partition_names(const struct ss_engine *e, unsigned part)
{
	GString *out = g_string_new(NULL);
	const char *open = NULL;	/* the base name of the run open */
	int lo = -1, hi = -1;

	for (guint i = 0; i < e->root->components->len; i++) {
		const struct ss_component *c = e->root->components->pdata[i];

		if (c->part != part)
			continue;
		/* base[i] after base[i - 1] widens its run */
		if (hi >= 0 && c->index == hi + 1 && !strcmp(c->base, open)) {
			hi = c->index;
			continue;
		}
		range_close(out, lo, hi);
		g_string_append_printf(out, "%s%s", out->len ? ", " : "", c->base);
		open = c->base;
		lo = hi = c->index;
	}
	range_close(out, lo, hi);
	return g_string_free(out, FALSE);
}

bool ss_engine_busiest_partition(const struct ss_engine *e, double *busy_s,
				 double *run_s, char **names)
{
	const struct ss_partitions *ps = e->root->parts;
	const struct part *best = NULL;

	if (!ps || ps->n < 2)
		return false;
	for (unsigned i = 0; i < ps->n; i++)
		if (!best || ps->part[i].busy_us > best->busy_us)
			best = &ps->part[i];
	*busy_s = best->busy_us / 1e6;
	*run_s = ps->run_us / 1e6;
	*names = ss_partition_names(e, best->id);
	return true;
}

uint64_t ss_partition_steps(struct ss_engine *e, const struct ss_component *c)
{
	return e->parts ? e->parts->part[c->part].steps : 0;
}

static void free_batches(struct batch *b)
{
	while (b) {
		struct batch *next = b->next;

		g_free(b->data);
		g_free(b);
		b = next;
	}
}

void ss_partition_free(struct ss_engine *e)
{
	struct ss_partitions *ps = e->parts;

	if (!ps)
		return;
	for (unsigned i = 0; i < ps->n; i++) {
		struct part *p = &ps->part[i];

		free_batches(p->in_head);
		for (unsigned d = 0; d < ps->n; d++) {
			free_batches(p->out[d]);
			free_batches(p->out_timed[d]);
			free_batches(p->pend[d].head);
		}
		/* a halted run's undelivered timed messages die with the queue */
		free_batches(p->timed_head);
		g_free(p->out);
		g_free(p->out_timed);
		g_free(p->in_first);
		g_free(p->in_first_t);
		g_free(p->lat_from);
		g_free(p->lat_min);
		g_free(p->pend);
		g_free(p->sender_floor);
		for (unsigned r = 0; p->quiet_groups && r < ps->n; r++)
			if (p->quiet_groups[r])
				g_ptr_array_unref(p->quiet_groups[r]);
		g_free(p->quiet_groups);
		g_free(p->quiet_to);
		for (unsigned r = 0; p->entry_groups && r < ps->n; r++)
			if (p->entry_groups[r])
				g_ptr_array_unref(p->entry_groups[r]);
		g_free(p->entry_groups);
		g_free(p->inert_from);
		g_free(p->senders);
		g_free(p->delay_from);
		g_free(p->kin);
		ss_engine_free_queue(p->q);
	}
	free_batches(ps->spare);
	g_free(ps->floor);
	g_free(ps->inb);
	g_free(ps->timed_queued);
	pthread_mutex_destroy(&ps->lock);
	for (unsigned t = 0; ps->thread && t < ps->threads; t++)
		pthread_cond_destroy(&ps->thread[t].cond);
	g_free(ps->thread);
	g_free(ps->part);
	g_free(ps);
	e->parts = NULL;
}
