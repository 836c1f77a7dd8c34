"""trsm, syrk and herk on a GPU, with PyTorch tensors and CuPy arrays, against numpy references
on the host: s and d (trsm also c and z; herk c and z only), every option, column- and row-major operands, triangles served by the kernels
(<= 32) and by the recursive drivers (> 32), strided and pointer-array (list) batches, and the
BLAS contracts (the triangle not read or not written, alpha == 0, beta == 0 with NaN in C).
Skipped like test_py_gpu.py without a CUDA device, PyTorch/CuPy, numpy or libshoal."""
import pytest

import shoal
from test_py_gpu import BATCH, DTYPES, TOL, eps, norm, op, rand

ORDER = {"c": "col", "r": "row"}


def triangular(t, uplo, diag, dtype, seed=1):
    """(what the device gets, the triangle it stands for): the other triangle, and with diag U
    the diagonal, hold junk that must not be read; a dominant diagonal keeps it well conditioned."""
    import numpy
    a = rand((BATCH, t, t), dtype, seed) / t
    idx = numpy.arange(t)
    a[:, idx, idx] = 1.0 + numpy.abs(rand((BATCH, t), dtype, seed + 1))
    tri = numpy.tril(a) if uplo == "L" else numpy.triu(a)
    if diag == "U":
        tri[:, idx, idx] = 1.0
        a[:, idx, idx] = 1e3  # not the ones the solve must use
    return a, tri.astype("float64")


