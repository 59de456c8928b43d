/* SPDX-License-Identifier: BSD-3-Clause */
/* The table of base opcodes (opcode.h). */
#include "config.h"

#include <pthread.h>
#include <string.h>
#include <glib.h>
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

struct op_base op_base_scan(const char *op, size_t n)
{
	for (size_t i = 0; i < G_N_ELEMENTS(bases); i++)
		if (bases[i].len == n && !memcmp(bases[i].base, op, n))
			return (struct op_base){ bases[i].cls, bases[i].space };
	return (struct op_base){ OP_UNKNOWN, 0 };
}

/*
 * op_base_of() is asked once per memory instruction an Accel-Sim trace
 * reads (3.9 M times on the benchmark app, on the reading thread, which
 * is that run's critical path), and the scan above took some 190
 * instructions a call, a memcmp per base of the same length.  Instead a
 * base of up to 7 bytes is packed into a word with its length and looked
 * up in a table of 64 slots, built from `bases` once: a hash and a
 * compare or two.
 */
#define BASE_MAX 7
#define SLOT_BITS 6

static struct {
	uint64_t key;
	uint8_t entry;		/* bases[entry - 1]; 0: free */
} slots[1u << SLOT_BITS];

static inline uint64_t base_key(const char *op, size_t n)
{
	uint64_t k = (uint64_t)n << 56;

	for (size_t i = 0; i < n; i++)
		k |= (uint64_t)(unsigned char)op[i] << (8 * i);
	return k;
}

static inline unsigned slot_of(uint64_t key)
{
	return (unsigned)((key * UINT64_C(0x9e3779b97f4a7c15)) >> (64 - SLOT_BITS));
}

static void slots_build(void)
{
	for (size_t i = 0; i < G_N_ELEMENTS(bases); i++) {
		uint64_t key = base_key(bases[i].base, bases[i].len);
		unsigned j = slot_of(key);

		g_assert(bases[i].len <= BASE_MAX);
		while (slots[j].entry)
			j = (j + 1) & ((1u << SLOT_BITS) - 1);
		slots[j].key = key;
		slots[j].entry = (uint8_t)(i + 1);
	}
}

struct op_base op_base_of(const char *op, size_t n)
{
	/* pthread's, not GLib's: ThreadSanitizer sees it order the build
	 * before every lookup on another thread */
	static pthread_once_t built = PTHREAD_ONCE_INIT;
	uint64_t key;
	unsigned j;

	pthread_once(&built, slots_build);
	if (n > BASE_MAX)
		return (struct op_base){ OP_UNKNOWN, 0 };
	key = base_key(op, n);
	for (j = slot_of(key); slots[j].entry; j = (j + 1) & ((1u << SLOT_BITS) - 1))
		if (slots[j].key == key) {
			unsigned i = slots[j].entry - 1u;

			return (struct op_base){ bases[i].cls, bases[i].space };
		}
	return (struct op_base){ OP_UNKNOWN, 0 };
}
