/* SPDX-License-Identifier: BSD-3-Clause */
/* `sectorsim sweep`: one configuration over a grid of parameter values. */
#ifndef SS_TOOLS_SWEEP_H
#define SS_TOOLS_SWEEP_H

int sectorsim_sweep_main(int argc, char **argv);

#endif
