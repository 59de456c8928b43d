/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the files of the INI planner (kernel/sim*.c) share: the plan a
 * configuration is checked into, and the steps that build it.  Only these
 * files read it; the rest of the kernel and the program see kernel/sim.h.
 *
 * The plan: each [component] becomes a plan_comp (its type, the resolved
 * parameters of every instance, the size of every vector port), each [link]
 * a plan_link expanded to endpoint pairs.  Every step reports its problems
 * with sim_err_at() and carries on, so one run lists them all; only a plan
 * without errors is turned into components (sim.c).
 */
#ifndef SS_KERNEL_SIM_INTERNAL_H
#define SS_KERNEL_SIM_INTERNAL_H

#include <stdbool.h>
#include "inidoc.h"
#include "internal.h"
#include "param.h"
#include "sim.h"

#define MAX_EXTENDS_DEPTH 16
#define MAX_COUNT 1000000

struct plan_comp {
	struct ini_section *sec;
	const struct ss_component_type *type;
	bool is_array;
	unsigned count;
	unsigned n_groups;
	struct ss_params **params;	/* per instance */
	int *explicit_count;		/* per group; -1: sized by links */
	unsigned *size;			/* per instance * group */
	GHashTable **bound;		/* per instance * group: index+1 -> loc */
	struct ss_component **inst;
	const char *thread_group;	/* interned; NULL: the core's choice */
	bool ok;			/* type known and params parsed */
	bool link_failed;		/* a link naming it was refused */
};

struct plan_pair {
	struct plan_comp *fc, *tc;
	unsigned fi, fg, fx, ti, tg, tx;
};

struct plan_link {
	struct ini_section *sec;
	const char *from, *to;
	uint64_t latency;
	GArray *pairs;
};

struct cli_override {
	char *section;			/* the component it applies to */
	char *loc;			/* "command line -p TEXT", for messages */
	unsigned i0, i1;
	bool indexed;			/* [N], [A..B] or [*]: only an array has them */
	char *key, *value;
};

struct ss_sim {
	struct ss_registry *reg;
	struct ini_doc *doc;
	GPtrArray *comps;		/* struct plan_comp * */
	GHashTable *comp_by_name;
	GPtrArray *links;		/* struct plan_link * */
	GPtrArray *overrides;		/* struct cli_override * */
	GPtrArray *errors;
	/* the errors' texts, so that one said again is found at once: a bad
	 * configuration of thousands of components makes thousands */
	GHashTable *errors_said;
	uint64_t max_ticks;
	char *max_ticks_loc;		/* "file:line" of max_ticks, for its message */
	uint64_t memory;		/* [simulation] memory; 0: the machine's */
	struct ss_engine *engine;
	const struct ss_run_options *run_options;	/* for build, or NULL */
	bool built, started;
};

/* ---- sim_load.c: reporting ---------------------------------------------- */

/* Add "LOC: message" to the errors, once however often it is said. */
G_GNUC_INTERNAL void sim_err_at(struct ss_sim *s, const char *loc,
				const char *fmt, ...) G_GNUC_PRINTF(3, 4);
/* "; did you mean 'X'?" for the candidate nearest `word`, or "". */
G_GNUC_INTERNAL char *sim_suggest(const char *word, GPtrArray *cands);

/* ---- sim_names.c: selectors and names ----------------------------------- */

enum sel_kind { SEL_NONE, SEL_ONE, SEL_RANGE, SEL_ALL };

struct sel {
	enum sel_kind kind;
	unsigned a, b;
};

/* Parse "[...]" at *p, if any; advances past it.  False on bad syntax. */
G_GNUC_INTERNAL bool sim_parse_sel(const char **p, struct sel *sel);
/* Split "name[sel]" into its name and selector. */
G_GNUC_INTERNAL bool sim_split_indexed(const char *text, char **name,
				       struct sel *sel);
/* "l1" or "l1[3]" */
G_GNUC_INTERNAL char *sim_inst_name(const struct plan_comp *pc, unsigned inst);
/* "l1[3].out" or "l1[3].in[2]" */
G_GNUC_INTERNAL char *sim_ep_name(const struct plan_comp *pc, unsigned inst,
				  unsigned group, unsigned idx);

