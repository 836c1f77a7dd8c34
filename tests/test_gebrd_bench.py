"""bench/run_gebrd_bench.py's parts that need no GPU and no torch: its shape list, LAWN 41's gebrd
flop counts, the bidiagonal built from d and e, the singular-value error, the report's tables and
the SKIP without torch; and the cpu peer's split of the batch (bench/lapacke_gebrd_peer.py)."""
import math
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
import lapacke_gebrd_peer as lp  # noqa: E402
import run_gebrd_bench as gb  # noqa: E402


def test_shapes_parse_wide_and_tall():
    assert gb.parse_shapes("16x16:2000, 32x16:3,16X32:1") == [(16, 16, 2000), (32, 16, 3), (16, 32, 1)]
    assert gb.parse_shapes(gb.DEFAULT_SHAPES)[-1] == (256, 512, 1000)


@pytest.mark.parametrize("bad", ["4x4", "4x4:0", "0x4:2", "4x0:2", "", " , ", "axb:1", "4x4x4:2", "4x4:2:3", "4:4"])
def test_shapes_reject(bad):
    with pytest.raises(Exception):
        gb.parse_shapes(bad)


def test_usage_errors_exit_2():
    for argv in (["--shapes", "4x0:2"], ["--precisions", "q"], ["--methods", "magma"], ["--runs", "0"],
                 ["--cpu-threads", "0"]):
        with pytest.raises(SystemExit) as e:
            gb.main(argv)
        assert e.value.code == 2, argv


def test_flops_follow_lawn41():
    # m >= n: 4 m n^2 - 4 n^3 / 3
    assert gb.flops(6, 3, "d") == pytest.approx(4 * 6 * 9 - 4 * 27 / 3)        # 216 - 36 = 180
    assert gb.flops(6, 3, "d") == pytest.approx(180.0)
    assert gb.flops(32, 32, "s") == pytest.approx(4 * 32**3 - 4 * 32**3 / 3)
    # m < n: 4 m^2 n - 4 m^3 / 3, i.e. the count of the transpose
    assert gb.flops(3, 6, "d") == pytest.approx(4 * 9 * 6 - 4 * 27 / 3)
    assert gb.flops(16, 32, "d") == gb.flops(32, 16, "d")
    assert gb.flops(16, 32, "d") != pytest.approx(4 * 16 * 32**2 - 4 * 32**3 / 3)   # not the m >= n formula
    # x4 in c and z
    assert gb.flops(6, 3, "z") == pytest.approx(4 * 180.0)
    assert gb.flops(3, 6, "c") == pytest.approx(4 * 180.0)


def test_sample_indices_spread_first_and_last():
    assert gb.sample_indices(2000) == [0, 286, 571, 857, 1142, 1428, 1713, 1999]  # round(j 1999 / 7)
    assert gb.sample_indices(3) == [0, 1, 2]
    assert gb.sample_indices(1) == [0]


def test_bidiagonal_positions():
    assert gb.bidiagonal_positions(3, True) == ([0, 1, 2], [0, 1, 2], [0, 1], [1, 2])
    assert gb.bidiagonal_positions(3, False) == ([0, 1, 2], [0, 1, 2], [1, 2], [0, 1])
    assert gb.bidiagonal_positions(1, True) == ([0], [0], [], [])


def test_bidiagonal_matches_a_hand_built_matrix():
    np = pytest.importorskip("numpy")
    d = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    e = np.array([[7.0, 8.0], [9.0, 10.0]])
    zeros = lambda shape: np.zeros(shape)  # noqa: E731
    upper = gb.bidiagonal(d, e, True, zeros)
    lower = gb.bidiagonal(d, e, False, zeros)
    assert upper.shape == (2, 3, 3)
    assert upper[0].tolist() == [[1, 7, 0], [0, 2, 8], [0, 0, 3]]
    assert upper[1].tolist() == [[4, 9, 0], [0, 5, 10], [0, 0, 6]]
    assert lower[0].tolist() == [[1, 0, 0], [7, 2, 0], [0, 8, 3]]
    assert lower[1].tolist() == [[4, 0, 0], [9, 5, 0], [0, 10, 6]]
    one = gb.bidiagonal(np.array([[2.5]]), np.zeros((1, 0)), True, zeros)   # k = 1: no e
    assert one.tolist() == [[[2.5]]]
    # the singular values of B are the quantity checked: both forms have those of their transpose
    s = np.linalg.svd(upper[0], compute_uv=False)
    assert np.allclose(s, np.linalg.svd(upper[0].T, compute_uv=False))


