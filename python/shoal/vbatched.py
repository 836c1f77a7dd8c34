"""Variable-size batches: shoal_?gemm_vbatched, shoal_?gemv_vbatched, shoal_?potrf_vbatched,
shoal_?potrs_vbatched and shoal_?posv_vbatched over lists of arrays.

The per-matrix sizes, leading dimensions and increments, and the pointer arrays, are built on
the host from the lists and uploaded in one copy per call, on the call's stream; the maxima are
known on the host, so no shoal_imax_device synchronization is needed. The C routine takes one
transpose flag per operand, so the matrices of a list must share their memory order (the
transposes that absorb row-major storage must be the same for every problem).
"""
from __future__ import annotations

from typing import Any

from ._common import flag, flat, op_flag, operand, output, precision, scalar
from ._context import Call
from ._layout import Matrices, matrices, require_column_major, same_order, vectors
from .blas import gemm_plan, vector_op, vector_trans
from .lapack import _WHY_HERMITIAN, _WHY_RHS, _fill


def _lists(*pairs: tuple[Any, str]) -> int:
    count = None
    for value, name in pairs:
        if not isinstance(value, (list, tuple)):
            raise TypeError(f"{name} must be a list of arrays (one per problem)")
        if count is None:
            count = len(value)
        elif len(value) != count:
            raise ValueError(f"{name} has {len(value)} entries; {pairs[0][1]} has {count}")
    return count or 0


def gemm_vbatched(A: list, B: list, C: list, *, alpha: float | complex = 1.0, beta: float | complex = 0.0,
                  transa: str = "N", transb: str = "N", stream: Any = None) -> list:
    """C[i] = alpha op(A[i]) op(B[i]) + beta C[i] for matrices of different sizes; returns C.

    float32, float64, complex64 and complex128; op 'N', 'T' or 'C' (the conjugate transpose: 'T'
    in the real dtypes); alpha and beta complex for the complex dtypes. As in gemm, an operand
    with op 'C' must be stored in C's memory order (ValueError otherwise)."""
    transa, transb = op_flag(transa, "transa", keep_c=True), op_flag(transb, "transb", keep_c=True)
    count = _lists((A, "A"), (B, "B"), (C, "C"))
    if count == 0:
        return C
    a, b, c = operand(list(A), "A", stream), operand(list(B), "B", stream), operand(list(C), "C", stream)
    call = Call(flat(a, b, c), stream)
    p = precision(a, b, c, complex_ok=True)
    if p not in "cz":  # as in BLAS, the conjugate transpose of a real matrix is its transpose
        transa, transb = op_flag(transa, "transa"), op_flag(transb, "transb")
    alpha, beta = scalar(p, alpha, "alpha"), scalar(p, beta, "beta")
    As, Bs, Cs = same_order(a, "A"), same_order(b, "B"), same_order(c, "C")
    plans = [gemm_plan(Am, Bm, Cm, transa, transb) for Am, Bm, Cm in zip(As, Bs, Cs)]
    _, _, op1, op2, *_ = plans[0]  # one memory order per list: one plan shape for all
    ms, ns, ks = ([pl[i] for pl in plans] for i in (4, 5, 6))
    p1, p2, pc, dm, dn, dk, d1, d2, dc = call.device_arrays(
        [[pl[0].ptr for pl in plans], [pl[1].ptr for pl in plans], [Cm.ptr for Cm in Cs]],
        [ms, ns, ks, [pl[0].ld for pl in plans], [pl[1].ld for pl in plans], [Cm.ld for Cm in Cs]])
    call(f"shoal_{p}gemm_vbatched", int(op1), int(op2), dm, dn, dk, max(ms), max(ns), max(ks),
         alpha, p1, d1, p2, d2, beta, pc, dc, count)
    return C


