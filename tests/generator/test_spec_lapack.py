"""Factorization-ABI specs (generator/spec_lapack.py, emit_lapack.py): loading and refusing bad
files, their C expressions against Python, their agreement with the search spaces and the
runtime's routine ids, one argument test per rule, and the generated argument tests run on the
CPU against the generated entry points (a stub dispatch that, as the real one, answers a NULL
handle with NOT_INITIALIZED)."""
from __future__ import annotations

import dataclasses
import itertools
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from glue_util import CUDA_INCLUDE
from spec_abi_util import (SPEC_DIR, assert_argument_tests_pass, assert_c_agrees_with_python, needs_gcc,
                           spec_paths)

from generator import emit_lapack, emit_spec
from generator.project import REPO_ROOT
from generator.search_space import discover
from generator.spec import SpecError
from generator.spec import load as load_spec_abi
from generator.spec_lapack import abi_of, load

SPECS = spec_paths("lapack")
FACTORIZATIONS = ["gelqf", "gels", "geqrf", "gesv", "getrf", "getri", "getri_fused", "getrs", "orgbr", "posv",
                  "posv_vbatched", "potrf", "potrf_vbatched", "potrs", "potrs_vbatched"]


def _routines() -> list[emit_lapack.LapackRoutine]:
    return emit_spec.lapack_routines_from(discover(REPO_ROOT / "search_space"), SPEC_DIR)


def test_the_factorizations_are_declared() -> None:
    assert [p.stem for p in SPECS] == FACTORIZATIONS
    assert [r.name for r in _routines()] == FACTORIZATIONS


@pytest.mark.parametrize("path", SPECS, ids=[p.stem for p in SPECS])
def test_spec_agrees_with_its_search_space_and_the_runtime(path: Path) -> None:
    """Variants from the option's letters (as the tables are split), precisions from the search
    space, the routine id and its routes in runtime/lapack_routines.h's enum."""
    spec = load(path)
    enum = (REPO_ROOT / "runtime" / "lapack_routines.h").read_text()
    if spec.driver is not None and spec.driver.all_sizes:
        # driver-only (gels): no search space; its steps' routines each serve its precisions
        assert not (REPO_ROOT / "search_space" / f"{spec.name}.toml").exists()
        spaces = {s.routine.name: s for s in discover(REPO_ROOT / "search_space")}
        for step in spec.driver.steps:
            assert set(spec.precisions) <= set(spaces[step].routine.precisions), step
        assert re.search(rf"\b{emit_lapack.routine_id(spec.name)}\b", enum)
        routines_c = (REPO_ROOT / "runtime" / "lapack_routines.c").read_text()
        letters = next(o for o in spec.options if o.name == spec.variant).type.letters if spec.variant else "n"
        # has_nrhs: the run path's "no right-hand sides, no work", where the spec's work says so
        # (posv_vbatched factors with max_nrhs = 0, as LAPACK's posv with nrhs = 0)
        has_nrhs = int("nrhs" in spec.dims and re.search(r"\bnrhs\b", spec.work.source) is not None)
        entry = (f'DRIVER_ONLY({spec.name}, "{" ".join(letters)}", {len(letters)}, {has_nrhs}, '
                 f'"{"".join(spec.precisions)}")')
        assert entry in routines_c
        return
    space = next(s for s in discover(REPO_ROOT / "search_space") if s.routine.name == spec.name)
    letters = tuple(next(o for o in spec.options if o.name == spec.variant).type.letters) if spec.variant else ("n",)
    assert tuple(space.routine.variants) == letters
    for name in [spec.name] + [r.routine for r in spec.routes]:
        assert re.search(rf"\b{emit_lapack.routine_id(name)}\b", enum), name
    with pytest.raises(SpecError, match="factorization-ABI"):
        load_spec_abi(path)


@needs_gcc
@pytest.mark.parametrize("path", SPECS, ids=[p.stem for p in SPECS])
def test_c_expressions_agree_with_python(path: Path, tmp_path: Path) -> None:
    spec = load(path)
    envs = (dict(zip(spec.dims, dims)) | {o.name: v for o, v in zip(spec.options, opts)}
            for dims in itertools.product((0, 1, 3, 32, 33), repeat=len(spec.dims))
            for opts in itertools.product((0, 1), repeat=len(spec.options)))
    assert_c_agrees_with_python(tmp_path, spec.expressions(), envs)


