"""C API argument checks and status strings (no GPU needed): one test per case of
build/tests/test_api_args (tests/c/test_api_args.c)."""


def test_c_api(c_api_case, run_c_case):
    run_c_case("test_api_args", c_api_case)
