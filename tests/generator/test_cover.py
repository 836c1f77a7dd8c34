"""The relaxed fold (generator/cover.py): through emit on small in-memory databases, where it may
ship a kernel no rule chose, and the greedy cover on its own."""
import pytest
from fold_util import A, B, C, DEFAULT, config, dnn, emit_rules, files, measure  # noqa: F401

from generator import db
from generator.cover import cover
from generator.fold import Site, Timings

# two more kernels of the fixture space; W sorts before B and C by name
D = "shoal_dgemm_staged_nn_x64_mpb4_tn1"
W = "shoal_dgemm_staged_nn_x128_mpb16_tn4"

# a tuned kernel at each shape, and C within 0.5..1.5% of it everywhere
SHARED = {8: {A: 1.0, C: 1.01, "cublas": 2.0}, 16: {B: 1.0, C: 1.015, "cublas": 2.0},
          24: {D: 1.0, C: 1.005, "cublas": 2.0}}


def _fill(measure, shapes):
    for size, times in shapes.items():
        measure(size, times)


def test_ships_a_kernel_no_rule_chose_for_several_rules(tmp_path, project, space, conn, measure):
    _fill(measure, SHARED)
    names, rules, _, _ = emit_rules(conn, project, space, tmp_path / "fold", 0.02)
    assert sorted(dnn(names)) == sorted([A, B, D, DEFAULT])       # no winner ran elsewhere
    names, rules, lines, _ = emit_rules(conn, project, space, tmp_path / "cover", 0.02,
                                        cover=True)
    assert dnn(names) == [C, DEFAULT]
    assert rules == {8: (C, C), 16: (C, C), 24: (C, C)}
    (line,) = lines
    assert line == ("gemm: 11 -> 9 kernels (fold cover, tolerance 0.02), 6 rule slots folded, "
                    f"1 kernels no rule chose, worst +1.5% at d strided nn 16x16x16 ({B} -> {C})")
    # C is emitted from its recorded design and config exactly as if it had won everywhere
    conn.execute("UPDATE measurements SET median_ms = 0.5 WHERE kernel = ?", (C,))
    emit_rules(conn, project, space, tmp_path / "won", 0)
    assert files(tmp_path / "cover") == files(tmp_path / "won")


def test_refuses_beyond_tolerance(tmp_path, project, space, conn, measure):
    _fill(measure, {**SHARED, 16: {B: 1.0, C: 1.03, "cublas": 2.0}})
    names, rules, _, _ = emit_rules(conn, project, space, tmp_path / "on", 0.02, cover=True)
    assert dnn(names) == [B, C, DEFAULT]
    assert rules == {8: (C, C), 16: (B, B), 24: (C, C)}
    names, rules, _, _ = emit_rules(conn, project, space, tmp_path / "wide", 0.05, cover=True)
    assert dnn(names) == [C, DEFAULT] and rules[16] == (C, C)


def test_the_dispatched_choice_never_falls_behind_the_vendor(tmp_path, project, space, conn,
                                                             measure):
    # at 8, C is within 1% of A but slower than cuBLAS: A stays dispatched there, and then
    # serves the own slot too
    _fill(measure, {**SHARED, 8: {A: 1.0, C: 1.01, "cublas": 1.005}})
    names, rules, _, _ = emit_rules(conn, project, space, tmp_path / "on", 0.02, cover=True)
    assert dnn(names) == [C, A, DEFAULT]
    assert rules == {8: (A, A), 16: (C, C), 24: (C, C)}
    # where the vendor won already, the own kernel may go to C
    conn.execute("UPDATE measurements SET median_ms = 0.5 WHERE kernel = 'cublas' AND m = 8")
    names, rules, _, _ = emit_rules(conn, project, space, tmp_path / "vendor", 0.02, cover=True)
    assert dnn(names) == [C, DEFAULT] and rules[8] == ("vendor", C)


