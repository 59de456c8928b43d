/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sectorsim's native trace format, shared by its writer (native_write.c,
 * `sectorsim convert`) and its reader (trace_native.c).  doc/trace-format.md
 * specifies it; in short: a 16-byte file header, then chunks, each a
 * 32-byte header and a zstd frame.  A kernel is its BLOCKS chunks, then
 * its KERNEL chunk (launch data, opcode table, which blocks are stored);
 * an END chunk closes the file.  Integers in headers are little-endian;
 * in payloads they are LEB128 varints, signed ones zigzag-coded.
 */
#ifndef SS_NATIVE_H
#define SS_NATIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <glib.h>
#include "trace.h"

/* PNG-style: a high byte, the name, and line ends a text transfer mangles */
#define NATIVE_MAGIC "\x89SST\r\n\x1a\n"
#define NATIVE_MAGIC_LEN 8
#define NATIVE_VERSION 5
#define NATIVE_VERSION_OLDEST 1	/* read too: version 1's kernels lack
				   binary_version; versions 1 and 2 code every
				   address as a varint (NATIVE_FORM_DELTAS);
				   versions 1 to 3 hold no pyset sectors;
				   versions 1 to 4 give no block's length */
/* Version 5 on, a block's head gives the bytes of its lines, and a PYSET
 * payload gives each block's sectors' bytes before them: a reader finds a
 * block without decoding the ones before it, and may decode its lines
 * one at a time while the block runs (gpu_block.stream). */
#define NATIVE_VERSION_LENGTHS 5
#define NATIVE_FILE_HEADER 16	/* magic, u32 version, u32 header size */
#define NATIVE_CHUNK_HEADER 32
/* a chunk's payload, decompressed, at most (a writer aims at 1 MiB) */
#define NATIVE_RAW_MAX (64u << 20)

enum native_chunk {
	NATIVE_BLOCKS = 1,	/* a: first block id, b: blocks in the chunk */
	NATIVE_KERNEL = 2,	/* a: the kernel's ordinal (from 1), b: 0 */
	NATIVE_END = 3,		/* a: kernels in the file, b: 0; no payload */
	NATIVE_PYSET = 4,	/* version 4 on, right after the BLOCKS chunk
				   whose a and b it has: its lines' sectors as
				   the reference coalesces them */
};

/*
 * How a line's addresses are coded (version 3 on), in the low bits of its
 * address count: n_addr << NATIVE_FORM_BITS | form.  Most warp
 * instructions' addresses are an arithmetic progression (a strided
 * access), which two varints give whole; the others' differences from
 * lane to lane mostly fit a fixed width, read without a branch per byte.
 */
enum native_form {
	NATIVE_FORM_DELTAS = 0,	/* n_addr varints, as in versions 1 and 2 */
	NATIVE_FORM_STEP = 1,	/* first, step: first + k * step; 2..32 addresses,
				   step not 0 and within 32 bits (signed) */
	NATIVE_FORM_FIXED1 = 2,	/* first, then n_addr - 1 zigzagged lane */
	NATIVE_FORM_FIXED2 = 3,	/*   differences of 1, 2 or 4 bytes each */
	NATIVE_FORM_FIXED4 = 4,	/*   (little-endian); 2 or more addresses */
	NATIVE_N_FORMS
};
#define NATIVE_FORM_BITS 3

/*
 * The width of a line's pyset sector offsets (version 4 on), in the low
 * bits of its sector count: n_sectors << NATIVE_PYSET_W_BITS | width, the
 * offsets being 1 << width bytes each (two's complement, little-endian).
 */
enum native_pyset_width {
	NATIVE_PYSET_W1 = 0, NATIVE_PYSET_W2 = 1, NATIVE_PYSET_W4 = 2,
	NATIVE_PYSET_W8 = 3,	/* read, but not kept: a line's sectors lie
				   2^31 sectors or more from its first address */
};
#define NATIVE_PYSET_W_BITS 2
/* a progression is a warp's lanes at most: its count cannot outgrow the
 * bytes that hold it by more than this */
#define NATIVE_STEP_MAX 32

struct native_chunk_header {
	uint32_t type;
	uint32_t raw_len;	/* payload bytes, decompressed */
	uint32_t stored_len;	/* bytes of the zstd frame that follows */
	uint32_t crc;		/* CRC-32 (zlib's) of the decompressed payload */
	uint64_t a, b;
};

/* ---- varints -------------------------------------------------------- */

