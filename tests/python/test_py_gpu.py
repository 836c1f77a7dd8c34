"""The package on a GPU, with PyTorch tensors and CuPy arrays, against numpy references on the
host: every routine in s and d (gemm also c and z), column- and row-major operands where the
routine takes both.
Skipped without a CUDA device, PyTorch/CuPy, numpy or libshoal (SHOAL_REQUIRE_GPU=1: failures).
Errors are normalized LAPACK-style, in units of the precision's eps."""
import pytest

import shoal

DTYPES = ["float32", "float64"]
BATCH = 33
TOL = 30.0


def rng(seed=0):
    import numpy
    return numpy.random.default_rng(seed)


def eps(dtype):
    import numpy
    return float(numpy.finfo(dtype).eps)


def rand(shape, dtype, seed=0):
    return rng(seed).standard_normal(shape).astype(dtype)


def norm(a):
    import numpy
    return float(numpy.max(numpy.abs(a))) if a.size else 0.0


def op(a, t):
    return a.swapaxes(-1, -2) if t == "T" else a


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("orders", ["ccc", "rrr", "rcr", "crc"])
@pytest.mark.parametrize("transa, transb", [("N", "N"), ("T", "N"), ("N", "T"), ("T", "T")])
def test_gemm(xp, dtype, orders, transa, transb):
    m, n, k = 7, 5, 9
    a = rand((BATCH,) + ((k, m) if transa == "T" else (m, k)), dtype, 1)
    b = rand((BATCH,) + ((n, k) if transb == "T" else (k, n)), dtype, 2)
    c0 = rand((BATCH, m, n), dtype, 3)
    order = {"c": "col", "r": "row"}
    A, B, C = (xp.from_numpy(x, order[o]) for x, o in zip((a, b, c0), orders))
    assert shoal.gemm(A, B, C, alpha=1.5, beta=-0.5, transa=transa, transb=transb) is C
    ref = 1.5 * (op(a, transa).astype("float64") @ op(b, transb)) - 0.5 * c0.astype("float64")
    err = norm(xp.to_numpy(C) - ref) / ((1.5 * k * norm(a) * norm(b) + 0.5 * norm(c0)) * eps(dtype))
    assert err < 16, err


def test_gemm_new_c_lists_and_shared_operand(xp):
    a, b = rand((BATCH, 6, 4), "float64", 1), rand((4, 3), "float64", 2)
    C = shoal.gemm(xp.from_numpy(a), xp.from_numpy(b))  # B shared by the batch
    assert xp.is_native(C) and tuple(C.shape) == (BATCH, 6, 3)
    assert norm(xp.to_numpy(C) - a @ b) < 1e-12
    As = [xp.from_numpy(x) for x in a[:5]]
    Cs = [xp.from_numpy(numpy_zeros((6, 3))) for _ in range(5)]
    shoal.gemm(As, xp.from_numpy(b), Cs)
    for i in range(5):
        assert norm(xp.to_numpy(Cs[i]) - a[i] @ b) < 1e-12


CDTYPES = ["complex64", "complex128"]


def crand(shape, dtype, seed=0):
    real = "float32" if dtype == "complex64" else "float64"
    return (rand(shape, real, seed) + 1j * rand(shape, real, seed + 50)).astype(dtype)


def cop(a, t):
    """op(a) for N, T and C (the conjugate transpose)."""
    return a.swapaxes(-1, -2).conj() if t == "C" else op(a, t)


def complex_gemm_error(xp, C, a, b, c0, alpha, beta, transa, transb, dtype):
    k = a.shape[-2] if transa != "N" else a.shape[-1]
    ref = alpha * (cop(a.astype("complex128"), transa) @ cop(b, transb)) + beta * c0.astype("complex128")
    scale = abs(alpha) * k * norm(a) * norm(b) + abs(beta) * norm(c0)
    return norm(xp.to_numpy(C) - ref) / (scale * eps(dtype))


