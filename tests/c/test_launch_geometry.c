/* Launch geometry without a GPU: the threads, teams and dynamic shared memory that
 * runtime/lapack_launch.c, runtime/blas2_launch.c and runtime/gemm_launch.c derive from a kernel
 * descriptor, for the parameters that change a team's width (getrf's R rows per thread in p[3],
 * trsv's compiled team width TW in p[2]), for the shared-memory layouts of the staged GEMM
 * designs and gemv's pointer-array group design, and for gemm_vbatched's rows of problems. The
 * kernels assume exactly these; a mismatch would corrupt results.
 * Usage: test_launch_geometry [--list | --case NAME]; prints "ok NAME" / "FAILED NAME: why". */
#include <string.h>

#include "blas2_launch.h"
#include "gemm_launch.h"
#include "host_cases.h"
#include "lapack_launch.h"

/* A kernel descriptor with the fields the launch code reads. */
static shoal_kernel_desc desc(int design, char prec, int variant, int dim_x, int p0, int p1, int p2, int p3)
{
    shoal_kernel_desc kd;
    memset(&kd, 0, sizeof kd);
    kd.name = "test";
    kd.precision = prec;
    kd.variant = (unsigned char)variant;
    kd.design = (unsigned char)design;
    kd.dim_x = (short)dim_x;
    kd.dim_y = 1;
    kd.p[0] = (short)p0;
    kd.p[1] = (short)p1;
    kd.p[2] = (short)p2;
    kd.p[3] = (short)p3;
    return kd;
}

/* The LU-style designs: N (p[0]), NB (p[1]), design-specific p[2], p[3]. */
static shoal_kernel_desc lapack_desc(int design, int n_bound, int nb, int p2, int p3)
{
    return desc(design, 'd', 0, 0, n_bound, nb, p2, p3);
}

/* A block per group of NB problems (at most 2^20 blocks); with PF (p[4]) at most one resident
 * wave, which the kernel's prefetch needs to overlap a team's (or a serial block's) problems. */
static void case_lapack_resident_grid(void)
{
    shoal_kernel_desc kd = lapack_desc(SHOAL_DESIGN_REGS, 32, 2, 0, 1);
    CHECK(!shoal_lapack_resident_grid(&kd));
    CHECK(shoal_lapack_grid(&kd, 1001, 20, 132) == 501);
    CHECK(shoal_lapack_grid(&kd, 1LL << 40, 20, 132) == 1LL << 20);
    kd.p[4] = 1;
    CHECK(shoal_lapack_resident_grid(&kd));
    CHECK(shoal_lapack_grid(&kd, 1001, 20, 132) == 501);       /* fewer groups than a wave */
    CHECK(shoal_lapack_grid(&kd, 100001, 20, 132) == 20 * 132);
    CHECK(shoal_lapack_grid(&kd, 100001, 0, 132) == 132);      /* never an empty grid */
    CHECK(shoal_lapack_grid(&kd, 1LL << 40, 20, 132) == 20 * 132);
    /* serial: a problem per thread (4 x 16 threads: 64 problems per block); PF as above */
    kd = lapack_desc(SHOAL_DESIGN_SERIAL, 4, 16, 0, 0);
    CHECK(!shoal_lapack_resident_grid(&kd));
    CHECK(shoal_lapack_grid(&kd, 6400, 20, 132) == 100);
    CHECK(shoal_lapack_grid(&kd, 6400000, 20, 132) == 100000);
    kd.p[4] = 1;
    CHECK(shoal_lapack_resident_grid(&kd));
    CHECK(shoal_lapack_grid(&kd, 6400, 20, 132) == 100);
    CHECK(shoal_lapack_grid(&kd, 6400000, 20, 132) == 20 * 132);
}

