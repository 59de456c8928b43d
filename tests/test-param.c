/* SPDX-License-Identifier: BSD-3-Clause */
/* Parameter values: units, strict integers and booleans, enums, lists, ranges. */
#include "config.h"

#include <string.h>
#include "param.h"

static const char *const colours[] = { "red", "green", "blue", NULL };

static bool parse(enum ss_param_type t, const char *text, struct ss_pvalue *v,
		  char **why)
{
	struct ss_param_desc d = { "x", t, "0", "", colours, 0, 0, 0 };

	memset(v, 0, sizeof(*v));
	return ss_param_parse(&d, text, NULL, v, why);
}

static uint64_t ok_u(enum ss_param_type t, const char *text)
{
	struct ss_pvalue v;
	char *why = NULL;

	if (!parse(t, text, &v, &why))
		g_error("'%s' refused: %s", text, why);
	g_free(v.text);
	return v.v.u;
}

static void refused(enum ss_param_type t, const char *text, const char *hint)
{
	struct ss_pvalue v;
	char *why = NULL;

	if (parse(t, text, &v, &why))
		g_error("'%s' accepted as %s", text, ss_param_type_name(t));
	g_assert_nonnull(strstr(why, hint));
	g_free(why);
}

static void test_sizes(void)
{
	g_assert_cmpuint(ok_u(SS_P_SIZE, "32B"), ==, 32);
	g_assert_cmpuint(ok_u(SS_P_SIZE, "128"), ==, 128);
	g_assert_cmpuint(ok_u(SS_P_SIZE, "128KiB"), ==, 131072);
	g_assert_cmpuint(ok_u(SS_P_SIZE, "4.5MiB"), ==, 4718592);
	g_assert_cmpuint(ok_u(SS_P_SIZE, "1GiB"), ==, 1073741824);
	g_assert_cmpuint(ok_u(SS_P_SIZE, "0.5KiB"), ==, 512);
	g_assert_cmpuint(ok_u(SS_P_SIZE, "40 MiB"), ==, 41943040);
	refused(SS_P_SIZE, "1.3B", "whole number of bytes");
	refused(SS_P_SIZE, "12KB", "KiB");
	refused(SS_P_SIZE, "-1", "bytes");
	refused(SS_P_SIZE, "", "bytes");
	refused(SS_P_SIZE, "KiB", "bytes");
	refused(SS_P_SIZE, "1..2KiB", "bytes");
	refused(SS_P_SIZE, "99999999999999999999", "bytes");
	refused(SS_P_SIZE, "17179869184GiB", "bytes");	/* 2^64 B: overflow */
}

static void test_times_and_freqs(void)
{
	g_assert_cmpuint(ok_u(SS_P_TIME, "2ns"), ==, 2000);
	g_assert_cmpuint(ok_u(SS_P_TIME, "1.5us"), ==, 1500000);
	g_assert_cmpuint(ok_u(SS_P_TIME, "300ps"), ==, 300);
	g_assert_cmpuint(ok_u(SS_P_TIME, "1s"), ==, UINT64_C(1000000000000));
	refused(SS_P_TIME, "5", "unit");
	refused(SS_P_TIME, "0.1ps", "unit");
	g_assert_cmpuint(ok_u(SS_P_FREQ, "1200MHz"), ==, 1200000000);
	g_assert_cmpuint(ok_u(SS_P_FREQ, "1.455GHz"), ==, 1455000000);
	g_assert_cmpuint(ok_u(SS_P_FREQ, "50kHz"), ==, 50000);
	refused(SS_P_FREQ, "1200", "unit");
	refused(SS_P_FREQ, "1200mhz", "unit");
}

static void test_integers(void)
{
	struct ss_pvalue v;
	char *why = NULL;

	g_assert_cmpuint(ok_u(SS_P_UINT, "0"), ==, 0);
	g_assert_cmpuint(ok_u(SS_P_UINT, "18446744073709551615"), ==, UINT64_MAX);
	g_assert_cmpuint(ok_u(SS_P_UINT, "0x7100"), ==, 0x7100);
	/* iniparser's getint would silently wrap this one */
	refused(SS_P_UINT, "18446744073709551616", "unsigned");
	refused(SS_P_UINT, "-3", "unsigned");
	refused(SS_P_UINT, "12abc", "unsigned");
	refused(SS_P_UINT, "0x", "unsigned");
	refused(SS_P_UINT, " 5", "unsigned");
	g_assert_true(parse(SS_P_INT, "-42", &v, &why));
	g_assert_cmpint(v.v.i, ==, -42);
	g_free(v.text);
	refused(SS_P_INT, "4.2", "whole");
	g_assert_true(parse(SS_P_DOUBLE, "0.25", &v, &why));
	g_assert_cmpfloat(v.v.d, ==, 0.25);
	g_free(v.text);
	refused(SS_P_DOUBLE, "0.25x", "number");
	refused(SS_P_DOUBLE, "nan", "number");
	refused(SS_P_DOUBLE, "", "number");
}

