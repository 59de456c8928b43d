/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The tools' files (compare's scores, the charts) written the way the
 * run's outputs are (kernel/output.c): whole or not at all, "-" for
 * standard output, a device or FIFO written directly, never replaced.
 */
#ifndef SS_TOOLS_OUTFILE_H
#define SS_TOOLS_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>

/* A tool's exit status for input it cannot use (and for usage errors). */
#define EXIT_INPUT 2

/*
 * data[0..len-1] to path: 0, or the exit status of the failure with *why,
 * 2 when the file cannot be opened ("PATH.part: cannot write the WHAT:
 * REASON", the user's to fix) and 1 on a write error ("write error on
 * NAME: REASON", as the program's other outputs).
 */
int tool_write_file(const char *path, const char *what, const void *data,
		    size_t len, char **why);

#endif
