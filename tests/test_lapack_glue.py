"""The factorizations' generated entry points (generator/emit_lapack.py) check and pack their
arguments exactly as the hand-written ones of revision 492fe43 did: tests/c/test_lapack_glue.c
links both against a mock dispatch and compares status and shoal_lapack_params byte for byte
over a random grid of valid and invalid calls. CPU only: gcc, no library, no GPU. Mutants of the
generated code (a changed packing, a dropped check, a changed route) must fail it."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from generator import emit_lapack, emit_spec
from generator.project import REPO_ROOT
from generator.search_space import discover

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")

GOLDEN = REPO_ROOT / "tests" / "c" / "golden" / "lapack_api_492fe43.c"
DRIVER = REPO_ROOT / "tests" / "c" / "test_lapack_glue.c"
CFLAGS = ["-std=c11", "-O1", "-Wall", "-Wextra", "-Werror", "-Wno-unused-function",
          f"-I{REPO_ROOT / 'include'}", f"-I{REPO_ROOT / 'runtime'}"]
SUMMARY = re.compile(r"^(\d+) cases, (\d+) reached run, (\d+) rejected, (\d+) mismatches$", re.M)


def _routines() -> list[emit_lapack.LapackRoutine]:
    return emit_spec.lapack_routines_from(discover(REPO_ROOT / "search_space"), REPO_ROOT / "spec" / "routines")


def _entry_names(routines: list[emit_lapack.LapackRoutine]) -> list[str]:
    return [f"shoal_{p}{r.name}_{f}" for r in routines for p in r.precisions for f in emit_lapack.FORMS]


def _old_entry_points(names: list[str]) -> str:
    """The golden file cut to its entry points: no dispatch and no kernel-name query (they need
    the runtime), its static run() a call of the mock, its public names renamed shoal_ -> old_."""
    text = GOLDEN.read_text()
    body = text[text.index("#define OK"):]
    cut_from, cut_to = body.index("/* ---- dispatch ---- */"), body.index("static shoal_lapack_params make_params")
    body = body[:cut_from] + body[cut_to:body.index("/* ---- which kernel serves a call ---- */")]
    renames = "".join(f"#define {n} old_{n[len('shoal_'):]}\n" for n in names)
    return (renames + '#include <stddef.h>\n#include "lapack_run.h"\n'
            "shoal_status old_lapack_run(shoal_handle, int, char, int, shoal_lapack_params *);\n"
            "#define run old_lapack_run\n" + body)


def _build(tmp: Path, new_entry: str) -> Path:
    routines = _routines()
    (tmp / "old_entry.c").write_text(_old_entry_points(_entry_names(routines)))
    (tmp / "new_entry.c").write_text(new_entry)
    exe = tmp / "test_lapack_glue"
    subprocess.run(["gcc", *CFLAGS, str(DRIVER), str(DRIVER.parent / "glue_common.c"), str(tmp / "old_entry.c"), str(tmp / "new_entry.c"), "-o", str(exe)],
                   check=True, capture_output=True, text=True)
    return exe


def _run(exe: Path, per: int = 50000) -> tuple[int, str]:
    proc = subprocess.run([str(exe), str(per)], capture_output=True, text=True, timeout=300)
    return proc.returncode, proc.stdout


def test_golden_is_revision_492fe43() -> None:
    """The golden file is the hand-written API as it was (where the history is at hand)."""
    git = shutil.which("git")
    proc = subprocess.run([git or "git", "-C", str(REPO_ROOT), "show", "492fe43:runtime/lapack_api.c"],
                          capture_output=True, text=True) if git else None
    if proc is None or proc.returncode != 0:
        pytest.skip("no git history of revision 492fe43 here")
    assert proc.stdout == GOLDEN.read_text()


def test_generated_entry_points_equal_the_hand_written_ones(tmp_path: Path) -> None:
    routines = _routines()
    assert sorted(r.name for r in routines) == sorted(
        ["getrf", "getrs", "gesv", "getri", "getri_fused", "potrf", "potrs", "posv", "geqrf"])
    exe = _build(tmp_path, emit_lapack.api_c(routines))
    rc, out = _run(exe)
    print(out)
    m = SUMMARY.search(out)
    assert m, out
    cases, reached, rejected, mismatches = map(int, m.groups())
    assert rc == 0 and mismatches == 0, out
    assert cases == 9 * 2 * 2 * 50000
    # the grid covers both outcomes in every routine and form, and the routes
    for line in out.splitlines()[:-1]:
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
    rc, out = _run(exe, 5000)
    m = SUMMARY.search(out)
    assert m and int(m[4]) > 0 and rc != 0, out
