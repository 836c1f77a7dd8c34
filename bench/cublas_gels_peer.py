"""cublas?gelsBatched through ctypes: the vendor's batched least squares, a peer of shoal's gels in
bench/run_qr_torch_bench.py. cuBLAS serves only m >= n with trans N, through pointer arrays;
its info (a host int) reports an invalid argument, devInfoArray a zero diagonal of R per matrix.

The library: the libcublas that PyTorch loaded (its wheel's nvidia/cublas/lib), else the
system's (ctypes.util.find_library). One cuBLAS handle per process, bound to the given stream
before each call."""
from __future__ import annotations

import ctypes
from typing import Any

from ctypes_libs import candidates, load_first

_FN = {"s": "cublasSgelsBatched", "d": "cublasDgelsBatched", "c": "cublasCgelsBatched", "z": "cublasZgelsBatched"}
_lib: Any = None
_handle = ctypes.c_void_p()


def _load() -> Any:
    """libcublas beside torch's CUDA libraries where the wheel brings them, else the system's."""
    global _lib
    if _lib is not None:
        return _lib
    lib, path = load_first(candidates("cublas", "cublas"), "libcublas")
    if lib.cublasCreate_v2(ctypes.byref(_handle)) != 0:
        raise RuntimeError(f"cublasCreate failed ({path})")
    _lib = lib
    return lib


def gels(prec: str, stream_handle: int, m: int, n: int, nrhs: int, a_ptrs: int, lda: int, c_ptrs: int, ldc: int,
         dev_info: int, batch: int) -> None:
    """One call: a_ptrs, c_ptrs device arrays of batch device pointers, dev_info a device int array."""
    lib = _load()
    if lib.cublasSetStream_v2(_handle, ctypes.c_void_p(stream_handle)) != 0:
        raise RuntimeError("cublasSetStream failed")
    info = ctypes.c_int(0)
    fn = getattr(lib, _FN[prec])
    st = fn(_handle, 0, m, n, nrhs, ctypes.c_void_p(a_ptrs), lda, ctypes.c_void_p(c_ptrs), ldc, ctypes.byref(info),
            ctypes.c_void_p(dev_info), batch)
    if st != 0 or info.value != 0:
        raise RuntimeError(f"{_FN[prec]}: status {st}, info {info.value}")
