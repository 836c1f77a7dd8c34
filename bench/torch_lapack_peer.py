#!/usr/bin/env python3
"""PyTorch as a peer of the factorization benchmark (bench/lapack_bench.c), method `torch`.

Measures, on one GPU, batched
  potrf   torch.linalg.cholesky_ex (lower, and upper with upper=True)   variants l, u
  getrf   torch.linalg.lu_factor_ex (partial pivoting)                   variant n
in s, d, c, z (float32, float64, complex64, complex128) on strided (packed, contiguous) batches,
with the C bench's rules so that its rows sit beside the C bench's in one CSV:
  batch   clamp(4 x L2 / (n^2 x element bytes) + 1, 2048, 4e6), exactly 1024 from n = 256, then
          capped so that this script's tensors (the pristine input, the working input, the
          output, pivots, info) stay below 40 GB and 70% of the free memory;
  inputs  made on the GPU: potrf symmetric (Hermitian in c, z) and strictly diagonally dominant,
          hence positive definite, no zero entry (off-diagonal parts uniform in [-1, 1]; diagonal
          n + |u|, 2n + |u| in c, z, as bench_fill_spd); getrf uniform in [-1, 1], never 0 (the
          C bench's getrf data);
  timing  CUDA events around the call alone; before every run the input is restored from its
          pristine copy outside the events (the C bench does the same, so every method starts
          from the same cache state); warm-up by time (--warmup-s, at least one call), then the
          median of --runs runs;
  flops   LAPACK Working Note 41 (potrf n^3/3 + n^2/2 + n/6, getrf 2n^3/3 - n^2/2 + 5n/6), x4
          in c and z (a complex multiply-add is 8 real flops);
  roof    copy GB/s x flops / bytes, bytes = A read + written (2 n^2 elements), the copy
          bandwidth measured here as the C bench does (device-to-device copy of up to 1 GiB,
          median of >= 9) unless --copy-gbs gives it; --peak-gflops S,D caps it as in the C bench;
  check   before timing: info == 0 for every matrix and, on 16 sampled matrices (2 from n = 256)
          spread over the batch, ||A - L L^H||_1 / (n ||A||_1 eps) <= 30 (||P A - L U|| for LU),
          computed on the GPU in double precision; eps 2^-24 (s, c) or 2^-53 (d, z).
The _ex forms are the ones timed: torch.linalg.cholesky and lu_factor check info on the host,
a device synchronization per call that would be timed with the factorization.

Output: a table on stdout (no '|' in its rows: the report parser of bench/plot_served.py reads
the C bench's tables from the same .txt) and, with --csv, rows with the C bench's columns
  device,prec,routine,variant,mode,n,nrhs,batch,method,median_ms,gflops,gbs,pct_roof,ok
(mode strided, method torch, nrhs 0); --append adds them to an existing CSV without a header.
bench/run_lapack_bench.py runs this after the C bench (--no-torch skips it).

Exit status: 0 every row ok, 1 a row failed its check, 2 usage, 77 no torch or no CUDA device
("SKIP: ..." printed).
"""
from __future__ import annotations

import argparse
import csv
import math
import statistics
import sys
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

SKIP_EXIT = 77

# The C bench's constants (bench/lapack_bench.c): keep them equal.
MIN_BATCH = 2048
MAX_BATCH = 4_000_000
BIG_N = 256             # from here the batch is BIG_BATCH exactly
BIG_BATCH = 1024
MEM_CAP_BYTES = 40e9
MAX_N = 1024
N_SAMPLES = 16
N_SAMPLES_BIG = 2       # from n = BIG_N, as the C bench (its host check is O(n^3))
ERROR_LIMIT = 30.0      # ORACLE_ERROR_LIMIT
EPS = {"s": 2.0 ** -24, "d": 2.0 ** -53, "c": 2.0 ** -24, "z": 2.0 ** -53}
ELEM_BYTES = {"s": 4, "d": 8, "c": 8, "z": 16}
ROUTINES = ("getrf", "potrf")
VARIANTS = {"getrf": "n", "potrf": "lu"}
CSV_COLUMNS = ("device", "prec", "routine", "variant", "mode", "n", "nrhs", "batch", "method", "median_ms",
               "gflops", "gbs", "pct_roof", "ok")
FALLBACK_L2 = 50 << 20  # H100's L2, where neither torch nor CuPy tells it


# --- the C bench's arithmetic (no torch needed: tests/test_torch_lapack_peer.py) ---------------

