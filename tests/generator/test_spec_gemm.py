"""GEMM-ABI specs (generator/spec_gemm.py, emit_gemm.py): loading and refusing bad files, their C
expressions against Python, their agreement with the search spaces, one argument test per rule,
and the generated argument tests run on the CPU against the generated entry points (mock runs
that, as the real ones, answer a NULL handle with NOT_INITIALIZED). tests/test_gemm_glue.py
proves the entry points equal the hand-written ones they replace."""
from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from spec_abi_util import (SPEC_DIR, assert_argument_tests_pass, assert_c_agrees_with_python, needs_gcc,
                           spec_paths)

from generator import emit_gemm, emit_spec
from generator.project import REPO_ROOT
from generator.search_space import discover
from generator.spec import SpecError
from generator.spec import load as load_spec_abi
from generator.spec_gemm import load
from generator.spec_lapack import abi_of

SPECS = spec_paths("gemm")


def _routines() -> list[emit_gemm.GemmRoutine]:
    return emit_spec.gemm_routines_from(discover(REPO_ROOT / "search_space"), SPEC_DIR)


def test_gemm_is_declared() -> None:
    assert [p.stem for p in SPECS] == ["gemm", "gemm_vbatched"]
    assert [r.name for r in _routines()] == ["gemm", "gemm_vbatched"]


@pytest.mark.parametrize("path", SPECS, ids=[p.stem for p in SPECS])
def test_spec_agrees_with_its_search_space(path: Path) -> None:
    """The vbatched variant numbers the search space's variants (nn, nt, tn, tt) in order, as
    the fixed-size run does from the options (2 * transa + transb)."""
    spec = load(path)
    space = next(s for s in discover(REPO_ROOT / "search_space") if s.routine.name == spec.name)
    assert tuple(space.routine.variants) == ("nn", "nt", "tn", "tt")
    if spec.variant is not None:
        for ta, tb in itertools.product((0, 1), repeat=2):
            assert space.routine.variants[int(spec.variant({"transa": ta, "transb": tb}))] == "nt"[ta] + "nt"[tb]
    with pytest.raises(SpecError, match="GEMM-ABI"):
        load_spec_abi(path)


@needs_gcc
@pytest.mark.parametrize("path", SPECS, ids=[p.stem for p in SPECS])
def test_c_expressions_agree_with_python(path: Path, tmp_path: Path) -> None:
    spec = load(path)
    envs = (dict(zip(spec.dims, dims)) | {o.name: v for o, v in zip(spec.options, opts)}
            for dims in itertools.product((0, 1, 3, 33), repeat=3)
            for opts in itertools.product((0, 1), repeat=2))
    assert_c_agrees_with_python(tmp_path, spec.expressions(), envs)


def test_every_argument_rule_has_a_test() -> None:
    """Per precision and form: the valid call, options twice (and SHOAL_OP_C accepted), dims, batch; fixed sizes: each
    leading dimension twice, NULL operands, an operand needed only where k > 0 given NULL with
    k == 0, (strided) negative strides, shared inputs and an overlapping C; vbatched: each
    device array NULL; then the no-work call."""
    for r in _routines():
        s = r.spec
        text = emit_gemm.test_args_c([r])
        aliases = sum(o.type.real_alias is not None for o in s.options)
        base = 1 + 2 * len(s.options) + aliases + len(s.dims) + 1 + 1
        fixed = base + 2 * 3 + 3 + sum(o.needed is not None for o in s.operands)
        per_form = {"batched": fixed, "strided_batched": fixed + 3 + 3, "vbatched": base + 3 + 2 * 3}
        assert text.count("expect(") - 1 == len(r.precisions) * sum(per_form[f] for f in s.forms), r.name


@needs_gcc
def test_generated_argument_tests_pass_on_the_cpu(tmp_path: Path) -> None:
    routines = _routines()
    stub = ('#include "gemm_run.h"\n'
            "shoal_status shoal_gemm_run(shoal_handle handle, char prec, shoal_operation ta, shoal_operation tb,\n"
            "                            shoal_gemm_params *p)\n"
            "{\n    (void)prec; (void)ta; (void)tb; (void)p;\n"
            "    return handle ? SHOAL_STATUS_SUCCESS : SHOAL_STATUS_NOT_INITIALIZED;\n}\n"
            "shoal_status shoal_gemm_vbatched_run(shoal_handle handle, char prec, int variant, shoal_gemm_vparams *p)\n"
            "{\n    (void)prec; (void)variant; (void)p;\n"
            "    return handle ? SHOAL_STATUS_SUCCESS : SHOAL_STATUS_NOT_INITIALIZED;\n}\n")
    assert_argument_tests_pass(tmp_path, emit_gemm.api_c(routines), emit_gemm.test_args_c(routines), stub,
                               [r.name for r in routines])


def test_spec_rejects_bad_files(tmp_path: Path) -> None:
    good = (SPEC_DIR / "gemm.toml").read_text()
    f = tmp_path / "gemm.toml"
    f.write_text(good)
    assert [o.ld for o in load(f).operands] == ["lda", "ldb", "ldc"]
    for old, new, match in [
        ('{ name = "transb", type = "op" }', '{ name = "transb", type = "uplo" }', "GEMM's options are ops"),
        ('dims = ["m", "n", "k"]', 'dims = ["m", "n"]', "dims must be"),
        ('name = "C", access = "inout"', 'name = "C", access = "in"', "operands are A"),
        ('needed = "k > 0" },\n  { name = "B"', 'needed = "q > 0" },\n  { name = "B"', "unknown name 'q'"),
        ('summary = "C_i', 'variant = "transa"\nsummary = "C_i', "the vbatched run's"),
        ('abi = "gemm"', 'abi = "fortran"', "abi must be"),
    ]:
        assert old in good, old
        f.write_text(good.replace(old, new))
        with pytest.raises(Exception, match=match):
            abi_of(f)
            load(f)
