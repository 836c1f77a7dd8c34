"""Loading `search_space/<routine>.toml` (internals.md §1) and enumerating what it declares:
configurations per design, kernel names, shapes and the batch count per shape.

Everything here is deterministic (declared order, no sets in iteration) because kernel names,
task order and emitted bytes all derive from it."""
from __future__ import annotations

import itertools
import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Mapping

from . import precision as precision_mod
from . import spec as spec_mod
from .expr import DEVICE_LIMITS, Expr, compile_expr

SLOTS: tuple[str, ...] = ("dim_x", "dim_y", "p0", "p1", "p2", "p3", "p4")
# a spec design's launch rules (runtime/spec_launch.c): grid_y, the blocks along y (default 1);
# smem, the bytes of dynamic shared memory (default 0), which may name only slotted parameters,
# elem and the call's dimensions and options
LAUNCH_RULES: tuple[str, ...] = ("grid_y", "smem")
# A parameter the kernel is compiled with but the launch code never needs (it changes the code,
# not the grid, the block or the shared memory): named in the kernel's name, not in its descriptor.
NO_SLOT = "none"
MODES: tuple[str, ...] = ("strided", "array")   # index = enum shoal_mode
SHAPE_NAMES: tuple[str, ...] = ("m", "n", "k", "mode", "ta", "tb")
PROBLEM_NAMES: tuple[str, ...] = ("m", "n", "k", "elem", "cx")


class SearchSpaceError(ValueError):
    """The search-space file is malformed; the message names the file and the entry."""


@dataclass(frozen=True)
class Param:
    name: str
    tag: str
    slot: str
    values: tuple[int, ...]
    # An implied value (`implied = v` in the file): a parameter added to a design after kernels
    # were measured, whose value v renders the former code. A configuration at v is named and
    # stored (database config) without it, and one read without it (a database row, the routine
    # default) takes v, so the kernels measured before keep their names and can be carried.
    implied: int | None = None

    def shown(self, cfg: Mapping[str, int]) -> bool:
        return self.implied is None or cfg.get(self.name, self.implied) != self.implied


@dataclass(frozen=True)
class Design:
    name: str
    template: str
    threads: Expr
    params: tuple[Param, ...]
    restrictions: tuple[Expr, ...]
    shape_restrictions: tuple[Expr, ...]
    # spec routines: (name, expression) of the launch geometry beyond the block (e.g. grid_y),
    # translated to C for runtime/spec_launch.c
    launch: tuple[tuple[str, Expr], ...] = ()
    # spec routines: which calls a kernel can serve at run time (also shape restrictions when
    # tuning); translated to C for the runtime's dispatch
    fits: tuple[Expr, ...] = ()
    # spec routines: how much a kernel holds (over its slotted parameters): where no tuned rule
    # serves a call, the runtime takes the shipped kernel of least extent that fits (the
    # routine's fallbacks); None: the portable default alone serves such calls
    extent: Expr | None = None

    def configs(self) -> Iterator[dict[str, int]]:
        """The product of the parameter lists, first parameter slowest (declared order)."""
        names = [p.name for p in self.params]
        for values in itertools.product(*(p.values for p in self.params)):
            yield dict(zip(names, values))

    def slots(self, cfg: Mapping[str, int]) -> dict[str, int]:
        """Kernel descriptor fields; unmapped slots are 0 except dim_y, which counts threads."""
        out = {s: 0 for s in SLOTS}
        out["dim_y"] = 1
        for p in self.params:
            if p.slot != NO_SLOT:
                out[p.slot] = int(cfg[p.name])
        return out

    def suffix(self, cfg: Mapping[str, int]) -> str:
        return "_".join(f"{p.tag}{cfg[p.name]}" for p in self.params if p.shown(cfg))

    def complete(self, cfg: Mapping[str, int]) -> dict[str, int]:
        """cfg with every implied parameter it lacks at its implied value."""
        out = dict(cfg)
        for p in self.params:
            if p.implied is not None:
                out.setdefault(p.name, p.implied)
        return out

    def stored(self, cfg: Mapping[str, int]) -> dict[str, int]:
        """cfg as the database spells it: implied parameters at their implied value left out."""
        return {k: v for k, v in cfg.items()
                if not any(p.name == k and not p.shown(cfg) for p in self.params)}


