"""The factorization benchmark's complex residual checks (bench/lapack_check_complex.c, the c/z
rows' checks in bench/lapack_bench.c) on the CPU: tests/c/test_lapack_check_complex.c compiled
here with the system C compiler ($CC, else gcc). Each check accepts a correct complex
factorization made there and rejects perturbed ones, convention errors (conj(tau), the wrong op
of a solve) and NaN. No GPU and no `make` needed; skips only where no C compiler exists."""
from __future__ import annotations

from pathlib import Path

import pytest

from host_program import REPO, case_names, check_case_table, compile_program, run_case

SOURCE = REPO / "tests" / "c" / "test_lapack_check_complex.c"
SRCS = [REPO / "bench" / "lapack_check_complex.c"]
CASES = case_names(SOURCE)


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return compile_program(tmp_path_factory.mktemp("lapack_check_complex"), SOURCE, SRCS, ["bench", "tests/c"])


def test_case_table_matches_the_program(program: Path) -> None:
    check_case_table(program, CASES)


@pytest.mark.parametrize("case", CASES)
def test_case(program: Path, case: str) -> None:
    run_case(program, case)
