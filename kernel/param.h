/* SPDX-License-Identifier: BSD-3-Clause */
/* Typed parameter values: parsing with units, and the ss_params container. */
#ifndef SS_KERNEL_PARAM_H
#define SS_KERNEL_PARAM_H

#include <sectorsim/component.h>

struct ss_pvalue {
	bool set;		/* given by the configuration, not the default */
	char *text;		/* the text it was parsed from (resolved path for PATH) */
	union {
		int64_t i;
		uint64_t u;
		double d;
		bool b;
		unsigned e;
		char *s;
		struct {
			uint64_t *items;
			size_t n;
		} list;
	} v;
};

struct ss_params {
	const struct ss_param_desc *desc;
	unsigned n;
	struct ss_pvalue *values;
};

/*
 * Parse `text` as parameter `d`.  `base_dir` resolves relative paths (NULL:
 * leave them as they are).  On failure returns false and sets *why to what
 * was expected, e.g. "expected a number such as 0.25".
 */
bool ss_param_parse(const struct ss_param_desc *d, const char *text,
		    const char *base_dir, struct ss_pvalue *out, char **why);

size_t ss_param_table_len(const struct ss_param_desc *t);
int ss_param_table_find(const struct ss_param_desc *t, const char *name);
const char *ss_param_type_name(enum ss_param_type t);
/* Whether values of `t` can be parsed (false for SS_P_INVALID and unknowns). */
bool ss_param_type_known(enum ss_param_type t);

/* A container with every default parsed; NULL and *why when a default is bad. */
struct ss_params *ss_params_new_defaults(const struct ss_param_desc *t,
					 char **why);
struct ss_params *ss_params_copy(const struct ss_params *p);
void ss_params_free(struct ss_params *p);

/* Exact decimal parse of "4.5" times `mult`; false on overflow or fraction. */
bool ss_parse_scaled(const char *num, size_t len, uint64_t mult,
		     uint64_t *out);

#endif
