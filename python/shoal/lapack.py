"""Factorizations, solves and inversion of small matrices: LU, Cholesky, QR. n <= 1024 (m, n <=
1024 for getrf and geqrf; above 32 through blocked drivers) for getrf, getrs, gesv, getri, geqrf,
potrf, potrs and posv; n <= 32 for getri_fused. Larger sizes raise ShoalError
SHOAL_STATUS_NOT_SUPPORTED.

float32, float64, complex64 and complex128 (LAPACK's s, d, c, z). In the complex dtypes the
Cholesky routines take Hermitian A (A = L L^H; the imaginary parts of its diagonal are not read,
the factor's diagonal comes out real), getrs takes trans 'C' (A^H X = B), getrf pivots on
|re| + |im| (BLAS i?amax) and geqrf's tau is complex (zgeqrf's reflectors I - tau v v^H).
LAPACK semantics per matrix: ipiv is 1-based (int32, like torch.linalg.lu_factor's pivots),
info[i] > 0 reports a zero pivot (LU) or a non-positive-definite leading minor (Cholesky) of
matrix i and never stops the others. Nothing raises on info > 0: check it.
The factors are written in place, so the matrices that receive them (getrf, gesv, geqrf's A,
getri's C) and the right-hand sides B of the solves must be column-major per matrix; the
Cholesky routines also take row-major A (the view's other triangle is used), except a complex
one in potrs and posv: the view of a row-major Hermitian matrix is its conjugate, and the
solve would be with conj(A).
"""
from __future__ import annotations

from typing import Any

from ._common import batch_shape, flag, flat, op_flag, operand, output, precision
from ._context import Call
from ._layout import Matrices, common_batch, matrices, require_column_major

_WHY_FACTORS = "the factors are written in place in LAPACK's column-major form"
_WHY_RHS = "the solutions are written in place and a row-major B would be B^T"
_WHY_HERMITIAN = ("a row-major complex matrix read column-major is its transpose, which for a Hermitian "
                  "matrix is its conjugate: the solve would be with conj(A)")


def _square(M: Matrices, routine: str) -> int:
    if M.rows != M.cols:
        raise ValueError(f"{routine}: {M.name} is {M.rows} x {M.cols}; it must be square")
    return M.rows


def _rhs(B: Matrices, n: int, routine: str) -> None:
    require_column_major(B, _WHY_RHS)
    if B.rows != n:
        raise ValueError(f"{routine}: B has {B.rows} rows; A is {n} x {n}")


def _pivots(call: Call, given: Any, M: Matrices, batch: int, what: str = "ipiv"):
    return output(call, given, batch_shape(M.single, batch) + (min(M.rows, M.cols),), "int32", what)


def _info(call: Call, given: Any, M: Matrices, batch: int):
    return output(call, given, batch_shape(M.single, batch), "int32", "info")


def _pointer_form(*ops: Matrices) -> bool:
    return any(op.ptrs is not None for op in ops)


def getrf(A: Any, *, ipiv: Any = None, info: Any = None, stream: Any = None) -> tuple[Any, Any]:
    """LU with partial pivoting, A = P L U, in place (m x n, m != n allowed).
    Returns (ipiv, info): ipiv (batch, min(m, n)) int32 1-based, info (batch,) int32."""
    a = operand(A, "A", stream)
    call = Call(flat(a), stream)
    p = precision(a, complex_ok=True)
    Am = matrices(a, "A")
    require_column_major(Am, _WHY_FACTORS)
    batch = common_batch([Am], [])
    piv, inf = _pivots(call, ipiv, Am, batch), _info(call, info, Am, batch)
    kmin = min(Am.rows, Am.cols)
    if not _pointer_form(Am):
        call(f"shoal_{p}getrf_strided_batched", Am.rows, Am.cols, Am.ptr, Am.ld, Am.stride,
             piv.ptr, kmin, inf.ptr, batch)
    else:
        (pa,) = call.device_arrays([Am.addresses(batch)])
        call(f"shoal_{p}getrf_batched", Am.rows, Am.cols, pa, Am.ld, piv.ptr, inf.ptr, batch)
    return piv.obj, inf.obj