/* A team of pow2ceil(N) threads per problem without R; pow2ceil(ceil(N / R)) with it. */
static void case_lapack_team_rows(void)
{
    shoal_kernel_desc kd = lapack_desc(SHOAL_DESIGN_REGS, 32, 4, 0, 0);
    CHECK(shoal_lapack_threads(&kd) == 32 * 4);
    kd = lapack_desc(SHOAL_DESIGN_REGS, 32, 4, 0, 1);
    CHECK(shoal_lapack_threads(&kd) == 32 * 4);
    kd = lapack_desc(SHOAL_DESIGN_REGS, 32, 4, 0, 2);
    CHECK(shoal_lapack_threads(&kd) == 16 * 4);
    kd = lapack_desc(SHOAL_DESIGN_REGS, 17, 2, 0, 2); /* ceil(17 / 2) = 9 -> 16 */
    CHECK(shoal_lapack_threads(&kd) == 16 * 2);
    kd = lapack_desc(SHOAL_DESIGN_REGS, 9, 8, 0, 4); /* ceil(9 / 4) = 3 -> 4 */
    CHECK(shoal_lapack_threads(&kd) == 4 * 8);
    kd = lapack_desc(SHOAL_DESIGN_REGS, 20, 1, 24, 1); /* getrf's MW in p[2] is no launch parameter */
    CHECK(shoal_lapack_threads(&kd) == 32);
    /* other routines' p[2] (potrf FLAT, geqrf RED, getrs NR) never change the team */
    kd = lapack_desc(SHOAL_DESIGN_REGS, 12, 2, 1, 0);
    CHECK(shoal_lapack_threads(&kd) == 16 * 2);
    /* the size bound is N, whatever R */
    kd = lapack_desc(SHOAL_DESIGN_REGS, 16, 4, 0, 2);
    CHECK(shoal_lapack_kernel_fits(&kd, 16, 16) && !shoal_lapack_kernel_fits(&kd, 17, 16));
    /* geqrf's team of two warps: N up to SHOAL_LAPACK_FUSED_MAX_N, launched; nothing past it */
    kd = lapack_desc(SHOAL_DESIGN_REGS, 64, 2, 0, 0);
    CHECK(shoal_lapack_threads(&kd) == 64 * 2);
    CHECK(shoal_lapack_kernel_fits(&kd, 64, 40) && shoal_lapack_kernel_fits(&kd, 37, 64));
    CHECK(!shoal_lapack_kernel_fits(&kd, 65, 1) && !shoal_lapack_kernel_fits(&kd, 1, 65));
    kd = lapack_desc(SHOAL_DESIGN_REGS, SHOAL_LAPACK_FUSED_MAX_N + 1, 1, 0, 0);
    shoal_lapack_params lp;
    memset(&lp, 0, sizeof lp);
    lp.m = lp.n = 1;
    lp.batch = 1;
    CHECK(shoal_lapack_launch(&kd, &lp, 0, 132, 0) == cudaErrorInvalidValue);
}

/* getrf's tall panels: M rows (p[0]), NC columns (p[1]), T threads (p[2]), one problem per
 * block; m above 32 and n up to NC fit, nothing past M (the kernel holds M / T rows per thread). */
static void case_lapack_tall_panel(void)
{
    shoal_kernel_desc kd = lapack_desc(SHOAL_DESIGN_TALL, 512, 16, 128, 0);
    CHECK(shoal_lapack_threads(&kd) == 128);
    CHECK(shoal_lapack_grid(&kd, 1001, 0, 132) == 1001);
    CHECK(shoal_lapack_grid(&kd, 1LL << 40, 0, 132) == 1LL << 20);
    CHECK(!shoal_lapack_resident_grid(&kd));
    CHECK(shoal_lapack_kernel_fits(&kd, 512, 16) && shoal_lapack_kernel_fits(&kd, 33, 1));
    CHECK(!shoal_lapack_kernel_fits(&kd, 513, 16) && !shoal_lapack_kernel_fits(&kd, 512, 17));
}

/* trsv's blocked design: NB (p[0]), XCAP (p[1]), TW (p[2]). */
static shoal_kernel_desc trsv_desc(int dim_x, int nb, int xcap, int tw)
{
    return desc(SHOAL_DESIGN_BLOCKED, 'd', 0, dim_x, nb, xcap, tw, 0);
}