def test_every_argument_rule_has_a_test() -> None:
    """Per precision and form: the valid call, options twice (and SHOAL_OP_C accepted), dims, each rule between
    them (orgbr's), batch, matrix leading
    dimensions twice, NULL operands, (strided) negative strides and overlapping written ones,
    the no-work call, and an operand needed only sometimes given NULL where it is not."""
    for r in _routines():
        s = r.spec
        text = emit_lapack.test_args_c([r])
        mats = [o for o in s.operands if o.kind == "matrix"]
        strided = [o for o in s.operands if o.has_stride]
        aliases = sum(o.type.real_alias is not None for o in s.options)
        base = 1 + 2 * len(s.options) + aliases + len(s.dims) + len(s.requires) + 1 + 2 * len(mats) + len(s.operands) + 1
        base += sum(o.needed is not None for o in s.operands)
        per_form = {"batched": base, "strided_batched": base + len(strided) + sum(o.access != "in" for o in strided)}
        if s.vbatched:
            # the valid call, options, maxima, batch, each array NULL (sizes, operands, their
            # leading dimensions), no work and batch 0 with NULL arrays
            arrays = len(s.dims) + len(s.operands) + len(mats)
            per_form = {"vbatched": 1 + 2 * len(s.options) + aliases + len(s.dims) + 1 + arrays + 2}
        assert text.count("expect(") - 1 == len(r.precisions) * sum(per_form.values()), r.name


@needs_gcc
def test_generated_argument_tests_pass_on_the_cpu(tmp_path: Path) -> None:
    routines = _routines()
    stub = ('#include "lapack_run.h"\n'
            "shoal_status shoal_lapack_run(shoal_handle handle, int routine, char prec, int variant,\n"
            "                              shoal_lapack_params *p)\n"
            "{\n    (void)routine; (void)prec; (void)variant; (void)p;\n"
            "    return handle ? SHOAL_STATUS_SUCCESS : SHOAL_STATUS_NOT_INITIALIZED;\n}\n")
    assert_argument_tests_pass(tmp_path, emit_lapack.api_c(routines), emit_lapack.test_args_c(routines), stub,
                               [r.name for r in routines])


def _complex_build(tmp_path: Path) -> tuple[list[emit_lapack.LapackRoutine], Path]:
    """The factorizations as if every search space listed s, d, c and z (the complex kernels
    are the templates' business; the entry points are the emitter's), with their public header
    emitted into tmp_path/include next to a copy of include/shoal.h."""
    spaces = discover(REPO_ROOT / "search_space")
    routines = [dataclasses.replace(r, precisions=("s", "d", "c", "z")) for r in _routines()]
    include = tmp_path / "include"
    include.mkdir()
    shutil.copy(REPO_ROOT / "include" / "shoal.h", include)
    (include / "shoal_routines.h").write_text(emit_spec.header(
        emit_spec.routines_from(spaces), routines, emit_spec.blas2_routines_from(spaces, SPEC_DIR),
        emit_spec.gemm_routines_from(spaces, SPEC_DIR)))
    return routines, include


def test_complex_prototypes_take_the_public_complex_types(tmp_path: Path) -> None:
    routines, include = _complex_build(tmp_path)
    header = (include / "shoal_routines.h").read_text()
    assert ("shoal_status shoal_zgetrs_batched(shoal_handle handle, shoal_operation trans, int n, int nrhs, "
            "const shoal_complex_double *const A[], int64_t lda, const int *ipiv, shoal_complex_double *const B[], "
            "int64_t ldb, int64_t batch);") in header
    assert ("shoal_status shoal_cgeqrf_strided_batched(shoal_handle handle, int m, int n, shoal_complex_float *A, "
            "int64_t lda, int64_t strideA, shoal_complex_float *tau, int64_t strideTau, int64_t batch);") in header
    # the kernels' element types (P.T) stay out of the public API and its entry points
    for text in ("\n".join(emit_lapack.header_blocks(routines)), emit_lapack.api_c(routines)):
        assert "cuFloatComplex" not in text and "cuDoubleComplex" not in text


