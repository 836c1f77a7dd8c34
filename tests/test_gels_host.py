"""The least-squares, LQ and orgbr drivers on the CPU: tests/c/test_gels_host.c compiles
runtime/drivers/gels_qr.c, gelqf_qr.c, orgbr_qr.c and lapack_steps.c (a chunk of 3 problems, a 20 KiB solver
workspace, so that batches cross chunks, down to one problem a chunk) with host versions of
their steps (geqrf by the oracle's Householder QR, the gels kernels' host twins here; TRSM and
ORMQR from tests/c/host_lapack_steps.c, which refuse operands of mixed forms: A^H in the
workspace strided beside B's pointer arrays, what the driver before e5c69f8 passed and the
H200 refused) and judges gels in s, d, c, z, trans N / T / C, tall, square and wide, both forms
(normal equations, residual rows, minimum-norm residual and row space, the factor's Gram matrix,
info for rank-deficient and zero matrices, empty sizes, the chunks, the workspace's bounds) and
gelqf (A - L Q, orthogonality, LAPACK's tau conventions, zero rows, zero matrices) and orgbr
(Q and P^H in LAPACK's four reflector layouts against the reflectors applied one by one, the
shift, the transposes, the chunks, the workspace's bounds). No GPU and
no `make` needed; skips only where no C compiler or CUDA headers exist."""
from __future__ import annotations

from pathlib import Path

from host_program import run_host_program


def test_gels_on_host(tmp_path: Path) -> None:
    run_host_program(tmp_path, ["tests/c/test_gels_host.c", "tests/c/host_lapack_steps.c",
                                "runtime/lapack_chunk.c", "tests/c/host_block_pointers.c",
                                "oracle/lapack_ref.c", "oracle/host_math.c"],
                     ["include", "runtime", "runtime/drivers", "tests/c", "oracle"], 729)
