/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The coalescer: a worked example of the reference's set order (sectors
 * added in lane order to a CPython set, then listed) and a few more
 * vectors, then orders that CPython 3.11
 * gave for sets built by s = set(); for a in sectors: s.add(a); list(s).
 * ascending, descending and first_touch, the line counts and the byte
 * masks are checked against plain quadratic oracles.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include "coalesce.h"

struct u64s {
	const uint64_t *v;
	uint32_t n;
};

#define U64S(...) { (const uint64_t[]){ __VA_ARGS__ }, \
		    sizeof((const uint64_t[]){ __VA_ARGS__ }) / sizeof(uint64_t) }

/* ---- oracles -------------------------------------------------------------- */

static uint32_t ref_first_touch(uint32_t sb, const uint64_t *a, uint32_t n, uint64_t *out)
{
	uint32_t m = 0;

	for (uint32_t i = 0; i < n; i++) {
		uint64_t s = a[i] & ~(uint64_t)(sb - 1);
		uint32_t j = 0;

		while (j < m && out[j] != s)
			j++;
		if (j == m)
			out[m++] = s;
	}
	return m;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static void reverse(uint64_t *v, uint32_t m)
{
	for (uint32_t i = 0; i + 1 < m - i; i++) {
		uint64_t t = v[i];

		v[i] = v[m - 1 - i];
		v[m - 1 - i] = t;
	}
}

/* The bytes of 32-byte sector s that accesses of `width` at a[0..n-1] cover. */
static uint32_t ref_mask(uint64_t s, const uint64_t *a, uint32_t n, uint32_t width)
{
	uint32_t mask = 0;

	for (uint32_t i = 0; i < n; i++)
		for (uint32_t b = 0; b < width; b++)
			if ((a[i] & ~(uint64_t)31) == s && (a[i] & 31) + b < 32)
				mask |= UINT32_C(1) << ((a[i] & 31) + b);
	return mask;
}

static uint32_t ref_lines(uint32_t lb, const uint64_t *sec, uint32_t m)
{
	uint32_t lines = 0;

	for (uint32_t i = 0; i < m; i++) {
		uint32_t j = 0;

		while (j < i && sec[j] / lb != sec[i] / lb)
			j++;
		lines += j == i;
	}
	return lines;
}

/* ---- the coalescers under test, kept across cases so that scratch is reused */

#define N_ORDERS 4

static struct coalescer *kept[N_ORDERS][8][8];

static struct coalescer *get(enum coalesce_order o, uint32_t sb, uint32_t lb)
{
	struct coalescer **c = &kept[o][__builtin_ctz(sb)][__builtin_ctz(lb)];

	if (!*c)
		*c = coalescer_new(o, sb, lb);
	return *c;
}

static void put_all(void)
{
	for (int o = 0; o < N_ORDERS; o++)
		for (int s = 0; s < 8; s++)
			for (int l = 0; l < 8; l++) {
				coalescer_free(kept[o][s][l]);
				kept[o][s][l] = NULL;
			}
}

static void check_order(const char *what, enum coalesce_order o, uint32_t sb, uint32_t lb,
			const uint64_t *in, uint32_t n, const uint64_t *want, uint32_t m,
			uint32_t lines)
{
	static const char *const names[] = { "pyset", "ascending", "first_touch", "descending" };
	uint64_t *out = g_new(uint64_t, n);
	uint32_t got_lines = UINT32_MAX;
	uint32_t got = coalesce(get(o, sb, lb), in, n, out, &got_lines);

	if (got != m || memcmp(out, want, m * sizeof(*out)) || got_lines != lines) {
		for (uint32_t i = 0; i < MAX(got, m) && i < n; i++)
			g_printerr("%u: got 0x%" G_GINT64_MODIFIER "x want 0x%" G_GINT64_MODIFIER "x\n",
				   i, i < got ? out[i] : 0, i < m ? want[i] : 0);
		g_error("%s, %s: %u sectors in %u lines, want %u in %u", what, names[o],
			got, got_lines, m, lines);
	}
	g_free(out);
}

/*
 * All three orders of one input; pyset is the expected pyset order, or
 * NULL for none.  The line count is both the oracle's and, when nonzero,
 * lines.
 */
static void check_all(const char *what, uint32_t sb, uint32_t lb, const uint64_t *in,
		      uint32_t n, const uint64_t *pyset, uint32_t m, uint32_t lines)
{
	uint64_t *ref = g_new(uint64_t, n);
	uint32_t u = ref_first_touch(sb, in, n, ref);
	uint32_t l = ref_lines(lb, ref, u);

	if (pyset)
		g_assert_cmpuint(u, ==, m);
	if (lines)
		g_assert_cmpuint(l, ==, lines);
	if (pyset)
		check_order(what, COALESCE_PYSET, sb, lb, in, n, pyset, m, l);
	check_order(what, COALESCE_FIRST_TOUCH, sb, lb, in, n, ref, u, l);
	qsort(ref, u, sizeof(*ref), cmp_u64);
	check_order(what, COALESCE_ASCENDING, sb, lb, in, n, ref, u, l);
	reverse(ref, u);
	check_order(what, COALESCE_DESCENDING, sb, lb, in, n, ref, u, l);
	g_free(ref);
}

/* ---- CPython set order: worked example and vectors ------------------------- */

static void test_spec_vectors(void)
{
	static const uint64_t ex_in[] = { 0x1000, 0x1080, 0x1100, 0x1180, 0x1200, 0x1280 };
	static const uint64_t ex_out[] = { 0x1000, 0x1100, 0x1200, 0x1080, 0x1180, 0x1280 };
	static const uint64_t same[] = { 0x1000, 0x1020, 0x1040, 0x1060 };
	static const uint64_t desc_in[] = { 0x1fe0, 0x1fc0, 0x1fa0, 0x1f80,
					    0x1f60, 0x1f40, 0x1f20, 0x1f00 };
	static const uint64_t desc_out[] = { 0x1fe0, 0x1f60, 0x1f80, 0x1fa0,
					     0x1fc0, 0x1f40, 0x1f20, 0x1f00 };
	const uint64_t g = 0x7f2a48000000;
	const uint64_t dup_in[] = { g + 0x180, g + 0x20, g + 0x180, g + 0x40,
				    g + 0x0, g + 0x2a0, g + 0x60, g + 0x20 };
	const uint64_t dup_out[] = { g + 0x180, g + 0x0, g + 0x20, g + 0x40, g + 0x2a0, g + 0x60 };
	static const unsigned order32[32] = { 0, 2, 3, 1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
					      16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
					      29, 30, 31 };
	uint64_t in32[32], out32[32];

	check_all("worked example", 32, 128, ex_in, 6, ex_out, 6, 6);
	check_all("4 sectors of a line", 32, 128, same, 4, same, 4, 1);
	check_all("descending", 32, 128, desc_in, 8, desc_out, 8, 2);
	check_all("duplicates", 32, 128, dup_in, 8, dup_out, 6, 3);
	for (int t = 0; t < 32; t++) {
		in32[t] = 0x7f2a40800000 + 128 * t;
		out32[t] = 0x7f2a40800000 + 128 * order32[t];
	}
	check_all("32 sectors 128 B apart", 32, 128, in32, 32, out32, 32, 32);
}

/* ---- hand-picked inputs, CPython's order -------------------------------------- */

/* sector bytes, line bytes, distinct lines; the lanes; CPython's order */
struct explicit_case {
	const char *what;
	uint32_t sb, lb, lines;
	struct u64s in, pyset;
};

static const struct explicit_case explicit_cases[] = {
	{ "one lane", 32, 128, 1,
	  U64S(0x7f2a40800004),
	  U64S(0x7f2a40800000) },
	{ "one lane in sector 0", 32, 128, 1,
	  U64S(0x1c),
	  U64S(0x0) },
	{ "sector 0 among others", 32, 128, 2,
	  U64S(0x8, 0x1000, 0x1f, 0x20, 0x0),
	  U64S(0x0, 0x1000, 0x20) },
	{ "32 lanes on one word", 32, 128, 1,
	  U64S(0x7fb0fc430e00, 0x7fb0fc430e00, 0x7fb0fc430e00, 0x7fb0fc430e00,
	       0x7fb0fc430e00, 0x7fb0fc430e00, 0x7fb0fc430e00, 0x7fb0fc430e00,
	       0x7fb0fc430e00, 0x7fb0fc430e00, 0x7fb0fc430e00, 0x7fb0fc430e00,
	       0x7fb0fc430e00, 0x7fb0fc430e00, 0x7fb0fc430e00, 0x7fb0fc430e00,
	       0x7fb0fc430e00, 0x7fb0fc430e00, 0x7fb0fc430e00, 0x7fb0fc430e00,
	       0x7fb0fc430e00, 0x7fb0fc430e00, 0x7fb0fc430e00, 0x7fb0fc430e00,
	       0x7fb0fc430e00, 0x7fb0fc430e00, 0x7fb0fc430e00, 0x7fb0fc430e00,
	       0x7fb0fc430e00, 0x7fb0fc430e00, 0x7fb0fc430e00, 0x7fb0fc430e00),
	  U64S(0x7fb0fc430e00) },
	{ "32 lanes of 4 B", 32, 128, 1,
	  U64S(0x7fb0fc430e00, 0x7fb0fc430e04, 0x7fb0fc430e08, 0x7fb0fc430e0c,
	       0x7fb0fc430e10, 0x7fb0fc430e14, 0x7fb0fc430e18, 0x7fb0fc430e1c,
	       0x7fb0fc430e20, 0x7fb0fc430e24, 0x7fb0fc430e28, 0x7fb0fc430e2c,
	       0x7fb0fc430e30, 0x7fb0fc430e34, 0x7fb0fc430e38, 0x7fb0fc430e3c,
	       0x7fb0fc430e40, 0x7fb0fc430e44, 0x7fb0fc430e48, 0x7fb0fc430e4c,
	       0x7fb0fc430e50, 0x7fb0fc430e54, 0x7fb0fc430e58, 0x7fb0fc430e5c,
	       0x7fb0fc430e60, 0x7fb0fc430e64, 0x7fb0fc430e68, 0x7fb0fc430e6c,
	       0x7fb0fc430e70, 0x7fb0fc430e74, 0x7fb0fc430e78, 0x7fb0fc430e7c),
	  U64S(0x7fb0fc430e00, 0x7fb0fc430e20, 0x7fb0fc430e40, 0x7fb0fc430e60) },
	{ "32 lanes of 8 B", 32, 128, 2,
	  U64S(0x7fb0fc430e00, 0x7fb0fc430e08, 0x7fb0fc430e10, 0x7fb0fc430e18,
	       0x7fb0fc430e20, 0x7fb0fc430e28, 0x7fb0fc430e30, 0x7fb0fc430e38,
	       0x7fb0fc430e40, 0x7fb0fc430e48, 0x7fb0fc430e50, 0x7fb0fc430e58,
	       0x7fb0fc430e60, 0x7fb0fc430e68, 0x7fb0fc430e70, 0x7fb0fc430e78,
	       0x7fb0fc430e80, 0x7fb0fc430e88, 0x7fb0fc430e90, 0x7fb0fc430e98,
	       0x7fb0fc430ea0, 0x7fb0fc430ea8, 0x7fb0fc430eb0, 0x7fb0fc430eb8,
	       0x7fb0fc430ec0, 0x7fb0fc430ec8, 0x7fb0fc430ed0, 0x7fb0fc430ed8,
	       0x7fb0fc430ee0, 0x7fb0fc430ee8, 0x7fb0fc430ef0, 0x7fb0fc430ef8),
	  U64S(0x7fb0fc430e00, 0x7fb0fc430e20, 0x7fb0fc430e40, 0x7fb0fc430e60,
	       0x7fb0fc430e80, 0x7fb0fc430ea0, 0x7fb0fc430ec0, 0x7fb0fc430ee0) },
	{ "32 lanes of 16 B", 32, 128, 4,
	  U64S(0x7fb0fc430e00, 0x7fb0fc430e10, 0x7fb0fc430e20, 0x7fb0fc430e30,
	       0x7fb0fc430e40, 0x7fb0fc430e50, 0x7fb0fc430e60, 0x7fb0fc430e70,
	       0x7fb0fc430e80, 0x7fb0fc430e90, 0x7fb0fc430ea0, 0x7fb0fc430eb0,
	       0x7fb0fc430ec0, 0x7fb0fc430ed0, 0x7fb0fc430ee0, 0x7fb0fc430ef0,
	       0x7fb0fc430f00, 0x7fb0fc430f10, 0x7fb0fc430f20, 0x7fb0fc430f30,
	       0x7fb0fc430f40, 0x7fb0fc430f50, 0x7fb0fc430f60, 0x7fb0fc430f70,
	       0x7fb0fc430f80, 0x7fb0fc430f90, 0x7fb0fc430fa0, 0x7fb0fc430fb0,
	       0x7fb0fc430fc0, 0x7fb0fc430fd0, 0x7fb0fc430fe0, 0x7fb0fc430ff0),
	  U64S(0x7fb0fc430e00, 0x7fb0fc430e20, 0x7fb0fc430e40, 0x7fb0fc430e60,
	       0x7fb0fc430e80, 0x7fb0fc430ea0, 0x7fb0fc430ec0, 0x7fb0fc430ee0,
	       0x7fb0fc430f00, 0x7fb0fc430f20, 0x7fb0fc430fe0, 0x7fb0fc430f40,
	       0x7fb0fc430f60, 0x7fb0fc430f80, 0x7fb0fc430fa0, 0x7fb0fc430fc0) },
	{ "LDGSTS: 32 lanes of 4 B, then 32 of 16 B", 32, 128, 5,
	  U64S(0x7f2a48000000, 0x7f2a48000004, 0x7f2a48000008, 0x7f2a4800000c,
	       0x7f2a48000010, 0x7f2a48000014, 0x7f2a48000018, 0x7f2a4800001c,
	       0x7f2a48000020, 0x7f2a48000024, 0x7f2a48000028, 0x7f2a4800002c,
	       0x7f2a48000030, 0x7f2a48000034, 0x7f2a48000038, 0x7f2a4800003c,
	       0x7f2a48000040, 0x7f2a48000044, 0x7f2a48000048, 0x7f2a4800004c,
	       0x7f2a48000050, 0x7f2a48000054, 0x7f2a48000058, 0x7f2a4800005c,
	       0x7f2a48000060, 0x7f2a48000064, 0x7f2a48000068, 0x7f2a4800006c,
	       0x7f2a48000070, 0x7f2a48000074, 0x7f2a48000078, 0x7f2a4800007c,
	       0x7f2a40000000, 0x7f2a40000010, 0x7f2a40000020, 0x7f2a40000030,
	       0x7f2a40000040, 0x7f2a40000050, 0x7f2a40000060, 0x7f2a40000070,
	       0x7f2a40000080, 0x7f2a40000090, 0x7f2a400000a0, 0x7f2a400000b0,
	       0x7f2a400000c0, 0x7f2a400000d0, 0x7f2a400000e0, 0x7f2a400000f0,
	       0x7f2a40000100, 0x7f2a40000110, 0x7f2a40000120, 0x7f2a40000130,
	       0x7f2a40000140, 0x7f2a40000150, 0x7f2a40000160, 0x7f2a40000170,
	       0x7f2a40000180, 0x7f2a40000190, 0x7f2a400001a0, 0x7f2a400001b0,
	       0x7f2a400001c0, 0x7f2a400001d0, 0x7f2a400001e0, 0x7f2a400001f0),
	  U64S(0x7f2a48000000, 0x7f2a40000000, 0x7f2a40000080, 0x7f2a40000100,
	       0x7f2a40000180, 0x7f2a48000020, 0x7f2a40000020, 0x7f2a400000a0,
	       0x7f2a40000120, 0x7f2a400001a0, 0x7f2a48000040, 0x7f2a40000040,
	       0x7f2a400000c0, 0x7f2a40000140, 0x7f2a400001c0, 0x7f2a48000060,
	       0x7f2a40000060, 0x7f2a400000e0, 0x7f2a40000160, 0x7f2a400001e0) },
	{ "LDGSTS: 64 sectors 128 B apart", 32, 128, 64,
	  U64S(0x7f0000000000, 0x7f0000000080, 0x7f0000000100, 0x7f0000000180,
	       0x7f0000000200, 0x7f0000000280, 0x7f0000000300, 0x7f0000000380,
	       0x7f0000000400, 0x7f0000000480, 0x7f0000000500, 0x7f0000000580,
	       0x7f0000000600, 0x7f0000000680, 0x7f0000000700, 0x7f0000000780,
	       0x7f0000000800, 0x7f0000000880, 0x7f0000000900, 0x7f0000000980,
	       0x7f0000000a00, 0x7f0000000a80, 0x7f0000000b00, 0x7f0000000b80,
	       0x7f0000000c00, 0x7f0000000c80, 0x7f0000000d00, 0x7f0000000d80,
	       0x7f0000000e00, 0x7f0000000e80, 0x7f0000000f00, 0x7f0000000f80,
	       0x7f0000001000, 0x7f0000001080, 0x7f0000001100, 0x7f0000001180,
	       0x7f0000001200, 0x7f0000001280, 0x7f0000001300, 0x7f0000001380,
	       0x7f0000001400, 0x7f0000001480, 0x7f0000001500, 0x7f0000001580,
	       0x7f0000001600, 0x7f0000001680, 0x7f0000001700, 0x7f0000001780,
	       0x7f0000001800, 0x7f0000001880, 0x7f0000001900, 0x7f0000001980,
	       0x7f0000001a00, 0x7f0000001a80, 0x7f0000001b00, 0x7f0000001b80,
	       0x7f0000001c00, 0x7f0000001c80, 0x7f0000001d00, 0x7f0000001d80,
	       0x7f0000001e00, 0x7f0000001e80, 0x7f0000001f00, 0x7f0000001f80),
	  U64S(0x7f0000000000, 0x7f0000000100, 0x7f0000000180, 0x7f0000000080,
	       0x7f0000000200, 0x7f0000000280, 0x7f0000000300, 0x7f0000000380,
	       0x7f0000000400, 0x7f0000000480, 0x7f0000001000, 0x7f0000001080,
	       0x7f0000001100, 0x7f0000001180, 0x7f0000001200, 0x7f0000001280,
	       0x7f0000001300, 0x7f0000001380, 0x7f0000001400, 0x7f0000001480,
	       0x7f0000000500, 0x7f0000001500, 0x7f0000000580, 0x7f0000001580,
	       0x7f0000000600, 0x7f0000001600, 0x7f0000000680, 0x7f0000001680,
	       0x7f0000000700, 0x7f0000001700, 0x7f0000000780, 0x7f0000001780,
	       0x7f0000000800, 0x7f0000001800, 0x7f0000000880, 0x7f0000001880,
	       0x7f0000000900, 0x7f0000001900, 0x7f0000000980, 0x7f0000001980,
	       0x7f0000000a00, 0x7f0000001a00, 0x7f0000000a80, 0x7f0000001a80,
	       0x7f0000000b00, 0x7f0000001b00, 0x7f0000000b80, 0x7f0000001b80,
	       0x7f0000001f80, 0x7f0000000c00, 0x7f0000001c00, 0x7f0000000c80,
	       0x7f0000001c80, 0x7f0000001f00, 0x7f0000000d00, 0x7f0000001d00,
	       0x7f0000000d80, 0x7f0000001d80, 0x7f0000000e00, 0x7f0000001e00,
	       0x7f0000000e80, 0x7f0000001e80, 0x7f0000000f00, 0x7f0000000f80) },
	{ "negative stride", 32, 128, 32,
	  U64S(0x7f2a40001000, 0x7f2a40000f80, 0x7f2a40000f00, 0x7f2a40000e80,
	       0x7f2a40000e00, 0x7f2a40000d80, 0x7f2a40000d00, 0x7f2a40000c80,
	       0x7f2a40000c00, 0x7f2a40000b80, 0x7f2a40000b00, 0x7f2a40000a80,
	       0x7f2a40000a00, 0x7f2a40000980, 0x7f2a40000900, 0x7f2a40000880,
	       0x7f2a40000800, 0x7f2a40000780, 0x7f2a40000700, 0x7f2a40000680,
	       0x7f2a40000600, 0x7f2a40000580, 0x7f2a40000500, 0x7f2a40000480,
	       0x7f2a40000400, 0x7f2a40000380, 0x7f2a40000300, 0x7f2a40000280,
	       0x7f2a40000200, 0x7f2a40000180, 0x7f2a40000100, 0x7f2a40000080),
	  U64S(0x7f2a40001000, 0x7f2a40000f00, 0x7f2a40000e80, 0x7f2a40000f80,
	       0x7f2a40000e00, 0x7f2a40000d80, 0x7f2a40000d00, 0x7f2a40000c80,
	       0x7f2a40000c00, 0x7f2a40000b80, 0x7f2a40000100, 0x7f2a40000080,
	       0x7f2a40000180, 0x7f2a40000200, 0x7f2a40000280, 0x7f2a40000300,
	       0x7f2a40000380, 0x7f2a40000400, 0x7f2a40000480, 0x7f2a40000500,
	       0x7f2a40000580, 0x7f2a40000600, 0x7f2a40000680, 0x7f2a40000700,
	       0x7f2a40000780, 0x7f2a40000800, 0x7f2a40000880, 0x7f2a40000900,
	       0x7f2a40000980, 0x7f2a40000a00, 0x7f2a40000a80, 0x7f2a40000b00) },
	{ "above 2^61", 32, 128, 5,
	  U64S(0x2000000000000000, 0x2000000000000020, 0x2000000000000040,
	       0x2000000000000060, 0x2000000000000080, 0x20000000000000a0,
	       0x20000000000000c0, 0x20000000000000e0, 0x2000000000000100,
	       0x2000000000000120, 0x2000000000000140, 0x2000000000000160,
	       0x2000000000000180, 0x20000000000001a0, 0x20000000000001c0,
	       0x20000000000001e0, 0x2000000000000200, 0x2000000000000220,
	       0x2000000000000240, 0x2000000000000260, 0x2000000000000000),
	  U64S(0x2000000000000000, 0x2000000000000080, 0x2000000000000100,
	       0x2000000000000180, 0x2000000000000200, 0x2000000000000020,
	       0x20000000000000a0, 0x2000000000000120, 0x20000000000001a0,
	       0x2000000000000220, 0x2000000000000040, 0x20000000000000c0,
	       0x2000000000000140, 0x20000000000001c0, 0x2000000000000240,
	       0x2000000000000060, 0x20000000000000e0, 0x2000000000000160,
	       0x20000000000001e0, 0x2000000000000260) },
	{ "around 2^61 - 1", 32, 128, 5,
	  U64S(0x20, 0x2000000000000000, 0x40, 0x3fffffffffffffe0, 0x60,
	       0xffffffffffffffe0, 0x1fffffffffffffff, 0x1fffffffffffffc0,
	       0x2000000000000021),
	  U64S(0x20, 0x2000000000000000, 0x40, 0x60, 0x3fffffffffffffe0,
	       0x1fffffffffffffe0, 0x1fffffffffffffc0, 0xffffffffffffffe0,
	       0x2000000000000020) },
	{ "near 2^64", 32, 128, 6,
	  U64S(0xffffffffffffffff, 0xffffffffffffffdf, 0xffffffffffffffbf,
	       0xffffffffffffff9f, 0xffffffffffffff7f, 0xffffffffffffff5f,
	       0xffffffffffffff3f, 0xffffffffffffff1f, 0xfffffffffffffeff,
	       0xfffffffffffffedf, 0xfffffffffffffebf, 0xfffffffffffffe9f,
	       0xfffffffffffffe7f, 0xfffffffffffffe5f, 0xfffffffffffffe3f,
	       0xfffffffffffffe1f, 0xfffffffffffffdff, 0xfffffffffffffddf,
	       0xfffffffffffffdbf, 0xfffffffffffffd9f, 0xfffffffffffffd7f,
	       0xfffffffffffffd5f, 0xfffffffffffffd3f, 0xfffffffffffffd1f,
	       0xffffffffffffffff, 0xffffffffffffff80),
	  U64S(0xffffffffffffff80, 0xffffffffffffff00, 0xfffffffffffffe00,
	       0xfffffffffffffe80, 0xfffffffffffffd80, 0xfffffffffffffd00,
	       0xffffffffffffffa0, 0xffffffffffffff20, 0xfffffffffffffda0,
	       0xfffffffffffffe20, 0xfffffffffffffea0, 0xfffffffffffffd20,
	       0xffffffffffffffc0, 0xffffffffffffff40, 0xfffffffffffffec0,
	       0xfffffffffffffdc0, 0xfffffffffffffe40, 0xfffffffffffffd40,
	       0xffffffffffffff60, 0xffffffffffffffe0, 0xfffffffffffffee0,
	       0xfffffffffffffde0, 0xfffffffffffffe60, 0xfffffffffffffd60) },
	{ "near 2^64, scattered", 32, 128, 32,
	  U64S(0xffffffffffff0000, 0xffffffffffff9e20, 0xffffffffffff3c60,
	       0xffffffffffffdaa0, 0xffffffffffff78c0, 0xffffffffffff1700,
	       0xffffffffffffb540, 0xffffffffffff5380, 0xfffffffffffff1a0,
	       0xffffffffffff8fe0, 0xffffffffffff2e20, 0xffffffffffffcc40,
	       0xffffffffffff6a80, 0xffffffffffff08c0, 0xffffffffffffa700,
	       0xffffffffffff4520, 0xffffffffffffe360, 0xffffffffffff81a0,
	       0xffffffffffff1fc0, 0xffffffffffffbe00, 0xffffffffffff5c40,
	       0xfffffffffffffa80, 0xffffffffffff98a0, 0xffffffffffff36e0,
	       0xffffffffffffd520, 0xffffffffffff7340, 0xffffffffffff1180,
	       0xffffffffffffafc0, 0xffffffffffff4e00, 0xffffffffffffec20,
	       0xffffffffffff8a60, 0xffffffffffff28a0),
	  U64S(0xffffffffffff0000, 0xffffffffffff1700, 0xffffffffffff5380,
	       0xffffffffffff6a80, 0xffffffffffffa700, 0xffffffffffffbe00,
	       0xfffffffffffffa80, 0xffffffffffff1180, 0xffffffffffff4e00,
	       0xffffffffffffdaa0, 0xffffffffffff9e20, 0xfffffffffffff1a0,
	       0xffffffffffff4520, 0xffffffffffff81a0, 0xffffffffffff2e20,
	       0xffffffffffff98a0, 0xffffffffffffd520, 0xffffffffffffec20,
	       0xffffffffffff28a0, 0xffffffffffff1fc0, 0xffffffffffffcc40,
	       0xffffffffffff78c0, 0xffffffffffffb540, 0xffffffffffff08c0,
	       0xffffffffffff5c40, 0xffffffffffff7340, 0xffffffffffffafc0,
	       0xffffffffffff3c60, 0xffffffffffff8fe0, 0xffffffffffffe360,
	       0xffffffffffff36e0, 0xffffffffffff8a60) },
	{ "equal hashes: k + m (2^61 - 1)", 1, 1, 10,
	  U64S(0x5, 0x2000000000000004, 0x4000000000000003, 0xc, 0x6000000000000002,
	       0xdffffffffffffffe, 0x5, 0x200000000000000b, 0xe000000000000005, 0x0,
	       0x1fffffffffffffff),
	  U64S(0x0, 0x1fffffffffffffff, 0x6000000000000002, 0x2000000000000004,
	       0x4000000000000003, 0x5, 0xdffffffffffffffe, 0xc, 0x200000000000000b,
	       0xe000000000000005) },
	{ "1 B sectors, 128 B lines, going down", 1, 128, 9,
	  U64S(0x7f2a40800000, 0x7f2a408002f1, 0x7f2a408001e2, 0x7f2a408000d3,
	       0x7f2a408003c4, 0x7f2a408002b5, 0x7f2a408001a6, 0x7f2a40800097,
	       0x7f2a40800388, 0x7f2a40800279, 0x7f2a4080016a, 0x7f2a4080005b,
	       0x7f2a4080034c, 0x7f2a4080023d, 0x7f2a4080012e, 0x7f2a4080001f,
	       0x7f2a40800310, 0x7f2a40800201, 0x7f2a408000f2, 0x7f2a408003e3,
	       0x7f2a408002d4, 0x7f2a408001c5, 0x7f2a408000b6, 0x7f2a408003a7,
	       0x7f2a40800298, 0x7f2a40800189, 0x7f2a4080007a, 0x7f2a4080036b,
	       0x7f2a4080025c, 0x7f2a4080014d, 0x7f2a4080003e, 0x7f2a4080032f,
	       0x7f2a40800220, 0x7f2a40800111, 0x7f2a40800002, 0x7f2a408002f3,
	       0x7f2a408001e4, 0x7f2a408000d5, 0x7f2a408003c6, 0x7f2a408002b7,
	       0x7f2a40800017, 0x7f2a40800400),
	  U64S(0x7f2a40800000, 0x7f2a40800201, 0x7f2a40800002, 0x7f2a40800400,
	       0x7f2a40800388, 0x7f2a40800189, 0x7f2a40800310, 0x7f2a40800111,
	       0x7f2a40800097, 0x7f2a40800298, 0x7f2a40800017, 0x7f2a4080001f,
	       0x7f2a40800220, 0x7f2a408001a6, 0x7f2a408003a7, 0x7f2a4080012e,
	       0x7f2a4080032f, 0x7f2a408002b5, 0x7f2a408000b6, 0x7f2a408002b7,
	       0x7f2a4080023d, 0x7f2a4080003e, 0x7f2a408003c4, 0x7f2a408001c5,
	       0x7f2a408003c6, 0x7f2a4080034c, 0x7f2a4080014d, 0x7f2a408000d3,
	       0x7f2a408002d4, 0x7f2a408000d5, 0x7f2a4080005b, 0x7f2a4080025c,
	       0x7f2a408001e2, 0x7f2a408003e3, 0x7f2a408001e4, 0x7f2a4080016a,
	       0x7f2a4080036b, 0x7f2a408002f1, 0x7f2a408000f2, 0x7f2a408002f3,
	       0x7f2a40800279, 0x7f2a4080007a) },
	{ "1 B sectors, 256 B lines, ascending", 1, 256, 2,
	  U64S(0x7f2a40800000, 0x7f2a40800008, 0x7f2a40800010, 0x7f2a40800018,
	       0x7f2a40800020, 0x7f2a40800028, 0x7f2a40800030, 0x7f2a40800038,
	       0x7f2a40800040, 0x7f2a40800048, 0x7f2a40800050, 0x7f2a40800058,
	       0x7f2a40800060, 0x7f2a40800068, 0x7f2a40800070, 0x7f2a40800078,
	       0x7f2a40800080, 0x7f2a40800088, 0x7f2a40800090, 0x7f2a40800098,
	       0x7f2a408000a0, 0x7f2a408000a8, 0x7f2a408000b0, 0x7f2a408000b8,
	       0x7f2a408000c0, 0x7f2a408000c8, 0x7f2a408000d0, 0x7f2a408000d8,
	       0x7f2a408000e0, 0x7f2a408000e8, 0x7f2a408000f0, 0x7f2a408000f8,
	       0x7f2a40800100, 0x7f2a40800108, 0x7f2a40800110, 0x7f2a40800118,
	       0x7f2a40800120, 0x7f2a40800128, 0x7f2a40800130, 0x7f2a40800138,
	       0x7f2a40800140, 0x7f2a40800148, 0x7f2a40800150, 0x7f2a40800158,
	       0x7f2a40800160, 0x7f2a40800168, 0x7f2a40800170, 0x7f2a40800178,
	       0x7f2a40800180, 0x7f2a40800188, 0x7f2a40800190, 0x7f2a40800198,
	       0x7f2a408001a0, 0x7f2a408001a8, 0x7f2a408001b0, 0x7f2a408001b8,
	       0x7f2a408001c0, 0x7f2a408001c8, 0x7f2a408001d0, 0x7f2a408001d8,
	       0x7f2a408001e0, 0x7f2a408001e8, 0x7f2a408001f0, 0x7f2a408001f8),
	  U64S(0x7f2a40800000, 0x7f2a40800080, 0x7f2a40800100, 0x7f2a40800180,
	       0x7f2a40800008, 0x7f2a40800088, 0x7f2a40800108, 0x7f2a40800188,
	       0x7f2a40800010, 0x7f2a40800090, 0x7f2a40800110, 0x7f2a40800190,
	       0x7f2a40800018, 0x7f2a40800098, 0x7f2a40800118, 0x7f2a40800198,
	       0x7f2a40800020, 0x7f2a408000a0, 0x7f2a40800120, 0x7f2a408001a0,
	       0x7f2a40800028, 0x7f2a408000a8, 0x7f2a40800128, 0x7f2a408001a8,
	       0x7f2a40800030, 0x7f2a408000b0, 0x7f2a40800130, 0x7f2a408001b0,
	       0x7f2a40800038, 0x7f2a408000b8, 0x7f2a40800138, 0x7f2a408001b8,
	       0x7f2a40800040, 0x7f2a408000c0, 0x7f2a40800140, 0x7f2a408001c0,
	       0x7f2a40800048, 0x7f2a408000c8, 0x7f2a40800148, 0x7f2a408001c8,
	       0x7f2a40800050, 0x7f2a408000d0, 0x7f2a40800150, 0x7f2a408001d0,
	       0x7f2a40800058, 0x7f2a408000d8, 0x7f2a40800158, 0x7f2a408001d8,
	       0x7f2a40800060, 0x7f2a408000e0, 0x7f2a408000f8, 0x7f2a40800160,
	       0x7f2a40800178, 0x7f2a408001e0, 0x7f2a40800068, 0x7f2a408000e8,
	       0x7f2a40800168, 0x7f2a408001e8, 0x7f2a408001f8, 0x7f2a40800070,
	       0x7f2a408000f0, 0x7f2a40800170, 0x7f2a408001f0, 0x7f2a40800078) },
	{ "128 B sectors", 128, 128, 8,
	  U64S(0x1000, 0x1020, 0x1040, 0x1060, 0x1080, 0x10a0, 0x10c0, 0x10e0, 0x1100,
	       0x1120, 0x1140, 0x1160, 0x1180, 0x11a0, 0x11c0, 0x11e0, 0x1200, 0x1220,
	       0x1240, 0x1260, 0x1280, 0x12a0, 0x12c0, 0x12e0, 0x1300, 0x1320, 0x1340,
	       0x1360, 0x1380, 0x13a0, 0x13c0, 0x13e0),
	  U64S(0x1000, 0x1100, 0x1200, 0x1080, 0x1180, 0x1280, 0x1300, 0x1380) },
	{ "64 B sectors, 256 B lines", 64, 256, 12,
	  U64S(0x7f2a40800000, 0x7f2a40800060, 0x7f2a408000c0, 0x7f2a40800120,
	       0x7f2a40800180, 0x7f2a408001e0, 0x7f2a40800240, 0x7f2a408002a0,
	       0x7f2a40800300, 0x7f2a40800360, 0x7f2a408003c0, 0x7f2a40800420,
	       0x7f2a40800480, 0x7f2a408004e0, 0x7f2a40800540, 0x7f2a408005a0,
	       0x7f2a40800600, 0x7f2a40800660, 0x7f2a408006c0, 0x7f2a40800720,
	       0x7f2a40800780, 0x7f2a408007e0, 0x7f2a40800840, 0x7f2a408008a0,
	       0x7f2a40800900, 0x7f2a40800960, 0x7f2a408009c0, 0x7f2a40800a20,
	       0x7f2a40800a80, 0x7f2a40800ae0, 0x7f2a40800b40, 0x7f2a40800ba0),
	  U64S(0x7f2a40800000, 0x7f2a40800100, 0x7f2a40800180, 0x7f2a40800280,
	       0x7f2a40800300, 0x7f2a40800400, 0x7f2a40800480, 0x7f2a40800580,
	       0x7f2a40800600, 0x7f2a40800700, 0x7f2a40800840, 0x7f2a40800940,
	       0x7f2a408009c0, 0x7f2a40800ac0, 0x7f2a40800b40, 0x7f2a40800780,
	       0x7f2a40800040, 0x7f2a408000c0, 0x7f2a408001c0, 0x7f2a40800240,
	       0x7f2a40800340, 0x7f2a408004c0, 0x7f2a40800540, 0x7f2a40800640,
	       0x7f2a408006c0, 0x7f2a408003c0, 0x7f2a40800880, 0x7f2a40800900,
	       0x7f2a40800a00, 0x7f2a40800a80, 0x7f2a40800b80, 0x7f2a408007c0) },
};

static void test_explicit(void)
{
	for (size_t i = 0; i < G_N_ELEMENTS(explicit_cases); i++) {
		const struct explicit_case *e = &explicit_cases[i];

		check_all(e->what, e->sb, e->lb, e->in.v, e->in.n, e->pyset.v, e->pyset.n,
			  e->lines);
	}
}

/* ---- generated inputs, CPython's order -------------------------------------- */

/*
 * Case i's addresses come from splitmix64 seeded with i * 1000003 + 17,
 * drawn in the order below (the same generator in Python produced the
 * table); the checksum (FNV-1a's step applied to whole 64-bit addresses)
 * guards the two against drifting apart.  Per case: sector and line
 * bytes, lanes, distinct sectors, lines, checksum.
 */
struct gen_case {
	uint32_t sb, lb, n, unique, lines;
	uint64_t fnv;
};

struct splitmix {
	uint64_t s;
};

static uint64_t next(struct splitmix *r)
{
	uint64_t z = r->s += UINT64_C(0x9e3779b97f4a7c15);

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

#define PY_MODULUS ((UINT64_C(1) << 61) - 1)

/* Case i into a[] (room for 320); returns n and the geometry. */
static uint32_t generate(uint32_t i, uint64_t *a, uint32_t *sb, uint32_t *lb)
{
	static const uint32_t geom[][2] = {
		{ 32, 128 }, { 32, 128 }, { 32, 128 }, { 64, 256 }, { 1, 32 }, { 128, 128 },
	};
	static const int64_t strides[] = { 4, 8, 16, 32, 128, 256, 4096, -4, -32, -128 };
	struct splitmix r = { (uint64_t)i * 1000003 + 17 };
	uint64_t g = next(&r) % G_N_ELEMENTS(geom), base, b2, pool[8];
	uint32_t n, p;
	int64_t stride;

	*sb = geom[g][0];
	*lb = geom[g][1];
	switch (i % 10) {
	case 0:		/* 4 KiB: many lanes per sector */
		base = next(&r) & UINT64_C(0x00007fffffffff00);
		n = 1 + next(&r) % 64;
		for (uint32_t t = 0; t < n; t++)
			a[t] = base + next(&r) % 4096;
		return n;
	case 1:		/* strided, wrapping around 2^64 when it has to */
		base = next(&r);
		g = next(&r) % (G_N_ELEMENTS(strides) + 1);
		stride = g < G_N_ELEMENTS(strides) ? strides[g]
						    : (int64_t)(next(&r) % 65536) - 32768;
		for (uint32_t t = 0; t < 32; t++)
			a[t] = base + (uint64_t)((int64_t)t * stride);
		return 32;
	case 2:		/* anywhere in 64 bits */
		n = 1 + next(&r) % 64;
		for (uint32_t t = 0; t < n; t++)
			a[t] = next(&r);
		return n;
	case 3:		/* the top 8 KiB */
		n = 1 + next(&r) % 64;
		for (uint32_t t = 0; t < n; t++)
			a[t] = UINT64_MAX - next(&r) % 8192;
		return n;
	case 4:		/* across 2^61 - 1, where the hash wraps */
		n = 1 + next(&r) % 64;
		for (uint32_t t = 0; t < n; t++)
			a[t] = PY_MODULUS - 4096 + next(&r) % 8192;
		return n;
	case 5:		/* a few addresses, over and over */
		p = 1 + next(&r) % 8;
		for (uint32_t k = 0; k < p; k++)
			pool[k] = next(&r) & UINT64_C(0xffffffffffff);
		n = 1 + next(&r) % 64;
		for (uint32_t t = 0; t < n; t++)
			a[t] = pool[next(&r) % p];
		return n;
	case 6:		/* LDGSTS: 32 lanes of 4 B, then 32 of 16 B */
		base = next(&r) & UINT64_C(0x7ffffffff000);
		b2 = next(&r) & UINT64_C(0x7ffffffff000);
		for (uint32_t t = 0; t < 32; t++) {
			a[t] = base + 4 * t;
			a[32 + t] = b2 + 16 * t;
		}
		return 64;
	case 7:		/* 32 lanes in 64 KiB */
		base = next(&r) & UINT64_C(0x7fffffff0000);
		for (uint32_t t = 0; t < 32; t++)
			a[t] = base + next(&r) % 65536;
		return 32;
	case 8:
		a[0] = next(&r);
		return 1;
	default:
		base = next(&r) & UINT64_C(0x7fffffff0000);
		if (i % 40 == 9) {	/* more lanes than a warp: tables of 512, 1024 */
			n = 65 + next(&r) % 256;
			for (uint32_t t = 0; t < n; t++)
				a[t] = base + next(&r) % (1u << 20);
			return n;
		}
		/* descending lines, a lane anywhere in its line */
		for (uint32_t t = 0; t < 32; t++)
			a[t] = base + 128 * (31 - t) + next(&r) % 128;
		return 32;
	}
}

static uint64_t fnv1a(const uint64_t *a, uint32_t n)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);

	for (uint32_t i = 0; i < n; i++)
		h = (h ^ a[i]) * UINT64_C(0x100000001b3);
	return h;
}

