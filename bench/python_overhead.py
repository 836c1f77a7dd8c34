#!/usr/bin/env python3
"""What the Python package costs over the C API: shoal's PyTorch calls against the very C call
that the package makes underneath, in the same process, on the same handle, stream and data
(issue 26: "a PyTorch batched GEMM/LU call through the package is within 5% of the C API's time
for the same call").

usage, on the GPU machine with the library built (lib/libshoal.so, or SHOAL_LIBRARY=<path>):
  PYTHONPATH=python python3 bench/python_overhead.py --out bench/results/<gpu>-<date>-python.csv
It writes the CSV, a <out>.txt beside it (date, device, method, the table: bench/results_doc.py
reads its first two lines) and prints the Markdown table. Exit 1 if a correctness check fails.

For each case:
  c_api_ms     the C function (shoal_?gemm_strided_batched, shoal_?getrf_strided_batched) called
               through ctypes with every argument prepared beforehand (raw device pointers, the
               package's own handle, ipiv and info allocated once): what a C program does;
  package_ms   the public call as a user writes it (shoal.gemm(A, B, C), shoal.getrf(A)) on torch
               CUDA tensors, with all the package does per call (reading the tensors, checks,
               getrf's new ipiv and info tensors; "getrf+out" passes them: ipiv=, info=);
  ratio        package_ms / c_api_ms;
  host_us_*    the host time of one call with the GPU queue out of the way: a tiny batch (16),
               N back-to-back calls timed with time.perf_counter, one synchronize after the timer.
Both columns of a row time the same C function with the same arguments (checked: the package's
call is captured and compared, and both results must be bitwise equal). Times are per call: CUDA
events around a loop of --calls back-to-back calls on torch's current stream (the stream the
package picks, and the handle's stream: checked), after a warm-up of ~0.2 s; the median of --reps
loops, the two methods alternating. A loop starts while the GPU is still busy (~1 ms of
torch.cuda._sleep before the start event), so that the host issues the first call while the queue
is not empty, as in a program that keeps the GPU busy: the times are those of calls in a stream of
work. With --idle-start the loop starts on an idle GPU instead, and each loop also pays one call's
host latency (the package's extra host time / --calls per call). Operands are --l2x times the L2
cache (each call streams from memory); getrf factors in place, so each call of a loop takes its
own batch of a pool that is restored from a pristine copy before every loop (outside the events).
Data uniform in [-1, 1], never 0. Checks (before timing): GEMM against torch.matmul in float64,
max error / (k max|A| max|B| eps) < 16; getrf: info = 0, residual max|P L U - A| / (n max|A| eps)
< 30 (torch.lu_unpack), pivots equal to torch.linalg.lu_factor's on >= 99.9% of the matrices.
While the host issues a call faster than the GPU runs it, the queue hides the package's extra
host time and the ratio is 1; it rises when a call's GPU time falls under host_us_package.
"""
from __future__ import annotations

import argparse
import csv
import ctypes
import datetime
import math
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FIELDS = ("case", "prec", "shape", "batch", "c_api_ms", "package_ms", "ratio", "host_us_c",
          "host_us_package")
GEMM_SIZES = (8, 16, 32, 64)
GEMM_OPS = ("NN", "TN")              # transa transb; "TN": shoal.gemm(A, B, C, transa="T")
LU_SIZES = (8, 16, 32)
BAR = 1.05                           # issue 26: the package within 5% of the C API
TINY_BATCH = 16
BUSY_CYCLES = 2_000_000              # ~1 ms of GPU clock before a loop's start event
GEMM_TOL, LU_TOL, PIVOTS_AGREE = 16.0, 30.0, 0.999


# ---- pure logic (tests/test_results_doc.py, tests/python/test_py_overhead_bench.py) ----------

def batch_for(bytes_per_problem: int, l2_bytes: int, l2x: float) -> int:
    """Problems whose bytes exceed l2x times the L2 cache."""
    return max(1, math.ceil(l2x * l2_bytes / bytes_per_problem) + 1)


