/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The reference's merge of several request streams (the L1s' into its
 * one L2, SMs ascending): round-
 * robin over the inputs in ascending order, one request at a time, an input
 * whose stream ended being skipped.  Inputs deliver in any interleaving, so
 * each has a FIFO and input k's turn is taken only once k has a request or
 * has ended the kernel: the order is that of the whole streams, whatever
 * the timing.  Used by every component with several inputs that the
 * reference merges (the L2 of either cache model); with `arrival`, requests
 * are served as they come and only the kernel's end waits for every input.
 */
#ifndef SS_RR_MERGE_H
#define SS_RR_MERGE_H

#include <stdbool.h>
#include <sectorsim/protocols/mem.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*rr_serve_fn)(void *ctx, const struct mem_req *r);

struct rr_merge;

struct rr_merge *rr_merge_new(unsigned n_inputs, bool arrival,
			       rr_serve_fn serve, void *ctx);
void rr_merge_free(struct rr_merge *m);

/* A request from input i: served (through serve) now, or queued. */
void rr_merge_push(struct rr_merge *m, unsigned i, const struct mem_req *r);

/*
 * The requests of a run from input i (mem.h), in order, as if pushed one
 * by one, except that a request pushed from inside a serve() of one of
 * them comes after the whole run (on a link, the run came first).
 */
void rr_merge_push_run(struct rr_merge *m, unsigned i, const struct mem_run *run);

/*
 * Input i ended the kernel.  True when that was the last input: everything
 * has been served and the merge is ready for the next kernel.  An input
 * that ends a kernel twice is a component bug (g_error).
 */
bool rr_merge_end(struct rr_merge *m, unsigned i);

/*
 * The request whose turn it is, taken out of its queue into *r: false
 * when the input whose turn it is has not sent it yet, or every input
 * has ended.  For a drain of the owner's own.
 */
bool rr_merge_next(struct rr_merge *m, struct mem_req *r);

/*
 * Whenever requests may be served, call drain(ctx) instead of serve() per
 * request: it must take them with rr_merge_next() until that gives none,
 * serving each as serve() would, so that one loop of the owner's serves
 * them all.  serve() still serves a request that comes in its turn with
 * nothing queued before it.  NULL: serve() per request.
 */
typedef void (*rr_drain_fn)(void *ctx);
void rr_merge_set_drain(struct rr_merge *m, rr_drain_fn drain);

#ifdef __cplusplus
}
#endif

#endif
