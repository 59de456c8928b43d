/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SECTORSIM_COMPONENT_H
#define SECTORSIM_COMPONENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <glib.h>
#include <gmodule.h>

#include <sectorsim/engine.h>
#include <sectorsim/port.h>

G_BEGIN_DECLS

/*
 * Bumped whenever a struct below changes layout.  A component type carries
 * the version it was compiled against as its first field, so the host can
 * refuse an old plugin before it reads anything else.
 */
#define SS_ABI_VERSION 11

/* ---- parameters -------------------------------------------------------- */

enum ss_param_type {
	SS_P_INVALID = 0,
	SS_P_INT,	/* signed 64-bit */
	SS_P_UINT,	/* unsigned 64-bit; decimal or 0x hex */
	SS_P_SIZE,	/* bytes: 32B, 128KiB, 4.5MiB, 1GiB; a bare number is bytes */
	SS_P_DOUBLE,
	SS_P_BOOL,	/* true/false, yes/no, on/off, 1/0 */
	SS_P_ENUM,	/* one of `choices`; read back as its index */
	SS_P_STRING,
	SS_P_PATH,	/* a file name, relative to the INI file that set it */
	SS_P_TIME,	/* picoseconds: 2ns, 1.5us, 300ps; a unit is required */
	SS_P_FREQ,	/* hertz: 1200MHz, 1.4GHz, 50kHz, 10Hz */
	SS_P_LIST,	/* comma-separated unsigned integers: 0,8,16,32 */
};

#define SS_PF_POW2	(1u << 0)	/* the value must be a power of two */
#define SS_PF_INPUT	(1u << 1)	/* the run's input: the command line's
					   positional TRACE sets it */

struct ss_param_desc {
	const char *name;
	enum ss_param_type type;
	const char *def;		/* default as written in an INI; NULL: required */
	const char *doc;
	const char *const *choices;	/* SS_P_ENUM: NULL-terminated */
	uint64_t min, max;		/* inclusive range for UINT, SIZE, TIME, FREQ and
					   list elements; both 0: unchecked */
	unsigned flags;
};

/* Resolved, validated parameter values of one instance. */
struct ss_params;

int64_t ss_param_int(const struct ss_params *p, const char *name);
/* SS_P_UINT, SS_P_SIZE, SS_P_TIME and SS_P_FREQ. */
uint64_t ss_param_uint(const struct ss_params *p, const char *name);
double ss_param_double(const struct ss_params *p, const char *name);
bool ss_param_bool(const struct ss_params *p, const char *name);
unsigned ss_param_enum(const struct ss_params *p, const char *name);
/* SS_P_STRING and SS_P_PATH (already resolved against the INI's folder). */
const char *ss_param_string(const struct ss_params *p, const char *name);
const uint64_t *ss_param_list(const struct ss_params *p, const char *name,
			      size_t *n);
/* Whether the configuration gave the value, as opposed to the default. */
bool ss_param_is_set(const struct ss_params *p, const char *name);

/* ---- ports -------------------------------------------------------------- */

enum ss_port_dir {
	SS_PORT_INVALID = 0,
	SS_PORT_OUT,	/* requester: starts conversations */
	SS_PORT_IN,	/* responder */
};

struct ss_port_desc {
	const char *name;
	enum ss_port_dir dir;
	const char *protocol;	/* links join only ports of the same protocol */
	bool vector;		/* sized by its links; count readable as <name>_count */
	bool required;
	const char *doc;
};

/* ---- statistics --------------------------------------------------------- */

enum ss_stat_kind {
	SS_STAT_INVALID = 0,
	SS_STAT_COUNTER,	/* 64-bit count the component increments */
	SS_STAT_RATIO,		/* num / den of two counters (or sums) of the same table */
	SS_STAT_SUM,		/* sum of the counters of the same table whose names
				   match one of the space-separated globs in num */
	SS_STAT_REAL,		/* a double the component sets (ss_stat_set_real);
				   an array's aggregate is the mean */
};

