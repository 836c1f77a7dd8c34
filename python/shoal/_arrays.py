"""What shoal needs to know about a caller's CUDA array, whichever library made it.

PyTorch tensors and CuPy arrays are read through their own attributes (faster than building the
interface dicts on every call, and they tell the device); anything else through
__cuda_array_interface__, else DLPack. The framework of an array also decides which stream is
current and how shoal allocates the outputs it returns (ipiv, info, tau, C), so that they come back
as arrays of the caller's library.
"""
from __future__ import annotations

import contextlib
import sys
from dataclasses import dataclass
from typing import Any

from . import _dlpack

_ITEMSIZE = {"float32": 4, "float64": 8, "complex64": 8, "complex128": 16, "int32": 4}
_TYPESTR = {"<f4": "float32", "<f8": "float64", "<c8": "complex64", "<c16": "complex128",
            "<i4": "int32"}


@dataclass(frozen=True, slots=True)
class ArrayInfo:
    obj: Any                       # the caller's array (kept alive for the call)
    ptr: int                       # address of element [0, ..., 0]
    shape: tuple[int, ...]
    strides: tuple[int, ...]       # in elements, as the library reports them (may be 0 or < 0)
    dtype: str                     # 'float32', 'float64', 'complex64', 'complex128', 'int32' or
                                   # a description of another
    itemsize: int
    device: int | None             # CUDA device ordinal; None where the interface does not say
    framework: str                 # 'torch', 'cupy' or 'other'
    stream: int | None = None      # __cuda_array_interface__ v3 'stream' (other only)
    keep: Any = None               # a DLPack capsule to keep alive


def _framework_of(obj: Any) -> str:
    module = type(obj).__module__.split(".", 1)[0]
    return module if module in ("torch", "cupy") else "other"


def describe(obj: Any, name: str, dlpack_stream: int | None = None) -> ArrayInfo:
    """Read an array; TypeError if it is not a CUDA array of a supported kind."""
    fw = _framework_of(obj)
    if fw == "torch" and hasattr(obj, "data_ptr"):
        if not obj.is_cuda:
            raise TypeError(f"{name} is a CPU tensor: shoal needs CUDA tensors")
        dtype = str(obj.dtype).removeprefix("torch.")
        return ArrayInfo(obj, obj.data_ptr(), tuple(obj.shape), tuple(obj.stride()), dtype,
                         obj.element_size(), obj.device.index, fw)
    if fw == "cupy" and hasattr(obj, "data") and hasattr(obj.data, "ptr"):
        item = obj.itemsize
        return ArrayInfo(obj, obj.data.ptr, tuple(obj.shape), _elements(obj.strides, item, name),
                         obj.dtype.name, item, obj.device.id, fw)
    cai = getattr(obj, "__cuda_array_interface__", None)
    if cai is not None:
        return _from_cai(obj, cai, name)
    if hasattr(obj, "__dlpack__"):
        return _from_dlpack(obj, name, dlpack_stream)
    raise TypeError(f"{name} ({type(obj).__name__}) is not a CUDA array: shoal takes arrays with "
                    "__cuda_array_interface__ or DLPack (PyTorch, CuPy, JAX, Numba)")


def _elements(byte_strides, itemsize: int, name: str) -> tuple[int, ...]:
    if any(s % itemsize for s in byte_strides):
        raise ValueError(f"{name} has strides {tuple(byte_strides)} bytes, not whole elements")
    return tuple(s // itemsize for s in byte_strides)


def _from_cai(obj: Any, cai: dict, name: str) -> ArrayInfo:
    if cai.get("mask") is not None:
        raise TypeError(f"{name} is a masked array: shoal takes plain arrays")
    typestr = cai["typestr"]
    dtype = _TYPESTR.get(typestr, typestr)
    itemsize = int(typestr[2:]) if typestr[2:].isdigit() else 1
    shape = tuple(cai["shape"])
    if cai.get("strides") is None:
        strides, step = [], 1
        for extent in reversed(shape):
            strides.append(step)
            step *= max(extent, 1)
        strides = tuple(reversed(strides))
    else:
        strides = _elements(cai["strides"], itemsize, name)
    stream = cai.get("stream") if cai.get("version", 0) >= 3 else None
    return ArrayInfo(obj, int(cai["data"][0] or 0), shape, strides, dtype, itemsize, None,
                     "other", stream)


def _from_dlpack(obj: Any, name: str, stream: int | None) -> ArrayInfo:
    device_type, _ = obj.__dlpack_device__()
    if device_type not in (_dlpack.KDL_CUDA, _dlpack.KDL_CUDA_MANAGED):
        raise TypeError(f"{name} lives on DLPack device type {device_type}: shoal needs CUDA memory")
    # DLPack's stream argument: 1 is the legacy default stream (0 is not allowed).
    capsule = obj.__dlpack__(stream=stream or 1)
    ptr, shape, strides, dtype, itemsize, device = _dlpack.read(capsule)
    return ArrayInfo(obj, ptr, shape, strides, dtype, itemsize, device, "other", None, capsule)


# ---- framework services: streams, allocation, device buffers --------------------------------

def current_stream(fw: str, device: int | None) -> int:
    """The framework's current stream on device, as a cudaStream_t value (0: legacy default)."""
    if fw == "torch":
        torch = sys.modules["torch"]
        raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)  # no Stream object: cheaper
        if raw is not None:
            return raw(device if device is not None else torch.cuda.current_device())
        return torch.cuda.current_stream(device).cuda_stream
    if fw == "cupy":
        return sys.modules["cupy"].cuda.get_current_stream().ptr
    return 0


