/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Ctrl-C as a request for a clean stop.  The handler only sets a flag;
 * components poll ss_interrupted() at a boundary of their own and finish
 * early, so the results written so far stay whole.  Process-wide, as
 * signals are.
 */
#include "config.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>
#include "internal.h"

static volatile sig_atomic_t interrupted;

/*
 * The threads the signal is passed on to: a slot is FREE, TAKEN while a
 * thread writes its id, or SET.  Only lock-free atomics, which a handler
 * may use.  `handling` counts handlers at work, so that a thread leaving
 * waits until no handler can still be signalling it.
 */
#define FORWARD_SLOTS 256
enum { SLOT_FREE, SLOT_TAKEN, SLOT_SET };
static int slot_state[FORWARD_SLOTS];
static pthread_t slot_thread[FORWARD_SLOTS];
static int handling;
static __thread int my_slot = -1, my_depth;	/* enter/leave pairs nest */

static void on_interrupt(int sig, siginfo_t *info, void *context)
{
	(void)context;
	__atomic_add_fetch(&handling, 1, __ATOMIC_SEQ_CST);
	__atomic_store_n(&interrupted, 1, __ATOMIC_SEQ_CST);
	/*
	 * Every signal from outside (each Ctrl-C: a thread busy when the
	 * first came may block in a read later), never the copies passed on
	 * (SI_TKILL from this process: pthread_kill), which would pass on
	 * forever.  Another process's tgkill is from outside.
	 */
	if (info->si_code != SI_TKILL || info->si_pid != getpid()) {
		pthread_t self = pthread_self();

		for (int i = 0; i < FORWARD_SLOTS; i++)
			if (__atomic_load_n(&slot_state[i], __ATOMIC_SEQ_CST) == SLOT_SET &&
			    !pthread_equal(slot_thread[i], self))
				pthread_kill(slot_thread[i], sig);
	}
	__atomic_sub_fetch(&handling, 1, __ATOMIC_SEQ_CST);
}

void ss_interrupt_enter_thread(void)
{
	if (my_depth++)
		return;
	for (int i = 0; i < FORWARD_SLOTS; i++) {
		int free_slot = SLOT_FREE;

		if (__atomic_compare_exchange_n(&slot_state[i], &free_slot, SLOT_TAKEN,
						false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
			slot_thread[i] = pthread_self();
			__atomic_store_n(&slot_state[i], SLOT_SET, __ATOMIC_SEQ_CST);
			my_slot = i;
			return;
		}
	}
	/* every slot taken: this thread sees the interrupt at its next check */
}

void ss_interrupt_leave_thread(void)
{
	if (--my_depth || my_slot < 0)
		return;
	__atomic_store_n(&slot_state[my_slot], SLOT_TAKEN, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&handling, __ATOMIC_SEQ_CST))
		;
	__atomic_store_n(&slot_state[my_slot], SLOT_FREE, __ATOMIC_SEQ_CST);
	my_slot = -1;
}

void ss_catch_interrupt(void)
{
	struct sigaction sa = { .sa_sigaction = on_interrupt, .sa_flags = SA_SIGINFO };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
}

/* atomic: the handler may run on another thread than the one asking */
bool ss_interrupted(void)
{
	return __atomic_load_n(&interrupted, __ATOMIC_ACQUIRE);
}
