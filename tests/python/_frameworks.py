"""PyTorch and CuPy behind one small interface for the GPU tests; references are computed with
numpy on the host."""
from __future__ import annotations

import contextlib


def load(name: str):
    """An adapter, or a string saying why the framework cannot be used here."""
    try:
        import numpy  # noqa: F401
    except ImportError:
        return "numpy is not installed (the GPU tests' references use it)"
    if name == "torch":
        try:
            import torch
        except ImportError:
            return "PyTorch is not installed"
        if not torch.cuda.is_available():
            return "PyTorch sees no CUDA device"
        return Torch(torch)
    try:
        import cupy
        if cupy.cuda.runtime.getDeviceCount() == 0:
            return "CuPy sees no CUDA device"
    except Exception as e:  # ImportError, or CUDARuntimeError without a driver
        return f"CuPy is unusable ({type(e).__name__}: {e})"
    return CuPy(cupy)


class Torch:
    name = "torch"

    def __init__(self, torch):
        self.t = torch

    def from_numpy(self, a, order="col"):
        x = self.t.from_numpy(a.copy()).to("cuda")
        if order == "col" and x.ndim >= 2:
            x = x.transpose(-1, -2).contiguous().transpose(-1, -2)
        return x

    def to_numpy(self, x):
        self.t.cuda.synchronize()
        return x.cpu().numpy()

    def synchronize(self):
        self.t.cuda.synchronize()

    def side_stream(self):
        s = self.t.cuda.Stream()
        return s, self.t.cuda.stream(s), s.cuda_stream

    def is_native(self, x):
        return isinstance(x, self.t.Tensor)


class CuPy:
    name = "cupy"

    def __init__(self, cupy):
        self.c = cupy

    def from_numpy(self, a, order="col"):
        x = self.c.asarray(a)
        if order == "col" and x.ndim >= 2:
            x = self.c.ascontiguousarray(x.swapaxes(-1, -2)).swapaxes(-1, -2)
        return x

    def to_numpy(self, x):
        self.c.cuda.Device().synchronize()
        return self.c.asnumpy(x)

    def synchronize(self):
        self.c.cuda.Device().synchronize()

    def side_stream(self):
        s = self.c.cuda.Stream(non_blocking=True)
        return s, s, s.ptr

    def is_native(self, x):
        return isinstance(x, self.c.ndarray)


@contextlib.contextmanager
def nothing():
    yield
