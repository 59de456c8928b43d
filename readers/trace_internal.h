/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What trace.c (the public API, format choice, block storage) shares with
 * the format readers: error messages, number parsing, the reader itself,
 * and struct trace_format, the table of functions through which trace.c
 * drives a format.  Each format is one file (trace_ppt.c, trace_accelsim.c)
 * that defines one const struct trace_format and exports nothing else;
 * trace.c lists them.
 */
#ifndef SS_TRACE_INTERNAL_H
#define SS_TRACE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include "block_builder.h"
#include "linereader.h"
#include "trace.h"

/* ---- errors ------------------------------------------------------------- */



/* Text as a message quotes it: printable ASCII, at most SHOWN_MAX bytes. */
#define SHOWN_MAX 60
struct shown { char s[SHOWN_MAX + 4]; };
const char *trace_show(struct shown *buf, const char *tok, size_t len);

/* ---- numbers: inline, they run for every token ------------------------- */

extern const int8_t trace_hexval[256];	/* digit value + 1; 0: not a digit */

/* Hexadecimal with an optional 0x, at most 64 bits. */
static inline bool parse_hex64(const char *s, size_t n, uint64_t *v)
{
	uint64_t acc = 0;

	if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		n -= 2;
	}
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++) {
		int d = trace_hexval[(unsigned char)s[i]] - 1;

		if (d < 0 || acc >> 60)
			return false;
		acc = acc << 4 | (uint64_t)d;
	}
	*v = acc;
	return true;
}

/* Unsigned decimal, at most 64 bits. */
static inline bool parse_u64(const char *s, size_t n, uint64_t *v)
{
	uint64_t acc = 0;

	if (!n)
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned d = (unsigned char)s[i] - '0';

		if (d > 9 || acc > (UINT64_MAX - d) / 10)
			return false;
		acc = acc * 10 + d;
	}
	*v = acc;
	return true;
}

/* Signed decimal with an optional sign, within int64_t. */
static inline bool parse_i64(const char *s, size_t n, int64_t *v)
{
	bool neg = false;
	uint64_t mag;

	if (n && (s[0] == '-' || s[0] == '+')) {
		neg = s[0] == '-';
		s++;
		n--;
	}
	if (!parse_u64(s, n, &mag))
		return false;
	if (neg) {
		if (mag > (uint64_t)INT64_MAX + 1)
			return false;
		*v = (int64_t)(0 - mag);
	} else {
		if (mag > INT64_MAX)
			return false;
		*v = (int64_t)mag;
	}
	return true;
}

/* ---- the reader and the blocks of the current kernel ---------------------- */

struct trace_reader {
	struct gpu_block_source source;	/* handed out; ops->load finds us */
	const struct trace_format *fmt;
	void *state;			/* the format's own, from its open() */
	char *dir;			/* the trace directory */
	struct gpu_kernel kernel;
	bool in_kernel;
	/*
	 * Opcode texts and the kernel name of the current kernel; interned so
	 * that a line holds a pointer, and cleared at the next kernel so that
	 * even a trace of ever new opcodes does not grow it.
	 */
	GStringChunk *strings;
	/* &block->id -> block: one allocation each, freed at the next kernel */
	GHashTable *loaded;
	/* a malformed kernel body: every later load reports it again */
	GError *failed;
	/* the block being built, reused from block to block */
	struct block_builder build;
	uint32_t n_read;		/* kernels read so far */
	uint64_t *kernel_bytes;		/* per kernel in trace order, for progress */
};

const char *trace_intern(struct trace_reader *t, const char *s);

/*
 * The block built in t->build (builder_finish) stored for the current
 * kernel; false with *err when it cannot be built.
 */
bool trace_finish_block(struct trace_reader *t, uint64_t id, bool sort,
			GError **err);
const struct gpu_block *trace_find_block(struct trace_reader *t, uint64_t id);

/* ---- the formats -------------------------------------------------------- */

/*
 * One trace format, as trace.c drives it.  trace_open() picks the format
 * (by its marker file, or as asked), sets t->dir and calls open(); the
 * other functions then come in the order of the public API, and close()
 * last, also after an open() that failed.
 */
struct trace_format {
	const char *name;		/* as the trace_source "format" names it */
	/*
	 * The file that makes a directory a trace of this format, and that
	 * open() starts from: app_config.py, kernelslist.g.  A directory
	 * with the markers of several formats is taken as the first listed.
	 */
	const char *marker;
	/*
	 * Whether a file of any name may be given as the marker (an Accel-Sim
	 * kernel list may be called anything); else only a file named
	 * `marker` is taken.  A file of no format's marker name goes to the
	 * first format that takes any name.
	 */
	bool any_name;
	/*
	 * Read the trace's index: `file` is the marker file (in t->dir, or as
	 * given).  The format keeps what it needs in t->state.
	 */
	bool (*open)(struct trace_reader *t, const char *file, GError **err);
	/* Free t->state (which may be half built, or NULL). */
	void (*close)(struct trace_reader *t);
	/*
	 * Fill t->kernel (id, name, dimensions, resources) for the next
	 * kernel, or set *end.  The reader has dropped the previous kernel's
	 * blocks and strings already.
	 */
	bool (*next_kernel)(struct trace_reader *t, bool *end, GError **err);
	/* Kernels in the trace. */
	size_t (*kernel_count)(const struct trace_reader *t);
	/* Bytes of the files of kernel i (in trace order), as stored. */
	uint64_t (*kernel_bytes)(struct trace_reader *t, size_t i);
	/*
	 * Build and store (trace_finish_block) the blocks ids[0..n-1] of the
	 * current kernel (ascending, none loaded yet) that the trace holds;
	 * the reader makes empty blocks of the others.
	 */
	bool (*load)(struct trace_reader *t, const uint64_t *ids, size_t n,
		     GError **err);
	/*
	 * Optional (NULL: `from`): the first block id >= from of the current
	 * kernel that the trace may hold, or UINT64_MAX; the blocks before it
	 * are known to be absent, so empty with nothing dropped.
	 */
	uint64_t (*next_stored)(struct trace_reader *t, uint64_t from);
	/*
	 * Optional (NULL: the trace is taken to hold the whole grid).  How
	 * many blocks of the current kernel's grid the trace holds (into
	 * *n), reading the rest of the kernel's trace if need be; false with
	 * *err on malformed input.
	 */
	bool (*count_stored)(struct trace_reader *t, uint64_t *n, GError **err);
};

#endif
