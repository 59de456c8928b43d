/* SPDX-License-Identifier: BSD-3-Clause */
/* See cache_streams.h. */
#include "config.h"

#include <string.h>
#include "cache_streams.h"
#include "setindex.h"

void cs_random_geometry(struct sc_config *c, GRand *rng)
{
	static const enum set_index_fn fns[] = {
		SET_INDEX_LINEAR, SET_INDEX_FIB_DOUBLE, SET_INDEX_IPOLY, SET_INDEX_XOR,
	};
	static const uint32_t lines[] = { 32, 64, 128, 256 };

	c->sets = 1u << g_rand_int_range(rng, 0, 6);
	c->line_bytes = lines[g_rand_int_range(rng, 0, G_N_ELEMENTS(lines))];
	c->sector_bytes = g_rand_int_range(rng, 0, 4) ? 32 : c->line_bytes;
	c->index = fns[g_rand_int_range(rng, 0, G_N_ELEMENTS(fns))];
	if (set_index_fns[c->index].check &&
	    set_index_fns[c->index].check(c->sets, c->line_bytes))
		c->index = SET_INDEX_LINEAR;	/* not for this geometry */
	c->index_on_partition = g_rand_boolean(rng);
}

uint64_t cs_random_part_offset(GRand *rng)
{
	/* whole lines: a router moves lines, not bytes within them */
	return (uint64_t)g_rand_int_range(rng, 0, 4096) * 4096;
}

/* A byte mask: whole, whole quarters, or any bytes. */
static uint32_t random_mask(GRand *rng)
{
	uint32_t mask = 0;

	switch (g_rand_int_range(rng, 0, 4)) {
	case 0:
	case 1:
		return UINT32_MAX;
	case 2:
		for (unsigned q = 0; q < 4; q++)
			if (g_rand_boolean(rng))
				mask |= 0xffu << (8 * q);
		return mask ? mask : 0xff;
	default:
		mask = g_rand_int(rng);
		return mask ? mask : 1;
	}
}

struct mem_req cs_random_request(GRand *rng, const struct sc_config *cfg,
				 uint64_t lines, uint64_t part_offset)
{
	static const enum mem_op ops[] = {
		MEM_READ, MEM_READ, MEM_READ, MEM_READ, MEM_WRITE, MEM_WRITE,
		MEM_WRITE, MEM_ATOMIC, MEM_REDUCTION,
	};
	uint64_t line = g_rand_int_range(rng, 0, (gint32)MIN(lines, G_MAXINT32));
	struct mem_req r = { .hdr = { sizeof(r), ops[g_rand_int_range(rng, 0, G_N_ELEMENTS(ops))] } };

	r.addr = 0x100000 + line * cfg->line_bytes +
		 (uint64_t)g_rand_int_range(rng, 0, cfg->line_bytes / 32) * 32;
	/* now and then a size other than 32: bigger, none (one atom), or a
	 * part of one, which a cache writes as a whole sector */
	switch (g_rand_int_range(rng, 0, 16)) {
	case 0:
	case 1:
		r.size = 32u << g_rand_int_range(rng, 1, 5);
		break;
	case 2:
		r.size = g_rand_boolean(rng) ? 0 : 16;
		break;
	default:
		r.size = 32;
		break;
	}
	r.part_addr = r.addr + part_offset;
	r.mask = random_mask(rng);
	r.space = g_rand_int_range(rng, 0, 8) ? MEM_GLOBAL : MEM_LOCAL;
	r.sm = g_rand_int_range(rng, 0, 80);
	r.warp = g_rand_int_range(rng, 0, 64);
	r.tag = g_rand_int(rng);
	if (!g_rand_int_range(rng, 0, 12))
		r.flags = MEM_F_BYPASS;
	return r;
}

static int by_bytes(gconstpointer a, gconstpointer b)
{
	return memcmp(a, b, sizeof(struct mem_req));
}

bool cs_same_requests(GArray *got, GArray *want, bool ordered, char **what)
{
	if (!ordered) {
		g_array_sort(got, by_bytes);
		g_array_sort(want, by_bytes);
	}
	for (guint i = 0; i < MIN(got->len, want->len); i++) {
		const struct mem_req *g = &g_array_index(got, struct mem_req, i);
		const struct mem_req *w = &g_array_index(want, struct mem_req, i);

		if (memcmp(g, w, sizeof(*g))) {
			*what = g_strdup_printf("request down %u: kind %u at 0x%" G_GINT64_MODIFIER "x size %u, expected kind %u at 0x%" G_GINT64_MODIFIER "x size %u",
						i, g->hdr.kind, g->addr, g->size,
						w->hdr.kind, w->addr, w->size);
			return false;
		}
	}
	if (got->len != want->len) {
		*what = g_strdup_printf("%u requests down, expected %u", got->len, want->len);
		return false;
	}
	g_array_set_size(got, 0);
	g_array_set_size(want, 0);
	return true;
}
