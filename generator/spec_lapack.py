"""Specs on the factorization ABI: `abi = "lapack"` in `spec/routines/<r>.toml`.

The factorizations (getrf, getrs, gesv, getri, getri_fused, potrf, potrs, posv, geqrf) take
LAPACK/cuBLAS arguments that the spec ABI (generator/spec.py) cannot spell: pivot vectors with a
length and a stride of their own, a per-problem `info`, element vectors such as `tau`, operands
read in one routine and written in another, and calls that another routine serves (gesv with
nrhs == 0 is getrf). Their kernels take `shoal_lapack_params` (runtime/lapack_abi.h) and keep
the registry, tables and dispatch of runtime/lapack_routines.c. From such a spec the generator
emits the prototypes with their doc comments, the entry points (checks in the documented order,
then the packing into `shoal_lapack_params` and `shoal_lapack_run`) and one argument test per
rule (generator/emit_lapack.py).

Operand kinds:
- `matrix`: rows x cols elements, `ld<name>` >= max(1, rows); pointer array or pointer + stride;
  `slot` A or B of shoal_lapack_params (default: its name).
- `pivots`: `length` ints per problem, a plain device array in both forms: the pointer-array
  call packs them `length` apart (cuBLAS layout), the strided call takes `stride`.
- `vector`: `length` elements per problem: one pointer per problem, or pointer + `stride`.
- `info`: one int per problem, written, a plain device array.
A written operand's stride must keep problems apart when batch > 1 (>= ld * cols, or length);
an input's must not be negative. `needed` (an expression) narrows when an operand must be
non-NULL beyond the routine's `work`; `stride_when` narrows when its stride is checked.

`driver = { name = "<d>", max_n = N }`: sizes above the kernels' 32, up to N, are served by the
C function `shoal_driver_<d>` (runtime/drivers/), a sequence of dispatched steps; the generator
emits the table that names it (`generated/lapack_drivers.c`) and says so in the docs. Without a
driver, a matrix above 32 is SHOAL_STATUS_NOT_SUPPORTED.
`driver = { name, max_n, all_sizes = true, steps = [...] }`: the driver serves every call up to
max_n, also those with m or n = 0 (gels writes B there), and the routine has no kernels, search
space or tables of its own: the spec then names its `precisions` (those of the routines its
steps call) and `steps`, the routines those are (an emission without them leaves it out)."""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from .expr import Expr, compile_expr
from .spec import (ACCESS, check_c_spellings, discover_abi, only_keys, Option, read_spec, require_abi,
                   parse_requires, routine_name, SpecError, str_key, typed_options)

KINDS = ("matrix", "pivots", "vector", "info")
FIXED_FORMS = ("batched", "strided_batched")
# the dimensions a factorization may take (k: orgbr's reflector count), and the fields of
# shoal_lapack_params the shape fills from them
DIM_NAMES = ("m", "n", "nrhs", "k")
SHAPE_FIELDS = ("m", "n", "nrhs")
MATRIX_SLOTS = ("A", "B")


@dataclass(frozen=True)
class LapackOperand:
    name: str
    kind: str
    access: str
    rows: Expr | None = None       # matrix
    cols: Expr | None = None
    length: Expr | None = None     # pivots, vector
    stride_name: str = ""
    slot: str = ""                 # the shoal_lapack_params field(s) it fills
    needed: Expr | None = None
    stride_when: Expr | None = None

    @property
    def ld(self) -> str:
        return f"ld{self.name.lower()}"

    @property
    def stride(self) -> str:
        return self.stride_name

    @property
    def has_stride(self) -> bool:
        return self.kind != "info"


@dataclass(frozen=True)
class Route:
    when: Expr
    routine: str


@dataclass(frozen=True)
class Driver:
    name: str       # the C function is shoal_driver_<name>
    max_n: int      # the largest m and n it serves
    all_sizes: bool = False  # every call (no kernels of the routine's own), not only above 32
    steps: tuple[str, ...] = ()  # the routines its steps dispatch (an emission without them leaves it out)


# the kernels' largest matrix (runtime/lapack_launch.h's SHOAL_LAPACK_MAX_N): a driver serves above it
KERNEL_MAX_N = 32
C_IDENT = re.compile(r"[a-z_][a-z0-9_]*")


@dataclass(frozen=True)
class LapackSpec:
    path: Path
    name: str
    summary: str
    notes: str
    options: tuple[Option, ...]
    dims: tuple[str, ...]
    shape: tuple[tuple[str, Expr], ...]    # shoal_lapack_params m, n, nrhs
    work: Expr
    operands: tuple[LapackOperand, ...]
    variant: str | None                    # the option whose value is the variant; None: 0
    routes: tuple[Route, ...]
    driver: Driver | None = None
    precisions: tuple[str, ...] = ()       # a driver-only routine's (all_sizes); else its search space's
    # conditions between the dims and options a call must meet, checked right after the dims, each
    # with the arguments that break it (generator/spec.py parse_requires)
    requires: tuple[tuple[Expr, tuple[tuple[str, str], ...]], ...] = ()
    forms: tuple[str, ...] = FIXED_FORMS

    @property
    def vbatched(self) -> bool:
        return self.forms == ("vbatched",)

    def expressions(self) -> list[Expr]:
        out = [e for _, e in self.shape] + [self.work] + [r.when for r in self.routes] + [r for r, _ in self.requires]
        for o in self.operands:
            out += [e for e in (o.rows, o.cols, o.length, o.needed, o.stride_when) if e is not None]
        return out


