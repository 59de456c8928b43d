/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Sector accesses per second of the sector cache on synthetic streams over
 * a footprint of four times the capacity: sequential sectors, a 4 KiB
 * stride, and uniform random sectors (one write in five), for the TITAN V
 * L1 (128 KiB,
 * 4-way) and L2 (4.5 MiB, 32-way, 1152 sets), both with the reference's
 * float set index.
 *
 *   bench/bench-cache [ACCESSES [ONLY]]   (default 20 million per run;
 *                                          ONLY: e.g. "L2 random", one run)
 */
#include "config.h"

#include <stdio.h>
#include "sector_cache.h"

static void count(void *ctx, const struct mem_req *r)
{
	(*(uint64_t *)ctx)++;
}

enum pattern { SEQUENTIAL, STRIDED, RANDOM };
static const char *const pattern_names[] = {
	"sequential", "4 KiB stride", "random over 4x capacity",
};

/*
 * The address of access i, made on the fly: a stored stream of 20 million
 * requests would measure memory bandwidth instead of the cache.  The
 * generator costs a few instructions, included in the figures.
 */
static inline uint64_t next_addr(enum pattern p, uint64_t i, uint64_t *x,
				 uint64_t sectors, bool *write)
{
	*write = false;
	switch (p) {
	case SEQUENTIAL:
		return i * 32;
	case STRIDED:
		return ((i * 128) % sectors + (i * 128 / sectors) % 128) * 32;
	default:
		*x ^= *x << 13;
		*x ^= *x >> 7;
		*x ^= *x << 17;
		*write = (*x >> 40) % 5 == 0;
		/* multiply-shift instead of a 64-bit division, which would
		 * cost more than some cache accesses */
		return (uint64_t)(((unsigned __int128)*x * sectors) >> 64) * 32;
	}
}

static const char *only;	/* "L1 sequential" and the like: one run, for profiling */

/*
 * The loop of one stream, compiled once per pattern so that the choice of
 * the pattern costs nothing per access.
 */
static inline __attribute__((always_inline)) void
drive(struct sc_cache *c, enum pattern p, size_t n, uint64_t sectors)
{
	const uint64_t base = UINT64_C(0x7f2a40000000);
	uint64_t x = 88172645463325252u;
	struct mem_req r;
	bool write;

	mem_req_init(&r, MEM_READ, 0, MEM_ATOM);
	for (size_t i = 0; i < n; i++) {
		r.addr = base + next_addr(p, i, &x, sectors, &write);
		r.hdr.kind = write ? MEM_WRITE : MEM_READ;
		sc_access(c, &r);
	}
}

static __attribute__((noinline)) void drive_sequential(struct sc_cache *c, size_t n, uint64_t sectors)
{
	drive(c, SEQUENTIAL, n, sectors);
}

static __attribute__((noinline)) void drive_strided(struct sc_cache *c, size_t n, uint64_t sectors)
{
	drive(c, STRIDED, n, sectors);
}

static __attribute__((noinline)) void drive_random(struct sc_cache *c, size_t n, uint64_t sectors)
{
	drive(c, RANDOM, n, sectors);
}

static void run(const char *name, struct sc_config cfg, size_t n)
{
	static void (*const drivers[])(struct sc_cache *, size_t, uint64_t) = {
		drive_sequential, drive_strided, drive_random,
	};

	for (int p = SEQUENTIAL; p <= RANDOM; p++) {
		char *label = g_strdup_printf("%s %s", name, pattern_names[p]);
		bool skip = only && !g_str_has_prefix(label, only);

		g_free(label);
		if (skip)
			continue;
		uint64_t down = 0;
		char *why = NULL;
		struct sc_cache *c = sc_new(&cfg, NULL, count, &down, &why);
		uint64_t capacity = (uint64_t)sc_sets(c) * cfg.assoc * cfg.line_bytes;
		uint64_t sectors = 4 * capacity / 32;	/* footprint: 4x the capacity */
		gint64 t0 = g_get_monotonic_time();

		drivers[p](c, n, sectors);

		double secs = (g_get_monotonic_time() - t0) / 1e6;
		const uint64_t *st = sc_stats(c);

		printf("%-3s %-24s %6.1f M accesses/s  (hit rate %.3f, %" G_GUINT64_FORMAT " sent down)\n",
		       name, pattern_names[p], n / secs / 1e6,
		       (double)st[SC_S_TOTAL + SC_M_HITS] / st[SC_S_TOTAL + SC_M_ACCESSES], down);
		sc_free(c);
	}
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? g_ascii_strtoull(argv[1], NULL, 10) : 20000000;

	only = argc > 2 ? argv[2] : NULL;
	struct sc_config l1 = {
		.size = 128 * 1024, .assoc = 4, .line_bytes = 128, .sector_bytes = 32,
		.index = SET_INDEX_FIB_DOUBLE, .write_hit = SC_WRITE_THROUGH,
		.write_miss = SC_ALLOCATE, .count_write_misses = true,
	};
	struct sc_config l2 = {
		.size = 4718592, .assoc = 32, .line_bytes = 128, .sector_bytes = 32,
		.index = SET_INDEX_FIB_DOUBLE, .write_hit = SC_WRITE_BACK,
		.write_miss = SC_ALLOCATE, .count_write_misses = false,
	};

	run("L1", l1, n);
	run("L2", l2, n);
	return 0;
}
