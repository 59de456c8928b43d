/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sectorsim compare SIM NCU [SIM NCU ...]: our per-kernel results against
 * Nsight Compute's, scored the way the paper's scripts score them.
 *
 * Each SIM/NCU pair is one app instance.  SIM is our --json or --csv file,
 * NCU an `ncu --csv` file, either `--page raw` (a header row, a units row,
 * one row per profiled kernel) or the long `--metrics` form (one row per
 * kernel and metric, transposed here by ID).  An NCU file with k times as
 * many kernels as SIM holds k profiling runs; they are averaged per kernel
 * and column.  Kernels pair in launch order, checked by name.
 *
 * The hardware value of each metric is computed from the ncu columns as
 * the paper's scripts do, quirks included (l1_hit_rate_stg over requests,
 * gmem_ld_diverg against the total divergence); --corrected pairs like with
 * like instead.  Then, per metric, over app instances (kernels averaged
 * per app, sim and hardware separately) or over kernels (--kernels): MAPE
 * over the rows whose hardware value is not 0, NRMSE and Pearson r over
 * all rows with both values.
 *
 * No CSV or JSON library: the inputs are small and regular, and a reader
 * of our own gives the "FILE:LINE: what; expected what" errors the rest of
 * sectorsim gives.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "compare.h"
#include "json.h"
#include "outfile.h"
#include "report_metrics.h"
#include "svgplot.h"



/* ---- the metrics and their hardware values -------------------------------- */

/* The Nsight metrics (report_metrics.h), by short names. */
#define L1_HITS(op)	NCU_L1_HITS_##op
#define L1_SECTORS(op)	NCU_L1_SECTORS_##op
#define L1_REQS(op)	NCU_L1_REQS_##op
#define LTS(op)		NCU_LTS_##op
#define LTS_TEX(op)	NCU_LTS_TEX_##op

#define FORM_TERMS 4
#define FORMS 2

/*
 * A hardware value: (sum of num + sum of num_opt) / (sum of den + sum of
 * den_opt), no division without den, where a value alone is converted
 * from its Nsight unit to ours (a percentage to a rate, bytes to
 * sectors).  num and den columns must be in the kernel's row; num_opt and
 * den_opt count as 0 when they are not, because they are the atomic and
 * reduction terms, which hand-picked --metrics lists leave out and which
 * are 0 for most kernels.  Each list ends at its first NCU_NONE.
 */
struct form {
	enum ncu_metric num[FORM_TERMS];
	enum ncu_metric num_opt[FORM_TERMS];
	enum ncu_metric den[FORM_TERMS];
	enum ncu_metric den_opt[FORM_TERMS];
};

/*
 * A compared metric: our key (a report metric), and up to FORMS ways to
 * get its hardware value, the first whose columns are in the row winning
 * (ncu's --set full has the srcunit_tex L2 counters where an explicit list
 * may have the plain ones).  corrected: the like-for-like forms of
 * --corrected, when they differ from the paper's.  is_sum: the value is
 * sum[0] + sum[1], two metrics earlier in the table.
 */
struct metric {
	enum report_metric key;
	struct form paper[FORMS];
	struct form corrected[FORMS];
	bool is_sum;
	int sum[2];
};

/* The rows of the table, in the order of the paper's Table 4. */
enum {
	M_L1_HIT_RATE, M_L1_HIT_RATE_G, M_L1_HIT_RATE_LDG, M_L1_HIT_RATE_STG,
	M_L2_HIT_RATE, M_L2_HIT_RATE_LD, M_L2_HIT_RATE_ST,
	M_L2_LD_TRANS, M_L2_ST_TRANS, M_L2_TOT_TRANS,
	M_DRAM_LD_TRANS, M_DRAM_ST_TRANS, M_DRAM_TOT_TRANS,
	M_GMEM_TOT_REQS, M_GMEM_LD_SECTORS, M_GMEM_ST_SECTORS,
	M_GMEM_TOT_SECTORS, M_GMEM_LD_DIVERG,
	N_METRICS
};

static const struct metric metrics[N_METRICS] = {
	[M_L1_HIT_RATE] = { RM_l1_hit_rate, .paper = {
		{ .num = { NCU_L1_HIT_RATE } } } },
	[M_L1_HIT_RATE_G] = { RM_l1_hit_rate_g, .paper = { {
		.num = { L1_HITS(LD), L1_HITS(ST) },
		.num_opt = { L1_HITS(RED), L1_HITS(ATOM) },
		.den = { L1_SECTORS(LD), L1_SECTORS(ST) },
		.den_opt = { L1_SECTORS(RED), L1_SECTORS(ATOM) } } } },
	[M_L1_HIT_RATE_LDG] = { RM_l1_hit_rate_ldg, .paper = {
		{ .num = { L1_HITS(LD) }, .den = { L1_SECTORS(LD) } } } },
	/* the paper's quirk: store sector hits over store requests */
	[M_L1_HIT_RATE_STG] = { RM_l1_hit_rate_stg, .paper = {
		{ .num = { L1_HITS(ST) }, .den = { L1_REQS(ST) } } },
		.corrected = {
		{ .num = { L1_HITS(ST) }, .den = { L1_SECTORS(ST) } } } },
	[M_L2_HIT_RATE] = { RM_l2_hit_rate, .paper = {
		{ .num = { NCU_L2_HIT_RATE } } } },
	[M_L2_HIT_RATE_LD] = { RM_l2_hit_rate_ld, .paper = {
		{ .num = { NCU_L2_READ_HIT_RATE } } } },
	[M_L2_HIT_RATE_ST] = { RM_l2_hit_rate_st, .paper = {
		{ .num = { NCU_L2_WRITE_HIT_RATE } } } },
	[M_L2_LD_TRANS] = { RM_l2_ld_trans, .paper = {
		{ .num = { LTS(READ) }, .num_opt = { LTS(ATOM), LTS(RED) } },
		{ .num = { LTS_TEX(READ) }, .num_opt = { LTS_TEX(RED) } } } },
	[M_L2_ST_TRANS] = { RM_l2_st_trans, .paper = {
		{ .num = { LTS(WRITE) }, .num_opt = { LTS(ATOM), LTS(RED) } },
		{ .num = { LTS_TEX(WRITE) }, .num_opt = { LTS_TEX(RED) } } } },
	[M_L2_TOT_TRANS] = { RM_l2_tot_trans, .is_sum = true,
		.sum = { M_L2_LD_TRANS, M_L2_ST_TRANS } },
	/* dram__bytes_*, for lists without the sector counts */
	[M_DRAM_LD_TRANS] = { RM_dram_ld_trans, .paper = {
		{ .num = { NCU_DRAM_SECTORS_READ } },
		{ .num = { NCU_DRAM_BYTES_READ } } } },
	[M_DRAM_ST_TRANS] = { RM_dram_st_trans, .paper = {
		{ .num = { NCU_DRAM_SECTORS_WRITE } },
		{ .num = { NCU_DRAM_BYTES_WRITE } } } },
	[M_DRAM_TOT_TRANS] = { RM_dram_tot_trans, .is_sum = true,
		.sum = { M_DRAM_LD_TRANS, M_DRAM_ST_TRANS } },
	[M_GMEM_TOT_REQS] = { RM_gmem_tot_reqs, .paper = {
		{ .num = { L1_REQS(LD), L1_REQS(ST) } } } },
	[M_GMEM_LD_SECTORS] = { RM_gmem_ld_sectors, .paper = {
		{ .num = { L1_SECTORS(LD) } } } },
	[M_GMEM_ST_SECTORS] = { RM_gmem_st_sectors, .paper = {
		{ .num = { L1_SECTORS(ST) } } } },
	[M_GMEM_TOT_SECTORS] = { RM_gmem_tot_sectors, .is_sum = true,
		.sum = { M_GMEM_LD_SECTORS, M_GMEM_ST_SECTORS } },
	/* the paper's quirk: our loads-only divergence against the total one */
	[M_GMEM_LD_DIVERG] = { RM_gmem_ld_diverg, .paper = { {
		.num = { L1_SECTORS(LD), L1_SECTORS(ST) },
		.den = { L1_REQS(LD), L1_REQS(ST) } } },
		.corrected = {
		{ .num = { NCU_L1_SECTORS_PER_REQ_LD } },
		{ .num = { L1_SECTORS(LD) }, .den = { L1_REQS(LD) } } } },
};

