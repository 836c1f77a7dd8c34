"""Batched TRSM, SYRK and HERK (shoal_?trsm_*, shoal_?syrk_*, shoal_?herk_*: the spec routines
of include/shoal_routines.h).

Row-major operands cost nothing here either. A row-major matrix's column-major view is its
transpose, and both routines absorb that exactly:
  - trsm, A row-major: op(A) = op'(A^T) with the op flipped, and A^T holds A's triangle in the
    other triangle (uplo flips); B row-major: op(A) X = alpha B is X^T op(A)^T = alpha B^T, a
    solve on B's view from the other side with the op flipped (and m, n swapped).
    In complex precisions a transposition turns op C into a conjugate without transpose, which
    BLAS has no op for: trsm with trans 'C' needs A and B in the same memory order (both views
    transposed, the two conjugates cancel: op(A)^T = conj(A) = (A^T)^H).
  - syrk, A row-major: the op flips; C row-major: C is symmetric where it is defined, so its
    view C^T holds the same update in the other triangle (uplo flips).
  - herk, both row-major: with S = A^T (A's view), C^T = alpha conj(A) A^T + beta C^T
    = alpha S^H S + beta C^T for op N (and alpha S S^H + ... for op C): the op flips between N
    and C, the uplo flips. One of A and C row-major would need conj(A) without a transpose,
    which BLAS has no op for: refused, as trsm's op C is.
"""
from __future__ import annotations

from typing import Any

from ._common import batch_shape, flag, flat, op_flag, operand, precision, real_scalar, scalar
from ._context import Call
from ._layout import Matrices, common_batch, matrices


def _pointer_form(*ops: Matrices) -> bool:
    return any(op.ptrs is not None for op in ops)


def trsm(A: Any, B: Any, *, side: str = "L", uplo: str = "L", trans: str = "N", diag: str = "N",
         alpha: float | complex = 1.0, stream: Any = None) -> Any:
    """Solves op(A) X = alpha B (side 'L') or X op(A) = alpha B (side 'R') in place: B
    (batch, m, n) is overwritten by X and returned. A is triangular (uplo), t x t with t = m
    (left) or n (right); only its uplo triangle is read, and with diag='U' not its diagonal
    (taken as ones). A single A (2-D) serves the whole batch. No singularity check (BLAS).
    float32, float64, complex64 and complex128; trans 'C' (conjugate transpose) is 'T' in the
    real dtypes; alpha complex for the complex ones."""
    side, uplo = flag(side, "LR", "side"), flag(uplo, "LU", "uplo")
    a, b = operand(A, "A", stream), operand(B, "B", stream)
    call = Call(flat(a, b), stream)
    p = precision(a, b, complex_ok=True)
    trans, diag = op_flag(trans, "trans", keep_c=p in "cz"), flag(diag, "NU", "diag")
    Am, Bm = matrices(a, "A"), matrices(b, "B")
    t = Bm.rows if side == "L" else Bm.cols
    if Am.rows != Am.cols or Am.rows != t:
        raise ValueError(f"trsm: A is {Am.rows} x {Am.cols}, B {Bm.rows} x {Bm.cols}; side "
                         f"{side!r} needs A {t} x {t}")
    batch = common_batch([Bm], [Am])
    left = (side == "L") != Bm.transposed
    lower = (uplo == "L") != Am.transposed
    if trans == "C":
        if Am.transposed != Bm.transposed:
            raise ValueError("trsm: trans 'C' with A and B in different memory orders would need a "
                             "conjugate without transpose; pass both row-major or both column-major")
        op = 2
    else:
        op = int(((trans == "T") != Am.transposed) != Bm.transposed)  # not a chained comparison
    args = (0 if left else 1, 0 if lower else 1, op, 0 if diag == "N" else 1,
            Bm.view_rows, Bm.view_cols, scalar(p, alpha, "alpha"))
    if not _pointer_form(Am, Bm):
        call(f"shoal_{p}trsm_strided_batched", *args, Am.ptr, Am.ld, Am.stride_for(batch),
             Bm.ptr, Bm.ld, Bm.stride, batch)
    else:
        pa, pb = call.device_arrays([Am.addresses(batch), Bm.addresses(batch)])
        call(f"shoal_{p}trsm_batched", *args, pa, Am.ld, pb, Bm.ld, batch)
    return B


