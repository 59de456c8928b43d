/* SPDX-License-Identifier: BSD-3-Clause */
/* What the kernel's files share with one another and with its tests. */
#ifndef SS_KERNEL_INTERNAL_H
#define SS_KERNEL_INTERNAL_H

#include <stdio.h>
#include <sectorsim/sectorsim.h>

/*
 * The event queue is a timing wheel for the near future plus a heap for the
 * rest.  Simulations schedule almost everything a few ticks ahead, so most
 * events go to the wheel slot of their tick.  A slot holds one FIFO run per
 * priority, runs sorted by priority: scheduling appends to a run (finding it
 * is one comparison in the common case of non-decreasing priorities), and a
 * dispatch takes the head of the first run.  FIFO within a run is exactly the
 * sequence order.  Events WHEEL_SLOTS or more ticks ahead wait in the heap
 * and join the wheel, in key order, when time comes within reach.
 */
#define WHEEL_BITS 12
#define WHEEL_SLOTS (1u << WHEEL_BITS)
#define WHEEL_MASK (WHEEL_SLOTS - 1)
#define NODE_NIL UINT32_MAX

struct ss_node {		/* pooled; linked by index so the pool can grow */
	ss_event_fn fn;
	void *data;
	uint32_t next;
};

struct ss_run {
	int32_t prio;
	uint32_t head, tail;
};

struct ss_slot {
	struct ss_run *runs;
	uint32_t first, n, cap;	/* live runs are [first, n) */
};

/* A far event: the key packs tick:64 | order:64 into one comparison. */
struct ss_event {
	unsigned __int128 key;
	ss_event_fn fn;
	void *data;
};

/*
 * A message held back by a link with latency, waiting in the queue, in a
 * record of one of two sizes (held.c): SS_HELD_SMALL bytes of message, or
 * SS_MSG_MAX.
 */
struct ss_held_msg {
	struct ss_held_msg *next_free;
	struct ss_port *src;	/* the sending end: delivered through its peer_recv */
	bool large;		/* the record holds SS_MSG_MAX bytes */
	_Alignas(8) unsigned char msg[];	/* a struct ss_msg and what follows */
};

/* The message bytes of a small record: what most messages take. */
#define SS_HELD_SMALL 64

struct ss_stat_entry;
struct ss_stats;

struct ss_engine {
	/*
	 * The run's engine, whose services (components, statistics, errors,
	 * options) every component reaches through c->engine; itself for
	 * that engine.  A partition (partition.c) has an engine of its own
	 * for its events and held messages only, whose root is the run's.
	 */
	struct ss_engine *root;
	struct ss_slot wheel[WHEEL_SLOTS];
	uint64_t wheel_map[WHEEL_SLOTS / 64];	/* non-empty slots */
	size_t n_wheel;
	struct ss_node *nodes;
	uint32_t n_nodes, free_node;
	struct ss_event *heap;
	size_t n_events, cap_events;		/* the far heap */
	uint64_t now;
	int32_t prio_now;			/* of the event running, or the message delivered */
	uint64_t seq;
	uint64_t events_run;
	bool stop;

	struct ss_held_msg *held_free[2];	/* small records, large ones */
	GPtrArray *held_slabs;
	size_t held_total;

	GPtrArray *components;		/* struct ss_component *, creation order */
	GHashTable *by_name;		/* "l1[3]" -> struct ss_component * */
	struct ss_stats *stats;
	GError *failure;		/* the first ss_engine_fail() */
	struct ss_run_state *run;	/* runopts.c; NULL until used */
	uint64_t claimed_bytes;		/* ss_engine_claim_memory's account */
	uint64_t memory_limit;		/* [simulation] memory; 0: the machine's */
	int halted;			/* stop or failure, for every partition (atomic) */
	uint64_t failure_rank;		/* of the failure kept (see ss_engine_fail) */
	struct ss_partitions *parts;	/* partition.c; NULL: one queue, this one */
	GHashTable *thread_group;	/* component -> interned thread_group name */
};

/*
 * The queue of the partition this thread runs now (partition.c), NULL
 * outside a partitioned run: ss_schedule, ss_engine_now and held messages
 * act on it, so a component's events stay in its own partition whatever
 * engine pointer it passes.
 */
extern __thread struct ss_engine *ss_running_queue
	__attribute__((tls_model("initial-exec")));

static inline struct ss_engine *ss_queue_of(struct ss_engine *e)
{
	struct ss_engine *q = ss_running_queue;

	return G_UNLIKELY(q != NULL) ? q : e;
}