/* Our key of row m. */
static const char *metric_key(int m)
{
	return report_metrics[metrics[m].key].key;
}

static const struct form *metric_forms(const struct metric *m, bool corrected)
{
	return corrected && m->corrected[0].num[0] != NCU_NONE ? m->corrected : m->paper;
}

/* Every ncu column some form reads: the only ones whose numbers matter. */
static GHashTable *needed_columns(void)
{
	GHashTable *set = g_hash_table_new(g_str_hash, g_str_equal);

	for (int m = 0; m < N_METRICS; m++) {
		for (int c = 0; c < 2; c++) {
			const struct form *f = c ? metrics[m].corrected : metrics[m].paper;

			for (int i = 0; i < FORMS; i++) {
				for (int t = 0; t < FORM_TERMS; t++) {
					enum ncu_metric cols[] = { f[i].num[t], f[i].num_opt[t],
								   f[i].den[t], f[i].den_opt[t] };

					for (int j = 0; j < 4; j++)
						if (cols[j] != NCU_NONE)
							g_hash_table_add(set, (char *)ncu_metrics[cols[j]].name);
				}
			}
		}
	}
	return set;
}

static bool sum_terms(GHashTable *v, const enum ncu_metric *cols, bool required,
		      double *acc)
{
	for (int t = 0; t < FORM_TERMS && cols[t] != NCU_NONE; t++) {
		const double *x = g_hash_table_lookup(v, ncu_metrics[cols[t]].name);

		if (x)
			*acc += *x;
		else if (required)
			return false;
	}
	return true;
}

static bool form_applies(const struct form *f, GHashTable *v)
{
	double dummy = 0;

	return f->num[0] != NCU_NONE && sum_terms(v, f->num, true, &dummy) &&
	       sum_terms(v, f->den, true, &dummy);
}

/*
 * The hardware value of metric m for one kernel's columns, NAN when there
 * is none: no form has its columns, or a rate has nothing to be a rate of
 * (0 sectors), where a 0 would be scored as a measured 0 % hit rate.
 */
static double hw_value(int m, GHashTable *v, bool corrected)
{
	const struct form *forms = metric_forms(&metrics[m], corrected);

	for (int i = 0; i < FORMS; i++) {
		const struct form *f = &forms[i];
		double num = 0, den = 0;

		if (!form_applies(f, v))
			continue;
		sum_terms(v, f->num, true, &num);
		sum_terms(v, f->num_opt, false, &num);
		/* a value alone, in its Nsight unit: ours is that over the factor */
		if (f->den[0] == NCU_NONE)
			return num * (1.0 / ncu_metrics[f->num[0]].factor);
		sum_terms(v, f->den, true, &den);
		sum_terms(v, f->den_opt, false, &den);
		return den != 0 ? num / den : NAN;
	}
	return NAN;
}

/* ---- numbers and units --------------------------------------------------- */

/*
 * A number as ncu prints it: thousands separators ("1,234") dropped,
 * blanks around it ignored.  1 when there is a number, 0 when there is no
 * value ("" or "n/a": not collected for this kernel), -1 when the text is
 * not a number.
 */
static int parse_number(const char *s, double *out)
{
	char *t = g_malloc(strlen(s) + 1), *w = t, *end;
	int ret = -1;
	double v;

	for (const char *r = s; *r; r++)
		if (*r != ',')
			*w++ = *r;
	*w = '\0';
	g_strstrip(t);
	if (!*t || !g_ascii_strcasecmp(t, "n/a")) {
		ret = 0;
	} else {
		v = g_ascii_strtod(t, &end);
		/* inf and nan parse, but no counter is either */
		if (end != t && !*end && isfinite(v)) {
			*out = v;
			ret = 1;
		}
	}
	g_free(t);
	return ret;
}

/*
 * The factor from a unit to its base unit.  ncu scales values to a
 * fitting magnitude (--print-units auto, its default), "Kbyte", "Msector",
 * with decimal prefixes; binary ones ("KiB") are taken as powers of 1024.
 * Units without a known base ("%", "byte/second", "msecond") give 1: none
 * of them is a column we read.
 */
static double unit_scale(const char *unit)
{
	static const struct {
		const char *prefix;
		double factor;
	} prefixes[] = {
		{ "Ki", 1024.0 }, { "Mi", 1048576.0 }, { "Gi", 1073741824.0 },
		{ "Ti", 1099511627776.0 }, { "K", 1e3 }, { "k", 1e3 },
		{ "M", 1e6 }, { "G", 1e9 }, { "T", 1e12 }, { "P", 1e15 },
	};
	static const char *const bases[] = {
		"byte", "bytes", "B", "sector", "sectors", "request", "requests",
		"inst", "warp", "thread", "cycle", "cycles", "transaction", "block",
	};
	char *u = g_strstrip(g_strdup(unit));
	double f = 1;

	for (size_t i = 0; i < G_N_ELEMENTS(prefixes); i++) {
		size_t n = strlen(prefixes[i].prefix);

		if (strncmp(u, prefixes[i].prefix, n))
			continue;
		for (size_t b = 0; b < G_N_ELEMENTS(bases); b++)
			if (!strcmp(u + n, bases[b]))
				f = prefixes[i].factor;
		if (f != 1)
			break;
	}
	g_free(u);
	return f;
}

/* ---- an RFC 4180 CSV reader ------------------------------------------- */

struct csv_row {
	int line;		/* where the record starts, from 1 */
	guint n;
	char **f;		/* n fields and a NULL */
};

