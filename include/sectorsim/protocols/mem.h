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

#include <stddef.h>
#include <string.h>
#include <sectorsim/port.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MEM_PROTOCOL "mem.sector"
#define MEM_ATOM 32u		/* bytes: the unit of every sector count */

/* The units of MEM_ATOM bytes that `bytes` bytes count as (a part of one
 * counts whole): what a level below counts for a request of that size. */
static inline uint32_t mem_atoms(uint32_t bytes)
{
	return (bytes + MEM_ATOM - 1) / MEM_ATOM;
}

enum mem_op {			/* carried in hdr.kind */
	MEM_READ = 1,
	MEM_WRITE,
	MEM_ATOMIC,
	MEM_REDUCTION,
	MEM_CONTROL,
	MEM_RESPONSE,		/* up: the data of an accepted request is there */
	MEM_REFUSE,		/* up: the request did not happen; `reason` says why */
	MEM_RETRY,		/* up: room again after a refusal */
	MEM_RUN,		/* down: struct mem_run, requests in order */
	MEM_TALLY,		/* down: struct mem_tally, requests counted */
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

/* 48 bytes: every field after flags lies in what was its padding (the
 * last 8 bytes, flags to tag, are what mem_run_add reads as one word) */
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

/*
 * Several requests of one sender in one message, in the order sent, the
 * same as sending them one by one: crossing threads and reaching the
 * receiver once per run rather than per request is what it is for.  A
 * component sends runs only to an input that takes them
 * (SS_PORT_BATCHES, ss_port_peer_flags), each made and sent in one
 * event, so that it arrives when its requests would have; where that
 * input is also SS_PORT_TIMELESS (and the run has several partitions:
 * see there), a run may hold requests of several events.  The receiver takes each request as mem_run_request gives it
 * back.  A run holds only requests that mem_run_add takes: reads,
 * writes, atomics and reductions of MEM_GLOBAL or MEM_LOCAL space,
 * part_addr the address, no flags and none of the answer fields, all of
 * one SM and size.
 */
/*
 * 31 (a run of 512 bytes, SS_MSG_MAX): against 15, the benchmark app's
 * native titanv-ref run on two threads, whose L2 partition receives every
 * L1's requests as full runs, took 0.946 of the wall time (31 pairs) and
 * titanv.ini 0.927 (7 pairs); 63 did no better (0.995, 21 pairs).
 */
#define MEM_RUN_MAX 31

struct mem_run_entry {
	uint64_t addr;		/* low 5 bits: the kind (4 bits), the space (1) */
	uint32_t mask, warp;
};

struct mem_run {
	struct ss_msg hdr;	/* MEM_RUN; size: up to the last entry used */
	uint16_t n;		/* entries, 1 .. MEM_RUN_MAX */
	uint16_t sm;
	uint32_t size;
	struct mem_run_entry req[MEM_RUN_MAX];
};

/*
 * Whether requests of r's shape join runs, whatever their address (32-byte
 * aligned, part_addr the same) and mask: the fields a run leaves out are
 * checked with one branch, the last four (flags, reason, route, tag) as
 * one word.  A sender that makes many requests of one shape checks it
 * once and fills a run's entries itself (SM, size, n and hdr too).
 */
static inline bool mem_run_shape(const struct mem_req *r)
{
	uint64_t answer_fields;

	memcpy(&answer_fields, &r->flags, sizeof(answer_fields));
	return !((uint64_t)(r->space >> 1) | r->ctl | answer_fields |
		 (r->hdr.size ^ (uint32_t)sizeof(*r)) |
		 ((r->hdr.kind - MEM_READ) & ~(uint32_t)(MEM_REDUCTION - MEM_READ)));
}

G_STATIC_ASSERT(offsetof(struct mem_req, flags) + 8 == sizeof(struct mem_req));
G_STATIC_ASSERT(MEM_REDUCTION - MEM_READ == 3);	/* the kinds a run holds: a mask */
G_STATIC_ASSERT(sizeof(struct mem_run) <= SS_MSG_MAX);

/* What an entry adds below a request's address: its kind and space. */
static inline uint64_t mem_run_low(const struct mem_req *r)
{
	return r->hdr.kind | (uint64_t)r->space << 4;
}

/* An entry's address: the request's, with its kind and space below. */
static inline uint64_t mem_run_addr(const struct mem_req *r)
{
	return r->addr | mem_run_low(r);
}

/* The bytes of a run of n entries, its hdr.size. */
static inline uint32_t mem_run_bytes(unsigned n)
{
	return (uint32_t)(offsetof(struct mem_run, req) + n * sizeof(struct mem_run_entry));
}

/* Whether r joins the run, and then it is added. */
static inline bool mem_run_add(struct mem_run *run, const struct mem_req *r)
{
	unsigned n = run->n;

	if ((r->addr & (MEM_ATOM - 1)) | (r->part_addr ^ r->addr) || !mem_run_shape(r))
		return false;
	if (!n) {
		run->sm = r->sm;
		run->size = r->size;
		run->hdr = (struct ss_msg){ mem_run_bytes(0), MEM_RUN };
	} else if (n == MEM_RUN_MAX || ((r->sm ^ run->sm) | (r->size ^ run->size))) {
		return false;
	}
	run->req[n].addr = mem_run_addr(r);
	run->req[n].mask = r->mask;
	run->req[n].warp = r->warp;
	run->n = (uint16_t)(n + 1);
	run->hdr.size += (uint32_t)sizeof(run->req[0]);
	return true;
}

/*
 * r, which holds a request of run, becomes its request k: only what
 * differs among a run's requests is written.
 */
static inline void mem_run_next(const struct mem_run *run, unsigned k,
				struct mem_req *r)
{
	/* the entry whole before r is written: r may alias it as far as the
	 * compiler knows, which would read it again after each store */
	const struct mem_run_entry e = run->req[k];

