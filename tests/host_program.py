"""What the host-only C test programs' wrappers share (tests/test_oracle.py,
tests/test_lapack_oracle.py): compiling a program of tests/c/ with the system C compiler ($CC,
else gcc; skips where there is none), its CASE(...) table, and running one case."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Iterable

import pytest

REPO = Path(__file__).resolve().parent.parent


def case_names(source: Path) -> list[str]:
    """The CASE(name) entries of a program's case table."""
    return re.findall(r"^\s*CASE\((\w+)\),", source.read_text(), re.M)


def compile_program(out_dir: Path, source: Path, sources: Iterable[Path], include_dirs: Iterable[str]) -> Path:
    cc = os.environ.get("CC") or "gcc"
    if shutil.which(cc) is None:
        pytest.skip(f"SKIP: no C compiler ({cc})")
    exe = out_dir / source.stem
    r = subprocess.run([cc, "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", *(f"-I{REPO / d}" for d in include_dirs),
                        str(source), *map(str, sources), "-lm", "-o", str(exe)], capture_output=True, text=True)
    assert r.returncode == 0, f"compiling {source.name} failed:\n{r.stderr}"
    return exe


def check_case_table(program: Path, cases: list[str]) -> None:
    assert cases, f"no CASE(...) entries found for {program.name}"
    listed = subprocess.run([str(program), "--list"], capture_output=True, text=True, check=True).stdout.split()
    assert listed == cases


def run_case(program: Path, case: str) -> None:
    r = subprocess.run([str(program), "--case", case], capture_output=True, text=True, timeout=300)
    out = r.stdout + r.stderr
    assert r.returncode == 0 and f"ok {case}" in out, out
