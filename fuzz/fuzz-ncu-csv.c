/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `sectorsim compare`'s Nsight Compute CSV reader: the input is the NCU
 * file, scored against tests/data/compare/vectoradd.json (the whole
 * command runs: reading, pairing, scoring, the table).  The input's length
 * picks --kernels and --corrected, so both paths are reached.
 */
#include "config.h"

#include <unistd.h>
#include <fcntl.h>
#include "fuzz_common.h"
#include "compare.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int fd = open("/dev/null", O_WRONLY);

	(void)argc, (void)argv;
	fuzz_setup();
	fuzz_copy("tests/data/compare/vectoradd.json", "vectoradd.json");
	/* the score tables: stdout only, libFuzzer and the sanitizers use stderr */
	if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
		abort();
	close(fd);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *sim = g_build_filename(fuzz_dir, "vectoradd.json", NULL);
	char *ncu = g_build_filename(fuzz_dir, "ncu.csv", NULL);
	char *argv[6];
	int argc = 0;

	fuzz_write("ncu.csv", data, size);
	argv[argc++] = (char *)"compare";
	if (size % 2)
		argv[argc++] = (char *)"--kernels";
	if (size % 3 == 0)
		argv[argc++] = (char *)"--corrected";
	argv[argc++] = sim;
	argv[argc++] = ncu;
	argv[argc] = NULL;
	sectorsim_compare_main(argc, argv);
	g_free(sim);
	g_free(ncu);
	return 0;
}
