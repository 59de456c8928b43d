/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The native trace reader (readers/trace_native.c): the input is a native
 * trace file, walked like every trace (each kernel, some blocks, the
 * counts).  Most mutations would only break a chunk's CRC, so three inputs
 * in four have their CRCs put right first (each chunk whose zstd frame
 * still decodes gets the CRC of what it decodes to), which lets the
 * payload parsers see the mutated data; the fourth keeps them as they
 * are, for the checksum test itself.  Inputs of a size of 4 to 7 modulo
 * 8 are read with their blocks streamed (version 5 on), the others whole.
 * Seeds: tests/data/trace/native.
 */
#include "config.h"

#include <zlib.h>
#include <zstd.h>
#define SS_FUZZ_TRACE
#include "fuzz_common.h"
#include "native.h"

static uint8_t *copy, *raw;
static size_t cap_copy;
static char *path;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	fuzz_setup();
	path = g_build_filename(fuzz_dir, "t.sst", NULL);
	raw = g_malloc(1 << 20);
	return 0;
}

/* Each chunk's CRC made that of its payload as it decodes (when it does). */
static void fix_crcs(uint8_t *d, size_t size)
{
	size_t off = NATIVE_FILE_HEADER;

	while (off + NATIVE_CHUNK_HEADER <= size) {
		struct native_chunk_header h;
		size_t got;

		native_get_header(d + off, &h);
		if (h.stored_len > size - off - NATIVE_CHUNK_HEADER)
			return;
		if (h.raw_len <= (1 << 20) && h.stored_len) {
			got = ZSTD_decompress(raw, h.raw_len, d + off + NATIVE_CHUNK_HEADER,
					      h.stored_len);
			if (!ZSTD_isError(got) && got == h.raw_len) {
				h.crc = (uint32_t)crc32(crc32(0, NULL, 0), raw, h.raw_len);
				native_put_header(d + off, &h);
			}
		}
		off += NATIVE_CHUNK_HEADER + h.stored_len;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > cap_copy) {
		cap_copy = size;
		copy = g_realloc(copy, cap_copy);
	}
	if (size)
		memcpy(copy, data, size);
	if (size % 4)
		fix_crcs(copy, size);
	fuzz_write("t.sst", copy, size);
	/* half the inputs read streamed (as a run does), half whole */
	fuzz_walk_trace_at(path, TRACE_NATIVE, size % 8 >= 4);
	return 0;
}
