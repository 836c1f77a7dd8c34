"""What each routine passes to libshoal, checked against a fake library that logs its calls
(no GPU, nothing dereferenced): argument order, transposes absorbed, strides, outputs, errors."""
import array
import struct

import pytest

import shoal
from _fakes import FakeArray, args_of, col_batch, row_batch, upload


def P(x):
    return hex(x)


def ints(buf: bytes, fmt="q"):
    return list(array.array(fmt, buf))


# ---- GEMM -------------------------------------------------------------------------------

def test_gemm_column_major_strided(fake):
    A, B, C = col_batch(5, 4, 3), col_batch(5, 3, 2), col_batch(5, 4, 2)
    assert shoal.gemm(A, B, C, alpha=2.0, beta=0.5) is C
    assert args_of(fake.last()) == ("shoal_dgemm_strided_batched", [
        "0", "0", "4", "2", "3", "2", P(A.ptr), "4", "12", P(B.ptr), "3", "6", "0.5",
        P(C.ptr), "4", "8", "5"])


def test_gemm_row_major_computes_the_transpose(fake):
    A, B, C = row_batch(5, 4, 3), row_batch(5, 3, 2), row_batch(5, 4, 2)
    shoal.gemm(A, B, C)
    # C^T (2 x 4) = B^T (2 x 3, B's storage, ld 2) * A^T (3 x 4, A's storage, ld 3)
    assert args_of(fake.last()) == ("shoal_dgemm_strided_batched", [
        "0", "0", "2", "4", "3", "1", P(B.ptr), "2", "6", P(A.ptr), "3", "12", "0",
        P(C.ptr), "2", "8", "5"])


@pytest.mark.parametrize("transa, transb", [("N", "N"), ("T", "N"), ("N", "T"), ("T", "T")])
@pytest.mark.parametrize("orders", ["ccc", "rcc", "crc", "ccr", "rrr", "rrc", "crr"])
def test_gemm_transposes_are_absorbed(fake, transa, transb, orders):
    """Whatever the memory orders, the call computes C = op(A) op(B): checked by evaluating
    the column-major call on symbolic matrices."""
    m, n, k, b = 4, 2, 3, 3
    mk = {"c": col_batch, "r": row_batch}
    A = mk[orders[0]](b, *((k, m) if transa == "T" else (m, k)))
    B = mk[orders[1]](b, *((n, k) if transb == "T" else (k, n)))
    C = mk[orders[2]](b, m, n)
    shoal.gemm(A, B, C, transa=transa, transb=transb)
    name, a = args_of(fake.last())
    op1, op2, mm, nn, kk = (int(v) for v in a[:5])
    first, ld1, second, ld2, ldc = int(a[6], 16), int(a[7]), int(a[9], 16), int(a[10]), int(a[14])

    def element(arr, i, j):  # logical element (i, j) of matrix 0 as (array, address)
        return arr.ptr + (i * arr.strides[1] + j * arr.strides[2]) * 8

    def view(ptr, ld, op, i, j):  # element (i, j) of op(column-major matrix at ptr)
        r, c = (j, i) if op else (i, j)
        return ptr + (r + c * ld) * 8

    # Every product term of the call's C element (i, j) must be the right A and B elements.
    for i in range(mm):
        for j in range(nn):
            cview = C.ptr + (i + j * ldc) * 8
            for l in range(kk):
                got = {view(first, ld1, op1, i, l), view(second, ld2, op2, l, j)}
                # which logical C element this is
                ci, cj = [(ii, jj) for ii in range(m) for jj in range(n) if element(C, ii, jj) == cview][0]
                a_el = element(A, *((l, ci) if transa == "T" else (ci, l)))
                b_el = element(B, *((cj, l) if transb == "T" else (l, cj)))
                assert got == {a_el, b_el}


def test_gemm_allocates_a_column_major_c(fake):
    A, B = col_batch(5, 4, 3), row_batch(5, 3, 2)
    C = shoal.gemm(A, B)
    assert fake.allocated[-1][0] == "C" and C.shape == (5, 4, 2) and C.strides == (8, 1, 4)
    assert args_of(fake.last())[1][13:16] == [P(C.ptr), "4", "8"]
    with pytest.raises(ValueError, match="beta"):
        shoal.gemm(A, B, beta=1.0)


def test_gemm_shares_a_single_matrix(fake):
    A, B, C = FakeArray((4, 3), (1, 4)), col_batch(5, 3, 2), col_batch(5, 4, 2)
    shoal.gemm(A, B, C)
    assert args_of(fake.last())[1][6:9] == [P(A.ptr), "4", "0"]


def test_gemm_lists_use_pointer_arrays(fake):
    As = [FakeArray((4, 3), (1, 4)) for _ in range(3)]
    Bs = col_batch(3, 3, 2)
    Cs = [FakeArray((4, 2), (1, 4)) for _ in range(3)]
    shoal.gemm(As, Bs, Cs)
    name, a = args_of(fake.last())
    assert name == "shoal_dgemm_batched" and a[:5] == ["0", "0", "4", "2", "3"]
    assert ints(upload(fake, int(a[6], 16))[:24]) == [x.ptr for x in As]
    assert ints(upload(fake, int(a[8], 16))[:24]) == [Bs.ptr + i * 48 for i in range(3)]
    assert ints(upload(fake, int(a[11], 16))[:24]) == [x.ptr for x in Cs]
    assert a[7] == "4" and a[9] == "3" and a[12] == "4" and a[13] == "3"


def test_torch_pointer_arrays_are_uploaded_without_a_sync(monkeypatch):
    """torch's .to('cuda') from pageable memory synchronizes the stream after the copy; the
    pointer arrays go from pinned memory with non_blocking=True instead."""
    import sys
    import types
    from shoal import _arrays
    log = []

    class Host:
        def __init__(self, data):
            self.data = data

        def pin_memory(self):
            log.append("pin_memory")
            return self

        def to(self, device, non_blocking=False):
            log.append((device, non_blocking))
            return self

        def data_ptr(self):
            return 0x1234

    torch = types.SimpleNamespace(uint8="uint8", frombuffer=lambda b, dtype: Host(bytes(b)))
    monkeypatch.setitem(sys.modules, "torch", torch)
    buf, address = _arrays.device_bytes("torch", 1, b"pointers")
    assert log == ["pin_memory", ("cuda:1", True)]
    assert (buf.data, address) == (b"pointers", 0x1234)


