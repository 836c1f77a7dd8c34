#!/usr/bin/env python3
"""PNG plots of a benchmark CSV: one per routine family (bench/plot_data.py lists them), each with
a log-log Gflop/s-vs-n panel per precision and variant (shoal as dispatched, shoal's own kernels,
every peer in the CSV, the roof) above a speedup panel (shoal / best peer); points where shoal's
call went to the vendor are ringed in red.

usage: bench/plot.py RESULTS.csv [--out-dir DIR] [--family NAME ...]
           writes DIR/<csv stem>-<family>.png (default DIR: the CSV's)
       bench/plot.py --sections   (make plots)
           the PNGs that docs/results.md links, for the runs in bench/results_doc.py's SECTIONS
Reads any of the four benchmarks' CSVs (run_bench, run_lapack_bench, run_blas2_bench,
run_spec_bench) and the tuner's trsm-syrk export. Needs matplotlib (bench/requirements-plot.txt);
without it, prints one line saying the plot was skipped and exits 0.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import md_tables  # noqa: E402
import plot_data  # noqa: E402
import plot_served  # noqa: E402


def _pyplot():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


def subtitle(csv_path: Path, rows: list[dict[str, str]]) -> str:
    """'<device>, <date>: <file>' from the report's header lines, else from the CSV."""
    device, date = rows[0].get("device", "") if rows else "", ""
    txt = csv_path.with_suffix(".txt")
    if txt.is_file():
        head = txt.read_text().splitlines()[:2]
        if len(head) == 2 and head[0].startswith("# shoal") and head[1].startswith("# device"):
            date = head[0].rsplit(",", 1)[-1].strip()
            device = head[1].split(": ", 1)[-1].split(" (")[0].split(";")[0]
    return ", ".join(x for x in (device, date, csv_path.name) if x)


def plot(csv_path: Path | str, out_dir: Path | str | None = None,
         only: list[str] | None = None) -> list[Path]:
    """Writes the family PNGs of one CSV (those named in only, else all); the paths written."""
    csv_path = Path(csv_path)
    plt = _pyplot()
    if plt is None:
        print(f"plot skipped: matplotlib is not importable (pip install -r bench/requirements-plot.txt, "
              f"then bench/plot.py {csv_path})")
        return []
    import plot_render  # needs matplotlib's objects only through plt

    rows = md_tables.read(str(csv_path))
    if not rows:
        print(f"plot skipped: {csv_path} has no rows")
        return []
    kind = plot_data.bench_kind(rows[0])
    fams = plot_data.families(rows, kind, plot_served.read_report(csv_path))
    if only:
        missing = set(only) - {f.name for f in fams}
        if missing:
            raise SystemExit(f"{csv_path} has no {', '.join(sorted(missing))} family")
        fams = [f for f in fams if f.name in only]
    out = Path(out_dir) if out_dir else csv_path.parent
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for fam in fams:
        png = out / plot_data.png_name(csv_path.stem, fam.name)
        written.append(plot_render.render(fam, png, subtitle(csv_path, rows), plt))
        print(f"wrote {png}")
    if not fams:
        print(f"plot skipped: nothing to plot in {csv_path}")
    return written


def after_run(csv_path: Path) -> list[Path]:
    """The runners' call once their CSV is written: the PNGs beside it. A plotting error is
    reported in one line and does not change the benchmark's exit status (its CSV is the result)."""
    try:
        return plot(csv_path)
    except Exception as e:  # noqa: BLE001
        print(f"plot failed ({type(e).__name__}: {e}); the CSV is kept: bench/plot.py {csv_path}", file=sys.stderr)
        return []


def sections() -> list[Path]:
    """The PNGs that docs/results.md links (bench/results_doc.py's SECTIONS)."""
    import results_doc
    wanted: dict[str, list[str]] = {}
    for s in results_doc.SECTIONS:
        wanted.setdefault(s.run, [])
        wanted[s.run] += [f for f in s.plots if f not in wanted[s.run]]
    written: list[Path] = []
    for run, fams in wanted.items():
        if fams:
            written += plot(results_doc.RESULTS / f"{run}.csv", only=fams)
    return written


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", type=Path, nargs="?")
    ap.add_argument("--out-dir", type=Path)
    ap.add_argument("--family", action="append", help="only this family (repeatable)")
    ap.add_argument("--sections", action="store_true", help="the PNGs of bench/results_doc.py's SECTIONS")
    args = ap.parse_args()
    if args.sections:
        sections()
        return 0
    if not args.csv:
        ap.error("give a CSV or --sections")
    if not args.csv.exists():
        sys.exit(f"{args.csv} does not exist")
    plot(args.csv, args.out_dir, args.family)
    return 0


if __name__ == "__main__":
    sys.exit(main())