@dataclass(frozen=True)
class DefaultKernel:
    design: str
    params: dict[str, int]
    # per precision, parameters that differ from `params` (a precision whose elements are too
    # large for the shared default, e.g. TRSM's z triangle of 32 in one block of 48 KB)
    by_precision: dict[str, dict[str, int]] = field(default_factory=dict)
    # a fallback only: the precisions it is shipped in (empty: all the routine's), for a kernel
    # that some precision's elements cannot take (getrf's 64-column panel in z)
    precisions: tuple[str, ...] = ()

    def params_for(self, prec: str) -> dict[str, int]:
        return {**self.params, **self.by_precision.get(prec, {})}


@dataclass(frozen=True)
class Routine:
    name: str
    precisions: tuple[str, ...]
    variants: tuple[str, ...]
    flops: Expr
    bytes: Expr
    vendor: str
    default: DefaultKernel
    spec: Any = None           # spec_mod.Spec of a routine declared in spec/routines/
    # kernels shipped in every build beside the default, for the calls the default cannot take
    # (getrf's tall panels above m = 32): the runtime takes the first that fits where no tuned
    # rule's kernel does (runtime/lapack_routines.c)
    fallbacks: tuple[DefaultKernel, ...] = ()

    @property
    def dispatch_dims(self) -> tuple[str, ...]:
        """The dimensions the runtime looks a call up by. A routine whose work and bytes do not
        depend on k (GEMV, TRSV, the factorizations) is looked up with k = 1, while its square
        shapes are tuned as (n, n, n): its emitted rules give k as 1, so that a call can match a
        tuned shape exactly."""
        if self.spec is not None:
            return tuple(d for d in ("m", "n", "k") if d in self.spec.dims)
        has_k = "k" in self.flops.names or "k" in self.bytes.names
        return ("m", "n", "k") if has_k else ("m", "n")


@dataclass(frozen=True)
class ShapeSet:
    modes: tuple[str, ...]
    variants: tuple[str, ...]
    square: tuple[int, ...]
    mnk: tuple[tuple[int, int, int], ...]


@dataclass(frozen=True)
class Shape:
    mode: str
    variant: str
    m: int
    n: int
    k: int

    @property
    def dims(self) -> tuple[int, int, int]:
        return (self.m, self.n, self.k)


def variant_flags(variant: str) -> tuple[int, int]:
    """(ta, tb) of a GEMM-style variant such as 'nt'. A one-letter variant is one option of a
    LAPACK routine: ta = 1 for its non-default letter ('t' transposed, 'c' conjugate
    transposed, 'u' upper, 'r' right), tb = 0.
    A triangular routine's uplo + op variant ('ln', 'lt', 'un', 'ut'): ta = upper, tb = op T."""
    if len(variant) == 2 and set(variant) <= {"n", "t"}:
        return int(variant[0] == "t"), int(variant[1] == "t")
    if len(variant) == 2 and variant[0] in "lu" and variant[1] in "nt":
        return int(variant[0] == "u"), int(variant[1] == "t")
    if len(variant) == 1:
        return int(variant in ("t", "c", "u", "r")), 0
    return 0, 0