def test_gemm_precision_and_dtype_errors(fake):
    shoal.gemm(col_batch(2, 2, 2, "f4"), col_batch(2, 2, 2, "f4"), col_batch(2, 2, 2, "f4"))
    assert fake.last()[0] == "shoal_sgemm_strided_batched"
    with pytest.raises(TypeError, match="share a dtype"):
        shoal.gemm(col_batch(2, 2, 2, "f4"), col_batch(2, 2, 2), col_batch(2, 2, 2))
    with pytest.raises(TypeError, match="float32 and float64"):
        shoal.gemm(col_batch(2, 2, 2, "f2"), col_batch(2, 2, 2, "f2"), col_batch(2, 2, 2, "f2"))


def test_gemm_shape_and_flag_errors(fake):
    with pytest.raises(ValueError, match="op\\(A\\) is 4 x 3, op\\(B\\) 2 x 2"):
        shoal.gemm(col_batch(2, 4, 3), col_batch(2, 2, 2), col_batch(2, 4, 2))
    with pytest.raises(ValueError, match="transa='X'"):
        shoal.gemm(col_batch(2, 2, 2), col_batch(2, 2, 2), col_batch(2, 2, 2), transa="X")
    with pytest.raises(TypeError, match="not a CUDA array"):
        shoal.gemm([[1.0]], col_batch(1, 1, 1), col_batch(1, 1, 1))
    assert fake.routine_calls() == []


def test_conjugate_transpose_is_the_transpose_for_real_dtypes(fake):
    shoal.gemm(col_batch(2, 3, 4), col_batch(2, 2, 3), col_batch(2, 4, 2), transa="C", transb="c")
    conj = args_of(fake.last())
    shoal.gemm(col_batch(2, 3, 4), col_batch(2, 2, 3), col_batch(2, 4, 2), transa="T", transb="T")
    assert conj[1][:2] == ["1", "1"] and conj[1][:5] == args_of(fake.last())[1][:5]


# ---- GEMM, complex -----------------------------------------------------------------------

def complex_args(args):
    """A logged call's arguments with each complex scalar's "(re", "im)" halves joined back
    into one complex value (the fake's log splits them at the comma)."""
    out, i = [], 0
    while i < len(args):
        if args[i].startswith("("):
            out.append(complex(float(args[i][1:]), float(args[i + 1][:-1])))
            i += 2
        else:
            out.append(args[i])
            i += 1
    return out


CMAKE = {"c": col_batch, "r": row_batch}


def complex_gemm_operands(transa, transb, orders, m=4, n=2, k=3, b=3, dtype="c16"):
    A = CMAKE[orders[0]](b, *((k, m) if transa != "N" else (m, k)), dtype)
    B = CMAKE[orders[1]](b, *((n, k) if transb != "N" else (k, n)), dtype)
    C = CMAKE[orders[2]](b, m, n, dtype)
    return A, B, C


def check_complex_gemm_call(args, A, B, C, transa, transb, itemsize=16):
    """Evaluates the logged column-major call on symbolic matrices: every product term of every
    element of C must be (A's element, conjugated iff transa 'C') x (B's, iff transb 'C')."""
    op1, op2, mm, nn, kk = (int(v) for v in args[:5])
    first, ld1, second, ld2, ldc = int(args[6], 16), int(args[7]), int(args[9], 16), int(args[10]), int(args[14])
    m, n = C.shape[1:]

    def element(arr, i, j):  # address of logical element (i, j) of matrix 0
        return arr.ptr + (i * arr.strides[1] + j * arr.strides[2]) * itemsize

    def view(ptr, ld, op, i, j):  # (address, conjugated) of element (i, j) of op(view at ptr)
        r, c = (j, i) if op else (i, j)
        return ptr + (r + c * ld) * itemsize, op == 2

    where = {element(C, i, j): (i, j) for i in range(m) for j in range(n)}
    seen = set()
    for i in range(mm):
        for j in range(nn):
            ci, cj = where[C.ptr + (i + j * ldc) * itemsize]
            seen.add((ci, cj))
            for l in range(kk):
                got = {view(first, ld1, op1, i, l), view(second, ld2, op2, l, j)}
                a_el = element(A, *((l, ci) if transa != "N" else (ci, l)))
                b_el = element(B, *((cj, l) if transb != "N" else (l, cj)))
                assert got == {(a_el, transa == "C"), (b_el, transb == "C")}, (i, j, l)
    assert len(seen) == m * n


@pytest.mark.parametrize("transa", "NTC")
@pytest.mark.parametrize("transb", "NTC")
@pytest.mark.parametrize("orders", ["ccc", "rcc", "crc", "rrc", "ccr", "rcr", "crr", "rrr"])
def test_gemm_complex_ops_in_every_memory_order(fake, transa, transb, orders):
    """C = op(A) op(B) with N, T and C in every memory order: exact where it can be expressed;
    op 'C' on an operand stored in the other order than C would need a conjugate without
    transpose and is refused, naming the operand."""
    A, B, C = complex_gemm_operands(transa, transb, orders)
    bad = [x for x, t, o in (("A", transa, orders[0]), ("B", transb, orders[1]))
           if t == "C" and o != orders[2]]
    if bad:
        with pytest.raises(ValueError, match=f"trans{bad[0].lower()} 'C' with {bad[0]} and C in "
                                             "different memory orders.*conjugate without transpose"):
            shoal.gemm(A, B, C, transa=transa, transb=transb)
        assert fake.routine_calls() == []
        return
    assert shoal.gemm(A, B, C, transa=transa, transb=transb, alpha=2 - 1j, beta=0.5j) is C
    name, args = args_of(fake.last())
    args = complex_args(args)
    assert name == "shoal_zgemm_strided_batched"
    assert args[5] == 2 - 1j and args[12] == 0.5j and args[-1] == "3"
    check_complex_gemm_call(args, A, B, C, transa, transb)


def test_gemm_complex_column_major_call(fake):
    A, B, C = col_batch(5, 4, 3, "c8", ld=6), col_batch(5, 2, 3, "c8"), col_batch(5, 4, 2, "c8")
    shoal.gemm(A, B, C, transb="C", alpha=1, beta=-2 + 0.25j)
    assert args_of(fake.last()) == ("shoal_cgemm_strided_batched", [
        "0", "2", "4", "2", "3", "(1", "0)", P(A.ptr), "6", "18", P(B.ptr), "2", "6", "(-2",
        "0.25)", P(C.ptr), "4", "8", "5"])


