# Build rules of the C test programs; included by the top-level Makefile, which defines CC,
# CFLAGS, BUILD, LIB_SHARED, LDLIBS_SHOAL and OPENBLAS_LIBS. `make test` builds $(TEST_BINS) and
# then runs pytest, whose wrappers (tests/test_c_api.py, tests/test_gpu_gemm.py) run them case
# by case.

TEST_BIN_DIR := $(BUILD)/tests
TEST_OBJ_DIR := $(BUILD)/tests/obj
# The command line, start-up and helpers every GPU test program shares (tests/gpu/gpu_test.h).
# An archive with the internal who-served query (runtime/served.c), which libshoal does not export.
GPU_TEST_OBJ := $(TEST_OBJ_DIR)/libgpu_test.a
$(TEST_OBJ_DIR)/gpu_test.o: tests/gpu/gpu_test.c tests/gpu/gpu_test.h tests/gpu/page_place.h include/shoal.h | $(DEPS_OK)/cuda.ok
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/gpu -c $< -o $@
$(GPU_TEST_OBJ): $(TEST_OBJ_DIR)/gpu_test.o $(BUILD)/obj/runtime/served.o
	rm -f $@ && ar rcs $@ $^

include tests/blas2_tests.mk
include tests/vbatched_tests.mk
TEST_BINS := $(TEST_BIN_DIR)/test_api_args $(TEST_BIN_DIR)/test_dispatch $(TEST_BIN_DIR)/test_launch_geometry \
             $(TEST_BIN_DIR)/test_gemm_gpu \
             $(TEST_BIN_DIR)/test_lapack_args $(TEST_BIN_DIR)/test_lu_gpu $(TEST_BIN_DIR)/test_chol_qr_gpu \
             $(BLAS2_TEST_BINS) $(VBATCHED_TEST_BINS)

$(TEST_OBJ_DIR)/gemm_check.o: tests/gpu/gemm_check.c tests/gpu/gemm_check.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/gpu -c $< -o $@

# Needs no GPU: argument checks run before the handle is looked at.
$(TEST_BIN_DIR)/test_api_args: tests/c/test_api_args.c include/shoal.h $(LIB_SHARED)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $< -o $@ $(LDLIBS_SHOAL)

# Dispatch logic on hand-made tables: runtime/dispatch.c alone, no CUDA at all.
$(TEST_BIN_DIR)/test_dispatch: tests/c/test_dispatch.c tests/c/host_cases.h runtime/dispatch.c runtime/dispatch.h runtime/dispatch_table.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) tests/c/test_dispatch.c runtime/dispatch.c -o $@ -lm

# The placement arithmetic of page-end operands (tests/gpu/page_place.h): no CUDA at all.
TEST_BINS += $(TEST_BIN_DIR)/test_page_place
$(TEST_BIN_DIR)/test_page_place: tests/c/test_page_place.c tests/c/host_cases.h tests/gpu/page_place.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/c -Itests/gpu tests/c/test_page_place.c -o $@

# Launch geometry: the launch sources alone (linked against the CUDA runtime, never calling it).
LAUNCH_SRCS := runtime/lapack_launch.c runtime/blas2_launch.c runtime/gemm_launch.c
$(TEST_BIN_DIR)/test_launch_geometry: tests/c/test_launch_geometry.c tests/c/host_cases.h $(LAUNCH_SRCS) runtime/lapack_launch.h \
                                      runtime/blas2_launch.h runtime/gemm_launch.h runtime/dispatch_table.h | $(DEPS_OK)/cuda.ok
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) tests/c/test_launch_geometry.c $(LAUNCH_SRCS) -o $@ $(CUDA_LIBS)

# Host reference: OpenBLAS, parallel over the batch with OpenMP (the only test program that needs it).
$(TEST_BIN_DIR)/test_gemm_gpu: tests/gpu/test_gemm_gpu.c $(TEST_OBJ_DIR)/gemm_check.o $(BUILD)/obj/oracle/host_math.o $(GPU_TEST_OBJ) \
                               tests/gpu/gemm_check.h include/shoal.h $(LIB_SHARED) | $(DEPS_OK)/openblas.ok
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fopenmp -Itests/gpu $< $(TEST_OBJ_DIR)/gemm_check.o $(BUILD)/obj/oracle/host_math.o $(GPU_TEST_OBJ) -o $@ \
	    $(LDLIBS_SHOAL) $(OPENBLAS_LIBS) -lm

$(TEST_BIN_DIR)/test_lapack_args: tests/c/test_lapack_args.c include/shoal.h $(LIB_SHARED)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $< -o $@ $(LDLIBS_SHOAL)

