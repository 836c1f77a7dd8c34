#!/usr/bin/env python3
"""Batched bidiagonal reduction (LAPACK gebrd, Q^H A P = B): shoal against cuSOLVER and LAPACK on
the host, in one process, on the same data (issue 25's benchmark).

Rows, one per precision (s, d, c, z: float32, float64, complex64, complex128) x shape (m x n :
batch; m < n too) x method:
  shoal     d, e, tauq, taup = shoal.gebrd(A, stream=torch's current stream), in place. Served
            for max(m, n) <= 512: above, the call raises ShoalError SHOAL_STATUS_NOT_SUPPORTED
            and the row is UNSUPPORTED (not an error).
  cusolver  what an NVIDIA user has today (cuSOLVER has no batched gebrd): a Python loop of
            cusolverDn?gebrd, one matrix a call, round-robin over --cusolver-streams (8) CUDA
            streams, one cusolverDn handle per stream (created once per process and bound to its
            stream), Lwork from cusolverDn?gebrd_bufferSize once per shape, a workspace and a
            devInfo per stream allocated outside the timing (bench/cusolver_gebrd_peer.py, the
            libcusolver of PyTorch's wheels, else the system's). cusolverDn?gebrd serves m >= n
            only: its m < n rows are UNSUPPORTED.
  cpu       LAPACKE_?gebrd (LAPACK_COL_MAJOR) from liblapacke on a host copy of the batch (numpy,
            column-major per matrix, contiguous, made outside the timing), the batch split in
            contiguous slices over --cpu-threads worker threads (default 16, or os.cpu_count() if
            smaller; a concurrent.futures pool made once), OpenBLAS single-threaded per call
            (bench/lapacke_gebrd_peer.py). The Python loop around the calls holds the GIL, about a
            microsecond a matrix, and is part of the time, as for any Python user of LAPACKE.
  layout  every batch is made as a contiguous (batch, n, m) tensor and used through its .mT view
          (batch, m, n): column-major per matrix, lda = m, as gebrd's in-place output needs;
          cuSOLVER gets matrix i's address inside it and lda = m; the cpu method the same layout
          on the host. d (batch, k), e (batch, k - 1) real also in c and z, tauq, taup (batch, k),
          k = min(m, n);
  inputs  uniform in [-1, 1], never 0 (torch_lapack_peer.fill_uniform), made on the GPU by a
          torch.Generator seeded from the row's precision and shape; every method reads the same
          pristine batch;
  timing  shoal and cusolver: CUDA events on torch.cuda.current_stream() around the call alone
          (run_qr_torch_bench.time_method, the same rules: after the check call a first warm-up
          call timed on the host; if --method-seconds / (runs + 2) is exceeded no more warm-up
          and the odd number of runs that fits, at least 1; else warm-up for --warmup-s, then the
          median of --runs). cusolver's call: an event recorded on the current stream, every one
          of the 8 streams made to wait on it, the loop, then an event recorded on each stream
          and the current stream made to wait on all of them, so the timing events bracket all
          the streams' work and the host loop's launch time. cpu: time.perf_counter around the
          pool's work (submit to the last result), a warm-up call first (the one that sets the
          runs, as above), the median of the runs. Before every run, for every method, A is
          restored from its pristine copy outside the timing (GPU: copy_ on the current stream;
          cpu: numpy copyto);
  flops   LAWN 41 xGEBRD: m >= n: 4 m n^2 - 4 n^3 / 3; m < n: 4 m^2 n - 4 m^3 / 3; x4 in c and z;
  check   before timing, one untimed call per method; on up to 8 matrices spread over the batch:
          the singular values of the method's bidiagonal B (k x k, real, built from d and e:
          upper if m >= n, else lower; torch.linalg.svdvals in float64) against those of the
          original A in float64 / complex128: max_i |s_i - s0_i| / (s0_max max(m, n) eps), eps
          2^-24 (s, c), 2^-53 (d, z); over 30 or not finite: FAIL (still timed and printed).
          shoal also: d and e must equal A's diagonal and off-diagonal (super- for m >= n, sub-
          for m < n) exactly after the call, over the whole batch, as LAPACK writes B there;
          cusolver: every stream's devInfo 0; cpu: every LAPACKE info 0. A method that raises
          makes an ERROR row; a method whose library is missing SKIP rows (the reason in the
          report).

Output: rows on stdout; a CSV (--out; device,precision,m,n,batch,method,ms,gflops,check,status)
and the report beside it (same stem, .txt): a title line with the date (UTC), the device line,
the settings (the thread and stream counts, the libraries), the reasons of SKIP rows, then per
precision a Markdown table: m x n, batch, each method's ms, and shoal's speedups over cusolver and
over cpu (their ms / shoal's ms: > 1, shoal is faster). Exit status 0 (also "SKIP: ..." without
torch or CUDA), 1 if a row is FAIL or ERROR, 2 on a usage error or when shoal cannot be imported.
"""
from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cusolver_gebrd_peer  # noqa: E402
import lapacke_gebrd_peer  # noqa: E402
from run_qr_torch_bench import (Method, Report, add_run_args, fmt, parse_list, time_method,  # noqa: E402
                                torch_and_shoal)  # (the same timing rules)
