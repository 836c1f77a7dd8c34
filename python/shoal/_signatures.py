"""The C prototypes of include/shoal.h (and the shoal_routines.h it includes) that the package
calls, as ctypes argument codes.

Codes: h handle, p pointer (device or host), s const char *, i int or enum, l int64_t,
c char, R the precision's scalar (f float for s, d double for d; F shoal_complex_float for c,
D shoal_complex_double for z, by value). Precision-generic entries are written once with a
leading '?' in the name and expanded for s and d (and, in _GENERIC_COMPLEX, for c and z: the
routines that have complex precisions, which the package's Python calls serve too).
tests/python/test_py_signatures.py checks this table against the header, so a prototype change
there cannot silently shift the arguments of a call.
"""
from __future__ import annotations

import ctypes

PRECISIONS = {"s": ctypes.c_float, "d": ctypes.c_double}


class ComplexFloat(ctypes.Structure):
    """shoal_complex_float (include/shoal.h): real part first, 8 bytes."""
    _fields_ = [("re", ctypes.c_float), ("im", ctypes.c_float)]


class ComplexDouble(ctypes.Structure):
    """shoal_complex_double (include/shoal.h): real part first, 16 bytes."""
    _fields_ = [("re", ctypes.c_double), ("im", ctypes.c_double)]

# name -> argument codes (space separated); every function returns shoal_status (int)
# unless listed in RETURNS.
_GENERIC = {
    "shoal_?gemm_batched": "h i i i i i R p l p l R p l l",
    "shoal_?gemm_strided_batched": "h i i i i i R p l l p l l R p l l l",
    "shoal_?gemv_batched": "h i i i R p l p l R p l l",
    "shoal_?gemv_strided_batched": "h i i i R p l l p l l R p l l l",
    "shoal_?trsv_batched": "h i i i i p l p l l",
    "shoal_?trsv_strided_batched": "h i i i i p l l p l l l",
    "shoal_?getrf_batched": "h i i p l p p l",
    "shoal_?getrf_strided_batched": "h i i p l l p l p l",
    "shoal_?getrs_batched": "h i i i p l p p l l",
    "shoal_?getrs_strided_batched": "h i i i p l l p l p l l l",
    "shoal_?gesv_batched": "h i i p l p p l p l",
    "shoal_?gesv_strided_batched": "h i i p l l p l p l l p l",
    "shoal_?getri_batched": "h i p l p p l p l",
    "shoal_?getri_strided_batched": "h i p l l p l p l l p l",
    "shoal_?getri_fused_batched": "h i p l p l p l",
    "shoal_?getri_fused_strided_batched": "h i p l l p l l p l",
    "shoal_?potrf_batched": "h i i p l p l",
    "shoal_?potrf_strided_batched": "h i i p l l p l",
    "shoal_?potrs_batched": "h i i i p l p l l",
    "shoal_?potrs_strided_batched": "h i i i p l l p l l l",
    "shoal_?posv_batched": "h i i i p l p l p l",
    "shoal_?posv_strided_batched": "h i i i p l l p l l p l",
    "shoal_?geqrf_batched": "h i i p l p l",
    "shoal_?geqrf_strided_batched": "h i i p l l p l l",
    "shoal_?gemv_vbatched": "h i p p i i R p p p p R p p l",
    "shoal_?gemm_vbatched": "h i i p p p i i i R p p p p R p p l",
    # spec routines (include/shoal_routines.h, generated)
    "shoal_?trsm_batched": "h i i i i i i R p l p l l",
    "shoal_?trsm_strided_batched": "h i i i i i i R p l l p l l l",
    "shoal_?syrk_batched": "h i i i i R p l R p l l",
    "shoal_?syrk_strided_batched": "h i i i i R p l l R p l l l",
    "shoal_?ormqr_batched": "h i i i i i p l p p l l",
    "shoal_?ormqr_strided_batched": "h i i i i i p l l p l p l l l",
    "shoal_?orgqr_batched": "h i i i p l p l",
    "shoal_?orgqr_strided_batched": "h i i i p l l p l l",
    "shoal_?gels_batched": "h i i i i p l p l p l",
    "shoal_?gels_strided_batched": "h i i i i p l l p l l p l",
    "shoal_?gelqf_batched": "h i i p l p l",
    "shoal_?gelqf_strided_batched": "h i i p l l p l l",
    "shoal_?gebrd_batched": "h i i p l p p p p l",
    "shoal_?orgbr_batched": "h i i i i p l p l",
    "shoal_?orgbr_strided_batched": "h i i i i p l l p l l",
    "shoal_?gebrd_strided_batched": "h i i p l l p l p l p l p l l",
    "shoal_?potrf_vbatched": "h i p i p p p l",   # sizes, lda, info: device int arrays
    # declared for ctypes (the signature test covers every header function); no wrapper yet
    "shoal_?potrs_vbatched": "h i p p i i p p p p p l",
    "shoal_?posv_vbatched": "h i p p i i p p p p p l",
}

