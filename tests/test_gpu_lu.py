"""GPU correctness of getrf, getrs, gesv, getri and getri_fused, judged by normalized residuals:
one test per case of build/tests/test_lu_gpu (tests/gpu/test_lu_gpu.c). Skipped, with the
program's reason, where no CUDA device is available.

The cases named *_blocked* (m or n above 32, up to 1024: the drivers of runtime/drivers/
lu_blocked.c) are selected with `-k blocked`, one routine's with e.g. `-k "getrf_blocked"`."""


def test_gpu_lu(gpu_lu_case, run_c_case):
    run_c_case("test_lu_gpu", gpu_lu_case)
