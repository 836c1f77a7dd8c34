#!/usr/bin/env python3
"""Batched LU solves and Cholesky factorizations of PyTorch tensors through shoal, checked
against torch.linalg (docs/python.md). Run from the repository after `make`:

    PYTHONPATH=python python3 examples/batched_solve.py

Needs a CUDA GPU and PyTorch; exits 77 (the test suite's "skip") without them."""
import sys

try:
    import torch
except ImportError:
    print("SKIP: PyTorch is not installed")
    sys.exit(77)
if not torch.cuda.is_available():
    print("SKIP: no CUDA device")
    sys.exit(77)

import shoal  # noqa: E402

batch, n, nrhs = 20000, 16, 3
A = torch.randn(batch, n, n, device="cuda", dtype=torch.float64) + n * torch.eye(n, device="cuda",
                                                                               dtype=torch.float64)
B = torch.randn(batch, n, nrhs, device="cuda", dtype=torch.float64)

# LU with partial pivoting and the solve, in place: shoal's matrices are column-major
LU, X = shoal.column_major(A), shoal.column_major(B)
ipiv, info = shoal.gesv(LU, X)
assert not info.any(), "a matrix was singular"
err = ((A @ X - B).norm() / B.norm()).item()
print(f"gesv: {batch} solves of order {n}, relative residual {err:.2e}")

# Cholesky of symmetric positive definite matrices (row-major input is fine here)
S = A @ A.mT
info = shoal.potrf(S, uplo="L")
L = torch.tril(S)
ref = torch.linalg.cholesky(A @ A.mT)
print(f"potrf: max difference from torch.linalg.cholesky {(L - ref).abs().max().item():.2e}")
sys.exit(0 if err < 1e-10 and not info.any() else 1)
