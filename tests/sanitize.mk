# `make sanitize`: every GPU test program under compute-sanitizer memcheck, racecheck, synccheck
# and initcheck at reduced batches, failing on any report (scripts/sanitize.sh, docs/sanitize.md;
# issue 29). Included by the top-level Makefile after tests/tests.mk, whose TEST_BINS it draws on:
# a routine whose GPU test program is in TEST_BINS (or whose case table feeds test_spec_gpu) is
# covered without touching this file.
#   make sanitize SANITIZE_TOOLS=memcheck SHOAL_TEST_CASES='d*'   one tool, a subset of the cases
#   make sanitize-run    the same over programs already built (no build step; e.g. carried to
#                        the GPU machine)

SANITIZE_PROGS ?= $(filter %_gpu,$(TEST_BINS))
SANITIZE_TOOLS ?= memcheck racecheck synccheck initcheck
SANITIZE_LOG_DIR ?= $(BUILD)/sanitize
# the environment the script reads; SHOAL_TEST_CASES and SHOAL_REQUIRE_GPU pass through as set
SANITIZE_ENV = SANITIZE_TOOLS='$(SANITIZE_TOOLS)' SANITIZE_LOG_DIR='$(SANITIZE_LOG_DIR)' CUDA_HOME='$(CUDA_HOME)'

.PHONY: sanitize-run
sanitize: $(SANITIZE_PROGS)
	$(SANITIZE_ENV) scripts/sanitize.sh $(SANITIZE_PROGS)
sanitize-run:
	$(SANITIZE_ENV) scripts/sanitize.sh $(SANITIZE_PROGS)
