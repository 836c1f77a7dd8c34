"""From an array's shape and strides to what shoal's C API takes (pointer, ld, batch stride).

Convention: shapes are logical, as in torch.linalg and numpy.linalg: a (batch, m, n) array holds
`batch` matrices of m rows and n columns, whatever its memory order. Each matrix must have unit
stride along its columns (column-major, shoal's native layout, used as is) or along its rows
(row-major: the storage is then read as the column-major transpose, and the routines that can
absorb a transpose exactly do so). The matrices of a batch are `stride` elements apart; a
read-only operand given as one matrix (2-D) is shared by the whole batch (stride 0).
A list of 2-D arrays is a pointer-array batch (shoal's `_batched` calls).
"""
from __future__ import annotations

from dataclasses import dataclass

from ._arrays import ArrayInfo


@dataclass(frozen=True, slots=True)
class Matrices:
    name: str
    rows: int                 # logical size of each matrix
    cols: int
    batch: int
    ptr: int                  # address of the first matrix
    stride: int               # elements from one matrix to the next
    ld: int                   # leading dimension of the column-major view
    transposed: bool          # the column-major view is X^T (X is stored row-major)
    itemsize: int
    single: bool              # given as one 2-D array (results then have no batch axis)
    ptrs: tuple[int, ...] | None = None   # pointer-array batch: one address per matrix

    @property
    def view_rows(self) -> int:
        return self.cols if self.transposed else self.rows

    @property
    def view_cols(self) -> int:
        return self.rows if self.transposed else self.cols

    def addresses(self, batch: int) -> list[int]:
        if self.ptrs is not None:
            return list(self.ptrs) if self.batch == batch else list(self.ptrs) * batch
        step = self.stride * self.itemsize if self.batch == batch else 0
        return [self.ptr + i * step for i in range(batch)]

    def stride_for(self, batch: int) -> int:
        """The batch stride to pass for a call over `batch` matrices (0: one shared matrix)."""
        return self.stride if self.batch == batch else 0


@dataclass(frozen=True, slots=True)
class Vectors:
    name: str
    n: int
    batch: int
    ptr: int                  # lowest address of the first vector (BLAS convention)
    stride: int
    inc: int                  # BLAS increment; negative: stored backwards
    itemsize: int
    single: bool
    ptrs: tuple[int, ...] | None = None

    def addresses(self, batch: int) -> list[int]:
        if self.ptrs is not None:
            return list(self.ptrs) if self.batch == batch else list(self.ptrs) * batch
        step = self.stride * self.itemsize if self.batch == batch else 0
        return [self.ptr + i * step for i in range(batch)]

    def stride_for(self, batch: int) -> int:
        return self.stride if self.batch == batch else 0


def matrix_layout(rows: int, cols: int, row_stride: int, col_stride: int,
                  name: str = "matrix", prefer_row: bool = False) -> tuple[bool, int]:
    """(transposed, ld) of one matrix from its element strides. Where a size-1 dimension makes
    both readings valid, column-major is chosen unless prefer_row."""
    col_ok = (rows <= 1 or row_stride == 1) and (cols <= 1 or col_stride >= max(1, rows))
    row_ok = (cols <= 1 or col_stride == 1) and (rows <= 1 or row_stride >= max(1, cols))
    if col_ok and not (prefer_row and row_ok):
        return False, col_stride if cols > 1 else max(1, rows)
    if row_ok:
        return True, row_stride if rows > 1 else max(1, cols)
    raise ValueError(
        f"{name}: element strides ({row_stride}, {col_stride}) for a {rows} x {cols} matrix are "
        "neither column-major (1, ld >= rows) nor row-major (ld >= cols, 1); make it contiguous "
        "(e.g. x.contiguous(), or shoal.column_major(x))")


def matrices(arg: ArrayInfo | list[ArrayInfo], name: str, prefer_row: bool = False) -> Matrices:
    if isinstance(arg, list):
        return _matrix_list(arg, name)
    if len(arg.shape) not in (2, 3):
        raise ValueError(f"{name} has shape {arg.shape}: expected (rows, cols) or (batch, rows, cols)")
    single = len(arg.shape) == 2
    batch, (rows, cols) = (1 if single else arg.shape[0]), arg.shape[-2:]
    transposed, ld = matrix_layout(rows, cols, arg.strides[-2], arg.strides[-1], name, prefer_row)
    view_cols = rows if transposed else cols
    if single or batch == 1:
        stride = ld * max(1, view_cols)
    else:
        stride = arg.strides[0]
        if stride < 0:
            raise ValueError(f"{name} has a negative batch stride ({stride})")
    return Matrices(name, rows, cols, batch, arg.ptr, stride, ld, transposed, arg.itemsize, single)