@pytest.mark.parametrize("dtype", CDTYPES)
@pytest.mark.parametrize("transa, transb, orders", [
    *((ta, tb, o) for ta in "NTC" for tb in "NTC" for o in ("ccc", "rrr")),
    # mixed memory orders where op C allows them (an op C operand in C's order)
    ("N", "T", "rcr"), ("T", "N", "crc"), ("C", "N", "crc"), ("N", "C", "rcc"), ("T", "C", "rrr"),
    ("C", "T", "rcr")])
@pytest.mark.parametrize("m, n, k", [(7, 5, 9), (40, 33, 20)])
def test_gemm_complex(xp, dtype, transa, transb, orders, m, n, k):
    """complex64 / complex128, every op, complex alpha and beta, against numpy."""
    a = crand((BATCH,) + ((k, m) if transa != "N" else (m, k)), dtype, 1)
    b = crand((BATCH,) + ((n, k) if transb != "N" else (k, n)), dtype, 2)
    c0 = crand((BATCH, m, n), dtype, 3)
    order = {"c": "col", "r": "row"}
    A, B, C = (xp.from_numpy(x, order[o]) for x, o in zip((a, b, c0), orders))
    alpha, beta = 1.5 - 0.5j, -0.5 + 0.25j
    assert shoal.gemm(A, B, C, alpha=alpha, beta=beta, transa=transa, transb=transb) is C
    err = complex_gemm_error(xp, C, a, b, c0, alpha, beta, transa, transb, dtype)
    assert err < 16, err
    assert norm(xp.to_numpy(A) - a) == 0 and norm(xp.to_numpy(B) - b) == 0  # read only


@pytest.mark.parametrize("dtype", CDTYPES)
def test_gemm_complex_new_c_lists_and_refusal(xp, dtype):
    """A new C (row-major where an op C operand is), pointer-array lists, a shared operand,
    and the refusal of op C across memory orders (nothing written)."""
    a, b = crand((BATCH, 6, 4), dtype, 1), crand((3, 6), dtype, 2)
    A = xp.from_numpy(a, "row")
    # A and B row-major under op C: the new C is row-major too; B is shared by the batch
    C = shoal.gemm(A, xp.from_numpy(b, "row"), transa="C", transb="C")
    assert xp.is_native(C) and tuple(C.shape) == (BATCH, 4, 3)
    assert complex_gemm_error(xp, C, a, b, 0 * a[:, :4, :3], 1, 0, "C", "C", dtype) < 16
    As = [xp.from_numpy(x) for x in a[:5]]  # column-major, as are B and the Cs
    c0 = crand((5, 4, 3), dtype, 4)
    Cs = [xp.from_numpy(x) for x in c0]
    shoal.gemm(As, xp.from_numpy(b), Cs, transa="C", transb="C", alpha=2j, beta=1)
    for i in range(5):
        assert complex_gemm_error(xp, Cs[i], a[i], b, c0[i], 2j, 1, "C", "C", dtype) < 16
    Ccol = xp.from_numpy(c0[:1].repeat(BATCH, 0), "col")
    with pytest.raises(ValueError, match="conjugate without transpose"):
        shoal.gemm(A, xp.from_numpy(b), Ccol, transa="C", transb="C")
    assert norm(xp.to_numpy(Ccol) - c0[:1].repeat(BATCH, 0)) == 0


