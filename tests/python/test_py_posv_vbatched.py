"""shoal.potrs_vbatched and shoal.posv_vbatched against the fake libshoal (no GPU, nothing
dereferenced): what reaches shoal_?potrs_vbatched / shoal_?posv_vbatched (the fill of the
column-major views, the maxima, the uploaded order, right-hand-side count, leading-dimension and
pointer arrays, info) and the argument errors raised before any call."""
import array

import pytest

import shoal
from _fakes import FakeArray, HostArray, args_of, upload

ROUTINES = ["potrs_vbatched", "posv_vbatched"]


def col(m, n=None, dtype="f8", ld=None):
    """One column-major m x n matrix (n = m unless given), leading dimension ld."""
    n = m if n is None else n
    ld = ld or max(1, m)
    return FakeArray((m, n), (1, ld), dtype)


def row(m, n=None, dtype="f8"):
    return FakeArray((m, m if n is None else n), None, dtype)


def ints(fake, address, count, fmt="i"):
    size = array.array(fmt).itemsize
    return list(array.array(fmt, upload(fake, int(address, 16))[:count * size]))


def run(routine, *args, **kw):
    return getattr(shoal, routine)(*args, **kw)


@pytest.mark.parametrize("routine", ROUTINES)
def test_mixed_sizes_column_major(fake, routine):
    A = [col(0), col(1), col(5, ld=7), col(3)]
    B = [col(0, 2), col(1, 3), col(5, 4, ld=9), col(3, 1)]
    info = run(routine, A, B)
    name, a = args_of(fake.last())
    # uplo, n[], nrhs[], max_n, max_nrhs, A[], lda[], B[], ldb[], info, batch
    assert name == f"shoal_d{routine}" and len(a) == 11
    assert a[0] == "0" and a[3] == "5" and a[4] == "4" and a[10] == "4"
    assert ints(fake, a[1], 4) == [0, 1, 5, 3]
    assert ints(fake, a[2], 4) == [2, 3, 4, 1]
    assert ints(fake, a[5], 4, "q") == [x.ptr for x in A]
    assert ints(fake, a[6], 4) == [1, 1, 7, 3]   # lda >= max(1, n), 0 x 0 included
    assert ints(fake, a[7], 4, "q") == [x.ptr for x in B]
    assert ints(fake, a[8], 4) == [1, 1, 9, 3]   # ldb >= max(1, n)
    assert (info.shape, info.dtype) == ((4,), "i4") and int(a[9], 16) == info.ptr
    assert len(fake.uploads) == 1                 # one copy per call


@pytest.mark.parametrize("routine", ROUTINES)
@pytest.mark.parametrize("uplo, fill", [("L", "0"), ("U", "1"), ("u", "1")])
def test_uplo_reaches_the_call(fake, routine, uplo, fill):
    run(routine, [col(2), col(3)], [col(2, 1), col(3, 2)], uplo=uplo)
    assert args_of(fake.last())[1][0] == fill


@pytest.mark.parametrize("routine", ROUTINES)
@pytest.mark.parametrize("uplo, fill", [("L", "1"), ("U", "0")])
def test_real_row_major_A_flips_the_fill(fake, routine, uplo, fill):
    """A real row-major A is read as its column-major transpose, whose other triangle holds the
    same symmetric matrix (or factor): the view's fill is the other one, as shoal.potrs and
    shoal.posv do. B stays column-major; n x 1 right-hand sides read either way."""
    A = [row(4), row(1), row(0), row(2)]
    B = [col(4, 2), row(1, 1), col(0, 3), row(2, 1)]
    run(routine, A, B, uplo=uplo)
    name, a = args_of(fake.last())
    assert a[0] == fill and a[3] == "4" and a[4] == "3"
    assert ints(fake, a[6], 4) == [4, 1, 1, 2]
    assert ints(fake, a[8], 4) == [4, 1, 1, 2]


@pytest.mark.parametrize("routine", ROUTINES)
@pytest.mark.parametrize("code, p", [("f4", "s"), ("f8", "d"), ("c8", "c"), ("c16", "z")])
def test_every_precision(fake, routine, code, p):
    run(routine, [col(3, dtype=code), col(1, dtype=code)], [col(3, 2, dtype=code), col(1, 1, dtype=code)])
    assert args_of(fake.last())[0] == f"shoal_{p}{routine}"


def test_posv_with_no_right_hand_sides_still_factors(fake):
    """posv's C call factors with max_nrhs = 0 (LAPACK's posv with nrhs = 0): the true maximum
    goes through; max_n is at least 1 so that info is written for 0 x 0 matrices."""
    shoal.posv_vbatched([col(3), col(0)], [col(3, 0), col(0, 0)])
    name, a = args_of(fake.last())
    assert name == "shoal_dposv_vbatched" and a[3] == "3" and a[4] == "0"
    assert ints(fake, a[2], 2) == [0, 0]
    assert ints(fake, a[8], 2) == [3, 1]
    fake.clear()
    shoal.posv_vbatched([col(0), col(0)], [col(0, 2), col(0, 0)])
    name, a = args_of(fake.last())
    assert a[3] == "1" and a[4] == "2"


def test_potrs_with_no_right_hand_sides_passes_max_nrhs_1(fake):
    """potrs' C call does no work (and writes no info) where max_nrhs is 0; with 1 its device
    check writes info[i] = 0 and the solve skips the problems with nrhs[i] = 0."""
    shoal.potrs_vbatched([col(3), col(0)], [col(3, 0), col(0, 0)])
    name, a = args_of(fake.last())
    assert name == "shoal_dpotrs_vbatched" and a[3] == "3" and a[4] == "1"
    assert ints(fake, a[2], 2) == [0, 0]
    fake.clear()
    shoal.potrs_vbatched([col(0)], [col(0, 0)])
    assert args_of(fake.last())[1][3:5] == ["1", "1"]