/* engine.c: a partition's queue, and the tick of its next event */
struct ss_engine *ss_engine_new_queue(struct ss_engine *root);
void ss_engine_free_queue(struct ss_engine *q);
bool ss_engine_next_tick(const struct ss_engine *q, uint64_t *tick);
/* the (tick, priority) of its next event; run events up to one; move its
 * clock to a message's (tick, priority) */
bool ss_engine_next_key(const struct ss_engine *q, uint64_t *tick,
			int32_t *prio);
uint64_t ss_engine_run_to(struct ss_engine *q, uint64_t tick, int32_t prio);
void ss_engine_advance(struct ss_engine *q, uint64_t tick, int32_t prio);

/*
 * partition.c: the components' partitions (c->part; returns how many),
 * their queues and cut links, the thread a component's xstart runs as
 * (enter / leave), the run on up to `threads` threads, what it left.
 */
unsigned ss_partition_plan(struct ss_engine *e, unsigned threads);
void ss_partition_prepare(struct ss_engine *e, unsigned n_parts);
/* thread_group = NAME: components of one name share a partition, apart
 * from the rest */
void ss_partition_set_group(struct ss_component *c, const char *interned);
void ss_partition_enter(struct ss_component *c);
void ss_partition_leave(void);
void ss_partition_run(struct ss_engine *e, unsigned threads);
/* A send on a link with latency between partitions, `delay` ticks on;
 * false outside the run, where it is held as on one queue. */
bool ss_partition_send_timed(struct ss_port *p, const struct ss_msg *m, uint64_t delay);
size_t ss_partition_pending(struct ss_engine *e);
/* Steps run by the partition of component c (0 on one queue), for tests:
 * how far a partition could run at a time shows in how many it took. */
uint64_t ss_partition_steps(struct ss_engine *e, const struct ss_component *c);
/* Partition `part`'s components, named as in the configuration, each
 * run of consecutive instances as one range: "sm[0..39], l1[0..39]". */
char *ss_partition_names(const struct ss_engine *e, unsigned part);
/* runopts.c: whether every instance's type has every bit of `flags` */
bool ss_engine_every_type_has_flag(const struct ss_engine *e, unsigned flags);
/* ss_engine_fail's: the rank of a failure now, and a time-ordered run's
 * going on below it (false: the run must stop) */
uint64_t ss_partition_fail_rank(void);
bool ss_partition_failed(struct ss_engine *e);
void ss_partition_free(struct ss_engine *e);
void ss_run_free(struct ss_engine *e);	/* runopts.c */

/* stats.c */
struct ss_stats *ss_stats_new(void);
void ss_stats_free(struct ss_stats *s);
void ss_stats_register_table(struct ss_component *c);
enum ss_stats_format { SS_STATS_TEXT, SS_STATS_JSON, SS_STATS_CSV };
/* Every phase's statistics, or (globs, NULL-terminated) those whose name
 * one of the shell patterns matches. */
void ss_stats_write(struct ss_engine *e, enum ss_stats_format f, FILE *out,
		    const char *const *globs);
void ss_stats_reset(struct ss_engine *e);
/* Current value of a statistic or an aggregate ("l1.hits", "l1[2].hits"). */
bool ss_stats_lookup(struct ss_engine *e, const char *name, double *value);
/* Value in phase `phase` (0-based). */
bool ss_stats_lookup_phase(struct ss_engine *e, unsigned phase,
			   const char *name, double *value);
unsigned ss_stats_n_phases(struct ss_engine *e);
/* Strip every [..] from a name: "l2.slice[3].x" -> "l2.slice.x". */
char *ss_stats_group_name(const char *name);
gboolean ss_stat_sum_matches(const char *globs, const char *name);

/* instance.c */
struct ss_component *ss_engine_add_component(struct ss_engine *e,
	const struct ss_component_type *t, const char *base, int index,
	unsigned array_size);
struct ss_component *ss_engine_component(struct ss_engine *e, const char *name);
/* Destroy every component, last created first; the containers stay. */
void ss_instances_destroy(struct ss_engine *e);

/* port.c */
/* Allocate the ports of one group; call once per port row before linking. */
void ss_component_alloc_ports(struct ss_component *c, unsigned group,
			      unsigned n);
void ss_port_init_unbound(struct ss_port *p, struct ss_component *owner,
			  const struct ss_port_desc *d, unsigned index);

/* suggest.c: Levenshtein distance, for "did you mean". */
unsigned ss_edit_distance(const char *a, const char *b);
/* The candidate closest to `word`, or NULL when none is close enough. */
const char *ss_did_you_mean(const char *word, const char *const *cands,
			    size_t n);

#endif
