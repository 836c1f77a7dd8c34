"""`python -m generator emit`: the tuned database -> generated/<routine>_<p>_<variant>.cu (the winning
kernels) and generated/<routine>_tables.c (the arrays of runtime/dispatch_table.h).

Only measurements under the current template version, or a version carried to it (tuned_db
carried_versions: shown to compile to the same kernels), are used: after a template edit the
kernel names still match but the code behind them may not, so old timings say nothing about it
unless carried. With a fold tolerance, near-tied kernels are folded into kernels shipped anyway
(generator/fold.py) or, with the cover, into a set cover of kernels measured at the rules' shapes
(generator/cover.py), which may ship kernels no rule chose. Output
is sorted and free of timestamps, and files are rewritten only when their bytes change, so make
rebuilds only what a new tuning result actually changed."""
from __future__ import annotations

import json
import sqlite3
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from . import cover, db, emit_spec, fold, render
from .project import Project, template_version
from .render import Instance
from .search_space import DRIVER_DESIGN, MODES, Design, SearchSpace, variant_flags
from .tasks import VENDOR_DESIGN

VENDOR_INDEX = "SHOAL_KERNEL_VENDOR"


@dataclass(frozen=True)
class KernelRef:
    name: str
    prec: str
    variant: str
    design: Design
    cfg: dict[str, int]


@dataclass
class Table:
    device_id: int
    device_name: str
    cc: tuple[int, int]
    # (prec, mode, variant, m, n, k, best kernel or None for the vendor, own kernel or None)
    rules: list[tuple[str, str, str, int, int, int, str | None, str | None]] = field(default_factory=list)
    # per rule, the shape (m, n, k) as measured: the rule's m, n, k are 1 outside the dispatch dims
    measured: list[tuple[int, int, int]] = field(default_factory=list)


@dataclass
class EmitResult:
    written: list[Path] = field(default_factory=list)
    unchanged: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    folds: list[str] = field(default_factory=list)      # one line per routine where folding ran


