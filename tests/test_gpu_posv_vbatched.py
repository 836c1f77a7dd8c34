"""GPU correctness of the variable-size batched Cholesky solves (shoal_{s,d,c,z}potrs_vbatched on
potrf_vbatched's factors, and shoal_{s,d,c,z}posv_vbatched, both uplo), judged by host residuals
||A X - B|| in double, exact info values (invalid n, nrhs, lda and ldb; posv: non-SPD and NaN
members), posv's factors bit for bit against potrf_vbatched's (also with max_nrhs = 0), untouched
storage around every matrix and right-hand side, and bit-identical results for the healthy members
of a batch with defective ones: one test per case of build/tests/test_posv_vbatched_gpu
(tests/gpu/test_posv_vbatched_gpu.c). Skipped, with the program's reason, where no CUDA device is
available."""


def test_gpu_posv_vbatched(gpu_posv_vbatched_case, run_c_case):
    run_c_case("test_posv_vbatched_gpu", gpu_posv_vbatched_case)
