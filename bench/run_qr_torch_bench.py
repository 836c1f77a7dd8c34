#!/usr/bin/env python3
"""QR with Q formed, Q applied, and least squares: shoal against PyTorch on one GPU, same process,
same data.

Rows, one per precision (s, d, c, z: float32, float64, complex64, complex128) x routine x shape
(m x n : batch, m >= n) x method:
  geqrf+orgqr  shoal     tau = shoal.geqrf(A); shoal.orgqr(A, tau)    (in place: A <- Q's n columns)
               torch     qr, tau = torch.geqrf(A); torch.linalg.householder_product(qr, tau)
               torch-qr  torch.linalg.qr(A, mode="reduced")            (Q and R)
  ormqr        shoal     shoal.ormqr(QR, tau, C, side="L", trans="T")  (C <- Q^T C in place; trans
                         "C", Q^H C, in c and z)
               torch     torch.ormqr(QR, tau, C, left=True, transpose=True)   (Q^H C in c and z)
               QR, tau: one torch.geqrf of A, made outside the timing, read by both methods;
               C is m x m (k = n reflectors).
  gels         shoal     shoal.gels(A, B)                          (A <- QR, B <- X in place)
               torch     torch.linalg.lstsq(A, B).solution          (the CUDA driver, gels)
               cublas    cublas?gelsBatched on pointer arrays of A and B (bench/cublas_gels_peer.py;
                         m >= n, trans N; the arrays made once, outside the timing)
               B is m x --nrhs (default 1).
  layout  every batch is made as a contiguous (batch, cols, rows) tensor and used through its .mT
          view (batch, rows, cols): column-major per matrix, strides (rows*cols, 1, rows), which
          shoal's _layout reads as column-major with ld = rows, as its in-place routines need.
          torch gets the same views: its CUDA QR routines copy the input into a column-major
          result first, a plain copy from a column-major input (a transposing one otherwise);
  inputs  uniform in [-1, 1], never 0 (torch_lapack_peer.fill_uniform: an exact 0 becomes 0.5; the
          2026-11-29 run mapped |x| into [1e-3, 1] instead), made on the GPU by a torch.Generator
          seeded from the row's precision, routine and shape;
  timing  CUDA events on torch.cuda.current_stream() around the call(s) alone (geqrf+orgqr: both
          calls between one pair); shoal gets stream=that stream (it takes a torch.cuda.Stream;
          stream=None would mean the same, torch's current stream). Before every run the input
          (A; C for ormqr) is restored from its pristine copy with copy_ outside the events, for
          every method (torch's leave it unchanged, but all start from the same cache state).
          The events bracket the Python calls: host-side work (argument checks, output
          allocation, torch's per-matrix launch loops) counts where the GPU waits for it. After
          the check call (which takes first-use costs), a first warm-up call is timed on the
          host; over --method-seconds / (runs + 2) the method gets no more warm-up and the odd
          number of runs that fits the budget with that call (at most --runs, at least 1); else
          warm-up goes on until --warmup-s has passed, then the median of --runs runs (the
          peer's rule: torch_lapack_peer.runs_within);
  flops   LAWN 41: geqrf 2mn^2 - 2n^3/3 plus orgqr 4mnk - 2(m+n)k^2 + 4k^3/3, k = n (torch-qr too);
          ormqr (left, nrhs = m) 4 m nrhs k - 2 nrhs k^2, k = n; gels: geqrf, ormqr with nrhs
          and the triangular solve n^2 nrhs; x4 in c and z;
  check   before timing, one untimed call per method, on up to 16 matrices spread over the batch,
          in float64 / complex128 on the GPU; geqrf+orgqr: the larger of ||A - Q R||_1 / (||A||_1
          n eps) and ||I - Q^H Q||_1 / (n eps), R the upper triangle of the factored matrix's
          first n rows (shoal: a copy of A taken after geqrf, before orgqr overwrites it; torch:
          geqrf's qr; torch-qr: its R); ormqr: ||C_out - Q^H C||_1 / (||C||_1 m eps), Q (m x m)
          from torch.linalg.householder_product in float64 / complex128; gels: the normal
          equations, ||A^H (B - A X)||_1 / (||A||_1 (||A||_1 ||X||_1 + ||B||_1) m eps). eps 2^-24 (s, c),
          2^-53 (d, z); the worst sample over 30, or not finite, makes the row FAIL (still
          timed and printed); a method that raises makes an ERROR row.

Output: rows on stdout; a CSV (--out; device,precision,routine,method,m,n,batch,ms,gflops,check,
status) and the report beside it (same stem, .txt): a title line with the date (UTC), the device
line, the settings, then per routine a Markdown table, a line per precision and shape with each
method's ms and speedup = the best other method's ms / shoal ms (> 1: shoal is faster). Exit status 0 (also
"SKIP: ..." without torch or CUDA), 1 if a row is FAIL or ERROR,
2 on a usage error or when shoal cannot be imported.
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
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cublas_gels_peer  # noqa: E402
from torch_lapack_peer import dtype_of, fill_uniform, runs_within, wide  # noqa: E402  (the peer's data and run rules)

PRECISIONS = ("s", "d", "c", "z")
ROUTINES = ("geqrf+orgqr", "ormqr", "gels")
METHODS = {"geqrf+orgqr": ("shoal", "torch", "torch-qr"), "ormqr": ("shoal", "torch"), "gels": ("shoal", "torch", "cublas")}
DEFAULT_SHAPES = "64x64:1000,128x128:1000,256x256:1000,512x512:1000,3x3:8192,16x16:8192"
EPS = {"s": 2.0 ** -24, "d": 2.0 ** -53, "c": 2.0 ** -24, "z": 2.0 ** -53}
ERROR_LIMIT = 30.0
N_SAMPLES = 16
CSV_COLUMNS = ("device", "precision", "routine", "method", "m", "n", "batch", "ms", "gflops", "check", "status")


@dataclass
class Row:
    precision: str
    routine: str
    method: str
    m: int
    n: int
    batch: int
    ms: float
    check: float
    status: str          # ok, FAIL or ERROR
    runs: int = 0

    nrhs: int = 1        # gels' right-hand sides

    def gflops(self) -> float:
        return flops(self.routine, self.m, self.n, self.precision, self.nrhs) * self.batch / (self.ms * 1e6)


def flops(routine: str, m: int, n: int, prec: str, nrhs: int = 1) -> float:
    """LAWN 41 per matrix, x4 in the complex precisions."""
    k = n
    if routine == "geqrf+orgqr":
        f = 2.0 * m * n * n - 2.0 * n ** 3 / 3.0 + 4.0 * m * n * k - 2.0 * (m + n) * k * k + 4.0 * k ** 3 / 3.0
    elif routine == "gels":
        f = 2.0 * m * n * n - 2.0 * n ** 3 / 3.0 + 4.0 * m * nrhs * k - 2.0 * nrhs * k * k + n * n * nrhs
    else:
        f = 4.0 * m * m * k - 2.0 * m * k * k
    return f * (4.0 if prec in "cz" else 1.0)


def parse_list(text: str, allowed: Sequence[str], what: str) -> list[str]:
    items = [x.strip() for x in text.split(",") if x.strip()]
    bad = [x for x in items if x not in allowed]
    if not items or bad:
        raise argparse.ArgumentTypeError(f"{what} takes {', '.join(allowed)}: not {text!r}")
    return [x for x in allowed if x in items]


def parse_shapes(text: str, tall: bool = True) -> list[tuple[int, int, int]]:
    """'MxN:BATCH,...' -> [(m, n, batch)], m >= n >= 1 (orgqr and ormqr's k = n need it); with
    tall False any m, n >= 1 (bench/run_gebrd_bench.py: gebrd's m < n is the lower form)."""
    shapes = []
    for item in (x.strip() for x in text.split(",") if x.strip()):
        try:
            dims, batch = item.split(":")
            m, n = (int(v) for v in dims.lower().split("x"))
            shape = (m, n, int(batch))
        except ValueError:
            raise argparse.ArgumentTypeError(f"shapes are MxN:BATCH: not {item!r}") from None
        if tall and not (shape[0] >= shape[1] >= 1 and shape[2] >= 1):
            raise argparse.ArgumentTypeError(f"{item!r}: need m >= n >= 1 and batch >= 1")
        if not tall and min(shape) < 1:
            raise argparse.ArgumentTypeError(f"{item!r}: need m, n and batch >= 1")
        shapes.append(shape)
    if not shapes:
        raise argparse.ArgumentTypeError("no shapes")
    return shapes


def fmt(v: float, spec: str = ".6g") -> str:
    return format(v, spec) if math.isfinite(v) else ""


# --- the GPU part (torch and shoal imported inside main) ----------------------------------------

def worst(ratios: Any) -> float:
    """The largest of a tensor of residuals; inf if any is not finite."""
    r = float(ratios.max())
    return r if math.isfinite(r) else math.inf


def norm1(torch: Any, x: Any) -> Any:
    return torch.linalg.matrix_norm(x, ord=1)


def qr_residual(torch: Any, a: Any, q: Any, f: Any, eps: float) -> float:
    """max(||A - Q R||_1 / (||A||_1 n eps), ||I - Q^H Q||_1 / (n eps)) over sampled (s, m, n) A and
    Q, R = triu of f's first n rows."""
    a, q = wide(torch, a), wide(torch, q)
    n = a.shape[-1]
    r = torch.triu(wide(torch, f)[..., :n, :])
    fact = norm1(torch, a - q @ r) / (norm1(torch, a) * n * eps)
    eye = torch.eye(n, dtype=q.dtype, device=q.device)
    orth = norm1(torch, eye - q.mH @ q) / (n * eps)
    return worst(torch.maximum(fact, orth))


@dataclass
class Method:
    name: str
    restore: Callable[[], Any]
    call: Callable[[], Any]
    check: Callable[[], float]   # restore, one untimed call, the worst sampled residual


def qr_methods(torch: Any, shoal: Any, stream: Any, a0: Any, idx: Any, eps: float) -> list[Method]:
    """geqrf+orgqr's methods on the pristine a0 (batch, n, m) contiguous: matrices a0.mT."""
    work = torch.empty_like(a0)
    A, samples = work.mT, a0.mT[idx]
    restore = lambda: work.copy_(a0)  # noqa: E731

    def shoal_call() -> Any:
        return shoal.orgqr(A, shoal.geqrf(A, stream=stream), stream=stream)

    def shoal_check() -> float:
        restore()
        tau = shoal.geqrf(A, stream=stream)
        factored = A[idx]          # advanced indexing copies: the factors, before orgqr overwrites them
        shoal.orgqr(A, tau, stream=stream)
        return qr_residual(torch, samples, A[idx], factored, eps)

    def torch_call() -> Any:
        qr, tau = torch.geqrf(A)
        return qr, torch.linalg.householder_product(qr, tau)

    def torch_check() -> float:
        restore()
        qr, q = torch_call()
        return qr_residual(torch, samples, q[idx], qr[idx], eps)

    def linalg_call() -> Any:
        return torch.linalg.qr(A, mode="reduced")

    def linalg_check() -> float:
        restore()
        q, r = linalg_call()
        return qr_residual(torch, samples, q[idx], r[idx], eps)

    return [Method("shoal", restore, shoal_call, shoal_check), Method("torch", restore, torch_call, torch_check),
            Method("torch-qr", restore, linalg_call, linalg_check)]


def ormqr_methods(torch: Any, shoal: Any, stream: Any, a0: Any, c0: Any, idx: Any, eps: float) -> list[Method]:
    """ormqr's methods: factors of a0.mT from one torch.geqrf (made here, untimed), C = c0.mT."""
    qr, tau = torch.geqrf(a0.mT)
    qr = qr.mT.contiguous().mT             # column-major per matrix (a no-op: geqrf's output is)
    m, n = qr.shape[-2:]
    work = torch.empty_like(c0)
    C = work.mT
    restore = lambda: work.copy_(c0)  # noqa: E731
    trans = "C" if c0.is_complex() else "T"
    full = torch.zeros((len(idx), m, m), dtype=torch.complex128 if c0.is_complex() else torch.float64,
                       device=c0.device)
    full[..., :n] = wide(torch, qr[idx])
    q = torch.linalg.householder_product(full, wide(torch, tau[idx]))   # m x m, n reflectors
    c = wide(torch, c0.mT[idx])
    ref, cnorm = q.mH @ c, norm1(torch, c)

    def residual(out: Any) -> float:
        return worst(norm1(torch, wide(torch, out[idx]) - ref) / (cnorm * m * eps))

    def shoal_call() -> Any:
        return shoal.ormqr(qr, tau, C, side="L", trans=trans, stream=stream)

    def torch_call() -> Any:
        return torch.ormqr(qr, tau, C, left=True, transpose=True)

    def check(call: Callable[[], Any]) -> Callable[[], float]:
        def run() -> float:
            restore()
            return residual(call())
        return run

    return [Method("shoal", restore, shoal_call, check(shoal_call)),
            Method("torch", restore, torch_call, check(torch_call))]


def gels_methods(torch: Any, shoal: Any, stream: Any, a0: Any, b0: Any, idx: Any, eps: float) -> list[Method]:
    """gels' methods on A = a0.mT (m x n, m >= n) and B = b0.mT (m x nrhs), both restored per run."""
    work_a, work_b = torch.empty_like(a0), torch.empty_like(b0)
    A, B = work_a.mT, work_b.mT
    n = A.shape[-1]

    def restore() -> None:
        work_a.copy_(a0)
        work_b.copy_(b0)

    a, b = wide(torch, a0.mT[idx]), wide(torch, b0.mT[idx])
    anorm, bnorm, m = norm1(torch, a), norm1(torch, b), a.shape[-2]

    def residual(x: Any) -> float:
        x = wide(torch, x)
        normal = norm1(torch, a.mH @ (b - a @ x))
        return worst(normal / (anorm * (anorm * norm1(torch, x) + bnorm) * m * eps))

    def shoal_call() -> Any:
        return shoal.gels(A, B, stream=stream)

    def shoal_check() -> float:
        restore()
        info = shoal_call()
        if int(info.abs().max()) != 0:
            return math.inf
        return residual(B[idx][..., :n, :])

    def torch_call() -> Any:
        return torch.linalg.lstsq(A, B).solution

    def torch_check() -> float:
        restore()
        return residual(torch_call()[idx])

    batch = a0.shape[0]
    step = lambda t: t.stride(0) * t.element_size()  # noqa: E731
    a_ptrs = torch.tensor([work_a.data_ptr() + i * step(work_a) for i in range(batch)], dtype=torch.int64,
                          device=a0.device)
    b_ptrs = torch.tensor([work_b.data_ptr() + i * step(work_b) for i in range(batch)], dtype=torch.int64,
                          device=a0.device)
    dev_info = torch.zeros(batch, dtype=torch.int32, device=a0.device)
    prec = {torch.float32: "s", torch.float64: "d", torch.complex64: "c", torch.complex128: "z"}[a0.dtype]

    def cublas_call() -> Any:
        cublas_gels_peer.gels(prec, stream.cuda_stream, m, n, B.shape[-1], a_ptrs.data_ptr(), m,
                              b_ptrs.data_ptr(), m, dev_info.data_ptr(), batch)
        return dev_info

    def cublas_check() -> float:
        restore()
        if int(cublas_call().abs().max()) != 0:
            return math.inf
        return residual(B[idx][..., :n, :])

    return [Method("shoal", restore, shoal_call, shoal_check), Method("torch", restore, torch_call, torch_check),
            Method("cublas", restore, cublas_call, cublas_check)]


def time_method(torch: Any, stream: Any, meth: Method, runs: int, warmup_s: float,
                method_s: float) -> tuple[float, int]:
    """(median ms, runs) of meth.call between CUDA events on `stream`, meth.restore outside them."""
    meth.restore()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    out = meth.call()
    torch.cuda.synchronize()
    call_s = time.perf_counter() - t0
    del out
    runs, warm = runs_within(runs, call_s, method_s)
    while warm and time.perf_counter() - t0 < warmup_s:
        meth.restore()
        out = meth.call()
        torch.cuda.synchronize()
        del out
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(runs)]
    for e0, e1 in events:
        out = None
        meth.restore()
        e0.record(stream)
        out = meth.call()
        e1.record(stream)
    torch.cuda.synchronize()
    del out
    return statistics.median(e0.elapsed_time(e1) for e0, e1 in events), runs


def bench_shape(torch: Any, shoal: Any, stream: Any, prec: str, routine: str, m: int, n: int, batch: int,
                args: argparse.Namespace) -> list[Row]:
    torch.cuda.empty_cache()
    gen = torch.Generator(device="cuda")
    gen.manual_seed(zlib.crc32(f"{prec}:{routine}:{m}x{n}:{batch}".encode()))
    a0 = torch.empty((batch, n, m), dtype=dtype_of(torch, prec), device="cuda")
    fill_uniform(torch, a0, gen)
    count = min(N_SAMPLES, batch)
    idx = torch.tensor(sorted({int(k * (batch - 1) / max(count - 1, 1) + 0.5) for k in range(count)}),
                       device="cuda")
    eps = EPS[prec]
    nrhs = args.nrhs if routine == "gels" else 1
    if routine == "geqrf+orgqr":
        methods = qr_methods(torch, shoal, stream, a0, idx, eps)
    elif routine == "gels":
        b0 = torch.empty((batch, nrhs, m), dtype=a0.dtype, device="cuda")
        fill_uniform(torch, b0, gen)
        methods = gels_methods(torch, shoal, stream, a0, b0, idx, eps)
    else:
        c0 = torch.empty((batch, m, m), dtype=a0.dtype, device="cuda")
        fill_uniform(torch, c0, gen)
        methods = ormqr_methods(torch, shoal, stream, a0, c0, idx, eps)
        del a0
    rows = []
    for meth in methods:
        try:
            check = meth.check()
            torch.cuda.synchronize()
            ms, runs = time_method(torch, stream, meth, args.runs, args.warmup_s, args.method_seconds)
            status = "ok" if check <= ERROR_LIMIT else "FAIL"
        except Exception as e:  # noqa: BLE001  (a method that raises is a row, the others still run)
            print(f"# {prec} {routine} {meth.name} {m}x{n}:{batch}: {type(e).__name__}: {e}", flush=True)
            check, ms, runs, status = math.nan, math.nan, 0, "ERROR"
        rows.append(Row(prec, routine, meth.name, m, n, batch, ms, check, status, runs, nrhs))
    return rows


def table(rows: Sequence[dict[str, str]]) -> str:
    """The Markdown tables from CSV rows (this script's, or a committed run's: bench/results_doc.py
    renders docs/results.md with it): per routine, one line per precision and shape, each method's
    ms and speedup = the best other method's ms / shoal ms."""
    lines: list[str] = []
    for routine in ROUTINES:
        names = METHODS[routine]
        groups: dict[tuple[str, int, int, int], dict[str, dict[str, str]]] = {}
        for r in rows:
            if r["routine"] == routine:
                key = (r["precision"], int(r["m"]), int(r["n"]), int(r["batch"]))
                groups.setdefault(key, {})[r["method"]] = r
        if not groups:
            continue
        lines += [f"### {routine}", "",
                  "| prec | m x n | batch | " + " | ".join(f"{x} ms" for x in names) + " | speedup | status |",
                  "|---|---|---:|" + "---:|" * len(names) + "---:|---|"]
        for (prec, m, n, batch), got in groups.items():
            ms = {x: float(got[x]["ms"]) if x in got and got[x]["ms"] else math.nan for x in names}
            torch_ms = [ms[x] for x in names[1:] if math.isfinite(ms[x])]
            speedup = min(torch_ms) / ms["shoal"] if torch_ms and math.isfinite(ms["shoal"]) else math.nan
            bad = [f"{x} {r['status']}" for x, r in got.items() if r["status"] != "ok"]
            lines.append(f"| {prec} | {m}x{n} | {batch} | " + " | ".join(fmt(ms[x], ".4g") for x in names)
                         + f" | {fmt(speedup, '.2f')}{'x' if math.isfinite(speedup) else ''} | "
                         + (", ".join(bad) or "ok") + " |")
        lines.append("")
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                                 allow_abbrev=False)
    ap.add_argument("--shapes", default=DEFAULT_SHAPES, help=f"MxN:BATCH,... m >= n (default {DEFAULT_SHAPES})")
    ap.add_argument("--precisions", default="s,d", help="comma-separated, of s, d, c, z (default s,d)")
    ap.add_argument("--routines", default=",".join(ROUTINES), help=f"comma-separated, of {', '.join(ROUTINES)} "
                                                                   "(default all)")
    ap.add_argument("--nrhs", type=int, default=1, help="gels' right-hand sides (default 1)")
    add_run_args(ap, "qr_torch_bench.csv")
    return ap