def stream_value(stream: Any) -> int:
    """An explicit stream= argument as a cudaStream_t value."""
    if isinstance(stream, int):
        return stream
    for attr in ("cuda_stream", "ptr"):  # torch.cuda.Stream, cupy.cuda.Stream
        value = getattr(stream, attr, None)
        if isinstance(value, int):
            return value
    raise TypeError(f"stream={stream!r}: pass an int cudaStream_t, a torch.cuda.Stream or a "
                    "cupy.cuda.Stream")


@contextlib.contextmanager
def allocating_on(fw: str, device: int, stream: int):
    """Make the framework allocate on `stream`, so that its stream-ordered allocator does not
    hand the memory of a temporary to other work before shoal's kernel has used it."""
    if fw == "torch":
        torch = sys.modules["torch"]
        with torch.cuda.device(device):
            if stream == current_stream(fw, device):
                yield
            else:
                with torch.cuda.stream(torch.cuda.ExternalStream(stream, device=device)):
                    yield
    elif fw == "cupy":
        cupy = sys.modules["cupy"]
        with cupy.cuda.Device(device):
            if stream == current_stream(fw, device):
                yield
            else:
                with cupy.cuda.ExternalStream(stream):
                    yield
    else:
        yield


def _no_allocator(what: str) -> TypeError:
    return TypeError(f"shoal allocates {what} only for PyTorch and CuPy arrays; with other arrays "
                     f"pass {what} yourself")


def empty(fw: str, device: int, shape: tuple[int, ...], dtype: str, column_major: bool,
          what: str, zero: bool = False) -> Any:
    """A new array of the framework; with column_major the last two axes are column-major.
    With zero it is filled with zeros (on the current stream: the caller's, see allocating_on),
    for outputs a routine writes only in part (syrk's triangle)."""
    flip = column_major and len(shape) >= 2
    alloc_shape = shape[:-2] + (shape[-1], shape[-2]) if flip else shape
    if fw == "torch":
        torch = sys.modules["torch"]
        make = torch.zeros if zero else torch.empty
        out = make(alloc_shape, dtype=getattr(torch, dtype), device=f"cuda:{device}")
        return out.transpose(-1, -2) if flip else out
    if fw == "cupy":
        cupy = sys.modules["cupy"]
        with cupy.cuda.Device(device):
            out = (cupy.zeros if zero else cupy.empty)(alloc_shape, dtype=dtype)
        return out.swapaxes(-1, -2) if flip else out
    raise _no_allocator(what)


def device_bytes(fw: str, device: int, data: bytes) -> tuple[Any, int]:
    """Copy host bytes (pointer and size arrays) to a new device buffer: (owner, address)."""
    if fw == "torch":
        torch = sys.modules["torch"]
        # From pinned memory and non_blocking: a plain .to() from pageable memory makes torch
        # synchronize the stream after the copy, so every list call would wait for all the work
        # queued before it. torch's pinned-memory cache keeps the host block until the copy is done.
        host = torch.frombuffer(bytearray(data), dtype=torch.uint8).pin_memory()
        buf = host.to(f"cuda:{device}", non_blocking=True)
        return buf, buf.data_ptr()
    if fw == "cupy":
        cupy = sys.modules["cupy"]
        numpy = sys.modules.get("numpy") or __import__("numpy")
        with cupy.cuda.Device(device):
            buf = cupy.asarray(numpy.frombuffer(data, dtype=numpy.uint8))
        return buf, buf.data.ptr
    raise _no_allocator("pointer arrays (lists of matrices)")
