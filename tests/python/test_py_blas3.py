"""trsm, syrk and herk against the fake libshoal (no GPU): the arguments passed, and, for every memory
order, that the column-major call the package makes computes the logical result. The latter
replays the logged C call on a simulated memory with a small host BLAS (column-major, BLAS
semantics, only the uplo triangle read or written), then reads the result back through the
arrays' logical strides."""
import array
import random

import pytest

import shoal
from _fakes import FakeArray, args_of, col_batch, row_batch, upload


def P(x):
    return hex(x)




def ints(buf: bytes):
    return list(array.array("q", buf))


MAKE = {"c": col_batch, "r": row_batch}


# ---- a simulated device memory and a host column-major BLAS --------------------------------

class Memory:
    """Element values by address; arrays are filled and read through their logical strides."""

    def __init__(self):
        self.cells = {}

    def fill(self, arr, values):  # values[b][i][j]
        b_, m, n = arr.shape
        for b in range(b_):
            for i in range(m):
                for j in range(n):
                    self.cells[self.addr(arr, b, i, j)] = values[b][i][j]

    def read(self, arr):
        b_, m, n = arr.shape
        return [[[self.cells[self.addr(arr, b, i, j)] for j in range(n)] for i in range(m)]
                for b in range(b_)]

    @staticmethod
    def addr(arr, b, i, j):
        s = arr.strides
        return arr.ptr + (b * s[0] + i * s[1] + j * s[2]) * 8

    def view(self, ptr, ld, rows, cols):
        """A column-major rows x cols matrix at ptr as a list of rows (reads)."""
        return [[self.cells[ptr + (i + j * ld) * 8] for j in range(cols)] for i in range(rows)]

    def store(self, ptr, ld, i, j, value):
        self.cells[ptr + (i + j * ld) * 8] = value


def transpose(M):
    return [list(r) for r in zip(*M)]


def matmul(X, Y):
    return [[sum(X[i][l] * Y[l][j] for l in range(len(Y))) for j in range(len(Y[0]))]
            for i in range(len(X))]


def solve(M, R):
    """M X = R by Gauss-Jordan with partial pivoting (M small and well conditioned)."""
    n = len(M)
    aug = [list(M[i]) + list(R[i]) for i in range(n)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(aug[r][c]))
        aug[c], aug[p] = aug[p], aug[c]
        for r in range(n):
            if r != c:
                f = aug[r][c] / aug[c][c]
                aug[r] = [x - f * y for x, y in zip(aug[r], aug[c])]
    return [[x / aug[i][i] for x in aug[i][n:]] for i in range(n)]


def triangle(M, lower, unit):
    """The uplo triangle of M (the rest zero), with ones on the diagonal when unit."""
    n = len(M)
    return [[(1.0 if unit else M[i][j]) if i == j else
             (M[i][j] if (i > j) == lower else 0.0) for j in range(n)] for i in range(n)]


def run_trsm(mem, args):
    """Replays shoal_dtrsm_strided_batched(side, uplo, trans, diag, m, n, alpha, A, lda, sA,
    B, ldb, sB, batch) on the memory."""
    side, uplo, trans, diag, m, n = (int(v) for v in args[:6])
    alpha = float(args[6])
    A, lda, sA, B, ldb, sB, batch = (int(args[7], 16), int(args[8]), int(args[9]),
                                     int(args[10], 16), int(args[11]), int(args[12]), int(args[13]))
    t = m if side == 0 else n
    for b in range(batch):
        T = triangle(mem.view(A + b * sA * 8, lda, t, t), uplo == 0, diag == 1)
        opA = transpose(T) if trans else T
        Bv = mem.view(B + b * sB * 8, ldb, m, n)
        R = [[alpha * x for x in row] for row in Bv]
        X = solve(opA, R) if side == 0 else transpose(solve(transpose(opA), transpose(R)))
        for i in range(m):
            for j in range(n):
                mem.store(B + b * sB * 8, ldb, i, j, X[i][j])


