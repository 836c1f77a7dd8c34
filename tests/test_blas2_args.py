"""Argument checks of the level-2 API (no GPU needed): one test per case of
build/tests/test_blas2_args (tests/c/test_blas2_args.c)."""


def test_blas2_args(blas2_args_case, run_c_case):
    run_c_case("test_blas2_args", blas2_args_case)
