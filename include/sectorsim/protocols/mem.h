/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The `mem.sector` protocol of the stock components, public so that a
 * plugin can take the place of any of them.  The protocol: memory requests between the warp interleaver,
 * caches, the L2 and DRAM.  One request covers `size` bytes from a 32-byte
 * aligned address (one 32 B sector for everything a coalescer produces;
 * a multiple of 32 when a cache with larger sectors fetches or writes back).
 * Control messages travel on the same links so that they stay in order with
 * the requests around them; every hop acts on one, then passes it down.  A
 * component with several inputs passes a kernel's end down once all of
 * them have ended it.
 *
 * In the functional modes nothing comes back up.  A level in timing mode
 * answers each read, atomic and reduction it accepts, once, with a
 * MEM_RESPONSE when the data is there (its own hit latency, or when the
 * level below answered its miss), or refuses it at once with a MEM_REFUSE
 * whose `reason` says why (enum mem_refusal); the answer carries the
 * request's fields (addr, size, space, sm, warp, tag) so that the
 * requester can match it, and `ctl` the kind it answers.  Writes are posted: never answered, and a
 * request flagged MEM_F_POSTED is not answered either.  After refusing, a
 * level sends MEM_RETRY up the inputs it refused once it has room again.
 */
#ifndef SECTORSIM_MEM_H
#define SECTORSIM_MEM_H

#include <sectorsim/port.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MEM_PROTOCOL "mem.sector"
#define MEM_ATOM 32u		/* bytes: the unit of every sector count */

enum mem_op {			/* carried in hdr.kind */
	MEM_READ = 1,
	MEM_WRITE,
	MEM_ATOMIC,
	MEM_REDUCTION,
	MEM_CONTROL,
	MEM_RESPONSE,		/* up: the data of an accepted request is there */
	MEM_REFUSE,		/* up: the request did not happen; `reason` says why */
	MEM_RETRY,		/* up: room again after a refusal */
};

enum mem_refusal {		/* carried in `reason` of a MEM_REFUSE */
	MEM_REFUSED_ENTRIES = 1,	/* every MSHR entry holds another line */
	MEM_REFUSED_TARGETS,	/* the line's MSHR entry has no target left */
};

enum mem_space {
	MEM_GLOBAL = 0,
	MEM_LOCAL = 1,
};

enum mem_ctl {			/* what a MEM_CONTROL message asks */
	MEM_CTL_INVALIDATE = 1,	/* drop every line, write back nothing */
	MEM_CTL_FLUSH,		/* write back dirty sectors, then invalidate */
	MEM_CTL_KERNEL_BEGIN,	/* a kernel starts; addr: its L1 capacity in
				   bytes for caches that take it, 0: keep;
				   warp: the kernel's id */
	MEM_CTL_KERNEL_END,	/* this input sends nothing more for the kernel */
	MEM_CTL_COMPLETE,	/* timing: the requests sent so far in this
				   tick are a group; a level that changes its
				   state when an access completes (sdcm_cache
				   in timing mode) completes what is due now */
};

/* 48 bytes: every field after flags lies in what was its padding */
struct mem_req {
	struct ss_msg hdr;
	uint64_t addr;		/* byte address, 32 B aligned */
	uint64_t part_addr;	/* partition address for index_on = partition */
	uint32_t size;		/* bytes, a multiple of 32 */
	uint32_t mask;		/* bytes written of a 32 B write (bit i = byte i);
				   a larger write covers all its bytes */
	uint8_t space;		/* enum mem_space */
	uint8_t ctl;		/* enum mem_ctl, for MEM_CONTROL; the kind
				   answered, for MEM_RESPONSE and MEM_REFUSE */
	uint16_t sm;		/* originating SM, for statistics */
	uint32_t warp;
	uint8_t flags;		/* MEM_F_* */
	uint8_t reason;		/* enum mem_refusal, for MEM_REFUSE */
	uint16_t route;		/* the input a router took it from, given back
				   in answers (one router on a path) */
	uint32_t tag;		/* the requester's own, given back in answers */
};

enum mem_flag {
	/* not kept by the first cache level (an SM's L1): atomics,
	   reductions, .STRONG.GPU loads; counted there as lookups that miss */
	MEM_F_BYPASS = 1,
	/* timing mode: the requester waits for no answer (a fetch a write
	   miss causes, say) */
	MEM_F_POSTED = 2,
	/* timing mode: the requester can take a refusal for want of MSHRs
	   and sends the request again later of its own accord; a level
	   that admits misses beyond its MSHRs (sdcm_cache) refuses only
	   requests with this flag */
	MEM_F_MAY_WAIT = 4,
};

/* Whether a level in timing mode answers r (see above). */
static inline bool mem_req_wants_answer(const struct mem_req *r)
{
	return r->hdr.kind != MEM_WRITE && r->hdr.kind != MEM_CONTROL &&
	       !(r->flags & MEM_F_POSTED);
}

static inline void mem_req_init(struct mem_req *r, enum mem_op op,
				uint64_t addr, uint32_t size)
{
	*r = (struct mem_req){
		.hdr = { sizeof(*r), op },
		.addr = addr,
		.part_addr = addr,
		.size = size,
		.mask = UINT32_MAX,
	};
}

#ifdef __cplusplus
}
#endif

#endif
