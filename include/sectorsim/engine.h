/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SECTORSIM_ENGINE_H
#define SECTORSIM_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <glib.h>

G_BEGIN_DECLS

/*
 * The engine owns the event queue, the component instances and the stats.
 * Every piece of simulation state hangs off one engine, so two engines can
 * live in one process (tests do).
 */
struct ss_engine;

typedef void (*ss_event_fn)(struct ss_engine *e, void *data);

/*
 * Priority bands.  Lower runs first within a tick.  Message deliveries come
 * before issue so that what arrived at tick t is visible to whoever issues at
 * t; an issuer adds its own id to SS_PRIO_ISSUE so that equal ticks resolve by
 * id.  Stats and exit run after everything else of their tick.
 */
enum {
	SS_PRIO_DELIVER = 0,
	SS_PRIO_ISSUE = 1000,
	SS_PRIO_DRAIN = 8000,	/* + instance index: after every issue of the tick */
	SS_PRIO_STATS = 9000,
	SS_PRIO_EXIT = 10000,
};

#define SS_TICK_MAX UINT64_MAX

struct ss_engine *ss_engine_new(void);
void ss_engine_free(struct ss_engine *e);

/* The current tick; it changes only between events (pure: the same within
 * one, so repeated calls may be merged). */
uint64_t ss_engine_now(const struct ss_engine *e) G_GNUC_PURE;

/*
 * Schedule fn(e, data) at absolute tick `when` with `prio`.  Events with equal
 * (tick, prio) run in the order they were scheduled.  Returns false, and
 * schedules nothing, when `when` lies before the current tick.
 */
bool ss_schedule(struct ss_engine *e, uint64_t when, int16_t prio,
		 ss_event_fn fn, void *data);

static inline bool ss_schedule_in(struct ss_engine *e, uint64_t delay,
				  int16_t prio, ss_event_fn fn, void *data)
{
	return ss_schedule(e, ss_engine_now(e) + delay, prio, fn, data);
}

/*
 * Run events in order until the queue is empty, ss_engine_stop() is called,
 * or the next event lies beyond `tick_limit` (it stays queued).  Returns the
 * number of events run by this call.
 */
uint64_t ss_engine_run(struct ss_engine *e, uint64_t tick_limit);
void ss_engine_stop(struct ss_engine *e);

/*
 * A component that cannot go on (malformed input, say) stops the run with
 * `err`, which the engine takes; the first failure is the one reported
 * (ss_engine_failure()), and the run's caller exits by its code.
 */
void ss_engine_fail(struct ss_engine *e, GError *err);
const GError *ss_engine_failure(const struct ss_engine *e);

/*
 * An interrupt (SIGINT, once ss_catch_interrupt() is called) asks for a
 * clean stop: components end what they are doing at a boundary of their
 * own (a GPU kernel, say) and the run finishes early.  Process-wide, as
 * signals are.
 */
void ss_catch_interrupt(void);
bool ss_interrupted(void);
/*
 * A thread that may block in a read (a FIFO, say) between the two calls:
 * SIGINT reaches one thread of the process, which passes it on to these,
 * so that their blocking calls return EINTR and they see the interrupt.
 */
void ss_interrupt_enter_thread(void);
void ss_interrupt_leave_thread(void);

/*
 * The run's options: what the program asks of the run as a whole rather
 * than of one component, set on the engine before the run (after the build)
 * and read by components from xstart on.  Strings are NULL when unset.
 */
struct ss_run_options {
	char *json;		/* --json FILE: results as JSON */
	char *csv;		/* --csv FILE: results as CSV */
	char *rd_profile;	/* --rd-profile FILE: ss_engine_profile_output() */
	gboolean resume;	/* --resume: keep the results of an interrupted run */
	gboolean quiet;		/* --quiet: nothing on stderr but warnings and errors */
	gboolean strict;	/* --strict: a warning about the input is an error */
	gint threads;		/* --threads N, N >= 1 (0: unset: see SS_TYPE_PARTITION_SAFE) */
	/*
	 * Nobody reads the raw statistics after the run (a component reports
	 * it and they were not asked for): ss_stats_end_phase() then only
	 * zeroes the counters, so that memory does not grow with the number
	 * of phases.
	 */
	gboolean raw_stats_unread;
	/*
	 * Another output (--json -, --csv -, --rd-profile -) is written to
	 * standard output, so the per-kernel table is not: a pipe gets that
	 * output alone (the program sets it; no command-line option).
	 */
	gboolean table_off;
	/*
	 * What produces the run's results, which a results file records so
	 * that --resume continues only the run it came from (the program
	 * sets them; no command-line option): the program's version, the
	 * configuration file and the SHA-256 of the expanded configuration
	 * (exactly what --dump-config prints, -p and TRACE applied), the
	 * command line's TRACE (absolute; NULL: the configuration's, which
	 * the digest covers) and the SHA-256 of its kernel list files, and
	 * the -p overrides in order (NULL-terminated, or NULL: none).
	 */
	char *version;
	char *config;
	char *config_digest;
	char *trace;
	char *trace_digest;
	char **params;
	/* --mrc FILE: miss-ratio curves, ss_engine_mrc_output() (last, so
	 * that the fields before it keep their places) */
	char *mrc;
	/*
	 * Lanes (`sectorsim sweep`; no command-line option): the values of
	 * one parameter, "COMPONENT.KEY" as -p names it, that a component
	 * able to simulate them in the same pass does, each lane counted
	 * apart (ss_engine_claim_lanes); the run itself is that of the
	 * configuration as -p gave it.  NULL: none.
	 */
	char *lane_key;
	char **lane_values;
};

