/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * warp_interleaver: one SM's issue of memory instructions.  It takes the
 * blocks the scheduler gives it, orders their instructions (`issue`),
 * sorts each one into a class and a memory space (`classify`), coalesces
 * its lane addresses into unique sectors (coalesce.h) and sends them to its
 * L1 as 32-byte requests.
 *
 * Issue.  block_rr (the reference's): one line of each resident block in
 * turn, blocks in dispatch order, exhausted ones skipped, a round per tick.
 * subcore_lrr and subcore_gto (the hardware's): when the
 * trace knows warps, warp w of the block in slot r is hardware warp
 * hw = r * wpb + w, it belongs to sub-core hw % subcores, and each sub-core
 * issues at most one instruction per tick, sub-cores in ascending order.
 * When it does not (reference-format traces), each block is one stream and
 * the SM issues one line per tick, loose round-robin over its block slots.
 * A tick is one event at priority SS_PRIO_ISSUE + 1 + SM index, so that
 * SMs advance together in index order, each at a priority of its own,
 * after a kernel's start (the trace source's, at SS_PRIO_ISSUE): an SM
 * may run on another thread than the components it talks to, and only
 * distinct priorities order their events there (--threads).
 *
 * Dispatch protocol (gpu.h): BEGIN, BLOCKs, GO, then under dynamic
 * dispatch more BLOCKs (sent at SS_PRIO_ISSUE - 1 of a tick, before any SM
 * issues in it), and LAST.  An SM that ran out of work issues again in the
 * tick a block arrives.  In the tick a block issues its last instruction,
 * DONE goes back on `done`; a block without instructions finishes as it is
 * dispatched, so it takes no slot and gets no DONE.  The kernel's end goes
 * down once LAST has come and no resident block has work left.
 *
 * Classification.  ref: the reference's substring tests with sticky flags:
 * a line that is neither a global nor a local load or store (generic
 * LD/ST, say) counts no request and takes the store and local flags of the
 * line before it in this SM's stream; atomics and reductions are counted
 * and go no further.  hw: the base opcode's class and space from the
 * opcode table (opcode.h), decoded once per distinct opcode text (readers
 * intern them, so the pointer is the key, for the kernel), generic
 * addresses resolved by the kernel's shared and local windows, local
 * addresses of Accel-Sim traces mapped to GPGPU-Sim's per-thread
 * interleaved layout (map_local), and a byte mask on every sector request.
 */
#include "config.h"

#include <string.h>
#include <sectorsim/sectorsim.h>
#include <sectorsim/protocols/gpu.h>
#include <sectorsim/protocols/mem.h>
#include <sectorsim/protocols/cache_stats.h>
#include "coalesce.h"
#include "prefetch.h"
#include "opcode.h"

enum issue_policy {
	ISSUE_BLOCK_RR, ISSUE_SUBCORE_LRR, ISSUE_SUBCORE_GTO, ISSUE_LATENCY_QUEUE,
	ISSUE_NUGTEREN,
};

static const char *const issue_names[] = {
	"block_rr", "subcore_lrr", "subcore_gto", "latency_queue", "nugteren", NULL,
};
static const char *const order_names[] = {
	"pyset", "ascending", "first_touch", "descending", NULL,
};
static const char *const classify_names[] = { "ref", "hw", NULL };
static const char *const local_map_names[] = { "none", "gpgpusim", NULL };
static const char *const ldgsts_names[] = { "keep", "drop", NULL };

static const struct ss_param_desc params[] = {
	{ "issue", SS_P_ENUM, "block_rr", "instruction issue order: block_rr (one line of each resident block in turn, the reference's), subcore_lrr (per sub-core loose round-robin over its warps), subcore_gto (per sub-core greedy-then-oldest), latency_queue (timing: one queue of ready warps per SM in the order they became ready, and in one tick the answered warps by id, then those ready right after their own issue, then those back from a refusal; one instruction a tick), nugteren (timing, loads only: Nugteren et al.'s model's issue: one warp a tick from one FIFO queue, each lane at its own load, the lanes in portions by lane 0's width, Fermi's coalescing in lane groups, lane 0 alone waiting when the L1 refuses it; see doc/nugteren-model.md)", issue_names, 0, 0, 0 },
	{ "timing", SS_P_BOOL, "false", "timing mode: a warp waits for the answers to its loads before its next instruction, a refused request is sent again after the L1's retry, and a block is done when its last answer comes (needs classify = hw and a subcore_*, latency_queue or nugteren issue)", NULL, 0, 0, 0 },
	{ "issue_sectors", SS_P_UINT, "256", "block_rr: a tick's rounds go on until the SM has sent this many sectors in it, or a block ended (0: one round a tick). The order of an SM's lines does not depend on it, nor does a round-robin L2's: only when they are sent does, so SMs whose lines touch few sectors keep up with those whose lines touch many, and the L2's merge holds less", NULL, 0, 1u << 20, 0 },
	{ "subcores", SS_P_UINT, "4", "warp schedulers per SM: warp hw goes to hw % subcores (subcore_* issue)", NULL, 1, 32, 0 },
	{ "sector_order", SS_P_ENUM, "pyset", "order of a line's sectors: pyset (the reference's Python set order), ascending, first_touch, descending", order_names, 0, 0, 0 },
	{ "classify", SS_P_ENUM, "ref", "instruction classes: ref (opcode substrings, sticky flags; atomics and reductions counted, not sent), hw (opcode table, generic windows, atomics and reductions sent past the L1, byte masks)", classify_names, 0, 0, 0 },
	{ "local_map", SS_P_ENUM, "none", "local addresses: none (as traced), gpgpusim (Accel-Sim per-thread offsets to GPGPU-Sim's interleaved layout; classify = hw)", local_map_names, 0, 0, 0 },
	{ "shared_window", SS_P_SIZE, "96KiB", "generic addresses from the kernel's shared base up to this size are shared memory (classify = hw)", NULL, 0, 0, 0 },
	{ "local_window", SS_P_SIZE, "16KiB", "generic addresses from the kernel's local base up to this size are local memory (classify = hw)", NULL, 0, 0, 0 },
	{ "ldgsts_shared", SS_P_ENUM, "keep", "LDGSTS of reference-format traces: keep (all addresses, the reference's), drop (the first half, the shared destination; classify = hw)", ldgsts_names, 0, 0, 0 },
	{ "sector_bytes", SS_P_SIZE, "32B", "coalescing unit", NULL, 32, 4096, SS_PF_POW2 },
	{ "line_bytes", SS_P_SIZE, "128B", "line size for the transaction counts", NULL, 32, 65536, SS_PF_POW2 },
	{ NULL, 0, NULL, NULL, NULL, 0, 0, 0 },
};

static const struct ss_port_desc ports[] = {
	{ "tb_in", SS_PORT_IN, GPU_DISPATCH_PROTOCOL, false, true, "kernel begin, blocks, go and last from the block scheduler" },
	{ "mem", SS_PORT_OUT, MEM_PROTOCOL, false, true, "sector requests to the L1; in timing mode, its answers" },
	{ "done", SS_PORT_OUT, GPU_DISPATCH_PROTOCOL, false, false, "to the block scheduler: a block issued its last instruction" },
	{ NULL, 0, NULL, false, false, NULL },
};
enum { WI_PORT_TB_IN, WI_PORT_MEM, WI_PORT_DONE };	/* rows of ports[] */

/* The per-SM counters the report sums: requests (instructions), sectors
 * and lines per class and space, as the stats table below describes. */
enum {
	WI_GMEM_LD_REQS, WI_GMEM_ST_REQS, WI_GMEM_LD_TRANS, WI_GMEM_ST_TRANS,
	WI_GMEM_LD_SECTORS, WI_GMEM_ST_SECTORS,
	WI_LMEM_LD_REQS, WI_LMEM_ST_REQS, WI_LMEM_LD_TRANS, WI_LMEM_ST_TRANS,
	WI_LMEM_LD_SECTORS, WI_LMEM_ST_SECTORS,
	WI_LMEM_USED, WI_ATOM_REQS, WI_RED_REQS, WI_ATOM_SECTORS, WI_RED_SECTORS,
	WI_ATOM_RED_TRANS, WI_UMEM_LD_SECTORS, WI_UMEM_ST_SECTORS,
	WI_SHARED_INSTS, WI_DROPPED_INSTS, WI_BYPASSED_LOADS, WI_LDGSTS_UNSPLIT,
	WI_LINES, WI_BLOCKS,
};

static const struct ss_stat_desc stats[] = {
	[WI_GMEM_LD_REQS] = { SM_STAT_GMEM_LD_REQS, SS_STAT_COUNTER, "global load instructions (ref: LDG; hw: LDG, LDGSTS, generic resolved global, with an active lane)", NULL, NULL },
	[WI_GMEM_ST_REQS] = { SM_STAT_GMEM_ST_REQS, SS_STAT_COUNTER, "global store instructions (ref: STG; hw: STG, generic resolved global)", NULL, NULL },
	[WI_GMEM_LD_TRANS] = { "gmem_ld_trans", SS_STAT_COUNTER, "lines touched by global loads", NULL, NULL },
	[WI_GMEM_ST_TRANS] = { "gmem_st_trans", SS_STAT_COUNTER, "lines touched by global stores", NULL, NULL },
	[WI_GMEM_LD_SECTORS] = { SM_STAT_GMEM_LD_SECTORS, SS_STAT_COUNTER, "sectors of global loads", NULL, NULL },
	[WI_GMEM_ST_SECTORS] = { SM_STAT_GMEM_ST_SECTORS, SS_STAT_COUNTER, "sectors of global stores", NULL, NULL },
	[WI_LMEM_LD_REQS] = { SM_STAT_LMEM_LD_REQS, SS_STAT_COUNTER, "local load instructions (LDL; hw: also generic resolved local)", NULL, NULL },
	[WI_LMEM_ST_REQS] = { SM_STAT_LMEM_ST_REQS, SS_STAT_COUNTER, "local store instructions (STL; hw: also generic resolved local)", NULL, NULL },
	[WI_LMEM_LD_TRANS] = { "lmem_ld_trans", SS_STAT_COUNTER, "lines touched by local loads", NULL, NULL },
	[WI_LMEM_ST_TRANS] = { "lmem_st_trans", SS_STAT_COUNTER, "lines touched by local stores", NULL, NULL },
	[WI_LMEM_LD_SECTORS] = { SM_STAT_LMEM_LD_SECTORS, SS_STAT_COUNTER, "sectors of local loads, after the local mapping (hw)", NULL, NULL },
	[WI_LMEM_ST_SECTORS] = { SM_STAT_LMEM_ST_SECTORS, SS_STAT_COUNTER, "sectors of local stores, after the local mapping (hw)", NULL, NULL },
	[WI_LMEM_USED] = { "lmem_used", SS_STAT_COUNTER, "1 when the kernel used local memory on this SM", NULL, NULL },
	[WI_ATOM_REQS] = { SM_STAT_ATOM_REQS, SS_STAT_COUNTER, "atomic instructions", NULL, NULL },
	[WI_RED_REQS] = { SM_STAT_RED_REQS, SS_STAT_COUNTER, "reduction instructions", NULL, NULL },
	[WI_ATOM_SECTORS] = { SM_STAT_ATOM_SECTORS, SS_STAT_COUNTER, "sectors of atomics, sent past the L1 (hw)", NULL, NULL },
	[WI_RED_SECTORS] = { SM_STAT_RED_SECTORS, SS_STAT_COUNTER, "sectors of reductions, sent past the L1 (hw)", NULL, NULL },
	[WI_ATOM_RED_TRANS] = { SM_STAT_ATOM_RED_TRANS, SS_STAT_COUNTER, "sectors of atomics and reductions", NULL, NULL },
	[WI_UMEM_LD_SECTORS] = { SM_STAT_UMEM_LD_SECTORS, SS_STAT_COUNTER, "sectors sent to the L1 as loads (hw: global and local)", NULL, NULL },
	[WI_UMEM_ST_SECTORS] = { SM_STAT_UMEM_ST_SECTORS, SS_STAT_COUNTER, "sectors sent to the L1 as stores (hw: global and local)", NULL, NULL },
	[WI_SHARED_INSTS] = { "shared_insts", SS_STAT_COUNTER, "shared-memory instructions, dropped (hw)", NULL, NULL },
	[WI_DROPPED_INSTS] = { "dropped_insts", SS_STAT_COUNTER, "instructions with addresses of no known memory space, dropped (hw)", NULL, NULL },
	[WI_BYPASSED_LOADS] = { "bypassed_loads", SS_STAT_COUNTER, "global load instructions sent past the L1 (.STRONG.GPU, hw)", NULL, NULL },
	[WI_LDGSTS_UNSPLIT] = { "ldgsts_unsplit", SS_STAT_COUNTER, "reference-format LDGSTS lines with an odd address count, kept whole (ldgsts_shared = drop)", NULL, NULL },
	[WI_LINES] = { SM_STAT_LINES, SS_STAT_COUNTER, "trace lines (instructions) issued", NULL, NULL },
	[WI_BLOCKS] = { "blocks", SS_STAT_COUNTER, "thread blocks run that the trace holds something for (the scheduler's blocks and empty count the others)", NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

#define NONE UINT32_MAX

/* where GPGPU-Sim puts local memory: 0xC0000000 (its global heap start)
 * less 80 SMs' 96 KiB of shared memory and 80 * 2048 threads' 16 KiB of
 * local memory; the same for every GPU */
#define LOCAL_GENERIC_START UINT64_C(0x1F880000)
/* the widest access an opcode may name: 128 B, so 32 local words a lane */
#define WIDTH_MAX 128u
/* opcodes remembered by pointer in front of the table (struct warp_interleaver) */
#define OP_MEMO 8	/* op_memo_of() takes 3 bits */

/* ---- opcodes: class, space, bypass and access width ----------------------- */

/*
 * What an access of each class counts and sends, by the space it resolved
 * to (global or local): 1 to `reqs`, its sectors to `sectors` and to
 * `total`, the lines it touched to `lines` (NO_STAT: none), and local
 * loads and stores mark the SM as having used local memory.  Atomics and
 * reductions are always global in the opcode table; their local entries
 * only repeat the global ones.  Each opcode keeps its row (opinfo.counts),
 * so an instruction only indexes it by the space it resolved to.
 */
#define NO_STAT UINT8_MAX

struct hw_count {
	uint8_t reqs, sectors, lines, total;	/* WI_* */
	uint8_t kind;		/* enum mem_op */
	bool local_used;	/* sets WI_LMEM_USED */
};

static const struct hw_count hw_counts[][2] = {	/* [cls - OP_LOAD][space] */
	[OP_LOAD - OP_LOAD] = {
		[SPACE_GLOBAL] = { WI_GMEM_LD_REQS, WI_GMEM_LD_SECTORS, WI_GMEM_LD_TRANS,
				   WI_UMEM_LD_SECTORS, MEM_READ, false },
		[SPACE_LOCAL] = { WI_LMEM_LD_REQS, WI_LMEM_LD_SECTORS, WI_LMEM_LD_TRANS,
				  WI_UMEM_LD_SECTORS, MEM_READ, true },
	},
	[OP_STORE - OP_LOAD] = {
		[SPACE_GLOBAL] = { WI_GMEM_ST_REQS, WI_GMEM_ST_SECTORS, WI_GMEM_ST_TRANS,
				   WI_UMEM_ST_SECTORS, MEM_WRITE, false },
		[SPACE_LOCAL] = { WI_LMEM_ST_REQS, WI_LMEM_ST_SECTORS, WI_LMEM_ST_TRANS,
				  WI_UMEM_ST_SECTORS, MEM_WRITE, true },
	},
	[OP_ATOMIC - OP_LOAD] = {
		[SPACE_GLOBAL] = { WI_ATOM_REQS, WI_ATOM_SECTORS, NO_STAT,
				   WI_ATOM_RED_TRANS, MEM_ATOMIC, false },
		[SPACE_LOCAL] = { WI_ATOM_REQS, WI_ATOM_SECTORS, NO_STAT,
				  WI_ATOM_RED_TRANS, MEM_ATOMIC, false },
	},
	[OP_REDUCTION - OP_LOAD] = {
		[SPACE_GLOBAL] = { WI_RED_REQS, WI_RED_SECTORS, NO_STAT,
				   WI_ATOM_RED_TRANS, MEM_REDUCTION, false },
		[SPACE_LOCAL] = { WI_RED_REQS, WI_RED_SECTORS, NO_STAT,
				  WI_ATOM_RED_TRANS, MEM_REDUCTION, false },
	},
};

/*
 * What the reference's substring tests make of an opcode, in their order:
 * the first that matches decides (LDGSTS contains LDG: a global load).
 */
enum ref_class { REF_RED, REF_ATOM, REF_LDG, REF_STG, REF_LDL, REF_STL, REF_OTHER };

static enum ref_class ref_class_of(const char *op)
{
	return strstr(op, "RED") ? REF_RED
		: strstr(op, "ATOM") ? REF_ATOM
		: strstr(op, "LDG") ? REF_LDG
		: strstr(op, "STG") ? REF_STG
		: strstr(op, "LDL") ? REF_LDL
		: strstr(op, "STL") ? REF_STL : REF_OTHER;
}

struct opinfo {
	uint8_t ref;		/* enum ref_class, for classify = ref */
	uint8_t cls;		/* enum op_class */
	uint8_t space;		/* enum op_space */
	bool bypass;		/* a .STRONG.GPU load: past the L1 when global */
	bool ldgsts;
	uint8_t flags;		/* MEM_F_* of its requests */
	uint32_t width;		/* bytes a lane accesses */
	const struct hw_count *counts;	/* its class's row of hw_counts;
					   NULL: a class that is not sent */
};

static bool all_digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!g_ascii_isdigit(s[i]))
			return false;
	return n > 0;
}

/* Bits as a width in bytes, within 1 .. WIDTH_MAX. */
static uint32_t width_of_bits(const char *s, size_t n)
{
	uint64_t bits = 0;

	for (size_t i = 0; i < n && bits <= WIDTH_MAX * 8; i++)
		bits = bits * 10 + (uint64_t)(s[i] - '0');
	return CLAMP(bits / 8, 1, WIDTH_MAX);
}

static void decode_opcode(const char *op, struct opinfo *o)
{
	const char *dot = strchr(op, '.');
	size_t baselen = dot ? (size_t)(dot - op) : strlen(op);
	struct op_base base = op_base_of(op, baselen);
	bool strong = false, gpu = false, width_found = false;

	*o = (struct opinfo){ .ref = ref_class_of(op), .cls = base.cls,
			      .space = base.space, .width = 4 };
	o->ldgsts = baselen == 6 && !memcmp(op, "LDGSTS", 6);
	/* the modifiers: the first all-digit token, or U and digits, is the
	 * width in bits (LDG.E.64: 8 bytes, LDG.E.U8: 1); none: 4 bytes */
	for (const char *p = dot; p; p = strchr(p, '.')) {
		const char *tok = ++p, *end = strchr(tok, '.');
		size_t n = end ? (size_t)(end - tok) : strlen(tok);

		strong |= n == 6 && !memcmp(tok, "STRONG", 6);
		gpu |= n == 3 && !memcmp(tok, "GPU", 3);
		if (width_found)
			continue;
		if (all_digits(tok, n)) {
			o->width = width_of_bits(tok, n);
			width_found = true;
		} else if (n > 1 && tok[0] == 'U' && all_digits(tok + 1, n - 1)) {
			o->width = width_of_bits(tok + 1, n - 1);
			width_found = true;
		}
	}
	/* Accel-Sim's rule, for LDG and LDGSTS only: .STRONG and .GPU
	 * together bypass the L1 (.CG, .SYS, .BYPASS do not), and a generic
	 * load is cached whatever its modifiers */
	o->bypass = o->cls == OP_LOAD && o->space == SPACE_GLOBAL && strong && gpu;
	o->flags = o->bypass || o->cls == OP_ATOMIC || o->cls == OP_REDUCTION ? MEM_F_BYPASS : 0;
	if (o->cls >= OP_LOAD)
		o->counts = hw_counts[o->cls - OP_LOAD];
}

/* ---- the component ------------------------------------------------------- */

struct resident {			/* issue = block_rr */
	const struct gpu_block *block;
	uint32_t next;			/* its next line */
	uint32_t slot;
	struct gpu_line_cursor cur;	/* a streamed block's place */
};

struct block_slot {			/* issue = subcore_* */
	const struct gpu_block *block;	/* NULL: free */
	/* a streamed block, whose lines `block` gathers; NULL: none */
	const struct gpu_block *streamed;
	struct gpu_block_gathered *gathered;	/* NULL until one is */
	uint32_t *idx;			/* its lines, warp after warp */
	uint32_t idx_cap;
	uint32_t warps_left;		/* warps with instructions left */
	uint32_t lines_left;		/* instructions left to issue */
	uint64_t dispatched;		/* its place in this SM's dispatch order */
	uint32_t *lead;			/* issue = nugteren: per line, the lanes
					   that make its requests */
	uint32_t lead_cap;
};

struct hw_warp {
	const uint32_t *idx;		/* its lines in the block; NULL: all, in order */
	uint32_t n, next;
	/* timing mode */
	uint32_t outstanding;		/* answers it waits for */
	uint32_t n_refused;		/* its requests in the refused list */
	bool blocked;			/* refused: waits for the L1's retry */
	/* issue = nugteren */
	uint32_t lanes;			/* threads in the warp */
	uint64_t order;			/* its place among the SM's warps */
};

/* timing: a request the L1 refused, to be sent again by warp h */
struct refused_req {
	uint32_t h;
	struct mem_req req;
};

/*
 * timing, issue = latency_queue: why a warp became ready, which places it
 * among the warps that became ready in the same tick: placed or answered
 * (by warp id), then ready again right after its own issue, then back
 * from a refusal (both in the order it happened).
 */
enum lq_class { LQ_ANSWERED, LQ_AFTER_ISSUE, LQ_REFUSED };

struct lq_item {
	uint64_t key;			/* tick * 4 + enum lq_class */
	uint64_t order;			/* warp id, or a running number */
	uint32_t h;
};

/* The statistics timing mode adds to the table. */
enum { WT_REFUSED, WT_FIRST_ISSUE, WT_LAST_ANSWER, WT_N_STATS };

enum warps_kind { WARPS_UNDECIDED, WARPS_KNOWN, WARPS_UNKNOWN };

struct warp_interleaver {
	struct ss_component c;
	struct ss_port *mem, *done;
	/* functional: whether an instruction's requests go to mem in runs
	 * (mem.h), the level below taking them; asked at the first send */
	enum { MEM_RUNS_UNKNOWN, MEM_RUNS_OFF, MEM_RUNS_ON } mem_runs;
	struct coalescer *coalescer;
	/* parameters */
	enum issue_policy issue;
	uint32_t subcores;
	uint64_t issue_sectors;		/* block_rr: a tick's sectors, at least */
	bool classify_hw, map_local, drop_ldgsts_shared;
	uint64_t shared_window, local_window;
	uint16_t sm;
	/* the kernel */
	const struct gpu_kernel *kernel;
	uint32_t wpb, max_active, num_sms;
	bool go, last, ended;
	bool scheduled;			/* an issue event is queued */
	bool control_queued;		/* a control_tick is queued */
	bool begin_due, end_due;	/* for control_tick to send or check */
	uint64_t begin_arg;		/* the begin's L1 size */
	bool issuing;			/* inside one */
	uint64_t issued_at;		/* tick of the last issue event + 1; 0: none */
	uint64_t tick_sectors;		/* sent in the issue event running */
	/* issue = block_rr */
	GArray *resident;		/* struct resident, in dispatch order */
	struct gpu_line_room room;	/* the streamed line being issued */
	/* issue = subcore_*: per kernel */
	enum warps_kind warps;
	enum issue_policy policy;	/* LRR when warps are unknown */
	uint32_t nsched, wpb_eff;	/* subcores and wpb, or 1 and 1 */
	struct block_slot *slots;
	uint32_t n_slots;
	/*
	 * Functional sub-core issue promises on `done` (promises): the first
	 * tick at which a resident block could end (promise_done()); 0 once a
	 * block ended, so that the next issue makes it again.
	 */
	uint64_t promised;
	bool promises;
	struct hw_warp *hw;		/* n_slots * wpb */
	size_t hw_cap;
	uint64_t *ready;		/* per scheduler: bit j = warp j*nsched+s has work */
	uint32_t ready_words;		/* per scheduler */
	uint32_t last_j[32], greedy[32];	/* per scheduler: LRR, GTO */
	uint32_t n_ready;
	uint64_t n_dispatched;
	uint32_t *wcount;		/* wpb + 1 */
	size_t wcount_cap;
	/* classification */
	bool is_store, is_local;	/* ref's sticky flags */
	GHashTable *ops;		/* opcode pointer -> struct opinfo, per kernel */
	/*
	 * In front of it, the last opcode seen in each of OP_MEMO slots (by
	 * pointer): a kernel's lines alternate among a few opcodes (a load
	 * and a store, say), which one memo of the last alone kept missing
	 * (half of bfs's lines went to the table), and a table lookup costs
	 * some 70 instructions.
	 */
	struct op_memo { const char *op; const struct opinfo *info; } memo[OP_MEMO];
	uint64_t line_addrs[GPU_STEP_MAX];	/* a progression line's, expanded */
	uint64_t *sectors;		/* coalescer output */
	uint32_t *masks;
	uint32_t sectors_cap;
	uint64_t *mapped;		/* local words after the mapping */
	uint32_t mapped_cap;
	/* timing mode */
	bool timing;
	uint32_t cur_h;			/* the warp whose instruction is sent */
	bool sending;			/* inside its sends: answers only count */
	uint32_t live_warps;		/* placed and not finished */
	GArray *refused;		/* struct refused_req, in refusal order */
	GArray *resend;			/* scratch: one warp's refused requests */
	GArray *lq;			/* struct lq_item, issue = latency_queue */
	uint64_t lq_seq;
	uint64_t *wt[WT_N_STATS];
	/* issue = nugteren */
	uint32_t line_bytes;
	uint32_t *cursor;		/* per warp and lane: its next line */
	uint32_t *nq;			/* the ready queue, a ring of warps */
	uint32_t nq_head, nq_len, nq_cap;
	GArray *answered;		/* struct lq_item: answered, to queue */
	bool lead_refused;		/* the L1 refused the request just sent */
	/* its coalescer is the one gpu_line.pyset_sectors hold the output
	 * of: a line holding them is not coalesced again */
	bool takes_pyset;
	/* its sectors are of 32 bytes or a multiple: every address in
	 * sectors[] is one a run's entry can hold */
	bool sectors_aligned;
};

static int wi_create(struct ss_component *c, const struct ss_params *p,
		     GError **err)
{
	struct warp_interleaver *w = SS_COMPONENT(c, struct warp_interleaver, c);
	uint64_t sector = ss_param_uint(p, "sector_bytes");
	uint64_t line = ss_param_uint(p, "line_bytes");
	static const enum coalesce_order orders[] = {
		COALESCE_PYSET, COALESCE_ASCENDING, COALESCE_FIRST_TOUCH,
		COALESCE_DESCENDING,
	};

	/*
	 * What it reports goes out on `done`, never back on tb_in, and from
	 * events of its own (control_tick, issue_tick), never from inside a
	 * delivery on tb_in (--threads).
	 */
	ss_component_set_port_flags(c, "tb_in", SS_PORT_SILENT | SS_PORT_DEFERS);
	w->issue = ss_param_enum(p, "issue");
	w->subcores = ss_param_uint(p, "subcores");
	w->issue_sectors = ss_param_uint(p, "issue_sectors");
	w->classify_hw = ss_param_enum(p, "classify") == 1;
	w->map_local = ss_param_enum(p, "local_map") == 1;
	w->drop_ldgsts_shared = ss_param_enum(p, "ldgsts_shared") == 1;
	w->shared_window = ss_param_uint(p, "shared_window");
	w->local_window = ss_param_uint(p, "local_window");
	w->sm = c->index < 0 ? 0 : c->index;
	if (sector > line) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "sector_bytes %" G_GUINT64_FORMAT " is larger than line_bytes %" G_GUINT64_FORMAT,
			    sector, line);
		return -1;
	}
	if (w->classify_hw && sector != 32) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "classify = hw needs sector_bytes = 32B (byte masks are per 32-byte sector), not %" G_GUINT64_FORMAT,
			    sector);
		return -1;
	}
	if (!w->classify_hw && (w->map_local || w->drop_ldgsts_shared)) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG, "%s needs classify = hw",
			    w->map_local ? "local_map = gpgpusim" : "ldgsts_shared = drop");
		return -1;
	}
	w->timing = ss_param_bool(p, "timing");
	/* functional sub-core issue: one instruction per sub-core a tick */
	w->promises = !w->timing && (w->issue == ISSUE_SUBCORE_LRR ||
				     w->issue == ISSUE_SUBCORE_GTO);
	if (w->timing && (!w->classify_hw || w->issue == ISSUE_BLOCK_RR)) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "timing = true needs classify = hw and issue = subcore_lrr, subcore_gto, latency_queue or nugteren, not classify = %s, issue = %s",
			    classify_names[w->classify_hw], issue_names[w->issue]);
		return -1;
	}
	if (!w->timing && (w->issue == ISSUE_LATENCY_QUEUE || w->issue == ISSUE_NUGTEREN)) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "issue = %s orders warps by when their loads are answered: it needs timing = true",
			    issue_names[w->issue]);
		return -1;
	}
	w->line_bytes = (uint32_t)line;
	w->mem = ss_component_port(c, "mem", 0);
	w->done = ss_component_port(c, "done", 0);
	w->coalescer = coalescer_new(orders[ss_param_enum(p, "sector_order")],
				     sector, line);
	w->takes_pyset = orders[ss_param_enum(p, "sector_order")] == COALESCE_PYSET &&
			 sector == GPU_PYSET_SECTOR_BYTES && line == GPU_PYSET_LINE_BYTES;
	w->sectors_aligned = sector % MEM_ATOM == 0;
	if (!w->coalescer) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "sector_bytes %" G_GUINT64_FORMAT " and line_bytes %" G_GUINT64_FORMAT ": no coalescer for them",
			    sector, line);
		return -1;
	}
	if (w->timing) {
		w->refused = g_array_new(FALSE, FALSE, sizeof(struct refused_req));
		w->resend = g_array_new(FALSE, FALSE, sizeof(struct refused_req));
		w->lq = g_array_new(FALSE, FALSE, sizeof(struct lq_item));
		w->answered = g_array_new(FALSE, FALSE, sizeof(struct lq_item));
		w->wt[WT_REFUSED] = ss_stat_add_counter(c, SM_STAT_REFUSED, "timing: requests the L1 refused, each sent again");
		w->wt[WT_FIRST_ISSUE] = ss_stat_add_counter(c, SM_STAT_FIRST_ISSUE, "timing: tick + 1 of the kernel's first issue on this SM (0: none)");
		w->wt[WT_LAST_ANSWER] = ss_stat_add_counter(c, SM_STAT_LAST_ANSWER, "timing: tick + 1 of the kernel's last answer to this SM (0: none)");
	}
	w->resident = g_array_new(FALSE, FALSE, sizeof(struct resident));
	/* each opcode's class, decoded once per kernel (both classify modes) */
	w->ops = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
	w->sectors_cap = 64;
	w->sectors = g_new(uint64_t, w->sectors_cap);
	w->masks = g_new(uint32_t, w->sectors_cap);
	return 0;
}

