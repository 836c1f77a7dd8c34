"""Table selection and per-call kernel choice (no GPU needed): one test per case of
build/tests/test_dispatch (tests/c/test_dispatch.c)."""


def test_dispatch(dispatch_case, run_c_case):
    run_c_case("test_dispatch", dispatch_case)
