/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The base opcodes (the opcode text before its first '.') the memory
 * model knows, with their class and memory space: one table for the trace
 * reader, which keeps the memory instructions and counts the dropped ones,
 * and the warp interleaver, which classifies what was kept.
 */
#ifndef SS_OPCODE_H
#define SS_OPCODE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum op_class {
	OP_UNKNOWN,		/* carries addresses of no known space: dropped, counted */
	OP_IGNORED,		/* constant, texture: no addresses in traces */
	OP_SHARED,		/* dropped, counted */
	OP_LOAD, OP_STORE, OP_ATOMIC, OP_REDUCTION,	/* the traced ones */
};

enum op_space { SPACE_GLOBAL, SPACE_LOCAL, SPACE_GENERIC, SPACE_SHARED };

struct op_base {
	uint8_t cls;		/* enum op_class */
	uint8_t space;		/* enum op_space */
};

/* Of the base opcode op[0..n), the text before the first '.';
 * OP_UNKNOWN for one the table lacks. */
struct op_base op_base_of(const char *op, size_t n);

/* The same answer from the table searched entry by entry: op_base_of()'s
 * plain model, for tests. */
struct op_base op_base_scan(const char *op, size_t n);

#ifdef __cplusplus
}
#endif

#endif
