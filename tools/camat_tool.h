/* SPDX-License-Identifier: BSD-3-Clause */
/* `sectorsim camat`: C-AMAT of a timeline from elsewhere (CSV). */
#ifndef SS_TOOLS_CAMAT_H
#define SS_TOOLS_CAMAT_H

int sectorsim_camat_main(int argc, char **argv);

#endif
