"""Argument handling shared by the routines: reading operands, precision, flags, outputs."""
from __future__ import annotations

import math
from typing import Any

from . import _arrays
from ._arrays import ArrayInfo
from ._context import Call
from ._signatures import ComplexDouble, ComplexFloat

_PRECISION = {"float32": "s", "float64": "d", "complex64": "c", "complex128": "z"}


def operand(x: Any, name: str, stream: Any) -> ArrayInfo | list[ArrayInfo]:
    """An array, or a list/tuple of arrays (a pointer-array batch)."""
    dl_stream = None if stream is None else _arrays.stream_value(stream)
    if isinstance(x, (list, tuple)):
        return [_arrays.describe(a, f"{name}[{i}]", dl_stream) for i, a in enumerate(x)]
    return _arrays.describe(x, name, dl_stream)


def flat(*operands: ArrayInfo | list[ArrayInfo] | None) -> list[ArrayInfo]:
    out: list[ArrayInfo] = []
    for op in operands:
        if isinstance(op, list):
            out += op
        elif op is not None:
            out.append(op)
    return out


def precision(*operands: ArrayInfo | list[ArrayInfo] | None, complex_ok: bool = False) -> str:
    """'s', 'd' (or, where the routine serves them: complex_ok, 'c', 'z'), from the dtype that
    every floating operand must share."""
    infos = flat(*operands)
    dtypes = {a.dtype for a in infos}
    if len(dtypes) != 1:
        names = ", ".join(sorted(dtypes))
        raise TypeError(f"the matrices of one call must share a dtype; got {names}")
    dtype = dtypes.pop()
    if dtype not in _PRECISION:
        raise TypeError(f"shoal computes in float32 and float64 (every routine but syrk also in "
                        f"complex64 and complex128); got {dtype}")
    p = _PRECISION[dtype]
    if p in "cz" and not complex_ok:
        raise TypeError(f"this routine serves float32 and float64 only so far; got {dtype} "
                        "(every routine but syrk serves complex64 and complex128; herk is its complex form)")
    return p


def scalar(p: str, value: Any, name: str) -> Any:
    """alpha / beta as the C call takes it in precision p: a float for s and d (a complex value
    with a nonzero imaginary part is refused there), the shoal_complex_* structure for c and z."""
    if p in "cz":
        z = complex(value)
        return (ComplexFloat if p == "c" else ComplexDouble)(z.real, z.imag)
    if isinstance(value, complex):
        if value.imag != 0:
            raise TypeError(f"{name}={value!r}: a complex scalar needs complex operands")
        return value.real
    return float(value)


def real_scalar(value: Any, name: str, routine: str) -> float:
    """A scalar the routine takes as real in every precision (herk's alpha and beta): a complex
    value with a nonzero imaginary part is refused, not truncated."""
    z = complex(value)
    if z.imag != 0:
        raise TypeError(f"{routine}: {name}={value!r} must be real")
    return z.real


def flag(value: Any, allowed: str, name: str) -> str:
    """A one-letter option ('N'/'T', 'L'/'U'), case-insensitive."""
    if isinstance(value, str) and len(value) == 1 and value.upper() in allowed:
        return value.upper()
    raise ValueError(f"{name}={value!r}: expected one of {', '.join(repr(c) for c in allowed)}")


def op_flag(value: Any, name: str, keep_c: bool = False) -> str:
    """'N', 'T' or 'C' (conjugate transpose), case-insensitive. In real precisions 'C' is 'T' (as
    in BLAS), so the result is 'N' or 'T' unless keep_c (a complex call) keeps 'C'."""
    letter = flag(value, "NTC", name)
    return "T" if letter == "C" and not keep_c else letter


def batch_shape(single: bool, batch: int) -> tuple[int, ...]:
    return () if single else (batch,)


def _contiguous(a: ArrayInfo) -> bool:
    step = 1
    for extent, stride in zip(reversed(a.shape), reversed(a.strides)):
        if extent > 1 and stride != step:
            return False
        step *= extent
    return True


def output(call: Call, given: Any, shape: tuple[int, ...], dtype: str, name: str) -> ArrayInfo:
    """A contiguous output array (ipiv, info, tau): the caller's, checked, or a new one of the
    caller's library."""
    if given is None:
        return call.empty(shape, dtype, name)
    a = _arrays.describe(given, name)
    if a.dtype != dtype:
        raise TypeError(f"{name} must be {dtype}, not {a.dtype}")
    if math.prod(a.shape) != math.prod(shape):
        raise ValueError(f"{name} has shape {a.shape}; expected {shape}")
    if not _contiguous(a):
        raise ValueError(f"{name} must be contiguous")
    if a.device is not None and a.device != call.device:
        raise ValueError(f"{name} is on device {a.device}, the matrices on {call.device}")
    return a