def test_defaults_are_kept_and_are_free_targets(tmp_path, project, space, conn, measure):
    # the default covers 8 at +1.5% and costs nothing: C need not cover 8, though it could
    _fill(measure, {**SHARED, 8: {A: 1.0, DEFAULT: 1.015, "cublas": 2.0}})
    names, rules, _, _ = emit_rules(conn, project, space, tmp_path / "on", 0.02, cover=True)
    assert dnn(names) == [C, DEFAULT]
    assert rules == {8: (DEFAULT, DEFAULT), 16: (C, C), 24: (C, C)}
    # every portable default ships, used or not
    assert sum(n.startswith("shoal_") and "_tiled_" in n for n in names) == 8


def test_a_kernel_the_emitter_cannot_build_is_no_target(tmp_path, project, space, conn, measure):
    _fill(measure, SHARED)
    # C's rows name a configuration that is not C's: it cannot be rendered under its name
    conn.execute("UPDATE measurements SET config = ? WHERE kernel = ?", (config(A)[1], C))
    off = emit_rules(conn, project, space, tmp_path / "off", 0.02)
    on = emit_rules(conn, project, space, tmp_path / "on", 0.02, cover=True)
    assert sorted(dnn(on[0])) == sorted([A, B, D, DEFAULT])
    assert files(tmp_path / "on") == files(tmp_path / "off") and on[1] == off[1]
    # nor one whose design left the search space
    conn.execute("UPDATE measurements SET design = 'gone', config = ? WHERE kernel = ?",
                 (config(C)[1], C))
    emit_rules(conn, project, space, tmp_path / "gone", 0.02, cover=True)
    assert files(tmp_path / "gone") == files(tmp_path / "off")


def test_cover_off_is_the_plain_fold(tmp_path, project, space, conn, measure):
    # what test_fold's first case folds: here the cover finds nothing better, so it ships the
    # plain fold's tables byte for byte
    measure(8, {A: 1.0, B: 1.015, "cublas": 2.0})
    measure(16, {B: 1.0, A: 1.5, "cublas": 2.0})
    names, rules, lines, _ = emit_rules(conn, project, space, tmp_path / "off", 0.02)
    assert dnn(names) == [B, DEFAULT] and rules == {8: (B, B), 16: (B, B)}
    assert lines[0].startswith("gemm: 10 -> 9 kernels (fold tolerance 0.02)")
    _, _, lines, _ = emit_rules(conn, project, space, tmp_path / "on", 0.02, cover=True)
    assert lines[0].startswith("gemm: 10 -> 9 kernels (fold cover, tolerance 0.02)")
    assert files(tmp_path / "on") == files(tmp_path / "off")
    emit_rules(conn, project, space, tmp_path / "zero", 0, cover=True)
    emit_rules(conn, project, space, tmp_path / "none", 0)
    assert files(tmp_path / "zero") == files(tmp_path / "none")


def test_deterministic_whatever_the_insertion_order(tmp_path, project, space, device, add,
                                                    version):
    # W and C cover the same slots equally: by name, W
    shapes = {s: {**t, W: t[C]} for s, t in SHARED.items()}
    outs = []
    for order in (1, -1):
        c = db.empty()
        dev = db.upsert_device(c, device)
        run = db.start_run(c, dev, ["gemm"], ["d"], version)
        for size, times in list(shapes.items())[::order]:
            for kernel, ms in list(times.items())[::order]:
                design, cfg = ("vendor", "{}") if kernel == "cublas" else config(kernel)
                add(c, run, dev, version, kernel=kernel, design=design, config=cfg, ms=ms,
                    m=size, n=size, k=size)
        c.commit()
        for rerun in range(2):
            out = tmp_path / f"{order}_{rerun}"
            names, rules, _, _ = emit_rules(c, project, space, out, 0.02, cover=True)
            assert dnn(names) == [W, DEFAULT]
            outs.append(files(out))
        c.close()
    assert all(o == outs[0] for o in outs)


# -- the greedy cover on its own -----------------------------------------------------------------

def _key(size: int):
    return (1, "d", "strided", "nn", size, size, size)


def _sites(tuned: dict[int, str]) -> list[Site]:
    return [Site(_key(s), [x, x]) for s, x in tuned.items()]


