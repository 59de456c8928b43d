/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The GPU-side protocols of the stock components, public so that a plugin
 * can take the place of any of them:
 *
 *   gpu.kernel    kernel launches: trace source -> block scheduler, and the
 *                 scheduler's decisions -> whoever reports them; kernel done
 *                 back to the trace source
 *   gpu.dispatch  what the block scheduler hands one SM: kernel begin (with
 *                 its L1 size), its blocks, then go
 *
 * Blocks travel as pointers to line streams owned by the trace source.  They
 * stay valid until the trace source is told the kernel is done, so a
 * receiver keeps the pointer, never a copy.
 */
#ifndef SECTORSIM_GPU_H
#define SECTORSIM_GPU_H

#include <string.h>
#include <sectorsim/port.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GPU_KERNEL_PROTOCOL "gpu.kernel"
#define GPU_DISPATCH_PROTOCOL "gpu.dispatch"

#define GPU_WARP_UNKNOWN UINT32_MAX

/* A progression line (gpu_line.step) has at most this many addresses. */
#define GPU_STEP_MAX 32

/*
 * One warp-level memory instruction, as the trace gives it: the active
 * lanes' addresses in lane order (zeros never listed).  Most are an
 * arithmetic progression (a strided access), which a line may hold as its
 * first address and a step instead of every address, so that a trace
 * takes a fraction of the memory and no time to expand: when step is not
 * 0, addr points at the first address only, and address k is addr[0] +
 * k * step (modulo 2^64), 2 <= n_addr <= GPU_STEP_MAX.  Read a line's
 * addresses with gpu_line_addr() or gpu_line_addrs(), which take either.
 */
struct gpu_line {
	const char *opcode;	/* with its modifiers: "LDG.E.64" */
	const uint64_t *addr;	/* step 0: all n_addr addresses; else the first */
	uint32_t n_addr;
	uint32_t warp;		/* GPU_WARP_UNKNOWN when the format has none */
	uint32_t lanes;		/* bit i: lane i's address is in the line (so
				   popcount = n_addr); 0: the format has no lanes */
	int32_t step;		/* 0: addr[] lists them all; else a progression */
	/*
	 * The line's sectors as the reference's coalescer orders them
	 * (models/coalesce.h: COALESCE_PYSET, sectors of GPU_PYSET_SECTOR_BYTES,
	 * lines of GPU_PYSET_LINE_BYTES), when the trace holds them (native
	 * format version 4 on), else NULL: sector k is the address
	 * ((addr[0] >> GPU_PYSET_SECTOR_SHIFT) + pyset_sectors[k]) <<
	 * GPU_PYSET_SECTOR_SHIFT, modulo 2^64.  A consumer coalescing the
	 * same way may take them instead of coalescing.
	 */
	const int32_t *pyset_sectors;
	uint16_t n_pyset_sectors;	/* 1 .. n_addr when pyset_sectors */
	uint16_t pyset_lines;		/* distinct lines among them */
};

/* The coalescing gpu_line.pyset_sectors holds: 32-byte sectors, lines of
 * 128 bytes for pyset_lines. */
#define GPU_PYSET_SECTOR_SHIFT 5
#define GPU_PYSET_SECTOR_BYTES (1u << GPU_PYSET_SECTOR_SHIFT)
#define GPU_PYSET_LINE_BYTES 128

/* Address k (< n_addr) of line l. */
static inline uint64_t gpu_line_addr(const struct gpu_line *l, uint32_t k)
{
	return l->step ? l->addr[0] + (uint64_t)k * (uint64_t)(int64_t)l->step
		       : l->addr[k];
}

/* The addresses of line l as an array: l->addr itself, or buf filled. */
static inline const uint64_t *gpu_line_addrs(const struct gpu_line *l,
					     uint64_t buf[GPU_STEP_MAX])
{
	uint64_t a, step;

	if (!l->step)
		return l->addr;
	a = l->addr[0];
	step = (uint64_t)(int64_t)l->step;
	for (uint32_t k = 0; k < l->n_addr && k < GPU_STEP_MAX; k++, a += step)
		buf[k] = a;
	return buf;
}

/* A thread block: its memory instructions, in file order for a
 * reference-format trace; for an Accel-Sim trace in the reference's
 * conversion order: round-robin over the warps by ascending id, one trace
 * instruction (kept or not) of each a round.  Each line names its warp, so
 * the hardware-faithful issue can take the warps apart again. */
