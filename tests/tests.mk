# Build rules of the C test programs; included by the top-level Makefile, which defines CC,
# CFLAGS, BUILD, LIB_SHARED, LDLIBS_SHOAL and OPENBLAS_LIBS. `make test` builds $(TEST_BINS) and
# then runs pytest, whose wrappers (tests/test_c_api.py, tests/test_gpu_gemm.py) run them case
# by case.

TEST_BIN_DIR := $(BUILD)/tests
TEST_OBJ_DIR := $(BUILD)/tests/obj
TEST_BINS := $(TEST_BIN_DIR)/test_api_args $(TEST_BIN_DIR)/test_dispatch $(TEST_BIN_DIR)/test_gemm_gpu

$(TEST_OBJ_DIR)/gemm_check.o: tests/gpu/gemm_check.c tests/gpu/gemm_check.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/gpu -c $< -o $@

# Needs no GPU: argument checks run before the handle is looked at.
$(TEST_BIN_DIR)/test_api_args: tests/c/test_api_args.c include/shoal.h $(LIB_SHARED)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $< -o $@ $(LDLIBS_SHOAL)

# Dispatch logic on hand-made tables: runtime/dispatch.c alone, no CUDA at all.
$(TEST_BIN_DIR)/test_dispatch: tests/c/test_dispatch.c runtime/dispatch.c runtime/dispatch.h runtime/dispatch_table.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) tests/c/test_dispatch.c runtime/dispatch.c -o $@ -lm

# Host reference: OpenBLAS, parallel over the batch with OpenMP.
$(TEST_BIN_DIR)/test_gemm_gpu: tests/gpu/test_gemm_gpu.c $(TEST_OBJ_DIR)/gemm_check.o \
                               tests/gpu/gemm_check.h include/shoal.h $(LIB_SHARED)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fopenmp -Itests/gpu $< $(TEST_OBJ_DIR)/gemm_check.o -o $@ \
	    $(LDLIBS_SHOAL) $(OPENBLAS_LIBS) -lm