from run_qr_torch_bench import parse_shapes as qr_parse_shapes  # noqa: E402
from torch_lapack_peer import dtype_of, fill_uniform, quotient, runs_within, wide  # noqa: E402

PRECISIONS = ("s", "d", "c", "z")
METHODS = ("shoal", "cusolver", "cpu")
DEFAULT_SHAPES = ("16x16:2000,32x32:2000,64x64:1000,128x128:1000,256x256:1000,512x512:1000,1024x1024:200,"
                  "32x16:2000,16x32:2000,512x256:1000,256x512:1000")
EPS = {"s": 2.0 ** -24, "d": 2.0 ** -53, "c": 2.0 ** -24, "z": 2.0 ** -53}
ERROR_LIMIT = 30.0
N_SAMPLES = 8
CPU_THREADS = 16
CUSOLVER_STREAMS = 8
CSV_COLUMNS = ("device", "precision", "m", "n", "batch", "method", "ms", "gflops", "check", "status")
BAD = ("FAIL", "ERROR")      # the statuses that make the exit status 1 (UNSUPPORTED, SKIP do not)


# --- the parts without torch (tests/test_gebrd_bench.py) -----------------------------------------

def parse_shapes(text: str) -> list[tuple[int, int, int]]:
    """'MxN:BATCH,...' -> [(m, n, batch)], m, n, batch >= 1 (m < n allowed: gebrd reduces to a
    lower bidiagonal there)."""
    return qr_parse_shapes(text, tall=False)


def flops(m: int, n: int, prec: str) -> float:
    """LAWN 41's xGEBRD count per matrix, x4 in the complex precisions (a complex multiply-add is
    8 real flops, 4 times a real one's 2)."""
    if m >= n:
        f = 4.0 * m * n * n - 4.0 * n ** 3 / 3.0
    else:
        f = 4.0 * m * m * n - 4.0 * m ** 3 / 3.0
    return f * (4.0 if prec in "cz" else 1.0)


def sample_indices(batch: int, count: int = N_SAMPLES) -> list[int]:
    """Up to `count` distinct indices spread over range(batch), the first and the last included."""
    count = min(count, batch)
    return sorted({int(j * (batch - 1) / max(count - 1, 1) + 0.5) for j in range(count)})


def bidiagonal_positions(k: int, upper: bool) -> tuple[list[int], list[int], list[int], list[int]]:
    """(rows, cols) of B's diagonal, then of its off-diagonal: the superdiagonal (upper, m >= n)
    or the subdiagonal (m < n) of a k x k matrix; e[j] sits at (j, j + 1) or (j + 1, j)."""
    diag = list(range(k))
    lo, hi = list(range(k - 1)), list(range(1, k))
    return (diag, diag) + ((lo, hi) if upper else (hi, lo))


