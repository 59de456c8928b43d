/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reading memory traces: the paper tracer's format (ppt: app_config.py +
 * memory_traces/kernel_K_block_B.mem) and Accel-Sim's (kernelslist.g +
 * kernel-N.traceg, plain, .gz or .xz), both turned into the same
 * gpu_kernel / gpu_block / gpu_line values (sectorsim/protocols/gpu.h).
 * Accel-Sim blocks come out as the reference's line stream: lockstep over
 * all instruction lines of the block's warps, memory instructions kept, so
 * both formats drive the same model.  Each line keeps its warp id and
 * lanes, the kernel its generic windows (shared and local base), and each
 * block counts the instructions it dropped that touch shared memory or no
 * known space, so that the hardware-faithful model can separate the warps
 * again and account for the rest.
 *
 * Streaming: a kernel's header is read when the kernel starts, and only the
 * blocks asked for are kept, so memory grows with the blocks of one kernel,
 * never with the trace.  Every malformed input is a GError (SS_ERROR,
 * SS_ERROR_INPUT) whose message is one line "FILE:LINE: what was found;
 * what was expected", FILE as named relative to the trace directory.
 */
#ifndef SS_TRACE_H
#define SS_TRACE_H

#include <sectorsim/engine.h>
#include <sectorsim/protocols/gpu.h>

/*
 * The format to read: TRACE_AUTO picks it by the files found (app_config.py:
 * ppt, else kernelslist.g: accelsim); the others name the formats in the
 * order trace.c lists them.
 */
enum trace_format_id {
	TRACE_AUTO,
	TRACE_PPT,
	TRACE_ACCELSIM,
	TRACE_NATIVE,
	TRACE_TRC,
};

/*
 * The formats' names, indexed by enum trace_format_id ("auto" first),
 * NULL-terminated: the trace_source "format" choices and convert's
 * --format read this one list.
 */
extern const char *const trace_format_names[];

struct trace_reader;

/* `path`: a trace directory of either format, or an Accel-Sim kernelslist.g. */
struct trace_reader *trace_open(const char *path, enum trace_format_id fmt,
				GError **err);
void trace_close(struct trace_reader *t);
enum trace_format_id trace_format_of(const struct trace_reader *t);

/*
 * The next kernel, in launch order.  NULL at the end of the trace (*err
 * left NULL) or on malformed input (*err set).  The kernel, and the blocks
 * loaded for it, stay valid until the next call or trace_close().
 */
const struct gpu_kernel *trace_next_kernel(struct trace_reader *t, GError **err);

/*
 * Blocks ids[0..n-1] (ascending, each < grid size) of the current kernel
 * into out[]: a block the trace lacks is an empty block.  May be called
 * several times per kernel.
 */
bool trace_load_blocks(struct trace_reader *t, const uint64_t *ids, size_t n,
		       const struct gpu_block **out, GError **err);

/*
 * How many threads may read the blocks of one load (1, the default: the
 * caller's alone).  Formats that read each block on its own (the paper
 * tracer's, a file per block) share a load among that many; Accel-Sim's,
 * whose kernel is one file read in order, follows the file on the
 * caller's thread and hands blocks' instruction lines to the others.
 * The blocks, and any error, are those of one thread.
 */
void trace_set_loaders(struct trace_reader *t, unsigned n);

/*
 * Read loads only, as Nugteren et al.'s cache model reads its traces
 * (doc/nugteren-model.md): stores are dropped before anything else, so a
 * thread's accesses are numbered among its loads, and the first kernel
 * without a load ends the trace.  Before the first kernel; only the trc
 * format has it (false with *err, SS_ERROR_CONFIG, for the others).
 */
bool trace_set_loads_only(struct trace_reader *t, GError **err);

/*
 * Keep the sectors of the reference's coalescing (gpu_line.pyset_sectors)
 * in the lines, when the trace holds them (native format version 4 on);
 * by default they are not read at all.  Before the first kernel.
 */
void trace_keep_pyset_sectors(struct trace_reader *t);

/*
 * Hand blocks out streamed (gpu_block.stream) where the format stores them
 * so (native format version 5 on): a block's lines are decoded as its
 * receiver reads them, and a kernel holds its file's bytes instead of its
 * decoded lines.  By default every block holds its lines.  Before the
 * first kernel.
 */
void trace_stream_lines(struct trace_reader *t);

/* The same as a gpu_block_source, for the GPU_KERNEL_BEGIN message. */
struct gpu_block_source *trace_block_source(struct trace_reader *t);

#endif
