/* SPDX-License-Identifier: BSD-3-Clause */
/* Miss-ratio curves, exact or sampled (SHARDS): see mrc.h. */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib.h>
#include "mrc.h"
#include "sdcm.h"

#define HASH_BITS 24
#define HASH_ONE ((uint32_t)1 << HASH_BITS)	/* the threshold of rate 1 */
#define MAX_CAPS 512

/* A tracked block and its hash, in a max-heap on the hash. */
struct tracked {
	uint32_t hash;
	uint64_t block;
};

struct mrc {
	bool exact;
	double rate0;		/* the rate asked for */
	uint32_t threshold;	/* sampled: blocks with hash < threshold */
	uint32_t max_blocks;	/* sampled: 0, or the most tracked at once */
	struct rd_tracker *rd;
	GArray *heap;		/* struct tracked: sampled with a bound */
	/* per bin j: accesses at distances in [caps[j-1], caps[j]) (caps[-1]
	 * = 0), in sampled units; bin n_caps: beyond the last */
	double bin[MAX_CAPS + 1];
	double cold;
	double sampled;		/* accesses counted in the bins and cold */
	uint64_t accesses;
};

/* The capacities: 2^(k/8) rounded, each once, up to 2^40 blocks. */
static uint64_t caps[MAX_CAPS];
static size_t n_caps;

static void init_caps(void)
{
	static gsize done;

	if (!g_once_init_enter(&done))
		return;
	for (int k = 0; n_caps < MAX_CAPS; k++) {
		uint64_t c = (uint64_t)llround(exp2(k / 8.0));

		if (c > (UINT64_C(1) << 40))
			break;
		if (!n_caps || c != caps[n_caps - 1])
			caps[n_caps++] = c;
	}
	g_once_init_leave(&done, 1);
}

