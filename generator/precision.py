"""The precision substitution table.

Templates are written once and rendered per precision from these rows (MAGMA-style codegen), so
adding c/z means adding rows here, never copying a template."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Precision:
    name: str          # BLAS prefix: 's', 'd' (later 'c', 'z')
    T: str             # C/CUDA element type as templates spell it
    elem: int          # bytes per element; restrictions and byte counts use it
    eps: float         # unit roundoff; the tuner's error is in these units
    is_complex: bool   # templates branch on this for conjugation and complex arithmetic


PRECISIONS: dict[str, Precision] = {
    "s": Precision(name="s", T="float", elem=4, eps=2.0**-24, is_complex=False),
    "d": Precision(name="d", T="double", elem=8, eps=2.0**-53, is_complex=False),
}


def get(name: str) -> Precision:
    try:
        return PRECISIONS[name]
    except KeyError:
        raise ValueError(f"unknown precision {name!r}; known: {', '.join(PRECISIONS)}") from None
