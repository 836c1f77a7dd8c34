#!/usr/bin/env python3
"""PyTorch as a peer of the factorization benchmark (bench/lapack_bench.c), method `torch`.

Measures, on one GPU, batched
  getrf   torch.linalg.lu_factor_ex (partial pivoting)                   variant n
  getri   torch.linalg.lu_solve(LU, pivots, I): the inverse from LU       variant n
          factors (lu_factor_ex, made once outside the timing)
  potrf   torch.linalg.cholesky_ex (lower, and upper with upper=True)   variants l, u
  geqrf   torch.geqrf (LAPACK's reflectors and tau)                       variant n
  getrs   torch.linalg.lu_solve(LU, pivots, B) from factors made once     variant n (c, z: n, t, c)
          outside the timing (adjoint=True for op C; op T in c and z as
          the adjoint solve with the conjugated factors, conj(A)^H = A^T,
          conjugated outside the timing)
  gesv    torch.linalg.solve_ex(A, B) (factor and solve)                 variant n
in s, d, c, z (float32, float64, complex64, complex128) on strided (packed, contiguous) batches,
with the C bench's rules so that its rows sit beside the C bench's in one CSV:
  sizes   --n, else 2..32 (--quick 2, 4, 8, 16, 32), the solves 4, 8, 16, 32; right-hand sides
          (getrs, gesv): --nrhs (default 1) to n = 32, above 1 and n/4 (--nrhs K: K at every n);
  batch   clamp(4 x L2 / bytes per problem + 1, 2048, 4e6) with the C bench's bytes per problem
          (A; + C for getri; + B for the solves), exactly 1024 from n = 256, then capped so that
          this script's tensors (alloc_bytes_per_problem) stay below 40 GB and 70% of the free
          memory;
  inputs  made on the GPU: potrf symmetric (Hermitian in c, z) and strictly diagonally dominant,
          hence positive definite, no zero entry (off-diagonal parts uniform in [-1, 1]; diagonal
          n + |u|, 2n + |u| in c, z, as bench_fill_spd); the LU routines' A and the solves' B
          uniform in [-1, 1], never 0 (the C bench's data);
  timing  CUDA events around the call alone; before every run the inputs the C bench restores
          are restored from their pristine copies outside the events (A for getrf, potrf and
          gesv, B for the solves; nothing for getri, whose factors are only read), so every
          method starts from the same cache state; warm-up by time (--warmup-s, at least one
          call), then the median of --runs runs; a row whose first warm-up call (timed on the
          host) took longer than --method-seconds / (runs + 2) gets no more warm-up and fewer
          runs, as in the C bench (the odd number that fits, or one where fewer than 3 fit);
  flops   LAPACK Working Note 41 as the C bench counts them (getrf 2n^3/3 - n^2/2 + 5n/6, getri
          4n^3/3 - n^2 + 5n/3, potrf n^3/3 + n^2/2 + n/6, getrs (2n^2 - n) nrhs, gesv getrf +
          getrs), x4 in c and z (a complex multiply-add is 8 real flops);
  roof    copy GB/s x flops / bytes with the C bench's bytes (A read + written: getrf, potrf; A
          read + C written: getri; A read + B read and written: getrs; both read and written:
          gesv), the copy bandwidth measured here as the C bench does (device-to-device copy of
          up to 1 GiB, median of >= 9) unless --copy-gbs gives it; --peak-gflops S,D caps it as
          in the C bench;
  check   before timing: info == 0 for every matrix (getri, getrs: the factorization's) and, on 16
          sampled matrices (2 from n = 256) spread over the batch, the C bench's measures
          (oracle/lapack_check.c) computed on the GPU in double precision: ||A - L L^H||_1 /
          (n ||A||_1 eps) (potrf; ||P A - L U|| for LU), ||A C - I||_1 / (n ||A||_1 ||C||_1 eps)
          (getri), max over columns ||b - op(A) x||_1 / (n ||op(A)||_1 ||x||_1 eps) (solves),
          each <= 30; eps 2^-24 (s, c) or 2^-53 (d, z).
The _ex forms are the ones timed: torch.linalg.cholesky, lu_factor and solve check info on the
host, a device synchronization per call that would be timed with the factorization.

getri, the honest pairing: shoal's getri and cublas?getriBatched start from the LU factors and
pivots and write the inverse; lu_solve(LU, pivots, I) is PyTorch's way from the same factors to
the same inverse (its torch.linalg.inv_ex factors the matrix first, a solve with the identity, so
it pairs with the C bench's `inverse` row, getri_fused, which factors too). The identity is made
outside the timing. Every method of the row is counted at getri's flops (lu_solve with n
right-hand sides does 2n^3 - n^2): the Gflop/s compare times at one count.

Output: a table on stdout (no '|' in its rows: the report parser of bench/plot_served.py reads
the C bench's tables from the same .txt) and, with --csv, rows with the C bench's columns
  device,prec,routine,variant,mode,n,nrhs,batch,method,median_ms,gflops,gbs,pct_roof,ok
(mode strided, method torch, nrhs 0 for the factorizations); --append adds them to an existing
CSV without a header. bench/run_lapack_bench.py runs this after the C bench (--no-torch skips it).

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
MAX_N_SMALL = 32        # solves above take nrhs 1 and n/4
N_SAMPLES = 16
N_SAMPLES_BIG = 2       # from n = BIG_N, as the C bench (its host check is O(n^3))
ERROR_LIMIT = 30.0      # ORACLE_ERROR_LIMIT
METHOD_SECONDS = 10.0   # --method-seconds
EPS = {"s": 2.0 ** -24, "d": 2.0 ** -53, "c": 2.0 ** -24, "z": 2.0 ** -53}
ELEM_BYTES = {"s": 4, "d": 8, "c": 8, "z": 16}
ROUTINES = ("getrf", "getri", "potrf", "geqrf", "getrs", "gesv")   # the C bench's table order
SOLVES = ("getrs", "gesv")
CSV_COLUMNS = ("device", "prec", "routine", "variant", "mode", "n", "nrhs", "batch", "method", "median_ms",
               "gflops", "gbs", "pct_roof", "ok")
FALLBACK_L2 = 50 << 20  # H100's L2, where neither torch nor CuPy tells it


# --- the C bench's arithmetic (no torch needed: tests/test_torch_lapack_peer.py) ---------------

def is_complex(prec: str) -> bool:
    return prec in "cz"


def variants_of(routine: str, prec: str) -> str:
    """The C bench's option letters: uplo for potrf, trans N, T, C for getrs in c and z."""
    if routine == "potrf":
        return "lu"
    return "ntc" if routine == "getrs" and is_complex(prec) else "n"


