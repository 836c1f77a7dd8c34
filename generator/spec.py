"""Routine specs: `spec/routines/<r>.toml` declares a routine once (docs/adding-a-routine.md).

A spec names the routine's options, dimensions, scalars and operands (shapes as expressions),
how its tables are split into variants, its flop and byte counts, its oracle, its vendor call
and what serves it. The generator derives from it the public prototypes, the argument checks
in their documented order, the runtime registry, the vendor call, the argument tests and the
docs table (generator/emit_spec.py). Expressions are the search spaces' safe Python subset
(generator/expr.py), translated to C by `c_expr` for the emitted code."""
from __future__ import annotations

import ast
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, TypeVar

from .expr import Expr, ExprError, compile_expr

S = TypeVar("S")


class SpecError(ValueError):
    """A spec file is malformed; the message names the file and the entry."""


@dataclass(frozen=True)
class OptionType:
    c_type: str
    values: tuple[str, ...]        # C enumerators for 0, 1, ...
    letters: str                   # variant letters for 0 and 1 (LAPACK's characters)
    doc: str
    names: str = ""                # a letter per value, for case names (default: letters)
    # (value, same as) in the real precisions: BLAS's conjugate transpose is the transpose there
    real_alias: tuple[str, str] | None = None
    # the enumerators' C values where they are not 0, 1, ... (HERK's trans: N = 0, C = 2): the
    # entry points store the index of the value in the call (p.opts, the variant), the case
    # invoker passes values[index]
    enum_values: tuple[int, ...] = ()
    # enumerators of c_type that this option refuses (HERK's trans: SHOAL_OP_T)
    refused: tuple[str, ...] = ()

    def name_of(self, v: int) -> str:
        return (self.names or self.letters)[v]

    @property
    def past_last(self) -> int:
        """One past the largest C value: out of range."""
        return max(self.enum_values) + 1 if self.enum_values else len(self.values)


OPTION_TYPES: dict[str, OptionType] = {
    "side": OptionType("shoal_side", ("SHOAL_SIDE_LEFT", "SHOAL_SIDE_RIGHT"), "lr",
                       "SHOAL_SIDE_LEFT or SHOAL_SIDE_RIGHT"),
    "uplo": OptionType("shoal_fill_mode", ("SHOAL_FILL_LOWER", "SHOAL_FILL_UPPER"), "lu",
                       "SHOAL_FILL_LOWER or SHOAL_FILL_UPPER"),
    "op": OptionType("shoal_operation", ("SHOAL_OP_N", "SHOAL_OP_T", "SHOAL_OP_C"), "nt",
                     "SHOAL_OP_N, SHOAL_OP_T or SHOAL_OP_C (in s and d the same as SHOAL_OP_T)", "ntc",
                     ("SHOAL_OP_C", "SHOAL_OP_T")),
    # BLAS herk's trans: N or C (A^H A); T is refused
    "herm_op": OptionType("shoal_operation", ("SHOAL_OP_N", "SHOAL_OP_C"), "nc",
                          "SHOAL_OP_N or SHOAL_OP_C", enum_values=(0, 2), refused=("SHOAL_OP_T",)),
    "diag": OptionType("shoal_diag", ("SHOAL_DIAG_NON_UNIT", "SHOAL_DIAG_UNIT"), "nu",
                       "SHOAL_DIAG_NON_UNIT or SHOAL_DIAG_UNIT"),
    # LAPACK orgbr's vect: Q (the left reflectors of gebrd) or P (the right ones, P^H formed)
    "vect": OptionType("shoal_vect", ("SHOAL_VECT_Q", "SHOAL_VECT_P"), "qp", "SHOAL_VECT_Q or SHOAL_VECT_P"),
}
ACCESS = ("in", "out", "inout")
# the dispatch dimensions of a rule, in the runtime's order (dims[3] of runtime/dispatch.h)
SLOT_NAMES = ("m", "n", "k")


@dataclass(frozen=True)
class Option:
    name: str
    type: OptionType


@dataclass(frozen=True)
class Operand:
    name: str
    access: str
    rows: Expr
    cols: Expr
    # "vector": `length` elements per problem (LAPACK's tau), no leading dimension in the call:
    # a rows x 1 matrix to everything past the entry point, its ld = max(1, rows)
    kind: str = "matrix"
    stride_name: str = ""          # a vector's stride argument (default: stride + name)
    # a vector of the precision's real type in every precision (LAPACK gebrd's d and e: real
    # in zgebrd too); its registry kind is 'r'
    real: bool = False

    @property
    def kind_letter(self) -> str:
        """The registry's operand kind (runtime/spec_run.h): m matrix, v vector, r real vector."""
        return "r" if self.real else "v" if self.is_vector else "m"

    @property
    def is_vector(self) -> bool:
        return self.kind == "vector"

    @property
    def ld(self) -> str:
        return f"ld{self.name.lower()}"

    @property
    def stride(self) -> str:
        return self.stride_name or f"stride{self.name}"


