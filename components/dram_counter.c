/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dram_counter: the end of the memory hierarchy.  It counts the 32-byte
 * read and write transactions that reach it (the reference's DRAM numbers
 * are the L2's traffic: its sector reads, and its write-backs of dirty
 * sectors, one per sector), and per channel when it has several.
 * The req inputs are spread evenly over the channels in port order, so
 * that one input per L2 slice (48 of them, 24 channels) gives each slice
 * its channel, slice / n_sub (2 slices per channel on TITAN V, 4 on A100),
 * as does one input per channel.
 * A kernel's end, once every input has sent it, goes on through `done` to
 * whoever closes the kernel.
 *
 * In timing mode it answers each read, atomic and reduction (mem.h) after
 * its latency: fixed, or min + |N(0, sigma^2)| from a seeded generator
 * (models/latency.h).  With a bandwidth, each channel serves its bytes at
 * that many per cycle in arrival order, and a request waits for the ones
 * before it: its answer comes that much later.
 */
#include "config.h"

#include <sectorsim/sectorsim.h>
#include <sectorsim/protocols/mem.h>
#include <sectorsim/protocols/cache_stats.h>
#include <math.h>
#include "latency.h"

enum { DC_READS, DC_WRITES, DC_ATOMICS, DC_N_STATS };

/* Timing mode's counters, added when it is on. */
enum { DT_ANSWERED, DT_LATENCY, DT_QUEUED, DT_QUEUE_CYCLES, DT_N_STATS };

static const struct {
	const char *name, *doc;
} dt_rows[DT_N_STATS] = {
	[DT_ANSWERED] = { DRAM_STAT_ANSWERED, "timing: reads, atomics and reductions answered" },
	[DT_LATENCY] = { DRAM_STAT_LATENCY_CYCLES, "timing: cycles from arrival to answer, summed over the answers" },
	[DT_QUEUED] = { DRAM_STAT_QUEUED, "timing, with a bandwidth: transactions that waited for their channel" },
	[DT_QUEUE_CYCLES] = { DRAM_STAT_QUEUE_CYCLES, "timing, with a bandwidth: cycles transactions waited for their channel, summed" },
};

