"""Batched GEMM, GEMV and TRSV (shoal_?gemm_*, shoal_?gemv_*, shoal_?trsv_*).

Row-major operands cost nothing here: a row-major matrix is the column-major transpose, and
GEMM (C^T = op(B)^T op(A)^T), GEMV and TRSV (flip op, and uplo for TRSV) absorb it exactly.
In complex precisions a transposition turns op C into a conjugate without transpose, which
BLAS has no op for: in GEMM an operand with op 'C' must be read in C's memory order (both views
transposed, or neither: the two transpositions cancel and op C stays C); in GEMV and TRSV a
matrix with op 'C' must be column-major.
"""
from __future__ import annotations

from typing import Any

from ._common import batch_shape, flag, op_flag, operand, output, precision, flat, scalar
from ._context import Call
from ._layout import Matrices, common_batch, matrices, vectors

_OP = {"N": 0, "T": 1}
# (transposed, conjugated) relative to an operand's column-major view -> the C API's op
_OP_CODE = {(False, False): 0, (True, False): 1, (True, True): 2}


def _op_code(name: str, trans: str, want_transposed: bool, view_transposed: bool) -> int:
    """The op to apply to an operand's column-major view so that it gives op(X) (or op(X)^T,
    want_transposed flipped by the caller), X the logical matrix. trans 'C' conjugates."""
    code = _OP_CODE.get((want_transposed != view_transposed, trans == "C"))
    if code is None:
        raise ValueError(f"gemm: trans{name.lower()} 'C' with {name} and C in different memory "
                         "orders would need a conjugate without transpose, which BLAS has no op "
                         f"for; pass {name} and C both column-major or both row-major (e.g. "
                         "shoal.column_major(x) for a column-major copy)")
    return code


def vector_op(routine: str, trans: str, transposed: bool) -> int:
    """The C API's op (0 N, 1 T, 2 C) of a matrix-vector routine on A's column-major view: a
    row-major A (view A^T) flips N and T; op 'C' of a row-major A would be a conjugate without
    transpose (ValueError)."""
    if trans == "C":
        if transposed:
            raise ValueError(f"{routine}: trans 'C' with a row-major A would need a conjugate without "
                             "transpose, which BLAS has no op for; pass A column-major (e.g. "
                             "shoal.column_major(A))")
        return 2
    return int((trans == "T") != transposed)


def vector_trans(trans: Any, p: str) -> str:
    """'N', 'T' or 'C' for a matrix-vector call in precision p: 'C' is 'T' in s and d (BLAS)."""
    return trans if p in "cz" else op_flag(trans, "trans")


def gemm_plan(A: Matrices, B: Matrices, C: Matrices, transa: str, transb: str):
    """(first, second, op_first, op_second, m, n, k) for the column-major call computing
    C = op(A) op(B) in the caller's layouts. transa/transb are 'N', 'T' or 'C' ('C' only for
    complex operands: a real call passes 'T'); the ops come back as the C API's codes (0 N,
    1 T, 2 C). ValueError where an op 'C' operand and C are in different memory orders."""
    ta, tb = transa != "N", transb != "N"
    am, ak = (A.cols, A.rows) if ta else (A.rows, A.cols)
    bk, bn = (B.cols, B.rows) if tb else (B.rows, B.cols)
    if ak != bk or am != C.rows or bn != C.cols:
        raise ValueError(f"gemm: op(A) is {am} x {ak}, op(B) {bk} x {bn}, C {C.rows} x {C.cols}")
    if not C.transposed:
        return (A, B, _op_code("A", transa, ta, A.transposed),
                _op_code("B", transb, tb, B.transposed), am, bn, ak)
    # C stored row-major: compute C^T = op(B)^T op(A)^T into its column-major view; op(X)^T is
    # X^T (N), X (T) or conj(X) (C): transposed relative to X unless op(X) was.
    op_a = _op_code("A", transa, not ta, A.transposed)
    return B, A, _op_code("B", transb, not tb, B.transposed), op_a, bn, am, ak


def _readings(x: Any, name: str) -> dict[bool, Matrices]:
    """An operand's valid readings, keyed by `transposed` (both where a dimension of 1 makes
    the matrix column- and row-major at once)."""
    out = {}
    for prefer_row in (False, True):
        m = matrices(x, name, prefer_row)
        out.setdefault(m.transposed, m)
    return out


