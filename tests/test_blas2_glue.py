"""The level-2 generated entry points (generator/emit_blas2.py) check, return early and pack
their arguments exactly as the hand-written ones of revision 492fe43 did: tests/c/test_blas2_glue.c
links both against a mock context lookup and a mock dispatch and compares status and
shoal_blas2_params byte for byte over a random grid of valid and invalid calls. CPU only: gcc,
no library, no GPU. Mutants of the generated code (a changed packing, a dropped check, a changed
quick return or variant) must fail it."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from glue_util import GOLDEN_DIR, assert_caught, build, check_golden, entry_names, equal_run, needs_gcc, renames

from generator import emit_blas2, emit_spec
from generator.project import REPO_ROOT
from generator.search_space import discover

pytestmark = needs_gcc

GOLDEN = GOLDEN_DIR / "blas2_api_492fe43.c"
PER = 50000


def _routines() -> list[emit_blas2.Blas2Routine]:
    return emit_spec.blas2_routines_from(discover(REPO_ROOT / "search_space"), REPO_ROOT / "spec" / "routines")


def _old_entry_points(names: list[str]) -> str:
    """The golden file cut to the entry points of gemv, trsv and gemv_vbatched: no dispatch
    (it needs the runtime), no gemm_vbatched and no kernel-name query (still hand-written), its
    static run() a call of the mock, its public names renamed shoal_ -> old_."""
    text = GOLDEN.read_text()
    body = text[text.index("#define OK"):]
    cut_from, cut_to = body.index("/* What a kernel must fit"), body.index("/* ---- gemv ---- */")
    body = body[:cut_from] + body[cut_to:body.index("/* ---- gemm_vbatched ---- */")]
    body = _interleaved_ok(body)
    return (renames(names) + '#include <stddef.h>\n#include <string.h>\n#include "blas2_run.h"\n'
            "shoal_status old_blas2_run(struct shoal_context *, int, char, int, shoal_blas2_params *);\n"
            "#define run old_blas2_run\n" + body)


def _interleaved_ok(body: str) -> str:
    """The one intended change since 492fe43, applied to the reference: written strided vectors
    that interleave (a column-major batch x len array: stride 1, |inc| >= batch) share no element
    and are accepted now (the Python package passes such arrays as they are)."""
    old = "    return batch <= 1 || len == 0 || stride >= 1 + (int64_t)(len - 1) * abs64(inc);"
    assert body.count(old) == 1, "the golden file's vector_stride_ok changed"
    return body.replace(old, "    if (batch <= 1 || len <= 1) return 1;\n"
                             "    return stride >= 1 + (int64_t)(len - 1) * abs64(inc) ||\n"
                             "           (stride >= 1 && abs64(inc) >= 1 + stride * (batch - 1));")


def _build(tmp: Path, new_entry: str) -> Path:
    return build(tmp, "test_blas2_glue", {"old_entry.c": _old_entry_points(entry_names(_routines())),
                                          "new_entry.c": new_entry}, ("-lm",))


def test_golden_is_revision_492fe43() -> None:
    """The golden file is the hand-written API as it was (where the history is at hand)."""
    check_golden("runtime/blas2_api.c", GOLDEN)


def test_generated_entry_points_equal_the_hand_written_ones(tmp_path: Path) -> None:
    routines = _routines()
    assert sorted(r.name for r in routines) == ["gemv", "gemv_vbatched", "trsv"]
    exe = _build(tmp_path, emit_blas2.api_c(routines))
    cases, lines = equal_run(exe, PER)
    assert cases == 5 * 2 * PER  # gemv and trsv in two forms, gemv_vbatched in one; two precisions
    # the grid covers every outcome in every routine and form
    for line in lines:
        got = re.match(r"(\w+): (\d+) reached run, (\d+) quick returns, (\d+) rejected", line)
        assert got, line
        assert int(got[2]) > 1000 and int(got[3]) > 500 and int(got[4]) > 1000, line


MUTANTS = [
    # packing: trsv's unused y slot keeps increment 1
    ("p.incy = 1;\n    p.batch = batch;\n    p.A_array", "p.incy = 0;\n    p.batch = batch;\n    p.A_array"),
    # packing: the vbatched launch's leading dimension from the maximum
    ("p.lda = SHOAL_MAX(1, max_m);", "p.lda = SHOAL_MAX(1, max_n);"),
    # packing: trsv's diagonal
    ("p.diag_unit = diag == SHOAL_DIAG_UNIT;", "p.diag_unit = 0;"),
    # packing: a vector's stride
    ("p.stride_x = stridex;", "p.stride_x = stridex + 1;"),
    # a check dropped: the overlap of a written strided vector
    ("    if (!vector_stride_ok(stridex, n, incx, batch)) return BAD;\n", ""),
    # a check weakened: a NULL per-problem array
    ("!incx || !y || !incy)", "!incx || !y)"),
    # the quick return changed
    ("((alpha == 0) && (beta == 1))", "(alpha == 0)"),
    # a variant changed
    ("(int)(((2 * uplo) + trans))", "(int)((uplo + trans))"),
]


@pytest.mark.parametrize("old,new", MUTANTS, ids=[f"mutant{i}" for i in range(len(MUTANTS))])
def test_a_broken_entry_point_fails(tmp_path: Path, old: str, new: str) -> None:
    """The comparison can fail: each mutant of the generated code is caught."""
    text = emit_blas2.api_c(_routines())
    assert old in text
    exe = _build(tmp_path, text.replace(old, new))
    assert_caught(exe)
