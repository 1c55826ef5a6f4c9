/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal TAP output for guest tests: one "ok - ..." or "not ok - ..."
 * line per check; the host harness numbers and counts them.
 */
#ifndef _POPCORN_TAP_H
#define _POPCORN_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_failed;

static inline int tap_check(int cond, const char *fmt, ...)
{
	va_list ap;

	/* One line, whole: another thread may print meanwhile. */
	flockfile(stdout);
	printf("%sok - ", cond ? "" : "not ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	funlockfile(stdout);
	if (!cond)
		tap_failed++;
	return cond;
}

#endif /* _POPCORN_TAP_H */
