"""The blocked LU drivers' logic on the CPU: tests/c/test_lu_blocked_host.c compiles
runtime/drivers/lu_blocked.c and lapack_steps.c with host versions of their steps (the getf2
panel, laswp, the panel merge, the inverse's start; TRSM and GEMM from
tests/c/host_lapack_steps.c, shared with the Cholesky test) and judges getrf (square and
rectangular, the panels' positions and widths, pivots against P0 and a whole-matrix getf2, info
for zero pivots in the first panel, a middle one and the last column), getrs N / T / C, gesv and
getri in s, d, c, z, both forms, across chunks, with failed matrices leaving the others
bit-identical. No GPU and no `make` needed; skips only where no C compiler or CUDA headers exist.
Built twice: with the shipped widest panel (64: a square matrix of 33..64 is one panel) and with
32 (the rule the comparison runs build, docs/experiments.md)."""
from __future__ import annotations

from pathlib import Path

import pytest

from host_program import run_host_program


@pytest.mark.parametrize("widest", [64, 32])
def test_lu_blocked_on_host(tmp_path: Path, widest: int) -> None:
    run_host_program(tmp_path, ["tests/c/test_lu_blocked_host.c", "tests/c/host_lapack_steps.c",
                                "runtime/lapack_chunk.c", "tests/c/host_block_pointers.c",
                                "oracle/lapack_ref.c", "oracle/host_math.c"],
                     ["include", "runtime", "runtime/drivers", "tests/c", "oracle"], 290,
                     defines=(f"SHOAL_LU_WIDEST_PANEL={widest}",))
