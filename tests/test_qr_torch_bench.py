"""bench/run_qr_torch_bench.py's parts that need no GPU: its shape list, its flop counts and the
tables it (and docs/results.md) draws from CSV rows."""
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
import run_qr_torch_bench as qb  # noqa: E402


def test_shapes_parse_and_reject_wide_or_empty():
    assert qb.parse_shapes("64x64:1000, 12x5:3") == [(64, 64, 1000), (12, 5, 3)]
    for bad in ("5x12:3", "4x4", "4x4:0", "", "axb:1"):
        with pytest.raises(Exception):
            qb.parse_shapes(bad)


def test_flops_follow_lawn41():
    n = 10
    geqrf = 2 * n**3 - 2 * n**3 / 3
    orgqr = 4 * n**3 - 4 * n**3 + 4 * n**3 / 3
    assert qb.flops("geqrf+orgqr", n, n, "d") == pytest.approx(geqrf + orgqr)
    assert qb.flops("geqrf+orgqr", n, n, "z") == pytest.approx(4 * (geqrf + orgqr))
    assert qb.flops("ormqr", n, n, "s") == pytest.approx(4 * n**3 - 2 * n**3)
    # gels: geqrf, then Q^T B (ormqr with nrhs columns) and the n x n triangular solve
    m, nrhs = 12, 3
    want = 2 * m * n**2 - 2 * n**3 / 3 + (4 * m * nrhs * n - 2 * nrhs * n**2) + n**2 * nrhs
    assert qb.flops("gels", m, n, "d", nrhs) == pytest.approx(want)
    assert qb.flops("gels", m, n, "c", nrhs) == pytest.approx(4 * want)


def row(method, ms, status="ok", routine="geqrf+orgqr"):
    return {"device": "G", "precision": "d", "routine": routine, "method": method, "m": "8", "n": "8",
            "batch": "4", "ms": ms, "gflops": "1", "check": "1", "status": status}


def test_table_speedup_is_the_best_torch_over_shoal():
    text = qb.table([row("shoal", "2"), row("torch", "10"), row("torch-qr", "8", "FAIL")])
    line = next(ln for ln in text.splitlines() if ln.startswith("| d | 8x8 |"))
    assert "| 4.00x |" in line and "torch-qr FAIL" in line
    assert "### ormqr" not in text   # a routine without rows has no table


def test_table_leaves_the_speedup_out_where_shoal_has_no_time():
    text = qb.table([row("shoal", "", "ERROR", "ormqr"), row("torch", "3", routine="ormqr")])
    line = next(ln for ln in text.splitlines() if ln.startswith("| d | 8x8 |"))
    assert "x |" not in line and "shoal ERROR" in line


def test_gels_rows_make_their_own_table():
    text = qb.table([row("shoal", "1", routine="gels"), row("torch", "50", routine="gels")])
    assert "### gels" in text and "| 50.00x |" in text and "### ormqr" not in text


def test_without_torch_it_skips(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "torch", None)   # import torch raises ImportError
    assert qb.main(["--shapes", "4x4:2"]) == 0
    assert capsys.readouterr().out.startswith("SKIP")


def test_report_writes_each_row_and_the_txt_even_when_the_run_is_cut(tmp_path, capsys):
    """The torch benchmarks' writer: the CSV has every row added (as strings) when the run stops
    early, and the .txt the heading and the table of those rows."""
    out = tmp_path / "sub" / "bench.csv"
    with pytest.raises(KeyboardInterrupt):
        with qb.Report(out, ["a", "b"], "# title\n# device", lambda rows: f"{len(rows)} rows: {rows}") as report:
            report.add([1, "x"])
            assert out.read_text() == "a,b\n1,x\n"   # flushed as it is added
            report.add([2.5, ""])
            raise KeyboardInterrupt
    assert out.read_text() == "a,b\n1,x\n2.5,\n"
    assert report.rows == [{"a": "1", "b": "x"}, {"a": "2.5", "b": ""}]
    txt = out.with_suffix(".txt").read_text()
    assert txt == "# title\n# device\n\n2 rows: [{'a': '1', 'b': 'x'}, {'a': '2.5', 'b': ''}]"
    assert f"# wrote {out}" in capsys.readouterr().out
