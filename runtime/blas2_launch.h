/* Launching shoal's own level-2 kernels (gemv, trsv, gemv_vbatched; docs/blas2.md): threads,
 * dynamic shared memory and grid per design. The library and the tuner both launch through here. */
#ifndef SHOAL_BLAS2_LAUNCH_H
#define SHOAL_BLAS2_LAUNCH_H

#include <stddef.h>
#include <cuda_runtime_api.h>
#include "blas2_abi.h"
#include "dispatch_table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest n the trsv kernels solve with a team of lanes per problem (no block-wide
 * synchronization); larger n take a block per problem. */
#define SHOAL_TRSV_WARP_N 32

/* Threads per block (one-dimensional blocks). */
int shoal_blas2_threads(const shoal_kernel_desc *kd);

/* Dynamic shared memory for an m x n problem (the maxima for variable sizes). */
size_t shoal_blas2_dynamic_smem(const shoal_kernel_desc *kd, int m, int n);

/* Whether kd can serve an m x n problem, in pointer-array (array != 0) or strided form, on a
 * device with smem_optin bytes of opt-in shared memory per block. */
int shoal_blas2_kernel_fits(const shoal_kernel_desc *kd, int m, int n, int array, int smem_optin);

/* Launches kd for all p->batch problems on a device with sm_count multiprocessors; returns the
 * launch error, does not synchronize. */
cudaError_t shoal_blas2_launch(const shoal_kernel_desc *kd, const shoal_blas2_params *p, int sm_count,
                               cudaStream_t stream);

/* gemm_vbatched (designs vtiled, vmma): grid x = BLK_M x BLK_N tiles of a max_m x max_n C, grid y/z =
 * problems, at most about SHOAL_VBATCHED_BLOCKS_PER_SM blocks per SM of the device's sm_count (the
 * blocks loop over the problems past that); blocks of DIM_X * DIM_Y threads, static shared memory. */
#define SHOAL_VBATCHED_BLOCKS_PER_SM 128
long long shoal_gemm_vbatched_rows(long long tiles, long long batch, int sm_count);
cudaError_t shoal_gemm_vbatched_launch(const shoal_kernel_desc *kd, const shoal_gemm_vparams *p, int sm_count,
                                       cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
