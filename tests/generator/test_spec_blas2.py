"""Level-2-ABI specs (generator/spec_blas2.py, emit_blas2.py): loading and refusing bad files,
their C expressions against Python, their agreement with the search spaces and the runtime's
routine ids, one argument test per rule, and the generated argument tests run on the CPU
against the generated entry points (a mock context lookup that, as the real one, gives no
context for a NULL handle). tests/test_blas2_glue.py proves the entry points equal the
hand-written ones they replace."""
from __future__ import annotations

import itertools
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from generator import emit_blas2, emit_spec
from generator.project import REPO_ROOT
from generator.search_space import discover
from generator.spec import SpecError, c_expr
from generator.spec import load as load_spec_abi
from generator.spec_blas2 import load
from generator.spec_lapack import abi_of

SPEC_DIR = REPO_ROOT / "spec" / "routines"
SPECS = sorted(p for p in SPEC_DIR.glob("*.toml") if abi_of(p) == "blas2")
LEVEL2 = ["gemv", "gemv_vbatched", "trsv"]
needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")


def _routines() -> list[emit_blas2.Blas2Routine]:
    return emit_spec.blas2_routines_from(discover(REPO_ROOT / "search_space"), SPEC_DIR)


def test_the_level2_routines_are_declared() -> None:
    assert [p.stem for p in SPECS] == LEVEL2
    assert [r.name for r in _routines()] == LEVEL2


@pytest.mark.parametrize("path", SPECS, ids=[p.stem for p in SPECS])
def test_spec_agrees_with_its_search_space_and_the_runtime(path: Path) -> None:
    """The variant expression numbers the search space's variants in order (each option
    combination to its letters' index), precisions from the search space, the routine id in
    runtime/lapack_routines.h's enum."""
    spec = load(path)
    space = next(s for s in discover(REPO_ROOT / "search_space") if s.routine.name == spec.name)
    variants = list(space.routine.variants)
    seen = set()
    for values in itertools.product((0, 1), repeat=len(spec.options)):
        env = {o.name: v for o, v in zip(spec.options, values)}
        v = int(spec.variant(env)) if spec.variant is not None else 0
        letters = "".join(o.type.letters[env[o.name]] for o in spec.options if o.name in spec.variant.source)
        assert variants[v] == letters, (env, v)
        seen.add(v)
    assert seen == set(range(len(variants)))
    enum = (REPO_ROOT / "runtime" / "lapack_routines.h").read_text()
    assert re.search(rf"\b{emit_blas2.routine_id(spec.name)}\b", enum)
    with pytest.raises(SpecError, match="level-2-ABI"):
        load_spec_abi(path)


@needs_gcc
@pytest.mark.parametrize("path", SPECS, ids=[p.stem for p in SPECS])
def test_c_expressions_agree_with_python(path: Path, tmp_path: Path) -> None:
    spec = load(path)
    exprs = spec.expressions()
    lines = ["#include <stdio.h>", "#define SHOAL_MAX(a, b) ((a) > (b) ? (a) : (b))", "int main(void) {"]
    want = []
    for dims in itertools.product((0, 1, 3, 32, 33), repeat=len(spec.dims)):
        for opts in itertools.product((0, 1), repeat=len(spec.options)):
            for batch, alpha, beta in itertools.product((0, 2), (0, 1), (0, 1)):
                env = dict(zip(spec.dims, dims)) | {o.name: v for o, v in zip(spec.options, opts)}
                env |= {"batch": batch, "alpha": alpha, "beta": beta}
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


def test_every_argument_rule_has_a_test() -> None:
    """Per precision and form: the valid call, options twice, dims, batch; fixed sizes: the
    matrix's leading dimension twice, each increment zero and negative, NULL operands,
    (strided) negative strides, shared inputs and overlapping written ones twice; vbatched: each
    device array NULL; then the no-work call."""
    for r in _routines():
        s = r.spec
        text = emit_blas2.test_args_c([r])
        vectors = [o for o in s.operands if o.kind == "vector"]
        base = 1 + 2 * len(s.options) + len(s.dims) + 1 + 1
        per_form = {"batched": base + 2 + 2 * len(vectors) + len(s.operands),
                    "strided_batched": base + 2 + 2 * len(vectors) + len(s.operands) + 2 * len(s.operands)
                    + sum(o.access != "in" for o in s.operands),
                    "vbatched": base + len(s.dims) + 2 * len(s.operands)}
        assert text.count("expect(") - 1 == len(r.precisions) * sum(per_form[f] for f in s.forms), r.name


