"""GPU correctness of gels (least squares and minimum-norm solutions) and gelqf (LQ), judged by
normalized residuals: one test per case of build/tests/test_gels_gpu (tests/gpu/test_gels_gpu.c). Skipped,
with the program's reason, where no CUDA device is available."""


def test_gpu_gels(gpu_gels_case, run_c_case):
    run_c_case("test_gels_gpu", gpu_gels_case)
