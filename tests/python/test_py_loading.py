"""Finding libshoal and the errors when it cannot be used; DLPack arrays and device selection."""
import ctypes
import os
import subprocess
import sys

import pytest

import _header
import shoal
from shoal import _context, _library
from _fakes import col_batch


@pytest.fixture
def fresh():
    _context.destroy_handles()
    _library.reset()
    yield
    _context.destroy_handles()
    _library.reset()


def test_import_needs_no_library(tmp_path):
    env = dict(os.environ, SHOAL_LIBRARY=str(tmp_path / "missing.so"),
               PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    code = ("import shoal\n"
            "try:\n    shoal.dispatch_info()\nexcept shoal.LibraryNotFoundError as e:\n"
            "    print('raised', e)\n")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "raised cannot load libshoal" in out.stdout and "missing.so: no such file" in out.stdout


def test_missing_library_lists_what_was_tried(fresh, monkeypatch, tmp_path):
    monkeypatch.setenv("SHOAL_LIBRARY", str(tmp_path / "nope.so"))
    with pytest.raises(shoal.LibraryNotFoundError, match="nope.so: no such file(.|\n)*SHOAL_LIBRARY"):
        shoal.gemm(col_batch(1, 1, 1), col_batch(1, 1, 1), col_batch(1, 1, 1))


def test_not_a_library(fresh, monkeypatch, tmp_path):
    bogus = tmp_path / "libshoal.so"
    bogus.write_text("not an ELF file")
    monkeypatch.setenv("SHOAL_LIBRARY", str(bogus))
    with pytest.raises(shoal.LibraryNotFoundError, match="cannot load libshoal"):
        shoal.library_path()


def test_library_lacking_functions_is_refused(fresh, monkeypatch, tmp_path):
    lib = _header.build_fake(tmp_path, omit=("shoal_dgeqrf_batched",))
    monkeypatch.setenv("SHOAL_LIBRARY", str(lib))
    with pytest.raises(shoal.LibraryNotFoundError, match="lacks 1 shoal functions.*shoal_dgeqrf_batched"):
        shoal.library_path()


def test_search_order(monkeypatch):
    monkeypatch.setenv("SHOAL_LIBRARY", "/x/libshoal.so")
    assert _library.candidates() == ["/x/libshoal.so"]
    monkeypatch.delenv("SHOAL_LIBRARY")
    found = _library.candidates()
    assert found[-2:] == ["libshoal.so", "libshoal.so.0"]  # the loader's own search comes last
    repo_lib = _header.REPO / "lib" / "libshoal.so"
    if repo_lib.exists():
        assert str(repo_lib) in found


def test_fake_library_loads_and_reports_its_path(fake, fake_path):
    assert shoal.library_path() == str(fake_path)
    # the fake is built from shoal.h, which declares shoal_get_version; its stub writes nothing
    assert shoal.library_version() == (0, 0, 0)


# ---- DLPack -----------------------------------------------------------------------------

class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32),
                ("ndim", ctypes.c_int32), ("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class _Managed(ctypes.Structure):
    _fields_ = [("t", _DLTensor), ("ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p)]


_new_capsule = ctypes.pythonapi.PyCapsule_New
_new_capsule.restype = ctypes.py_object
_new_capsule.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


class DLPackOnly:
    """A producer of legacy DLPack capsules only (like a JAX array), on CUDA device `device`."""

    def __init__(self, shape, strides, device, ptr=0x5000000, bits=64, offset=0, device_type=2, code=2):
        n = len(shape)
        self._shape = (ctypes.c_int64 * n)(*shape)
        self._strides = (ctypes.c_int64 * n)(*strides) if strides is not None else None
        self.m = _Managed()
        self.m.t = _DLTensor(ptr, device_type, device, n, code, bits, 1, self._shape,
                             self._strides, offset)
        self.device, self.device_type, self.streams = device, device_type, []
        self.shape, self.ptr = tuple(shape), ptr

    def __dlpack_device__(self):
        return (self.device_type, self.device)

    def __dlpack__(self, stream=None):
        self.streams.append(stream)
        return _new_capsule(ctypes.addressof(self.m), b"dltensor", None)


def test_dlpack_array_on_another_device(fake):
    A = DLPackOnly((2, 3, 3), (9, 1, 3), device=1, offset=16)
    B = DLPackOnly((2, 3, 3), None, device=1)  # NULL strides: C order, i.e. row-major matrices
    C = DLPackOnly((2, 3, 3), (9, 1, 3), device=1, ptr=0x6000000)
    shoal.gemm(A, B, C, stream=0x42)
    log = [c for c in fake.calls(prefix="")]
    names = [c[0] for c in log]
    # device 1 made current for the handle's creation and for the call, device 0 restored after
    assert names == ["cudaSetDevice", "shoal_create", "cudaSetDevice",
                     "cudaSetDevice", "shoal_set_stream", "shoal_dgemm_strided_batched", "cudaSetDevice"]
    assert [c[1] for c in log if c[0] == "cudaSetDevice"] == [["1"], ["0"], ["1"], ["0"]]
    name, args = log[-2]
    assert args[7:10] == [hex(0x5000000 + 16), "3", "9"]      # A column-major
    assert args[2] == "1" and args[11:13] == ["3", "9"]         # B row-major: op T
    assert A.streams == [0x42]


def test_dlpack_default_stream_is_legacy(fake):
    A = DLPackOnly((3, 3), (1, 3), device=0)
    shoal.potrf(A, info=DLPackOnly((), None, device=0, bits=32, code=0))
    assert A.streams == [1]


def test_arrays_on_different_devices_are_refused(fake):
    with pytest.raises(ValueError, match="several devices"):
        shoal.gemm(DLPackOnly((2, 2), (1, 2), 0), DLPackOnly((2, 2), (1, 2), 1), DLPackOnly((2, 2), (1, 2), 0))


def test_dlpack_host_array_is_refused(fake):
    with pytest.raises(TypeError, match="CUDA memory"):
        shoal.potrf(DLPackOnly((3, 3), (1, 3), device=0, device_type=1))
