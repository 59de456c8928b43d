/* SPDX-License-Identifier: BSD-3-Clause */
/* Units of work shared among worker threads (unit_pool.h). */
#include "config.h"

#include <sectorsim/engine.h>
#include "unit_pool.h"

struct unit_pool {
	size_t n;
	size_t next;		/* atomic: the next unit to take */
	int failed;		/* atomic: some worker failed */
	void *shared;
	unit_fn fn;
};

struct unit_worker {
	struct unit_pool *pool;
	void *state;
	size_t fail_at;		/* the unit of its failure, or SIZE_MAX */
	GError *err;
};

static gpointer worker_main(gpointer data)
{
	struct unit_worker *w = data;
	struct unit_pool *pool = w->pool;

	ss_interrupt_enter_thread();
	w->fail_at = SIZE_MAX;
	while (!g_atomic_int_get(&pool->failed)) {
		size_t u = __atomic_fetch_add(&pool->next, 1, __ATOMIC_RELAXED);

		if (u >= pool->n)
			break;
		if (!pool->fn(pool->shared, w->state, u, &w->err)) {
			/* a failure is never lost for want of a message */
			if (!w->err)
				g_set_error(&w->err, SS_ERROR, SS_ERROR_INTERNAL,
					    "unit %zu of %zu failed without saying why", u, pool->n);
			w->fail_at = u;
			g_atomic_int_set(&pool->failed, 1);
			break;
		}
	}
	ss_interrupt_leave_thread();
	return NULL;
}

bool unit_pool_run(size_t n_units, unsigned k, void *shared, void *const *workers,
		   unit_fn fn, GError **err)
{
	struct unit_pool pool = { .n = n_units, .shared = shared, .fn = fn };
	struct unit_worker *w = g_new0(struct unit_worker, MAX(k, 1u));
	GThread **th = g_new0(GThread *, MAX(k, 1u));
	struct unit_worker *first = NULL;

	k = MAX(k, 1u);
	for (unsigned i = 0; i < k; i++) {
		w[i].pool = &pool;
		w[i].state = workers[i];
		/* no thread: the others share its part */
		if (i)
			th[i] = g_thread_try_new("sectorsim-load", worker_main, &w[i], NULL);
	}
	worker_main(&w[0]);
	for (unsigned i = 0; i < k; i++) {
		if (th[i])
			g_thread_join(th[i]);
		if (w[i].err && (!first || w[i].fail_at < first->fail_at))
			first = &w[i];
	}
	if (first)
		g_propagate_error(err, g_steal_pointer(&first->err));
	for (unsigned i = 0; i < k; i++)
		g_clear_error(&w[i].err);
	g_free(th);
	g_free(w);
	return !first;
}
