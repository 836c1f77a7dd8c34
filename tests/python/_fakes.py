"""Fake arrays (made-up addresses behind __cuda_array_interface__) and the fake libshoal's log,
for the CPU tests."""
from __future__ import annotations

import itertools
import re

_ITEM = {"f4": 4, "f8": 8, "c8": 8, "c16": 16, "i4": 4, "i8": 8, "f2": 2}
_addresses = itertools.count(0x7F0000000000, 0x100000)


class FakeArray:
    """A made-up CUDA array: shape, element strides and a fake address."""

    def __init__(self, shape, strides=None, dtype="f8", ptr=None, version=2, stream=None):
        self.shape = tuple(shape)
        if strides is None:  # C order
            strides, step = [], 1
            for extent in reversed(self.shape):
                strides.append(step)
                step *= max(extent, 1)
            strides = tuple(reversed(strides))
        self.strides = tuple(strides)
        self.dtype = dtype
        self.ptr = next(_addresses) if ptr is None else ptr
        self.version, self.stream = version, stream

    @property
    def __cuda_array_interface__(self):
        item = _ITEM[self.dtype]
        d = {"shape": self.shape, "typestr": "<" + self.dtype, "data": (self.ptr, False),
             "strides": tuple(s * item for s in self.strides), "version": self.version}
        if self.version >= 3:
            d["stream"] = self.stream
        return d


def col_batch(b, m, n, dtype="f8", ld=None):
    """b column-major m x n matrices (torch: x.mT.contiguous().mT)."""
    ld = ld or m
    return FakeArray((b, m, n), (ld * n, 1, ld), dtype)


def row_batch(b, m, n, dtype="f8"):
    return FakeArray((b, m, n), (m * n, n, 1), dtype)


class Fake:
    """The fake library's log and controls."""

    def __init__(self, path):
        import ctypes
        self.path = path
        self.cdll = ctypes.CDLL(str(path))
        self.cdll.fake_log.restype = ctypes.c_char_p

    def calls(self, prefix="shoal_"):
        text = self.cdll.fake_log().decode()
        out = []
        for line in text.splitlines():
            m = re.fullmatch(r"(\w+)\((.*)\)", line)
            if m and m.group(1).startswith(prefix):
                out.append((m.group(1), m.group(2).split(",") if m.group(2) else []))
        return out

    def routine_calls(self):
        skip = ("shoal_create", "shoal_set_stream", "shoal_destroy")
        return [c for c in self.calls() if c[0] not in skip]

    def last(self):
        calls = self.routine_calls()
        assert calls, "no routine was called"
        return calls[-1]

    def clear(self):
        self.cdll.fake_clear()

    def set_status(self, status):
        self.cdll.fake_set_status(status)

    def set_create_status(self, status):
        self.cdll.fake_set_create_status(status)


def args_of(call):
    """A recorded call's name and arguments, the handle dropped."""
    name, args = call
    return name, args[1:]


def upload(fake, address):
    """The content of the uploaded buffer holding `address`, from `address` on."""
    for base, data in fake.uploads:
        if base <= address < base + len(data):
            return data[address - base:]
    raise AssertionError(f"{address:#x} is not in an uploaded buffer")


class HostArray:
    """A DLPack producer on the host (kDLCPU), as a numpy array or a CPU tensor is."""

    def __dlpack_device__(self):
        return 1, 0

    def __dlpack__(self, stream=None):
        raise AssertionError("a host array must be refused before it is exported")
