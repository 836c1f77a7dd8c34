"""The benchmark plots' logic on small synthetic rows: series and roof extraction, speedups, and
which points were served by the vendor (bench/plot_data.py, bench/plot_served.py). No matplotlib."""
import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import plot_data  # noqa: E402
import plot_served  # noqa: E402
from plot_data import Panel, Point, Series  # noqa: E402


def by_label(panel: Panel) -> dict[str, Series]:
    return {s.label: s for s in panel.series}


def gemm_row(prec: str, mode: str, n: int, shoal: float, kernel: str, **kw: str) -> dict[str, str]:
    row = dict(device="GPU", prec=prec, mode=mode, trans="nn", m=str(n), n=str(n), k=str(n), shoal_gflops=str(shoal),
               own_gflops="90", cublas_gflops="50", cpu_gflops="", roof_gflops="200", kernel=kernel)
    row.update(kw)
    return row


def test_bench_kind_from_each_header():
    assert plot_data.bench_kind(["device", "shoal_gflops", "kernel"]) == "gemm"
    assert plot_data.bench_kind(["prec", "routine", "nrhs", "method", "pct_roof"]) == "lapack"
    assert plot_data.bench_kind(["prec", "routine", "case", "method", "mode"]) == "blas2"
    assert plot_data.bench_kind(["routine", "form", "method", "served_by", "roof_pct"]) == "spec"
    assert plot_data.bench_kind(["routine", "own_kernel", "own_gflops", "vendor_ms"]) == "tuned"
    with pytest.raises(ValueError):
        plot_data.bench_kind(["a", "b"])


def test_gemm_vendor_points_follow_the_kernel_column():
    rows = [gemm_row("s", "strided", 8, 100, "shoal_sgemm_x"), gemm_row("s", "strided", 64, 60, "cublas"),
            gemm_row("s", "strided", 8, 1, "shoal_sgemm_x", trans="nt"),        # not NN: left out
            gemm_row("s", "strided", 16, 1, "shoal_sgemm_x", m="8")]             # not square: left out
    (fam,) = plot_data.families(rows, "gemm")
    (panel,) = fam.panels
    shoal = by_label(panel)["shoal (as dispatched)"]
    assert [(p.n, p.gflops, p.vendor) for p in shoal.points] == [(8, 100, False), (64, 60, True)]
    assert [p.gflops for p in by_label(panel)["roof"].points] == [200, 200]
    assert "OpenBLAS + OpenMP (CPU)" not in by_label(panel)      # empty column: no series


def test_is_vendor_names():
    assert plot_served.is_vendor("cublas") and plot_served.is_vendor("vendor") and plot_served.is_vendor("cusolver")
    assert not plot_served.is_vendor("shoal_dgetrf_serial_n_n2") and not plot_served.is_vendor("driver")
    assert not plot_served.is_vendor("") and not plot_served.is_vendor(None)


def lapack_row(method: str, mode: str, n: int, gflops: float, pct: float, routine: str = "getrf",
               variant: str = "n") -> dict[str, str]:
    return dict(device="GPU", prec="d", routine=routine, variant=variant, mode=mode, n=str(n), nrhs="0", batch="1000",
                method=method, median_ms="1", gflops=str(gflops), gbs="1", pct_roof=str(pct), ok="1")


LAPACK_REPORT = """# shoal_lapack_bench 0.1.0, 2026-11-22 18:59
# device 0: GPU X (cc 9.0)

## d getrf: shoal_dgetrf_strided_batched / _batched vs cublasDgetrfBatched
   n nrhs    batch | shoal:str shoal:arr    vendor |    s/v    a/v | s%roof | kernel (strided [array]) / notes
   2    0  4000000 |     307.1     267.7     266.9 |   1.15   1.00 |   65.7 | shoal_dgetrf_serial_n_n2 [cublas]
   4    0  4000000 |     307.1     267.7     266.9 |   1.15   1.00 |   65.7 | shoal_dgetrf_serial_n_n4; batch limited by memory
## d potrf uplo=U: shoal_dpotrf_strided_batched / _batched vs cusolverDnDpotrfBatched
   n nrhs    batch | shoal:str shoal:arr    vendor |    s/v    a/v | s%roof | kernel (strided [array]) / notes
   2    0  4000000 |     128.4     127.5       0.5 | 255.31 253.59 |   55.1 | cusolver [shoal_dpotrf_regs_u_n2]
""".splitlines()


