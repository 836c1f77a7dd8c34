#!/usr/bin/env python3
"""Plot a shoal_bench CSV: Gflop/s vs n for square NN strided batched GEMM, one panel per
precision, with shoal (dispatched), shoal's own kernels, cuBLAS, the roof and the CPU baseline.

usage: bench/plot.py RESULTS.csv [--out PLOT.png]   (default: the CSV path with .png)
Needs matplotlib; without it, says so and exits 0.
"""
import argparse
import csv
import math
import pathlib
import sys

SERIES = [  # column, label, style
    ("shoal_gflops", "shoal", dict(marker="o", linewidth=2)),
    ("own_gflops", "shoal own kernels", dict(marker="s", linestyle="--")),
    ("cublas_gflops", "cuBLAS", dict(marker="^")),
    ("roof_gflops", "roof", dict(color="black", linestyle=":")),
    ("cpu_gflops", "OpenBLAS + OpenMP", dict(marker=".", color="gray", linestyle="-.")),
]


def _num(s):
    try:
        v = float(s)
    except (TypeError, ValueError):
        return math.nan
    return v


def load(csv_path, mode="strided", trans="nn"):
    """{prec: sorted [(n, row)]} for square rows of one mode and transpose pair."""
    out = {}
    with open(csv_path, newline="") as f:
        for row in csv.DictReader(f):
            if row["mode"] != mode or row["trans"] != trans:
                continue
            if not (row["m"] == row["n"] == row["k"]):
                continue
            out.setdefault(row["prec"], []).append((int(row["n"]), row))
    for rows in out.values():
        rows.sort(key=lambda t: t[0])
    return out


def plot(csv_path, png_path=None):
    csv_path = pathlib.Path(csv_path)
    png_path = pathlib.Path(png_path) if png_path else csv_path.with_suffix(".png")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot skipped: matplotlib is not importable (pip install matplotlib, then run "
              f"bench/plot.py {csv_path})")
        return None
    data = load(csv_path)
    precs = [p for p in ("s", "d") if p in data]
    if not precs:
        print(f"plot skipped: {csv_path} has no square nn strided rows")
        return None
    first = data[precs[0]][0][1]
    fig, axes = plt.subplots(1, len(precs), figsize=(6.5 * len(precs), 5), squeeze=False)
    for ax, p in zip(axes[0], precs):
        ns = [n for n, _ in data[p]]
        for col, label, style in SERIES:
            ys = [_num(r.get(col)) for _, r in data[p]]
            if all(math.isnan(y) for y in ys):
                continue
            ax.plot(ns, ys, label=label, **style)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xticks(ns)
        ax.set_xticklabels([str(n) for n in ns], fontsize=7)
        ax.set_xlabel("n (m = n = k)")
        ax.set_ylabel("Gflop/s")
        ax.set_title(f"{'single' if p == 's' else 'double'} precision, NN strided batched GEMM")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle(f"{first.get('device', '')}: copy {_num(first.get('copy_gbs')):.0f} GB/s, "
                 f"roof = min(peak, copy x flops/bytes)", fontsize=10)
    fig.tight_layout()
    fig.savefig(png_path, dpi=120)
    plt.close(fig)
    print(f"wrote {png_path}")
    return png_path


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", type=pathlib.Path)
    ap.add_argument("--out", type=pathlib.Path)
    args = ap.parse_args()
    if not args.csv.exists():
        sys.exit(f"{args.csv} does not exist")
    plot(args.csv, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
