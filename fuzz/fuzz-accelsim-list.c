/* SPDX-License-Identifier: BSD-3-Clause */
/* Accel-Sim's kernelslist.g: the input is the list, next to the kernel
 * files of tests/data/trace/accelsim (plain, .gz and .xz).  A list naming
 * a path with '/' is skipped: it could name /dev/zero or a FIFO. */
#include "config.h"

#define SS_FUZZ_TRACE
#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	fuzz_setup();
	fuzz_copy("tests/data/trace/accelsim/kernel-1.traceg", "kernel-1.traceg");
	fuzz_copy("tests/data/trace/accelsim/kernel-2.traceg.gz", "kernel-2.traceg.gz");
	fuzz_copy("tests/data/trace/accelsim/kernel-3.traceg.xz", "kernel-3.traceg.xz");
	fuzz_copy("tests/data/trace/accelsim/kernel-4.traceg", "kernel-4.traceg");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (memchr(data, '/', size))
		return -1;	/* not added to the corpus */
	fuzz_write("kernelslist.g", data, size);
	fuzz_walk_trace(TRACE_ACCELSIM);
	return 0;
}