/* trsv: teams of TW lanes where the compiled path serves n (n <= TW), pow2ceil(n) lanes for the
 * other n <= 32, each with a (width + 1)-element row per lane of the block; a block per problem
 * past 32. */
static void case_trsv_team_smem(void)
{
    const size_t e = sizeof(double);
    shoal_kernel_desc kd = trsv_desc(128, 32, 0, 16);
    CHECK(shoal_blas2_dynamic_smem(&kd, 16, 16) == 128 * 17 * e);
    CHECK(shoal_blas2_dynamic_smem(&kd, 5, 5) == 128 * 17 * e);   /* the TW path, idle lanes */
    CHECK(shoal_blas2_dynamic_smem(&kd, 20, 20) == 128 * 33 * e); /* past TW: the generic teams */
    kd = trsv_desc(128, 32, 0, 0);
    CHECK(shoal_blas2_dynamic_smem(&kd, 5, 5) == 128 * 9 * e);
    CHECK(shoal_blas2_dynamic_smem(&kd, 32, 32) == 128 * 33 * e);
    /* past 32: x chunk (all n, rounded to 16 bytes) + XCAP + reduction + the 32 x 33 tile */
    CHECK(shoal_blas2_dynamic_smem(&kd, 40, 40) == (40 + 0 + 128 * 2 + 32 * 33) * e);
    kd = trsv_desc(128, 32, 256, 32);
    CHECK(shoal_blas2_dynamic_smem(&kd, 600, 600) == (256 + 256 + 128 * 2 + 32 * 33) * e);
    /* TW = 64: a warp per problem with a 32 x 65 tile (the folded triangle), for every n <= 64;
     * the blocked path past */
    kd = trsv_desc(128, 32, 0, 64);
    CHECK(shoal_blas2_dynamic_smem(&kd, 64, 64) == 4 * 32 * 65 * e);
    CHECK(shoal_blas2_dynamic_smem(&kd, 33, 33) == 4 * 32 * 65 * e);
    CHECK(shoal_blas2_dynamic_smem(&kd, 65, 65) == (66 + 0 + 128 * 2 + 32 * 33) * e);
}

/* The staged GEMM designs: MPB (p[0]), TM = TN = 2, FLAT = 1. */
static shoal_kernel_desc gemm_desc(int design, char prec, int variant, int dim_x, int mpb)
{
    return desc(design, prec, variant, dim_x, mpb, 2, 2, 1);
}

/* The staged GEMM designs: strided problems in two stages in the padded layout of their FLAT
 * (one padding row, or 16 bytes per column with FLAT = 0 and rows filling whole vectors) and 16
 * bytes of slack per operand region; pointer arrays in per-problem slots (a run at any 16-byte phase or
 * the padded layout) plus three slots of A, B, C pointer tables; each design serves one form of
 * batch only, in the fits check and at launch. */
