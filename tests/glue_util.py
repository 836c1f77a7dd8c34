"""What the glue tests (tests/test_{lapack,blas2,gemm}_glue.py) share: building a driver of
tests/c/ with tests/c/glue_common.c against the old entry points (a golden file of revision 492fe43,
cut and renamed) and the generated ones, running it, and reading its summary."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable, Iterable

import pytest

from generator.emit_common import fname
from generator.project import REPO_ROOT

GOLDEN_DIR = REPO_ROOT / "tests" / "c" / "golden"
C_DIR = REPO_ROOT / "tests" / "c"
# include/shoal.h includes <cuda_runtime_api.h>: the toolkit's headers, wherever CUDA_HOME says
# (a machine without /usr/local/include links to them must still compile the glue)
CUDA_INCLUDE = Path(os.environ.get("CUDA_HOME", "/usr/local/cuda")) / "include"
CFLAGS = ["-std=c11", "-O1", "-Wall", "-Wextra", "-Werror", "-Wno-unused-function",
          f"-I{REPO_ROOT / 'include'}", f"-I{REPO_ROOT / 'runtime'}", f"-I{CUDA_INCLUDE}"]
SUMMARY = re.compile(r"^(\d+) cases, (\d+) reached run, (\d+) rejected, (\d+) mismatches$", re.M)

needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")


def entry_names(routines: list[Any], forms: Callable[[Any], Iterable[str]] = lambda r: r.spec.forms) -> list[str]:
    """The public names of the routines' entry points, every precision and form."""
    return [fname(p, r.name, f) for r in routines for p in r.precisions for f in forms(r)]


def renames(names: list[str]) -> str:
    """The old entry points' public names renamed shoal_ -> old_, so that both link together."""
    return "".join(f"#define {n} old_{n[len('shoal_'):]}\n" for n in names)


def build(tmp: Path, driver: str, sources: dict[str, str], libs: tuple[str, ...] = ()) -> Path:
    """tests/c/<driver>.c and glue_common.c linked with sources (file name: text), written to tmp."""
    for name, text in sources.items():
        (tmp / name).write_text(text)
    exe = tmp / driver
    subprocess.run(["gcc", *CFLAGS, str(C_DIR / f"{driver}.c"), str(C_DIR / "glue_common.c"),
                    *(str(tmp / n) for n in sources), "-o", str(exe), *libs],
                   check=True, capture_output=True, text=True)
    return exe


def run(exe: Path, per: int) -> tuple[int, str]:
    proc = subprocess.run([str(exe), str(per)], capture_output=True, text=True, timeout=300)
    return proc.returncode, proc.stdout


def check_golden(path: str, golden: Path) -> None:
    """The golden file is the hand-written API as it was (where the history is at hand)."""
    git = shutil.which("git")
    proc = subprocess.run([git or "git", "-C", str(REPO_ROOT), "show", f"492fe43:{path}"],
                          capture_output=True, text=True) if git else None
    if proc is None or proc.returncode != 0:
        pytest.skip("no git history of revision 492fe43 here")
    assert proc.stdout == golden.read_text()


def equal_run(exe: Path, per: int) -> tuple[int, list[str]]:
    """Runs the comparison, asserts it found no mismatch; the cases and the per-form lines."""
    rc, out = run(exe, per)
    print(out)
    m = SUMMARY.search(out)
    assert m, out
    cases, _, _, mismatches = map(int, m.groups())
    assert rc == 0 and mismatches == 0, out
    return cases, out.splitlines()[:-1]


def assert_caught(exe: Path) -> None:
    """A mutant's run finds mismatches and fails."""
    rc, out = run(exe, 5000)
    m = SUMMARY.search(out)
    assert m and int(m[4]) > 0 and rc != 0, out
