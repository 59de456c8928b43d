/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Latency models of the timing mode: a fixed number of cycles, or a
 * half-normal min + |N(0, sigma^2)| drawn from a seeded generator, so that
 * a run is reproducible from its seed.  The draws are those of GCC's
 * libstdc++ for std::mt19937 and std::normal_distribution<double> (which
 * Nugteren et al.'s published model uses): MT19937 (GLib's GRand is the
 * same generator, seeded the same way), a uniform double from two 32-bit
 * outputs, Marsaglia's polar method keeping the second value of a pair,
 * and the value rounded half away from zero.  So a seed gives the
 * latencies that model gives with the same seed.
 */
#ifndef SS_LATENCY_H
#define SS_LATENCY_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct latency_model;

/* The largest sigma taken: every draw then stays far from overflowing a
 * tick (a normal value beyond 40 standard deviations is not drawn). */
#define LATENCY_SIGMA_MAX 1e6

/* sigma 0: every draw is `min`, and no number is drawn. */
struct latency_model *latency_new(uint64_t min, double sigma, uint32_t seed);
void latency_free(struct latency_model *l);

/* The next latency. */
uint64_t latency_draw(struct latency_model *l);

/* One N(0, 1) value of the polar method (for tests). */
double latency_normal(struct latency_model *l);

#ifdef __cplusplus
}
#endif

#endif
