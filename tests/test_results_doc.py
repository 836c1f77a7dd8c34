"""docs/results.md is generated from the committed CSVs (bench/results_doc.py); this fails when
a CSV or the script changed and `make results-doc` was not run, or the page was edited by hand."""
import csv
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "bench" / "results_doc.py"
sys.path.insert(0, str(ROOT / "bench"))
import python_overhead  # noqa: E402
import results_doc  # noqa: E402


def check(out: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), "--check", "--out", str(out)], capture_output=True,
                          text=True, cwd=ROOT)


def test_results_doc_is_current():
    proc = check(ROOT / "docs" / "results.md")
    assert proc.returncode == 0, proc.stderr


def test_a_hand_edit_is_caught(tmp_path):
    page = tmp_path / "results.md"
    page.write_text((ROOT / "docs" / "results.md").read_text().replace("| 2 |", "| 2.0 |", 1))
    proc = check(page)
    assert proc.returncode == 1 and "make results-doc" in proc.stderr


def test_every_section_names_its_run_date_and_device():
    text = (ROOT / "docs" / "results.md").read_text()
    sections = text.split("\n## ")[1:]
    assert len(sections) >= 6
    for s in sections:
        measured = next(line for line in s.splitlines() if line.startswith("Measured "))
        # the time of day where the run kept its report (a CSV-only run: the date its name carries)
        assert re.match(r"Measured \d{4}-\d\d-\d\d( \d\d:\d\d)? on NVIDIA ", measured), measured
        # a benchmark run, or the tuner's measurements exported from the tuned database
        assert "bench/results/" in measured and ("bench/run_" in measured or "`make tune`" in measured
                                                 or "bench/python_overhead.py" in measured)
        run = measured.split("`bench/results/")[1].split("`")[0]
        assert (ROOT / "bench" / "results" / run).is_file(), run


def test_python_overhead_section_renders_its_csv(tmp_path, monkeypatch):
    """A bench/python_overhead.py run (its CSV and the .txt it writes) as a results.md section."""
    rows = [python_overhead.csv_row("gemm NN", "d", "8x8x8", 136534, 0.071234, 0.071901, 4.23, 17.81),
            python_overhead.csv_row("getrf", "s", "32x32", 48001, 0.2, 0.2124, 4.0, 31.456)]
    python_overhead.write_csv(tmp_path / "h100-python.csv", rows)
    with open(tmp_path / "h100-python.csv") as f:
        assert list(csv.DictReader(f)) == rows  # what the script writes is what the page reads
    (tmp_path / "h100-python.txt").write_text(
        "# python_overhead (shoal 0.1.0, torch 2.5.1, Python 3.12.3), 2026-11-26 10:24\n"
        "# device 0: NVIDIA H100 80GB HBM3 (cc 9.0, 132 SMs, L2 50.0 MiB, 79.2 GiB)\n")
    monkeypatch.setattr(results_doc, "RESULTS", tmp_path)
    s = results_doc.Section("The Python package against the C API", "h100-python", "python", "intro")
    lines = results_doc.section(s)
    assert lines[0] == "## The Python package against the C API"
    assert lines[2].startswith("Measured 2026-11-26 10:24 on NVIDIA H100 80GB HBM3 (cc 9.0, 132 SMs, L2 50.0 MiB")
    assert "`bench/python_overhead.py`" in lines[2] and "`bench/results/h100-python.csv`" in lines[2]
    assert "| gemm NN | d | 8x8x8 | 136,534 | 0.0712 | 0.0719 | 1.009 | 4.2 | 17.8 |" in lines
    assert "| getrf | s | 32x32 | 48,001 | 0.2000 | 0.2124 | 1.062 | 4.0 | 31.5 |" in lines
    assert lines[-2] == ("Package within 5% of the C API in 1 of 2 cases; highest ratio 1.062 "
                         "(getrf s 32x32).")


