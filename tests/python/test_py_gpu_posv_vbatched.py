"""shoal.potrs_vbatched and shoal.posv_vbatched on a GPU, with PyTorch tensors and CuPy arrays,
against numpy on the host: lists of mixed orders (0 and 1 among them, both sides of the driver's
32-column panels) and mixed right-hand-side counts (0 among them), lower and upper, float32,
float64, complex64, complex128; the residual ||A X - B|| / (n ||A|| ||X|| eps), the other
triangle of A not read, a real row-major A list, posv with no right-hand sides still factoring,
and posv's member that is not positive definite reported in info with its B untouched while the
others come out as they do without it. Skipped without a CUDA device, PyTorch/CuPy, numpy or
libshoal (SHOAL_REQUIRE_GPU=1: failures)."""
import pytest

import shoal
from _cholesky import eps, factor_residual, gaussian, poisoned, spd, untouched, wide

DTYPES = ["float32", "float64", "complex64", "complex128"]
SIZES = [0, 1, 5, 32, 1, 33, 0, 70, 2, 100]
NRHS = [3, 0, 1, 4, 2, 33, 0, 5, 1, 7]
TOL = 30.0


def rhs(n, k, dtype, seed):
    return gaussian(n, k, dtype, 1000 + seed).astype(dtype)


def solve_residual(a, x, b, dtype):
    import numpy
    n, k = b.shape
    if n == 0 or k == 0:
        return 0.0
    a, x, b = wide(a), wide(x), wide(b)
    scale = n * numpy.abs(a).max() * max(numpy.abs(x).max(), 1e-300) * eps(dtype)
    return float(numpy.abs(a @ x - b).max() / scale)


def problems(dtype, seed, sizes=SIZES, nrhs=NRHS):
    a = [spd(n, dtype, seed + i) for i, n in enumerate(sizes)]
    b = [rhs(n, k, dtype, seed + i) for i, (n, k) in enumerate(zip(sizes, nrhs))]
    return a, b


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_posv_mixed_sizes(xp, dtype, uplo):
    a, b = problems(dtype, 0)
    p = [poisoned(x, uplo) for x in a]
    A, B = [xp.from_numpy(x) for x in p], [xp.from_numpy(x) for x in b]
    info = shoal.posv_vbatched(A, B, uplo=uplo)
    assert xp.is_native(info) and tuple(info.shape) == (len(SIZES),)
    assert list(xp.to_numpy(info)) == [0] * len(SIZES)
    for i, n in enumerate(SIZES):
        f, x = xp.to_numpy(A[i]), xp.to_numpy(B[i])
        assert x.shape == b[i].shape
        assert solve_residual(a[i], x, b[i], dtype) < TOL, (i, n)
        assert factor_residual(f, a[i], uplo, dtype) < TOL, (i, n)
        assert untouched(f, p[i], uplo), (i, n)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_potrs_after_potrf_vbatched(xp, dtype, uplo):
    a, b = problems(dtype, 100)
    p = [poisoned(x, uplo) for x in a]
    A, B = [xp.from_numpy(x) for x in p], [xp.from_numpy(x) for x in b]
    assert not any(list(xp.to_numpy(shoal.potrf_vbatched(A, uplo=uplo))))
    factors = [xp.to_numpy(x) for x in A]
    info = shoal.potrs_vbatched(A, B, uplo=uplo)
    assert xp.is_native(info) and list(xp.to_numpy(info)) == [0] * len(SIZES)
    for i, n in enumerate(SIZES):
        assert (xp.to_numpy(A[i]) == factors[i]).all(), (i, n)    # the factor is only read
        assert solve_residual(a[i], xp.to_numpy(B[i]), b[i], dtype) < TOL, (i, n)


