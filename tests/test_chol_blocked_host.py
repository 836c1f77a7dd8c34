"""The blocked Cholesky drivers' arithmetic on the CPU: tests/c/test_chol_blocked_host.c compiles
runtime/drivers/chol_blocked.c and lapack_steps.c with host versions of their steps (potf2 and
the info merge; TRSM and SYRK / HERK from tests/c/host_lapack_steps.c, shared with the LU test)
and judges potrf, potrs and posv in s, d, c, z, both triangles and both forms, the chunks, and
info for a failure in the first, a middle and the last block. No GPU and no `make` needed; skips
only where no C compiler or CUDA headers exist."""
from __future__ import annotations

from pathlib import Path

from host_program import run_host_program


def test_chol_blocked_on_host(tmp_path: Path) -> None:
    run_host_program(tmp_path, ["tests/c/test_chol_blocked_host.c", "tests/c/host_lapack_steps.c",
                                "runtime/lapack_chunk.c", "tests/c/host_block_pointers.c",
                                "oracle/lapack_ref.c", "oracle/host_math.c"],
                     ["include", "runtime", "runtime/drivers", "tests/c", "oracle"], 257)