def _c_string(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _kernel_ref(space: SearchSpace, prec: str, variant: str, design_name: str, config: str,
                kernel: str) -> KernelRef:
    design = space.design(design_name)
    # a row measured before an implied parameter existed lacks it: it takes the implied value
    cfg = design.complete({k: int(v) for k, v in json.loads(config).items()})
    name = space.kernel_name(prec, design, variant, cfg)
    if name != kernel:
        raise ValueError(f"database kernel {kernel} does not match its configuration ({name})")
    return KernelRef(name, prec, variant, design, cfg)


def _collect(conn: sqlite3.Connection, space: SearchSpace, version: str, res: EmitResult,
             winners: Mapping[tuple[str, str], list[sqlite3.Row]],
             fold_tolerance: float = 0.0, fold_cover: bool = False
             ) -> tuple[list[Table], dict[str, KernelRef]]:
    """winners: db.winners_by_version(conn)."""
    routine = space.routine.name
    chain = db.version_chain(conn, routine, version)
    stale = conn.execute("SELECT count(*) FROM measurements WHERE routine = ? AND template_version"
                         f" NOT IN ({', '.join('?' for _ in chain)})", (routine, *chain)).fetchone()[0]
    if stale:
        res.warnings.append(
            f"{routine}: ignored {stale} measurements of other template versions (current "
            f"{version}); retune, or carry-version if the kernels are unchanged")
    kernels: dict[str, KernelRef] = {}
    tables: dict[int, Table] = {}
    devices = {r["id"]: r for r in conn.execute("SELECT * FROM devices")}
    for r in winners.get((routine, version), []):
        if r["precision"] not in space.routine.precisions or r["mode"] not in MODES \
                or r["variant"] not in space.routine.variants:
            res.warnings.append(f"{routine}: skipped a winner outside the search space: "
                                f"{r['precision']} {r['mode']} {r['variant']}")
            continue
        best = own = None
        if r["design"] != VENDOR_DESIGN:
            ref = _kernel_ref(space, r["precision"], r["variant"], r["design"], r["config"],
                              r["kernel"])
            kernels[ref.name] = ref
            best = ref.name
        if r["own_kernel"] is not None:
            ref = _kernel_ref(space, r["precision"], r["variant"], r["own_design"],
                              r["own_config"], r["own_kernel"])
            kernels[ref.name] = ref
            own = ref.name
        dev = devices[r["device_id"]]
        t = tables.setdefault(r["device_id"], Table(
            r["device_id"], dev["name"], (dev["cc_major"], dev["cc_minor"])))
        m, n, k = (r[d] if d in space.routine.dispatch_dims else 1 for d in ("m", "n", "k"))
        t.rules.append((r["precision"], r["mode"], r["variant"], m, n, k, best, own))
        t.measured.append((r["m"], r["n"], r["k"]))
    for t in tables.values():
        shapes = [rule[:6] for rule in t.rules]
        if len(shapes) != len(set(shapes)):
            dup = sorted({x for x in shapes if shapes.count(x) > 1})
            raise ValueError(f"{routine}: tuned shapes coincide in the dispatch dimensions "
                             f"{list(space.routine.dispatch_dims)} on {t.device_name}: {dup[:4]}")
    # The runtime matches tables by device name, so one table per name: several rows of a name
    # (other CUDA/cuBLAS versions) -> keep the one with the most rules, then the newest.
    by_name: dict[tuple[str, tuple[int, int]], list[Table]] = defaultdict(list)
    for t in tables.values():
        by_name[(t.device_name, t.cc)].append(t)
    chosen = []
    for (name, _), ts in sorted(by_name.items()):
        ts.sort(key=lambda t: (len(t.rules), t.device_id), reverse=True)
        if len(ts) > 1:
            res.warnings.append(f"{routine}: {len(ts)} software stacks tuned for {name}; "
                                f"emitting device id {ts[0].device_id} ({len(ts[0].rules)} rules)")
        chosen.append(ts[0])
    # A tuning in progress (its device's newest run over the routine left tasks) must not replace
    # a complete table: where another device of the same compute capability has a table, the
    # runtime serves that device from it until its own tuning finishes (resumable over calls)
    busy = db.tuning_in_progress(conn, routine)
    for t in [t for t in chosen if t.device_id in busy]:
        if any(o.cc == t.cc and o.device_name != t.device_name and o.device_id not in busy for o in chosen):
            res.warnings.append(f"{routine}: tuning in progress on {t.device_name} ({len(t.rules)} rules "
                                "so far): not emitted; the table of another device of its compute "
                                "capability serves it")
            chosen.remove(t)
    defaults = []
    for prec, variant, design, cfg in space.default_kernels() + space.fallback_kernels():
        ref = KernelRef(space.kernel_name(prec, design, variant, cfg), prec, variant, design, cfg)
        kernels[ref.name] = ref
        defaults.append(ref.name)
    if fold_tolerance > 0:
        _fold(conn, space, chain, chosen, kernels, defaults, fold_tolerance, fold_cover, res)
    # Only kernels some emitted table uses (a dropped duplicate may have referenced others).
    used = {k for t in chosen for rule in t.rules for k in rule[6:] if k is not None}
    used.update(defaults)
    return chosen, {n: kernels[n] for n in sorted(used)}


def _arch_floor(space: SearchSpace, tables: list[Table]) -> dict[str, int]:
    """Per tuned kernel, the lowest __CUDA_ARCH__ (compute capability x 100) of a table that
    names it: a device selects the table of the highest compute capability not above its own
    (runtime/dispatch.c), so no device below that floor dispatches the kernel. Portable defaults
    serve devices without a table and have no floor."""
    defaults = {space.kernel_name(p, d, v, c)
                for p, v, d, c in space.default_kernels() + space.fallback_kernels()}
    floor: dict[str, int] = {}
    for t in tables:
        arch = t.cc[0] * 100 + t.cc[1] * 10
        for rule in t.rules:
            for k in rule[6:]:
                if k is not None and k not in defaults:
                    floor[k] = min(floor.get(k, arch), arch)
    return floor


def _compiled(names: set[str], kernels: dict[str, KernelRef]) -> int:
    return sum(1 for n in names if kernels[n].design.name != DRIVER_DESIGN)


def _fold(conn: sqlite3.Connection, space: SearchSpace, chain: list[str], tables: list[Table],
          kernels: dict[str, KernelRef], defaults: list[str], tol: float, use_cover: bool,
          res: EmitResult) -> None:
    """generator/fold.py (or cover.py) over the emitted tables' rules; rewrites them in place and
    adds the kernels no rule chose that the cover ships to `kernels`."""
    sites = [fold.Site((t.device_id, *rule[:3], *shape), list(rule[6:]))
             for t in tables for rule, shape in zip(t.rules, t.measured)]
    before = {k for s in sites for k in s.kernels if k is not None} | set(defaults)
    timings = fold.load_timings(conn, space.routine.name, chain, (s.key for s in sites))
    drivers = sorted(n for n in before if kernels[n].design.name == DRIVER_DESIGN)
    if use_cover:
        refs = _measured_refs(space, timings, kernels)
        # a driver entry no rule chose compiles to nothing, so the cover's count would not see it
        out = cover.cover(sites, timings, tol, fixed=defaults, unfoldable=drivers,
                          shippable=lambda n: n in refs and refs[n].design.name != DRIVER_DESIGN)
        kernels.update((n, refs[n]) for n in out.added)
    else:
        out = fold.fold(sites, timings, tol, fixed=defaults, unfoldable=drivers)
    it = iter(sites)
    for t in tables:
        t.rules = [(*rule[:6], *next(it).kernels) for rule in t.rules]  # type: ignore[misc]
    after = {k for s in sites for k in s.kernels if k is not None} | set(defaults) | set(drivers)
    line = (f"{space.routine.name}: {_compiled(before, kernels)} -> {_compiled(after, kernels)} "
            f"kernels ({'fold cover, tolerance' if use_cover else 'fold tolerance'} {tol:g})")
    w = out.worst()
    if w is not None:
        s = sites[w.site]
        _, prec, mode, variant, m, n, k = s.key
        line += f", {len(out.folds)} rule slots folded"
        if use_cover:
            line += f", {len(out.added)} kernels no rule chose"
        line += (f", worst +{(w.ratio - 1) * 100:.1f}% at "
                 f"{prec} {mode} {variant} {m}x{n}x{k} ({w.original} -> {w.target})")
    res.folds.append(line)


def _measured_refs(space: SearchSpace, timings: fold.Timings,
                   known: dict[str, KernelRef]) -> dict[str, KernelRef]:
    """KernelRefs of the kernels measured at the sites' shapes, from their recorded design and
    config (the name is checked against them, as for winners). A kernel whose design left the
    search space or whose name no longer matches its configuration is no cover target."""
    where = {n: (key[1], key[3]) for key, times in timings.kernels.items() for n in times}
    out = dict(known)
    for name, (design, config) in timings.configs.items():
        if name in out:
            continue
        prec, variant = where[name]
        try:
            out[name] = _kernel_ref(space, prec, variant, design, config, name)
        except (KeyError, ValueError):
            continue
    return out


def _design_id(space: SearchSpace, design: Design) -> str:
    """Spec routines' kernels share one launch convention (runtime/spec_launch.c); their
    driver is a table entry of its own kind (runtime/spec_run.c)."""
    if space.routine.spec is None:
        return f"SHOAL_DESIGN_{design.name.upper()}"
    if design.name == DRIVER_DESIGN:
        return "SHOAL_DESIGN_DRIVER"
    return f"SHOAL_DESIGN_SPEC + {[d.name for d in space.designs].index(design.name)}"


def _func(ref: KernelRef) -> str:
    """The host stub of a kernel; a driver entry has none."""
    return "0" if ref.design.name == DRIVER_DESIGN else f"(const void *){ref.name}"


def _tables_c(space: SearchSpace, version: str, tables: list[Table],
              kernels: dict[str, KernelRef], floor: dict[str, int]) -> str:
    """The routine's kernel array (with each kernel's architecture floor, `_arch_floor`: the
    runtime's fallback scan must not pick a kernel that is a __trap() on the device at hand)
    and its tuned tables."""
    r = space.routine.name
    index = {name: i for i, name in enumerate(kernels)}
    out = ["/* Generated by shoal's generator (python -m generator emit) from the tuned database;",
           " * do not edit. Kernels: generated/" + r + "_<p>_<variant>.cu; types: runtime/dispatch_table.h.",
           f" * routine {r}, template version {version}, {len(kernels)} kernels, "
           f"{len(tables)} tuned devices. */",
           '#include "dispatch_table.h"', "",
           "/* Host stubs of the extern \"C\" __global__ kernels; only their addresses are used. */"]
    out += [f"extern void {kname}(void);" for kname, ref in kernels.items() if _func(ref) != "0"]
    out += ["", f"const shoal_kernel_desc shoal_{r}_kernels[] = {{"]
    for i, (kname, ref) in enumerate(kernels.items()):
        s = ref.design.slots(ref.cfg)
        out.append(f"    /* {i:4d} */ {{{_c_string(kname)}, '{ref.prec}', "
                   f"{space.variant_index(ref.variant)}, {_design_id(space, ref.design)}, "
                   f"{s['dim_x']}, {s['dim_y']}, {{{s['p0']}, {s['p1']}, {s['p2']}, {s['p3']}, {s['p4']}}}, "
                   f"{_func(ref)}, {floor.get(kname, 0)}}},")
    out += ["};", f"const int shoal_{r}_n_kernels = {len(kernels)};", ""]
    for ti, t in enumerate(tables):
        rules = sorted(t.rules, key=lambda x: (x[0], MODES.index(x[1]),
                                               space.variant_index(x[2]), x[3], x[4], x[5]))
        out.append(f"/* {t.device_name} (cc {t.cc[0]}.{t.cc[1]}): {len(rules)} tuned shapes */")
        out.append(f"static const shoal_rule shoal_{r}_rules_{ti}[] = {{")
        for prec, mode, variant, m, n, k, best, own in rules:
            b = VENDOR_INDEX if best is None else str(index[best])
            o = "-1" if own is None else str(index[own])
            out.append(f"    {{'{prec}', SHOAL_MODE_{mode.upper()}, {space.variant_index(variant)}, "
                       f"{{{m}, {n}, {k}}}, {b}, {o}}},")
        out += ["};", ""]
    out.append(f"const shoal_table shoal_{r}_tables[] = {{")
    for ti, t in enumerate(tables):
        out.append(f"    {{{_c_string(r)}, {_c_string(t.device_name)}, {t.cc[0]}, {t.cc[1]}, "
                   f"shoal_{r}_rules_{ti}, {len(t.rules)}}},")
    if not tables:
        out.append("    /* no tuned device: a placeholder, since C has no zero-length arrays */")
        out.append(f"    {{{_c_string(r)}, \"\", 0, 0, 0, 0}},")
    out += ["};", f"const int shoal_{r}_n_tables = {len(tables)};", ""]
    defaults = [index[space.kernel_name(p, d, v, c)] for p, v, d, c in space.default_kernels()]
    n_var = len(space.routine.variants)
    groups = ", ".join(f"[{i * n_var}..{(i + 1) * n_var - 1}] '{p}'"
                       for i, p in enumerate(space.routine.precisions))
    out.append(f"/* Portable default per (precision, variant): {groups}. */")
    out.append(f"const short shoal_{r}_default_kernel[{len(defaults)}] = "
               f"{{{', '.join(map(str, defaults))}}};")
    # the runtime refuses a precision the routine does not list before it indexes the defaults
    out.append(f"const char shoal_{r}_precisions[] = {_c_string(''.join(space.routine.precisions))};")
    return "\n".join(out) + "\n"


def emit(conn: sqlite3.Connection, project: Project, spaces: list[SearchSpace],
         out_dir: Path, use_versions: Mapping[str, str] | None = None,
         fold_tolerance: float = 0.0, fold_cover: bool = False, public_files: bool = True) -> EmitResult:
    """public_files: False leaves the public header and the docs table alone (an emission of
    restricted precisions, generator/compare.py). use_versions: routine -> the template version whose measurements to emit instead of the
    current one (generator/compare.py renders the working tree's templates from the database's
    old measurements this way, before any carry is recorded). fold_tolerance: see
    generator/fold.py (0: every tuned kernel ships); fold_cover: the relaxed fold of
    generator/cover.py instead."""
    res = EmitResult()
    env = render.environment(project)
    files: dict[Path, str] = {}
    winners = db.winners_by_version(conn)
    for space in spaces:
        version = (use_versions or {}).get(space.routine.name) or template_version(project, space)
        tables, kernels = _collect(conn, space, version, res, winners, fold_tolerance, fold_cover)
        r = space.routine.name
        floor = _arch_floor(space, tables)
        # one translation unit per precision and variant, so that a parallel build spreads them
        for prec in space.routine.precisions:
            for variant in space.routine.variants:
                insts = [(ref.design, Instance(ref.name, dict(ref.cfg), *variant_flags(ref.variant)))
                         for ref in kernels.values() if ref.prec == prec and ref.variant == variant
                         and ref.design.name != DRIVER_DESIGN]
                files[out_dir / f"{r}_{prec}_{variant}.cu"] = render.render_shipped(env, r, prec, insts, version,
                                                                                   floor)
        files[out_dir / f"{r}_tables.c"] = _tables_c(space, version, tables, kernels, floor)
    spec_files = emit_spec.emit_files(spaces, out_dir, project.search_space_dir.parent, public_files)
    # the library's spec sources join the build; the argument test and the public header do not
    files.update({p: t for p, t in spec_files.items() if p.name in emit_spec.LIBRARY_FILES})
    # relative to $(GEN_DIR), so the bytes do not depend on where the output went
    cu = sorted(f"$(GEN_DIR)/{p.name}" for p in files if p.suffix == ".cu")
    c = sorted(f"$(GEN_DIR)/{p.name}" for p in files if p.suffix == ".c")
    files[out_dir / "sources.mk"] = ("# Generated by shoal's generator: the sources in generated/, for the Makefile.\n"
                                     f"GEN_CU := {' '.join(cu)}\nGEN_C := {' '.join(c)}\n")
    files.update({p: t for p, t in spec_files.items() if p.name not in emit_spec.LIBRARY_FILES})
    for path, text in files.items():
        (res.written if db.write_if_changed(path, text) else res.unchanged).append(path)
    return res


def emit_from_path(db_path: Path, project: Project, spaces: list[SearchSpace],
                   out_dir: Path, use_versions: Mapping[str, str] | None = None,
                   fold_tolerance: float = 0.0, fold_cover: bool = False,
                   public_files: bool = True) -> EmitResult:
    """A missing database emits the portable defaults only (a fresh checkout with no tuning)."""
    if db_path.is_file():
        conn = db.connect(db_path)
        pre: list[str] = []
    else:
        conn = db.empty()
        pre = [f"{db_path} does not exist; emitting the portable defaults only"]
    try:
        res = emit(conn, project, spaces, out_dir, use_versions, fold_tolerance, fold_cover, public_files)
    finally:
        conn.close()
    res.warnings[:0] = pre
    for w in res.warnings:
        print(f"[emit] warning: {w}", file=sys.stderr)
    return res
