"""What the host-only C test programs' wrappers share (tests/test_oracle.py,
tests/test_lapack_oracle.py, tests/test_drivers_host.py, tests/test_vendor_strided_host.py):
compiling a program of tests/c/ with the system C compiler ($CC, else gcc; skips where there is
none), its CASE(...) table, and running one case; or, for programs of runtime code built against
host stand-ins (which need the CUDA headers), compiling and running the whole program."""
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


CUDA_INCLUDE = Path(os.environ.get("CUDA_HOME", "/usr/local/cuda")) / "include"


def run_host_program(out_dir: Path, sources: list[str], include_dirs: list[str], min_passed: int,
                     defines: tuple[str, ...] = ()) -> None:
    """Compiles sources (repository paths; the first is the program; defines as -D) against the CUDA headers
    (skips without them or a C compiler), runs it and checks its verdict: no line starting
    "FAILED", a last line "N passed, 0 failed" with N >= min_passed (a program that ran fewer
    cases than it should fails too)."""
    cc = os.environ.get("CC") or "gcc"
    if shutil.which(cc) is None or not (CUDA_INCLUDE / "cublas_v2.h").is_file():
        pytest.skip(f"SKIP: needs a C compiler ({cc}) and the CUDA headers ({CUDA_INCLUDE})")
    exe = out_dir / Path(sources[0]).stem
    r = subprocess.run([cc, "-std=c11", "-O1", "-Wall", "-Wextra", "-Werror", "-D_GNU_SOURCE",
                        *(f"-D{d}" for d in defines), *(f"-I{d}" for d in include_dirs), f"-I{CUDA_INCLUDE}",
                        *sources, "-lm", "-o", str(exe)],
                       capture_output=True, text=True, cwd=REPO)
    assert r.returncode == 0, r.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=300)
    failures = [ln for ln in run.stdout.splitlines() if ln.startswith("FAILED")]
    last = run.stdout.strip().splitlines()[-1]
    assert run.returncode == 0 and not failures, "\n".join(failures[:20]) or run.stderr
    assert last.endswith(" 0 failed") and int(last.split()[0]) >= min_passed, last
