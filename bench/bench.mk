# Build rules of the benchmark; included by the top-level Makefile, which defines CC, NVCC,
# CFLAGS, NVCCFLAGS, GENCODE, BUILD, LIB_SHARED, LDLIBS_SHOAL and OPENBLAS_LIBS.
# `make bench` builds $(BENCH_BIN) and runs bench/run_bench.py.

BENCH_BIN := $(BUILD)/bin/shoal_bench
BENCH_OBJ_DIR := $(BUILD)/bench
BENCH_OBJS := $(BENCH_OBJ_DIR)/shoal_bench.o $(BENCH_OBJ_DIR)/bench_kernels.o \
              $(BENCH_OBJ_DIR)/gemm_check.o $(BENCH_OBJ_DIR)/bench_util.o $(BUILD)/obj/oracle/host_math.o

$(BENCH_OBJ_DIR)/shoal_bench.o: bench/shoal_bench.c bench/bench_kernels.h bench/bench_util.h tests/gpu/gemm_check.h \
                                include/shoal.h | $(DEPS_OK)/openblas.ok
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fopenmp -Ibench -Itests/gpu -c $< -o $@

$(BENCH_OBJ_DIR)/gemm_check.o: tests/gpu/gemm_check.c tests/gpu/gemm_check.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/gpu -c $< -o $@

# Data fill and pointer-array kernels.
$(BENCH_OBJ_DIR)/bench_kernels.o: bench/bench_kernels.cu bench/bench_kernels.h | $(DEPS_OK)/cuda.ok
	@mkdir -p $(@D)
	$(NVCC) $(filter-out $(GENCODE),$(NVCCFLAGS)) $(GENCODE) -Ibench -c $< -o $@

# Linked by the C compiler: the nvcc object needs the C++ runtime (-lstdc++), the baselines need
# cuBLAS and OpenBLAS.
$(BENCH_BIN): $(BENCH_OBJS) $(LIB_SHARED) | $(DEPS_OK)/openblas.ok
	@mkdir -p $(@D)
	$(CC) -fopenmp $(BENCH_OBJS) -o $@ $(LDLIBS_SHOAL) -lcublas -lcudart $(OPENBLAS_LIBS) \
	    -lstdc++ -lm

# The factorization benchmark (bench/lapack_bench.c; `make bench` runs bench/run_lapack_bench.py).
# Host residual checks live in oracle/lapack_check.c (c and z: its oracle_z* forms); the
# fill kernels are shared with shoal_bench.
LAPACK_BENCH_BIN := $(BUILD)/bin/shoal_lapack_bench
LAPACK_BENCH_OBJS := $(BENCH_OBJ_DIR)/lapack_bench.o $(BENCH_OBJ_DIR)/bench_util.o \
                     $(BUILD)/obj/oracle/lapack_check.o $(BUILD)/obj/oracle/lapack_ref.o \
                     $(BUILD)/obj/oracle/host_math.o \
                     $(BENCH_OBJ_DIR)/bench_kernels.o

$(BENCH_OBJ_DIR)/lapack_bench.o: bench/lapack_bench.c bench/bench_kernels.h bench/bench_util.h oracle/lapack_check.h \
                                 bench/dx_peer.h include/shoal.h | $(DEPS_OK)/openblas.ok
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fopenmp -Ibench -c $< -o $@

# The cuSolverDx peer (bench/dx_peer.h) needs libmathdx: MATHDX_HOME is the folder with
# include/libcusolverdx.h and lib/libmathdx.so.0 (the nvidia-libmathdx-cu13 wheel's nvidia/cu13),
# set by the user or found in the installed package (the venv's Python, else $(PYTHON)). Without
# it the bench links bench/dx_none.c and says "cusolverdx: unavailable (libmathdx not found)".
MATHDX_HOME ?= $(shell for py in $(PY) $(PYTHON); do [ -x "$$(command -v $$py)" ] && \
    $$py -c 'import nvidia.cu13, os; print(next(p for p in nvidia.cu13.__path__ if os.path.exists(p + "/include/libcusolverdx.h")))' \
    2>/dev/null && break; done)