def flops_per_problem(routine: str, n: int, prec: str, nrhs: int = 0) -> float:
    """LAWN 41 counts as the C bench's flops_per_problem, x4 in c and z."""
    getrf = 2.0 * n ** 3 / 3.0 - n * n / 2.0 + 5.0 * n / 6.0
    getrs = (2.0 * n * n - n) * nrhs
    f = {"getrf": getrf,
         "getri": 4.0 * n ** 3 / 3.0 - n * n + 5.0 * n / 3.0,
         "potrf": n ** 3 / 3.0 + n * n / 2.0 + n / 6.0,
         "geqrf": 4.0 * n ** 3 / 3.0 + 2.0 * n * n + 14.0 * n / 3.0,
         "getrs": getrs,
         "gesv": getrf + getrs}[routine]
    return f * (4.0 if is_complex(prec) else 1.0)


def roof_bytes_per_problem(routine: str, n: int, prec: str, nrhs: int = 0) -> float:
    """The bytes the C bench's roof counts (pivots and info left out): A read and written (getrf,
    potrf), A read and C written (getri), A read and B read and written (getrs), A and B read and
    written (gesv)."""
    a, b = float(n * n), float(n * nrhs)
    elems = {"getrs": a + 2.0 * b, "gesv": 2.0 * a + 2.0 * b}.get(routine, 2.0 * a)
    return elems * ELEM_BYTES[prec]