def test_gemm_complex_row_major_c_keeps_op_c(fake):
    """All row-major: C^T = op(B)^T op(A)^T with op(X)^T = conj(X) = (X's view)^H for op C."""
    A, B, C = row_batch(2, 3, 4, "c16"), row_batch(2, 2, 3, "c16"), row_batch(2, 4, 2, "c16")
    shoal.gemm(A, B, C, transa="C", transb="C")
    name, a = args_of(fake.last())
    assert name == "shoal_zgemm_strided_batched"
    assert a[:5] == ["2", "2", "2", "4", "3"] and a[7] == P(B.ptr) and a[10] == P(A.ptr)


def test_gemm_complex_op_c_reads_an_ambiguous_matrix_in_the_tied_order(fake):
    """A matrix with a dimension of 1 is column- and row-major at once (read column-major by
    default): under op C it, or C, is read in the order that lets the call be expressed."""
    # A 1 x 4 (k = 1) either order, C 4 x 2 row-major: A read row-major
    A, B, C = row_batch(2, 1, 4, "c16"), col_batch(2, 1, 2, "c16"), row_batch(2, 4, 2, "c16")
    shoal.gemm(A, B, C, transa="C")
    check_complex_gemm_call(complex_args(args_of(fake.last())[1]), A, B, C, "C", "N")
    # C 4 x 1 either order, A 3 x 4 row-major: C read row-major
    A, B, C = row_batch(2, 3, 4, "c16"), col_batch(2, 3, 1, "c16"), row_batch(2, 4, 1, "c16")
    shoal.gemm(A, B, C, transa="C")
    check_complex_gemm_call(complex_args(args_of(fake.last())[1]), A, B, C, "C", "N")
    # B 2 x 1 (k = 1) either order under op C, C column-major: B read column-major
    A, B, C = row_batch(2, 4, 1, "c16"), row_batch(2, 2, 1, "c16"), col_batch(2, 4, 2, "c16")
    shoal.gemm(A, B, C, transb="C")
    check_complex_gemm_call(complex_args(args_of(fake.last())[1]), A, B, C, "N", "C")


def test_gemm_complex_new_c_follows_op_c_operands(fake):
    """With C None the new C is column-major, unless an operand with op C is row-major: then C
    is row-major, so that the call can be expressed."""
    A, B = col_batch(2, 3, 4, "c8"), row_batch(2, 3, 2, "c8")
    C = shoal.gemm(A, B, transa="C")
    assert C.shape == (2, 4, 2) and C.strides == (8, 1, 4)
    check_complex_gemm_call(complex_args(args_of(fake.last())[1]), A, B, C, "C", "N", 8)
    A, B = row_batch(2, 3, 4, "c8"), col_batch(2, 3, 2, "c8")
    C = shoal.gemm(A, B, transa="C")
    assert C.shape == (2, 4, 2) and C.strides == (8, 2, 1)
    assert args_of(fake.last())[0] == "shoal_cgemm_strided_batched"
    check_complex_gemm_call(complex_args(args_of(fake.last())[1]), A, B, C, "C", "N", 8)
    with pytest.raises(ValueError, match="conjugate without transpose"):
        shoal.gemm(row_batch(2, 3, 4, "c8"), col_batch(2, 2, 3, "c8"), transa="C", transb="C")


def test_gemm_complex_lists_use_pointer_arrays(fake):
    As = [FakeArray((4, 3), (1, 4), "c8") for _ in range(3)]
    Bs = col_batch(3, 2, 3, "c8")
    Cs = [FakeArray((4, 2), (1, 4), "c8") for _ in range(3)]
    shoal.gemm(As, Bs, Cs, transb="C", alpha=1j)
    name, a = args_of(fake.last())
    assert name == "shoal_cgemm_batched" and a[:7] == ["0", "2", "4", "2", "3", "(0", "1)"]
    assert ints(upload(fake, int(a[7], 16))[:24]) == [x.ptr for x in As]
    assert ints(upload(fake, int(a[9], 16))[:24]) == [Bs.ptr + i * 6 * 8 for i in range(3)]
    assert ints(upload(fake, int(a[13], 16))[:24]) == [x.ptr for x in Cs]
    assert a[8] == "4" and a[10] == "2" and a[14] == "4" and a[15] == "3"
    with pytest.raises(ValueError, match="transa 'C' with A and C in different memory orders"):
        shoal.gemm([FakeArray((3, 4), (4, 1), "c8") for _ in range(3)], col_batch(3, 3, 2, "c8"),
                   Cs, transa="C")


def test_gemm_complex_errors_and_real_calls_unchanged(fake):
    with pytest.raises(TypeError, match="share a dtype"):
        shoal.gemm(col_batch(2, 2, 2, "c8"), col_batch(2, 2, 2, "c16"), col_batch(2, 2, 2, "c16"))
    with pytest.raises(TypeError, match="share a dtype"):
        shoal.gemm(col_batch(2, 2, 2, "c8"), col_batch(2, 2, 2, "c8"), col_batch(2, 2, 2, "f4"))
    with pytest.raises(TypeError, match="needs complex operands"):
        shoal.gemm(col_batch(2, 2, 2), col_batch(2, 2, 2), col_batch(2, 2, 2), alpha=1 + 1j)
    with pytest.raises(ValueError, match="beta"):
        shoal.gemm(col_batch(2, 2, 2, "c8"), col_batch(2, 2, 2, "c8"), beta=1j)
    assert fake.routine_calls() == []
    # real operands: 'C' is 'T' in every memory order (no refusal), a complex scalar with no
    # imaginary part is real
    for orders in ("rcc", "ccr", "crr"):
        A, B, C = complex_gemm_operands("C", "C", orders, dtype="f8")
        shoal.gemm(A, B, C, transa="C", transb="C", alpha=2 + 0j)
        conj = args_of(fake.last())
        shoal.gemm(A, B, C, transa="T", transb="T", alpha=2.0)
        assert conj == args_of(fake.last()) and conj[0] == "shoal_dgemm_strided_batched"
        assert conj[1][5] == "2" and set(conj[1][:2]) <= {"0", "1"}


# ---- errors, handles, streams, devices ----------------------------------------------------

def test_bad_status_raises_with_its_name(fake):
    shoal.gemm(col_batch(2, 2, 2), col_batch(2, 2, 2), col_batch(2, 2, 2))  # handle and stream set
    fake.set_status(2)
    with pytest.raises(shoal.ShoalError) as e:
        shoal.gemm(col_batch(2, 2, 2), col_batch(2, 2, 2), col_batch(2, 2, 2))
    assert e.value.name == "SHOAL_STATUS_INVALID_VALUE" and e.value.status == 2
    assert "shoal_dgemm_strided_batched" in str(e.value)