static void test_booleans(void)
{
	static const char *const yes[] = { "true", "yes", "on", "1" };
	static const char *const no[] = { "false", "no", "off", "0" };
	struct ss_pvalue v;
	char *why = NULL;

	for (int i = 0; i < 4; i++) {
		g_assert_true(parse(SS_P_BOOL, yes[i], &v, &why));
		g_assert_true(v.v.b);
		g_free(v.text);
		g_assert_true(parse(SS_P_BOOL, no[i], &v, &why));
		g_assert_false(v.v.b);
		g_free(v.text);
	}
	/* iniparser reads anything starting with t/y/1 as true */
	refused(SS_P_BOOL, "typo", "true or false");
	refused(SS_P_BOOL, "True", "true or false");
	refused(SS_P_BOOL, "", "true or false");
}

static void test_enums_and_lists(void)
{
	struct ss_pvalue v;
	char *why = NULL;

	g_assert_true(parse(SS_P_ENUM, "blue", &v, &why));
	g_assert_cmpuint(v.v.e, ==, 2);
	g_free(v.text);
	refused(SS_P_ENUM, "gren", "did you mean 'green'");
	refused(SS_P_ENUM, "purple", "expected one of red, green, blue");

	g_assert_true(parse(SS_P_LIST, "0, 8,16,32 ,64,96", &v, &why));
	g_assert_cmpuint(v.v.list.n, ==, 6);
	g_assert_cmpuint(v.v.list.items[5], ==, 96);
	g_free(v.v.list.items);
	g_free(v.text);
	g_assert_true(parse(SS_P_LIST, "", &v, &why));
	g_assert_cmpuint(v.v.list.n, ==, 0);
	g_free(v.v.list.items);
	g_free(v.text);
	refused(SS_P_LIST, "1,,2", "item 2");
	refused(SS_P_LIST, "1,x", "item 2 'x'");
}

static void test_ranges(void)
{
	struct ss_param_desc d = { "assoc", SS_P_UINT, "4", "", NULL, 1, 64, SS_PF_POW2 };
	struct ss_pvalue v = { 0 };
	char *why = NULL;

	g_assert_true(ss_param_parse(&d, "16", NULL, &v, &why));
	g_assert_cmpuint(v.v.u, ==, 16);
	g_assert_false(ss_param_parse(&d, "12", NULL, &v, &why));
	g_assert_nonnull(strstr(why, "power of two"));
	g_free(why);
	g_assert_false(ss_param_parse(&d, "128", NULL, &v, &why));
	g_assert_nonnull(strstr(why, "from 1 to 64"));
	g_free(why);
	/* a refused value leaves the previous one alone */
	g_assert_cmpuint(v.v.u, ==, 16);
	g_free(v.text);
}

static void test_paths(void)
{
	struct ss_param_desc d = { "path", SS_P_PATH, NULL, "", NULL, 0, 0, 0 };
	struct ss_pvalue v = { 0 };
	char *why = NULL;

	g_assert_true(ss_param_parse(&d, "traces/x", "/etc/sectorsim", &v, &why));
	g_assert_cmpstr(v.v.s, ==, "/etc/sectorsim/traces/x");
	g_assert_true(ss_param_parse(&d, "/abs/y", "/etc/sectorsim", &v, &why));
	g_assert_cmpstr(v.v.s, ==, "/abs/y");
	g_free(v.v.s);
	g_free(v.text);
}

static void test_defaults_container(void)
{
	static const struct ss_param_desc table[] = {
		{ "size", SS_P_SIZE, "96KiB", "", NULL, 0, 0, 0 },
		{ "name", SS_P_STRING, "l1", "", NULL, 0, 0, 0 },
		{ "ways", SS_P_LIST, "1,2", "", NULL, 0, 0, 0 },
		{ NULL, 0, NULL, NULL, NULL, 0, 0, 0 },
	};
	static const struct ss_param_desc broken[] = {
		{ "size", SS_P_SIZE, "96KB", "", NULL, 0, 0, 0 },
		{ NULL, 0, NULL, NULL, NULL, 0, 0, 0 },
	};
	char *why = NULL;
	struct ss_params *p = ss_params_new_defaults(table, &why);
	struct ss_params *q = ss_params_copy(p);
	size_t n;

	g_assert_cmpuint(ss_param_uint(q, "size"), ==, 98304);
	g_assert_cmpstr(ss_param_string(q, "name"), ==, "l1");
	g_assert_cmpuint(ss_param_list(q, "ways", &n)[1], ==, 2);
	g_assert_cmpuint(n, ==, 2);
	g_assert_false(ss_param_is_set(q, "size"));
	ss_params_free(p);
	ss_params_free(q);
	g_assert_null(ss_params_new_defaults(broken, &why));
	g_assert_nonnull(strstr(why, "default of 'size'"));
	g_free(why);
}