def gemm_c_args(prec: str, n: int, op: str, a: int, b: int, c: int, batch: int) -> tuple[str, tuple]:
    """The C call of C = op(A) B for row-major (batch, n, n) A, B, C (torch's default order), as
    a C program writes it for row-major data and as the package makes it: the column-major
    C^T = B^T op(A)^T, i.e. B first, then A with its op."""
    nn = n * n
    return (f"shoal_{prec}gemm_strided_batched",
            (0, int(op[0] == "T"), n, n, n, 1.0, b, n, nn, a, n, nn, 0.0, c, n, nn, batch))


def getrf_c_args(prec: str, n: int, a: int, ipiv: int, info: int, batch: int) -> tuple[str, tuple]:
    """The C call factoring (batch, n, n) column-major matrices in place."""
    return f"shoal_{prec}getrf_strided_batched", (n, n, a, n, n * n, ipiv, n, info, batch)


GETRF_OUTPUTS = (5, 7)    # the positions of ipiv and info in getrf_c_args' arguments


def same_call(expected: tuple[str, tuple], got: tuple[str, tuple], ignore: Sequence[int] = ()) -> bool:
    """Whether the package made the expected C call (ignoring the argument positions given)."""
    (f1, a1), (f2, a2) = expected, got
    keep = lambda args: [x for i, x in enumerate(args) if i not in ignore]  # noqa: E731
    return f1 == f2 and len(a1) == len(a2) and keep(a1) == keep(a2)


def captured_call(run: Callable[[], Any]) -> tuple[tuple[str, tuple], Any]:
    """Run one package call and capture the C call it made: ((function, args without the
    handle), what run returned)."""
    from shoal import _context
    seen: list[tuple[str, tuple]] = []
    original = _context.Call.__call__

    def spy(self, function: str, *args: Any) -> None:
        seen.append((function, args))
        return original(self, function, *args)

    _context.Call.__call__ = spy
    try:
        result = run()
    finally:
        _context.Call.__call__ = original
    if len(seen) != 1:
        raise RuntimeError(f"the package made {len(seen)} C calls where one was expected")
    return seen[0], result


def csv_row(case: str, prec: str, shape: str, batch: int, c_ms: float, p_ms: float, host_c: float,
            host_p: float) -> dict[str, str]:
    return {"case": case, "prec": prec, "shape": shape, "batch": str(batch), "c_api_ms": f"{c_ms:.6f}",
            "package_ms": f"{p_ms:.6f}", "ratio": f"{p_ms / c_ms:.4f}", "host_us_c": f"{host_c:.2f}",
            "host_us_package": f"{host_p:.2f}"}


def table(rows: Sequence[dict[str, str]]) -> str:
    """The Markdown table of the CSV rows, and a line on the 5% bar."""
    out = ["| case | p | shape | batch | C API ms | package ms | package / C API | host us, C API | "
           "host us, package |", "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r['case']} | {r['prec']} | {r['shape']} | {int(r['batch']):,} | "
                   f"{float(r['c_api_ms']):.4f} | {float(r['package_ms']):.4f} | {float(r['ratio']):.3f} | "
                   f"{float(r['host_us_c']):.1f} | {float(r['host_us_package']):.1f} |")
    if rows:
        worst = max(rows, key=lambda r: float(r["ratio"]))
        within = sum(float(r["ratio"]) <= BAR for r in rows)
        out += ["", f"Package within 5% of the C API in {within} of {len(rows)} cases; highest ratio "
                    f"{float(worst['ratio']):.3f} ({worst['case']} {worst['prec']} {worst['shape']})."]
    return "\n".join(out) + "\n"


def write_csv(path: Path, rows: Sequence[dict[str, str]]) -> None:
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        w.writerows(rows)


# ---- measurement (GPU) ---------------------------------------------------------------------

class CheckFailed(Exception):
    pass


