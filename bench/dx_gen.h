/* Code generation of one cuSolverDx peer kernel (bench/dx_gen.c); needs libmathdx, NVRTC and
 * nvJitLink, no GPU. */
#ifndef SHOAL_DX_GEN_H
#define SHOAL_DX_GEN_H

#include "dx_peer.h"

/* Bump when the wrapper kernel or the recipe changes: it names the cache folder. */
#define DX_RECIPE "dx1"

/* The cubin of c (malloc'd, *size bytes) and its shape; NULL with the reason in why. */
void *dx_generate(const dx_config *c, size_t *size, dx_shape *shape, char *why, size_t len);

#endif