def _given_pivots(call: Call, ipiv: Any, LU: Matrices, batch: int, pointer_form: bool):
    piv = output(call, ipiv, batch_shape(LU.single, LU.batch) + (LU.rows,), "int32", "ipiv")
    if pointer_form and LU.batch != batch:
        raise ValueError("a pointer-array call needs one LU factorization per right-hand side "
                         "(ipiv is read as batch consecutive pivot vectors)")
    return piv, (LU.rows if LU.batch == batch else 0)


def getrs(LU: Any, ipiv: Any, B: Any, *, trans: str = "N", stream: Any = None) -> Any:
    """Solves op(A) X = B with getrf's factors and pivots; B (batch, n, nrhs) is overwritten by
    X and returned. One LU (2-D) may serve a batch of right-hand sides. trans 'N', 'T' or 'C'
    (A^H in complex64 / complex128; 'T' in the real dtypes)."""
    lu, b = operand(LU, "LU", stream), operand(B, "B", stream)
    call = Call(flat(lu, b), stream)
    p = precision(lu, b, complex_ok=True)
    trans = op_flag(trans, "trans", keep_c=p in "cz")
    LUm, Bm = matrices(lu, "LU"), matrices(b, "B")
    require_column_major(LUm, "it holds getrf's factors")
    n = _square(LUm, "getrs")
    _rhs(Bm, n, "getrs")
    batch = common_batch([Bm], [LUm])
    pointer = _pointer_form(LUm, Bm)
    piv, stride_p = _given_pivots(call, ipiv, LUm, batch, pointer)
    op = _OP[trans]
    if not pointer:
        call(f"shoal_{p}getrs_strided_batched", op, n, Bm.cols, LUm.ptr, LUm.ld,
             LUm.stride_for(batch), piv.ptr, stride_p, Bm.ptr, Bm.ld, Bm.stride, batch)
    else:
        pa, pb = call.device_arrays([LUm.addresses(batch), Bm.addresses(batch)])
        call(f"shoal_{p}getrs_batched", op, n, Bm.cols, pa, LUm.ld, piv.ptr, pb, Bm.ld, batch)
    return B


_OP = {"N": 0, "T": 1, "C": 2}  # SHOAL_OP_*


def gesv(A: Any, B: Any, *, ipiv: Any = None, info: Any = None,
         stream: Any = None) -> tuple[Any, Any]:
    """Solves A X = B (one kernel for n <= 32, the blocked driver up to 1024): A <- its LU
    factors, B <- X. Where info > 0, B is unchanged for n <= 32 but holds intermediate values
    above 32. Returns (ipiv, info)."""
    a, b = operand(A, "A", stream), operand(B, "B", stream)
    call = Call(flat(a, b), stream)
    p = precision(a, b, complex_ok=True)
    Am, Bm = matrices(a, "A"), matrices(b, "B")
    require_column_major(Am, _WHY_FACTORS)
    n = _square(Am, "gesv")
    _rhs(Bm, n, "gesv")
    batch = common_batch([Am, Bm], [])
    piv, inf = _pivots(call, ipiv, Am, batch), _info(call, info, Am, batch)
    if not _pointer_form(Am, Bm):
        call(f"shoal_{p}gesv_strided_batched", n, Bm.cols, Am.ptr, Am.ld, Am.stride, piv.ptr, n,
             Bm.ptr, Bm.ld, Bm.stride, inf.ptr, batch)
    else:
        pa, pb = call.device_arrays([Am.addresses(batch), Bm.addresses(batch)])
        call(f"shoal_{p}gesv_batched", n, Bm.cols, pa, Am.ld, piv.ptr, pb, Bm.ld, inf.ptr, batch)
    return piv.obj, inf.obj


def _inverse_out(call: Call, C: Any, A: Matrices, batch: int, dtype: str, stream: Any,
                 column_major: bool) -> Any:
    if C is None:
        if A.ptrs is not None:
            raise ValueError("pass C for pointer-array (list) batches")
        shape = batch_shape(A.single, batch) + (A.rows, A.rows)
        return call.empty(shape, dtype, "C", column_major=column_major)
    return operand(C, "C", stream)