/*
 * The command line's options that fill struct ss_run_options, one row
 * each, so that an option is declared once: the program builds its
 * GOptionEntry rows from this table.  `arg` is G_OPTION_ARG_NONE for a
 * gboolean field, G_OPTION_ARG_INT for a gint one, G_OPTION_ARG_FILENAME
 * for a char * one.  The table ends
 * with a row whose long_name is NULL.
 */
struct ss_run_option_desc {
	const char *long_name;
	char short_name;	/* 0: none */
	GOptionArg arg;
	size_t offset;		/* of the field in struct ss_run_options */
	const char *doc;
	const char *arg_doc;	/* NULL for G_OPTION_ARG_NONE */
};

extern const struct ss_run_option_desc ss_run_option_table[];

/* The field of `o` that row `d` fills. */
static inline void *ss_run_option_field(struct ss_run_options *o,
					const struct ss_run_option_desc *d)
{
	return (char *)o + d->offset;
}

/* Free the strings of `o` and zero it. */
void ss_run_options_clear(struct ss_run_options *o);

/*
 * Give the engine a copy of `o` (strings included), replacing what it
 * had; the engine's are all unset until then.
 */
void ss_engine_set_run_options(struct ss_engine *e,
			       const struct ss_run_options *o);

/*
 * A defect of the input that the run can go on with (a file cut short at
 * a boundary, say): one line "sectorsim: warning: MSG" on standard error,
 * --quiet or not, and true.  Under --strict the run fails instead
 * (ss_engine_fail, SS_ERROR_INPUT "MSG (--strict)") and it returns false.
 */
bool ss_engine_warn_input(struct ss_engine *e, const char *fmt, ...)
	G_GNUC_PRINTF(2, 3);
const struct ss_run_options *ss_engine_run_options(const struct ss_engine *e);

/*
 * The run's profile output, the file of ss_run_options.rd_profile, which
 * every component that keeps a profile appends to.  The first call opens
 * the file, truncating it, and writes `header`; later calls get the same
 * stream and their header is ignored.  NULL when the run has no profile
 * file; NULL with an SS_ERROR_CONFIG "FILE: cannot write the WHAT: REASON"
 * when the file cannot be opened.  The engine closes it when freed;
 * flush what is written to see write errors.
 */
FILE *ss_engine_profile_output(struct ss_engine *e, const char *header,
			       const char *what, GError **err);

/*
 * The run's miss-ratio-curve output, the file of ss_run_options.mrc, which
 * every cache that keeps a curve appends to: as ss_engine_profile_output().
 * ss_engine_mrc_used() says whether any component has opened it, so that a
 * run asked for curves that no cache keeps is refused before it starts.
 */
FILE *ss_engine_mrc_output(struct ss_engine *e, const char *header,
			   const char *what, GError **err);
bool ss_engine_mrc_used(struct ss_engine *e);

/*
 * A component that simulates the run options' lanes claims them as it is
 * created (one may); the component then counts lane i's counters as
 * COMPONENT.lane[i].NAME, and whoever reports reads them there.  NULL
 * when no component has.
 */
void ss_engine_claim_lanes(struct ss_engine *e, const char *component);
const char *ss_engine_lanes_claimed(const struct ss_engine *e);

/*
 * An output file of the run (results, statistics, a profile), opened by
 * path.  "-" is standard output.  A regular file, or a path where nothing
 * is yet, is written to PATH.part and renamed over PATH by
 * ss_output_commit(), so a reader never sees half a file and a run that
 * does not finish leaves PATH as it was; a symbolic link is followed and
 * its target replaced the same way.  Anything else (a character device, a
 * FIFO, a socket) is written directly: it is never replaced.
 *
 * ss_output_open() fails with an SS_ERROR_CONFIG whose message is "FILE:
 * REASON", FILE being the file it could not open, and sets errno.
 * ss_output_resume()
 * opens PATH.part to append after its first `keep` bytes (--resume); it
 * fails as well for an output that has no PATH.part.  Write errors are
 * kept and reported by ss_output_flush() and ss_output_commit() as an
 * SS_ERROR_INTERNAL "write error on NAME: REASON" (NAME: the path, or
 * "standard output").  ss_output_commit() ends the output (renaming
 * PATH.part, removed if anything failed), ss_output_abort() ends it and
 * removes PATH.part, ss_output_keep() ends it and leaves PATH.part for
 * --resume; all three free it and accept NULL.
 */
