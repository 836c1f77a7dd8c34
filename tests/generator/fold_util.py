"""What the fold tests (test_fold.py, test_cover.py) share: GEMM kernels of the fixture search
space with their configurations, a fixture that records timings at one shape, and an emit that
reads the table back."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator import db
from generator.emit import EmitResult, emit

DEFAULT = "shoal_dgemm_tiled_nn_x16_y16_m64_n64_k8"
DEFAULT_CFG = '{"BLK_K":8,"BLK_M":64,"BLK_N":64,"DIM_X":16,"DIM_Y":16}'
A, B, C = ("shoal_dgemm_staged_nn_x64_mpb8_tn2", "shoal_dgemm_staged_nn_x128_mpb8_tn2",
           "shoal_dgemm_staged_nn_x256_mpb8_tn2")
RULE = re.compile(r"\{'(\w)', SHOAL_MODE_(\w+), (\d), \{(\d+), (\d+), (\d+)\}, (\w+), (-?\d+)\},")


def config(kernel: str) -> tuple[str, str]:
    """(design, config) of DEFAULT or of a staged kernel, from its name."""
    if kernel == DEFAULT:
        return "tiled", DEFAULT_CFG
    x = re.search(r"_x(\d+)_mpb(\d+)_tn(\d+)$", kernel)
    assert x, kernel
    return "staged", f'{{"DIM_X":{x[1]},"MPB":{x[2]},"TN":{x[3]}}}'


@pytest.fixture
def measure(conn, device, add, version):
    """measure(shape, {kernel or 'cublas': ms}): one tuned shape (m = n = k) on the fake H100."""
    dev = db.upsert_device(conn, device)
    run = db.start_run(conn, dev, ["gemm"], ["d"], version)

    def go(size: int, times: dict[str, float]) -> None:
        for kernel, ms in times.items():
            design, cfg = ("vendor", "{}") if kernel == "cublas" else config(kernel)
            add(conn, run, dev, version, kernel=kernel, design=design, config=cfg, ms=ms,
                m=size, n=size, k=size)
        conn.commit()
    return go


def emit_rules(conn, project, space, out: Path, tol: float, cover: bool = False
               ) -> tuple[list[str], dict[int, tuple[str, str | None]], list[str], EmitResult]:
    """-> (kernel names of the table, {size: (best, own)}, the fold lines, the result)."""
    res = emit(conn, project, [space], out, fold_tolerance=tol, fold_cover=cover)
    c = (out / "gemm_tables.c").read_text()
    names = re.findall(r'/\* +\d+ \*/ \{"(\w+)"', c)
    rules = {}
    for prec, mode, variant, m, n, k, best, own in RULE.findall(c):
        assert (prec, mode, variant, m, n) == ("d", "STRIDED", "0", k, k)
        rules[int(m)] = ("vendor" if best == "SHOAL_KERNEL_VENDOR" else names[int(best)],
                         None if own == "-1" else names[int(own)])
    return names, rules, res.folds, res


def dnn(names: list[str]) -> list[str]:
    return [n for n in names if n.startswith("shoal_dgemm") and "_nn_" in n]


def files(d: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in d.iterdir()}