def bidiagonal(d: Any, e: Any, upper: bool, zeros: Callable[[tuple[int, ...]], Any]) -> Any:
    """The (..., k, k) bidiagonal B from d (..., k) and e (..., k - 1), numpy arrays or torch
    tensors alike; zeros(shape) makes the matrix to fill (its dtype and device are the caller's)."""
    k = d.shape[-1]
    b = zeros(tuple(d.shape[:-1]) + (k, k))
    dr, dc, er, ec = bidiagonal_positions(k, upper)
    b[..., dr, dc] = d
    if k > 1:
        b[..., er, ec] = e
    return b


def sv_error(s: Sequence[float], s0: Sequence[float], m: int, n: int, eps: float) -> float:
    """max_i |s_i - s0_i| / (max(s0) max(m, n) eps) for one matrix, both sorted alike
    (svdvals: descending); inf if any value is not finite or the counts differ."""
    if len(s) != len(s0) or not s0:
        return math.inf
    diffs = [abs(a - b) for a, b in zip(s, s0)]
    if not all(math.isfinite(x) for x in diffs + list(s0)):
        return math.inf     # max() of a list with a NaN depends on where the NaN stands
    return quotient(max(diffs), max(s0) * max(m, n) * eps)


def worst_sv_error(s_rows: Sequence[Sequence[float]], s0_rows: Sequence[Sequence[float]], m: int, n: int,
                   eps: float) -> float:
    """The largest sv_error over sampled matrices (rows of singular values)."""
    if len(s_rows) != len(s0_rows):
        return math.inf
    return max((sv_error(s, s0, m, n, eps) for s, s0 in zip(s_rows, s0_rows)), default=math.inf)


def speedup(other_ms: float, shoal_ms: float) -> float:
    """other / shoal (> 1: shoal is faster); NaN where either time does not exist."""
    if not (math.isfinite(other_ms) and math.isfinite(shoal_ms)) or shoal_ms <= 0:
        return math.nan
    return other_ms / shoal_ms


def cell(r: dict[str, str] | None) -> str:
    """A method's table cell: its ms; 'ms FAIL' for a failed check; the status word where there
    is no time (UNSUPPORTED, SKIP, ERROR); empty where the method was not run."""
    if r is None:
        return ""
    ms = float(r["ms"]) if r["ms"] else math.nan
    if r["status"] == "ok":
        return fmt(ms, ".4g")
    return f"{fmt(ms, '.4g')} {r['status']}" if math.isfinite(ms) else r["status"]


def table(rows: Sequence[dict[str, str]]) -> str:
    """The Markdown tables from CSV rows: per precision, one line per shape (in the rows' order),
    each method's ms and shoal's speedups over cusolver and cpu."""
    lines: list[str] = []
    for prec in PRECISIONS:
        groups: dict[tuple[int, int, int], dict[str, dict[str, str]]] = {}
        for r in rows:
            if r["precision"] == prec:
                groups.setdefault((int(r["m"]), int(r["n"]), int(r["batch"])), {})[r["method"]] = r
        if not groups:
            continue
        lines += [f"### {prec}gebrd", "",
                  "| m x n | batch | shoal ms | cusolver ms | cpu ms | speedup vs cusolver | speedup vs cpu |",
                  "|---|---:|---:|---:|---:|---:|---:|"]
        for (m, n, batch), got in groups.items():
            ms = {x: float(got[x]["ms"]) if x in got and got[x]["ms"] else math.nan for x in METHODS}
            ups = [speedup(ms[x], ms["shoal"]) for x in ("cusolver", "cpu")]
            lines.append(f"| {m}x{n} | {batch} | " + " | ".join(cell(got.get(x)) for x in METHODS) + " | "
                         + " | ".join(f"{u:.2f}x" if math.isfinite(u) else "" for u in ups) + " |")
        lines.append("")
    return "\n".join(lines)