@needs_gcc
def test_generated_argument_tests_pass_in_complex(tmp_path: Path) -> None:
    routines, include = _complex_build(tmp_path)
    stub = ('#include "lapack_run.h"\n'
            "shoal_status shoal_lapack_run(shoal_handle handle, int routine, char prec, int variant,\n"
            "                              shoal_lapack_params *p)\n"
            "{\n    (void)routine; (void)prec; (void)variant; (void)p;\n"
            "    return handle ? SHOAL_STATUS_SUCCESS : SHOAL_STATUS_NOT_INITIALIZED;\n}\n")
    assert_argument_tests_pass(tmp_path, emit_lapack.api_c(routines), emit_lapack.test_args_c(routines), stub,
                               [r.name for r in routines], include)


@needs_gcc
def test_getrs_op_c_is_the_t_variant_conjugated_in_complex_only(tmp_path: Path) -> None:
    """SHOAL_OP_C reaches shoal_lapack_run as the t variant (1) with p.conj = 1 in c and z, and
    as the t variant with conj 0 in s and d (the transpose there); N and T never set conj, and
    no other routine does. The stub prints what each call packed."""
    routines, include = _complex_build(tmp_path)
    (tmp_path / "entry.c").write_text(emit_lapack.api_c(routines))
    calls = []
    for prec, t in (("s", "float"), ("d", "double"), ("c", "shoal_complex_float"), ("z", "shoal_complex_double")):
        for op in ("SHOAL_OP_N", "SHOAL_OP_T", "SHOAL_OP_C"):
            calls.append(f"shoal_{prec}getrs_strided_batched((shoal_handle)1, {op}, 2, 1, ({t} *)buf, 2, 4, ipiv, 2, "
                         f"({t} *)buf, 2, 2, 1);")
            calls.append(f"shoal_{prec}getrs_batched((shoal_handle)1, {op}, 2, 1, (const {t} *const *)ptrs, 2, ipiv, "
                         f"({t} *const *)ptrs, 2, 1);")
        calls.append(f"shoal_{prec}potrs_strided_batched((shoal_handle)1, SHOAL_FILL_UPPER, 2, 1, ({t} *)buf, 2, 4, "
                     f"({t} *)buf, 2, 2, 1);")
    (tmp_path / "main.c").write_text("\n".join([
        '#include <stdio.h>', '#include "lapack_run.h"',
        "shoal_status shoal_lapack_run(shoal_handle handle, int routine, char prec, int variant,",
        "                              shoal_lapack_params *p)",
        '{ (void)handle; printf("%d %c %d %d\\n", routine, prec, variant, p->conj); return SHOAL_STATUS_SUCCESS; }',
        "static double buf[64]; static int ipiv[8]; static void *ptrs[1] = {buf};",
        "int main(void) {", *calls, "return 0; }", ""]))
    exe = tmp_path / "conj"
    subprocess.run(["gcc", "-std=c11", "-Wall", "-Wextra", "-Werror", f"-I{include}", f"-I{CUDA_INCLUDE}",
                    f"-I{REPO_ROOT / 'runtime'}", str(tmp_path / "main.c"), str(tmp_path / "entry.c"), "-o", str(exe)],
                   check=True)
    got = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.split("\n")[:-1]
    getrs, potrs = _routine_index("SHOAL_GETRS"), _routine_index("SHOAL_POTRS")
    want = []
    for prec in "sdcz":
        for op in (0, 1, 2):
            conj = int(op == 2 and prec in "cz")
            want += [f"{getrs} {prec} {min(op, 1)} {conj}"] * 2
        want.append(f"{potrs} {prec} 1 0")
    assert got == want


def _routine_index(name: str) -> int:
    """A value of runtime/lapack_routines.h's enum shoal_lapack_routine."""
    enum = (REPO_ROOT / "runtime" / "lapack_routines.h").read_text()
    body = enum[enum.index("enum shoal_lapack_routine {"):]
    names = re.findall(r"\b(SHOAL_[A-Z_]+)\b", body[:body.index("}")])
    return names.index(name)


GOOD = """name = "x"
abi = "lapack"
summary = "s"
options = [{ name = "uplo", type = "uplo" }]
dims = ["n", "nrhs"]
shape = { m = "n", n = "n", nrhs = "nrhs" }
work = "n > 0"
operands = [
  { name = "A", kind = "matrix", access = "inout", rows = "n", cols = "n" },
  { name = "ipiv", kind = "pivots", access = "out", length = "n", stride = "strideP" },
  { name = "B", kind = "matrix", access = "inout", rows = "n", cols = "nrhs", needed = "nrhs > 0" },
  { name = "info", kind = "info" },
]
variant = "uplo"
routes = [{ when = "nrhs == 0", routine = "y" }]
"""


