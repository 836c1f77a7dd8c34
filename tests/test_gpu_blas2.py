"""GPU correctness of gemv, trsv and gemv_vbatched (and shoal_imax_device,
shoal_blas2_kernel_name), judged by normalized errors against the host references: one test per
case of build/tests/test_blas2_gpu (tests/gpu/test_blas2_gpu.c). Skipped, with the program's
reason, where no CUDA device is available."""


def test_gpu_blas2(gpu_blas2_case, run_c_case):
    run_c_case("test_blas2_gpu", gpu_blas2_case)
