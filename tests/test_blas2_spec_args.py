"""Argument errors of the level-2 routines through the library (generated/test_blas2_spec_args.c,
one check per rule of each routine's spec, abi = "blas2"): every invalid argument returns
SHOAL_STATUS_INVALID_VALUE before anything is touched, and checks come before the handle. Needs
no GPU. (tests/generator/test_spec_blas2.py runs the same tests without the library.)"""
import subprocess

import pytest

from generator.emit_spec import blas2_routines_from
from generator.project import REPO_ROOT
from generator.search_space import discover

ROUTINES = [r.name for r in blas2_routines_from(discover(REPO_ROOT / "search_space"), REPO_ROOT / "spec" / "routines")]


@pytest.mark.parametrize("routine", ROUTINES)
def test_blas2_spec_args(routine, build_dir):
    path = build_dir / "tests" / "test_blas2_spec_args"
    if not path.exists():
        pytest.fail(f"{path} does not exist: run `make test`", pytrace=False)
    proc = subprocess.run([str(path), routine], capture_output=True, text=True, timeout=60, cwd=REPO_ROOT)
    print(proc.stdout)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    last = proc.stdout.strip().splitlines()[-1]
    assert last.endswith(" 0 failed") and not last.startswith("0 passed"), last
