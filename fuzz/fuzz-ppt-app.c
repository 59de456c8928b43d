/* SPDX-License-Identifier: BSD-3-Clause */
/* The paper format's app_config.py: the input is the file, next to the
 * block files of tests/data/trace/ppt. */
#include "config.h"

#define SS_FUZZ_TRACE
#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	fuzz_setup();
	fuzz_copy("tests/data/trace/ppt/memory_traces/kernel_1_block_0.mem",
		  "memory_traces/kernel_1_block_0.mem");
	fuzz_copy("tests/data/trace/ppt/memory_traces/kernel_1_block_2.mem",
		  "memory_traces/kernel_1_block_2.mem");
	fuzz_copy("tests/data/trace/ppt/memory_traces/kernel_2_block_0.mem",
		  "memory_traces/kernel_2_block_0.mem");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_write("app_config.py", data, size);
	fuzz_walk_trace(TRACE_PPT);
	return 0;
}
