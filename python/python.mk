# `make python`: a wheel of the Python package carrying this build's libshoal (build/python/).
# Included from the Makefile. pip fetches setuptools for the build; offline it falls back on the
# installed setuptools and wheel (--no-build-isolation).
.PHONY: python
python: $(LIB_SHARED)
	@mkdir -p python/shoal/lib $(BUILD)/python
	cp -L $(LIB_SHARED) python/shoal/lib/libshoal.so
	$(PYTHON) -m pip wheel -q --no-deps -w $(BUILD)/python ./python || \
	  $(PYTHON) -m pip wheel -q --no-deps --no-build-isolation -w $(BUILD)/python ./python
	@echo "shoal: pip install $(BUILD)/python/shoal-*.whl"