def test_create_failure_names_the_cause_and_is_retried(fake):
    fake.set_create_status(5)
    with pytest.raises(shoal.ShoalError, match="NO_DEVICE.*fake driver missing") as e:
        shoal.gemm(col_batch(2, 2, 2), col_batch(2, 2, 2), col_batch(2, 2, 2))
    assert e.value.function == "shoal_create"
    fake.set_create_status(0)
    shoal.gemm(col_batch(2, 2, 2), col_batch(2, 2, 2), col_batch(2, 2, 2))
    assert [c[0] for c in fake.calls()].count("shoal_create") == 2


def test_one_handle_and_stream_set_only_when_it_changes(fake):
    args = lambda: (col_batch(2, 2, 2), col_batch(2, 2, 2), col_batch(2, 2, 2))  # noqa: E731
    shoal.gemm(*args())
    shoal.gemm(*args())
    shoal.gemm(*args(), stream=0x1234)
    shoal.gemm(*args(), stream=0x1234)
    names = [c[0] for c in fake.calls()]
    assert names.count("shoal_create") == 1
    streams = [c[1][1] for c in fake.calls() if c[0] == "shoal_set_stream"]
    assert streams == ["(nil)", "0x1234"]


def test_cuda_array_interface_v3_stream_is_used(fake):
    A = FakeArray((2, 2, 2), (4, 1, 2), version=3, stream=0x99)
    shoal.gemm(A, col_batch(2, 2, 2), col_batch(2, 2, 2))
    assert [c[1][1] for c in fake.calls() if c[0] == "shoal_set_stream"] == ["0x99"]


def test_stream_objects(fake):
    class TorchLikeStream:
        cuda_stream = 0x77
    shoal.gemm(col_batch(2, 2, 2), col_batch(2, 2, 2), col_batch(2, 2, 2), stream=TorchLikeStream())
    assert [c[1][1] for c in fake.calls() if c[0] == "shoal_set_stream"] == ["0x77"]
    with pytest.raises(TypeError, match="stream="):
        shoal.gemm(col_batch(2, 2, 2), col_batch(2, 2, 2), col_batch(2, 2, 2), stream="s")


def test_dispatch_info_and_vendor_switch(fake):
    assert shoal.dispatch_info() == ("fake", 3)
    shoal.set_vendor_dispatch(False)
    assert fake.last() [0] == "shoal_set_vendor_dispatch" and fake.last()[1][1] == "0"


# ---- level 2 ----------------------------------------------------------------------------

def test_gemv_row_major_flips_op_and_negative_increment(fake):
    A = row_batch(3, 4, 5)
    x = FakeArray((3, 5), (10, -2))
    y = FakeArray((3, 4))
    shoal.gemv(A, x, y, alpha=1.5, beta=1.0)
    assert args_of(fake.last()) == ("shoal_dgemv_strided_batched", [
        "1", "5", "4", "1.5", P(A.ptr), "5", "20", P(x.ptr - 4 * 2 * 8), "-2", "10", "1",
        P(y.ptr), "1", "4", "3"])


def test_gemv_allocates_y(fake):
    y = shoal.gemv(col_batch(3, 4, 5), FakeArray((3, 4)), trans="T")
    assert y.shape == (3, 5) and args_of(fake.last())[1][0] == "1"
    with pytest.raises(ValueError, match="x has 5 elements"):
        shoal.gemv(col_batch(3, 4, 5), FakeArray((3, 5)), trans="T")


@pytest.mark.parametrize("order, uplo, trans, expect_fill, expect_op", [
    ("c", "L", "N", "0", "0"), ("c", "U", "T", "1", "1"),
    ("r", "L", "N", "1", "1"), ("r", "U", "T", "0", "0")])
def test_trsv_row_major_flips_uplo_and_op(fake, order, uplo, trans, expect_fill, expect_op):
    A = (col_batch if order == "c" else row_batch)(3, 4, 4)
    x = FakeArray((3, 4))
    assert shoal.trsv(A, x, uplo=uplo, trans=trans, diag="U") is x
    assert args_of(fake.last()) == ("shoal_dtrsv_strided_batched", [
        expect_fill, expect_op, "1", "4", P(A.ptr), "4", "16", P(x.ptr), "1", "4", "3"])


# ---- level 2, complex -------------------------------------------------------------------

@pytest.mark.parametrize("order, trans, expect_op", [
    ("c", "N", "0"), ("c", "T", "1"), ("c", "C", "2"), ("r", "N", "1"), ("r", "T", "0")])
def test_gemv_complex_ops_and_scalars(fake, order, trans, expect_op):
    A = CMAKE[order](3, 4, 5, "c8")
    x, y = FakeArray((3, 5 if trans == "N" else 4), dtype="c8"), FakeArray((3, 4 if trans == "N" else 5), dtype="c8")
    shoal.gemv(A, x, y, alpha=1.5 - 2j, beta=0.5j, trans=trans)
    name, a = args_of(fake.last())
    a = complex_args(a)
    assert name == "shoal_cgemv_strided_batched" and a[0] == expect_op
    assert a[3] == 1.5 - 2j and a[10] == 0.5j


def test_gemv_trsv_complex_op_c_needs_column_major_a(fake):
    with pytest.raises(ValueError, match="conjugate without transpose"):
        shoal.gemv(row_batch(3, 4, 4, "c16"), FakeArray((3, 4), dtype="c16"), FakeArray((3, 4), dtype="c16"),
                   trans="C")
    with pytest.raises(ValueError, match="conjugate without transpose"):
        shoal.trsv(row_batch(3, 4, 4, "c16"), FakeArray((3, 4), dtype="c16"), trans="c")
    # real dtypes: 'C' is 'T', any memory order
    shoal.trsv(row_batch(3, 4, 4), FakeArray((3, 4)), trans="C")
    assert args_of(fake.last())[1][1] == "0"
    with pytest.raises(TypeError, match="needs complex operands"):
        shoal.gemv(col_batch(3, 4, 4), FakeArray((3, 4)), FakeArray((3, 4)), alpha=1j)


@pytest.mark.parametrize("trans, expect_op", [("N", "0"), ("T", "1"), ("C", "2")])
def test_trsv_complex(fake, trans, expect_op):
    A, x = col_batch(3, 4, 4, "c16"), FakeArray((3, 4), dtype="c16")
    assert shoal.trsv(A, x, uplo="U", trans=trans) is x
    assert args_of(fake.last()) == ("shoal_ztrsv_strided_batched", [
        "1", expect_op, "0", "4", P(A.ptr), "4", "16", P(x.ptr), "1", "4", "3"])