@needs_gcc
def test_generated_argument_tests_pass_on_the_cpu(tmp_path: Path) -> None:
    routines = _routines()
    (tmp_path / "entry.c").write_text(emit_blas2.api_c(routines))
    (tmp_path / "args.c").write_text(emit_blas2.test_args_c(routines))
    (tmp_path / "stub.c").write_text(
        '#include "blas2_run.h"\n'
        "struct shoal_context *shoal_context_get(shoal_handle h) { return h; }\n"
        "shoal_status shoal_blas2_run(struct shoal_context *ctx, int routine, char prec, int variant,\n"
        "                             shoal_blas2_params *p)\n"
        "{\n    (void)ctx; (void)routine; (void)prec; (void)variant; (void)p;\n"
        "    return SHOAL_STATUS_SUCCESS;\n}\n")
    exe = tmp_path / "args"
    subprocess.run(["gcc", "-std=c11", "-Wall", "-Wextra", "-Werror", f"-I{REPO_ROOT / 'include'}",
                    f"-I{REPO_ROOT / 'runtime'}", *(str(tmp_path / f) for f in ("args.c", "entry.c", "stub.c")),
                    "-o", str(exe)], check=True)
    for r in routines:
        out = subprocess.run([str(exe), r.name], capture_output=True, text=True, timeout=60).stdout
        last = out.strip().splitlines()[-1]
        assert last.endswith(" 0 failed") and not last.startswith("0 passed"), out


GOOD = """name = "x"
abi = "blas2"
summary = "s"
options = [{ name = "uplo", type = "uplo" }, { name = "trans", type = "op" }]
dims = ["m", "n"]
scalars = ["alpha", "beta"]
shape = { m = "m", n = "n" }
work = "m > 0 and n > 0"
quick = "m == 0 or batch == 0 or alpha == 0"
operands = [
  { name = "A", kind = "matrix", access = "in", rows = "m", cols = "n" },
  { name = "x", kind = "vector", access = "in", length = "n" },
  { name = "y", kind = "vector", access = "inout", length = "m" },
]
variant = "2 * uplo + trans"
"""


def test_spec_rejects_bad_files(tmp_path: Path) -> None:
    f = tmp_path / "x.toml"
    f.write_text(GOOD)
    spec = load(f)
    assert [o.slot for o in spec.operands] == ["A", "x", "y"]
    assert [o.ld for o in spec.operands] == ["lda", "incx", "incy"]
    assert abi_of(f) == "blas2"
    for old, new, match in [
        ('kind = "vector", access = "in"', 'kind = "ints", access = "in"', "kind must be one of"),
        ('length = "n" }', 'length = "q" }', "unknown name 'q'"),
        ('name = "x", kind', 'name = "z", kind', "a vector is x or y"),
        ('name = "A", kind = "matrix", access = "in"', 'name = "A", kind = "matrix", access = "out"', "read only"),
        ('variant = "2 * uplo + trans"', 'variant = "2 * uplo + m"', "unknown name 'm'"),
        ('shape = { m = "m", n = "n" }', 'shape = { m = "m" }', "shape must give"),
        ('dims = ["m", "n"]', 'dims = ["m", "k"]', "dims must be"),
        ('scalars = ["alpha", "beta"]', 'scalars = ["alpha"]', "scalars are"),
        ('quick = "m == 0 or batch == 0 or alpha == 0"', 'quick = "m == 0 or gamma == 0"', "unknown name 'gamma'"),
        ('summary = "s"', 'summary = "s"\nforms = ["vbatched"]', "ends in _vbatched"),
        ('abi = "blas2"', 'abi = "fortran"', "abi must be"),
    ]:
        assert old in GOOD
        f.write_text(GOOD.replace(old, new))
        with pytest.raises(Exception, match=match):
            abi_of(f)
            load(f)
