/* SPDX-License-Identifier: BSD-3-Clause */
/* `sectorsim convert`: a trace into the native format. */
#ifndef SS_TOOLS_CONVERT_H
#define SS_TOOLS_CONVERT_H

int sectorsim_convert_main(int argc, char **argv);

#endif