def test_gemv_vbatched_complex(fake):
    A = [FakeArray((3, 2), (1, 3), dtype="c16"), FakeArray((4, 4), (1, 4), dtype="c16")]
    x = [FakeArray((3,), dtype="c16"), FakeArray((4,), dtype="c16")]
    y = [FakeArray((2,), dtype="c16"), FakeArray((4,), dtype="c16")]
    shoal.gemv_vbatched(A, x, y, alpha=2 - 1j, beta=1.0, trans="C")
    name, a = args_of(fake.last())
    a = complex_args(a)
    assert name == "shoal_zgemv_vbatched" and a[0] == "2" and a[3:5] == ["4", "4"]
    assert a[5] == 2 - 1j and a[10] == 1
    A_rows = [FakeArray((3, 2), (2, 1), dtype="c16"), FakeArray((4, 4), (4, 1), dtype="c16")]
    with pytest.raises(ValueError, match="conjugate without transpose"):
        shoal.gemv_vbatched(A_rows, x, y, trans="C")


# ---- LAPACK -----------------------------------------------------------------------------

def test_getrf_with_given_outputs(fake):
    A = col_batch(5, 4, 3, ld=6)
    ipiv, info = FakeArray((5, 3), dtype="i4"), FakeArray((5,), dtype="i4")
    assert shoal.getrf(A, ipiv=ipiv, info=info) == (ipiv, info)
    assert args_of(fake.last()) == ("shoal_dgetrf_strided_batched", [
        "4", "3", P(A.ptr), "6", "18", P(ipiv.ptr), "3", P(info.ptr), "5"])


def test_getrf_allocates_int32_outputs_like_torch(fake):
    ipiv, info = shoal.getrf(col_batch(5, 4, 3))
    assert (ipiv.shape, ipiv.dtype, info.shape, info.dtype) == ((5, 3), "i4", (5,), "i4")
    ipiv, info = shoal.getrf(FakeArray((3, 3), (1, 3)))
    assert (ipiv.shape, info.shape) == ((3,), ())


def test_getrf_output_checks(fake):
    A = col_batch(5, 3, 3)
    with pytest.raises(TypeError, match="int32"):
        shoal.getrf(A, ipiv=FakeArray((5, 3), dtype="i8"))
    with pytest.raises(ValueError, match="expected \\(5, 3\\)"):
        shoal.getrf(A, ipiv=FakeArray((5, 2), dtype="i4"))
    with pytest.raises(ValueError, match="contiguous"):
        shoal.getrf(A, ipiv=FakeArray((5, 3), (6, 2), dtype="i4"))


def test_in_place_factorizations_need_column_major(fake):
    for fn in (shoal.getrf, shoal.geqrf):
        with pytest.raises(ValueError, match="must be column-major"):
            fn(row_batch(2, 3, 3))
    with pytest.raises(ValueError, match="must be column-major"):
        shoal.gesv(row_batch(2, 3, 3), col_batch(2, 3, 2))
    with pytest.raises(ValueError, match="B must be column-major"):
        shoal.posv(col_batch(2, 3, 3), row_batch(2, 3, 2))
    assert fake.routine_calls() == []


def test_solves_take_a_contiguous_single_right_hand_side(fake):
    B = FakeArray((2, 3, 1))  # torch's b.unsqueeze(-1): strides (3, 1, 1) read column-major
    shoal.posv(col_batch(2, 3, 3), B)
    assert args_of(fake.last())[1][6:9] == [P(B.ptr), "3", "3"]


def test_getrs_shares_one_factorization(fake):
    LU, ipiv, B = FakeArray((3, 3), (1, 3)), FakeArray((3,), dtype="i4"), col_batch(4, 3, 2)
    assert shoal.getrs(LU, ipiv, B, trans="T") is B
    assert args_of(fake.last()) == ("shoal_dgetrs_strided_batched", [
        "1", "3", "2", P(LU.ptr), "3", "0", P(ipiv.ptr), "0", P(B.ptr), "3", "6", "4"])


def test_gesv_lists(fake):
    As = [FakeArray((3, 3), (1, 3)) for _ in range(2)]
    Bs = [FakeArray((3, 1)) for _ in range(2)]
    ipiv, info = shoal.gesv(As, Bs)
    name, a = args_of(fake.last())
    assert name == "shoal_dgesv_batched" and a[:2] == ["3", "1"]
    assert ints(upload(fake, int(a[2], 16))[:16]) == [x.ptr for x in As]
    assert a[4] == P(ipiv.ptr) and a[7] == P(info.ptr) and ipiv.shape == (2, 3)


@pytest.mark.parametrize("order, uplo, fill", [("c", "L", "0"), ("c", "U", "1"), ("r", "L", "1"), ("r", "U", "0")])
def test_cholesky_row_major_flips_uplo(fake, order, uplo, fill):
    A = (col_batch if order == "c" else row_batch)(2, 4, 4)
    shoal.potrf(A, uplo=uplo)
    assert args_of(fake.last())[1][:4] == [fill, "4", P(A.ptr), "4"]
    B = col_batch(2, 4, 3)
    shoal.potrs(A, B, uplo=uplo)
    assert args_of(fake.last())[0] == "shoal_dpotrs_strided_batched"
    assert args_of(fake.last())[1][:3] == [fill, "4", "3"]


def test_getri_and_getri_fused(fake):
    LU, ipiv = col_batch(2, 3, 3), FakeArray((2, 3), dtype="i4")
    C, info = shoal.getri(LU, ipiv)
    assert C.strides == (9, 1, 3) and info.shape == (2,)
    assert args_of(fake.last())[0] == "shoal_dgetri_strided_batched"
    A = row_batch(2, 3, 3)
    C, info = shoal.getri_fused(A)
    assert C.strides == (9, 3, 1)  # a new C takes A's memory order: inv(A^T) = inv(A)^T
    with pytest.raises(ValueError, match="both be column-major or both row-major"):
        shoal.getri_fused(A, col_batch(2, 3, 3))


def test_geqrf_tau(fake):
    A = col_batch(3, 5, 4)
    tau = shoal.geqrf(A)
    assert tau.shape == (3, 4) and tau.dtype == "f8"
    assert args_of(fake.last()) == ("shoal_dgeqrf_strided_batched", [
        "5", "4", P(A.ptr), "5", "20", P(tau.ptr), "4", "3"])
    As = [FakeArray((5, 4), (1, 5), dtype="f4") for _ in range(2)]
    tau = shoal.geqrf(As)
    name, a = args_of(fake.last())
    assert name == "shoal_sgeqrf_batched"
    assert ints(upload(fake, int(a[4], 16))[:16]) == [tau.ptr, tau.ptr + 16]


