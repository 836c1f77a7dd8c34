# `make install PREFIX=/opt/shoal [DESTDIR=/staging]`: the shared and static library, the header,
# a pkg-config file and a CMake package, and the licence. Included by the top-level Makefile after
# packaging/library.mk. The pkg-config and CMake files locate the prefix from their own place, so
# a staged (DESTDIR) or moved tree works as well as the one installed in PREFIX.

PREFIX ?= /usr/local
DESTDIR ?=
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
DOCDIR ?= $(PREFIX)/share/doc/shoal
PKG_DIR := $(BUILD)/packaging
PKG_FILES := $(PKG_DIR)/shoal.pc $(PKG_DIR)/shoalConfig.cmake $(PKG_DIR)/shoalConfigVersion.cmake
INSTALL ?= install

.PHONY: install uninstall package-files
package-files: $(PKG_FILES)

# @CUDA_HOME@, @VERSION@ and @SOVERSION@ are the only substitutions.
$(PKG_DIR)/%: packaging/%.in include/shoal.h packaging/install.mk
	@mkdir -p $(@D)
	sed -e 's|@CUDA_HOME@|$(CUDA_HOME)|g' -e 's|@VERSION@|$(SHOAL_VERSION)|g' \
	    -e 's|@SOVERSION@|$(SHOAL_SOVERSION)|g' $< > $@

install: $(LIB_INSTALL_COPY) $(LIB_STATIC) $(PUBLIC_HEADERS) $(PKG_FILES) LICENSE
	$(INSTALL) -d $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(LIBDIR)/cmake/shoal $(DESTDIR)$(INCLUDEDIR) \
	    $(DESTDIR)$(DOCDIR)
	$(INSTALL) -m 755 $(LIB_INSTALL_COPY) $(DESTDIR)$(LIBDIR)/
	ln -sf $(notdir $(LIB_INSTALL_COPY)) $(DESTDIR)$(LIBDIR)/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $(DESTDIR)$(LIBDIR)/libshoal.so
	$(INSTALL) -m 644 $(LIB_STATIC) $(DESTDIR)$(LIBDIR)/
	$(INSTALL) -m 644 $(PUBLIC_HEADERS) $(DESTDIR)$(INCLUDEDIR)/
	$(INSTALL) -m 644 $(PKG_DIR)/shoal.pc $(DESTDIR)$(LIBDIR)/pkgconfig/
	$(INSTALL) -m 644 $(PKG_DIR)/shoalConfig.cmake $(PKG_DIR)/shoalConfigVersion.cmake \
	    $(DESTDIR)$(LIBDIR)/cmake/shoal/
	$(INSTALL) -m 644 LICENSE $(DESTDIR)$(DOCDIR)/
	@echo "shoal $(SHOAL_VERSION) installed in $(DESTDIR)$(PREFIX)"

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/libshoal.so $(DESTDIR)$(LIBDIR)/$(LIB_SONAME) \
	      $(DESTDIR)$(LIBDIR)/$(notdir $(LIB_INSTALL_COPY)) $(DESTDIR)$(LIBDIR)/libshoal.a \
	      $(addprefix $(DESTDIR)$(INCLUDEDIR)/,$(notdir $(PUBLIC_HEADERS))) \
	      $(DESTDIR)$(LIBDIR)/pkgconfig/shoal.pc $(DESTDIR)$(LIBDIR)/cmake/shoal/shoalConfig.cmake \
	      $(DESTDIR)$(LIBDIR)/cmake/shoal/shoalConfigVersion.cmake $(DESTDIR)$(DOCDIR)/LICENSE
	-rmdir $(DESTDIR)$(LIBDIR)/cmake/shoal $(DESTDIR)$(DOCDIR) 2>/dev/null