static const struct gen_case gen_cases[400] = {
	{ 64, 256, 13, 13, 10, 0xdc5e3d3a16b7841du },
	{ 128, 128, 32, 32, 32, 0x0af97734f69407a5u },
	{ 128, 128, 57, 57, 57, 0x0bc7b41eccb9af7cu },
	{ 128, 128, 62, 45, 45, 0xe841b073d3231e0cu },
	{ 64, 256, 49, 38, 24, 0x8dc1bcecdc201adbu },
	{ 128, 128, 29, 5, 5, 0x35a56f2822b3882au },
	{ 32, 128, 64, 20, 5, 0x7c7f6b0808a6d9a5u },
	{ 32, 128, 32, 31, 31, 0x38ad911f18af94c5u },
	{ 32, 128, 1, 1, 1, 0xd115841637528ebau },
	{ 32, 128, 167, 167, 167, 0x6b1d67084dee8467u },
	{ 128, 128, 50, 25, 25, 0x7eba0a548063f567u },
	{ 32, 128, 32, 32, 32, 0x8fc30b36687c05a5u },
	{ 32, 128, 54, 54, 54, 0xe024dc4a9c2ce7d6u },
	{ 32, 128, 9, 9, 9, 0x2d4f0dc66074ce43u },
	{ 64, 256, 51, 44, 25, 0x0fbbe62918e37c4eu },
	{ 32, 128, 8, 5, 5, 0xbb31bb6a0ab85689u },
	{ 128, 128, 64, 5, 5, 0xe828fbde3a1719a5u },
	{ 128, 128, 32, 31, 31, 0x9b579a226c385dcau },
	{ 1, 32, 1, 1, 1, 0x0d067dd30d3301eeu },
	{ 64, 256, 32, 32, 16, 0x14e6288764e55772u },
	{ 32, 128, 18, 17, 12, 0x030aa6bcb1245ea2u },
	{ 32, 128, 32, 32, 8, 0x5d7edb073c072c25u },
	{ 32, 128, 43, 43, 43, 0x0b868386902a9e24u },
	{ 64, 256, 6, 6, 5, 0xf58a42c9439cf471u },
	{ 1, 32, 8, 8, 7, 0xd03561b21c36cf21u },
	{ 1, 32, 3, 1, 1, 0xea0db88125c7e937u },
	{ 32, 128, 64, 20, 5, 0x27f33f82826299a5u },
	{ 32, 128, 32, 32, 31, 0x7ec1165035df9cf9u },
	{ 1, 32, 1, 1, 1, 0x25a90d4bf91552e8u },
	{ 32, 128, 32, 32, 32, 0x7ed273c3cea8e2dfu },
	{ 1, 32, 34, 34, 29, 0x84630e030e3cd05bu },
	{ 32, 128, 32, 32, 32, 0xe745d71c60e5b1c5u },
	{ 128, 128, 56, 56, 56, 0x37efc17039ccd2d2u },
	{ 1, 32, 55, 55, 49, 0xd2a8a2fbf8c9800du },
	{ 32, 128, 6, 6, 5, 0xd574eee862f21c77u },
	{ 128, 128, 22, 3, 3, 0x7ac43b7e0a0bb100u },
	{ 1, 32, 64, 64, 20, 0xc15ed2b334d9f9a5u },
	{ 32, 128, 32, 32, 32, 0xa9695691b0010355u },
	{ 32, 128, 1, 1, 1, 0x40d2237144dd36e4u },
	{ 32, 128, 32, 32, 32, 0x95ba20b5db1e6cfeu },
	{ 64, 256, 36, 29, 15, 0x0154dfa1e8825340u },
	{ 64, 256, 32, 32, 32, 0x3ec5c8d5ea92f465u },
	{ 1, 32, 53, 53, 53, 0x4d067e7839802f1fu },
	{ 64, 256, 6, 5, 5, 0x2ed638ccada16ea1u },
	{ 1, 32, 37, 37, 35, 0xe3ac022c47d0cc18u },
	{ 32, 128, 13, 7, 7, 0xff5966857f768793u },
	{ 32, 128, 64, 20, 5, 0xaa454fd8885479a5u },
	{ 32, 128, 32, 32, 30, 0x754abfd6819aaa44u },
	{ 32, 128, 1, 1, 1, 0x8f4f07e319e48968u },
	{ 64, 256, 182, 181, 178, 0xad9435f634cd058du },
	{ 64, 256, 23, 20, 13, 0x62891f2e47fc9d85u },
	{ 32, 128, 32, 32, 32, 0x7906e9287c959e25u },
	{ 64, 256, 64, 64, 64, 0xcf699f41daea646du },
	{ 128, 128, 7, 6, 6, 0x9852c231bfd0b329u },
	{ 64, 256, 29, 25, 21, 0x4e039b6eb835b5e8u },
	{ 32, 128, 44, 5, 5, 0x93f48f86de8d76bbu },
	{ 64, 256, 64, 10, 3, 0xc0e3bc90fdd0f9a5u },
	{ 1, 32, 32, 32, 32, 0x33a7ca9bbb14207du },
	{ 64, 256, 1, 1, 1, 0xceb48ba8665cf861u },
	{ 32, 128, 32, 32, 32, 0x43a58a19b0f8af1bu },
	{ 32, 128, 16, 16, 13, 0x97768b15786c1f8fu },
	{ 32, 128, 32, 32, 8, 0x57075308b0476e45u },
	{ 64, 256, 58, 58, 58, 0xe96c6c5494edbf7du },
	{ 1, 32, 37, 37, 34, 0x889aff08ee82b434u },
	{ 32, 128, 9, 9, 9, 0xa4af291f7e06c70eu },
	{ 32, 128, 54, 1, 1, 0xbaeed9de9b484affu },
	{ 32, 128, 64, 20, 5, 0xfdcd3588471879a5u },
	{ 32, 128, 32, 32, 31, 0x5693f44dd485e7dcu },
	{ 128, 128, 1, 1, 1, 0x0f397b10171fa700u },
	{ 32, 128, 32, 32, 32, 0x9fe74154eca191bdu },
	{ 1, 32, 31, 31, 27, 0x176440c483c78a37u },
	{ 1, 32, 32, 32, 32, 0xd1efcab680c869c5u },
	{ 64, 256, 15, 15, 15, 0x24a0f0e4c82576aeu },
	{ 128, 128, 11, 10, 10, 0xd68b5afedfde83ffu },
	{ 64, 256, 58, 48, 25, 0x158224c673dc8cd2u },
	{ 1, 32, 9, 3, 3, 0x253805d73e2de955u },
	{ 32, 128, 64, 20, 5, 0xd2a247e08b36b9a5u },
	{ 32, 128, 32, 32, 32, 0x799b770039d53f67u },
	{ 64, 256, 1, 1, 1, 0x1b6e9ccf383d6d85u },
	{ 64, 256, 32, 32, 16, 0xd55aa4d26ed1eef8u },
	{ 32, 128, 45, 35, 24, 0x137ce31d73ba8ceau },
	{ 64, 256, 32, 4, 2, 0x48c2e86bd602e525u },
	{ 128, 128, 30, 30, 30, 0x06855a15496466efu },
	{ 128, 128, 15, 13, 13, 0x96ef4618bc52cd98u },
	{ 128, 128, 51, 33, 33, 0x6eef06c4e13b7297u },
	{ 32, 128, 14, 4, 4, 0x555692b5d388793eu },
	{ 32, 128, 64, 20, 5, 0xeac296b89c94f9a5u },
	{ 128, 128, 32, 32, 32, 0xbe20ca16200ad0c6u },
	{ 32, 128, 1, 1, 1, 0xa5caaac34d108d42u },
	{ 64, 256, 153, 153, 153, 0x6605cb2ea1cc76e9u },
	{ 64, 256, 9, 9, 7, 0xf144f6427f666beau },
	{ 1, 32, 32, 32, 9, 0x38d481bc4669e825u },
	{ 32, 128, 34, 34, 34, 0x4002babe5555637bu },
	{ 128, 128, 37, 25, 25, 0x9f92afa83dee87aeu },
	{ 64, 256, 8, 8, 7, 0x4e36191c21e7e72bu },
	{ 32, 128, 15, 6, 6, 0xb66327b89cbb6865u },
	{ 32, 128, 64, 20, 5, 0x580e18919779d9a5u },
	{ 32, 128, 32, 31, 31, 0xf559d8e4bce0fd5cu },
	{ 32, 128, 1, 1, 1, 0x235df1ab44bc4f07u },
	{ 1, 32, 32, 32, 32, 0xeabcfc6b3a8c4270u },
	{ 32, 128, 4, 4, 4, 0x1486b7288e3c3439u },
	{ 32, 128, 32, 5, 2, 0x675fca5a8c1a19a5u },
	{ 128, 128, 63, 63, 63, 0x3712b22e99666140u },
	{ 1, 32, 4, 4, 4, 0x5c7a26902c3da7afu },
	{ 32, 128, 50, 47, 38, 0xd9231096cf14a929u },
	{ 1, 32, 17, 6, 6, 0x3c2630058800f050u },
	{ 128, 128, 64, 5, 5, 0x38347204f97679a5u },
	{ 32, 128, 32, 32, 32, 0xdc632aa672ce9d0bu },
	{ 32, 128, 1, 1, 1, 0x7c0e7fbee90709a9u },
	{ 1, 32, 32, 32, 32, 0xa05e394cf067a3d8u },
	{ 64, 256, 5, 5, 4, 0xc8dabd95018d0a93u },
	{ 32, 128, 32, 32, 32, 0xdf6e197839568945u },
	{ 32, 128, 28, 28, 28, 0xc0d6c8a483352268u },
	{ 32, 128, 22, 21, 20, 0x966731049c69da96u },
	{ 128, 128, 46, 31, 31, 0x5b9d2d0f11c19a36u },
	{ 64, 256, 11, 5, 5, 0x999398656dd0b50fu },
	{ 32, 128, 64, 20, 5, 0x78ded30f226359a5u },
	{ 32, 128, 32, 32, 32, 0x12b0cdd980631409u },
	{ 32, 128, 1, 1, 1, 0x350cfb2baead34f2u },
	{ 1, 32, 32, 32, 32, 0xde4d6c8897890e22u },
	{ 128, 128, 35, 18, 18, 0xbc36336be9b98130u },
	{ 32, 128, 32, 32, 32, 0x9ede081252627c85u },
	{ 1, 32, 2, 2, 2, 0x1b4e2584fdc91c0au },
	{ 64, 256, 4, 4, 4, 0x73fbb406d4478c29u },
	{ 32, 128, 41, 38, 28, 0x52d71512af95736au },
	{ 32, 128, 54, 7, 7, 0x633254f3e0e4c4d5u },
	{ 1, 32, 64, 64, 20, 0x17640b169d5e99a5u },
	{ 128, 128, 32, 32, 32, 0xe85b7c70ff7b6208u },
	{ 32, 128, 1, 1, 1, 0xe11caa17cb731517u },
	{ 32, 128, 154, 154, 153, 0x5fbf0ad8f2738359u },
	{ 32, 128, 55, 44, 25, 0x50fddea271da27e1u },
	{ 32, 128, 32, 32, 32, 0xbfe83b4b35a74fc5u },
	{ 32, 128, 10, 10, 10, 0x539341bf420a63d3u },
	{ 64, 256, 58, 45, 28, 0x3ae810c0130b5a3bu },
	{ 32, 128, 58, 50, 40, 0xc72fce2fe88e2a37u },
	{ 128, 128, 55, 5, 5, 0x415f8dc47db1c84bu },
	{ 1, 32, 64, 64, 20, 0x6da596e3174159a5u },
	{ 32, 128, 32, 32, 30, 0x974ab7fd9a44c7dbu },
	{ 32, 128, 1, 1, 1, 0x831d0aced7def7a2u },
	{ 32, 128, 32, 32, 32, 0x3fe3c59434009934u },
	{ 1, 32, 55, 54, 46, 0x158ea4951b545343u },
	{ 32, 128, 32, 5, 2, 0xa36662cd4dc34ba5u },
	{ 128, 128, 33, 33, 33, 0x9f6432b2fbbb73d2u },
	{ 128, 128, 20, 16, 16, 0xe66b318cdbf96e4bu },
	{ 32, 128, 44, 38, 27, 0xcf36a24df8e142cdu },
	{ 1, 32, 51, 3, 3, 0x3c397bc0bc6db7aau },
	{ 64, 256, 64, 10, 3, 0x0ad36539d5a999a5u },
	{ 1, 32, 32, 32, 32, 0xcb146726656417adu },
	{ 32, 128, 1, 1, 1, 0x3ab1216e310af960u },
	{ 32, 128, 32, 32, 32, 0xbec0a33f9c9f1af5u },
	{ 128, 128, 63, 27, 27, 0xa819a3c4b2acfb62u },
	{ 128, 128, 32, 32, 32, 0x130bddf1642f1a85u },
	{ 1, 32, 60, 60, 60, 0x0ed55b7008917a30u },
	{ 128, 128, 6, 6, 6, 0xe9478defa9dd08cdu },
	{ 128, 128, 30, 23, 23, 0x2071f26a44ff053eu },
	{ 128, 128, 22, 2, 2, 0x6480af8b9c0fcccdu },
	{ 32, 128, 64, 20, 5, 0xb08cfb38b670f9a5u },
	{ 64, 256, 32, 32, 30, 0x379e5d574509f1eeu },
	{ 1, 32, 1, 1, 1, 0x43805a6b808700aeu },
	{ 32, 128, 32, 32, 32, 0xcba2d2dba2946421u },
	{ 1, 32, 18, 18, 16, 0x4d46375dbf81934fu },
	{ 1, 32, 32, 32, 9, 0xd11aa2c00a7d6645u },
	{ 1, 32, 15, 15, 15, 0x71b6902f7357cd43u },
	{ 32, 128, 3, 3, 3, 0x71ea1071649a5c05u },
	{ 64, 256, 20, 18, 16, 0x5756da500d149050u },
	{ 32, 128, 37, 7, 7, 0x3803bef52ae85cecu },
	{ 64, 256, 64, 10, 3, 0xdfdfdf316fd619a5u },
	{ 1, 32, 32, 32, 32, 0x9372a4aaa152a3fau },
	{ 64, 256, 1, 1, 1, 0xc851ed236ea2c36fu },
	{ 1, 32, 198, 198, 198, 0xd35116871f965544u },
	{ 32, 128, 30, 24, 20, 0xf17648b7cd2ce94du },
	{ 1, 32, 32, 32, 5, 0x57475743ecd7dca5u },
	{ 1, 32, 56, 56, 56, 0x98e35d1902c5bb71u },
	{ 32, 128, 35, 35, 26, 0xab749de9f6c2de5cu },
	{ 32, 128, 40, 37, 28, 0xbabd1a0086365f32u },
	{ 32, 128, 50, 7, 7, 0x7312ce047548e5bbu },
	{ 32, 128, 64, 20, 5, 0x1e084312877619a5u },
	{ 32, 128, 32, 32, 31, 0x38a5a860932eab06u },
	{ 64, 256, 1, 1, 1, 0x9fbc012029005cb1u },
	{ 128, 128, 32, 32, 32, 0xefcece098b984cedu },
	{ 32, 128, 36, 31, 23, 0x5d4106fad6192ae1u },
	{ 128, 128, 32, 3, 3, 0xf476951ae69f1d85u },
	{ 1, 32, 63, 63, 63, 0x77bbc3bce829a8fcu },
	{ 32, 128, 17, 16, 15, 0xce99cd47ee4a3196u },
	{ 32, 128, 31, 31, 28, 0xa9a00d4d92acdf4du },
	{ 32, 128, 48, 5, 5, 0x20563fd4f6711ed2u },
	{ 128, 128, 64, 5, 5, 0x0232c98acf32f9a5u },
	{ 1, 32, 32, 32, 30, 0x446e9ce632ddc782u },
	{ 128, 128, 1, 1, 1, 0xc495f27881e21a39u },
	{ 32, 128, 32, 32, 32, 0xa01c5255313d4f1bu },
	{ 64, 256, 51, 34, 15, 0x576d39c03c77a18au },
	{ 64, 256, 32, 32, 32, 0x20a4aada6f9e54a5u },
	{ 128, 128, 56, 56, 56, 0xd104dc9c00f3f0a7u },
	{ 1, 32, 45, 45, 41, 0xcc5596f364f7b71bu },
	{ 32, 128, 46, 43, 34, 0x63c479f15f26dccdu },
	{ 128, 128, 28, 3, 3, 0x569b29d42defd31du },
	{ 64, 256, 64, 10, 3, 0x898be58bcde599a5u },
	{ 1, 32, 32, 32, 31, 0xbb64c4ae8aea3ebfu },
	{ 32, 128, 1, 1, 1, 0xb451249f09380138u },
	{ 64, 256, 32, 32, 16, 0x0e026c6942b715d5u },
	{ 1, 32, 23, 23, 19, 0x93fad2d895b7f0e9u },
	{ 128, 128, 32, 32, 32, 0xb87d93947df141a5u },
	{ 64, 256, 42, 42, 42, 0xc7506226c20d1ceau },
	{ 64, 256, 13, 12, 11, 0xa39ae3a15855a3b7u },
	{ 64, 256, 8, 7, 6, 0x7c598a2ca856baa1u },
	{ 128, 128, 11, 3, 3, 0x6c4a3f37febc6eb1u },
	{ 32, 128, 64, 20, 5, 0x201ea60a7f0579a5u },
	{ 32, 128, 32, 32, 32, 0xf61e7bde5d997508u },
	{ 32, 128, 1, 1, 1, 0x9dbfe4f3edc43de3u },
	{ 128, 128, 229, 225, 225, 0x143eb13518436f6cu },
	{ 32, 128, 54, 42, 26, 0x2d6b6aff25a10897u },
	{ 32, 128, 32, 32, 8, 0x325915f020c7f825u },
	{ 32, 128, 49, 49, 49, 0x1d2c0566c0576189u },
	{ 128, 128, 56, 39, 39, 0x311d4cd25ad5c420u },
	{ 128, 128, 60, 36, 36, 0xc869b9ee2eadbb9du },
	{ 128, 128, 20, 8, 8, 0x57928e8d9c4e407au },
	{ 128, 128, 64, 5, 5, 0x973fc6b371a379a5u },
	{ 32, 128, 32, 32, 32, 0xd77aec9ecd919464u },
	{ 1, 32, 1, 1, 1, 0xa932c638508985c9u },
	{ 1, 32, 32, 32, 32, 0xf4f957d64f2f5ee4u },
	{ 32, 128, 15, 13, 12, 0xff4f48dd45ada72bu },
	{ 128, 128, 32, 3, 3, 0x2504c71b02850e85u },
	{ 128, 128, 55, 55, 55, 0x3db7dd519c79921du },
	{ 32, 128, 7, 7, 7, 0x6861b07f6f54ef0au },
	{ 32, 128, 23, 23, 20, 0xd64725c85176a335u },
	{ 32, 128, 18, 6, 6, 0x00f639daa4c9457eu },
	{ 128, 128, 64, 5, 5, 0x96bde348f27899a5u },
	{ 1, 32, 32, 32, 32, 0x6bcf9a08c43f6094u },
	{ 1, 32, 1, 1, 1, 0x6e9d5bfdda2dd473u },
	{ 32, 128, 32, 32, 32, 0x168b6bdd94ae8527u },
	{ 128, 128, 39, 23, 23, 0xd625c213f60635cfu },
	{ 32, 128, 32, 32, 32, 0x79066f9b998abba5u },
	{ 64, 256, 32, 32, 32, 0xb0ce777638fa38ddu },
	{ 32, 128, 4, 4, 4, 0x0468bed93407dccfu },
	{ 1, 32, 37, 37, 35, 0x323dd8a847985b55u },
	{ 32, 128, 8, 3, 3, 0x82d1df60715e0ef1u },
	{ 32, 128, 64, 20, 5, 0xaf5f5a243b9e39a5u },
	{ 128, 128, 32, 31, 31, 0x577103e254f8a77au },
	{ 1, 32, 1, 1, 1, 0x1c0ddcdf7cbd535cu },
	{ 1, 32, 32, 32, 32, 0xf07ea2b686876c53u },
	{ 32, 128, 5, 5, 5, 0x6545f97b9bb1674bu },
	{ 1, 32, 32, 32, 5, 0x990c501c929150a5u },
	{ 64, 256, 61, 61, 61, 0xd6e7da83a2ed54acu },
	{ 64, 256, 53, 46, 26, 0x42690c579b4d7de0u },
	{ 1, 32, 51, 51, 49, 0x4d18c22747258a5au },
	{ 128, 128, 6, 1, 1, 0x341f8fa036f0e2a5u },
	{ 1, 32, 64, 64, 20, 0x97a6affd9f3159a5u },
	{ 32, 128, 32, 32, 31, 0x2e0e62ac98813606u },
	{ 32, 128, 1, 1, 1, 0x42326bf7fdd3a172u },
	{ 32, 128, 208, 208, 204, 0x9d140dcdac21ecc8u },
	{ 32, 128, 46, 39, 26, 0x44932937bc792f02u },
	{ 32, 128, 32, 5, 2, 0x5874b95d87e7d9a5u },
	{ 64, 256, 7, 7, 7, 0xad23a6bd3587caacu },
	{ 128, 128, 53, 33, 33, 0xbd1f591bd66fd57cu },
	{ 64, 256, 59, 47, 26, 0xebc537c7103ad720u },
	{ 32, 128, 27, 6, 6, 0xeab0ef12578e857bu },
	{ 32, 128, 64, 20, 5, 0x84aefe3daf5599a5u },
	{ 128, 128, 32, 29, 29, 0x309993383f025d34u },
	{ 1, 32, 1, 1, 1, 0x3fdb104d6219b37fu },
	{ 128, 128, 32, 32, 32, 0xed9f7c3bdb0eac04u },
	{ 128, 128, 27, 19, 19, 0xb875d3f0150ffb41u },
	{ 32, 128, 32, 32, 32, 0xe409de4f5309a685u },
	{ 32, 128, 57, 57, 57, 0xd64a974bf18d83c2u },
	{ 128, 128, 61, 38, 38, 0x1046a5ec03b5e849u },
	{ 32, 128, 27, 26, 24, 0xb0f16bf9af9be8f5u },
	{ 1, 32, 15, 7, 7, 0x518743124dead653u },
	{ 32, 128, 64, 20, 5, 0xead73e7719ccd9a5u },
	{ 32, 128, 32, 32, 32, 0x5ffe0c4bcc2d8614u },
	{ 32, 128, 1, 1, 1, 0x217f16cbd1687205u },
	{ 32, 128, 32, 32, 32, 0x84ab3246e7cdfb5bu },
	{ 128, 128, 49, 27, 27, 0x7d833d931876b700u },
	{ 32, 128, 32, 17, 5, 0x593c51d82fccad25u },
	{ 64, 256, 38, 38, 38, 0x5d48b7fb7761ae9fu },
	{ 1, 32, 35, 35, 33, 0xdb236e764444189bu },
	{ 64, 256, 51, 41, 24, 0x194d7707fa77dde9u },
	{ 32, 128, 27, 3, 3, 0x98b10c1a0ae61322u },
	{ 128, 128, 64, 5, 5, 0x344e7f9b12f359a5u },
	{ 32, 128, 32, 32, 32, 0x6bbcbd5f7915217eu },
	{ 64, 256, 1, 1, 1, 0x197016d8545ede44u },
	{ 32, 128, 32, 32, 32, 0xae6116d0f6b56fe0u },
	{ 1, 32, 57, 56, 43, 0x67aafad695da105eu },
	{ 64, 256, 32, 32, 32, 0x77f00a71996ba025u },
	{ 1, 32, 32, 32, 32, 0x1559eb6e8c7b6bb0u },
	{ 64, 256, 26, 23, 18, 0xfcc9c7c7acb13528u },
	{ 128, 128, 33, 28, 28, 0x536782ad51d8552fu },
	{ 32, 128, 9, 4, 4, 0xb7f92119baeb9260u },
	{ 32, 128, 64, 20, 5, 0x8bad5a60f81cb9a5u },
	{ 32, 128, 32, 31, 31, 0x98204dd96f20e46au },
	{ 128, 128, 1, 1, 1, 0x8e89b744c68d5766u },
	{ 64, 256, 194, 193, 191, 0xeaad8910ced3c56fu },
	{ 128, 128, 21, 16, 16, 0x16bcfe96b6b5127bu },
	{ 1, 32, 32, 32, 32, 0x3900d8ed4a772385u },
	{ 32, 128, 26, 26, 26, 0xed549ac7a8abb819u },
	{ 32, 128, 56, 48, 35, 0x4c77319eebe7aa58u },
	{ 32, 128, 44, 41, 36, 0xfeab426067e0d31cu },
	{ 32, 128, 2, 2, 2, 0xcc0a3d7a2b332204u },
	{ 32, 128, 64, 20, 5, 0x234da21a25a299a5u },
	{ 32, 128, 32, 31, 31, 0x67df9d8b49c738a6u },
	{ 32, 128, 1, 1, 1, 0x9e3d2ecc8b5b2880u },
	{ 32, 128, 32, 32, 32, 0xbb2840006f6539b4u },
	{ 128, 128, 30, 18, 18, 0x6a0a63a0c548cc7eu },
	{ 32, 128, 32, 32, 32, 0xebef9bf120a17b45u },
	{ 64, 256, 49, 49, 49, 0x1a17bd321564a106u },
	{ 64, 256, 35, 30, 22, 0x8084e347dc62c1e6u },
	{ 1, 32, 34, 34, 32, 0x655d06cae1d995b2u },
	{ 128, 128, 19, 2, 2, 0x8dfbe7dfb20cb70bu },
	{ 1, 32, 64, 64, 20, 0x8a7f5f97853779a5u },
	{ 32, 128, 32, 32, 31, 0x040c910b7c8e71ddu },
	{ 128, 128, 1, 1, 1, 0x6fa42b8661703454u },
	{ 32, 128, 32, 32, 32, 0x8df4033c6c95849cu },
	{ 32, 128, 27, 25, 18, 0xe20ba290be7fe793u },
	{ 1, 32, 32, 32, 32, 0x2c198f5bfe4a0745u },
	{ 32, 128, 27, 27, 27, 0x3d1a128ed0033fd0u },
	{ 1, 32, 53, 53, 46, 0xd95569e01042378bu },
	{ 32, 128, 8, 8, 8, 0x0525011a1b6f5773u },
	{ 32, 128, 45, 2, 2, 0xcc23f9e14b9b4b56u },
	{ 64, 256, 64, 10, 3, 0x5818f98e51e4f9a5u },
	{ 128, 128, 32, 31, 31, 0x6d1957e6b77a2f62u },
	{ 1, 32, 1, 1, 1, 0xfe84111eb0d06b55u },
	{ 64, 256, 32, 32, 16, 0x2282c306e801c057u },
	{ 64, 256, 25, 21, 14, 0xa88053c36981d5f7u },
	{ 1, 32, 32, 32, 8, 0x77af6dd8547cc325u },
	{ 32, 128, 55, 55, 55, 0x427abdb7ee603808u },
	{ 64, 256, 36, 27, 21, 0x97587a31a5fa1649u },
	{ 128, 128, 42, 30, 30, 0x43107b145c877dc5u },
	{ 32, 128, 15, 6, 6, 0x9f88e701bb865393u },
	{ 32, 128, 64, 20, 5, 0x60e263b03c5c19a5u },
	{ 128, 128, 32, 31, 31, 0x0147dfb647d70d6fu },
	{ 32, 128, 1, 1, 1, 0x90b25b7e0dfdba22u },
	{ 64, 256, 268, 264, 256, 0xcac43c3820cbf2c0u },
	{ 128, 128, 49, 27, 27, 0xef7f724604f68817u },
	{ 1, 32, 32, 32, 9, 0x150cd7c17ba9ba05u },
	{ 32, 128, 21, 21, 21, 0x00196da50382b4ebu },
	{ 128, 128, 58, 40, 40, 0x35d890dd3c357113u },
	{ 64, 256, 61, 50, 26, 0xfe2d6b36ac1adaeeu },
	{ 32, 128, 33, 3, 3, 0xce4c59c5a25bb252u },
	{ 1, 32, 64, 64, 20, 0x377af880ae0079a5u },
	{ 32, 128, 32, 30, 29, 0x77cd2b11ba757d3fu },
	{ 32, 128, 1, 1, 1, 0x92067cb09e05b078u },
	{ 64, 256, 32, 32, 16, 0x54c81196f34beee6u },
	{ 32, 128, 35, 28, 21, 0xe0511b8638fe613eu },
	{ 32, 128, 32, 32, 32, 0x2305cba7b9a6d8a5u },
	{ 32, 128, 16, 16, 16, 0x4bac87577971d364u },
	{ 32, 128, 15, 14, 14, 0x4aaf4f7ea241bc29u },
	{ 64, 256, 32, 29, 20, 0x6f48be748856fa72u },
	{ 32, 128, 49, 1, 1, 0x26bb6af864953c3bu },
	{ 32, 128, 64, 20, 5, 0x69cd5342918ab9a5u },
	{ 1, 32, 32, 32, 32, 0xa5c637e69a709a6au },
	{ 64, 256, 1, 1, 1, 0x1f702b6a903902d8u },
	{ 32, 128, 32, 32, 32, 0x1d6e216a01e8c180u },
	{ 32, 128, 28, 26, 20, 0x86a86876026c1248u },
	{ 32, 128, 32, 32, 32, 0xbbd269d555ec4da5u },
	{ 32, 128, 22, 22, 22, 0x444216cdf886e58cu },
	{ 128, 128, 12, 10, 10, 0xe00c90ee4cbc0fc2u },
	{ 32, 128, 5, 5, 5, 0x25f0074bb48f3cf4u },
	{ 1, 32, 25, 3, 3, 0x943e94979c55f021u },
	{ 1, 32, 64, 64, 20, 0x8abf37f8505d19a5u },
	{ 32, 128, 32, 32, 32, 0x1b12a24c9b6b11b1u },
	{ 1, 32, 1, 1, 1, 0x30be56d4bbbf8d76u },
	{ 32, 128, 32, 32, 32, 0x500f3f25e553061cu },
	{ 128, 128, 48, 23, 23, 0xa2c7cd165795a126u },
	{ 32, 128, 32, 16, 4, 0x89e34d0ff05a2325u },
	{ 1, 32, 9, 9, 9, 0xef5648c5e4868b0fu },
	{ 128, 128, 39, 27, 27, 0xd112594344ec377bu },
	{ 32, 128, 19, 18, 17, 0xc3a342b9a570ff5fu },
	{ 32, 128, 5, 5, 5, 0xed807a286295eddcu },
	{ 128, 128, 64, 5, 5, 0x35e42684e19079a5u },
	{ 32, 128, 32, 32, 31, 0x1ff4d2081df83a77u },
	{ 32, 128, 1, 1, 1, 0x2385a323331a49ecu },
	{ 32, 128, 290, 288, 282, 0xdcbbfcf2f91870fcu },
	{ 32, 128, 50, 40, 28, 0x5a89a058ce12e398u },
	{ 64, 256, 32, 3, 2, 0xfcfb860a93660aa5u },
	{ 128, 128, 23, 23, 23, 0x54093d1962a3b631u },
	{ 64, 256, 14, 14, 12, 0x8668696428e06d91u },
	{ 1, 32, 14, 14, 14, 0x23bf45fc8d81a833u },
	{ 1, 32, 9, 5, 5, 0x9abcec541a39bf72u },
	{ 32, 128, 64, 20, 5, 0x73e1d107511039a5u },
	{ 32, 128, 32, 32, 32, 0x2caa898daf326c0au },
	{ 128, 128, 1, 1, 1, 0xe32c117e2b7dbe2cu },
	{ 1, 32, 32, 32, 32, 0x61bc9dd4d741664eu },
	{ 1, 32, 62, 62, 49, 0xfb0710c2c1f9e1a3u },
	{ 1, 32, 32, 32, 32, 0xc32a20c387175585u },
	{ 128, 128, 17, 17, 17, 0x678f6d83c19eec84u },
	{ 128, 128, 47, 32, 32, 0x55e3bff925038312u },
	{ 128, 128, 14, 12, 12, 0x0137959c6c838b49u },
	{ 32, 128, 58, 1, 1, 0x74fd945c255b89edu },
	{ 32, 128, 64, 20, 5, 0x225fcb0e306679a5u },
	{ 32, 128, 32, 31, 30, 0xf3b83e12049f4c6du },
	{ 128, 128, 1, 1, 1, 0x827bdd210b1be219u },
	{ 32, 128, 32, 32, 32, 0xf74fb529d66e0baeu },
	{ 32, 128, 61, 45, 22, 0x31900b9e5fd11ed3u },
	{ 64, 256, 32, 32, 32, 0x26963f6541b49ac5u },
	{ 128, 128, 58, 58, 58, 0x3588bf3ac4bf965bu },
	{ 64, 256, 55, 45, 25, 0xe395614e0ae4efe2u },
	{ 1, 32, 20, 20, 19, 0x0bc13c403ac2c1f8u },
	{ 32, 128, 2, 1, 1, 0x92c45dc547c8f4d7u },
	{ 64, 256, 64, 10, 3, 0x1245aed44243f9a5u },
	{ 32, 128, 32, 32, 31, 0x761117a525e80373u },
	{ 1, 32, 1, 1, 1, 0x9104c32c94c8e7dfu },
	{ 64, 256, 32, 32, 16, 0xd702830957727e8au },
};

