"""shoal: batched linear algebra on many small matrices, for PyTorch, CuPy and any CUDA array.

A thin ctypes layer over libshoal (no compiled extension). Every routine takes CUDA arrays
(PyTorch, CuPy, or anything with __cuda_array_interface__ or DLPack), float32 or float64 (every
routine but syrk also complex64 and complex128),
as (batch, rows, cols) batches, single matrices, or lists of matrices, and runs on the caller's
current stream (or stream=). Shapes are logical, as in torch.linalg; see docs/python.md for the
memory-order, in-place and output conventions.
"""
from __future__ import annotations

from ._errors import LibraryNotFoundError, ShoalError
from ._info import (column_major, dispatch_info, library_path, library_version,
                    set_vendor_dispatch, workspace_size)
from .blas import gemm, gemv, trsv
from .blas3 import herk, syrk, trsm
from .lapack import (gebrd, gelqf, geqrf, gels, gesv, getrf, getri, getri_fused, getrs, orgbr, orgqr, ormqr, posv,
                     potrf, potrs)
from .vbatched import gemm_vbatched, gemv_vbatched, posv_vbatched, potrf_vbatched, potrs_vbatched

__version__ = "0.1.0"

__all__ = [
    "ShoalError", "LibraryNotFoundError",
    "gemm", "gemv", "trsv", "trsm", "syrk", "herk", "gemm_vbatched", "gemv_vbatched",
    "potrf_vbatched", "potrs_vbatched", "posv_vbatched",
    "getrf", "getrs", "gesv", "getri", "getri_fused", "potrf", "potrs", "posv", "geqrf", "ormqr", "orgqr", "gels", "gelqf", "gebrd", "orgbr",
    "column_major", "dispatch_info", "set_vendor_dispatch", "workspace_size", "library_version",
    "library_path",
]