@dataclass
class Row:
    precision: str
    m: int
    n: int
    batch: int
    method: str
    ms: float
    check: float
    status: str          # ok, FAIL, ERROR, UNSUPPORTED or SKIP
    runs: int = 0

    def gflops(self) -> float:
        return flops(self.m, self.n, self.precision) * self.batch / (self.ms * 1e6) if math.isfinite(self.ms) \
            else math.nan

    def csv(self, device: str) -> list[str]:
        return [device, self.precision, str(self.m), str(self.n), str(self.batch), self.method, fmt(self.ms),
                fmt(self.gflops()), "" if math.isnan(self.check) else format(self.check, ".3g"), self.status]


# --- the GPU part (torch and shoal imported inside main) ----------------------------------------

@dataclass
class Peers:
    """What the peers share over the run: cuSOLVER's streams, handles and devInfos, the cpu pool,
    and why a method is skipped (a missing library)."""
    streams: list[Any]
    handles: list[int]
    infos: Any                 # (streams,) int32 on the GPU, one devInfo per stream
    pool: Any                  # concurrent.futures.ThreadPoolExecutor
    cpu_threads: int
    skip: dict[str, str]


@dataclass
class Shape:
    """One row's data: the pristine batch a0 (batch, n, m) contiguous, its samples and their
    singular values (float64, descending)."""
    prec: str
    m: int
    n: int
    batch: int
    a0: Any
    idx: list[int]
    s0: list[list[float]]

    @property
    def k(self) -> int:
        return min(self.m, self.n)

    @property
    def eps(self) -> float:
        return EPS[self.prec]


def sv_check(torch: Any, sh: Shape, d: Any, e: Any) -> float:
    """The singular-value error of the sampled bidiagonals (d (S, k), e (S, k - 1), any real dtype,
    on the GPU) against the original matrices'."""
    zeros = lambda shape: torch.zeros(shape, dtype=torch.float64, device=d.device)  # noqa: E731
    b = bidiagonal(d.to(torch.float64), e.to(torch.float64), sh.m >= sh.n, zeros)
    return worst_sv_error(torch.linalg.svdvals(b).tolist(), sh.s0, sh.m, sh.n, sh.eps)


def shoal_method(torch: Any, shoal: Any, stream: Any, sh: Shape) -> Method:
    work = torch.empty_like(sh.a0)
    A = work.mT
    restore = lambda: work.copy_(sh.a0)  # noqa: E731

    def call() -> Any:
        return shoal.gebrd(A, stream=stream)

    def check() -> float:
        restore()
        d, e, _, _ = call()
        # LAPACK writes B into A: d on the diagonal, e on the super- (m >= n) or subdiagonal,
        # exactly (in c and z as complex numbers with a zero imaginary part)
        diag = A.diagonal(dim1=-2, dim2=-1)
        off = A.diagonal(offset=1 if sh.m >= sh.n else -1, dim1=-2, dim2=-1)
        if not (torch.equal(diag, d.to(A.dtype)) and torch.equal(off, e.to(A.dtype))):
            print(f"# {sh.prec} shoal {sh.m}x{sh.n}:{sh.batch}: d or e differ from A's diagonal / off-diagonal",
                  flush=True)
            return math.inf
        i = torch.tensor(sh.idx, device=d.device)
        return sv_check(torch, sh, d[i], e[i])

    return Method("shoal", restore, call, check)