struct gpu_block_stream;

struct gpu_block {
	uint64_t id;		/* z * gx * gy + y * gx + x */
	uint32_t n_lines;
	/* the lines; NULL when `stream` gives them one at a time */
	const struct gpu_line *lines;
	/* instructions the reader saw but did not keep as lines */
	uint32_t n_shared;	/* shared-memory ones: LDS, STS, ATOMS, LDSM */
	uint32_t n_unknown;	/* other bases that carry addresses */
	/*
	 * NULL, or how to read the lines in order without holding them all:
	 * a reader of a file that stores blocks compactly (the native
	 * format) hands blocks out so, and a kernel whose blocks are all
	 * resident at once takes the memory of its file's bytes instead of
	 * several times that decoded.  A receiver reads them with a
	 * gpu_line_cursor, or gathers them with gpu_block_gather().
	 */
	const struct gpu_block_stream *stream;
};

/* A receiver's place in a streamed block's lines; the reader's fields. */
struct gpu_line_cursor {
	const void *at, *at_sectors;
	uint64_t prev;
	uint32_t prev_lanes;
	uint32_t left;		/* lines still to read */
};

/* Where a cursor's line puts its addresses and sectors: the receiver's,
 * grown as need be, reused from line to line (gpu_line_room_free). */
struct gpu_line_room {
	uint64_t *addr;
	int32_t *sectors;
	size_t addr_cap, sectors_cap;
};

struct gpu_block_stream {
	/* cur before b's first line (cur->left = b->n_lines) */
	void (*open)(const struct gpu_block *b, struct gpu_line_cursor *cur);
	/*
	 * b's next line (cur->left > 0) into *l, whose addresses and sectors
	 * are in room until the next call with it.  False with *err
	 * (SS_ERROR_INPUT, "FILE: ...") when the line is damaged: a file's
	 * checksums pass, but a file made by hand can still hold a line that
	 * does not parse, found only when it is read.
	 */
	bool (*next)(const struct gpu_block *b, struct gpu_line_cursor *cur,
		     struct gpu_line *l, struct gpu_line_room *room, GError **err);
};

/* Room for n addresses and n sectors (what one line may take). */
static inline void gpu_line_room_reserve(struct gpu_line_room *r, size_t n)
{
	if (n > r->addr_cap) {
		r->addr_cap = n > 2 * r->addr_cap ? n : 2 * r->addr_cap;
		r->addr = g_renew(uint64_t, r->addr, r->addr_cap);
	}
	if (n > r->sectors_cap) {
		r->sectors_cap = n > 2 * r->sectors_cap ? n : 2 * r->sectors_cap;
		r->sectors = g_renew(int32_t, r->sectors, r->sectors_cap);
	}
}

static inline void gpu_line_room_free(struct gpu_line_room *r)
{
	g_free(r->addr);
	g_free(r->sectors);
	memset(r, 0, sizeof(*r));
}

/*
 * Every line of a block into one receiver's storage, for a receiver that
 * visits lines out of order: b itself when it holds its lines, else a
 * block in *g (the same id and counts, its lines gathered; valid until
 * the next gather into g or gpu_block_gathered_free()).  NULL with *err
 * when a line is damaged.
 */
struct gpu_block_gathered {
	struct gpu_block block;
	struct gpu_line *lines;
	uint64_t *addr;
	int32_t *sectors;
	size_t lines_cap, addr_cap, sectors_cap;
	struct gpu_line_room room;
};