def numpy_zeros(shape, dtype="float64"):
    import numpy
    return numpy.zeros(shape, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", ["col", "row"])
@pytest.mark.parametrize("trans", ["N", "T"])
def test_gemv(xp, dtype, order, trans):
    m, n = 9, 6
    a = rand((BATCH, m, n), dtype, 1)
    x = rand((BATCH, m if trans == "T" else n), dtype, 2)
    y0 = rand((BATCH, n if trans == "T" else m), dtype, 3)
    Y = xp.from_numpy(y0)
    shoal.gemv(xp.from_numpy(a, order), xp.from_numpy(x), Y, alpha=2.0, beta=1.0, trans=trans)
    ref = 2.0 * (op(a, trans).astype("float64") @ x[..., None])[..., 0] + y0
    err = norm(xp.to_numpy(Y) - ref) / ((2 * max(m, n) * norm(a) * norm(x) + norm(y0)) * eps(dtype))
    assert err < 16, err


@pytest.mark.parametrize("dtype", CDTYPES)
@pytest.mark.parametrize("order, trans", [("col", "N"), ("col", "T"), ("col", "C"), ("row", "N"), ("row", "T")])
def test_gemv_complex(xp, dtype, order, trans):
    """complex64 / complex128, ops N, T, C (C with a column-major A: the package refuses a
    row-major one), complex alpha and beta, against numpy."""
    m, n = 9, 6
    a = crand((BATCH, m, n), dtype, 1)
    x = crand((BATCH, m if trans != "N" else n), dtype, 2)
    y0 = crand((BATCH, n if trans != "N" else m), dtype, 3)
    Y = xp.from_numpy(y0)
    alpha, beta = 2.0 - 0.5j, 0.25 + 1j
    shoal.gemv(xp.from_numpy(a, order), xp.from_numpy(x), Y, alpha=alpha, beta=beta, trans=trans)
    ref = alpha * (cop(a.astype("complex128"), trans) @ x[..., None])[..., 0] + beta * y0
    scale = abs(alpha) * max(m, n) * norm(a) * norm(x) + abs(beta) * norm(y0)
    err = norm(xp.to_numpy(Y) - ref) / (scale * eps(dtype))
    assert err < 16, err


TRSV_CASES = [*((d, o, u, t) for d in DTYPES for o in ("col", "row")
                for u, t in (("L", "N"), ("L", "T"), ("U", "N"), ("U", "T"))),
              # complex: op C with a column-major A (the package refuses a row-major one)
              *((d, o, u, t) for d in CDTYPES for o, u, t in (
                  ("col", "L", "N"), ("col", "L", "C"), ("col", "U", "T"), ("col", "U", "C"), ("row", "L", "T"),
                  ("row", "U", "N")))]


@pytest.mark.parametrize("dtype, order, uplo, trans", TRSV_CASES)
def test_trsv(xp, dtype, order, uplo, trans):
    import numpy
    n = 12
    cplx = dtype in CDTYPES
    wide = "complex128" if cplx else "float64"
    make = crand if cplx else rand
    a = make((BATCH, n, n), dtype, 1) + n * numpy.eye(n, dtype=dtype)
    a = numpy.tril(a) if uplo == "L" else numpy.triu(a)
    b = make((BATCH, n), dtype, 2)
    X = xp.from_numpy(b)
    shoal.trsv(xp.from_numpy(a, order), X, uplo=uplo, trans=trans)
    x = xp.to_numpy(X).astype(wide)
    res = (cop(a.astype(wide), trans) @ x[..., None])[..., 0] - b
    err = norm(res) / (n * norm(a) * norm(x) * eps(dtype))
    assert err < TOL, err


def lu_residual(a, lu, ipiv, dtype):
    import numpy
    m, n = a.shape[-2:]
    kmin = min(m, n)
    worst = 0.0
    for i in range(a.shape[0]):
        pa = a[i].astype("float64").copy()
        for j in range(kmin):
            p = int(ipiv[i][j]) - 1
            assert j <= p < m, f"pivot {p + 1} out of range"
            pa[[j, p]] = pa[[p, j]]
        L = numpy.tril(lu[i], -1)[:, :kmin] + numpy.eye(m, kmin)
        U = numpy.triu(lu[i])[:kmin, :]
        worst = max(worst, norm(pa - L @ U) / (max(m, n) * norm(a[i]) * eps(dtype)))
    return worst


@pytest.mark.parametrize("dtype", DTYPES)
# above 32: the blocked driver (square, tall, wide)
@pytest.mark.parametrize("m, n", [(1, 1), (8, 8), (32, 32), (9, 5), (5, 9), (33, 33), (100, 100), (100, 40), (40, 100)])
def test_getrf(xp, dtype, m, n):
    a = rand((BATCH, m, n), dtype, 1)
    A = xp.from_numpy(a)
    ipiv, info = shoal.getrf(A)
    assert xp.is_native(ipiv) and xp.is_native(info)
    assert tuple(ipiv.shape) == (BATCH, min(m, n)) and tuple(info.shape) == (BATCH,)
    assert not xp.to_numpy(info).any()
    assert lu_residual(a, xp.to_numpy(A), xp.to_numpy(ipiv), dtype) < TOL


def test_getrf_reports_singular_matrices(xp):
    a = rand((4, 6, 6), "float64", 1)
    a[2, :, 3] = 0.0  # column 4 of matrix 2 is zero: U(4, 4) = 0 exactly
    A = xp.from_numpy(a)
    _, info = shoal.getrf(A)
    assert list(xp.to_numpy(info)) == [0, 0, 4, 0]


def test_getrf_reports_a_zero_pivot_in_a_later_panel(xp):
    a = rand((3, 100, 100), "float64", 1)
    a[1, :, 70] = 0.0  # column 71 of matrix 1 is zero: U(71, 71) = 0 exactly, the blocked driver
    A = xp.from_numpy(a)
    _, info = shoal.getrf(A)
    assert list(xp.to_numpy(info)) == [0, 71, 0]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n, nrhs", [(1, 1), (7, 3), (32, 1), (16, 16), (33, 1), (100, 25)])
@pytest.mark.parametrize("trans", ["N", "T"])
def test_getrs_and_gesv(xp, dtype, n, nrhs, trans):
    a, b = rand((BATCH, n, n), dtype, 1), rand((BATCH, n, nrhs), dtype, 2)
    LU = xp.from_numpy(a)
    ipiv, info = shoal.getrf(LU)
    X = shoal.getrs(LU, ipiv, xp.from_numpy(b), trans=trans)
    x = xp.to_numpy(X).astype("float64")
    res = norm(op(a, trans).astype("float64") @ x - b) / (n * norm(a) * norm(x) * eps(dtype))
    assert res < TOL * 10, res  # cond(A) of random matrices adds a little
    if trans == "N":
        A2, B2 = xp.from_numpy(a), xp.from_numpy(b)
        ipiv2, info2 = shoal.gesv(A2, B2)
        x2 = xp.to_numpy(B2).astype("float64")
        assert not xp.to_numpy(info2).any()
        assert norm(a.astype("float64") @ x2 - b) / (n * norm(a) * norm(x2) * eps(dtype)) < TOL * 10


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [1, 6, 32])
@pytest.mark.parametrize("order", ["col", "row"])
def test_getri_and_getri_fused(xp, dtype, n, order):
    import numpy
    a = rand((BATCH, n, n), dtype, 1) + 2 * numpy.eye(n, dtype=dtype)
    C, info = shoal.getri_fused(xp.from_numpy(a, order))
    assert not xp.to_numpy(info).any()
    c = xp.to_numpy(C).astype("float64")
    assert norm(a @ c - numpy.eye(n)) / (n * norm(a) * norm(c) * eps(dtype)) < TOL * 10
    if order == "col":
        LU = xp.from_numpy(a)
        ipiv, _ = shoal.getrf(LU)
        C2, info2 = shoal.getri(LU, ipiv)
        c2 = xp.to_numpy(C2).astype("float64")
        assert norm(a @ c2 - numpy.eye(n)) / (n * norm(a) * norm(c2) * eps(dtype)) < TOL * 10


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [33, 100])  # the blocked driver (getri_fused stops at 32)
def test_getri_blocked(xp, dtype, n):
    import numpy
    a = rand((BATCH, n, n), dtype, 1) + 2 * numpy.eye(n, dtype=dtype)
    LU = xp.from_numpy(a)
    ipiv, _ = shoal.getrf(LU)
    C, info = shoal.getri(LU, ipiv)
    assert not xp.to_numpy(info).any()
    c = xp.to_numpy(C).astype("float64")
    assert norm(a @ c - numpy.eye(n)) / (n * norm(a) * norm(c) * eps(dtype)) < TOL * 10