	r->hdr.kind = (uint32_t)(e.addr & 15);
	r->addr = r->part_addr = e.addr & ~(uint64_t)(MEM_ATOM - 1);
	r->mask = e.mask;
	r->space = (uint8_t)(e.addr >> 4 & 1);
	r->warp = e.warp;
}

/* Request k of run, as it was added. */
static inline void mem_run_request(const struct mem_run *run, unsigned k,
				   struct mem_req *r)
{
	uint64_t a = run->req[k].addr;

	*r = (struct mem_req){
		.hdr = { sizeof(*r), (uint32_t)(a & 15) },
		.addr = a & ~(uint64_t)(MEM_ATOM - 1),
		.part_addr = a & ~(uint64_t)(MEM_ATOM - 1),
		.size = run->size,
		.mask = run->req[k].mask,
		.space = (uint8_t)(a >> 4 & 1),
		.sm = run->sm,
		.warp = run->req[k].warp,
	};
}

/*
 * Requests counted instead of sent, for an input that only counts them
 * (SS_PORT_COUNTS): per kind, the 32-byte units of their sizes as a
 * counter takes them (mem_atoms).  Reads, writes, atomics
 * and reductions are tallied (mem_tally_add), anything else is sent as
 * it is, after the tally held so far.
 */
struct mem_tally {
	struct ss_msg hdr;	/* MEM_TALLY */
	uint32_t n;		/* requests tallied */
	uint32_t pad;
	uint64_t atoms[MEM_REDUCTION - MEM_READ + 1];	/* from MEM_READ on */
};

G_STATIC_ASSERT(sizeof(struct mem_tally) <= SS_MSG_MAX);

/* n requests alike of kind `op` (one a tally counts) and `size` bytes
 * counted. */
static inline void mem_tally_count_n(struct mem_tally *t, uint32_t op, uint32_t size,
				     uint32_t n)
{
	t->atoms[op - MEM_READ] += (uint64_t)mem_atoms(size) * n;
	t->n += n;
}

/* A request of kind `op` and `size` bytes counted: whether op is one a
 * tally counts. */
static inline bool mem_tally_count(struct mem_tally *t, uint32_t op, uint32_t size)
{
	if (op - MEM_READ > MEM_REDUCTION - MEM_READ)
		return false;
	mem_tally_count_n(t, op, size, 1);
	return true;
}

/* Whether r is one a tally counts, and then it is counted. */
static inline bool mem_tally_add(struct mem_tally *t, const struct mem_req *r)
{
	return mem_tally_count(t, r->hdr.kind, r->size);
}

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
