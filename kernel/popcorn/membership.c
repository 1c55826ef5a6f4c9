// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn membership state machine, per peer node:
 *
 *   OFFLINE --connect--> HANDSHAKE --handshake_ok--> ONLINE
 *      ^                    |                          |
 *      +---handshake_fail---+                          |
 *      +---------------------disconnect----------------+
 *
 * A transport reports the events of each peer's connection; a node is
 * online exactly in state ONLINE.  A node that reboots opens a new
 * connection: the transport first reports the old one's disconnect.
 */
#include <linux/errno.h>

#include "membership.h"

/**
 * pcn_peer_next_state() - state after @ev in state @state
 * @state: current state
 * @ev: event reported by the transport
 *
 * Return: the new state, or -EINVAL for an event that cannot happen in
 * @state (the caller keeps the old state).
 */
int pcn_peer_next_state(enum pcn_peer_state state, enum pcn_peer_event ev)
{
	switch (ev) {
	case PCN_PEER_EV_CONNECT:
		return state == PCN_PEER_OFFLINE ? PCN_PEER_HANDSHAKE : -EINVAL;
	case PCN_PEER_EV_HANDSHAKE_OK:
		return state == PCN_PEER_HANDSHAKE ? PCN_PEER_ONLINE : -EINVAL;
	case PCN_PEER_EV_HANDSHAKE_FAIL:
		return state == PCN_PEER_HANDSHAKE ? PCN_PEER_OFFLINE : -EINVAL;
	case PCN_PEER_EV_DISCONNECT:
		return PCN_PEER_OFFLINE;
	}
	return -EINVAL;
}

const char *pcn_peer_state_name(enum pcn_peer_state state)
{
	switch (state) {
	case PCN_PEER_OFFLINE:
		return "offline";
	case PCN_PEER_HANDSHAKE:
		return "handshake";
	case PCN_PEER_ONLINE:
		return "online";
	}
	return "?";
}
