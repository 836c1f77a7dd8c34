/* Launching shoal's own GEMM kernels: grid, shared memory and batch splitting per design.
 * The library and the tuner both launch through here, so a tuned time is the time users get. */
#ifndef SHOAL_GEMM_LAUNCH_H
#define SHOAL_GEMM_LAUNCH_H

#include <stddef.h>
#include <cuda_runtime_api.h>
#include "kernel_abi.h"
#include "dispatch_table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of an element of the given precision ('s' 4, 'd' 8, 'c' 8, 'z' 16), 0 if unknown. */
int shoal_elem_bytes(char precision);

/* Dynamic shared memory the kernel needs for this shape (0 for designs with static tiles). */
size_t shoal_gemm_dynamic_smem(const shoal_kernel_desc *kd, int m, int n, int k);

/* Whether the kernel can serve this shape, in pointer-array (array != 0) or strided form, on a
 * device whose per-block opt-in shared memory limit is smem_optin bytes. */
int shoal_gemm_kernel_fits(const shoal_kernel_desc *kd, int m, int n, int k, int array, int smem_optin);

/* Whether a design serves batches of this form (array != 0: pointer arrays). The pipelined
 * small-problem designs have one kernel per form (staged strided, staged_ptr and group_ptr
 * pointer arrays); every other design serves both. */
int shoal_design_serves_form(int design, int array);

/* Blocks for a kernel that pipelines across the work items it loops over: one per item, at most
 * one wave of `threads`-thread blocks (2048 resident threads per SM) on sm_count SMs. */
long long shoal_one_wave_grid(long long items, int sm_count, int threads);

/* enum shoal_design of a search-space design name, -1 if unknown. */
int shoal_design_from_name(const char *name);

/* Launches kd on stream for all p->batch problems (m, n > 0 and kd fits) on a device with
 * sm_count multiprocessors. Returns the launch error, if any; does not synchronize. */
cudaError_t shoal_gemm_launch(const shoal_kernel_desc *kd, const shoal_gemm_params *p, int sm_count,
                              cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
