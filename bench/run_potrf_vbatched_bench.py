#!/usr/bin/env python3
"""Variable-size batched Cholesky (shoal_?potrf_vbatched): shoal against what a user does without
it, in one process, on the same data (issue 24's benchmark and bar).

Rows, one per precision (s, d; c, z on request) x size distribution x N x method. Distributions
of the members' orders n_i (tests/test_potrf_vbatched_bench.py pins them):
  uniform  n_i uniform in 1..N;
  skewed   n_i = ceil(N u^3), u uniform in [0, 1) (at least 1): most members small, a few large
           (the seed paper's skewed distribution);
  equal    every n_i = N.
N in --ns (default 32, 128, 512, 1024). Members are drawn until the matrices hold --min-mbytes
(default 256 MB) and number --min-members (default 1000), at most --max-members (default 500000);
--batch-scale multiplies both minima.

Methods (all in the same run, on the same matrices, every one checked before it is timed):
  vbatched        info = shoal.potrf_vbatched(list of the members, uplo, stream): the package's
                  call on a Python list, which builds and uploads the size, leading-dimension and
                  pointer arrays on every call (its per-member host work is in the time).
  vbatched-dev    shoal_?potrf_vbatched called directly (the package's library and handle) on the
                  device arrays of sizes, leading dimensions and pointers made once, outside the
                  timing: the routine alone, as a C caller holding those arrays runs it.
  fixed-equal     shoal.potrf on a strided batch of equal orders with the same total flops: with
                  --equal-n mean (default) the order n_eq = cbrt(mean n_i^3) rounded and the batch
                  total flops / flops(n_eq) (about the member count); with max, n_eq = N. Its own
                  Gflop/s (the bar compares rates).
  grouped         without vbatched, shoal: the size array downloaded, the members grouped by
                  order on the host (numpy, stable), the groups' pointer arrays built on the host
                  and uploaded in one copy, one shoal_?potrf_batched call per distinct order; all of
                  it inside the timing (the download synchronizes).
  grouped-vendor  the same grouping with torch.linalg.cholesky_ex per group: the group's members
                  gathered on the device into a stacked (k, n, n) tensor (offsets uploaded, one
                  index_select per group), then one batched call (cuSOLVER / MAGMA behind torch);
                  the gathers are in the time; the factors stay in the stacked outputs.
                  cholesky_ex, not cholesky: the same factorization without the per-call info
                  check that synchronizes (the check call reads info instead).
  padded          every member copied into the top-left of a max_n x max_n identity, one
                  shoal.potrf on that strided batch. The padded batch is made (and restored
                  before every run) outside the timing: a lower bound on the padded approach's
                  time, so the bar against it is if anything stricter.
  loop            torch.linalg.cholesky_ex on one matrix a call (cusolverDn?potrf), round-robin
                  over --loop-streams (4) CUDA streams forked from and joined to the timing
                  stream. Only the first --loop-max members (default 2000) of the list are looped
                  (the list is in random order, so they follow the distribution): its Gflop/s is
                  the useful work of those members over their time, and the report says so.

  layout  the members live in one device buffer, member i column-major n_i x n_i with lda =
          max(1, n_i), at offsets aligned to 256 bytes, in list order (sizes interleaved);
  inputs  symmetric (Hermitian) and strictly diagonally dominant (torch_lapack_peer.fill_spd),
          made on the GPU by a torch.Generator seeded from the row; every method reads the same
          pristine copy;
  timing  CUDA events on torch.cuda.current_stream() around the call (run_qr_torch_bench
          .time_method: after the check call a first warm-up call timed on the host; if
          --method-seconds / (runs + 2) is exceeded no more warm-up and the odd number of runs
          that fits, at least 1; else warm-up for --warmup-s, then the median of --runs). Before
          every run the method's input is restored from its pristine copy outside the events.
          The events bracket the Python calls, so host work (the list call's arrays, the
          grouping, torch's launches) counts where the GPU waits for it;
  flops   useful work: sum over the members of LAWN 41's xPOTRF n^3/3 + n^2/2 + n/6 (x4 in c and
          z), the count of bench/run_lapack_bench.py's potrf rows; padding and the members
          the loop leaves out are not counted. Gflop/s = that / time;
  check   before timing, one untimed call per method; on up to 16 members spread over the list
          plus the largest (fixed-equal, padded: of their own batches), in float64 / complex128
          on the GPU: ||A - L L^H||_1 / (n ||A||_1 eps), eps 2^-24 (s, c), 2^-53 (d, z), over 30
          or not finite: FAIL (still timed and printed); every info must be 0 (else FAIL). A
          method that raises makes an ERROR row (UNSUPPORTED for SHOAL_STATUS_NOT_SUPPORTED).

Output: rows on stdout; a CSV (--out; device,precision,dist,N,members,max_n,method,method_n,
method_batch,gflop,ms,gflops,check,status) and the report beside it (same stem, .txt): title,
device, settings, then per precision a Markdown table of Gflop/s per distribution and N with the
ratios vbatched / best of (grouped, grouped-vendor, padded, loop) and vbatched / fixed-equal, for
both vbatched forms, and whether issue 24's bar is met (equal: >= 0.9x fixed-equal; otherwise
>= min(1.5x the best other, 0.8x fixed-equal)). Exit status 0 (also "SKIP: ..." without torch or
CUDA), 1 if a row is FAIL or ERROR, 2 on a usage error or when shoal cannot be imported.
"""
from __future__ import annotations