def test_spec_rejects_bad_files(tmp_path: Path) -> None:
    f = tmp_path / "x.toml"
    f.write_text(GOOD)
    spec = load(f)
    assert [o.slot for o in spec.operands] == ["A", "ipiv", "B", "info"]
    assert abi_of(f) == "lapack"
    for old, new, match in [
        ('kind = "pivots"', 'kind = "ints"', "kind must be one of"),
        ('length = "n"', 'length = "q"', "unknown name 'q'"),
        ('rows = "n", cols = "nrhs"', 'rows = "n", cols = "nrhs", slot = "A"', "two operands fill one slot"),
        ('{ name = "info", kind = "info" }', '{ name = "info", kind = "info", access = "in" }', "info is one written"),
        ('variant = "uplo"', 'variant = "trans"', "variant must name an option"),
        ('shape = { m = "n", n = "n", nrhs = "nrhs" }', 'shape = { m = "n", n = "n" }', "shape must give"),
        ('dims = ["n", "nrhs"]', 'dims = ["n", "q"]', "dims must be"),
        ('abi = "lapack"', 'abi = "fortran"', "abi must be"),
    ]:
        assert old in GOOD
        f.write_text(GOOD.replace(old, new))
        with pytest.raises(Exception, match=match):
            abi_of(f)
            load(f)
    # a route must name a factorization-ABI routine
    f.write_text(GOOD)
    with pytest.raises(ValueError, match="routes to 'y'"):
        emit_lapack.api_c([emit_lapack.LapackRoutine(load(f), ("s",))])


def test_driver_key_names_the_function_and_the_limit(tmp_path: Path) -> None:
    f = tmp_path / "x.toml"
    f.write_text(GOOD + 'driver = { name = "x_blocked", max_n = 512 }\n')
    spec = load(f)
    assert spec.driver is not None and (spec.driver.name, spec.driver.max_n) == ("x_blocked", 512)
    table = emit_lapack.drivers_c([emit_lapack.LapackRoutine(spec, ("s",))])
    assert "shoal_status shoal_driver_x_blocked(struct shoal_context *ctx, char prec, int variant," in table
    assert '[SHOAL_X] = {"x_blocked", shoal_driver_x_blocked, 512, 0},' in table
    assert "served by the driver x_blocked" in emit_lapack.size_limit(spec)
    # no driver: NOT_SUPPORTED above 32, and an empty table still compiles as C (one NULL entry)
    plain = tmp_path / "plain" / "x.toml"
    plain.parent.mkdir()
    plain.write_text(GOOD)
    assert load(plain).driver is None
    assert "{NULL, NULL, 0, 0}" in emit_lapack.drivers_c([])
    for bad, match in [('driver = "x_blocked"', "driver is"),
                       ('driver = { name = "x_blocked" }', "driver is"),
                       ('driver = { name = "X-1", max_n = 64 }', "lower-case C identifier"),
                       ('driver = { name = "x", max_n = 32 }', "above 32"),
                       ('driver = { name = "x", max_n = true }', "above 32"),
                       ('driver = { name = "x", max_n = 64, all_sizes = 1 }', "true or false"),
                       ('driver = { name = "x", max_n = 64, steps = "geqrf" }', "list of routine names"),
                       ('driver = { name = "x", max_n = 64, all_sizes = true }', "names its precisions"),
                       ('driver = { name = "x", max_n = 64 }\nprecisions = ["s"]', "come from the search space"),
                       ('driver = { name = "x", max_n = 64, all_sizes = true }\nprecisions = ["q"]',
                        "distinct 's', 'd', 'c', 'z'")]:
        f.write_text(GOOD + bad + "\n")
        with pytest.raises(SpecError, match=match):
            load(f)


