/* Launching shoal's own factorization kernels (docs/lapack.md): blocks of pow2ceil(N) x NB
 * threads, a grid that loops over the groups. Designs regs and smem give each problem a team of
 * pow2ceil(N) threads (NB problems per block); serial gives each thread a problem; getrf's tall
 * design a block of p[2] threads to one panel of up to p[0] x p[1].
 * The library and the tuner both launch through here. */
#ifndef SHOAL_LAPACK_LAUNCH_H
#define SHOAL_LAPACK_LAUNCH_H

#include <cuda_runtime_api.h>
#include "dispatch_table.h"
#include "lapack_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest matrix dimension the factorization kernels serve (above it: the drivers). */
#define SHOAL_LAPACK_MAX_N 32

/* Largest N of a team-per-problem kernel: geqrf's regs design reaches 64, launched above
 * SHOAL_LAPACK_MAX_N by the blocked QR driver for a matrix it holds whole (runtime/drivers/
 * qr_blocked.c). */
#define SHOAL_LAPACK_FUSED_MAX_N 64

/* Most rows of the tall panels (SHOAL_DESIGN_TALL: n <= SHOAL_LAPACK_MAX_N columns), which the
 * blocked LU driver reaches through shoal_lapack_run_kernel. */
#define SHOAL_LAPACK_TALL_MAX_M 1024

/* Threads per block of a factorization kernel: pow2ceil(N) * NB (TALL: p[2]). */
int shoal_lapack_threads(const shoal_kernel_desc *kd);

/* Whether kd (compile-time bound N = p[0]; TALL: m <= p[0], n <= p[1]) can serve an m x n problem. */
int shoal_lapack_kernel_fits(const shoal_kernel_desc *kd, int m, int n);

/* Whether kd loops over its problems in a grid of one resident wave (REGS or SERIAL with
 * PF = p[4] > 0: its teams, or its block, prefetch the next problems while they factor the
 * current ones). */
int shoal_lapack_resident_grid(const shoal_kernel_desc *kd);

/* Blocks launched for batch problems: one per group of problems (at most 2^20, the kernels loop
 * over the rest), or with a resident grid at most resident_blocks per SM on sm_count SMs. */
long long shoal_lapack_grid(const shoal_kernel_desc *kd, long long batch, int resident_blocks, int sm_count);

/* Blocks of kd resident per SM (the occupancy API), as a resident grid needs them; 0 for a kernel
 * without one. A query of the kernel's attributes: callers keep the answer off the hot path. */
cudaError_t shoal_lapack_resident_blocks(const shoal_kernel_desc *kd, int *blocks);

/* Launches kd for all p->batch problems on stream (resident_blocks: from
 * shoal_lapack_resident_blocks; sm_count: the device's multiprocessors); returns the launch
 * error, does not sync. */
cudaError_t shoal_lapack_launch(const shoal_kernel_desc *kd, const shoal_lapack_params *p, int resident_blocks,
                                int sm_count, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
