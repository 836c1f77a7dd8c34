# The shared library as a distribution ships one: a versioned file with a soname and its two
# links, exporting only the functions declared in the public header. Included by the top-level
# Makefile after packaging/build.mk (LIB_OBJS) and CUDA_LIBS; defines LIB_REAL, the file that
# LIB_SHARED (lib/libshoal.so, what -lshoal finds in the build tree) links to.

# shoal.h and the headers it includes with quotes: what installs and what the library exports
PUBLIC_HEADERS := $(or $(shell $(PYTHON) packaging/version_script.py --headers include/shoal.h 2>/dev/null),include/shoal.h)
SHOAL_VERSION := $(shell sed -n 's/^\#define SHOAL_VERSION_[A-Z]* *\([0-9][0-9]*\).*/\1/p' include/shoal.h | paste -sd. -)
SHOAL_SOVERSION := $(firstword $(subst ., ,$(SHOAL_VERSION)))
LIB_SONAME := libshoal.so.$(SHOAL_SOVERSION)
LIB_REAL := lib/libshoal.so.$(SHOAL_VERSION)
VERSION_SCRIPT := $(BUILD)/libshoal.map
# The copy that `make install` installs: the same objects linked without the toolkit's rpath
# (the installed library finds CUDA as cuBLAS itself does, through the loader's configuration).
LIB_INSTALL_COPY := $(BUILD)/install/libshoal.so.$(SHOAL_VERSION)
CUDA_LINK := -L$(CUDA_HOME)/lib64 -lcusolver -lcublas -lcudart -lstdc++ -lm
LIB_LDFLAGS = -shared -Wl,-soname,$(LIB_SONAME) -Wl,--version-script,$(VERSION_SCRIPT) -Wl,--no-undefined

$(VERSION_SCRIPT): $(PUBLIC_HEADERS) packaging/version_script.py
	@mkdir -p $(@D)
	$(PYTHON) packaging/version_script.py $(PUBLIC_HEADERS) > $@

# The build tree's copy keeps the toolkit rpath, so tests and benchmarks run without any loader
# configuration.
$(LIB_REAL): $(LIB_OBJS) $(VERSION_SCRIPT)
	@mkdir -p $(@D)
	@echo "[link] $@"
	$(CC) $(LIB_LDFLAGS) -o $@ $(LIB_OBJS) $(CUDA_LIBS)
$(LIB_SHARED): $(LIB_REAL)
	ln -sf $(notdir $(LIB_REAL)) lib/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $@
$(LIB_INSTALL_COPY): $(LIB_OBJS) $(VERSION_SCRIPT)
	@mkdir -p $(@D)
	@echo "[link] $@ (for installation: no rpath)"
	$(CC) $(LIB_LDFLAGS) -o $@ $(LIB_OBJS) $(CUDA_LINK)