static void csv_row_free(gpointer p)
{
	struct csv_row *r = p;

	g_strfreev(r->f);
	g_free(r);
}

static bool blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return !*s;
}

/*
 * The records of text: fields split at commas, a field in double quotes
 * may hold commas, line breaks and doubled quotes; CRLF or LF.  Empty
 * lines are dropped, and so are lines that start with `comment` (0:
 * none): '=' for ncu's log lines, ==PROF== and ==WARNING==, wherever they
 * land; '#' for what produced our own CSV.  Text
 * after a closing quote is kept rather than refused: ncu never writes it,
 * and a hand-edited file should not fail on it.
 */
static GPtrArray *csv_parse(const char *path, const char *text, gsize len,
			    char comment, char **why)
{
	GPtrArray *rows = g_ptr_array_new_with_free_func(csv_row_free);
	GString *f = g_string_new(NULL);
	gsize i = 0;
	int line = 1;

	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		i = 3;	/* a UTF-8 byte order mark, as Windows tools write */
	while (i < len) {
		GPtrArray *fields;
		struct csv_row *r;
		int start = line;

		if (text[i] == '\n' || text[i] == '\r') {
			if (text[i] == '\r' && i + 1 < len && text[i + 1] == '\n')
				i++;
			i++;
			line++;
			continue;
		}
		if (comment && text[i] == comment) {
			while (i < len && text[i] != '\n')
				i++;
			i++;
			line++;
			continue;
		}
		fields = g_ptr_array_new();
		for (;;) {
			g_string_truncate(f, 0);
			if (i < len && text[i] == '"') {
				int qline = line;

				for (i++;; i++) {
					if (i >= len) {
						g_ptr_array_add(fields, NULL);
						g_strfreev((char **)g_ptr_array_free(fields, FALSE));
						g_ptr_array_free(rows, TRUE);
						g_string_free(f, TRUE);
						return (GPtrArray *)errf(why,
							"%s:%d: unterminated quoted field; expected a closing '\"'",
							path, qline);
					}
					if (text[i] == '"') {
						if (i + 1 < len && text[i + 1] == '"') {
							g_string_append_c(f, '"');
							i++;
							continue;
						}
						i++;
						break;
					}
					if (text[i] == '\n')
						line++;
					g_string_append_c(f, text[i]);
				}
			}
			while (i < len && text[i] != ',' && text[i] != '\n' && text[i] != '\r')
				g_string_append_c(f, text[i++]);
			g_ptr_array_add(fields, g_strdup(f->str));
			if (i < len && text[i] == ',') {
				i++;
				continue;
			}
			break;
		}
		if (i < len && text[i] == '\r')
			i++;
		if (i < len && text[i] == '\n')
			i++;
		line++;
		r = g_new0(struct csv_row, 1);
		r->line = start;
		r->n = fields->len;
		g_ptr_array_add(fields, NULL);
		r->f = (char **)g_ptr_array_free(fields, FALSE);
		if (r->n == 1 && blank(r->f[0])) {
			csv_row_free(r);	/* a line of blanks */
			continue;
		}
		g_ptr_array_add(rows, r);
	}
	g_string_free(f, TRUE);
	return rows;
}

static int csv_column(const struct csv_row *h, const char *name)
{
	for (guint i = 0; i < h->n; i++)
		if (!strcmp(h->f[i], name))
			return i;
	return -1;
}

/* ---- kernels as read from either side ------------------------------------ */

struct kernel {
	char *name;		/* as the file has it */
	char *base;		/* what names are matched on */
	int line;
	GHashTable *v;		/* metric or column -> double * */
};

struct table {
	const char *path;
	GPtrArray *k;		/* struct kernel */
	int last_line;		/* of the file, for errors about all of it */
};

static bool is_word(char c)
{
	return g_ascii_isalnum(c) || c == '_';
}

/* <length><identifier> of the Itanium C++ ABI */
static bool source_name(const char **p, const char **name, size_t *len)
{
	size_t n = 0;

	if (!g_ascii_isdigit(**p))
		return false;
	while (g_ascii_isdigit(**p)) {
		n = n * 10 + (size_t)(**p - '0');
		if (n > 4096)
			return false;
		(*p)++;
	}
	if (strnlen(*p, n) < n)
		return false;
	*name = *p;
	*len = n;
	*p += n;
	return true;
}

/*
 * The function name of a mangled name (after "_Z"): _Z9vectorAddPKfS0_Pfi
 * gives vectorAdd; a nested name, _ZN2ns6kernelEv, its last component
 * before any template arguments.  NULL for what this does not read
 * (substitutions, operators): the caller falls back to the first word.
 */
static char *demangle_function(const char *p)
{
	const char *name = NULL;
	size_t len = 0;

	if (*p == 'L')
		p++;	/* internal linkage: a static function */
	if (*p == 'N') {
		p++;
		while (*p && strchr("rVKRO", *p))
			p++;	/* qualifiers of a member function */
		if (p[0] == 'S' && p[1] == 't')
			p += 2;	/* std:: */
		while (*p && *p != 'E' && *p != 'I') {
			if (*p == 'L') {
				p++;
				continue;
			}
			if (!source_name(&p, &name, &len))
				break;
		}
	} else {
		source_name(&p, &name, &len);
	}
	return name ? g_strndup(name, len) : NULL;
}

/*
 * The name kernels are matched on.  Mangled names give their function's
 * name.  Others their first \w+ run, which drops ncu's parameter list
 * ("vectorAdd(const float *, ...)"), except that what ncu's demangler puts
 * before a function's own name is skipped too: a template's return type
 * ("void kernel<int>(int *)") and namespaces ("ns::kernel(float *)"), so
 * that these match the last component of _ZN2ns6kernelE...
 */
static char *kernel_base_name(const char *s)
{
	const char *p = s, *w;
	char *r;

	if (p[0] == '_' && p[1] == 'Z' && (r = demangle_function(p + 2)))
		return r;
	while (*p == ' ')
		p++;
	if (g_str_has_prefix(p, "void ")) {
		const char *q = p + 5;

		while (*q == ' ')
			q++;
		if (is_word(*q) || g_str_has_prefix(q, "(anonymous namespace)::"))
			p = q;
	}
	if (g_str_has_prefix(p, "(anonymous namespace)::"))
		p += strlen("(anonymous namespace)::");
	while (*p && !is_word(*p))
		p++;
	for (;;) {
		w = p;
		while (is_word(*p))
			p++;
		if (p[0] == ':' && p[1] == ':' && is_word(p[2])) {
			p += 2;
			continue;
		}
		break;
	}
	return g_strndup(w, p - w);
}

static struct kernel *kernel_new(const char *name, int line)
{
	struct kernel *k = g_new0(struct kernel, 1);

	k->name = g_strdup(name);
	k->base = kernel_base_name(name);
	k->line = line;
	k->v = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	return k;
}

static void kernel_free(gpointer p)
{
	struct kernel *k = p;

	g_free(k->name);
	g_free(k->base);
	g_hash_table_destroy(k->v);
	g_free(k);
}

