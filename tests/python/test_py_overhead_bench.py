"""bench/python_overhead.py's host-side logic on the fake libshoal: the C calls it times as "the C
API" are the ones the package makes for the same tensors, the capture that checks this on the GPU,
batch sizing and the table. The measurement itself needs a GPU and PyTorch (run the script there)."""
import pathlib
import sys

import pytest

import shoal
from _fakes import FakeArray, col_batch, row_batch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "bench"))
import python_overhead as po  # noqa: E402


@pytest.mark.parametrize("prec, code", [("s", "f4"), ("d", "f8")])
@pytest.mark.parametrize("op", po.GEMM_OPS)
def test_gemm_c_call_is_the_packages(fake, prec, code, op):
    A, B, C = (row_batch(7, 8, 8, code) for _ in range(3))   # torch's default order
    kw = {"transa": "T"} if op[0] == "T" else {}
    got, result = po.captured_call(lambda: shoal.gemm(A, B, C, **kw))
    assert result is C
    assert po.same_call(po.gemm_c_args(prec, 8, op, A.ptr, B.ptr, C.ptr, 7), got)
    assert fake.last()[0] == got[0]  # the captured call did reach the library


@pytest.mark.parametrize("given", [False, True])
def test_getrf_c_call_is_the_packages_but_for_its_outputs(fake, given):
    A = col_batch(5, 16, 16, "f4")
    ipiv, info = FakeArray((5, 16), dtype="i4"), FakeArray((5,), dtype="i4")
    outputs = {"ipiv": ipiv, "info": info} if given else {}
    got, (piv, inf) = po.captured_call(lambda: shoal.getrf(A, **outputs))
    mine = po.getrf_c_args("s", 16, A.ptr, 0x10, 0x20, 5)
    assert po.same_call(mine, got, po.GETRF_OUTPUTS)
    assert not po.same_call(mine, got)
    assert (got[1][5], got[1][7]) == ((ipiv.ptr, info.ptr) if given else (piv.ptr, inf.ptr))
    assert not po.same_call(po.getrf_c_args("d", 16, A.ptr, 0, 0, 5), got, po.GETRF_OUTPUTS)


def test_capture_restores_the_package_and_counts_calls(fake):
    from shoal import _context
    original = _context.Call.__call__
    with pytest.raises(RuntimeError, match="0 C calls"):
        po.captured_call(lambda: None)
    with pytest.raises(ValueError):
        po.captured_call(lambda: shoal.gemm(row_batch(2, 3, 3), row_batch(2, 4, 4), row_batch(2, 3, 3)))
    assert _context.Call.__call__ is original


def test_batch_exceeds_the_l2_multiple():
    l2 = 50 * 2**20
    b = po.batch_for(3 * 8 * 8 * 8, l2, 4.0)
    assert b * 3 * 8 * 8 * 8 > 4 * l2 and (b - 2) * 3 * 8 * 8 * 8 <= 4 * l2
    assert po.batch_for(10**12, l2, 4.0) == 2


def test_table_and_csv(tmp_path):
    rows = [po.csv_row("gemm TN", "s", "64x64x64", 4268, 0.1, 0.1049, 5.0, 20.0)]
    assert rows[0]["ratio"] == "1.0490"
    text = po.table(rows)
    assert "| gemm TN | s | 64x64x64 | 4,268 | 0.1000 | 0.1049 | 1.049 | 5.0 | 20.0 |" in text
    assert "within 5% of the C API in 1 of 1 cases" in text
    po.write_csv(tmp_path / "x.csv", rows)
    assert (tmp_path / "x.csv").read_text().splitlines()[0] == ",".join(po.FIELDS)
