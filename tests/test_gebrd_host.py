"""The blocked bidiagonal reduction's driver on the CPU: tests/c/test_gebrd_host.c links
runtime/drivers/gebrd_labrd.c against host twins of its panel and restore kernels and host GEMMs
(a 64 KiB solver workspace, so calls run in chunks), judged by the GPU's oracle (oracle/bidiag.c)
in d and z, tall and wide (zlabrd's two branches), strided and pointer arrays, panel widths
1..16, zero and rank-deficient matrices.
No GPU and no `make` needed; skips only where no C compiler or CUDA headers exist."""
from __future__ import annotations

from pathlib import Path

from host_program import run_host_program


def test_gebrd_driver_on_host(tmp_path: Path) -> None:
    run_host_program(tmp_path, ["tests/c/test_gebrd_host.c", "runtime/drivers/gebrd_labrd.c",
                                "runtime/drivers/driver_steps.c", "tests/c/host_driver_gemm.c",
                                "tests/c/host_block_pointers.c", "oracle/bidiag.c", "oracle/blas3.c",
                                "oracle/house.c", "oracle/oracle.c", "oracle/host_math.c"],
                     ["include", "runtime", "runtime/drivers", "oracle", "tests/c"], 260,
                     defines=("SHOAL_SOLVER_WS_BYTES=((size_t)64<<10)",))
