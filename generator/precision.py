"""The precision substitution table, loaded from spec/precisions.toml.

Templates are written once and rendered per precision from these rows (MAGMA-style codegen), so
adding a precision means adding a row to the table (docs/adding-a-precision.md), never copying a
template. Templates see a row as `P` and use its names (P.T, P.vec_t, P.V, P.sfmin, P.rcp, ...)
rather than branching on the element size."""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from pathlib import Path

TABLE_PATH = Path(__file__).resolve().parent.parent / "spec" / "precisions.toml"


@dataclass(frozen=True)
class Precision:
    name: str            # BLAS prefix: 's', 'd', 'c', 'z' (the table's key)
    T: str               # C/CUDA element type as templates spell it
    api: str             # the element type of the public C API (include/shoal.h)
    R: str               # its real type
    elem: int            # bytes per element; restrictions and byte counts use it
    is_complex: bool
    eps: float           # unit roundoff of R; the tuner's error is in these units
    blas: str            # cuBLAS letter (upper case)
    V: int               # elements per 16-byte vector
    vec_t: str           # the 16-byte vector type
    make_vec: str        # its constructor
    vec_fields: tuple[str, ...]   # its members in memory order
    sfmin: str           # smallest normal of R, as a literal
    nan: str             # a quiet NaN of R, as an expression
    ssq_small: str       # sums of squares in [ssq_small, ssq_big] need no scaling
    ssq_big: str
    key_t: str           # pivot keys: |x| of R as an order-preserving signed integer
    key_bits: int
    key_inf: str
    key_top: str
    key_off: str
    as_key: str
    abs_mask: str
    mul: str             # scalar operations (names of functions)
    fma: str
    conj: str            # '' for real types: conj(x) renders as (x)
    neg: str             # '-' for real types: neg(x) renders as -(x)
    inv: str             # reciprocal of T
    make: str            # T from (re, im); '' for real types
    abs1: str
    fabs: str
    sqrt: str
    rsqrt: str
    rcp: str

    @property
    def cx(self) -> int:
        """The spec expressions' `cx`: real flops of one multiply-add over a real one's, 4 in
        complex rows (8 real flops to 2, LAPACK Working Note 41), 1 in real rows."""
        return 4 if self.is_complex else 1


_FIELDS = {f.name: f for f in fields(Precision)}


def _row(name: str, raw: dict[str, object], where: Path) -> Precision:
    given = set(raw) | {"name"}
    missing = sorted(set(_FIELDS) - given)
    unknown = sorted(given - set(_FIELDS))
    if missing or unknown or "name" in raw:
        raise ValueError(f"{where}: row [{name}]: " + "; ".join(
            x for x in (f"missing {', '.join(missing)}" if missing else "",
                        f"unknown {', '.join(unknown)}" if unknown else "",
                        "'name' is the row's key, not a field" if "name" in raw else "") if x))
    vals: dict[str, object] = {"name": name}
    for k, v in raw.items():
        want = _FIELDS[k].type
        if k == "vec_fields":
            if not (isinstance(v, list) and v and all(isinstance(x, str) for x in v)):
                raise ValueError(f"{where}: [{name}].vec_fields: a list of member names")
            v = tuple(v)
        elif want == "int" and (not isinstance(v, int) or isinstance(v, bool)) \
                or want == "bool" and not isinstance(v, bool) \
                or want == "float" and not isinstance(v, float) \
                or want == "str" and not isinstance(v, str):
            raise ValueError(f"{where}: [{name}].{k}: expected {want}, got {v!r}")
        vals[k] = v
    p = Precision(**vals)  # type: ignore[arg-type]
    # 16-byte vectors of whole elements: what every vector load of the templates assumes
    if p.V * p.elem != 16:
        raise ValueError(f"{where}: [{name}]: V * elem = {p.V * p.elem}, not 16")
    if len(p.vec_fields) * (p.elem // (2 if p.is_complex else 1)) != 16:
        raise ValueError(f"{where}: [{name}]: vec_fields do not make 16 bytes of {p.R}")
    if p.key_bits * (2 if p.is_complex else 1) != p.elem * 8:
        raise ValueError(f"{where}: [{name}]: key_bits {p.key_bits} is not the width of {p.R}")
    return p


def load(path: Path = TABLE_PATH) -> dict[str, Precision]:
    with path.open("rb") as f:
        raw = tomllib.load(f)
    return {name: _row(name, row, path) for name, row in raw.items()}


PRECISIONS: dict[str, Precision] = load()


def get(name: str) -> Precision:
    try:
        return PRECISIONS[name]
    except KeyError:
        raise ValueError(f"unknown precision {name!r}; known: {', '.join(PRECISIONS)}") from None