def test_a_driver_of_all_sizes_serves_every_call_and_names_its_precisions(tmp_path: Path) -> None:
    f = tmp_path / "x.toml"
    f.write_text(GOOD + 'driver = { name = "x_all", max_n = 64, all_sizes = true, steps = ["geqrf"] }\n'
                 'precisions = ["d", "z"]\n')
    spec = load(f)
    assert spec.driver.all_sizes and spec.driver.steps == ("geqrf",) and spec.precisions == ("d", "z")
    assert '[SHOAL_X] = {"x_all", shoal_driver_x_all, 64, 1},' in emit_lapack.drivers_c(
        [emit_lapack.LapackRoutine(spec, spec.precisions)])
    assert "every call is served by the driver x_all" in emit_lapack.size_limit(spec)
    # its argument tests' call without work has every dimension 0 (gels writes B where m or n is 0)
    empty = next(args for what, args, _ in emit_lapack.rules(emit_lapack.LapackRoutine(spec, ("d",)), "batched")
                 if what == "no work, NULL operands")
    assert all(empty[d] == "0" for d in spec.dims)
    # gels, the one such routine: emitted with its spec's precisions beside the tuned routines,
    # and left out of an emission without the routines its steps dispatch
    gels = next(r for r in _routines() if r.name == "gels")
    assert gels.precisions == ("s", "d", "c", "z") and gels.spec.driver.steps == ("geqrf", "ormqr", "trsm")
    few = [s for s in discover(REPO_ROOT / "search_space") if s.routine.name != "ormqr"]
    assert "gels" not in [r.name for r in emit_spec.lapack_routines_from(few, SPEC_DIR)]


VBATCHED = """name = "x_vbatched"
abi = "lapack"
forms = ["vbatched"]
precisions = ["d", "z"]
summary = "s"
options = [{ name = "uplo", type = "uplo" }]
dims = ["n"]
shape = { m = "n", n = "n", nrhs = "0" }
work = "n > 0"
operands = [
  { name = "A", kind = "matrix", access = "inout", rows = "n", cols = "n" },
  { name = "info", kind = "info" },
]
variant = "uplo"
driver = { name = "x_v", max_n = 256, all_sizes = true }
"""


def test_a_vbatched_spec_is_served_whole_by_its_driver(tmp_path: Path) -> None:
    f = tmp_path / "x_vbatched.toml"
    f.write_text(VBATCHED)
    spec = load(f)
    assert spec.vbatched and spec.forms == ("vbatched",) and emit_lapack.forms_of(emit_lapack.LapackRoutine(spec, ()))
    for old, new, match in [
        ('forms = ["vbatched"]', 'forms = ["vbatched", "batched"]', "forms is"),
        ('forms = ["vbatched"]', 'forms = ["pointers"]', "forms is"),
        ('name = "x_vbatched"', 'name = "x_v"', "ends in _vbatched"),
        ('shape = { m = "n", n = "n", nrhs = "0" }', 'shape = { m = "n", n = "n", nrhs = "n + 1" }', "one of its dims or 0"),
        ('  { name = "info", kind = "info" },', '  { name = "info", kind = "info" },\n  { name = "p", kind = "pivots", '
         'access = "out", length = "n", stride = "s" },', "matrices and info"),
        ('variant = "uplo"', 'variant = "uplo"\nroutes = [{ when = "n == 0", routine = "y" }]', "no routes"),
    ]:
        assert old in VBATCHED
        text = VBATCHED.replace(old, new)
        name = re.search(r'name = "(\w+)"', text)[1]
        g = tmp_path / f"{name}.toml"  # a spec's file is named after its routine
        g.write_text(text)
        with pytest.raises(SpecError, match=match):
            load(g)
    # no driver (and so no precisions of its own)
    f.write_text(VBATCHED.replace('precisions = ["d", "z"]\n', "").replace('driver = { name = "x_v", max_n = 256, '
                                                                           'all_sizes = true }\n', ""))
    with pytest.raises(SpecError, match="served by a driver of all sizes"):
        load(f)