static void kernel_set(struct kernel *k, const char *key, double v)
{
	g_hash_table_replace(k->v, g_strdup(key), g_memdup2(&v, sizeof(v)));
}

static bool read_whole(const char *path, char **text, gsize *len, char **why)
{
	GError *err = NULL;
	FILE *f = g_fopen(path, "rb");

	/* fopen first: its errno says it shorter than GLib's sentence */
	if (!f) {
		errf(why, "%s: cannot read it (%s); expected a readable file", path,
		     g_strerror(errno));
		return false;
	}
	fclose(f);
	if (g_file_get_contents(path, text, len, &err))
		return true;
	errf(why, "%s: cannot read it (%s); expected a readable file", path, err->message);
	g_error_free(err);
	return false;
}

/* ---- Nsight Compute CSV ------------------------------------------------ */

/*
 * A value of a column we read: stored in the base unit and recorded in
 * seen; a value that is not a number stops the reading.
 */
static bool ncu_value(struct table *t, struct kernel *k, const char *col,
		      const char *text, const char *unit, int line,
		      GHashTable *seen, char **why)
{
	double v;

	switch (parse_number(text, &v)) {
	case 0:
		return true;
	case 1:
		kernel_set(k, col, v * unit_scale(unit));
		if (!g_hash_table_contains(seen, col))
			g_hash_table_add(seen, g_strdup(col));
		return true;
	default:
		errf(why, "%s:%d: malformed number \"%s\" in column %s; expected a number",
		     t->path, line, text, col);
		return false;
	}
}

static bool row_width(const struct table *t, const struct csv_row *r,
		      const struct csv_row *h, char **why)
{
	if (r->n == h->n)
		return true;
	errf(why, "%s:%d: %u fields; expected %u, one per column of the header on line %d",
	     t->path, r->line, r->n, h->n, h->line);
	return false;
}

/* `ncu --csv --page raw`: header, units, one row per kernel */
static bool ncu_raw(struct table *t, GPtrArray *rows, GHashTable *needed,
		    GHashTable *seen, char **why)
{
	const struct csv_row *h = NULL, *units = NULL;
	int id = -1, kn = -1;

	for (guint i = 0; i < rows->len; i++) {
		const struct csv_row *r = rows->pdata[i];
		struct kernel *k;

		/* A header again: ncu outputs of several runs, concatenated. */
		if (!h || (kn >= 0 && (guint)kn < r->n && !strcmp(r->f[kn], "Kernel Name"))) {
			h = r;
			id = csv_column(h, "ID");
			kn = csv_column(h, "Kernel Name");
			units = NULL;
			continue;
		}
		if (!units) {
			if (!row_width(t, r, h, why))
				return false;
			if (*r->f[kn] || (id >= 0 && *r->f[id])) {
				errf(why, "%s:%d: missing units row; expected the units of the header's columns, with an empty ID and Kernel Name, on the row after it",
				     t->path, r->line);
				return false;
			}
			units = r;
			continue;
		}
		if (!row_width(t, r, h, why))
			return false;
		k = kernel_new(r->f[kn], r->line);
		g_ptr_array_add(t->k, k);
		for (guint c = 0; c < h->n; c++)
			if (g_hash_table_contains(needed, h->f[c]) &&
			    !ncu_value(t, k, h->f[c], r->f[c], units->f[c], r->line, seen, why))
				return false;
	}
	return true;
}

/*
 * `ncu --csv --metrics ...` without --page raw: one row per kernel and
 * metric, the unit in its own column; kernels in the order of their IDs'
 * first rows.
 */
static bool ncu_long(struct table *t, GPtrArray *rows, GHashTable *needed,
		     GHashTable *seen, char **why)
{
	const struct csv_row *h = rows->pdata[0];
	int id = csv_column(h, "ID"), kn = csv_column(h, "Kernel Name");
	int mn = csv_column(h, "Metric Name"), mv = csv_column(h, "Metric Value");
	int mu = csv_column(h, "Metric Unit");
	GHashTable *by_id;
	bool ok = true;

	if (id < 0) {
		errf(why, "%s:%d: no ID column; expected one to tell the kernels of the --metrics form apart",
		     t->path, h->line);
		return false;
	}
	by_id = g_hash_table_new(g_str_hash, g_str_equal);
	for (guint i = 1; ok && i < rows->len; i++) {
		const struct csv_row *r = rows->pdata[i];
		struct kernel *k;

		if (r->n == h->n && !strcmp(r->f[kn], "Kernel Name"))
			continue;	/* a header again */
		if (!(ok = row_width(t, r, h, why)))
			break;
		k = g_hash_table_lookup(by_id, r->f[id]);
		if (!k) {
			k = kernel_new(r->f[kn], r->line);
			g_ptr_array_add(t->k, k);
			g_hash_table_insert(by_id, r->f[id], k);
		}
		if (g_hash_table_contains(needed, r->f[mn]))
			ok = ncu_value(t, k, r->f[mn], r->f[mv], mu >= 0 ? r->f[mu] : "",
				       r->line, seen, why);
	}
	g_hash_table_destroy(by_id);
	return ok;
}

static bool ncu_read(struct table *t, GHashTable *needed, GHashTable *seen, char **why)
{
	GPtrArray *rows;
	const struct csv_row *h;
	char *text;
	gsize len;
	bool ok;

	if (!read_whole(t->path, &text, &len, why))
		return false;
	rows = csv_parse(t->path, text, len, '=', why);
	t->last_line = 1;
	for (gsize i = 0; i < len; i++)
		if (text[i] == '\n' && i + 1 < len)
			t->last_line++;
	g_free(text);
	if (!rows)
		return false;
	if (!rows->len) {
		g_ptr_array_free(rows, TRUE);
		errf(why, "%s:%d: no kernels; expected the output of ncu --csv", t->path, t->last_line);
		return false;
	}
	h = rows->pdata[0];
	if (csv_column(h, "Kernel Name") < 0) {
		errf(why, "%s:%d: no \"Kernel Name\" column in the header; expected the output of ncu --csv (--page raw or --metrics)",
		     t->path, h->line);
		ok = false;
	} else if (csv_column(h, "Metric Name") >= 0 && csv_column(h, "Metric Value") >= 0) {
		ok = ncu_long(t, rows, needed, seen, why);
	} else {
		ok = ncu_raw(t, rows, needed, seen, why);
	}
	g_ptr_array_free(rows, TRUE);
	if (ok && !t->k->len) {
		errf(why, "%s:%d: no kernels; expected a row per profiled kernel", t->path, t->last_line);
		ok = false;
	}
	return ok;
}

/* ---- our JSON (json.h) --------------------------------------------------- */

