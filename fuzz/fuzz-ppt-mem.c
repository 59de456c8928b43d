/* SPDX-License-Identifier: BSD-3-Clause */
/* The paper format's block files: the input is kernel 1's block 0 (and, so
 * that a second kernel reads one too, kernel 2's block 0), under the
 * app_config.py of tests/data/trace/ppt. */
#include "config.h"

#define SS_FUZZ_TRACE
#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	fuzz_setup();
	fuzz_copy("tests/data/trace/ppt/app_config.py", "app_config.py");
	fuzz_copy("tests/data/trace/ppt/memory_traces/kernel_1_block_2.mem",
		  "memory_traces/kernel_1_block_2.mem");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_write("memory_traces/kernel_1_block_0.mem", data, size);
	fuzz_write("memory_traces/kernel_2_block_0.mem", data, size);
	fuzz_walk_trace(TRACE_PPT);
	return 0;
}