struct ss_stat_desc {
	const char *name;
	enum ss_stat_kind kind;
	const char *doc;
	const char *num, *den;	/* SS_STAT_RATIO; SS_STAT_SUM: num only */
};

/* ---- component types ---------------------------------------------------- */

struct ss_component;

/*
 * Lifecycle: xcreate for every instance (all ports exist and are bound, so
 * port counts can be read) -> xinit for every instance -> xstart -> run ->
 * xstop -> xfinish -> xdestroy.  Every method but xrecv may be NULL.
 *
 * xstop: the run is over, whether it finished, failed or was interrupted
 * (xfinish comes only after a run that finished): stop what works beside
 * the engine (a thread of the component's own) before anything is
 * destroyed, since other components go in any order.  Called for every
 * instance whose xstart was called, even one that failed.
 *
 * xprefetch is a hint: message m will come to port `in` soon.  The
 * component may start loading what xrecv will read for it
 * (__builtin_prefetch) and must change nothing, whatever comes before m.
 * The core gives it for messages that arrive together (those of one
 * sender and tick on a link with latency that crossed threads), all of
 * them before the first is received, so that their cache misses overlap.
 */
struct ss_component_ops {
	int (*xcreate)(struct ss_component *c, const struct ss_params *p,
		       GError **err);
	int (*xinit)(struct ss_component *c, GError **err);
	int (*xstart)(struct ss_component *c, GError **err);
	void (*xrecv)(struct ss_component *c, struct ss_port *in,
		      const struct ss_msg *m);
	void (*xfinish)(struct ss_component *c);
	void (*xdestroy)(struct ss_component *c);
	void (*xprefetch)(struct ss_component *c, struct ss_port *in,
			  const struct ss_msg *m);
	void (*xstop)(struct ss_component *c);
};

struct ss_component_type {
	uint32_t abi_version;	/* SS_ABI_VERSION; must stay the first field */
	const char *name;
	const char *summary;	/* one line, for --list */
	const struct ss_param_desc *params;	/* NULL-name terminated; may be NULL */
	const struct ss_port_desc *ports;	/* NULL-name terminated; may be NULL */
	const struct ss_stat_desc *stats;	/* NULL-name terminated; may be NULL */
	const struct ss_component_ops *ops;
	size_t instance_size;	/* >= sizeof(struct ss_component), which comes first */
	unsigned flags;		/* SS_TYPE_*: what the type does with the run */
};

/*
 * The type writes the run's results itself: the program then prints the
 * raw statistics only when asked to, and phases keep no snapshot when
 * nobody reads them (ss_run_options.raw_stats_unread).
 */
#define SS_TYPE_REPORTS_RUN	(1u << 0)

/*
 * The type keeps the rules of a run split into partitions on threads
 * (doc/INTERNALS.md, "kernel/partition.c"): its instances schedule and
 * send at (tick, priority) keys no instance of another partition acts
 * at, never before the time of the event that sends, in messages of at
 * most SS_MSG_MAX bytes; and the port promises it makes hold.  A run
 * whose every type says so uses every online core unless --threads says
 * otherwise; any other runs on one thread unless told.
 */
#define SS_TYPE_PARTITION_SAFE	(1u << 1)

/*
 * Its instances write the run's reuse-distance profile (--rd-profile,
 * ss_engine_profile_output()): a run asked for one with no such instance
 * is refused before it starts, rather than writing nothing.
 */
#define SS_TYPE_RD_PROFILE	(1u << 2)

/* Whether the type of any instance of the engine has every bit of `flags`. */
bool ss_engine_has_type_flag(const struct ss_engine *e, unsigned flags);

struct ss_port_group {
	const struct ss_port_desc *desc;
	struct ss_port *ports;
	unsigned n;
	unsigned flags;		/* SS_PORT_*: what the component promises */
	uint64_t lookahead;	/* ticks: see ss_component_set_port_lookahead */
	uint64_t quiet_until;	/* a tick: see ss_port_promise_quiet */
	bool inert;		/* see ss_port_promise_inert */
};