def test_ormqr_sides_and_shared_reflectors(fake):
    A, tau, C = col_batch(3, 5, 4), FakeArray((3, 4)), col_batch(3, 5, 2)
    assert shoal.ormqr(A, tau, C, trans="t") is C
    assert args_of(fake.last()) == ("shoal_dormqr_strided_batched", [
        "0", "1", "5", "2", "4", P(A.ptr), "5", "20", P(tau.ptr), "4", P(C.ptr), "5", "10", "3"])
    # side R: Q's order is C's columns; one A and tau (2-D, 1-D) for every C: strides 0
    A1, t1, Cr = FakeArray((6, 2), (1, 6)), FakeArray((2,)), col_batch(3, 4, 6)
    shoal.ormqr(A1, t1, Cr, side="R", trans="C")
    assert args_of(fake.last()) == ("shoal_dormqr_strided_batched", [
        "1", "1", "4", "6", "2", P(A1.ptr), "6", "0", P(t1.ptr), "0", P(Cr.ptr), "4", "24", "3"])
    with pytest.raises(ValueError, match="needs A 4 x k"):
        shoal.ormqr(A1, t1, Cr)
    with pytest.raises(ValueError, match="tau has shape"):
        shoal.ormqr(A, FakeArray((3, 3)), C)
    with pytest.raises(ValueError, match="tau is required"):
        shoal.ormqr(A, None, C)
    with pytest.raises(ValueError, match="side="):
        shoal.ormqr(A, tau, C, side="X")


def test_ormqr_pointer_arrays_and_complex(fake):
    As = [FakeArray((5, 3), (1, 5), dtype="c16") for _ in range(2)]
    Cs = [FakeArray((5, 2), (1, 5), dtype="c16") for _ in range(2)]
    tau = FakeArray((2, 3), dtype="c16")
    shoal.ormqr(As, tau, Cs, trans="C")
    name, a = args_of(fake.last())
    assert name == "shoal_zormqr_batched" and a[:5] == ["0", "2", "5", "2", "3"]
    assert ints(upload(fake, int(a[7], 16))[:16]) == [tau.ptr, tau.ptr + 3 * 16]


def test_orgqr_in_place(fake):
    A, tau = col_batch(3, 6, 4), FakeArray((3, 2))
    assert shoal.orgqr(A, tau) is A
    assert args_of(fake.last()) == ("shoal_dorgqr_strided_batched", [
        "6", "4", "2", P(A.ptr), "6", "24", P(tau.ptr), "2", "3"])
    As = [FakeArray((5, 3), (1, 5), dtype="c8") for _ in range(2)]
    taus = FakeArray((2, 3), dtype="c8")
    shoal.orgqr(As, taus)
    name, a = args_of(fake.last())
    assert name == "shoal_corgqr_batched" and a[:3] == ["5", "3", "3"]
    assert ints(upload(fake, int(a[5], 16))[:16]) == [taus.ptr, taus.ptr + 3 * 8]
    with pytest.raises(ValueError, match="m >= n >= k"):
        shoal.orgqr(col_batch(3, 6, 4), FakeArray((3, 5)))
    with pytest.raises(ValueError, match="column-major"):
        shoal.orgqr(row_batch(3, 6, 4), tau)


def test_gelqf_as_geqrf(fake):
    A = col_batch(3, 4, 6)
    tau = shoal.gelqf(A)
    assert tuple(tau.shape) == (3, 4)
    assert args_of(fake.last()) == ("shoal_dgelqf_strided_batched", [
        "4", "6", P(A.ptr), "4", "24", P(tau.ptr), "4", "3"])
    As = [FakeArray((5, 2), (1, 5), dtype="c8") for _ in range(2)]
    taus = shoal.gelqf(As)
    name, a = args_of(fake.last())
    assert name == "shoal_cgelqf_batched" and a[:2] == ["5", "2"] and tuple(taus.shape) == (2, 2)


def test_gels_in_place_and_shapes(fake):
    A, B = col_batch(3, 6, 4), col_batch(3, 6, 2)
    info = shoal.gels(A, B, trans="T")
    assert tuple(info.shape) == (3,)
    name, a = args_of(fake.last())
    assert name == "shoal_dgels_strided_batched"
    assert a[:10] == ["1", "6", "4", "2", P(A.ptr), "6", "24", P(B.ptr), "6", "12"]
    As = [FakeArray((4, 7), (1, 4), dtype="c16") for _ in range(2)]
    Bs = [FakeArray((7, 1), (1, 7), dtype="c16") for _ in range(2)]
    shoal.gels(As, Bs, trans="C")
    name, a = args_of(fake.last())
    assert name == "shoal_zgels_batched" and a[:4] == ["2", "4", "7", "1"]
    with pytest.raises(ValueError, match="max\\(m, n\\)"):
        shoal.gels(col_batch(3, 6, 4), col_batch(3, 4, 2))
    with pytest.raises(ValueError, match="column-major"):
        shoal.gels(row_batch(3, 6, 4), col_batch(3, 6, 2))


def test_gebrd_outputs_and_forms(fake):
    A = col_batch(3, 6, 4)
    d, e, tq, tp = shoal.gebrd(A)
    assert (tuple(d.shape), tuple(e.shape), tuple(tq.shape), tuple(tp.shape)) == ((3, 4), (3, 3), (3, 4), (3, 4))
    assert args_of(fake.last()) == ("shoal_dgebrd_strided_batched", [
        "6", "4", P(A.ptr), "6", "24", P(d.ptr), "4", P(e.ptr), "3", P(tq.ptr), "4", P(tp.ptr), "4", "3"])
    # complex matrices: d and e real of the matching width, one pointer per matrix each
    As = [FakeArray((2, 5), (1, 2), dtype="c8") for _ in range(2)]
    d, e, tq, tp = shoal.gebrd(As)
    assert d.dtype == "f4" and e.dtype == "f4" and tq.dtype == "c8" and tuple(e.shape) == (2, 1)
    name, a = args_of(fake.last())
    assert name == "shoal_cgebrd_batched" and a[:2] == ["2", "5"]
    assert ints(upload(fake, int(a[4], 16))[:16]) == [d.ptr, d.ptr + 2 * 4]
    assert ints(upload(fake, int(a[7], 16))[:16]) == [tp.ptr, tp.ptr + 2 * 8]
    with pytest.raises(ValueError, match="column-major"):
        shoal.gebrd(row_batch(3, 6, 4))