static const struct ss_stat_desc stats[] = {
	[DC_READS] = { DRAM_STAT_READS, SS_STAT_COUNTER, "32-byte read transactions", NULL, NULL },
	[DC_WRITES] = { DRAM_STAT_WRITES, SS_STAT_COUNTER, "32-byte write transactions", NULL, NULL },
	[DC_ATOMICS] = { "atomics", SS_STAT_COUNTER, "32-byte atomic and reduction transactions (performed at the memory)", NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

static const struct ss_param_desc params[] = {
	{ "channels", SS_P_UINT, "0", "DRAM channels; input i belongs to channel i / (inputs / channels), so the inputs must be a multiple of it; 0: one channel per input", NULL, 0, 65536, 0 },
	{ "timing", SS_P_BOOL, "false", "timing mode: reads, atomics and reductions are answered after the latency (and the queueing a bandwidth causes)", NULL, 0, 0, 0 },
	{ "latency", SS_P_UINT, "0", "timing: cycles from a request's arrival to its answer, at least (the minimum of the half-normal model)", NULL, 0, 100000000, 0 },
	{ "latency_sigma", SS_P_DOUBLE, "0", "timing: sigma of the half-normal part: latency + |N(0, sigma^2)|, rounded; 0: a fixed latency", NULL, 0, 0, 0 },
	{ "seed", SS_P_UINT, "1", "timing: seed of the generator the half-normal latencies come from (the same seed, the same latencies)", NULL, 0, UINT32_MAX, 0 },
	{ "bytes_per_cycle", SS_P_DOUBLE, "0", "timing: bandwidth of each channel in bytes per cycle; requests beyond it queue; 0: unlimited", NULL, 0, 0, 0 },
	{ NULL, 0, NULL, NULL, NULL, 0, 0, 0 },
};

static const struct ss_port_desc ports[] = {
	{ "req", SS_PORT_IN, MEM_PROTOCOL, true, true, "requests from the L2: one input per slice or per channel, in order" },
	{ "done", SS_PORT_OUT, MEM_PROTOCOL, false, false, "a kernel's end, once every input has ended it" },
	{ NULL, 0, NULL, false, false, NULL },
};

struct dram_counter {
	struct ss_component c;
	struct ss_port *done;
	unsigned n_in, ended;
	bool begun;
	struct mem_req end_msg;	/* the last input's kernel end, for end_tick */
	bool end_due;		/* end_msg waits for end_tick */
	uint64_t **channel;	/* per input: its channel's reads, writes
				   (several channels only) */
	unsigned per_channel;	/* inputs per channel */
	unsigned n_ch;
	/* timing mode */
	struct latency_model *latency;	/* NULL: functional */
	double bytes_per_cycle;		/* 0: unlimited */
	double *free_at;		/* per channel: when its bandwidth is free,
					   in ticks since the kernel's begin */
	uint64_t begin_tick;		/* of the current kernel */
	uint64_t *dt[DT_N_STATS];
};

static int dram_create(struct ss_component *c, const struct ss_params *p,
		       GError **err)
{
	struct dram_counter *d = SS_COMPONENT(c, struct dram_counter, c);
	unsigned n_ch, per_channel;

	d->done = ss_component_port(c, "done", 0);
	d->n_in = ss_component_port_count(c, "req");
	n_ch = ss_param_uint(p, "channels");
	if (!n_ch)
		n_ch = d->n_in;
	if (d->n_in % n_ch) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "channels = %u: the %u req inputs cannot be spread evenly; expected a divisor of the input count",
			    n_ch, d->n_in);
		return -1;
	}
	per_channel = d->per_channel = d->n_in / n_ch;
	d->n_ch = n_ch;
	if (ss_param_bool(p, "timing")) {
		double sigma = ss_param_double(p, "latency_sigma");

		d->bytes_per_cycle = ss_param_double(p, "bytes_per_cycle");
		if (!(sigma >= 0 && sigma <= LATENCY_SIGMA_MAX) ||
		    !(d->bytes_per_cycle >= 0) || !isfinite(d->bytes_per_cycle)) {
			g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
				    "latency_sigma = %g, bytes_per_cycle = %g: expected a sigma from 0 to %g and a finite bandwidth of 0 or more",
				    sigma, d->bytes_per_cycle, LATENCY_SIGMA_MAX);
			return -1;
		}
		d->latency = latency_new(ss_param_uint(p, "latency"), sigma,
					 (uint32_t)ss_param_uint(p, "seed"));
		d->free_at = g_new0(double, n_ch);
		/* the queue's counters only where there is a queue */
		for (int i = 0; i < (d->bytes_per_cycle > 0 ? DT_N_STATS : DT_QUEUED); i++)
			d->dt[i] = ss_stat_add_counter(c, dt_rows[i].name, dt_rows[i].doc);
		ss_stat_add_ratio(c, "mean_latency", "timing: mean cycles from arrival to answer",
				  DRAM_STAT_LATENCY_CYCLES, DRAM_STAT_ANSWERED);
	} else {
		/* answers nothing; counts, whenever requests come, and
		 * only how many (tallies: mem.h) */
		ss_component_set_port_flags(c, "req", SS_PORT_SILENT | SS_PORT_TIMELESS |
					    SS_PORT_COUNTS);
	}
	if (n_ch == 1)
		return 0;
	d->channel = g_new0(uint64_t *, 2 * d->n_in);
	for (unsigned k = 0; k < n_ch; k++) {
		char *r = g_strdup_printf("channel[%u].reads", k);
		char *w = g_strdup_printf("channel[%u].writes", k);
		uint64_t *reads = ss_stat_add_counter(c, r, "32-byte reads of this channel");
		uint64_t *writes = ss_stat_add_counter(c, w, "32-byte writes of this channel");

		for (unsigned i = k * per_channel; i < (k + 1) * per_channel; i++) {
			d->channel[2 * i] = reads;
			d->channel[2 * i + 1] = writes;
		}
		g_free(r);
		g_free(w);
	}
	return 0;
}

static void pass_on(struct dram_counter *d, const struct mem_req *r)
{
	if (ss_port_is_bound(d->done))
		ss_port_send(d->done, &r->hdr);
}

/* The kernel's end, due: at the end of its tick, or before what comes next. */
static void end_now(struct dram_counter *d)
{
	d->end_due = false;
	pass_on(d, &d->end_msg);
}

static void end_tick(struct ss_engine *e, void *data)
{
	struct dram_counter *d = data;

	(void)e;
	if (d->end_due)
		end_now(d);
}

G_GNUC_NO_INLINE static void dram_control(struct dram_counter *d, const struct mem_req *r)
{
	switch (r->ctl) {
	case MEM_CTL_KERNEL_BEGIN:
		/* one begin per kernel goes on, not one per input */
		if (!d->begun) {
			d->begun = true;
			/* the kernel's own clock: its queueing does not depend on
			 * when it starts (a resumed run starts it elsewhere) */
			if (d->free_at) {
				d->begin_tick = ss_engine_now(d->c.engine);
				memset(d->free_at, 0, d->n_ch * sizeof(*d->free_at));
			}
			pass_on(d, r);
		}
		break;
	case MEM_CTL_KERNEL_END:
		if (++d->ended < d->n_in)
			break;
		/*
		 * The kernel's end goes on at the end of the tick, in an event
		 * of the DRAM's own priority, not inside the last input's: it
		 * leaves at a time no other component's message has, which is
		 * what orders it among the SMs' messages to the scheduler on
		 * another thread (--threads).  What reaches the DRAM first
		 * (another kernel's traffic in the same tick) finds it ended
		 * (dram_recv).
		 */
		d->ended = 0;
		d->begun = false;
		d->end_msg = *r;
		d->end_due = true;
		ss_schedule_in(d->c.engine, 0, SS_PRIO_DRAIN + MAX(d->c.index, 0),
			       end_tick, d);
		break;
	default:
		pass_on(d, r);
		break;
	}
}

