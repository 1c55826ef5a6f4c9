/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KERNEL_POPCORN_MEMBERSHIP_H
#define _KERNEL_POPCORN_MEMBERSHIP_H

#include <popcorn/nodes.h>

int pcn_peer_next_state(enum pcn_peer_state state, enum pcn_peer_event ev);
const char *pcn_peer_state_name(enum pcn_peer_state state);

#endif /* _KERNEL_POPCORN_MEMBERSHIP_H */