def test_orgbr_vects_and_rules(fake):
    A, tq = col_batch(3, 6, 4), FakeArray((3, 4))
    assert shoal.orgbr(A, tq, vect="q", k=4) is A
    assert args_of(fake.last()) == ("shoal_dorgbr_strided_batched", [
        "0", "6", "4", "4", P(A.ptr), "6", "24", P(tq.ptr), "4", "3"])
    # P of a square reduction (k >= n: the shifted layout), complex, pointer arrays
    As = [FakeArray((5, 5), (1, 5), dtype="c16") for _ in range(2)]
    tp = FakeArray((2, 5), dtype="c16")
    shoal.orgbr(As, tp, vect="P", k=7)
    name, a = args_of(fake.last())
    assert name == "shoal_zorgbr_batched" and a[:4] == ["1", "5", "5", "7"]
    assert ints(upload(fake, int(a[6], 16))[:16]) == [tp.ptr, tp.ptr + 5 * 16]
    with pytest.raises(ValueError, match="m >= n >= min"):
        shoal.orgbr(col_batch(3, 4, 6), FakeArray((3, 4)), k=6)
    with pytest.raises(ValueError, match="n >= m >= min"):
        shoal.orgbr(col_batch(3, 6, 4), FakeArray((3, 4)), vect="P", k=4)
    with pytest.raises(ValueError, match="tau has shape"):
        shoal.orgbr(col_batch(3, 6, 4), FakeArray((3, 3)), k=4)
    with pytest.raises(ValueError, match="vect="):
        shoal.orgbr(A, tq, vect="X", k=4)


def test_getrs_real_op_c_is_t(fake):
    LU, ipiv, B = col_batch(2, 3, 3), FakeArray((2, 3), dtype="i4"), col_batch(2, 3, 2)
    shoal.getrs(LU, ipiv, B, trans="c")
    assert args_of(fake.last())[0] == "shoal_dgetrs_strided_batched" and args_of(fake.last())[1][0] == "1"


# the c/z entry points of the factorizations exist where search_space/ lists c and z for them
# (the templates' complex renderings) and the signature table declares them
needs_complex_factorizations = pytest.mark.skipif(
    "shoal_cgetrf_batched" not in shoal._signatures.SIGNATURES,
    reason="libshoal's c/z factorizations are not in the package's signature table yet")


@needs_complex_factorizations
@pytest.mark.parametrize("dtype, p", [("c8", "c"), ("c16", "z")])
def test_factorizations_take_complex(fake, dtype, p):
    A, B = col_batch(2, 3, 3, dtype), col_batch(2, 3, 2, dtype)
    ipiv, info = shoal.getrf(A)
    assert args_of(fake.last())[0] == f"shoal_{p}getrf_strided_batched" and info.dtype == "i4"
    for trans, op in (("N", "0"), ("T", "1"), ("C", "2")):
        shoal.getrs(A, ipiv, B, trans=trans)
        assert args_of(fake.last()) == (f"shoal_{p}getrs_strided_batched", [
            op, "3", "2", P(A.ptr), "3", "9", P(ipiv.ptr), "3", P(B.ptr), "3", "6", "2"])
    shoal.gesv(A, B)
    assert args_of(fake.last())[0] == f"shoal_{p}gesv_strided_batched"
    C, _ = shoal.getri(A, ipiv)
    assert args_of(fake.last())[0] == f"shoal_{p}getri_strided_batched" and C.dtype == dtype
    C, _ = shoal.getri_fused(row_batch(2, 3, 3, dtype))  # inv(A^T) = inv(A)^T in complex too
    assert args_of(fake.last())[0] == f"shoal_{p}getri_fused_strided_batched" and C.strides == (9, 3, 1)
    for fn in (shoal.potrf, lambda a: shoal.potrs(a, B), lambda a: shoal.posv(a, B)):
        fn(A)
        assert args_of(fake.last())[0].startswith(f"shoal_{p}po")
    tau = shoal.geqrf(col_batch(2, 4, 3, dtype))
    assert args_of(fake.last())[0] == f"shoal_{p}geqrf_strided_batched"
    assert (tau.shape, tau.dtype) == ((2, 3), dtype)


@needs_complex_factorizations
def test_complex_geqrf_lists_space_tau_by_its_itemsize(fake):
    As = [FakeArray((5, 4), (1, 5), dtype="c16") for _ in range(2)]
    tau = shoal.geqrf(As)
    name, a = args_of(fake.last())
    assert name == "shoal_zgeqrf_batched"
    assert ints(upload(fake, int(a[4], 16))[:16]) == [tau.ptr, tau.ptr + 4 * 16]


@needs_complex_factorizations
@pytest.mark.parametrize("uplo, fill", [("L", "1"), ("U", "0")])
def test_complex_cholesky_row_major(fake, uplo, fill):
    """potrf factors a row-major Hermitian A through its view (conj(A)), whose factor is A's
    transposed: allowed, uplo flipped. potrs and posv would solve with conj(A): refused."""
    A, B = row_batch(2, 4, 4, "c8"), col_batch(2, 4, 3, "c8")
    shoal.potrf(A, uplo=uplo)
    assert args_of(fake.last()) == ("shoal_cpotrf_strided_batched", [fill, "4", P(A.ptr), "4", "16",
                                                                     args_of(fake.last())[1][5], "2"])
    calls = len(fake.routine_calls())
    for fn in (shoal.potrs, shoal.posv):
        with pytest.raises(ValueError, match="conj\\(A\\)"):
            fn(A, B, uplo=uplo)
    assert len(fake.routine_calls()) == calls


# ---- variable size ----------------------------------------------------------------------

def test_gemm_vbatched(fake):
    sizes = [(2, 3, 4), (5, 1, 2), (3, 3, 3)]
    A = [FakeArray((m, k), (1, m)) for m, n, k in sizes]
    B = [FakeArray((k, n), (1, k)) for m, n, k in sizes]
    C = [FakeArray((m, n), (1, m)) for m, n, k in sizes]
    assert shoal.gemm_vbatched(A, B, C, alpha=1.0, beta=0.0) is C
    name, a = args_of(fake.last())
    assert name == "shoal_dgemm_vbatched" and a[:2] == ["0", "0"]
    assert a[5:8] == ["5", "3", "4"]
    m_arr, n_arr, k_arr = (upload(fake, int(a[i], 16)) for i in (2, 3, 4))
    assert ints(m_arr[:12], "i") == [2, 5, 3] and ints(n_arr[:12], "i") == [3, 1, 3]
    assert ints(k_arr[:12], "i") == [4, 2, 3]
    assert ints(upload(fake, int(a[9], 16))[:24]) == [x.ptr for x in A]
    assert ints(upload(fake, int(a[10], 16))[:12], "i") == [2, 5, 3]  # lda


