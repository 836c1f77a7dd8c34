"""The complex element types of include/shoal.h match cuComplex / cuDoubleComplex and C99
_Complex (tests/c/test_complex_layout.c), and the header compiles as C++ with them. CPU only;
skips where no C compiler or CUDA headers exist."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from glue_util import CUDA_INCLUDE

REPO = Path(__file__).resolve().parent.parent


def _need(compiler: str) -> None:
    if shutil.which(compiler) is None or not (CUDA_INCLUDE / "cuComplex.h").is_file():
        pytest.skip(f"SKIP: needs {compiler} and the CUDA headers ({CUDA_INCLUDE})")


def test_complex_layout(tmp_path: Path) -> None:
    cc = os.environ.get("CC") or "gcc"
    _need(cc)
    exe = tmp_path / "test_complex_layout"
    r = subprocess.run([cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-Iinclude", f"-I{CUDA_INCLUDE}",
                        "tests/c/test_complex_layout.c", "-o", str(exe)], capture_output=True, text=True, cwd=REPO)
    assert r.returncode == 0, r.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stdout.strip().endswith("3 passed, 0 failed"), run.stdout


def test_header_compiles_as_cxx(tmp_path: Path) -> None:
    cxx = os.environ.get("CXX") or "g++"
    _need(cxx)
    src = tmp_path / "use.cpp"
    src.write_text('#include "shoal.h"\n#include <cuComplex.h>\n'
                   'static_assert(sizeof(shoal_complex_double) == sizeof(cuDoubleComplex), "size");\n'
                   'static_assert(alignof(shoal_complex_float) == alignof(cuComplex), "alignment");\n'
                   'int main() { shoal_complex_float x{1.0f, 2.0f}; return x.im == 2.0f ? 0 : 1; }\n')
    r = subprocess.run([cxx, "-std=c++11", "-Wall", "-Werror", f"-I{REPO / 'include'}", f"-I{CUDA_INCLUDE}",
                        str(src), "-o", str(tmp_path / "use")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert subprocess.run([str(tmp_path / "use")]).returncode == 0