def run_rank_k(mem, args, herm=False):
    """Replays shoal_dsyrk_strided_batched / shoal_cherk_strided_batched(uplo, trans, n, k,
    alpha, A, lda, sA, beta, C, ldc, sC, batch) (8-byte elements, as Memory counts: double, or
    complex64 for herk): only the uplo triangle of C is read and written; herk reads its
    diagonal's real part only and writes the diagonal real."""
    uplo, trans, n, k = (int(v) for v in args[:4])
    alpha = float(args[4])
    A, lda, sA = int(args[5], 16), int(args[6]), int(args[7])
    beta = float(args[8])
    C, ldc, sC, batch = int(args[9], 16), int(args[10]), int(args[11]), int(args[12])
    assert trans in ((0, 2) if herm else (0, 1)), trans
    t = conj_transpose if herm else transpose
    for b in range(batch):
        Av = mem.view(A + b * sA * 8, lda, k if trans else n, n if trans else k)
        opA = t(Av) if trans else Av
        prod = matmul(opA, t(opA))
        for i in range(n):
            for j in range(n):
                if i == j or (i > j) == (uplo == 0):
                    old = mem.cells[C + b * sC * 8 + (i + j * ldc) * 8] if beta != 0 else 0.0
                    if herm and i == j:
                        old = old.real
                    v = alpha * prod[i][j] + beta * old
                    mem.store(C + b * sC * 8, ldc, i, j, complex(v.real, 0.0) if herm and i == j else v)


def conj_transpose(M):
    return [[x.conjugate() for x in r] for r in zip(*M)]


def rand_batch(rng, b, m, n):
    return [[[rng.uniform(-1, 1) for _ in range(n)] for _ in range(m)] for _ in range(b)]


def crand_batch(rng, b, m, n):
    return [[[complex(rng.uniform(-1, 1), rng.uniform(-1, 1)) for _ in range(n)] for _ in range(m)]
            for _ in range(b)]


def close(X, Y, tol=1e-9):
    return all(abs(x - y) <= tol * (1 + abs(y)) for bx, by in zip(X, Y)
               for rx, ry in zip(bx, by) for x, y in zip(rx, ry))


# ---- TRSM ---------------------------------------------------------------------------------

def test_trsm_column_major_strided(fake):
    A, B = col_batch(5, 4, 4, ld=6), col_batch(5, 4, 3)
    assert shoal.trsm(A, B, alpha=2.0) is B
    assert args_of(fake.last()) == ("shoal_dtrsm_strided_batched", [
        "0", "0", "0", "0", "4", "3", "2", P(A.ptr), "6", "24", P(B.ptr), "4", "12", "5"])


@pytest.mark.parametrize("side", ["L", "R"])
@pytest.mark.parametrize("uplo, trans, diag", [("L", "N", "N"), ("L", "T", "U"), ("U", "N", "U"),
                                               ("U", "T", "N")])
@pytest.mark.parametrize("orders", ["cc", "rc", "cr", "rr"])
def test_trsm_solves_the_logical_system_in_every_memory_order(fake, side, uplo, trans, diag,
                                                              orders):
    rng = random.Random(f"trsm {side}{uplo}{trans}{diag}{orders}")  # str seeds are stable
    batch, m, n = 2, 4, 3
    t = m if side == "L" else n
    A, B = MAKE[orders[0]](batch, t, t), MAKE[orders[1]](batch, m, n)
    a = rand_batch(rng, batch, t, t)  # the other triangle (and with diag U the diagonal): junk
    for mat in a:
        for i in range(t):
            mat[i][i] = 3.0 + mat[i][i]
    b = rand_batch(rng, batch, m, n)
    mem = Memory()
    mem.fill(A, a)
    mem.fill(B, b)
    shoal.trsm(A, B, side=side, uplo=uplo, trans=trans, diag=diag, alpha=-1.5)
    run_trsm(mem, args_of(fake.last())[1])
    x = mem.read(B)
    for i in range(batch):
        T = triangle(a[i], uplo == "L", diag == "U")
        opA = transpose(T) if trans == "T" else T
        lhs = matmul(opA, x[i]) if side == "L" else matmul(x[i], opA)
        assert close([lhs], [[[-1.5 * v for v in row] for row in b[i]]]), (i, lhs, b[i])


