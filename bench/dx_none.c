/* The cuSolverDx peer where the build found no libmathdx (bench/bench.mk: MATHDX_HOME unset and
 * no nvidia-libmathdx-cu13 package): the same interface, every call saying why, so the bench
 * reports "cusolverdx: unavailable (libmathdx not found)" once and measures everything else. */
#include "dx_peer.h"

#include <stdio.h>

#define DX_MISSING "libmathdx not found"

const char *dx_peer_missing(void) { return DX_MISSING; }
const char *dx_peer_version(void) { return DX_MISSING; }
const char *dx_peer_cache_dir(void) { return ""; }

void dx_config_name(const dx_config *c, char *buf, size_t len)
{
    snprintf(buf, len, "%d_%c_%c_%d_sm%d", (int)c->routine, c->prec, c->uplo, c->n, c->sm);
}

int dx_peer_prepare(const dx_config *cfgs, int count, int jobs, int verbose)
{
    (void)cfgs, (void)jobs, (void)verbose;
    return count;
}

int dx_peer_cached_shape(const dx_config *c, dx_shape *out)
{
    (void)c, (void)out;
    return 1;
}

dx_kernel *dx_peer_open(const dx_config *c, char *why, size_t len)
{
    (void)c;
    snprintf(why, len, DX_MISSING);
    return NULL;
}

const dx_shape *dx_peer_shape(const dx_kernel *k)
{
    (void)k;
    return NULL;
}

cudaError_t dx_peer_launch(const dx_kernel *k, void *a, int *ipiv, void *tau, int *info, int64_t batch,
                           cudaStream_t stream)
{
    (void)k, (void)a, (void)ipiv, (void)tau, (void)info, (void)batch, (void)stream;
    return cudaErrorNotSupported;
}

void dx_peer_close(dx_kernel *k) { (void)k; }
