/* SPDX-License-Identifier: BSD-3-Clause */
/* What the kernel knows of the run as a whole. */
#include "config.h"

#include "internal.h"

bool ss_engine_has_type_flag(const struct ss_engine *e, unsigned flags)
{
	for (guint i = 0; i < e->components->len; i++) {
		const struct ss_component *c = e->components->pdata[i];

		if ((c->type->flags & flags) == flags)
			return true;
	}
	return false;
}
