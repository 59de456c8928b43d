/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The results JSON reader: the input goes to json_parse (in memory), and
 * then, as the SIM file of `sectorsim compare`, against
 * tests/data/compare/vectoradd-ncu.csv (an input not starting with '{' is
 * read as sectorsim's --csv, the other reader of that file).
 */
#include "config.h"

#include <unistd.h>
#include <fcntl.h>
#include "fuzz_common.h"
#include "compare.h"
#include "json.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int fd = open("/dev/null", O_WRONLY);

	(void)argc, (void)argv;
	fuzz_setup();
	fuzz_copy("tests/data/compare/vectoradd-ncu.csv", "ncu.csv");
	if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
		abort();
	close(fd);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *why = NULL;
	struct json *v = json_parse("input", (const char *)data, size, &why);
	char *sim, *ncu;
	char *argv[4];

	if (v) {
		json_get(v, "kernels");
		json_free(v);
	}
	g_free(why);

	sim = g_build_filename(fuzz_dir, "sim.json", NULL);
	ncu = g_build_filename(fuzz_dir, "ncu.csv", NULL);
	fuzz_write("sim.json", data, size);
	argv[0] = (char *)"compare";
	argv[1] = sim;
	argv[2] = ncu;
	argv[3] = NULL;
	sectorsim_compare_main(3, argv);
	g_free(sim);
	g_free(ncu);
	return 0;
}