def is_complex(prec: str) -> bool:
    return prec in "cz"


def flops_per_problem(routine: str, n: int, prec: str) -> float:
    """LAWN 41 counts, x4 in c and z."""
    if routine == "potrf":
        f = n ** 3 / 3.0 + n * n / 2.0 + n / 6.0
    else:
        f = 2.0 * n ** 3 / 3.0 - n * n / 2.0 + 5.0 * n / 6.0
    return f * (4.0 if is_complex(prec) else 1.0)


def roof_bytes_per_problem(n: int, prec: str) -> float:
    """A read and written, as the C bench counts getrf and potrf (pivots and info left out)."""
    return 2.0 * n * n * ELEM_BYTES[prec]


def roof_gflops(routine: str, n: int, prec: str, copy_gbs: float, peak: tuple[float, float] | None) -> float:
    """Memory roof, capped by the compute peak of the real type (c: S, z: D) where given."""
    roof = copy_gbs * flops_per_problem(routine, n, prec) / roof_bytes_per_problem(n, prec)
    if peak:
        cap = peak[1] if prec in "dz" else peak[0]
        roof = min(roof, cap)
    return roof


def alloc_bytes_per_problem(n: int, prec: str) -> int:
    """What this script holds per matrix: pristine input, working input, output; pivots, info."""
    return 3 * n * n * ELEM_BYTES[prec] + 4 * (n + 1)


