"""bench/md_tables.py: the README's tables come from the result CSVs, rounded, in their order."""
import csv
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "bench" / "md_tables.py"


def run(kind: str, path: Path, *args: str) -> list[str]:
    done = subprocess.run([sys.executable, str(SCRIPT), kind, str(path), *args], capture_output=True, text=True,
                          check=True)
    return done.stdout.splitlines()


def write_csv(path: Path, rows: list[dict[str, object]]) -> None:
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def gemm_row(prec: str, mode: str, trans: str, m: int, n: int, k: int, own: float, ratio: float) -> dict[str, object]:
    return {"prec": prec, "mode": mode, "trans": trans, "m": m, "n": n, "k": k, "batch": 1000,
            "shoal_gflops": 100.4, "cublas_gflops": 50.0, "ratio_shoal_cublas": ratio,
            "shoal_pct_roof": own, "own_pct_roof": own}


def test_gemm_tables_round_and_summarize(tmp_path: Path) -> None:
    rows = []
    for prec in "sd":
        for mode in ("strided", "array"):
            rows += [gemm_row(prec, mode, "nn", 2, 2, 2, 80.4, 50.0), gemm_row(prec, mode, "tn", 4, 8, 2, 95.6, 9.0),
                     gemm_row(prec, mode, "nn", 32, 32, 32, 99.0, 0.981), gemm_row(prec, mode, "nn", 64, 64, 64, 99.0, 1.02)]
    path = tmp_path / "gemm.csv"
    write_csv(path, rows)
    lines = run("gemm", path)
    assert "| 2 | 1,000 | 100 | 50 | 50.00 | 80 | 80 | 100 | 50 | 80 | 80 |" in lines
    # the summary counts only dims <= 16 against the bar, ratios only dims >= 32
    assert "| s | strided | 2 | 80 / 88 / 96 | 1 (< 90) | 2 | 0.98-1.02 |" in lines
    assert "| d | array | 2 | 80 / 88 / 96 | 1 (< 85) | 2 | 0.98-1.02 |" in lines


def test_blas2_tables_from_committed_results() -> None:
    path = ROOT / "bench" / "results" / "h100-2026-11-22-blas2.csv"
    lines = run("blas2", path)
    with open(path, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["routine"] == "gemv" and r["mode"] == "strided"]
    shapes = {(r["m"], r["n"]) for r in rows}
    table = [line for line in lines if line.startswith("| ") and line.split("|")[1].strip()[:1].isdigit() and " x " in line]
    assert len(table) == 2 * len(shapes)  # strided and pointer-array tables
    r = next(r for r in rows if (r["prec"], r["variant"], r["m"], r["n"], r["method"]) == ("d", "n", "2", "2", "shoal"))
    assert table[0].split("|")[2].strip().startswith(f"{float(r['gflops']):.0f} (")


def test_lapack_table_takes_the_best_vendor_method(tmp_path: Path) -> None:
    base = {"device": "x", "variant": "n", "mode": "array", "nrhs": 0, "batch": 10, "median_ms": 1, "gbs": 1, "ok": 1}
    rows = []
    for p in "ds":
        rows += [dict(base, prec=p, routine="inverse", n=4, method="shoal", mode="strided", gflops=300, pct_roof=81.6),
                 dict(base, prec=p, routine="inverse", n=4, method="shoal", gflops=250, pct_roof=70),
                 dict(base, prec=p, routine="inverse", n=4, method="cublas_matinv", gflops=100, pct_roof=20),
                 dict(base, prec=p, routine="inverse", n=4, method="cublas_getrf+getri", gflops=150, pct_roof=30)]
    path = tmp_path / "lapack.csv"
    write_csv(path, rows)
    lines = run("lapack", path, "--routine", "inverse", "--sizes", "4,5")
    assert lines[2] == "| 4 | 300 | 150 | 2.0 | 82 | 300 | 150 | 2.0 | 82 |"
    assert lines[3] == "| 5 | - | - | - | - | - | - | - | - |"   # not measured: said so