/* ---- sim_sections.c: components, templates, parameters ------------------ */

G_GNUC_INTERNAL void sim_plan_component(struct ss_sim *s,
					struct ini_section *sec);
G_GNUC_INTERNAL void sim_check_required(struct ss_sim *s,
					struct plan_comp *pc);
G_GNUC_INTERNAL void sim_check_templates_used(struct ss_sim *s);
/* Parse `text` into parameter `idx` of `p`; paths become absolute. */
G_GNUC_INTERNAL void sim_set_param(struct ss_sim *s, struct ss_params *p,
				   int idx, const char *text, const char *dir,
				   const char *loc, const char *ctx);
/* Keys a component section (or, !section, an override) may name. */
G_GNUC_INTERNAL GPtrArray *sim_allowed_keys(const struct ss_component_type *t,
					    bool section);
G_GNUC_INTERNAL GPtrArray *sim_component_names(struct ss_sim *s);

/* ---- sim_override.c: -p ------------------------------------------------- */

G_GNUC_INTERNAL void sim_parse_override(struct ss_sim *s, const char *text);
G_GNUC_INTERNAL void sim_apply_overrides(struct ss_sim *s);

/* ---- sim_links.c: [link] sections to endpoint pairs --------------------- */

/* One side of a link as written: instances i0..i1, elements p0..p1. */
struct endpoint {
	struct plan_comp *pc;
	unsigned i0, i1;
	unsigned group;
	const struct ss_port_desc *pd;
	bool port_auto;		/* [*] on a vector port sized by the other end */
	unsigned p0, p1;
};

G_GNUC_INTERNAL void sim_plan_link(struct ss_sim *s, struct ini_section *sec);

/* ---- sim_ports.c: vector port sizes and unlinked ports ------------------ */

G_GNUC_INTERNAL void sim_size_ports(struct ss_sim *s, struct plan_comp *pc);

/* ---- sim_refusals.c: why a link or port is refused ---------------------- */

/*
 * Which check refused, where a reason code (enum ss_link_result) covers
 * several; the message follows from the code and this.
 */
enum link_check {
	LC_ONLY = 0,		/* the code's one check */
	/* SS_LINK_INDEX */
	LC_COMP_UNINDEXED,	/* an array component without [SEL] */
	LC_COMP_INDEXED,	/* a single component with [SEL] */
	LC_COMP_RANGE,		/* instance index past count */
	LC_PORT_INDEXED,	/* a scalar port with [SEL] */
	LC_PORT_RANGE,		/* element index past <port>_count */
	/* SS_LINK_CARDINALITY */
	LC_BOTH_AUTO,		/* [*] sized by the other end, on both ends */
	LC_SPREAD,		/* the other end does not divide over the instances */
	LC_LENGTHS,		/* the two ends expand to different lengths */
	/* SS_LINK_UNBOUND */
	LC_REQUIRED,		/* a required port (or vector) with no link */
	LC_GAP,			/* a vector element below the size with no link */
};

/*
 * A refusal: its reason, and what its message names.  Each message reads
 * the fields it needs, listed with enum link_check's cases in
 * sim_refusals.c.
 */
struct link_fault {
	enum ss_link_result code;
	enum link_check check;
	const char *loc;		/* file:line it is reported at */
	const char *ctx;		/* what it is about, "[link l] to = x.in" */
	const char *cname, *pname;	/* component and port as written */
	const struct plan_comp *pc;	/* the component at fault */
	const struct ss_port_desc *pd;	/* the port at fault */
	const struct endpoint *f, *t;	/* the link's two ends */
	const char *end;		/* "from" or "to" */
	const char *name;		/* an endpoint's name */
	const char *other;		/* a second text the message quotes */
	unsigned n[3];			/* the numbers it quotes */
};

G_GNUC_INTERNAL void sim_refuse(struct ss_sim *s, const struct link_fault *f);

#endif
