"""The host oracles (oracle/*.c) on the CPU: tests/c/test_oracle.c compiled here with the system C
compiler ($CC, else gcc) and run case by case. No GPU and no `make` needed; skips only where no C
compiler exists."""
from __future__ import annotations

from pathlib import Path

import pytest

from host_program import REPO, case_names, check_case_table, compile_program, run_case

SOURCE = REPO / "tests" / "c" / "test_oracle.c"
# the host oracles alone (the device side, the harness and its transfers, needs CUDA)
ORACLE_SRCS = sorted(p for p in (REPO / "oracle").glob("*.c") if p.name not in ("spec_harness.c", "host_transfer.c"))
CASES = case_names(SOURCE)


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return compile_program(tmp_path_factory.mktemp("oracle"), SOURCE, ORACLE_SRCS, ["oracle"])


def test_case_table_matches_the_program(program: Path) -> None:
    check_case_table(program, CASES)


@pytest.mark.parametrize("case", CASES)
def test_oracle_case(program: Path, case: str) -> None:
    run_case(program, case)