def trsm_residual(tri, x, b, side, trans, alpha, dtype):
    t = tri.shape[-1]
    lhs = op(tri, trans) @ x if side == "L" else x @ op(tri, trans)
    return norm(lhs - alpha * b) / (t * norm(tri) * norm(x) * eps(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("side", ["L", "R"])
@pytest.mark.parametrize("uplo, trans, diag", [("L", "N", "N"), ("L", "T", "U"), ("U", "N", "U"),
                                               ("U", "T", "N")])
@pytest.mark.parametrize("orders", ["cc", "rr", "rc", "cr"])
@pytest.mark.parametrize("t, r", [(7, 3), (45, 10)])
def test_trsm(xp, dtype, side, uplo, trans, diag, orders, t, r):
    m, n = (t, r) if side == "L" else (r, t)
    a, tri = triangular(t, uplo, diag, dtype)
    b = rand((BATCH, m, n), dtype, 3)
    A, B = xp.from_numpy(a, ORDER[orders[0]]), xp.from_numpy(b, ORDER[orders[1]])
    assert shoal.trsm(A, B, side=side, uplo=uplo, trans=trans, diag=diag, alpha=-1.5) is B
    x = xp.to_numpy(B).astype("float64")
    err = trsm_residual(tri, x, b, side, trans, -1.5, dtype)
    assert err < TOL, err
    assert norm(xp.to_numpy(A) - a) == 0  # A is read only


def crand(shape, dtype, seed):
    real = "float32" if dtype == "complex64" else "float64"
    return (rand(shape, real, seed) + 1j * rand(shape, real, seed + 50)).astype(dtype)


def cop(a, t):
    """op(a) for N, T and C (the conjugate transpose)."""
    return a.swapaxes(-1, -2).conj() if t == "C" else op(a, t)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("side", ["L", "R"])
@pytest.mark.parametrize("uplo, trans, diag, orders", [
    ("L", "N", "N", "cc"), ("U", "T", "U", "rc"), ("L", "T", "N", "cr"), ("L", "C", "N", "cc"),
    ("U", "C", "U", "rr"), ("U", "C", "N", "cc")])
@pytest.mark.parametrize("t, r", [(7, 3), (45, 10)])
def test_trsm_complex(xp, dtype, side, uplo, trans, diag, orders, t, r):
    """complex64 / complex128, every op (C with both operands in one memory order: the package
    refuses mixed orders there), a complex alpha, kernels (t <= 32) and the driver."""
    import numpy
    m, n = (t, r) if side == "L" else (r, t)
    a = crand((BATCH, t, t), dtype, 1) / t
    idx = numpy.arange(t)
    a[:, idx, idx] = 1.0 + numpy.abs(crand((BATCH, t), dtype, 2))
    tri = (numpy.tril(a) if uplo == "L" else numpy.triu(a)).astype("complex128")
    if diag == "U":
        tri[:, idx, idx] = 1.0
        a[:, idx, idx] = 1e3
    b = crand((BATCH, m, n), dtype, 3)
    A, B = xp.from_numpy(a, ORDER[orders[0]]), xp.from_numpy(b, ORDER[orders[1]])
    alpha = -1.5 + 0.5j
    assert shoal.trsm(A, B, side=side, uplo=uplo, trans=trans, diag=diag, alpha=alpha) is B
    x = xp.to_numpy(B).astype("complex128")
    lhs = cop(tri, trans) @ x if side == "L" else x @ cop(tri, trans)
    err = norm(lhs - alpha * b) / (t * norm(tri) * norm(x) * eps(dtype))
    assert err < TOL, err
    assert norm(xp.to_numpy(A) - a) == 0  # A is read only


@pytest.mark.parametrize("t", [9, 40])
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_trsm_reads_only_its_triangle(xp, t, uplo):
    import numpy
    a, tri = triangular(t, uplo, "U", "float64")
    other = numpy.triu(numpy.ones((t, t)), 0) if uplo == "L" else numpy.tril(numpy.ones((t, t)), 0)
    a[:, other.astype(bool)] = numpy.nan  # the other triangle and the (unit) diagonal
    b = rand((BATCH, t, 4), "float64", 3)
    B = xp.from_numpy(b)
    shoal.trsm(xp.from_numpy(a), B, uplo=uplo, diag="U")
    x = xp.to_numpy(B)
    assert numpy.isfinite(x).all()
    assert trsm_residual(tri, x, b, "L", "N", 1.0, "float64") < TOL
    B0 = xp.from_numpy(b)
    shoal.trsm(xp.from_numpy(numpy.full_like(a, numpy.nan)), B0, alpha=0.0)  # A not read
    assert (xp.to_numpy(B0) == 0).all()


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("t", [6, 40])
def test_trsm_lists_and_a_shared_a(xp, dtype, t):
    a, tri = triangular(t, "L", "N", dtype)
    b = rand((5, t, 3), dtype, 3)
    As = [xp.from_numpy(v) for v in a[:5]]
    Bs = [xp.from_numpy(v) for v in b]
    shoal.trsm(As, Bs, side="L", trans="T")
    for i in range(5):
        x = xp.to_numpy(Bs[i]).astype("float64")
        assert trsm_residual(tri[i], x, b[i], "L", "T", 1.0, dtype) < TOL, i
    B = xp.from_numpy(b.swapaxes(-1, -2).copy())  # (5, 3, t): X A = B with one A for all
    shoal.trsm(xp.from_numpy(a[0]), B, side="R")
    x = xp.to_numpy(B).astype("float64")
    assert trsm_residual(tri[0], x, b.swapaxes(-1, -2), "R", "N", 1.0, dtype) < TOL


def triangle_mask(n, uplo):
    import numpy
    ones = numpy.ones((n, n), dtype=bool)
    return numpy.tril(ones) if uplo == "L" else numpy.triu(ones)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("uplo", ["L", "U"])
@pytest.mark.parametrize("trans", ["N", "T"])
@pytest.mark.parametrize("orders", ["cc", "rr", "rc", "cr"])
@pytest.mark.parametrize("n, k", [(5, 3), (32, 7), (45, 20)])
def test_syrk(xp, dtype, uplo, trans, orders, n, k):
    a = rand((BATCH,) + ((k, n) if trans == "T" else (n, k)), dtype, 1)
    c0 = rand((BATCH, n, n), dtype, 2)
    A, C = xp.from_numpy(a, ORDER[orders[0]]), xp.from_numpy(c0, ORDER[orders[1]])
    assert shoal.syrk(A, C, uplo=uplo, trans=trans, alpha=1.5, beta=-0.5) is C
    opa = op(a, trans).astype("float64")
    check_rank_k(xp.to_numpy(C), c0, 1.5 * opa @ opa.swapaxes(-1, -2) - 0.5 * c0.astype("float64"), a, k,
                 uplo, dtype)


def check_rank_k(c, c0, ref, a, k, uplo, dtype):
    """C = 1.5 op(A) op(A)^T|H - 0.5 C0 on the uplo triangle (ref), the other one untouched."""
    mask = triangle_mask(c.shape[-1], uplo)
    err = norm(c[:, mask] - ref[:, mask]) / ((1.5 * k * norm(a) ** 2 + 0.5 * norm(c0)) * eps(dtype))
    assert err < 16, err
    assert (c[:, ~mask] == c0[:, ~mask]).all(), "the other triangle of C was written"


@pytest.mark.parametrize("n", [8, 40])
def test_syrk_beta_zero_and_a_new_c(xp, n):
    import numpy
    a = rand((BATCH, n, 6), "float64", 1)
    ref = a @ a.swapaxes(-1, -2)
    mask = triangle_mask(n, "U")
    C = xp.from_numpy(numpy.full((BATCH, n, n), numpy.nan))
    shoal.syrk(xp.from_numpy(a), C, uplo="U")  # beta 0: NaN in C does not propagate
    c = xp.to_numpy(C)
    assert norm(c[:, mask] - ref[:, mask]) < 1e-12 * n * norm(ref)
    assert numpy.isnan(c[:, ~mask]).all()
    C2 = shoal.syrk(xp.from_numpy(a, "row"), alpha=2.0)
    assert xp.is_native(C2) and tuple(C2.shape) == (BATCH, n, n)
    c2 = xp.to_numpy(C2)
    low = triangle_mask(n, "L")
    assert norm(c2[:, low] - 2 * ref[:, low]) < 1e-12 * n * norm(ref)
    assert (c2[:, ~low] == 0).all()  # a new C is zero outside the triangle


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [10, 40])
def test_syrk_lists(xp, dtype, n):
    a = rand((4, 5, n), dtype, 1)  # trans T: op(A) = A^T is n x 5
    c0 = rand((4, n, n), dtype, 2)
    Cs = [xp.from_numpy(v) for v in c0]
    shoal.syrk([xp.from_numpy(v) for v in a], Cs, trans="T", beta=1.0)
    mask = triangle_mask(n, "L")
    for i in range(4):
        ref = a[i].T.astype("float64") @ a[i] + c0[i]
        c = xp.to_numpy(Cs[i])
        err = norm(c[mask] - ref[mask]) / ((5 * norm(a[i]) ** 2 + norm(c0[i])) * eps(dtype))
        assert err < 16, (i, err)
        assert (c[~mask] == c0[i][~mask]).all()


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("uplo", ["L", "U"])
@pytest.mark.parametrize("trans", ["N", "C"])
@pytest.mark.parametrize("orders", ["cc", "rr"])
@pytest.mark.parametrize("n, k", [(5, 3), (45, 20), (70, 9)])
def test_herk(xp, dtype, uplo, trans, orders, n, k):
    """Both memory orders (the package refuses mixed ones), kernels (n <= 64) and the driver; the
    diagonal comes out real whatever imaginary part C's diagonal had."""
    import numpy
    a = crand((BATCH,) + ((k, n) if trans == "C" else (n, k)), dtype, 1)
    c0 = crand((BATCH, n, n), dtype, 2)
    A, C = xp.from_numpy(a, ORDER[orders[0]]), xp.from_numpy(c0, ORDER[orders[1]])
    assert shoal.herk(A, C, uplo=uplo, trans=trans, alpha=1.5, beta=-0.5) is C
    c = xp.to_numpy(C)
    opa = cop(a, trans).astype("complex128")
    c_in = c0.astype("complex128")
    idx = numpy.arange(n)
    c_in[:, idx, idx] = c_in[:, idx, idx].real  # its imaginary part is not read
    check_rank_k(c, c0, 1.5 * opa @ opa.swapaxes(-1, -2).conj() - 0.5 * c_in, a, k, uplo, dtype)
    assert (c[:, idx, idx].imag == 0).all(), "the diagonal is not real"


def test_herk_a_new_c_and_lists(xp):
    import numpy
    a = crand((4, 6, 40), "complex128", 1)  # trans C: op(A) = A^H is 40 x 6
    C = shoal.herk(xp.from_numpy(a, "row"), trans="C", alpha=2.0)
    assert xp.is_native(C) and tuple(C.shape) == (4, 40, 40)
    ref = 2.0 * a.swapaxes(-1, -2).conj() @ a
    low = triangle_mask(40, "L")
    c = xp.to_numpy(C)
    assert norm(c[:, low] - ref[:, low]) < 1e-12 * 40 * norm(ref)
    assert (c[:, ~low] == 0).all()  # a new C is zero outside the triangle
    c0 = crand((4, 40, 40), "complex128", 2)
    Cs = [xp.from_numpy(v) for v in c0]
    shoal.herk([xp.from_numpy(v) for v in a], Cs, trans="C", beta=1.0)
    idx = numpy.arange(40)
    for i in range(4):
        c_in = c0[i].copy()
        c_in[idx, idx] = c_in[idx, idx].real
        want = a[i].T.conj() @ a[i] + c_in
        got = xp.to_numpy(Cs[i])
        assert norm(got[low] - want[low]) < 1e-12 * 40 * norm(want), i
        assert (got[~low] == c0[i][~low]).all()


def test_workspace_size(xp):
    assert shoal.workspace_size() > 0  # the drivers' pointer arrays live there
