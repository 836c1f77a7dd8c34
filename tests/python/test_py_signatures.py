"""The package's ctypes prototypes against include/shoal.h and the headers it includes
(shoal_routines.h, generated from spec/routines/): a changed or reordered C argument must fail
here, not shift the arguments of a GPU call, and a new public function must be declared."""
import re

import _header
from shoal import _signatures


def test_header_parses_every_prototype():
    protos = _header.prototypes()
    assert len(protos) >= 60  # a parser that finds too few would make the checks below vacuous
    assert "shoal_dgemm_strided_batched" in protos and "shoal_sgemm_vbatched" in protos


def test_included_headers_are_read():
    """Every quoted #include of shoal.h is followed, and every function a header names is parsed
    (counted independently of the parser: `shoal_name(` after a return type at a line start)."""
    files = _header.headers()
    assert [f.name for f in files][:2] == ["shoal.h", "shoal_routines.h"]
    protos = _header.prototypes()
    for f in files:
        text = re.sub(r"/\*.*?\*/", " ", f.read_text(), flags=re.S)
        named = set(re.findall(r"^\s*(?:const\s+)?\w+\s*\**\s*(shoal_\w+)\s*\(", text, re.M))
        assert named, f"{f.name} declares no function: the independent count is broken"
        assert named <= set(protos), f"{f.name}: not parsed: {sorted(named - set(protos))}"
    assert {"shoal_strsm_batched", "shoal_dsyrk_strided_batched"} <= set(protos)


def test_every_package_prototype_matches_the_header():
    protos = _header.prototypes()
    for name, codes in _signatures.SIGNATURES.items():
        assert name in protos, f"{name} is not declared in include/shoal.h or its includes"
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
    missing = declared - covered
    assert missing == set(), ("shoal.h (or its includes) declares functions the package does "
                              f"not: {sorted(missing)}; add them to python/shoal/_signatures.py")
