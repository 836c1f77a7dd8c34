"""The factorizations' generated entry points (generator/emit_lapack.py) check and pack their
arguments exactly as the hand-written ones of revision 492fe43 did: tests/c/test_lapack_glue.c
links both against a mock dispatch and compares status and shoal_lapack_params byte for byte
over a random grid of valid and invalid calls. CPU only: gcc, no library, no GPU. Mutants of the
generated code (a changed packing, a dropped check, a changed route) must fail it."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from glue_util import GOLDEN_DIR, assert_caught, build, check_golden, entry_names, equal_run, needs_gcc, renames

from generator import emit_lapack, emit_spec
from generator.project import REPO_ROOT
from generator.search_space import discover

pytestmark = needs_gcc

GOLDEN = GOLDEN_DIR / "lapack_api_492fe43.c"


# the routines the golden revision had; those declared since (gels) have no hand-written twin
GOLDEN_ROUTINES = ("getrf", "getrs", "gesv", "getri", "getri_fused", "potrf", "potrs", "posv", "geqrf")


def _routines() -> list[emit_lapack.LapackRoutine]:
    every = emit_spec.lapack_routines_from(discover(REPO_ROOT / "search_space"), REPO_ROOT / "spec" / "routines")
    return [r for r in every if r.name in GOLDEN_ROUTINES]


def _old_entry_points(names: list[str]) -> str:
    """The golden file cut to its entry points: no dispatch and no kernel-name query (they need
    the runtime), its static run() a call of the mock, its public names renamed shoal_ -> old_."""
    text = GOLDEN.read_text()
    body = text[text.index("#define OK"):]
    cut_from, cut_to = body.index("/* ---- dispatch ---- */"), body.index("static shoal_lapack_params make_params")
    body = body[:cut_from] + body[cut_to:body.index("/* ---- which kernel serves a call ---- */")]
    return (renames(names) + '#include <stddef.h>\n#include "lapack_run.h"\n'
            "shoal_status old_lapack_run(shoal_handle, int, char, int, shoal_lapack_params *);\n"
            "#define run old_lapack_run\n" + body)


def _build(tmp: Path, new_entry: str) -> Path:
    return build(tmp, "test_lapack_glue", {"old_entry.c": _old_entry_points(entry_names(_routines(), lambda r: emit_lapack.FORMS)),
                                           "new_entry.c": new_entry})


def test_golden_is_revision_492fe43() -> None:
    """The golden file is the hand-written API as it was (where the history is at hand)."""
    check_golden("runtime/lapack_api.c", GOLDEN)


def test_generated_entry_points_equal_the_hand_written_ones(tmp_path: Path) -> None:
    routines = _routines()
    assert sorted(r.name for r in routines) == sorted(GOLDEN_ROUTINES)
    exe = _build(tmp_path, emit_lapack.api_c(routines))
    cases, lines = equal_run(exe, 50000)
    assert cases == 9 * 2 * 2 * 50000
    # the grid covers both outcomes in every routine and form, and the routes
    for line in lines:
        got = re.match(r"(\w+): (\d+) reached run \((\d+) routed to another routine\), (\d+) rejected", line)
        assert got, line
        assert int(got[2]) > 1000 and int(got[4]) > 1000, line
        routed = got[1].split("_batched")[0].rsplit("_strided", 1)[0] in ("gesv", "posv")
        assert (int(got[3]) > 100) == routed, line


MUTANTS = [
    # packing: the pivots' stride of the pointer-array calls
    ("p.stride_ipiv = n;", "p.stride_ipiv = n + 1;"),
    # packing: the unused B slot's leading dimension
    ("p.ldb = 1;", "p.ldb = 0;"),
    # a check dropped: the overlap of a written strided output
    ("    if (!output_stride_ok(strideC, ldc * n, batch)) return BAD;\n", ""),
    # a check weakened: a NULL operand needed only with right-hand sides
    ("((nrhs > 0) && !B)", "(0 && !B)"),
    # a route changed
    ("(nrhs == 0) ? SHOAL_POTRF : SHOAL_POSV", "SHOAL_POSV"),
    # a variant dropped
    ("'s', (int)uplo, &p", "'s', 0, &p"),
]


@pytest.mark.parametrize("old,new", MUTANTS, ids=[f"mutant{i}" for i in range(len(MUTANTS))])
def test_a_broken_entry_point_fails(tmp_path: Path, old: str, new: str) -> None:
    """The comparison can fail: each mutant of the generated code is caught."""
    text = emit_lapack.api_c(_routines())
    assert old in text
    exe = _build(tmp_path, text.replace(old, new))
    assert_caught(exe)