def _conjugate_orders(a: Any, b: Any, c: Any, transa: str, transb: str):
    """(A, B, C) read in one memory order for the operands whose op is 'C' and C (column-major
    where every one of them can be read so, else row-major where every one can); the others
    read as usual. Where no order serves all, C's usual reading (gemm_plan then says why)."""
    ra, rb, rc = _readings(a, "A"), _readings(b, "B"), _readings(c, "C")
    tied = [rc] + ([ra] if transa == "C" else []) + ([rb] if transb == "C" else [])
    common = [t for t in (False, True) if all(t in r for r in tied)]
    order = common[0] if common else min(rc)
    pick = lambda r, conj: r[order] if conj and order in r else r[min(r)]  # noqa: E731
    return pick(ra, transa == "C"), pick(rb, transb == "C"), rc.get(order, rc[min(rc)])


def gemm(A: Any, B: Any, C: Any = None, *, alpha: float | complex = 1.0,
         beta: float | complex = 0.0, transa: str = "N", transb: str = "N",
         stream: Any = None) -> Any:
    """C = alpha op(A) op(B) + beta C for every matrix of the batch; returns C.

    A, B, C: (batch, rows, cols) arrays, single matrices (shared by the batch when read-only), or
    lists of matrices (pointer-array batch). float32, float64, complex64 and complex128; op 'N',
    'T' or 'C' (the conjugate transpose: 'T' in the real dtypes); alpha and beta complex for the
    complex dtypes. C is written in place; with C None a new column-major C is returned (beta
    must then be 0; row-major where an operand with op 'C' is row-major, see below).

    Complex with op 'C': that operand must be in C's memory order (both row-major or both
    column-major), since the other way round needs a conjugate without transpose, which BLAS
    has no op for (ValueError)."""
    transa, transb = flag(transa, "NTC", "transa"), flag(transb, "NTC", "transb")
    a, b = operand(A, "A", stream), operand(B, "B", stream)
    call = Call(flat(a, b), stream)
    p = precision(a, b, complex_ok=True)
    if p not in "cz":  # as in BLAS, the conjugate transpose of a real matrix is its transpose
        transa, transb = op_flag(transa, "transa"), op_flag(transb, "transb")
    conj = "C" in (transa, transb)
    Am, Bm = matrices(a, "A"), matrices(b, "B")
    if C is None:
        if beta != 0:
            raise ValueError("gemm: C is needed when beta != 0")
        if Am.ptrs is not None or Bm.ptrs is not None:
            raise ValueError("gemm: pass C for pointer-array (list) batches")
        m = Am.cols if transa != "N" else Am.rows
        n = Bm.rows if transb != "N" else Bm.cols
        batch = max(Am.batch, Bm.batch)
        # op C ties an operand to C's memory order: a row-major one gets a row-major C
        row = conj and any(t == "C" and False not in _readings(x, nm)
                           for t, x, nm in ((transa, a, "A"), (transb, b, "B")))
        c = call.empty(batch_shape(Am.single and Bm.single, batch) + (m, n), a.dtype, "C",
                       column_major=not row)
    else:
        c = operand(C, "C", stream)
    p = precision(a, b, c, complex_ok=True)
    if conj:
        Am, Bm, Cm = _conjugate_orders(a, b, c, transa, transb)
    else:
        Cm = matrices(c, "C")
    batch = common_batch([Cm], [Am, Bm])
    first, second, op1, op2, m, n, k = gemm_plan(Am, Bm, Cm, transa, transb)
    alpha, beta = scalar(p, alpha, "alpha"), scalar(p, beta, "beta")
    if Cm.ptrs is None and first.ptrs is None and second.ptrs is None:
        call(f"shoal_{p}gemm_strided_batched", op1, op2, m, n, k, alpha,
             first.ptr, first.ld, first.stride_for(batch), second.ptr, second.ld,
             second.stride_for(batch), beta, Cm.ptr, Cm.ld, Cm.stride, batch)
    else:
        p1, p2, pc = call.device_arrays([first.addresses(batch), second.addresses(batch),
                                         Cm.addresses(batch)])
        call(f"shoal_{p}gemm_batched", op1, op2, m, n, k, alpha, p1, first.ld,
             p2, second.ld, beta, pc, Cm.ld, batch)
    return C if C is not None else c.obj