@dataclass(frozen=True)
class SearchSpace:
    path: Path
    routine: Routine
    designs: tuple[Design, ...]
    batch: Expr
    sets: tuple[ShapeSet, ...]
    # a spec routine's driver as a tuned candidate: its parameters (e.g. the leaf size), no template
    driver: Design | None = None

    # -- designs and names -------------------------------------------------------------------
    def design(self, name: str) -> Design:
        for d in self.designs:
            if d.name == name:
                return d
        if self.driver is not None and name == DRIVER_DESIGN:
            return self.driver
        raise KeyError(f"{self.path}: no design {name!r}")

    def templates(self) -> list[str]:
        return sorted({d.template for d in self.designs})

    def variant_index(self, variant: str) -> int:
        return self.routine.variants.index(variant)

    def kernel_name(self, prec: str, design: Design, variant: str, cfg: Mapping[str, int]) -> str:
        return f"shoal_{prec}{self.routine.name}_{design.name}_{variant}_{design.suffix(cfg)}"

    def module_name(self, prec: str, design: Design, cfg: Mapping[str, int]) -> str:
        """A candidate module holds all variants of one configuration, so its name omits them."""
        return f"shoal_{prec}{self.routine.name}_{design.name}_{design.suffix(cfg)}"

    def default_kernels(self) -> list[tuple[str, str, Design, dict[str, int]]]:
        """(precision, variant, design, cfg) of the portable default for every combination."""
        return self._kernels_of(self.routine.default)

    def fallback_kernels(self) -> list[tuple[str, str, Design, dict[str, int]]]:
        """(precision, variant, design, cfg) of every fallback kernel, shipped like the default."""
        return [k for f in self.routine.fallbacks for k in self._kernels_of(f)]

    def _kernels_of(self, k: DefaultKernel) -> list[tuple[str, str, Design, dict[str, int]]]:
        d = self.design(k.design)
        return [(p, v, d, k.params_for(p)) for p in self.routine.precisions for v in self.routine.variants
                if not k.precisions or p in k.precisions]

    # -- shapes ------------------------------------------------------------------------------
    def shapes(self) -> list[Shape]:
        """All (mode, variant, m, n, k) in declared order, duplicates (across sets) dropped."""
        seen: set[Shape] = set()
        out: list[Shape] = []
        for s in self.sets:
            dims = [(x, x, x) for x in s.square] + list(s.mnk)
            for m, n, k in dims:
                for mode in s.modes:
                    for variant in s.variants:
                        shape = Shape(mode, variant, m, n, k)
                        if shape not in seen:
                            seen.add(shape)
                            out.append(shape)
        return out

    def problem_env(self, shape: Shape, prec: str) -> dict[str, Any]:
        row = precision_mod.get(prec)
        # cx: a multiply-add's real flops over a real one's (4 in c/z), as in the specs
        env = {"m": shape.m, "n": shape.n, "k": shape.k, "elem": row.elem, "cx": row.cx}
        env.update(self.spec_env(shape, prec))
        return env

    def spec_env(self, shape: Shape, prec: str) -> dict[str, Any]:
        """A spec routine's names at a tuned shape: its dims from the shape's slots, its variant
        option from the variant letter, the other options 0 (the tuned representative: lower,
        op N, non-unit), and its derived sizes. Empty for other routines."""
        spec = self.routine.spec
        if spec is None:
            return {}
        opts = {o.name: 0 for o in spec.options}
        if spec.variant:  # (a routine without options has the one variant)
            opts[spec.variant] = spec.option(spec.variant).type.letters.index(shape.variant)
        dims = {d: getattr(shape, d) for d in spec.dims}
        # the precision's element size: a spec's bytes (and so a task's batch) depend on it;
        # its cx: flops in real operations
        row = precision_mod.get(prec)
        return spec.evaluate(dims, opts, row.elem, row.cx)

    def flops(self, shape: Shape, prec: str) -> float:
        return self.routine.flops(self.problem_env(shape, prec))

    def bytes(self, shape: Shape, prec: str) -> float:
        return self.routine.bytes(self.problem_env(shape, prec))

    def batch_for(self, shape: Shape, prec: str, device: Mapping[str, Any]) -> int:
        env = device_env(device)
        env.update(self.problem_env(shape, prec))
        env["bytes"] = self.bytes(shape, prec)
        return max(1, int(self.batch(env)))


def device_env(device: Mapping[str, Any]) -> dict[str, Any]:
    return {name: device[name] for name in DEVICE_LIMITS if name in device}


def restriction_env(design: Design, cfg: Mapping[str, int], prec: str,
                    device: Mapping[str, Any]) -> dict[str, Any]:
    env = device_env(device)
    env.update(cfg)
    env["elem"] = precision_mod.get(prec).elem
    env["prec"] = prec
    return env


def shape_env(base: Mapping[str, Any], shape: Shape) -> dict[str, Any]:
    env = dict(base)
    ta, tb = variant_flags(shape.variant)
    env.update(m=shape.m, n=shape.n, k=shape.k, mode=shape.mode, ta=ta, tb=tb)
    return env