@dataclass(frozen=True)
class Spec:
    path: Path
    name: str
    summary: str
    notes: str
    options: tuple[Option, ...]
    dims: tuple[str, ...]
    scalars: tuple[str, ...]
    derived: tuple[tuple[str, Expr], ...]
    operands: tuple[Operand, ...]
    variant: str                   # the option whose value indexes the variants ("": one, "n")
    flops: Expr
    bytes: Expr
    quick_return: Expr
    oracle: str
    vendor: str                    # C call template, or "none"
    peer: str                      # "vendor", a C call template, or "none"
    kernels: Expr                  # which calls the kernels serve
    driver: str                    # the driver ("none": the kernels serve all)
    driver_serves: Expr            # which calls the driver serves (default: what the kernels do not);
                                   # where both serve, the tuned tables choose between them
    real_scalars: bool = False     # alpha and beta real in every precision (BLAS herk)
    # conditions between the dims and options that a call must meet, checked right after the
    # dims (LAPACK ormqr's k <= m or n), each with the arguments of a call that breaks it
    # (changed from the argument tests' valid call of size 3 in every dim)
    requires: tuple[tuple[Expr, tuple[tuple[str, str], ...]], ...] = ()

    @property
    def variants(self) -> tuple[str, ...]:
        if not self.variant:  # a routine without options (orgqr): one table
            return ("n",)
        return tuple(self.option(self.variant).type.letters)

    @property
    def variant_index(self) -> int:
        """The opts[] slot that holds the variant (0 without options: opts[0] is then 0)."""
        return [o.name for o in self.options].index(self.variant) if self.variant else 0

    def option(self, name: str) -> Option:
        for o in self.options:
            if o.name == name:
                return o
        raise KeyError(name)

    def slot_of(self, dim: str) -> int:
        """A spec dimension's place in the rule's (m, n, k)."""
        return SLOT_NAMES.index(dim)

    def env_names(self) -> set[str]:
        return set(self.dims) | {o.name for o in self.options} | {d for d, _ in self.derived}

    def evaluate(self, dims: dict[str, int], opts: dict[str, int], elem: int = 8,
                 cx: int = 1) -> dict[str, int]:
        """The expression environment of one call: dims, options, derived sizes, elem and cx
        (the precision row's Precision.cx: 4 in complex precisions, 1 in real ones)."""
        env: dict[str, int] = {**dims, **opts, "elem": elem, "cx": cx}
        for name, e in self.derived:
            env[name] = e(env)
        return env


# ---- expressions in C --------------------------------------------------------------------

_C_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "/", ast.Mod: "%"}
_C_CMPOPS = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}
_C_FUNCS = {"min": "SHOAL_MIN", "max": "SHOAL_MAX", "ceil_div": "SHOAL_CEIL_DIV"}


def c_expr(e: Expr, rename: dict[str, str] | None = None) -> str:
    """The C spelling of a spec expression over non-negative 64-bit integers (floor division
    is C's division there). Names may be renamed (e.g. `t` -> a local)."""
    rename = rename or {}

    def go(n: ast.AST) -> str:
        if isinstance(n, ast.Expression):
            return go(n.body)
        if isinstance(n, ast.Name):
            return rename.get(n.id, n.id)
        if isinstance(n, ast.Constant) and isinstance(n.value, int):
            return f"{n.value}LL" if abs(n.value) > 2**31 - 1 else str(n.value)
        if isinstance(n, ast.BinOp) and type(n.op) in _C_BINOPS:
            return f"({go(n.left)} {_C_BINOPS[type(n.op)]} {go(n.right)})"
        if isinstance(n, ast.Compare) and len(n.ops) == 1 and type(n.ops[0]) in _C_CMPOPS:
            return f"({go(n.left)} {_C_CMPOPS[type(n.ops[0])]} {go(n.comparators[0])})"
        if isinstance(n, ast.BoolOp):
            op = " && " if isinstance(n.op, ast.And) else " || "
            return "(" + op.join(go(v) for v in n.values) + ")"
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not):
            return f"(!{go(n.operand)})"
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
            return f"(-{go(n.operand)})"
        if isinstance(n, ast.IfExp):
            return f"({go(n.test)} ? {go(n.body)} : {go(n.orelse)})"
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in _C_FUNCS \
                and len(n.args) == 2:
            return f"{_C_FUNCS[n.func.id]}({go(n.args[0])}, {go(n.args[1])})"
        raise SpecError(f"{e.where}: {e.source!r}: {ast.dump(n)[:60]} has no C translation")

    return go(ast.parse(e.source.strip(), mode="eval"))