/* Requests a sender counted for this input (functional mode only). */
static void count_tally(struct dram_counter *d, struct ss_port *in,
			const struct mem_tally *t)
{
	uint64_t *stats = d->c.stats;

	stats[DC_READS] += t->atoms[0];
	stats[DC_WRITES] += t->atoms[MEM_WRITE - MEM_READ];
	stats[DC_ATOMICS] += t->atoms[MEM_ATOMIC - MEM_READ] +
			     t->atoms[MEM_REDUCTION - MEM_READ];
	if (d->channel) {
		*d->channel[2 * in->index] += t->atoms[0];
		*d->channel[2 * in->index + 1] += t->atoms[MEM_WRITE - MEM_READ];
	}
}

/* What reaches DRAM: a count, or control. */
static inline void count(struct dram_counter *d, struct ss_port *in, const struct ss_msg *m)
{
	uint64_t *stats = d->c.stats;
	const struct mem_req *r = (const struct mem_req *)m;

	switch (m->kind) {
	case MEM_READ:
		stats[DC_READS] += mem_atoms(r->size);
		if (d->channel)
			*d->channel[2 * in->index] += mem_atoms(r->size);
		break;
	case MEM_WRITE:
		stats[DC_WRITES] += mem_atoms(r->size);
		if (d->channel)
			*d->channel[2 * in->index + 1] += mem_atoms(r->size);
		break;
	case MEM_ATOMIC:
	case MEM_REDUCTION:
		stats[DC_ATOMICS] += mem_atoms(r->size);
		break;
	case MEM_CONTROL:
		dram_control(d, r);
		break;
	case MEM_TALLY:
		count_tally(d, in, (const struct mem_tally *)m);
		break;
	}
}

/* Timing mode: the bandwidth's queueing, then the answer. */
static void serve_timed(struct dram_counter *d, struct ss_port *in, const struct mem_req *r)
{
	uint64_t now = ss_engine_now(d->c.engine), wait = 0, delay;

	if (d->bytes_per_cycle > 0) {
		double *free_at = &d->free_at[in->index / d->per_channel];
		double t = (double)(now - d->begin_tick);
		double start = MAX(*free_at, t);

		*free_at = start + r->size / d->bytes_per_cycle;
		wait = (uint64_t)ceil(start - t);
		if (wait) {
			(*d->dt[DT_QUEUED])++;
			*d->dt[DT_QUEUE_CYCLES] += wait;
		}
	}
	if (!mem_req_wants_answer(r))
		return;
	delay = wait + latency_draw(d->latency);
	(*d->dt[DT_ANSWERED])++;
	*d->dt[DT_LATENCY] += delay;

	struct mem_req a = *r;

	a.ctl = (uint8_t)r->hdr.kind;
	a.hdr.kind = MEM_RESPONSE;
	ss_port_send_after(in, &a.hdr, delay);
}

/* dram_recv in timing mode. */
G_GNUC_NO_INLINE static void dram_recv_timed(struct dram_counter *d, struct ss_port *in,
					     const struct mem_req *r)
{
	if (d->end_due)
		end_now(d);
	count(d, in, &r->hdr);
	if (d->latency && r->hdr.kind != MEM_CONTROL)
		serve_timed(d, in, r);
}

/*
 * Once per transaction that reaches DRAM: a due kernel end and control
 * are tail calls, so that counting saves no registers.
 */
static void dram_recv(struct ss_component *c, struct ss_port *in,
		      const struct ss_msg *m)
{
	struct dram_counter *d = SS_COMPONENT(c, struct dram_counter, c);

	if (G_UNLIKELY(d->end_due || d->latency))
		dram_recv_timed(d, in, (const struct mem_req *)m);
	else
		count(d, in, m);
}

static void dram_destroy(struct ss_component *c)
{
	struct dram_counter *d = SS_COMPONENT(c, struct dram_counter, c);

	g_free(d->channel);
	g_free(d->free_at);
	latency_free(d->latency);
}

static const struct ss_component_ops ops = {
	.xcreate = dram_create,
	.xrecv = dram_recv,
	.xdestroy = dram_destroy,
};

static const struct ss_component_type dram_counter_type = {
	.abi_version = SS_ABI_VERSION,
	.name = "dram_counter",
	.summary = "DRAM as a counter of the 32-byte transactions that reach it, per channel; in timing mode it answers reads after a latency, with an optional bandwidth per channel",
	.params = params,
	.ports = ports,
	.stats = stats,
	.ops = &ops,
	.instance_size = sizeof(struct dram_counter),
	.flags = SS_TYPE_PARTITION_SAFE,
};

SS_PLUGIN_ENTRY(dram_counter)
{
	return ss_registry_add(r, &dram_counter_type, error);
}
