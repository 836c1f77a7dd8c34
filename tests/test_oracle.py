"""The host oracles (oracle/*.c) on the CPU: tests/c/test_oracle.c compiled here with the system C
compiler ($CC, else gcc) and run case by case. No GPU and no `make` needed; skips only where no C
compiler exists."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SOURCE = REPO / "tests" / "c" / "test_oracle.c"
# the host oracles alone (the device side, the harness and its transfers, needs CUDA)
ORACLE_SRCS = sorted(p for p in (REPO / "oracle").glob("*.c") if p.name not in ("spec_harness.c", "host_transfer.c"))
# the case table of the program: CASE(name) entries
CASES = re.findall(r"^\s*CASE\((\w+)\),", SOURCE.read_text(), re.M)


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> Path:
    cc = os.environ.get("CC") or "gcc"
    if shutil.which(cc) is None:
        pytest.skip(f"SKIP: no C compiler ({cc})")
    exe = tmp_path_factory.mktemp("oracle") / "test_oracle"
    r = subprocess.run([cc, "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", f"-I{REPO / 'oracle'}",
                        str(SOURCE), *map(str, ORACLE_SRCS), "-lm", "-o", str(exe)],
                       capture_output=True, text=True)
    assert r.returncode == 0, f"compiling {SOURCE.name} failed:\n{r.stderr}"
    return exe


def test_case_table_matches_the_program(program: Path) -> None:
    assert CASES, "no CASE(...) entries found in test_oracle.c"
    listed = subprocess.run([str(program), "--list"], capture_output=True, text=True, check=True).stdout.split()
    assert listed == CASES


@pytest.mark.parametrize("case", CASES)
def test_oracle_case(program: Path, case: str) -> None:
    r = subprocess.run([str(program), "--case", case], capture_output=True, text=True, timeout=300)
    out = r.stdout + r.stderr
    assert r.returncode == 0 and f"ok {case}" in out, out