def spd(n, dtype, seed=1):
    import numpy
    m = rand((BATCH, n, n), dtype, seed)
    return (m @ m.swapaxes(-1, -2) / n + numpy.eye(n, dtype=dtype)).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [1, 5, 32, 33, 100])  # above 32: the blocked drivers
@pytest.mark.parametrize("order", ["col", "row"])
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_cholesky(xp, dtype, n, order, uplo):
    import numpy
    a = spd(n, dtype)
    A = xp.from_numpy(a, order)
    info = shoal.potrf(A, uplo=uplo)
    assert not xp.to_numpy(info).any()
    f = xp.to_numpy(A).astype("float64")
    L = numpy.tril(f) if uplo == "L" else numpy.triu(f).swapaxes(-1, -2)
    assert norm(L @ L.swapaxes(-1, -2) - a) / (n * norm(a) * eps(dtype)) < TOL
    b = rand((BATCH, n, 3), dtype, 2)
    X = shoal.potrs(A, xp.from_numpy(b), uplo=uplo)
    x = xp.to_numpy(X).astype("float64")
    assert norm(a @ x - b) / (n * norm(a) * norm(x) * eps(dtype)) < TOL * 10
    A2, B2 = xp.from_numpy(a, order), xp.from_numpy(b)
    info2 = shoal.posv(A2, B2, uplo=uplo)
    assert not xp.to_numpy(info2).any()
    x2 = xp.to_numpy(B2).astype("float64")
    assert norm(a @ x2 - b) / (n * norm(a) * norm(x2) * eps(dtype)) < TOL * 10


