"""shoal.potrf_vbatched on a GPU, with PyTorch tensors and CuPy arrays, against numpy on the host:
lists of mixed orders (0 and 1 among them, both sides of the driver's 32-column panels), lower and
upper, float32, float64, complex64, complex128, column- and row-major lists; the factor's
residual ||L L^H - A|| / (n ||A|| eps), the other triangle (and a complex diagonal's imaginary
parts) not read, and a member that is not positive definite reported in info while the others
come out as they do without it. Skipped without a CUDA device, PyTorch/CuPy, numpy or libshoal
(SHOAL_REQUIRE_GPU=1: failures)."""
import pytest

import shoal
from _cholesky import eps, factor_of, factor_residual as residual, poisoned, spd, untouched

DTYPES = ["float32", "float64", "complex64", "complex128"]
SIZES = [0, 1, 5, 32, 1, 33, 0, 70, 2, 100]
TOL = 30.0


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_mixed_sizes(xp, dtype, uplo):
    a = [spd(n, dtype, i) for i, n in enumerate(SIZES)]
    p = [poisoned(x, uplo) for x in a]
    A = [xp.from_numpy(x) for x in p]
    info = shoal.potrf_vbatched(A, uplo=uplo)
    assert xp.is_native(info) and tuple(info.shape) == (len(SIZES),)
    assert list(xp.to_numpy(info)) == [0] * len(SIZES)
    for i, n in enumerate(SIZES):
        f = xp.to_numpy(A[i])
        assert residual(f, a[i], uplo, dtype) < TOL, (i, n)
        assert untouched(f, p[i], uplo), (i, n)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_row_major_list(xp, dtype, uplo):
    """Row-major storage (torch's and CuPy's default): the call runs on the transposed views
    with the other fill, and the logical uplo triangle gets the factor."""
    a = [spd(n, dtype, 20 + i) for i, n in enumerate(SIZES)]
    A = [xp.from_numpy(x, "row") for x in a]
    assert not any(list(xp.to_numpy(shoal.potrf_vbatched(A, uplo=uplo))))
    for i, n in enumerate(SIZES):
        assert residual(xp.to_numpy(A[i]), a[i], uplo, dtype) < TOL, (i, n)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_not_positive_definite_member(xp, dtype, uplo):
    """Member 1 (n = 70) fails at column 45 (in its second panel of 32 columns); member 3
    (n = 3) at column 1 (a small problem, factored whole).
    info says so, and every other member comes out bit-identical to a call without them."""
    import numpy
    sizes = [7, 70, 0, 3, 64, 1]
    a = [spd(n, dtype, 40 + i) for i, n in enumerate(sizes)]
    bad = [x.copy() for x in a]
    bad[1][44, 44] = -1000.0
    bad[3][0, 0] = -1.0
    A = [xp.from_numpy(x) for x in bad]
    info = list(xp.to_numpy(shoal.potrf_vbatched(A, uplo=uplo)))
    assert info == [0, 45, 0, 1, 0, 0]
    good = [0, 2, 4, 5]
    alone = [xp.from_numpy(a[i]) for i in good]
    assert not any(list(xp.to_numpy(shoal.potrf_vbatched(alone, uplo=uplo))))
    for k, i in enumerate(good):
        f = xp.to_numpy(A[i])
        assert numpy.array_equal(f, xp.to_numpy(alone[k])), i
        assert residual(f, a[i], uplo, dtype) < TOL, i
    # the failed member: its first 44 columns (rows for 'U') are the factor of the leading 44 x 44
    f1 = xp.to_numpy(A[1]).astype("complex128" if dtype.startswith("complex") else "float64")
    L1 = factor_of(f1, uplo)[:44, :44]
    ref = numpy.linalg.cholesky(a[1][:44, :44].astype(L1.dtype))
    assert numpy.abs(L1 - ref).max() / (70 * numpy.abs(a[1]).max() * eps(dtype)) < TOL


def test_given_info_and_a_side_stream(xp):
    import numpy
    sizes = [3, 0, 9]
    a = [spd(n, "float64", 60 + i) for i, n in enumerate(sizes)]
    A = [xp.from_numpy(x) for x in a]
    info = xp.from_numpy(numpy.full(3, 7, dtype=numpy.int32))
    stream, ctx, _ = xp.side_stream()
    xp.synchronize()   # A and info were made on the current stream
    with ctx:
        assert shoal.potrf_vbatched(A, info=info) is info
    stream.synchronize()
    assert list(xp.to_numpy(info)) == [0, 0, 0]
    for i in range(3):
        assert residual(xp.to_numpy(A[i]), a[i], "L", "float64") < TOL


def test_all_empty(xp):
    import numpy
    A = [xp.from_numpy(numpy.zeros((0, 0))) for _ in range(4)]
    assert list(xp.to_numpy(shoal.potrf_vbatched(A))) == [0, 0, 0, 0]


def test_above_1024_is_not_supported(xp):
    import numpy
    A = [xp.from_numpy(numpy.eye(2)), xp.from_numpy(numpy.eye(1025))]
    with pytest.raises(shoal.ShoalError) as e:
        shoal.potrf_vbatched(A)
    assert e.value.name == "SHOAL_STATUS_NOT_SUPPORTED"
