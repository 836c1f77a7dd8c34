"""Placement of page-end test operands (no GPU needed): one test per case of
build/tests/test_page_place (tests/c/test_page_place.c, tests/gpu/page_place.h; issue 29)."""


def test_page_place(page_place_case, run_c_case):
    run_c_case("test_page_place", page_place_case)
