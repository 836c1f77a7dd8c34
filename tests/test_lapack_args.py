"""Argument checks of the factorization API (no GPU needed): one test per case of
build/tests/test_lapack_args (tests/c/test_lapack_args.c)."""


def test_lapack_args(lapack_args_case, run_c_case):
    run_c_case("test_lapack_args", lapack_args_case)