/* per case, its pyset order as indices into its first-touch order */
static const uint16_t gen_pyset[11219] = {
	0, 3, 1, 4, 2, 5, 6, 7, 8, 9, 10, 12, 11,
	29, 15, 16, 1, 2, 0, 3, 4, 5, 6, 7, 20, 25, 11, 24, 28, 19, 10, 23, 14, 27,
	31, 18, 9, 22, 26, 13, 17, 30, 21, 8, 12,
	0, 3, 2, 1, 4, 7, 6, 5, 8, 9, 11, 12, 13, 14, 17, 18, 30, 40, 52, 37, 53, 27,
	32, 49, 54, 28, 16, 26, 47, 34, 55, 25, 51, 29, 31, 10, 24, 23, 45, 36, 43,
	46, 35, 33, 22, 42, 20, 21, 19, 38, 39, 41, 56, 50, 44, 48, 15,
	36, 20, 27, 16, 13, 15, 11, 1, 4, 3, 2, 0, 5, 32, 33, 17, 30, 39, 40, 24, 41,
	38, 43, 35, 12, 29, 44, 8, 34, 18, 10, 31, 7, 14, 23, 37, 21, 26, 9, 25, 6,
	19, 42, 28, 22,
	0, 1, 7, 8, 10, 13, 17, 18, 16, 19, 21, 37, 20, 35, 36, 33, 22, 24, 34, 4, 3,
	2, 5, 6, 9, 11, 12, 14, 15, 25, 30, 32, 31, 29, 23, 28, 27, 26,
	0, 2, 3, 1, 4,
	0, 4, 8, 12, 16, 1, 5, 9, 13, 17, 2, 6, 10, 14, 18, 3, 7, 11, 15, 19,
	0, 3, 5, 7, 8, 9, 15, 22, 29, 6, 18, 20, 26, 28, 1, 17, 10, 13, 23, 24, 30, 4,
	2, 16, 14, 11, 12, 19, 21, 25, 27,
	0,
	18, 26, 28, 29, 80, 101, 131, 137, 144, 149, 123, 62, 6, 14, 50, 52, 68, 65,
	94, 102, 107, 155, 125, 38, 40, 81, 106, 120, 156, 158, 54, 61, 19, 30, 42,
	43, 113, 117, 132, 139, 154, 161, 130, 8, 70, 77, 86, 121, 136, 142, 159, 151,
	0, 5, 9, 10, 59, 36, 78, 89, 97, 99, 146, 152, 63, 7, 53, 66, 69, 83, 104,
	109, 114, 134, 119, 56, 15, 20, 24, 32, 60, 44, 95, 96, 105, 153, 16, 21, 37,
	108, 115, 141, 145, 148, 166, 124, 58, 17, 57, 34, 46, 47, 51, 49, 85, 87,
	112, 27, 35, 55, 79, 82, 90, 98, 100, 110, 164, 127, 135, 13, 33, 73, 71, 126,
	147, 140, 165, 162, 1, 11, 22, 25, 75, 41, 67, 39, 91, 128, 138, 143, 4, 12,
	31, 48, 157, 163, 122, 160, 23, 45, 84, 88, 116, 129, 133, 150, 118, 76, 74,
	64, 3, 2, 72, 92, 93, 103, 111,
	0, 1, 4, 3, 2, 5, 6, 7, 8, 9, 16, 21, 15, 18, 19, 24, 11, 17, 10, 23, 22, 12,
	20, 13, 14,
	14, 18, 0, 1, 2, 4, 3, 5, 6, 7, 15, 16, 17, 19, 20, 21, 22, 23, 8, 24, 31, 9,
	25, 10, 26, 11, 27, 12, 28, 13, 29, 30,
	30, 14, 20, 6, 19, 7, 12, 21, 26, 38, 44, 49, 50, 48, 43, 1, 15, 17, 3, 8, 29,
	31, 4, 36, 37, 42, 45, 51, 2, 0, 18, 9, 13, 16, 23, 24, 25, 28, 32, 35, 47,
	10, 22, 27, 5, 11, 33, 34, 39, 40, 41, 46, 52, 53,
	2, 1, 3, 4, 0, 5, 6, 7, 8,
	11, 0, 1, 8, 9, 15, 17, 20, 21, 22, 24, 25, 31, 29, 43, 12, 28, 40, 2, 4, 3,
	5, 6, 7, 10, 14, 16, 18, 13, 26, 30, 32, 35, 23, 33, 27, 34, 42, 38, 39, 37,
	36, 41, 19,
	0, 1, 3, 4, 2,
	0, 1, 4, 2, 3,
	0, 1, 4, 3, 2, 5, 6, 7, 8, 9, 12, 16, 21, 22, 13, 26, 29, 20, 28, 17, 25, 19,
	10, 18, 11, 23, 30, 27, 15, 24, 14,
	0,
	13, 14, 12, 15, 10, 18, 16, 19, 21, 23, 29, 11, 24, 0, 1, 4, 3, 2, 5, 6, 7, 8,
	9, 30, 31, 28, 27, 26, 25, 22, 20, 17,
	0, 4, 1, 2, 3, 5, 6, 7, 8, 9, 11, 15, 16, 12, 14, 13, 10,
	3, 7, 15, 11, 19, 23, 27, 31, 2, 6, 18, 14, 10, 22, 26, 30, 1, 5, 9, 17, 13,
	21, 25, 29, 4, 0, 8, 16, 12, 20, 24, 28,
	1, 17, 5, 20, 16, 11, 24, 6, 10, 14, 26, 31, 33, 2, 37, 4, 13, 22, 21, 29, 32,
	38, 34, 35, 25, 39, 7, 40, 8, 9, 18, 27, 30, 42, 3, 36, 12, 19, 23, 0, 15, 28,
	41,
	3, 4, 1, 2, 0, 5,
	5, 3, 7, 4, 6, 1, 2, 0,
	0,
	0, 4, 8, 12, 16, 1, 5, 9, 13, 17, 2, 6, 10, 14, 18, 3, 7, 11, 15, 19,
	7, 14, 11, 13, 15, 21, 29, 30, 0, 2, 3, 4, 9, 10, 17, 18, 12, 19, 22, 20, 1,
	6, 8, 24, 5, 16, 23, 25, 26, 27, 28, 31,
	0,
	8, 9, 10, 18, 16, 24, 2, 5, 7, 12, 19, 21, 23, 27, 29, 3, 4, 13, 15, 11, 17,
	20, 22, 0, 1, 6, 14, 25, 26, 28, 30, 31,
	18, 19, 13, 0, 14, 29, 23, 9, 16, 12, 3, 25, 6, 15, 4, 22, 2, 10, 21, 7, 26,
	31, 32, 20, 28, 27, 11, 8, 30, 24, 33, 5, 17, 1,
	0, 2, 4, 3, 1, 5, 6, 7, 8, 9, 28, 29, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18,
	17, 16, 15, 14, 13, 12, 11, 10, 30, 31,
	6, 0, 8, 7, 10, 5, 3, 4, 2, 1, 9, 11, 16, 17, 21, 22, 38, 45, 50, 44, 49, 51,
	20, 53, 12, 18, 35, 28, 26, 24, 48, 42, 46, 36, 40, 37, 30, 32, 54, 43, 34,
	39, 27, 13, 23, 14, 31, 33, 15, 55, 47, 41, 19, 52, 25, 29,
	40, 47, 7, 41, 21, 53, 22, 45, 15, 44, 27, 24, 6, 51, 13, 31, 43, 19, 33, 18,
	39, 28, 8, 10, 34, 14, 25, 29, 50, 54, 12, 46, 17, 42, 0, 5, 38, 48, 23, 3,
	26, 20, 49, 11, 9, 36, 4, 32, 1, 16, 52, 2, 35, 37, 30,
	1, 0, 3, 2, 4, 5,
	0, 2, 1,
	0, 32, 40, 48, 1, 56, 2, 3, 4, 33, 41, 49, 5, 57, 6, 7, 8, 34, 42, 50, 9, 58,
	10, 11, 12, 35, 43, 51, 13, 59, 14, 15, 16, 36, 44, 52, 17, 60, 18, 19, 20,
	37, 45, 53, 21, 61, 22, 23, 24, 38, 46, 54, 25, 62, 26, 27, 28, 39, 47, 55,
	29, 63, 30, 31,
	2, 10, 15, 18, 21, 23, 31, 3, 4, 8, 9, 12, 17, 19, 20, 24, 0, 16, 13, 22, 25,
	26, 27, 30, 1, 5, 6, 7, 14, 11, 28, 29,
	0,
	6, 12, 18, 25, 28, 2, 8, 13, 15, 11, 10, 16, 20, 24, 27, 1, 5, 14, 19, 22, 29,
	30, 31, 0, 3, 4, 7, 9, 17, 21, 23, 26,
	0, 2, 3, 1, 4, 5, 6, 8, 12, 14, 25, 15, 22, 27, 7, 9, 13, 18, 11, 17, 10, 20,
	21, 24, 16, 28, 19, 23, 26,
	22, 1, 2, 4, 6, 8, 10, 12, 14, 16, 18, 26, 30, 21, 25, 29, 20, 3, 0, 5, 7, 9,
	11, 13, 15, 17, 19, 24, 28, 23, 27, 31,
	5, 21, 49, 29, 46, 30, 7, 15, 25, 50, 17, 34, 36, 37, 14, 16, 28, 48, 4, 26,
	33, 0, 27, 39, 32, 10, 31, 23, 13, 52, 3, 22, 9, 41, 12, 40, 2, 44, 45, 19, 1,
	47, 6, 24, 38, 42, 43, 11, 20, 35, 8, 51, 18,
	2, 1, 4, 3, 0,
	9, 11, 14, 5, 34, 35, 31, 25, 17, 18, 6, 13, 4, 19, 28, 32, 12, 29, 8, 10, 3,
	22, 21, 30, 2, 27, 15, 36, 0, 24, 20, 1, 7, 26, 33, 23, 16,
	0, 3, 2, 4, 1, 5, 6,
	0, 4, 8, 12, 16, 1, 5, 9, 13, 17, 2, 6, 10, 14, 18, 3, 7, 11, 15, 19,
	0, 2, 8, 14, 21, 28, 4, 7, 9, 17, 15, 23, 30, 29, 5, 6, 12, 11, 16, 19, 22,
	24, 25, 27, 3, 1, 18, 13, 10, 20, 26, 31,
	0,
	11, 74, 63, 32, 64, 71, 59, 52, 77, 80, 115, 147, 82, 139, 144, 169, 135, 118,
	116, 175, 106, 172, 131, 150, 42, 49, 70, 26, 44, 48, 2, 4, 14, 67, 149, 164,
	167, 89, 109, 34, 84, 124, 62, 166, 8, 9, 10, 61, 36, 76, 25, 78, 85, 125,
	161, 174, 104, 159, 168, 162, 130, 126, 151, 55, 57, 27, 35, 3, 75, 69, 66,
	79, 81, 83, 128, 129, 141, 153, 120, 96, 157, 40, 163, 112, 136, 94, 155, 1,
	5, 13, 46, 65, 37, 51, 53, 60, 68, 90, 123, 93, 152, 87, 170, 127, 86, 122,
	102, 73, 22, 50, 72, 30, 43, 6, 7, 15, 19, 107, 91, 138, 177, 121, 132, 156,
	165, 180, 117, 108, 148, 142, 113, 29, 114, 20, 100, 145, 0, 18, 16, 41, 58,
	21, 47, 23, 28, 31, 134, 101, 140, 137, 146, 133, 110, 97, 88, 179, 171, 173,
	143, 176, 56, 45, 12, 17, 39, 24, 54, 95, 98, 99, 160, 33, 92, 103, 154, 111,
	158, 119, 105, 38, 178,
	0, 1, 2, 4, 3, 7, 8, 14, 18, 11, 5, 6, 9, 12, 17, 13, 15, 10, 19, 16,
	19, 20, 21, 22, 23, 24, 25, 26, 10, 18, 4, 2, 3, 0, 1, 5, 6, 7, 27, 28, 29,
	30, 31, 8, 9, 11, 12, 13, 14, 15, 16, 17,
	28, 18, 7, 0, 6, 14, 17, 15, 11, 22, 23, 24, 26, 34, 41, 44, 59, 33, 42, 50,
	40, 45, 53, 51, 48, 29, 52, 36, 43, 9, 5, 8, 10, 2, 16, 12, 4, 3, 1, 19, 20,
	27, 30, 31, 32, 37, 57, 63, 54, 25, 13, 55, 38, 62, 56, 46, 47, 21, 61, 58,
	35, 39, 49, 60,
	1, 3, 2, 4, 0, 5,
	13, 0, 2, 7, 10, 17, 11, 19, 20, 21, 23, 24, 1, 3, 4, 5, 6, 8, 9, 12, 15, 16,
	18, 22, 14,
	0, 2, 3, 1, 4,
	0, 2, 3, 1, 4, 5, 6, 7, 8, 9,
	7, 20, 24, 4, 28, 0, 26, 31, 5, 11, 14, 29, 13, 3, 15, 17, 23, 21, 2, 16, 10,
	18, 12, 22, 6, 30, 27, 9, 8, 19, 1, 25,
	0,
	2, 4, 6, 13, 15, 12, 16, 19, 20, 23, 30, 28, 1, 9, 11, 10, 0, 7, 8, 18, 17,
	22, 24, 27, 29, 31, 3, 5, 14, 21, 25, 26,
	0, 2, 4, 1, 3, 5, 6, 7, 8, 9, 11, 12, 14, 13, 10, 15,
	15, 3, 7, 11, 19, 23, 27, 31, 14, 2, 6, 10, 18, 22, 26, 30, 17, 13, 1, 5, 9,
	21, 25, 29, 12, 4, 0, 8, 16, 20, 24, 28,
	6, 8, 9, 19, 15, 4, 2, 1, 7, 12, 21, 22, 24, 25, 29, 32, 37, 34, 46, 40, 48,
	55, 38, 56, 30, 47, 28, 0, 5, 14, 13, 17, 10, 3, 11, 16, 18, 23, 26, 27, 36,
	41, 57, 33, 45, 53, 20, 39, 31, 49, 50, 35, 54, 44, 51, 52, 42, 43,
	12, 1, 2, 24, 6, 13, 7, 5, 18, 28, 30, 33, 32, 16, 21, 25, 9, 4, 19, 0, 36,
	22, 34, 35, 3, 10, 31, 29, 23, 14, 26, 15, 17, 27, 11, 20, 8,
	2, 0, 3, 4, 1, 5, 6, 7, 8,
	0,
	0, 4, 8, 12, 16, 1, 5, 9, 13, 17, 2, 6, 10, 14, 18, 3, 7, 11, 15, 19,
	5, 6, 7, 12, 16, 18, 10, 19, 23, 29, 0, 3, 9, 15, 24, 2, 4, 8, 13, 17, 11, 22,
	26, 27, 1, 14, 20, 21, 25, 28, 30, 31,
	0,
	4, 11, 10, 24, 25, 29, 3, 1, 2, 5, 14, 12, 18, 17, 16, 28, 6, 8, 13, 21, 23,
	26, 27, 30, 31, 0, 7, 9, 15, 19, 20, 22,
	6, 26, 15, 7, 19, 11, 12, 28, 1, 21, 5, 10, 29, 20, 25, 0, 2, 18, 8, 17, 30,
	23, 14, 4, 13, 27, 16, 24, 22, 9, 3,
	13, 4, 1, 0, 2, 3, 5, 6, 7, 8, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
	26, 27, 28, 29, 30, 31, 9, 10, 11, 12,
	2, 0, 5, 8, 10, 12, 4, 1, 3, 6, 7, 9, 11, 14, 13,
	4, 2, 1, 3, 0, 5, 6, 7, 8, 9,
	6, 0, 2, 7, 8, 9, 12, 14, 18, 20, 21, 22, 25, 28, 36, 42, 43, 30, 31, 45, 35,
	26, 23, 40, 37, 32, 47, 34, 3, 1, 4, 5, 10, 15, 16, 17, 11, 13, 24, 27, 29,
	38, 39, 19, 46, 44, 41, 33,
	1, 0, 2,
	0, 4, 8, 12, 16, 1, 5, 9, 13, 17, 2, 6, 10, 14, 18, 3, 7, 11, 15, 19,
	0, 1, 8, 10, 29, 2, 4, 3, 14, 19, 24, 28, 5, 6, 7, 9, 12, 15, 16, 22, 23, 27,
	17, 13, 11, 18, 20, 21, 25, 26, 30, 31,
	0,
	0, 1, 2, 7, 8, 9, 14, 15, 11, 10, 29, 27, 26, 24, 22, 19, 16, 3, 4, 5, 6, 13,
	12, 18, 17, 20, 21, 30, 31, 28, 25, 23,
	0, 6, 8, 12, 14, 19, 20, 24, 25, 26, 1, 3, 11, 13, 27, 30, 32, 34, 5, 10, 17,
	18, 22, 23, 29, 31, 33, 4, 2, 7, 9, 15, 16, 21, 28,
	2, 0, 3, 1,
	3, 4, 2, 5, 7, 0, 1, 6, 8, 9, 10, 11, 12, 13, 17, 20, 25, 27, 14, 19, 21, 24,
	23, 15, 22, 28, 18, 16, 26, 29,
	11, 1, 4, 2, 3, 0, 5, 6, 7, 8, 9, 12, 10,
	0, 1, 4, 2, 3, 5, 6, 7, 8, 9, 12, 14, 19, 24, 15, 20, 31, 21, 29, 17, 28, 23,
	26, 10, 18, 27, 32, 16, 13, 25, 30, 11, 22,
	0, 1, 3, 2,
	0, 4, 8, 12, 16, 1, 5, 9, 13, 17, 2, 6, 10, 14, 18, 3, 7, 11, 15, 19,
	0, 3, 2, 1, 4, 5, 6, 7, 8, 9, 10, 11, 15, 16, 30, 25, 18, 23, 20, 14, 21, 28,
	12, 13, 31, 22, 26, 29, 24, 27, 17, 19,
	0,
	7, 17, 14, 70, 45, 43, 59, 62, 27, 72, 138, 108, 125, 107, 150, 130, 79, 26,
	67, 50, 66, 4, 6, 10, 16, 24, 25, 65, 91, 133, 77, 128, 142, 94, 148, 58, 95,
	64, 143, 60, 151, 2, 47, 49, 44, 57, 75, 21, 81, 82, 84, 113, 87, 126, 97,
	149, 132, 127, 42, 63, 71, 39, 0, 1, 12, 19, 34, 74, 110, 86, 112, 96, 104,
	120, 99, 35, 11, 15, 68, 32, 41, 53, 22, 30, 31, 38, 134, 118, 101, 78, 111,
	116, 137, 122, 140, 109, 105, 121, 29, 46, 76, 55, 8, 18, 69, 80, 90, 92, 119,
	103, 144, 117, 129, 123, 100, 136, 131, 20, 124, 146, 3, 5, 9, 13, 28, 23, 51,
	52, 56, 61, 102, 114, 135, 147, 141, 40, 37, 33, 36, 48, 73, 54, 83, 85, 88,
	93, 106, 139, 152, 145, 98, 115, 89,
	0, 4, 3, 2, 1, 5, 6, 7, 8,
	3, 19, 4, 20, 5, 21, 6, 22, 7, 23, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13,
	29, 2, 14, 30, 15, 31, 0, 16, 1, 17, 18,
	7, 16, 22, 18, 5, 23, 24, 26, 32, 3, 2, 25, 1, 9, 27, 30, 31, 11, 13, 21, 4,
	8, 0, 12, 28, 29, 10, 17, 6, 14, 20, 15, 19, 33,
	7, 18, 11, 13, 14, 15, 4, 2, 1, 3, 0, 21, 19, 24, 6, 20, 10, 23, 17, 16, 22,
	8, 5, 12, 9,
	1, 0, 2, 3, 4, 5, 6, 7,
	0, 3, 4, 1, 2, 5,
	0, 4, 8, 12, 16, 1, 5, 9, 13, 17, 2, 6, 10, 14, 18, 3, 7, 11, 15, 19,
	4, 8, 10, 12, 13, 29, 30, 2, 6, 9, 18, 14, 19, 24, 27, 1, 16, 20, 21, 22, 23,
	26, 0, 3, 5, 7, 11, 17, 15, 25, 28,
	0,
	9, 6, 0, 4, 15, 29, 28, 16, 25, 8, 23, 20, 10, 12, 3, 19, 27, 22, 26, 17, 30,
	1, 5, 31, 14, 11, 21, 24, 13, 2, 7, 18,
	0, 3, 2, 1,
	4, 1, 2, 0, 3,
	7, 4, 5, 6, 2, 8, 1, 3, 0, 9, 10, 11, 15, 16, 17, 19, 20, 33, 40, 41, 47, 52,
	26, 27, 39, 57, 37, 49, 22, 18, 31, 23, 45, 62, 28, 25, 34, 51, 36, 12, 60,
	32, 29, 50, 48, 58, 55, 35, 56, 61, 38, 30, 21, 42, 13, 59, 53, 46, 43, 44,
	24, 54, 14,
	1, 2, 0, 3,
	12, 2, 7, 8, 13, 16, 27, 31, 41, 45, 46, 44, 9, 5, 18, 19, 20, 28, 36, 39, 40,
	38, 43, 26, 42, 1, 17, 11, 25, 30, 32, 33, 34, 35, 37, 29, 0, 3, 4, 6, 10, 14,
	15, 21, 22, 23, 24,
	2, 0, 5, 3, 1, 4,
	0, 1, 3, 2, 4,
	5, 6, 9, 11, 12, 17, 14, 19, 20, 22, 24, 26, 8, 25, 28, 30, 4, 3, 1, 18, 13,
	15, 21, 31, 0, 2, 7, 10, 16, 23, 27, 29,
	0,
	17, 9, 7, 18, 26, 30, 19, 31, 5, 27, 28, 12, 1, 15, 4, 24, 11, 20, 13, 25, 3,
	22, 14, 2, 8, 16, 23, 0, 6, 10, 21, 29,
	0, 4, 3, 1, 2,
	17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 16, 3, 2, 0, 1, 4,
	5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
	2, 13, 18, 11, 12, 27, 16, 23, 3, 21, 9, 15, 24, 17, 10, 0, 6, 8, 4, 14, 19,
	20, 25, 1, 5, 22, 26, 7,
	4, 0, 7, 14, 17, 3, 18, 15, 20, 13, 1, 9, 12, 16, 11, 19, 2, 5, 6, 8, 10,
	1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 14, 19, 11, 26, 20, 18, 27, 15, 21, 13, 17,
	23, 16, 12, 25, 24, 29, 22, 28, 30,
	0, 3, 1, 2, 4,
	0, 4, 8, 12, 16, 1, 5, 9, 13, 17, 2, 6, 10, 14, 18, 3, 7, 11, 15, 19,
	2, 4, 3, 5, 19, 22, 23, 29, 0, 6, 9, 21, 25, 28, 1, 7, 8, 10, 12, 11, 17, 16,
	20, 26, 13, 15, 18, 14, 24, 27, 30, 31,
	0,
	12, 10, 14, 23, 30, 2, 29, 27, 7, 21, 22, 16, 9, 19, 3, 11, 6, 24, 18, 5, 13,
	17, 26, 28, 31, 4, 8, 25, 20, 1, 15, 0,
	0, 3, 1, 4, 2, 5, 6, 7, 8, 9, 13, 15, 16, 11, 17, 12, 10, 14,
	16, 15, 14, 13, 12, 11, 10, 31, 30, 29, 28, 27, 26, 25, 0, 4, 3, 1, 2, 5, 6,
	7, 8, 9, 22, 23, 21, 24, 20, 19, 18, 17,
	1, 0,
	2, 3, 1, 0,
	7, 2, 6, 9, 11, 15, 22, 30, 33, 36, 32, 25, 0, 3, 10, 18, 17, 20, 27, 34, 31,
	8, 13, 16, 12, 14, 21, 24, 26, 28, 29, 1, 4, 5, 19, 23, 35, 37,
	0, 4, 1, 3, 2, 5, 6,
	0, 32, 40, 48, 1, 56, 2, 3, 4, 33, 41, 49, 5, 57, 6, 7, 8, 34, 42, 50, 9, 58,
	10, 11, 12, 35, 43, 51, 13, 59, 14, 15, 16, 36, 44, 52, 17, 60, 18, 19, 20,
	37, 45, 53, 21, 61, 22, 23, 24, 38, 46, 54, 25, 62, 26, 27, 28, 39, 47, 55,
	29, 63, 30, 31,
	0, 1, 4, 3, 2, 5, 6, 7, 8, 9, 17, 31, 21, 20, 22, 12, 14, 19, 15, 23, 27, 30,
	18, 26, 28, 11, 29, 10, 16, 24, 25, 13,
	0,
	4, 11, 16, 37, 68, 58, 62, 112, 115, 138, 140, 116, 67, 8, 25, 27, 56, 85, 92,
	95, 105, 121, 75, 32, 76, 93, 132, 142, 153, 35, 63, 61, 14, 19, 59, 45, 99,
	103, 114, 102, 31, 41, 71, 65, 78, 98, 101, 111, 146, 148, 145, 149, 108, 50,
	5, 40, 77, 96, 129, 143, 135, 74, 0, 2, 42, 43, 53, 49, 89, 94, 109, 139, 3,
	20, 91, 110, 125, 131, 141, 120, 147, 7, 15, 28, 38, 66, 81, 88, 104, 128,
	151, 17, 10, 12, 23, 24, 69, 33, 44, 106, 107, 123, 55, 54, 26, 86, 87, 90,
	97, 118, 126, 48, 36, 29, 122, 134, 137, 124, 117, 64, 18, 46, 34, 39, 72, 79,
	80, 84, 119, 144, 52, 22, 30, 47, 73, 83, 100, 113, 127, 136, 150, 152, 60,
	70, 57, 51, 1, 6, 9, 13, 21, 82, 130, 133,
	1, 2, 4, 6, 12, 10, 13, 24, 29, 30, 15, 18, 11, 22, 25, 26, 31, 32, 34, 39,
	43, 0, 7, 9, 17, 19, 27, 28, 36, 37, 38, 40, 41, 33, 42, 3, 5, 8, 14, 16, 20,
	21, 23, 35,
	0, 2, 3, 1, 4, 5, 6, 7, 8, 9, 28, 29, 30, 31, 10, 11, 12, 13, 14, 15, 16, 17,
	18, 19, 20, 21, 22, 23, 24, 25, 26, 27,
	5, 2, 0, 4, 3, 1, 6, 7, 8, 9,
	37, 21, 11, 4, 0, 6, 7, 12, 17, 22, 24, 25, 26, 34, 33, 29, 31, 32, 43, 35,
	23, 40, 30, 42, 20, 41, 16, 13, 3, 2, 1, 5, 8, 9, 10, 14, 19, 44, 28, 36, 38,
	18, 39, 15, 27,
	4, 1, 6, 7, 17, 16, 18, 11, 19, 21, 32, 45, 40, 0, 3, 8, 14, 24, 27, 30, 39,
	43, 46, 47, 34, 48, 36, 5, 9, 13, 15, 20, 22, 23, 26, 28, 29, 33, 35, 44, 42,
	10, 2, 12, 25, 31, 37, 38, 49, 41,
	0, 4, 2, 1, 3,
	0, 32, 40, 48, 1, 56, 2, 3, 4, 33, 41, 49, 5, 57, 6, 7, 8, 34, 42, 50, 9, 58,
	10, 11, 12, 35, 43, 51, 13, 59, 14, 15, 16, 36, 44, 52, 17, 60, 18, 19, 20,
	37, 45, 53, 21, 61, 22, 23, 24, 38, 46, 54, 25, 62, 26, 27, 28, 39, 47, 55,
	29, 63, 30, 31,
	6, 9, 18, 21, 22, 23, 24, 27, 31, 0, 2, 3, 1, 7, 12, 25, 28, 8, 16, 17, 15,
	13, 10, 29, 4, 5, 14, 11, 19, 20, 26, 30,
	0,
	1, 2, 13, 10, 24, 25, 31, 5, 9, 12, 11, 17, 16, 19, 21, 28, 30, 0, 3, 6, 14,
	18, 22, 23, 26, 29, 4, 7, 8, 15, 20, 27,
	35, 5, 12, 52, 4, 31, 43, 22, 46, 13, 21, 45, 53, 18, 37, 47, 17, 3, 34, 6,
	51, 16, 28, 0, 41, 2, 8, 10, 40, 38, 1, 19, 24, 48, 20, 32, 44, 42, 49, 15,
	26, 11, 25, 23, 50, 7, 27, 30, 36, 14, 33, 9, 39, 29,
	4, 0, 1, 2, 3,
	3, 5, 4, 0, 1, 7, 2, 6, 8, 9, 10, 11, 12, 13, 16, 21, 22, 14, 27, 23, 17, 32,
	31, 15, 26, 30, 20, 28, 19, 29, 18, 24, 25,
	13, 15, 11, 1, 3, 2, 4, 0, 5, 6, 7, 8, 9, 10, 12, 14,
	1, 0, 8, 9, 10, 18, 17, 16, 14, 20, 22, 7, 2, 28, 29, 31, 36, 21, 25, 4, 13,
	15, 11, 30, 33, 34, 35, 37, 5, 3, 6, 12, 19, 23, 24, 26, 27, 32,
	0, 2, 1,
	0, 2, 1, 3, 4, 5, 6, 7, 8, 9,
	6, 20, 9, 27, 3, 17, 1, 16, 11, 13, 23, 10, 5, 7, 15, 29, 18, 26, 25, 21, 12,
	22, 31, 8, 0, 28, 30, 4, 14, 2, 19, 24,
	0,
	0, 8, 9, 13, 11, 19, 23, 28, 31, 3, 4, 2, 15, 21, 22, 25, 29, 30, 5, 6, 12,
	18, 10, 17, 16, 20, 26, 27, 1, 7, 14, 24,
	0, 2, 4, 1, 3, 5, 6, 7, 8, 9, 19, 13, 12, 26, 15, 18, 14, 16, 24, 21, 22, 17,
	20, 23, 25, 11, 10,
	0, 4, 3, 1, 2, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
	22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
	2, 7, 35, 42, 41, 54, 43, 59, 47, 38, 10, 19, 12, 23, 24, 37, 49, 56, 57, 27,
	51, 30, 1, 8, 17, 31, 40, 0, 44, 26, 6, 11, 9, 32, 22, 28, 45, 5, 48, 16, 21,
	33, 4, 14, 46, 52, 53, 58, 15, 25, 50, 55, 39, 34, 18, 13, 36, 29, 3, 20,
	3, 2, 4, 1, 0, 5,
	0, 1, 4, 2, 3, 5, 6, 7, 8, 9, 15, 21, 20, 11, 19, 12, 16, 22, 18, 17, 14, 10,
	13,
	0, 1,
	0, 4, 8, 12, 16, 1, 5, 9, 13, 17, 2, 6, 10, 14, 18, 3, 7, 11, 15, 19,
	2, 4, 6, 7, 8, 9, 17, 14, 13, 18, 29, 19, 28, 21, 31, 0, 3, 1, 5, 15, 16, 11,
	22, 23, 24, 20, 30, 27, 25, 26, 10, 12,
	0,
	3, 4, 7, 15, 12, 11, 10, 18, 16, 24, 27, 26, 5, 13, 17, 19, 23, 28, 30, 0, 1,
	2, 6, 8, 14, 20, 25, 9, 21, 22, 29, 31,
	15, 0, 9, 1, 11, 2, 5, 16, 17, 14, 7, 6, 13, 8, 4, 10, 3, 12,
	14, 30, 15, 31, 0, 16, 17, 1, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23, 8, 24,
	9, 25, 10, 26, 29, 11, 27, 12, 28, 13,
	7, 4, 9, 8, 0, 12, 3, 10, 6, 11, 14, 1, 13, 5, 2,
	2, 1, 0,
	0, 3, 4, 2, 1, 5, 6, 7, 8, 9, 13, 14, 16, 12, 15, 11, 17, 10,
	0, 2, 4, 1, 3, 5, 6,
	0, 2, 1, 4, 3, 5, 6, 7, 8, 9,
	18, 8, 0, 7, 24, 31, 2, 27, 14, 5, 10, 1, 23, 20, 13, 4, 21, 22, 6, 15, 9, 26,
	25, 19, 12, 29, 28, 3, 30, 11, 16, 17,
	0,
	164, 116, 158, 47, 42, 40, 56, 33, 63, 183, 176, 3, 86, 110, 175, 137, 37, 1,
	74, 26, 58, 20, 30, 19, 41, 45, 34, 12, 155, 16, 174, 112, 108, 119, 106, 182,
	132, 146, 28, 11, 68, 122, 25, 67, 91, 159, 192, 75, 53, 138, 171, 39, 118,
	107, 99, 136, 134, 93, 8, 115, 6, 102, 140, 142, 189, 70, 128, 72, 92, 21,
	117, 184, 188, 126, 69, 195, 139, 65, 66, 109, 104, 131, 5, 100, 71, 157, 76,
	123, 168, 89, 81, 197, 187, 114, 113, 166, 36, 85, 97, 101, 160, 165, 10, 129,
	59, 135, 103, 35, 60, 73, 148, 43, 48, 177, 27, 156, 172, 196, 51, 153, 133,
	167, 124, 52, 79, 22, 29, 31, 0, 46, 151, 180, 127, 82, 154, 2, 120, 13, 144,
	9, 64, 94, 98, 178, 194, 150, 78, 38, 17, 179, 88, 145, 23, 14, 105, 173, 190,
	87, 80, 61, 111, 96, 95, 141, 7, 18, 191, 49, 147, 152, 57, 181, 83, 149, 162,
	32, 193, 84, 130, 121, 44, 186, 4, 15, 161, 55, 143, 169, 62, 24, 77, 163, 50,
	54, 90, 185, 170, 125,
	2, 5, 11, 15, 10, 13, 16, 20, 22, 6, 18, 21, 3, 8, 12, 17, 19, 23, 0, 4, 1, 7,
	9, 14,
	31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13,
	12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
	18, 27, 34, 16, 28, 1, 10, 17, 19, 6, 33, 23, 54, 2, 20, 39, 4, 14, 40, 44, 5,
	12, 42, 7, 24, 38, 21, 49, 55, 46, 50, 3, 52, 9, 30, 22, 8, 41, 29, 48, 45, 0,
	36, 51, 32, 47, 53, 31, 37, 15, 11, 13, 25, 35, 26, 43,
	12, 4, 1, 15, 16, 20, 23, 25, 26, 30, 33, 10, 2, 0, 5, 7, 11, 13, 17, 28, 14,
	3, 6, 9, 19, 22, 24, 29, 31, 32, 8, 18, 21, 27, 34,
	20, 2, 6, 12, 16, 23, 25, 31, 33, 0, 3, 7, 9, 10, 11, 14, 17, 19, 30, 15, 5,
	8, 18, 13, 21, 24, 26, 27, 29, 36, 32, 1, 4, 22, 28, 34, 35,
	0, 4, 2, 3, 1, 5, 6,
	0, 4, 8, 12, 16, 1, 5, 9, 13, 17, 2, 6, 10, 14, 18, 3, 7, 11, 15, 19,
	7, 16, 18, 12, 11, 21, 22, 24, 25, 31, 3, 5, 9, 10, 13, 27, 29, 0, 8, 20, 23,
	26, 2, 1, 4, 6, 14, 15, 17, 19, 28, 30,
	0,
	0, 1, 3, 2, 4, 5, 6, 7, 8, 9, 29, 30, 31, 28, 27, 26, 25, 24, 23, 22, 21, 20,
	19, 18, 17, 16, 15, 14, 13, 12, 11, 10,
	4, 5, 14, 29, 30, 0, 2, 1, 6, 8, 10, 19, 22, 26, 28, 9, 16, 15, 20, 21, 25, 3,
	7, 12, 11, 17, 13, 18, 23, 24, 27,
	0, 1, 2,
	4, 40, 10, 42, 50, 8, 16, 48, 13, 11, 35, 6, 58, 18, 26, 23, 0, 43, 7, 51, 44,
	41, 37, 20, 39, 27, 47, 59, 28, 9, 3, 17, 12, 24, 25, 32, 45, 57, 61, 15, 29,
	36, 38, 46, 49, 34, 1, 19, 33, 60, 22, 55, 53, 30, 14, 21, 62, 5, 31, 2, 56,
	54, 52,
	13, 14, 2, 3, 4, 1, 0, 5, 6, 7, 8, 9, 15, 11, 12, 10,
	7, 0, 8, 13, 15, 16, 12, 19, 26, 29, 30, 10, 14, 27, 28, 6, 2, 1, 4, 5, 9, 11,
	17, 21, 23, 25, 22, 3, 18, 20, 24,
	0, 1, 4, 3, 2,
	0, 1, 3, 2, 4,
	13, 25, 11, 12, 5, 20, 28, 4, 2, 8, 30, 29, 18, 19, 16, 10, 1, 7, 27, 3, 15,
	26, 6, 23, 22, 14, 0, 24, 9, 21, 17, 31,
	0,
	3, 4, 14, 22, 29, 0, 2, 5, 7, 13, 12, 11, 10, 20, 24, 25, 1, 6, 8, 15, 16, 27,
	28, 30, 9, 18, 17, 19, 21, 23, 26, 31,
	1, 4, 6, 18, 15, 11, 16, 20, 22, 23, 32, 28, 29, 31, 33, 26, 0, 2, 3, 5, 7, 8,
	9, 10, 14, 17, 19, 21, 25, 24, 30, 12, 13, 27,
	27, 4, 2, 3, 0, 1, 5, 6, 7, 8, 9, 14, 28, 10, 29, 11, 15, 17, 18, 16, 19, 20,
	21, 22, 23, 24, 30, 25, 12, 31, 26, 13,
	15, 4, 3, 5, 0, 2, 1, 6, 7, 8, 9, 10, 12, 13, 19, 24, 27, 38, 55, 22, 21, 23,
	32, 25, 31, 50, 18, 26, 44, 41, 16, 52, 33, 54, 35, 46, 42, 47, 20, 45, 17,
	28, 37, 29, 51, 34, 39, 40, 11, 30, 36, 43, 14, 49, 53, 48,
	6, 34, 27, 10, 12, 3, 32, 15, 11, 9, 41, 0, 18, 28, 29, 30, 21, 24, 42, 19, 5,
	14, 33, 8, 23, 39, 38, 26, 37, 43, 7, 31, 17, 40, 36, 13, 22, 44, 16, 20, 25,
	35, 1, 2, 4,
	22, 4, 5, 29, 33, 34, 36, 37, 38, 40, 1, 6, 15, 17, 18, 19, 20, 24, 25, 30,
	23, 0, 2, 7, 8, 9, 10, 11, 14, 16, 21, 31, 39, 41, 3, 13, 12, 26, 27, 28, 35,
	42, 32,
	0, 1, 2,
	0, 2, 1, 3, 4, 5, 6, 7, 8, 9,
	20, 28, 6, 13, 14, 8, 18, 21, 31, 10, 27, 1, 15, 23, 7, 2, 0, 29, 9, 24, 5,
	11, 17, 4, 12, 19, 16, 22, 26, 3, 25, 30,
	0,
	4, 2, 7, 9, 13, 12, 10, 18, 17, 16, 29, 27, 24, 22, 21, 20, 0, 1, 3, 5, 6, 8,
	14, 15, 11, 19, 30, 31, 28, 26, 25, 23,
	16, 13, 6, 1, 18, 15, 4, 14, 11, 2, 12, 10, 9, 7, 5, 19, 20, 3, 21, 0, 8, 22,
	17,
	0, 1, 3, 4, 2, 5, 6, 7, 8, 9, 12, 21, 29, 30, 22, 31, 13, 14, 23, 24, 15, 16,
	25, 26, 17, 18, 27, 28, 10, 19, 20, 11,
	23, 13, 5, 4, 24, 6, 11, 1, 0, 25, 26, 30, 33, 34, 28, 35, 32, 38, 39, 41, 27,
	20, 7, 2, 8, 12, 3, 14, 9, 10, 18, 16, 17, 15, 21, 22, 29, 31, 19, 37, 36, 40,
	1, 4, 2, 3, 0, 5, 6, 7, 8, 9, 11, 10,
	1, 0, 4, 3, 2, 5, 6,
	0, 1, 2,
	0, 4, 8, 12, 16, 1, 5, 9, 13, 17, 2, 6, 10, 14, 18, 3, 7, 11, 15, 19,
	0, 18, 10, 19, 22, 24, 4, 2, 9, 11, 17, 12, 15, 27, 28, 29, 3, 1, 5, 7, 13,
	21, 25, 31, 6, 8, 16, 14, 20, 23, 26, 30,
	0,
	0, 3, 6, 44, 53, 33, 40, 41, 14, 21, 82, 211, 153, 106, 151, 144, 218, 80,
	173, 180, 28, 81, 87, 124, 50, 158, 165, 71, 89, 121, 199, 179, 207, 77, 205,
	25, 73, 206, 221, 70, 188, 194, 29, 47, 192, 79, 107, 13, 117, 135, 178, 97,
	112, 115, 142, 61, 69, 74, 182, 214, 105, 184, 191, 37, 1, 9, 45, 51, 10, 31,
	36, 19, 32, 63, 42, 83, 189, 108, 132, 222, 119, 195, 156, 220, 133, 160, 104,
	181, 93, 201, 128, 198, 125, 143, 48, 213, 92, 172, 86, 126, 18, 123, 148, 90,
	137, 177, 103, 170, 186, 26, 30, 78, 118, 212, 17, 20, 27, 49, 56, 15, 59, 43,
	22, 52, 75, 98, 116, 174, 202, 146, 147, 203, 109, 138, 169, 223, 99, 208, 66,
	96, 113, 134, 150, 155, 166, 130, 145, 161, 163, 23, 55, 127, 12, 114, 224,
	152, 200, 217, 38, 95, 110, 139, 193, 185, 102, 131, 164, 171, 219, 58, 176,
	210, 215, 85, 4, 2, 5, 7, 8, 60, 67, 24, 34, 62, 68, 190, 88, 140, 183, 94,
	204, 91, 64, 141, 154, 76, 72, 122, 129, 39, 120, 159, 162, 111, 149, 157, 35,
	57, 187, 11, 16, 209, 216, 101, 54, 84, 100, 168, 196, 175, 65, 136, 167, 197,
	46,
	4, 14, 20, 21, 22, 23, 30, 40, 41, 1, 5, 7, 10, 16, 18, 15, 26, 37, 31, 36,
	39, 6, 8, 13, 17, 24, 29, 32, 33, 34, 35, 38, 0, 3, 2, 9, 12, 11, 19, 25, 27,
	28,
	3, 7, 11, 15, 19, 23, 27, 31, 2, 6, 10, 14, 18, 22, 26, 30, 17, 1, 5, 9, 13,
	21, 25, 29, 16, 4, 0, 8, 12, 20, 24, 28,
	6, 42, 37, 31, 39, 35, 43, 46, 47, 38, 11, 5, 7, 0, 16, 18, 23, 3, 25, 27, 29,
	33, 41, 44, 45, 19, 22, 36, 28, 1, 10, 13, 14, 24, 30, 34, 40, 8, 9, 21, 4, 2,
	15, 12, 17, 20, 26, 32, 48,
	12, 18, 16, 14, 15, 3, 4, 2, 1, 0, 22, 27, 35, 20, 24, 8, 31, 34, 23, 32, 9,
	28, 33, 25, 26, 7, 37, 30, 11, 36, 5, 13, 17, 21, 10, 29, 38, 19, 6,
	2, 0, 3, 1, 4, 5, 6, 7, 8, 9, 13, 25, 33, 11, 14, 29, 27, 35, 17, 28, 22, 24,
	34, 12, 30, 31, 32, 16, 23, 10, 26, 21, 15, 20, 19, 18,
	0, 3, 2, 1, 4, 5, 6, 7,
	0, 1, 3, 2, 4,
	0, 3, 4, 9, 10, 19, 21, 27, 2, 1, 6, 11, 16, 17, 13, 22, 25, 28, 5, 7, 8, 15,
	14, 18, 12, 20, 23, 24, 26, 29, 30, 31,
	0,
	15, 21, 22, 31, 18, 29, 1, 9, 30, 2, 12, 16, 0, 7, 13, 26, 6, 20, 23, 27, 3,
	4, 14, 19, 10, 5, 17, 28, 24, 25, 8, 11,
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 11,
	1, 0, 2,
	3, 0, 1, 6, 4, 7, 2, 5, 8, 9, 11, 12, 13, 14, 17, 21, 24, 25, 38, 42, 29, 51,
	37, 20, 46, 40, 10, 39, 28, 19, 23, 45, 16, 30, 48, 54, 22, 43, 33, 34, 35,
	27, 49, 52, 50, 18, 26, 44, 15, 36, 47, 53, 31, 41, 32,
	3, 2, 4, 1, 0, 5, 6,
	0, 12, 15, 19, 22, 5, 2, 3, 7, 10, 17, 18, 21, 6, 4, 13, 11, 20, 1, 8, 9, 16,
	14,
	0, 1, 2, 3, 4, 5,
	0, 1, 4, 2, 3,
	26, 22, 25, 19, 24, 27, 30, 3, 18, 14, 31, 7, 5, 10, 23, 12, 4, 28, 1, 17, 15,
	13, 20, 21, 11, 2, 0, 29, 16, 9, 6, 8,
	0,
	4, 7, 14, 15, 12, 31, 2, 9, 13, 18, 16, 20, 21, 30, 6, 8, 10, 17, 22, 23, 24,
	25, 26, 29, 0, 1, 3, 5, 11, 19, 27, 28,
	0, 1, 4, 3, 2, 5, 6, 7, 8, 9, 13, 22, 16, 12, 19, 20, 11, 21, 15, 18, 17, 10,
	14,
	10, 11, 15, 16, 17, 18, 14, 12, 13, 19, 20, 21, 0, 2, 1, 4, 3, 5, 6, 7, 8, 9,
	22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
	4, 15, 18, 8, 14, 0, 7, 9, 10, 11, 16, 19, 24, 25, 26, 22, 30, 13, 27, 1, 5,
	20, 3, 2, 6, 12, 21, 28, 23, 29, 31, 17,
	1, 2, 3, 0,
	7, 9, 3, 24, 33, 28, 16, 18, 23, 26, 6, 4, 11, 31, 10, 0, 8, 5, 14, 20, 21,
	22, 27, 12, 25, 30, 1, 36, 29, 32, 17, 2, 13, 35, 19, 15, 34,
	0, 2, 1,
	0, 4, 8, 12, 16, 1, 5, 9, 13, 17, 2, 6, 10, 14, 18, 3, 7, 11, 15, 19,
	0, 1, 3, 4, 2, 5, 6, 7, 8, 9, 11, 24, 28, 15, 27, 25, 12, 29, 23, 13, 16, 21,
	30, 26, 10, 22, 19, 20, 14, 17, 18,
	0,
	25, 24, 30, 28, 14, 20, 7, 6, 13, 12, 17, 10, 3, 0, 26, 4, 16, 5, 22, 29, 8,
	1, 19, 18, 21, 15, 27, 2, 11, 9, 23, 31,
	0, 2, 4, 1, 3,
	26, 27, 28, 29, 30, 31, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
	16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
	6, 8, 12, 17, 10, 15, 2, 0, 11, 16, 18, 19, 20, 24, 27, 32, 35, 36, 39, 46,
	52, 55, 56, 58, 54, 31, 51, 59, 47, 57, 41, 53, 40, 29, 60, 42, 13, 3, 5, 4,
	7, 1, 9, 14, 21, 22, 23, 26, 28, 34, 49, 37, 50, 44, 43, 38, 45, 48, 25, 30,
	33,
	11, 2, 5, 6, 9, 12, 17, 10, 19, 21, 27, 38, 44, 37, 41, 14, 25, 31, 43, 45,
	28, 23, 26, 16, 1, 3, 4, 0, 7, 8, 13, 15, 18, 36, 42, 33, 30, 34, 32, 35, 22,
	39, 20, 40, 24, 29,
	10, 20, 14, 27, 23, 3, 11, 43, 16, 2, 34, 36, 35, 38, 22, 48, 45, 9, 15, 18,
	46, 37, 40, 49, 21, 26, 13, 4, 33, 50, 28, 30, 17, 32, 7, 24, 19, 42, 0, 47,
	8, 1, 5, 39, 41, 31, 12, 6, 25, 29, 44,
	0,
	0, 32, 40, 48, 1, 56, 2, 3, 4, 33, 41, 49, 5, 57, 6, 7, 8, 34, 42, 50, 9, 58,
	10, 11, 12, 35, 43, 51, 13, 59, 14, 15, 16, 36, 44, 52, 17, 60, 18, 19, 20,
	37, 45, 53, 21, 61, 22, 23, 24, 38, 46, 54, 25, 62, 26, 27, 28, 39, 47, 55,
	29, 63, 30, 31,
	3, 2, 6, 26, 30, 27, 1, 9, 13, 18, 14, 19, 21, 0, 4, 5, 8, 16, 11, 12, 15, 20,
	24, 28, 7, 10, 17, 22, 23, 25, 29, 31,
	0,
	0, 69, 50, 75, 79, 104, 109, 111, 119, 160, 198, 192, 195, 102, 134, 197, 176,
	4, 17, 13, 14, 19, 25, 67, 81, 88, 99, 173, 186, 125, 171, 59, 7, 29, 32, 40,
	103, 142, 144, 158, 167, 203, 201, 54, 70, 9, 12, 26, 30, 34, 43, 55, 77, 166,
	168, 96, 137, 191, 11, 23, 28, 39, 42, 53, 64, 83, 115, 122, 189, 206, 183,
	73, 60, 82, 84, 95, 121, 128, 143, 151, 157, 164, 199, 80, 188, 175, 33, 62,
	2, 16, 18, 21, 57, 52, 89, 107, 74, 66, 45, 105, 106, 138, 149, 153, 172, 177,
	41, 46, 72, 49, 110, 114, 126, 129, 145, 147, 181, 196, 185, 202, 190, 56, 3,
	10, 44, 65, 93, 113, 117, 127, 133, 205, 187, 132, 31, 35, 58, 68, 78, 86, 90,
	150, 152, 154, 148, 116, 123, 131, 141, 174, 178, 180, 6, 8, 22, 48, 97, 101,
	139, 140, 156, 169, 200, 163, 182, 130, 194, 20, 36, 47, 61, 87, 92, 94, 108,
	112, 162, 155, 37, 63, 5, 15, 71, 85, 100, 136, 146, 159, 170, 207, 118, 184,
	165, 51, 76, 1, 24, 27, 38, 91, 98, 124, 135, 204, 179, 193, 120, 161,
	5, 12, 16, 10, 17, 22, 27, 28, 29, 35, 4, 1, 6, 14, 18, 23, 24, 26, 30, 32, 3,
	2, 7, 8, 9, 11, 19, 21, 25, 0, 13, 15, 20, 31, 34, 36, 37, 33, 38,
	4, 3, 0, 1, 2,
	2, 0, 3, 1, 4, 5, 6,
	16, 18, 11, 17, 15, 2, 3, 1, 4, 0, 14, 8, 23, 30, 13, 32, 24, 25, 10, 5, 28,
	6, 29, 9, 21, 26, 27, 31, 22, 7, 19, 20, 12,
	10, 0, 1, 4, 8, 17, 14, 13, 15, 20, 21, 23, 31, 43, 44, 40, 22, 34, 36, 37,
	39, 26, 24, 38, 41, 28, 2, 3, 5, 6, 7, 9, 11, 16, 18, 12, 19, 25, 29, 33, 42,
	45, 30, 27, 35, 46, 32,
	0, 1, 2, 4, 3, 5,
	0, 4, 8, 12, 16, 1, 5, 9, 13, 17, 2, 6, 10, 14, 18, 3, 7, 11, 15, 19,
	0, 1, 4, 2, 3, 5, 6, 7, 8, 9, 12, 10, 15, 24, 28, 17, 11, 23, 19, 13, 21, 14,
	26, 25, 18, 16, 22, 27, 20,
	0,
	0, 1, 4, 3, 2, 5, 6, 7, 8, 9, 29, 30, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19,
	18, 17, 16, 15, 14, 31, 13, 12, 11, 10,
	0, 1, 4, 3, 2, 5, 6, 7, 8, 9, 15, 11, 14, 18, 10, 12, 16, 17, 13,
	9, 10, 11, 12, 13, 14, 15, 16, 17, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
	30, 31, 18, 2, 3, 1, 4, 0, 5, 6, 7, 8,
	33, 2, 7, 16, 19, 5, 6, 11, 15, 24, 34, 37, 43, 46, 55, 47, 8, 10, 20, 28, 27,
	23, 36, 38, 40, 41, 45, 52, 53, 54, 3, 18, 21, 12, 0, 9, 13, 1, 14, 25, 26,
	29, 48, 49, 39, 51, 4, 44, 32, 17, 30, 22, 31, 35, 42, 56, 50,
	11, 16, 15, 1, 2, 4, 3, 0, 5, 6, 18, 21, 29, 12, 31, 34, 9, 23, 13, 14, 24,
	37, 25, 30, 32, 36, 22, 17, 33, 10, 28, 20, 35, 7, 8, 19, 26, 27,
	2, 7, 16, 18, 25, 1, 11, 14, 23, 0, 8, 12, 15, 19, 22, 3, 4, 5, 6, 9, 10, 13,
	17, 20, 21, 24,
	4, 6, 3, 0, 5, 2, 1,
	0, 4, 8, 12, 16, 1, 5, 9, 13, 17, 2, 6, 10, 14, 18, 3, 7, 11, 15, 19,
	15, 10, 22, 25, 28, 29, 1, 4, 2, 9, 12, 19, 24, 31, 0, 3, 5, 6, 7, 8, 18, 17,
	11, 21, 13, 14, 16, 20, 23, 26, 27, 30,
	0,
	1, 2, 9, 12, 18, 25, 28, 0, 3, 5, 7, 14, 15, 10, 17, 16, 19, 29, 31, 4, 6, 13,
	11, 21, 22, 23, 24, 26, 30, 20, 8, 27,
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 19, 12, 18, 14, 13, 26, 10, 24, 17, 20, 22, 23,
	21, 11, 15, 16, 25,
	12, 13, 14, 15, 16, 1, 4, 0, 2, 3, 5, 6, 7, 8, 9, 10, 11,
	0, 4, 5, 7, 6, 9, 2, 8, 10, 12, 17, 19, 24, 25, 28, 36, 37, 11, 20, 1, 18, 14,
	3, 21, 13, 15, 16, 22, 23, 27, 30, 35, 33, 26, 31, 32, 34, 29,
	11, 7, 27, 5, 17, 0, 28, 12, 33, 19, 18, 15, 21, 16, 20, 4, 1, 22, 14, 34, 24,
	13, 30, 32, 9, 29, 23, 3, 31, 26, 10, 8, 6, 2, 25,
	1, 2, 3, 6, 10, 16, 12, 15, 11, 19, 20, 29, 37, 40, 23, 21, 28, 38, 25, 32,
	33, 27, 30, 24, 31, 7, 0, 4, 5, 8, 9, 17, 13, 18, 14, 26, 36, 34, 35, 22, 39,
	0, 2, 1,
	0, 1, 4, 2, 3,
	0, 1, 7, 11, 20, 24, 30, 31, 29, 9, 10, 12, 17, 14, 16, 23, 4, 6, 8, 13, 15,
	18, 19, 21, 22, 26, 2, 3, 5, 25, 27, 28,
	0,
	15, 18, 21, 23, 25, 27, 28, 29, 31, 0, 1, 2, 6, 7, 8, 12, 19, 22, 24, 3, 4, 5,
	30, 9, 14, 13, 16, 11, 10, 17, 20, 26,
	33, 36, 52, 41, 7, 50, 42, 9, 47, 34, 22, 51, 10, 1, 0, 43, 49, 24, 2, 16, 26,
	44, 55, 39, 48, 53, 12, 8, 15, 38, 37, 13, 45, 25, 19, 17, 4, 21, 20, 29, 5,
	3, 46, 23, 32, 35, 14, 54, 40, 6, 27, 28, 18, 31, 30, 11,
	28, 13, 29, 14, 30, 15, 31, 16, 17, 18, 19, 20, 12, 4, 1, 0, 2, 3, 5, 6, 7, 8,
	21, 22, 23, 24, 9, 25, 10, 26, 27, 11,
	20, 6, 18, 8, 0, 16, 1, 24, 26, 4, 22, 15, 25, 30, 13, 11, 23, 3, 17, 19, 21,
	7, 2, 28, 10, 29, 9, 27, 5, 31, 12, 14,
	18, 16, 14, 1, 2, 0, 6, 9, 10, 15, 17, 22, 11, 4, 3, 5, 7, 8, 12, 13, 20, 21,
	19,
	1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 19, 22, 16, 11, 25, 21, 15, 18, 17, 13, 26,
	12, 23, 14, 27, 20, 24,
	0, 2, 1, 3,
	0, 4, 8, 12, 16, 1, 5, 9, 13, 17, 2, 6, 10, 14, 18, 3, 7, 11, 15, 19,
	4, 12, 14, 17, 18, 19, 21, 1, 16, 20, 23, 24, 25, 26, 27, 28, 6, 7, 15, 22,
	29, 0, 2, 3, 5, 8, 9, 11, 13, 10, 30,
	0,
	10, 16, 18, 53, 50, 27, 28, 49, 87, 89, 119, 114, 154, 132, 149, 88, 102, 61,
	74, 66, 7, 8, 14, 31, 25, 56, 78, 96, 169, 172, 85, 82, 190, 191, 127, 174,
	46, 101, 122, 145, 142, 12, 55, 63, 69, 32, 43, 71, 24, 80, 104, 141, 128,
	152, 107, 182, 184, 116, 125, 120, 151, 192, 129, 133, 185, 112, 171, 22, 62,
	36, 65, 54, 2, 5, 15, 68, 73, 130, 134, 146, 189, 187, 164, 38, 111, 23, 83,
	157, 165, 110, 159, 181, 48, 131, 108, 123, 166, 0, 1, 9, 19, 29, 30, 52, 72,
	26, 59, 138, 124, 147, 92, 167, 117, 79, 99, 186, 158, 161, 67, 47, 45, 33, 6,
	11, 20, 57, 70, 34, 118, 153, 163, 173, 176, 150, 175, 121, 180, 160, 139, 97,
	144, 35, 168, 136, 44, 77, 42, 113, 3, 4, 17, 21, 40, 51, 60, 58, 64, 81, 93,
	126, 143, 177, 179, 140, 98, 103, 135, 156, 106, 183, 94, 75, 13, 39, 41, 76,
	84, 86, 90, 95, 109, 137, 155, 178, 37, 115, 100, 188, 148, 162, 170, 91, 105,
	0, 3, 4, 2, 1, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 14,
	23, 22, 21, 20, 19, 18, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 24,
	2, 1, 0, 31, 30, 29, 28, 27, 26, 25, 17,
	5, 10, 20, 1, 17, 0, 22, 24, 23, 11, 6, 7, 14, 12, 18, 13, 21, 25, 3, 8, 16,
	4, 2, 9, 15, 19,
	34, 16, 12, 11, 27, 28, 32, 41, 40, 45, 42, 46, 43, 14, 15, 3, 4, 6, 13, 18,
	24, 30, 31, 35, 38, 39, 1, 5, 9, 17, 10, 19, 22, 23, 25, 33, 47, 44, 2, 0, 7,
	8, 20, 21, 26, 29, 36, 37,
	16, 0, 1, 4, 2, 5, 15, 14, 19, 23, 36, 29, 9, 18, 20, 28, 30, 37, 40, 34, 3,
	6, 7, 11, 12, 10, 22, 27, 33, 35, 38, 39, 25, 8, 13, 17, 21, 24, 26, 31, 32,
	0, 1,
	0, 4, 8, 12, 16, 1, 5, 9, 13, 17, 2, 6, 10, 14, 18, 3, 7, 11, 15, 19,
	0, 17, 14, 15, 22, 24, 27, 4, 5, 9, 11, 21, 26, 28, 29, 2, 7, 8, 10, 16, 13,
	12, 19, 3, 1, 6, 18, 20, 23, 25, 30,
	0,
	3, 2, 4, 6, 7, 21, 23, 1, 11, 17, 16, 22, 26, 12, 18, 10, 19, 24, 28, 29, 0,
	5, 8, 9, 14, 15, 13, 20, 25, 27, 30, 31,
	0, 2, 1, 3, 4, 5, 6, 7, 8, 9, 11, 16, 12, 17, 10, 13, 14, 15,
	15, 14, 13, 12, 11, 10, 9, 16, 4, 2, 0, 1, 3, 5, 6, 7, 8, 30, 29, 31, 28, 27,
	26, 25, 24, 23, 22, 21, 20, 19, 18, 17,
	0, 17, 18, 13, 8, 6, 12, 15, 19, 20, 22, 23, 25, 28, 31, 32, 42, 24, 48, 43,
	37, 33, 39, 46, 4, 9, 1, 10, 7, 11, 2, 3, 5, 14, 16, 26, 34, 36, 30, 38, 41,
	47, 45, 21, 27, 40, 44, 29, 35,
	21, 15, 17, 14, 3, 1, 0, 11, 18, 16, 13, 22, 25, 29, 10, 4, 2, 5, 6, 7, 8, 9,
	12, 19, 23, 24, 26, 20, 27, 28,
	17, 5, 31, 2, 25, 11, 23, 20, 0, 13, 28, 30, 15, 14, 21, 29, 1, 27, 33, 9, 12,
	26, 18, 8, 22, 6, 7, 19, 24, 10, 32, 16, 4, 3,
	0, 1,
	0, 32, 40, 48, 1, 56, 2, 3, 4, 33, 41, 49, 5, 57, 6, 7, 8, 34, 42, 50, 9, 58,
	10, 11, 12, 35, 43, 51, 13, 59, 14, 15, 16, 36, 44, 52, 17, 60, 18, 19, 20,
	37, 45, 53, 21, 61, 22, 23, 24, 38, 46, 54, 25, 62, 26, 27, 28, 39, 47, 55,
	29, 63, 30, 31,
	4, 2, 17, 18, 20, 21, 22, 23, 26, 27, 1, 3, 9, 11, 13, 19, 28, 30, 0, 14, 29,
	31, 5, 6, 7, 8, 16, 12, 10, 15, 24, 25,
	0,
	1, 3, 6, 19, 22, 23, 27, 0, 2, 8, 13, 14, 11, 20, 21, 29, 30, 5, 15, 18, 17,
	26, 28, 31, 4, 7, 9, 12, 10, 16, 24, 25,
	8, 13, 18, 14, 15, 20, 21, 23, 2, 4, 1, 7, 17, 3, 5, 9, 11, 12, 16, 0, 6, 10,
	19, 22, 24,
	3, 2, 1, 0, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 11, 10, 18,
	17, 12, 13, 16, 15, 14, 4, 9, 8, 7, 6, 5,
	3, 26, 8, 13, 22, 19, 12, 25, 0, 17, 23, 1, 21, 6, 15, 4, 5, 24, 2, 11, 7, 9,
	10, 14, 16, 18, 20,
	49, 9, 36, 25, 30, 41, 39, 7, 40, 51, 45, 44, 28, 48, 16, 8, 14, 0, 52, 31,
	17, 2, 43, 47, 35, 21, 15, 13, 12, 11, 37, 26, 19, 5, 34, 20, 22, 33, 1, 32,
	6, 27, 50, 42, 38, 4, 46, 18, 23, 24, 10, 29, 3,
	5, 1, 0, 2, 4, 3, 6, 7,
	0, 1,
	0, 2, 1, 3, 4, 5, 6, 7, 8, 9,
	0, 1, 3, 2, 4, 5, 6, 7, 8, 9, 19, 20, 30, 18, 29, 21, 17, 24, 22, 23, 10, 25,
	16, 13, 26, 11, 27, 12, 14, 28, 15,
	0,
	1, 3, 2, 7, 8, 9, 13, 14, 10, 17, 29, 26, 24, 20, 19, 16, 0, 4, 5, 6, 15, 12,
	11, 18, 21, 22, 30, 31, 28, 27, 25, 23,
	1, 7, 8, 10, 15, 12, 16, 19, 20, 0, 4, 2, 3, 5, 6, 9, 17, 13, 18, 14, 11,
	11, 27, 12, 28, 13, 29, 14, 30, 15, 26, 31, 0, 16, 1, 17, 18, 2, 3, 19, 4, 20,
	5, 21, 6, 22, 7, 23, 8, 24, 9, 25, 10,
	8, 15, 10, 27, 0, 30, 46, 2, 36, 48, 50, 54, 23, 20, 25, 6, 18, 7, 5, 26, 29,
	34, 39, 44, 49, 53, 52, 37, 41, 22, 28, 14, 3, 11, 1, 13, 12, 16, 17, 21, 32,
	35, 38, 40, 47, 43, 19, 24, 42, 45, 4, 9, 31, 33, 51,
	25, 18, 1, 4, 2, 0, 9, 10, 22, 23, 24, 14, 11, 20, 21, 16, 17, 3, 5, 6, 7, 8,
	12, 15, 13, 26, 19,
	1, 0, 3, 2, 4, 5, 6, 7, 8, 9, 10, 15, 23, 26, 21, 29, 13, 11, 28, 16, 14, 27,
	18, 22, 19, 20, 12, 17, 25, 24,
	0, 3, 1, 2, 4, 5,
	0, 4, 8, 12, 16, 1, 5, 9, 13, 17, 2, 6, 10, 14, 18, 3, 7, 11, 15, 19,
	0, 2, 3, 1, 4, 5, 6, 7, 8, 9, 21, 22, 29, 25, 18, 26, 13, 10, 11, 19, 30, 24,
	17, 28, 16, 15, 14, 12, 20, 27, 23,
	0,
	3, 66, 59, 76, 53, 101, 114, 105, 123, 127, 179, 202, 215, 115, 91, 217, 240,
	263, 136, 245, 182, 212, 160, 220, 106, 120, 159, 130, 134, 56, 28, 45, 8, 15,
	63, 55, 92, 107, 84, 148, 126, 161, 186, 261, 98, 242, 104, 219, 78, 155, 102,
	226, 121, 93, 142, 30, 162, 20, 132, 250, 2, 4, 44, 68, 33, 61, 69, 46, 24,
	37, 117, 183, 228, 100, 239, 108, 119, 167, 169, 223, 249, 85, 96, 88, 256,
	139, 213, 149, 90, 144, 168, 252, 196, 200, 129, 241, 128, 172, 156, 178, 109,
	62, 75, 31, 36, 27, 57, 72, 65, 19, 21, 124, 238, 243, 260, 138, 141, 232,
	103, 174, 221, 224, 64, 214, 67, 158, 60, 152, 201, 193, 38, 225, 97, 0, 1,
	10, 17, 41, 47, 52, 14, 35, 50, 145, 83, 258, 255, 222, 207, 188, 164, 257,
	259, 185, 192, 184, 229, 187, 29, 34, 48, 70, 5, 18, 11, 22, 71, 77, 89, 131,
	230, 137, 251, 111, 113, 116, 151, 194, 198, 208, 166, 150, 49, 94, 209, 253,
	170, 173, 262, 40, 233, 237, 244, 79, 143, 199, 246, 6, 9, 16, 25, 54, 58, 39,
	32, 43, 73, 146, 189, 197, 247, 205, 206, 125, 122, 236, 234, 216, 140, 254,
	165, 235, 147, 154, 176, 87, 118, 110, 133, 135, 190, 153, 51, 74, 7, 12, 42,
	23, 80, 81, 82, 86, 157, 175, 180, 227, 191, 210, 177, 248, 195, 203, 95, 218,
	163, 231, 171, 211, 204, 26, 112, 181, 13, 99,
	0, 3, 1, 4, 2, 5, 6, 7, 8, 9, 16, 21, 20, 23, 26, 11, 13, 10, 25, 12, 18, 15,
	24, 17, 19, 14, 22,
	5, 21, 6, 22, 7, 23, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 20, 30,
	15, 31, 16, 0, 1, 17, 2, 18, 3, 19, 4,
	8, 12, 5, 10, 17, 18, 16, 11, 6, 9, 13, 1, 0, 7, 4, 14, 20, 3, 19, 2, 15,
	20, 37, 12, 15, 17, 16, 14, 2, 3, 4, 1, 0, 7, 10, 25, 33, 38, 29, 26, 32, 13,
	24, 28, 30, 9, 35, 5, 18, 31, 22, 36, 6, 39, 21, 11, 27, 23, 34, 8, 19,
	16, 4, 5, 9, 17, 12, 18, 13, 11, 14, 20, 24, 33, 38, 39, 41, 43, 31, 35, 22,
	37, 45, 47, 29, 49, 27, 2, 1, 0, 3, 6, 7, 8, 10, 15, 19, 23, 42, 48, 21, 28,
	36, 30, 40, 46, 32, 34, 26, 44, 25,
	0, 1, 2,
	0, 32, 40, 48, 1, 56, 2, 3, 4, 33, 41, 49, 5, 57, 6, 7, 8, 34, 42, 50, 9, 58,
	10, 11, 12, 35, 43, 51, 13, 59, 14, 15, 16, 36, 44, 52, 17, 60, 18, 19, 20,
	37, 45, 53, 21, 61, 22, 23, 24, 38, 46, 54, 25, 62, 26, 27, 28, 39, 47, 55,
	29, 63, 30, 31,
	12, 20, 22, 29, 0, 2, 7, 9, 15, 17, 13, 23, 24, 25, 3, 4, 5, 8, 11, 10, 19,
	21, 27, 28, 1, 6, 14, 16, 18, 26,
	0,
	0, 1, 3, 5, 7, 14, 15, 10, 18, 17, 28, 26, 25, 24, 19, 16, 4, 2, 6, 8, 9, 13,
	12, 11, 20, 21, 30, 29, 31, 27, 23, 22,
	1, 2, 7, 9, 12, 18, 19, 23, 6, 17, 24, 25, 0, 4, 3, 5, 8, 10, 11, 20, 26, 27,
	15, 13, 14, 16, 21, 22,
	2, 6, 13, 17, 20, 24, 28, 31, 10, 3, 7, 14, 18, 21, 25, 29, 4, 0, 8, 11, 15,
	19, 22, 26, 30, 1, 5, 9, 12, 16, 23, 27,
	3, 7, 5, 2, 1, 4, 0, 6, 8, 9, 10, 12, 13, 14, 11, 15,
	12, 3, 4, 1, 2, 0, 5, 6, 7, 8, 9, 13, 11, 10,
	5, 1, 4, 7, 8, 11, 14, 13, 15, 19, 25, 26, 28, 27, 20, 3, 2, 0, 6, 9, 10, 18,
	12, 17, 16, 21, 23, 22, 24,
	0,
	0, 4, 8, 12, 16, 1, 5, 9, 13, 17, 2, 6, 10, 14, 18, 3, 7, 11, 15, 19,
	4, 24, 23, 16, 13, 21, 27, 29, 14, 9, 12, 8, 17, 5, 10, 3, 7, 22, 11, 26, 15,
	18, 0, 30, 20, 2, 28, 1, 31, 19, 25, 6,
	0,
	2, 6, 7, 14, 12, 27, 1, 4, 13, 10, 17, 16, 19, 22, 23, 28, 29, 30, 3, 5, 8, 9,
	11, 18, 20, 21, 24, 25, 0, 15, 26, 31,
	13, 14, 15, 16, 20, 22, 23, 25, 3, 5, 12, 18, 0, 11, 17, 19, 2, 1, 4, 6, 7, 8,
	9, 10, 21, 24,
	15, 3, 0, 1, 4, 2, 5, 6, 7, 8, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
	9, 10, 16, 17, 18, 11, 12, 13, 14, 19,
	7, 10, 15, 0, 8, 20, 11, 19, 4, 17, 21, 3, 1, 13, 6, 5, 9, 14, 16, 18, 12, 2,
	1, 4, 2, 3, 0, 5, 6, 7, 8, 9,
	0, 1, 3, 4, 2,
	0, 2, 1,
	0, 32, 40, 48, 1, 56, 2, 3, 4, 33, 41, 49, 5, 57, 6, 7, 8, 34, 42, 50, 9, 58,
	10, 11, 12, 35, 43, 51, 13, 59, 14, 15, 16, 36, 44, 52, 17, 60, 18, 19, 20,
	37, 45, 53, 21, 61, 22, 23, 24, 38, 46, 54, 25, 62, 26, 27, 28, 39, 47, 55,
	29, 63, 30, 31,
	4, 1, 13, 19, 20, 29, 6, 8, 9, 15, 12, 23, 25, 26, 27, 31, 2, 11, 14, 18, 30,
	0, 3, 5, 7, 17, 10, 16, 21, 22, 24, 28,
	0,
	2, 10, 17, 19, 21, 26, 27, 31, 0, 4, 7, 9, 14, 15, 20, 24, 28, 8, 12, 11, 16,
	30, 3, 1, 5, 6, 13, 18, 22, 23, 25, 29,
	0, 1, 3, 4, 2, 5, 6, 7, 8, 9, 15, 20, 10, 14, 16, 17, 21, 19, 18, 22, 11, 13,
	12,
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
	2, 1, 8, 0, 4, 7, 3, 5, 6,
	22, 10, 17, 11, 14, 15, 2, 4, 1, 3, 0, 12, 18, 6, 25, 9, 7, 8, 5, 13, 19, 24,
	26, 20, 21, 16, 23,
	0, 1, 4, 2, 3, 5, 6, 7, 8, 9, 10, 17, 16, 14, 13, 11, 12, 15,
	0, 4, 3, 2, 1,
	0, 1, 3, 2, 4,
	2, 4, 7, 9, 15, 11, 26, 29, 1, 3, 14, 16, 17, 19, 21, 24, 25, 27, 8, 18, 22,
	23, 28, 31, 0, 5, 6, 12, 10, 13, 20, 30,
	0,
	20, 72, 43, 48, 42, 50, 91, 98, 102, 109, 130, 224, 266, 175, 221, 253, 286,
	125, 274, 231, 45, 56, 18, 22, 25, 33, 57, 26, 34, 126, 223, 254, 215, 284,
	234, 233, 225, 278, 66, 44, 60, 46, 92, 110, 113, 133, 156, 139, 173, 260,
	196, 198, 247, 213, 256, 218, 16, 70, 79, 83, 87, 89, 93, 117, 138, 141, 149,
	163, 193, 194, 219, 202, 220, 38, 76, 53, 58, 49, 111, 154, 155, 177, 195,
	200, 183, 216, 258, 153, 285, 199, 251, 273, 282, 148, 249, 261, 5, 12, 14,
	21, 30, 101, 116, 123, 135, 140, 169, 209, 238, 65, 31, 85, 88, 96, 104, 131,
	132, 142, 152, 158, 270, 180, 245, 222, 227, 262, 122, 203, 271, 68, 8, 17,
	103, 145, 159, 170, 179, 206, 184, 243, 157, 187, 252, 272, 172, 226, 0, 2,
	11, 24, 75, 52, 74, 77, 114, 120, 171, 207, 212, 250, 208, 217, 239, 242, 160,
	151, 4, 6, 51, 62, 61, 71, 47, 80, 99, 124, 134, 269, 186, 267, 283, 248, 181,
	73, 54, 55, 67, 7, 13, 78, 81, 105, 118, 128, 165, 279, 168, 23, 40, 86, 90,
	100, 144, 147, 162, 164, 166, 192, 188, 275, 281, 182, 246, 241, 265, 205, 15,
	19, 35, 36, 39, 82, 94, 121, 129, 143, 189, 119, 214, 236, 240, 264, 287, 244,
	229, 63, 3, 69, 95, 112, 137, 146, 167, 237, 268, 255, 228, 276, 235, 277,
	232, 59, 64, 1, 28, 41, 97, 115, 176, 178, 190, 210, 136, 257, 150, 197, 259,
	263, 280, 191, 9, 10, 27, 29, 32, 37, 84, 106, 107, 108, 161, 127, 230, 204,
	174, 201, 185, 211,
	0, 4, 3, 9, 12, 13, 17, 19, 24, 30, 2, 5, 8, 10, 16, 18, 20, 31, 32, 36, 38,
	39, 6, 7, 14, 11, 21, 22, 26, 37, 35, 1, 15, 23, 25, 27, 28, 29, 34, 33,
	2, 1, 0,
	7, 1, 4, 2, 3, 6, 0, 5, 8, 9, 10, 12, 13, 14, 17, 22, 18, 19, 11, 15, 20, 16,
	21,
	13, 4, 2, 3, 1, 0, 5, 6, 7, 8, 9, 10, 11, 12,
	11, 6, 1, 3, 7, 0, 10, 13, 5, 4, 9, 2, 12, 8,
	4, 1, 2, 3, 0,
	0, 4, 8, 12, 16, 1, 5, 9, 13, 17, 2, 6, 10, 14, 18, 3, 7, 11, 15, 19,
	1, 5, 12, 24, 26, 29, 0, 15, 18, 19, 25, 27, 30, 7, 8, 9, 14, 16, 10, 17, 20,
	28, 31, 3, 4, 2, 6, 11, 13, 21, 22, 23,
	0,
	25, 27, 6, 4, 19, 29, 1, 7, 15, 5, 0, 18, 23, 9, 8, 17, 12, 26, 3, 28, 30, 22,
	14, 21, 11, 13, 16, 2, 24, 10, 20, 31,
	55, 52, 45, 57, 1, 13, 17, 54, 22, 56, 5, 61, 12, 34, 53, 58, 43, 7, 6, 8, 15,
	20, 21, 24, 37, 14, 29, 32, 25, 51, 16, 46, 4, 35, 30, 2, 11, 9, 36, 59, 60,
	44, 10, 47, 42, 23, 31, 3, 26, 28, 41, 39, 19, 49, 33, 50, 18, 40, 0, 48, 38,
	27,
	2, 31, 7, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 5, 20, 19, 15, 14, 12, 9, 8,
	11, 13, 10, 18, 17, 16, 4, 0, 3, 1, 6,
	2, 0, 1, 4, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 14, 15,
	8, 27, 15, 18, 2, 4, 3, 1, 0, 5, 6, 7, 12, 16, 31, 10, 30, 14, 24, 23, 11, 22,
	26, 28, 13, 19, 25, 29, 9, 21, 17, 20,
	1, 0, 4, 3, 2, 5, 6, 7, 8, 9, 10, 11,
	0,
	0, 4, 8, 12, 16, 1, 5, 9, 13, 17, 2, 6, 10, 14, 18, 3, 7, 11, 15, 19,
	0, 2, 23, 24, 25, 26, 3, 4, 6, 9, 11, 12, 17, 28, 5, 8, 10, 16, 15, 19, 20,
	22, 29, 30, 1, 7, 13, 14, 18, 21, 27,
	0,
	1, 3, 5, 7, 8, 13, 10, 16, 19, 26, 30, 28, 14, 11, 18, 0, 4, 9, 15, 12, 20,
	22, 24, 25, 27, 31, 29, 2, 6, 17, 21, 23,
	5, 18, 11, 30, 33, 35, 38, 39, 40, 43, 6, 8, 9, 10, 14, 12, 20, 28, 29, 36,
	37, 44, 0, 2, 3, 7, 17, 16, 21, 22, 25, 27, 41, 32, 1, 4, 15, 13, 19, 23, 24,
	26, 31, 34, 42,
	0, 4, 2, 5, 7, 9, 11, 13, 14, 18, 25, 28, 24, 22, 29, 31, 3, 1, 6, 8, 10, 12,
	17, 15, 19, 21, 27, 23, 30, 26, 20, 16,
	11, 10, 1, 2, 7, 4, 6, 3, 0, 5, 8, 9, 12, 14, 16, 24, 25, 42, 57, 21, 47, 30,
	55, 20, 18, 45, 34, 13, 50, 36, 37, 46, 53, 48, 43, 56, 29, 15, 22, 27, 52,
	17, 40, 19, 41, 32, 38, 44, 49, 54, 51, 35, 31, 26, 33, 39, 28, 23,
	33, 39, 17, 4, 3, 2, 7, 9, 11, 18, 16, 12, 21, 24, 36, 41, 30, 25, 29, 28, 37,
	42, 40, 32, 38, 13, 14, 1, 0, 5, 6, 8, 10, 15, 19, 31, 27, 34, 35, 20, 43, 26,
	44, 22, 23,
	13, 19, 18, 9, 0, 17, 16, 6, 3, 15, 11, 2, 5, 4, 10, 12, 7, 8, 1, 14,
	0,
	0, 2, 1, 3, 4, 5, 6, 7, 8, 9,
	2, 18, 15, 24, 28, 30, 31, 0, 4, 3, 6, 9, 16, 11, 20, 22, 26, 29, 7, 12, 17,
	14, 19, 23, 1, 5, 8, 10, 13, 21, 25, 27,
	0,
	0, 4, 7, 8, 9, 14, 15, 10, 16, 21, 29, 30, 27, 25, 24, 23, 22, 1, 3, 2, 5, 6,
	13, 12, 11, 18, 17, 31, 28, 26, 20, 19,
};

