"""GPU correctness of shoal_{s,d,c,z}gemm_{batched,strided_batched} against a host reference: one
test per case of build/tests/test_gemm_gpu (tests/gpu/test_gemm_gpu.c), named <precision>_<case>
(the sizes and rect cases <precision>_<op pair>_<case>: nn..tt in s and d, every pair of n, t and
c in c and z). Skipped, with the program's reason, where no CUDA device is available."""


def test_gpu_gemm(gpu_gemm_case, run_c_case):
    run_c_case("test_gemm_gpu", gpu_gemm_case)