def test_dx_table_sets_shoal_beside_cusolverdx(tmp_path: Path) -> None:
    base = {"device": "x", "mode": "strided", "nrhs": 0, "batch": 10, "median_ms": 1, "gbs": 1, "ok": 1}
    rows = []
    for p in "ds":
        rows += [dict(base, prec=p, routine="potrf", variant="l", n=8, method="shoal", gflops=500, pct_roof=90.4),
                 dict(base, prec=p, routine="potrf", variant="l", n=8, method="shoal", mode="array", gflops=900,
                      pct_roof=99),
                 dict(base, prec=p, routine="potrf", variant="l", n=8, method="cusolverdx", gflops=400, pct_roof=72),
                 dict(base, prec=p, routine="potrf", variant="l", n=8, method="cusolver_potrf", mode="array",
                      gflops=60, pct_roof=10),
                 dict(base, prec=p, routine="potrf", variant="l", n=8, method="openblas", gflops=2000, pct_roof=0),
                 # a size with no cuSolverDx row is not listed; a failed peer row is not used
                 dict(base, prec=p, routine="potrf", variant="l", n=64, method="shoal", gflops=900, pct_roof=50),
                 dict(base, prec=p, routine="getrf", variant="n", n=4, method="shoal", gflops=300, pct_roof=80),
                 dict(base, prec=p, routine="getrf", variant="n", n=4, method="cusolverdx", gflops=100, pct_roof=20,
                      ok=0 if p == "s" else 1)]
    path = tmp_path / "dx.csv"
    write_csv(path, rows)
    lines = run("dx", path)
    assert lines[2] == "| getrf | n | 4 | 300 | 80 | 100 | 20 | - | 3.00 | - | - | - | - | - | - |"
    assert lines[3] == "| potrf | l | 8 | 500 | 90 | 400 | 72 | 60 | 1.25 | 500 | 90 | 400 | 72 | 60 | 1.25 |"
    assert len(lines) == 4


def test_lapack_table_vendor_is_not_the_cpu_or_the_dx_peer(tmp_path: Path) -> None:
    base = {"device": "x", "variant": "n", "mode": "array", "nrhs": 0, "batch": 10, "median_ms": 1, "gbs": 1, "ok": 1}
    rows = []
    for p in "ds":
        rows += [dict(base, prec=p, routine="getrf", n=4, method="shoal", mode="strided", gflops=300, pct_roof=80),
                 dict(base, prec=p, routine="getrf", n=4, method="cublas_getrf", gflops=100, pct_roof=20),
                 dict(base, prec=p, routine="getrf", n=4, method="openblas", gflops=5000, pct_roof=0),
                 dict(base, prec=p, routine="getrf", n=4, method="cusolverdx", mode="strided", gflops=4000,
                      pct_roof=90)]
    path = tmp_path / "lapack.csv"
    write_csv(path, rows)
    lines = run("lapack", path, "--routine", "getrf", "--sizes", "4")
    assert lines[2] == "| 4 | 300 | 100 | 3.0 | 80 | 300 | 100 | 3.0 | 80 |"


def test_lapack_table_shows_torch_beside_but_not_as_the_vendor(tmp_path: Path) -> None:
    base = {"device": "x", "variant": "l", "mode": "array", "nrhs": 0, "batch": 10, "median_ms": 1, "gbs": 1, "ok": 1}
    rows = []
    for p in "ds":
        rows += [dict(base, prec=p, routine="potrf", n=64, method="shoal", mode="strided", gflops=900, pct_roof=40),
                 dict(base, prec=p, routine="potrf", n=64, method="cusolver", gflops=300, pct_roof=10),
                 dict(base, prec=p, routine="potrf", n=64, method="torch", mode="strided", gflops=5000, pct_roof=90)]
    # a size only torch measured: shoal and vendor say "-", torch its figure
    rows.append(dict(base, prec="d", routine="potrf", n=2048, method="torch", mode="strided", gflops=7000, pct_roof=95))
    path = tmp_path / "lapack.csv"
    write_csv(path, rows)
    lines = run("lapack", path, "--routine", "potrf", "--variant", "l", "--sizes", "64,2048")
    assert lines[0] == "| n | d shoal | d vendor | d ratio | d % roof | d torch | s shoal | s vendor | s ratio | s % roof | s torch |"
    assert lines[2] == "| 64 | 900 | 300 | 3.0 | 40 | 5000 | 900 | 300 | 3.0 | 40 | 5000 |"
    assert lines[3] == "| 2048 | - | - | - | - | 7000 | - | - | - | - | - |"


