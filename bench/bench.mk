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
# Host residual checks live in oracle/lapack_check.c; the fill kernels are shared with shoal_bench.
LAPACK_BENCH_BIN := $(BUILD)/bin/shoal_lapack_bench
LAPACK_BENCH_OBJS := $(BENCH_OBJ_DIR)/lapack_bench.o $(BENCH_OBJ_DIR)/bench_util.o \
                     $(BUILD)/obj/oracle/lapack_check.o $(BUILD)/obj/oracle/lapack_ref.o \
                     $(BUILD)/obj/oracle/host_math.o \
                     $(BENCH_OBJ_DIR)/bench_kernels.o

$(BENCH_OBJ_DIR)/lapack_bench.o: bench/lapack_bench.c bench/bench_kernels.h bench/bench_util.h oracle/lapack_check.h \
                                 include/shoal.h | $(DEPS_OK)/openblas.ok
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fopenmp -Ibench -c $< -o $@

# cuSOLVER for the Cholesky baselines, OpenBLAS (with its LAPACK) for the CPU baseline.
$(LAPACK_BENCH_BIN): $(LAPACK_BENCH_OBJS) $(LIB_SHARED) | $(DEPS_OK)/openblas.ok
	@mkdir -p $(@D)
	$(CC) -fopenmp $(LAPACK_BENCH_OBJS) -o $@ $(LDLIBS_SHOAL) -lcusolver -lcublas -lcudart \
	    $(OPENBLAS_LIBS) -lstdc++ -lm

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
