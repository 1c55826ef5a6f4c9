/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * migrate.h: the header popcorn-kernel-lib's programs include.
 *
 * The API itself is in popcorn.h; this adds that library's helpers:
 * page size macros, page-aligned variables and heap, the configuration
 * block, the region macros and the OpenMP wrappers.  Its defaults are
 * kept: variables and heap are page aligned, region profiling is off.
 * Unlike the original, popcorn_release_ownership() is the real thing
 * (madvise(MADV_RELEASE)), and POPCORN_DEFINE_CONFIGS() defines the
 * object that POPCORN_CONFIG_* name.
 */
#ifndef _POPCORN_MIGRATE_H_
#define _POPCORN_MIGRATE_H_

#include <stdlib.h>
#include <sys/mman.h>

#include "popcorn.h"

#ifdef __cplusplus
extern "C" {
#endif

#define _POPCORN_ALIGN_VARIABLES
#define _POPCORN_ALIGN_HEAP

#ifndef PAGE_SHIFT
#define PAGE_SHIFT	12
#endif
#ifndef PAGE_SIZE
#define PAGE_SIZE	(1 << PAGE_SHIFT)
#endif
#ifndef PAGE_MASK
#define PAGE_MASK	(~(PAGE_SIZE - 1))
#endif

/* Keeps a variable on pages of its own: no false sharing between nodes. */
#define ALIGN_TO_PAGE	__attribute__((aligned(PAGE_SIZE)))

/* Whole pages, page aligned; NULL when out of memory.  free() it. */
static inline void *popcorn_malloc(size_t size)
{
	void *p = NULL;

	if (posix_memalign(&p, PAGE_SIZE,
			   (size + PAGE_SIZE - 1) & PAGE_MASK))
		return NULL;
	return p;
}

/* A page of integer settings shared by all threads. */
struct __popcorn_config_t {
	int configs[1024];
} ALIGN_TO_PAGE;

#define POPCORN_DEFINE_CONFIGS()				\
	struct __popcorn_config_t __popcorn_config = {		\
		.configs = {0},					\
	}
#define POPCORN_CONFIG_CORES_PER_NODE	__popcorn_config.configs[0]
#define POPCORN_CONFIG_NODES		__popcorn_config.configs[1]

#define POPCORN_MIGRATE_START(tid) \
	popcorn_migrate((tid) / POPCORN_CONFIG_CORES_PER_NODE)

#define POPCORN_MIGRATE_END() \
	popcorn_migrate(0)

/* Region profiling is not built in: a region id is accepted and unused. */
static inline void popcorn_region_id(int id)
{
	(void)id;
}

/*
 * Give the pages of [start, start + len) that this node holds back to
 * the origin.  0, or -1 with errno set (as madvise()).
 */
static inline int popcorn_release_ownership(void *start, size_t len)
{
	return madvise(start, len, MADV_RELEASE);
}

#define POPCORN_MIGRATE_REGION_START(tid, R)	\
	POPCORN_MIGRATE_START(tid);		\
	popcorn_region_id(R)

#define POPCORN_MIGRATE_REGION_END()		\
	popcorn_region_id(0);			\
	POPCORN_MIGRATE_END()

#ifdef _OPENMP
#include <omp.h>

#define POPCORN_OMP_MIGRATE_START(R)					\
{									\
	popcorn_migrate(omp_get_thread_num() /				\
			POPCORN_CONFIG_CORES_PER_NODE);			\
	popcorn_region_id(R);

#define POPCORN_OMP_MIGRATE_END()					\
	popcorn_region_id(0);						\
	popcorn_migrate(0);						\
}
#endif /* _OPENMP */

#ifdef __cplusplus
}
#endif

#endif /* _POPCORN_MIGRATE_H_ */