/* {"kernels": [{"kernel_name": ..., "metrics": {key: number, ...}}, ...]} */
static bool sim_json(struct table *t, const char *text, gsize len, char **why)
{
	struct json *root = json_parse(t->path, text, len, why);
	const struct json *ks;
	bool ok = false;

	if (!root)
		return false;
	ks = json_get(root, "kernels");
	if (!ks || ks->type != JSON_ARRAY) {
		errf(why, "%s:%d: no \"kernels\" array; expected the output of sectorsim --json",
		     t->path, root->line);
		goto out;
	}
	for (guint i = 0; i < ks->items->len; i++) {
		const struct json *kj = ks->items->pdata[i];
		const struct json *name = json_get(kj, "kernel_name");
		const struct json *m = json_get(kj, "metrics");
		struct kernel *k;

		if (!name || name->type != JSON_STRING) {
			errf(why, "%s:%d: a kernel without a \"kernel_name\" string; expected one in each kernel",
			     t->path, kj->line);
			goto out;
		}
		k = kernel_new(name->str, kj->line);
		g_ptr_array_add(t->k, k);
		if (!m || m->type != JSON_OBJECT)
			continue;	/* no metrics: each is absent */
		/* lists (l1_hit_rate_list) and anything else not a number: not compared */
		for (guint j = 0; j < m->keys->len; j++) {
			const struct json *x = m->items->pdata[j];

			if (x->type == JSON_NUMBER)
				kernel_set(k, m->keys->pdata[j], x->num);
		}
	}
	ok = true;
out:
	json_free(root);
	return ok;
}

/* our --csv: '#' lines (what produced it), then kernel_id, kernel_name, a
 * column per metric, blocks_in_grid and blocks_traced */
static bool sim_csv(struct table *t, const char *text, gsize len, char **why)
{
	GPtrArray *rows = csv_parse(t->path, text, len, '#', why);
	const struct csv_row *h;
	int kn;
	bool ok = false;

	if (!rows)
		return false;
	if (!rows->len) {
		errf(why, "%s:%d: no kernels; expected the output of sectorsim --csv or --json",
		     t->path, t->last_line);
		goto out;
	}
	h = rows->pdata[0];
	kn = csv_column(h, "kernel_name");
	if (kn < 0) {
		errf(why, "%s:%d: no kernel_name column; expected the output of sectorsim --csv or --json",
		     t->path, h->line);
		goto out;
	}
	for (guint i = 1; i < rows->len; i++) {
		const struct csv_row *r = rows->pdata[i];
		struct kernel *k;

		if (!row_width(t, r, h, why))
			goto out;
		k = kernel_new(r->f[kn], r->line);
		g_ptr_array_add(t->k, k);
		for (int m = 0; m < N_METRICS; m++) {
			int c = csv_column(h, metric_key(m));
			double v;

			if (c < 0)
				continue;
			switch (parse_number(r->f[c], &v)) {
			case 1:
				kernel_set(k, metric_key(m), v);
				break;
			case -1:
				errf(why, "%s:%d: malformed number \"%s\" in column %s; expected a number",
				     t->path, r->line, r->f[c], metric_key(m));
				goto out;
			}
		}
	}
	ok = true;
out:
	g_ptr_array_free(rows, TRUE);
	return ok;
}

/* Our JSON or our CSV, told apart by the first character. */
static bool sim_read(struct table *t, char **why)
{
	char *text;
	gsize len, i = 0;
	bool ok;

	if (!read_whole(t->path, &text, &len, why))
		return false;
	t->last_line = 1;
	for (gsize j = 0; j < len; j++)
		if (text[j] == '\n' && j + 1 < len)
			t->last_line++;
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < len && g_ascii_isspace(text[i]))
		i++;
	if (i < len && text[i] == '{')
		ok = sim_json(t, text, len, why);
	else
		ok = sim_csv(t, text, len, why);
	g_free(text);
	if (ok && !t->k->len) {
		errf(why, "%s:%d: no kernels; expected at least one", t->path, t->last_line);
		ok = false;
	}
	return ok;
}

/* ---- pairing, levels, scores ---------------------------------------- */

struct app {
	struct table sim, ncu;
	char *label;		/* SIM's file name without its extension */
	guint runs;
};

struct row {
	char *label;
	guint app;
	double sim[N_METRICS];	/* NAN: none */
	double hw[N_METRICS];
};

struct score {
	double mape;		/* % */
	double pearson;
	double nrmse;
	guint rows;		/* with both values: NRMSE and Pearson */
	guint zero;		/* of those, with h = 0: not in the MAPE */
	guint missing;		/* rows without one of the values */
};

/* One line of names, for a mismatch error. */
static char *name_list(const struct table *t)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < t->k->len; i++) {
		const struct kernel *k = t->k->pdata[i];

		g_string_append_printf(s, "%s%s", i ? " " : "", k->base);
	}
	return g_string_free(s, FALSE);
}

static bool mismatch(const struct app *a, int line, char **why, const char *fmt, ...) G_GNUC_PRINTF(4, 5);

/* The error, then both lists of names, one line each. */
static bool mismatch(const struct app *a, int line, char **why, const char *fmt, ...)
{
	char *what, *ls = name_list(&a->sim), *ln = name_list(&a->ncu);
	va_list ap;

	va_start(ap, fmt);
	what = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	errf(why, "%s:%d: %s\n  %s: %s\n  %s: %s", a->ncu.path, line, what,
	     a->sim.path, ls, a->ncu.path, ln);
	g_free(what);
	g_free(ls);
	g_free(ln);
	return false;
}

static bool pair_app(struct app *a, char **why)
{
	guint n = a->sim.k->len, m = a->ncu.k->len;

	if (m % n) {
		const struct kernel *last = a->ncu.k->pdata[m - 1];

		return mismatch(a, last->line, why,
				"%u profiled kernel%s for the %u kernel%s of %s; expected %u or a multiple of %u (each kernel once per profiling run)",
				m, m == 1 ? "" : "s", n, n == 1 ? "" : "s", a->sim.path, n, n);
	}
	a->runs = m / n;
	for (guint j = 0; j < m; j++) {
		const struct kernel *h = a->ncu.k->pdata[j], *s = a->sim.k->pdata[j % n];

		if (strcmp(h->base, s->base))
			return mismatch(a, h->line, why,
					"profiled kernel %u is %s; expected %s, kernel %u of %s (profiling run %u), as kernels pair in launch order",
					j + 1, h->base, s->base, j % n + 1, a->sim.path, j / n + 1);
	}
	return true;
}

struct acc {
	double sum;
	guint n;
};

/* The runs' mean of each column, for kernel position p (missing skipped). */
static GHashTable *run_mean(const struct app *a, guint p)
{
	guint n = a->sim.k->len;
	GHashTable *acc = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
	GHashTable *mean = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	GHashTableIter it;
	gpointer key, val;

	for (guint r = 0; r < a->runs; r++) {
		const struct kernel *k = a->ncu.k->pdata[r * n + p];

		g_hash_table_iter_init(&it, k->v);
		while (g_hash_table_iter_next(&it, &key, &val)) {
			struct acc *x = g_hash_table_lookup(acc, key);

			if (!x) {
				x = g_new0(struct acc, 1);
				g_hash_table_insert(acc, key, x);
			}
			x->sum += *(double *)val;
			x->n++;
		}
	}
	g_hash_table_iter_init(&it, acc);
	while (g_hash_table_iter_next(&it, &key, &val)) {
		const struct acc *x = val;
		double v = x->sum / x->n;

		g_hash_table_insert(mean, g_strdup(key), g_memdup2(&v, sizeof(v)));
	}
	g_hash_table_destroy(acc);
	return mean;
}

