"""Argument errors of every routine declared by a spec, through the library: the generated
programs (generated/test_spec_args.c for the spec routines; test_lapack_spec_args.c,
test_blas2_spec_args.c and test_gemm_spec_args.c for the routines of the lapack, blas2 and gemm
ABIs) check one rule each: every invalid argument returns
SHOAL_STATUS_INVALID_VALUE before anything is touched, and checks come before the handle. Needs no
GPU. (tests/generator/test_spec_lapack.py also runs the factorizations' checks without the library.)"""
import subprocess

import pytest

from generator.emit_spec import blas2_routines_from, gemm_routines_from, lapack_routines_from, routines_from
from generator.project import REPO_ROOT
from generator.search_space import discover

_SPACES = discover(REPO_ROOT / "search_space")
_SPECS = REPO_ROOT / "spec" / "routines"
CASES = [("test_spec_args", r.name) for r in routines_from(_SPACES)] + \
        [("test_lapack_spec_args", r.name) for r in lapack_routines_from(_SPACES, _SPECS)] + \
        [("test_blas2_spec_args", r.name) for r in blas2_routines_from(_SPACES, _SPECS)] + \
        [("test_gemm_spec_args", r.name) for r in gemm_routines_from(_SPACES, _SPECS)]


@pytest.mark.parametrize("program, routine", CASES, ids=[r for _, r in CASES])
def test_spec_args(program, routine, build_dir):
    path = build_dir / "tests" / program
    if not path.exists():
        pytest.fail(f"{path} does not exist: run `make test`", pytrace=False)
    proc = subprocess.run([str(path), routine], capture_output=True, text=True, timeout=60, cwd=REPO_ROOT)
    print(proc.stdout)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    last = proc.stdout.strip().splitlines()[-1]
    assert last.endswith(" 0 failed") and not last.startswith("0 passed"), last
