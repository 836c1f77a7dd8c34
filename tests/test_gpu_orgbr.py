"""GPU correctness of orgbr (Q or P^H of a bidiagonal reduction) in LAPACK's four reflector layouts,
against the reflectors applied one by one: one test per case of build/tests/test_orgbr_gpu
(tests/gpu/test_orgbr_gpu.c). Skipped, with the program's reason, where no CUDA device is
available."""


def test_gpu_orgbr(gpu_orgbr_case, run_c_case):
    run_c_case("test_orgbr_gpu", gpu_orgbr_case)
