/* SPDX-License-Identifier: BSD-3-Clause */
/* The library's error domain, and the one helper that reports into it. */
#include "config.h"

#include "internal.h"

G_DEFINE_QUARK(ss-error-quark, ss_error)

bool ss_set_error(GError **err, int code, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		char *msg;

		va_start(ap, fmt);
		msg = g_strdup_vprintf(fmt, ap);
		va_end(ap);
		g_set_error_literal(err, SS_ERROR, code, msg);
		g_free(msg);
	}
	return false;
}
