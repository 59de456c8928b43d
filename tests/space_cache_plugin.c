/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An out-of-tree plugin built on the installed sector cache model
 * (<sectorsim/models/sector_cache.h>, libsectorsim-models): `space_cache`
 * caches the requests of one memory space only (global or local); the
 * others pass by unchanged, as if the cache were not there.  Its policies
 * are the stock sector_cache's defaults (LRU, linear set index, write-back,
 * write-allocate, final write-back and invalidation at a kernel's end), so
 * on a trace with one space it counts exactly what a sector_cache of the
 * same geometry counts.  tests/outoftree.sh builds it against the installed
 * sectorsim.pc and runs tests/data/outoftree-cache.ini.
 */
#include <sectorsim/sectorsim.h>
#include <sectorsim/protocols/mem.h>
#include <sectorsim/models/sector_cache.h>

static const char *const space_names[] = { "global", "local", NULL };

static const struct ss_param_desc params[] = {
	{ "space", SS_P_ENUM, "global", "the memory space cached; requests of the other pass by", space_names, 0, 0, 0 },
	{ "size", SS_P_SIZE, "32KiB", "capacity", NULL, 0, 0, 0 },
	{ "assoc", SS_P_UINT, "4", "ways per set", NULL, 1, SC_MAX_ASSOC, 0 },
	{ "line_bytes", SS_P_SIZE, "128B", "line size", NULL, 32, 65536, SS_PF_POW2 },
	{ "sector_bytes", SS_P_SIZE, "32B", "sector size", NULL, 32, 65536, SS_PF_POW2 },
	{ NULL, 0, NULL, NULL, NULL, 0, 0, 0 },
};

static const struct ss_port_desc ports[] = {
	{ "cpu_side", SS_PORT_IN, MEM_PROTOCOL, false, true, "requests and control from the level above" },
	{ "mem_side", SS_PORT_OUT, MEM_PROTOCOL, false, true, "this cache's traffic, the other space's requests and control" },
	{ NULL, 0, NULL, false, false, NULL },
};

enum { ST_ACCESSES, ST_HITS, ST_SECTOR_MISSES, ST_LINE_MISSES, ST_READS_DOWN,
       ST_WRITES_DOWN, ST_PASSED };

static const struct ss_stat_desc stats[] = {
	[ST_ACCESSES] = { "accesses", SS_STAT_COUNTER, "requests of the cached space", NULL, NULL },
	[ST_HITS] = { "hits", SS_STAT_COUNTER, "requests whose first sector hit", NULL, NULL },
	[ST_SECTOR_MISSES] = { "sector_misses", SS_STAT_COUNTER, "line present, sector not readable", NULL, NULL },
	[ST_LINE_MISSES] = { "line_misses", SS_STAT_COUNTER, "line not present", NULL, NULL },
	[ST_READS_DOWN] = { "reads_down", SS_STAT_COUNTER, "reads the cache sent down", NULL, NULL },
	[ST_WRITES_DOWN] = { "writes_down", SS_STAT_COUNTER, "writes the cache sent down, write-backs included", NULL, NULL },
	[ST_PASSED] = { "passed", SS_STAT_COUNTER, "requests of the other space, passed by", NULL, NULL },
	{ "hit_rate", SS_STAT_RATIO, "hits / accesses", "hits", "accesses" },
	{ NULL, 0, NULL, NULL, NULL },
};

struct space_cache {
	struct ss_component c;
	struct sc_cache *cache;
	struct ss_port *mem_side;
	enum mem_space space;
};

/* The model's traffic to the next level. */
static void emit_down(void *ctx, const struct mem_req *r)
{
	struct space_cache *s = ctx;

	s->c.stats[r->hdr.kind == MEM_READ ? ST_READS_DOWN : ST_WRITES_DOWN]++;
	ss_port_send(s->mem_side, &r->hdr);
}

static int space_cache_create(struct ss_component *c, const struct ss_params *p,
			      GError **err)
{
	struct space_cache *s = SS_COMPONENT(c, struct space_cache, c);
	struct sc_config cfg = {
		.size = ss_param_uint(p, "size"),
		.assoc = ss_param_uint(p, "assoc"),
		.line_bytes = ss_param_uint(p, "line_bytes"),
		.sector_bytes = ss_param_uint(p, "sector_bytes"),
		.index = SET_INDEX_LINEAR,
		.replacement = SC_LRU,
		.write_hit = SC_WRITE_BACK,
		.write_miss = SC_ALLOCATE,
		.count_write_misses = true,
		.bypass = SC_BYPASS_NONE,
	};
	char *why = NULL;

	s->space = ss_param_enum(p, "space");
	s->mem_side = ss_component_port(c, "mem_side", 0);
	/* the model keeps its own counters: this component counts per request */
	s->cache = sc_new(&cfg, NULL, emit_down, s, &why);
	if (!s->cache) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG, "%s", why);
		g_free(why);
		return -1;
	}
	return 0;
}

static void space_cache_recv(struct ss_component *c, struct ss_port *in,
			     const struct ss_msg *m)
{
	static const struct sc_kernel_end end = { SC_FINAL_COUNT, true };
	struct space_cache *s = SS_COMPONENT(c, struct space_cache, c);
	const struct mem_req *r = (const struct mem_req *)m;

	if (m->kind == MEM_CONTROL) {
		if (r->ctl == MEM_CTL_FLUSH)
			sc_flush(s->cache);
		else if (r->ctl == MEM_CTL_INVALIDATE)
			sc_invalidate(s->cache);
		else if (r->ctl == MEM_CTL_KERNEL_END)
			sc_end_kernel(s->cache, &end);
		ss_port_send(s->mem_side, m);	/* after this level's write-backs */
		return;
	}
	if (r->space != s->space) {
		c->stats[ST_PASSED]++;
		ss_port_send(s->mem_side, m);
		return;
	}
	c->stats[ST_ACCESSES]++;
	switch (sc_access(s->cache, r)) {
	case SC_HIT: c->stats[ST_HITS]++; break;
	case SC_SECTOR_MISS: c->stats[ST_SECTOR_MISSES]++; break;
	case SC_MISS: c->stats[ST_LINE_MISSES]++; break;
	}
}

static void space_cache_destroy(struct ss_component *c)
{
	sc_free(SS_COMPONENT(c, struct space_cache, c)->cache);
}

static const struct ss_component_ops ops = {
	.xcreate = space_cache_create,
	.xrecv = space_cache_recv,
	.xdestroy = space_cache_destroy,
};

static const struct ss_component_type space_cache_type = {
	.abi_version = SS_ABI_VERSION,
	.name = "space_cache",
	.summary = "Test: a sector cache that keeps one memory space; the other passes by",
	.params = params,
	.ports = ports,
	.stats = stats,
	.ops = &ops,
	.instance_size = sizeof(struct space_cache),
};

SS_PLUGIN_ENTRY(space_cache)
{
	return ss_registry_add(r, &space_cache_type, error);
}
