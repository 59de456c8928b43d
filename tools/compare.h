/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `sectorsim compare`: scores simulated kernels against what Nsight Compute
 * measured on the GPU, the way the paper's evaluation does: MAPE, Pearson
 * r and NRMSE per metric, over app instances or kernels, printed in the
 * layout of the paper's Table 4, optionally as JSON and as SVG charts.
 */
#ifndef SS_COMPARE_H
#define SS_COMPARE_H

/*
 * The command's entry point: argv[0] is "compare", then the options and
 * SIM NCU pairs.  Returns the exit status: 0 when the scores were printed,
 * 2 on a bad command line, an unreadable or malformed input, kernels that
 * do not pair up, or an output that cannot be written.
 */
int sectorsim_compare_main(int argc, char **argv);

#endif
