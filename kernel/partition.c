/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Running one simulation on several threads with the results of one
 * (`--threads`; doc/INTERNALS.md, "Partitions").
 *
 * The components fall into partitions: a link joins its two ends into one
 * partition unless the components' port promises (SS_PORT_*, component.h)
 * say that no message on it depends on when it is received.  Such a link
 * is cut: its messages go into a queue instead of a call.  Each partition
 * has an event queue of its own (an engine whose root is the run's) and
 * its own clock; a pool of threads runs whichever partitions have work, a
 * partition on one thread at a time.  A step of a partition delivers what
 * came for it, in order per sending partition, then runs its next ticks;
 * what it sent over cut links leaves as a batch at a tick's end, so the
 * messages of one tick arrive together.  The run ends when no partition
 * has an event, a message waiting or a step under way, or when a
 * component stops or fails the run.
 *
 * The results do not depend on the thread count because nothing does but
 * the order of each link's messages and their grouping by tick, which the
 * queues keep; which partition runs when, and how far each clock runs
 * ahead, is left to the pool.  A sender that runs far ahead of its
 * receiver waits (BOUND bytes), delivering what comes for it meanwhile,
 * so memory stays bounded and no two partitions can wait for each other.
 */
#include "config.h"

#include <pthread.h>
#include <string.h>
#include "internal.h"

/*
 * A step runs at most STEP_TICKS ticks, so that the partitions of a kind
 * (the SMs) advance together through the pool's queue and a receiver that
 * serves them in turn (a round-robin merge) holds little of any of them.
 */
#define STEP_TICKS 16
#define FLUSH_BYTES (64 * 1024)		/* a batch leaves early from this size */
#define BOUND (256u * 1024)		/* a sender's undelivered bytes before it waits */

/* A message in a batch: the port it is for, then the message itself. */
struct cut_rec {
	struct ss_port *in;
	uint32_t size;
	uint32_t pad;
};

struct batch {
	struct batch *next;
	unsigned src;			/* the sending partition */
	size_t len, cap;
	unsigned char *data;		/* cut_rec + message, 8-byte aligned */
};

enum part_state { PART_IDLE, PART_QUEUED, PART_RUNNING };

struct part {
	struct ss_engine *q;		/* its events; q->root is the run's engine */
	unsigned id;
	/* the sender's own, touched by its step only */
	struct batch **out;		/* one being filled per destination, or NULL */
	size_t out_len;			/* bytes in them */
	/* under the run's lock */
	struct batch *in_head, *in_tail;	/* arrived, in arrival order */
	size_t sent_unread;		/* bytes it sent not yet delivered (atomic) */
	bool over_bound;		/* waits for its receivers to read */
	enum part_state state;
	struct part *next_ready;
};

struct ss_partitions {
	struct ss_engine *root;
	unsigned n;
	struct part *part;
	pthread_mutex_t lock;
	pthread_cond_t cond;		/* work queued, or the run ended */
	struct part *ready_head, *ready_tail;
	unsigned running;		/* steps under way */
	unsigned threads;		/* the pool's, the caller's included */
	bool done;
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

static bool link_is_cut(struct ss_port *p)
{
	struct ss_port_group *a = group_of(p), *b = group_of(p->peer);

	return a && b && !((a->flags | b->flags) & SS_PORT_JOINED) &&
		direction_free(a, b) && direction_free(b, a);
}

/*
 * Every component's partition (c->part), numbered in order of each
 * partition's first component; returns how many.
 */
unsigned ss_partition_plan(struct ss_engine *e)
{
	unsigned n = e->components->len, n_parts = 0;
	unsigned *up = g_new(unsigned, n), *num = g_new(unsigned, n);

	for (unsigned i = 0; i < n; i++) {
		struct ss_component *c = e->components->pdata[i];

		up[i] = i;
		c->part = i;	/* its index, until numbered below */
	}
	for (unsigned i = 0; i < n; i++) {
		struct ss_component *c = e->components->pdata[i];

		for (unsigned g = 0; g < c->n_port_groups; g++)
			for (unsigned k = 0; k < c->port_groups[g].n; k++) {
				struct ss_port *p = &c->port_groups[g].ports[k];

				if (!p->bound || link_is_cut(p))
					continue;
				unsigned a = uf_find(up, i),
					 b = uf_find(up, p->peer_comp->part);
				up[MAX(a, b)] = MIN(a, b);
			}
	}
	for (unsigned i = 0; i < n; i++)
		num[i] = UINT_MAX;
	for (unsigned i = 0; i < n; i++) {
		unsigned r = uf_find(up, i);

		if (num[r] == UINT_MAX)
			num[r] = n_parts++;
	}
	for (unsigned i = 0; i < n; i++)
		((struct ss_component *)e->components->pdata[i])->part =
			num[uf_find(up, i)];
	g_free(up);
	g_free(num);
	return n_parts;
}

/* ---- cut links ------------------------------------------------------------ */

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
		b->cap = FLUSH_BYTES + 16 * (sizeof(struct cut_rec) + SS_MSG_MAX);
		b->data = g_malloc(b->cap);
	}
	b->next = NULL;
	b->len = 0;
	return b;
}