static inline void native_put_uv(GByteArray *b, uint64_t v)
{
	uint8_t buf[10];
	guint n = 0;

	while (v >= 0x80) {
		buf[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	buf[n++] = (uint8_t)v;
	g_byte_array_append(b, buf, n);
}

/* Zigzag: a difference of either sign, small in magnitude, in few bits
 * (signed varints, the fixed forms' differences). */
static inline uint64_t native_zigzag(uint64_t d)
{
	return d << 1 ^ (uint64_t)((int64_t)d >> 63);
}

static inline uint64_t native_unzigzag(uint64_t z)
{
	return (z >> 1) ^ -(z & 1);
}

static inline void native_put_sv(GByteArray *b, int64_t v)
{
	native_put_uv(b, native_zigzag((uint64_t)v));
}

/* A varint at *p (before end) into *v: false when it runs past end or
 * past 64 bits. */
static inline bool native_get_uv(const uint8_t **p, const uint8_t *end,
				 uint64_t *v)
{
	uint64_t acc = 0;

	/* most deltas fit in one byte, and a full warp's count with its
	 * form (32 << 3) in two: no loop for them */
	if (G_LIKELY(*p < end && !(**p & 0x80))) {
		*v = *(*p)++;
		return true;
	}
	if (end - *p >= 2 && !((*p)[1] & 0x80)) {
		*v = (uint64_t)((*p)[0] & 0x7f) | (uint64_t)(*p)[1] << 7;
		*p += 2;
		return true;
	}
	/* 3 to 8 bytes (a line's first address against the last line's),
	 * from one load: the 7-bit groups packed pairwise, no loop */
	if (end - *p >= 8) {
		uint64_t w, stop;

		memcpy(&w, *p, sizeof(w));
		w = GUINT64_FROM_LE(w);
		stop = ~w & UINT64_C(0x8080808080808080);
		if (stop) {
			unsigned len = (unsigned)__builtin_ctzll(stop) / 8 + 1;

			if (len < 8)
				w &= (UINT64_C(1) << (8 * len)) - 1;
			w = (w & UINT64_C(0x007f007f007f007f)) | (w & UINT64_C(0x7f007f007f007f00)) >> 1;
			w = (w & UINT64_C(0x00003fff00003fff)) | (w & UINT64_C(0x3fff00003fff0000)) >> 2;
			w = (w & UINT64_C(0x000000000fffffff)) | (w & UINT64_C(0x0fffffff00000000)) >> 4;
			*v = w;
			*p += len;
			return true;
		}
	}
	for (unsigned shift = 0; *p < end && shift < 64; shift += 7) {
		uint8_t c = *(*p)++;

		acc |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80)) {
			*v = acc;
			return shift < 63 || c <= 1;
		}
	}
	return false;
}

static inline bool native_get_sv(const uint8_t **p, const uint8_t *end,
				 int64_t *v)
{
	uint64_t u;

	if (!native_get_uv(p, end, &u))
		return false;
	*v = (int64_t)native_unzigzag(u);
	return true;
}

/*
 * The CRC-32 of a chunk's raw bytes: zlib's (gzip's, RFC 1952), computed
 * with ISA-L's carry-less multiplies when it is there.
 */
uint32_t native_crc32(const void *buf, size_t len);

void native_put_header(uint8_t out[NATIVE_CHUNK_HEADER],
		       const struct native_chunk_header *h);
void native_get_header(const uint8_t in[NATIVE_CHUNK_HEADER],
		       struct native_chunk_header *h);

/*
 * Feed the file header and every chunk header of the native trace at
 * `path` to `sum`, seeking past the payloads: the file's identity (each
 * header holds its payload's length and CRC-32) for the price of reading
 * a few bytes per MiB.  False when `path` cannot be read or is not a
 * native trace.
 */
bool native_headers_digest(const char *path, GChecksum *sum);

/*
 * The zstd levels a native file is written at.  A negative ("fast") level
 * stores the literals of its frames raw, without Huffman coding, and
 * decoding them is what reading a native file spends most on after the
 * simulation: the full benchmark app at the default -1 against 3 is 24.1
 * against 20.0 MB, and titanv-ref on it runs 4 % fewer instructions
 * (5,032 M against 5,249 M, one thread); levels below -1 gain little more
 * (-7: 27.6 MB, 5,002 M).  0 is zstd's own default (3), not taken.
 */
#define NATIVE_LEVEL_MIN (-7)
#define NATIVE_LEVEL_MAX 19
#define NATIVE_LEVEL_DEFAULT (-1)

/*
 * Write the trace at src (any format trace_open reads) to out in the
 * native format; out is written as FILE.part and renamed at the end, so
 * an existing file is replaced only by a whole one.  level: zstd's, from
 * NATIVE_LEVEL_MIN to NATIVE_LEVEL_MAX, not 0.
 * warn (may be NULL) is told each defect of the source that the
 * conversion goes on with (a block file cut inside a line).
 */
bool native_convert(const char *src, enum trace_format_id fmt,
		    const char *out, int level, void (*warn)(const char *msg),
		    GError **err);

/*
 * For tests: wait until the read-ahead of the native trace t's next
 * kernel has built what it will (it runs only on otherwise idle cores,
 * so on a busy machine it may build nothing before the kernel starts);
 * how many blocks it built.  0 when none runs (one loader, the last
 * kernel, no native trace).
 */
size_t native_readahead_wait(struct trace_reader *t);

#endif