static void test_generated(void)
{
	uint64_t a[320], ft[320], py[320];
	size_t k = 0;

	for (uint32_t i = 0; i < G_N_ELEMENTS(gen_cases); i++) {
		const struct gen_case *c = &gen_cases[i];
		uint32_t sb, lb, n = generate(i, a, &sb, &lb);
		char what[32];

		g_assert_cmpuint(n, ==, c->n);
		g_assert_cmpuint(sb, ==, c->sb);
		g_assert_cmpuint(lb, ==, c->lb);
		g_assert_cmpuint(fnv1a(a, n), ==, c->fnv);
		g_assert_cmpuint(ref_first_touch(sb, a, n, ft), ==, c->unique);
		for (uint32_t j = 0; j < c->unique; j++)
			py[j] = ft[gen_pyset[k + j]];
		k += c->unique;
		g_snprintf(what, sizeof(what), "generated case %u", i);
		check_all(what, sb, lb, a, n, py, c->unique, c->lines);
	}
	g_assert_cmpuint(k, ==, G_N_ELEMENTS(gen_pyset));
}

/* ---- the rest of the interface ----------------------------------------------- */

static void test_empty(void)
{
	for (int o = 0; o < N_ORDERS; o++) {
		uint32_t lines = 7;

		g_assert_cmpuint(coalesce(get(o, 32, 128), NULL, 0, NULL, &lines), ==, 0);
		g_assert_cmpuint(lines, ==, 0);
	}
}

