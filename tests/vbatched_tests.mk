# Build rules of the variable-size batched test programs: GEMM (gemm_vbatched, imax_device) and
# Cholesky (potrf_vbatched); meant to be included by tests/tests.mk, which adds
# $(VBATCHED_TEST_BINS) to $(TEST_BINS) (so make sanitize covers them too). Uses TEST_BIN_DIR from
# tests/tests.mk and CC, CFLAGS, LIB_SHARED, LDLIBS_SHOAL from the top-level Makefile. The pytest
# wrappers (tests/test_gpu_vbatched_gemm.py, tests/test_gpu_potrf_vbatched.py) run them case by case.

VBATCHED_TEST_BINS := $(TEST_BIN_DIR)/test_vbatched_gemm_gpu

# Judged by its own host reference in double, parallel over the batch with OpenMP; no OpenBLAS.
$(TEST_BIN_DIR)/test_vbatched_gemm_gpu: tests/gpu/test_vbatched_gemm_gpu.c include/shoal.h $(GPU_TEST_OBJ) $(LIB_SHARED)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fopenmp -Itests/gpu $< $(GPU_TEST_OBJ) -o $@ $(LDLIBS_SHOAL) -lm

# Judged by its own host residuals ||A - L L^H|| in double, OpenMP over the members; no LAPACK.
VBATCHED_TEST_BINS += $(TEST_BIN_DIR)/test_potrf_vbatched_gpu
$(TEST_BIN_DIR)/test_potrf_vbatched_gpu: tests/gpu/test_potrf_vbatched_gpu.c tests/gpu/host_elems.h include/shoal.h \
                                         $(GPU_TEST_OBJ) $(LIB_SHARED)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fopenmp -Itests/gpu $< $(GPU_TEST_OBJ) -o $@ $(LDLIBS_SHOAL) -lm
