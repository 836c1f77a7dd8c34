"""GPU correctness of shoal_{s,d}gemm_{batched,strided_batched} against a host reference: one
test per case of build/tests/test_gemm_gpu (tests/gpu/test_gemm_gpu.c). Skipped, with the
program's reason, where no CUDA device is available."""


def test_gpu_gemm(gpu_gemm_case, run_c_case):
    run_c_case("test_gemm_gpu", gpu_gemm_case)
