/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Ctrl-C as a request for a clean stop.  The handler only sets a flag;
 * components poll ss_interrupted() at a boundary of their own and finish
 * early, so the results written so far stay whole.  Process-wide, as
 * signals are.
 */
#include "config.h"

#include <signal.h>
#include "internal.h"

static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
	(void)sig;
	interrupted = 1;
}

void ss_catch_interrupt(void)
{
	struct sigaction sa = { .sa_handler = on_interrupt };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
}

bool ss_interrupted(void)
{
	return interrupted;
}