static void kernel_rows(struct app *a, guint app, bool corrected, GArray *rows)
{
	for (guint p = 0; p < a->sim.k->len; p++) {
		const struct kernel *s = a->sim.k->pdata[p];
		GHashTable *hw = run_mean(a, p);
		struct row r = { 0 };

		r.label = g_strdup_printf("%s:%u:%s", a->label, p + 1, s->base);
		r.app = app;
		for (int m = 0; m < N_METRICS; m++) {
			const double *x = g_hash_table_lookup(s->v, metric_key(m));

			r.sim[m] = x ? *x : NAN;
			if (metrics[m].is_sum)
				r.hw[m] = r.hw[metrics[m].sum[0]] + r.hw[metrics[m].sum[1]];
			else
				r.hw[m] = hw_value(m, hw, corrected);
		}
		g_hash_table_destroy(hw);
		g_array_append_val(rows, r);
	}
}

static double mean_present(const double *v, guint n, gsize stride)
{
	double sum = 0;
	guint k = 0;

	for (guint i = 0; i < n; i++) {
		double x = *(const double *)((const char *)v + i * stride);

		if (!isnan(x)) {
			sum += x;
			k++;
		}
	}
	return k ? sum / k : NAN;
}

/* App level: per app, the mean over its kernels, sim and hardware apart. */
static GArray *app_rows(const struct app *apps, guint n_apps, const GArray *kr)
{
	GArray *rows = g_array_new(FALSE, TRUE, sizeof(struct row));
	guint first = 0;

	for (guint a = 0; a < n_apps; a++) {
		const struct row *k = &g_array_index(kr, struct row, first);
		guint n = apps[a].sim.k->len;
		struct row r = { 0 };

		r.label = g_strdup(apps[a].label);
		r.app = a;
		for (int m = 0; m < N_METRICS; m++) {
			r.sim[m] = mean_present(&k->sim[m], n, sizeof(struct row));
			r.hw[m] = mean_present(&k->hw[m], n, sizeof(struct row));
		}
		g_array_append_val(rows, r);
		first += n;
	}
	return rows;
}

static void rows_free(GArray *rows)
{
	for (guint i = 0; i < rows->len; i++)
		g_free(g_array_index(rows, struct row, i).label);
	g_array_free(rows, TRUE);
}

/*
 * The scores of metric m over the rows with both values, in row order:
 * MAPE = mean |hw - sim| / |hw| x 100 over the rows whose hw is not 0,
 * NRMSE = sqrt(mean (hw - sim)^2) / mean hw, Pearson r of hw and sim
 * (two rows at least, neither constant).
 */
static struct score score_metric(const GArray *rows, int m)
{
	struct score s = { NAN, NAN, NAN, 0, 0, 0 };
	double ape = 0, se = 0, hsum = 0, ssum = 0, hm, sm, sxy = 0, sxx = 0, syy = 0;
	guint nz = 0;

	for (guint i = 0; i < rows->len; i++) {
		const struct row *r = &g_array_index(rows, struct row, i);
		double h = r->hw[m], x = r->sim[m];

		if (isnan(h) || isnan(x)) {
			s.missing++;
			continue;
		}
		s.rows++;
		if (h != 0) {
			ape += fabs(h - x) / fabs(h);
			nz++;
		} else {
			s.zero++;
		}
		se += (h - x) * (h - x);
		hsum += h;
		ssum += x;
	}
	if (nz)
		s.mape = ape / nz * 100;
	if (!s.rows)
		return s;
	hm = hsum / s.rows;
	sm = ssum / s.rows;
	if (hm != 0)
		s.nrmse = sqrt(se / s.rows) / hm;
	for (guint i = 0; i < rows->len; i++) {
		const struct row *r = &g_array_index(rows, struct row, i);
		double h = r->hw[m], x = r->sim[m];

		if (isnan(h) || isnan(x))
			continue;
		sxy += (h - hm) * (x - sm);
		sxx += (h - hm) * (h - hm);
		syy += (x - sm) * (x - sm);
	}
	if (s.rows >= 2 && sxx > 0 && syy > 0)
		s.pearson = sxy / sqrt(sxx * syy);
	return s;
}

/*
 * Once per metric that got no hardware value from any kernel of any app:
 * which columns no ncu row had.  A metric whose columns are there but
 * still has no value (rates of 0 sectors) gets no note: nothing is absent.
 */
static void add_notes(const GArray *kr, bool corrected, GHashTable *seen, GPtrArray *notes)
{
	bool none[N_METRICS];

	for (int m = 0; m < N_METRICS; m++) {
		const struct form *forms = metric_forms(&metrics[m], corrected);
		GString *cols;
		bool some_complete = false;

		none[m] = true;
		for (guint i = 0; i < kr->len; i++)
			if (!isnan(g_array_index(kr, struct row, i).hw[m]))
				none[m] = false;
		if (!none[m])
			continue;
		if (metrics[m].is_sum) {
			int a = metrics[m].sum[0], b = metrics[m].sum[1];

			if (none[a] || none[b])
				g_ptr_array_add(notes, g_strdup_printf(
					"no hardware value for %s: none for %s",
					metric_key(m), metric_key(none[a] ? a : b)));
			continue;
		}
		cols = g_string_new(NULL);
		for (int f = 0; f < FORMS && forms[f].num[0] != NCU_NONE; f++) {
			GString *one = g_string_new(NULL);

			for (int t = 0; t < FORM_TERMS; t++) {
				const char *c[] = { ncu_metrics[forms[f].num[t]].name,
						    ncu_metrics[forms[f].den[t]].name };

				for (int j = 0; j < 2; j++)
					if (c[j] && !g_hash_table_contains(seen, c[j]))
						g_string_append_printf(one, "%s%s",
							one->len ? " and " : "", c[j]);
			}
			if (!one->len)
				some_complete = true;
			else
				g_string_append_printf(cols, "%s%s", cols->len ? " or " : "", one->str);
			g_string_free(one, TRUE);
		}
		if (!some_complete)
			g_ptr_array_add(notes, g_strdup_printf(
				"no hardware value for %s: no ncu row has %s",
				metric_key(m), cols->str));
		g_string_free(cols, TRUE);
	}
}

/* ---- output --------------------------------------------------------- */

static void print_num(GString *s, const char *fmt, int width, double v)
{
	char buf[64];

	if (isnan(v)) {
		g_string_append_printf(s, "%*s", width, "n/a");
		return;
	}
	g_snprintf(buf, sizeof(buf), fmt, v);
	/* a Pearson r of -0.00001 is no negative correlation worth a sign */
	if (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1))
		memmove(buf, buf + 1, strlen(buf));
	g_string_append_printf(s, "%*s", width, buf);
}