def test_an_equal_cover_keeps_the_tuned_kernel():
    # V serves 1 and 2; at 3, W (no rule's) and Z (tuned there) cover the same: Z stays
    t = Timings({_key(1): {"X": 1.0, "V": 1.01}, _key(2): {"Y": 1.0, "V": 1.01},
                 _key(3): {"Z": 1.0, "W": 1.01}}, {})
    sites = _sites({1: "X", 2: "Y", 3: "Z"})
    res = cover(sites, t, 0.02)
    assert [s.kernels for s in sites] == [["V", "V"], ["V", "V"], ["Z", "Z"]]
    assert res.added == ["V"] and res.removed == ["X", "Y"]
    assert res.worst().ratio == pytest.approx(1.01)


def test_a_greedy_pick_that_later_picks_cover_goes():
    # K1, P and Q each cover four of the eight shapes; K1 goes first (by name), then P and Q
    # cover all of K1's shapes too, so K1 goes again
    times = {s: {f"X{s}": 1.0} for s in range(1, 9)}
    for s in (1, 2, 3, 4):
        times[s]["K1"] = 1.005
    for s in (1, 2, 5, 6):
        times[s]["P"] = 1.01
    for s in (3, 4, 7, 8):
        times[s]["Q"] = 1.01
    sites = _sites({s: f"X{s}" for s in range(1, 9)})
    res = cover(sites, Timings({_key(s): t for s, t in times.items()}, {}), 0.02)
    assert [s.kernels[0] for s in sites] == ["P", "P", "Q", "Q", "P", "P", "Q", "Q"]
    assert res.added == ["P", "Q"]


def test_where_greedy_ships_more_than_the_plain_fold_the_fold_stands():
    # R1 tuned at a1..a6, R2 at b1..b6 (shapes 1..6, 11..16); C1 covers a1..a4 and b1..b4, C2
    # a5, a6 and b5, C3 b6. Greedy takes C1, C2, then R2 (tuned at b6, where it ties with C3):
    # three kernels, none of which can go, where the plain fold keeps two.
    tuned = {**{s: "R1" for s in range(1, 7)}, **{s: "R2" for s in range(11, 17)}}
    times = {s: {x: 1.0} for s, x in tuned.items()}
    for s in (1, 2, 3, 4, 11, 12, 13, 14):
        times[s]["C1"] = 1.01
    for s in (5, 6, 15):
        times[s]["C2"] = 1.01
    times[16]["C3"] = 1.01
    sites = _sites(tuned)
    res = cover(sites, Timings({_key(s): t for s, t in times.items()}, {}), 0.02)
    assert [s.kernels[0] for s in sites] == list(tuned.values())
    assert res.added == [] and res.removed == [] and res.folds == []


def test_fixed_and_unfoldable_kernels_are_free_and_zero_tolerance_changes_nothing():
    t = Timings({_key(1): {"D": 1.0, "E": 1.01, "V": 1.01}, _key(2): {"E": 1.0, "V": 1.01},
                 _key(3): {"F": 1.0, "D": 1.01, "V": 1.01}}, {})
    sites = _sites({1: "D", 2: "E", 3: "F"})
    res = cover(sites, t, 0.02, fixed=["D"], unfoldable=["E"])
    # D and E stay where tuned; F goes to D rather than to V, which would cost a kernel
    assert [s.kernels[0] for s in sites] == ["D", "E", "D"] and res.added == []
    sites = _sites({1: "D", 2: "E", 3: "F"})
    assert cover(sites, t, 0.0).folds == [] and [s.kernels[0] for s in sites] == ["D", "E", "F"]


def test_shippable_limits_the_targets_no_rule_chose():
    t = Timings({_key(1): {"X": 1.0, "V": 1.01}, _key(2): {"Y": 1.0, "V": 1.01}}, {})
    sites = _sites({1: "X", 2: "Y"})
    assert cover(sites, t, 0.02, shippable=lambda n: n != "V").added == []
    assert [s.kernels[0] for s in sites] == ["X", "Y"]
