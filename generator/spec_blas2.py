"""Specs on the level-2 ABI: `abi = "blas2"` in `spec/routines/<r>.toml`.

The level-2 routines (gemv, trsv, gemv_vbatched) take BLAS vectors, which the spec ABI
(generator/spec.py) cannot spell: a length, an increment (nonzero, negative allowed) and, in
the strided form, a stride that a written vector's problems must not overlap by. Their kernels
take `shoal_blas2_params` (runtime/blas2_abi.h) and keep runtime/blas2_api.c's dispatch
(`shoal_blas2_run`, runtime/blas2_run.h) and runtime/lapack_routines.c's registry and tables.
From such a spec the generator emits the prototypes with their doc comments, the entry points
(checks in the documented order, the handle, the BLAS quick return, then the packing into
`shoal_blas2_params` and `shoal_blas2_run`) and one argument test per rule
(generator/emit_blas2.py).

Operand kinds:
- `matrix`: rows x cols elements, `ld<name>` >= max(1, rows); fills slot A.
- `vector`: `length` elements at increment `inc<name>` (nonzero); fills slot x or y (its name).
A written vector's stride must keep problems apart when batch > 1 (>= 1 + (length - 1) * |inc|);
an input's must not be negative.

Forms: `batched` and `strided_batched` (fixed sizes), or `vbatched` alone (variable sizes, as
MAGMA's): each dim d is then a device array `const int *d` followed by `int max_d`, leading
dimensions and increments are device arrays, nothing per problem is checked on the host, and
the expressions see max_d for d."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .expr import Expr, compile_expr
from .spec import (ACCESS, check_c_spellings, discover_abi, only_keys, Option, OPTION_TYPES, read_spec,
                   require_abi, routine_name, SpecError, str_key, typed_options)

KINDS = ("matrix", "vector")
DIM_NAMES = ("m", "n")
SHAPE_FIELDS = ("m", "n")
FORM_SETS = (("batched", "strided_batched"), ("vbatched",))
VECTOR_SLOTS = ("x", "y")


@dataclass(frozen=True)
class Blas2Operand:
    name: str
    kind: str
    access: str
    rows: Expr | None = None       # matrix
    cols: Expr | None = None
    length: Expr | None = None     # vector

    @property
    def slot(self) -> str:
        return "A" if self.kind == "matrix" else self.name

    @property
    def ld(self) -> str:
        """Its leading dimension (matrix) or increment (vector) argument."""
        return f"ld{self.name.lower()}" if self.kind == "matrix" else f"inc{self.name}"

    @property
    def stride(self) -> str:
        return f"stride{self.name}"


@dataclass(frozen=True)
class Blas2Spec:
    path: Path
    name: str
    summary: str
    notes: str
    options: tuple[Option, ...]
    dims: tuple[str, ...]
    scalars: tuple[str, ...]
    forms: tuple[str, ...]
    shape: tuple[tuple[str, Expr], ...]    # shoal_blas2_params m, n
    work: Expr                             # operands must be non-NULL where this and batch > 0
    quick: Expr                            # BLAS quick return (after the handle)
    operands: tuple[Blas2Operand, ...]
    variant: Expr | None                   # the table variant from the options; None: 0

    @property
    def vbatched(self) -> bool:
        return self.forms == ("vbatched",)

    def expressions(self) -> list[Expr]:
        out = [e for _, e in self.shape] + [self.work, self.quick]
        out += [self.variant] if self.variant is not None else []
        for o in self.operands:
            out += [e for e in (o.rows, o.cols, o.length) if e is not None]
        return out


def _operand(o: dict, where: str, names: set[str]) -> Blas2Operand:
    name = str_key(o, "name", where)
    kind = str_key(o, "kind", where)
    if kind not in KINDS:
        raise SpecError(f"{where}: kind must be one of {KINDS}")
    access = str_key(o, "access", where)
    if access not in ACCESS:
        raise SpecError(f"{where}: access must be one of {ACCESS}")
    keys = {"name", "kind", "access"} | ({"rows", "cols"} if kind == "matrix" else {"length"})
    if set(o) != keys:
        raise SpecError(f"{where}: a {kind} takes exactly the keys {sorted(keys)}")

    def ex(key: str) -> Expr:
        return compile_expr(str_key(o, key, where), names, f"{where} {key}")

    if kind == "matrix":
        if name != "A" or access != "in":
            raise SpecError(f"{where}: the matrix is A, read only (slot A of shoal_blas2_params)")
        return Blas2Operand(name, kind, access, rows=ex("rows"), cols=ex("cols"))
    if name not in VECTOR_SLOTS:
        raise SpecError(f"{where}: a vector is x or y (its slot of shoal_blas2_params)")
    return Blas2Operand(name, kind, access, length=ex("length"))


def load(path: str | Path) -> Blas2Spec:
    path, where, t = read_spec(path)
    require_abi(t, where, "blas2", "level-2-ABI")
    only_keys(t, {"name", "abi", "summary", "notes", "options", "dims", "scalars", "forms", "shape", "work",
                        "quick", "operands", "variant"}, where)
    name = routine_name(t, path, where)
    options = typed_options(t, where)
    if sum(o.type is OPTION_TYPES["diag"] for o in options) > 1:
        raise SpecError(f"{where}: one diag option at most (it fills diag_unit)")
    dims = tuple(t.get("dims", []))
    if not dims or any(d not in DIM_NAMES for d in dims):
        raise SpecError(f"{where}: dims must be a non-empty subset of {DIM_NAMES}")
    scalars = tuple(t.get("scalars", []))
    if scalars not in ((), ("alpha", "beta")):
        raise SpecError(f"{where}: scalars are none or alpha and beta")
    forms = tuple(t.get("forms", ["batched", "strided_batched"]))
    if forms not in FORM_SETS:
        raise SpecError(f"{where}: forms must be one of {FORM_SETS}")
    if forms == ("vbatched",) and not name.endswith("_vbatched"):
        raise SpecError(f"{where}: a vbatched routine's name ends in _vbatched")
    names = set(dims) | {o.name for o in options}
    shape_t = t.get("shape", {})
    if set(shape_t) != set(SHAPE_FIELDS):
        raise SpecError(f"{where}: shape must give {SHAPE_FIELDS}")
    shape = tuple((f, compile_expr(str(shape_t[f]), names, f"{where} shape {f}")) for f in SHAPE_FIELDS)
    operands = tuple(_operand(o, f"{where} operands[{i}]", names) for i, o in enumerate(t.get("operands", [])))
    if not operands or operands[0].kind != "matrix" or sum(o.kind == "matrix" for o in operands) != 1:
        raise SpecError(f"{where}: the first operand is the matrix A, the others vectors")
    if len({o.name for o in operands}) != len(operands):
        raise SpecError(f"{where}: operand names repeat")
    if scalars and not any(o.access != "in" for o in operands):
        raise SpecError(f"{where}: beta goes before the first written operand; there is none")
    variant = compile_expr(str_key(t, "variant", where), {o.name for o in options}, f"{where} variant") \
        if "variant" in t else None
    spec = Blas2Spec(path=path, name=name, summary=str_key(t, "summary", where), notes=str(t.get("notes", "")).strip(),
                     options=tuple(options), dims=dims, scalars=scalars, forms=forms, shape=shape,
                     work=compile_expr(str_key(t, "work", where), names, f"{where} work"),
                     quick=compile_expr(str_key(t, "quick", where), names | {"batch", *scalars}, f"{where} quick"),
                     operands=operands, variant=variant)
    check_c_spellings(spec.expressions())
    return spec


def discover(spec_dir: str | Path) -> list[Blas2Spec]:
    """Every level-2-ABI spec, sorted by routine name."""
    return discover_abi(spec_dir, "blas2", load)


__all__ = ["Blas2Spec", "Blas2Operand", "load", "discover", "KINDS"]