def gemv_vbatched(A: list, x: list, y: list, *, alpha: float | complex = 1.0,
                  beta: float | complex = 0.0, trans: str = "N", stream: Any = None) -> list:
    """y[i] = alpha op(A[i]) x[i] + beta y[i] for matrices of different sizes; returns y.
    float32, float64, complex64, complex128; op 'N', 'T' or 'C' (complex matrices with op 'C'
    must be column-major); alpha and beta complex for the complex dtypes."""
    trans = flag(trans, "NTC", "trans")
    count = _lists((A, "A"), (x, "x"), (y, "y"))
    if count == 0:
        return y
    a, xs, ys = operand(list(A), "A", stream), operand(list(x), "x", stream), operand(list(y), "y", stream)
    call = Call(flat(a, xs, ys), stream)
    p = precision(a, xs, ys, complex_ok=True)
    trans = vector_trans(trans, p)
    Ams = same_order(a, "A")
    xv = [vectors(xi, f"x[{i}]") for i, xi in enumerate(xs)]
    yv = [vectors(yi, f"y[{i}]") for i, yi in enumerate(ys)]
    transposed = Ams[0].transposed
    for i, (Am, xi, yi) in enumerate(zip(Ams, xv, yv)):
        need_x, need_y = (Am.rows, Am.cols) if trans != "N" else (Am.cols, Am.rows)
        if (xi.n, yi.n) != (need_x, need_y):
            raise ValueError(f"gemv_vbatched: op(A[{i}]) is {need_y} x {need_x}, x[{i}] has {xi.n} "
                             f"elements, y[{i}] {yi.n}")
        if not xi.single or not yi.single:
            raise ValueError(f"gemv_vbatched: x[{i}] and y[{i}] must be 1-D")
    op = vector_op("gemv_vbatched", trans, transposed)
    alpha, beta = scalar(p, alpha, "alpha"), scalar(p, beta, "beta")
    ms, ns = [Am.view_rows for Am in Ams], [Am.view_cols for Am in Ams]
    pa, px, py, dm, dn, dlda, dix, diy = call.device_arrays(
        [[Am.ptr for Am in Ams], [v.ptr for v in xv], [v.ptr for v in yv]],
        [ms, ns, [Am.ld for Am in Ams], [v.inc for v in xv], [v.inc for v in yv]])
    call(f"shoal_{p}gemv_vbatched", op, dm, dn, max(ms), max(ns), alpha, pa, dlda, px, dix,
         beta, py, diy, count)
    return y


def _two_d(Ms: list[Matrices], name: str, routine: str) -> None:
    """ValueError naming the first member that is not 2-D (a 3-D array would read as its first
    matrix: the rest would silently not be computed)."""
    for i, M in enumerate(Ms):
        if not M.single:
            raise ValueError(f"{routine}: {name}[{i}] has shape {(M.batch, M.rows, M.cols)}: a list "
                             "holds 2-D matrices")


def _square_sizes(Ams: list[Matrices], routine: str = "potrf_vbatched") -> list[int]:
    """Each matrix's order; ValueError naming the first that is not square, or not 2-D."""
    _two_d(Ams, "A", routine)
    for i, Am in enumerate(Ams):
        if Am.rows != Am.cols:
            raise ValueError(f"{routine}: A[{i}] is {Am.rows} x {Am.cols}; it must be square")
    return [Am.rows for Am in Ams]


def potrf_vbatched(A: list, *, uplo: str = "L", info: Any = None, stream: Any = None) -> Any:
    """Cholesky of square matrices of different orders (0 <= n <= 1024, mixed in one list), each
    in place as potrf: A[i] = L L^H (uplo 'L') or U^H U ('U') in that triangle, the other not
    referenced. float32, float64, complex64, complex128 (Hermitian A; the imaginary parts of the
    diagonal are not read). Row-major matrices allowed, as in potrf, when every one of the list is
    (one uplo for the whole call). Returns info (len(A),) int32: info[i] = j > 0 where the leading
    minor of order j of A[i] is not positive definite (that matrix stops there, the others are
    not affected). An empty list needs info= (an empty int32 array; returned as is): there is no
    array to take the library of a new one from."""
    uplo = flag(uplo, "LU", "uplo")
    count = _lists((A, "A"))
    if count == 0:
        if info is None:
            raise ValueError("potrf_vbatched: A is an empty list; pass info= (an empty int32 array) "
                             "to get it back, as there is no array to allocate one like")
        return info
    a = operand(list(A), "A", stream)
    call = Call(flat(a), stream)
    p = precision(a, complex_ok=True)
    Ams = same_order(a, "A")       # one memory order: one uplo for the whole list
    ns = _square_sizes(Ams)
    inf = output(call, info, (count,), "int32", "info")
    pa, dn, dlda = call.device_arrays([[Am.ptr for Am in Ams]], [ns, [Am.ld for Am in Ams]])
    # The maximum is known here, so no shoal_imax_device (which synchronizes). At least 1: with a
    # maximum of 0 the C call returns at once without writing info, and a new info would hold
    # garbage where every matrix is 0 x 0 (with 1 the device check writes info[i] = 0 for them).
    max_n = max(1, max(ns))
    call(f"shoal_{p}potrf_vbatched", _fill(uplo, Ams[0]), dn, max_n, pa, dlda, inf.ptr, count)
    return inf.obj


def _rhs_matrix(bi: Any, name: str) -> Matrices:
    """B[i] as the call reads it. An empty one (n_i = 0 or nrhs_i = 0) is not read or written,
    whatever its strides (numpy and CuPy give an empty array strides of 0, which no memory order
    fits): its address and the least leading dimension are passed."""
    rows, cols = bi.shape
    if rows == 0 or cols == 0:
        return Matrices(name, rows, cols, 1, bi.ptr, 0, max(1, rows), False, bi.itemsize, True)
    return matrices(bi, name)


