"""cusolverDn?gebrd through ctypes: the vendor's bidiagonal reduction, one matrix a call, a peer of
shoal.gebrd in bench/run_gebrd_bench.py. cuSOLVER has no batched gebrd, so what an NVIDIA user
has today is a loop over the batch; this module runs it round-robin over a set of streams so that small matrices' calls
can overlap, with one cusolverDn handle per stream (created and bound to its stream once, outside
any timing: a handle runs its work on the one stream it is set to), a workspace and a devInfo per
stream.

cusolverDn?gebrd serves m >= n only (upper bidiagonal B); D and E are real (float / double) also
in C and Z. Signatures (cuSOLVER's cusolverDn.h):
  cusolverDn?gebrd_bufferSize(handle, int m, int n, int *Lwork)
  cusolverDn?gebrd(handle, int m, int n, T *A, int lda, R *D, R *E, T *TAUQ, T *TAUP, T *Work,
                   int Lwork, int *devInfo)
with Lwork counted in elements of T.

The library: the libcusolver of PyTorch's CUDA wheels (nvidia.cusolver's lib folder: the one
matching the CUDA runtime torch loaded), else the system's (ctypes.util.find_library). Nothing
here imports torch: the caller passes stream handles and device addresses as ints."""
from __future__ import annotations

import ctypes
from collections.abc import Sequence
from typing import Any

from ctypes_libs import candidates, load_first

_P = "SDCZ"
_lib: Any = None
_path = ""
_fns: dict[str, Any] = {}
_sizes: dict[str, Any] = {}


def load() -> str:
    """Loads libcusolver once and binds the gebrd functions; returns the path loaded. Raises
    RuntimeError (every place tried, and why) when none loads."""
    global _lib, _path
    if _lib is not None:
        return _path
    lib, path = load_first(candidates("cusolver", "cusolver"), "libcusolver")
    vp, i = ctypes.c_void_p, ctypes.c_int
    for p in _P:
        fn = getattr(lib, f"cusolverDn{p}gebrd")
        fn.argtypes = [vp, i, i, vp, i, vp, vp, vp, vp, vp, i, vp]
        fn.restype = i
        size = getattr(lib, f"cusolverDn{p}gebrd_bufferSize")
        size.argtypes = [vp, i, i, ctypes.POINTER(i)]
        size.restype = i
        _fns[p.lower()], _sizes[p.lower()] = fn, size
    lib.cusolverDnCreate.argtypes = [ctypes.POINTER(vp)]
    lib.cusolverDnSetStream.argtypes = [vp, vp]
    _lib, _path = lib, path
    return path


def create_handles(stream_handles: Sequence[int]) -> list[int]:
    """One cusolverDn handle per stream (cudaStream_t as an int), bound to it."""
    load()
    handles = []
    for s in stream_handles:
        h = ctypes.c_void_p()
        st = _lib.cusolverDnCreate(ctypes.byref(h))
        if st != 0:
            raise RuntimeError(f"cusolverDnCreate: status {st}")
        st = _lib.cusolverDnSetStream(h, ctypes.c_void_p(s))
        if st != 0:
            raise RuntimeError(f"cusolverDnSetStream: status {st}")
        handles.append(int(h.value))
    return handles


def buffer_size(prec: str, handle: int, m: int, n: int) -> int:
    """Lwork (elements of the precision's type) for one m x n matrix."""
    load()
    lwork = ctypes.c_int(0)
    st = _sizes[prec](handle, m, n, ctypes.byref(lwork))
    if st != 0:
        raise RuntimeError(f"cusolverDn{prec.upper()}gebrd_bufferSize({m}, {n}): status {st}")
    return lwork.value


def gebrd_batch(prec: str, handles: Sequence[int], works: Sequence[int], lwork: int, infos: Sequence[int],
                m: int, n: int, a: int, a_step: int, lda: int, d: int, d_step: int, e: int, e_step: int,
                tauq: int, taup: int, tau_step: int, batch: int) -> None:
    """Matrix i (at a + i a_step; its D, E, TAUQ, TAUP at d + i d_step, ... in bytes) on handle
    i mod len(handles), with that handle's workspace works[j] (lwork elements) and devInfo
    infos[j]. Asynchronous, as each call is: the caller orders the streams around it."""
    fn = _fns[prec]
    h = len(handles)
    for i in range(batch):
        j = i % h
        st = fn(handles[j], m, n, a + i * a_step, lda, d + i * d_step, e + i * e_step, tauq + i * tau_step,
                taup + i * tau_step, works[j], lwork, infos[j])
        if st != 0:
            raise RuntimeError(f"cusolverDn{prec.upper()}gebrd({m}, {n}) matrix {i}: status {st}")
