#!/usr/bin/env bash
# Names the missing package when a required part is absent, instead of a compiler error later.
set -u
cuda_home=${1:-/usr/local/cuda}
missing=0
need() { echo "shoal: missing $1 -- install $2" >&2; missing=1; }
command -v "$cuda_home/bin/nvcc" >/dev/null 2>&1 || command -v nvcc >/dev/null 2>&1 ||
  need "nvcc (CUDA Toolkit)" "the CUDA Toolkit (nvcc, NVRTC, cuBLAS), e.g. apt-get install cuda-toolkit, or set CUDA_HOME"
[ -f "$cuda_home/include/nvrtc.h" ] || need "nvrtc.h" "the CUDA Toolkit's NVRTC (cuda-nvrtc-dev) or set CUDA_HOME"
[ -f "$cuda_home/include/cublas_v2.h" ] || need "cublas_v2.h" "the CUDA Toolkit's cuBLAS (libcublas-dev) or set CUDA_HOME"
echo '#include <cblas.h>' | ${CC:-gcc} -E -x c - >/dev/null 2>&1 ||
  need "cblas.h (OpenBLAS)" "the Debian package libopenblas-dev"
echo '#include <sqlite3.h>' | ${CC:-gcc} -E -x c - >/dev/null 2>&1 ||
  need "sqlite3.h (SQLite headers)" "the Debian package libsqlite3-dev"
python3 -c 'import sqlite3, tomllib' 2>/dev/null ||
  need "Python 3.11+ with sqlite3" "python3 (>= 3.11) with its sqlite3 module"
exit $missing
