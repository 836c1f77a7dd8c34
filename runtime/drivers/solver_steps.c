#include "solver_steps.h"

#include "lapack_routines.h"
#include "lapack_run.h"
#include "lapack_steps.h"

long long shoal_solver_chunk(long long bytes)
{
    const long long fit = bytes > 0 ? (long long)(SHOAL_SOLVER_WS_BYTES / (size_t)bytes) : SHOAL_LAPACK_CHUNK;
    return fit < SHOAL_LAPACK_CHUNK ? fit : SHOAL_LAPACK_CHUNK;
}

shoal_status shoal_solver_step_geqrf(struct shoal_context *ctx, char prec, long long batch, int m, int n,
                                     shoal_operand A, shoal_operand tau)
{
    shoal_lapack_params f = {0};
    f.m = m;
    f.n = n;
    f.A = A.ptr;
    f.A_array = A.array;
    f.lda = A.ld;
    f.stride_a = A.stride;
    f.ldb = 1; /* no B: ld 1, as the kernels expect */
    f.tau = tau.ptr;
    f.tau_array = tau.array;
    f.stride_tau = tau.stride;
    f.batch = batch;
    return shoal_lapack_run_ctx(ctx, SHOAL_GEQRF, prec, 0, &f);
}