def test_trsm_shares_a_single_a_and_takes_lists(fake):
    A, B = FakeArray((3, 3), (1, 3)), col_batch(4, 3, 2)
    shoal.trsm(A, B, side="L")
    assert args_of(fake.last())[1][7:10] == [P(A.ptr), "3", "0"]
    As = [FakeArray((2, 2), (1, 2), dtype="f4") for _ in range(3)]
    Bs = [FakeArray((5, 2), (1, 5), dtype="f4") for _ in range(3)]
    assert shoal.trsm(As, Bs, side="R", uplo="U", alpha=0.5) is Bs
    name, a = args_of(fake.last())
    assert name == "shoal_strsm_batched"
    assert a[:7] == ["1", "1", "0", "0", "5", "2", "0.5"] and a[8] == "2" and a[10:] == ["5", "3"]
    assert ints(upload(fake, int(a[7], 16))[:24]) == [x.ptr for x in As]
    assert ints(upload(fake, int(a[9], 16))[:24]) == [x.ptr for x in Bs]


def test_trsm_argument_errors(fake):
    with pytest.raises(ValueError, match="side 'L' needs A 4 x 4"):
        shoal.trsm(col_batch(2, 3, 3), col_batch(2, 4, 3))
    with pytest.raises(ValueError, match="side 'R' needs A 3 x 3"):
        shoal.trsm(col_batch(2, 4, 4), col_batch(2, 4, 3), side="R")
    with pytest.raises(ValueError, match="A is 4 x 3"):
        shoal.trsm(col_batch(2, 4, 3), col_batch(2, 4, 3))
    with pytest.raises(ValueError, match="side='X'"):
        shoal.trsm(col_batch(2, 3, 3), col_batch(2, 3, 3), side="X")
    with pytest.raises(ValueError, match="diag='T'"):
        shoal.trsm(col_batch(2, 3, 3), col_batch(2, 3, 3), diag="T")
    with pytest.raises(ValueError, match="B is written, but its 3 matrices overlap"):
        shoal.trsm(col_batch(3, 3, 3), FakeArray((3, 3, 2), (0, 1, 3)))
    with pytest.raises(ValueError, match="A holds 2 matrices where the call has 3"):
        shoal.trsm(col_batch(2, 3, 3), col_batch(3, 3, 2))
    with pytest.raises(TypeError, match="share a dtype"):
        shoal.trsm(col_batch(2, 3, 3, "f4"), col_batch(2, 3, 2))
    assert fake.routine_calls() == []


def test_trsm_complex_passes_complex_alpha_and_op_c(fake):
    A, B = col_batch(3, 4, 4, "c16", ld=5), col_batch(3, 4, 2, "c16")
    shoal.trsm(A, B, trans="C", alpha=0.5 - 2j)
    assert args_of(fake.last()) == ("shoal_ztrsm_strided_batched", [
        "0", "0", "2", "0", "4", "2", "(0.5", "-2)", P(A.ptr), "5", "20", P(B.ptr), "4", "8", "3"])
    As = [FakeArray((2, 2), (1, 2), dtype="c8") for _ in range(2)]
    Bs = [FakeArray((2, 3), (1, 2), dtype="c8") for _ in range(2)]
    shoal.trsm(As, Bs, trans="T", alpha=1)
    name, a = args_of(fake.last())
    # the log splits a complex scalar's "(re,im)" at its comma
    assert name == "shoal_ctrsm_batched" and a[:8] == ["0", "0", "1", "0", "2", "3", "(1", "0)"]


