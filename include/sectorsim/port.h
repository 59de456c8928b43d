/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SECTORSIM_PORT_H
#define SECTORSIM_PORT_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>

G_BEGIN_DECLS

struct ss_component;
struct ss_port;
struct ss_port_desc;

/*
 * Every protocol message starts with this header.  `size` is the size of the
 * whole message, so the core can copy a message it has to hold back (latency
 * > 0) without knowing the protocol; `kind` is the protocol's own business.
 * Messages are passed by pointer and valid only during the receive call.
 */
struct ss_msg {
	uint32_t size;
	uint32_t kind;
};

/* Largest message a link with latency, or between threads, may carry
 * (a protocol's largest message is sized to fit it). */
#define SS_MSG_MAX 512

typedef void (*ss_recv_fn)(struct ss_component *c, struct ss_port *in,
			   const struct ss_msg *m);

/*
 * One endpoint.  A vector port is an array of these.  The first four fields
 * are all a send touches: the peer's receive function is cached here at bind
 * time so a zero-latency send is a single indirect call.
 */
struct ss_port {
	ss_recv_fn peer_recv;
	struct ss_component *peer_comp;
	struct ss_port *peer;
	uint64_t latency;

	struct ss_component *owner;
	const struct ss_port_desc *desc;
	unsigned index;		/* element of a vector port; 0 for a scalar */
	bool bound;
};

/* Outcome of binding two endpoints; the names follow GStreamer's pad links. */
enum ss_link_result {
	SS_LINK_OK = 0,
	SS_LINK_NO_COMPONENT = -1,	/* unknown component or instance index */
	SS_LINK_NO_PORT = -2,		/* the component has no such port */
	SS_LINK_WRONG_DIR = -3,		/* not out -> in */
	SS_LINK_PROTOCOL = -4,		/* the two ports speak different protocols */
	SS_LINK_WAS_LINKED = -5,	/* endpoint already bound */
	SS_LINK_INDEX = -6,		/* vector index out of range / scalar indexed */
	SS_LINK_CARDINALITY = -7,	/* expanded from/to lists differ in length */
	SS_LINK_UNBOUND = -8,		/* a required port left unbound */
};

/* The reason in a few words ("protocol mismatch"). */
const char *ss_link_result_str(enum ss_link_result r);

/*
 * Whether an endpoint of `out` may be linked to one of `in`, the first
 * refusal in this order: direction (out -> in), protocol, either end already
 * linked.  ss_port_link() and the INI link planner both decide by it, so a
 * link the planner accepts is one the ports accept.
 */
enum ss_link_result ss_port_check_link(const struct ss_port_desc *out,
				       bool out_linked,
				       const struct ss_port_desc *in,
				       bool in_linked);

/* Bind an out endpoint to an in endpoint; nothing changes unless SS_LINK_OK. */
enum ss_link_result ss_port_link(struct ss_port *out, struct ss_port *in,
				 uint64_t latency);

/* Hold `m` back and deliver it `latency` ticks from now (latency > 0). */
void ss_port_send_delayed(struct ss_port *p, const struct ss_msg *m,
			  uint64_t latency);

/*
 * Send on the link's latency.  Either end of a link may send: a response
 * travels back on the same link.  A send on an unbound optional port stops
 * the program with a message naming the port, since dropping a message would
 * silently change the numbers; a component checks ss_port_is_bound() first
 * where an open port is legitimate.
 */
static inline void ss_port_send(struct ss_port *p, const struct ss_msg *m)
{
	if (G_LIKELY(p->latency == 0))
		p->peer_recv(p->peer_comp, p->peer, m);
	else
		ss_port_send_delayed(p, m, p->latency);
}

/* ss_port_send(), `delay` ticks later than the link's latency alone. */
static inline void ss_port_send_after(struct ss_port *p, const struct ss_msg *m,
				      uint64_t delay)
{
	if (delay == 0)
		ss_port_send(p, m);
	else
		ss_port_send_delayed(p, m, p->latency + delay);
}

static inline bool ss_port_is_bound(const struct ss_port *p)
{
	return p->bound;
}

G_END_DECLS

#endif