def _matrix_list(items: list[ArrayInfo], name: str) -> Matrices:
    if not items:
        raise ValueError(f"{name} is an empty list")
    for i, a in enumerate(items):
        if len(a.shape) != 2:
            raise ValueError(f"{name}[{i}] has shape {a.shape}: a list holds 2-D matrices")
    ms = same_order(items, name)
    first = None
    for i, m in enumerate(ms):
        if first is None:
            first = m
        elif (m.rows, m.cols, m.transposed, m.ld) != (first.rows, first.cols, first.transposed, first.ld):
            raise ValueError(f"{name}[{i}] differs from {name}[0] in shape, memory order or leading "
                             "dimension; a pointer-array batch shares them (see gemm_vbatched for "
                             "matrices of different sizes)")
    assert first is not None
    return Matrices(name, first.rows, first.cols, len(items), first.ptr, 0, first.ld,
                    first.transposed, first.itemsize, False, tuple(a.ptr for a in items))


def same_order(items: list[ArrayInfo], name: str) -> list[Matrices]:
    """The matrices of a list read in one memory order (as a pointer-array or variable-size call
    needs): column-major if every one can be read so, else row-major if every one can."""
    ms = [matrices(a, f"{name}[{i}]") for i, a in enumerate(items)]
    if any(m.transposed for m in ms):
        ms = [matrices(a, f"{name}[{i}]", prefer_row=True) for i, a in enumerate(items)]
        if not all(m.transposed for m in ms):
            raise ValueError(f"the matrices of {name} mix column-major and row-major storage; "
                             "one call needs one memory order per operand")
    return ms


def vectors(arg: ArrayInfo | list[ArrayInfo], name: str) -> Vectors:
    if isinstance(arg, list):
        if not arg:
            raise ValueError(f"{name} is an empty list")
        vs = [vectors(a, f"{name}[{i}]") for i, a in enumerate(arg)]
        for i, v in enumerate(vs):
            if not v.single:
                raise ValueError(f"{name}[{i}] is not 1-D: a list holds vectors")
            if (v.n, v.inc) != (vs[0].n, vs[0].inc):
                raise ValueError(f"{name}[{i}] differs from {name}[0] in length or increment")
        return Vectors(name, vs[0].n, len(vs), vs[0].ptr, 0, vs[0].inc, vs[0].itemsize, False,
                       tuple(v.ptr for v in vs))
    if len(arg.shape) not in (1, 2):
        raise ValueError(f"{name} has shape {arg.shape}: expected (n,) or (batch, n)")
    single = len(arg.shape) == 1
    batch, n = (1 if single else arg.shape[0]), arg.shape[-1]
    inc = arg.strides[-1] if n > 1 else 1
    if inc == 0:
        raise ValueError(f"{name} has element stride 0: a vector needs distinct elements")
    # BLAS takes the lowest address with a negative increment.
    ptr = arg.ptr + (n - 1) * inc * arg.itemsize if inc < 0 else arg.ptr
    if single or batch == 1:
        stride = abs(inc) * max(1, n)
    else:
        stride = arg.strides[0]
        if stride < 0:
            raise ValueError(f"{name} has a negative batch stride ({stride})")
    return Vectors(name, n, batch, ptr, stride, inc, arg.itemsize, single)


def common_batch(written: list[Matrices | Vectors], read: list[Matrices | Vectors]) -> int:
    """The batch of a call: that of the written operands; a read-only one may be a single
    matrix or vector shared by all (not a list: a list's length is its batch)."""
    batch = written[0].batch
    for op in written:
        if op.batch != batch:
            raise ValueError(f"{op.name} holds {op.batch} matrices, {written[0].name} {batch}")
        _check_apart(op)
    for op in read:
        if op.batch != batch and not (op.batch == 1 and op.ptrs is None):
            raise ValueError(f"{op.name} holds {op.batch} matrices where the call has {batch}")
    return batch


def _check_apart(op: Matrices | Vectors) -> None:
    """Written operands must not overlap: each matrix needs its own storage."""
    if op.batch <= 1 or op.ptrs is not None:
        return
    if isinstance(op, Matrices):
        need = op.ld * op.view_cols
    else:
        need = abs(op.inc) * (op.n - 1) + 1
        # interleaved vectors (a column-major (batch, n) array: batch stride 1, increment
        # batch) share an address range but no element: vector i's elements are i mod |inc|
        if op.stride >= 1 and abs(op.inc) >= op.stride * (op.batch - 1) + 1:
            return
    if op.stride < need:
        raise ValueError(f"{op.name} is written, but its {op.batch} matrices overlap (batch stride "
                         f"{op.stride} < {need} elements); give it its own storage")


def require_column_major(op: Matrices, why: str) -> None:
    if op.transposed:  # matrix_layout picks column-major wherever that reading is valid
        raise ValueError(
            f"{op.name} must be column-major per matrix ({why}); this one is row-major. Use "
            f"shoal.column_major({op.name}) for a column-major copy (for torch: x.mT.contiguous().mT)")