#define fail(w, ...) ss_component_fail(&(w)->c, SS_ERROR_INTERNAL, __VA_ARGS__)

/* Whether w's memory takes runs (mem.h): asked of its port once. */
static inline bool takes_runs(struct warp_interleaver *w)
{
	if (G_UNLIKELY(w->mem_runs == MEM_RUNS_UNKNOWN))
		w->mem_runs = ss_port_peer_flags(w->mem) & SS_PORT_BATCHES
			    ? MEM_RUNS_ON : MEM_RUNS_OFF;
	return w->mem_runs == MEM_RUNS_ON;
}

/* run's first k entries, filled, go down as a run. */
static inline void send_run(struct warp_interleaver *w, struct mem_run *run, uint32_t k)
{
	run->n = (uint16_t)k;
	run->hdr = (struct ss_msg){ mem_run_bytes(k), MEM_RUN };
	ss_port_send(w->mem, &run->hdr);
}

/*
 * One functional instruction's requests: r with each of its n sectors
 * (w->sectors) and, given masks, their byte masks.  To a level that
 * takes batches they go in runs (mem.h), their entries filled here, the
 * shape being the instruction's; all sent in the instruction's event, so
 * that they arrive when their requests would have.
 */
static void send_sectors(struct warp_interleaver *w, struct mem_req *r,
			 uint32_t n, const uint32_t *masks)
{
	w->tick_sectors += n;
	if (takes_runs(w) && n > 1 && mem_run_shape(r)) {
		/* what the entries share, read once: the stores to the run
		 * would otherwise have the compiler read r again per entry */
		const uint64_t *sec = w->sectors, low = mem_run_low(r);
		const uint32_t mask = r->mask, warp = r->warp;
		struct mem_run run;
		uint64_t odd = 0;

		run.sm = r->sm;
		run.size = r->size;
		if (!w->sectors_aligned)
			for (uint32_t i = 0; i < n; i++)
				odd |= sec[i];
		if (!(odd & (MEM_ATOM - 1))) {
			for (uint32_t at = 0; at < n; at += MEM_RUN_MAX) {
				uint32_t k = MIN(n - at, MEM_RUN_MAX);

				if (masks)
					for (uint32_t j = 0; j < k; j++)
						run.req[j] = (struct mem_run_entry){
							sec[at + j] | low, masks[at + j], warp };
				else
					for (uint32_t j = 0; j < k; j++)
						run.req[j] = (struct mem_run_entry){
							sec[at + j] | low, mask, warp };
				send_run(w, &run, k);
			}
			return;
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		r->addr = r->part_addr = w->sectors[i];
		if (masks)
			r->mask = masks[i];
		ss_port_send(w->mem, &r->hdr);
	}
}

/*
 * A line's n pyset sectors, as gpu_line.pyset_sectors gives them against
 * `base` (its first address's sector), sent as send_sectors() would send
 * them: as runs made straight from the offsets when the memory takes runs
 * of r's shape (32-byte aligned by construction), else through the
 * sector buffer (titanv-ref on the native benchmark app, one thread:
 * 4,907 M instructions against 5,032 M filling the buffer first).
 */
static void send_pyset_sectors(struct warp_interleaver *w, struct mem_req *r,
			       uint32_t n, uint64_t base, const int32_t *off)
{
	/* mem_runs read as it is: still unknown, the fallback below asks
	 * (takes_runs() here cost 22 M instructions on the app, GCC laying
	 * the loop out worse) */
	if (w->mem_runs == MEM_RUNS_ON && n > 1 && mem_run_shape(r)) {
		const uint64_t low = mem_run_low(r);
		const uint32_t mask = r->mask, warp = r->warp;
		struct mem_run run;

		w->tick_sectors += n;
		run.sm = r->sm;
		run.size = r->size;
		for (uint32_t at = 0; at < n; at += MEM_RUN_MAX) {
			uint32_t k = MIN(n - at, MEM_RUN_MAX);

			/* unrolled: the loop's own count and test were a quarter
			 * of its instructions (4,739 -> 4,728 M in all) */
#pragma GCC unroll 4
			for (uint32_t j = 0; j < k; j++)
				run.req[j] = (struct mem_run_entry){
					(base + (uint64_t)(int64_t)off[at + j]) << GPU_PYSET_SECTOR_SHIFT | low,
					mask, warp };
			send_run(w, &run, k);
		}
		return;
	}
	for (uint32_t k = 0; k < n; k++)
		w->sectors[k] = (base + (uint64_t)(int64_t)off[k]) << GPU_PYSET_SECTOR_SHIFT;
	send_sectors(w, r, n, NULL);
}

static void send_control(struct warp_interleaver *w, enum mem_ctl ctl,
			 uint64_t arg, uint32_t kernel)
{
	struct mem_req r;

	mem_req_init(&r, MEM_CONTROL, arg, 0);
	r.ctl = ctl;
	r.warp = kernel;
	r.sm = w->sm;
	ss_port_send(w->mem, &r.hdr);
}

static void send_done(struct warp_interleaver *w, uint32_t slot,
		      const struct gpu_block *b)
{
	struct gpu_dispatch_msg m = {
		.hdr = { sizeof(m), GPU_DISPATCH_DONE },
		.kernel = w->kernel, .block = b, .slot = slot, .sm = w->sm,
	};

	if (ss_port_is_bound(w->done))
		ss_port_send(w->done, &m.hdr);
	/* the block that bounded the promise may be this one */
	if (w->promises)
		w->promised = 0;
}

/* Slot r's block issued its last line: the slot is free, and the block
 * the scheduler dispatched (not its lines gathered) is done. */
static void slot_done(struct warp_interleaver *w, uint32_t r)
{
	struct block_slot *slot = &w->slots[r];
	const struct gpu_block *b = slot->streamed ? slot->streamed : slot->block;

	slot->block = NULL;
	slot->streamed = NULL;
	send_done(w, r, b);
}

/* Room for n sectors, and their masks. */
static void sectors_reserve(struct warp_interleaver *w, uint32_t n)
{
	if (n <= w->sectors_cap)
		return;
	w->sectors_cap = MAX(n, 2 * w->sectors_cap);
	w->sectors = g_renew(uint64_t, w->sectors, w->sectors_cap);
	w->masks = g_renew(uint32_t, w->masks, w->sectors_cap);
}

/* ---- classify = ref: substring tests, sticky flags ------------------------- */

static const struct opinfo *opinfo_of(struct warp_interleaver *w, const char *op);

static void issue_ref(struct warp_interleaver *w, const struct gpu_line *l)
{
	uint64_t *st = w->c.stats;
	const char *op = l->opcode;
	uint32_t lines, n;

	enum ref_class ref = opinfo_of(w, op)->ref;	/* decoded once per opcode */

	/* coalesced when the trace was converted (native format): sent from
	 * the line's offsets */
	const bool pyset = l->pyset_sectors && w->takes_pyset;

	sectors_reserve(w, l->n_addr);
	if (pyset) {
		n = l->n_pyset_sectors;
		lines = l->pyset_lines;
	} else if (l->step)
		n = coalesce_progression(w->coalescer, l->addr[0],
					 (uint64_t)(int64_t)l->step, l->n_addr,
					 w->sectors, &lines);
	else
		n = coalesce(w->coalescer, l->addr, l->n_addr, w->sectors, &lines);
	if (ref == REF_RED) {
		st[WI_RED_REQS]++;
		st[WI_ATOM_RED_TRANS] += n;
		return;
	}
	if (ref == REF_ATOM) {
		st[WI_ATOM_REQS]++;
		st[WI_ATOM_RED_TRANS] += n;
		return;
	}
	if (ref == REF_LDG || ref == REF_STG) {
		w->is_local = false;
		if (ref == REF_LDG) {
			w->is_store = false;
			st[WI_GMEM_LD_REQS]++;
			st[WI_GMEM_LD_SECTORS] += n;
			st[WI_GMEM_LD_TRANS] += lines;
		} else {
			w->is_store = true;
			st[WI_GMEM_ST_REQS]++;
			st[WI_GMEM_ST_SECTORS] += n;
			st[WI_GMEM_ST_TRANS] += lines;
		}
	} else if (ref == REF_LDL || ref == REF_STL) {
		w->is_local = true;
		st[WI_LMEM_USED] = 1;
		if (ref == REF_LDL) {
			w->is_store = false;
			st[WI_LMEM_LD_REQS]++;
			st[WI_LMEM_LD_TRANS] += lines;
		} else {
			w->is_store = true;
			st[WI_LMEM_ST_REQS]++;
			st[WI_LMEM_ST_TRANS] += lines;
		}
	}
	st[w->is_store ? WI_UMEM_ST_SECTORS : WI_UMEM_LD_SECTORS] += n;

	struct mem_req r;

	mem_req_init(&r, w->is_store ? MEM_WRITE : MEM_READ, 0, MEM_ATOM);
	r.space = w->is_local ? MEM_LOCAL : MEM_GLOBAL;
	r.sm = w->sm;
	r.warp = l->warp;
	if (pyset)
		send_pyset_sectors(w, &r, n, l->addr[0] >> GPU_PYSET_SECTOR_SHIFT,
				   l->pyset_sectors);
	else
		send_sectors(w, &r, n, NULL);
}

/* ---- classify = hw: opcode table, generic windows, local layout ------------ */

/* An opcode text's memo slot, from its pointer (texts may be packed a few
 * bytes apart: a multiplicative hash spreads them). */
static inline struct op_memo *op_memo_of(struct warp_interleaver *w, const char *op)
{
	return &w->memo[(uint64_t)(uintptr_t)op * UINT64_C(0x9e3779b97f4a7c15) >> 61];
}

static const struct opinfo *opinfo_of(struct warp_interleaver *w, const char *op)
{
	struct op_memo *mm = op_memo_of(w, op);
	struct opinfo *o;

	if (G_LIKELY(mm->op == op))
		return mm->info;
	o = g_hash_table_lookup(w->ops, op);
	if (!o) {
		o = g_new(struct opinfo, 1);
		decode_opcode(op, o);
		g_hash_table_insert(w->ops, (gpointer)op, o);
		/* a wider access maps to more local words: room for them now,
		 * not per instruction */
		if (w->map_local && o->width / 4 * 32 > w->mapped_cap) {
			w->mapped_cap = o->width / 4 * 32;
			w->mapped = g_renew(uint64_t, w->mapped, w->mapped_cap);
			sectors_reserve(w, w->mapped_cap);
		}
	}
	*mm = (struct op_memo){ op, o };
	return o;
}

/*
 * GPGPU-Sim's local layout of the n offsets off[] of line l (minus `sub`,
 * the local window's base for a generic access) into w->mapped; returns
 * how many words.  *width: the bytes of each.  Accel-Sim traces give each
 * lane the same per-thread offset; GPGPU-Sim interleaves the threads' 4-byte
 * words: word i of every thread that can be resident on the GPU at once
 * (wpb * 32 a block, max_active blocks, every SM) sits together, thread
 * tid of SM sm at 4 * (ntpc * (sm + SMs * (tid / ntpc)) + tid % ntpc) in
 * each.  An access of 4 bytes or more becomes one word per 4 bytes; a
 * narrower one stays one access, at its byte in its word.
 */
static uint32_t map_local(struct warp_interleaver *w, const struct gpu_line *l,
			  const uint64_t *off, uint32_t n, uint64_t sub, uint32_t slot,
			  uint32_t *width)
{
	const uint64_t ntpc = (uint64_t)w->wpb * 32;
	const uint64_t stride = ntpc * w->max_active * w->num_sms * 4;
	const uint32_t wb = *width, words = wb >= 4 ? wb / 4 : 1;
	uint32_t lanes = l->lanes, m = 0;

	for (uint32_t k = 0; k < n && lanes; k++, lanes &= lanes - 1) {
		uint64_t lane = (uint64_t)__builtin_ctz(lanes);
		uint64_t tid = slot * ntpc + (uint64_t)l->warp * 32 + lane;
		uint64_t base = 4 * (ntpc * (w->sm + w->num_sms * (tid / ntpc)) + tid % ntpc);
		uint64_t o = off[k] - sub;

		if (wb < 4) {
			w->mapped[m++] = o / 4 * stride + o % 4 + base + LOCAL_GENERIC_START;
			continue;
		}
		for (uint32_t i = 0; i < words; i++)
			w->mapped[m++] = (o / 4 + i) * stride + base + LOCAL_GENERIC_START;
	}
	*width = MIN(wb, 4);
	return m;
}

/* The space a generic access at `a` resolves to; *sub: the local base. */
static enum op_space resolve_generic(const struct warp_interleaver *w, uint64_t a,
				     uint64_t *sub)
{
	const struct gpu_kernel *k = w->kernel;

	/* Without both bases (reference-format traces, a base of 0), generic
	 * means global.  Otherwise the shared window [shmem_base, +
	 * shared_window) is shared, the local one [local_base, +
	 * local_window) is local, the rest global.  (Accel-Sim itself tests
	 * [shmem_base, local_base), wrong when shmem_base > local_base.) */
	if (!k->shmem_base || !k->local_base)
		return SPACE_GLOBAL;
	if (a >= k->shmem_base && a - k->shmem_base < w->shared_window)
		return SPACE_SHARED;
	if (a >= k->local_base && a - k->local_base < w->local_window) {
		*sub = k->local_base;
		return SPACE_LOCAL;
	}
	return SPACE_GLOBAL;
}

/* Counts the classes that send nothing; whether op is one of them. */
static bool hw_unsent(struct warp_interleaver *w, const struct opinfo *op)
{
	switch (op->cls) {
	case OP_IGNORED:
		return true;
	case OP_UNKNOWN:
		w->c.stats[WI_DROPPED_INSTS]++;
		return true;
	case OP_SHARED:
		w->c.stats[WI_SHARED_INSTS]++;
		return true;
	}
	return false;
}

/* A reference-format LDGSTS lists the shared destination's addresses
 * first, then the global source's: with ldgsts_shared = drop, keep the
 * second half of *a, *n when the count is even, else all of it. */
static void ldgsts_drop_shared(struct warp_interleaver *w, const struct opinfo *op,
			       const struct gpu_line *l, const uint64_t **a, uint32_t *n)
{
	if (!op->ldgsts || l->lanes || !w->drop_ldgsts_shared)
		return;
	if (*n % 2 == 0) {
		*a += *n / 2;
		*n /= 2;
	} else {
		w->c.stats[WI_LDGSTS_UNSPLIT]++;
	}
}

/* The space the access goes to: its opcode's, or for a generic one, that of
 * the first active lane's address a0 (*sub: the local base to take off). */
static enum op_space hw_space(const struct warp_interleaver *w,
			      const struct opinfo *op, uint64_t a0, uint64_t *sub)
{
	return op->space == SPACE_GENERIC ? resolve_generic(w, a0, sub) : op->space;
}

/* The n addresses a (local ones mapped first, when they can be) into
 * unique sectors and their masks in w->sectors, w->masks: how many;
 * *lines: the lines they touch. */
static uint32_t hw_coalesce(struct warp_interleaver *w, const struct gpu_line *l,
			    const struct opinfo *op, enum op_space space,
			    const uint64_t *a, uint32_t n, uint64_t sub,
			    uint32_t slot, uint32_t *lines)
{
	uint32_t width = op->width;

	if (space == SPACE_LOCAL && w->map_local && l->lanes && l->warp != GPU_WARP_UNKNOWN) {
		n = map_local(w, l, a, n, sub, slot, &width);
		a = w->mapped;
	}
	sectors_reserve(w, n);
	return coalesce_masked(w->coalescer, a, n, width, w->sectors, w->masks, lines);
}

/* The statistics of one access of m sectors over `lines` lines. */
static void hw_count(struct warp_interleaver *w, const struct hw_count *t,
		     uint32_t m, uint32_t lines)
{
	uint64_t *st = w->c.stats;

	st[t->reqs]++;
	st[t->sectors] += m;
	st[t->total] += m;
	if (t->lines != NO_STAT)
		st[t->lines] += lines;
	if (t->local_used)
		st[WI_LMEM_USED] = 1;
}

/* What the requests of instruction l have in common. */
static void hw_req_init(struct mem_req *r, const struct warp_interleaver *w,
			const struct gpu_line *l, uint8_t kind, enum op_space space,
			uint8_t flags)
{
	mem_req_init(r, kind, 0, MEM_ATOM);
	r->space = space == SPACE_LOCAL ? MEM_LOCAL : MEM_GLOBAL;
	r->flags = flags;
	r->sm = w->sm;
	r->warp = l->warp;
}

/* The m sectors of w->sectors, as requests of `kind` (enum mem_op). */
static void hw_send(struct warp_interleaver *w, const struct gpu_line *l,
		    uint8_t kind, enum op_space space, uint8_t flags, uint32_t m)
{
	struct mem_req r;

	hw_req_init(&r, w, l, kind, space, flags);
	send_sectors(w, &r, m, w->masks);
}

/* timing: hw_send(), each request tagged with its warp, which waits for
 * the answers to all but its writes. */
static void hw_send_timed(struct warp_interleaver *w, const struct gpu_line *l,
			  uint8_t kind, enum op_space space, uint8_t flags, uint32_t m)
{
	struct hw_warp *hw = &w->hw[w->cur_h];
	struct mem_req r;

	hw_req_init(&r, w, l, kind, space, flags);
	r.tag = w->cur_h;
	for (uint32_t i = 0; i < m; i++) {
		r.addr = r.part_addr = w->sectors[i];
		r.mask = w->masks[i];
		if (mem_req_wants_answer(&r))
			hw->outstanding++;
		ss_port_send(w->mem, &r.hdr);
	}
}

/* classify = hw: one instruction, from its opcode to its requests. */
static void issue_hw(struct warp_interleaver *w, const struct gpu_line *l,
		     uint32_t slot)
{
	const uint64_t *a = gpu_line_addrs(l, w->line_addrs);
	uint32_t n = l->n_addr, lines, m;
	const struct opinfo *op;
	const struct hw_count *t;
	enum op_space space;
	uint64_t sub = 0;

	if (!n)			/* no active lane: no request */
		return;
	op = opinfo_of(w, l->opcode);
	if (hw_unsent(w, op))
		return;
	ldgsts_drop_shared(w, op, l, &a, &n);
	space = hw_space(w, op, a[0], &sub);
	if (space == SPACE_SHARED) {
		w->c.stats[WI_SHARED_INSTS]++;
		return;
	}
	m = hw_coalesce(w, l, op, space, a, n, sub, slot, &lines);
	t = &op->counts[space];
	hw_count(w, t, m, lines);
	if (op->bypass)		/* only global loads are */
		w->c.stats[WI_BYPASSED_LOADS]++;
	if (w->timing)
		hw_send_timed(w, l, t->kind, space, op->flags, m);
	else
		hw_send(w, l, t->kind, space, op->flags, m);
}

/* One instruction of the block in `slot`: classify, coalesce, send. */
static void issue_line(struct warp_interleaver *w, const struct gpu_line *l,
		       uint32_t slot)
{
	w->c.stats[WI_LINES]++;
	if (w->classify_hw)
		issue_hw(w, l, slot);
	else
		issue_ref(w, l);
}

/* ---- issue = block_rr: the reference's block round-robin ------------------- */

/*
 * One line of each resident block, in dispatch order; blocks that issued
 * their last go, the others keep their order.  Whether any is left; in
 * *finished, whether a block issued its last.
 */
static bool issue_round(struct warp_interleaver *w, bool *finished_out)
{
	bool finished = false;
	guint keep = 0;

	for (guint i = 0; i < w->resident->len; i++) {
		struct resident *b = &g_array_index(w->resident, struct resident, i);
		const struct gpu_block *blk = b->block;
		uint32_t slot = b->slot;

		if (blk->stream) {
			/* decoded as it is issued, into the room the SM reuses:
			 * block_rr is never timed, so a line is done with when
			 * issue_line() returns */
			struct gpu_line l;
			GError *err = NULL;

			if (!blk->stream->next(blk, &b->cur, &l, &w->room, &err)) {
				ss_engine_fail(w->c.engine, err);
				g_array_set_size(w->resident, 0);
				*finished_out = false;
				return false;
			}
			b->next++;
			issue_line(w, &l, slot);
		} else {
			/*
			 * The block's next line is issued a round from now: its
			 * addresses asked for now.  Forty SMs of eight blocks
			 * each are more streams than the processor follows by
			 * itself (titanv-ref on one thread, full app, native
			 * file: 3 % less time).
			 */
			if (b->next + 1 < blk->n_lines) {
				const struct gpu_line *next = &blk->lines[b->next + 1];
				const char *a = (const char *)next->addr;
				size_t bytes = (next->step ? 1 : next->n_addr) *
					       sizeof(*next->addr);

				/* one prefetch per 64-byte cache line */
				for (size_t k = 0; k < bytes; k += 64)
					ss_prefetch(a + k);
				if (b->next + 2 < blk->n_lines)
					ss_prefetch(next + 1);
			}
			issue_line(w, &blk->lines[b->next++], slot);
		}
		/* last use of b: the scheduler may answer DONE with a block,
		 * which moves the array */
		if (b->next == blk->n_lines) {
			finished = true;
			send_done(w, slot, blk);
		}
	}
	*finished_out = finished;
	if (!finished)
		return w->resident->len > 0;
	for (guint i = 0; i < w->resident->len; i++) {
		struct resident *b = &g_array_index(w->resident, struct resident, i);

		if (b->next < b->block->n_lines)
			g_array_index(w->resident, struct resident, keep++) = *b;
	}
	g_array_set_size(w->resident, keep);
	return keep > 0;
}

/* ---- issue = subcore_*: per sub-core warp scheduling ---------------------- */

static inline uint64_t *ready_of(struct warp_interleaver *w, uint32_t s)
{
	return w->ready + (size_t)s * w->ready_words;
}

static inline void ready_set(struct warp_interleaver *w, uint32_t h)
{
	uint32_t j = h / w->nsched;

	ready_of(w, h % w->nsched)[j / 64] |= UINT64_C(1) << (j % 64);
}

static inline void ready_clear(struct warp_interleaver *w, uint32_t h)
{
	uint32_t j = h / w->nsched;

	ready_of(w, h % w->nsched)[j / 64] &= ~(UINT64_C(1) << (j % 64));
}

static inline bool ready_test(struct warp_interleaver *w, uint32_t h)
{
	uint32_t j = h / w->nsched;

	return ready_of(w, h % w->nsched)[j / 64] >> (j % 64) & 1;
}

/* The first set bit at `from` or above, NONE if none. */
static uint32_t first_set(const uint64_t *b, uint32_t words, uint32_t from)
{
	for (uint32_t i = from / 64; i < words; i++) {
		uint64_t x = b[i];

		if (i == from / 64)
			x &= ~UINT64_C(0) << (from % 64);
		if (x)
			return i * 64 + (uint32_t)__builtin_ctzll(x);
	}
	return NONE;
}

/* issue = latency_queue: the warp at the head of the queue. */
static uint32_t pick_lq(struct warp_interleaver *w)
{
	uint32_t h;

	if (!w->lq->len)
		return NONE;
	h = g_array_index(w->lq, struct lq_item, 0).h;
	g_array_remove_index(w->lq, 0);
	return h;
}

/*
 * Warp h can issue: its bit, and under latency_queue its place in the
 * queue: after every warp that became ready in an earlier tick, and among
 * those of its tick by enum lq_class.  So with no latency the warps take
 * turns in id order, and a warp that waited goes behind those that did
 * not, earliest answer first.  (Nugteren et al.'s model orders one tick's
 * warps the other way round, the one that just issued first:
 * issue = nugteren.)
 */
static void make_ready(struct warp_interleaver *w, uint32_t h, enum lq_class why)
{
	if (ready_test(w, h))
		return;
	ready_set(w, h);
	w->n_ready++;
	if (w->policy != ISSUE_LATENCY_QUEUE)
		return;

	struct lq_item it = {
		.key = ss_engine_now(w->c.engine) * 4 + why,
		.order = why == LQ_ANSWERED ? h : ++w->lq_seq,
		.h = h,
	};
	guint i = w->lq->len;

	while (i > 0) {
		const struct lq_item *q = &g_array_index(w->lq, struct lq_item, i - 1);

		if (q->key < it.key || (q->key == it.key && q->order < it.order))
			break;
		i--;
	}
	g_array_insert_val(w->lq, i, it);
}

/* Loose round-robin: the first warp after the last one issued, cyclic. */
static uint32_t pick_lrr(struct warp_interleaver *w, uint32_t s)
{
	const uint64_t *b = ready_of(w, s);
	uint32_t from = w->last_j[s] == NONE ? 0 : w->last_j[s] + 1;
	uint32_t j = first_set(b, w->ready_words, from);

	if (j == NONE && from)
		j = first_set(b, w->ready_words, 0);
	if (j == NONE)
		return NONE;
	w->last_j[s] = j;
	return j * w->nsched + s;
}

/* Greedy then oldest: the same warp while it has work, then the warp of
 * the earliest dispatched block, lowest warp id first. */
static uint32_t pick_gto(struct warp_interleaver *w, uint32_t s)
{
	const uint64_t *b = ready_of(w, s);
	uint32_t best = NONE;
	uint64_t best_key = UINT64_MAX;

	if (w->greedy[s] != NONE && ready_test(w, w->greedy[s]))
		return w->greedy[s];
	for (uint32_t j = first_set(b, w->ready_words, 0); j != NONE;
	     j = first_set(b, w->ready_words, j + 1)) {
		uint32_t h = j * w->nsched + s;
		uint64_t key = w->slots[h / w->wpb_eff].dispatched << 32 | h % w->wpb_eff;

		if (key < best_key) {
			best_key = key;
			best = h;
		}
	}
	w->greedy[s] = best;
	return best;
}

/* ---- timing: warps that wait for their answers ---------------------------- */

static void wake(struct warp_interleaver *w);
static bool has_work(const struct warp_interleaver *w);
static void queue_control(struct warp_interleaver *w);

/* Warp h answered for its last instruction: its block may be done. */
static void warp_finished(struct warp_interleaver *w, uint32_t h)
{
	uint32_t r = h / w->wpb_eff;
	struct block_slot *slot = &w->slots[r];

	/* the next warp in this place is another one */
	if (w->greedy[h % w->nsched] == h)
		w->greedy[h % w->nsched] = NONE;
	w->live_warps--;
	if (!--slot->warps_left)
		slot_done(w, r);
	/* inside an issue, issue_tick ends the kernel itself */
	if (w->last && !has_work(w) && !w->issuing) {
		w->end_due = true;
		queue_control(w);
	}
}

/*
 * Where warp h stands once nothing of its own is being sent: waiting for
 * answers or for the L1's retry, ready for its next instruction (or to
 * send its refused requests again), or finished.
 */
static void settle(struct warp_interleaver *w, uint32_t h, enum lq_class why)
{
	struct hw_warp *hw = &w->hw[h];

	if (hw->outstanding || hw->blocked || (w->sending && w->cur_h == h))
		return;
	if (hw->n_refused || hw->next < hw->n) {
		make_ready(w, h, hw->n_refused ? LQ_REFUSED : why);
		wake(w);
		return;
	}
	warp_finished(w, h);
}

/* Warp h's refused requests, again, in the order they were refused. */
static void resend_refused(struct warp_interleaver *w, uint32_t h)
{
	struct hw_warp *hw = &w->hw[h];
	guint keep = 0;

	g_array_set_size(w->resend, 0);
	for (guint i = 0; i < w->refused->len; i++) {
		struct refused_req *q = &g_array_index(w->refused, struct refused_req, i);

		if (q->h == h)
			g_array_append_val(w->resend, *q);
		else
			g_array_index(w->refused, struct refused_req, keep++) = *q;
	}
	g_array_set_size(w->refused, keep);
	hw->n_refused = 0;
	/* until the L1 refuses one again: the rest would be refused too */
	for (guint i = 0; i < w->resend->len; i++) {
		struct refused_req *q = &g_array_index(w->resend, struct refused_req, i);

		if (hw->blocked) {
			g_array_append_val(w->refused, *q);
			hw->n_refused++;
			continue;
		}
		if (mem_req_wants_answer(&q->req))
			hw->outstanding++;
		ss_port_send(w->mem, &q->req.hdr);
	}
}

/* Timing: warp h issues its next instruction, or its refused requests. */
static void issue_timed(struct warp_interleaver *w, uint32_t h)
{
	struct hw_warp *hw = &w->hw[h];
	uint32_t r = h / w->wpb_eff;

	ready_clear(w, h);
	w->n_ready--;
	if (!*w->wt[WT_FIRST_ISSUE])
		*w->wt[WT_FIRST_ISSUE] = ss_engine_now(w->c.engine) + 1;
	w->cur_h = h;
	w->sending = true;
	if (hw->n_refused) {
		resend_refused(w, h);
	} else {
		uint32_t li = hw->idx ? hw->idx[hw->next] : hw->next;

		hw->next++;
		issue_line(w, &w->slots[r].block->lines[li], r);
	}
	w->sending = false;
	settle(w, h, LQ_AFTER_ISSUE);
}

static void nug_answer(struct warp_interleaver *w, const struct mem_req *r);

/* An answer, a refusal or a retry from the L1. */
static void wi_answer(struct warp_interleaver *w, const struct mem_req *r)
{
	uint32_t h = r->tag;
	struct hw_warp *hw = NULL;

	if (w->issue == ISSUE_NUGTEREN) {
		nug_answer(w, r);
		return;
	}
	if (r->hdr.kind == MEM_RESPONSE || r->hdr.kind == MEM_REFUSE) {
		if (!w->timing || h >= w->hw_cap || !w->hw[h].outstanding) {
			fail(w, "an answer (kind %u) for warp %u, which waits for none", r->hdr.kind, h);
			return;
		}
		hw = &w->hw[h];
		hw->outstanding--;
	}
	switch (r->hdr.kind) {
	case MEM_RESPONSE:
		*w->wt[WT_LAST_ANSWER] = ss_engine_now(w->c.engine) + 1;
		settle(w, h, LQ_ANSWERED);
		break;
	case MEM_REFUSE: {
		struct refused_req q = { .h = h, .req = *r };

		q.req.hdr.kind = r->ctl;
		q.req.ctl = 0;
		q.req.reason = 0;
		g_array_append_val(w->refused, q);
		hw->n_refused++;
		hw->blocked = true;
		(*w->wt[WT_REFUSED])++;
		break;
	}
	case MEM_RETRY:
		for (guint i = 0; w->timing && i < w->refused->len; i++) {
			uint32_t k = g_array_index(w->refused, struct refused_req, i).h;

			if (w->hw[k].blocked) {
				w->hw[k].blocked = false;
				settle(w, k, LQ_REFUSED);
			}
		}
		break;
	default:
		fail(w, "kind %u from the L1, which sends only answers", r->hdr.kind);
		break;
	}
}

static void schedule_tick(struct warp_interleaver *w, uint64_t delay);

/* ---- issue = nugteren: the issue of Nugteren et al.'s cache model ------------ */

/*
 * One FIFO queue of the SM's warps, one warp a tick (doc/nugteren-model.md,
 * "One simulation").  Each lane keeps its own place among its loads, since
 * lane 0 may stay behind the others.  A visit goes over the lanes in
 * portions: as many as lane 0's access has 4-byte words, of 32 / portions
 * lanes each.  A lane past its last load counts as done; one whose line an
 * earlier lane of its coalescing group requests moves on; the others send
 * their line's request, lane 0's flagged MEM_F_MAY_WAIT.  If the L1
 * refuses it, lane 0 keeps its load and the rest of its portion waits for
 * the next visit.  After each portion the L1 completes what is due
 * (MEM_CTL_COMPLETE).  Then the warp is finished when every lane was done,
 * waits for its answers if it has some to come, or goes to the back of the
 * queue; a warp whose last answer came in a tick joins the queue at the
 * start of the next, warps of one tick in their order on the SM.
 */

/* What messages name the kernel's input by. */
static const char *nug_file(const struct warp_interleaver *w)
{
	return w->kernel->trace_file ? w->kernel->trace_file : "trace";
}

static void nq_push(struct warp_interleaver *w, uint32_t h)
{
	w->nq[(w->nq_head + w->nq_len++) % w->nq_cap] = h;
}

static uint32_t nq_pop(struct warp_interleaver *w)
{
	uint32_t h = w->nq[w->nq_head];

	w->nq_head = (w->nq_head + 1) % w->nq_cap;
	w->nq_len--;
	return h;
}

static int cmp_order(const void *a, const void *b)
{
	const struct lq_item *x = a, *y = b;

	return (x->order > y->order) - (x->order < y->order);
}

/*
 * The lanes that make the requests of each line of block b in slot r, by
 * Fermi's rule; false, the run stopped, when the block is not what the
 * model reads: loads only, one width per load of a warp (a warp's next
 * line then has a subset of the lanes of the one before).
 */
static bool nug_leaders(struct warp_interleaver *w, uint32_t r, const struct gpu_block *b)
{
	struct block_slot *slot = &w->slots[r];
	uint64_t out[32];
	uint8_t lane[32];

	if (b->n_lines > slot->lead_cap) {
		slot->lead_cap = MAX(b->n_lines, 2 * slot->lead_cap);
		slot->lead = g_renew(uint32_t, slot->lead, slot->lead_cap);
	}
	for (uint32_t i = 0; i < b->n_lines; i++) {
		const struct gpu_line *l = &b->lines[i];
		const struct opinfo *op = opinfo_of(w, l->opcode);
		uint32_t m;

		slot->lead[i] = 0;
		if (op->cls != OP_LOAD || l->n_addr > 32 || !l->lanes) {
			ss_component_fail(&w->c, SS_ERROR_INPUT,
					  "%s: kernel %u block %" G_GUINT64_FORMAT ": %s: issue = nugteren takes a loads-only trace with lanes (the trace source's loads_only = true)",
					  nug_file(w), w->kernel->id, b->id, l->opcode);
			return false;
		}
		m = coalesce_lane_groups(gpu_line_addrs(l, w->line_addrs), l->n_addr,
					 l->lanes, op->width,
					 w->line_bytes, out, lane);
		for (uint32_t q = 0; q < m; q++)
			slot->lead[i] |= 1u << lane[q];
	}
	for (uint32_t v = 0; v < w->wpb; v++) {
		const struct hw_warp *hw = &w->hw[r * w->wpb + v];

		for (uint32_t k = 1; k < hw->n; k++) {
			uint32_t prev = b->lines[hw->idx[k - 1]].lanes;
			uint32_t cur = b->lines[hw->idx[k]].lanes;

			if (cur & ~prev) {
				ss_component_fail(&w->c, SS_ERROR_INPUT,
						  "%s: kernel %u block %" G_GUINT64_FORMAT " warp %u: the threads' loads at one index differ in width; issue = nugteren takes one width per index",
						  nug_file(w), w->kernel->id, b->id, v);
				return false;
			}
		}
	}
	return true;
}

/* Every warp of block b in slot r joins the queue, in warp order. */
static void nug_place(struct warp_interleaver *w, uint32_t r, const struct gpu_block *b)
{
	struct block_slot *slot = &w->slots[r];
	uint32_t bs = w->kernel->block_size;

	if (!nug_leaders(w, r, b)) {
		slot->block = NULL;
		slot->streamed = NULL;
		return;
	}
	for (uint32_t v = 0; v < w->wpb; v++) {
		uint32_t h = r * w->wpb + v;
		struct hw_warp *hw = &w->hw[h];

		hw->lanes = MIN(32u, bs - v * 32);
		hw->order = slot->dispatched * w->wpb + v;
		memset(w->cursor + (size_t)h * 32, 0, 32 * sizeof(uint32_t));
		slot->warps_left++;
		w->live_warps++;
		nq_push(w, h);
	}
}

/* The line lane l of warp h loads next, or NULL: it has no load left. */
static const struct gpu_line *nug_line(const struct warp_interleaver *w,
				       const struct hw_warp *hw, const struct gpu_block *b,
				       uint32_t h, uint32_t l, uint32_t *li)
{
	uint32_t c = w->cursor[(size_t)h * 32 + l];
	const struct gpu_line *line;

	if (c >= hw->n)
		return NULL;
	*li = hw->idx[c];
	line = &b->lines[*li];
	return line->lanes >> l & 1 ? line : NULL;
}

/* Warp h's visit. */
static void nug_visit(struct warp_interleaver *w, uint32_t h)
{
	struct hw_warp *hw = &w->hw[h];
	const struct block_slot *slot = &w->slots[h / w->wpb];
	const struct gpu_block *b = slot->block;
	uint32_t *cur = w->cursor + (size_t)h * 32;
	uint32_t done = 0, bytes = 0, portions, per, li, taken = 0;
	const struct gpu_line *l0 = hw->lanes ? nug_line(w, hw, b, h, 0, &li) : NULL;
	struct mem_req r;

	if (!*w->wt[WT_FIRST_ISSUE])
		*w->wt[WT_FIRST_ISSUE] = ss_engine_now(w->c.engine) + 1;
	if (l0)
		bytes = opinfo_of(w, l0->opcode)->width;
	/* with 3, 5, 6 or 7 portions the lanes a division leaves over wait
	 * for a visit in which lane 0 has a narrower load, or none */
	portions = MAX(1u, bytes / 4);
	per = 32 / portions;
	mem_req_init(&r, MEM_READ, 0, MEM_ATOM);
	r.sm = w->sm;
	r.tag = h;
	w->cur_h = h;
	w->sending = true;
	for (uint32_t j = 0; j < portions; j++) {
		for (uint32_t l = j * per; l < (j + 1) * per && l < hw->lanes; l++) {
			const struct gpu_line *line = nug_line(w, hw, b, h, l, &li);

			if (!line) {
				done++;
				continue;
			}
			cur[l]++;
			taken++;
			if (!(slot->lead[li] >> l & 1))
				continue;
			r.addr = r.part_addr = gpu_line_addr(line, (uint32_t)__builtin_popcount(line->lanes & ((1u << l) - 1))) & ~(uint64_t)(MEM_ATOM - 1);
			r.flags = l == 0 ? MEM_F_MAY_WAIT : 0;
			r.warp = line->warp;
			hw->outstanding++;
			w->lead_refused = false;
			ss_port_send(w->mem, &r.hdr);
			if (w->lead_refused) {
				/* lane 0 keeps its load; its portion waits */
				cur[l]--;
				taken--;
				break;
			}
			w->c.stats[WI_GMEM_LD_SECTORS]++;
			w->c.stats[WI_UMEM_LD_SECTORS]++;
		}
		send_control(w, MEM_CTL_COMPLETE, 0, w->kernel->id);
	}
	w->sending = false;
	if (taken)		/* a visit in which some lane took a load */
		w->c.stats[WI_LINES]++;
	if (done == hw->lanes)
		warp_finished(w, h);
	else if (!hw->outstanding)
		nq_push(w, h);
}

/* One tick: the warps answered before it join the queue, its head visits.
 * Whether there is more to do in the next tick. */
static bool nug_tick(struct warp_interleaver *w)
{
	if (w->answered->len) {
		g_array_sort(w->answered, cmp_order);
		for (guint i = 0; i < w->answered->len; i++)
			nq_push(w, g_array_index(w->answered, struct lq_item, i).h);
		g_array_set_size(w->answered, 0);
	}
	if (w->nq_len)
		nug_visit(w, nq_pop(w));
	return w->nq_len || w->answered->len;
}

/* An answer or a refusal from the L1 (retries: lane 0 tries again at its
 * warp's next visit anyway). */
static void nug_answer(struct warp_interleaver *w, const struct mem_req *r)
{
	uint32_t h = r->tag;
	struct hw_warp *hw;

	if (r->hdr.kind == MEM_RETRY)
		return;
	if ((r->hdr.kind != MEM_RESPONSE && r->hdr.kind != MEM_REFUSE) ||
	    h >= w->hw_cap || !w->hw[h].outstanding) {
		fail(w, "an answer (kind %u) for warp %u, which waits for none", r->hdr.kind, h);
		return;
	}
	hw = &w->hw[h];
	hw->outstanding--;
	if (r->hdr.kind == MEM_REFUSE) {
		if (!w->sending || w->cur_h != h) {
			fail(w, "a refusal for warp %u outside its visit", h);
			return;
		}
		w->lead_refused = true;
		(*w->wt[WT_REFUSED])++;
		return;
	}
	*w->wt[WT_LAST_ANSWER] = ss_engine_now(w->c.engine) + 1;
	if (hw->outstanding || (w->sending && w->cur_h == h))
		return;

	struct lq_item it = { .order = hw->order, .h = h };

	g_array_append_val(w->answered, it);
	/* it joins the queue after this tick */
	if (!w->scheduled && !w->issuing && !w->ended)
		schedule_tick(w, 1);
}

/* Each scheduler's pick issues one instruction. */
static void issue_subcores(struct warp_interleaver *w)
{
	for (uint32_t s = 0; s < w->nsched && w->n_ready; s++) {
		uint32_t h = w->policy == ISSUE_SUBCORE_GTO ? pick_gto(w, s)
			   : w->policy == ISSUE_LATENCY_QUEUE ? pick_lq(w)
			   : pick_lrr(w, s);
		struct hw_warp *hw;
		struct block_slot *slot;
		const struct gpu_block *b;
		uint32_t r, li;
		bool warp_done;

		if (h == NONE)
			continue;
		if (w->timing) {
			issue_timed(w, h);
			continue;
		}
		hw = &w->hw[h];
		r = h / w->wpb_eff;
		slot = &w->slots[r];
		b = slot->block;
		li = hw->idx ? hw->idx[hw->next] : hw->next;
		warp_done = ++hw->next == hw->n;
		slot->lines_left--;
		if (warp_done) {
			ready_clear(w, h);
			w->n_ready--;
			/* the next warp in this place is another one */
			if (w->greedy[s] == h)
				w->greedy[s] = NONE;
		}
		issue_line(w, &b->lines[li], r);
		if (warp_done && !--slot->warps_left)
			slot_done(w, r);
	}
}

/*
 * Room for `need` block slots of this kernel's shape: the slot table, the
 * hardware warps (n_slots * wpb) and the schedulers' bitmaps, whose
 * contents stay (a warp's id does not depend on the number of slots).
 */
static void ensure_slots(struct warp_interleaver *w, uint32_t need)
{
	size_t hw_need;
	uint32_t words;

	if (need > w->n_slots) {
		uint32_t n = MAX(need, 2 * w->n_slots);

		w->slots = g_renew(struct block_slot, w->slots, n);
		memset(w->slots + w->n_slots, 0, (n - w->n_slots) * sizeof(*w->slots));
		w->n_slots = n;
	}
	hw_need = (size_t)w->n_slots * w->wpb;
	if (hw_need > w->hw_cap) {
		w->hw = g_renew(struct hw_warp, w->hw, hw_need);
		memset(w->hw + w->hw_cap, 0, (hw_need - w->hw_cap) * sizeof(*w->hw));
		w->hw_cap = hw_need;
	}
	if (w->issue == ISSUE_NUGTEREN && hw_need > w->nq_cap) {
		/* the ring again, in queue order from its start */
		uint32_t *nq = g_new(uint32_t, hw_need);

		for (uint32_t i = 0; i < w->nq_len; i++)
			nq[i] = w->nq[(w->nq_head + i) % w->nq_cap];
		g_free(w->nq);
		w->nq = nq;
		w->nq_head = 0;
		w->nq_cap = (uint32_t)hw_need;
		w->cursor = g_renew(uint32_t, w->cursor, hw_need * 32);
	}
	words = (uint32_t)((hw_need + 63) / 64);
	if (words > w->ready_words) {
		uint64_t *ready = g_new0(uint64_t, (size_t)words * w->subcores);

		for (uint32_t s = 0; s < w->subcores && w->ready_words; s++)
			memcpy(ready + (size_t)s * words, ready_of(w, s),
			       w->ready_words * sizeof(uint64_t));
		g_free(w->ready);
		w->ready = ready;
		w->ready_words = words;
	}
}

/* A new kernel: no slot taken, no warp with work, schedulers at rest. */
static void reset_subcores(struct warp_interleaver *w, uint32_t slots)
{
	ensure_slots(w, slots);
	for (uint32_t i = 0; i < w->n_slots; i++) {
		w->slots[i].block = NULL;
		w->slots[i].streamed = NULL;
	}
	memset(w->hw, 0, w->hw_cap * sizeof(*w->hw));
	memset(w->ready, 0, (size_t)w->ready_words * w->subcores * sizeof(uint64_t));
	for (uint32_t s = 0; s < G_N_ELEMENTS(w->last_j); s++)
		w->last_j[s] = w->greedy[s] = NONE;
	w->n_ready = 0;
	w->n_dispatched = 0;
	w->live_warps = 0;
	if (w->timing) {
		g_array_set_size(w->lq, 0);
		g_array_set_size(w->refused, 0);
		g_array_set_size(w->answered, 0);
		w->lq_seq = 0;
		w->nq_head = w->nq_len = 0;
	}
	w->warps = WARPS_UNDECIDED;
	if (w->wpb + 1 > w->wcount_cap) {
		w->wcount_cap = w->wpb + 1;
		w->wcount = g_renew(uint32_t, w->wcount, w->wcount_cap);
	}
}

/*
 * The lines of block b in slot r grouped by warp (a counting sort into the
 * slot's index, which keeps each warp's order) and its warps made ready;
 * false, the run stopped, when a line's warp lies outside the block.
 */
static bool place_warps(struct warp_interleaver *w, uint32_t r, const struct gpu_block *b)
{
	struct block_slot *slot = &w->slots[r];
	uint32_t *at = w->wcount, wpb = w->wpb, start = 0;

	if (b->n_lines > slot->idx_cap) {
		slot->idx_cap = MAX(b->n_lines, 2 * slot->idx_cap);
		slot->idx = g_renew(uint32_t, slot->idx, slot->idx_cap);
	}
	memset(at, 0, wpb * sizeof(*at));
	for (uint32_t i = 0; i < b->n_lines; i++) {
		uint32_t v = b->lines[i].warp;

		if (v >= wpb) {
			fail(w, "kernel %u block %" G_GUINT64_FORMAT " line %u: warp %u of a block of %u warps",
			     w->kernel->id, b->id, i, v, wpb);
			return false;
		}
		at[v]++;
	}
	for (uint32_t v = 0; v < wpb; v++) {
		uint32_t h = r * wpb + v, n = at[v];

		w->hw[h] = (struct hw_warp){ .idx = slot->idx + start, .n = n };
		at[v] = start;
		start += n;
		if (n && w->issue != ISSUE_NUGTEREN) {
			make_ready(w, h, LQ_ANSWERED);
			slot->warps_left++;
			w->live_warps++;
		}
	}
	for (uint32_t i = 0; i < b->n_lines; i++)
		slot->idx[at[b->lines[i].warp]++] = i;
	if (w->issue == ISSUE_NUGTEREN)
		nug_place(w, r, b);
	return true;
}

/* A block in slot r: its warps become the schedulers'. */
static void place_block(struct warp_interleaver *w, uint32_t r, const struct gpu_block *b)
{
	const struct gpu_block *streamed = NULL;
	struct block_slot *slot;

	ensure_slots(w, r + 1);
	if (w->slots[r].block) {
		fail(w, "kernel %u block %" G_GUINT64_FORMAT " dispatched to slot %u, which block %" G_GUINT64_FORMAT " still holds",
		     w->kernel->id, b->id, r, w->slots[r].block->id);
		return;
	}
	if (b->stream) {
		/* these issues visit a block's lines warp by warp: its lines
		 * gathered into the slot's storage, which the next block of
		 * the slot reuses */
		struct block_slot *sl = &w->slots[r];
		GError *err = NULL;

		if (!sl->gathered)
			sl->gathered = g_new0(struct gpu_block_gathered, 1);
		streamed = b;
		b = gpu_block_gather(streamed, sl->gathered, &err);
		if (!b) {
			ss_engine_fail(w->c.engine, err);
			return;
		}
	}

	bool known = b->lines[0].warp != GPU_WARP_UNKNOWN;

	if (w->warps == WARPS_UNDECIDED) {
		w->warps = known ? WARPS_KNOWN : WARPS_UNKNOWN;
		/* one queue of warps, or of blocks when warps are unknown */
		w->nsched = known && w->issue != ISSUE_LATENCY_QUEUE &&
			    w->issue != ISSUE_NUGTEREN ? w->subcores : 1;
		w->wpb_eff = known ? w->wpb : 1;
		w->policy = known || w->issue == ISSUE_LATENCY_QUEUE ? w->issue : ISSUE_SUBCORE_LRR;
		if (!known && w->issue == ISSUE_NUGTEREN) {
			ss_component_fail(&w->c, SS_ERROR_INPUT,
					  "%s: kernel %u: a trace without warps; issue = nugteren needs each line's warp and lanes",
					  nug_file(w), w->kernel->id);
			return;
		}
	} else if (known != (w->warps == WARPS_KNOWN)) {
		fail(w, "kernel %u block %" G_GUINT64_FORMAT ": %s warp ids, unlike the blocks before it",
		     w->kernel->id, b->id, known ? "with" : "without");
		return;
	}
	slot = &w->slots[r];
	slot->block = b;
	slot->streamed = streamed;
	slot->warps_left = 0;
	slot->lines_left = b->n_lines;
	slot->dispatched = w->n_dispatched++;
	if (known) {
		if (!place_warps(w, r, b)) {
			slot->block = NULL;
			slot->streamed = NULL;
		}
		return;
	}
	w->hw[r] = (struct hw_warp){ .n = b->n_lines };
	make_ready(w, r, LQ_ANSWERED);
	slot->warps_left = 1;
	w->live_warps++;
}

/* ---- ticks and the dispatch protocol ----------------------------------------- */

/* Something can issue now.  Resident blocks all have instructions left:
 * empty ones never stay. */
static bool can_issue(const struct warp_interleaver *w)
{
	if (w->issue == ISSUE_NUGTEREN)
		return w->nq_len || w->answered->len;
	return w->issue == ISSUE_BLOCK_RR ? w->resident->len > 0 : w->n_ready > 0;
}

/* Some warp is not finished: can issue, or (timing) waits for answers. */
static bool has_work(const struct warp_interleaver *w)
{
	return w->timing ? w->live_warps > 0 : can_issue(w);
}

static void end_kernel(struct warp_interleaver *w)
{
	if (w->ended)
		return;
	w->ended = true;
	g_array_set_size(w->resident, 0);
	send_control(w, MEM_CTL_KERNEL_END, 0, w->kernel ? w->kernel->id : 0);
}

static void issue_tick(struct ss_engine *e, void *data);

static void schedule_tick(struct warp_interleaver *w, uint64_t delay)
{
	w->scheduled = true;
	/* in SM order within a tick, so that the runs are reproducible */
	ss_schedule_in(w->c.engine, delay, SS_PRIO_ISSUE + 1 + w->sm, issue_tick, w);
}

/*
 * With --threads, the block scheduler's thread may run ahead to the first
 * tick at which a block of this SM could end (ss_port_promise_quiet on
 * `done`).  A block issues at most one instruction per sub-core a tick,
 * so one with n left ends no sooner than ceil(n / sub-cores) - 1 ticks
 * after the tick it next issues in, which is this one at the earliest.
 * The tick stays a true bound while the blocks issue: it is made again
 * only when a block comes or ends, or once it is reached.
 */
static void promise_done(struct warp_interleaver *w)
{
	uint64_t now = ss_engine_now(w->c.engine), t = UINT64_MAX;

	for (uint32_t r = 0; r < w->n_slots; r++) {
		const struct block_slot *slot = &w->slots[r];

		if (slot->block)
			t = MIN(t, slot->lines_left ? now + (slot->lines_left - 1) / w->nsched : now);
	}
	w->promised = t;
	ss_port_promise_quiet(&w->c, WI_PORT_DONE, t);
}

/* One tick of issue; then the next tick, or the kernel's end. */
static void issue_tick(struct ss_engine *e, void *data)
{
	struct warp_interleaver *w = data;
	bool more;

	w->scheduled = false;
	w->issuing = true;
	w->issued_at = ss_engine_now(e) + 1;
	if (w->issue == ISSUE_BLOCK_RR) {
		bool finished;

		/*
		 * Rounds until issue_sectors went down.  An SM's order of
		 * lines is the same; only the tick each goes in moves, and
		 * nothing a block_rr run counts depends on it.  A block that
		 * ends ends the tick: its slot's next block (dynamic dispatch)
		 * comes at the next tick's start, and must find the rounds
		 * where it would with one round a tick.  (Titanv-ref, full
		 * benchmark app, two threads: 0.91 of the wall time with 256
		 * against one round, 0.92 with 64; 512 and 1024 are slower.)
		 */
		w->tick_sectors = 0;
		do
			more = issue_round(w, &finished);
		while (more && !finished && w->tick_sectors < w->issue_sectors);
	} else if (w->issue == ISSUE_NUGTEREN) {
		more = nug_tick(w);
	} else {
		issue_subcores(w);
		more = w->n_ready > 0;
		if (w->promises && ss_engine_now(e) + 1 >= w->promised)
			promise_done(w);
	}
	w->issuing = false;
	if (more)
		schedule_tick(w, 1);
	else if (w->last && !has_work(w))
		end_kernel(w);
}

/*
 * The answers to the scheduler's messages that go down the memory side (a
 * kernel's begin; its end, when LAST finds the SM idle) leave in an event
 * at the SM's own priority, like its requests, in the tick they came: the
 * scheduler's messages never come back to it inside its own event, and
 * every message of an SM has a priority no other component uses, which
 * is what orders them across threads.
 */
static void control_tick(struct ss_engine *e, void *data)
{
	struct warp_interleaver *w = data;

	(void)e;
	w->control_queued = false;
	if (w->begin_due) {
		w->begin_due = false;
		send_control(w, MEM_CTL_KERNEL_BEGIN, w->begin_arg, w->kernel->id);
	}
	if (w->end_due) {
		w->end_due = false;
		if (w->go && !w->scheduled && !w->issuing && !has_work(w))
			end_kernel(w);
	}
}

static void queue_control(struct warp_interleaver *w)
{
	if (w->control_queued)
		return;
	w->control_queued = true;
	ss_schedule_in(w->c.engine, 0, SS_PRIO_ISSUE + 1 + w->sm, control_tick, w);
}

/* New work after GO: an SM with nothing queued issues in this very tick
 * (the block came before the SMs' issue), unless it has issued in it. */
static void wake(struct warp_interleaver *w)
{
	if (!w->go || w->scheduled || w->issuing || w->ended || !can_issue(w))
		return;
	schedule_tick(w, w->issued_at == ss_engine_now(w->c.engine) + 1);
}

static void begin_kernel(struct warp_interleaver *w, const struct gpu_dispatch_msg *d)
{
	const struct gpu_occupancy *occ = d->occ;

	w->kernel = d->kernel;
	w->go = w->last = w->ended = w->end_due = false;
	if (w->issue == ISSUE_NUGTEREN && w->mem->latency) {
		/* lane 0's refusal decides what the rest of its portion does */
		ss_component_fail(&w->c, SS_ERROR_CONFIG,
				  "issue = nugteren needs its L1's refusals in the tick of the request: mem must be linked without latency");
		return;
	}
	w->is_store = w->is_local = false;
	g_array_set_size(w->resident, 0);
	/* opcode texts of the previous kernel are gone: so are their pointers */
	if (w->ops)
		g_hash_table_remove_all(w->ops);
	memset(w->memo, 0, sizeof(w->memo));
	w->wpb = MAX((d->kernel->block_size + 31) / 32, 1);
	w->max_active = occ ? occ->max_active : 0;
	w->num_sms = occ && occ->num_sms ? occ->num_sms : w->c.array_size;
	if (w->issue != ISSUE_BLOCK_RR)
		reset_subcores(w, MAX(w->max_active, 1));
	if (w->map_local && w->mapped_cap < 32 * 4) {
		/* 32 lanes of up to 16 bytes; wider opcodes make room once */
		w->mapped_cap = 32 * 4;
		w->mapped = g_renew(uint64_t, w->mapped, w->mapped_cap);
		sectors_reserve(w, w->mapped_cap);
	}
	w->begin_arg = occ ? occ->l1_bytes : 0;
	w->begin_due = true;
	queue_control(w);
}

static void wi_recv(struct ss_component *c, struct ss_port *in,
		    const struct ss_msg *m)
{
	struct warp_interleaver *w = SS_COMPONENT(c, struct warp_interleaver, c);
	const struct gpu_dispatch_msg *d = (const struct gpu_dispatch_msg *)m;

	if (in == w->mem) {
		wi_answer(w, (const struct mem_req *)m);
		return;
	}
	switch (m->kind) {
	case GPU_DISPATCH_BEGIN:
		begin_kernel(w, d);
		break;
	case GPU_DISPATCH_BLOCK:
		/*
		 * A block the trace holds nothing for is the scheduler's to
		 * count: it may pass over such blocks without sending them
		 * (when the source knows which it holds), and the counts must
		 * not depend on whether it could.
		 */
		if (d->n_lines || d->n_shared || d->n_unknown)
			c->stats[WI_BLOCKS]++;
		if (w->classify_hw) {
			c->stats[WI_SHARED_INSTS] += d->n_shared;
			c->stats[WI_DROPPED_INSTS] += d->n_unknown;
		}
		/* a block without instructions is done as it comes, and may
		 * be gone already: only the message's counts are read */
		if (!d->n_lines && w->issue == ISSUE_NUGTEREN) {
			/* the model would visit its warps, each a tick */
			ss_component_fail(c, SS_ERROR_INPUT,
					  "%s: kernel %u: a block without loads; issue = nugteren cannot give its warps the model's visits",
					  nug_file(w), w->kernel->id);
			break;
		}
		if (!d->n_lines)
			break;
		if (w->issue == ISSUE_BLOCK_RR) {
			struct resident r = { .block = d->block, .slot = d->slot };

			if (d->block->stream)
				d->block->stream->open(d->block, &r.cur);

			g_array_append_val(w->resident, r);
		} else {
			place_block(w, d->slot, d->block);
		}
		wake(w);
		break;
	case GPU_DISPATCH_GO:
		w->go = true;
		if (!w->scheduled && !w->issuing)
			schedule_tick(w, 1);
		break;
	case GPU_DISPATCH_LAST:
		w->last = true;
		if (w->go && !w->scheduled && !w->issuing && !has_work(w)) {
			w->end_due = true;
			queue_control(w);
		}
		break;
	}
	if (w->promises)
		promise_done(w);
}

static void wi_destroy(struct ss_component *c)
{
	struct warp_interleaver *w = SS_COMPONENT(c, struct warp_interleaver, c);

	coalescer_free(w->coalescer);
	if (w->resident)
		g_array_free(w->resident, TRUE);
	if (w->ops)
		g_hash_table_destroy(w->ops);
	for (uint32_t i = 0; i < w->n_slots; i++) {
		g_free(w->slots[i].idx);
		g_free(w->slots[i].lead);
		if (w->slots[i].gathered) {
			gpu_block_gathered_free(w->slots[i].gathered);
			g_free(w->slots[i].gathered);
		}
	}
	gpu_line_room_free(&w->room);
	g_free(w->cursor);
	g_free(w->nq);
	if (w->answered)
		g_array_free(w->answered, TRUE);
	g_free(w->slots);
	g_free(w->hw);
	g_free(w->ready);
	g_free(w->wcount);
	g_free(w->sectors);
	g_free(w->masks);
	g_free(w->mapped);
	if (w->refused)
		g_array_free(w->refused, TRUE);
	if (w->resend)
		g_array_free(w->resend, TRUE);
	if (w->lq)
		g_array_free(w->lq, TRUE);
}

static const struct ss_component_ops ops = {
	.xcreate = wi_create,
	.xrecv = wi_recv,
	.xdestroy = wi_destroy,
};

static const struct ss_component_type warp_interleaver_type = {
	.abi_version = SS_ABI_VERSION,
	.name = "warp_interleaver",
	.summary = "One SM: issues its blocks' memory instructions, classifies and coalesces them into sector requests",
	.params = params,
	.ports = ports,
	.stats = stats,
	.ops = &ops,
	.instance_size = sizeof(struct warp_interleaver),
	.flags = SS_TYPE_PARTITION_SAFE,
};

SS_PLUGIN_ENTRY(warp_interleaver)
{
	return ss_registry_add(r, &warp_interleaver_type, error);
}