def getri(LU: Any, ipiv: Any, C: Any = None, *, info: Any = None,
          stream: Any = None) -> tuple[Any, Any]:
    """C = inv(A) from getrf's factors and pivots, out of place (LU unchanged).
    Returns (C, info); C is new and column-major when None; where info > 0, C is all NaN."""
    lu = operand(LU, "LU", stream)
    call = Call(flat(lu), stream)
    LUm = matrices(lu, "LU")
    require_column_major(LUm, "it holds getrf's factors")
    n = _square(LUm, "getri")
    c = _inverse_out(call, C, LUm, LUm.batch, lu[0].dtype if isinstance(lu, list) else lu.dtype,
                     stream, True)
    p = precision(lu, c, complex_ok=True)
    Cm = matrices(c, "C")
    require_column_major(Cm, "the inverse of the column-major factors is written there")
    if (Cm.rows, Cm.cols) != (n, n):
        raise ValueError(f"getri: C is {Cm.rows} x {Cm.cols}; LU is {n} x {n}")
    batch = common_batch([Cm], [LUm])
    pointer = _pointer_form(LUm, Cm)
    piv, stride_p = _given_pivots(call, ipiv, LUm, batch, pointer)
    inf = _info(call, info, Cm, batch)
    if not pointer:
        call(f"shoal_{p}getri_strided_batched", n, LUm.ptr, LUm.ld, LUm.stride_for(batch),
             piv.ptr, stride_p, Cm.ptr, Cm.ld, Cm.stride, inf.ptr, batch)
    else:
        pa, pc = call.device_arrays([LUm.addresses(batch), Cm.addresses(batch)])
        call(f"shoal_{p}getri_batched", n, pa, LUm.ld, piv.ptr, pc, Cm.ld, inf.ptr, batch)
    return (C if C is not None else c.obj), inf.obj


def getri_fused(A: Any, C: Any = None, *, info: Any = None, stream: Any = None) -> tuple[Any, Any]:
    """C = inv(A) in one kernel (factor and invert), A unchanged. Returns (C, info).
    A and C may be row-major as long as both are (inv(A^T) = inv(A)^T); a new C takes A's order."""
    a = operand(A, "A", stream)
    call = Call(flat(a), stream)
    Am = matrices(a, "A")
    n = _square(Am, "getri_fused")
    c = _inverse_out(call, C, Am, Am.batch, a[0].dtype if isinstance(a, list) else a.dtype,
                     stream, not Am.transposed)
    p = precision(a, c, complex_ok=True)
    Cm = matrices(c, "C")
    if (Cm.rows, Cm.cols) != (n, n):
        raise ValueError(f"getri_fused: C is {Cm.rows} x {Cm.cols}; A is {n} x {n}")
    if Cm.transposed != Am.transposed:
        raise ValueError("getri_fused: A and C must both be column-major or both row-major")
    batch = common_batch([Cm], [Am])
    inf = _info(call, info, Cm, batch)
    if not _pointer_form(Am, Cm):
        call(f"shoal_{p}getri_fused_strided_batched", n, Am.ptr, Am.ld, Am.stride_for(batch),
             Cm.ptr, Cm.ld, Cm.stride, inf.ptr, batch)
    else:
        pa, pc = call.device_arrays([Am.addresses(batch), Cm.addresses(batch)])
        call(f"shoal_{p}getri_fused_batched", n, pa, Am.ld, pc, Cm.ld, inf.ptr, batch)
    return (C if C is not None else c.obj), inf.obj


def _fill(uplo: str, M: Matrices) -> int:
    """SHOAL_FILL_* of the column-major view: a row-major matrix's lower triangle is its view's
    upper one (A symmetric: the view A^T holds the same matrix)."""
    lower = (uplo == "L") != M.transposed
    return 0 if lower else 1