@needs_gcc
def test_a_vbatched_entry_point_packs_the_arrays_beside_the_maxima(tmp_path: Path) -> None:
    """The sizes' and leading dimensions' device arrays go to the params' per-problem fields, the
    maxima to m and n (what the run path's no-work and limit checks read), lda 1; the host checks
    stop a NULL array, a negative maximum and batch, and let max_n = 0 through."""
    f = tmp_path / "x_vbatched.toml"
    f.write_text(VBATCHED)
    routine = emit_lapack.LapackRoutine(load(f), ("d",))
    (tmp_path / "entry.c").write_text(emit_lapack.api_c([routine]).replace("SHOAL_X_VBATCHED", "99"))
    (tmp_path / "main.c").write_text("\n".join([
        '#include <stdio.h>', '#include "lapack_run.h"',
        "shoal_status shoal_dx_vbatched(shoal_handle, shoal_fill_mode, const int *, int, double *const[], const int *,"
        " int *, int64_t);",
        "static int n[3], lda[3], info[3]; static double *ptrs[3];",
        "shoal_status shoal_lapack_run(shoal_handle handle, int routine, char prec, int variant, shoal_lapack_params *p)",
        '{ (void)handle; printf("%d %c %d %d %d %d %lld %lld %d %d %d %d %lld\\n", routine, prec, variant, p->m, p->n,',
        "  p->nrhs, p->lda, p->ldb, p->n_array == n && p->m_array == n && !p->nrhs_array, p->lda_array == lda && !p->ldb_array,",
        "  p->A_array == (void *const *)ptrs && !p->A && !p->B_array, p->info == info, p->batch);",
        "  return SHOAL_STATUS_SUCCESS; }",
        "int main(void) {",
        'printf("%d\\n", shoal_dx_vbatched((shoal_handle)1, SHOAL_FILL_UPPER, n, 7, ptrs, lda, info, 3));',
        'printf("%d\\n", shoal_dx_vbatched((shoal_handle)1, SHOAL_FILL_LOWER, n, 0, NULL, NULL, NULL, 3));',
        'printf("%d\\n", shoal_dx_vbatched((shoal_handle)1, SHOAL_FILL_LOWER, n, 7, ptrs, NULL, info, 3));',
        'printf("%d\\n", shoal_dx_vbatched((shoal_handle)1, SHOAL_FILL_LOWER, n, -1, ptrs, lda, info, 3));',
        'printf("%d\\n", shoal_dx_vbatched((shoal_handle)1, SHOAL_FILL_LOWER, n, 7, ptrs, lda, info, -1));',
        "return 0; }", ""]))
    exe = tmp_path / "v"
    # one routine alone, and no strided form: the prelude's stride check is unused
    subprocess.run(["gcc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-Wno-unused-function", f"-I{REPO_ROOT / 'include'}", f"-I{CUDA_INCLUDE}",
                    f"-I{REPO_ROOT / 'runtime'}", str(tmp_path / "main.c"), str(tmp_path / "entry.c"), "-o", str(exe)],
                   check=True)
    got = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.split("\n")[:-1]
    ok, bad = "0", str(int(_status("SHOAL_STATUS_INVALID_VALUE")))
    assert got == ["99 d 1 7 7 0 1 1 1 1 1 1 3", ok, "99 d 0 0 0 0 1 1 1 0 0 0 3", ok, bad, bad, bad]


def _status(name: str) -> int:
    header = (REPO_ROOT / "include" / "shoal.h").read_text()
    return int(re.search(rf"\b{name}\s*=\s*(\d+)", header)[1])


def test_the_lu_cholesky_and_qr_routines_name_their_drivers() -> None:
    # getri_fused has none: it stops at the kernels' 32
    drivers = {r.name: r.spec.driver for r in _routines()}
    assert {n for n, d in drivers.items() if d} == {"getrf", "getrs", "gesv", "getri", "potrf", "potrs", "posv",
                                                     "geqrf", "gels", "gelqf", "orgbr", "potrf_vbatched",
                                                     "potrs_vbatched", "posv_vbatched"}
    assert all(d.max_n == 1024 for d in drivers.values() if d)
    table = emit_lapack.drivers_c(_routines())
    assert '[SHOAL_POTRF] = {"potrf_blocked", shoal_driver_potrf_blocked, 1024, 0},' in table
    assert '[SHOAL_GETRF] = {"getrf_blocked", shoal_driver_getrf_blocked, 1024, 0},' in table
    assert '[SHOAL_GEQRF] = {"geqrf_blocked", shoal_driver_geqrf_blocked, 1024, 0},' in table
    assert '[SHOAL_GELS] = {"gels_qr", shoal_driver_gels_qr, 1024, 1},' in table
    assert '[SHOAL_GELQF] = {"gelqf_qr", shoal_driver_gelqf_qr, 1024, 1},' in table
    assert '[SHOAL_ORGBR] = {"orgbr_qr", shoal_driver_orgbr_qr, 1024, 1},' in table
