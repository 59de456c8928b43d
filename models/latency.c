/* SPDX-License-Identifier: BSD-3-Clause */
/* Latency models (latency.h). */
#include "config.h"

#include <math.h>
#include <glib.h>
#include "latency.h"

struct latency_model {
	uint64_t min;
	double sigma;
	GRand *rng;
	bool saved_valid;	/* the polar method's second value waits */
	double saved;
};

struct latency_model *latency_new(uint64_t min, double sigma, uint32_t seed)
{
	struct latency_model *l = g_new0(struct latency_model, 1);

	l->min = min;
	l->sigma = sigma;
	l->rng = g_rand_new_with_seed(seed);
	return l;
}

void latency_free(struct latency_model *l)
{
	if (!l)
		return;
	g_rand_free(l->rng);
	g_free(l);
}

/*
 * A uniform double in [0, 1) from two 32-bit outputs, the first the low
 * half: (r1 + r2 * 2^32) / 2^64 in double arithmetic, a result that
 * rounded up to 1 taken as the largest double below it.
 */
static double uniform(struct latency_model *l)
{
	double r1 = g_rand_int(l->rng), r2 = g_rand_int(l->rng);
	double u = (r1 + r2 * 4294967296.0) / 18446744073709551616.0;

	return u >= 1.0 ? nextafter(1.0, 0.0) : u;
}

double latency_normal(struct latency_model *l)
{
	double x, y, r2, m;

	if (l->saved_valid) {
		l->saved_valid = false;
		return l->saved;
	}
	do {
		x = 2.0 * uniform(l) - 1.0;
		y = 2.0 * uniform(l) - 1.0;
		r2 = x * x + y * y;
	} while (r2 > 1.0 || r2 == 0.0);
	m = sqrt(-2.0 * log(r2) / r2);
	l->saved = x * m;
	l->saved_valid = true;
	return y * m;
}

uint64_t latency_draw(struct latency_model *l)
{
	if (l->sigma == 0.0)
		return l->min;

	double z = latency_normal(l) * l->sigma;

	return l->min + (uint64_t)fabs(round(z));
}
