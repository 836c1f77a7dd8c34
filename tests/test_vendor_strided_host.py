"""The vendor's strided route on the CPU: tests/c/test_vendor_strided_host.c links
runtime/lapack_vendor_strided.c against a host pointer-array launch and a recording vendor,
which checks every chunk: each problem once, in order, its operands, pivots and info at their
strided places, chunks within the workspace, declined cases stopped before any vendor work.
No GPU and no `make` needed; skips only where no C compiler or CUDA headers exist."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
CUDA_INCLUDE = Path(os.environ.get("CUDA_HOME", "/usr/local/cuda")) / "include"


def test_vendor_strided_route_on_host(tmp_path: Path) -> None:
    cc = os.environ.get("CC") or "gcc"
    if shutil.which(cc) is None or not (CUDA_INCLUDE / "cublas_v2.h").is_file():
        pytest.skip(f"SKIP: needs a C compiler ({cc}) and the CUDA headers ({CUDA_INCLUDE})")
    exe = tmp_path / "test_vendor_strided_host"
    srcs = ["tests/c/test_vendor_strided_host.c", "runtime/lapack_vendor_strided.c"]
    r = subprocess.run([cc, "-std=c11", "-O1", "-Wall", "-Wextra", "-Werror", "-D_GNU_SOURCE", "-Iinclude",
                        "-Iruntime", f"-I{CUDA_INCLUDE}", *srcs, "-o", str(exe)],
                       capture_output=True, text=True, cwd=REPO)
    assert r.returncode == 0, r.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=300)
    failures = [ln for ln in run.stdout.splitlines() if ln.startswith("FAILED")]
    last = run.stdout.strip().splitlines()[-1]
    assert run.returncode == 0 and not failures, "\n".join(failures[:20]) or run.stderr
    assert last.endswith(" 0 failed") and int(last.split()[0]) >= 195, last
