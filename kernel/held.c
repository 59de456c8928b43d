/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Messages held back by links with latency.  A send on such a link copies the
 * message into a pooled record and schedules its delivery; the record goes
 * back to the pool once the receiver has seen it, so a steady simulation
 * allocates nothing here either.
 */
#include "config.h"

#include <string.h>
#include "internal.h"

#define HELD_SLAB 256

/*
 * Records of two sizes: most held messages are a few dozen bytes, and
 * records of SS_MSG_MAX bytes for them all would multiply what a run with
 * many messages in flight keeps and walks through.
 */
static size_t held_record(bool large)
{
	size_t n = sizeof(struct ss_held_msg) + (large ? SS_MSG_MAX : SS_HELD_SMALL);

	return (n + 7) & ~(size_t)7;
}

static struct ss_held_msg *held_get(struct ss_engine *e, uint32_t size)
{
	bool large = size > SS_HELD_SMALL;

	if (G_UNLIKELY(!e->held_free[large])) {
		size_t rec = held_record(large);
		char *slab = g_malloc(HELD_SLAB * rec);

		for (unsigned i = 0; i < HELD_SLAB; i++) {
			struct ss_held_msg *h = (struct ss_held_msg *)(slab + i * rec);

			h->large = large;
			h->next_free = e->held_free[large];
			e->held_free[large] = h;
		}
		g_ptr_array_add(e->held_slabs, slab);
		e->held_total += HELD_SLAB;
	}
	struct ss_held_msg *h = e->held_free[large];

	e->held_free[large] = h->next_free;
	return h;
}

/*
 * Through the sending end's peer_recv, which is the receiver's xrecv, or
 * cut_recv when the link runs between partitions (--threads): then the
 * message crosses to the receiver's partition as any message sent at this
 * time would, rather than being handed to it on this thread.
 */
static void held_deliver(struct ss_engine *e, void *data)
{
	struct ss_held_msg *h = data;
	struct ss_port *src = h->src;

	e = ss_queue_of(e);	/* the pool of the partition it was sent in */
	src->peer_recv(src->peer_comp, src->peer, (const struct ss_msg *)h->msg);
	h->next_free = e->held_free[h->large];
	e->held_free[h->large] = h;
}

void ss_port_send_delayed(struct ss_port *p, const struct ss_msg *m,
			  uint64_t latency)
{
	struct ss_engine *e = ss_queue_of(p->owner->engine);

	if (G_UNLIKELY(!p->bound)) {
		p->peer_recv(p->peer_comp, p->peer, m);	/* reports and stops */
		return;
	}
	if (G_UNLIKELY(m->size < sizeof(*m) || m->size > SS_MSG_MAX))
		g_error("%s.%s: message of %u bytes cannot cross a link with "
			"latency (at most %d)", p->owner->name, p->desc->name,
			m->size, SS_MSG_MAX);

	/*
	 * A link with latency between two partitions (time order keeps its
	 * latency, partition.c): the message crosses now, stamped with the
	 * time it arrives, which lets the receiver run that far ahead.
	 */
	if (p->latency && p->owner->part != p->peer_comp->part &&
	    ss_partition_send_timed(p, m, latency))
		return;

	struct ss_held_msg *h = held_get(e, m->size);

	h->src = p;
	memcpy(h->msg, m, m->size);
	/*
	 * On a link with latency, at the sender's link priority: its own, so
	 * the order of what arrives at one tick is the senders' order, the
	 * same whether the link runs between threads or not.  A delay inside
	 * a component (ss_port_send_after on a link without latency) arrives
	 * at the receiver's priority.
	 */
	ss_schedule(e, e->now + latency, p->latency ? p->owner->link_prio : p->peer_comp->prio,
		    held_deliver, h);
}