def cusolver_method(torch: Any, stream: Any, peers: Peers, sh: Shape) -> Method:
    """The loop of cusolverDn?gebrd over the 8 streams, forked from and joined to `stream`."""
    m, n, k = sh.m, sh.n, sh.k
    work = torch.empty_like(sh.a0)
    real = torch.float64 if sh.prec in "dz" else torch.float32
    d = torch.empty((sh.batch, k), dtype=real, device="cuda")
    e = torch.empty((sh.batch, max(k - 1, 1)), dtype=real, device="cuda")   # never a 0-byte buffer
    tq = torch.empty((sh.batch, k), dtype=sh.a0.dtype, device="cuda")
    tp = torch.empty_like(tq)
    lwork = cusolver_gebrd_peer.buffer_size(sh.prec, peers.handles[0], m, n)
    works = [torch.empty(max(lwork, 1), dtype=sh.a0.dtype, device="cuda") for _ in peers.streams]
    infos = [peers.infos.data_ptr() + j * peers.infos.element_size() for j in range(len(peers.streams))]
    fork = torch.cuda.Event()
    joins = [torch.cuda.Event() for _ in peers.streams]
    step = lambda t: t.stride(0) * t.element_size()  # noqa: E731
    restore = lambda: work.copy_(sh.a0)  # noqa: E731

    def call() -> Any:
        fork.record(stream)
        for s in peers.streams:
            s.wait_event(fork)
        cusolver_gebrd_peer.gebrd_batch(sh.prec, peers.handles, [w.data_ptr() for w in works], lwork, infos, m, n,
                                        work.data_ptr(), step(work), m, d.data_ptr(), step(d), e.data_ptr(),
                                        step(e), tq.data_ptr(), tp.data_ptr(), step(tq), sh.batch)
        for s, ev in zip(peers.streams, joins):
            ev.record(s)
            stream.wait_event(ev)
        return d

    def check() -> float:
        restore()
        peers.infos.zero_()
        call()
        if int(peers.infos.abs().max()) != 0:
            print(f"# {sh.prec} cusolver {m}x{n}:{sh.batch}: devInfo {peers.infos.tolist()}", flush=True)
            return math.inf
        i = torch.tensor(sh.idx, device="cuda")
        return sv_check(torch, sh, d[i], e[i][:, :k - 1])

    return Method("cusolver", restore, call, check)


def cpu_method(torch: Any, peers: Peers, sh: Shape) -> tuple[Method, Callable[[], float]]:
    """LAPACKE on a host copy; (the method, its host-timed call: seconds)."""
    import numpy as np
    m, n, k = sh.m, sh.n, sh.k
    host = sh.a0.cpu().numpy()             # (batch, n, m) C-contiguous: column-major m x n per matrix
    work = host.copy()
    real = np.float64 if sh.prec in "dz" else np.float32
    d = np.empty((sh.batch, k), dtype=real)
    e = np.empty((sh.batch, max(k - 1, 1)), dtype=real)
    tq = np.empty((sh.batch, k), dtype=host.dtype)
    tp = np.empty_like(tq)
    parts = lapacke_gebrd_peer.slices(sh.batch, peers.cpu_threads)
    restore = lambda: np.copyto(work, host)  # noqa: E731

    def call() -> int:
        return lapacke_gebrd_peer.gebrd_batch(peers.pool, parts, sh.prec, m, n, work.ctypes.data, work.strides[0], m,
                                              d.ctypes.data, d.strides[0], e.ctypes.data, e.strides[0],
                                              tq.ctypes.data, tp.ctypes.data, tq.strides[0])

    def timed() -> float:
        t0 = time.perf_counter()
        info = call()
        s = time.perf_counter() - t0
        if info != 0:
            raise RuntimeError(f"LAPACKE_{sh.prec}gebrd: info {info}")
        return s

    def check() -> float:
        restore()
        info = call()
        if info != 0:
            print(f"# {sh.prec} cpu {m}x{n}:{sh.batch}: LAPACKE info {info}", flush=True)
            return math.inf
        dd = torch.from_numpy(d[sh.idx]).to("cuda")
        ee = torch.from_numpy(e[sh.idx][:, :k - 1]).to("cuda")
        return sv_check(torch, sh, dd, ee)

    return Method("cpu", restore, call, check), timed


def time_host(meth: Method, timed: Callable[[], float], runs: int, method_s: float) -> tuple[float, int]:
    """(median ms, runs) of host-timed calls, meth.restore outside them; the first call is the
    warm-up and sets the runs (runs_within, as for the GPU methods)."""
    meth.restore()
    call_s = timed()
    runs, _ = runs_within(runs, call_s, method_s)
    times = []
    for _ in range(runs):
        meth.restore()
        times.append(timed())
    return statistics.median(times) * 1e3, runs


def not_supported(shoal: Any, e: BaseException) -> bool:
    return isinstance(e, shoal.ShoalError) and (e.name == "SHOAL_STATUS_NOT_SUPPORTED" or e.status == 3)