/*
 * The core allocates instance_size bytes, zeroed, and fills this header;
 * the component keeps its own state after it.
 */
struct ss_component {
	const struct ss_component_type *type;
	struct ss_engine *engine;
	const char *name;	/* "l1[3]", or "trace" outside an array */
	const char *base;	/* "l1" */
	int index;		/* position in the array, -1 outside one */
	unsigned array_size;	/* 1 outside an array */
	int16_t prio;		/* priority of delayed deliveries to it */
	/*
	 * The core's: priority of what it sends on a link with latency, one
	 * per component below every other band, so that such messages arrive
	 * at the start of their tick in the order of their senders, and two
	 * threads never deliver at one (tick, priority) (held.c).
	 */
	int16_t link_prio;
	uint64_t *stats;	/* one slot per row of type->stats, in order */
	struct ss_port_group *port_groups;	/* one per row of type->ports */
	unsigned n_port_groups;
	bool created;		/* the core's: xcreate succeeded, xdestroy is due */
	unsigned part;		/* the core's: the partition it runs in */
};

#define SS_COMPONENT(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/* Element `index` of port `name`; NULL when there is no such endpoint. */
struct ss_port *ss_component_port(struct ss_component *c, const char *name,
				  unsigned index);
/* Elements of port `name`: 1 for a scalar port, the link count for a vector. */
unsigned ss_component_port_count(const struct ss_component *c,
				 const char *name);

/*
 * Stop the run (ss_engine_fail()) with an SS_ERROR of `code` whose message
 * is the component's name, ": ", then the formatted text.  A later failure
 * does not replace the first.
 */
void ss_component_fail(struct ss_component *c, int code, const char *fmt, ...)
	G_GNUC_PRINTF(3, 4);

/*
 * What a component promises about the traffic on one of its ports (every
 * element of it), set in xcreate or xinit from its parameters.  With these
 * the core may run the two ends of a link on different threads
 * (`--threads`) with the results of one: freely when, in each direction,
 * the sender is SILENT or SENDS_WHEN_IDLE or the receiver takes
 * ANY_DELAY; otherwise in time order, each message stamped with the
 * (tick, priority) of the event that sent it, where every partition on a
 * loop of such links has another on it that answers later (DEFERS ports,
 * or a lookahead); never when either end is JOINED
 * (doc/INTERNALS.md, "Partitions").  A promise that does not hold makes
 * results depend on the thread count.
 */
/* This end sends nothing. */
#define SS_PORT_SILENT		(1u << 0)
/*
 * What arrives here may arrive any time later and interleaved in any way
 * with the other inputs, as long as each link's messages keep their
 * order: the results are the same.  So a sender may hold what it sends
 * here and send it later, in order (an L1 its requests to the L2, in
 * batches: SS_PORT_BATCHES).
 */
#define SS_PORT_ANY_DELAY	(1u << 1)
/*
 * This end sends only to a peer that has nothing under way, all it sends
 * in a tick arriving together, and nothing it does afterwards depends on
 * when the peer acts on it (a phase's work handed out at its start).
 */
#define SS_PORT_SENDS_WHEN_IDLE	(1u << 2)
/*
 * The ends of a link on this port share a partition whatever else is
 * promised: the component does something whose order only one clock
 * gives (it appends to an output its peers write too).
 */
#define SS_PORT_JOINED		(1u << 3)
/*
 * What arrives here the component acts on only in events it schedules,
 * later than the message's (tick, priority): nothing is sent from inside
 * the delivery (an SM answering its scheduler from its own issue events).
 */
#define SS_PORT_DEFERS		(1u << 4)
/*
 * This end takes its protocol's batches: a message that stands for
 * several of the protocol's own, in order (mem.sector's MEM_RUN).  A
 * sender may send one only here, made and sent in one event, unless this
 * end is also TIMELESS, when it may hold what it sends for a batch.
 * Not a promise about threads: the core only reports it
 * (ss_port_peer_flags).
 */
