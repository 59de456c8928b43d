/* SPDX-License-Identifier: BSD-3-Clause */
/* Nugteren's .trc: the input is t_00.trc, the one kernel of folder t. */
#include "config.h"

#define SS_FUZZ_TRACE
#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	fuzz_setup();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_write("t_00.trc", data, size);
	fuzz_walk_trace(TRACE_TRC);
	return 0;
}
