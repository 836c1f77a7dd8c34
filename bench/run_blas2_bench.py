#!/usr/bin/env python3
"""Run the level-2 / variable-size benchmark and keep its results.

Runs build/bin/shoal_blas2_bench (gemv, gemv_misaligned, trsv, gemv_vbatched, gemm_vbatched;
shoal vs cuBLAS; precisions s and d unless --prec says otherwise: any of s, d, c, z, where c and z
run gemv, gemv_misaligned and trsv with op C too, the CSV's prec column saying which), echoes its
tables while it runs, and keeps
  bench/results/<gpu>-<date>-blas2.csv   one row per measurement (the program's --csv output)
  bench/results/<gpu>-<date>-blas2.txt   the printed tables (copy bandwidth, compute peaks, notes)
  bench/results/<gpu>-<date>-blas2-{gemv,trsv,vbatched}.png   Gflop/s vs n and the speedup
                                         (bench/plot.py; skipped without matplotlib)
with <gpu> taken from the CSV's device column as bench/run_bench.py does ("NVIDIA H100 80GB HBM3"
-> h100). --out FILE puts the CSV at FILE and the .txt and PNGs beside it.

Every other argument goes to the program unchanged, e.g.
  bench/run_blas2_bench.py --quick --prec s --routine gemv,trsv --runs 9
  bench/run_blas2_bench.py --quick --prec cz --routine gemv,trsv
(`build/bin/shoal_blas2_bench --help` lists them). Exit status: the program's (0 all rows ok,
1 a row FAILED, 2 usage); 0 after a SKIP line where there is no CUDA device.
"""
import argparse
import datetime
import os
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from run_bench import SKIP_EXIT, device_of, gpu_slug  # noqa: E402  (bench/run_bench.py)
from run_lapack_bench import run_streaming  # noqa: E402  (bench/run_lapack_bench.py)

REPO_ROOT = pathlib.Path(__file__).resolve().parent.parent
PROGRAM = REPO_ROOT / "build" / "bin" / "shoal_blas2_bench"
RESULTS_DIR = REPO_ROOT / "bench" / "results"
SUFFIX = "blas2"


def parse_args(argv):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", type=pathlib.Path, default=PROGRAM,
                        help="the benchmark program (default: %(default)s)")
    parser.add_argument("--out", type=pathlib.Path,
                        help=f"CSV path (default: bench/results/<gpu>-<date>-{SUFFIX}.csv)")
    parser.add_argument("--no-plot", action="store_true", help="do not make the PNGs")
    ours, passed = parser.parse_known_args(argv)
    if passed and passed[0] == "--":
        passed = passed[1:]
    return ours, passed


def final_csv_path(args, tmp_csv):
    """Where the CSV goes: --out, or the results folder under the GPU's short name."""
    if args.out:
        return args.out
    today = datetime.date.today().isoformat()
    return RESULTS_DIR / f"{gpu_slug(device_of(tmp_csv))}-{today}-{SUFFIX}.csv"


def main(argv=None):
    args, passed = parse_args(sys.argv[1:] if argv is None else argv)
    if not args.bin.exists():
        sys.exit(f"{args.bin} is missing: build it first (make {PROGRAM.relative_to(REPO_ROOT)})")

    work_dir = args.out.parent if args.out else RESULTS_DIR
    work_dir.mkdir(parents=True, exist_ok=True)
    stem = f".shoal_blas2_bench.{os.getpid()}"
    tmp_csv, tmp_txt = work_dir / f"{stem}.csv", work_dir / f"{stem}.txt"
    command = [str(args.bin), "--csv", str(tmp_csv), *passed]
    print("+", " ".join(command), flush=True)
    status = run_streaming(command, tmp_txt)

    if status == SKIP_EXIT or not tmp_csv.exists():
        tmp_csv.unlink(missing_ok=True)
        tmp_txt.unlink(missing_ok=True)
        if status == SKIP_EXIT:
            print("SKIP: level-2 benchmark skipped: no CUDA device")
            return 0
        print(f"shoal_blas2_bench exited with {status} and wrote no CSV", file=sys.stderr)
        return status or 1

    csv_path = final_csv_path(args, tmp_csv)
    csv_path.parent.mkdir(parents=True, exist_ok=True)
    txt_path = csv_path.with_suffix(".txt")
    os.replace(tmp_csv, csv_path)
    os.replace(tmp_txt, txt_path)
    try:
        shown = csv_path.resolve().relative_to(REPO_ROOT)
    except ValueError:
        shown = csv_path
    print(f"wrote {shown} and {txt_path.name}")
    if not args.no_plot:
        import plot  # bench/plot.py
        plot.after_run(csv_path)
    if status:
        print(f"shoal_blas2_bench exited with {status}: rows FAILED (check column; reasons on stderr, "
              f"kept in {txt_path.name})", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
