"""Threads, teams and dynamic shared memory derived from kernel descriptors (no GPU needed): one
test per case of build/tests/test_launch_geometry (tests/c/test_launch_geometry.c)."""


def test_launch_geometry(launch_geometry_case, run_c_case):
    run_c_case("test_launch_geometry", launch_geometry_case)
