/* The cuSolverDx peer's cubin cache (bench/dx_cache.c). */
#ifndef SHOAL_DX_CACHE_H
#define SHOAL_DX_CACHE_H

#include "dx_peer.h"

/* The cubin of c (malloc'd) and its shape: from the cache, else generated here and stored.
 * NULL with the reason in why. */
void *dx_cache_get(const dx_config *c, size_t *size, dx_shape *shape, char *why, size_t len);

#endif