/*
 * One coalescer through growing, shrinking and growing n: its scratch is
 * replaced while it is in use between calls, and what a large call left
 * behind must not leak into a small one.
 */
static void test_scratch(void)
{
	static const uint32_t sizes[] = { 1, 33, 2, 64, 65, 5, 1000, 3, 4000, 17, 4000, 1 };
	struct splitmix r = { 42 };

	for (int o = 0; o < N_ORDERS; o++) {
		struct coalescer *c = coalescer_new(o, 32, 128);

		for (size_t s = 0; s < G_N_ELEMENTS(sizes); s++) {
			uint32_t n = sizes[s], lines, m;
			uint64_t *a = g_new(uint64_t, n), *ref = g_new(uint64_t, n);
			uint64_t *out = g_new(uint64_t, n);

			for (uint32_t t = 0; t < n; t++)
				a[t] = 0x7f0000000000 + next(&r) % (64 * (uint64_t)n + 64);
			m = coalesce(c, a, n, out, &lines);
			g_assert_cmpuint(m, ==, ref_first_touch(32, a, n, ref));
			g_assert_cmpuint(lines, ==, ref_lines(128, ref, m));
			if (o == COALESCE_ASCENDING || o == COALESCE_DESCENDING)
				qsort(ref, m, sizeof(*ref), cmp_u64);
			if (o == COALESCE_DESCENDING)
				reverse(ref, m);
			if (o != COALESCE_PYSET)
				g_assert_true(memcmp(out, ref, m * sizeof(*out)) == 0);
			g_free(a);
			g_free(ref);
			g_free(out);
		}
		coalescer_free(c);
	}
}