static inline const struct gpu_block *
gpu_block_gather(const struct gpu_block *b, struct gpu_block_gathered *g,
		 GError **err)
{
	struct gpu_line_cursor cur;
	size_t n_addr = 0, n_sectors = 0;

	if (!b->stream)
		return b;
	if (b->n_lines > g->lines_cap) {
		g->lines_cap = b->n_lines;
		g->lines = g_renew(struct gpu_line, g->lines, g->lines_cap);
	}
	b->stream->open(b, &cur);
	for (uint32_t i = 0; i < b->n_lines; i++) {
		struct gpu_line *l = &g->lines[i];
		size_t na, ns;

		if (!b->stream->next(b, &cur, l, &g->room, err))
			return NULL;
		na = l->step ? 1 : l->n_addr;
		ns = l->pyset_sectors ? l->n_pyset_sectors : 0;
		if (n_addr + na > g->addr_cap) {
			g->addr_cap = MAX(n_addr + na, 2 * g->addr_cap);
			g->addr = g_renew(uint64_t, g->addr, g->addr_cap);
		}
		if (n_sectors + ns > g->sectors_cap) {
			g->sectors_cap = MAX(n_sectors + ns, 2 * g->sectors_cap);
			g->sectors = g_renew(int32_t, g->sectors, g->sectors_cap);
		}
		if (na)
			memcpy(g->addr + n_addr, l->addr, na * sizeof(*g->addr));
		if (ns)
			memcpy(g->sectors + n_sectors, l->pyset_sectors,
			       ns * sizeof(*g->sectors));
		/* offsets until the storage stops moving */
		l->addr = (const uint64_t *)(uintptr_t)n_addr;
		l->pyset_sectors = ns ? (const int32_t *)(uintptr_t)(n_sectors + 1) : NULL;
		n_addr += na;
		n_sectors += ns;
	}
	for (uint32_t i = 0; i < b->n_lines; i++) {
		struct gpu_line *l = &g->lines[i];

		l->addr = g->addr ? g->addr + (uintptr_t)l->addr : NULL;
		if (l->pyset_sectors)
			l->pyset_sectors = g->sectors + ((uintptr_t)l->pyset_sectors - 1);
	}
	g->block = *b;
	g->block.lines = g->lines;
	g->block.stream = NULL;
	return &g->block;
}

static inline void gpu_block_gathered_free(struct gpu_block_gathered *g)
{
	g_free(g->lines);
	g_free(g->addr);
	g_free(g->sectors);
	gpu_line_room_free(&g->room);
	memset(g, 0, sizeof(*g));
}

/* Launch data of a kernel. */
struct gpu_kernel {
	uint32_t id;		/* as reported: app_kernels_id entry or list ordinal */
	const char *name;
	uint32_t grid[3], block[3];
	uint64_t grid_size;	/* blocks */
	uint32_t block_size;	/* threads per block */
	uint32_t regs;		/* registers per thread */
	uint32_t smem;		/* shared memory bytes per block */
	uint64_t stream_id;
	uint32_t ordinal;	/* its place in the trace, from 1 */
	uint32_t n_kernels;	/* kernels in the trace; 0: not known */
	uint64_t trace_bytes;		/* of this kernel's files, as stored */
	uint64_t trace_bytes_before;	/* of the trace's files, before this kernel's */
	uint64_t trace_bytes_total;	/* all of them (as stored); 0: not known */
	/* generic-address windows of the kernel (Accel-Sim header); 0: not known */
	uint64_t shmem_base, local_base;
	/* where its blocks are stored, for messages: the kernel's trace file,
	 * or the folder of its block files; NULL: not known */
	const char *trace_file;
	/* the compute capability its code was compiled for, major x 10 +
	 * minor (Accel-Sim's "-binary version"); 0: not known */
	uint32_t binary_version;
};

/*
 * Where the blocks of the current kernel come from: an object with an ops
 * table, carried by GPU_KERNEL_BEGIN, so that a scheduler loads only the
 * blocks it will run.
 */
struct gpu_block_source;

struct gpu_block_source_ops {
	/*
	 * Blocks ids[0..n-1] (ascending) of the current kernel into out[]; a
	 * block the trace lacks is an empty block, not an error.  False with
	 * *err (SS_ERROR_INPUT, "FILE:LINE: ...") on malformed input.
	 */
	bool (*load)(struct gpu_block_source *s, const uint64_t *ids, size_t n,
		     const struct gpu_block **out, GError **err);
	/*
	 * Optional (NULL: blocks live until the kernel is done).  Nobody
	 * will look at block b again, nor load it again: its lines may be
	 * freed, so that a kernel of many waves needs the memory of its
	 * resident blocks only.
	 */
	void (*release)(struct gpu_block_source *s, const struct gpu_block *b);
	/*
	 * Optional (NULL: any block may hold lines).  The first block id >=
	 * from of the current kernel that the source may hold lines for, or
	 * the grid size: the blocks before it would each load as an empty
	 * block with nothing dropped, so a dispatcher may count them without
	 * loading them (a paper-format grid of 10^10 blocks with few files).
	 */
	uint64_t (*next_held)(struct gpu_block_source *s, uint64_t from);
	/*
	 * Optional (NULL: not known).  How many blocks of the current
	 * kernel's grid the trace holds, so that a trace with fewer blocks
	 * than its grid (cut short, or files missing) is not taken for a
	 * whole one.  May read the rest of the kernel's trace to count them:
	 * false with *err (as load) on malformed input.
	 */
	bool (*count_held)(struct gpu_block_source *s, uint64_t *n, GError **err);
	/*
	 * Optional (NULL: never).  How many blocks loaded so far for the
	 * current kernel came from a file whose last line lacks its line end
	 * (the file may have been cut short; the line was read as it is),
	 * and in *first, when any did, the file of the lowest such block.
	 */
	uint64_t (*cut_short)(struct gpu_block_source *s, const char **first);
	/*
	 * Optional (NULL, or false: not known).  Bytes of the current
	 * kernel's files (as stored: gpu_kernel.trace_bytes is all of them;
	 * the answer may exceed it, meaning all) read so far, for a progress
	 * line inside a kernel.  Safe to call from any thread while blocks
	 * load; the answer may be a little behind.
	 */
	bool (*bytes_read)(struct gpu_block_source *s, uint64_t *n);
};