/* The receive function of a cut link's ends: into the sender's batch. */
static void cut_recv(struct ss_component *to, struct ss_port *in,
		     const struct ss_msg *m)
{
	struct part *from = running_part;
	struct ss_partitions *ps = parts_of_root(to->engine);
	struct batch **bp;
	size_t need = sizeof(struct cut_rec) + ((m->size + 7u) & ~(size_t)7);

	if (G_UNLIKELY(!from)) {
		/* outside the run (xfinish): every partition is still */
		to->type->ops->xrecv(to, in, m);
		return;
	}
	if (G_UNLIKELY(m->size < sizeof(*m) || m->size > SS_MSG_MAX)) {
		ss_component_fail(to, SS_ERROR_INTERNAL,
				  "%s: a message of %u bytes cannot cross threads (at most %d); run with --threads 1",
				  in->desc->name, m->size, SS_MSG_MAX);
		return;
	}
	bp = &from->out[to->part];
	if (!*bp) {
		*bp = batch_get(ps);
		(*bp)->src = from->id;
	}
	struct batch *b = *bp;

	if (b->len + need > b->cap) {
		while (b->len + need > b->cap)
			b->cap *= 2;
		b->data = g_realloc(b->data, b->cap);
	}
	struct cut_rec *r = (struct cut_rec *)(void *)(b->data + b->len);

	r->in = in;
	r->size = m->size;
	memcpy(r + 1, m, m->size);
	b->len += need;
	from->out_len += need;
}

/* Every cut link's two ends send through cut_recv, at once. */
static void cut_links(struct ss_engine *e)
{
	for (guint i = 0; i < e->components->len; i++) {
		struct ss_component *c = e->components->pdata[i];

		for (unsigned g = 0; g < c->n_port_groups; g++)
			for (unsigned k = 0; k < c->port_groups[g].n; k++) {
				struct ss_port *p = &c->port_groups[g].ports[k];

				if (p->bound && p->peer_comp->part != c->part) {
					p->peer_recv = cut_recv;
					p->latency = 0;
				}
			}
	}
}

/* ---- the pool ------------------------------------------------------------- */

/* Under the lock: p has work; queue it unless it is queued or running. */
static void make_ready(struct ss_partitions *ps, struct part *p)
{
	if (p->state != PART_IDLE)
		return;
	p->state = PART_QUEUED;
	p->next_ready = NULL;
	if (ps->ready_tail)
		ps->ready_tail->next_ready = p;
	else
		ps->ready_head = p;
	ps->ready_tail = p;
	pthread_cond_signal(&ps->cond);
}

