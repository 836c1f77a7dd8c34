#!/usr/bin/env python3
"""Runs build/bin/shoal_spec_bench for every spec routine and precision and writes the CSV and a
Markdown table of shoal against the peer (ratio = peer time / shoal time; roof = the share of
the copy bandwidth of the same run that the call's bytes take), and beside the CSV the PNGs
<stem>-trsm.png, <stem>-syrk.png and <stem>-herk.png (bench/plot.py; skipped without matplotlib).
ormqr and orgqr (m = n = k) have no peer in the program (cuBLAS has neither); PyTorch's
torch.ormqr and torch.linalg.householder_product, which loop cuSOLVER over the matrices, are not
methods of this program yet."""
from __future__ import annotations

import argparse
import csv
import io
import subprocess
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIZES = ["2", "4", "8", "16", "32", "64", "128", "256", "512", "1024"]
# the form the peer takes: cuBLAS's batched TRSM takes pointer arrays; the peer of SYRK and HERK,
# the full product by strided batched GEMM, takes strided operands
RUNS = [("trsm", "array"), ("syrk", "strided"), ("herk", "strided"), ("ormqr", "strided"), ("orgqr", "strided"),
        ("gebrd", "strided")]
# the largest n a routine serves, where below 1024 (spec/routines/<r>.toml's kernels rule)
MAX_N = {"gebrd": 512}


def table(rows: list[dict]) -> str:
    out = ["| routine | p | variant | n | batch | shoal Gflop/s | served by | peer Gflop/s | x peer | "
           "shoal % roof | own (no vendor) Gflop/s |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    key = lambda r: (r["routine"], r["prec"], r["variant"], int(r["n"]))  # noqa: E731
    groups: dict = {}
    for r in rows:
        groups.setdefault(key(r), {})[r["method"]] = r
    for k in sorted(groups):
        g = groups[k]
        s, p, o = g.get("shoal"), g.get("peer"), g.get("shoal_own")
        if not s:
            continue
        ratio = float(p["median_ms"]) / float(s["median_ms"]) if p else float("nan")
        out.append(f"| {k[0]} | {k[1]} | {k[2]} | {k[3]} | {s['batch']} | {float(s['gflops']):.0f} | "
                   f"{s['served_by']} | {float(p['gflops']) if p else float('nan'):.0f} | {ratio:.2f} | "
                   f"{float(s['roof_pct']):.0f} | {float(o['gflops']) if o else float('nan'):.0f} |")
    return "\n".join(out) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "spec.csv"))
    ap.add_argument("--sizes", default=",".join(SIZES))
    ap.add_argument("--precisions", default="s,d", help="comma-separated (s,d,c,z); each routine runs "
                    "those it lists")
    ap.add_argument("--routines", default=",".join(r for r, _ in RUNS),
                    help="comma-separated subset of the spec routines benchmarked (default: all)")
    ap.add_argument("--no-plot", action="store_true", help="do not make the PNGs")
    args = ap.parse_args()
    chosen = args.routines.split(",")
    unknown = set(chosen) - {r for r, _ in RUNS}
    if unknown:
        ap.error(f"--routines: {', '.join(sorted(unknown))} not among {', '.join(r for r, _ in RUNS)}")
    exe = ROOT / "build" / "bin" / "shoal_spec_bench"
    rows: list[dict] = []
    notes: list[str] = []   # the program's "# <device>, copy bandwidth ..." lines
    for routine, form in (run for run in RUNS if run[0] in chosen):
        # the precisions the routine lists (search_space/<r>.toml): herk has only c and z
        listed = tomllib.loads((ROOT / "search_space" / f"{routine}.toml").read_text())["routine"]["precisions"]
        for p in (p for p in args.precisions.split(",") if p in listed):
            sizes = [x for x in args.sizes.split(",") if int(x) <= MAX_N.get(routine, 1024)]
            proc = subprocess.run([str(exe), routine, p, form, *sizes], capture_output=True, text=True)
            sys.stderr.write(proc.stderr)
            notes += [ln for ln in proc.stderr.splitlines() if ln.startswith("# ")]
            if proc.returncode != 0:
                print(f"{routine} {p}: exit {proc.returncode}", file=sys.stderr)
                continue
            rows += list(csv.DictReader(io.StringIO(proc.stdout)))
    if not rows:
        return 1
    out = Path(args.out)
    with out.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    md = table(rows)
    out.with_suffix(".md").write_text(md)
    # the report beside the CSV, headed as the other benchmarks head theirs (bench/results_doc.py
    # reads the date and the device from its first two lines)
    device = notes[0][2:].split(",")[0] if notes else "unknown device"
    head = [f"# shoal_spec_bench, {time.strftime('%Y-%m-%d %H:%M', time.gmtime())}", f"# device 0: {device}"]
    out.with_suffix(".txt").write_text("\n".join(head + notes) + "\n\n" + md)
    print(md)
    if not args.no_plot:
        import plot  # bench/plot.py (this directory is on sys.path: the script's own)
        plot.after_run(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