/* Inputs as the lanes give them, never modified. */
static void test_const_input(void)
{
	static const uint64_t in[] = { 0x1234, 0x1000, 0x1234, 0x2000, 0x1fff };
	uint64_t copy[G_N_ELEMENTS(in)], out[G_N_ELEMENTS(in)];
	uint32_t lines;

	memcpy(copy, in, sizeof(in));
	for (int o = 0; o < N_ORDERS; o++) {
		g_assert_cmpuint(coalesce(get(o, 32, 128), copy, 5, out, &lines), ==, 4);
		g_assert_true(memcmp(copy, in, sizeof(in)) == 0);
	}
}

/* ---- byte masks: bit i of a sector's mask = byte i written by some lane ------ */

static void check_masks(const char *what, enum coalesce_order o, const uint64_t *a,
			uint32_t n, uint32_t width)
{
	uint64_t *out = g_new(uint64_t, n), *plain = g_new(uint64_t, n);
	uint32_t *mask = g_new(uint32_t, n), lines, plain_lines;
	uint32_t m = coalesce_masked(get(o, 32, 128), a, n, width, out, mask, &lines);

	/* the same sectors, order and lines as without masks */
	g_assert_cmpuint(coalesce(get(o, 32, 128), a, n, plain, &plain_lines), ==, m);
	g_assert_cmpuint(lines, ==, plain_lines);
	g_assert_true(memcmp(out, plain, m * sizeof(*out)) == 0);
	for (uint32_t i = 0; i < m; i++)
		if (mask[i] != ref_mask(out[i], a, n, width))
			g_error("%s: sector 0x%" G_GINT64_MODIFIER "x: mask %#x, want %#x", what,
				out[i], mask[i], ref_mask(out[i], a, n, width));
	g_free(out);
	g_free(plain);
	g_free(mask);
}

