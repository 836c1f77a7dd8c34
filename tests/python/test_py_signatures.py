"""The package's ctypes prototypes against include/shoal.h: a changed or reordered C argument
must fail here, not shift the arguments of a GPU call."""
import _header
from shoal import _signatures


def test_header_parses_every_prototype():
    protos = _header.prototypes()
    assert len(protos) >= 60  # a parser that finds too few would make the checks below vacuous
    assert "shoal_dgemm_strided_batched" in protos and "shoal_sgemm_vbatched" in protos


def test_every_package_prototype_matches_the_header():
    protos = _header.prototypes()
    for name, codes in _signatures.SIGNATURES.items():
        assert name in protos, f"{name} is not declared in include/shoal.h"
        header_codes = " ".join(c for c, _ in protos[name][1])
        assert header_codes == codes, f"{name}: header {header_codes!r}, package {codes!r}"


def test_optional_prototypes_match_where_declared():
    protos = _header.prototypes()
    for name, codes in _signatures.OPTIONAL.items():
        if name in protos:
            assert " ".join(c for c, _ in protos[name][1]) == codes, name


def test_every_public_function_is_covered():
    declared = set(_header.prototypes())
    covered = set(_signatures.SIGNATURES) | set(_signatures.OPTIONAL)
    assert declared - covered == set(), "shoal.h functions the package does not declare"
