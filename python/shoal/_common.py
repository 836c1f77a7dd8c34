"""Argument handling shared by the routines: reading operands, precision, flags, outputs."""
from __future__ import annotations

import math
from typing import Any

from . import _arrays
from ._arrays import ArrayInfo
from ._context import Call

_PRECISION = {"float32": "s", "float64": "d"}


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


def precision(*operands: ArrayInfo | list[ArrayInfo] | None) -> str:
    """'s' or 'd', from the dtype that every floating operand must share."""
    infos = flat(*operands)
    dtypes = {a.dtype for a in infos}
    if len(dtypes) != 1:
        names = ", ".join(sorted(dtypes))
        raise TypeError(f"the matrices of one call must share a dtype; got {names}")
    dtype = dtypes.pop()
    if dtype not in _PRECISION:
        raise TypeError(f"shoal computes in float32 and float64; got {dtype}")
    return _PRECISION[dtype]


def flag(value: Any, allowed: str, name: str) -> str:
    """A one-letter option ('N'/'T', 'L'/'U'), case-insensitive."""
    if isinstance(value, str) and len(value) == 1 and value.upper() in allowed:
        return value.upper()
    raise ValueError(f"{name}={value!r}: expected one of {', '.join(repr(c) for c in allowed)}")


def op_flag(value: Any, name: str) -> str:
    """'N', 'T' or 'C' (conjugate transpose), case-insensitive; the package serves real dtypes,
    where 'C' is 'T' (as in BLAS), so the result is 'N' or 'T'."""
    letter = flag(value, "NTC", name)
    return "T" if letter == "C" else letter


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