import argparse
import math
import random
import sys
import time
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_qr_torch_bench import (Method, Report, add_run_args, fmt, parse_list, time_method,  # noqa: E402
                                torch_and_shoal)  # (the same timing rules)
from torch_lapack_peer import dtype_of, fill_spd, flops_per_problem, quotient, wide  # noqa: E402

PRECISIONS = ("s", "d", "c", "z")
DISTS = ("uniform", "skewed", "equal")
DEFAULT_NS = "32,128,512,1024"
MAX_N = 1024                  # potrf_vbatched's largest order
METHODS = ("vbatched", "vbatched-dev", "fixed-equal", "grouped", "grouped-vendor", "padded", "loop")
VBATCHED = ("vbatched", "vbatched-dev")
OTHERS = ("grouped", "grouped-vendor", "padded", "loop")     # the bar's "best of (b), (c), (d)"
EPS = {"s": 2.0 ** -24, "d": 2.0 ** -53, "c": 2.0 ** -24, "z": 2.0 ** -53}
ELEM_BYTES = {"s": 4, "d": 8, "c": 8, "z": 16}
ALIGN_BYTES = 256
ERROR_LIMIT = 30.0
N_SAMPLES = 16
LOOP_MAX = 2000
LOOP_STREAMS = 4
CSV_COLUMNS = ("device", "precision", "dist", "N", "members", "max_n", "method", "method_n", "method_batch",
               "gflop", "ms", "gflops", "check", "status")
BAD = ("FAIL", "ERROR")


# --- the parts without torch (tests/test_potrf_vbatched_bench.py) --------------------------------

def parse_ns(text: str) -> list[int]:
    """'32,128,...' -> [32, 128, ...], each 1..1024."""
    try:
        ns = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"--ns takes orders 1..{MAX_N}: not {text!r}") from None
    if not ns or any(not 1 <= n <= MAX_N for n in ns):
        raise argparse.ArgumentTypeError(f"--ns takes orders 1..{MAX_N}: not {text!r}")
    return ns


def draw_size(dist: str, big_n: int, rng: random.Random) -> int:
    """One member's order under `dist` with maximum big_n."""
    if dist == "uniform":
        return rng.randint(1, big_n)
    if dist == "skewed":
        return max(1, math.ceil(big_n * rng.random() ** 3))
    if dist == "equal":
        return big_n
    raise ValueError(f"unknown distribution {dist!r}")


def draw_sizes(dist: str, big_n: int, elem_bytes: int, min_bytes: float, min_members: int, max_members: int,
               seed: int) -> list[int]:
    """Members' orders, drawn until their matrices hold min_bytes and they number min_members, or
    max_members are drawn. Deterministic in seed (a run can be repeated member for member)."""
    rng = random.Random(seed)
    sizes: list[int] = []
    total = 0
    while len(sizes) < max_members and (total < min_bytes or len(sizes) < min_members):
        n = draw_size(dist, big_n, rng)
        sizes.append(n)
        total += n * n * elem_bytes
    return sizes


def flops(n: int, prec: str) -> float:
    """LAWN 41's xPOTRF count for one n x n matrix, x4 in c and z (torch_lapack_peer's)."""
    return flops_per_problem("potrf", n, prec)


def total_flops(sizes: Sequence[int], prec: str) -> float:
    return sum(flops(n, prec) for n in sizes)


def equal_batch(sizes: Sequence[int], prec: str, mode: str) -> tuple[int, int]:
    """(n_eq, batch) of the fixed-size comparison with about the flops of `sizes`: mode 'mean'
    takes n_eq = cbrt(mean n^3) rounded (so the batch is about the member count), 'max' n_eq =
    max(sizes)."""
    if not sizes:
        raise ValueError("no sizes")
    if mode == "mean":
        n_eq = max(1, round((sum(n ** 3 for n in sizes) / len(sizes)) ** (1.0 / 3.0)))
    elif mode == "max":
        n_eq = max(sizes)
    else:
        raise ValueError(f"--equal-n takes mean or max: not {mode!r}")
    return n_eq, max(1, round(total_flops(sizes, prec) / flops(n_eq, prec)))