static void case_gemm_staged_smem(void)
{
    shoal_kernel_desc kd = gemm_desc(SHOAL_DESIGN_STAGED, 's', 0, 64, 4);
    /* FLAT = 1: A, B: 4 x (16 + 1) x 16 + 4 floats each per stage (padding only as a fallback,
     * one row); C: 4 x 256 */
    CHECK(shoal_gemm_dynamic_smem(&kd, 16, 16, 16) == (2 * 2 * (4 * 17 * 16 + 4) + 4 * 256) * 4);
    /* FLAT = 0: 16 rows pad to 20 (16-byte columns) */
    kd.p[3] = 0;
    CHECK(shoal_gemm_dynamic_smem(&kd, 16, 16, 16) == (2 * 2 * (4 * 20 * 16 + 4) + 4 * 256) * 4);
    /* an odd row count is its own padded leading dimension: s 15 x 15 x 15 */
    CHECK(shoal_gemm_dynamic_smem(&kd, 15, 15, 15) == (2 * 2 * (4 * 15 * 15 + 4) + 4 * 225) * 4);
    CHECK(shoal_gemm_kernel_fits(&kd, 16, 16, 16, 0, 232448));
    CHECK(!shoal_gemm_kernel_fits(&kd, 16, 16, 16, 1, 232448));
    kd = gemm_desc(SHOAL_DESIGN_STAGED_PTR, 's', 0, 64, 4);
    /* slots, FLAT = 1: max(256 + 4, 17 * 16) = 272 floats for A and B; FLAT = 0: 20 * 16 = 320 */
    CHECK(shoal_gemm_dynamic_smem(&kd, 16, 16, 16) == (2 * 4 * (272 + 272) + 4 * 256) * 4 + 9 * 4 * sizeof(void *));
    kd.p[3] = 0;
    CHECK(shoal_gemm_dynamic_smem(&kd, 16, 16, 16) == (2 * 4 * (320 + 320) + 4 * 256) * 4 + 9 * 4 * sizeof(void *));
    CHECK(shoal_gemm_kernel_fits(&kd, 16, 16, 16, 1, 232448));
    CHECK(!shoal_gemm_kernel_fits(&kd, 16, 16, 16, 0, 232448));
    /* d 3 x 5 x 7, op(A) = A^T (stored 7 x 3): A slot max(21 rounded to 22 + 2, 7 x 3 = 21 -> 22) = 24,
     * B (7 x 5) slot max(35 -> 36 + 2, 7 x 5 -> 36) = 38; C 15, rounded to 16 bytes */
    kd = gemm_desc(SHOAL_DESIGN_STAGED_PTR, 'd', 2, 64, 8);
    CHECK(shoal_gemm_dynamic_smem(&kd, 3, 5, 7) == (2 * 8 * (24 + 38) + 8 * 15) * 8 + 9 * 8 * sizeof(void *));
    /* too large for the device: refused */
    CHECK(!shoal_gemm_kernel_fits(&kd, 3, 5, 7, 1, 8000));
}

/* gemv's pointer-array group design: two stages of MPB slots of A and x (each rounded to 16
 * bytes plus 16 of phase room) and three slots of A, x, y pointer tables; pointer arrays only. */
static void case_gemv_group_ptr_smem(void)
{
    /* op T (variant 1): x has m elements; MPB 16, TPO 2 */
    shoal_kernel_desc kd = desc(SHOAL_DESIGN_GROUP_PTR, 's', 1, 128, 16, 2, 0, 0);
    /* s 5 x 3, op T: A 15 -> 16 + 4, x 5 -> 8 + 4 */
    CHECK(shoal_blas2_dynamic_smem(&kd, 5, 3) == 2 * 16 * (20 + 12) * 4 + 9 * 16 * sizeof(void *));
    CHECK(shoal_blas2_kernel_fits(&kd, 5, 3, 1, 232448));
    CHECK(!shoal_blas2_kernel_fits(&kd, 5, 3, 0, 232448));
    CHECK(!shoal_blas2_kernel_fits(&kd, 5, 3, 1, 1000));
}

/* The one-form designs are refused at launch for the other form before anything reaches CUDA;
 * pipelined designs get one block per group up to one wave (2048 threads per SM). */
