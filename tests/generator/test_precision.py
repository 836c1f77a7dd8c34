"""The precision table (spec/precisions.toml) loads, every row is consistent, and a bad row is
refused with a message that names it."""
from __future__ import annotations

from pathlib import Path

import pytest

from generator import precision
from generator.precision import PRECISIONS, load


def test_rows():
    assert set(PRECISIONS) == {"s", "d", "c", "z"}
    s, d, c, z = (PRECISIONS[p] for p in "sdcz")
    assert (s.T, s.elem, s.V, s.vec_t, s.key_t) == ("float", 4, 4, "float4", "int")
    assert (d.T, d.elem, d.V, d.vec_t, d.key_t) == ("double", 8, 2, "double2", "long long")
    assert (c.R, c.elem, c.V, c.is_complex) == ("float", 8, 2, True)
    assert (z.R, z.elem, z.V, z.is_complex) == ("double", 16, 1, True)
    assert s.eps == c.eps == 2.0**-24 and d.eps == z.eps == 2.0**-53
    assert [p.blas for p in (s, d, c, z)] == ["S", "D", "C", "Z"]
    assert s.conj == d.conj == "" and c.conj and z.conj
    # the public element types (include/shoal.h) and the complex-only constructor
    assert [p.api for p in (s, d, c, z)] == ["float", "double", "shoal_complex_float", "shoal_complex_double"]
    assert s.make == d.make == "" and c.make and z.make and s.neg == d.neg == "-"


@pytest.mark.parametrize("name", sorted(PRECISIONS))
def test_row_is_consistent(name):
    p = PRECISIONS[name]
    assert p.name == name
    assert p.V * p.elem == 16
    real_bytes = p.elem // (2 if p.is_complex else 1)
    assert len(p.vec_fields) * real_bytes == 16
    assert p.key_bits == 8 * real_bytes
    assert p.R in ("float", "double") and (p.is_complex or p.R == p.T)
    assert p.eps == (2.0**-24 if p.R == "float" else 2.0**-53)
    for op in ("mul", "fma", "abs1", "fabs", "sqrt", "rsqrt", "rcp", "inv"):
        assert getattr(p, op).isidentifier(), op
    if p.is_complex:
        for op in ("conj", "neg", "make"):
            assert getattr(p, op).isidentifier(), op


def test_get_unknown():
    with pytest.raises(ValueError, match="unknown precision 'q'"):
        precision.get("q")


def _table(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "p.toml"
    path.write_text(text)
    return path


def _row_text(name: str, **override: object) -> str:
    import tomllib
    raw = tomllib.loads(precision.TABLE_PATH.read_text())[name]
    raw.update(override)
    def fmt(v: object) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, str):
            return '"' + v.replace('"', '\\"') + '"'
        if isinstance(v, list):
            return "[" + ", ".join(fmt(x) for x in v) + "]"
        return repr(v)
    return f"[{name}]\n" + "".join(f"{k} = {fmt(v)}\n" for k, v in raw.items() if v is not None)


def test_bad_rows_are_refused(tmp_path):
    assert load(_table(tmp_path, _row_text("d")))["d"] == PRECISIONS["d"]
    with pytest.raises(ValueError, match=r"\[d\].*missing rcp"):
        load(_table(tmp_path, _row_text("d", rcp=None)))
    with pytest.raises(ValueError, match=r"\[d\].*unknown colour"):
        load(_table(tmp_path, _row_text("d", colour="red")))
    with pytest.raises(ValueError, match=r"\[d\]: V \* elem = 32"):
        load(_table(tmp_path, _row_text("d", V=4)))
    with pytest.raises(ValueError, match=r"\[d\]\.elem: expected int"):
        load(_table(tmp_path, _row_text("d", elem="8")))
    with pytest.raises(ValueError, match=r"key_bits 32"):
        load(_table(tmp_path, _row_text("d", key_bits=32)))
