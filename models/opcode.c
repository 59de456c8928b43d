/* SPDX-License-Identifier: BSD-3-Clause */
/* The table of base opcodes (opcode.h). */
#include "config.h"

#include <string.h>
#include "opcode.h"

static const struct {
	const char *base;
	uint8_t len, cls, space;
} bases[] = {
	{ "LDG", 3, OP_LOAD, SPACE_GLOBAL }, { "LDGSTS", 6, OP_LOAD, SPACE_GLOBAL },
	{ "STG", 3, OP_STORE, SPACE_GLOBAL },
	{ "LDL", 3, OP_LOAD, SPACE_LOCAL }, { "STL", 3, OP_STORE, SPACE_LOCAL },
	{ "LD", 2, OP_LOAD, SPACE_GENERIC }, { "ST", 2, OP_STORE, SPACE_GENERIC },
	{ "ATOM", 4, OP_ATOMIC, SPACE_GLOBAL }, { "ATOMG", 5, OP_ATOMIC, SPACE_GLOBAL },
	{ "RED", 3, OP_REDUCTION, SPACE_GLOBAL }, { "REDG", 4, OP_REDUCTION, SPACE_GLOBAL },
	{ "LDS", 3, OP_SHARED, SPACE_SHARED }, { "STS", 3, OP_SHARED, SPACE_SHARED },
	{ "ATOMS", 5, OP_SHARED, SPACE_SHARED }, { "LDSM", 4, OP_SHARED, SPACE_SHARED },
	{ "LDC", 3, OP_IGNORED, 0 }, { "ULDC", 4, OP_IGNORED, 0 },
	{ "TEX", 3, OP_IGNORED, 0 }, { "TEXS", 4, OP_IGNORED, 0 }, { "TLD", 3, OP_IGNORED, 0 },
	{ "TLDS", 4, OP_IGNORED, 0 }, { "TLD4", 4, OP_IGNORED, 0 }, { "TLD4S", 5, OP_IGNORED, 0 },
	{ "TMML", 4, OP_IGNORED, 0 }, { "TXD", 3, OP_IGNORED, 0 }, { "TXQ", 3, OP_IGNORED, 0 },
};

struct op_base op_base_of(const char *op, size_t n)
{
	for (size_t i = 0; i < sizeof(bases) / sizeof(bases[0]); i++)
		if (bases[i].len == n && !memcmp(bases[i].base, op, n))
			return (struct op_base){ bases[i].cls, bases[i].space };
	return (struct op_base){ OP_UNKNOWN, 0 };
}
