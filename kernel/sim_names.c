/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * How a configuration writes instances and endpoints: reading the selectors
 * N, A..B and * of "l1[0..3]" and "in[*]", and printing "l1[3].in[2]" back.
 * Its own file because component keys, -p overrides, links, port checks and
 * the graph printer all use the same notation.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include "sim_internal.h"

bool sim_parse_sel(const char **p, struct sel *sel)
{
	const char *q = *p;
	char *end;

	*sel = (struct sel){ SEL_NONE, 0, 0 };
	if (*q != '[')
		return true;
	q++;
	if (q[0] == '*' && q[1] == ']') {
		sel->kind = SEL_ALL;
		*p = q + 2;
		return true;
	}
	if (!g_ascii_isdigit(*q))
		return false;
	errno = 0;
	unsigned long a = strtoul(q, &end, 10);

	if (errno || a > MAX_COUNT)
		return false;
	sel->kind = SEL_ONE;
	sel->a = sel->b = a;
	q = end;
	if (q[0] == '.' && q[1] == '.') {
		q += 2;
		if (!g_ascii_isdigit(*q))
			return false;
		unsigned long b = strtoul(q, &end, 10);

		if (errno || b > MAX_COUNT || b < a)
			return false;
		sel->kind = SEL_RANGE;
		sel->b = b;
		q = end;
	}
	if (*q != ']')
		return false;
	*p = q + 1;
	return true;
}

bool sim_split_indexed(const char *text, char **name, struct sel *sel)
{
	const char *p = text;

	while (*p && *p != '[')
		p++;
	*name = g_strndup(text, p - text);
	return sim_parse_sel(&p, sel) && *p == '\0';
}

char *sim_inst_name(const struct plan_comp *pc, unsigned i)
{
	return pc->is_array ? g_strdup_printf("%s[%u]", pc->sec->name, i)
			    : g_strdup(pc->sec->name);
}

char *sim_ep_name(const struct plan_comp *pc, unsigned inst, unsigned g,
		  unsigned idx)
{
	const struct ss_port_desc *pd = &pc->type->ports[g];
	char *c = sim_inst_name(pc, inst);
	char *r = pd->vector ? g_strdup_printf("%s.%s[%u]", c, pd->name, idx)
			     : g_strdup_printf("%s.%s", c, pd->name);

	g_free(c);
	return r;
}