def add_run_args(ap: argparse.ArgumentParser, out: str, gpu: str = "") -> None:
    """The options of how the benchmarks of this family run (bench/run_gebrd_bench.py too): batch
    scale, runs, warm-up, the per-method time budget and the CSV path. gpu: a word for the
    warm-up's help where only the GPU methods warm up by time."""
    ap.add_argument("--batch-scale", type=float, default=1.0,
                    help="multiply every batch (rounded, at least 1; default 1)")
    ap.add_argument("--runs", type=int, default=9, help="timed runs per method, median reported (default 9)")
    ap.add_argument("--warmup-s", type=float, default=0.2, help=f"warm-up seconds per {gpu}method (default 0.2, "
                                                                "at least one call)")
    ap.add_argument("--method-seconds", type=float, default=2.0,
                    help="a method whose first call took over this / (runs + 2) s gets fewer runs (default 2.0)")
    ap.add_argument("--out", type=Path, default=Path(out),
                    help=f"CSV path; the report goes to the same stem with .txt (default {out})")



class Report:
    """A benchmark's CSV, each row written and flushed as it is measured, and the .txt beside it
    (the heading, then table(rows) of the rows so far), written however the run ends: a run cut
    by its time limit (SIGINT) still leaves both."""

    def __init__(self, out: Path, columns: Sequence[str], heading: str,
                 table: Callable[[list[dict[str, str]]], str]) -> None:
        self.out, self.columns, self.heading, self.table = out, list(columns), heading, table
        self.rows: list[dict[str, str]] = []

    def __enter__(self) -> "Report":
        self.out.parent.mkdir(parents=True, exist_ok=True)
        self.file = open(self.out, "w", newline="")
        self.writer = csv.writer(self.file, lineterminator="\n")
        self.writer.writerow(self.columns)
        return self

    def add(self, row: Sequence[Any]) -> None:
        self.writer.writerow(row)
        self.file.flush()
        self.rows.append(dict(zip(self.columns, map(str, row))))

    def __exit__(self, *exc: object) -> None:
        self.file.close()
        report = self.out.with_suffix(".txt")
        report.write_text(f"{self.heading}\n\n{self.table(self.rows)}")
        print(f"# wrote {self.out} and {report}", flush=True)


