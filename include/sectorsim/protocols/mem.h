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
};

struct mem_req {
	struct ss_msg hdr;
	uint64_t addr;		/* byte address, 32 B aligned */
	uint64_t part_addr;	/* partition address for index_on = partition */
	uint32_t size;		/* bytes, a multiple of 32 */
	uint32_t mask;		/* bytes written of a 32 B write (bit i = byte i);
				   a larger write covers all its bytes */
	uint8_t space;		/* enum mem_space */
	uint8_t ctl;		/* enum mem_ctl, for MEM_CONTROL */
	uint16_t sm;		/* originating SM, for statistics */
	uint32_t warp;
	uint8_t flags;		/* MEM_F_* */
};

enum mem_flag {
	/* not kept by the first cache level (an SM's L1): atomics,
	   reductions, .STRONG.GPU loads; counted there as lookups that miss */
	MEM_F_BYPASS = 1,
};

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
