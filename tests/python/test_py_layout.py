"""Memory order, leading dimensions, batch strides and broadcasting (shoal/_layout.py)."""
import pytest

from _fakes import FakeArray, col_batch, row_batch
from shoal import _arrays, _layout


def info(a, name="X"):
    return _arrays.describe(a, name)


@pytest.mark.parametrize("rows, cols, sr, sc, expect", [
    (4, 3, 1, 4, (False, 4)),      # column-major
    (4, 3, 1, 7, (False, 7)),      # column-major sub-matrix, ld 7
    (4, 3, 3, 1, (True, 3)),       # row-major: the view is the 3 x 4 transpose, ld 3
    (4, 3, 5, 1, (True, 5)),
    (4, 1, 1, 1, (False, 4)),      # a column: column-major, ld = rows
    (4, 1, 6, 99, (True, 6)),      # a strided column: only the transposed reading works
    (1, 5, 1, 1, (False, 1)),      # a contiguous row reads either way: column-major, ld 1
    (1, 5, 77, 3, (False, 3)),
    (1, 1, 0, 0, (False, 1)),
])
def test_matrix_layout(rows, cols, sr, sc, expect):
    assert _layout.matrix_layout(rows, cols, sr, sc) == expect


def test_matrix_layout_prefers_row_when_asked():
    assert _layout.matrix_layout(1, 5, 5, 1, prefer_row=True) == (True, 5)
    assert _layout.matrix_layout(1, 5, 5, 1) == (False, 1)


@pytest.mark.parametrize("rows, cols, sr, sc", [
    (4, 3, 2, 8),    # no unit stride
    (4, 3, 1, 2),    # columns overlap (ld < rows)
    (4, 3, 2, 1),    # rows overlap (ld < cols)
    (4, 3, -1, 4),   # reversed
    (1, 5, 0, 0),    # a broadcast row
])
def test_matrix_layout_rejects(rows, cols, sr, sc):
    with pytest.raises(ValueError, match="neither column-major"):
        _layout.matrix_layout(rows, cols, sr, sc)


def test_matrices_of_a_column_major_batch():
    a = col_batch(5, 4, 3)
    m = _layout.matrices(info(a), "A")
    assert (m.rows, m.cols, m.batch, m.ld, m.stride, m.transposed, m.single) == (4, 3, 5, 4, 12, False, False)
    assert m.ptr == a.ptr


def test_matrices_of_a_row_major_batch():
    m = _layout.matrices(info(row_batch(5, 4, 3)), "A")
    assert (m.transposed, m.ld, m.stride, m.view_rows, m.view_cols) == (True, 3, 12, 3, 4)


def test_single_matrix_has_a_canonical_stride():
    m = _layout.matrices(info(FakeArray((4, 3), (1, 6))), "A")
    assert (m.batch, m.single, m.ld, m.stride) == (1, True, 6, 18)


def test_negative_batch_stride_is_rejected():
    with pytest.raises(ValueError, match="negative batch stride"):
        _layout.matrices(info(FakeArray((3, 2, 2), (-4, 1, 2))), "A")


def test_bad_ndim():
    with pytest.raises(ValueError, match=r"\(batch, rows, cols\)"):
        _layout.matrices(info(FakeArray((2, 2, 2, 2))), "A")


def test_vectors_with_negative_increment_start_at_the_lowest_address():
    x = FakeArray((3, 4), (10, -2))
    v = _layout.vectors(info(x), "x")
    assert (v.n, v.inc, v.batch, v.stride) == (4, -2, 3, 10)
    assert v.ptr == x.ptr + 3 * -2 * 8


def test_vector_of_stride_zero_is_rejected():
    with pytest.raises(ValueError, match="stride 0"):
        _layout.vectors(info(FakeArray((4,), (0,))), "x")


def test_written_operands_must_not_overlap():
    C = _layout.matrices(info(FakeArray((4, 3, 3), (0, 1, 3))), "C")  # expanded: stride 0
    with pytest.raises(ValueError, match="overlap"):
        _layout.common_batch([C], [])
    C = _layout.matrices(info(FakeArray((4, 3, 3), (8, 1, 3))), "C")  # 8 < 9
    with pytest.raises(ValueError, match="overlap"):
        _layout.common_batch([C], [])


def test_written_vectors_may_interleave_but_not_share_elements():
    # a column-major (batch, n) array: vector i holds elements i, i + 5, i + 10, ...
    y = _layout.vectors(info(FakeArray((5, 3), (1, 5))), "y")
    assert _layout.common_batch([y], []) == 5
    y = _layout.vectors(info(FakeArray((5, 3), (1, 4))), "y")  # vector 4's first is vector 0's second
    with pytest.raises(ValueError, match="overlap"):
        _layout.common_batch([y], [])
    y = _layout.vectors(info(FakeArray((5, 3), (2, 3))), "y")  # 0, 3, 6 and 2, 5, 8 ... meet at 6
    with pytest.raises(ValueError, match="overlap"):
        _layout.common_batch([y], [])


def test_read_only_operands_broadcast_from_one_matrix():
    C = _layout.matrices(info(col_batch(6, 3, 3)), "C")
    A = _layout.matrices(info(FakeArray((3, 3), (1, 3))), "A")
    A1 = _layout.matrices(info(col_batch(1, 3, 3)), "A")
    assert _layout.common_batch([C], [A, A1]) == 6
    assert A.stride_for(6) == 0 and C.stride_for(6) == 9
    A2 = _layout.matrices(info(col_batch(2, 3, 3)), "A")
    with pytest.raises(ValueError, match="holds 2 matrices"):
        _layout.common_batch([C], [A2])


def test_list_of_matrices_is_a_pointer_batch():
    items = [FakeArray((3, 2), (1, 3)) for _ in range(4)]
    m = _layout.matrices([info(a) for a in items], "A")
    assert m.ptrs == tuple(a.ptr for a in items) and m.batch == 4 and not m.single
    assert m.addresses(4) == [a.ptr for a in items]


def test_list_must_share_shape_and_ld():
    items = [FakeArray((3, 2), (1, 3)), FakeArray((3, 2), (1, 5))]
    with pytest.raises(ValueError, match="differs"):
        _layout.matrices([info(a) for a in items], "A")


def test_same_order_reads_vector_shaped_matrices_like_the_others():
    items = [FakeArray((3, 4), (4, 1)), FakeArray((1, 4), (4, 1)), FakeArray((3, 1), (1, 1))]
    ms = _layout.same_order([info(a) for a in items], "A")
    assert [m.transposed for m in ms] == [True, True, True]
    assert [m.ld for m in ms] == [4, 4, 1]
    mixed = [FakeArray((3, 4), (4, 1)), FakeArray((3, 4), (1, 3))]
    with pytest.raises(ValueError, match="mix column-major and row-major"):
        _layout.same_order([info(a) for a in mixed], "A")


def test_strided_addresses():
    m = _layout.matrices(info(col_batch(3, 2, 2, dtype="f4")), "A")
    assert m.addresses(3) == [m.ptr, m.ptr + 16, m.ptr + 32]
    one = _layout.matrices(info(FakeArray((2, 2), (1, 2))), "A")
    assert one.addresses(3) == [one.ptr] * 3


def test_require_column_major():
    with pytest.raises(ValueError, match="must be column-major.*shoal.column_major"):
        _layout.require_column_major(_layout.matrices(info(row_batch(2, 3, 3)), "A"), "why")
    _layout.require_column_major(_layout.matrices(info(col_batch(2, 3, 3)), "A"), "why")
