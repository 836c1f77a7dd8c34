"""Shared pytest set-up: where the build is, and how the C test programs are run case by case.

The C programs under build/tests/ (built by `make test`) print their case names with `--list` and
run one with `--case NAME`; every case becomes one pytest test. A test function asks for a case
with an argument named after the program (see CASE_PROGRAMS) and runs it with the `run_c_case`
fixture: exit 0 passes, 77 skips (no GPU), anything else fails with the program's output.
A program that is missing or cannot list its cases yields one failing test that says to run
`make test`: a missing build must not look like a clean skip.

A GPU case must have checked something: "ok NAME (0 runs)" fails.

SHOAL_BUILD_DIR overrides the build directory (default: <repo>/build);
SHOAL_TEST_TIMEOUT the per-case time limit in seconds (default 900);
SHOAL_REQUIRE_GPU=1, set wherever a GPU is expected, turns every skip of a GPU test (the files
tests/test_gpu_*.py: no CUDA device, or any other reason) into a failure, so a machine whose GPU
went missing cannot pass the suite by skipping it.
"""
import os
import pathlib
import re
import subprocess

import pytest

REPO_ROOT = pathlib.Path(__file__).resolve().parent.parent
BUILD_DIR = pathlib.Path(os.environ.get("SHOAL_BUILD_DIR", REPO_ROOT / "build")).resolve()
TEST_BIN_DIR = BUILD_DIR / "tests"
SKIP_EXIT = 77
CASE_TIMEOUT = float(os.environ.get("SHOAL_TEST_TIMEOUT", "900"))
GPU_TEST_PREFIX = "test_gpu_"


def require_gpu():
    """Whether SHOAL_REQUIRE_GPU asks for a GPU (set, and neither empty nor "0")."""
    return os.environ.get("SHOAL_REQUIRE_GPU", "") not in ("", "0")


def is_gpu_test(item):
    return pathlib.Path(str(item.fspath)).name.startswith(GPU_TEST_PREFIX)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """With SHOAL_REQUIRE_GPU set, a skipped GPU test is reported as failed, with its reason."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and require_gpu() and is_gpu_test(item):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"SHOAL_REQUIRE_GPU is set, but this GPU test was skipped: {reason}"

# pytest argument name -> program under build/tests/
CASE_PROGRAMS = {
    "c_api_case": "test_api_args",
    "dispatch_case": "test_dispatch",
    "page_place_case": "test_page_place",
    "launch_geometry_case": "test_launch_geometry",
    "gpu_gemm_case": "test_gemm_gpu",
    "lapack_args_case": "test_lapack_args",
    "gpu_lu_case": "test_lu_gpu",
    "gpu_chol_qr_case": "test_chol_qr_gpu",
    "gpu_gels_case": "test_gels_gpu",
    "gpu_orgbr_case": "test_orgbr_gpu",
    "gpu_blas2_case": "test_blas2_gpu",
    "blas2_args_case": "test_blas2_args",
    "gpu_vbatched_gemm_case": "test_vbatched_gemm_gpu",
    "gpu_potrf_vbatched_case": "test_potrf_vbatched_gpu",
    "gpu_posv_vbatched_case": "test_posv_vbatched_gpu",
    "gpu_spec_case": "test_spec_gpu",
}


def program_path(name):
    return TEST_BIN_DIR / name


def _list_cases(name):
    """(cases, None) or (None, why the program cannot be used)."""
    path = program_path(name)
    if not path.exists():
        return None, f"{path} does not exist: run `make test` (it builds the C test programs)"
    try:
        proc = subprocess.run([str(path), "--list"], capture_output=True, text=True,
                              timeout=60, cwd=REPO_ROOT)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, f"{path} --list failed ({e}): rebuild with `make test`"
    if proc.returncode != 0:
        return None, (f"{path} --list exited with {proc.returncode}: rebuild with `make test`\n"
                      f"{proc.stdout}{proc.stderr}")
    cases = [line.strip() for line in proc.stdout.splitlines() if line.strip()]
    if not cases:
        return None, f"{path} --list printed no cases: rebuild with `make test`"
    return cases, None


def pytest_generate_tests(metafunc):
    for arg, program in CASE_PROGRAMS.items():
        if arg not in metafunc.fixturenames:
            continue
        cases, why = _list_cases(program)
        if cases is None:
            metafunc.parametrize(arg, [pytest.param((None, why), id=f"{program}-unavailable")])
        else:
            metafunc.parametrize(arg, [pytest.param((c, None), id=c) for c in cases])


@pytest.fixture(scope="session")
def repo_root():
    return REPO_ROOT


@pytest.fixture(scope="session")
def build_dir():
    return BUILD_DIR


def _skip_reason(output):
    for line in output.splitlines():
        if line.startswith("SKIP"):
            return line
    return "SKIP (exit status 77)"


def run_program_case(program, case):
    """Run one case of a C test program; pass, skip or fail the calling test accordingly."""
    name, why = case
    if name is None:
        pytest.fail(why, pytrace=False)
    path = program_path(program)
    if not path.exists():
        pytest.fail(f"{path} does not exist: run `make test`", pytrace=False)
    cmd = [str(path), "--case", name]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=CASE_TIMEOUT,
                              cwd=REPO_ROOT)
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"")
        out = out.decode(errors="replace") if isinstance(out, bytes) else out
        pytest.fail(f"{' '.join(cmd)} ran over {CASE_TIMEOUT:.0f} s\n{out}", pytrace=False)
    output = proc.stdout + proc.stderr
    print(output)  # shown with -rP / -s, and on failure
    if proc.returncode == SKIP_EXIT:
        pytest.skip(_skip_reason(output))
    if proc.returncode != 0:
        how = (f"was killed by signal {-proc.returncode}" if proc.returncode < 0
               else f"exited with {proc.returncode}")
        pytest.fail(f"{' '.join(cmd)} {how}:\n{output}", pytrace=False)
    if f"ok {name}" not in output:
        pytest.fail(f"{' '.join(cmd)} exited with 0 but did not report 'ok {name}':\n{output}",
                    pytrace=False)
    runs = re.search(rf"^ok {re.escape(name)} \((\d+) runs?\)", output, re.M)
    if runs and int(runs.group(1)) == 0:
        pytest.fail(f"{' '.join(cmd)}: the case recorded no runs (it checked nothing):\n{output}",
                    pytrace=False)


@pytest.fixture
def run_c_case():
    """run_c_case(program, case): see run_program_case."""
    return run_program_case