def test_lapack_report_served_by():
    served = plot_served.parse_report(LAPACK_REPORT)
    look = lambda routine, variant, n, mode: plot_served.lookup(  # noqa: E731
        served, "d", routine, variant, n, n, "0", "shoal", mode)
    assert look("getrf", "n", 2, "strided") == "shoal_dgetrf_serial_n_n2"
    assert look("getrf", "n", 2, "array") == "cublas"
    assert look("getrf", "n", 4, "array") == "shoal_dgetrf_serial_n_n4"     # one kernel names both forms
    assert look("potrf", "u", 2, "strided") == "cusolver"
    assert look("potrf", "l", 2, "strided") == ""                          # no such table


def test_lapack_series_roof_and_vendor_marks():
    rows = [lapack_row("shoal", "strided", 2, 300, 60), lapack_row("shoal", "array", 2, 250, 50),
            lapack_row("cublas", "array", 2, 150, 30), lapack_row("openblas", "array", 2, 1, 0.2),
            lapack_row("shoal", "strided", 4, 400, 50), lapack_row("shoal", "array", 4, 390, 48.75),
            lapack_row("cublas", "array", 4, 800, 100)]
    fams = {f.name: f for f in plot_data.families(rows, "lapack", plot_served.parse_report(LAPACK_REPORT))}
    assert set(fams) == {"lu"}
    (panel,) = fams["lu"].panels
    s = by_label(panel)
    assert set(s) == {"shoal, strided", "shoal, pointer arrays", "cuBLAS", "OpenBLAS (CPU)", "roof"}
    assert [p.vendor for p in s["shoal, pointer arrays"].points] == [True, False]
    assert not any(p.vendor for p in s["shoal, strided"].points)
    # roof = Gflop/s x 100 / % of roof
    assert [p.gflops for p in s["roof"].points] == pytest.approx([500, 800])
    ratios = {r.label: [(p.n, p.gflops, p.vendor) for p in r.points] for r in plot_data.speedups(panel)}
    assert ratios["shoal, strided"] == [(2, 2.0, False), (4, 0.5, False)]
    assert ratios["shoal, pointer arrays"][0] == (2, pytest.approx(250 / 150), True)


def test_roof_of_needs_both_numbers():
    assert plot_data.roof_of(50, 25) == 200
    assert math.isnan(plot_data.roof_of(50, 0)) and math.isnan(plot_data.roof_of(math.nan, 10))


BLAS2_REPORT = """## s gemv trans=T: shoal_sgemv_strided_batched / _batched / own (vendor dispatch off) vs cublas
    m     n    batch | shoal:str shoal:arr shoal:own | check  | kernels / notes
  256   256     1000 |    1423.7    1309.5    1416.8 | ok     | str=cublas arr=shoal_sgemv_stream_t own=shoal_sgemv_own_t
## s trsv uplo=U trans=T diag=N: shoal_strsv_strided_batched / _batched vs cublasStrsmBatched (left, nrhs 1)
    m     n    batch | shoal:str shoal:arr    cublas | check  | kernels / notes
    4     4  2912712 |     465.9     384.5      35.5 | ok     | str=shoal_strsv_ut arr=cublas
## s gemv_vbatched trans=N: shoal_sgemv_vbatched vs fixed-size shoal_sgemv_batched / _strided_batched
    N dist       batch |  vbatched fixed:arr fixed:str | check  | kernels / notes
  128 equal       3151 |    1366.1    1355.7    1335.5 | ok     | vb=shoal_sgemv_vb fixed arr=cublas str=shoal_sgemv_x
## s gemm_vbatched NN: shoal_sgemm_vbatched vs fixed-size shoal_sgemm_batched and cublasSgemmGroupedBatched
    N dist       batch groups |  vbatched fixed:arr cublas:grp | check  | kernels / notes
   32 equal      17067      1 |   11315.4   12386.0     1754.2 | ok     | fixed=cublas
   32 uniform    48885     32 |    5244.9         -      580.3 | ok     | 
""".splitlines()