def torch_and_shoal(script: str) -> tuple[Any, Any] | int:
    """PyTorch with a CUDA device and the shoal package, or the exit status of a benchmark that
    cannot run: 0 (a SKIP line) without PyTorch or a device, 2 without shoal (the library not
    found is an OSError)."""
    try:
        import torch
    except ImportError as e:
        print(f"SKIP: {script}: PyTorch not importable ({e})")
        return 0
    if not torch.cuda.is_available():
        print(f"SKIP: {script}: no CUDA device (torch.cuda.is_available() is False)")
        return 0
    try:
        import shoal
    except (ImportError, OSError) as e:
        print(f"error: cannot import shoal ({e}); run from the repository root with PYTHONPATH=python", file=sys.stderr)
        return 2
    return torch, shoal

def main(argv: Sequence[str] | None = None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    try:
        precs = parse_list(args.precisions, PRECISIONS, "--precisions")
        routines = parse_list(args.routines, ROUTINES, "--routines")
        shapes = parse_shapes(args.shapes)
    except argparse.ArgumentTypeError as e:
        ap.error(str(e))
    if args.runs < 1 or not args.batch_scale > 0 or not args.method_seconds > 0 or args.warmup_s < 0 or args.nrhs < 1:
        ap.error("--runs >= 1, --batch-scale > 0, --method-seconds > 0, --warmup-s >= 0 and --nrhs >= 1 are required")
    env = torch_and_shoal("run_qr_torch_bench")
    if isinstance(env, int):
        return env
    torch, shoal = env
    device = torch.cuda.get_device_name()
    device_line = f"# device {torch.cuda.current_device()}: {device}"
    backend = str(torch.backends.cuda.preferred_linalg_library()).split(".")[-1]
    header = (f"torch {torch.__version__}, CUDA {torch.version.cuda}, linalg library {backend}; "
              f"ms: median of CUDA-event times (inputs "
              f"restored outside the events); speedup: the best other method's ms / shoal ms; check <= {ERROR_LIMIT:g}; "
              f"gels: nrhs {args.nrhs}.")
    title = f"# run_qr_torch_bench (shoal {shoal.__version__}), {time.strftime('%Y-%m-%d %H:%M', time.gmtime())}"
    print(f"{title}\n{device_line}\n# {header}", flush=True)
    stream = torch.cuda.current_stream()
    with Report(args.out, CSV_COLUMNS, f"{title}\n{device_line}\n# {header}", table) as report:
        for prec in precs:
            for routine in routines:
                for m, n, b in shapes:
                    batch = max(1, round(b * args.batch_scale))
                    for r in bench_shape(torch, shoal, stream, prec, routine, m, n, batch, args):
                        g = r.gflops() if math.isfinite(r.ms) else math.nan
                        note = f" ({r.runs} run{'s' if r.runs > 1 else ''})" if 0 < r.runs < args.runs else ""
                        print(f"{prec} {routine:11s} {r.method:8s} {m:4d}x{n:<4d} {batch:6d} {r.ms:11.4f} ms "
                              f"{g:9.1f} Gflop/s  check {r.check:8.2e} {r.status}{note}", flush=True)
                        report.add([device, prec, routine, r.method, m, n, batch, fmt(r.ms), fmt(g),
                                    "" if math.isnan(r.check) else format(r.check, ".3g"), r.status])
    rows = report.rows
    failed = sum(r["status"] != "ok" for r in rows)
    print(f"# {len(rows)} rows, {failed} FAIL or ERROR", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