/* The whole message of every type, as the command line prints it after
 * "FILE:LINE: key = value: ". */
static void expect_message(const struct ss_param_desc *d, const char *text,
			   const char *message)
{
	struct ss_pvalue v = { 0 };
	char *why = NULL;

	g_assert_false(ss_param_parse(d, text, NULL, &v, &why));
	g_assert_cmpstr(why, ==, message);
	g_free(why);
	g_assert_null(v.text);
}

static void test_messages(void)
{
	static const struct {
		enum ss_param_type type;
		const char *text, *message;
	} cases[] = {
		{ SS_P_INVALID, "1", "parameter has no type" },
		{ SS_P_INT, "4.2", "expected a whole number" },
		{ SS_P_UINT, "ten", "expected an unsigned whole number (decimal or 0x hex)" },
		{ SS_P_SIZE, "32KB", "expected a whole number of bytes such as 32B, 128KiB or 4.5MiB (units B, KiB, MiB, GiB)" },
		{ SS_P_DOUBLE, "x", "expected a number such as 0.25" },
		{ SS_P_BOOL, "typo", "expected true or false (also yes/no, on/off, 1/0)" },
		{ SS_P_ENUM, "gren", "expected one of red, green, blue; did you mean 'green'?" },
		{ SS_P_ENUM, "purple", "expected one of red, green, blue" },
		{ SS_P_PATH, "", "expected a file or folder name" },
		{ SS_P_TIME, "5", "expected a time with a unit such as 2ns or 1.5us (units ps, ns, us, ms, s)" },
		{ SS_P_FREQ, "1200", "expected a frequency with a unit such as 1200MHz (units Hz, kHz, MHz, GHz)" },
		{ SS_P_LIST, "1,x", "item 2 'x': expected an unsigned whole number" },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct ss_param_desc d = { "x", cases[i].type, NULL, "", colours, 0, 0, 0 };

		expect_message(&d, cases[i].text, cases[i].message);
	}

	struct ss_param_desc r = { "x", SS_P_SIZE, NULL, "", NULL, 32, 256, SS_PF_POW2 };

	expect_message(&r, "16B", "expected a value from 32 to 256");
	expect_message(&r, "96B", "expected a power of two");
	r.type = SS_P_LIST;
	expect_message(&r, "32, 512", "item 2 '512': expected a value from 32 to 256");
	expect_message(&r, "32,48", "item 2 '48': expected a power of two");
}

static void test_type_names(void)
{
	static const char *const names[] = {
		[SS_P_INVALID] = "invalid", [SS_P_INT] = "int", [SS_P_UINT] = "uint",
		[SS_P_SIZE] = "size", [SS_P_DOUBLE] = "double", [SS_P_BOOL] = "bool",
		[SS_P_ENUM] = "enum", [SS_P_STRING] = "string", [SS_P_PATH] = "path",
		[SS_P_TIME] = "time", [SS_P_FREQ] = "freq", [SS_P_LIST] = "list",
	};

	for (unsigned t = 0; t < G_N_ELEMENTS(names); t++) {
		g_assert_cmpstr(ss_param_type_name(t), ==, names[t]);
		g_assert_true(ss_param_type_known(t) == (t != SS_P_INVALID));
	}
	g_assert_cmpstr(ss_param_type_name(SS_P_LIST + 1), ==, "invalid");
	g_assert_false(ss_param_type_known(SS_P_LIST + 1));
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/param/sizes", test_sizes);
	g_test_add_func("/param/times-and-freqs", test_times_and_freqs);
	g_test_add_func("/param/integers", test_integers);
	g_test_add_func("/param/booleans", test_booleans);
	g_test_add_func("/param/enums-and-lists", test_enums_and_lists);
	g_test_add_func("/param/ranges", test_ranges);
	g_test_add_func("/param/paths", test_paths);
	g_test_add_func("/param/defaults", test_defaults_container);
	g_test_add_func("/param/messages", test_messages);
	g_test_add_func("/param/type-names", test_type_names);
	return g_test_run();
}
