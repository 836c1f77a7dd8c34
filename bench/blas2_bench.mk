# The level-2 / variable-size benchmark (bench/blas2_bench.c; bench/run_blas2_bench.py runs it).
# Included by bench/bench.mk, after BENCH_OBJ_DIR and the rules of bench_util.o and
# bench_kernels.o. The host references of the checks come from tuner/host_blas2.c (shared with
# the tuner); no cuSOLVER, no OpenBLAS.
BLAS2_BENCH_BIN := $(BUILD)/bin/shoal_blas2_bench
BLAS2_BENCH_OBJS := $(BENCH_OBJ_DIR)/blas2_bench.o $(BENCH_OBJ_DIR)/host_blas2.o \
                    $(BENCH_OBJ_DIR)/bench_util.o $(BENCH_OBJ_DIR)/bench_kernels.o

$(BENCH_OBJ_DIR)/blas2_bench.o: bench/blas2_bench.c bench/bench_kernels.h bench/bench_util.h \
                                tuner/host_blas2.h include/shoal.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fopenmp -Ibench -Ituner -c $< -o $@

$(BENCH_OBJ_DIR)/host_blas2.o: tuner/host_blas2.c tuner/host_blas2.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Ituner -c $< -o $@

$(BLAS2_BENCH_BIN): $(BLAS2_BENCH_OBJS) $(LIB_SHARED)
	@mkdir -p $(@D)
	$(CC) -fopenmp $(BLAS2_BENCH_OBJS) -o $@ $(LDLIBS_SHOAL) -lcublas -lcudart -lstdc++ -lm
