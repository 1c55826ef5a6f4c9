/* SPDX-License-Identifier: GPL-2.0 */
/* Thread placement (placement.c), and what its KUnit suite tests. */
#ifndef _POPCORN_PLACEMENT_H
#define _POPCORN_PLACEMENT_H

int pcn_place_choose(unsigned long nodes, unsigned long online,
		     const unsigned int *count);

#endif /* _POPCORN_PLACEMENT_H */
