/* SPDX-License-Identifier: BSD-3-Clause */
/* The library's error domain, and the one helper that reports into it. */
#include "config.h"

#include "internal.h"

/*
 * Not G_DEFINE_QUARK, whose first call stores the quark unguarded:
 * partitions on several threads may fail at once (--threads).
 */
GQuark ss_error_quark(void)
{
	static gsize quark;

	if (g_once_init_enter(&quark))
		g_once_init_leave(&quark, g_quark_from_static_string("ss-error-quark"));
	return (GQuark)quark;
}

void ss_print_message(FILE *f, const char *prefix, const char *msg)
{
	fputs(prefix, f);
	for (const char *p = msg; *p; p++) {
		if (((unsigned char)*p < 0x20 && *p != '\t' && *p != '\n') || *p == 0x7f)
			fprintf(f, "\\x%02x", (unsigned char)*p);
		else
			fputc(*p, f);
	}
	fputc('\n', f);
}

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