/* Hand the batches p filled to their partitions. */
static void flush(struct ss_partitions *ps, struct part *p)
{
	if (!p->out_len)
		return;
	pthread_mutex_lock(&ps->lock);
	for (unsigned d = 0; d < ps->n; d++) {
		struct batch *b = p->out[d];
		struct part *to = &ps->part[d];

		if (!b)
			continue;
		p->out[d] = NULL;
		if (to->in_tail)
			to->in_tail->next = b;
		else
			to->in_head = b;
		to->in_tail = b;
		__atomic_add_fetch(&p->sent_unread, b->len, __ATOMIC_RELAXED);
		make_ready(ps, to);
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
static void deliver(struct ss_partitions *ps, struct batch *list)
{
	while (list) {
		struct batch *b = list;

		list = b->next;
		for (size_t at = 0; at < b->len && !halted(ps);) {
			struct cut_rec *r = (struct cut_rec *)(void *)(b->data + at);
			struct ss_port *in = r->in;

			in->owner->type->ops->xrecv(in->owner, in,
						    (const struct ss_msg *)(void *)(r + 1));
			at += sizeof(*r) + ((r->size + 7u) & ~(size_t)7);
		}
		pthread_mutex_lock(&ps->lock);
		struct part *src = &ps->part[b->src];

		size_t left = __atomic_sub_fetch(&src->sent_unread, b->len,
						 __ATOMIC_RELAXED);

		if (src->over_bound && left <= BOUND / 2) {
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

/*
 * One step of p: what came for it, then up to STEP_TICKS of its ticks,
 * stopping early when it has sent BOUND bytes its receivers have not
 * taken yet (they will run, and wake it, as their queues hold its
 * batches) or when the run halts.
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
	deliver(ps, in);
	for (unsigned t = 0; t < STEP_TICKS && !halted(ps); t++) {
		uint64_t tick;

		if (__atomic_load_n(&p->sent_unread, __ATOMIC_RELAXED) > BOUND ||
		    !ss_engine_next_tick(p->q, &tick))
			break;
		ss_engine_run(p->q, tick);
		if (p->out_len >= FLUSH_BYTES)
			flush(ps, p);
	}
	flush(ps, p);
	ss_running_queue = NULL;
	running_part = NULL;
}

static gpointer worker(gpointer data)
{
	struct ss_partitions *ps = data;

	pthread_mutex_lock(&ps->lock);
	for (;;) {
		struct part *p = ps->ready_head;

		if (ps->done)
			break;
		if (halted(ps)) {
			ps->done = true;
			pthread_cond_broadcast(&ps->cond);
			break;
		}
		if (!p) {
			if (!ps->running) {
				ps->done = true;
				pthread_cond_broadcast(&ps->cond);
				break;
			}
			pthread_cond_wait(&ps->cond, &ps->lock);
			continue;
		}
		ps->ready_head = p->next_ready;
		if (!ps->ready_head)
			ps->ready_tail = NULL;
		p->state = PART_RUNNING;
		ps->running++;
		pthread_mutex_unlock(&ps->lock);

		step(ps, p);

		pthread_mutex_lock(&ps->lock);
		ps->running--;
		p->state = PART_IDLE;
		if (halted(ps)) {
			ps->done = true;
			pthread_cond_broadcast(&ps->cond);
			break;
		}
		/*
		 * Work left: its inbox, or events it may run (not over the
		 * bound; over it, a receiver's delivery wakes it).
		 */
		if (p->in_head ||
		    (ss_engine_pending(p->q) &&
		     __atomic_load_n(&p->sent_unread, __ATOMIC_RELAXED) <= BOUND))
			make_ready(ps, p);
		else if (ss_engine_pending(p->q))
			p->over_bound = true;
	}
	pthread_mutex_unlock(&ps->lock);
	return NULL;
}

/* ---- the run's side ------------------------------------------------------- */

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
	for (unsigned i = 0; i < n_parts; i++) {
		ps->part[i].id = i;
		ps->part[i].q = ss_engine_new_queue(e);
		ps->part[i].out = g_new0(struct batch *, n_parts);
	}
	pthread_mutex_init(&ps->lock, NULL);
	pthread_cond_init(&ps->cond, NULL);
	e->parts = ps;
	cut_links(e);
}

void ss_partition_enter(struct ss_component *c)
{
	struct ss_partitions *ps = parts_of_root(c->engine);

	running_part = ps ? &ps->part[c->part] : NULL;
	ss_running_queue = ps ? ps->part[c->part].q : NULL;
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
	pthread_mutex_lock(&ps->lock);
	for (unsigned i = 0; i < ps->n; i++)
		if (ss_engine_pending(ps->part[i].q) || ps->part[i].out_len)
			make_ready(ps, &ps->part[i]);
	pthread_mutex_unlock(&ps->lock);
	/* what xstart sent over cut links */
	for (unsigned i = 0; i < ps->n; i++)
		flush(ps, &ps->part[i]);

	pool = g_new0(GThread *, n_extra + 1);
	for (unsigned i = 0; i < n_extra; i++)
		pool[i] = g_thread_new("sectorsim-worker", worker, ps);
	worker(ps);
	for (unsigned i = 0; i < n_extra; i++)
		g_thread_join(pool[i]);
	g_free(pool);
	for (unsigned i = 0; i < ps->n; i++) {
		e->events_run += ps->part[i].q->events_run;
		e->now = MAX(e->now, ps->part[i].q->now);
	}
}

unsigned ss_partition_running(void)
{
	return running_part ? running_part->id : UINT_MAX;
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
		for (unsigned d = 0; d < ps->n; d++)
			free_batches(p->out[d]);
		g_free(p->out);
		ss_engine_free_queue(p->q);
	}
	free_batches(ps->spare);
	pthread_mutex_destroy(&ps->lock);
	pthread_cond_destroy(&ps->cond);
	g_free(ps->part);
	g_free(ps);
	e->parts = NULL;
}
