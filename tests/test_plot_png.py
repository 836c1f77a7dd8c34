"""bench/plot.py draws every committed kind of benchmark CSV into non-empty PNGs, and without
matplotlib says so in one line and exits 0. The drawing tests need matplotlib: they skip without
it, except where SHOAL_REQUIRE_PLOT is set (CI, .ci/run), where they fail."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
sys.path.insert(0, str(ROOT / "bench"))
import plot  # noqa: E402
import results_doc  # noqa: E402

# one committed CSV of each kind, and the families it must give
CSVS = {
    "h100-2026-11-22-gemm-mint": {"gemm"},
    "h100-2026-11-22-lapack": {"lu", "cholesky", "qr"},
    "h100-2026-11-23-blas2": {"gemv", "trsv", "vbatched"},
    "h100-2026-11-26-spec-tuned": {"trsm", "syrk"},
    "h100-2026-11-26-trsm-syrk-tuned": {"trsm", "syrk"},
}
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def need_matplotlib() -> None:
    if os.environ.get("SHOAL_REQUIRE_PLOT"):
        import matplotlib  # noqa: F401  (CI: fail, not skip)
    else:
        pytest.importorskip("matplotlib")


@pytest.mark.parametrize("run", sorted(CSVS))
def test_each_csv_kind_gives_a_png_per_family(run, tmp_path):
    need_matplotlib()
    written = plot.plot(RESULTS / f"{run}.csv", tmp_path)
    assert {p.name for p in written} == {f"{run}-{f}.png" for f in CSVS[run]}
    for png in written:
        data = png.read_bytes()
        assert data.startswith(PNG_MAGIC) and len(data) > 10_000, png


# sections without a curve to draw: the package-against-C-API table is ratios near 1 per call,
# the before/after cost table a list of rows, the QR-against-torch table a few fixed shapes at the
# batches issue 23's bar names (two batches, so no size axis to draw along), the gebrd table
# speedups over two peers at a handful of shapes (square and not) with batches that vary by size
TABLE_ONLY_KINDS = {"python", "cost", "qr-torch", "gebrd"}


def test_every_linked_plot_is_committed():
    """make plots writes what docs/results.md links; each section links at least one, except the
    table-only kinds."""
    table_only = {s.title for s in results_doc.SECTIONS if s.kind in TABLE_ONLY_KINDS}
    for s in results_doc.SECTIONS:
        assert s.plots or s.title in table_only, s.title
        for f in s.plots:
            assert (RESULTS / f"{s.run}-{f}.png").is_file(), f"{s.run}-{f}.png: run `make plots`"
    text = (ROOT / "docs" / "results.md").read_text()
    for part in text.split("\n## ")[1:]:
        if part.splitlines()[0] in table_only:
            continue
        assert "](../bench/results/" in part and ".png)" in part, part.splitlines()[0]


def test_without_matplotlib_the_plot_is_skipped_in_one_line(tmp_path):
    # a sitecustomize that hides matplotlib from the child interpreter
    (tmp_path / "sitecustomize.py").write_text("import sys\nsys.modules['matplotlib'] = None\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / "plot.py"), str(RESULTS / "h100-2026-11-26-spec-tuned.csv"),
                           "--out-dir", str(tmp_path)], capture_output=True, text=True, env=env, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("plot skipped: matplotlib") and len(proc.stdout.splitlines()) == 1
    assert not list(tmp_path.glob("*.png"))
