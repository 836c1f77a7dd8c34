"""GPU correctness of the variable-size batched Cholesky factorization
(shoal_{s,d,c,z}potrf_vbatched, both uplo), judged by host residuals ||A - L L^H|| in double,
exact info values (non-SPD and NaN members, invalid n and lda), untouched storage around every
factor, and bit-identical results for the healthy members of a batch with defective ones: one test
per case of build/tests/test_potrf_vbatched_gpu (tests/gpu/test_potrf_vbatched_gpu.c). Skipped,
with the program's reason, where no CUDA device is available."""


def test_gpu_potrf_vbatched(gpu_potrf_vbatched_case, run_c_case):
    run_c_case("test_potrf_vbatched_gpu", gpu_potrf_vbatched_case)
