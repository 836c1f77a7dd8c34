"""Handles (one per device, created lazily), the device and stream of a call, and the C call.

A call's framework, device and stream come from its first array: PyTorch's or CuPy's current
stream on that device unless the caller passes stream=. The handle's stream is set before a call
only when it changed, under a lock, so that threads sharing a device cannot interleave a
set_stream and a call.
"""
from __future__ import annotations

import array
import atexit
import ctypes
import threading
from typing import Any, Iterable

from . import _arrays, _library
from ._arrays import ArrayInfo
from ._errors import ShoalError


class _Handle:
    __slots__ = ("ptr", "lock", "stream")

    def __init__(self, ptr: int) -> None:
        self.ptr = ptr
        self.lock = threading.Lock()
        self.stream: int | None = None


_handles: dict[int, _Handle] = {}
_handles_lock = threading.Lock()


def check(lib: _library.Library, status: int, function: str, detail: str = "") -> None:
    if status != 0:
        text = lib.shoal_status_string(status).decode(errors="replace")
        raise ShoalError(status, text, function, detail)


class _OnDevice:
    """Make `device` the current CUDA device for the duration of a call, if it is not."""
    __slots__ = ("lib", "device", "previous")

    def __init__(self, lib: _library.Library, device: int) -> None:
        self.lib, self.device, self.previous = lib, device, None

    def __enter__(self) -> None:
        if self.lib.cuda_get_device is None:
            return
        cur = ctypes.c_int(-1)
        if self.lib.cuda_get_device(ctypes.byref(cur)) == 0 and cur.value != self.device:
            if self.lib.cuda_set_device(self.device) != 0:
                raise RuntimeError(f"cudaSetDevice({self.device}) failed")
            self.previous = cur.value

    def __exit__(self, *exc: object) -> None:
        if self.previous is not None:
            self.lib.cuda_set_device(self.previous)
            self.previous = None


def current_device(lib: _library.Library) -> int:
    if lib.cuda_get_device is None:
        return 0
    cur = ctypes.c_int(0)
    lib.cuda_get_device(ctypes.byref(cur))
    return cur.value


def handle(device: int, lib: _library.Library | None = None) -> _Handle:
    lib = lib or _library.load()
    h = _handles.get(device)
    if h is not None:
        return h
    with _handles_lock:
        h = _handles.get(device)
        if h is None:
            ptr = ctypes.c_void_p()
            with _OnDevice(lib, device):
                status = lib.shoal_create(ctypes.byref(ptr))
            if status != 0:
                why = lib.optional.get("shoal_create_error_string")
                check(lib, status, "shoal_create", why().decode(errors="replace") if why else "")
            h = _handles[device] = _Handle(ptr.value)
        return h


@atexit.register
def destroy_handles() -> None:
    """Destroy every handle (at exit, and in tests)."""
    with _handles_lock:
        if _handles and _library._loaded is not None:
            for device, h in _handles.items():
                with _OnDevice(_library._loaded, device):
                    _library._loaded.shoal_destroy(h.ptr)
        _handles.clear()


class Call:
    """The environment of one Python-level call: library, framework, device, stream, and the
    temporaries that must outlive the C call's issue."""

    def __init__(self, arrays: Iterable[ArrayInfo], stream: Any = None) -> None:
        arrays = list(arrays)
        self.lib = _library.load()
        first = arrays[0]
        self.framework = first.framework
        devices = {a.device for a in arrays if a.device is not None}
        if len(devices) > 1:
            raise ValueError(f"the arrays of one call are on several devices: {sorted(devices)}")
        self.device = devices.pop() if devices else current_device(self.lib)
        if stream is not None:
            self.stream = _arrays.stream_value(stream)
        elif first.stream is not None:
            self.stream = int(first.stream)
        else:
            self.stream = _arrays.current_stream(self.framework, self.device)
        self.keep: list[Any] = [a.keep for a in arrays if a.keep is not None]

    def empty(self, shape: tuple[int, ...], dtype: str, what: str, column_major: bool = False,
              zero: bool = False) -> ArrayInfo:
        with _arrays.allocating_on(self.framework, self.device, self.stream):
            out = _arrays.empty(self.framework, self.device, shape, dtype, column_major, what,
                                zero=zero)
        return _arrays.describe(out, what)

    def device_arrays(self, int64: list[list[int]], int32: list[list[int]] = ()) -> list[int]:
        """Upload pointer arrays (int64) and size arrays (int32) in one buffer; their addresses."""
        blobs = [array.array("q", a).tobytes() for a in int64] + [array.array("i", a).tobytes() for a in int32]
        offsets, total = [], 0
        for b in blobs:
            offsets.append(total)
            total += (len(b) + 7) // 8 * 8
        data = bytearray(total)
        for off, b in zip(offsets, blobs):
            data[off:off + len(b)] = b
        with _arrays.allocating_on(self.framework, self.device, self.stream):
            owner, base = _arrays.device_bytes(self.framework, self.device, bytes(data))
        self.keep.append(owner)
        return [base + off for off in offsets]

    def __call__(self, function: str, *args: Any) -> None:
        """Call shoal `function`(handle, *args) on this call's device and stream."""
        lib = self.lib
        h = handle(self.device, lib)
        with h.lock, _OnDevice(lib, self.device):
            if h.stream != self.stream:
                check(lib, lib.shoal_set_stream(h.ptr, self.stream), "shoal_set_stream")
                h.stream = self.stream
            status = getattr(lib, function)(h.ptr, *args)
        check(lib, status, function)