@pytest.mark.parametrize("routine", ROUTINES)
def test_empty_right_hand_sides_with_zero_strides(fake, routine):
    """numpy and CuPy give empty arrays strides of 0, which neither memory order fits: an empty
    B[i] is not read or written, so it goes through with ldb = max(1, n)."""
    A = [col(3), col(0), col(2)]
    B = [FakeArray((3, 0), (0, 0)), FakeArray((0, 4), (0, 0)), col(2, 1)]
    run(routine, A, B)
    name, a = args_of(fake.last())
    assert ints(fake, a[2], 3) == [0, 4, 1]
    assert ints(fake, a[7], 3, "q") == [x.ptr for x in B]
    assert ints(fake, a[8], 3) == [3, 1, 2]


@pytest.mark.parametrize("routine", ROUTINES)
def test_given_info_is_used_and_checked(fake, routine):
    A, B = [col(2), col(3)], [col(2, 1), col(3, 1)]
    info = FakeArray((2,), dtype="i4")
    assert run(routine, A, B, info=info) is info
    assert int(args_of(fake.last())[1][9], 16) == info.ptr
    fake.clear()
    with pytest.raises(TypeError, match="int32"):
        run(routine, A, B, info=FakeArray((2,), dtype="i8"))
    with pytest.raises(ValueError, match="expected \\(2,\\)"):
        run(routine, A, B, info=FakeArray((3,), dtype="i4"))
    assert fake.routine_calls() == []


@pytest.mark.parametrize("routine", ROUTINES)
def test_empty_lists(fake, routine):
    with pytest.raises(ValueError, match="empty list"):
        run(routine, [], [])
    info = FakeArray((0,), dtype="i4")
    assert run(routine, [], [], info=info) is info
    with pytest.raises(ValueError, match="B has 1 entries; A has 0"):
        run(routine, [], [col(1, 1)], info=info)
    assert fake.routine_calls() == []


@pytest.mark.parametrize("routine", ROUTINES)
def test_argument_errors(fake, routine):
    A2, B2 = [col(2), col(3)], [col(2, 1), col(3, 2)]
    with pytest.raises(ValueError, match="B has 1 entries; A has 2"):
        run(routine, A2, B2[:1])
    with pytest.raises(ValueError, match=rf"{routine}: B\[1\] has 2 rows; A\[1\] is 3 x 3"):
        run(routine, A2, [col(2, 1), col(2, 1)])
    with pytest.raises(ValueError, match=rf"{routine}: A\[1\] is 3 x 2; it must be square"):
        run(routine, [col(2), col(3, 2)], B2)
    with pytest.raises(ValueError, match=r"B\[0\] must be column-major"):
        run(routine, A2, [row(2, 3), col(3, 2)])
    with pytest.raises(ValueError, match=r"A\[0\] must be column-major"):
        run(routine, [row(2, dtype="c8")], [col(2, 1, dtype="c8")])
    with pytest.raises(TypeError, match="share a dtype"):
        run(routine, A2, [col(2, 1, dtype="f4"), col(3, 2)])
    with pytest.raises(TypeError, match="share a dtype"):
        run(routine, [col(2, dtype="f4"), col(3)], B2)
    with pytest.raises(TypeError, match="float32 and float64"):
        run(routine, [col(2, dtype="f2")], [col(2, 1, dtype="f2")])
    with pytest.raises(TypeError, match="list"):
        run(routine, FakeArray((2, 3, 3)), FakeArray((2, 3, 1)))
    with pytest.raises(TypeError, match="list"):
        run(routine, A2, FakeArray((2, 3, 1)))
    with pytest.raises(ValueError, match=r"A\[0\] has shape \(2, 3, 3\): a list holds 2-D matrices"):
        run(routine, [FakeArray((2, 3, 3))], [col(3, 1)])
    with pytest.raises(ValueError, match=r"B\[0\] has shape \(2, 3, 1\): a list holds 2-D matrices"):
        run(routine, [col(3)], [FakeArray((2, 3, 1))])
    with pytest.raises(ValueError, match=r"B\[0\] has shape \(3,\): a list holds 2-D matrices"):
        run(routine, [col(3)], [FakeArray((3,))])
    with pytest.raises(ValueError, match="mix column-major and row-major"):
        run(routine, [col(3), row(3)], [col(3, 1), col(3, 1)])
    with pytest.raises(TypeError, match="CUDA memory"):
        run(routine, [col(2), HostArray()], B2)
    with pytest.raises(TypeError, match="CUDA memory"):
        run(routine, A2, [col(2, 1), HostArray()])
    with pytest.raises(ValueError, match="uplo"):
        run(routine, [col(2)], [col(2, 1)], uplo="X")
    assert fake.routine_calls() == []


@pytest.mark.parametrize("routine", ROUTINES)
def test_cpu_torch_tensors_are_refused(fake, routine):
    torch = pytest.importorskip("torch")
    with pytest.raises(TypeError, match="CPU tensor"):
        run(routine, [torch.eye(3, dtype=torch.float64)], [torch.ones(3, 1, dtype=torch.float64)])
    assert fake.routine_calls() == []


@pytest.mark.parametrize("routine", ROUTINES)
def test_status_raises(fake, routine):
    run(routine, [col(2)], [col(2, 1)])  # handle and stream set
    fake.set_status(3)
    with pytest.raises(shoal.ShoalError) as e:
        run(routine, [col(2)], [col(2, 1)])
    assert e.value.function == f"shoal_d{routine}"
