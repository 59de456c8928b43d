/* SPDX-License-Identifier: BSD-3-Clause */
/* Accel-Sim's kernel-N.traceg lines: the input is kernel-1.traceg, the
 * one kernel of a fixed kernelslist.g. */
#include "config.h"

#define SS_FUZZ_TRACE
#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	fuzz_setup();
	fuzz_write_str("kernelslist.g", "MemcpyHtoD,0x00007fb0fc400000,200000\nkernel-1.traceg\n");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_write("kernel-1.traceg", data, size);
	fuzz_walk_trace(TRACE_ACCELSIM);
	return 0;
}
