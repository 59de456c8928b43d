/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SECTORSIM_ENGINE_H
#define SECTORSIM_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
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
	SS_PRIO_STATS = 9000,
	SS_PRIO_EXIT = 10000,
};

#define SS_TICK_MAX UINT64_MAX

struct ss_engine *ss_engine_new(void);
void ss_engine_free(struct ss_engine *e);

uint64_t ss_engine_now(const struct ss_engine *e);

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
 * Options of the run that are not parameters of one component, set by the
 * program before the run (the command line's --json FILE is "json"):
 * NULL when unset.
 */
void ss_engine_set_option(struct ss_engine *e, const char *key,
			  const char *value);
const char *ss_engine_option(const struct ss_engine *e, const char *key);
size_t ss_engine_pending(const struct ss_engine *e);
/* Events dispatched since the engine was created. */
uint64_t ss_engine_events_run(const struct ss_engine *e);
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
};

/*
 * Set *err, when err is not NULL, to an SS_ERROR of `code` whose message is
 * the formatted text.  Returns false, so that a check ends in one line:
 * `return ss_set_error(err, SS_ERROR_CONFIG, "size: expected ...");`.
 */
bool ss_set_error(GError **err, int code, const char *fmt, ...)
	G_GNUC_PRINTF(3, 4);

G_END_DECLS

#endif