def abi_of(path: str | Path) -> str:
    """A spec file's ABI: "spec" (generator/spec.py) unless it says `abi = "lapack"` (this file's)
    or `abi = "blas2"` (generator/spec_blas2.py) or `abi = "gemm"` (generator/spec_gemm.py)."""
    try:
        t = tomllib.loads(Path(path).read_text())
    except tomllib.TOMLDecodeError as e:
        raise SpecError(f"{path}: {e}") from None
    abi = t.get("abi", "spec")
    if abi not in ("spec", "lapack", "blas2", "gemm"):
        raise SpecError(f"{path}: abi must be 'spec', 'lapack', 'blas2' or 'gemm'")
    return str(abi)


def _operand(o: dict, where: str, names: set[str]) -> LapackOperand:
    name = str_key(o, "name", where)
    kind = str_key(o, "kind", where)
    if kind not in KINDS:
        raise SpecError(f"{where}: kind must be one of {KINDS}")
    unknown = set(o) - {"name", "kind", "access", "rows", "cols", "length", "stride", "slot", "needed",
                        "stride_when"}
    if unknown:
        raise SpecError(f"{where}: unknown keys {sorted(unknown)}")

    def ex(key: str) -> Expr | None:
        return compile_expr(str_key(o, key, where), names, f"{where} {key}") if key in o else None

    if kind == "info":
        if set(o) - {"name", "kind", "access"} or o.get("access", "out") != "out":
            raise SpecError(f"{where}: info is one written int per problem; it takes no other keys")
        return LapackOperand(name, kind, "out", slot="info")
    access = str_key(o, "access", where)
    if access not in ACCESS:
        raise SpecError(f"{where}: access must be one of {ACCESS}")
    if kind == "matrix":
        if "length" in o:
            raise SpecError(f"{where}: a matrix has rows and cols, not a length")
        slot = str_key(o, "slot", where, name)
        if slot not in MATRIX_SLOTS:
            raise SpecError(f"{where}: a matrix fills slot A or B of shoal_lapack_params")
        return LapackOperand(name, kind, access, rows=ex("rows") or _missing(where, "rows"),
                             cols=ex("cols") or _missing(where, "cols"),
                             stride_name=str_key(o, "stride", where, f"stride{name}"), slot=slot,
                             needed=ex("needed"), stride_when=ex("stride_when"))
    if "rows" in o or "cols" in o or "slot" in o:
        raise SpecError(f"{where}: a {kind} has a length (and fills the {'ipiv' if kind == 'pivots' else 'tau'} slot)")
    return LapackOperand(name, kind, access, length=ex("length") or _missing(where, "length"),
                         stride_name=str_key(o, "stride", where), slot="ipiv" if kind == "pivots" else "tau",
                         needed=ex("needed"), stride_when=ex("stride_when"))


def _driver(t: dict, where: str) -> Driver | None:
    if "driver" not in t:
        return None
    d = t["driver"]
    if not isinstance(d, dict) or not {"name", "max_n"} <= set(d) <= {"name", "max_n", "all_sizes", "steps"}:
        raise SpecError(f"{where}: driver is {{ name = \"<C name>\", max_n = <int>[, all_sizes = true, steps = [...]] }}")
    steps = d.get("steps", [])
    if not isinstance(steps, list) or any(not isinstance(x, str) for x in steps):
        raise SpecError(f"{where}: driver steps is a list of routine names")
    name, max_n, all_sizes = d["name"], d["max_n"], d.get("all_sizes", False)
    if not isinstance(all_sizes, bool):
        raise SpecError(f"{where}: driver all_sizes must be true or false")
    if not isinstance(name, str) or not C_IDENT.fullmatch(name):
        raise SpecError(f"{where}: driver name must be a lower-case C identifier")
    if not isinstance(max_n, int) or isinstance(max_n, bool) or not KERNEL_MAX_N < max_n <= 1 << 20:
        raise SpecError(f"{where}: driver max_n must be an integer above {KERNEL_MAX_N}")
    return Driver(name, max_n, all_sizes, tuple(steps))