def test_gemm_vbatched_row_major_lists(fake):
    sizes = [(2, 3, 4), (1, 5, 2)]
    A = [FakeArray((m, k)) for m, n, k in sizes]
    B = [FakeArray((k, n)) for m, n, k in sizes]
    C = [FakeArray((m, n)) for m, n, k in sizes]
    shoal.gemm_vbatched(A, B, C)
    name, a = args_of(fake.last())
    # C^T = B^T A^T: first operand B, m <- n
    assert ints(upload(fake, int(a[2], 16))[:8], "i") == [3, 5]
    assert ints(upload(fake, int(a[9], 16))[:16]) == [x.ptr for x in B]


def test_gemm_vbatched_argument_errors(fake):
    with pytest.raises(TypeError, match="list"):
        shoal.gemm_vbatched(col_batch(2, 2, 2), [], [])
    with pytest.raises(ValueError, match="B has 1 entries"):
        shoal.gemm_vbatched([FakeArray((2, 2))] * 2, [FakeArray((2, 2))], [FakeArray((2, 2))] * 2)
    assert shoal.gemm_vbatched([], [], []) == []


# ---- variable size, complex (gemm_vbatched) ----------------------------------------------

@pytest.mark.parametrize("transa", "NTC")
@pytest.mark.parametrize("transb", "NTC")
def test_gemm_vbatched_complex_ops(fake, transa, transb):
    """Column-major complex lists: the op letters reach the C call as their codes (C = 2),
    complex alpha and beta as shoal_complex_double, the sizes of op(A) and op(B) per problem."""
    sizes = [(2, 3, 4), (5, 1, 2), (3, 3, 3)]
    A = [FakeArray((k, m) if transa != "N" else (m, k), (1, k if transa != "N" else m), "c16")
         for m, n, k in sizes]
    B = [FakeArray((n, k) if transb != "N" else (k, n), (1, n if transb != "N" else k), "c16")
         for m, n, k in sizes]
    C = [FakeArray((m, n), (1, m), "c16") for m, n, k in sizes]
    assert shoal.gemm_vbatched(A, B, C, alpha=2 - 1j, beta=0.5j, transa=transa, transb=transb) is C
    name, a = args_of(fake.last())
    a = complex_args(a)
    code = {"N": "0", "T": "1", "C": "2"}
    assert name == "shoal_zgemm_vbatched" and a[:2] == [code[transa], code[transb]]
    assert a[5:8] == ["5", "3", "4"] and a[8] == 2 - 1j and a[13] == 0.5j and a[-1] == "3"
    assert ints(upload(fake, int(a[2], 16))[:12], "i") == [2, 5, 3]
    assert ints(upload(fake, int(a[9], 16))[:24]) == [x.ptr for x in A]
    assert ints(upload(fake, int(a[11], 16))[:24]) == [x.ptr for x in B]


def test_gemm_vbatched_complex_row_major_keeps_op_c(fake):
    """All row-major complex64: C^T = op(B)^T op(A)^T, op(A)^T = conj(A) = (A's view)^H for op C."""
    sizes = [(2, 3, 4), (1, 5, 2)]
    A = [FakeArray((k, m), None, "c8") for m, n, k in sizes]
    B = [FakeArray((k, n), None, "c8") for m, n, k in sizes]
    C = [FakeArray((m, n), None, "c8") for m, n, k in sizes]
    shoal.gemm_vbatched(A, B, C, transa="C", alpha=1j)
    name, a = args_of(fake.last())
    a = complex_args(a)
    assert name == "shoal_cgemm_vbatched" and a[:2] == ["0", "2"] and a[8] == 1j
    assert ints(upload(fake, int(a[2], 16))[:8], "i") == [3, 5]  # m <- n
    assert ints(upload(fake, int(a[9], 16))[:16]) == [x.ptr for x in B]
    assert ints(upload(fake, int(a[11], 16))[:16]) == [x.ptr for x in A]


def test_gemm_vbatched_complex_errors_and_real_op_c(fake):
    col = [FakeArray((2, 2), (1, 2), "c8") for _ in range(2)]
    row = [FakeArray((2, 2), (2, 1), "c8") for _ in range(2)]
    with pytest.raises(ValueError, match="transa 'C' with A and C in different memory orders"):
        shoal.gemm_vbatched(row, col, col, transa="C")
    with pytest.raises(TypeError, match="share a dtype"):
        shoal.gemm_vbatched(col, [FakeArray((2, 2), (1, 2), "c16")] * 2, col)
    real = [FakeArray((2, 2), (1, 2)) for _ in range(2)]
    with pytest.raises(TypeError, match="needs complex operands"):
        shoal.gemm_vbatched(real, real, real, alpha=1 + 1j)
    assert fake.routine_calls() == []
    # real operands: 'C' is 'T', a complex scalar with no imaginary part is real
    shoal.gemm_vbatched(real, real, real, transa="C", transb="c", alpha=2 + 0j)
    conj = args_of(fake.last())
    shoal.gemm_vbatched(real, real, real, transa="T", transb="T", alpha=2.0)
    got = args_of(fake.last())
    assert conj[0] == got[0] == "shoal_dgemm_vbatched" and conj[1][:2] == got[1][:2] == ["1", "1"]
    assert conj[1][8] == got[1][8] == "2"


def test_gemv_vbatched(fake):
    A = [FakeArray((3, 2), (1, 3)), FakeArray((4, 4), (1, 4))]
    x = [FakeArray((2,)), FakeArray((4,), (-1,))]
    y = [FakeArray((3,)), FakeArray((4,))]
    shoal.gemv_vbatched(A, x, y, beta=1.0)
    name, a = args_of(fake.last())
    assert name == "shoal_dgemv_vbatched" and a[0] == "0" and a[3:5] == ["4", "4"]
    assert ints(upload(fake, int(a[9], 16))[:8], "i") == [1, -1]
    assert ints(upload(fake, int(a[8], 16))[:16]) == [x[0].ptr, x[1].ptr - 3 * 8]