def potrf(A: Any, *, uplo: str = "L", info: Any = None, stream: Any = None) -> Any:
    """Cholesky A = L L^H (uplo 'L') or U^H U ('U') in place in that triangle (L^T, U^T in the
    real dtypes); the other is not referenced, nor the imaginary parts of a complex A's diagonal.
    Row-major A allowed (complex too: the view's factor of conj(A) is A's, transposed).
    n <= 1024. Where info[i] = j > 0 (LAPACK's: the first leading minor of order j that is
    not positive definite), columns (rows for 'U') 1..j-1 hold the factor and, above n = 32,
    the rest of the triangle holds intermediate values. Returns info (batch,) int32."""
    uplo = flag(uplo, "LU", "uplo")
    a = operand(A, "A", stream)
    call = Call(flat(a), stream)
    p = precision(a, complex_ok=True)
    Am = matrices(a, "A")
    n = _square(Am, "potrf")
    batch = common_batch([Am], [])
    inf = _info(call, info, Am, batch)
    fill = _fill(uplo, Am)
    if not _pointer_form(Am):
        call(f"shoal_{p}potrf_strided_batched", fill, n, Am.ptr, Am.ld, Am.stride, inf.ptr, batch)
    else:
        (pa,) = call.device_arrays([Am.addresses(batch)])
        call(f"shoal_{p}potrf_batched", fill, n, pa, Am.ld, inf.ptr, batch)
    return inf.obj


def potrs(L: Any, B: Any, *, uplo: str = "L", stream: Any = None) -> Any:
    """Solves A X = B with potrf's factor (uplo as factored); B <- X, returned. n <= 1024. A
    complex factor must be column-major."""
    uplo = flag(uplo, "LU", "uplo")
    f, b = operand(L, "L", stream), operand(B, "B", stream)
    call = Call(flat(f, b), stream)
    p = precision(f, b, complex_ok=True)
    Fm, Bm = matrices(f, "L"), matrices(b, "B")
    if p in "cz":
        require_column_major(Fm, _WHY_HERMITIAN)
    n = _square(Fm, "potrs")
    _rhs(Bm, n, "potrs")
    batch = common_batch([Bm], [Fm])
    fill = _fill(uplo, Fm)
    if not _pointer_form(Fm, Bm):
        call(f"shoal_{p}potrs_strided_batched", fill, n, Bm.cols, Fm.ptr, Fm.ld,
             Fm.stride_for(batch), Bm.ptr, Bm.ld, Bm.stride, batch)
    else:
        pf, pb = call.device_arrays([Fm.addresses(batch), Bm.addresses(batch)])
        call(f"shoal_{p}potrs_batched", fill, n, Bm.cols, pf, Fm.ld, pb, Bm.ld, batch)
    return B


def posv(A: Any, B: Any, *, uplo: str = "L", info: Any = None, stream: Any = None) -> Any:
    """Cholesky factor and solve (one kernel for n <= 32, the blocked driver up to 1024):
    A <- factor, B <- X. Where info > 0, A is as potrf leaves it and B is unchanged for
    n <= 32, but holds intermediate values above 32. Returns info. A complex A must be
    column-major."""
    uplo = flag(uplo, "LU", "uplo")
    a, b = operand(A, "A", stream), operand(B, "B", stream)
    call = Call(flat(a, b), stream)
    p = precision(a, b, complex_ok=True)
    Am, Bm = matrices(a, "A"), matrices(b, "B")
    if p in "cz":
        require_column_major(Am, _WHY_HERMITIAN)
    n = _square(Am, "posv")
    _rhs(Bm, n, "posv")
    batch = common_batch([Am, Bm], [])
    inf = _info(call, info, Am, batch)
    fill = _fill(uplo, Am)
    if not _pointer_form(Am, Bm):
        call(f"shoal_{p}posv_strided_batched", fill, n, Bm.cols, Am.ptr, Am.ld, Am.stride,
             Bm.ptr, Bm.ld, Bm.stride, inf.ptr, batch)
    else:
        pa, pb = call.device_arrays([Am.addresses(batch), Bm.addresses(batch)])
        call(f"shoal_{p}posv_batched", fill, n, Bm.cols, pa, Am.ld, pb, Bm.ld, inf.ptr, batch)
    return inf.obj


def geqrf(A: Any, *, tau: Any = None, stream: Any = None) -> Any:
    """Householder QR in place (LAPACK output: R on and above the diagonal, the reflectors
    below it). Returns tau (batch, min(m, n)) of A's dtype (torch.geqrf's convention)."""
    return _householder("geqrf", A, tau, stream)