#define SS_PORT_BATCHES		(1u << 5)
/*
 * Stronger than ANY_DELAY: when the requests that arrive here arrive
 * changes nothing at all, neither this component's results nor anything
 * it sends on, since what it sends goes only to TIMELESS ports, or to
 * none (a counter; a merge of whole streams in front of one).  ANY_DELAY
 * alone says this component's results do not change; what it sends on
 * may come later too, which a level below that serves as things arrive
 * does notice.  One exception: a flush or invalidation in mid-kernel
 * acts when it comes, on one thread (several refuse it), so a request
 * held elsewhere would meet it in another place: hold messages for a
 * TIMELESS port only when the run has several partitions
 * (ss_engine_partitions).  Set in xinit where the ports below set it in xcreate
 * (an L2 in front of DRAM), or in xstart where they set it in xinit (a
 * cache in front of such an L2); a sender asks once the run has started,
 * and one that asks earlier, or a chain deeper than that, sees it
 * missing, which is slower but no less right.  Not a promise about
 * threads either.
 */
#define SS_PORT_TIMELESS	(1u << 6)
/*
 * This end only counts what arrives: how many of the protocol's units of
 * each kind, never which, in what order or when (a DRAM counter in a
 * functional mode).  A sender may count what it would send here and send
 * the tally instead (mem.sector's MEM_TALLY), within the event that made
 * the requests and before any message here that is not one.  Not a
 * promise about threads.
 */
#define SS_PORT_COUNTS		(1u << 7)
void ss_component_set_port_flags(struct ss_component *c, const char *name,
				 unsigned flags);
/* ss_component_set_port_flags with these flags added to those set. */
void ss_component_add_port_flags(struct ss_component *c, const char *name,
				 unsigned flags);
/*
 * Whether every link of c's port `name` ends at a TIMELESS port, or the
 * port has none: what c sends there may be sent any time later.
 */
bool ss_component_port_timeless(const struct ss_component *c, const char *name);
/*
 * The SS_PORT_* flags the component at the other end of p's link set on
 * its end (0 for an unbound port): whether it takes batches, say.  Flags
 * are set as late as xinit, so ask once the run has started (a source
 * may send from its xstart, before the asker's).
 */
unsigned ss_port_peer_flags(const struct ss_port *p);
/*
 * What arrives on this port makes the component send, or schedule,
 * nothing for `ticks` ticks (a block scheduler refills freed slots at the
 * next tick's start: 1).  Such a lookahead lets components on other
 * threads run that far ahead of it.
 */
void ss_component_set_port_lookahead(struct ss_component *c,
				     const char *name, uint64_t ticks);

/*
 * A promise the component keeps up to date as it runs: until a message
 * reaches it, it sends nothing on any element of its port `row` (the
 * port's place in its type's port table) before tick `tick` (0: no
 * promise, the default).  With --threads, in time order, a receiver on
 * another thread may then run up to that tick without waiting for it (an
 * SM promises its block scheduler no block ends before its blocks could
 * have issued their last instructions).  The core uses it only where
 * nothing in the component's own partition sends to it.  A promise that
 * does not hold makes results depend on the thread count.
 */
static inline void ss_port_promise_quiet(struct ss_component *c, unsigned row,
					 uint64_t tick)
{
	c->port_groups[row].quiet_until = tick;
}

/*
 * A promise the component keeps up to date as it runs: while `inert` is
 * true, what arrives on its port `row` changes nothing it sends or
 * schedules, nor when (it may count it, or check it and fail the run);
 * false, the default, promises nothing.  It may be made anywhere, and
 * covers what arrives from then on.  It may be withdrawn only in an
 * event (of the component's own, or of its partition's, that reaches it
 * at once) or on a message through a port that neither has the promise
 * nor a lookahead: never on a message it covers, nor on one that a
 * lookahead of T lets the others run T ticks past.  With --threads, in
 * time order, partitions that send only to inert ports of a partition
 * need not wait for it (a block scheduler whose grid is all dispatched
 * ignores the SMs' block ends until the next kernel).  A promise that
 * does not hold, or is withdrawn otherwise, makes results depend on the
 * thread count or stops the run with an internal error.
 */