def _precisions(t: dict, where: str, driver: Driver | None) -> tuple[str, ...]:
    """A driver-only routine names its precisions; the others take their search space's."""
    only_driver = driver is not None and driver.all_sizes
    if "precisions" not in t:
        if only_driver:
            raise SpecError(f"{where}: a routine served only by its driver names its precisions")
        return ()
    if not only_driver:
        raise SpecError(f"{where}: precisions come from the search space (only a driver-only routine names them)")
    precs = t["precisions"]
    if not isinstance(precs, list) or not precs or any(p not in ("s", "d", "c", "z") for p in precs) \
            or len(set(precs)) != len(precs):
        raise SpecError(f"{where}: precisions is a list of distinct 's', 'd', 'c', 'z'")
    return tuple(precs)


def _forms(t: dict, where: str) -> tuple[str, ...]:
    forms = t.get("forms", list(FIXED_FORMS))
    if forms == ["vbatched"]:
        return ("vbatched",)
    if not isinstance(forms, list) or not forms or any(f not in FIXED_FORMS for f in forms) \
            or len(set(forms)) != len(forms):
        raise SpecError(f"{where}: forms is [\"vbatched\"] or a list of distinct {FIXED_FORMS}")
    return tuple(forms)


def _check_vbatched(spec: LapackSpec, where: str) -> None:
    """What a variable-size routine's entry points can spell: sizes in device arrays, checked by
    its driver on the device (the host cannot read them without a synchronization)."""
    if not spec.name.endswith("_vbatched"):
        raise SpecError(f"{where}: a vbatched routine's name ends in _vbatched")
    if spec.driver is None or not spec.driver.all_sizes:
        raise SpecError(f"{where}: a vbatched routine is served by a driver of all sizes")
    if spec.routes or spec.requires:
        raise SpecError(f"{where}: a vbatched routine has no routes and no requires (its sizes are on the device)")
    if any(o.kind not in ("matrix", "info") for o in spec.operands):
        raise SpecError(f"{where}: a vbatched routine's operands are matrices and info")
    if any(o.needed is not None or o.stride_when is not None for o in spec.operands):
        raise SpecError(f"{where}: a vbatched routine's operands take no needed or stride_when")
    for f, e in spec.shape:
        if e.source != "0" and e.source not in spec.dims:
            raise SpecError(f"{where}: a vbatched routine's shape {f} is one of its dims or 0")


def _missing(where: str, key: str) -> Expr:
    raise SpecError(f"{where}: missing {key!r}")


def load(path: str | Path) -> LapackSpec:
    path, where, t = read_spec(path)
    require_abi(t, where, "lapack", "factorization-ABI")
    name = routine_name(t, path, where)
    options = typed_options(t, where)
    dims = tuple(t.get("dims", []))
    if not dims or any(d not in DIM_NAMES for d in dims):
        raise SpecError(f"{where}: dims must be a non-empty subset of {DIM_NAMES}")
    names = set(dims) | {o.name for o in options}
    shape_t = t.get("shape", {})
    if set(shape_t) != set(SHAPE_FIELDS):
        raise SpecError(f"{where}: shape must give {SHAPE_FIELDS}")
    shape = tuple((f, compile_expr(str(shape_t[f]), names, f"{where} shape {f}")) for f in SHAPE_FIELDS)
    operands = tuple(_operand(o, f"{where} operands[{i}]", names) for i, o in enumerate(t.get("operands", [])))
    if not operands or operands[0].kind != "matrix":
        raise SpecError(f"{where}: the first operand is the matrix A")
    slots = [o.slot for o in operands]
    if len(set(slots)) != len(slots):
        raise SpecError(f"{where}: two operands fill one slot of shoal_lapack_params")
    if len({o.name for o in operands}) != len(operands):
        raise SpecError(f"{where}: operand names repeat")
    variant = t.get("variant")
    if variant is not None and variant not in {o.name for o in options}:
        raise SpecError(f"{where}: variant must name an option")
    routes = tuple(Route(compile_expr(str_key(r, "when", where), names, f"{where} routes"), str_key(r, "routine", where))
                   for r in t.get("routes", []))
    only_keys(t, {"name", "abi", "summary", "notes", "options", "dims", "shape", "work", "operands",
                        "variant", "routes", "driver", "precisions", "requires", "forms"}, where)
    driver = _driver(t, where)
    precisions = _precisions(t, where, driver)
    spec = LapackSpec(path=path, name=name, summary=str_key(t, "summary", where), notes=str(t.get("notes", "")).strip(),
                      options=tuple(options), dims=dims, shape=shape,
                      work=compile_expr(str_key(t, "work", where), names, f"{where} work"),
                      operands=operands, variant=variant, routes=routes,
                      driver=driver, precisions=precisions, requires=parse_requires(t, names, where),
                      forms=_forms(t, where))
    if spec.vbatched:
        _check_vbatched(spec, where)
    check_c_spellings(spec.expressions())
    return spec


def discover(spec_dir: str | Path) -> list[LapackSpec]:
    """Every factorization-ABI spec, sorted by routine name."""
    return discover_abi(spec_dir, "lapack", load)


__all__ = ["LapackSpec", "LapackOperand", "Route", "Driver", "KERNEL_MAX_N", "abi_of", "load", "discover", "KINDS",
           "FIXED_FORMS"]