def gelqf(A: Any, *, tau: Any = None, stream: Any = None) -> Any:
    """LQ in place, A = L Q (LAPACK's gelqf output: L on and below the diagonal, the reflectors'
    conjugates in the rows right of it). Returns tau (batch, min(m, n)) of A's dtype."""
    return _householder("gelqf", A, tau, stream)


def _factors_in_place(A: Any, stream: Any) -> tuple[Call, str, Any, int, str]:
    """What the routines that work on one matrix A in place (geqrf, gelqf, gebrd, orgbr) read of
    it: the call, the precision letter, A's matrices (column-major required), the batch, A's
    dtype."""
    a = operand(A, "A", stream)
    call = Call(flat(a), stream)
    p = precision(a, complex_ok=True)
    Am = matrices(a, "A")
    require_column_major(Am, _WHY_FACTORS)
    batch = common_batch([Am], [])
    return call, p, Am, batch, a[0].dtype if isinstance(a, list) else a.dtype


def _householder(routine: str, A: Any, tau: Any, stream: Any) -> Any:
    """geqrf and gelqf: the same call, A in place and min(m, n) tau per matrix."""
    call, p, Am, batch, dtype = _factors_in_place(A, stream)
    kmin = min(Am.rows, Am.cols)
    t = output(call, tau, batch_shape(Am.single, batch) + (kmin,), dtype, "tau")
    if not _pointer_form(Am):
        call(f"shoal_{p}{routine}_strided_batched", Am.rows, Am.cols, Am.ptr, Am.ld, Am.stride,
             t.ptr, kmin, batch)
    else:
        taus = [t.ptr + i * kmin * t.itemsize for i in range(batch)]
        pa, pt = call.device_arrays([Am.addresses(batch), taus])
        call(f"shoal_{p}{routine}_batched", Am.rows, Am.cols, pa, Am.ld, pt, batch)
    return t.obj


def gebrd(A: Any, *, stream: Any = None) -> tuple[Any, Any, Any, Any]:
    """Bidiagonal reduction in place, Q^H A P = B (LAPACK gebrd: B upper bidiagonal for m >= n,
    lower for m < n; A gets B and the reflectors of Q and P in LAPACK's layout). Returns
    (d, e, tauq, taup): B's diagonal (batch, k) and off-diagonal (batch, k - 1), real (float32 /
    float64 also for the complex dtypes), and the reflectors' scalars (batch, k) of A's dtype,
    k = min(m, n). Served up to max(m, n) = 1024."""
    call, p, Am, batch, dtype = _factors_in_place(A, stream)
    k = min(Am.rows, Am.cols)
    real = {"complex64": "float32", "complex128": "float64"}.get(dtype, dtype)
    lead = batch_shape(Am.single, batch)
    d = output(call, None, lead + (k,), real, "d")
    e = output(call, None, lead + (max(k - 1, 0),), real, "e")
    tq = output(call, None, lead + (k,), dtype, "tauq")
    tp = output(call, None, lead + (k,), dtype, "taup")
    if not _pointer_form(Am):
        call(f"shoal_{p}gebrd_strided_batched", Am.rows, Am.cols, Am.ptr, Am.ld, Am.stride, d.ptr, k,
             e.ptr, max(k - 1, 0), tq.ptr, k, tp.ptr, k, batch)
    else:
        def rows(x: Any, n: int) -> list[int]:
            return [x.ptr + i * n * x.itemsize for i in range(batch)]
        pa, pd, pe, pq, pp = call.device_arrays([Am.addresses(batch), rows(d, k), rows(e, max(k - 1, 0)),
                                                rows(tq, k), rows(tp, k)])
        call(f"shoal_{p}gebrd_batched", Am.rows, Am.cols, pa, Am.ld, pd, pe, pq, pp, batch)
    return d.obj, e.obj, tq.obj, tp.obj


