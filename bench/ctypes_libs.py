"""Finding and loading the vendor and host libraries the benchmarks' peers call through ctypes
(bench/cublas_gels_peer.py, cusolver_gebrd_peer.py, lapacke_gebrd_peer.py): the copies PyTorch's
CUDA wheels bring (nvidia/<package>/lib), else the system's (ctypes.util.find_library), else the
bare soname."""
from __future__ import annotations

import ctypes
import ctypes.util
import glob
import os


def candidates(stem: str, wheel_package: str = "", sonames: tuple[str, ...] = ()) -> list[str]:
    """Paths to try for lib<stem>: the wheel's (nvidia.<wheel_package>), the system's, then
    sonames (default lib<stem>.so), in that order."""
    paths: list[str] = []
    if wheel_package:
        try:
            pkg = __import__(f"nvidia.{wheel_package}", fromlist=["__path__"])
            for root in pkg.__path__:
                paths += sorted(glob.glob(os.path.join(root, "lib", f"lib{stem}.so*")))
        except ImportError:
            pass
    found = ctypes.util.find_library(stem)
    return paths + ([found] if found else []) + list(sonames or (f"lib{stem}.so",))


def load_first(paths: list[str], what: str) -> tuple[ctypes.CDLL, str]:
    """The first of paths that loads, and its path; RuntimeError naming every place tried, and
    why, when none does."""
    tried = []
    for path in paths:
        try:
            return ctypes.CDLL(path), path
        except OSError as e:
            tried.append(f"{path}: {e}")
    raise RuntimeError(f"no {what} loaded (" + "; ".join(tried) + ")")