static void case_form_and_wave(void)
{
    CHECK(shoal_design_serves_form(SHOAL_DESIGN_STAGED, 0) && !shoal_design_serves_form(SHOAL_DESIGN_STAGED, 1));
    CHECK(shoal_design_serves_form(SHOAL_DESIGN_STAGED_PTR, 1) && !shoal_design_serves_form(SHOAL_DESIGN_STAGED_PTR, 0));
    CHECK(shoal_design_serves_form(SHOAL_DESIGN_GROUP_PTR, 1) && !shoal_design_serves_form(SHOAL_DESIGN_GROUP_PTR, 0));
    CHECK(shoal_design_serves_form(SHOAL_DESIGN_TILED, 0) && shoal_design_serves_form(SHOAL_DESIGN_TILED, 1));
    /* the fixed-size DMMA design: both forms, any size (static tiles), named as its search space */
    CHECK(shoal_design_serves_form(SHOAL_DESIGN_DMMA, 0) && shoal_design_serves_form(SHOAL_DESIGN_DMMA, 1));
    CHECK(shoal_design_from_name("dmma") == SHOAL_DESIGN_DMMA && shoal_design_from_name("vmma") == SHOAL_DESIGN_VMMA);
    {
        const shoal_kernel_desc dk = gemm_desc(SHOAL_DESIGN_DMMA, 'd', 0, 128, 64);
        CHECK(shoal_gemm_kernel_fits(&dk, 1000, 3, 517, 0, 0) && shoal_gemm_kernel_fits(&dk, 1, 1, 1, 1, 0));
    }
    CHECK(shoal_design_serves_form(SHOAL_DESIGN_GROUP, 0) && shoal_design_serves_form(SHOAL_DESIGN_GROUP, 1));
    CHECK(shoal_one_wave_grid(100, 132, 256) == 100);
    CHECK(shoal_one_wave_grid(100000, 132, 256) == 132 * 8);
    CHECK(shoal_one_wave_grid(100000, 132, 128) == 132 * 16);

    shoal_kernel_desc kd = desc(SHOAL_DESIGN_GROUP_PTR, 's', 0, 128, 16, 1, 0, 0);
    shoal_blas2_params bp;
    memset(&bp, 0, sizeof bp);
    bp.m = bp.n = 4;
    bp.batch = 10; /* strided: A_array NULL */
    CHECK(shoal_blas2_launch(&kd, &bp, 132, 0) == cudaErrorInvalidValue);
    kd = desc(SHOAL_DESIGN_STAGED_PTR, 'd', 0, 64, 4, 2, 2, 1);
    shoal_gemm_params gp;
    memset(&gp, 0, sizeof gp);
    gp.m = gp.n = gp.k = 4;
    gp.batch = 10; /* strided: C_array NULL */
    CHECK(shoal_gemm_launch(&kd, &gp, 132, 0) == cudaErrorInvalidValue);
}

/* gemm_vbatched's rows of problems: one per problem up to about SHOAL_VBATCHED_BLOCKS_PER_SM
 * blocks per SM, then capped (the blocks loop over the rest); never 0 */
static void case_vbatched_rows(void)
{
    const long long cap = SHOAL_VBATCHED_BLOCKS_PER_SM * 132;
    CHECK(shoal_gemm_vbatched_rows(1, 1, 132) == 1);
    CHECK(shoal_gemm_vbatched_rows(32, 341, 132) == 341);            /* max 512 in 128 x 64 tiles */
    CHECK(shoal_gemm_vbatched_rows(1, 1000000, 132) == cap);
    CHECK(shoal_gemm_vbatched_rows(4, 40182, 132) == cap / 4);
    CHECK(shoal_gemm_vbatched_rows(7, 1000000, 132) == (cap + 6) / 7);
    CHECK(shoal_gemm_vbatched_rows(1000000, 5, 132) == 1);           /* more tiles than the cap */
    CHECK(shoal_gemm_vbatched_rows(1, 1000000, 0) == SHOAL_VBATCHED_BLOCKS_PER_SM);
    CHECK(shoal_gemm_vbatched_rows(1, 0, 132) == 1);
}

static const test_case cases[] = {
    {"form_and_wave", case_form_and_wave},
    {"vbatched_rows", case_vbatched_rows},
    {"gemm_staged_smem", case_gemm_staged_smem},
    {"gemv_group_ptr_smem", case_gemv_group_ptr_smem},
    {"lapack_team_rows", case_lapack_team_rows},
    {"lapack_resident_grid", case_lapack_resident_grid},
    {"lapack_tall_panel", case_lapack_tall_panel},
    {"trsv_team_smem", case_trsv_team_smem},
};
static const int n_cases = (int)(sizeof cases / sizeof cases[0]);

int main(int argc, char **argv) { return host_cases_main(cases, n_cases, argc, argv); }
