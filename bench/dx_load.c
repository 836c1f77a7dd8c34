/* Loading and launching a cuSolverDx peer kernel: the cubin goes in with cudaLibraryLoadData
 * (runtime API: the bench does not link libcuda), one block per BatchesPerBlock matrices. */
#include "dx_cache.h"

#include <stdio.h>
#include <stdlib.h>

struct dx_kernel {
    cudaLibrary_t lib;
    cudaKernel_t fn;
    dx_shape shape;
};

dx_kernel *dx_peer_open(const dx_config *c, char *why, size_t len)
{
    size_t size = 0;
    dx_kernel *k = calloc(1, sizeof *k);
    void *cubin = k ? dx_cache_get(c, &size, &k->shape, why, len) : NULL;
    if (!cubin) {
        if (!k)
            snprintf(why, len, "out of memory");
        free(k);
        return NULL;
    }
    cudaError_t e = cudaLibraryLoadData(&k->lib, cubin, NULL, NULL, 0, NULL, NULL, 0);
    free(cubin); /* the runtime keeps its own copy */
    if (e == cudaSuccess)
        e = cudaLibraryGetKernel(&k->fn, k->lib, "dx_batched");
    /* above 48 KiB a kernel must opt in to its dynamic shared memory */
    if (e == cudaSuccess)
        e = cudaFuncSetAttribute((const void *)k->fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 (int)k->shape.smem);
    if (e != cudaSuccess) {
        snprintf(why, len, "loading the kernel: %s", cudaGetErrorString(e));
        (void)cudaGetLastError();
        dx_peer_close(k);
        return NULL;
    }
    return k;
}

const dx_shape *dx_peer_shape(const dx_kernel *k) { return &k->shape; }

cudaError_t dx_peer_launch(const dx_kernel *k, void *a, int *ipiv, void *tau, int *info, int64_t batch,
                           cudaStream_t stream)
{
    long long b = (long long)batch;
    void *args[] = {&a, &ipiv, &tau, &info, &b};
    dim3 grid = {(unsigned)((batch + k->shape.bpb - 1) / k->shape.bpb), 1, 1};
    dim3 block = {(unsigned)k->shape.block[0], (unsigned)k->shape.block[1], (unsigned)k->shape.block[2]};
    return cudaLaunchKernel((const void *)k->fn, grid, block, args, (size_t)k->shape.smem, stream);
}

void dx_peer_close(dx_kernel *k)
{
    if (k && k->lib)
        cudaLibraryUnload(k->lib);
    free(k);
}
