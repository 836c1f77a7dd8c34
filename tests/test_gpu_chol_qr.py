"""GPU correctness of potrf, potrs, posv and geqrf, judged by normalized residuals: one test per
case of build/tests/test_chol_qr_gpu (tests/gpu/test_chol_qr_gpu.c). Skipped, with the program's
reason, where no CUDA device is available."""


def test_gpu_chol_qr(gpu_chol_qr_case, run_c_case):
    run_c_case("test_chol_qr_gpu", gpu_chol_qr_case)
