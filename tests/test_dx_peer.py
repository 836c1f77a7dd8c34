"""The cuSolverDx peer of the factorization bench (bench/dx_peer.h) without a GPU.

* With libmathdx installed (`make mathdx-deps`, or MATHDX_HOME): shoal_dx_gen generates the
  getrf/potrf/geqrf kernels for sm_90 (descriptor -> LTOIR, NVRTC wrapper, nvJitLink cubin) and
  reports the library's suggested BatchesPerBlock and block dim; a second run finds them cached.
* Always: built without libmathdx, the tool says "cusolverdx: unavailable (libmathdx not found)"
  and exits 3 instead of failing.
"""
import os
import pathlib
import re
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


def make_gen(build: pathlib.Path, *make_args: str) -> pathlib.Path:
    res = subprocess.run(["make", "-s", f"BUILD={build}", *make_args, f"{build}/bin/shoal_dx_gen"],
                         cwd=ROOT, capture_output=True, text=True)
    # make's own words when it fails (a bare CalledProcessError hid them on the GPU machine)
    assert res.returncode == 0, f"make exited {res.returncode}:\n{res.stdout[-2000:]}\n{res.stderr[-3000:]}"
    return build / "bin" / "shoal_dx_gen"


def mathdx_home() -> str | None:
    out = subprocess.run(["make", "-s", "--no-print-directory", "-f", "Makefile", "-f", "-", "print-mathdx"],
                         cwd=ROOT, input="print-mathdx:\n\t@echo $(DX_FOUND)\n", capture_output=True, text=True)
    found = out.stdout.strip()
    return found or None


def test_unavailable_without_libmathdx(tmp_path):
    tool = make_gen(tmp_path / "build", "MATHDX_HOME=")
    res = subprocess.run([str(tool), "--gen-only"], capture_output=True, text=True)
    assert res.returncode == 3, res.stdout + res.stderr
    assert "cusolverdx: unavailable (libmathdx not found)" in res.stdout


@pytest.mark.skipif(mathdx_home() is None,
                    reason="libmathdx not installed (make mathdx-deps, or MATHDX_HOME=...)")
def test_gen_only_sm90(tmp_path):
    tool = make_gen(tmp_path / "build")
    env = dict(os.environ, SHOAL_DX_CACHE=str(tmp_path / "cache"))
    # a small cross-section (each kernel takes ~10 s of CPU): every routine and precision
    args = [str(tool), "--gen-only", "--sm", "900", "--n", "4,32", "--prec", "sd", "--jobs", "2"]
    res = subprocess.run(args, capture_output=True, text=True, env=env, timeout=900)
    assert res.returncode == 0, res.stdout + res.stderr
    rows = re.findall(r"^([sd])\s+(\w+)\s+([lun])\s+(\d+) \|\s+(\d+)\s+(\d+)x(\d+)x(\d+)", res.stdout, re.M)
    assert len(rows) == 12, res.stdout
    for prec, routine, uplo, n, bpb, bx, by, bz in rows:
        assert int(bpb) >= 1 and 1 <= int(bx) * int(by) * int(bz) <= 1024
    # the library's suggestion on sm_90 (libmathdx 0.4.1): one matrix per block at n = 32
    assert all(int(r[4]) == 1 for r in rows if r[3] == "32")
    cubins = list((tmp_path / "cache").rglob("*.cubin"))
    assert len(cubins) == 12
    again = subprocess.run(args, capture_output=True, text=True, env=env, timeout=120)
    assert again.returncode == 0 and "12 of 12 kernel(s) cached" in again.stdout, again.stdout