struct ss_output;

struct ss_output *ss_output_open(const char *path, GError **err);
struct ss_output *ss_output_resume(const char *path, size_t keep,
				   GError **err);
FILE *ss_output_file(const struct ss_output *o);
/* The path as given, or "standard output". */
const char *ss_output_name(const struct ss_output *o);
/* PATH.part being written, or NULL when the output is written directly. */
const char *ss_output_part(const struct ss_output *o);
bool ss_output_is_stdout(const struct ss_output *o);
/* fwrite() that keeps the error: false once anything failed. */
bool ss_output_write(struct ss_output *o, const void *buf, size_t len);
bool ss_output_flush(struct ss_output *o, GError **err);
bool ss_output_commit(struct ss_output *o, GError **err);
void ss_output_abort(struct ss_output *o);
void ss_output_keep(struct ss_output *o);
/* The PATH.part an output to `path` would use (newly allocated), or NULL
 * when it would be written directly ("-", a device, a FIFO...). */
char *ss_output_part_name(const char *path);

/*
 * Ends the run's shared outputs (the profile file) after a run that
 * completed: false with the write error of one.  Not called, the engine
 * commits them when freed after a run without failure, and removes their
 * partial files otherwise.
 */
bool ss_engine_close_outputs(struct ss_engine *e, GError **err);

size_t ss_engine_pending(const struct ss_engine *e);

/* The machine's physical memory in bytes, 0 when the system does not say. */
uint64_t ss_physical_memory(void);
/*
 * The memory the run may plan for: the machine's, or less when the
 * configuration says so ([simulation] memory: a job's share of a shared
 * machine, whose limit the machine's size does not show).
 */
uint64_t ss_engine_memory(const struct ss_engine *e);
void ss_engine_set_memory(struct ss_engine *e, uint64_t bytes);

/*
 * The run's account of the memory its components touch whatever the
 * input (a cache's per-set records, walked at every kernel's end), so
 * that a configuration whose sum exceeds the run's memory
 * (ss_engine_memory) is refused when it is built, with a message, rather
 * than the machine swapping or its out-of-memory killer ending the run
 * later.  Swap `old_bytes` (being freed or replaced; 0: none) for
 * `new_bytes`: false, the account unchanged, when the total would exceed it
 * (*total, when not NULL: what it would be).  Giving back is always true.
 */
bool ss_engine_claim_memory(struct ss_engine *e, uint64_t old_bytes,
			    uint64_t new_bytes, uint64_t *total);
/* Events dispatched since the engine was created. */
uint64_t ss_engine_events_run(const struct ss_engine *e);
/* Partitions the run ran as (1: one event queue) and threads it used. */
unsigned ss_engine_partitions(const struct ss_engine *e);
unsigned ss_engine_threads(const struct ss_engine *e);
/*
 * Of a run on several partitions: the one that spent the longest in its
 * steps, that time and the run's on the threads (seconds), and its
 * components, named as in the configuration ("sm[0..39], l1[0..39]";
 * g_free() *names).  False when the run was one partition.  Times, not
 * results: they differ from run to run.  A busiest partition near the
 * whole run bounds it, whatever the thread count (a thread_group may
 * split it).
 */
bool ss_engine_busiest_partition(const struct ss_engine *e, double *busy_s,
				 double *run_s, char **names);
/* Event records allocated so far: flat in steady state (tests check it). */
size_t ss_engine_event_capacity(const struct ss_engine *e);

/* Error domain of every GError the library reports. */
#define SS_ERROR (ss_error_quark())
GQuark ss_error_quark(void);
enum ss_error_code {
	SS_ERROR_CONFIG = 1,	/* bad configuration or input: exit status 2 */
	SS_ERROR_PLUGIN,	/* a plugin could not be loaded: exit status 2 */
	SS_ERROR_INTERNAL,	/* a component failed: exit status 1 */
	SS_ERROR_INPUT,		/* malformed input (a trace): exit status 2 */
	SS_ERROR_LIMIT,		/* a limit of the run ([simulation] max_ticks)
				   ended it before its end: exit status 1 */
};

/*
 * Set *err, when err is not NULL, to an SS_ERROR of `code` whose message is
 * the formatted text.  Returns false, so that a check ends in one line:
 * `return ss_set_error(err, SS_ERROR_CONFIG, "size: expected ...");`.
 */
bool ss_set_error(GError **err, int code, const char *fmt, ...)
	G_GNUC_PRINTF(3, 4);

/*
 * Write `prefix`, `msg` and a newline to `f` as one message line.  What a
 * message quotes (a path, a trace's text) may hold any byte: control
 * characters but tabs and the line ends of a message of several lines go
 * out as \xNN, never raw to the terminal.
 */
void ss_print_message(FILE *f, const char *prefix, const char *msg);

G_END_DECLS

#endif