DX_FOUND := $(and $(MATHDX_HOME),$(wildcard $(MATHDX_HOME)/include/libcusolverdx.h),$(wildcard $(MATHDX_HOME)/lib/libmathdx.so.0))
DX_GEN_OBJS := $(BENCH_OBJ_DIR)/dx_gen.o $(BENCH_OBJ_DIR)/dx_cache.o $(BENCH_OBJ_DIR)/dx_wrapper.o
ifneq ($(DX_FOUND),)
DX_OBJS := $(DX_GEN_OBJS) $(BENCH_OBJ_DIR)/dx_load.o
DX_REL_RPATH := -Wl,-rpath,'$$ORIGIN/../../$(patsubst $(CURDIR)/%,%,$(MATHDX_HOME))/lib'
# libmathdx by full path (the wheel has no unversioned .so); rpath to it and to NVRTC/nvJitLink
# (and, for a libmathdx inside the tree, relative to build/bin: the tree may move to a GPU host)
DX_LIBS := $(MATHDX_HOME)/lib/libmathdx.so.0 -Wl,-rpath,$(MATHDX_HOME)/lib \
           $(if $(filter $(CURDIR)/%,$(MATHDX_HOME)),$(DX_REL_RPATH)) \
           -L$(CUDA_HOME)/lib64 \
           -Wl,-rpath,$(CUDA_HOME)/lib64 -lnvJitLink -lnvrtc
else
DX_OBJS := $(BENCH_OBJ_DIR)/dx_none.o
DX_LIBS :=
endif
# A stamp of the choice, so that installing or removing libmathdx relinks the bench.
DX_STAMP := $(BENCH_OBJ_DIR)/dx-$(if $(DX_FOUND),mathdx,none).stamp
$(DX_STAMP):
	@mkdir -p $(@D) && rm -f $(BENCH_OBJ_DIR)/dx-*.stamp && touch $@

