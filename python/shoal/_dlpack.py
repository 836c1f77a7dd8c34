"""Reading a DLPack capsule (legacy "dltensor" form) without a compiled extension.

Only arrays without __cuda_array_interface__ come here (e.g. JAX). The capsule is not consumed:
it is kept alive, beside the array it came from, until the shoal call has been issued, and its
destructor then releases the producer's reference as usual.
"""
from __future__ import annotations

import ctypes

KDL_CUDA = 2
KDL_CUDA_MANAGED = 13
# (type code, bits): kDLInt 0, kDLFloat 2, kDLComplex 5
_CODES = {(0, 32): "int32", (2, 32): "float32", (2, 64): "float64", (5, 64): "complex64",
          (5, 128): "complex128"}


class _Device(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _Tensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _Device), ("ndim", ctypes.c_int32),
                ("dtype", _DataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


_get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_get_pointer.restype = ctypes.c_void_p
_get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


def read(capsule) -> tuple[int, tuple[int, ...], tuple[int, ...], str, int, int]:
    """(data pointer, shape, strides in elements, dtype name, itemsize, device id)."""
    t = _Tensor.from_address(_get_pointer(capsule, b"dltensor"))
    if t.device.device_type not in (KDL_CUDA, KDL_CUDA_MANAGED):
        raise TypeError(f"DLPack array on device type {t.device.device_type}: shoal needs CUDA memory")
    shape = tuple(t.shape[i] for i in range(t.ndim))
    if t.strides:
        strides = tuple(t.strides[i] for i in range(t.ndim))
    else:  # NULL strides: compact row-major
        strides, step = [], 1
        for extent in reversed(shape):
            strides.append(step)
            step *= max(extent, 1)
        strides = tuple(reversed(strides))
    bits = t.dtype.bits
    name = _CODES.get((t.dtype.code, bits), f"dlpack(code={t.dtype.code}, bits={bits})")
    if t.dtype.lanes != 1:
        name = f"dlpack(lanes={t.dtype.lanes})"
    return (t.data or 0) + t.byte_offset, shape, strides, name, max(bits // 8, 1), t.device.device_id
