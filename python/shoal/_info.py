"""Small services around the library: which table serves a device, vendor dispatch, workspace,
version, and a column-major copy helper."""
from __future__ import annotations

import ctypes
import sys
from typing import Any

from . import _arrays, _context, _library


def _device(device: int | None, lib: _library.Library) -> int:
    return _context.current_device(lib) if device is None else device


def dispatch_info(device: int | None = None) -> tuple[str, int]:
    """(table_device, match_level) of the device's handle: the GPU its tuned table was measured
    on (or "portable") and how it matched (0 same device, 1 same compute capability,
    2 lower capability, 3 portable default)."""
    lib = _library.load()
    h = _context.handle(_device(device, lib), lib)
    name, level = ctypes.c_char_p(), ctypes.c_int()
    _context.check(lib, lib.shoal_get_dispatch_info(h.ptr, ctypes.byref(name), ctypes.byref(level)),
                   "shoal_get_dispatch_info")
    return (name.value or b"").decode(), level.value


def set_vendor_dispatch(enabled: bool, device: int | None = None) -> None:
    """With False, the device's handle never routes calls to cuBLAS/cuSOLVER (benchmarks, tests)."""
    lib = _library.load()
    h = _context.handle(_device(device, lib), lib)
    _context.check(lib, lib.shoal_set_vendor_dispatch(h.ptr, int(bool(enabled))),
                   "shoal_set_vendor_dispatch")


def workspace_size(device: int | None = None) -> int:
    """Bytes of device workspace the device's handle holds (allocated once, at its creation, for
    the routines served by a recursive driver: calls never allocate)."""
    lib = _library.load()
    h = _context.handle(_device(device, lib), lib)
    size = ctypes.c_size_t()
    _context.check(lib, lib.shoal_get_workspace_size(h.ptr, ctypes.byref(size)),
                   "shoal_get_workspace_size")
    return size.value


def library_version() -> tuple[int, int, int] | None:
    """The loaded libshoal's (major, minor, patch), or None if it predates shoal_get_version."""
    lib = _library.load()
    fn = lib.optional.get("shoal_get_version")
    if fn is None:
        return None
    v = ctypes.c_int()
    _context.check(lib, fn(ctypes.byref(v)), "shoal_get_version")
    return v.value // 10000, v.value // 100 % 100, v.value % 100


def library_path() -> str:
    """The file libshoal was loaded from."""
    return _library.load().path


def column_major(x: Any) -> Any:
    """A copy of x (torch or CuPy, 2-D or 3-D) whose matrices are column-major, as the in-place
    factorizations and the right-hand sides of the solves need."""
    fw = _arrays._framework_of(x)
    if fw == "torch":
        return x.transpose(-1, -2).contiguous().transpose(-1, -2)
    if fw == "cupy":
        return sys.modules["cupy"].ascontiguousarray(x.swapaxes(-1, -2)).swapaxes(-1, -2)
    raise TypeError(f"column_major handles PyTorch and CuPy arrays, not {type(x).__name__}")
