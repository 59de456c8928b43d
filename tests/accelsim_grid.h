/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An Accel-Sim trace for tests: DIR/kernelslist.g and DIR/kernel-1.traceg,
 * one kernel of `blocks` thread blocks of one warp with 16 instructions
 * each, whose lines (after the line number and PC) the test writes.
 */
#ifndef SS_TEST_ACCELSIM_GRID_H
#define SS_TEST_ACCELSIM_GRID_H

#include <stdio.h>
#include <glib.h>

/* Writes instruction `inst` of block `block`, from the mask on, and its newline. */
typedef void (*grid_inst_fn)(FILE *f, unsigned block, unsigned inst);

static inline void write_accelsim_grid_in(const char *dir, unsigned blocks, grid_inst_fn inst)
{
	char *path = g_build_filename(dir, "kernel-1.traceg", NULL);
	FILE *f = fopen(path, "w");

	g_assert_nonnull(f);
	fprintf(f, "-kernel name = grid\n-kernel id = 1\n-grid dim = (%u,1,1)\n"
		"-block dim = (32,1,1)\n-shmem = 0\n-nregs = 16\n-cuda stream id = 0\n"
		"-accelsim tracer version = 5\n\n"
		"#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses] immediate\n\n",
		blocks);
	for (unsigned b = 0; b < blocks; b++) {
		fprintf(f, "#BEGIN_TB\nthread block = %u,0,0\nwarp = 0\ninsts = 16\n", b);
		for (unsigned i = 0; i < 16; i++) {
			fprintf(f, "%04x ", i * 16);
			inst(f, b, i);
		}
		fprintf(f, "#END_TB\n");
	}
	g_assert_cmpint(fclose(f), ==, 0);
	g_free(path);
	path = g_build_filename(dir, "kernelslist.g", NULL);
	g_assert_true(g_file_set_contents(path, "kernel-1.traceg\n", -1, NULL));
	g_free(path);
}

#endif