def offsets(sizes: Sequence[int], elem_bytes: int, align_bytes: int = ALIGN_BYTES) -> tuple[list[int], int]:
    """(element offset of each member, total elements) in one buffer, members in list order, each
    n^2 elements starting at a multiple of align_bytes (as separate allocations would)."""
    step = max(1, align_bytes // elem_bytes)
    offs, pos = [], 0
    for n in sizes:
        offs.append(pos)
        pos += -(-n * n // step) * step
    return offs, pos


def group_by_size(sizes: Any) -> list[tuple[int, Any]]:
    """[(n, indices of the members of order n, in list order)] for each distinct n, ascending: the
    host-side grouping a caller without vbatched does (numpy; sizes a numpy int array)."""
    import numpy as np
    order = np.argsort(sizes, kind="stable")
    ordered = sizes[order]
    values, starts = np.unique(ordered, return_index=True)
    ends = list(starts[1:]) + [len(order)]
    return [(int(v), order[s:e]) for v, s, e in zip(values, starts, ends)]


def sample_members(sizes: Sequence[int], count: int = N_SAMPLES) -> list[int]:
    """Up to `count` indices spread over the list (first and last included), plus the largest
    member: the ones the check factors again on the host side."""
    m = len(sizes)
    count = min(count, m)
    idx = {int(j * (m - 1) / max(count - 1, 1) + 0.5) for j in range(count)}
    idx.add(max(range(m), key=lambda i: sizes[i]))
    return sorted(idx)


def rate(gflop: float, ms: float) -> float:
    """Gflop/s from Gflop and ms; NaN where there is no time."""
    return gflop / (ms * 1e-3) if math.isfinite(ms) and ms > 0 else math.nan


def ratios(gflops: dict[str, float], vb: str) -> tuple[float, float]:
    """(vb / the best of OTHERS, vb / fixed-equal) in Gflop/s, from the methods that passed
    (gflops: method -> rate, NaN or absent where the method has no valid rate)."""
    v = gflops.get(vb, math.nan)
    others = [gflops[x] for x in OTHERS if math.isfinite(gflops.get(x, math.nan))]
    best = max(others) if others else math.nan
    fixed = gflops.get("fixed-equal", math.nan)
    return (v / best if math.isfinite(v) and best > 0 else math.nan,
            v / fixed if math.isfinite(v) and math.isfinite(fixed) and fixed > 0 else math.nan)


def bar_met(dist: str, vs_best: float, vs_fixed: float) -> bool | None:
    """Issue 24's bar from the ratios: equal sizes, >= 0.9x fixed-equal; otherwise >= 1.5x the
    best other or >= 0.8x fixed-equal, whichever bar is lower (so meeting either suffices). None
    where the ratios it needs are missing."""
    if dist == "equal":
        return vs_fixed >= 0.9 if math.isfinite(vs_fixed) else None
    known = [r >= need for r, need in ((vs_best, 1.5), (vs_fixed, 0.8)) if math.isfinite(r)]
    return any(known) if known else None


def cell(r: dict[str, str] | None) -> str:
    """A method's cell: its Gflop/s; 'x FAIL' for a failed check; the status word without a time."""
    if r is None:
        return ""
    g = float(r["gflops"]) if r["gflops"] else math.nan
    if r["status"] == "ok":
        return fmt(g, ".4g")
    return f"{fmt(g, '.4g')} {r['status']}" if math.isfinite(g) else r["status"]


def _x(v: float) -> str:
    return f"{v:.2f}x" if math.isfinite(v) else ""


def _yes(v: bool | None) -> str:
    return "" if v is None else ("met" if v else "missed")


def table(rows: Sequence[dict[str, str]]) -> str:
    """The Markdown tables from CSV rows (bench/results_doc.py can render a committed run with
    it): per precision, a line per distribution and N in the rows' order, each method's Gflop/s,
    the ratios of both vbatched forms and the bar."""
    lines: list[str] = []
    for prec in PRECISIONS:
        groups: dict[tuple[str, int, int], dict[str, dict[str, str]]] = {}
        for r in rows:
            if r["precision"] == prec:
                groups.setdefault((r["dist"], int(r["N"]), int(r["members"])), {})[r["method"]] = r
        if not groups:
            continue
        lines += [f"### {prec}potrf_vbatched, Gflop/s of useful work", "",
                  "| dist | N | members | " + " | ".join(METHODS) + " | vb / best | vb / fixed | "
                  "vb-dev / best | vb-dev / fixed | bar vb | bar vb-dev |",
                  "|---|---:|---:|" + "---:|" * len(METHODS) + "---:|---:|---:|---:|---|---|"]
        for (dist, big_n, members), got in groups.items():
            g = {x: float(r["gflops"]) for x, r in got.items() if r["status"] == "ok" and r["gflops"]}
            rs = [ratios(g, vb) for vb in VBATCHED]
            lines.append(f"| {dist} | {big_n} | {members} | " + " | ".join(cell(got.get(x)) for x in METHODS)
                         + " | " + " | ".join(_x(v) for pair in rs for v in pair) + " | "
                         + " | ".join(_yes(bar_met(dist, *pair)) for pair in rs) + " |")
        lines.append("")
    return "\n".join(lines)


@dataclass
class Row:
    precision: str
    dist: str
    big_n: int
    members: int
    max_n: int
    method: str
    method_n: int           # fixed-equal's n_eq, padded's max_n; 0 where orders vary
    method_batch: int       # matrices the method factored (loop: its capped count)
    gflop: float            # useful work of those matrices
    ms: float
    check: float
    status: str             # ok, FAIL, ERROR, UNSUPPORTED or SKIP
    runs: int = 0

    def gflops(self) -> float:
        return rate(self.gflop, self.ms)

    def csv(self, device: str) -> list[str]:
        return [device, self.precision, self.dist, str(self.big_n), str(self.members), str(self.max_n),
                self.method, str(self.method_n) if self.method_n else "", str(self.method_batch),
                fmt(self.gflop), fmt(self.ms), fmt(self.gflops()),
                "" if math.isnan(self.check) else format(self.check, ".3g"), self.status]


# --- the GPU part (torch and shoal imported inside main) ----------------------------------------

@dataclass
class Data:
    """One row group's members: the pristine buffer a0 and its working copy, the sizes, offsets
    and device arrays (sizes, lda int32; pointers int64 into work), the sampled members."""
    prec: str
    uplo: str
    sizes: list[int]
    offs: list[int]
    a0: Any
    work: Any
    n_dev: Any
    lda_dev: Any
    ptr_dev: Any
    sample: list[int]

    @property
    def eps(self) -> float:
        return EPS[self.prec]

    @property
    def max_n(self) -> int:
        return max(self.sizes)

    def member(self, buf: Any, i: int) -> Any:
        """Member i of buf (a0 or work) as a column-major n x n view."""
        n = self.sizes[i]
        return buf.as_strided((n, n), (1, max(1, n)), self.offs[i])

    def restore(self) -> Any:
        return self.work.copy_(self.a0)


def residual(torch: Any, a: Any, f: Any, upper: bool, eps: float) -> float:
    """||A - L L^H||_1 / (n ||A||_1 eps) of one factor f (L in its lower triangle, or U in its
    upper with upper), in float64 / complex128; inf when not finite. 0 for n = 0."""
    n = a.shape[-1]
    if n == 0:
        return 0.0
    a, t = wide(torch, a), wide(torch, f)
    t = torch.triu(t) if upper else torch.tril(t)
    m = t.mH @ t if upper else t @ t.mH
    return quotient(float(torch.linalg.matrix_norm(a - m, ord=1)),
                    n * float(torch.linalg.matrix_norm(a, ord=1)) * eps)


def worst_of(torch: Any, d: Data, pairs: Sequence[tuple[Any, Any]], info: Any) -> float:
    """The largest residual over (original, factor) pairs; inf if any info is nonzero."""
    if info is not None and int(info.abs().max()) != 0:
        print(f"# info not 0: {int((info != 0).sum())} members", flush=True)
        return math.inf
    return max((residual(torch, a, f, d.uplo == "U", d.eps) for a, f in pairs), default=0.0)


def make_data(torch: Any, prec: str, uplo: str, sizes: list[int], seed: int) -> Data:
    """The members in one buffer (list order, aligned), SPD, and their device arrays."""
    import numpy as np
    offs, total = offsets(sizes, ELEM_BYTES[prec])
    dtype = dtype_of(torch, prec)
    a0 = torch.zeros(max(total, 1), dtype=dtype, device="cuda")
    gen = torch.Generator(device="cuda")
    gen.manual_seed(seed)
    offs_np = np.asarray(offs, dtype=np.int64)
    for n, idx in group_by_size(np.asarray(sizes)):
        _fill_group(torch, a0, gen, n, offs_np[idx])
    work = a0.clone()
    base, item = work.data_ptr(), work.element_size()
    up = lambda x, t: torch.from_numpy(np.asarray(x, dtype=t)).to("cuda")  # noqa: E731
    return Data(prec, uplo, sizes, offs, a0, work, up(sizes, np.int32), up([max(1, n) for n in sizes], np.int32),
                up([base + o * item for o in offs], np.int64), sample_members(sizes))


def _fill_group(torch: Any, a0: Any, gen: Any, n: int, offs: Any) -> None:
    """The members of order n (element offsets offs) get SPD matrices: made stacked, scattered."""
    if n == 0:
        return
    chunk = max(1, (1 << 24) // (n * n))
    ar = torch.arange(n * n, device="cuda")
    for lo in range(0, len(offs), chunk):
        o = torch.from_numpy(offs[lo:lo + chunk]).to("cuda")
        m = torch.empty((len(o), n, n), dtype=a0.dtype, device="cuda")
        fill_spd(torch, m, gen)
        # m[k] is symmetric: its row-major storage is the column-major matrix as well
        a0.index_copy_(0, (o[:, None] + ar).reshape(-1), m.reshape(-1))


class Lib:
    """The package's libshoal and the device's handle, bound to torch's current stream, for the
    methods that call the C API (as bench/python_overhead.py does)."""

    def __init__(self, torch: Any, stream: Any) -> None:
        from shoal import _context, _library
        self.lib = _library.load()
        h = _context.handle(torch.cuda.current_device(), self.lib)
        with h.lock:
            _context.check(self.lib, self.lib.shoal_set_stream(h.ptr, stream.cuda_stream), "shoal_set_stream")
            h.stream = stream.cuda_stream
        self.handle = h.ptr

    def __call__(self, name: str, *args: Any) -> None:
        status = getattr(self.lib, name)(self.handle, *args)
        if status != 0:
            from shoal import _context
            _context.check(self.lib, status, name)


def vbatched_method(torch: Any, shoal: Any, stream: Any, d: Data) -> Method:
    views = [d.member(d.work, i) for i in range(len(d.sizes))]

    def call() -> Any:
        return shoal.potrf_vbatched(views, uplo=d.uplo, stream=stream)

    def check() -> float:
        d.restore()
        info = call()
        return worst_of(torch, d, [(d.member(d.a0, i), views[i]) for i in d.sample], info)

    return Method("vbatched", d.restore, call, check)


def vbatched_dev_method(torch: Any, lib: Lib, d: Data) -> Method:
    info = torch.zeros(len(d.sizes), dtype=torch.int32, device="cuda")
    fill = 0 if d.uplo == "L" else 1
    name = f"shoal_{d.prec}potrf_vbatched"

    def call() -> Any:
        lib(name, fill, d.n_dev.data_ptr(), max(1, d.max_n), d.ptr_dev.data_ptr(), d.lda_dev.data_ptr(),
            info.data_ptr(), len(d.sizes))
        return info

    def check() -> float:
        d.restore()
        info.fill_(-99)
        call()
        return worst_of(torch, d, [(d.member(d.a0, i), d.member(d.work, i)) for i in d.sample], info)

    return Method("vbatched-dev", d.restore, call, check)


def strided_method(torch: Any, shoal: Any, stream: Any, name: str, a0: Any, d: Data, idx: list[int],
                   orig: Any) -> Method:
    """shoal.potrf on a column-major strided batch a0 (batch, n, n) (fixed-equal and padded);
    orig(i): the matrix whose factor batch member i holds (padded: its top-left part)."""
    work = torch.empty_like(a0)
    A = work.mT
    restore = lambda: work.copy_(a0)  # noqa: E731

    def call() -> Any:
        return shoal.potrf(A, uplo=d.uplo, stream=stream)

    def check() -> float:
        restore()
        info = call()
        pairs = []
        for i in idx:
            a = orig(i)
            n = a.shape[-1]
            pairs.append((a, A[i, :n, :n]))
        return worst_of(torch, d, pairs, info)

    return Method(name, restore, call, check)


def spd_batch(torch: Any, prec: str, n: int, batch: int, seed: int) -> Any:
    """(batch, n, n) SPD, contiguous (its .mT is column-major)."""
    a = torch.empty((batch, n, n), dtype=dtype_of(torch, prec), device="cuda")
    gen = torch.Generator(device="cuda")
    gen.manual_seed(seed)
    fill_spd(torch, a, gen)
    return a


def gather(buf: Any, offs: Any, n: int) -> Any:
    """The members of order n at element offsets offs (a device int64 tensor) of the flat buffer,
    copied into a stacked (k, n, n) tensor: index_select over the overlapping view of every
    n^2-element window (a view, so only the k members are read, and no index per element is
    made). Read row-major, a column-major member is its transpose: A itself when real symmetric,
    conj(A) when Hermitian (the padded batch is read back column-major, which undoes it; the
    vendor factors conj(A), and its check compares with that)."""
    return buf.unfold(0, n * n, 1).index_select(0, offs).view(len(offs), n, n)


def padded_batch(torch: Any, d: Data) -> Any:
    """Every member in the top-left of a max_n identity, (count, max_n, max_n) contiguous
    (its .mT column-major, the members transposed in: they are symmetric)."""
    import numpy as np
    m = d.max_n
    p = torch.zeros((len(d.sizes), m, m), dtype=d.a0.dtype, device="cuda")
    p.diagonal(dim1=-2, dim2=-1).fill_(1)
    offs_np = np.asarray(d.offs, dtype=np.int64)
    for n, idx in group_by_size(np.asarray(d.sizes)):
        if n == 0:
            continue
        src = gather(d.a0, torch.from_numpy(offs_np[idx]).to("cuda"), n)
        p[torch.from_numpy(idx).to("cuda"), :n, :n] = src
    return p


def grouped_method(torch: Any, lib: Lib, d: Data) -> Method:
    """One shoal_?potrf_batched per distinct order, the grouping on the host inside the timing."""
    import numpy as np
    info = torch.zeros(len(d.sizes), dtype=torch.int32, device="cuda")
    fill = 0 if d.uplo == "L" else 1
    name = f"shoal_{d.prec}potrf_batched"
    keep: list[Any] = []

    def call() -> Any:
        sizes = d.n_dev.cpu().numpy()                  # the download synchronizes, as for any caller
        ptrs = d.ptr_dev.cpu().numpy()
        groups = [(n, idx) for n, idx in group_by_size(sizes) if n > 0]
        order = np.concatenate([idx for _, idx in groups]) if groups else np.zeros(0, np.int64)
        dev = torch.from_numpy(ptrs[order]).to("cuda")    # every group's pointers, one upload
        keep[:] = [dev, order]
        info.zero_()
        pos = 0
        for n, idx in groups:
            lib(name, fill, n, dev.data_ptr() + 8 * pos, n, info.data_ptr() + 4 * pos, len(idx))
            pos += len(idx)
        return info

    def check() -> float:
        d.restore()
        call()
        return worst_of(torch, d, [(d.member(d.a0, i), d.member(d.work, i)) for i in d.sample], info)

    return Method("grouped", d.restore, call, check)


def grouped_vendor_method(torch: Any, d: Data) -> Method:
    """torch.linalg.cholesky_ex per distinct order on stacked gathers of the group's members."""
    import numpy as np
    upper = d.uplo == "U"
    offs_np = np.asarray(d.offs, dtype=np.int64)
    out: dict[str, Any] = {}

    def call() -> Any:
        sizes = d.n_dev.cpu().numpy()                  # the download synchronizes
        groups = [(n, idx) for n, idx in group_by_size(sizes) if n > 0]
        order = np.concatenate([idx for _, idx in groups]) if groups else np.zeros(0, np.int64)
        offs = torch.from_numpy(offs_np[order]).to("cuda")   # the members' offsets, one upload
        results, pos = [], 0
        for n, idx in groups:
            stacked = gather(d.work, offs[pos:pos + len(idx)], n)
            results.append(torch.linalg.cholesky_ex(stacked, upper=upper))
            pos += len(idx)
        out.update(groups=groups, results=results)
        return results

    def check() -> float:
        d.restore()
        call()
        where = {int(i): (g, k) for g, (_, idx) in enumerate(out["groups"]) for k, i in enumerate(idx)}
        infos = [r.info for r in out["results"]]
        info = torch.cat([x.reshape(-1) for x in infos]) if infos else None
        # the stacked members are A^T (conj(A) in c, z: gather's row-major reading)
        pairs = [(d.member(d.a0, i).mT, out["results"][where[i][0]].L[where[i][1]]) for i in d.sample if i in where]
        return worst_of(torch, d, pairs, info)

    return Method("grouped-vendor", d.restore, call, check)


def loop_method(torch: Any, stream: Any, d: Data, count: int, streams: list[Any]) -> Method:
    """torch.linalg.cholesky_ex a matrix a call over the first `count` members, round-robin over
    `streams`, forked from and joined to `stream`."""
    upper = d.uplo == "U"
    views = [d.member(d.work, i) for i in range(count)]
    fork = torch.cuda.Event()
    joins = [torch.cuda.Event() for _ in streams]
    out: list[Any] = []

    def call() -> Any:
        fork.record(stream)
        for s in streams:
            s.wait_event(fork)
        results = []
        for i, a in enumerate(views):
            with torch.cuda.stream(streams[i % len(streams)]):
                results.append(torch.linalg.cholesky_ex(a, upper=upper))
        for s, ev in zip(streams, joins):
            ev.record(s)
            stream.wait_event(ev)
        out[:] = results
        return None

    def check() -> float:
        d.restore()
        call()
        torch.cuda.synchronize()
        info = torch.stack([r.info for r in out]) if out else None
        pairs = [(d.member(d.a0, i), out[i].L) for i in d.sample if i < count]
        return worst_of(torch, d, pairs, info)

    return Method("loop", d.restore, call, check)


@dataclass
class Case:
    """One row group: precision, distribution, N and the members' orders."""
    prec: str
    dist: str
    big_n: int
    sizes: list[int]

    def row(self, method: str, n: int, batch: int, gflop: float, ms: float, check: float, status: str,
            runs: int = 0) -> Row:
        return Row(self.prec, self.dist, self.big_n, len(self.sizes), max(self.sizes), method, n, batch, gflop,
                   ms, check, status, runs)


def not_supported(shoal: Any, e: BaseException) -> bool:
    return isinstance(e, shoal.ShoalError) and e.name == "SHOAL_STATUS_NOT_SUPPORTED"


def build_method(torch: Any, shoal: Any, stream: Any, lib: Lib, d: Data, c: Case, name: str,
                 args: argparse.Namespace, streams: list[Any]) -> tuple[Method, int, int, float]:
    """(the method, its method_n, method_batch, useful Gflop) for one row group."""
    useful = total_flops(c.sizes, c.prec) / 1e9
    count = len(c.sizes)
    if name == "vbatched":
        return vbatched_method(torch, shoal, stream, d), 0, count, useful
    if name == "vbatched-dev":
        return vbatched_dev_method(torch, lib, d), 0, count, useful
    if name == "grouped":
        return grouped_method(torch, lib, d), 0, count, useful
    if name == "grouped-vendor":
        return grouped_vendor_method(torch, d), 0, count, useful
    if name == "loop":
        k = min(count, args.loop_max)
        return loop_method(torch, stream, d, k, streams), 0, k, total_flops(c.sizes[:k], c.prec) / 1e9
    if name == "padded":
        p = padded_batch(torch, d)
        orig = lambda i: d.member(d.a0, i)  # noqa: E731
        return strided_method(torch, shoal, stream, name, p, d, d.sample, orig), d.max_n, count, useful
    n_eq, batch = equal_batch(c.sizes, c.prec, args.equal_n)
    a = spd_batch(torch, c.prec, n_eq, batch, zlib.crc32(f"{c.prec}:{c.dist}:{c.big_n}:equal".encode()))
    idx = sample_members([n_eq] * batch)
    meth = strided_method(torch, shoal, stream, name, a, d, idx, lambda i: a[i].mT)
    return meth, n_eq, batch, total_flops([n_eq], c.prec) * batch / 1e9


def bench_case(torch: Any, shoal: Any, stream: Any, lib: Lib, c: Case, methods: Sequence[str],
               args: argparse.Namespace, streams: list[Any]) -> list[Row]:
    torch.cuda.empty_cache()
    d = make_data(torch, c.prec, args.uplo, c.sizes, zlib.crc32(f"{c.prec}:{c.dist}:{c.big_n}".encode()))
    rows = []
    for name in methods:
        meth: Method | None = None
        n_m, batch, gflop = 0, len(c.sizes), math.nan
        try:
            meth, n_m, batch, gflop = build_method(torch, shoal, stream, lib, d, c, name, args, streams)
            check = meth.check()
            torch.cuda.synchronize()
            ms, runs = time_method(torch, stream, meth, args.runs, args.warmup_s, args.method_seconds)
            status = "ok" if check <= ERROR_LIMIT else "FAIL"
        except Exception as e:  # noqa: BLE001  (a method that raises is a row, the others still run)
            try:     # the loop's streams may still hold work on buffers about to be freed
                torch.cuda.synchronize()
            except Exception:  # noqa: BLE001
                pass
            check, ms, runs = math.nan, math.nan, 0
            status = "UNSUPPORTED" if not_supported(shoal, e) else "ERROR"
            if status == "ERROR":
                print(f"# {c.prec} {name} {c.dist} N={c.big_n}: {type(e).__name__}: {e}", flush=True)
        rows.append(c.row(name, n_m, batch, gflop, ms, check, status, runs))
        meth = None      # a method's buffers go before the next one's are made
        torch.cuda.synchronize()
        torch.cuda.empty_cache()
    return rows


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                                 allow_abbrev=False)
    ap.add_argument("--ns", default=DEFAULT_NS, help=f"the distributions' N, comma-separated, 1..{MAX_N} "
                                                     f"(default {DEFAULT_NS})")
    ap.add_argument("--dists", default=",".join(DISTS), help=f"comma-separated, of {', '.join(DISTS)} (default all)")
    ap.add_argument("--precisions", default="s,d", help="comma-separated, of s, d, c, z (default s,d)")
    ap.add_argument("--methods", default=",".join(METHODS), help=f"comma-separated, of {', '.join(METHODS)} "
                                                                 "(default all)")
    ap.add_argument("--uplo", choices=("L", "U"), default="L", help="the triangle factored (default L)")
    ap.add_argument("--min-mbytes", type=float, default=256.0,
                    help="members are drawn until their matrices hold this many MB (default 256)")
    ap.add_argument("--min-members", type=int, default=1000, help="and number at least this (default 1000)")
    ap.add_argument("--max-members", type=int, default=500_000, help="but never more than this (default 500000)")
    ap.add_argument("--equal-n", choices=("mean", "max"), default="mean",
                    help="fixed-equal's order: cbrt(mean n^3) or N (default mean)")
    ap.add_argument("--loop-max", type=int, default=LOOP_MAX,
                    help=f"the loop method factors the first this many members (default {LOOP_MAX})")
    ap.add_argument("--loop-streams", type=int, default=LOOP_STREAMS,
                    help=f"CUDA streams of the loop method (default {LOOP_STREAMS})")
    ap.add_argument("--seed", type=int, default=24, help="the size draws' seed (default 24)")
    add_run_args(ap, "potrf_vbatched_bench.csv")
    return ap


def parse_args(ap: argparse.ArgumentParser, argv: Sequence[str] | None) -> tuple[argparse.Namespace, list[str],
                                                                                  list[str], list[str], list[int]]:
    args = ap.parse_args(argv)
    try:
        precs = parse_list(args.precisions, PRECISIONS, "--precisions")
        dists = parse_list(args.dists, DISTS, "--dists")
        methods = parse_list(args.methods, METHODS, "--methods")
        ns = parse_ns(args.ns)
    except argparse.ArgumentTypeError as e:
        ap.error(str(e))
    if (args.runs < 1 or not args.batch_scale > 0 or not args.method_seconds > 0 or args.warmup_s < 0
            or args.min_members < 1 or args.max_members < 1 or args.min_mbytes < 0 or args.loop_max < 1
            or args.loop_streams < 1):
        ap.error("--runs, --min-members, --max-members, --loop-max and --loop-streams >= 1, --batch-scale > 0, "
                 "--method-seconds > 0, --min-mbytes >= 0 and --warmup-s >= 0 are required")
    return args, precs, dists, methods, ns


def settings(torch: Any, args: argparse.Namespace) -> str:
    backend = str(torch.backends.cuda.preferred_linalg_library()).split(".")[-1]
    return "\n# ".join([
        f"torch {torch.__version__}, CUDA {torch.version.cuda}, linalg library {backend}; uplo {args.uplo}; "
        f"Gflop/s of useful work (LAWN 41 potrf per member); ms: median of CUDA-event times, inputs restored "
        f"outside the timing; check <= {ERROR_LIMIT:g}; --runs {args.runs}, --method-seconds {args.method_seconds:g}",
        f"members: until {args.min_mbytes * args.batch_scale:g} MB and {round(args.min_members * args.batch_scale)} "
        f"members, at most {args.max_members}; --seed {args.seed}; fixed-equal: --equal-n {args.equal_n}",
        f"loop: the first {args.loop_max} members only (its Gflop/s is theirs), torch.linalg.cholesky_ex a matrix "
        f"a call over {args.loop_streams} streams; padded: the padding copy outside the timing (a lower bound); "
        "vbatched: the package's list call (host arrays built per call), vbatched-dev: the C call on device "
        "arrays made once",
        "bar (issue 24): equal >= 0.9x fixed-equal; uniform, skewed >= min(1.5x best of grouped, grouped-vendor, "
        "padded, loop; 0.8x fixed-equal)"])


def cases(precs: Sequence[str], dists: Sequence[str], ns: Sequence[int], args: argparse.Namespace) -> list[Case]:
    out = []
    for prec in precs:
        for dist in dists:
            for big_n in ns:
                seed = zlib.crc32(f"{args.seed}:{dist}:{big_n}:{prec}".encode())
                sizes = draw_sizes(dist, big_n, ELEM_BYTES[prec], args.min_mbytes * 1e6 * args.batch_scale,
                                   max(1, round(args.min_members * args.batch_scale)), args.max_members, seed)
                out.append(Case(prec, dist, big_n, sizes))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = build_parser()
    args, precs, dists, methods, ns = parse_args(ap, argv)
    env = torch_and_shoal("run_potrf_vbatched_bench")
    if isinstance(env, int):
        return env
    torch, shoal = env
    device = torch.cuda.get_device_name()
    device_line = f"# device {torch.cuda.current_device()}: {device}"
    header = settings(torch, args)
    title = f"# run_potrf_vbatched_bench (shoal {shoal.__version__}), {time.strftime('%Y-%m-%d %H:%M', time.gmtime())}"
    print(f"{title}\n{device_line}\n# {header}", flush=True)
    stream = torch.cuda.current_stream()
    try:
        lib = Lib(torch, stream)       # vbatched-dev and grouped call the C API: they need it loaded
    except (shoal.LibraryNotFoundError, shoal.ShoalError) as e:
        print(f"error: libshoal: {e}; build it with `make` (or set SHOAL_LIBRARY)", file=sys.stderr)
        return 2
    streams = [torch.cuda.Stream() for _ in range(args.loop_streams)]
    with Report(args.out, CSV_COLUMNS, f"{title}\n{device_line}\n# {header}", table) as report:
        for c in cases(precs, dists, ns, args):
            for r in bench_case(torch, shoal, stream, lib, c, methods, args, streams):
                note = f" ({r.runs} run{'s' if r.runs > 1 else ''})" if 0 < r.runs < args.runs else ""
                print(f"{c.prec} {c.dist:7s} N={c.big_n:<4d} {len(c.sizes):7d} {r.method:14s} {r.ms:11.4f} ms "
                      f"{r.gflops():9.1f} Gflop/s  check {r.check:8.2e} {r.status}{note}", flush=True)
                report.add(r.csv(device))
    rows = report.rows
    failed = sum(r["status"] in BAD for r in rows)
    print(f"# {len(rows)} rows, {failed} FAIL or ERROR", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
