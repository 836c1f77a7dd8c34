"""Level-2-ABI specs (generator/spec_blas2.py, emit_blas2.py): loading and refusing bad files,
their C expressions against Python, their agreement with the search spaces and the runtime's
routine ids, one argument test per rule, and the generated argument tests run on the CPU
against the generated entry points (a mock context lookup that, as the real one, gives no
context for a NULL handle). tests/test_blas2_glue.py proves the entry points equal the
hand-written ones they replace."""
from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from spec_abi_util import (SPEC_DIR, assert_argument_tests_pass, assert_c_agrees_with_python, needs_gcc,
                           spec_paths)

from generator import emit_blas2, emit_spec
from generator.project import REPO_ROOT
from generator.search_space import discover
from generator.spec import SpecError
from generator.spec import load as load_spec_abi
from generator.spec_blas2 import load
from generator.spec_lapack import abi_of

SPECS = spec_paths("blas2")
LEVEL2 = ["gemv", "gemv_vbatched", "trsv"]


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
    envs = (dict(zip(spec.dims, dims)) | {o.name: v for o, v in zip(spec.options, opts)}
            | {"batch": batch, "alpha": alpha, "beta": beta}
            for dims in itertools.product((0, 1, 3, 32, 33), repeat=len(spec.dims))
            for opts in itertools.product((0, 1), repeat=len(spec.options))
            for batch, alpha, beta in itertools.product((0, 2), (0, 1), (0, 1)))
    assert_c_agrees_with_python(tmp_path, spec.expressions(), envs)


def test_every_argument_rule_has_a_test() -> None:
    """Per precision and form: the valid call, options twice (and SHOAL_OP_C accepted), dims, batch; fixed sizes: the
    matrix's leading dimension twice, each increment zero and negative, NULL operands,
    (strided) negative strides, shared inputs and overlapping written ones twice; vbatched: each
    device array NULL; then the no-work call."""
    for r in _routines():
        s = r.spec
        text = emit_blas2.test_args_c([r])
        vectors = [o for o in s.operands if o.kind == "vector"]
        aliases = sum(o.type.real_alias is not None for o in s.options)
        base = 1 + 2 * len(s.options) + aliases + len(s.dims) + 1 + 1
        per_form = {"batched": base + 2 + 2 * len(vectors) + len(s.operands),
                    "strided_batched": base + 2 + 2 * len(vectors) + len(s.operands) + 2 * len(s.operands)
                    + sum(o.access != "in" for o in s.operands),
                    "vbatched": base + len(s.dims) + 2 * len(s.operands)}
        assert text.count("expect(") - 1 == len(r.precisions) * sum(per_form[f] for f in s.forms), r.name


@needs_gcc
def test_generated_argument_tests_pass_on_the_cpu(tmp_path: Path) -> None:
    routines = _routines()
    stub = ('#include "blas2_run.h"\n'
            "struct shoal_context *shoal_context_get(shoal_handle h) { return h; }\n"
            "shoal_status shoal_blas2_run(struct shoal_context *ctx, int routine, char prec, int variant,\n"
            "                             shoal_blas2_params *p)\n"
            "{\n    (void)ctx; (void)routine; (void)prec; (void)variant; (void)p;\n"
            "    return SHOAL_STATUS_SUCCESS;\n}\n")
    assert_argument_tests_pass(tmp_path, emit_blas2.api_c(routines), emit_blas2.test_args_c(routines), stub,
                               [r.name for r in routines])


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