/* The bin of distance d: the number of capacities at or below it. */
static size_t bin_of(double d)
{
	size_t lo = 0, hi = n_caps;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if ((double)caps[mid] <= d)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* A well-mixed 24-bit hash of a block (splitmix64's finalizer). */
static uint32_t block_hash(uint64_t x)
{
	x += UINT64_C(0x9e3779b97f4a7c15);
	x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
	x ^= x >> 31;
	return (uint32_t)(x >> (64 - HASH_BITS));
}

struct mrc *mrc_new(double rate, uint32_t max_blocks)
{
	struct mrc *m = g_new0(struct mrc, 1);

	init_caps();
	m->exact = !(rate < 1);
	m->rate0 = m->exact ? 1 : rate;
	m->max_blocks = m->exact ? 0 : max_blocks;
	m->rd = rd_new();
	m->heap = g_array_new(FALSE, FALSE, sizeof(struct tracked));
	mrc_reset(m);
	return m;
}

void mrc_free(struct mrc *m)
{
	if (!m)
		return;
	rd_free(m->rd);
	g_array_free(m->heap, TRUE);
	g_free(m);
}

void mrc_reset(struct mrc *m)
{
	rd_reset(m->rd);
	g_array_set_size(m->heap, 0);
	memset(m->bin, 0, sizeof(m->bin));
	m->cold = m->sampled = 0;
	m->accesses = 0;
	m->threshold = m->exact ? HASH_ONE
		: (uint32_t)fmax(1, floor(m->rate0 * HASH_ONE));
}

static void heap_push(GArray *h, struct tracked t)
{
	struct tracked *a;
	guint i;

	g_array_append_val(h, t);
	a = (struct tracked *)(void *)h->data;
	for (i = h->len - 1; i > 0 && a[(i - 1) / 2].hash < a[i].hash; i = (i - 1) / 2) {
		struct tracked x = a[i];

		a[i] = a[(i - 1) / 2];
		a[(i - 1) / 2] = x;
	}
}

static struct tracked heap_pop(GArray *h)
{
	struct tracked *a = (struct tracked *)(void *)h->data, top = a[0];
	guint n = h->len - 1, i = 0;

	a[0] = a[n];
	g_array_set_size(h, n);
	for (;;) {
		guint l = 2 * i + 1, r = l + 1, big = i;

		if (l < n && a[l].hash > a[big].hash)
			big = l;
		if (r < n && a[r].hash > a[big].hash)
			big = r;
		if (big == i)
			break;
		struct tracked x = a[i];

		a[i] = a[big];
		a[big] = x;
		i = big;
	}
	return top;
}

/*
 * More blocks tracked than allowed: the threshold drops to the largest
 * hash tracked, whose blocks go, and what was counted at the old rate is
 * scaled to the new one.
 */
static void lower_threshold(struct mrc *m)
{
	uint32_t t = ((struct tracked *)(void *)m->heap->data)[0].hash;
	double scale = (double)t / m->threshold;

	/* every tracked line hashed to 0: no rate below keeps any, so the
	 * bound gives way rather than the curve */
	if (!t)
		return;

	while (m->heap->len &&
	       ((struct tracked *)(void *)m->heap->data)[0].hash >= t)
		rd_forget(m->rd, heap_pop(m->heap).block);
	for (size_t j = 0; j <= n_caps; j++)
		m->bin[j] *= scale;
	m->cold *= scale;
	m->sampled *= scale;
	m->threshold = t;
}

bool mrc_access(struct mrc *m, uint64_t block)
{
	uint32_t h = 0;
	int64_t d;

	m->accesses++;
	if (!m->exact) {
		h = block_hash(block);
		if (h >= m->threshold)
			return true;
	}
	d = rd_access(m->rd, block);
	if (d == RD_FULL)
		return false;
	m->sampled++;
	if (d < 0) {
		m->cold++;
		if (m->max_blocks) {
			heap_push(m->heap, (struct tracked){ h, block });
			if (m->heap->len > m->max_blocks)
				lower_threshold(m);
		}
		return true;
	}
	/* a sampled distance stands for 1 / rate distinct blocks each */
	m->bin[bin_of(m->exact ? (double)d
				: (double)d * HASH_ONE / m->threshold)]++;
	return true;
}

uint64_t mrc_accesses(const struct mrc *m)
{
	return m->accesses;
}

uint64_t mrc_tracked(const struct mrc *m)
{
	return m->exact ? 0 : m->heap->len;
}

double mrc_rate(const struct mrc *m)
{
	return m->exact ? 1 : (double)m->threshold / HASH_ONE;
}

/*
 * What the curve divides by: the accesses counted, or for a sample what
 * the rate expects of all of them (accesses x rate), the difference being
 * hits at every capacity (SHARDS_adj puts it in the first bin).
 */
static double total_of(const struct mrc *m)
{
	return m->exact ? m->sampled : (double)m->accesses * mrc_rate(m);
}

/* The miss ratio at caps[k]: cold misses and distances >= caps[k], which
 * are the bins above k. */
static double ratio_at(const struct mrc *m, const double *tail, size_t k)
{
	double total = total_of(m);

	return total > 0 ? fmin(1, fmax(0, (m->cold + tail[k + 1]) / total)) : 0;
}

/* tail[j]: the bins from j up (j = 0 .. n_caps + 1). */
static void tails(const struct mrc *m, double *tail)
{
	tail[n_caps + 1] = 0;
	for (size_t j = n_caps + 1; j-- > 0;)
		tail[j] = tail[j + 1] + m->bin[j];
}

size_t mrc_curve(const struct mrc *m, uint64_t *capacity, double *miss_ratio,
		 size_t max)
{
	double tail[MAX_CAPS + 2];
	size_t last = 0, n = 0;

	tails(m, tail);
	for (size_t j = 1; j <= n_caps; j++)
		if (m->bin[j] > 0)
			last = j;
	/* up to the capacity above every distance: bin `last` holds
	 * distances below caps[last] */
	for (size_t k = 0; k < n_caps && k <= last && n < max; k++) {
		capacity[n] = caps[k];
		miss_ratio[n++] = ratio_at(m, tail, k);
	}
	return n;
}

double mrc_miss_ratio(const struct mrc *m, uint64_t c)
{
	double tail[MAX_CAPS + 2];
	size_t k = 0;

	tails(m, tail);
	while (k + 1 < n_caps && caps[k + 1] <= c)
		k++;
	return ratio_at(m, tail, k);
}
