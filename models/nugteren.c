/* SPDX-License-Identifier: BSD-3-Clause */
/* The miss split of Nugteren et al.'s cache model (nugteren.h). */
#include "config.h"

#include "nugteren.h"

struct nug_split nugteren_split(const struct nug_case_counts c[NUG_CASES])
{
	struct nug_split s = { 0 };
	int64_t cold[NUG_CASES], rest;

	for (int i = 0; i < NUG_CASES; i++) {
		cold[i] = (int64_t)c[i].cold;
		s.case_misses[i] = (int64_t)(c[i].cold + c[i].beyond);
	}
	s.misses = s.case_misses[NUG_NORMAL];
	s.hits = (int64_t)c[NUG_NORMAL].within;
	s.total = s.misses + s.hits;
	s.associativity = s.misses - s.case_misses[NUG_FULL_ASSOC];
	s.latency = cold[NUG_NORMAL] - cold[NUG_NO_LATENCY];
	s.mshr = s.misses - s.case_misses[NUG_NO_MSHR_LIMIT];
	s.compulsory = cold[NUG_NO_LATENCY];
	rest = s.misses - (s.compulsory + (s.latency > 0 ? s.latency : 0) +
			   (s.associativity > 0 ? s.associativity : 0) +
			   (s.mshr > 0 ? s.mshr : 0));
	s.capacity = rest > 0 ? rest : 0;
	if (rest < 0) {
		/* the shares overlap by -rest; the model subtracts rest from
		 * one of them, which adds the overlap where it meant to remove it */
		if (s.mshr > -rest)
			s.mshr -= rest;
		else if (s.latency > -rest)
			s.latency -= rest;
		else
			s.associativity -= rest;
	}
	/* printed: a negative share as 0 */
	s.associativity = s.associativity > 0 ? s.associativity : 0;
	s.latency = s.latency > 0 ? s.latency : 0;
	s.mshr = s.mshr > 0 ? s.mshr : 0;
	/* 32-bit unsigned, then single precision, as the model prints it */
	s.miss_rate = (float)(uint32_t)(100u * (uint32_t)s.misses) / (float)s.total;
	return s;
}