def test_potrf_reports_non_spd(xp):
    a = spd(4, "float64")
    a[1, 2, 2] = -5.0
    info = shoal.potrf(xp.from_numpy(a))
    assert list(xp.to_numpy(info))[:3] == [0, 3, 0]


@pytest.mark.parametrize("uplo", ["L", "U"])
def test_potrf_reports_non_spd_in_a_later_block(xp, uplo):
    """n = 100 (the blocked driver, blocks of 32): a leading minor of order 70, in the third
    block, not positive definite in matrix 1: info 70 there, 0 elsewhere, and the other
    matrices factored as if it were not in the batch."""
    import numpy
    n = 100
    a = spd(n, "float64")
    a[1, 69, 69] = -5.0
    A = xp.from_numpy(a)
    info = list(xp.to_numpy(shoal.potrf(A, uplo=uplo)))
    assert info == [70 if i == 1 else 0 for i in range(BATCH)]
    f = xp.to_numpy(A)
    L = numpy.tril(f) if uplo == "L" else numpy.triu(f).swapaxes(-1, -2)
    good = [i for i in range(BATCH) if i != 1]
    assert norm(L[good] @ L[good].swapaxes(-1, -2) - a[good]) / (n * norm(a) * eps("float64")) < TOL
    # the failed matrix: its factor columns 1..69 are those of the leading 69 x 69 part and
    # the rows below
    l1 = numpy.linalg.cholesky(a[1, :69, :69])
    assert norm(L[1, :69, :69] - l1) / (n * norm(a[1]) * eps("float64")) < TOL


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("m, n", [(1, 1), (8, 8), (32, 32), (12, 5), (5, 12),
                                  (33, 33), (100, 100), (100, 40), (40, 100)])  # above 32: the driver