/* Widths the opcode names (the first all-digit or U-and-digits modifier, in
 * bits: LDG.E.128 16 bytes, .64 8, .U8 1, .U16 2, none 4), lanes as a warp
 * gives them. */
static int cmp_addr(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return (a > b) - (a < b);
}

static void test_masks(void)
{
	static const uint64_t u8[] = { 0x7f0000000045 };
	uint64_t a[32], out[32];
	uint32_t mask[32], lines;
	struct splitmix r = { 7 };

	/* STG.E.U8, one lane: one byte */
	g_assert_cmpuint(coalesce_masked(get(COALESCE_ASCENDING, 32, 128), u8, 1, 1, out, mask,
					 &lines), ==, 1);
	g_assert_cmphex(out[0], ==, 0x7f0000000040);
	g_assert_cmphex(mask[0], ==, 0x20);
	/* LDG.E.64 by 32 lanes: 8 full sectors */
	for (int t = 0; t < 32; t++)
		a[t] = 0x7f0000001000 + 8 * t;
	g_assert_cmpuint(coalesce_masked(get(COALESCE_DESCENDING, 32, 128), a, 32, 8, out, mask,
					 &lines), ==, 8);
	g_assert_cmpuint(lines, ==, 2);
	for (int i = 0; i < 8; i++) {
		g_assert_cmphex(out[i], ==, 0x7f0000001000 + 32 * (7 - i));
		g_assert_cmphex(mask[i], ==, UINT32_MAX);
	}
	/* LDG.E.128 by 32 lanes: 16 full sectors */
	for (int t = 0; t < 32; t++)
		a[t] = 0x7f0000002000 + 16 * t;
	g_assert_cmpuint(coalesce_masked(get(COALESCE_ASCENDING, 32, 128), a, 32, 16, out, mask,
					 &lines), ==, 16);
	for (int i = 0; i < 16; i++)
		g_assert_cmphex(mask[i], ==, UINT32_MAX);
	/* 4-byte lanes from the middle of a sector, every other lane */
	for (int t = 0; t < 8; t++)
		a[t] = 0x7f0000003010 + 8 * t;
	g_assert_cmpuint(coalesce_masked(get(COALESCE_ASCENDING, 32, 128), a, 8, 4, out, mask,
					 &lines), ==, 3);
	g_assert_cmphex(mask[0], ==, 0x0f0f0000);
	g_assert_cmphex(mask[1], ==, 0x0f0f0f0f);
	g_assert_cmphex(mask[2], ==, 0x00000f0f);
	/* a 16-byte access 8 bytes before a sector's end is clipped there */
	a[0] = 0x7f0000004018;
	coalesce_masked(get(COALESCE_ASCENDING, 32, 128), a, 1, 16, out, mask, &lines);
	g_assert_cmphex(mask[0], ==, 0xff000000);
	/* random lanes, every order and width, against the oracle */
	for (int k = 0; k < 400; k++) {
		static const uint32_t widths[] = { 1, 2, 4, 8, 16, 32 };
		uint32_t n = 1 + next(&r) % 32, width = widths[next(&r) % 6];
		uint64_t span = 32 << (next(&r) % 8);

		for (uint32_t t = 0; t < n; t++)
			a[t] = 0x7f2a40000000 + next(&r) % span;
		for (int o = 0; o < N_ORDERS; o++)
			check_masks("random", o, a, n, width);
		/* lanes that meet the sectors in order, as most do (the masks'
		 * walk without a set), and then one lane back to an earlier
		 * sector (the walk must give up) */
		qsort(a, n, sizeof(a[0]), cmp_addr);
		for (int o = 0; o < N_ORDERS; o++)
			check_masks("sorted", o, a, n, width);
		if (n > 2) {
			a[n - 1] = a[0];
			for (int o = 0; o < N_ORDERS; o++)
				check_masks("sorted, the last lane back", o, a, n, width);
		}
	}
}

