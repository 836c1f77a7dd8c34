"""GPU correctness of the spec routines (TRSM, SYRK, ...): one test per case of
build/tests/test_spec_gpu (tests/gpu/test_spec_gpu.c, cases from tests/cases/<r>.toml). The program
runs every case in one process (a case costs milliseconds, a process start far more); each test
reads its case's verdict from that run. Skipped, with the program's reason, where no CUDA
device is available."""
import os
import subprocess

import pytest

PROGRAM = "test_spec_gpu"
SKIP_EXIT = 77
TIMEOUT = 4 * float(os.environ.get("SHOAL_TEST_TIMEOUT", "900"))


@pytest.fixture(scope="session")
def spec_run(repo_root, build_dir):
    path = build_dir / "tests" / PROGRAM
    if not path.exists():
        pytest.fail(f"{path} does not exist: run `make test`", pytrace=False)
    proc = subprocess.run([str(path)], capture_output=True, text=True, timeout=TIMEOUT, cwd=repo_root)
    return proc.returncode, proc.stdout + proc.stderr


def test_gpu_spec(gpu_spec_case, spec_run):
    name, why = gpu_spec_case
    if name is None:
        pytest.fail(why, pytrace=False)
    rc, output = spec_run
    if rc == SKIP_EXIT:
        pytest.skip(next((ln for ln in output.splitlines() if ln.startswith("SKIP")), "no CUDA device"))
    lines = [ln for ln in output.splitlines() if f" {name} " in f" {ln} " or ln.startswith(f"FAILED {name}:")]
    print("\n".join(lines))
    if f"ok {name} (" not in output:
        pytest.fail(f"{PROGRAM}: case {name} did not pass:\n" + "\n".join(lines or output.splitlines()[-20:]),
                    pytrace=False)
