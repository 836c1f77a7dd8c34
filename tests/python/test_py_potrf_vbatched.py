"""shoal.potrf_vbatched against the fake libshoal (no GPU, nothing dereferenced): what reaches
shoal_?potrf_vbatched (the fill of the column-major views, the maximum, the uploaded size,
leading-dimension and pointer arrays, info) and the argument errors raised before any call."""
import array

import pytest

import shoal
from _fakes import FakeArray, HostArray, args_of, upload


def col(n, dtype="f8", ld=None):
    """One column-major n x n matrix (torch: x.mT.contiguous().mT), leading dimension ld."""
    ld = ld or max(1, n)
    return FakeArray((n, n), (1, ld), dtype)


def row(n, dtype="f8"):
    return FakeArray((n, n), None, dtype)




def ints(fake, address, count, fmt="i"):
    size = array.array(fmt).itemsize
    return list(array.array(fmt, upload(fake, int(address, 16))[:count * size]))


def test_mixed_sizes_column_major(fake):
    A = [col(0), col(1), col(5, ld=7), col(3)]
    info = shoal.potrf_vbatched(A)
    name, a = args_of(fake.last())
    # uplo, n[], max_n, A[], lda[], info, batch
    assert name == "shoal_dpotrf_vbatched" and a[0] == "0" and a[2] == "5" and a[6] == "4"
    assert ints(fake, a[1], 4) == [0, 1, 5, 3]
    assert ints(fake, a[3], 4, "q") == [x.ptr for x in A]
    assert ints(fake, a[4], 4) == [1, 1, 7, 3]   # lda >= max(1, n), 0 x 0 included
    assert (info.shape, info.dtype) == ((4,), "i4") and int(a[5], 16) == info.ptr
    # one upload for the three arrays, as gemm_vbatched: one copy per call
    assert len(fake.uploads) == 1


@pytest.mark.parametrize("uplo, fill", [("L", "0"), ("U", "1"), ("u", "1")])
def test_uplo_reaches_the_call(fake, uplo, fill):
    shoal.potrf_vbatched([col(2), col(3)], uplo=uplo)
    assert args_of(fake.last())[1][0] == fill


@pytest.mark.parametrize("uplo, fill", [("L", "1"), ("U", "0")])
def test_row_major_list_flips_the_fill(fake, uplo, fill):
    """Row-major storage is read as the column-major transpose, whose other triangle holds the
    same symmetric matrix: the view's fill is the other one (as shoal.potrf does); 1 x 1 and
    0 x 0 members read either way and join the row-major list."""
    A = [row(4), row(1), row(0), row(2)]
    shoal.potrf_vbatched(A, uplo=uplo)
    name, a = args_of(fake.last())
    assert a[0] == fill and a[2] == "4"
    assert ints(fake, a[4], 4) == [4, 1, 1, 2]


@pytest.mark.parametrize("code, p", [("f4", "s"), ("f8", "d"), ("c8", "c"), ("c16", "z")])
def test_every_precision(fake, code, p):
    shoal.potrf_vbatched([col(3, code), col(1, code)])
    assert args_of(fake.last())[0] == f"shoal_{p}potrf_vbatched"


def test_all_empty_matrices_pass_max_n_1(fake):
    """With a maximum of 0 the C call would return before writing info; 1 makes its device
    check write info[i] = 0 for every 0 x 0 matrix."""
    shoal.potrf_vbatched([col(0), col(0)])
    name, a = args_of(fake.last())
    assert a[2] == "1" and ints(fake, a[1], 2) == [0, 0]


def test_given_info_is_used_and_checked(fake):
    A = [col(2), col(3)]
    info = FakeArray((2,), dtype="i4")
    assert shoal.potrf_vbatched(A, info=info) is info
    assert int(args_of(fake.last())[1][5], 16) == info.ptr
    fake.clear()
    with pytest.raises(TypeError, match="int32"):
        shoal.potrf_vbatched(A, info=FakeArray((2,), dtype="i8"))
    with pytest.raises(ValueError, match="expected \\(2,\\)"):
        shoal.potrf_vbatched(A, info=FakeArray((3,), dtype="i4"))
    assert fake.routine_calls() == []


def test_empty_list(fake):
    with pytest.raises(ValueError, match="empty list"):
        shoal.potrf_vbatched([])
    info = FakeArray((0,), dtype="i4")
    assert shoal.potrf_vbatched([], info=info) is info
    assert fake.routine_calls() == []


def test_argument_errors(fake):
    with pytest.raises(ValueError, match=r"A\[1\] is 3 x 2; it must be square"):
        shoal.potrf_vbatched([col(2), FakeArray((3, 2), (1, 3))])
    with pytest.raises(TypeError, match="share a dtype"):
        shoal.potrf_vbatched([col(2, "f8"), col(2, "f4")])
    with pytest.raises(TypeError, match="float32 and float64"):
        shoal.potrf_vbatched([col(2, "f2")])
    with pytest.raises(TypeError, match="list"):
        shoal.potrf_vbatched(FakeArray((2, 3, 3)))
    with pytest.raises(ValueError, match=r"A\[0\] has shape \(2, 3, 3\): a list holds 2-D matrices"):
        shoal.potrf_vbatched([FakeArray((2, 3, 3))])
    with pytest.raises(ValueError, match="mix column-major and row-major"):
        shoal.potrf_vbatched([col(3), row(3)])
    with pytest.raises(TypeError, match="CUDA memory"):
        shoal.potrf_vbatched([col(2), HostArray()])
    with pytest.raises(ValueError, match="uplo"):
        shoal.potrf_vbatched([col(2)], uplo="X")
    assert fake.routine_calls() == []


def test_cpu_torch_tensors_are_refused(fake):
    torch = pytest.importorskip("torch")
    with pytest.raises(TypeError, match="CPU tensor"):
        shoal.potrf_vbatched([torch.eye(3, dtype=torch.float64), torch.eye(2, dtype=torch.float64)])
    assert fake.routine_calls() == []


def test_status_raises(fake):
    shoal.potrf_vbatched([col(2)])  # handle and stream set
    fake.set_status(3)
    with pytest.raises(shoal.ShoalError) as e:
        shoal.potrf_vbatched([col(2)])
    assert e.value.function == "shoal_dpotrf_vbatched"
