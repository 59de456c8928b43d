/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "Did you mean": the closest of a set of known names to a misspelt one, for
 * messages about unknown keys, types, sections and choices.
 */
#include "config.h"

#include <string.h>
#include "internal.h"

/* Optimal string alignment distance: Levenshtein plus adjacent swaps, the
 * commonest typo ("scr" for "src"). */
unsigned ss_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), w = lb + 1;
	unsigned *d = g_new(unsigned, (la + 1) * w);
	unsigned result;

	for (size_t i = 0; i <= la; i++)
		d[i * w] = i;
	for (size_t j = 0; j <= lb; j++)
		d[j] = j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			unsigned best = d[(i - 1) * w + j - 1] + (a[i - 1] != b[j - 1]);

			best = MIN(best, d[(i - 1) * w + j] + 1);
			best = MIN(best, d[i * w + j - 1] + 1);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
				best = MIN(best, d[(i - 2) * w + j - 2] + 1);
			d[i * w + j] = best;
		}
	}
	result = d[la * w + lb];
	g_free(d);
	return result;
}

const char *ss_did_you_mean(const char *word, const char *const *cands,
			    size_t n)
{
	const char *best = NULL;
	unsigned best_d = UINT_MAX;
	/* A third of the word, at least 1 and at most 3 edits, keeps the
	 * suggestions to plausible typos. */
	unsigned limit = CLAMP(strlen(word) / 3, 1, 3);

	for (size_t i = 0; i < n; i++) {
		unsigned d = ss_edit_distance(word, cands[i]);

		if (d < best_d) {
			best_d = d;
			best = cands[i];
		}
	}
	return best_d <= limit ? best : NULL;
}