@pytest.mark.parametrize("routine", ["potrs_vbatched", "posv_vbatched"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_real_row_major_A(xp, routine, dtype, uplo):
    """Row-major A (torch's and CuPy's default): the call runs on the transposed views with the
    other fill; B column-major."""
    a, b = problems(dtype, 200)
    A, B = [xp.from_numpy(x, "row") for x in a], [xp.from_numpy(x) for x in b]
    if routine == "potrs_vbatched":
        assert not any(list(xp.to_numpy(shoal.potrf_vbatched(A, uplo=uplo))))
    assert not any(list(xp.to_numpy(getattr(shoal, routine)(A, B, uplo=uplo))))
    for i, n in enumerate(SIZES):
        assert solve_residual(a[i], xp.to_numpy(B[i]), b[i], dtype) < TOL, (i, n)
        assert factor_residual(xp.to_numpy(A[i]), a[i], uplo, dtype) < TOL, (i, n)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_posv_not_positive_definite_member(xp, dtype, uplo):
    """Member 1 (n = 70) fails at column 45, member 3 (n = 3) at column 1: info says so, their B
    is untouched, and every other member comes out bit-identical to a call without them."""
    import numpy
    sizes, nrhs = [7, 70, 0, 3, 64, 1], [2, 3, 1, 4, 0, 5]
    a, b = problems(dtype, 300, sizes, nrhs)
    bad = [x.copy() for x in a]
    bad[1][44, 44] = -1000.0
    bad[3][0, 0] = -1.0
    A, B = [xp.from_numpy(x) for x in bad], [xp.from_numpy(x) for x in b]
    info = list(xp.to_numpy(shoal.posv_vbatched(A, B, uplo=uplo)))
    assert info == [0, 45, 0, 1, 0, 0]
    for i in (1, 3):
        assert numpy.array_equal(xp.to_numpy(B[i]), b[i]), i
    good = [0, 2, 4, 5]
    alone_a = [xp.from_numpy(a[i]) for i in good]
    alone_b = [xp.from_numpy(b[i]) for i in good]
    assert not any(list(xp.to_numpy(shoal.posv_vbatched(alone_a, alone_b, uplo=uplo))))
    for k, i in enumerate(good):
        assert numpy.array_equal(xp.to_numpy(A[i]), xp.to_numpy(alone_a[k])), i
        x = xp.to_numpy(B[i])
        assert numpy.array_equal(x, xp.to_numpy(alone_b[k])), i
        assert solve_residual(a[i], x, b[i], dtype) < TOL, i


def test_posv_without_right_hand_sides_still_factors(xp):
    """Every nrhs 0 (max_nrhs = 0 reaches the C call): every A[i] is factored, info written."""
    import numpy
    sizes = [4, 0, 40]
    a, b = problems("float64", 400, sizes, [0, 0, 0])
    bad = [x.copy() for x in a]
    bad[2][9, 9] = -5.0
    A, B = [xp.from_numpy(x) for x in bad], [xp.from_numpy(x) for x in b]
    info = xp.from_numpy(numpy.full(3, 7, dtype=numpy.int32))
    assert shoal.posv_vbatched(A, B, info=info) is info
    assert list(xp.to_numpy(info)) == [0, 0, 10]
    assert factor_residual(xp.to_numpy(A[0]), a[0], "L", "float64") < TOL


def test_potrs_without_right_hand_sides_writes_info(xp):
    import numpy
    a, b = problems("float64", 500, [3, 0], [0, 0])
    A, B = [xp.from_numpy(x) for x in a], [xp.from_numpy(x) for x in b]
    info = xp.from_numpy(numpy.full(2, 7, dtype=numpy.int32))
    assert shoal.potrs_vbatched(A, B, info=info) is info
    assert list(xp.to_numpy(info)) == [0, 0]
    assert numpy.array_equal(xp.to_numpy(A[0]), a[0])


@pytest.mark.parametrize("routine", ["potrs_vbatched", "posv_vbatched"])
def test_given_info_and_a_side_stream(xp, routine):
    import numpy
    sizes, nrhs = [3, 0, 9], [2, 1, 3]
    a, b = problems("float64", 600, sizes, nrhs)
    A, B = [xp.from_numpy(x) for x in a], [xp.from_numpy(x) for x in b]
    if routine == "potrs_vbatched":
        shoal.potrf_vbatched(A)
    info = xp.from_numpy(numpy.full(3, 7, dtype=numpy.int32))
    stream, ctx, _ = xp.side_stream()
    xp.synchronize()   # A, B and info were made on the current stream
    with ctx:
        assert getattr(shoal, routine)(A, B, info=info) is info
    stream.synchronize()
    assert list(xp.to_numpy(info)) == [0, 0, 0]
    for i in range(3):
        assert solve_residual(a[i], xp.to_numpy(B[i]), b[i], "float64") < TOL


@pytest.mark.parametrize("routine", ["potrs_vbatched", "posv_vbatched"])
def test_row_major_B_is_refused(xp, routine):
    import numpy
    A, B = [xp.from_numpy(numpy.eye(3))], [xp.from_numpy(numpy.ones((3, 2)), "row")]
    with pytest.raises(ValueError, match="column-major"):
        getattr(shoal, routine)(A, B)


@pytest.mark.parametrize("routine", ["potrs_vbatched", "posv_vbatched"])
def test_above_1024_is_not_supported(xp, routine):
    import numpy
    A = [xp.from_numpy(numpy.eye(2)), xp.from_numpy(numpy.eye(1025))]
    B = [xp.from_numpy(numpy.ones((2, 1))), xp.from_numpy(numpy.ones((1025, 1)))]
    with pytest.raises(shoal.ShoalError) as e:
        getattr(shoal, routine)(A, B)
    assert e.value.name == "SHOAL_STATUS_NOT_SUPPORTED"
