"""The vendor's strided route on the CPU: tests/c/test_vendor_strided_host.c links
runtime/lapack_vendor_strided.c against the host pointer-array launch
(tests/c/host_block_pointers.c) and a recording vendor, which checks every chunk: each problem
once, in order, its operands, pivots and info at their strided places, chunks within the
workspace, declined cases stopped before any vendor work. No GPU and no `make` needed; skips only
where no C compiler or CUDA headers exist."""
from __future__ import annotations

from pathlib import Path

from host_program import run_host_program


def test_vendor_strided_route_on_host(tmp_path: Path) -> None:
    run_host_program(tmp_path, ["tests/c/test_vendor_strided_host.c", "runtime/lapack_vendor_strided.c", "runtime/lapack_chunk.c",
                                "tests/c/host_block_pointers.c"], ["include", "runtime", "tests/c"], 195)
