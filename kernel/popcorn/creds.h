/* SPDX-License-Identifier: GPL-2.0 */
/* Credentials of migrated threads (creds.c). */
#ifndef _POPCORN_CREDS_H
#define _POPCORN_CREDS_H

#include "messages.h"

int pcn_creds_capture(struct pcn_creds *c);
int pcn_creds_install(const struct pcn_creds *c);
void pcn_creds_install_thread(const struct pcn_creds *c);

#endif /* _POPCORN_CREDS_H */
