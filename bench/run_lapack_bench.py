#!/usr/bin/env python3
"""Run the factorization benchmark and keep its results.

Runs build/bin/shoal_lapack_bench (built by `make bench`), shows its tables as it goes, and writes
  bench/results/<gpu>-<date>-lapack.csv   one row per measurement (the program's --csv output)
  bench/results/<gpu>-<date>-lapack.txt   the printed tables, with the measured copy bandwidth
  bench/results/<gpu>-<date>-lapack-{lu,cholesky,qr}.png   Gflop/s vs n and the speedup per family
                                          (bench/plot.py; skipped without matplotlib)
where <gpu> comes from the device name as in bench/run_bench.py ("NVIDIA H100 80GB HBM3" -> h100).
--out picks the CSV path instead; the .txt and PNGs go next to it.

Precisions s and d unless --prec says otherwise: any of s, d, c, z (c and z: getrs with trans N,
T and C, Hermitian potrf/potrs/posv, the vendors' complex routines, no cuSolverDx peer).
Options not listed below go to shoal_lapack_bench unchanged, e.g.
  bench/run_lapack_bench.py --quick --prec d --routine getrf,potrf --runs 9
  bench/run_lapack_bench.py --quick --prec cz --no-cpu
(see `build/bin/shoal_lapack_bench --help`). Exit status: shoal_lapack_bench's (0 all rows ok,
1 a row FAILED); 0 with a SKIP line where there is no CUDA device.
"""
import argparse
import datetime
import os
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from run_bench import SKIP_EXIT, device_of, gpu_slug  # noqa: E402  (bench/run_bench.py)

REPO_ROOT = pathlib.Path(__file__).resolve().parent.parent
DEFAULT_BIN = REPO_ROOT / "build" / "bin" / "shoal_lapack_bench"
RESULTS_DIR = REPO_ROOT / "bench" / "results"


def run_streaming(cmd, log_path):
    """Runs cmd, echoing its stdout and stderr (merged, in order) and copying them to log_path."""
    with open(log_path, "w") as log:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, bufsize=1, cwd=REPO_ROOT)
        for line in proc.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()
            log.write(line)
        return proc.wait()


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", type=pathlib.Path, default=DEFAULT_BIN,
                    help="benchmark program (default: %(default)s)")
    ap.add_argument("--out", type=pathlib.Path,
                    help="CSV path (default: bench/results/<gpu>-<date>-lapack.csv)")
    ap.add_argument("--no-plot", action="store_true", help="do not make the PNGs")
    args, bench_args = ap.parse_known_args()
    if bench_args[:1] == ["--"]:
        bench_args = bench_args[1:]

    if not args.bin.exists():
        sys.exit(f"{args.bin} does not exist: run `make bench` (it builds it, then runs this)")

    out_dir = args.out.parent if args.out else RESULTS_DIR
    out_dir.mkdir(parents=True, exist_ok=True)
    tmp_csv = out_dir / f"shoal_lapack_bench-{os.getpid()}.csv.tmp"
    tmp_txt = out_dir / f"shoal_lapack_bench-{os.getpid()}.txt.tmp"
    cmd = [str(args.bin), "--csv", str(tmp_csv)] + bench_args
    print("+", " ".join(cmd), flush=True)
    rc = run_streaming(cmd, tmp_txt)

    if rc == SKIP_EXIT:
        for p in (tmp_csv, tmp_txt):
            p.unlink(missing_ok=True)
        print("SKIP: factorization benchmark skipped: no CUDA device")
        return 0
    if not tmp_csv.exists():
        tmp_txt.unlink(missing_ok=True)
        print(f"shoal_lapack_bench exited with {rc} and wrote no CSV", file=sys.stderr)
        return rc or 1

    if args.out:
        csv_path = args.out
    else:
        date = datetime.date.today().isoformat()
        csv_path = RESULTS_DIR / f"{gpu_slug(device_of(tmp_csv))}-{date}-lapack.csv"
    txt_path = csv_path.with_suffix(".txt")
    os.replace(tmp_csv, csv_path)
    os.replace(tmp_txt, txt_path)
    shown = csv_path.relative_to(REPO_ROOT) if csv_path.is_relative_to(REPO_ROOT) else csv_path
    print(f"wrote {shown} and {txt_path.name}")
    if not args.no_plot:
        import plot  # bench/plot.py
        plot.after_run(csv_path)
    if rc != 0:
        print(f"shoal_lapack_bench exited with {rc}: some rows FAILED (see the check column)",
              file=sys.stderr)
    return rc


if __name__ == "__main__":
    sys.exit(main())
