# Build rules of the level-2 (gemv, trsv, gemv_vbatched) test programs; included by tests/tests.mk,
# which adds $(BLAS2_TEST_BINS) to $(TEST_BINS). Uses TEST_BIN_DIR from tests/tests.mk and CC,
# CFLAGS, LIB_SHARED, LDLIBS_SHOAL from the top-level Makefile. The pytest wrappers
# (tests/test_blas2_args.py, tests/test_gpu_blas2.py) run them case by case.

BLAS2_TEST_BINS := $(TEST_BIN_DIR)/test_blas2_args $(TEST_BIN_DIR)/test_blas2_gpu

# Needs no GPU: argument checks run before the handle is looked at.
$(TEST_BIN_DIR)/test_blas2_args: tests/c/test_blas2_args.c include/shoal.h $(LIB_SHARED)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $< -o $@ $(LDLIBS_SHOAL)

# Judged by the tuner's host references (tuner/host_blas2.c), parallel over the batch with OpenMP;
# no OpenBLAS.
$(TEST_BIN_DIR)/test_blas2_gpu: tests/gpu/test_blas2_gpu.c tuner/host_blas2.c tuner/host_blas2.h \
                                include/shoal.h $(GPU_TEST_OBJ) $(LIB_SHARED)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fopenmp -Ituner -Itests/gpu $< tuner/host_blas2.c $(GPU_TEST_OBJ) -o $@ $(LDLIBS_SHOAL) -lm