def orgbr(A: Any, tau: Any, *, vect: str = "Q", k: int, stream: Any = None) -> Any:
    """A (batch, m, n) <- Q (vect 'Q') or P^H (vect 'P') of a bidiagonal reduction in place, from
    the reflectors gebrd left in A and tau (batch, kq): tauq for 'Q', taup for 'P' (LAPACK orgbr;
    ungbr in the complex dtypes); returns A. k: the columns (Q) or rows (P) of the matrix gebrd
    reduced. 'Q' needs m >= n >= min(m, k) (kq = min(m, k)); 'P' needs n >= m >= min(n, k)
    (kq = min(n, k)). After gebrd of an M x N matrix with M >= N: Q by orgbr(A, tauq, vect='Q',
    k=N) on A (M x N: Q's first N columns), P^H by orgbr(A[:N], taup, vect='P', k=M) on a copy of
    A's first N rows. A column-major per matrix (gebrd's output is)."""
    v = 0 if flag(vect, "QP", "vect") == "Q" else 1
    if tau is None:
        raise ValueError("orgbr: tau is required (gebrd returns tauq and taup)")
    call, p, Am, batch, dtype = _factors_in_place(A, stream)
    m, n = Am.rows, Am.cols
    if k < 0 or (v == 0 and not m >= n >= min(m, k)) or (v == 1 and not n >= m >= min(n, k)):
        raise ValueError(f"orgbr: vect {vect!r} with A {m} x {n} and k = {k}: LAPACK needs "
                         + ("m >= n >= min(m, k)" if v == 0 else "n >= m >= min(n, k)"))
    kq = min(m, k) if v == 0 else min(n, k)
    tv = output(call, tau, batch_shape(Am.single, batch) + (kq,), dtype, "tau")
    if not _pointer_form(Am):
        call(f"shoal_{p}orgbr_strided_batched", v, m, n, k, Am.ptr, Am.ld, Am.stride, tv.ptr, kq, batch)
    else:
        taus = [tv.ptr + i * kq * tv.itemsize for i in range(batch)]
        pa, pt = call.device_arrays([Am.addresses(batch), taus])
        call(f"shoal_{p}orgbr_batched", v, m, n, k, pa, Am.ld, pt, batch)
    return A


def ormqr(A: Any, tau: Any, C: Any, *, side: str = "L", trans: str = "N", stream: Any = None) -> Any:
    """C <- op(Q) C (side 'L') or C op(Q) (side 'R') in place; returns C. Q = H_1 ... H_k, the
    reflectors geqrf left in A (q x k: q = C's rows for 'L', its columns for 'R'; k <= q) and
    tau (batch, k); torch.ormqr(A, tau, C, left, transpose) is side 'L' / 'R' with trans 'N' /
    'T' ('C' in the complex dtypes, where 'T' is Q^T without conjugation). One A and tau (2-D
    and 1-D) may serve a batch of C. A and C column-major per matrix (geqrf's output is)."""
    side = flag(side, "LR", "side")
    a, c = operand(A, "A", stream), operand(C, "C", stream)
    call = Call(flat(a, c), stream)
    p = precision(a, c, complex_ok=True)
    op = _OP[op_flag(trans, "trans", keep_c=p in "cz")]
    Am, Cm = matrices(a, "A"), matrices(c, "C")
    require_column_major(Am, "it holds geqrf's reflectors")
    require_column_major(Cm, "the product is written in place and a row-major C would be C^T")
    q, k = (Cm.rows if side == "L" else Cm.cols), Am.cols
    if Am.rows != q or k > q:
        raise ValueError(f"ormqr: A is {Am.rows} x {Am.cols}, C {Cm.rows} x {Cm.cols}; side {side!r} "
                         f"needs A {q} x k with k <= {q}")
    batch = common_batch([Cm], [Am])
    if tau is None:
        raise ValueError("ormqr: tau is required (geqrf returns it)")
    dtype = a[0].dtype if isinstance(a, list) else a.dtype
    t = output(call, tau, batch_shape(Am.single, Am.batch) + (k,), dtype, "tau")
    shared = Am.batch != batch  # one A and tau for every C
    sides = 0 if side == "L" else 1
    if not _pointer_form(Am, Cm):
        call(f"shoal_{p}ormqr_strided_batched", sides, op, Cm.rows, Cm.cols, k, Am.ptr, Am.ld,
             Am.stride_for(batch), t.ptr, 0 if shared else k, Cm.ptr, Cm.ld, Cm.stride, batch)
    else:
        taus = [t.ptr + (0 if shared else i * k * t.itemsize) for i in range(batch)]
        pa, pt, pc = call.device_arrays([Am.addresses(batch), taus, Cm.addresses(batch)])
        call(f"shoal_{p}ormqr_batched", sides, op, Cm.rows, Cm.cols, k, pa, Am.ld, pt, pc, Cm.ld, batch)
    return C


