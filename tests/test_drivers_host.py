"""The recursive drivers' arithmetic on the CPU: tests/c/test_drivers_host.c links
runtime/drivers/{trsm,syrk}_recursive.c against host versions of their steps and judges every
option combination, leaf size and alpha = 0 with the GPU's oracles (oracle/blas3.c). No GPU and
no `make` needed; skips only where no C compiler or CUDA headers exist."""
from __future__ import annotations

from pathlib import Path

from host_program import run_host_program


def test_drivers_on_host(tmp_path: Path) -> None:
    run_host_program(tmp_path, ["tests/c/test_drivers_host.c", "runtime/drivers/trsm_recursive.c",
                                "runtime/drivers/syrk_recursive.c", "runtime/drivers/driver_steps.c", "tests/c/host_driver_gemm.c",
                                "tests/c/host_block_pointers.c", "oracle/blas3.c", "oracle/house.c",
                                "oracle/bidiag.c", "oracle/oracle.c", "oracle/host_math.c"],
                     ["include", "runtime", "runtime/drivers", "oracle", "tests/c"], 301)