def bench_shape(torch: Any, shoal: Any, stream: Any, peers: Peers, methods: Sequence[str], prec: str, m: int,
                n: int, batch: int, args: argparse.Namespace) -> list[Row]:
    torch.cuda.empty_cache()
    gen = torch.Generator(device="cuda")
    gen.manual_seed(zlib.crc32(f"{prec}:gebrd:{m}x{n}:{batch}".encode()))
    a0 = torch.empty((batch, n, m), dtype=dtype_of(torch, prec), device="cuda")
    fill_uniform(torch, a0, gen)
    idx = sample_indices(batch)
    s0 = torch.linalg.svdvals(wide(torch, a0.mT[torch.tensor(idx, device="cuda")])).tolist()
    sh = Shape(prec, m, n, batch, a0, idx, s0)
    rows = []
    for name in methods:
        if name in peers.skip:
            rows.append(Row(prec, m, n, batch, name, math.nan, math.nan, "SKIP"))
            continue
        if name == "cusolver" and m < n:      # cusolverDn?gebrd: m >= n only
            rows.append(Row(prec, m, n, batch, name, math.nan, math.nan, "UNSUPPORTED"))
            continue
        try:
            if name == "cpu":
                meth, timed = cpu_method(torch, peers, sh)
            else:
                meth = shoal_method(torch, shoal, stream, sh) if name == "shoal" else \
                    cusolver_method(torch, stream, peers, sh)
            check = meth.check()
            torch.cuda.synchronize()
            if name == "cpu":
                ms, runs = time_host(meth, timed, args.runs, args.method_seconds)
            else:
                ms, runs = time_method(torch, stream, meth, args.runs, args.warmup_s, args.method_seconds)
            status = "ok" if check <= ERROR_LIMIT else "FAIL"
        except Exception as e:  # noqa: BLE001  (a method that raises is a row, the others still run)
            try:     # cusolver's streams may still hold work on the buffers about to be freed
                torch.cuda.synchronize()
            except Exception:  # noqa: BLE001  (a broken context: the next method says so)
                pass
            check, ms, runs = math.nan, math.nan, 0
            status = "UNSUPPORTED" if not_supported(shoal, e) else "ERROR"
            if status == "ERROR":
                print(f"# {prec} {name} {m}x{n}:{batch}: {type(e).__name__}: {e}", flush=True)
        rows.append(Row(prec, m, n, batch, name, ms, check, status, runs))
        meth = timed = None      # a method's buffers go before the next one's are made
    return rows


