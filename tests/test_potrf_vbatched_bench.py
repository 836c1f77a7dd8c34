"""bench/run_potrf_vbatched_bench.py's parts that need no GPU and no torch: the size distributions
and how many members are drawn, LAWN 41's potrf counts, the fixed-size comparison's order and
batch, the buffer layout, the host-side grouping, the ratios and issue 24's bar, the report's
table and the SKIP without torch."""
import math
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
import run_potrf_vbatched_bench as vb  # noqa: E402


class FixedRng:
    """random.Random's random() and randint() returning given values."""

    def __init__(self, values):
        self.values = list(values)

    def random(self):
        return self.values.pop(0)

    def randint(self, lo, hi):
        return max(lo, min(hi, self.values.pop(0)))


def test_parse_ns():
    assert vb.parse_ns("32, 128,512,1024") == [32, 128, 512, 1024]
    assert vb.parse_ns(vb.DEFAULT_NS) == [32, 128, 512, 1024]
    for bad in ("0", "1025", "a", "", " , ", "32,-1"):
        with pytest.raises(Exception):
            vb.parse_ns(bad)


def test_usage_errors_exit_2():
    for argv in (["--ns", "2000"], ["--dists", "normal"], ["--precisions", "q"], ["--methods", "magma"],
                 ["--runs", "0"], ["--loop-max", "0"], ["--loop-streams", "0"], ["--min-members", "0"],
                 ["--equal-n", "median"], ["--uplo", "X"]):
        with pytest.raises(SystemExit) as e:
            vb.main(argv)
        assert e.value.code == 2, argv


def test_skewed_is_ceil_n_u_cubed():
    assert vb.draw_size("skewed", 32, FixedRng([0.5])) == 4          # ceil(32 / 8)
    assert vb.draw_size("skewed", 32, FixedRng([0.99])) == 32        # ceil(31.05)
    assert vb.draw_size("skewed", 1024, FixedRng([0.25])) == 16      # ceil(1024 / 64)
    assert vb.draw_size("skewed", 32, FixedRng([0.0])) == 1          # never 0
    assert vb.draw_size("uniform", 32, FixedRng([7])) == 7
    assert vb.draw_size("equal", 128, FixedRng([])) == 128
    with pytest.raises(ValueError):
        vb.draw_size("normal", 32, FixedRng([0.5]))


@pytest.mark.parametrize("dist", vb.DISTS)
def test_sizes_stay_in_1_to_n(dist):
    sizes = vb.draw_sizes(dist, 128, 8, 0, 5000, 10**6, seed=3)
    assert len(sizes) == 5000 and min(sizes) >= 1 and max(sizes) <= 128
    if dist == "equal":
        assert set(sizes) == {128}


def test_distribution_shapes():
    """uniform: mean about (N + 1) / 2; skewed: P(n = 1) = P(u^3 <= 1/N) = N^(-1/3) and the mean
    about N / 4 (E[u^3])."""
    uni = vb.draw_sizes("uniform", 32, 8, 0, 20000, 10**6, seed=1)
    assert sum(uni) / len(uni) == pytest.approx(16.5, rel=0.02)
    sk = vb.draw_sizes("skewed", 32, 8, 0, 20000, 10**6, seed=1)
    assert sum(n == 1 for n in sk) / len(sk) == pytest.approx(32 ** (-1 / 3), abs=0.02)
    assert sum(sk) / len(sk) == pytest.approx(32 / 4 + 0.5, rel=0.05)


def test_draw_stops_at_bytes_members_or_cap():
    # equal sizes: 64^2 * 8 bytes = 32 KiB a member
    assert len(vb.draw_sizes("equal", 64, 8, 32768 * 100, 10, 10**6, seed=0)) == 100     # the bytes decide
    assert len(vb.draw_sizes("equal", 64, 8, 32768 * 100, 300, 10**6, seed=0)) == 300    # the count decides
    assert len(vb.draw_sizes("equal", 64, 8, 32768 * 100, 300, 50, seed=0)) == 50        # the cap decides
    a = vb.draw_sizes("uniform", 512, 4, 256e6, 1, 10**6, seed=9)
    assert a == vb.draw_sizes("uniform", 512, 4, 256e6, 1, 10**6, seed=9)                # deterministic
    assert sum(n * n * 4 for n in a) >= 256e6 > sum(n * n * 4 for n in a[:-1])


def test_flops_follow_lawn41():
    assert vb.flops(1, "d") == pytest.approx(1.0)                     # 1/3 + 1/2 + 1/6
    assert vb.flops(3, "s") == pytest.approx(9 + 4.5 + 0.5)
    assert vb.flops(3, "z") == pytest.approx(4 * 14.0)                # x4 in c and z
    assert vb.flops(0, "d") == 0.0
    assert vb.total_flops([1, 3, 0], "d") == pytest.approx(15.0)


def test_equal_batch_same_flops():
    sizes = [1, 2, 3]                      # flops 1, 5, 14: 20; mean n^3 = 12, cbrt 2.29
    assert vb.equal_batch(sizes, "d", "mean") == (2, 4)                # 20 / 5
    assert vb.equal_batch(sizes, "d", "max") == (3, 1)                 # round(20 / 14)
    assert vb.equal_batch([64] * 10, "s", "mean") == (64, 10)          # equal sizes: the same batch
    n, b = vb.equal_batch(vb.draw_sizes("uniform", 1024, 8, 0, 1000, 1000, seed=2), "d", "mean")
    assert 600 < n < 700 and 900 < b < 1100
    with pytest.raises(ValueError):
        vb.equal_batch(sizes, "d", "median")