def blocked_rows() -> list[dict[str, object]]:
    """A blocked-size LU run as bench/run_lapack_bench.py writes it: the C bench's rows and the
    torch peer's (mode strided, method torch)."""
    base = {"device": "x", "variant": "n", "batch": 1024, "median_ms": 1, "gbs": 1, "ok": 1}
    rows: list[dict[str, object]] = []
    for p in "ds":
        for n, nrhs in ((64, 1), (64, 16), (1024, 1), (1024, 256)):
            at = dict(base, prec=p, routine="gesv", n=n, nrhs=nrhs)
            rows += [dict(at, method="shoal", mode="strided", gflops=1000 + n, pct_roof=40.4),
                     dict(at, method="shoal", mode="array", gflops=900 + n, pct_roof=30),
                     dict(at, method="cublas_getrf+getrs", mode="array", gflops=500, pct_roof=20),
                     dict(at, method="torch", mode="strided", gflops=800 if nrhs == 1 else 2000, pct_roof=30)]
        at = dict(base, prec=p, routine="getrf", nrhs=0)
        rows += [dict(at, n=256, method="shoal", mode="strided", gflops=3000, pct_roof=10),
                 dict(at, n=256, method="cublas", mode="array", gflops=1000, pct_roof=3),
                 # a torch row that failed its check is shown so and is nobody's peer
                 dict(at, n=256, method="torch", mode="strided", gflops=9000, pct_roof=30, ok=0),
                 # a size the vendor refused: no vendor row; torch the only peer
                 dict(at, n=1024, method="shoal", mode="strided", gflops=6000, pct_roof=12),
                 dict(at, n=1024, method="torch", mode="strided", gflops=4000, pct_roof=8)]
    return rows


def test_peers_table_sets_shoal_beside_vendor_and_torch(tmp_path: Path) -> None:
    path = tmp_path / "lu.csv"
    write_csv(path, blocked_rows())
    lines = run("lapack", path, "--routine", "gesv", "--sizes", "64,1024", "--peers")
    assert lines[0] == ("| n | nrhs | d shoal | d vendor | d torch | d shoal / best peer | d % roof | s shoal | s vendor "
                        "| s torch | s shoal / best peer | s % roof |")
    # nrhs 1 then n/4 at each n; the best peer is the faster of vendor and torch
    assert lines[2] == "| 64 | 1 | 1064 | 500 | 800 | 1.33 | 40 | 1064 | 500 | 800 | 1.33 | 40 |"
    assert lines[3] == "| 64 | n/4 | 1064 | 500 | 2000 | 0.53 | 40 | 1064 | 500 | 2000 | 0.53 | 40 |"
    assert lines[5] == "| 1024 | n/4 | 2024 | 500 | 2000 | 1.01 | 40 | 2024 | 500 | 2000 | 1.01 | 40 |"
    assert len(lines) == 6
    lines = run("lapack", path, "--routine", "getrf", "--sizes", "256,512,1024", "--peers")
    assert lines[0] == ("| n | d shoal | d vendor | d torch | d shoal / best peer | d % roof | s shoal | s vendor "
                        "| s torch | s shoal / best peer | s % roof |")
    assert lines[2] == "| 256 | 3000 | 1000 | failed | 3.00 | 10 | 3000 | 1000 | failed | 3.00 | 10 |"
    assert lines[3] == "| 1024 | 6000 | - | 4000 | 1.50 | 12 | 6000 | - | 4000 | 1.50 | 12 |"   # n = 512: no row
    # getrf's table carries the published PyTorch figures, labelled so
    assert lines[-1].startswith("PyTorch's batched LU kernel (published, H100; d getrf, batch 1024;")
    assert lines[-1].endswith("Gflop/s: n = 256: 1800, n = 512: 3390, n = 1024: 6130.")


def test_rhs_classes_order_counts_then_n_over_4() -> None:
    sys.path.insert(0, str(ROOT / "bench"))
    import md_tables
    rows = [{"n": "64", "nrhs": "16"}, {"n": "4", "nrhs": "2"}, {"n": "64", "nrhs": "1"}, {"n": "8", "nrhs": "2"}]
    assert md_tables.rhs_classes(rows) == ["1", "2", "n/4"]
    assert md_tables.rhs_class({"n": "16", "nrhs": "4"}) == "4"   # n <= 32: a count, whatever it is
