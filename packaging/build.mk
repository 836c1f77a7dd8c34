# How the library build runs: parallel by default and one progress line per compiled file.
# Included by the top-level Makefile after RUNTIME_OBJS and GEN_OBJS are known.

# One job per core unless the command line says otherwise (make -jN, make -j1); not for a dry
# run (make -n), whose printed order tools and tests read.
ifeq ($(filter -j% j%,$(MAKEFLAGS))$(findstring n,$(firstword -$(MAKEFLAGS))),)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 1)
endif

# V=1 prints the full compiler command lines as well.
V ?= 0
LIB_OBJS := $(RUNTIME_OBJS) $(GEN_OBJS)
PROGRESS_TOTAL := $(words $(LIB_OBJS))

# $(call compile_step,TOOL,COMMAND): runs COMMAND, then prints
#   [ done/total] TOOL source (seconds)
# where done counts this build's library objects that exist now (so a resumed build starts where
# it stopped; objects of kernel files an earlier emit wrote do not count); the kernel files take
# tens of seconds each and make alone would print nothing then.
compile_step = @t0=$$(date +%s); $(if $(filter 1,$(V)),echo '$(2)';) $(2) && \
  printf '[%4d/%d] %-4s %s (%d s)\n' \
    "$$(ls $(LIB_OBJS) 2>/dev/null | wc -l)" \
    $(PROGRESS_TOTAL) '$(1)' '$<' "$$(( $$(date +%s) - t0 ))"
