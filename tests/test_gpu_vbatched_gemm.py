"""GPU correctness of the variable-size batched GEMM (shoal_{s,d,c,z}gemm_vbatched; in c and z
every op pair of N, T, C, complex alpha and beta, NaN in imaginary parts only) and
shoal_imax_device, judged against a host reference in double: one test per case of
build/tests/test_vbatched_gemm_gpu (tests/gpu/test_vbatched_gemm_gpu.c). Skipped, with the
program's reason, where no CUDA device is available."""


def test_gpu_vbatched_gemm(gpu_vbatched_gemm_case, run_c_case):
    run_c_case("test_vbatched_gemm_gpu", gpu_vbatched_gemm_case)