def make_peers(torch: Any, methods: Sequence[str], streams: int, cpu_threads: int) -> tuple[Peers, list[str]]:
    """Loads the peers' libraries (a failure: that method's rows are SKIP, with the reason) and
    makes what they keep over the run; (peers, settings lines for the report)."""
    from concurrent.futures import ThreadPoolExecutor
    peers = Peers([], [], None, None, cpu_threads, {})
    notes = []
    if "cusolver" in methods:
        try:
            path = cusolver_gebrd_peer.load()
            peers.streams = [torch.cuda.Stream() for _ in range(streams)]
            peers.handles = cusolver_gebrd_peer.create_handles([s.cuda_stream for s in peers.streams])
            peers.infos = torch.zeros(streams, dtype=torch.int32, device="cuda")
            notes.append(f"cusolver: cusolverDn?gebrd a matrix a call, round-robin over {streams} streams, a "
                         f"handle each ({path})")
        except Exception as e:  # noqa: BLE001  (no library, or one without gebrd: SKIP rows)
            peers.skip["cusolver"] = f"{type(e).__name__}: {e}"
    if "cpu" in methods:
        try:
            __import__("numpy")      # the host copy: without numpy, SKIP rows rather than ERROR ones
            line = lapacke_gebrd_peer.load()
            peers.pool = ThreadPoolExecutor(max_workers=cpu_threads)
            notes.append(f"cpu: LAPACKE_?gebrd on {cpu_threads} threads, contiguous slices of the batch "
                         f"(os.cpu_count() {os.cpu_count()}; {line})")
        except Exception as e:  # noqa: BLE001
            peers.skip["cpu"] = f"{type(e).__name__}: {e}"
    for name, why in peers.skip.items():
        notes.append(f"{name}: SKIP rows: {why}")
    return peers, notes


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                                 allow_abbrev=False)
    ap.add_argument("--shapes", default=DEFAULT_SHAPES, help=f"MxN:BATCH,... (default {DEFAULT_SHAPES})")
    ap.add_argument("--precisions", default="s,d", help="comma-separated, of s, d, c, z (default s,d)")
    ap.add_argument("--methods", default=",".join(METHODS), help=f"comma-separated, of {', '.join(METHODS)} "
                                                                 "(default all)")
    add_run_args(ap, "gebrd_bench.csv", "GPU ")
    ap.add_argument("--cpu-threads", type=int, default=None,
                    help=f"the cpu method's worker threads (default {CPU_THREADS}, or os.cpu_count() if smaller)")
    ap.add_argument("--cusolver-streams", type=int, default=CUSOLVER_STREAMS,
                    help=f"streams (and handles) of the cusolver loop (default {CUSOLVER_STREAMS})")
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    try:
        precs = parse_list(args.precisions, PRECISIONS, "--precisions")
        methods = parse_list(args.methods, METHODS, "--methods")
        shapes = parse_shapes(args.shapes)
    except argparse.ArgumentTypeError as e:
        ap.error(str(e))
    cpu_threads = args.cpu_threads if args.cpu_threads is not None else min(CPU_THREADS, os.cpu_count() or 1)
    if (args.runs < 1 or not args.batch_scale > 0 or not args.method_seconds > 0 or args.warmup_s < 0
            or cpu_threads < 1 or args.cusolver_streams < 1):
        ap.error("--runs, --cpu-threads and --cusolver-streams >= 1, --batch-scale > 0, --method-seconds > 0 and "
                 "--warmup-s >= 0 are required")
    env = torch_and_shoal("run_gebrd_bench")
    if isinstance(env, int):
        return env
    torch, shoal = env
    device = torch.cuda.get_device_name()
    device_line = f"# device {torch.cuda.current_device()}: {device}"
    peers, notes = make_peers(torch, methods, args.cusolver_streams, cpu_threads)
    header = "\n# ".join([f"torch {torch.__version__}, CUDA {torch.version.cuda}; shoal: stream = torch's current "
                          f"stream; ms: median of CUDA-event times (cpu: perf_counter), inputs restored outside the "
                          f"timing; speedup: the peer's ms / shoal ms; check <= {ERROR_LIMIT:g}; --runs {args.runs}, "
                          f"--method-seconds {args.method_seconds:g}"] + notes)
    title = f"# run_gebrd_bench (shoal {shoal.__version__}), {time.strftime('%Y-%m-%d %H:%M', time.gmtime())}"
    print(f"{title}\n{device_line}\n# {header}", flush=True)
    stream = torch.cuda.current_stream()
    try:
        with Report(args.out, CSV_COLUMNS, f"{title}\n{device_line}\n# {header}", table) as report:
            for prec in precs:
                for m, n, b in shapes:
                    batch = max(1, round(b * args.batch_scale))
                    for r in bench_shape(torch, shoal, stream, peers, methods, prec, m, n, batch, args):
                        note = f" ({r.runs} run{'s' if r.runs > 1 else ''})" if 0 < r.runs < args.runs else ""
                        print(f"{prec} {r.method:8s} {m:4d}x{n:<4d} {batch:6d} {r.ms:11.4f} ms "
                              f"{r.gflops():9.1f} Gflop/s  check {r.check:8.2e} {r.status}{note}", flush=True)
                        report.add(r.csv(device))
    finally:
        if peers.pool is not None:
            peers.pool.shutdown()
    rows = report.rows
    failed = sum(r["status"] in BAD for r in rows)
    print(f"# {len(rows)} rows, {failed} FAIL or ERROR", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
