"""Specs on the GEMM ABI: `abi = "gemm"` in `spec/routines/<r>.toml`.

GEMM and the variable-size GEMM keep their kernel argument blocks (`shoal_gemm_params`,
runtime/kernel_abi.h; `shoal_gemm_vparams`, runtime/blas2_abi.h), their tables and their
dispatch (runtime/gemm_api.c's `shoal_gemm_run`, runtime/blas2_api.c's
`shoal_gemm_vbatched_run`; runtime/gemm_run.h), which check the handle and return at once
where there is no work. From such a spec the generator emits the prototypes with their doc
comments, the entry points (checks in the documented order, then the packing and the run) and
one argument test per rule (generator/emit_gemm.py).

Operands are the matrices A, B (read) and C (read and written), in that order, each rows x cols
with `ld<name>` >= max(1, rows) and filling its own slot; `needed` narrows when an operand must
be non-NULL beyond the routine's `work`. In the strided form a stride must not be negative and
C's must keep problems apart when batch > 1 (>= ldc * cols).

Forms: `batched` and `strided_batched`, or `vbatched` alone (as spec_blas2's: each dim d a
device array followed by `int max_d`, leading dimensions device arrays, nothing per problem
checked on the host, the run given the variant expression's value)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .expr import Expr, compile_expr
from .spec import (check_c_spellings, discover_abi, only_keys, Option, OPTION_TYPES, read_spec, require_abi,
                   routine_name, SpecError, str_key)

DIM_NAMES = ("m", "n", "k")
OPERANDS = (("A", "in"), ("B", "in"), ("C", "inout"))
FORM_SETS = (("batched", "strided_batched"), ("vbatched",))


@dataclass(frozen=True)
class GemmOperand:
    name: str
    access: str
    rows: Expr
    cols: Expr
    needed: Expr | None = None

    @property
    def ld(self) -> str:
        return f"ld{self.name.lower()}"

    @property
    def stride(self) -> str:
        return f"stride{self.name}"


@dataclass(frozen=True)
class GemmSpec:
    path: Path
    name: str
    summary: str
    notes: str
    options: tuple[Option, ...]
    dims: tuple[str, ...]
    forms: tuple[str, ...]
    work: Expr
    operands: tuple[GemmOperand, ...]
    variant: Expr | None               # vbatched: the run's variant; fixed sizes: the run takes the options

    @property
    def vbatched(self) -> bool:
        return self.forms == ("vbatched",)

    def expressions(self) -> list[Expr]:
        out = [self.work] + ([self.variant] if self.variant is not None else [])
        for o in self.operands:
            out += [e for e in (o.rows, o.cols, o.needed) if e is not None]
        return out


def load(path: str | Path) -> GemmSpec:
    path, where, t = read_spec(path)
    require_abi(t, where, "gemm", "GEMM-ABI")
    only_keys(t, {"name", "abi", "summary", "notes", "options", "dims", "scalars", "forms", "work",
                        "operands", "variant"}, where)
    name = routine_name(t, path, where)
    options = []
    for o in t.get("options", []):
        if o.get("type") != "op":
            raise SpecError(f"{where}: option {o.get('name')!r}: GEMM's options are ops (transa, transb)")
        options.append(Option(str(o["name"]), OPTION_TYPES["op"]))
    if [o.name for o in options] != ["transa", "transb"]:
        raise SpecError(f"{where}: options are transa and transb, in that order")
    dims = tuple(t.get("dims", []))
    if dims != DIM_NAMES:
        raise SpecError(f"{where}: dims must be {DIM_NAMES}")
    if tuple(t.get("scalars", [])) != ("alpha", "beta"):
        raise SpecError(f"{where}: scalars are alpha and beta")
    forms = tuple(t.get("forms", ["batched", "strided_batched"]))
    if forms not in FORM_SETS:
        raise SpecError(f"{where}: forms must be one of {FORM_SETS}")
    if forms == ("vbatched",) and not name.endswith("_vbatched"):
        raise SpecError(f"{where}: a vbatched routine's name ends in _vbatched")
    names = set(dims) | {o.name for o in options}
    ops = t.get("operands", [])
    if [(o.get("name"), o.get("access")) for o in ops] != list(OPERANDS):
        raise SpecError(f"{where}: operands are A (in), B (in), C (inout), in that order")
    operands = []
    for i, o in enumerate(ops):
        w = f"{where} operands[{i}]"
        if set(o) - {"name", "access", "rows", "cols", "needed"}:
            raise SpecError(f"{w}: unknown keys {sorted(set(o) - {'name', 'access', 'rows', 'cols', 'needed'})}")
        operands.append(GemmOperand(o["name"], o["access"], compile_expr(str_key(o, "rows", w), names, f"{w} rows"),
                                    compile_expr(str_key(o, "cols", w), names, f"{w} cols"),
                                    compile_expr(str_key(o, "needed", w), names, f"{w} needed") if "needed" in o else None))
    variant = compile_expr(str_key(t, "variant", where), {o.name for o in options}, f"{where} variant") \
        if "variant" in t else None
    if (variant is not None) != (forms == ("vbatched",)):
        raise SpecError(f"{where}: a variant expression is the vbatched run's (the fixed-size run takes the options)")
    spec = GemmSpec(path=path, name=name, summary=str_key(t, "summary", where), notes=str(t.get("notes", "")).strip(),
                    options=tuple(options), dims=dims, forms=forms,
                    work=compile_expr(str_key(t, "work", where), names, f"{where} work"),
                    operands=tuple(operands), variant=variant)
    check_c_spellings(spec.expressions())
    return spec


def discover(spec_dir: str | Path) -> list[GemmSpec]:
    """Every GEMM-ABI spec, sorted by routine name."""
    return discover_abi(spec_dir, "gemm", load)


__all__ = ["GemmSpec", "GemmOperand", "load", "discover"]
