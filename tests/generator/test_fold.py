"""Folding near-tied kernels at emit time (generator/fold.py): through emit on small in-memory
databases, and the greedy order on its own."""
import pytest
from fold_util import A, B, C, DEFAULT, config, dnn as _dnn, emit_rules, files, measure  # noqa: F401

from generator.emit import emit
from generator.fold import Site, Timings, fold


def _emit(conn, project, space, out, tol):
    """-> (kernel names of the table, {size: (best, own)}, the fold lines)."""
    return emit_rules(conn, project, space, out, tol)[:3]


def test_folds_within_tolerance_into_a_kernel_shipped_anyway(tmp_path, project, space, conn, measure):
    measure(8, {A: 1.0, B: 1.015, "cublas": 2.0})
    measure(16, {B: 1.0, A: 1.5, "cublas": 2.0})
    names, rules, _ = _emit(conn, project, space, tmp_path / "off", 0)
    assert _dnn(names) == [B, A, DEFAULT] and rules[8] == (A, A)
    names, rules, lines = _emit(conn, project, space, tmp_path / "on", 0.02)
    assert _dnn(names) == [B, DEFAULT]
    assert rules == {8: (B, B), 16: (B, B)}
    (line,) = lines
    assert line.startswith("gemm: 10 -> 9 kernels (fold tolerance 0.02), 2 rule slots folded, "
                           f"worst +1.5% at d strided nn 8x8x8 ({A} -> {B})"), line


def test_refuses_beyond_tolerance(tmp_path, project, space, conn, measure):
    measure(8, {A: 1.0, B: 1.03, "cublas": 2.0})
    measure(16, {B: 1.0, A: 1.5, "cublas": 2.0})
    names, rules, _ = _emit(conn, project, space, tmp_path / "on", 0.02)
    assert _dnn(names) == [B, A, DEFAULT] and rules[8] == (A, A)
    names, rules, _ = _emit(conn, project, space, tmp_path / "wide", 0.05)
    assert _dnn(names) == [B, DEFAULT] and rules[8] == (B, B)


def test_refuses_a_target_not_measured_at_the_shape(tmp_path, project, space, conn, measure):
    # at 8, C is within tolerance but ships nowhere else, and B never ran there: A stays
    measure(8, {A: 1.0, C: 1.001, "cublas": 2.0})
    measure(16, {B: 1.0, A: 1.5, "cublas": 2.0})
    names, rules, lines = _emit(conn, project, space, tmp_path / "on", 0.02)
    assert _dnn(names) == [B, A, DEFAULT] and rules[8] == (A, A)
    assert lines == ["gemm: 10 -> 10 kernels (fold tolerance 0.02)"]
    measure(8, {B: 1.001})
    names, rules, lines = _emit(conn, project, space, tmp_path / "measured", 0.02)
    assert _dnn(names) == [B, DEFAULT] and rules[8] == (B, B)
    assert "worst +0.1% at d strided nn 8x8x8" in lines[0]


def test_refuses_a_target_that_failed_at_the_shape(tmp_path, project, space, conn, measure, add,
                                                    version):
    measure(8, {A: 1.0, "cublas": 2.0})
    measure(16, {B: 1.0, A: 1.5, "cublas": 2.0})
    dev = conn.execute("SELECT id FROM devices").fetchone()[0]
    run = conn.execute("SELECT max(id) FROM runs").fetchone()[0]
    add(conn, run, dev, version, kernel=B, design="staged", config=config(B)[1], ms=1.001,
        status="wrong")
    names, rules, _ = _emit(conn, project, space, tmp_path / "on", 0.02)
    assert _dnn(names) == [B, A, DEFAULT] and rules[8] == (A, A)


def test_defaults_are_kept_and_are_targets(tmp_path, project, space, conn, measure):
    # the default wins at 16 with A within 1%: the default stays, A folds into it at 8
    measure(16, {DEFAULT: 1.0, A: 1.01, "cublas": 2.0})
    measure(8, {A: 1.0, DEFAULT: 1.01, "cublas": 2.0})
    names, rules, _ = _emit(conn, project, space, tmp_path / "on", 0.02)
    assert _dnn(names) == [DEFAULT]
    assert rules == {8: (DEFAULT, DEFAULT), 16: (DEFAULT, DEFAULT)}
    # a default that wins nowhere is still shipped, and still a target
    conn.execute("DELETE FROM measurements WHERE m = 16")
    names, rules, _ = _emit(conn, project, space, tmp_path / "nowhere", 0.02)
    assert _dnn(names) == [DEFAULT] and rules == {8: (DEFAULT, DEFAULT)}