def choose_batch(n: int, prec: str, l2_bytes: int, free_bytes: int) -> tuple[int, bool]:
    """(batch, limited): the C bench's rule; limited when the memory cap cut it."""
    if n >= BIG_N:
        b = BIG_BATCH
    else:
        b = min(max(4 * l2_bytes // (n * n * ELEM_BYTES[prec]) + 1, MIN_BATCH), MAX_BATCH)
    room = min(0.7 * free_bytes, MEM_CAP_BYTES)
    fit = int(room // alloc_bytes_per_problem(n, prec))
    return min(b, fit), b > fit


def sample_indices(batch: int, n: int) -> list[int]:
    """The C bench's samples: spread over the batch, first and last included."""
    count = N_SAMPLES_BIG if n >= BIG_N else N_SAMPLES
    return [int(k * (batch - 1) / (count - 1) + 0.5) for k in range(count)]


def parse_sizes(text: str) -> list[int]:
    sizes = [int(x) for x in text.split(",") if x.strip()]
    if not sizes or any(n < 1 or n > MAX_N for n in sizes):
        raise argparse.ArgumentTypeError(f"sizes must be 1..{MAX_N}: {text!r}")
    return sizes


def parse_peak(text: str) -> tuple[float, float]:
    try:
        s, d = (float(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--peak-gflops takes S,D: {text!r}") from None
    if not (s > 0 and d > 0 and math.isfinite(s) and math.isfinite(d)):
        raise argparse.ArgumentTypeError(f"--peak-gflops takes two positive numbers: {text!r}")
    return s, d


def parse_routines(values: Sequence[str] | None) -> list[str]:
    if not values:
        return list(ROUTINES)
    names = {x.strip() for v in values for x in v.split(",") if x.strip()}
    unknown = names - set(ROUTINES)
    if unknown:
        raise argparse.ArgumentTypeError(f"torch peer routines are {', '.join(ROUTINES)}: not {sorted(unknown)}")
    return [r for r in ROUTINES if r in names]


def sizes_of(args: argparse.Namespace) -> list[int]:
    """--n, else the C bench's defaults: 2..32, --quick 2, 4, 8, 16, 32."""
    if args.n:
        return args.n
    return [2, 4, 8, 16, 32] if args.quick else list(range(2, 33))


def fmt(v: float) -> str:
    """The C bench's %.6g, empty for a number that does not exist."""
    return format(v, ".6g") if math.isfinite(v) else ""


@dataclass
class Result:
    prec: str
    routine: str
    variant: str
    n: int
    batch: int
    limited: bool
    ms: float
    resid: float
    info_bad: int
    ok: bool

    def gflops(self) -> float:
        return flops_per_problem(self.routine, self.n, self.prec) * self.batch / (self.ms * 1e6)

    def gbs(self) -> float:
        return roof_bytes_per_problem(self.n, self.prec) * self.batch / (self.ms * 1e6)


def csv_row(device: str, r: Result, roof: float) -> list[str]:
    g = r.gflops() if math.isfinite(r.ms) else math.nan
    gbs = r.gbs() if math.isfinite(r.ms) else math.nan
    return [device, r.prec, r.routine, r.variant, "strided", str(r.n), "0", str(r.batch), "torch", fmt(r.ms),
            fmt(g), fmt(gbs), fmt(100.0 * g / roof), "1" if r.ok else "0"]


def open_csv(path: Path, append: bool) -> TextIO:
    """The CSV, with the header unless rows are appended to one that has it."""
    new = not (append and path.exists() and path.stat().st_size > 0)
    f = open(path, "a" if append else "w", newline="")
    if new:
        f.write(",".join(CSV_COLUMNS) + "\n")
    return f


def write_row(f: TextIO, device: str, r: Result, roof: float) -> None:
    """One row, flushed (a run cut short keeps what it measured). The C bench writes the device
    name quoted, which csv.QUOTE_MINIMAL would not: written the same way by hand (device names
    hold no quote), the rest through the csv module."""
    cells = csv_row(device, r, roof)
    f.write(f'"{cells[0]}",')
    csv.writer(f, lineterminator="\n").writerow(cells[1:])
    f.flush()


# --- the GPU part (torch imported inside main) --------------------------------------------------

def dtype_of(torch: Any, prec: str) -> Any:
    return {"s": torch.float32, "d": torch.float64, "c": torch.complex64, "z": torch.complex128}[prec]


def fill_uniform(torch: Any, out: Any, gen: Any) -> None:
    """Uniform [-1, 1] in both parts, never 0 (a zero would hide a missing term)."""
    real = torch.view_as_real(out) if out.is_complex() else out
    real.uniform_(-1.0, 1.0, generator=gen)
    real.masked_fill_(real == 0, 0.5)


def fill_spd(torch: Any, out: Any, gen: Any) -> None:
    """Symmetric / Hermitian, strictly diagonally dominant: the lower triangle uniform (never 0),
    the upper its (conjugate) mirror, a real diagonal n + |u| (2n + |u| in c, z: more than the
    largest off-diagonal row sum of moduli). Built about 2^26 elements at a time, so the
    temporaries stay small next to a batch of 1024 matrices of 1024^2 and the loop short for
    millions of tiny ones."""
    n = out.shape[-1]
    diag_base = 2.0 * n if out.is_complex() else float(n)
    chunk = max(1, (1 << 26) // (n * n))
    for lo in range(0, out.shape[0], chunk):
        a = out[lo:lo + chunk]
        fill_uniform(torch, a, gen)
        low = torch.tril(a, -1)
        d = torch.empty(a.shape[:-1], dtype=a.real.dtype, device=a.device).uniform_(0.0, 1.0, generator=gen)
        a.copy_(low + low.mH)
        a.diagonal(dim1=-2, dim2=-1).copy_(d + diag_base)


def residual_potrf(torch: Any, a0: Any, f: Any, upper: bool, eps: float) -> float:
    """||A - L L^H||_1 / (n ||A||_1 eps) in double precision; inf on a bad diagonal."""
    a = a0.to(torch.complex128 if a0.is_complex() else torch.float64)
    t = f.to(a.dtype)
    t = torch.triu(t) if upper else torch.tril(t)
    d = t.diagonal()
    if not bool(torch.all(d.real > 0)) or not bool(torch.all(torch.isfinite(d.real))):
        return math.inf
    m = t.mH @ t if upper else t @ t.mH
    return ratio(torch, a - m, a, eps)


def residual_getrf(torch: Any, a0: Any, lu: Any, piv: Any, eps: float) -> float:
    """||A - P L U||_1 / (n ||A||_1 eps) in double precision; inf on an invalid pivot."""
    n = a0.shape[-1]
    p = piv.to(torch.int64)
    rows = torch.arange(1, n + 1, device=p.device)
    if not bool(torch.all((p >= rows) & (p <= n))):
        return math.inf
    a = a0.to(torch.complex128 if a0.is_complex() else torch.float64)
    P, L, U = torch.lu_unpack(lu.to(a.dtype), piv)
    return ratio(torch, a - P @ L @ U, a, eps)


def ratio(torch: Any, r: Any, a: Any, eps: float) -> float:
    num = float(torch.linalg.matrix_norm(r, ord=1))
    den = a.shape[-1] * float(torch.linalg.matrix_norm(a, ord=1)) * eps
    if not (math.isfinite(num) and math.isfinite(den)):
        return math.inf
    if den == 0:
        return 0.0 if num == 0 else math.inf
    return num / den


def copy_bandwidth(torch: Any, runs: int) -> float:
    """Device-to-device copy GB/s (read + written), as bench_copy_bandwidth (bench_util.c)."""
    free, _ = torch.cuda.mem_get_info()
    size = 1 << 30
    while size > (64 << 20) and 2 * size > free // 2:
        size //= 2
    runs = max(runs, 9)
    src = torch.full((size,), 1, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    dst.copy_(src)  # warm-up
    times = []
    for _ in range(runs):
        e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        e0.record()
        dst.copy_(src)
        e1.record()
        e1.synchronize()
        times.append(e0.elapsed_time(e1))
    del src, dst
    gbs = 2.0 * size / (statistics.median(times) * 1e6)
    print(f"# device-to-device copy: {gbs:.1f} GB/s (bytes read + written; {size >> 20} MiB buffer, "
          f"median of {runs})", flush=True)
    return gbs


def l2_bytes(torch: Any) -> int:
    """L2 size from torch (newer versions), else CuPy, else the H100's, said so."""
    size = getattr(torch.cuda.get_device_properties(torch.cuda.current_device()), "L2_cache_size", 0)
    if size:
        return int(size)
    try:
        import cupy  # type: ignore[import-not-found]
        return int(cupy.cuda.runtime.getDeviceProperties(torch.cuda.current_device())["l2CacheSize"])
    except Exception:  # noqa: BLE001  (no CuPy, or a CuPy that cannot say)
        print(f"# L2 size unknown (neither torch nor CuPy says): {FALLBACK_L2 >> 20} MiB assumed", flush=True)
        return FALLBACK_L2


def time_calls(torch: Any, restore: Callable[[], None], call: Callable[[], Any], runs: int,
               warmup_s: float) -> float:
    """Median ms of `runs` calls, each between its own events, restore outside them; warm-up
    calls (at least one) until warmup_s has passed."""
    t0 = time.perf_counter()
    while True:
        restore()
        out = call()
        torch.cuda.synchronize()
        del out
        if time.perf_counter() - t0 >= warmup_s:
            break
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(runs)]
    outs = None
    for e0, e1 in events:
        outs = None  # the last output goes before the next call allocates its own
        restore()
        e0.record()
        outs = call()
        e1.record()
    torch.cuda.synchronize()
    del outs
    return statistics.median(e0.elapsed_time(e1) for e0, e1 in events)


def bench_one(torch: Any, prec: str, routine: str, variant: str, n: int, args: argparse.Namespace,
              l2: int) -> Result:
    """One row: data, one checked call, then the timed calls."""
    torch.cuda.empty_cache()
    free, _ = torch.cuda.mem_get_info()
    batch, limited = choose_batch(n, prec, l2, free)
    gen = torch.Generator(device="cuda")
    gen.manual_seed(zlib.crc32(f"{prec}:{routine}:{variant}:{n}".encode()))  # a row's data: its key only
    a0 = torch.empty((batch, n, n), dtype=dtype_of(torch, prec), device="cuda")
    if routine == "potrf":
        fill_spd(torch, a0, gen)
    else:
        fill_uniform(torch, a0, gen)
    a = a0.clone()
    upper = variant == "u"
    if routine == "potrf":
        call = lambda: torch.linalg.cholesky_ex(a, upper=upper, check_errors=False)  # noqa: E731
    else:
        call = lambda: torch.linalg.lu_factor_ex(a, pivot=True, check_errors=False)  # noqa: E731
    restore = lambda: a.copy_(a0)  # noqa: E731

    # the check run
    restore()
    out = call()
    torch.cuda.synchronize()
    info = out[-1]
    info_bad = int(torch.count_nonzero(info))
    resid = 0.0
    for i in sample_indices(batch, n):
        if routine == "potrf":
            r = residual_potrf(torch, a0[i], out[0][i], upper, EPS[prec])
        else:
            r = residual_getrf(torch, a0[i], out[0][i], out[1][i], EPS[prec])
        resid = max(resid, r)  # the residuals give inf, never NaN, for non-finite results
    del out, info
    ms = time_calls(torch, restore, call, args.runs, args.warmup_s)
    del a, a0
    ok = info_bad == 0 and resid <= ERROR_LIMIT and math.isfinite(ms)
    return Result(prec, routine, variant, n, batch, limited, ms, resid, info_bad, ok)


def print_row(r: Result, roof: float) -> None:
    """A table line without '|' (see the module's doc)."""
    g = r.gflops()
    notes = ("batch limited by memory" if r.limited else "") + (f" info!=0: {r.info_bad}" if r.info_bad else "")
    print(f"torch {r.prec} {r.routine:5s} {r.variant} {r.n:5d} {r.batch:8d} {r.ms:10.4f} {g:10.1f} "
          f"{100.0 * g / roof:6.1f} {roof:9.1f} {r.resid:9.2e} {'ok' if r.ok else 'FAILED':6s} {notes}",
          flush=True)


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                                 allow_abbrev=False)
    ap.add_argument("--prec", default="sd", help="any of s, d, c, z (default sd)")
    ap.add_argument("--routine", action="append", help="potrf, getrf, comma-separated, repeatable (default both)")
    ap.add_argument("--n", type=parse_sizes, help=f"comma-separated sizes 1..{MAX_N} (default 2..32)")
    ap.add_argument("--quick", action="store_true", help="n in {2, 4, 8, 16, 32} (without --n)")
    ap.add_argument("--runs", type=int, default=9, help="timed runs per row, median reported (default 9)")
    ap.add_argument("--warmup-s", type=float, default=0.2, help="warm-up seconds per row (default 0.2)")
    ap.add_argument("--peak-gflops", type=parse_peak, metavar="S,D",
                    help="compute ceilings (Gflop/s) for s and d, c uses S, z uses D: roof = min(memory roof, peak)")
    ap.add_argument("--copy-gbs", type=float,
                    help="copy bandwidth for the roof (GB/s), e.g. the C bench's of the same session; "
                         "default: measured here")
    ap.add_argument("--csv", type=Path, help="write the rows to this CSV (the C bench's columns)")
    ap.add_argument("--append", action="store_true", help="append to --csv (a header only if it is new)")
    ap.add_argument("--linalg-library", choices=("default", "cusolver", "magma"), default="default",
                    help="torch.backends.cuda.preferred_linalg_library (default: torch's own choice)")
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    try:
        precs = [p for p in "sdcz" if p in args.prec]
        if not precs or set(args.prec) - set("sdcz"):
            raise argparse.ArgumentTypeError(f"--prec takes any of s, d, c, z: {args.prec!r}")
        routines = parse_routines(args.routine)
    except argparse.ArgumentTypeError as e:
        ap.error(str(e))
    if args.runs < 1:
        ap.error("--runs must be >= 1")
    try:
        import torch
    except ImportError as e:
        print(f"SKIP: torch peer: PyTorch not importable ({e})")
        return SKIP_EXIT
    if not torch.cuda.is_available():
        print("SKIP: torch peer: no CUDA device (torch.cuda.is_available() is False)")
        return SKIP_EXIT
    if args.linalg_library != "default":
        torch.backends.cuda.preferred_linalg_library(args.linalg_library)
    device = torch.cuda.get_device_name()
    print(f"# torch_lapack_peer: torch {torch.__version__}, CUDA {torch.version.cuda}, {device}, linalg library "
          f"{torch.backends.cuda.preferred_linalg_library()}; cholesky_ex, lu_factor_ex on contiguous batches",
          flush=True)
    copy_gbs = args.copy_gbs if args.copy_gbs else copy_bandwidth(torch, args.runs)
    l2 = l2_bytes(torch)
    print(f"# torch rows: prec routine variant n batch ms Gflop/s %roof roof resid check "
          f"(roof: copy {copy_gbs:.1f} GB/s x flops / bytes"
          + (f", capped at {args.peak_gflops[0]:g} / {args.peak_gflops[1]:g} Gflop/s" if args.peak_gflops else "")
          + ")", flush=True)
    out = open_csv(args.csv, args.append) if args.csv else None
    rows = failed = 0
    try:
        for prec in precs:
            for routine in routines:
                for variant in VARIANTS[routine]:
                    for n in sizes_of(args):
                        r = bench_one(torch, prec, routine, variant, n, args, l2)
                        roof = roof_gflops(routine, n, prec, copy_gbs, args.peak_gflops)
                        print_row(r, roof)
                        if out:
                            write_row(out, device, r, roof)
                        rows += 1
                        failed += not r.ok
    finally:
        if out:
            out.close()
    print(f"# torch: {rows} rows, {failed} failed", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