# the generic entries that come in c and z too (the routines listing them in search_space/)
_GENERIC_COMPLEX = ("shoal_?gemm_batched", "shoal_?gemm_strided_batched",
                    "shoal_?gemv_batched", "shoal_?gemv_strided_batched",
                    "shoal_?trsv_batched", "shoal_?trsv_strided_batched", "shoal_?gemv_vbatched",
                    "shoal_?trsm_batched", "shoal_?trsm_strided_batched",
                    "shoal_?gemm_vbatched", "shoal_?potrf_vbatched", "shoal_?potrs_vbatched",
                    "shoal_?posv_vbatched", "shoal_?ormqr_batched", "shoal_?ormqr_strided_batched",
                    "shoal_?orgqr_batched", "shoal_?orgqr_strided_batched",
                    "shoal_?gels_batched", "shoal_?gels_strided_batched",
                    "shoal_?gelqf_batched", "shoal_?gelqf_strided_batched",
                    "shoal_?gebrd_batched", "shoal_?gebrd_strided_batched",
                    "shoal_?orgbr_batched", "shoal_?orgbr_strided_batched",
                    *(f"shoal_?{r}_{form}" for r in ("getrf", "getrs", "gesv", "getri", "getri_fused",
                                                      "potrf", "potrs", "posv", "geqrf")
                      for form in ("batched", "strided_batched")))

_PLAIN = {
    "shoal_status_string": "i",
    "shoal_create": "p",
    "shoal_destroy": "h",
    "shoal_set_stream": "h p",
    "shoal_get_stream": "h p",
    "shoal_get_dispatch_info": "h p p",
    "shoal_set_vendor_dispatch": "h i",
    "shoal_gemm_kernel_name": "h c i i i i i i p",
    "shoal_lapack_kernel_name": "h s c i c i i i p",
    "shoal_blas2_kernel_name": "h s c i s i i p",
    "shoal_imax_device": "h p l p",
    "shoal_spec_kernel_name": "h s c i p p p",
    "shoal_get_workspace_size": "h p",
    # HERK (c, z only): alpha and beta real (f / d), the operands complex
    "shoal_cherk_batched": "h i i i i f p l f p l l",
    "shoal_cherk_strided_batched": "h i i i i f p l l f p l l l",
    "shoal_zherk_batched": "h i i i i d p l d p l l",
    "shoal_zherk_strided_batched": "h i i i i d p l l d p l l l",
}

# Present only in newer libraries; looked up if there, never required.
OPTIONAL = {
    "shoal_get_version": "p",
    "shoal_create_error_string": "",
}

RETURNS = {"shoal_status_string": ctypes.c_char_p, "shoal_create_error_string": ctypes.c_char_p}


def _expand() -> dict[str, str]:
    table = dict(_PLAIN)
    for name, codes in _GENERIC.items():
        for p, real in (("s", "f"), ("d", "d")):
            table[name.replace("?", p)] = codes.replace("R", real)
        if name in _GENERIC_COMPLEX:
            for p, cplx in (("c", "F"), ("z", "D")):
                table[name.replace("?", p)] = codes.replace("R", cplx)
    return table


SIGNATURES: dict[str, str] = _expand()

_CTYPES = {
    "h": ctypes.c_void_p,
    "p": ctypes.c_void_p,
    "s": ctypes.c_char_p,
    "i": ctypes.c_int,
    "l": ctypes.c_int64,
    "c": ctypes.c_char,
    "f": ctypes.c_float,
    "d": ctypes.c_double,
    "F": ComplexFloat,
    "D": ComplexDouble,
}


def argtypes(codes: str) -> list[type]:
    return [_CTYPES[c] for c in codes.split()]
