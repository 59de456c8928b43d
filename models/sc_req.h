/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * How a sector cache makes the requests it sends to the next level, for
 * the models that must send exactly what it sends (sector_cache.c,
 * sc_stack.c).  Internal: not installed.
 */
#ifndef SS_SC_REQ_H
#define SS_SC_REQ_H

#include <string.h>
#include <sectorsim/protocols/mem.h>

/*
 * A request to the next level, made from the one being served (so it keeps
 * its space, SM and warp) or, for a write-back, from nothing.  Made in
 * pieces, which takes fewer instructions than a copy and patches.
 */
static inline __attribute__((always_inline)) void
make_req(struct mem_req *o, enum mem_op op, uint64_t addr, uint32_t size,
	 uint32_t mask, const struct mem_req *from)
{
	if (from) {
		/* not the whole header: a load wider than the store that just
		 * set the kind would wait for it to reach the cache */
		o->hdr.size = sizeof(*o);
		o->part_addr = from->part_addr + (addr - from->addr);
		/* space, ctl, sm, warp: the rest of the request */
		memcpy(&o->space, &from->space,
		       sizeof(*o) - offsetof(struct mem_req, space));
	} else {
		*o = (struct mem_req){ .hdr = { sizeof(*o), 0 } };
		o->part_addr = addr;
	}
	o->hdr.kind = op;
	o->addr = addr;
	o->size = size;
	o->mask = mask;
	o->ctl = 0;
}

/*
 * The request down, or the one being served when it would be the same: a
 * read of a 32-byte sector and a write-through go down unchanged, and
 * passing them on saves building a copy, which the benchmark shows to be
 * the dearest part of a miss.  The mask of a read means nothing (mem.h).
 */
static inline __attribute__((always_inline)) const struct mem_req *
down_req(struct mem_req *o, enum mem_op op, uint64_t addr, uint32_t size,
	 uint32_t mask, const struct mem_req *from)
{
	if (from && from->hdr.kind == (uint32_t)op && from->addr == addr &&
	    from->size == size && (op == MEM_READ || from->mask == mask))
		return from;
	make_req(o, op, addr, size, mask, from);
	return o;
}

#endif