@pytest.mark.parametrize("orders, side, op", [("rr", "L", "2"), ("rr", "R", "2"), ("cc", "R", "2")])
def test_trsm_complex_op_c_in_one_memory_order(fake, orders, side, op):
    """Both views transposed: the conjugates cancel and op C stays C (the side flips with B's
    transposition, the uplo with A's)."""
    t = 3 if side == "L" else 2
    A, B = MAKE[orders[0]](2, t, t, "c8"), MAKE[orders[1]](2, 3, 2, "c8")
    shoal.trsm(A, B, side=side, trans="C")
    name, a = args_of(fake.last())
    flipped = orders == "rr"
    assert name == "shoal_ctrsm_strided_batched"
    assert a[0] == ("1" if (side == "L") == flipped else "0") and a[2] == op


def test_trsm_complex_errors(fake):
    with pytest.raises(ValueError, match="conjugate without transpose"):
        shoal.trsm(row_batch(2, 3, 3, "c16"), col_batch(2, 3, 2, "c16"), trans="C")
    with pytest.raises(ValueError, match="conjugate without transpose"):
        shoal.trsm(col_batch(2, 3, 3, "c16"), row_batch(2, 3, 2, "c16"), trans="C")
    with pytest.raises(TypeError, match="share a dtype"):
        shoal.trsm(col_batch(2, 3, 3, "c8"), col_batch(2, 3, 2, "c16"))
    with pytest.raises(TypeError, match="needs complex operands"):
        shoal.trsm(col_batch(2, 3, 3), col_batch(2, 3, 2), alpha=1 + 1j)
    with pytest.raises(TypeError, match="serves float32 and float64 only so far"):
        shoal.syrk(col_batch(2, 3, 2, "c8"), col_batch(2, 3, 3, "c8"))
    assert fake.routine_calls() == []
    # a real call takes 'C' as 'T', and a complex alpha with no imaginary part
    shoal.trsm(col_batch(2, 3, 3), col_batch(2, 3, 2), trans="C", alpha=2 + 0j)
    assert args_of(fake.last())[1][2] == "1" and args_of(fake.last())[1][6] == "2"


def test_trsm_status_raises(fake):
    shoal.trsm(col_batch(2, 3, 3), col_batch(2, 3, 2))  # the handle and its stream are set
    fake.set_status(3)
    with pytest.raises(shoal.ShoalError, match="NOT_SUPPORTED") as e:
        shoal.trsm(col_batch(2, 3, 3), col_batch(2, 3, 2))
    assert e.value.function == "shoal_dtrsm_strided_batched"


# ---- SYRK ---------------------------------------------------------------------------------

def test_syrk_column_major_strided(fake):
    A, C = col_batch(5, 4, 3, ld=7), col_batch(5, 4, 4)
    assert shoal.syrk(A, C, uplo="U", alpha=2.0, beta=0.5) is C
    assert args_of(fake.last()) == ("shoal_dsyrk_strided_batched", [
        "1", "0", "4", "3", "2", P(A.ptr), "7", "21", "0.5", P(C.ptr), "4", "16", "5"])


@pytest.mark.parametrize("uplo", ["L", "U"])
@pytest.mark.parametrize("routine, trans, orders", [
    *(("syrk", t, o) for t in "NT" for o in ("cc", "rc", "cr", "rr")),
    # herk: both views transposed (the op flips between N and C, the uplo flips); mixed orders
    # are refused (test_herk_argument_errors)
    *(("herk", t, o) for t in "NC" for o in ("cc", "rr"))])