$(BENCH_OBJ_DIR)/dx_%.o: bench/dx_%.c bench/dx_peer.h $(wildcard bench/dx_*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Werror $(if $(DX_FOUND),-I$(MATHDX_HOME)/include) -Ibench -c $< -o $@

# shoal_dx_gen: the peer's kernels without a GPU (no libshoal, no CUDA runtime): checks the
# generation path and fills a cache to carry to a GPU host. Without libmathdx it only says so.
DX_GEN_BIN := $(BUILD)/bin/shoal_dx_gen
$(DX_GEN_BIN): $(if $(DX_FOUND),$(DX_GEN_OBJS),$(DX_OBJS)) $(BENCH_OBJ_DIR)/dx_gen_main.o $(DX_STAMP)
	@mkdir -p $(@D)
	$(CC) $(filter %.o,$^) -o $@ $(DX_LIBS)

# libmathdx into the venv from the pinned requirements (--no-deps: see the file); from .wheels/
# where there is no index (bring it with `make mathdx-wheel` from a machine that has one).
.PHONY: mathdx-deps mathdx-wheel
mathdx-deps: | $(VENV)/.stamp
	$(PY) -m pip install -q --disable-pip-version-check --no-deps -r bench/requirements-mathdx.txt || \
	  $(PY) -m pip install -q --disable-pip-version-check --no-deps --no-index --find-links .wheels \
	    -r bench/requirements-mathdx.txt
mathdx-wheel:
	$(PYTHON) -m pip download -q --disable-pip-version-check --no-deps -d .wheels -r bench/requirements-mathdx.txt

# cuSOLVER for the Cholesky baselines, OpenBLAS (with its LAPACK) for the CPU baseline, libmathdx
# for the cuSolverDx peer where found.
$(LAPACK_BENCH_BIN): $(LAPACK_BENCH_OBJS) $(DX_OBJS) $(DX_STAMP) $(LIB_SHARED) | $(DEPS_OK)/openblas.ok
	@mkdir -p $(@D)
	$(CC) -fopenmp $(LAPACK_BENCH_OBJS) $(DX_OBJS) -o $@ $(LDLIBS_SHOAL) -lcusolver -lcublas -lcudart \
	    $(DX_LIBS) $(OPENBLAS_LIBS) -lstdc++ -lm

# Host helpers of both benchmarks (median, copy bandwidth...).
$(BENCH_OBJ_DIR)/bench_util.o: bench/bench_util.c bench/bench_util.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Ibench -c $< -o $@
include bench/blas2_bench.mk

# The spec routines (bench/spec_bench.c): shoal vs the spec's peer, with the copy bandwidth of
# the same run as the roof; operands and checks from the shared oracle harness.
SPEC_BENCH_BIN := $(BUILD)/bin/shoal_spec_bench
$(SPEC_BENCH_BIN): bench/spec_bench.c generated/spec_invoke.c $(ORACLE_OBJS) $(LIB_STATIC)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $< generated/spec_invoke.c $(ORACLE_OBJS) -o $@ $(LIB_STATIC) \
	    -L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64 -lcusolver -lcublas -lcudart -lstdc++ -lm

# docs/results.md from the committed CSVs (tests/test_results_doc.py fails when it is stale).
.PHONY: results-doc
results-doc:
	$(PYTHON) bench/results_doc.py

# The Python package against the C API on the same calls (bench/python_overhead.py): needs a GPU
# and PyTorch in $(PYTHON); the CSV (and its .txt) go to PYTHON_BENCH_OUT.
PYTHON_BENCH_OUT ?= bench/results/python-overhead.csv
.PHONY: bench-python
bench-python: $(LIB_SHARED)
	PYTHONPATH=python SHOAL_LIBRARY=$(abspath $(LIB_SHARED)) $(PYTHON) bench/python_overhead.py \
	    --out $(PYTHON_BENCH_OUT)

# QR with Q formed and Q applied against PyTorch (bench/run_qr_torch_bench.py; issue 23's bar):
# needs a GPU and PyTorch in $(PYTHON); QR_TORCH_BENCH_ARGS e.g. --precisions s,d,c,z.
QR_TORCH_BENCH_OUT ?= bench/results/qr-torch.csv
.PHONY: bench-qr-torch
bench-qr-torch: $(LIB_SHARED)
	PYTHONPATH=python SHOAL_LIBRARY=$(abspath $(LIB_SHARED)) $(PYTHON) bench/run_qr_torch_bench.py \
	    --out $(QR_TORCH_BENCH_OUT) $(QR_TORCH_BENCH_ARGS)

# Bidiagonal reduction against cuSOLVER (a loop over 8 streams) and LAPACKE on 16 host threads
# (bench/run_gebrd_bench.py; issue 25): needs a GPU and PyTorch in $(PYTHON), liblapacke for the
# cpu rows; GEBRD_BENCH_ARGS e.g. --precisions s,d,c,z.
GEBRD_BENCH_OUT ?= bench/results/gebrd.csv
.PHONY: bench-gebrd
bench-gebrd: $(LIB_SHARED)
	PYTHONPATH=python SHOAL_LIBRARY=$(abspath $(LIB_SHARED)) $(PYTHON) bench/run_gebrd_bench.py \
	    --out $(GEBRD_BENCH_OUT) $(GEBRD_BENCH_ARGS)

# Variable-size Cholesky against fixed-size, grouped (shoal and torch), padded and a loop of
# cuSOLVER calls (bench/run_potrf_vbatched_bench.py; issue 24's bar): needs a GPU and PyTorch in
# $(PYTHON); POTRF_VBATCHED_BENCH_ARGS e.g. --ns 32,128 --precisions d.
POTRF_VBATCHED_BENCH_OUT ?= bench/results/potrf-vbatched.csv
.PHONY: bench-potrf-vbatched
bench-potrf-vbatched: $(LIB_SHARED)
	PYTHONPATH=python SHOAL_LIBRARY=$(abspath $(LIB_SHARED)) $(PYTHON) bench/run_potrf_vbatched_bench.py \
	    --out $(POTRF_VBATCHED_BENCH_OUT) $(POTRF_VBATCHED_BENCH_ARGS)