static char *format_table(const struct score *sc, guint n_rows, guint n_apps,
			  guint n_kernels, bool kernels, bool corrected)
{
	GString *s = g_string_new(NULL);

	if (kernels)
		g_string_append_printf(s, "kernel level: %u kernel%s of %u app instance%s",
				       n_rows, n_rows == 1 ? "" : "s", n_apps, n_apps == 1 ? "" : "s");
	else
		g_string_append_printf(s, "app level: %u app instance%s, %u kernel%s",
				       n_apps, n_apps == 1 ? "" : "s", n_kernels, n_kernels == 1 ? "" : "s");
	g_string_append_printf(s, ", %s pairing\n", corrected ? "corrected" : "paper");
	g_string_append_printf(s, "%-18s %9s %10s %9s %5s %4s %8s\n", "metric", "MAPE %",
			       "Pearson r", "NRMSE", "rows", "h=0", "missing");
	for (int m = 0; m < N_METRICS; m++) {
		g_string_append_printf(s, "%-18s", metric_key(m));
		print_num(s, "%.2f", 10, sc[m].mape);
		print_num(s, "%.4f", 11, sc[m].pearson);
		print_num(s, "%.4f", 10, sc[m].nrmse);
		g_string_append_printf(s, " %5u %4u %8u\n", sc[m].rows, sc[m].zero, sc[m].missing);
	}
	return g_string_free(s, FALSE);
}

static char *format_json(const struct score *sc, const GArray *rows,
			 const struct app *apps, guint n_apps, bool kernels,
			 bool corrected, const GPtrArray *notes)
{
	GString *s = g_string_new("{\n");

	g_string_append_printf(s, "  \"level\": \"%s\",\n  \"pairing\": \"%s\",\n",
			       kernels ? "kernel" : "app", corrected ? "corrected" : "paper");
	g_string_append(s, "  \"inputs\": [");
	for (guint a = 0; a < n_apps; a++) {
		g_string_append(s, a ? ",\n    {\"sim\": " : "\n    {\"sim\": ");
		json_put_string(s, apps[a].sim.path);
		g_string_append(s, ", \"ncu\": ");
		json_put_string(s, apps[a].ncu.path);
		g_string_append(s, ", \"app\": ");
		json_put_string(s, apps[a].label);
		g_string_append_printf(s, ", \"kernels\": %u, \"runs\": %u}",
				       apps[a].sim.k->len, apps[a].runs);
	}
	g_string_append_printf(s, "\n  ],\n  \"rows\": %u,\n  \"metrics\": [", rows->len);
	for (int m = 0; m < N_METRICS; m++) {
		bool first = true;

		g_string_append(s, m ? ",\n    {\"metric\": " : "\n    {\"metric\": ");
		json_put_string(s, metric_key(m));
		g_string_append(s, ", \"mape_pct\": ");
		json_put_number(s, sc[m].mape);
		g_string_append(s, ", \"pearson\": ");
		json_put_number(s, sc[m].pearson);
		g_string_append(s, ", \"nrmse\": ");
		json_put_number(s, sc[m].nrmse);
		g_string_append_printf(s, ", \"rows\": %u, \"zero_hw_rows\": %u, \"missing\": %u,\n"
				       "     \"points\": [", sc[m].rows, sc[m].zero, sc[m].missing);
		for (guint i = 0; i < rows->len; i++) {
			const struct row *r = &g_array_index(rows, struct row, i);

			if (isnan(r->sim[m]) || isnan(r->hw[m]))
				continue;
			g_string_append(s, first ? "\n      {\"row\": " : ",\n      {\"row\": ");
			json_put_string(s, r->label);
			g_string_append(s, ", \"sim\": ");
			json_put_number(s, r->sim[m]);
			g_string_append(s, ", \"hw\": ");
			json_put_number(s, r->hw[m]);
			g_string_append_c(s, '}');
			first = false;
		}
		g_string_append(s, first ? "]}" : "\n     ]}");
	}
	g_string_append(s, "\n  ],\n  \"notes\": [");
	for (guint i = 0; i < notes->len; i++) {
		g_string_append(s, i ? ",\n    " : "\n    ");
		json_put_string(s, notes->pdata[i]);
	}
	g_string_append(s, notes->len ? "\n  ]\n}\n" : "]\n}\n");
	return g_string_free(s, FALSE);
}

/* --plot DIR: the paper's Fig. 8 per metric and Fig. 7 for the hit rates */
static bool write_plots(const char *dir, const GArray *rows, const GArray *apps_rows,
			bool kernels, GPtrArray *notes, char **why)
{
	guint n = rows->len;
	double *x = g_new(double, n), *y = g_new(double, n);
	const char **labels = g_new(const char *, n);
	bool ok = true;

	if (g_mkdir_with_parents(dir, 0777)) {
		errf(why, "%s: cannot create the folder: %s; expected a folder for the plots",
		     dir, g_strerror(errno));
		ok = false;
	}
	for (int m = 0; ok && m < N_METRICS; m++) {
		guint k = 0, shown = 0;
		char *path, *title, *err = NULL;

		for (guint i = 0; i < n; i++) {
			const struct row *r = &g_array_index(rows, struct row, i);

			if (isnan(r->sim[m]) || isnan(r->hw[m]))
				continue;
			x[k] = r->hw[m];
			y[k] = r->sim[m];
			labels[k] = r->label;
			shown += x[k] > 0 && y[k] > 0;
			k++;
		}
		/* log axes show no 0: a metric that is 0 everywhere has no chart */
		if (!shown) {
			g_ptr_array_add(notes, g_strdup_printf(
				"no scatter plot of %s: no %s with both values above 0",
				metric_key(m), kernels ? "kernel" : "app instance"));
			continue;
		}
		path = g_strdup_printf("%s/scatter-%s.svg", dir, metric_key(m));
		title = g_strdup_printf("%s per %s: sectorsim against Nsight Compute",
					metric_key(m), kernels ? "kernel" : "app instance");
		if (!svgplot_scatter_loglog(path, title, "measured (Nsight Compute)",
					    "predicted (sectorsim)", x, y, labels, k, NULL, &err)) {
			errf(why, "%s: %s; expected a chart written", path, err ? err : "cannot write it");
			ok = false;
		}
		g_free(err);
		g_free(path);
		g_free(title);
	}
	for (int b = 0; ok && b < 2; b++) {
		static const char *const series[] = { "model", "hardware" };
		int m = b ? M_L2_HIT_RATE : M_L1_HIT_RATE;
		guint na = apps_rows->len, k = 0;
		const char **cat = g_new(const char *, na);
		double *v = g_new(double, 2 * na);
		char *path, *title, *ylabel, *err = NULL;

		/* an app without both values has no pair of bars to show */
		for (guint a = 0; a < na; a++) {
			const struct row *r = &g_array_index(apps_rows, struct row, a);

			if (isnan(r->sim[m]) || isnan(r->hw[m]))
				continue;
			cat[k] = r->label;
			v[2 * k] = 100 * r->sim[m];
			v[2 * k + 1] = 100 * r->hw[m];
			k++;
		}
		if (!k) {
			g_ptr_array_add(notes, g_strdup_printf(
				"no bar chart of %s: no app instance with both values",
				metric_key(m)));
		} else {
			path = g_strdup_printf("%s/bars-%s.svg", dir, metric_key(m));
			title = g_strdup_printf("%s hit rate per app instance: model and hardware",
						b ? "L2" : "L1");
			ylabel = g_strdup_printf("%s hit rate (%%)", b ? "L2" : "L1");
			if (!svgplot_bars(path, title, ylabel, cat, k, series, 2, v, &err)) {
				errf(why, "%s: %s; expected a chart written", path,
				     err ? err : "cannot write it");
				ok = false;
			}
			g_free(err);
			g_free(path);
			g_free(title);
			g_free(ylabel);
		}
		g_free(cat);
		g_free(v);
	}
	g_free(x);
	g_free(y);
	g_free(labels);
	return ok;
}

