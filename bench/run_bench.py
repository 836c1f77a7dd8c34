#!/usr/bin/env python3
"""Run the batched-GEMM benchmark and keep its results.

Runs build/bin/shoal_bench (built by `make bench`), shows its table as it goes, and writes
  bench/results/<gpu>-<date>.csv   every row (the program's --csv output),
  bench/results/<gpu>-<date>.txt   the printed table, with the measured copy bandwidth and peaks,
  bench/results/<gpu>-<date>-gemm.png   Gflop/s vs n and the speedup, square NN, shoal / own /
                                        cuBLAS / CPU / roof (bench/plot.py; skipped without matplotlib),
where <gpu> comes from the device name (e.g. "NVIDIA H100 80GB HBM3" -> h100). --out picks the CSV
path instead; the .txt and .png go next to it.

Options not listed below go to shoal_bench unchanged, e.g.
  bench/run_bench.py --quick --prec d --filter :nn: --runs 9
(see `build/bin/shoal_bench --help`). Precisions: --prec picks any of s, d, c, z (default sd,
the run `make bench` makes); the complex ones are asked for, e.g.
  bench/run_bench.py --prec sdcz            every precision in one run (one CSV)
  bench/run_bench.py --prec cz --quick      the complex rows alone, fewer sizes
where c and z time shoal_{c,z}gemm_* against cublas{C,Z}gemm(Strided)Batched in ops nn, nc, cn
and cc (c: the conjugate transpose), at 8 flops a complex multiply-add. A run without s or d
adds its precisions to the default name (<gpu>-<date>-cz.csv), so that it does not replace the
day's s/d results.
Exit status: shoal_bench's (0 all rows ok, 1 a failure); 0 with a SKIP line where there is no
CUDA device.
"""
import argparse
import csv
import datetime
import os
import pathlib
import re
import subprocess
import sys

REPO_ROOT = pathlib.Path(__file__).resolve().parent.parent
DEFAULT_BIN = REPO_ROOT / "build" / "bin" / "shoal_bench"
RESULTS_DIR = REPO_ROOT / "bench" / "results"
SKIP_EXIT = 77


def gpu_slug(device_name):
    """'NVIDIA H100 80GB HBM3' -> 'h100'; 'NVIDIA GeForce RTX 4090' -> 'rtx4090'."""
    m = re.search(r"\b(RTX|GTX)\s*(\w+)", device_name)
    if m:
        return (m.group(1) + m.group(2)).lower()
    m = re.search(r"\b([A-Z]{1,2}\d{2,4}[A-Za-z]?)\b", device_name)
    if m:
        return m.group(1).lower()
    slug = re.sub(r"[^a-z0-9]+", "-", device_name.lower()).strip("-")
    return slug or "gpu"


def device_of(csv_path):
    try:
        with open(csv_path, newline="") as f:
            for row in csv.DictReader(f):
                return row.get("device") or ""
    except OSError:
        pass
    return ""


def precisions(bench_args):
    """The --prec letters given to shoal_bench (its last --prec wins), or 'sd', its default."""
    value = "sd"
    for i, a in enumerate(bench_args):
        if a == "--prec" and i + 1 < len(bench_args):
            value = bench_args[i + 1]
    return "".join(p for p in "sdcz" if p in value)


def default_name(slug, date, precs):
    """<gpu>-<date>.csv, with the precisions appended where the run has neither s nor d."""
    suffix = "" if set(precs) & set("sd") else f"-{precs}"
    return f"{slug}-{date}{suffix}.csv"


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", type=pathlib.Path, default=DEFAULT_BIN,
                    help="benchmark program (default: %(default)s)")
    ap.add_argument("--out", type=pathlib.Path,
                    help="CSV path (default: bench/results/<gpu>-<date>.csv; -<precs> before .csv "
                         "for a run of c and/or z alone)")
    ap.add_argument("--no-plot", action="store_true", help="do not make the PNG")
    args, bench_args = ap.parse_known_args()
    if bench_args[:1] == ["--"]:
        bench_args = bench_args[1:]

    if not args.bin.exists():
        sys.exit(f"{args.bin} does not exist: run `make bench` (it builds it, then runs this)")

    out_dir = args.out.parent if args.out else RESULTS_DIR
    out_dir.mkdir(parents=True, exist_ok=True)
    tmp_csv = out_dir / f"shoal_bench-{os.getpid()}.csv.tmp"
    tmp_txt = out_dir / f"shoal_bench-{os.getpid()}.txt.tmp"
    cmd = [str(args.bin), "--csv", str(tmp_csv)] + bench_args
    print("+", " ".join(cmd), flush=True)
    with open(tmp_txt, "w") as log:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, bufsize=1, cwd=REPO_ROOT)
        for line in proc.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()
            log.write(line)
        rc = proc.wait()

    if rc == SKIP_EXIT:
        for p in (tmp_csv, tmp_txt):
            p.unlink(missing_ok=True)
        print("benchmark skipped: no CUDA device")
        return 0
    if not tmp_csv.exists():
        tmp_txt.unlink(missing_ok=True)
        print(f"shoal_bench exited with {rc} and wrote no CSV", file=sys.stderr)
        return rc or 1

    if args.out:
        csv_path = args.out
    else:
        date = datetime.date.today().isoformat()
        csv_path = RESULTS_DIR / default_name(gpu_slug(device_of(tmp_csv)), date, precisions(bench_args))
    txt_path = csv_path.with_suffix(".txt")
    os.replace(tmp_csv, csv_path)
    os.replace(tmp_txt, txt_path)
    print(f"wrote {csv_path.relative_to(REPO_ROOT) if csv_path.is_relative_to(REPO_ROOT) else csv_path}"
          f" and {txt_path.name}")

    if not args.no_plot:
        sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
        import plot  # bench/plot.py
        plot.after_run(csv_path)
    if rc != 0:
        print(f"shoal_bench exited with {rc}: some rows FAILED (see the check column)",
              file=sys.stderr)
    return rc


if __name__ == "__main__":
    sys.exit(main())
