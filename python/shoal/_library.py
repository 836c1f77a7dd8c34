"""Finding and loading libshoal, and declaring its prototypes for ctypes.

Search order (the first hit wins):
  1. $SHOAL_LIBRARY, a path to the library file; if set, nothing else is tried;
  2. the package's own lib/ (filled by `make python` so that a wheel carries its library);
  3. the repository's lib/ when the package is used from a source tree (PYTHONPATH=python);
  4. the dynamic loader's search (LD_LIBRARY_PATH, ld.so.cache: an installed libshoal).
The library is loaded on first use, so `import shoal` works on a machine without it.
"""
from __future__ import annotations

import ctypes
import os
import pathlib
import threading

from ._errors import LibraryNotFoundError
from ._signatures import OPTIONAL, RETURNS, SIGNATURES, argtypes

_PACKAGE_DIR = pathlib.Path(__file__).resolve().parent
# libshoal.so is the development link; libshoal.so.0 the soname of an installed library.
_NAMES = ("libshoal.so", "libshoal.so.0")

_lock = threading.Lock()
_loaded: "Library | None" = None


class Library:
    """The loaded libshoal with its functions typed; attribute access gives the C functions."""

    def __init__(self, cdll: ctypes.CDLL, path: str) -> None:
        self.path = path
        self._cdll = cdll
        missing = []
        for name, codes in SIGNATURES.items():
            try:
                fn = getattr(cdll, name)
            except AttributeError:
                missing.append(name)
                continue
            _declare(fn, name, codes)
            setattr(self, name, fn)
        if missing:
            raise LibraryNotFoundError(
                f"{path} lacks {len(missing)} shoal functions (e.g. {', '.join(missing[:3])}): "
                "it is not a libshoal of this version; rebuild it with `make`")
        self.optional: dict[str, object] = {}
        for name, codes in OPTIONAL.items():
            fn = getattr(cdll, name, None)
            if fn is not None:
                _declare(fn, name, codes)
                self.optional[name] = fn
        # The CUDA runtime libshoal links against: dlsym on the library's handle also searches its
        # dependencies. Used to make an array's device current; absent (None) in a fake library.
        self.cuda_get_device = _cuda_fn(cdll, "cudaGetDevice")
        self.cuda_set_device = _cuda_fn(cdll, "cudaSetDevice")


def _declare(fn, name: str, codes: str) -> None:
    fn.argtypes = argtypes(codes)
    fn.restype = RETURNS.get(name, ctypes.c_int)


def _cuda_fn(cdll: ctypes.CDLL, name: str):
    fn = getattr(cdll, name, None)
    if fn is not None:
        fn.argtypes = [ctypes.c_void_p] if name == "cudaGetDevice" else [ctypes.c_int]
        fn.restype = ctypes.c_int
    return fn


def candidates() -> list[str]:
    """Where the library is looked for, in order (paths, then bare names for the loader)."""
    env = os.environ.get("SHOAL_LIBRARY")
    if env:
        return [env]
    found = []
    for directory in (_PACKAGE_DIR / "lib", _PACKAGE_DIR.parent.parent / "lib"):
        found += [str(directory / n) for n in _NAMES if (directory / n).exists()]
    return found + list(_NAMES)


def load(path: str | None = None) -> Library:
    """Load libshoal (once per process unless a path is given) and return it."""
    global _loaded
    if path is not None:
        return _open([path])
    with _lock:
        if _loaded is None:
            _loaded = _open(candidates())
        return _loaded


def _open(paths: list[str]) -> Library:
    errors = []
    for p in paths:
        if os.sep in p and not os.path.exists(p):
            errors.append(f"{p}: no such file")
            continue
        try:
            cdll = ctypes.CDLL(p)
        except OSError as e:
            errors.append(str(e))
            continue
        return Library(cdll, p)
    hint = ("set SHOAL_LIBRARY to the path of libshoal.so, build it with `make` in the shoal "
            "repository, or run `make python` to bundle it with the package")
    raise LibraryNotFoundError("cannot load libshoal; tried:\n  " + "\n  ".join(errors) + "\n" + hint)


def reset() -> None:
    """Forget the loaded library (tests; the next call loads again)."""
    global _loaded
    with _lock:
        _loaded = None