/* ---- the command ------------------------------------------------------ */

static char *app_label(const char *path)
{
	char *base = g_path_get_basename(path), *dot = strrchr(base, '.');

	if (dot && dot != base)
		*dot = '\0';
	return base;
}

int sectorsim_compare_main(int argc, char **argv)
{
	gboolean kernels = FALSE, corrected = FALSE;
	char *json = NULL, *plot = NULL, *why = NULL;
	GOptionEntry entries[] = {
		{ "kernels", 0, 0, G_OPTION_ARG_NONE, &kernels, "Score per kernel instead of per app instance", NULL },
		{ "corrected", 0, 0, G_OPTION_ARG_NONE, &corrected, "Like-for-like hardware values: l1_hit_rate_stg over store sectors, gmem_ld_diverg against the loads' divergence", NULL },
		{ "json", 0, 0, G_OPTION_ARG_FILENAME, &json, "Also write the scores, and the values scored, as JSON to FILE (- for standard output)", "FILE" },
		{ "plot", 0, 0, G_OPTION_ARG_FILENAME, &plot, "Write SVG charts into DIR: scatter-METRIC.svg, bars-l1_hit_rate.svg, bars-l2_hit_rate.svg", "DIR" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	GOptionContext *ctx;
	GError *err = NULL;
	GHashTable *needed = NULL, *seen = NULL;
	GPtrArray *notes = g_ptr_array_new_with_free_func(g_free);
	GArray *kr = NULL, *ar = NULL;
	struct app *apps = NULL;
	struct score sc[N_METRICS];
	guint n_apps = 0, n_kernels = 0;
	int status = EXIT_INPUT;
	char *table, *text;

	if (!g_get_prgname())
		g_set_prgname("sectorsim compare");
	ctx = g_option_context_new("SIM NCU [SIM NCU ...]");
	g_option_context_set_summary(ctx,
		"Score sectorsim's results against Nsight Compute's, as the paper does.\n"
		"SIM: sectorsim --json or --csv output; NCU: `ncu --csv --page raw` or\n"
		"`ncu --csv --metrics ...` output of the same app instance, one pair per\n"
		"app instance.  An NCU file with k times SIM's kernels holds k profiling\n"
		"runs, averaged.  Per metric: MAPE over the rows with a hardware value\n"
		"other than 0 (h=0: the rows left out), Pearson r and NRMSE over the\n"
		"rows with both values (rows); missing: rows without one of them.");
	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
		fprintf(stderr, "sectorsim compare: %s (see --help)\n", err->message);
		g_error_free(err);
		g_option_context_free(ctx);
		goto out;
	}
	g_option_context_free(ctx);
	if (argc < 3 || (argc - 1) % 2) {
		fprintf(stderr, "sectorsim compare: %d file%s; expected SIM NCU pairs (see --help)\n",
			argc - 1, argc == 2 ? "" : "s");
		goto out;
	}

	needed = needed_columns();
	seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	n_apps = (argc - 1) / 2;
	apps = g_new0(struct app, n_apps);
	for (guint a = 0; a < n_apps; a++) {
		apps[a].sim.path = argv[1 + 2 * a];
		apps[a].ncu.path = argv[2 + 2 * a];
		apps[a].sim.k = g_ptr_array_new_with_free_func(kernel_free);
		apps[a].ncu.k = g_ptr_array_new_with_free_func(kernel_free);
		apps[a].label = app_label(apps[a].sim.path);
	}
	kr = g_array_new(FALSE, TRUE, sizeof(struct row));
	for (guint a = 0; a < n_apps; a++) {
		if (!sim_read(&apps[a].sim, &why) ||
		    !ncu_read(&apps[a].ncu, needed, seen, &why) ||
		    !pair_app(&apps[a], &why))
			goto out;
		kernel_rows(&apps[a], a, corrected, kr);
		n_kernels += apps[a].sim.k->len;
	}
	ar = app_rows(apps, n_apps, kr);
	add_notes(kr, corrected, seen, notes);
	for (int m = 0; m < N_METRICS; m++)
		sc[m] = score_metric(kernels ? kr : ar, m);
	if (plot && !write_plots(plot, kernels ? kr : ar, ar, kernels, notes, &why))
		goto out;

	table = format_table(sc, kernels ? kr->len : ar->len, n_apps, n_kernels,
			     kernels, corrected);
	errno = 0;
	if (fputs(table, stdout) == EOF || fflush(stdout) != 0) {
		/* said now, while errno says why */
		errf(&why, "sectorsim compare: write error on standard output: %s",
		     g_strerror(errno ? errno : EIO));
		g_free(table);
		status = 1;
		goto out;
	}
	g_free(table);
	for (guint i = 0; i < notes->len; i++)
		fprintf(stderr, "sectorsim compare: note: %s\n", (char *)notes->pdata[i]);
	status = 0;
	if (json) {
		text = format_json(sc, kernels ? kr : ar, apps, n_apps, kernels, corrected, notes);
		/* written whole or not at all: a reader never sees half a file */
		status = tool_write_file(json, "scores", text, strlen(text), &why);
		g_free(text);
	}
out:
	if (why) {
		fprintf(stderr, "%s\n", why);
		g_free(why);
	}
	if (kr)
		rows_free(kr);
	if (ar)
		rows_free(ar);
	for (guint a = 0; apps && a < n_apps; a++) {
		g_ptr_array_free(apps[a].sim.k, TRUE);
		g_ptr_array_free(apps[a].ncu.k, TRUE);
		g_free(apps[a].label);
	}
	g_free(apps);
	if (needed)
		g_hash_table_destroy(needed);
	if (seen)
		g_hash_table_destroy(seen);
	g_ptr_array_free(notes, TRUE);
	g_free(json);
	g_free(plot);
	return status;
}