def test_blas2_report_served_by():
    served = plot_served.parse_report(BLAS2_REPORT)
    look = lambda *k: plot_served.lookup(served, "s", *k)  # noqa: E731
    assert look("gemv", "t", 256, 256, "packed", "shoal", "strided") == "cublas"
    assert look("gemv", "t", 256, 256, "packed", "shoal", "array") == "shoal_sgemv_stream_t"
    assert look("gemv", "t", 256, 256, "packed", "shoal_own", "strided") == "shoal_sgemv_own_t"
    assert look("trsv", "ut", 4, 4, "packed", "shoal", "array") == "cublas"
    assert look("gemv_vbatched", "n", 128, 128, "equal", "shoal", "vbatched") == "shoal_sgemv_vb"
    assert look("gemv_vbatched", "n", 128, 128, "equal", "shoal_fixed", "array") == "cublas"
    assert look("gemv_vbatched", "n", 128, 128, "equal", "shoal_fixed", "strided") == "shoal_sgemv_x"
    assert look("gemm_vbatched", "nn", 32, 32, "equal", "shoal_fixed", "array") == "cublas"
    assert look("gemm_vbatched", "nn", 32, 32, "uniform", "shoal", "vbatched") == ""


def blas2_row(routine: str, variant: str, case: str, n: int, method: str, mode: str, gflops: float,
              pct: float = 50) -> dict[str, str]:
    return dict(device="GPU", prec="s", routine=routine, variant=variant, case=case, m=str(n), n=str(n), batch="1",
                method=method, mode=mode, median_ms="1", gflops=str(gflops), gbs="1", pct_roof=str(pct), ok="1")


def test_vbatched_speedups_compare_within_a_case():
    rows = [blas2_row("gemm_vbatched", "nn", "equal", 32, "shoal", "vbatched", 100),
            blas2_row("gemm_vbatched", "nn", "equal", 32, "shoal_fixed", "array", 200),
            blas2_row("gemm_vbatched", "nn", "equal", 32, "cublas_grouped", "grouped", 50),
            blas2_row("gemm_vbatched", "nn", "uniform", 32, "shoal", "vbatched", 60),
            blas2_row("gemm_vbatched", "nn", "uniform", 32, "cublas_grouped", "grouped", 10)]
    (fam,) = plot_data.families(rows, "blas2", plot_served.parse_report(BLAS2_REPORT))
    assert fam.name == "vbatched"
    (panel,) = fam.panels
    fixed = by_label(panel)["shoal fixed-size, pointer arrays (equal)"]
    assert [p.vendor for p in fixed.points] == [True]
    ratios = {r.label: [p.gflops for p in r.points] for r in plot_data.speedups(panel)}
    assert ratios == {"shoal vbatched, equal": [0.5], "shoal vbatched, uniform": [6.0]}


def test_spec_vendor_marks_and_roof():
    def row(method: str, n: int, served_by: str, gflops: float, pct: float) -> dict[str, str]:
        return dict(routine="trsm", prec="d", form="array", variant="l", n=str(n), batch="1", method=method,
                    served_by=served_by, median_ms="1", gflops=str(gflops), gbs="1", roof_pct=str(pct), error="0")
    rows = [row("shoal", 2, "shoal_dtrsm_k", 10, 10), row("shoal_own", 2, "shoal_dtrsm_k", 10, 10),
            row("peer", 2, "peer", 20, 20), row("shoal", 64, "vendor", 300, 30),
            row("shoal_own", 64, "driver", 200, 20), row("peer", 64, "peer", 300, 30)]
    (fam,) = plot_data.families(rows, "spec")
    (panel,) = fam.panels
    s = by_label(panel)
    assert [p.vendor for p in s["shoal (as dispatched)"].points] == [False, True]
    assert not any(p.vendor for p in s["shoal own kernels and drivers"].points)   # own never goes to the vendor
    assert [p.gflops for p in s["roof"].points] == [100, 1000]
    (ratio,) = plot_data.speedups(panel)
    assert [(p.gflops, p.vendor) for p in ratio.points] == [(0.5, False), (1.0, True)]


def test_speedups_without_a_peer_are_empty_and_own_stands_in_for_shoal():
    own = Series("own", "own", [Point(2, 10.0)])
    assert plot_data.speedups(Panel("t", [own])) == []
    (r,) = plot_data.speedups(Panel("t", [own, Series("peer", "peer", [Point(2, 5.0), Point(4, 1.0)])]))
    assert [(p.n, p.gflops) for p in r.points] == [(2, 2.0)]


def test_png_names_follow_the_csv():
    assert plot_data.png_name("h100-2026-11-23-blas2", "gemv") == "h100-2026-11-23-blas2-gemv.png"
