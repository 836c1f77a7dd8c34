"""The host side of the Cholesky GPU tests (tests/python/test_py_gpu_{potrf,posv}_vbatched.py):
well-conditioned Hermitian positive definite matrices, the garbage written where a routine must
not read, and the residuals, in numpy (imported inside: the tests skip without it)."""

GARBAGE = 1e30     # written where the routine must not read: any use shows in the residual


def real_of(dtype):
    return {"complex64": "float32", "complex128": "float64"}.get(dtype, dtype)


def eps(dtype):
    import numpy
    return float(numpy.finfo(real_of(dtype)).eps)


def wide(x):
    """x in float64 or complex128."""
    import numpy
    return x.astype("complex128" if numpy.iscomplexobj(x) else "float64")


def gaussian(rows, cols, dtype, seed):
    """A rows x cols matrix of standard normal entries (real and imaginary parts in complex),
    in double precision."""
    import numpy
    rng = numpy.random.default_rng(seed)
    m = rng.standard_normal((rows, cols))
    if dtype.startswith("complex"):
        m = m + 1j * rng.standard_normal((rows, cols))
    return m


def spd(n, dtype, seed):
    """A symmetric (Hermitian) positive definite n x n matrix, well conditioned."""
    import numpy
    m = gaussian(n, n, dtype, seed)
    a = m @ m.conj().T / max(n, 1) + numpy.eye(n)
    return a.astype(dtype)


def poisoned(a, uplo):
    """a with the triangle the routines must not read (and, complex, the diagonal's imaginary
    parts) overwritten by garbage."""
    import numpy
    out = a.copy()
    n = a.shape[0]
    other = numpy.triu_indices(n, 1) if uplo == "L" else numpy.tril_indices(n, -1)
    out[other] = GARBAGE
    if numpy.iscomplexobj(out):
        out[numpy.diag_indices(n)] += 1j * GARBAGE
    return out


def factor_of(f, uplo):
    """L with A = L L^H from potrf's output f (U^H for uplo 'U')."""
    import numpy
    return numpy.tril(f) if uplo == "L" else numpy.triu(f).conj().T


def factor_residual(f, a, uplo, dtype):
    """max |L L^H - A| / (n max |A| eps) of the factor in f."""
    import numpy
    n = a.shape[0]
    if n == 0:
        return 0.0
    L = factor_of(wide(f), uplo)
    return float(numpy.abs(L @ L.conj().T - wide(a)).max() / (n * numpy.abs(a).max() * eps(dtype)))


def untouched(f, p, uplo):
    """The triangle the routines must not write still holds what was there."""
    import numpy
    n = f.shape[0]
    other = numpy.triu_indices(n, 1) if uplo == "L" else numpy.tril_indices(n, -1)
    return bool((f[other] == p[other]).all())
