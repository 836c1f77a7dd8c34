# Build rules of the variable-size batched test programs: GEMM (gemm_vbatched, imax_device) and
# Cholesky (potrf_vbatched; potrs_vbatched and posv_vbatched); meant to be included by tests/tests.mk, which adds
# $(VBATCHED_TEST_BINS) to $(TEST_BINS) (so make sanitize covers them too). Uses TEST_BIN_DIR from
# tests/tests.mk and CC, CFLAGS, LIB_SHARED, LDLIBS_SHOAL from the top-level Makefile. The pytest
# wrappers (tests/test_gpu_vbatched_gemm.py, tests/test_gpu_potrf_vbatched.py,
# tests/test_gpu_posv_vbatched.py) run them case by case.

VBATCHED_TEST_BINS := $(TEST_BIN_DIR)/test_vbatched_gemm_gpu

# Judged by its own host reference in double, parallel over the batch with OpenMP; no OpenBLAS.
$(TEST_BIN_DIR)/test_vbatched_gemm_gpu: tests/gpu/test_vbatched_gemm_gpu.c include/shoal.h $(GPU_TEST_OBJ) $(LIB_SHARED)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fopenmp -Itests/gpu $< $(GPU_TEST_OBJ) -o $@ $(LDLIBS_SHOAL) -lm

# The Cholesky programs' shared members, host images, device copies and checks (OpenMP over the
# members): tests/gpu/vbatched_chol.{h,c}.
VBATCHED_CHOL_OBJ := $(TEST_OBJ_DIR)/vbatched_chol.o
VBATCHED_CHOL_HDRS := tests/gpu/vbatched_chol.h tests/gpu/gpu_test.h tests/gpu/host_elems.h include/shoal.h
$(VBATCHED_CHOL_OBJ): tests/gpu/vbatched_chol.c $(VBATCHED_CHOL_HDRS) | $(DEPS_OK)/cuda.ok
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fopenmp -Itests/gpu -c $< -o $@

# Judged by its own host residuals ||A - L L^H|| in double, OpenMP over the members; no LAPACK.
VBATCHED_TEST_BINS += $(TEST_BIN_DIR)/test_potrf_vbatched_gpu
$(TEST_BIN_DIR)/test_potrf_vbatched_gpu: tests/gpu/test_potrf_vbatched_gpu.c $(VBATCHED_CHOL_OBJ) $(VBATCHED_CHOL_HDRS) \
                                         $(GPU_TEST_OBJ) $(LIB_SHARED)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fopenmp -Itests/gpu $< $(VBATCHED_CHOL_OBJ) $(GPU_TEST_OBJ) -o $@ $(LDLIBS_SHOAL) -lm

# potrs_vbatched (on potrf_vbatched's factors) and posv_vbatched: host residuals ||A X - B|| in
# double, posv's factors bit for bit against potrf_vbatched's; no LAPACK.
VBATCHED_TEST_BINS += $(TEST_BIN_DIR)/test_posv_vbatched_gpu
$(TEST_BIN_DIR)/test_posv_vbatched_gpu: tests/gpu/test_posv_vbatched_gpu.c $(VBATCHED_CHOL_OBJ) $(VBATCHED_CHOL_HDRS) \
                                        $(GPU_TEST_OBJ) $(LIB_SHARED)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fopenmp -Itests/gpu $< $(VBATCHED_CHOL_OBJ) $(GPU_TEST_OBJ) -o $@ $(LDLIBS_SHOAL) -lm