def roof_gflops(routine: str, n: int, prec: str, copy_gbs: float, peak: tuple[float, float] | None,
                nrhs: int = 0) -> float:
    """Memory roof, capped by the compute peak of the real type (c: S, z: D) where given."""
    roof = copy_gbs * flops_per_problem(routine, n, prec, nrhs) / roof_bytes_per_problem(routine, n, prec, nrhs)
    if peak:
        cap = peak[1] if prec in "dz" else peak[0]
        roof = min(roof, cap)
    return roof


def problem_bytes(routine: str, n: int, prec: str, nrhs: int = 0) -> int:
    """The C bench's bytes per problem for the L2 rule: A, + C (getri), + B (the solves)."""
    elems = n * n + (n * n if routine == "getri" else 0) + (n * nrhs if routine in SOLVES else 0)
    return elems * ELEM_BYTES[prec]


def alloc_bytes_per_problem(routine: str, n: int, prec: str, nrhs: int = 0) -> int:
    """What this script holds per problem at most, with the outputs torch allocates: getrf, potrf
    the pristine input, the working input, the output; getri the input and its factors, then the
    factors, the identity, the inverse; getrs the input and its factors, then the factors, the
    pristine and working B, X; gesv the pristine and working A, torch's LU copy of it, the
    pristine and working B, X; and pivots and info."""
    a, b = n * n, n * nrhs
    elems = {"getrs": 2 * a + 3 * b, "gesv": 3 * a + 3 * b}.get(routine, 3 * a)
    return elems * ELEM_BYTES[prec] + 4 * (n + 1)


