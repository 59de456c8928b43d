/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reuse-distance tracking (components/sdcm.h): rd_access calls per second on
 * one core, over a million distinct sectors, for two streams:
 *   uniform  every access a uniform choice among the 10^6 sectors
 *   mixed    1/2 one of the last 64 addresses again, 1/4 a hot set of
 *            16 Ki sectors, 1/4 uniform among the 10^6
 * Each run starts from a new tracker (its growth included); the best of
 * RUNS runs is reported, as the machine may be shared.
 *
 *   bench/bench-rd [ACCESSES [RUNS]]   (default 20 million, 5 runs)
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <glib.h>
#include "sdcm.h"

#define SECTORS 1000000
#define HOT 16384
#define RECENT 64

enum pattern { UNIFORM, MIXED };
static const char *const pattern_names[] = { "uniform", "mixed" };

static inline uint64_t xorshift(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* A uniform index below n: multiply-shift, a division would cost more. */
static inline uint64_t below(uint64_t r, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)r * n) >> 64);
}

struct result {
	double seconds;
	int64_t sum;		/* of the distances: the work cannot vanish */
	uint64_t cold;
};

/*
 * The addresses are made on the fly: a stored stream of 20 million would
 * add its own memory traffic.  The generator costs a few instructions per
 * access, included in the figures.
 */
static struct result run(enum pattern p, size_t n, uint64_t seed)
{
	struct rd_tracker *t = rd_new();
	uint64_t recent[RECENT] = { 0 };
	uint64_t x = seed;
	struct result res = { 0 };
	gint64 t0 = g_get_monotonic_time();

	for (size_t i = 0; i < n; i++) {
		uint64_t r = xorshift(&x), sector;

		if (p == UNIFORM) {
			sector = below(r, SECTORS);
		} else {
			switch (r >> 62) {
			case 0:
			case 1:
				sector = recent[r % RECENT];
				break;
			case 2:
				sector = below(r << 2, HOT);
				break;
			default:
				sector = below(r << 2, SECTORS);
				break;
			}
			recent[i % RECENT] = sector;
		}
		int64_t sd = rd_access(t, UINT64_C(0x7f2a40000000) + sector * 32);

		res.sum += sd;
		res.cold += sd < 0;
	}
	res.seconds = (g_get_monotonic_time() - t0) / 1e6;
	rd_free(t);
	return res;
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 20000000;
	int runs = argc > 2 ? atoi(argv[2]) : 5;

	if (!n || runs < 1) {
		fprintf(stderr, "usage: %s [ACCESSES [RUNS]]\n", argv[0]);
		return 2;
	}
	printf("rd_access, %zu accesses over %d sectors, best of %d runs\n", n, SECTORS, runs);
	for (int p = UNIFORM; p <= MIXED; p++) {
		double best = 0;
		struct result r;

		for (int k = 0; k < runs; k++) {
			r = run(p, n, UINT64_C(0x9e3779b97f4a7c15));
			if (!k || r.seconds < best)
				best = r.seconds;
		}
		printf("%-8s %8.2f M accesses/s  (%.3f s; %" G_GUINT64_FORMAT
		       " distinct, mean distance of reuses %.0f)\n",
		       pattern_names[p], n / best / 1e6, best, r.cold,
		       r.cold < n ? (double)(r.sum + (int64_t)r.cold) / (double)(n - r.cold) : 0.0);
	}
	return 0;
}
