"""Fixtures for the Python package's tests.

CPU tests run against a fake libshoal compiled from include/shoal.h (tests/python/_header.py)
that records every call, with fake arrays that expose __cuda_array_interface__ over made-up
addresses (nothing is ever dereferenced). GPU tests (test_py_gpu_*.py) need a CUDA device,
PyTorch or CuPy and the repository's lib/libshoal.so (or SHOAL_LIBRARY); without them they skip,
and SHOAL_REQUIRE_GPU=1 turns those skips into failures.
"""
from __future__ import annotations

import os
import pathlib
import shutil
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
# The package from this source tree unless one is importable already (PYTHONPATH=python, or an
# installed copy a run wants to test).
try:
    import shoal  # noqa: F401
except ImportError:
    sys.path.insert(0, str(REPO / "python"))

import shoal  # noqa: E402
from shoal import _context, _library  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import _header  # noqa: E402

from _fakes import Fake, FakeArray  # noqa: E402


@pytest.fixture(scope="session")
def fake_path(tmp_path_factory):
    if shutil.which("cc") is None:
        pytest.skip("no C compiler to build the fake libshoal")
    return _header.build_fake(tmp_path_factory.mktemp("fake"))


def _fresh():
    _context.destroy_handles()
    _library.reset()


@pytest.fixture
def fake(fake_path, monkeypatch):
    """The package bound to a fresh fake libshoal; arrays allocated by the package become
    FakeArrays and uploads are recorded in fake.uploads."""
    from shoal import _arrays
    monkeypatch.setenv("SHOAL_LIBRARY", str(fake_path))
    _fresh()
    f = Fake(fake_path)
    f.clear()
    f.set_status(0)
    f.set_create_status(0)
    f.uploads = []
    f.allocated = []

    def empty(fw, device, shape, dtype, column_major, what, zero=False):
        code = {"float32": "f4", "float64": "f8", "complex64": "c8", "complex128": "c16", "int32": "i4"}[dtype]
        if column_major and len(shape) >= 2:
            a = FakeArray(shape[:-2] + (shape[-1], shape[-2]), dtype=code)
            a.shape, a.strides = shape, a.strides[:-2] + (a.strides[-1], a.strides[-2])
        else:
            a = FakeArray(shape, dtype=code)
        a.zero = zero
        f.allocated.append((what, a))
        return a

    def device_bytes(fw, device, data):
        buf = FakeArray((len(data),), dtype="i4")
        f.uploads.append((buf.ptr, bytes(data)))
        return buf, buf.ptr

    monkeypatch.setattr(_arrays, "empty", empty)
    monkeypatch.setattr(_arrays, "device_bytes", device_bytes)
    yield f
    _fresh()


# ---- GPU ------------------------------------------------------------------------------------

REQUIRE_GPU = os.environ.get("SHOAL_REQUIRE_GPU", "") not in ("", "0")


def gpu_unavailable(why):
    """Skip, or fail under SHOAL_REQUIRE_GPU=1."""
    if REQUIRE_GPU:
        pytest.fail(f"SHOAL_REQUIRE_GPU=1 but {why}", pytrace=False)
    pytest.skip(why)


@pytest.fixture(params=["torch", "cupy"])
def xp(request):
    """A framework with a CUDA device and the real libshoal, as a tests/python/_frameworks.py
    adapter."""
    import _frameworks
    fw = _frameworks.load(request.param)
    if isinstance(fw, str):
        gpu_unavailable(fw)
    _fresh()
    try:
        _library.load()
    except shoal.LibraryNotFoundError as e:
        gpu_unavailable(f"libshoal cannot be loaded ({e}); build it with `make`")
    yield fw
    fw.synchronize()
    _fresh()