def choose_batch(routine: str, n: int, prec: str, l2_bytes: int, free_bytes: int, nrhs: int = 0) -> tuple[int, bool]:
    """(batch, limited): the C bench's rule; limited when the memory cap cut it."""
    if n >= BIG_N:
        b = BIG_BATCH
    else:
        b = min(max(4 * l2_bytes // problem_bytes(routine, n, prec, nrhs) + 1, MIN_BATCH), MAX_BATCH)
    room = min(0.7 * free_bytes, MEM_CAP_BYTES)
    fit = int(room // alloc_bytes_per_problem(routine, n, prec, nrhs))
    return min(b, fit), b > fit


def sample_indices(batch: int, n: int) -> list[int]:
    """The C bench's samples: spread over the batch, first and last included."""
    count = N_SAMPLES_BIG if n >= BIG_N else N_SAMPLES
    return [int(k * (batch - 1) / (count - 1) + 0.5) for k in range(count)]


def nrhs_list(routine: str, n: int, nrhs: int | None) -> list[int]:
    """The C bench's right-hand sides: none (0) for a factorization; --nrhs (default 1) to
    n = 32; above, 1 and n/4 unless --nrhs was given."""
    if routine not in SOLVES:
        return [0]
    if nrhs is not None or n <= MAX_N_SMALL or n // 4 <= 1:
        return [nrhs or 1]
    return [1, n // 4]


def runs_within(runs: int, call_s: float, budget_s: float) -> tuple[int, int]:
    """The C bench's runs_within, (runs, warm-ups still to make) after a first warm-up call of
    call_s seconds: --runs after more warm-up; where runs + 2 such calls would pass budget_s, no
    more warm-up and the odd number of runs that fits it with the first, if that is 3 or more
    (never more than --runs), else 1. Here a warm-up is the time-based one (--warmup-s, at least
    one call)."""
    if not call_s * (runs + 2) > budget_s:
        return runs, 1
    fit = int(budget_s / call_s) - 1
    return (1 if fit < 3 else min(fit if fit % 2 else fit - 1, runs)), 0


def row_key(prec: str, routine: str, variant: str, n: int, nrhs: int) -> str:
    """The seed's key, as the C bench's row_key: the solves' with nrhs."""
    return f"{prec}:{routine}:{variant}:{n}" + (f":{nrhs}" if routine in SOLVES else "")


def quotient(num: float, den: float) -> float:
    """num / den as a residual (oracle/lapack_check.c's ratio): inf for a non-finite part, an
    exact 0 / 0 a perfect 0."""
    if not (math.isfinite(num) and math.isfinite(den)):
        return math.inf
    if den == 0:
        return 0.0 if num == 0 else math.inf
    r = num / den
    return r if math.isfinite(r) else math.inf


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


def sizes_of(args: argparse.Namespace, routine: str) -> list[int]:
    """--n, else the C bench's defaults: 2..32 (--quick 2, 4, 8, 16, 32), the solves 4, 8, 16, 32."""
    if args.n:
        return args.n
    if routine in SOLVES:
        return [4, 8, 16, 32]
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
    nrhs: int
    batch: int
    limited: bool
    ms: float
    resid: float
    info_bad: int
    ok: bool
    runs: int = 0       # timed runs (fewer than --runs for a slow call)

    def gflops(self) -> float:
        return flops_per_problem(self.routine, self.n, self.prec, self.nrhs) * self.batch / (self.ms * 1e6)

    def gbs(self) -> float:
        return roof_bytes_per_problem(self.routine, self.n, self.prec, self.nrhs) * self.batch / (self.ms * 1e6)


def csv_row(device: str, r: Result, roof: float) -> list[str]:
    g = r.gflops() if math.isfinite(r.ms) else math.nan
    gbs = r.gbs() if math.isfinite(r.ms) else math.nan
    return [device, r.prec, r.routine, r.variant, "strided", str(r.n), str(r.nrhs), str(r.batch), "torch", fmt(r.ms),
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


def wide(torch: Any, x: Any) -> Any:
    """x in double precision (complex128 for complex x): the residuals' arithmetic."""
    return x.to(torch.complex128 if x.is_complex() else torch.float64)


def norm1(torch: Any, x: Any) -> float:
    return float(torch.linalg.matrix_norm(x, ord=1))


def ratio(torch: Any, r: Any, a: Any, eps: float, scale: float = 1.0) -> float:
    """||r||_1 / (n ||a||_1 scale eps), as oracle/lapack_check.c's normalized residuals."""
    return quotient(norm1(torch, r), a.shape[-1] * norm1(torch, a) * scale * eps)


def residual_potrf(torch: Any, a0: Any, f: Any, upper: bool, eps: float) -> float:
    """||A - L L^H||_1 / (n ||A||_1 eps) in double precision; inf on a bad diagonal."""
    a, t = wide(torch, a0), wide(torch, f)
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
    a = wide(torch, a0)
    P, L, U = torch.lu_unpack(wide(torch, lu), piv)
    return ratio(torch, a - P @ L @ U, a, eps)


def residual_geqrf(torch: Any, a0: Any, qr: Any, tau: Any, eps: float) -> float:
    """||A - Q R||_1 / (n ||A||_1 eps) in double precision, Q formed from the reflectors."""
    a, f = wide(torch, a0), wide(torch, qr)
    q = torch.linalg.householder_product(f, wide(torch, tau))
    return ratio(torch, a - q @ torch.triu(f), a, eps)


def residual_inverse(torch: Any, a0: Any, c: Any, eps: float) -> float:
    """||A C - I||_1 / (n ||A||_1 ||C||_1 eps) in double precision."""
    a, cc = wide(torch, a0), wide(torch, c)
    r = a @ cc
    r.diagonal().sub_(1.0)
    return ratio(torch, r, a, eps, norm1(torch, cc))


def residual_solve(torch: Any, a0: Any, b0: Any, x: Any, variant: str, eps: float) -> float:
    """max over the columns of ||b - op(A) x||_1 / (n ||op(A)||_1 ||x||_1 eps) in double precision;
    op from the variant: n A, t A^T, c A^H."""
    a, b, xx = wide(torch, a0), wide(torch, b0), wide(torch, x)
    op = {"n": a, "t": a.mT, "c": a.mH}[variant]
    r = b - op @ xx
    den = a.shape[-1] * norm1(torch, op) * eps
    rn = torch.linalg.vector_norm(r, ord=1, dim=0).tolist()
    xn = torch.linalg.vector_norm(xx, ord=1, dim=0).tolist()
    return max(quotient(rj, den * xj) for rj, xj in zip(rn, xn))


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
               warmup_s: float, warm_up: bool = True) -> float:
    """Median ms of `runs` calls, each between its own events, restore outside them; before them,
    where warm_up, warm-up calls (at least one) until warmup_s has passed."""
    t0 = time.perf_counter()
    while warm_up:
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


@dataclass
class Case:
    """A row's timed call, what is restored before each one, and the check of one call's output:
    (matrices with info != 0, worst sampled residual)."""
    call: Callable[[], Any]
    restore: Callable[[], None]
    check: Callable[[Any], tuple[int, float]]


def build_case(torch: Any, routine: str, variant: str, a0: Any, b0: Any, samples: list[int], eps: float) -> Case:
    """The row's call on inputs a0 (and b0 for the solves). getri and getrs factor a0 first,
    outside the timing, keep the sampled originals for the check and let a0 go."""
    count = lambda info: int(torch.count_nonzero(info))  # noqa: E731
    worst = lambda rs: max(rs, default=0.0)  # noqa: E731  (the residuals give inf, never NaN)
    if routine in ("getrf", "potrf", "geqrf", "gesv"):
        a = a0.clone()
        b = b0.clone() if b0 is not None else None

        def restore() -> None:
            a.copy_(a0)
            if b is not None:
                b.copy_(b0)
        if routine == "potrf":
            upper = variant == "u"
            return Case(lambda: torch.linalg.cholesky_ex(a, upper=upper, check_errors=False), restore,
                        lambda out: (count(out[1]), worst(residual_potrf(torch, a0[i], out[0][i], upper, eps)
                                                          for i in samples)))
        if routine == "geqrf":
            return Case(lambda: torch.geqrf(a), restore,
                        lambda out: (0, worst(residual_geqrf(torch, a0[i], out[0][i], out[1][i], eps)
                                              for i in samples)))
        if routine == "getrf":
            return Case(lambda: torch.linalg.lu_factor_ex(a, pivot=True, check_errors=False), restore,
                        lambda out: (count(out[2]), worst(residual_getrf(torch, a0[i], out[0][i], out[1][i], eps)
                                                          for i in samples)))
        return Case(lambda: torch.linalg.solve_ex(a, b, check_errors=False), restore,
                    lambda out: (count(out[1]), worst(residual_solve(torch, a0[i], b0[i], out[0][i], "n", eps)
                                                      for i in samples)))
    # getri, getrs: from factors made here, outside the timing
    originals = {i: a0[i].clone() for i in samples}
    lu, piv, info = torch.linalg.lu_factor_ex(a0, pivot=True, check_errors=False)
    bad = count(info)
    del info
    if routine == "getri":
        eye = torch.eye(a0.shape[-1], dtype=a0.dtype, device=a0.device).expand_as(a0).contiguous()
        return Case(lambda: torch.linalg.lu_solve(lu, piv, eye), lambda: None,
                    lambda out: (bad, worst(residual_inverse(torch, originals[i], out[i], eps) for i in samples)))
    if variant == "t":   # A^T = conj(A)^H: the adjoint solve with the conjugated factors
        lu = lu.conj().resolve_conj()
    b = b0.clone()
    adjoint = variant in "tc"
    return Case(lambda: torch.linalg.lu_solve(lu, piv, b, adjoint=adjoint), lambda: b.copy_(b0),
                lambda out: (bad, worst(residual_solve(torch, originals[i], b0[i], out[i], variant, eps)
                                        for i in samples)))


def bench_one(torch: Any, prec: str, routine: str, variant: str, n: int, nrhs: int, args: argparse.Namespace,
              l2: int) -> Result:
    """One row: data, one checked call, then the timed calls."""
    torch.cuda.empty_cache()
    free, _ = torch.cuda.mem_get_info()
    batch, limited = choose_batch(routine, n, prec, l2, free, nrhs)
    gen = torch.Generator(device="cuda")
    gen.manual_seed(zlib.crc32(row_key(prec, routine, variant, n, nrhs).encode()))  # a row's data: its key only
    dtype = dtype_of(torch, prec)
    a0 = torch.empty((batch, n, n), dtype=dtype, device="cuda")
    (fill_spd if routine == "potrf" else fill_uniform)(torch, a0, gen)
    b0 = None
    if routine in SOLVES:
        b0 = torch.empty((batch, n, nrhs), dtype=dtype, device="cuda")
        fill_uniform(torch, b0, gen)
    samples = sample_indices(batch, n)
    case = build_case(torch, routine, variant, a0, b0, samples, EPS[prec])
    del a0   # getri, getrs hold the factors alone from here

    # the check run
    case.restore()
    out = case.call()
    torch.cuda.synchronize()
    info_bad, resid = case.check(out)
    del out
    # a first warm-up, timed on the host: how long a warm call takes (the check run may carry
    # first-use costs) decides the runs
    case.restore()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    out = case.call()
    torch.cuda.synchronize()
    call_s = time.perf_counter() - t0
    del out
    runs, warmups = runs_within(args.runs, call_s, args.method_seconds)
    ms = time_calls(torch, case.restore, case.call, runs, args.warmup_s, warmups > 0)
    del case, b0
    ok = info_bad == 0 and resid <= ERROR_LIMIT and math.isfinite(ms)
    return Result(prec, routine, variant, n, nrhs, batch, limited, ms, resid, info_bad, ok, runs)


def print_row(r: Result, roof: float, runs: int) -> None:
    """A table line without '|' (see the module's doc)."""
    g = r.gflops()
    notes = [("batch limited by memory" if r.limited else ""), (f"info!=0: {r.info_bad}" if r.info_bad else ""),
             (f"{r.runs} run{'s' if r.runs > 1 else ''}" if r.runs < runs else "")]
    print(f"torch {r.prec} {r.routine:5s} {r.variant} {r.n:5d} {r.nrhs:4d} {r.batch:8d} {r.ms:10.4f} {g:10.1f} "
          f"{100.0 * g / roof:6.1f} {roof:9.1f} {r.resid:9.2e} {'ok' if r.ok else 'FAILED':6s} "
          f"{'; '.join(x for x in notes if x)}", flush=True)


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                                 allow_abbrev=False)
    ap.add_argument("--prec", default="sd", help="any of s, d, c, z (default sd)")
    ap.add_argument("--routine", action="append",
                    help=f"{', '.join(ROUTINES)}, comma-separated, repeatable (default all)")
    ap.add_argument("--n", type=parse_sizes, help=f"comma-separated sizes 1..{MAX_N} (default 2..32; solves 4..32)")
    ap.add_argument("--quick", action="store_true", help="n in {2, 4, 8, 16, 32} (without --n)")
    ap.add_argument("--nrhs", type=int, help="right-hand sides of the solves at every n (default 1 to n = 32, "
                                             "1 and n/4 above)")
    ap.add_argument("--runs", type=int, default=9, help="timed runs per row, median reported (default 9)")
    ap.add_argument("--method-seconds", type=float, default=METHOD_SECONDS,
                    help="a row whose warm-up call takes over this / (runs + 2) s gets the odd number of runs "
                         f"that fits it, or 1 where fewer than 3 fit (default {METHOD_SECONDS:g})")
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
    if args.nrhs is not None and not 1 <= args.nrhs <= 1024:
        ap.error("--nrhs must be 1..1024")
    if not args.method_seconds > 0:
        ap.error("--method-seconds must be > 0")
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
          f"{torch.backends.cuda.preferred_linalg_library()}; lu_factor_ex, lu_solve (getri: of the identity), "
          f"cholesky_ex, solve_ex on contiguous batches", flush=True)
    copy_gbs = args.copy_gbs if args.copy_gbs else copy_bandwidth(torch, args.runs)
    l2 = l2_bytes(torch)
    print(f"# torch rows: prec routine variant n nrhs batch ms Gflop/s %roof roof resid check notes "
          f"(roof: copy {copy_gbs:.1f} GB/s x flops / bytes"
          + (f", capped at {args.peak_gflops[0]:g} / {args.peak_gflops[1]:g} Gflop/s" if args.peak_gflops else "")
          + ")", flush=True)
    out = open_csv(args.csv, args.append) if args.csv else None
    rows = failed = 0
    try:
        for prec in precs:
            for routine in routines:
                for variant in variants_of(routine, prec):
                    for n in sizes_of(args, routine):
                        for nrhs in nrhs_list(routine, n, args.nrhs):
                            r = bench_one(torch, prec, routine, variant, n, nrhs, args, l2)
                            roof = roof_gflops(routine, n, prec, copy_gbs, args.peak_gflops, nrhs)
                            print_row(r, roof, args.runs)
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