@dataclass(frozen=True)
class Candidate:
    """One configuration of one design in one precision (all variants): one candidate module."""
    space: SearchSpace
    prec: str
    design: Design
    cfg: dict[str, int]

    @property
    def module_name(self) -> str:
        return self.space.module_name(self.prec, self.design, self.cfg)

    def kernel_name(self, variant: str) -> str:
        return self.space.kernel_name(self.prec, self.design, variant, self.cfg)

    def config_json(self) -> str:
        return config_json(self.design.stored(self.cfg))


def config_json(cfg: Mapping[str, Any]) -> str:
    """The database's spelling of a configuration: sorted keys, no spaces, stable bytes."""
    return json.dumps(dict(cfg), sort_keys=True, separators=(",", ":"))


def candidates(space: SearchSpace, prec: str) -> Iterator[Candidate]:
    for design in space.designs:
        for cfg in design.configs():
            yield Candidate(space, prec, design, cfg)


# -- loading -----------------------------------------------------------------------------------
def _need(table: Mapping[str, Any], key: str, where: str, kind: type | tuple[type, ...]) -> Any:
    if key not in table:
        raise SearchSpaceError(f"{where}: missing {key!r}")
    value = table[key]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise SearchSpaceError(f"{where}: {key!r} has the wrong type ({type(value).__name__})")
    return value


def _int_list(values: Any, where: str, minimum: int = 1) -> tuple[int, ...]:
    """Parameter values may be 0 (on/off switches); sizes must be positive."""
    kind = "positive" if minimum == 1 else f">= {minimum}"
    if not isinstance(values, list) or not values or not all(
            isinstance(v, int) and not isinstance(v, bool) and v >= minimum for v in values):
        raise SearchSpaceError(f"{where}: expected a non-empty list of {kind} integers")
    return tuple(values)


DRIVER_DESIGN = "driver"


def _load_design(t: Mapping[str, Any], where: str, spec_names: frozenset[str] = frozenset(),
                 template_required: bool = True) -> Design:
    name = _need(t, "name", where, str)
    where = f"{where} {name!r}"
    template = _need(t, "template", where, str) if template_required else ""
    params: list[Param] = []
    for i, p in enumerate(_need(t, "params", where, list)):
        pw = f"{where} params[{i}]"
        implied = p.get("implied")
        param = Param(name=_need(p, "name", pw, str), tag=_need(p, "tag", pw, str),
                      slot=_need(p, "slot", pw, str), values=_int_list(p.get("values"), pw, minimum=0),
                      implied=implied)
        if implied is not None and implied not in param.values:
            raise SearchSpaceError(f"{pw}: implied value {implied!r} is not one of its values")
        if not param.name.isidentifier():
            raise SearchSpaceError(f"{pw}: parameter name {param.name!r} is not an identifier")
        if param.slot not in SLOTS + (NO_SLOT,):
            raise SearchSpaceError(f"{pw}: slot {param.slot!r} not one of {', '.join(SLOTS + (NO_SLOT,))}")
        params.append(param)
    for attr in ("name", "tag", "slot"):
        seen = [getattr(p, attr) for p in params if attr != "slot" or p.slot != NO_SLOT]
        if len(seen) != len(set(seen)):
            raise SearchSpaceError(f"{where}: parameter {attr}s are not unique: {seen}")
    pnames = [p.name for p in params]
    base = set(pnames) | {"elem", "prec"} | set(DEVICE_LIMITS)
    restrictions = tuple(compile_expr(e, base, f"{where} restriction")
                         for e in t.get("restrictions", []))
    shape_names = base | set(SHAPE_NAMES) | spec_names
    fits = tuple(compile_expr(e, (shape_names - {"mode", "ta", "tb"}), f"{where} fits")
                 for e in t.get("fits", []))
    shape_restrictions = fits + tuple(compile_expr(e, shape_names, f"{where} shape restriction")
                                      for e in t.get("shape_restrictions", []))
    threads = compile_expr(t.get("threads", "1"), pnames, f"{where} threads")
    unknown = sorted(set(t.get("launch", {})) - set(LAUNCH_RULES))
    if unknown:
        raise SearchSpaceError(f"{where}: launch rules {unknown} not among {', '.join(LAUNCH_RULES)}")
    launch = tuple((k, compile_expr(v, shape_names - {"mode"}, f"{where} launch.{k}"))
                   for k, v in sorted(t.get("launch", {}).items()))
    # the launch code has the kernel descriptor's slots and the call, nothing else
    unknown_at_launch = {p.name for p in params if p.slot == NO_SLOT} | set(DEVICE_LIMITS) | {"prec"}
    for k, e in launch:
        if e.names & unknown_at_launch:
            raise SearchSpaceError(f"{where} launch.{k}: {sorted(e.names & unknown_at_launch)} have no value "
                                   "at launch (slotted parameters, elem and the call's dimensions and options do)")
    extent = None
    if "extent" in t:
        slotted = [p.name for p in params if p.slot != NO_SLOT]
        extent = compile_expr(_need(t, "extent", where, str), slotted,
                              f"{where} extent (slotted parameters only: the runtime reads them from the descriptor)")
    return Design(name=name, template=template, threads=threads, params=tuple(params),
                  restrictions=restrictions, shape_restrictions=shape_restrictions, launch=launch,
                  fits=fits, extent=extent)


