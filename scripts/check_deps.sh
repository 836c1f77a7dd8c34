#!/usr/bin/env bash
# Names the missing package when a part the target needs is absent, instead of a compiler error
# later. Usage: check_deps.sh PART...   (the Makefile asks, per target, for the parts it needs)
#   python    the generator's Python: 3.11+ (tomllib) with its sqlite3 module  ($PYTHON, python3)
#   cuda      nvcc, cuBLAS and cuSOLVER headers: libshoal itself                ($CUDA_HOME)
#   nvrtc     NVRTC: the tuner
#   openblas  cblas.h: only the programs that compare with OpenBLAS (a test, two benchmarks)
# Exit 0 when every part asked for is there, 1 otherwise (each missing piece named on stderr),
# 2 on an unknown part.
set -u
cuda_home=${CUDA_HOME:-/usr/local/cuda}
cc=${CC:-gcc}
python=${PYTHON:-python3}
missing=0
need() { echo "shoal: missing $1 -- install $2" >&2; missing=1; }
has_header() { echo "#include <$1>" | $cc -E -x c - >/dev/null 2>&1; }

for part in "$@"; do
  case $part in
    python)
      "$python" -c 'import sqlite3, tomllib' 2>/dev/null ||
        need "Python 3.11+ with sqlite3 ($python)" "python3 (>= 3.11) with its sqlite3 module, or set PYTHON" ;;
    cuda)
      command -v "$cuda_home/bin/nvcc" >/dev/null 2>&1 || command -v nvcc >/dev/null 2>&1 ||
        need "nvcc (CUDA Toolkit)" "the CUDA Toolkit (nvcc, cuBLAS, cuSOLVER), e.g. apt-get install cuda-toolkit, or set CUDA_HOME"
      [ -f "$cuda_home/include/cublas_v2.h" ] || need "cublas_v2.h" "the CUDA Toolkit's cuBLAS (libcublas-dev) or set CUDA_HOME"
      [ -f "$cuda_home/include/cusolverDn.h" ] || need "cusolverDn.h" "the CUDA Toolkit's cuSOLVER (libcusolver-dev) or set CUDA_HOME" ;;
    nvrtc)
      [ -f "$cuda_home/include/nvrtc.h" ] || need "nvrtc.h" "the CUDA Toolkit's NVRTC (cuda-nvrtc-dev) or set CUDA_HOME" ;;
    openblas)
      has_header cblas.h || need "cblas.h (OpenBLAS)" "the Debian package libopenblas-dev" ;;
    *)
      echo "check_deps.sh: unknown part '$part' (python, cuda, nvrtc, openblas)" >&2; exit 2 ;;
  esac
done
exit $missing