# ---- loading -------------------------------------------------------------------------------

def _need(t: dict, key: str, where: str, kind: type) -> object:
    if key not in t:
        raise SpecError(f"{where}: missing {key!r}")
    if not isinstance(t[key], kind):
        raise SpecError(f"{where}: {key!r} must be a {kind.__name__}")
    return t[key]


# ---- what the ABI loaders share (generator/spec_lapack.py, spec_blas2.py, spec_gemm.py) ---------

def read_spec(path: str | Path) -> tuple[Path, str, dict]:
    """A spec file's path, its name for messages, and its TOML."""
    path = Path(path)
    try:
        return path, str(path), tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as e:
        raise SpecError(f"{path}: {e}") from None


def str_key(t: dict, key: str, where: str, default: str | None = None) -> str:
    if key not in t:
        if default is None:
            raise SpecError(f"{where}: missing {key!r}")
        return default
    if not isinstance(t[key], str):
        raise SpecError(f"{where}: {key!r} must be a string")
    return t[key]


def require_abi(t: dict, where: str, abi: str, what: str) -> None:
    if t.get("abi") != abi:
        raise SpecError(f"{where}: not a {what} spec (abi = \"{abi}\")")


def only_keys(t: dict, keys: set[str], where: str) -> None:
    unknown = set(t) - keys
    if unknown:
        raise SpecError(f"{where}: unknown keys {sorted(unknown)}")


def routine_name(t: dict, path: Path, where: str) -> str:
    """The routine's name, which is its file's."""
    name = str_key(t, "name", where)
    if name != path.stem:
        raise SpecError(f"{where}: declares routine {name!r}")
    return name


def typed_options(t: dict, where: str) -> list[Option]:
    options = []
    for o in t.get("options", []):
        if o.get("type") not in OPTION_TYPES:
            raise SpecError(f"{where}: option {o.get('name')!r}: type must be one of {list(OPTION_TYPES)}")
        options.append(Option(str(o["name"]), OPTION_TYPES[o["type"]]))
    return options


def parse_requires(t: dict, names: set[str], where: str) -> tuple[tuple[Expr, tuple[tuple[str, str], ...]], ...]:
    """A spec's `requires`: conditions between its dims and options that a call must meet, each
    with the arguments that break it from the argument tests' valid call (size 3 in every dim)."""
    requires = []
    for i, rq in enumerate(t.get("requires", [])):
        rw = f"{where} requires[{i}]"
        broken = _need(rq, "broken_by", rw, dict)
        if not broken or any(a not in names for a in broken):
            raise SpecError(f"{rw}: broken_by must change dims or options")
        requires.append((compile_expr(str(_need(rq, "rule", rw, str)), names, f"{rw} rule"),
                         tuple((str(a), str(v)) for a, v in broken.items())))
    return tuple(requires)


def check_c_spellings(exprs: list[Expr]) -> None:
    for e in exprs:
        c_expr(e)  # every expression must have a C spelling


def discover_abi(spec_dir: str | Path, abi: str, load: Callable[[Path], S]) -> list[S]:
    """Every spec of one ABI, sorted by routine name."""
    from .spec_lapack import abi_of
    return [load(p) for p in sorted(Path(spec_dir).glob("*.toml")) if abi_of(p) == abi]


