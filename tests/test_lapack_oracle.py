"""The factorization references and residuals (oracle/lapack_ref.c, oracle/lapack_check.c) and the
tuner's specs built on them (tuner/spec_lu.c, tuner/spec_chol_qr.c) on the CPU:
tests/c/test_lapack_oracle.c compiled here with the system C compiler ($CC, else gcc).

- Its cases check mathematical properties (P A = L U, Q^T Q = I, F F^T = A, ... to a small
  multiple of eps; every residual accepts the references' results and rejects perturbed ones),
  in c and z too (the complex_* cases: known LU and Householder results, |re| + |im| pivoting,
  Q^H Q = I, L L^H = A with the diagonal's imaginary part not read, op C solves, the specs'
  complex checks).
- Its --record output is compared with tests/c/golden/lapack_oracle_record.txt, recorded from the
  code before it moved into oracle/ (tuner/host_lu.c, tuner/host_chol_qr.c, bench/lapack_check.c):
  generated matrices, random streams and reference outputs bitwise (hashes), residuals bitwise
  where the code is the one it was, else as RULES says.
No GPU and no `make` needed; skips only where no C compiler exists."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from host_program import REPO, case_names, check_case_table, compile_program, run_case

SOURCE = REPO / "tests" / "c" / "test_lapack_oracle.c"
GOLDEN = REPO / "tests" / "c" / "golden" / "lapack_oracle_record.txt"
SRCS = [REPO / "tuner" / "spec_lu.c", REPO / "tuner" / "spec_chol_qr.c", REPO / "oracle" / "lapack_ref.c",
        REPO / "oracle" / "lapack_check.c", REPO / "oracle" / "host_math.c"]
CASES = case_names(SOURCE)


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return compile_program(tmp_path_factory.mktemp("lapack_oracle"), SOURCE, SRCS, ["oracle", "tuner", "tests/c"])


def test_case_table_matches_the_program(program: Path) -> None:
    check_case_table(program, CASES)


@pytest.mark.parametrize("case", CASES)
def test_property_case(program: Path, case: str) -> None:
    run_case(program, case)


def _records(text: str) -> dict[str, str]:
    pairs = [line.split() for line in text.splitlines() if line.strip()]
    assert all(len(p) == 2 for p in pairs)
    table = dict(pairs)
    assert len(table) == len(pairs), "duplicate keys"
    return table


def _dims(key: str) -> dict[str, int]:
    return {k: int(v) for k, v in re.findall(r":([mnk])=(\d+)", key)}


def _check(key: str, old: float, new: float) -> str | None:
    """None when new is what the change of the residual's code explains, else why not."""
    who, what = key.split(":")[:2]
    if who == "tuner" and what == "getrf":
        # dget01's normalization: n instead of max(m, n); tall matrices' errors grow by m / n
        d = _dims(key)
        want = old * max(d["m"], d["n"]) / d["n"]
        return None if new == pytest.approx(want, rel=1e-12, abs=0) else f"want {want!r}"
    if who == "tuner" and what in ("potrs", "posv"):
        # the solve error is per column now (dpot02): the same for one right-hand side, no
        # smaller for several (max_j r_j / x_j >= max_j r_j / max_j x_j)
        if _dims(key)["k"] == 1:
            return None if new == old else "differs for nrhs = 1"
        return None if old <= new < float("inf") else "smaller than the whole-matrix ratio"
    if who == "tuner" and what == "geqrf":
        # orthogonality over Q's first min(m, n) columns (each reflector's unitarity, m k^2 work
        # for m up to 1024) where Q^H Q over all m was taken: a tall matrix's worst column is
        # one of fewer (the record is the larger of it and the factorization residual, now Q
        # applied to R rather than formed and multiplied); square and wide cases, where the
        # columns are all of Q's, recorded bitwise the same
        d = _dims(key)
        if d["m"] <= d["n"]:
            return None if new == old else "not bitwise"
        return None if 0.0 <= new <= old else "above the full Q's residual"
    if who == "bench" and what in ("solve", "geqrf"):
        # the tuner's code now (A X - B rather than B - A X; Q formed rather than the reflectors
        # applied to R): the residual of float-rounded data in double, |delta| ~ n eps_d / eps_s
        return None if new == pytest.approx(old, rel=1e-6, abs=1e-9) else "beyond rounding"
    return None if new == old else "not bitwise"


def test_the_move_changed_nothing_else(program: Path) -> None:
    out = subprocess.run([str(program), "--record"], capture_output=True, text=True, check=True, timeout=300)
    old, new = _records(GOLDEN.read_text()), _records(out.stdout)
    assert new.keys() == old.keys()
    bad = []
    for key, value in old.items():
        if key.startswith(("hash:", "info:")):  # generated matrices, streams, reference outputs
            if new[key] != value:
                bad.append(f"{key}: {value} -> {new[key]}")
            continue
        why = _check(key, float.fromhex(value), float.fromhex(new[key]))
        if why:
            bad.append(f"{key}: {float.fromhex(value)!r} -> {float.fromhex(new[key])!r} ({why})")
    assert not bad, "\n".join(bad[:40])