/* ---- lanes in arithmetic progression -------------------------------------- */

/*
 * What most warp instructions are, base + lane * stride, has a path of its
 * own: every stride up to a few sectors either way, and strides at and
 * past the longest it takes, on bases that wrap around the address space
 * or do not, against the oracle in every order; the pyset order against
 * the general path's, given the same sectors by the same lanes plus one
 * that only repeats the first and so ends the progression; and
 * coalesce_progression(), given the progression's first address and step
 * instead of its addresses, against coalesce() in every order.
 */
static void test_strided(void)
{
	static const int64_t long_strides[] = {
		(INT64_C(1) << 31) - 1, INT64_C(1) << 31, (INT64_C(1) << 31) + 1,
		-(INT64_C(1) << 31) + 1, -(INT64_C(1) << 31), -(INT64_C(1) << 31) - 1,
		INT64_C(1) << 40, -(INT64_C(1) << 40),
	};
	struct splitmix r = { 0x5eed5eed };
	uint64_t a[33], py_ap[33], py_gen[33];
	uint32_t checked = 0;

	for (int k = 0; k < 3000; k++) {
		uint32_t sb = 32u << (next(&r) % 2), lb = sb << (1 + next(&r) % 2);
		uint32_t n = 1 + next(&r) % 32, l1, l2;
		int64_t d = k % 4 == 3 ? long_strides[next(&r) % G_N_ELEMENTS(long_strides)]
				       : (int64_t)(next(&r) % 161) - 80;
		/* a quarter of the bases close to either end of the address space */
		uint64_t base = next(&r) % 4 == 0 ? (next(&r) % 2 ? 0 : UINT64_MAX) +
						     (next(&r) % 2048) - 1024
						   : 0x7f2a40000000 + next(&r) % 4096;

		for (uint32_t t = 0; t < n; t++)
			a[t] = base + (uint64_t)d * t;
		check_all("strided", sb, lb, a, n, NULL, 0, 0);
		/* the same from the progression itself, as a line holds it */
		for (int o = 0; o < N_ORDERS; o++) {
			struct coalescer *c = get(o, sb, lb);
			uint64_t from_line[33], from_addr[33];
			uint32_t ml = coalesce_progression(c, base, (uint64_t)d, n, from_line, &l1);
			uint32_t ma = coalesce(c, a, n, from_addr, &l2);

			g_assert_cmpuint(ml, ==, ma);
			g_assert_cmpuint(l1, ==, l2);
			g_assert_cmpmem(from_line, ml * sizeof(uint64_t), from_addr, ma * sizeof(uint64_t));
		}
		if (n == 32)
			continue;
		a[n] = a[0];
		uint32_t m1 = coalesce(get(COALESCE_PYSET, sb, lb), a, n, py_ap, &l1);
		uint32_t m2 = coalesce(get(COALESCE_PYSET, sb, lb), a, n + 1, py_gen, &l2);

		g_assert_cmpuint(m1, ==, m2);
		g_assert_cmpuint(l1, ==, l2);
		g_assert_cmpmem(py_ap, m1 * sizeof(uint64_t), py_gen, m2 * sizeof(uint64_t));
		checked++;
	}
	g_assert_cmpuint(checked, >, 2000);
}

/* ---- Fermi's lane groups (Nugteren et al.'s model) ------------------------ */

/*
 * The model's rule as doc/nugteren-model.md words it, lane by lane: a lane
 * is folded into the first earlier lane of its group whose line is the
 * same, else it makes a request.  lane_addr[l] for the lanes in `lanes`.
 */
static uint32_t groups_reference(const uint64_t *lane_addr, uint32_t lanes,
				 uint32_t width, uint32_t line_bytes,
				 uint64_t *out, uint8_t *lane)
{
	uint32_t g = width == 8 ? 16 : width == 16 ? 8 : 32, m = 0;

	for (uint32_t l = 0; l < 32; l++) {
		gboolean folded = FALSE;

		if (!(lanes & (1u << l)))
			continue;
		for (uint32_t k = g * (l / g); k < l && !folded; k++)
			folded = (lanes & (1u << k)) &&
				 lane_addr[k] / line_bytes == lane_addr[l] / line_bytes;
		if (folded)
			continue;
		out[m] = lane_addr[l] / line_bytes * line_bytes;
		lane[m++] = (uint8_t)l;
	}
	return m;
}

static void test_lane_groups(void)
{
	static const uint32_t widths[] = { 1, 2, 4, 8, 16 };
	uint64_t a[32], out[32], want[32];
	uint8_t lane[32], want_lane[32];
	GRand *r = g_rand_new_with_seed(2014);

	/* consecutive accesses of 4, 8 and 16 bytes from line 10: one line
	 * per warp, per half warp, per quarter warp */
	for (uint32_t w = 4; w <= 16; w *= 2) {
		uint32_t m;

		for (uint32_t l = 0; l < 32; l++)
			a[l] = 1280 + (uint64_t)w * l;
		m = coalesce_lane_groups(a, 32, 0, w, 128, out, lane);
		g_assert_cmpuint(m, ==, w / 4);
		for (uint32_t i = 0; i < m; i++) {
			g_assert_cmpuint(out[i], ==, 1280 + 128 * i);
			g_assert_cmpuint(lane[i], ==, 32 / (w / 4) * i);
		}
	}
	/* one 8-byte address for all: a request per half warp */
	for (uint32_t l = 0; l < 32; l++)
		a[l] = 4096;
	g_assert_cmpuint(coalesce_lane_groups(a, 32, 0, 8, 128, out, lane), ==, 2);
	g_assert_cmpuint(lane[1], ==, 16);
	g_assert_cmpuint(out[1], ==, 4096);
	/* against the lane-by-lane rule, on random masks and addresses */
	for (int it = 0; it < 20000; it++) {
		uint32_t lanes = g_rand_int(r), w = widths[it % 5], n = 0, m, k;
		uint32_t line_bytes = it % 3 ? 128 : 32;
		uint64_t lane_addr[32];

		if (it % 7 == 0)
			lanes = UINT32_MAX;
		for (uint32_t l = 0; l < 32; l++) {
			/* a few lines, so that lanes share them */
			lane_addr[l] = (uint64_t)g_rand_int_range(r, 0, 6) * 96 +
				       (uint64_t)g_rand_int_range(r, 0, 4) * w;
			if (lanes & (1u << l))
				a[n++] = lane_addr[l];
		}
		k = groups_reference(lane_addr, lanes, w, line_bytes, want, want_lane);
		m = coalesce_lane_groups(a, n, lanes, w, line_bytes, out, lane);
		g_assert_cmpuint(m, ==, k);
		for (uint32_t i = 0; i < m; i++) {
			g_assert_cmpuint(out[i], ==, want[i]);
			g_assert_cmpuint(lane[i], ==, want_lane[i]);
		}
	}
	g_rand_free(r);
}

int main(int argc, char **argv)
{
	int ret;

	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/coalesce/spec-vectors", test_spec_vectors);
	g_test_add_func("/coalesce/cpython-explicit", test_explicit);
	g_test_add_func("/coalesce/cpython-generated", test_generated);
	g_test_add_func("/coalesce/empty", test_empty);
	g_test_add_func("/coalesce/scratch", test_scratch);
	g_test_add_func("/coalesce/const-input", test_const_input);
	g_test_add_func("/coalesce/masks", test_masks);
	g_test_add_func("/coalesce/lane-groups", test_lane_groups);
	g_test_add_func("/coalesce/strided", test_strided);
	ret = g_test_run();
	put_all();
	return ret;
}