def _load_sets(t: Mapping[str, Any], variants: tuple[str, ...], where: str) -> tuple[ShapeSet, ...]:
    sets = []
    for i, s in enumerate(_need(t, "set", where, list)):
        sw = f"{where} set[{i}]"
        modes = tuple(_need(s, "modes", sw, list))
        bad = [m for m in modes if m not in MODES]
        if bad or not modes:
            raise SearchSpaceError(f"{sw}: modes must be a non-empty subset of {MODES}, got {modes}")
        svars = tuple(_need(s, "variants", sw, list))
        bad = [v for v in svars if v not in variants]
        if bad or not svars:
            raise SearchSpaceError(f"{sw}: variants must be a non-empty subset of {variants}")
        square = _int_list(s["square"], f"{sw} square") if s.get("square") else ()
        mnk = []
        for j, dims in enumerate(s.get("mnk", [])):
            mnk.append(_int_list(dims, f"{sw} mnk[{j}]"))
            if len(mnk[-1]) != 3:
                raise SearchSpaceError(f"{sw} mnk[{j}]: expected [m, n, k]")
        if not square and not mnk:
            raise SearchSpaceError(f"{sw}: no shapes (square or mnk)")
        sets.append(ShapeSet(modes=modes, variants=svars, square=square, mnk=tuple(mnk)))  # type: ignore[arg-type]
    return tuple(sets)


def _load_default(dflt: dict, where: str, precisions: tuple[str, ...],
                  fallback: bool = False) -> DefaultKernel:
    """[routine.default] or one [[routine.fallback]]: design, params, by_precision, and for a
    fallback its precisions (optional, a subset of the routine's)."""
    by_prec = dict(dflt.get("by_precision", {}))
    for p, over in by_prec.items():
        if p not in precisions or not isinstance(over, dict):
            raise SearchSpaceError(f"{where}.by_precision: {p!r} must be a listed precision "
                                   "with a table of parameters")
    only: list = []
    if "precisions" in dflt:
        only = dflt["precisions"]
        if not fallback:
            raise SearchSpaceError(f"{where}: the default serves every precision (no 'precisions')")
        if not isinstance(only, list) or not only or not set(only) <= set(precisions):
            raise SearchSpaceError(f"{where}.precisions: a non-empty list of the routine's precisions")
    return DefaultKernel(design=_need(dflt, "design", where, str),
                         params=dict(_need(dflt, "params", where, dict)),
                         by_precision={p: dict(o) for p, o in by_prec.items()},
                         precisions=tuple(only))


def _check_default(k: DefaultKernel, where: str, designs: tuple[Design, ...]) -> None:
    names = [d.name for d in designs]
    if k.design not in names:
        raise SearchSpaceError(f"{where}: unknown design {k.design!r}")
    design = designs[names.index(k.design)]
    # the default may leave implied parameters out (it was written before they existed)
    k.params.update(design.complete(k.params))
    if set(k.params) != {p.name for p in design.params}:
        raise SearchSpaceError(f"{where}: params must be exactly {[p.name for p in design.params]}")
    for p, over in k.by_precision.items():
        if not set(over) <= set(k.params):
            raise SearchSpaceError(f"{where}.by_precision.{p}: unknown parameters "
                                   f"{sorted(set(over) - set(k.params))}")


