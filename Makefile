# shoal: `make` builds the library from the shipped tuned database, `make test` runs every test,
# `make tune` tunes this machine's GPU, `make bench` compares with cuBLAS and OpenBLAS.

CUDA_HOME ?= /usr/local/cuda
NVCC ?= $(CUDA_HOME)/bin/nvcc
CC ?= gcc
# GPU targets: compute capabilities without the dot (80 = sm_80, 90 = sm_90). Machine code for
# each, plus PTX for the newest, which the driver compiles for GPUs newer than every listed one.
CUDA_ARCHS ?= 80 90
CUDA_PTX_ARCH ?= $(lastword $(shell printf '%s\n' $(CUDA_ARCHS) | sort -n))
# Every routine with a search space (search_space/<r>.toml); `make tune ROUTINES="getrf potrf"` tunes a subset.
ROUTINES ?= $(sort $(basename $(notdir $(wildcard search_space/*.toml))))
PRECISIONS ?= s d
PYTHON ?= python3
# Emit replaces a rule's kernel by another measured within 1 + this of it at the rule's shape
# (generator/fold.py): fewer kernels, a shorter build. 0 ships every winner.
FOLD_TOLERANCE ?= 0.02
# 1: the replacements are a greedy set cover of the rules, which may ship a kernel no rule chose
# that serves several (generator/cover.py); 0: only kernels shipped anyway are replacements.
FOLD_COVER ?= 1

BUILD := build
VENV := .venv
PY := $(VENV)/bin/python
DB := tuned_db/shoal.sqlite
DB_SQL := tuned_db/shoal.sql.gz

GENCODE := $(foreach a,$(CUDA_ARCHS),-gencode=arch=compute_$(a),code=sm_$(a)) \
           -gencode=arch=compute_$(CUDA_PTX_ARCH),code=compute_$(CUDA_PTX_ARCH)
# Fatbins compressed for size (about 5x smaller kernels; decompressed once, when the driver loads
# a module); empty where nvcc predates --compress-mode, or to turn it off.
NVCC_COMPRESS ?= $(shell $(NVCC) --help 2>/dev/null | grep -q -e '--compress-mode' && echo --compress-mode=size)
CFLAGS := -std=c11 -O2 -Wall -Wextra -fPIC -D_GNU_SOURCE -Iinclude -Iruntime -Ioracle -I$(CUDA_HOME)/include
NVCCFLAGS := -O3 -std=c++17 $(GENCODE) $(NVCC_COMPRESS) -Xcompiler -fPIC -Iinclude -Iruntime
CUDA_LIBS := -L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64 -lcusolver -lcublas -lcudart -lstdc++ -lm
LIB_SHARED := lib/libshoal.so
LIB_STATIC := lib/libshoal.a
# $$ORIGIN: test and bench programs live two levels below the repository (build/tests, build/bin)
LDLIBS_SHOAL := -Llib -lshoal -Wl,-rpath,'$$ORIGIN/../../lib' $(CUDA_LIBS)
OPENBLAS_LIBS := -lopenblas

comma := ,
empty :=
space := $(empty) $(empty)

# runtime/drivers/: routines served by a sequence of dispatched steps (spec routines' drivers)
RUNTIME_SRCS := $(wildcard runtime/*.c) $(wildcard runtime/drivers/*.c)
RUNTIME_HDRS := $(wildcard runtime/*.h) $(wildcard runtime/*.cuh) $(wildcard runtime/drivers/*.h) $(wildcard runtime/drivers/*.cuh)
RUNTIME_OBJS := $(patsubst runtime/%.c,$(BUILD)/obj/runtime/%.o,$(RUNTIME_SRCS)) \
                $(patsubst runtime/%.cu,$(BUILD)/obj/runtime/%.cu.o,$(wildcard runtime/*.cu) $(wildcard runtime/drivers/*.cu))
# oracle/: host references and checks and the device harness of the spec routines (tuner, tests, bench)
ORACLE_OBJS := $(patsubst oracle/%.c,$(BUILD)/obj/oracle/%.o,$(wildcard oracle/*.c))
# generated/sources.mk (written by emit, which make runs first) names GEN_CU and GEN_C. A plain
# `include`, not `-include`: make silently ignores a failed remake of a `-include`d file, which
# once let a failed emit (no Jinja2) end in a libshoal without kernels and a later link error.
# Goals that need no generated sources skip it, so `make clean` never runs the generator.
GEN_DIR := generated
NO_GEN_GOALS := clean distclean venv deps plots plot-deps
ifneq ($(MAKECMDGOALS),)
ifeq ($(filter-out $(NO_GEN_GOALS),$(MAKECMDGOALS)),)
SKIP_GEN_SOURCES := 1
endif
endif
ifndef SKIP_GEN_SOURCES
include generated/sources.mk
endif
GEN_OBJS := $(patsubst generated/%.cu,$(BUILD)/obj/generated/%.o,$(GEN_CU)) \
            $(patsubst generated/%.c,$(BUILD)/obj/generated/%.o,$(GEN_C))
# the tuner launches candidates through the library's own launch code and runs drivers through the
# library itself: it links the static library
TUNER_OBJS := $(patsubst tuner/%.c,$(BUILD)/obj/tuner/%.o,$(wildcard tuner/*.c)) $(BUILD)/obj/tuner/device_util.o \
              $(ORACLE_OBJS)
TUNER := $(BUILD)/bin/shoal_tune
include packaging/build.mk
GENERATOR_SRCS := $(wildcard generator/*.py) $(wildcard templates/*.j2) $(wildcard templates/lib/*.j2) \
                  $(wildcard search_space/*.toml) spec/precisions.toml $(wildcard spec/routines/*.toml)

.PHONY: all deps venv plot-deps plots tune test test-programs sanitize bench clean distclean show
.DELETE_ON_ERROR:

all: $(LIB_SHARED) $(LIB_STATIC) include/shoal.h package-files $(TUNER)

# What a target needs from the system is checked once per part, before the first command that
# needs it, so each target asks only for its own parts: the library needs CUDA (nvcc, cuBLAS,
# cuSOLVER) and the generator's Python; the tuner adds NVRTC; only the programs that compare with
# OpenBLAS (test_gemm_gpu, shoal_bench, shoal_lapack_bench) need it. Nothing needs SQLite headers.
# `make deps` checks every part.
DEPS_OK := $(BUILD)/deps
DEP_PARTS := python cuda nvrtc openblas
deps:
	@CC='$(CC)' CUDA_HOME='$(CUDA_HOME)' PYTHON='$(PYTHON)' scripts/check_deps.sh $(DEP_PARTS)
$(DEPS_OK)/%.ok: scripts/check_deps.sh
	@CC='$(CC)' CUDA_HOME='$(CUDA_HOME)' PYTHON='$(PYTHON)' scripts/check_deps.sh $*
	@mkdir -p $(@D) && touch $@
# kept: as files a pattern rule made, make would delete them as intermediates and check again
.PRECIOUS: $(DEPS_OK)/%.ok

# A virtual environment with the pinned packages. Without network (e.g. the GPU machine) it falls
# back on the system's own Jinja2 and pytest, and says so.
venv: $(VENV)/.stamp
$(VENV)/.stamp: requirements.txt
	@PYTHON='$(PYTHON)' scripts/check_deps.sh python
	$(PYTHON) -m venv --system-site-packages $(VENV)
	$(VENV)/bin/python -m pip install -q --disable-pip-version-check -r requirements.txt || \
	  ( $(VENV)/bin/python -c 'import jinja2, pytest' && echo "shoal: pip failed; using the system's jinja2 and pytest" ) || \
	  { echo "shoal: pip could not install requirements.txt and $(PYTHON) has no jinja2 and pytest of its own:" \
	         "install them (e.g. apt-get install python3-jinja2 python3-pytest) or give pip a package index" >&2; exit 1; }
	touch $@

# matplotlib, for the benchmarks' PNGs and the tests that draw them (bench/requirements-plot.txt,
# pinned). Where pip cannot reach an index (e.g. the GPU machine) this says so in one line and goes
# on: the benchmarks skip their PNGs, the PNG tests skip. CI sets SHOAL_REQUIRE_PLOT=1 (.ci/run):
# there a failed install fails the build, and the PNG tests fail rather than skip.
plot-deps: $(VENV)/.plot-stamp
$(VENV)/.plot-stamp: bench/requirements-plot.txt | $(VENV)/.stamp
	@$(VENV)/bin/python -m pip install -q --disable-pip-version-check -r bench/requirements-plot.txt && touch $@ || \
	  { echo "shoal: pip could not install bench/requirements-plot.txt: no PNGs, the PNG tests skip" >&2; \
	    [ -z "$$SHOAL_REQUIRE_PLOT" ]; }

# The tuned database is committed as a reviewable SQL dump; the .sqlite file is derived from it.
$(DB): $(wildcard $(DB_SQL)) tuned_db/schema.sql | $(VENV)/.stamp
	$(PY) -m generator load-db --sql $(DB_SQL) --db $@

# The emitted tables depend on FOLD_TOLERANCE and FOLD_COVER: a stamp named by their values, the
# only one there, so that any change of them (back to earlier ones too) emits again.
FOLD_STAMP := generated/.fold-tolerance-$(FOLD_TOLERANCE)-cover$(FOLD_COVER)
$(FOLD_STAMP):
	rm -f generated/.fold-tolerance-*
	@mkdir -p $(@D)
	touch $@
generated/sources.mk: $(DB) $(GENERATOR_SRCS) $(FOLD_STAMP) | $(VENV)/.stamp
	$(PY) -m generator emit --db $(DB) --out generated --fold-cover $(FOLD_COVER) --fold-tolerance $(FOLD_TOLERANCE)
	touch $@
# emit also writes the spec routines' test and benchmark glue (not part of the library)
GEN_TEST_C := generated/test_spec_args.c generated/spec_invoke.c generated/spec_cases.c generated/test_lapack_spec_args.c \
              generated/test_blas2_spec_args.c generated/test_gemm_spec_args.c
$(GEN_CU) $(GEN_C) $(GEN_TEST_C): generated/sources.mk

$(BUILD)/obj/runtime/%.o: runtime/%.c $(RUNTIME_HDRS) include/shoal.h generated/sources.mk | $(DEPS_OK)/cuda.ok
	@mkdir -p $(dir $@)
	$(call compile_step,cc,$(CC) $(CFLAGS) -c $< -o $@)
$(BUILD)/obj/runtime/%.cu.o: runtime/%.cu $(RUNTIME_HDRS) include/shoal.h generated/sources.mk | $(DEPS_OK)/cuda.ok
	@mkdir -p $(dir $@)
	$(call compile_step,nvcc,$(NVCC) $(NVCCFLAGS) -c $< -o $@)
$(BUILD)/obj/generated/%.o: generated/%.cu runtime/kernel_abi.h runtime/lapack_abi.h runtime/blas2_abi.h \
                            runtime/spec_abi.h runtime/kernel_util.cuh | $(DEPS_OK)/cuda.ok
	@mkdir -p $(dir $@)
	$(call compile_step,nvcc,$(NVCC) $(NVCCFLAGS) -c $< -o $@)
$(BUILD)/obj/generated/%.o: generated/%.c runtime/dispatch_table.h runtime/spec_run.h runtime/lapack_run.h \
                            runtime/lapack_abi.h runtime/lapack_routines.h runtime/blas2_run.h \
                            runtime/blas2_abi.h runtime/lapack_drivers.h runtime/gemm_run.h runtime/kernel_abi.h include/shoal.h | $(DEPS_OK)/cuda.ok
	@mkdir -p $(dir $@)
	$(call compile_step,cc,$(CC) $(CFLAGS) -c $< -o $@)
$(BUILD)/obj/oracle/%.o: oracle/%.c $(wildcard oracle/*.h) $(RUNTIME_HDRS) include/shoal.h | $(DEPS_OK)/cuda.ok
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@
$(BUILD)/obj/tuner/%.o: tuner/%.c $(wildcard tuner/*.h) $(RUNTIME_HDRS) generated/sources.mk | $(DEPS_OK)/cuda.ok $(DEPS_OK)/nvrtc.ok
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@
$(BUILD)/obj/tuner/device_util.o: tuner/device_util.cu tuner/device_util.h | $(DEPS_OK)/cuda.ok
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -c $< -o $@

$(LIB_STATIC): $(RUNTIME_OBJS) $(GEN_OBJS)
	@mkdir -p lib
	rm -f $@ && ar rcs $@ $^
$(TUNER): $(TUNER_OBJS) $(LIB_STATIC)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ -L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64 -lnvrtc -lcusolver -lcublas -lcudart -lstdc++ -lpthread -lm

include packaging/library.mk
include packaging/install.mk

include tests/tests.mk
include tests/sanitize.mk
include bench/bench.mk
include python/python.mk

# Tune this machine's GPU; resumable, so an interrupted run continues where it stopped.
# e.g. make tune ROUTINES=gemm PRECISIONS=d TUNE_MINUTES=9
TUNE_MINUTES ?= 0
tune: $(TUNER) $(DB) | $(VENV)/.stamp
	$(PY) -m generator tune --db $(DB) --tuner $(TUNER) --work $(BUILD)/tune \
	  --routines $(subst $(space),$(comma),$(strip $(ROUTINES))) \
	  --precisions $(subst $(space),$(comma),$(strip $(PRECISIONS))) \
	  $(if $(filter-out 0,$(TUNE_MINUTES)),--max-minutes $(TUNE_MINUTES)) \
	  $(if $(REMEASURE_DRIVERS),--remeasure-drivers $(filter-out 1,$(REMEASURE_DRIVERS)))
	$(PY) -m generator prune-db --db $(DB)
	$(PY) -m generator dump-db --db $(DB) --sql $(DB_SQL)

show: $(DB) | $(VENV)/.stamp
	$(PY) -m generator show --db $(DB)

# The part checks first, so that a missing OpenBLAS is named before the long library build.
test: $(DEPS_OK)/openblas.ok all $(TEST_BINS) | $(VENV)/.stamp $(VENV)/.plot-stamp
	$(PY) -m pytest tests

# Every test program, built and not run (e.g. before a GPU session runs the suite:
# scripts/device_session.sh BUILD=1 BUILD_TARGETS=test-programs TESTS=tests).
test-programs: $(DEPS_OK)/openblas.ok all $(TEST_BINS)

# GEMM (bench/run_bench.py) and the factorizations (bench/run_lapack_bench.py); results in
# bench/results/.
bench: $(DEPS_OK)/openblas.ok all $(BENCH_BIN) $(LAPACK_BENCH_BIN) $(BLAS2_BENCH_BIN) $(SPEC_BENCH_BIN) | $(VENV)/.stamp \
       $(VENV)/.plot-stamp
	$(PY) bench/run_bench.py
	$(PY) bench/run_lapack_bench.py
	$(PY) bench/run_blas2_bench.py
	$(PY) bench/run_spec_bench.py

# The PNGs that docs/results.md links, from the committed CSVs (bench/results_doc.py's SECTIONS);
# commit them with the CSVs. Needs matplotlib (plot-deps); without it, says so and writes none.
plots: | $(VENV)/.plot-stamp
	$(PY) bench/plot.py --sections

clean:
	rm -rf $(BUILD) lib shoal.pc generated/*.cu generated/*.c generated/sources.mk generated/.fold-tolerance-* $(DB)

distclean: clean
	rm -rf $(VENV)