def _solve_vbatched(routine: str, A: list, B: list, uplo: str, info: Any, stream: Any) -> Any:
    """potrs_vbatched and posv_vbatched: the checks of shoal.potrs / shoal.posv per member (B
    column-major, a complex A column-major), the arrays uploaded in one copy, info returned."""
    uplo = flag(uplo, "LU", "uplo")
    count = _lists((A, "A"), (B, "B"))
    if count == 0:
        if info is None:
            raise ValueError(f"{routine}: A is an empty list; pass info= (an empty int32 array) "
                             "to get it back, as there is no array to allocate one like")
        return info
    a, b = operand(list(A), "A", stream), operand(list(B), "B", stream)
    call = Call(flat(a, b), stream)
    p = precision(a, b, complex_ok=True)
    Ams = same_order(a, "A")       # one memory order: one uplo for the whole list
    if p in "cz":                  # as potrs and posv: the view of a row-major Hermitian A is conj(A)
        for Am in Ams:
            require_column_major(Am, _WHY_HERMITIAN)
    ns = _square_sizes(Ams, routine)
    for i, bi in enumerate(b):     # as potrs and posv: B column-major (a row-major one would be B^T)
        if len(bi.shape) != 2:
            raise ValueError(f"{routine}: B[{i}] has shape {bi.shape}: a list holds 2-D matrices")
    Bms = [_rhs_matrix(bi, f"B[{i}]") for i, bi in enumerate(b)]
    for i, (Bm, n) in enumerate(zip(Bms, ns)):
        require_column_major(Bm, _WHY_RHS)
        if Bm.rows != n:
            raise ValueError(f"{routine}: B[{i}] has {Bm.rows} rows; A[{i}] is {n} x {n}")
    nrhs = [Bm.cols for Bm in Bms]
    inf = output(call, info, (count,), "int32", "info")
    pa, pb, dn, dnrhs, dlda, dldb = call.device_arrays(
        [[Am.ptr for Am in Ams], [Bm.ptr for Bm in Bms]],
        [ns, nrhs, [Am.ld for Am in Ams], [Bm.ld for Bm in Bms]])
    # Maxima known here, so no shoal_imax_device (which synchronizes). max_n at least 1, as in
    # potrf_vbatched: with 0 the C call returns at once without writing info. posv factors with
    # max_nrhs = 0 (LAPACK's posv with nrhs = 0) and passes the true maximum; potrs does no work
    # when max_nrhs is 0 (info not written), so it gets at least 1 (nrhs[i] = 0 reads 0 then).
    max_n = max(1, max(ns))
    max_nrhs = max(nrhs) if routine == "posv_vbatched" else max(1, max(nrhs))
    call(f"shoal_{p}{routine}", _fill(uplo, Ams[0]), dn, dnrhs, max_n, max_nrhs, pa, dlda, pb, dldb,
         inf.ptr, count)
    return inf.obj


def potrs_vbatched(A: list, B: list, *, uplo: str = "L", info: Any = None, stream: Any = None) -> Any:
    """Solves A[i] X[i] = B[i] with the factor of potrf_vbatched (or potrf) in A[i] (uplo as it
    was factored) for matrices of different orders (0 <= n <= 1024, mixed in one list); B[i] (n_i x
    nrhs_i, nrhs_i >= 0 mixed too) <- X[i]. float32, float64, complex64, complex128. As potrs: the
    B[i] must be column-major, and so must a complex factor; a real factor may be row-major when
    every one of the list is (one uplo for the whole call). Returns info (len(A),) int32: as
    LAPACK's potrs it reports only bad arguments, which the package's own checks raise on first,
    so it holds 0. An empty list needs info= (an empty int32 array; returned as is)."""
    return _solve_vbatched("potrs_vbatched", A, B, uplo, info, stream)


def posv_vbatched(A: list, B: list, *, uplo: str = "L", info: Any = None, stream: Any = None) -> Any:
    """Cholesky factor and solve for matrices of different orders (0 <= n <= 1024, mixed in one
    list): A[i] <- its factor in the uplo triangle (as potrf_vbatched), B[i] (n_i x nrhs_i,
    nrhs_i >= 0 mixed too) <- X[i] with A[i] X[i] = B[i]. float32, float64, complex64, complex128.
    As posv: the B[i] must be column-major, and so must a complex A; a real A may be row-major
    when every one of the list is. Returns info (len(A),) int32: info[i] = j > 0 where A[i]'s
    leading minor of order j is not positive definite (A[i] as potrf_vbatched leaves it, B[i] not
    touched; the other problems are not affected). Every A[i] is factored even where every nrhs is
    0. An empty list needs info= (an empty int32 array; returned as is)."""
    return _solve_vbatched("posv_vbatched", A, B, uplo, info, stream)