def test_sv_error_formula_by_hand():
    eps = 2.0 ** -53
    s0 = [4.0, 2.0, 1.0]
    # the largest difference, 0.5 (at s_2), over s0_max 4 x max(m, n) 5 x eps
    s = [4.25, 2.0, 1.5]
    assert gb.sv_error(s, s0, 5, 3, eps) == pytest.approx(0.5 / (4.0 * 5 * eps))
    assert gb.sv_error(s, s0, 3, 5, eps) == pytest.approx(0.5 / (4.0 * 5 * eps))   # max(m, n), not m
    assert gb.sv_error(s0, s0, 5, 3, eps) == 0.0
    err = 30 * 4.0 * 5 * eps          # a difference that scores the limit itself
    assert gb.sv_error([4.0 + err, 2.0, 1.0], s0, 5, 3, eps) == pytest.approx(30.0)
    for bad in ([math.nan, 2.0, 1.0], [4.0, math.inf, 1.0], [4.0, 2.0]):
        assert gb.sv_error(bad, s0, 5, 3, eps) == math.inf
    # the worst over samples
    assert gb.worst_sv_error([s0, s], [s0, s0], 5, 3, eps) == pytest.approx(0.5 / (4.0 * 5 * eps))
    assert gb.worst_sv_error([s0], [s0, s0], 5, 3, eps) == math.inf


def row(method, ms, status="ok", prec="d", m=32, n=32, batch=2000):
    return {"device": "G", "precision": prec, "m": str(m), "n": str(n), "batch": str(batch), "method": method,
            "ms": ms, "gflops": "1", "check": "1", "status": status}


def line_of(text, start):
    return next(ln for ln in text.splitlines() if ln.startswith(start))


def test_table_speedups_are_peer_ms_over_shoal_ms():
    text = gb.table([row("shoal", "0.5"), row("cusolver", "20"), row("cpu", "2")])
    assert "### dgebrd" in text and "### sgebrd" not in text
    header = line_of(text, "| m x n |")
    assert header == ("| m x n | batch | shoal ms | cusolver ms | cpu ms | speedup vs cusolver | "
                      "speedup vs cpu |")
    assert line_of(text, "| 32x32 |") == "| 32x32 | 2000 | 0.5 | 20 | 2 | 40.00x | 4.00x |"


def test_table_unsupported_skip_and_fail_cells():
    rows = [row("shoal", "", "UNSUPPORTED", m=64, n=64), row("cusolver", "3", m=64, n=64),
            row("cpu", "", "SKIP", m=64, n=64),
            row("shoal", "1", prec="s", m=16, n=32), row("cusolver", "", "UNSUPPORTED", prec="s", m=16, n=32),
            row("cpu", "0.25", "FAIL", prec="s", m=16, n=32)]
    text = gb.table(rows)
    # no shoal time: no speedup at all
    assert line_of(text, "| 64x64 |") == "| 64x64 | 2000 | UNSUPPORTED | 3 | SKIP |  |  |"
    # a FAIL keeps its time (and its speedup); the tables come in precision order
    assert line_of(text, "| 16x32 |") == "| 16x32 | 2000 | 1 | UNSUPPORTED | 0.25 FAIL |  | 0.25x |"
    assert text.index("### sgebrd") < text.index("### dgebrd")


def test_row_csv_and_gflops():
    r = gb.Row("z", 6, 3, 10, "shoal", 2.0, 1.5, "ok", 9)
    assert r.gflops() == pytest.approx(4 * 180.0 * 10 / 2e6)
    assert r.csv("H200") == ["H200", "z", "6", "3", "10", "shoal", "2", fmt_g(r.gflops()), "1.5", "ok"]
    u = gb.Row("d", 64, 64, 10, "shoal", math.nan, math.nan, "UNSUPPORTED")
    assert u.csv("H200")[6:] == ["", "", "", "UNSUPPORTED"]


def fmt_g(v):
    return format(v, ".6g")


def test_cpu_slices_cover_the_batch_contiguously():
    assert lp.slices(10, 4) == [(0, 3), (3, 6), (6, 8), (8, 10)]
    assert lp.slices(3, 16) == [(0, 1), (1, 2), (2, 3)]
    assert lp.slices(2000, 16)[-1] == (1875, 2000) and len(lp.slices(2000, 16)) == 16


def test_without_torch_it_skips(monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, "torch", None)   # import torch raises ImportError
    out = tmp_path / "g.csv"
    assert gb.main(["--shapes", "4x4:2", "--out", str(out)]) == 0
    assert capsys.readouterr().out.startswith("SKIP: run_gebrd_bench: PyTorch not importable")
    assert not out.exists()