def test_offsets_are_aligned_and_disjoint():
    offs, total = vb.offsets([1, 5, 0, 6], 8)          # 256 bytes: 32 doubles
    assert offs == [0, 32, 64, 64] and total == 128
    offs, total = vb.offsets([16, 1], 4)               # 256 floats exactly, then 1 -> 64
    assert offs == [0, 256] and total == 320
    assert vb.offsets([], 8) == ([], 0)


def test_group_by_size():
    np = pytest.importorskip("numpy")
    groups = vb.group_by_size(np.array([3, 1, 3, 0, 1, 3]))
    assert [(n, idx.tolist()) for n, idx in groups] == [(0, [3]), (1, [1, 4]), (3, [0, 2, 5])]


def test_sample_members_spread_and_largest():
    assert vb.sample_members([5] * 3) == [0, 1, 2]
    sizes = [1] * 100
    sizes[37] = 9
    s = vb.sample_members(sizes, 4)
    assert s == [0, 33, 37, 66, 99]


def test_ratios_and_bar():
    g = {"vbatched": 300.0, "vbatched-dev": 600.0, "fixed-equal": 500.0, "grouped": 100.0, "grouped-vendor": 200.0,
         "padded": 150.0, "loop": 10.0}
    assert vb.ratios(g, "vbatched") == pytest.approx((1.5, 0.6))
    assert vb.ratios(g, "vbatched-dev") == pytest.approx((3.0, 1.2))
    # a method without a valid rate is left out of the best; none: NaN
    assert vb.ratios({"vbatched": 1.0, "grouped": math.nan}, "vbatched")[0] != vb.ratios({}, "vbatched")[0]
    assert all(math.isnan(x) for x in vb.ratios({"vbatched": 1.0}, "vbatched"))
    # the bar: equal 0.9x fixed; otherwise 1.5x best or 0.8x fixed, whichever is lower
    assert vb.bar_met("equal", math.nan, 0.9) is True and vb.bar_met("equal", 9.0, 0.89) is False
    assert vb.bar_met("uniform", 1.5, 0.1) is True
    assert vb.bar_met("skewed", 1.0, 0.8) is True
    assert vb.bar_met("skewed", 1.49, 0.79) is False
    assert vb.bar_met("uniform", math.nan, math.nan) is None and vb.bar_met("equal", 2.0, math.nan) is None
    assert vb.rate(2.0, 4.0) == pytest.approx(500.0) and math.isnan(vb.rate(2.0, math.nan))


def row(method, gflops, status="ok", prec="d", dist="uniform", big_n=32, members=1000):
    return {"device": "G", "precision": prec, "dist": dist, "N": str(big_n), "members": str(members),
            "max_n": str(big_n), "method": method, "method_n": "", "method_batch": str(members), "gflop": "1",
            "ms": "1", "gflops": gflops, "check": "1", "status": status}


def line_of(text, start):
    return next(ln for ln in text.splitlines() if ln.startswith(start))


def test_table():
    rows = [row("vbatched", "300"), row("vbatched-dev", "600"), row("fixed-equal", "500"), row("grouped", "100"),
            row("grouped-vendor", "200"), row("padded", "150", "FAIL"), row("loop", "", "ERROR"),
            row("vbatched-dev", "90", prec="s", dist="equal", big_n=64), row("fixed-equal", "100", prec="s",
                                                                              dist="equal", big_n=64)]
    text = vb.table(rows)
    assert text.index("### spotrf_vbatched") < text.index("### dpotrf_vbatched")
    assert line_of(text, "| dist |") == (
        "| dist | N | members | vbatched | vbatched-dev | fixed-equal | grouped | grouped-vendor | padded | loop | "
        "vb / best | vb / fixed | vb-dev / best | vb-dev / fixed | bar vb | bar vb-dev |")
    # padded FAILs: its rate is shown but is not the best (grouped-vendor, 200, is)
    assert line_of(text, "| uniform |") == ("| uniform | 32 | 1000 | 300 | 600 | 500 | 100 | 200 | 150 FAIL | ERROR | "
                                            "1.50x | 0.60x | 3.00x | 1.20x | met | met |")
    assert line_of(text, "| equal |") == ("| equal | 64 | 1000 |  | 90 | 100 |  |  |  |  |  |  |  | 0.90x |  | met |")


def test_row_csv_and_gflops():
    r = vb.Row("d", "skewed", 128, 5000, 128, "loop", 0, 2000, 3.0, 2.0, 1.5, "ok", 9)
    assert r.gflops() == pytest.approx(1500.0)
    assert r.csv("H200") == ["H200", "d", "skewed", "128", "5000", "128", "loop", "", "2000", "3", "2", "1500",
                             "1.5", "ok"]
    u = vb.Row("d", "equal", 32, 10, 32, "fixed-equal", 32, 10, 0.1, math.nan, math.nan, "ERROR")
    assert u.csv("H200")[7:] == ["32", "10", "0.1", "", "", "", "ERROR"]


def test_without_torch_it_skips(monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, "torch", None)   # import torch raises ImportError
    out = tmp_path / "p.csv"
    assert vb.main(["--ns", "4", "--out", str(out)]) == 0
    assert capsys.readouterr().out.startswith("SKIP: run_potrf_vbatched_bench: PyTorch not importable")
    assert not out.exists()