# Factorizations: judged by the tuner's residual checks (tuner/spec_*.c on oracle/lapack_ref.c and
# oracle/lapack_check.c), host only.
LAPACK_ORACLE_SRCS := oracle/lapack_ref.c oracle/lapack_check.c oracle/host_math.c
LAPACK_ORACLE_HDRS := oracle/lapack_ref.h oracle/lapack_check.h oracle/host_math.h tuner/lapack_spec.h
$(TEST_BIN_DIR)/test_lu_gpu: tests/gpu/test_lu_gpu.c tuner/spec_lu.c $(LAPACK_ORACLE_SRCS) $(LAPACK_ORACLE_HDRS) \
                             tests/gpu/host_elems.h include/shoal.h $(GPU_TEST_OBJ) $(LIB_SHARED)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fopenmp -Ituner -Itests/gpu $< tuner/spec_lu.c $(LAPACK_ORACLE_SRCS) $(GPU_TEST_OBJ) -o $@ \
	    $(LDLIBS_SHOAL) -lm
$(TEST_BIN_DIR)/test_chol_qr_gpu: tests/gpu/test_chol_qr_gpu.c tuner/spec_chol_qr.c $(LAPACK_ORACLE_SRCS) \
                                  $(LAPACK_ORACLE_HDRS) tests/gpu/host_elems.h include/shoal.h $(GPU_TEST_OBJ) $(LIB_SHARED)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fopenmp -Ituner -Itests/gpu $< tuner/spec_chol_qr.c $(LAPACK_ORACLE_SRCS) $(GPU_TEST_OBJ) -o $@ \
	    $(LDLIBS_SHOAL) -lm
# gels: judged by its own host checks (normal equations, residuals, row space, the factor's Gram
# matrix) on oracle/lapack_ref.c's Householder QR and oracle/host_math.c's products.
TEST_BINS += $(TEST_BIN_DIR)/test_gels_gpu
$(TEST_BIN_DIR)/test_gels_gpu: tests/gpu/test_gels_gpu.c $(LAPACK_ORACLE_SRCS) $(LAPACK_ORACLE_HDRS) \
                               tests/gpu/host_elems.h include/shoal.h $(GPU_TEST_OBJ) $(LIB_SHARED)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fopenmp -Itests/gpu $< $(LAPACK_ORACLE_SRCS) $(GPU_TEST_OBJ) -o $@ $(LDLIBS_SHOAL) -lm
# orgbr: judged against tests/c/orgbr_ref.h (the reflectors applied to the identity one by one)
TEST_BINS += $(TEST_BIN_DIR)/test_orgbr_gpu
$(TEST_BIN_DIR)/test_orgbr_gpu: tests/gpu/test_orgbr_gpu.c tests/c/orgbr_ref.h tests/gpu/host_elems.h include/shoal.h \
                                $(GPU_TEST_OBJ) $(LIB_SHARED)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/gpu -Itests/c $< $(GPU_TEST_OBJ) -o $@ $(LDLIBS_SHOAL) -lm

# Spec routines: the generated argument tests (no GPU) and the GPU cases through the public entry
# points, judged by the shared oracle harness.
TEST_BINS += $(TEST_BIN_DIR)/test_spec_args $(TEST_BIN_DIR)/test_spec_gpu
$(TEST_BIN_DIR)/test_spec_args: generated/test_spec_args.c include/shoal.h $(LIB_SHARED)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $< -o $@ $(LDLIBS_SHOAL)
# The factorizations' generated argument tests (spec/routines/<r>.toml with abi = "lapack"), no GPU.
TEST_BINS += $(TEST_BIN_DIR)/test_lapack_spec_args
$(TEST_BIN_DIR)/test_lapack_spec_args: generated/test_lapack_spec_args.c include/shoal.h $(LIB_SHARED)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $< -o $@ $(LDLIBS_SHOAL)
# The level-2 routines' generated argument tests (spec/routines/<r>.toml with abi = "blas2"), no GPU.
TEST_BINS += $(TEST_BIN_DIR)/test_blas2_spec_args
$(TEST_BIN_DIR)/test_blas2_spec_args: generated/test_blas2_spec_args.c include/shoal.h $(LIB_SHARED)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $< -o $@ $(LDLIBS_SHOAL)
# GEMM's generated argument tests (spec/routines/<r>.toml with abi = "gemm"), no GPU.
TEST_BINS += $(TEST_BIN_DIR)/test_gemm_spec_args
$(TEST_BIN_DIR)/test_gemm_spec_args: generated/test_gemm_spec_args.c include/shoal.h $(LIB_SHARED)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $< -o $@ $(LDLIBS_SHOAL)
# the harness and the registry's internals (shoal_spec_served_by) come from the static library
$(TEST_BIN_DIR)/test_spec_gpu: tests/gpu/test_spec_gpu.c tests/gpu/spec_cases.h generated/spec_cases.c \
                               generated/spec_invoke.c $(ORACLE_OBJS) $(GPU_TEST_OBJ) $(LIB_STATIC)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/gpu $< generated/spec_cases.c generated/spec_invoke.c $(ORACLE_OBJS) $(GPU_TEST_OBJ) \
	    -o $@ $(LIB_STATIC) -L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64 -lcusolver -lcublas -lcudart -lstdc++ -lm