def load(path: str | Path) -> SearchSpace:
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as e:
        raise SearchSpaceError(f"{path}: {e}") from None
    where = str(path)
    r = _need(data, "routine", where, dict)
    rw = f"{where} [routine]"
    precisions = tuple(_need(r, "precisions", rw, list))
    for p in precisions:
        precision_mod.get(p)
    default = _load_default(_need(r, "default", rw, dict), f"{rw}.default", precisions)
    fallbacks = tuple(_load_default(f, f"{rw}.fallback[{i}]", precisions, fallback=True)
                      for i, f in enumerate(r.get("fallback", [])))
    name = _need(r, "name", rw, str)
    spec_path = path.parent.parent / "spec" / "routines" / f"{name}.toml"
    if "flops" not in r and spec_path.is_file():
        # declared once: variants, counts and the vendor come from the routine's spec
        spec = spec_mod.load(spec_path)
        routine = Routine(name=name, precisions=precisions, variants=spec.variants,
                          flops=spec.flops, bytes=spec.bytes,
                          vendor="cublas" if spec.vendor != "none" else "none",
                          default=default, spec=spec, fallbacks=fallbacks)
        spec_names = frozenset(spec.env_names())
    else:
        routine = Routine(
            name=name, precisions=precisions, variants=tuple(_need(r, "variants", rw, list)),
            flops=compile_expr(_need(r, "flops", rw, str), PROBLEM_NAMES, f"{rw} flops"),
            bytes=compile_expr(_need(r, "bytes", rw, str), PROBLEM_NAMES, f"{rw} bytes"),
            vendor=_need(r, "vendor", rw, str), default=default, fallbacks=fallbacks)
        spec_names = frozenset()
    variants = routine.variants
    designs = tuple(_load_design(d, f"{where} [[design]]", spec_names)
                    for d in _need(data, "design", where, list))
    driver = None
    if "driver" in data:
        if routine.spec is None or routine.spec.driver == "none":
            raise SearchSpaceError(f"{where} [driver]: only a spec routine with a driver has one")
        driver = _load_design({"name": DRIVER_DESIGN, **data["driver"]}, f"{where} [driver]",
                              spec_names, template_required=False)
    names = [d.name for d in designs]
    if len(names) != len(set(names)):
        raise SearchSpaceError(f"{where}: design names are not unique: {names}")
    if "vendor" in names:
        raise SearchSpaceError(f"{where}: 'vendor' is reserved for the vendor baseline")
    _check_default(routine.default, f"{rw}.default", designs)
    for i, f in enumerate(routine.fallbacks):
        _check_default(f, f"{rw}.fallback[{i}]", designs)
    shapes = _need(data, "shapes", where, dict)
    batch = compile_expr(_need(shapes, "batch", f"{where} [shapes]", str),
                         set(PROBLEM_NAMES[:3]) | {"bytes", "elem"} | set(DEVICE_LIMITS),
                         f"{where} [shapes] batch")
    return SearchSpace(path=path, routine=routine, designs=designs, batch=batch,
                       sets=_load_sets(shapes, variants, f"{where} [shapes]"), driver=driver)


def restrict_precisions(space: SearchSpace, precisions: tuple[str, ...]) -> SearchSpace:
    """The search space as if it listed only these of its precisions (its file, hence its
    template version, is the same)."""
    bad = [p for p in precisions if p not in space.routine.precisions]
    if bad:
        raise ValueError(f"{space.routine.name} lists no precision {', '.join(bad)}")
    from dataclasses import replace
    return replace(space, routine=replace(space.routine, precisions=tuple(
        p for p in space.routine.precisions if p in precisions)))


def load_routine(search_space_dir: str | Path, routine: str) -> SearchSpace:
    space = load(Path(search_space_dir) / f"{routine}.toml")
    if space.routine.name != routine:
        raise SearchSpaceError(f"{space.path}: declares routine {space.routine.name!r}")
    return space


def discover(search_space_dir: str | Path) -> list[SearchSpace]:
    """Every routine's search space, sorted by routine name (the order of emitted tables)."""
    return [load_routine(search_space_dir, p.stem)
            for p in sorted(Path(search_space_dir).glob("*.toml"))]
