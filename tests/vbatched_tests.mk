# Build rule of the variable-size batched GEMM test program (gemm_vbatched, imax_device); meant to
# be included by tests/tests.mk, which adds $(VBATCHED_TEST_BINS) to $(TEST_BINS). Uses TEST_BIN_DIR
# from tests/tests.mk and CC, CFLAGS, LIB_SHARED, LDLIBS_SHOAL from the top-level Makefile. The
# pytest wrapper (tests/test_gpu_vbatched_gemm.py) runs it case by case.

VBATCHED_TEST_BINS := $(TEST_BIN_DIR)/test_vbatched_gemm_gpu

# Judged by its own host reference in double, parallel over the batch with OpenMP; no OpenBLAS.
$(TEST_BIN_DIR)/test_vbatched_gemm_gpu: tests/gpu/test_vbatched_gemm_gpu.c include/shoal.h $(GPU_TEST_OBJ) $(LIB_SHARED)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fopenmp -Itests/gpu $< $(GPU_TEST_OBJ) -o $@ $(LDLIBS_SHOAL) -lm