@dataclass
class Case:
    case: str                              # "gemm NN", "gemm TN", "getrf", "getrf+out"
    prec: str
    shape: str
    batch: int
    fn: Any                                # the C function (ctypes, typed by the package)
    c_args: list[tuple]                    # one argument tuple per call of a loop
    package: list[Callable[[], Any]]       # one public call per call of a loop
    restore: Callable[[], None]            # before every loop, outside the events
    tiny_c: tuple                          # host overhead: the C arguments of a tiny batch
    tiny_package: Callable[[], Any]
    keep: tuple = ()                       # the tensors behind the raw pointers of c_args, tiny_c


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        import torch

        import shoal
        from shoal import _context, _library
        self.torch, self.shoal, self.args = torch, shoal, args
        self.lib = _library.load()
        self.device = torch.cuda.current_device()
        self.handle = _context.handle(self.device, self.lib).ptr
        props = torch.cuda.get_device_properties(self.device)
        self.l2 = getattr(props, "L2_cache_size", 0) or 50 * 2**20
        self.describe = (f"{props.name} (cc {props.major}.{props.minor}, {props.multi_processor_count} SMs, "
                         f"L2 {self.l2 / 2**20:.1f} MiB, {props.total_memory / 2**30:.1f} GiB)")
        self.gen = torch.Generator(device="cuda").manual_seed(args.seed)
        self.start = torch.cuda.Event(enable_timing=True)
        self.end = torch.cuda.Event(enable_timing=True)

    # data
    def dtype(self, prec: str):
        return self.torch.float32 if prec == "s" else self.torch.float64

    def uniform(self, shape: tuple[int, ...], prec: str):
        x = self.torch.rand(shape, dtype=self.dtype(prec), device="cuda", generator=self.gen)
        x.mul_(2).sub_(1)
        return x.masked_fill_(x == 0, 0.5)

    def eps(self, prec: str) -> float:
        return self.torch.finfo(self.dtype(prec)).eps

    def check_stream(self) -> None:
        """The handle's stream (set by the package's first call) is torch's current stream."""
        s = ctypes.c_void_p()
        if self.lib.shoal_get_stream(self.handle, ctypes.byref(s)) != 0:
            raise CheckFailed("shoal_get_stream failed")
        current = self.torch.cuda.current_stream().cuda_stream
        if (s.value or 0) != current:
            raise CheckFailed(f"the handle's stream {s.value} is not torch's current stream {current}")

    # cases
    def gemm(self, prec: str, n: int, op: str) -> Case:
        torch, shoal, L = self.torch, self.shoal, self.args.calls
        es = 4 if prec == "s" else 8
        batch = batch_for(3 * n * n * es, self.l2, self.args.l2x)
        A, B = self.uniform((batch, n, n), prec), self.uniform((batch, n, n), prec)
        C = torch.empty_like(A)
        kw = {"transa": "T"} if op[0] == "T" else {}
        name, args = gemm_c_args(prec, n, op, A.data_ptr(), B.data_ptr(), C.data_ptr(), batch)
        fn = getattr(self.lib, name)

        C.fill_(math.nan)
        got, _ = captured_call(lambda: shoal.gemm(A, B, C, **kw))
        if not same_call((name, args), got):
            raise CheckFailed(f"the package called {got}, not {name}{args}")
        self.check_stream()
        Cb = C.clone()
        C.fill_(math.nan)
        if fn(self.handle, *args) != 0:
            raise CheckFailed(f"{name} failed")
        if not torch.equal(C, Cb):
            raise CheckFailed("the C call and the package call differ")
        opA = A.mT if op[0] == "T" else A
        ref = torch.matmul(opA.double(), B.double())
        err = ((Cb.double() - ref).abs().max() / (n * A.abs().max() * B.abs().max() * self.eps(prec))).item()
        del ref
        if not err < GEMM_TOL:
            raise CheckFailed(f"error {err:.2f} (limit {GEMM_TOL})")

        At, Bt = self.uniform((TINY_BATCH, n, n), prec), self.uniform((TINY_BATCH, n, n), prec)
        Ct = torch.empty_like(At)
        _, tiny = gemm_c_args(prec, n, op, At.data_ptr(), Bt.data_ptr(), Ct.data_ptr(), TINY_BATCH)
        return Case(f"gemm {op}", prec, f"{n}x{n}x{n}", batch, fn, [(self.handle, *args)] * L,
                    [lambda: shoal.gemm(A, B, C, **kw)] * L, lambda: None, (self.handle, *tiny),
                    lambda: shoal.gemm(At, Bt, Ct, **kw), (A, B, C, At, Bt, Ct))

    def getrf(self, prec: str, n: int, outputs_given: bool) -> Case:
        torch, shoal, L = self.torch, self.shoal, self.args.calls
        es = 4 if prec == "s" else 8
        batch = batch_for(n * n * es + 4 * n + 4, self.l2, self.args.l2x)
        X0 = self.uniform((L, batch, n, n), prec)      # row-major storage of A^T: A column-major
        X = X0.clone()
        A = X.mT                                       # A[i]: the i-th call's (batch, n, n) matrices
        ipiv = torch.empty((batch, n), dtype=torch.int32, device="cuda")
        info = torch.empty((batch,), dtype=torch.int32, device="cuda")
        calls = [getrf_c_args(prec, n, A[i].data_ptr(), ipiv.data_ptr(), info.data_ptr(), batch)
                 for i in range(L)]
        name, fn = calls[0][0], getattr(self.lib, calls[0][0])
        if outputs_given:
            ipiv_p, info_p = torch.empty_like(ipiv), torch.empty_like(info)
            package = [lambda a=A[i]: shoal.getrf(a, ipiv=ipiv_p, info=info_p) for i in range(L)]
        else:
            package = [lambda a=A[i]: shoal.getrf(a) for i in range(L)]

        got, (piv_b, info_b) = captured_call(package[0])
        if not same_call(calls[0], got, GETRF_OUTPUTS):
            raise CheckFailed(f"the package called {got}, not {name}{calls[0][1]}")
        self.check_stream()
        LU_b, piv_b, info_b = A[0].clone(), piv_b.clone(), info_b.clone()
        X.copy_(X0)
        ipiv.fill_(-1)
        info.fill_(-1)
        if fn(self.handle, *calls[0][1]) != 0:
            raise CheckFailed(f"{name} failed")
        if not (torch.equal(A[0], LU_b) and torch.equal(ipiv, piv_b) and torch.equal(info, info_b)):
            raise CheckFailed("the C call and the package call differ")
        if info_b.any():
            raise CheckFailed(f"info > 0 for {int((info_b != 0).sum())} nonsingular matrices")
        A0 = X0[0].mT
        P, Lf, U = torch.lu_unpack(LU_b.double(), piv_b)
        res = (P @ Lf @ U - A0.double()).abs().amax(dim=(-2, -1))
        err = (res / (n * A0.abs().amax(dim=(-2, -1)).double() * self.eps(prec))).max().item()
        del P, Lf, U, res
        if not err < LU_TOL:
            raise CheckFailed(f"residual {err:.2f} (limit {LU_TOL})")
        _, piv_t = torch.linalg.lu_factor(A0)
        agree = (piv_t == piv_b).all(dim=-1).double().mean().item()
        if not agree >= PIVOTS_AGREE:
            raise CheckFailed(f"pivots equal to torch.linalg.lu_factor's on {agree:.2%} of the matrices")

        Xt = self.uniform((TINY_BATCH, n, n), prec)
        At = Xt.mT
        ipt = torch.empty((TINY_BATCH, n), dtype=torch.int32, device="cuda")
        inft = torch.empty((TINY_BATCH,), dtype=torch.int32, device="cuda")
        _, tiny = getrf_c_args(prec, n, At.data_ptr(), ipt.data_ptr(), inft.data_ptr(), TINY_BATCH)
        tiny_package = ((lambda: shoal.getrf(At, ipiv=ipt, info=inft)) if outputs_given
                        else (lambda: shoal.getrf(At)))
        return Case("getrf+out" if outputs_given else "getrf", prec, f"{n}x{n}", batch, fn,
                    [(self.handle, *c[1]) for c in calls], package, lambda: X.copy_(X0),
                    (self.handle, *tiny), tiny_package, (X, X0, ipiv, info, Xt, ipt, inft))

    # timing
    def loop_ms(self, case: Case, c_api: bool) -> float:
        """Per-call ms of one loop of back-to-back calls."""
        case.restore()
        if self.args.idle_start:
            self.torch.cuda.synchronize()
        else:
            self.torch.cuda._sleep(BUSY_CYCLES)   # the host issues the first call meanwhile
        self.start.record()
        if c_api:
            fn = case.fn
            for args in case.c_args:
                if fn(*args):
                    raise CheckFailed(f"{case.case}: the C call failed")
        else:
            for call in case.package:
                call()
        self.end.record()
        self.end.synchronize()
        return self.start.elapsed_time(self.end) / len(case.c_args)

    def host_us(self, case: Case, c_api: bool) -> float:
        """Median host microseconds per call over --host-calls calls on a tiny batch."""
        fn, args, call, n = case.fn, case.tiny_c, case.tiny_package, self.args.host_calls
        times = []
        for _ in range(self.args.reps + 2):
            self.torch.cuda.synchronize()
            t0 = time.perf_counter()
            if c_api:
                for _ in range(n):
                    fn(*args)
            else:
                for _ in range(n):
                    call()
            times.append((time.perf_counter() - t0) / n * 1e6)
            self.torch.cuda.synchronize()
        return statistics.median(times[2:])

    def measure(self, case: Case) -> dict[str, str]:
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < self.args.warmup:
            self.loop_ms(case, True)
            self.loop_ms(case, False)
        c_ms, p_ms = [], []
        for r in range(self.args.reps):
            for c_api in ((True, False) if r % 2 == 0 else (False, True)):
                (c_ms if c_api else p_ms).append(self.loop_ms(case, c_api))
        host_c, host_p = self.host_us(case, True), self.host_us(case, False)
        return csv_row(case.case, case.prec, case.shape, case.batch, statistics.median(c_ms),
                       statistics.median(p_ms), host_c, host_p)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, required=True, help="the CSV (a .txt goes beside it)")
    ap.add_argument("--precisions", default="s,d")
    ap.add_argument("--routines", default="gemm,getrf")
    ap.add_argument("--calls", type=int, default=10, help="back-to-back calls per timed loop")
    ap.add_argument("--reps", type=int, default=11, help="timed loops per method (median)")
    ap.add_argument("--warmup", type=float, default=0.2, help="warm-up seconds per case")
    ap.add_argument("--host-calls", type=int, default=200, help="calls per host-time measurement")
    ap.add_argument("--l2x", type=float, default=4.0, help="operand bytes / L2 bytes")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--idle-start", action="store_true",
                    help="start each timed loop on an idle GPU (see the header)")
    args = ap.parse_args(argv)

    import torch
    try:
        import shoal
    except ImportError:  # run from the source tree without PYTHONPATH=python
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))
        import shoal
    if not torch.cuda.is_available():
        print("python_overhead: no CUDA device", file=sys.stderr)
        return 2
    bench = Bench(args)
    precs, routines = args.precisions.split(","), args.routines.split(",")
    makers: list[tuple[str, Callable[[], Case]]] = []
    for p in precs:
        if "gemm" in routines:
            makers += [(f"gemm {op} {p} {n}", lambda p=p, n=n, op=op: bench.gemm(p, n, op))
                       for op in GEMM_OPS for n in GEMM_SIZES]
        if "getrf" in routines:
            makers += [(f"{'getrf+out' if out else 'getrf'} {p} {n}",
                        lambda p=p, n=n, out=out: bench.getrf(p, n, out))
                       for out in (False, True) for n in LU_SIZES]
    rows, failed = [], []
    for label, make in makers:
        try:
            case = make()
            rows.append(bench.measure(case))
            print(f"# {label}: ratio {rows[-1]['ratio']}", flush=True)
        except (CheckFailed, shoal.ShoalError) as e:
            failed.append(f"{label}: {e}")
            print(f"# {label}: FAILED {e}", flush=True)
        case = None
        torch.cuda.empty_cache()

    version = shoal.library_version()
    when = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    header = [f"# python_overhead (shoal {'.'.join(map(str, version)) if version else '?'}, torch "
              f"{torch.__version__}, Python {platform.python_version()}), {when}",
              f"# device {bench.device}: {bench.describe}",
              f"# library {shoal.library_path()}; {args.calls} calls per loop, median of {args.reps} "
              f"loops{', each started on an idle GPU' if args.idle_start else ''}, operands "
              f"{args.l2x:g} x L2, host time over {args.host_calls} calls of batch {TINY_BATCH}"]
    text = "\n".join(header) + "\n\n" + table(rows)
    if failed:
        text += "\nFAILED:\n" + "\n".join(failed) + "\n"
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_csv(args.out, rows)
    args.out.with_suffix(".txt").write_text(text)
    print(text, end="")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