def syrk(A: Any, C: Any = None, *, uplo: str = "L", trans: str = "N", alpha: float = 1.0,
         beta: float = 0.0, stream: Any = None) -> Any:
    """C = alpha op(A) op(A)^T + beta C on the uplo triangle of C only (op(A) n x k, C n x n):
    the other triangle is neither read nor written. Returns C; with C None a new column-major
    C whose other triangle is zero (beta must then be 0). A single A (2-D) serves the batch."""
    return _rank_k("syrk", A, C, uplo, op_flag(trans, "trans"), alpha, beta, stream)


def herk(A: Any, C: Any = None, *, uplo: str = "L", trans: str = "N", alpha: float = 1.0,
         beta: float = 0.0, stream: Any = None) -> Any:
    """C = alpha op(A) op(A)^H + beta C on the uplo triangle of C only (op(A) = A, n x k, for
    trans 'N'; A^H for 'C'; 'T' is refused, as in BLAS), complex64 and complex128, alpha and
    beta real. The other triangle is neither read nor written; C's diagonal comes out real (the
    imaginary part it had is not read). Returns C; with C None a new C in A's memory order whose
    other triangle is zero (beta must then be 0). A single A (2-D) serves the batch. A and C in
    the same memory order (both row-major or both column-major)."""
    return _rank_k("herk", A, C, uplo, flag(trans, "NC", "trans"), alpha, beta, stream)


def _rank_k(routine: str, A: Any, C: Any, uplo: str, trans: str, alpha: Any, beta: Any,
            stream: Any) -> Any:
    """syrk and herk: trans 'N', or 'T' (syrk) / 'C' (herk) for op(A) = A's (conjugate) transpose."""
    herm = routine == "herk"
    uplo = flag(uplo, "LU", "uplo")
    a = operand(A, "A", stream)
    call = Call(flat(a), stream)
    Am = matrices(a, "A")
    n, k = (Am.cols, Am.rows) if trans != "N" else (Am.rows, Am.cols)
    if C is None:
        if beta != 0:
            raise ValueError(f"{routine}: C is needed when beta != 0")
        if Am.ptrs is not None:
            raise ValueError(f"{routine}: pass C for pointer-array (list) batches")
        # herk works on both views only where A's and C's memory orders agree
        c = call.empty(batch_shape(Am.single, Am.batch) + (n, n), a.dtype, "C",
                       column_major=not (herm and Am.transposed), zero=True)
    else:
        c = operand(C, "C", stream)
    p = precision(a, c, complex_ok=herm)
    if herm and p not in "cz":
        raise TypeError(f"herk: complex64 or complex128 operands (syrk serves {a.dtype})")
    Cm = matrices(c, "C")
    if (Cm.rows, Cm.cols) != (n, n):
        raise ValueError(f"{routine}: op(A) is {n} x {k}, so C must be {n} x {n}; it is "
                         f"{Cm.rows} x {Cm.cols}")
    # (a 1 x 1 C has no memory order to speak of: its one element, alpha |a|^2 + beta c, is the
    # same either way, so only n > 1 is refused)
    if herm and Am.transposed != Cm.transposed and n > 1:
        raise ValueError("herk: A and C in different memory orders would need a conjugate without "
                         "transpose; pass both row-major or both column-major")
    batch = common_batch([Cm], [Am])
    lower = (uplo == "L") != Cm.transposed
    # SHOAL_OP_T (syrk) or SHOAL_OP_C (herk) where op(A) is the transpose of A's view
    op = (2 if herm else 1) if (trans != "N") != Am.transposed else 0
    def to_c(value: Any, name: str) -> Any:   # herk's scalars are real in every precision
        return real_scalar(value, name, routine) if herm else scalar(p, value, name)
    args = (0 if lower else 1, op, n, k, to_c(alpha, "alpha"))
    beta = to_c(beta, "beta")
    if not _pointer_form(Am, Cm):
        call(f"shoal_{p}{routine}_strided_batched", *args, Am.ptr, Am.ld, Am.stride_for(batch), beta,
             Cm.ptr, Cm.ld, Cm.stride, batch)
    else:
        pa, pc = call.device_arrays([Am.addresses(batch), Cm.addresses(batch)])
        call(f"shoal_{p}{routine}_batched", *args, pa, Am.ld, beta, pc, Cm.ld, batch)
    return C if C is not None else c.obj