def gels(A: Any, B: Any, *, trans: str = "N", info: Any = None, stream: Any = None) -> Any:
    """Least squares or minimum-norm solutions of op(A) X = B through QR (LAPACK gels), in place:
    A (batch, m, n) <- its QR (m >= n) or LQ (m < n) factors; B (batch, max(m, n), nrhs) holds
    the right-hand sides in its first rows(op(A)) rows and gets X in its first cols(op(A)) rows
    (with the residual's components below where op(A) is tall). trans 'N', 'T' or 'C' ('C' the
    conjugate transpose in complex64 / complex128, the same as 'T' in the real dtypes).
    m, n <= 1024. Returns info (batch,) int32: j > 0 where the triangular factor's j-th diagonal
    element is zero (A not of full rank; B holds intermediate values there)."""
    a, b = operand(A, "A", stream), operand(B, "B", stream)
    call = Call(flat(a, b), stream)
    p = precision(a, b, complex_ok=True)
    op = _OP[op_flag(trans, "trans", keep_c=p in "cz")]
    Am, Bm = matrices(a, "A"), matrices(b, "B")
    require_column_major(Am, _WHY_FACTORS)
    require_column_major(Bm, _WHY_RHS)
    rows = max(Am.rows, Am.cols)
    if Bm.rows != rows:
        raise ValueError(f"gels: B has {Bm.rows} rows; A is {Am.rows} x {Am.cols}, so B needs max(m, n) = {rows}")
    batch = common_batch([Am, Bm], [])
    inf = _info(call, info, Am, batch)
    if not _pointer_form(Am, Bm):
        call(f"shoal_{p}gels_strided_batched", op, Am.rows, Am.cols, Bm.cols, Am.ptr, Am.ld, Am.stride,
             Bm.ptr, Bm.ld, Bm.stride, inf.ptr, batch)
    else:
        pa, pb = call.device_arrays([Am.addresses(batch), Bm.addresses(batch)])
        call(f"shoal_{p}gels_batched", op, Am.rows, Am.cols, Bm.cols, pa, Am.ld, pb, Bm.ld, inf.ptr, batch)
    return inf.obj


def orgqr(A: Any, tau: Any, *, stream: Any = None) -> Any:
    """A (batch, m, n) <- the first n columns of Q = H_1 ... H_k in place, from the reflectors
    geqrf left in A's first k columns and tau (batch, k), m >= n >= k (LAPACK orgqr; ungqr in the
    complex dtypes); returns A. torch.linalg.householder_product(A, tau) computes the same into
    a new array. A column-major per matrix (geqrf's output is)."""
    a = operand(A, "A", stream)
    if tau is None:
        raise ValueError("orgqr: tau is required (geqrf returns it)")
    t_shape = operand(tau, "tau", stream).shape
    call = Call(flat(a), stream)
    p = precision(a, complex_ok=True)
    Am = matrices(a, "A")
    require_column_major(Am, _WHY_FACTORS)
    k = t_shape[-1] if t_shape else 0
    if not (Am.rows >= Am.cols >= k):
        raise ValueError(f"orgqr: A is {Am.rows} x {Am.cols} with k = {k} reflectors; it needs m >= n >= k")
    batch = common_batch([Am], [])
    dtype = a[0].dtype if isinstance(a, list) else a.dtype
    t = output(call, tau, batch_shape(Am.single, batch) + (k,), dtype, "tau")
    if not _pointer_form(Am):
        call(f"shoal_{p}orgqr_strided_batched", Am.rows, Am.cols, k, Am.ptr, Am.ld, Am.stride, t.ptr, k, batch)
    else:
        taus = [t.ptr + i * k * t.itemsize for i in range(batch)]
        pa, pt = call.device_arrays([Am.addresses(batch), taus])
        call(f"shoal_{p}orgqr_batched", Am.rows, Am.cols, k, pa, Am.ld, pt, batch)
    return A
