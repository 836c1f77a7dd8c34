"""What the tests of the spec ABIs (test_spec_lapack.py, test_spec_blas2.py, test_spec_gemm.py)
share: their spec files, the check of C expressions against Python, and the run of the
generated argument tests against the generated entry points and a stub run."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Iterable

import pytest

from generator.emit_common import C_MACROS
from generator.expr import Expr
from generator.project import REPO_ROOT
from generator.spec import c_expr
from generator.spec_lapack import abi_of
from glue_util import CUDA_INCLUDE

SPEC_DIR = REPO_ROOT / "spec" / "routines"
needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")


def spec_paths(abi: str) -> list[Path]:
    return sorted(p for p in SPEC_DIR.glob("*.toml") if abi_of(p) == abi)


def assert_c_agrees_with_python(tmp_path: Path, exprs: list[Expr], envs: Iterable[dict[str, int]]) -> None:
    """Every expression, in C (with the entry points' macros) and in Python, in every env."""
    lines = ["#include <stdio.h>", *C_MACROS, "int main(void) {"]
    want = []
    for env in envs:
        lines.append("{")
        lines += [f"const long long {k} = {v}; (void){k};" for k, v in env.items()]
        for e in exprs:
            lines.append(f'printf("%lld\\n", (long long)({c_expr(e)}));')
            want.append(int(e(env)))
        lines.append("}")
    lines += ["return 0;", "}"]
    (tmp_path / "x.c").write_text("\n".join(lines))
    subprocess.run(["gcc", "-O0", "-o", str(tmp_path / "x"), str(tmp_path / "x.c")], check=True)
    got = [int(x) for x in subprocess.run([str(tmp_path / "x")], capture_output=True, text=True,
                                          check=True).stdout.split()]
    assert got == want


def assert_argument_tests_pass(tmp_path: Path, entry_c: str, args_c: str, stub_c: str, names: list[str],
                               include: Path = REPO_ROOT / "include") -> None:
    """The generated argument tests, linked with the generated entry points and stub_c (the runs
    they call), pass for every routine, and test something. include: where shoal.h and the
    shoal_routines.h it includes are (another than the repository's where a test emits one)."""
    (tmp_path / "entry.c").write_text(entry_c)
    (tmp_path / "args.c").write_text(args_c)
    (tmp_path / "stub.c").write_text(stub_c)
    exe = tmp_path / "args"
    subprocess.run(["gcc", "-std=c11", "-Wall", "-Wextra", "-Werror", f"-I{include}", f"-I{CUDA_INCLUDE}",
                    f"-I{REPO_ROOT / 'runtime'}", *(str(tmp_path / f) for f in ("args.c", "entry.c", "stub.c")),
                    "-o", str(exe)], check=True)
    for name in names:
        out = subprocess.run([str(exe), name], capture_output=True, text=True, timeout=60).stdout
        last = out.strip().splitlines()[-1]
        assert last.endswith(" 0 failed") and not last.startswith("0 passed"), out