struct gpu_block_source {
	const struct gpu_block_source_ops *ops;
};

/* What the scheduler decided for a kernel: its occupancy, its L1 size
 * and how many blocks each SM runs. */
struct gpu_occupancy {
	uint32_t lim_warps, lim_blocks, lim_regs, lim_smem;
	uint32_t th_max_active;		/* blocks per SM the resources allow */
	uint32_t alloc;			/* ceil(grid / SMs) */
	uint32_t max_active;		/* blocks resident per SM: min(th_max_active,
					   alloc); th_max_active under dynamic
					   dispatch with the eq7 carveout */
	uint64_t carveout_bytes;	/* shared memory carved out of the unified array */
	uint64_t l1_bytes;		/* what is left for the L1 */
	uint32_t active_sms;		/* SMs that get blocks */
	uint32_t sim_blocks;		/* blocks simulated per SM; dynamic: an
					   SM's share, ceil(grid / SMs) */
	uint32_t avg_blocks;		/* ceil(grid / SMs) */
	double scale;			/* avg_blocks / sim_blocks: counts are multiplied by it */
	uint32_t num_sms;		/* SMs of the GPU */
	bool dynamic;			/* every block runs, dispatched as slots free up */
};

enum gpu_kernel_op {			/* carried in hdr.kind */
	GPU_KERNEL_BEGIN = 1,		/* kernel, blocks (source -> scheduler) */
	GPU_KERNEL_PLANNED,		/* kernel, its block source, occupancy
					   (scheduler -> report) */
	GPU_KERNEL_DONE,		/* every counter of the kernel is final */
	GPU_KERNEL_SKIP,		/* kernel->id is not to be run: its results
					   exist (a resumed run; report -> source) */
};

struct gpu_kernel_msg {
	struct ss_msg hdr;
	const struct gpu_kernel *kernel;
	struct gpu_block_source *blocks;	/* BEGIN, PLANNED */
	const struct gpu_occupancy *occ;	/* PLANNED; NULL when the kernel cannot run */
};

enum gpu_dispatch_op {			/* carried in hdr.kind */
	GPU_DISPATCH_BEGIN = 1,		/* kernel, occupancy: a new kernel */
	GPU_DISPATCH_BLOCK,		/* one more block for this SM, in issue order;
					   one without lines is done as it comes
					   (no slot, no DONE) */
	GPU_DISPATCH_GO,		/* the first blocks are all there: issue */
	GPU_DISPATCH_LAST,		/* no block will follow: end the kernel
					   once the resident ones are done */
	GPU_DISPATCH_DONE,		/* SM -> scheduler: the block in `slot`
					   issued its last instruction this tick */
};

struct gpu_dispatch_msg {
	struct ss_msg hdr;
	const struct gpu_kernel *kernel;
	const struct gpu_occupancy *occ;	/* BEGIN */
	const struct gpu_block *block;		/* BLOCK, DONE */
	uint32_t slot;				/* BLOCK, DONE: its block slot on the SM */
	uint32_t sm;				/* DONE: which SM */
	/*
	 * BLOCK: the block's counts, by value.  One without lines is done
	 * as it is sent, and its scheduler may free it at once: the SM,
	 * maybe on another thread and later, reads these, never `block`.
	 */
	uint32_t n_lines, n_shared, n_unknown;
};

#ifdef __cplusplus
}
#endif

#endif