static inline void ss_port_promise_inert(struct ss_component *c, unsigned row,
					 bool inert)
{
	c->port_groups[row].inert = inert;
}

/*
 * Statistics beyond the static table, e.g. one per slice: `name` may hold
 * indices ("slice[17].wb_evict"), which aggregate like instance indices.
 * Storage lives until the engine is freed.  Call from xcreate or xinit.
 */
uint64_t *ss_stat_add_counter(struct ss_component *c, const char *name,
			      const char *doc);
void ss_stat_add_ratio(struct ss_component *c, const char *name,
		       const char *doc, const char *num, const char *den);

/*
 * Close a phase: snapshot every statistic under `label`, then zero the
 * counters.  The core does not know what a phase means; a component decides.
 * When the run's raw_stats_unread option is set (nobody will read the raw
 * statistics), only the zeroing happens.
 */
void ss_stats_end_phase(struct ss_engine *e, const char *label);

/*
 * The live slot of counter `name` ("l1[3].global_load_accesses"), for a
 * component that reads what others counted (a report): NULL when there is
 * no such counter (sums and ratios have no slot; SS_STAT_REAL rows have
 * one, read with ss_stat_real()).  Resolve it in xinit; it stays valid
 * until the engine is freed.
 */
const uint64_t *ss_stats_counter(struct ss_engine *e, const char *name);

/*
 * The names of the counters whose name ends with `suffix`, in the order
 * they were registered, for a component that finds what the
 * configuration holds (a report looking for every cache); the names are
 * the engine's.  Free the array with g_ptr_array_unref().
 */
GPtrArray *ss_stats_counters_ending(struct ss_engine *e, const char *suffix);

/* SS_STAT_REAL values live in their 64-bit slots as the double's bits. */
static inline void ss_stat_set_real(uint64_t *slot, double v)
{
	memcpy(slot, &v, sizeof(v));
}

static inline double ss_stat_real(const uint64_t *slot)
{
	double v;

	memcpy(&v, slot, sizeof(v));
	return v;
}

/* ---- registry and plugins ----------------------------------------------- */

struct ss_registry;

/*
 * A command of the program beyond running a configuration:
 * `sectorsim NAME ARGS...` calls fn(argc, argv) with argv[0] = NAME, and
 * its return value is the exit status.  Registered like component types;
 * the command line is read before any plugin is loaded, so only built-in
 * commands are reachable from it.
 */
typedef int (*ss_command_fn)(int argc, char **argv);

struct ss_command {
	const char *name;	/* [a-z][a-z0-9-]* */
	const char *summary;	/* one line, for --list */
	ss_command_fn fn;
};

gboolean ss_registry_add_command(struct ss_registry *r,
				 const struct ss_command *cmd, GError **error);

/* Register a type; refuses a wrong ABI, a duplicate name or a bad table. */
gboolean ss_registry_add(struct ss_registry *r,
			 const struct ss_component_type *t, GError **error);

typedef gboolean (*ss_plugin_register_fn)(struct ss_registry *r,
					  GError **error);

/*
 * A component file declares its entry point with SS_PLUGIN_ENTRY(id).  Built
 * as a plugin it is the one exported symbol `sectorsim_plugin_register`;
 * built into the binary (SS_BUILTIN defined) it becomes
 * `ss_builtin_register_<id>`, so the same file serves both ways.
 */
#ifdef SS_BUILTIN
#define SS_PLUGIN_ENTRY(id) \
	gboolean ss_builtin_register_##id(struct ss_registry *r, GError **error)
#else
#define SS_PLUGIN_ENTRY(id) \
	G_MODULE_EXPORT gboolean sectorsim_plugin_register( \
		struct ss_registry *r, GError **error)
#endif

G_END_DECLS

#endif