def test_geqrf(xp, dtype, m, n):
    import numpy
    a = rand((BATCH, m, n), dtype, 1)
    A = xp.from_numpy(a)
    tau = shoal.geqrf(A)
    assert xp.is_native(tau) and tuple(tau.shape) == (BATCH, min(m, n))
    f, t = xp.to_numpy(A).astype("float64"), xp.to_numpy(tau).astype("float64")
    worst = 0.0
    for i in range(BATCH):
        q = numpy.eye(m)
        for j in range(min(m, n)):
            v = numpy.zeros(m)
            v[j], v[j + 1:] = 1.0, f[i, j + 1:, j]
            q = q @ (numpy.eye(m) - t[i, j] * numpy.outer(v, v))
        r = numpy.triu(f[i])
        worst = max(worst, norm(q @ r - a[i]) / (max(m, n) * norm(a[i]) * eps(dtype)))
    assert worst < TOL, worst


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("m, n", [(1, 1), (8, 8), (12, 5), (5, 12), (40, 40), (100, 33), (33, 100)])
@pytest.mark.parametrize("trans", ["N", "T"])
def test_gels(xp, dtype, m, n, trans):
    """Against numpy's lstsq (the minimum-norm least-squares solution) in float64."""
    import numpy
    a = rand((BATCH, m, n), dtype, 3)
    rows_in = m if trans == "N" else n
    b = numpy.zeros((BATCH, max(m, n), 2), dtype)
    b[:, :rows_in] = rand((BATCH, rows_in, 2), dtype, 4)
    A, B = xp.from_numpy(a), xp.from_numpy(b)
    info = shoal.gels(A, B, trans=trans)
    assert (xp.to_numpy(info) == 0).all()
    x = xp.to_numpy(B).astype("float64")[:, :(n if trans == "N" else m)]
    worst = 0.0
    for i in range(BATCH):
        opa = op(a[i].astype("float64"), trans)
        want = numpy.linalg.lstsq(opa, b[i, :rows_in].astype("float64"), rcond=None)[0]
        cond = numpy.linalg.cond(opa)
        worst = max(worst, norm(x[i] - want) / (max(m, n) * cond * max(norm(want), 1e-30) * eps(dtype)))
    assert worst < TOL, worst


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("m, n", [(1, 1), (5, 12), (12, 5), (40, 100), (100, 33)])
def test_gelqf(xp, dtype, m, n):
    """A = L Q with Q = H_k ... H_1 built from the rows (real: H_j = I - tau_j v_j v_j^T)."""
    import numpy
    a = rand((BATCH, m, n), dtype, 5)
    A = xp.from_numpy(a)
    tau = shoal.gelqf(A)
    f, t = xp.to_numpy(A).astype("float64"), xp.to_numpy(tau).astype("float64")
    worst = 0.0
    for i in range(BATCH):
        q = numpy.eye(n)
        for j in range(min(m, n)):
            v = numpy.zeros(n)
            v[j], v[j + 1:] = 1.0, f[i, j, j + 1:]
            q = (numpy.eye(n) - t[i, j] * numpy.outer(v, v)) @ q
        low = numpy.tril(f[i])
        worst = max(worst, norm(low @ q - a[i]) / (max(m, n) * norm(a[i]) * eps(dtype)))
    assert worst < TOL, worst


@pytest.mark.parametrize("dtype", DTYPES + CDTYPES)
@pytest.mark.parametrize("m, n", [(1, 1), (8, 8), (12, 5), (5, 12), (32, 32), (40, 40), (100, 37), (37, 100),
                                  (200, 150), (150, 200), (600, 520), (520, 600)])