def test_the_dispatched_choice_never_falls_behind_the_vendor(tmp_path, project, space, conn,
                                                             measure):
    # at 8, B is within 1.5% of A but slower than cuBLAS: A stays the dispatched kernel
    measure(8, {A: 1.0, "cublas": 1.01, B: 1.015})
    measure(16, {B: 1.0, A: 1.5, "cublas": 2.0})
    names, rules, _ = _emit(conn, project, space, tmp_path / "on", 0.02)
    assert _dnn(names) == [B, A, DEFAULT] and rules[8] == (A, A)
    # where the vendor won already, the own kernel (vendor dispatch off) may fold
    conn.execute("UPDATE measurements SET median_ms = 0.5 WHERE kernel = 'cublas' AND m = 8")
    names, rules, _ = _emit(conn, project, space, tmp_path / "vendor", 0.02)
    assert _dnn(names) == [B, DEFAULT] and rules[8] == ("vendor", B)


def test_deterministic_and_zero_tolerance_changes_nothing(tmp_path, project, space, conn, measure):
    measure(8, {A: 1.0, B: 1.01, C: 1.01, "cublas": 2.0})     # B and C tie at 8: by name
    measure(16, {B: 1.0, "cublas": 2.0})
    measure(24, {C: 1.0, "cublas": 2.0})
    off = tmp_path / "off"
    emit(conn, project, [space], off)
    zero = tmp_path / "zero"
    res = emit(conn, project, [space], zero, fold_tolerance=0.0)
    assert res.folds == []
    assert files(zero) == files(off)
    names, rules, _ = _emit(conn, project, space, tmp_path / "a", 0.02)
    assert rules[8] == (B, B) and A not in names
    first = files(tmp_path / "a")
    _emit(conn, project, space, tmp_path / "b", 0.02)
    assert files(tmp_path / "b") == first
    assert files(off)["gemm_tables.c"] != first["gemm_tables.c"]


# -- the greedy order on its own ----------------------------------------------------------------

def _key(size: int):
    return (1, "d", "strided", "nn", size, size, size)


def test_tolerance_counts_from_the_tuned_kernel_so_folds_do_not_chain():
    # X folds into Y at 1 (+1.5%); Y could fold into Z at 2 (+1.5%), but then the rule at 1
    # would end 3% from its tuned kernel: Y must stay
    t = Timings({_key(1): {"X": 1.0, "Y": 1.015, "Z": 1.03}, _key(2): {"Y": 1.0, "Z": 1.015},
                 _key(3): {"Z": 1.0}}, {})
    sites = [Site(_key(1), ["X", "X"]), Site(_key(2), ["Y", "Y"]), Site(_key(3), ["Z", "Z"])]
    res = fold(sites, t, 0.02)
    assert res.removed == ["X"]
    assert [s.kernels for s in sites] == [["Y", "Y"], ["Y", "Y"], ["Z", "Z"]]
    assert res.worst().ratio == pytest.approx(1.015)


def test_fewest_rules_first_then_by_name():
    # P and Q are within tolerance of each other everywhere: only one may go. Q serves fewer
    # rules, so Q goes, although P sorts first.
    t = Timings({_key(s): {"P": 1.0, "Q": 1.0} for s in (1, 2, 3)}, {})
    sites = [Site(_key(1), ["P", "P"]), Site(_key(2), ["P", "P"]), Site(_key(3), ["Q", "Q"])]
    assert fold(sites, t, 0.02).removed == ["Q"]
    # equal counts: by name
    sites = [Site(_key(1), ["P", "P"]), Site(_key(3), ["Q", "Q"])]
    assert fold(sites, t, 0.02).removed == ["P"]
    assert [s.kernels for s in sites] == [["Q", "Q"], ["Q", "Q"]]


def test_fixed_and_unfoldable_kernels_stay():
    t = Timings({_key(1): {"D": 1.0, "E": 1.0}, _key(2): {"D": 1.0, "E": 1.0}}, {})
    sites = [Site(_key(1), ["D", "D"]), Site(_key(2), ["E", "E"])]
    assert fold(sites, t, 0.02, fixed=["D"], unfoldable=["E"]).removed == []
    assert fold(sites, t, 0.0).removed == []