@pytest.mark.parametrize("beta", [0.0, 0.5])
def test_rank_k_updates_the_logical_triangle_in_every_memory_order(fake, routine, uplo, trans, orders,
                                                                   beta):
    herm = routine == "herk"
    rng = random.Random(f"{routine} {uplo}{trans}{orders}{beta}")
    batch, n, k = 2, 4, 3
    dtype = "c8" if herm else "f8"
    A = MAKE[orders[0]](batch, *((k, n) if trans != "N" else (n, k)), dtype)
    C = MAKE[orders[1]](batch, n, n, dtype)
    fill = crand_batch if herm else rand_batch
    a, c0 = fill(rng, batch, *A.shape[1:]), fill(rng, batch, n, n)
    mem = Memory()
    mem.fill(A, a)
    mem.fill(C, c0)
    getattr(shoal, routine)(A, C, uplo=uplo, trans=trans, alpha=1.25, beta=beta)
    run_rank_k(mem, args_of(fake.last())[1], herm)
    c = mem.read(C)
    t = conj_transpose if herm else transpose
    for b in range(batch):
        opA = t(a[b]) if trans != "N" else a[b]
        prod = matmul(opA, t(opA))
        for i in range(n):
            for j in range(n):
                if i == j or (i > j) == (uplo == "L"):
                    old = c0[b][i][j].real if herm and i == j else c0[b][i][j]
                    want = 1.25 * prod[i][j] + beta * old
                    assert abs(c[b][i][j] - want) < 1e-12, (b, i, j)
                    assert not herm or i != j or c[b][i][j].imag == 0, ("diagonal not real", b, i)
                else:
                    assert c[b][i][j] == c0[b][i][j], ("other triangle written", b, i, j)


def test_syrk_allocates_a_zeroed_column_major_c(fake):
    A = row_batch(3, 5, 2)
    C = shoal.syrk(A, trans="N")
    what, arr = fake.allocated[-1]
    assert what == "C" and arr is C and arr.zero  # the triangle syrk leaves is zero, not garbage
    assert C.shape == (3, 5, 5) and C.strides == (25, 1, 5)
    assert args_of(fake.last())[1][:4] == ["0", "1", "5", "2"]  # row-major A: op flipped
    C1 = shoal.syrk(FakeArray((2, 6), (1, 2)), trans="T")
    assert C1.shape == (6, 6)
    with pytest.raises(ValueError, match="beta"):
        shoal.syrk(A, beta=1.0)
    with pytest.raises(ValueError, match="pass C"):
        shoal.syrk([FakeArray((2, 2), (1, 2))])


@pytest.mark.parametrize("routine, list_dtype, shared_dtype", [("syrk", "f4", "f8"), ("herk", "c8", "c16")])
def test_rank_k_lists_and_a_shared_a(fake, routine, list_dtype, shared_dtype):
    As = [FakeArray((3, 2), (1, 3), dtype=list_dtype) for _ in range(2)]
    Cs = [FakeArray((3, 3), (1, 3), dtype=list_dtype) for _ in range(2)]
    assert getattr(shoal, routine)(As, Cs, beta=1.0) is Cs
    name, a = args_of(fake.last())
    assert name == f"shoal_{'s' if routine == 'syrk' else 'c'}{routine}_batched"
    assert a[:5] == ["0", "0", "3", "2", "1"]
    assert a[6] == "3" and a[7] == "1" and a[9:] == ["3", "2"]
    assert ints(upload(fake, int(a[5], 16))[:16]) == [x.ptr for x in As]
    assert ints(upload(fake, int(a[8], 16))[:16]) == [x.ptr for x in Cs]
    A, C = FakeArray((3, 2), (1, 3), dtype=shared_dtype), col_batch(4, 3, 3, shared_dtype)
    getattr(shoal, routine)(A, C)
    assert args_of(fake.last())[1][5:8] == [P(A.ptr), "3", "0"]