def test_gebrd_and_orgbr(xp, dtype, m, n):
    """A = Q B P^H with B from gebrd's d and e, Q and P^H formed by orgbr from copies of A's
    first k = min(m, n) columns (Q) and rows (P^H), as LAPACK's users do; Q's columns and P^H's
    rows orthonormal; B's diagonal in A's; B's singular values those of A by the host's LAPACK
    (numpy's svd). Matrix 1 is zero and matrix 2 rank deficient (its columns repeat the first
    half's), the others random."""
    import numpy
    cx = dtype.startswith("complex")
    a = crand((BATCH, m, n), dtype, 6) if cx else rand((BATCH, m, n), dtype, 6)
    a[1] = 0
    a[2] = a[2][:, numpy.arange(n) % max(1, (n + 1) // 2)]
    A = xp.from_numpy(a)
    d, e, tq, tp = shoal.gebrd(A)
    f = xp.to_numpy(A)
    k = min(m, n)
    assert tuple(d.shape) == (BATCH, k) and tuple(e.shape) == (BATCH, max(k - 1, 0))
    dd, ee = xp.to_numpy(d).astype("float64"), xp.to_numpy(e).astype("float64")
    # Q: m x n (m >= n) or m x m (m < n: the shifted layout); P^H: n x n (m >= n: shifted) or m x n
    Aq = xp.from_numpy(numpy.ascontiguousarray(f[:, :, :k]))
    shoal.orgbr(Aq, tq, vect="Q", k=n)
    Ap = xp.from_numpy(numpy.ascontiguousarray(f[:, :k, :]))
    shoal.orgbr(Ap, tp, vect="P", k=m)
    wide = "complex128" if cx else "float64"
    q, ph = xp.to_numpy(Aq).astype(wide), xp.to_numpy(Ap).astype(wide)
    b = numpy.zeros((BATCH, k, k))
    i = numpy.arange(k)
    b[:, i, i] = dd
    if k > 1:
        j = numpy.arange(k - 1)
        if m >= n:
            b[:, j, j + 1] = ee
        else:
            b[:, j + 1, j] = ee
    worst = 0.0
    for x in range(BATCH):
        a0 = a[x].astype(wide)
        rec = q[x][:, :k] @ b[x] @ ph[x][:k, :]
        worst = max(worst, norm(rec - a0) / (max(m, n) * (norm(a0) or 1.0) * eps(dtype)))  # a zero A: 1
        worst = max(worst, norm(q[x].conj().T @ q[x] - numpy.eye(q.shape[2])) / (m * eps(dtype)))
        worst = max(worst, norm(ph[x] @ ph[x].conj().T - numpy.eye(ph.shape[1])) / (n * eps(dtype)))
        s0 = numpy.linalg.svd(a0, compute_uv=False)
        s = numpy.linalg.svd(b[x], compute_uv=False)
        worst = max(worst, norm(s - s0) / (max(m, n) * (norm(s0) or 1.0) * eps(dtype)))
        assert (numpy.diagonal(f[x])[:k] == dd[x].astype(dtype)).all()
    assert worst < TOL, worst


@pytest.mark.parametrize("dtype", DTYPES)
def test_lists_of_matrices(xp, dtype):
    a = spd(6, dtype)[:4]
    b = rand((4, 6, 2), dtype, 2)
    As = [xp.from_numpy(x) for x in a]
    Bs = [xp.from_numpy(x) for x in b]
    ipiv, info = shoal.gesv(As, Bs)
    assert tuple(ipiv.shape) == (4, 6)
    for i in range(4):
        x = xp.to_numpy(Bs[i]).astype("float64")
        assert norm(a[i] @ x - b[i]) / (6 * norm(a[i]) * norm(x) * eps(dtype)) < TOL * 10


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", ["col", "row"])
def test_gemm_vbatched(xp, dtype, order):
    sizes = [(1, 1, 1), (7, 3, 5), (16, 16, 16), (2, 9, 1), (33, 4, 20)]
    a = [rand((m, k), dtype, i) for i, (m, n, k) in enumerate(sizes)]
    b = [rand((k, n), dtype, 10 + i) for i, (m, n, k) in enumerate(sizes)]
    c = [rand((m, n), dtype, 20 + i) for i, (m, n, k) in enumerate(sizes)]
    A = [xp.from_numpy(x, order) for x in a]
    B = [xp.from_numpy(x, order) for x in b]
    C = [xp.from_numpy(x, order) for x in c]
    shoal.gemm_vbatched(A, B, C, alpha=1.0, beta=2.0)
    for i, (m, n, k) in enumerate(sizes):
        ref = a[i].astype("float64") @ b[i] + 2.0 * c[i]
        err = norm(xp.to_numpy(C[i]) - ref) / ((k * norm(a[i]) * norm(b[i]) + 2 * norm(c[i])) * eps(dtype))
        assert err < 16, (i, err)


@pytest.mark.parametrize("dtype", CDTYPES)
@pytest.mark.parametrize("transa, transb, order", [
    *((ta, tb, "col") for ta in "NTC" for tb in "NTC"), ("C", "T", "row"), ("N", "C", "row")])
def test_gemm_vbatched_complex(xp, dtype, transa, transb, order):
    """complex64 / complex128 lists of different sizes, every op, complex alpha and beta."""
    sizes = [(1, 1, 1), (7, 3, 5), (16, 16, 16), (2, 9, 1), (33, 4, 20)]
    a = [crand((k, m) if transa != "N" else (m, k), dtype, i) for i, (m, n, k) in enumerate(sizes)]
    b = [crand((n, k) if transb != "N" else (k, n), dtype, 10 + i) for i, (m, n, k) in enumerate(sizes)]
    c = [crand((m, n), dtype, 20 + i) for i, (m, n, k) in enumerate(sizes)]
    C = [xp.from_numpy(x, order) for x in c]
    alpha, beta = 1.5 - 0.5j, -0.5 + 0.25j
    shoal.gemm_vbatched([xp.from_numpy(x, order) for x in a], [xp.from_numpy(x, order) for x in b], C,
                        alpha=alpha, beta=beta, transa=transa, transb=transb)
    for i in range(len(sizes)):
        err = complex_gemm_error(xp, C[i], a[i], b[i], c[i], alpha, beta, transa, transb, dtype)
        assert err < 16, (i, err)


@pytest.mark.parametrize("dtype", DTYPES)
def test_gemv_vbatched(xp, dtype):
    sizes = [(1, 1), (7, 3), (40, 16)]
    a = [rand((m, n), dtype, i) for i, (m, n) in enumerate(sizes)]
    x = [rand((n,), dtype, 10 + i) for i, (m, n) in enumerate(sizes)]
    y = [xp.from_numpy(numpy_zeros((m,), dtype)) for m, n in sizes]
    shoal.gemv_vbatched([xp.from_numpy(v) for v in a], [xp.from_numpy(v) for v in x], y)
    for i, (m, n) in enumerate(sizes):
        err = norm(xp.to_numpy(y[i]) - a[i].astype("float64") @ x[i]) / (n * norm(a[i]) * norm(x[i]) * eps(dtype))
        assert err < 16, (i, err)


@pytest.mark.parametrize("dtype", CDTYPES)
@pytest.mark.parametrize("trans", ["N", "T", "C"])
def test_gemv_vbatched_complex(xp, dtype, trans):
    sizes = [(1, 1), (7, 3), (40, 16)]
    a = [crand((m, n), dtype, i) for i, (m, n) in enumerate(sizes)]
    x = [crand((m if trans != "N" else n,), dtype, 10 + i) for i, (m, n) in enumerate(sizes)]
    y0 = [crand((n if trans != "N" else m,), dtype, 20 + i) for i, (m, n) in enumerate(sizes)]
    y = [xp.from_numpy(v) for v in y0]
    alpha, beta = 0.5 + 1j, -1j
    shoal.gemv_vbatched([xp.from_numpy(v, "col") for v in a], [xp.from_numpy(v) for v in x], y,
                        alpha=alpha, beta=beta, trans=trans)
    for i, (m, n) in enumerate(sizes):
        ref = alpha * cop(a[i].astype("complex128"), trans) @ x[i] + beta * y0[i]
        scale = abs(alpha) * max(m, n) * norm(a[i]) * norm(x[i]) + abs(beta) * norm(y0[i])
        err = norm(xp.to_numpy(y[i]) - ref) / (scale * eps(dtype))
        assert err < 16, (i, err)


def test_runs_on_the_current_stream(xp):
    import ctypes
    from shoal import _context, _library
    a = rand((BATCH, 8, 8), "float64", 1)
    stream, ctx, ptr = xp.side_stream()
    with ctx:
        C = shoal.gemm(xp.from_numpy(a), xp.from_numpy(a))
    stream.synchronize()
    lib = _library.load()
    h = _context.handle(_context.current_device(lib), lib)
    got = ctypes.c_void_p()
    assert lib.shoal_get_stream(h.ptr, ctypes.byref(got)) == 0
    assert (got.value or 0) == ptr
    assert norm(xp.to_numpy(C) - a @ a) < 1e-12


def test_bad_call_raises_with_the_status_name(xp):
    a = rand((1, 1025, 1025), "float64", 1)  # getrf serves m, n <= 1024
    with pytest.raises(shoal.ShoalError, match="SHOAL_STATUS_NOT_SUPPORTED") as e:
        shoal.getrf(xp.from_numpy(a))
    assert e.value.name == "SHOAL_STATUS_NOT_SUPPORTED"


def test_column_major_helper(xp):
    a = rand((3, 4, 5), "float64", 1)
    X = shoal.column_major(xp.from_numpy(a, "row"))
    assert norm(xp.to_numpy(X) - a) == 0
    shoal.geqrf(X)  # accepted: column-major now
