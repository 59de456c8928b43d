/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The base opcode table's lookup (models/opcode.h): op_base_of() against
 * op_base_scan(), the table searched entry by entry, on every string of
 * up to 4 bytes over the bases' letters and digits, on the bases and
 * their prefixes and extensions up to 9 bytes, and on bytes a base never
 * has (NUL, lower case, the high half); and a few classes by name.
 */
#include "config.h"

#include <string.h>
#include <glib.h>
#include "opcode.h"

static void assert_same(const char *op, size_t n)
{
	struct op_base a = op_base_of(op, n), b = op_base_scan(op, n);

	if (a.cls != b.cls || a.space != b.space)
		g_error("base \"%.*s\" (%zu bytes): class %u space %u, the table says %u %u",
			(int)n, op, n, a.cls, a.space, b.cls, b.space);
}

static void test_known(void)
{
	g_assert_cmpuint(op_base_of("LDG", 3).cls, ==, OP_LOAD);
	g_assert_cmpuint(op_base_of("LDG", 3).space, ==, SPACE_GLOBAL);
	g_assert_cmpuint(op_base_of("STL", 3).cls, ==, OP_STORE);
	g_assert_cmpuint(op_base_of("STL", 3).space, ==, SPACE_LOCAL);
	g_assert_cmpuint(op_base_of("LDGSTS", 6).cls, ==, OP_LOAD);
	g_assert_cmpuint(op_base_of("ATOMS", 5).cls, ==, OP_SHARED);
	g_assert_cmpuint(op_base_of("TLD4S", 5).cls, ==, OP_IGNORED);
	g_assert_cmpuint(op_base_of("LDG.E", 3).cls, ==, OP_LOAD);	/* n decides */
	g_assert_cmpuint(op_base_of("LDGX", 4).cls, ==, OP_UNKNOWN);
	g_assert_cmpuint(op_base_of("LD", 1).cls, ==, OP_UNKNOWN);
	g_assert_cmpuint(op_base_of("", 0).cls, ==, OP_UNKNOWN);
	g_assert_cmpuint(op_base_of("IMAD", 4).cls, ==, OP_UNKNOWN);
}

static void test_against_scan(void)
{
	static const char alphabet[] = "ABCDEGHILMNOQRSTUXY4\0.l\x80\xff";
	const size_t a = sizeof(alphabet) - 1;
	static const char *const bases[] = {
		"LDG", "LDGSTS", "STG", "LDL", "STL", "LD", "ST", "ATOM", "ATOMG",
		"RED", "REDG", "LDS", "STS", "ATOMS", "LDSM", "LDC", "ULDC", "TEX",
		"TEXS", "TLD", "TLDS", "TLD4", "TLD4S", "TMML", "TXD", "TXQ",
	};
	char s[16];
	guint64 known = 0;

	/* every string of 0 to 4 bytes over the alphabet */
	for (size_t len = 0; len <= 4; len++) {
		size_t total = 1;

		for (size_t i = 0; i < len; i++)
			total *= a;
		for (size_t code = 0; code < total; code++) {
			size_t c = code;

			for (size_t i = 0; i < len; i++, c /= a)
				s[i] = alphabet[c % a];
			assert_same(s, len);
		}
	}
	/* each base, its prefixes, and its extensions by a byte or more */
	for (size_t b = 0; b < G_N_ELEMENTS(bases); b++) {
		size_t n = strlen(bases[b]);

		known += op_base_of(bases[b], n).cls != OP_UNKNOWN;
		for (size_t len = 0; len <= n; len++)
			assert_same(bases[b], len);
		for (size_t k = 0; k < a; k++) {
			memcpy(s, bases[b], n);
			for (size_t extra = 1; n + extra <= 9; extra++) {
				s[n + extra - 1] = alphabet[(k + extra) % a];
				assert_same(s, n + extra);
			}
		}
	}
	g_assert_cmpuint(known, ==, G_N_ELEMENTS(bases));
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/opcode/known", test_known);
	g_test_add_func("/opcode/against-scan", test_against_scan);
	return g_test_run();
}
