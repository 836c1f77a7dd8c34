"""LAPACKE_?gebrd through ctypes on the host: the CPU peer of shoal.gebrd in
bench/run_gebrd_bench.py. A batch is split into contiguous slices, one per worker thread of a
concurrent.futures pool; each worker calls LAPACKE_?gebrd (LAPACK_COL_MAJOR) on its matrices one
after another. ctypes releases the GIL for the duration of each foreign call, so the workers'
LAPACK work runs in parallel; the Python loop around the calls (about a microsecond a matrix)
does hold the GIL and is part of what is measured.

OpenBLAS is made single-threaded per call (OPENBLAS_NUM_THREADS=1 in the environment before the
library is loaded, which OpenBLAS reads when it initializes, and openblas_set_num_threads(1) where
that symbol is reachable): the parallelism is over the batch, and OpenBLAS's own threads inside 16
concurrent calls would oversubscribe the cores.

Signatures (lapacke.h, LP64: lapack_int is int):
  lapack_int LAPACKE_?gebrd(int matrix_layout, lapack_int m, lapack_int n, T *a, lapack_int lda,
                            R *d, R *e, T *tauq, T *taup)
R real (float / double) also for c and z. Nothing here imports numpy: the caller passes host
addresses as ints."""
from __future__ import annotations

import ctypes
import os
from collections.abc import Sequence
from concurrent.futures import Executor
from typing import Any

from ctypes_libs import candidates, load_first

LAPACK_COL_MAJOR = 102
_lib: Any = None
_path = ""
_fns: dict[str, Any] = {}
_single = ""   # how OpenBLAS was made single-threaded, for the report


def load() -> str:
    """Loads liblapacke once (OPENBLAS_NUM_THREADS=1 set first) and binds ?gebrd; returns a line
    naming the library and how OpenBLAS was kept to one thread. Raises RuntimeError when no
    liblapacke loads."""
    global _lib, _path, _single
    if _lib is not None:
        return f"{_path} ({_single})"
    # before the load: OpenBLAS reads it when it initializes (a copy loaded earlier in this
    # process, e.g. by another library, keeps its own setting; the call below covers that one
    # where it is the same library)
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    lib, path = load_first(candidates("lapacke", "", ("liblapacke.so.3", "liblapacke.so")), "liblapacke")
    vp, i = ctypes.c_void_p, ctypes.c_int
    for p in "sdcz":
        fn = getattr(lib, f"LAPACKE_{p}gebrd")
        fn.argtypes = [i, i, i, vp, i, vp, vp, vp, vp]
        fn.restype = i
        _fns[p] = fn
    _single = "OPENBLAS_NUM_THREADS=1"
    try:   # dlsym on the handle searches liblapacke's dependencies too (OpenBLAS, if it is the LAPACK)
        setter = lib.openblas_set_num_threads
    except AttributeError:
        _single += "; no openblas_set_num_threads in its dependencies"
    else:
        setter.argtypes = [i]
        setter.restype = None
        setter(1)
        _single += ", openblas_set_num_threads(1)"
    _lib, _path = lib, path
    return f"{path} ({_single})"


def slices(batch: int, workers: int) -> list[tuple[int, int]]:
    """[lo, hi) contiguous slices covering range(batch), as even as can be (sizes differ by at most
    1), at most `workers` of them and none empty."""
    w = max(1, min(workers, batch))
    q, r = divmod(batch, w)
    out, lo = [], 0
    for j in range(w):
        hi = lo + q + (1 if j < r else 0)
        out.append((lo, hi))
        lo = hi
    return out


def _gebrd_range(fn: Any, m: int, n: int, a: int, a_step: int, lda: int, d: int, d_step: int, e: int,
                 e_step: int, tauq: int, taup: int, tau_step: int, lo: int, hi: int) -> int:
    """One worker's slice; the first nonzero info (LAPACKE's: < 0 a bad argument, -1010 out of
    memory), else 0."""
    for i in range(lo, hi):
        info = fn(LAPACK_COL_MAJOR, m, n, a + i * a_step, lda, d + i * d_step, e + i * e_step,
                  tauq + i * tau_step, taup + i * tau_step)
        if info != 0:
            return int(info)
    return 0


def gebrd_batch(pool: Executor, parts: Sequence[tuple[int, int]], prec: str, m: int, n: int, a: int, a_step: int,
                lda: int, d: int, d_step: int, e: int, e_step: int, tauq: int, taup: int, tau_step: int) -> int:
    """The batch's slices `parts` on the pool, matrix i at a + i a_step (bytes; its d, e, tauq,
    taup likewise); returns when all are done: the first nonzero info of a slice, else 0."""
    fn = _fns[prec]
    futures = [pool.submit(_gebrd_range, fn, m, n, a, a_step, lda, d, d_step, e, e_step, tauq, taup, tau_step,
                           lo, hi) for lo, hi in parts]
    infos = [f.result() for f in futures]
    return next((x for x in infos if x != 0), 0)