def load(path: str | Path) -> Spec:
    path = Path(path)
    where = str(path)
    try:
        t = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as e:
        raise SpecError(f"{where}: {e}") from None
    if t.get("abi", "spec") != "spec":
        kind = {"blas2": "a level-2-ABI spec (generator/spec_blas2.py)",
                "gemm": "a GEMM-ABI spec (generator/spec_gemm.py)"}.get(
            str(t.get("abi")), "a factorization-ABI spec (generator/spec_lapack.py)")
        raise SpecError(f"{where}: abi {t.get('abi')!r}: {kind}")
    name = str(_need(t, "name", where, str))
    if name != path.stem:
        raise SpecError(f"{where}: declares routine {name!r}")
    options = []
    for o in t.get("options", []):
        ty = o.get("type")
        if ty not in OPTION_TYPES:
            raise SpecError(f"{where}: option {o.get('name')!r}: type must be one of {list(OPTION_TYPES)}")
        options.append(Option(str(o["name"]), OPTION_TYPES[ty]))
    dims = tuple(_need(t, "dims", where, list))
    bad = [d for d in dims if d not in SLOT_NAMES]
    if bad or not dims:
        raise SpecError(f"{where}: dims must be a non-empty subset of {SLOT_NAMES}")
    scalars = tuple(_need(t, "scalars", where, list))
    if any(s not in ("alpha", "beta") for s in scalars):
        raise SpecError(f"{where}: scalars are alpha and/or beta")
    names = set(dims) | {o.name for o in options}
    derived = []
    for dname, src in t.get("derived", {}).items():
        derived.append((dname, compile_expr(src, names, f"{where} derived {dname}")))
        names.add(dname)
    operands = []
    for i, o in enumerate(_need(t, "operands", where, list)):
        ow = f"{where} operands[{i}]"
        acc = _need(o, "access", ow, str)
        if acc not in ACCESS:
            raise SpecError(f"{ow}: access must be one of {ACCESS}")
        kind = str(o.get("kind", "matrix"))
        if kind == "matrix":
            rows, cols = str(_need(o, "rows", ow, str)), str(_need(o, "cols", ow, str))
        elif kind == "vector":
            rows, cols = str(_need(o, "length", ow, str)), "1"
        else:
            raise SpecError(f"{ow}: kind must be matrix or vector")
        real = o.get("real", False)
        if not isinstance(real, bool) or (real and kind != "vector"):
            raise SpecError(f"{ow}: real (true or false) is for vectors")
        operands.append(Operand(str(_need(o, "name", ow, str)), str(acc),
                                compile_expr(rows, names, f"{ow} rows"),
                                compile_expr(cols, names, f"{ow} cols"),
                                kind, str(o.get("stride", "")), real))
    requires = parse_requires(t, names, where)
    if len(operands) > 5:
        raise SpecError(f"{where}: at most 5 operands (runtime/spec_abi.h)")
    variant = str(t.get("variant", ""))
    if (variant or options) and variant not in {o.name for o in options}:
        raise SpecError(f"{where}: variant must name an option")
    sized = names | {"elem", "cx"}
    qr = t.get("quick_return", " or ".join(f"{d} == 0" for d in dims))
    kernels = str(_need(t, "kernels", where, str))
    spec = Spec(
        path=path, name=name, summary=str(_need(t, "summary", where, str)),
        notes=str(t.get("notes", "")).strip(), options=tuple(options), dims=dims, scalars=scalars,
        derived=tuple(derived), operands=tuple(operands), variant=variant,
        flops=compile_expr(str(_need(t, "flops", where, str)), sized, f"{where} flops"),
        bytes=compile_expr(str(_need(t, "bytes", where, str)), sized, f"{where} bytes"),
        quick_return=compile_expr(qr, names, f"{where} quick_return"),
        oracle=str(_need(t, "oracle", where, str)), vendor=str(_need(t, "vendor", where, str)),
        peer=str(t.get("peer", "none")),
        kernels=compile_expr(kernels, names, f"{where} kernels"),
        driver=str(t.get("driver", "none")),
        driver_serves=compile_expr(str(t.get("driver_serves", f"not ({kernels})")), names,
                                   f"{where} driver_serves"),
        real_scalars=bool(t.get("real_scalars", False)), requires=requires)
    for e in (*(r for r, _ in spec.requires), spec.flops, spec.bytes, spec.quick_return, spec.kernels, spec.driver_serves,
              *(x for _, x in spec.derived), *(o.rows for o in spec.operands),
              *(o.cols for o in spec.operands)):
        c_expr(e)  # every expression must have a C spelling
    return spec


def discover(spec_dir: str | Path) -> list[Spec]:
    """Every spec of the spec ABI, sorted by routine name (the order of the emitted registry);
    the factorization ABI's are generator/spec_lapack.py's."""
    return [load(p) for p in sorted(Path(spec_dir).glob("*.toml"))
            if tomllib.loads(p.read_text()).get("abi", "spec") == "spec"]


__all__ = ["Spec", "SpecError", "Operand", "Option", "OPTION_TYPES", "load", "discover", "c_expr",
           "ExprError"]
