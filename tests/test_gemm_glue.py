"""GEMM's generated entry points (generator/emit_gemm.py) check and pack their arguments exactly
as the hand-written ones of revision 492fe43 did (runtime/gemm_api.c, and gemm_vbatched's in
runtime/blas2_api.c): tests/c/test_gemm_glue.c links both against mock runs and compares status
and shoal_gemm_params / shoal_gemm_vparams byte for byte over a random grid of valid and invalid
calls; the complex vbatched entry points (c, z), which had no hand-written form, against the real
ones plus their complex fields (the imaginary parts of alpha and beta, op C as the t variant with
shoal_gemm_vparams.conj). CPU only: gcc, no library, no GPU. Mutants of the generated code (a
changed packing, a dropped or weakened check, a changed variant, complex fields) must fail it."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from glue_util import GOLDEN_DIR, assert_caught, build, check_golden, entry_names, equal_run, needs_gcc, renames

from generator import emit_gemm, emit_spec
from generator.project import REPO_ROOT
from generator.search_space import discover

pytestmark = needs_gcc

GOLDEN = {"runtime/gemm_api.c": GOLDEN_DIR / "gemm_api_492fe43.c",
          "runtime/blas2_api.c": GOLDEN_DIR / "blas2_api_492fe43.c"}
PER = 50000
PRELUDE = ('#include <stddef.h>\n#include "gemm_run.h"\n'
           "shoal_status old_gemm_run(shoal_handle, char, shoal_operation, shoal_operation, shoal_gemm_params *);\n"
           "shoal_status old_gemm_vbatched_run(shoal_handle, char, int, shoal_gemm_vparams *);\n"
           "#define run_gemm old_gemm_run\n#define gemm_v_run old_gemm_vbatched_run\n")


def _routines() -> list[emit_gemm.GemmRoutine]:
    return emit_spec.gemm_routines_from(discover(REPO_ROOT / "search_space"), REPO_ROOT / "spec" / "routines")


def _old_gemm() -> str:
    """gemm_api.c cut to its checks, packing and entry points: no dispatch (it needs the runtime)
    and no kernel-name query (still hand-written)."""
    text = GOLDEN["runtime/gemm_api.c"].read_text()
    body = text[text.index("static int is_op"):]
    body = body[:body.index("/* What a kernel must fit")] + \
        body[body.index("static shoal_gemm_params make_params"):body.index("shoal_status shoal_gemm_kernel_name")]
    return body


def _old_gemm_vbatched() -> str:
    """blas2_api.c's helpers and its gemm_vbatched entry points, without their run."""
    text = GOLDEN["runtime/blas2_api.c"].read_text()
    helpers = text[text.index("#define OK"):text.index("/* What a kernel must fit")]
    section = text[text.index("/* ---- gemm_vbatched ---- */"):text.index("/* ---- which kernel serves a call ---- */")]
    section = section[:section.index("static shoal_status gemm_v_run")] + section[section.index("#define GEMM_V(P, T)"):]
    return helpers + section


def _build(tmp: Path, new_entry: str) -> Path:
    names = renames(entry_names(_routines()))
    return build(tmp, "test_gemm_glue", {"old_gemm.c": names + PRELUDE + _old_gemm(),
                                         "old_gemm_v.c": names + PRELUDE + "#include <string.h>\n" + _old_gemm_vbatched(),
                                         "new_entry.c": new_entry}, ("-lm",))


@pytest.mark.parametrize("path", sorted(GOLDEN))
def test_golden_is_revision_492fe43(path: str) -> None:
    """The golden files are the hand-written API as it was (where the history is at hand)."""
    check_golden(path, GOLDEN[path])


def test_generated_entry_points_equal_the_hand_written_ones(tmp_path: Path) -> None:
    routines = _routines()
    assert sorted(r.name for r in routines) == ["gemm", "gemm_vbatched"]
    exe = _build(tmp_path, emit_gemm.api_c(routines))
    cases, lines = equal_run(exe, PER)
    assert cases == 4 * 2 * PER  # three forms and the complex vbatched, two passes (s: c, d: z)
    for line in lines:
        got = re.match(r"(\w+): (\d+) reached run, (\d+) rejected", line)
        assert got, line
        assert int(got[2]) > 10000 and int(got[3]) > 10000, line


MUTANTS = [
    # packing: a leading dimension
    ("p.ldb = ldb;", "p.ldb = lda;"),
    # packing: a stride
    ("p.stride_c = strideC;", "p.stride_c = strideC + 1;"),
    # packing: a per-problem array
    ("p.k_v = k;", "p.k_v = n;"),
    # packing: a scalar
    ("p.beta[0] = beta;", "p.beta[0] = -beta;"),
    # a check dropped: the overlap of the strided C
    ("    if (!output_stride_ok(strideC, ldc * n, batch)) return BAD;\n", ""),
    # a check weakened: A and B may be NULL only where k == 0
    ("((k > 0) && !A)", "(0 && !A)"),
    # a bound changed: B's rows by transb
    ("ldb < SHOAL_MAX(1, ((transb == 0) ? k : n))", "ldb < SHOAL_MAX(1, k)"),
    # the vbatched variant
    ("(int)(((2 * transa) + transb))", "(int)(((2 * transb) + transa))"),
    # complex vbatched: the conj bits swapped, op C left as C, an imaginary part dropped
    ("p.conj = conj_transa << 0 | conj_transb << 1;", "p.conj = conj_transa << 1 | conj_transb << 0;"),
    ("    if (conj_transb) transb = SHOAL_OP_T;\n    if (max_m", "    if (max_m"),
    ("p.beta[1] = beta.im;\n    p.batch = batch;\n    p.A_array", "p.batch = batch;\n    p.A_array"),
]


@pytest.mark.parametrize("old,new", MUTANTS, ids=[f"mutant{i}" for i in range(len(MUTANTS))])
def test_a_broken_entry_point_fails(tmp_path: Path, old: str, new: str) -> None:
    """The comparison can fail: each mutant of the generated code is caught."""
    text = emit_gemm.api_c(_routines())
    assert old in text
    exe = _build(tmp_path, text.replace(old, new))
    assert_caught(exe)