def test_syrk_argument_errors(fake):
    with pytest.raises(ValueError, match="op\\(A\\) is 4 x 3, so C must be 4 x 4; it is 3 x 3"):
        shoal.syrk(col_batch(2, 4, 3), col_batch(2, 3, 3))
    with pytest.raises(ValueError, match="uplo='X'"):
        shoal.syrk(col_batch(2, 4, 3), col_batch(2, 4, 4), uplo="X")
    with pytest.raises(ValueError, match="C is written, but its 2 matrices overlap"):
        shoal.syrk(col_batch(2, 4, 3), FakeArray((2, 4, 4), (4, 1, 4)))
    with pytest.raises(TypeError, match="float32 and float64"):
        shoal.syrk(col_batch(2, 4, 3, "f2"), col_batch(2, 4, 4, "f2"))
    assert fake.routine_calls() == []


# ---- HERK ---------------------------------------------------------------------------------

def test_herk_column_major_strided(fake):
    A, C = col_batch(5, 4, 3, "c16", ld=7), col_batch(5, 4, 4, "c16")
    assert shoal.herk(A, C, uplo="U", alpha=2.0, beta=0.5) is C
    # real alpha and beta, whatever the precision (shoal_zherk takes doubles)
    assert args_of(fake.last()) == ("shoal_zherk_strided_batched", [
        "1", "0", "4", "3", "2", P(A.ptr), "7", "21", "0.5", P(C.ptr), "4", "16", "5"])
    A = col_batch(2, 3, 4, "c8")
    shoal.herk(A, col_batch(2, 4, 4, "c8"), trans="c")
    name, a = args_of(fake.last())
    assert name == "shoal_cherk_strided_batched" and a[:4] == ["0", "2", "4", "3"]  # SHOAL_OP_C = 2


def test_herk_allocates_c_in_as_memory_order(fake):
    A = row_batch(3, 5, 2, "c8")
    C = shoal.herk(A)
    what, arr = fake.allocated[-1]
    assert what == "C" and arr is C and arr.zero and C.shape == (3, 5, 5)
    assert C.strides == (25, 5, 1)  # row-major, as A: the call works on both views (op flipped)
    assert args_of(fake.last())[1][:4] == ["1", "2", "5", "2"]
    C = shoal.herk(col_batch(3, 5, 2, "c16"), trans="C")
    assert C.strides == (4, 1, 2) and args_of(fake.last())[1][:4] == ["0", "2", "2", "5"]
    with pytest.raises(ValueError, match="beta"):
        shoal.herk(A, beta=1.0)


def test_herk_argument_errors(fake):
    A, C = col_batch(2, 4, 3, "c8"), col_batch(2, 4, 4, "c8")
    with pytest.raises(ValueError, match="trans='T'"):
        shoal.herk(A, C, trans="T")
    with pytest.raises(ValueError, match="conjugate without transpose"):
        shoal.herk(row_batch(2, 4, 3, "c8"), C)
    with pytest.raises(ValueError, match="conjugate without transpose"):
        shoal.herk(A, row_batch(2, 4, 4, "c8"))
    with pytest.raises(TypeError, match="alpha=.* must be real"):
        shoal.herk(A, C, alpha=1 + 1j)
    with pytest.raises(TypeError, match="beta=.* must be real"):
        shoal.herk(A, C, beta=0.5j)
    with pytest.raises(TypeError, match="complex64 or complex128"):
        shoal.herk(col_batch(2, 4, 3), col_batch(2, 4, 4))
    with pytest.raises(ValueError, match="op\\(A\\) is 4 x 3, so C must be 4 x 4; it is 3 x 3"):
        shoal.herk(A, col_batch(2, 3, 3, "c8"))
    assert fake.routine_calls() == []
    shoal.herk(A, C, alpha=2 + 0j)  # a complex scalar with no imaginary part is real
    assert args_of(fake.last())[1][4] == "2"


# ---- queries ------------------------------------------------------------------------------

def test_workspace_size(fake):
    assert shoal.workspace_size() == 123456
    assert fake.last()[0] == "shoal_get_workspace_size"
    fake.set_status(1)
    with pytest.raises(shoal.ShoalError, match="NOT_INITIALIZED"):
        shoal.workspace_size()