def test_cost_table_lists_every_slower_shoal_row_beside_the_peer():
    def row(n: int, method: str, ms: float) -> dict:
        return {"prec": "s", "routine": "gemv", "variant": "n", "case": "packed", "m": str(n), "n": str(n),
                "batch": "10", "mode": "strided", "method": method, "median_ms": str(ms)}
    before = [row(8, "shoal", 1.0), row(8, "cublas", 2.0), row(16, "shoal", 1.0), row(32, "shoal", 1.0)]
    after = [row(8, "shoal", 1.10), row(8, "cublas", 2.02), row(16, "shoal", 1.02), row(32, "shoal", 0.9)]
    lines = results_doc.cost_table(before, after)
    assert lines[0].startswith("3 shoal rows: median after/before 1.020, 1 above 1.02, 1 below 0.98;"), lines[0]
    body = [line for line in lines if line.startswith("| gemv")]
    # 1.02 exactly is within the bar: only n = 8 is listed, with its peer's ratio
    assert body == ["| gemv | s | n | packed | 8 | 8 | 10 | strided | 1.0000 | 1.1000 | 1.100 | 1.010 |"], body


def test_lu_blocked_sections_render_a_run_with_its_torch_rows(tmp_path, monkeypatch):
    """The LU family above n = 32 (results_doc.lu_blocked_sections): one section per routine, the
    peers table (shoal, vendor, torch, shoal / best peer), PyTorch's version from the report, and
    the published PyTorch getrf figures beside the getrf table."""
    cols = "device,prec,routine,variant,mode,n,nrhs,batch,method,median_ms,gflops,gbs,pct_roof,ok"
    lines = [cols]
    for routine, nrhs, vendor in (("getrf", (0,), "cublas"), ("getri", (0,), "cublas"),
                                  ("getrs", (1, 256), "cublas"), ("gesv", (1, 256), "cublas_getrf+getrs")):
        for k in nrhs:
            lines += [f'"NVIDIA H200",d,{routine},n,strided,1024,{k},1024,shoal,1,5000,1,40,1',
                      f'"NVIDIA H200",d,{routine},n,array,1024,{k},1024,{vendor},1,2500,1,20,1',
                      f'"NVIDIA H200",d,{routine},n,strided,1024,{k},1024,torch,1,4000,1,32,1']
    (tmp_path / "h200-lu.csv").write_text("\n".join(lines) + "\n")
    (tmp_path / "h200-lu.txt").write_text(
        "# shoal_lapack_bench 0.1.0, 2026-11-29 09:00\n"
        "# device 0: NVIDIA H200 (cc 9.0, 132 SMs, L2 60.0 MiB, 139.8 GiB); cuBLAS 130100; cuSOLVER 12004; "
        "shoal table \"NVIDIA H100 80GB HBM3\" (match level 1)\n"
        "# roof capped by the compute peak (--peak-gflops): 51000 Gflop/s in s and c, 63000 in d and z\n"
        "# torch_lapack_peer: torch 2.11.0+cu130, CUDA 13.0, NVIDIA H200, linalg library x; lu_factor_ex\n")
    monkeypatch.setattr(results_doc, "RESULTS", tmp_path)
    sections = results_doc.lu_blocked_sections("h200-lu")
    assert [s.routine for s in sections] == ["getrf", "getri", "getrs", "gesv"]
    getrf = results_doc.section(sections[0])
    assert getrf[0] == "## LU above n = 32 (getrf): the blocked driver"
    assert getrf[2].startswith("Measured 2026-11-29 09:00 on NVIDIA H200 (cc 9.0")
    assert "PyTorch 2.11.0+cu130, CUDA 13.0" in getrf[4] and "lu_factor_ex" in getrf[4]
    assert "capped at 51000 (s, c) / 63000 (d, z) Gflop/s" in getrf[4]
    assert "| 1024 | 5000 | 2500 | 4000 | 1.25 | 40 |" in getrf
    assert getrf[-2].startswith("PyTorch's batched LU kernel (published, H100;")
    assert "![LU above n = 32 (getrf): the blocked driver: lu](../bench/results/h200-lu-lu.png)" in getrf
    gesv = results_doc.section(sections[3])
    assert "| 1024 | 1 | 5000 | 2500 | 4000 | 1.25 | 40 |" in gesv and "| 1024 | n/4 | 5000 | 2500 | 4000 | 1.25 | 40 |" in gesv
    getri = results_doc.section(sections[1])
    assert "lu_solve(LU, pivots, I)" in getri[4] and not any(x.startswith("PyTorch's batched LU") for x in getri)
