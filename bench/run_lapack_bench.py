#!/usr/bin/env python3
"""Run the factorization benchmark and keep its results.

Runs build/bin/shoal_lapack_bench (built by `make bench`), shows its tables as it goes, and writes
  bench/results/<gpu>-<date>-lapack.csv   one row per measurement (the program's --csv output)
  bench/results/<gpu>-<date>-lapack.txt   the printed tables, with the measured copy bandwidth
  bench/results/<gpu>-<date>-lapack-{lu,cholesky,qr}.png   Gflop/s vs n and the speedup per family
                                          (bench/plot.py; skipped without matplotlib)
where <gpu> comes from the device name as in bench/run_bench.py ("NVIDIA H100 80GB HBM3" -> h100).
--out picks the CSV path instead; the .txt and PNGs go next to it.

Then, where PyTorch imports, bench/torch_lapack_peer.py measures torch.linalg's getrf, getri,
potrf, geqrf (torch.geqrf), getrs and gesv (method `torch`; getri as lu_solve of the identity from factors, see that
script) for the precisions, routines (those of the five selected), sizes, --nrhs, --runs,
--method-seconds and --peak-gflops of the same command, with the copy bandwidth the C bench
measured, and appends its rows to the same CSV and its lines to the same .txt: all methods in one
file. --no-torch skips it.

Precisions s and d unless --prec says otherwise: any of s, d, c, z (c and z: getrs with trans N,
T and C, Hermitian potrf/potrs/posv, the vendors' complex routines, no cuSolverDx peer).
Options not listed below go to shoal_lapack_bench unchanged, e.g.
  bench/run_lapack_bench.py --quick --prec d --routine getrf,potrf --runs 9
  bench/run_lapack_bench.py --quick --prec cz --no-cpu
  bench/run_lapack_bench.py --prec sd --routine getrf,gesv,getrs,getri --no-dx --no-cpu \
      --n 33,48,64,96,128,192,256,384,512,768,1024 --peak-gflops 51000,63000   (the blocked LU)
(see `build/bin/shoal_lapack_bench --help`). Exit status: shoal_lapack_bench's (0 all rows ok,
1 a row FAILED; 1 too where a torch row failed its check); 0 with a SKIP line where there is no
CUDA device.
"""
from __future__ import annotations

import argparse
import datetime
import importlib.util
import os
import pathlib
import re
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from run_bench import SKIP_EXIT, device_of, gpu_slug  # noqa: E402  (bench/run_bench.py)

REPO_ROOT = pathlib.Path(__file__).resolve().parent.parent
DEFAULT_BIN = REPO_ROOT / "build" / "bin" / "shoal_lapack_bench"
RESULTS_DIR = REPO_ROOT / "bench" / "results"
TORCH_PEER = REPO_ROOT / "bench" / "torch_lapack_peer.py"
TORCH_ROUTINES = ("getrf", "getri", "potrf", "geqrf", "getrs", "gesv")   # what the torch peer measures


def run_streaming(cmd, log_path, mode="w"):
    """Runs cmd, echoing its stdout and stderr (merged, in order) and copying them to log_path."""
    with open(log_path, mode) as log:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, bufsize=1, cwd=REPO_ROOT)
        for line in proc.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()
            log.write(line)
        return proc.wait()


def torch_peer_args(bench_args: list[str], report: str) -> list[str] | None:
    """The torch peer's options from the C bench's (the same precisions, routines, sizes,
    right-hand sides, runs, time cap and peak) and the copy bandwidth its report printed; None
    when no selected routine has a torch counterpart."""
    ap = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    ap.add_argument("--prec", default="sd")
    ap.add_argument("--routine", action="append")
    ap.add_argument("--n")
    ap.add_argument("--quick", action="store_true")
    passed = ("--nrhs", "--runs", "--method-seconds", "--peak-gflops")   # as they are
    for opt in passed:
        ap.add_argument(opt)
    known, _ = ap.parse_known_args(bench_args)
    chosen = {x for v in known.routine or [] for x in v.split(",")}
    routines = [r for r in TORCH_ROUTINES if not chosen or r in chosen]
    if not routines:
        return None
    out = ["--prec", known.prec, "--routine", ",".join(routines)]
    if known.n:
        out += ["--n", known.n]
    elif known.quick:
        out.append("--quick")
    for opt in passed:
        value = getattr(known, opt[2:].replace("-", "_"))
        if value:
            out += [opt, value]
    m = re.search(r"^# device-to-device copy: ([0-9.]+) GB/s", report, re.MULTILINE)
    if m:   # one roof for every method of the file
        out += ["--copy-gbs", m.group(1)]
    return out


def run_torch_peer(bench_args: list[str], csv_path: pathlib.Path, txt_path: pathlib.Path) -> int:
    """Runs the torch peer, appending to the C bench's CSV and report; 0 when it passed or had
    nothing to do (no torch, no routine of its own), else its exit status."""
    if importlib.util.find_spec("torch") is None:
        print("torch peer: skipped (PyTorch does not import here; --no-torch silences this)")
        return 0
    args = torch_peer_args(bench_args, txt_path.read_text())
    if args is None:
        print(f"torch peer: skipped (no selected routine has a torch counterpart: {', '.join(TORCH_ROUTINES)})")
        return 0
    cmd = [sys.executable, str(TORCH_PEER), "--csv", str(csv_path), "--append"] + args
    print("+", " ".join(cmd), flush=True)
    rc = run_streaming(cmd, txt_path, mode="a")
    if rc == SKIP_EXIT:
        return 0
    if rc != 0:
        print(f"torch peer exited with {rc}: some torch rows FAILED their check", file=sys.stderr)
    return rc


def main():
    # no abbreviations: "--n 64" is the C bench's, not a short "--no-plot" / "--no-torch"
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter, allow_abbrev=False)
    ap.add_argument("--bin", type=pathlib.Path, default=DEFAULT_BIN,
                    help="benchmark program (default: %(default)s)")
    ap.add_argument("--out", type=pathlib.Path,
                    help="CSV path (default: bench/results/<gpu>-<date>-lapack.csv)")
    ap.add_argument("--no-plot", action="store_true", help="do not make the PNGs")
    ap.add_argument("--no-torch", action="store_true",
                    help="do not run the torch peer (bench/torch_lapack_peer.py) after the C bench")
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
    torch_rc = 0 if args.no_torch else run_torch_peer(bench_args, tmp_csv, tmp_txt)

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
    return rc or torch_rc


if __name__ == "__main__":
    sys.exit(main())