def gemv(A: Any, x: Any, y: Any = None, *, alpha: float | complex = 1.0,
         beta: float | complex = 0.0, trans: str = "N", stream: Any = None) -> Any:
    """y = alpha op(A) x + beta y; A (batch, m, n), x (batch, n or m), y (batch, m or n), or
    single ones, or lists. Returns y (new and contiguous when y is None; beta must then be 0).
    float32, float64, complex64, complex128; op 'N', 'T' or 'C' (the conjugate transpose: a
    complex A with op 'C' must be column-major); alpha and beta complex for the complex dtypes."""
    trans = flag(trans, "NTC", "trans")
    a, xi = operand(A, "A", stream), operand(x, "x", stream)
    call = Call(flat(a, xi), stream)
    trans = vector_trans(trans, precision(a, xi, complex_ok=True))
    Am, xv = matrices(a, "A"), vectors(xi, "x")
    out_len = Am.cols if trans != "N" else Am.rows
    if y is None:
        if beta != 0:
            raise ValueError("gemv: y is needed when beta != 0")
        if Am.ptrs is not None or xv.ptrs is not None:
            raise ValueError("gemv: pass y for pointer-array (list) batches")
        batch = max(Am.batch, xv.batch)
        yi = call.empty(batch_shape(Am.single and xv.single, batch) + (out_len,), a.dtype, "y")
    else:
        yi = operand(y, "y", stream)
    p = precision(a, xi, yi, complex_ok=True)
    yv = vectors(yi, "y")
    in_len = Am.rows if trans != "N" else Am.cols
    if xv.n != in_len or yv.n != out_len:
        raise ValueError(f"gemv: op(A) is {out_len} x {in_len}, x has {xv.n} elements, y {yv.n}")
    batch = common_batch([yv], [Am, xv])
    op = vector_op("gemv", trans, Am.transposed)
    alpha, beta = scalar(p, alpha, "alpha"), scalar(p, beta, "beta")
    m, n = Am.view_rows, Am.view_cols
    if yv.ptrs is None and Am.ptrs is None and xv.ptrs is None:
        call(f"shoal_{p}gemv_strided_batched", int(op), m, n, alpha, Am.ptr, Am.ld,
             Am.stride_for(batch), xv.ptr, xv.inc, xv.stride_for(batch), beta, yv.ptr, yv.inc,
             yv.stride, batch)
    else:
        pa, px, py = call.device_arrays([Am.addresses(batch), xv.addresses(batch),
                                         yv.addresses(batch)])
        call(f"shoal_{p}gemv_batched", int(op), m, n, alpha, pa, Am.ld, px, xv.inc, beta, py,
             yv.inc, batch)
    return y if y is not None else yi.obj


def trsv(A: Any, x: Any, *, uplo: str = "L", trans: str = "N", diag: str = "N",
         stream: Any = None) -> Any:
    """Solves op(A) x = b in place (x holds b on entry) with A triangular (uplo); returns x.
    diag='U' takes A's diagonal as ones. No singularity check (BLAS). float32, float64,
    complex64, complex128; op 'N', 'T' or 'C' (a complex A with op 'C' must be column-major)."""
    uplo, trans, diag = flag(uplo, "LU", "uplo"), flag(trans, "NTC", "trans"), flag(diag, "NU", "diag")
    a, xi = operand(A, "A", stream), operand(x, "x", stream)
    call = Call(flat(a, xi), stream)
    p = precision(a, xi, complex_ok=True)
    trans = vector_trans(trans, p)
    Am, xv = matrices(a, "A"), vectors(xi, "x")
    if Am.rows != Am.cols or xv.n != Am.rows:
        raise ValueError(f"trsv: A is {Am.rows} x {Am.cols}, x has {xv.n} elements")
    batch = common_batch([xv], [Am])
    # A row-major: its column-major view is A^T, whose other triangle holds A's (uplo flips).
    lower = (uplo == "L") != Am.transposed
    args = (0 if lower else 1, vector_op("trsv", trans, Am.transposed), 0 if diag == "N" else 1, Am.rows)
    if xv.ptrs is None and Am.ptrs is None:
        call(f"shoal_{p}trsv_strided_batched", *args, Am.ptr, Am.ld, Am.stride_for(batch),
             xv.ptr, xv.inc, xv.stride, batch)
    else:
        pa, px = call.device_arrays([Am.addresses(batch), xv.addresses(batch)])
        call(f"shoal_{p}trsv_batched", *args, pa, Am.ld, px, xv.inc, batch)
    return x
