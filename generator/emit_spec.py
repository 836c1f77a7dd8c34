"""What the generator emits from the routine specs (spec/routines/<r>.toml), never edited by hand
and byte-identical on rerun:

- `include/shoal_routines.h`: the public prototypes with their doc comments (shoal.h includes it);
- `generated/spec_api.c`: the entry points, with the argument checks in the documented order;
- `generated/spec_registry.c`: the runtime's registry (runtime/spec_run.h): dimension slots,
  quick return, which calls the kernels serve, kernel fits and launch rules, operand shapes,
  flop and byte counts, the vendor and peer calls, the driver;
- `generated/test_spec_args.c`: one argument-error test per rule (LAPACK's xerrxx idea);
- `docs/routines.md`: the routine table of the docs.
The factorizations' specs (`abi = "lapack"`) add their prototypes to the header, their entry
points (`generated/lapack_entry.c`), their argument tests and their docs table
(generator/emit_lapack.py); the level-2 routines' (`abi = "blas2"`) and GEMM's (`abi = "gemm"`)
theirs (`generated/blas2_entry.c`, `generated/gemm_entry.c`; generator/emit_blas2.py, emit_gemm.py). The dispatch tables themselves (`<r>_tables.c`) come from generator/emit.py like any routine's."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, TypeVar

from . import emit_blas2, emit_gemm, emit_lapack, spec_blas2, spec_gemm, spec_lapack
from . import precision as precision_mod
from .emit_common import BAD, C_MACROS, HEADER, OK, SIZE, Rule, args_test_c, fname as _fname, option_aliases, option_checks, option_rules
from .emit_common import scalar_value, src as _doc
from .search_space import DRIVER_DESIGN, SearchSpace
from .spec import SLOT_NAMES, Operand, Option, Spec, c_expr

R = TypeVar("R")

# emitted into generated/ and compiled into libshoal (the rest: header, docs, the argument test)
LIBRARY_FILES = ("spec_api.c", "spec_registry.c", "lapack_entry.c", "lapack_drivers.c", "blas2_entry.c",
                 "gemm_entry.c")
# the C names of a kernel configuration's slots (runtime/dispatch_table.h)
SLOT_C = {"dim_x": "kd->dim_x", "dim_y": "kd->dim_y", "p0": "kd->p[0]", "p1": "kd->p[1]",
          "p2": "kd->p[2]", "p3": "kd->p[3]", "p4": "kd->p[4]"}


@dataclass(frozen=True)
class Routine:
    spec: Spec
    space: SearchSpace

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def precisions(self) -> tuple[str, ...]:
        return self.space.routine.precisions


def _beta_before(spec: Spec) -> str | None:
    """BLAS order: beta comes right before the first operand that is written."""
    if "beta" not in spec.scalars:
        return None
    for o in spec.operands:
        if o.access != "in":
            return o.name
    return None


# ---- the public prototypes -------------------------------------------------------------------

def _scalar_type(spec: Spec, prec: str) -> str:
    """alpha's and beta's public type: the element type, or its real type where the spec says
    its scalars are real (BLAS herk: float / double in c / z)."""
    p = precision_mod.get(prec)
    return p.R if spec.real_scalars else p.api


def _scalar_arg(spec: Spec, prec: str, re: str, im: str) -> str:
    if spec.real_scalars:
        return f"({precision_mod.get(prec).R}){re}"
    return scalar_value(prec, precision_mod.get(prec).api, re, im)


def _opt_index(o: Option) -> str:
    """What the call stores for an option: its value, or where its enumerators are not 0, 1, ...
    the index of its value (p.opts indexes the variants)."""
    if not o.type.enum_values:
        return f"(int){o.name}"
    return "(" + " : ".join(f"{o.name} == {v} ? {i}" for i, v in enumerate(o.type.values[:-1])) + \
        f" : {len(o.type.values) - 1})"


def _opt_value(o: Option, index: str) -> str:
    """The enumerator of an option index (the case invoker's inverse of _opt_index)."""
    if not o.type.enum_values:
        return f"({o.type.c_type}){index}"
    return f"((const {o.type.c_type}[]){{{', '.join(o.type.values)}}})[{index}]"


def _elem_type(o: Operand, prec: str) -> str:
    """An operand's public element type: shoal_complex_float / _double for c and z
    (include/shoal.h), float / double for a real vector in every precision."""
    p = precision_mod.get(prec)
    return p.R if o.real else p.api


def _params(r: Routine, prec: str, form: str) -> list[str]:
    spec = r.spec
    S = _scalar_type(spec, prec)
    out = ["shoal_handle handle"]
    out += [f"{o.type.c_type} {o.name}" for o in spec.options]
    out += [f"int {d}" for d in spec.dims]
    if "alpha" in spec.scalars:
        out.append(f"{S} alpha")
    beta_at = _beta_before(spec)
    for o in spec.operands:
        if o.name == beta_at:
            out.append(f"{S} beta")
        const = "const " if o.access == "in" else ""
        T = _elem_type(o, prec)
        if form == "batched":
            out.append(f"{const}{T} *const {o.name}[]")
            out += [] if o.is_vector else [f"int64_t {o.ld}"]
        else:
            out.append(f"{const}{T} *{o.name}")
            out += ([] if o.is_vector else [f"int64_t {o.ld}"]) + [f"int64_t {o.stride}"]
    out.append("int64_t batch")
    return out


def _ld_value(o: Operand) -> str:
    """What the call's operand block gets as the ld: the argument, or for a vector (no ld in the
    call) its length, at least 1."""
    return f"SHOAL_MAX(1, {c_expr(o.rows)})" if o.is_vector else o.ld


def _shape_doc(spec: Spec, o: Operand) -> str:
    if o.is_vector:
        return f"{o.name} is a {'real ' if o.real else ''}vector of {_doc(o.rows)} ({o.access})"
    return f"{o.name} is {_doc(o.rows)} x {_doc(o.cols)} ({o.access}), {o.ld} >= max(1, {_doc(o.rows)})"


def header(routines: list[Routine], lapack: list[emit_lapack.LapackRoutine] | None = None,
           blas2: list[emit_blas2.Blas2Routine] | None = None,
           gemm: list[emit_gemm.GemmRoutine] | None = None) -> str:
    out = [HEADER.rstrip(), "/* The routines declared by specs: included by shoal.h, which defines the types. */",
           "#ifndef SHOAL_ROUTINES_H", "#define SHOAL_ROUTINES_H", "", "#ifdef __cplusplus",
           'extern "C" {', "#endif", ""]
    out += emit_lapack.header_blocks(lapack or [])
    out += emit_blas2.header_blocks(blas2 or [])
    out += emit_gemm.header_blocks(gemm or [])
    for r in routines:
        spec = r.spec
        out.append(f"/* {spec.name}: {spec.summary}")
        for line in spec.notes.splitlines():
            out.append(f" * {line}".rstrip())
        if spec.derived:
            out.append(" * " + "; ".join(f"{n} = {e.source}" for n, e in spec.derived) + ".")
        for o in spec.operands:
            out.append(f" * {_shape_doc(spec, o)}.")
        out.append(" * Pointer arrays: problem i uses X[i]; strided: X + i * strideX (elements); a written")
        out.append(" * non-empty operand's stride must keep problems apart (>= ldX * cols when batch > 1).")
        out.append(" * Errors, in order: an option out of range, a negative dimension or batch, a leading")
        out.append(" * dimension below its bound, a negative or overlapping stride, a NULL operand where work")
        if any(o.is_vector for o in spec.operands):
            out.append(" * is to be done (a vector only where it has elements) -> SHOAL_STATUS_INVALID_VALUE; then a")
            out.append(" * NULL handle -> NOT_INITIALIZED; then")
        else:
            out.append(" * is to be done -> SHOAL_STATUS_INVALID_VALUE; then a NULL handle -> NOT_INITIALIZED; then")
        out.append(f" * no work ({spec.quick_return.source}, or batch == 0) -> SUCCESS at once. */")
        for prec in r.precisions:
            for form in ("batched", "strided_batched"):
                params = _params(r, prec, form)
                out.append(f"shoal_status {_fname(prec, spec.name, form)}(" + ", ".join(params) + ");")
        out.append("")
    out += ["#ifdef __cplusplus", "}", "#endif", "#endif"]
    return "\n".join(out) + "\n"


# ---- the entry points ------------------------------------------------------------------------

def _locals(spec: Spec) -> list[str]:
    """Derived sizes as C locals, from the dims and options in scope."""
    return [f"    const long long {n} = {c_expr(e)};" for n, e in spec.derived]


def _checks(r: Routine, prec: str, form: str) -> list[str]:
    spec = r.spec
    out = option_checks(spec.options) + option_aliases(spec.options, prec)
    for d in spec.dims:
        out.append(f"    if ({d} < 0) return BAD;")
    out += _locals(spec)
    for rule, _ in spec.requires:
        out.append(f"    if (!{c_expr(rule)}) return BAD;")
    if spec.derived:  # the checks need not read every one
        out.append("    " + " ".join(f"(void){n};" for n, _ in spec.derived))
    out.append("    if (batch < 0) return BAD;")
    for o in spec.operands:
        if not o.is_vector:
            out.append(f"    if ({o.ld} < SHOAL_MAX(1, {c_expr(o.rows)})) return BAD;")
    if form == "strided_batched":
        for o in spec.operands:
            if o.access == "in":
                out.append(f"    if ({o.stride} < 0) return BAD;")
            else:
                # an empty operand has nothing to overlap
                out.append(f"    if ({o.stride} < 0 || (batch > 1 && {c_expr(o.rows)} > 0 && "
                           f"{o.stride} < {_ld_value(o)} * {c_expr(o.cols)})) return BAD;")
    work = f"!({c_expr(spec.quick_return)}) && batch > 0"
    # a vector of no elements (orgqr's tau with k = 0) is not read: NULL is fine, as LAPACK
    # would never touch it
    nulls = " || ".join(f"(!{o.name} && {c_expr(o.rows)} > 0)" if o.is_vector else f"!{o.name}"
                        for o in spec.operands)
    out.append(f"    if ({work} && ({nulls})) return BAD;")
    return out


def api_c(routines: list[Routine]) -> str:
    out = [HEADER.rstrip(), "/* Entry points of the spec routines: argument checks in the documented order, then",
           " * runtime/spec_run.c. */", "#include <stddef.h>", "#include <string.h>", "", '#include "spec_run.h"', '#include "shoal.h"', "",
           *C_MACROS]
    for ri, r in enumerate(routines):
        spec = r.spec
        for prec in r.precisions:
            for form in ("batched", "strided_batched"):
                out.append(f"shoal_status {_fname(prec, spec.name, form)}(" + ", ".join(_params(r, prec, form)) + ")")
                out.append("{")
                out += _checks(r, prec, form)
                out.append("    shoal_spec_call c;")
                out.append("    memset(&c, 0, sizeof c);")
                out.append(f"    c.routine = {ri};")
                out.append(f"    c.prec = '{prec}';")
                out.append(f"    c.mode = {'SHOAL_MODE_ARRAY' if form == 'batched' else 'SHOAL_MODE_STRIDED'};")
                for i, d in enumerate(spec.dims):
                    out.append(f"    c.p.dims[{i}] = {d};")
                for i, o in enumerate(spec.options):
                    out.append(f"    c.p.opts[{i}] = {_opt_index(o)};")
                for s in spec.scalars:
                    if precision_mod.get(prec).is_complex and not spec.real_scalars:
                        out.append(f"    c.p.{s} = {s}.re;")
                        out.append(f"    c.p.{s}_im = {s}.im;")
                    else:
                        out.append(f"    c.p.{s} = {s};")
                for i, o in enumerate(spec.operands):
                    if form == "batched":
                        out.append(f"    c.p.op[{i}].array = (void *const *){o.name};")
                    else:
                        out.append(f"    c.p.op[{i}].ptr = (void *){o.name};")
                        out.append(f"    c.p.op[{i}].stride = {o.stride};")
                    out.append(f"    c.p.op[{i}].ld = {_ld_value(o)};")
                out.append("    c.p.batch = batch;")
                out.append("    return shoal_spec_run(handle, &c);")
                out.append("}")
                out.append("")
    return "\n".join(out)


# ---- the registry ----------------------------------------------------------------------------

def _call_locals(spec: Spec) -> list[str]:
    out = [f"    const long long {d} = c->p.dims[{i}];" for i, d in enumerate(spec.dims)]
    out += [f"    const long long {o.name} = c->p.opts[{i}];" for i, o in enumerate(spec.options)]
    out += _locals(spec)
    names = list(spec.dims) + [o.name for o in spec.options] + [n for n, _ in spec.derived]
    out.append("    " + " ".join(f"(void){n};" for n in names))
    return out


def _vendor_call(template: str, spec: Spec, prec: str) -> str:
    p = precision_mod.get(prec)
    return template.replace("{X}", prec.upper()).replace("{T}", p.T)


def _vendor_fn(r: Routine, kind: str, template: str) -> list[str]:
    """A vendor (or peer) call per precision; {X} and {T} substituted. Names in the template:
    the spec's dims and options (int), alpha/beta of the element type, the operands as
    shoal_operand (A.array, A.ptr, A.ld, A.stride), batch (int), h."""
    spec = r.spec
    out = [f"static int {spec.name}_{kind}(cublasHandle_t h, const shoal_spec_call *c)", "{"]
    out += [f"    const int {d} = c->p.dims[{i}];" for i, d in enumerate(spec.dims)]
    out += [f"    const int {o.name} = c->p.opts[{i}];" for i, o in enumerate(spec.options)]
    out += [f"    const shoal_operand {o.name} = c->p.op[{i}];" for i, o in enumerate(spec.operands)]
    out.append("    if (c->p.batch > INT_MAX) return SHOAL_SPEC_VENDOR_CANNOT;")
    for o in spec.operands:
        out.append(f"    if ({o.name}.ld > INT_MAX) return SHOAL_SPEC_VENDOR_CANNOT;")
    out.append("    const int batch = (int)c->p.batch;")
    names = list(spec.dims) + [o.name for o in spec.options] + [o.name for o in spec.operands]
    out.append("    " + " ".join(f"(void){n};" for n in names + ["batch"]))
    out.append("    cublasStatus_t st = CUBLAS_STATUS_NOT_SUPPORTED;")
    out.append("    switch (c->prec) {")
    for prec in r.precisions:
        T = precision_mod.get(prec).T
        scal = " ".join(f"const {T} {s} = {scalar_value(prec, T, f'c->p.{s}', f'c->p.{s}_im')};"
                        for s in spec.scalars)
        out.append(f"    case '{prec}': {{")
        out.append(f"        {scal}")
        out.append(f"        st = {_vendor_call(template, spec, prec)};")
        out.append("        break;")
        out.append("    }")
    out.append("    default: return SHOAL_SPEC_VENDOR_CANNOT;")
    out.append("    }")
    out.append("    return st == CUBLAS_STATUS_SUCCESS ? SHOAL_SPEC_VENDOR_OK : SHOAL_SPEC_VENDOR_FAILED;")
    out.append("}")
    return out


def _design_names(space: SearchSpace) -> dict[str, str]:
    """Every configuration parameter of every design -> its descriptor field in C."""
    names: dict[str, str] = {}
    for d in space.designs:
        for p in d.params:
            if p.slot in SLOT_C:
                names.setdefault(p.name, SLOT_C[p.slot])
    return names


def _has_extent(r: Routine) -> bool:
    """Whether the routine's designs say how much a kernel holds (search space `extent`)."""
    return any(d.extent is not None for d in r.space.designs)


def _design_switch(r: Routine, attr: str, default: str) -> list[str]:
    """switch over the kernel's design (SHOAL_DESIGN_SPEC + index in the search space)."""
    out = ["    switch (kd->design - SHOAL_DESIGN_SPEC) {"]
    for i, d in enumerate(r.space.designs):
        rename = {p.name: SLOT_C[p.slot] for p in d.params if p.slot in SLOT_C}
        if attr == "fits":
            body = " && ".join(c_expr(e, rename) for e in d.fits) or "1"
        elif attr == "extent":
            body = c_expr(d.extent, rename) if d.extent is not None else default
        else:
            exprs = dict(d.launch)
            body = c_expr(exprs[attr], rename) if attr in exprs else default
        out.append(f"    case {i}: return {body};")
    # not a design of the search space (the driver entry): no extent to prefer it by
    out.append(f"    default: return {'LLONG_MAX' if attr == 'extent' else '0'};")
    out.append("    }")
    return out


def registry_c(routines: list[Routine]) -> str:
    out = [HEADER.rstrip(), "/* The registry of the spec routines (runtime/spec_run.h). */",
           "#include <limits.h>", "", '#include "spec_run.h"', "",
           "#define SHOAL_MAX(a, b) ((a) > (b) ? (a) : (b))", "#define SHOAL_MIN(a, b) ((a) < (b) ? (a) : (b))",
           "#define SHOAL_CEIL_DIV(a, b) (((a) + (b) - 1) / (b))",
           "/* the vendor's spelling of the public options */",
           "#define SIDE(x) ((x) ? CUBLAS_SIDE_RIGHT : CUBLAS_SIDE_LEFT)",
           "#define FILL(x) ((x) ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER)",
           "#define OP(x) ((x) == 2 ? CUBLAS_OP_C : (x) ? CUBLAS_OP_T : CUBLAS_OP_N)",
           "#define DIAG(x) ((x) ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT)", ""]
    out.append("int shoal_spec_elem_bytes(char prec)")
    out.append("{")
    out.append("    switch (prec) {")
    for p in precision_mod.PRECISIONS.values():
        out.append(f"    case '{p.name}': return {p.elem};")
    out += ["    default: return 0;", "    }", "}", ""]
    out.append("int shoal_spec_is_complex(char prec)")
    out.append("{")
    complex_letters = [p.name for p in precision_mod.PRECISIONS.values() if p.is_complex]
    out.append("    return " + (" || ".join(f"prec == '{c}'" for c in complex_letters) or "0") + ";")
    out += ["}", ""]
    out += ["/* the spec expressions' cx (generator/precision.py Precision.cx) */",
            "static long long spec_cx(char prec)", "{", "    switch (prec) {"]
    out += [f"    case '{p.name}': return {p.cx};" for p in precision_mod.PRECISIONS.values()]
    out += ["    default: return 1;", "    }", "}", ""]
    for r in routines:
        spec, n = r.spec, r.spec.name
        out.append(f"SHOAL_ROUTINE_TABLES({n})")
        if spec.driver != "none":
            out.append(f"shoal_status shoal_driver_{spec.driver}(struct shoal_context *ctx, "
                       "const shoal_spec_call *c, int leaf);")
        slots = ", ".join(f"c->p.dims[{spec.dims.index(s)}]" if s in spec.dims else "1" for s in SLOT_NAMES)
        out += [f"static void {n}_slots(const shoal_spec_call *c, int dims[3])", "{",
                f"    const int d[3] = {{{slots}}};", "    dims[0] = d[0];", "    dims[1] = d[1];",
                "    dims[2] = d[2];", "}"]
        for fn, e in (("quick_return", spec.quick_return), ("kernels_serve", spec.kernels),
                      ("driver_serves", spec.driver_serves)):
            out += [f"static int {n}_{fn}(const shoal_spec_call *c)", "{"] + _call_locals(spec)
            out += [f"    return {c_expr(e)};", "}"]
        for fn, e in (("flops", spec.flops), ("bytes", spec.bytes)):
            out += [f"static double {n}_{fn}(const shoal_spec_call *c)", "{"] + _call_locals(spec)
            out += ["    const long long elem = shoal_spec_elem_bytes(c->prec);", "    (void)elem;",
                    "    const long long cx = spec_cx(c->prec);", "    (void)cx;",
                    f"    return (double)({c_expr(e)});", "}"]
        out += [f"static int {n}_fits(const shoal_kernel_desc *kd, const shoal_spec_call *c)", "{"]
        out += _call_locals(spec) + _design_switch(r, "fits", "1") + ["}"]
        out += [f"static long long {n}_grid_y(const shoal_kernel_desc *kd, const shoal_spec_call *c)", "{"]
        out += _call_locals(spec) + _design_switch(r, "grid_y", "1") + ["}"]
        out += [f"static long long {n}_smem(const shoal_kernel_desc *kd, const shoal_spec_call *c)", "{"]
        out += _call_locals(spec) + ["    const long long elem = shoal_spec_elem_bytes(c->prec);", "    (void)elem;"]
        out += _design_switch(r, "smem", "0") + ["}"]
        if _has_extent(r):
            out += [f"static long long {n}_extent(const shoal_kernel_desc *kd)", "{"]
            out += _design_switch(r, "extent", "LLONG_MAX") + ["}"]
        out += [f"static void {n}_operand_shape(const shoal_spec_call *c, int o, long long *rows, long long *cols)",
                "{"] + _call_locals(spec)
        out.append("    switch (o) {")
        for i, o in enumerate(spec.operands):
            out.append(f"    case {i}: *rows = {c_expr(o.rows)}; *cols = {c_expr(o.cols)}; return;")
        out += ["    default: *rows = *cols = 0; return;", "    }", "}"]
        if spec.vendor != "none":
            out += _vendor_fn(r, "vendor", spec.vendor)
        peer = spec.vendor if spec.peer == "vendor" else spec.peer
        if peer != "none":
            out += _vendor_fn(r, "peer", peer)
        out.append("")
    out.append("const shoal_spec_routine shoal_spec_routines[] = {")
    for r in routines:
        spec, n = r.spec, r.spec.name
        access = "".join({"in": "i", "out": "o", "inout": "b"}[o.access] for o in spec.operands)
        has_peer = (spec.vendor if spec.peer == "vendor" else spec.peer) != "none"
        out.append(f"    {{\"{n}\", \"{''.join(spec.variants)}\", {len(spec.variants)}, "
                   f"{spec.variant_index}, {len(spec.dims)}, "
                   f"{len(spec.options)}, {len(spec.operands)}, \"{''.join(spec.dims)}\", "
                   f"\"{''.join(o.name for o in spec.operands)}\", "
                   f"\"{access}\", \"{''.join(o.kind_letter for o in spec.operands)}\", \"{spec.oracle}\", \"{' '.join(d.name for d in r.space.designs)}\",")
        out.append(f"     shoal_{n}_kernels, &shoal_{n}_n_kernels, shoal_{n}_tables, &shoal_{n}_n_tables, "
                   f"shoal_{n}_default_kernel, \"{''.join(r.precisions)}\",")
        out.append(f"     {n}_slots, {n}_quick_return, {n}_kernels_serve, {n}_driver_serves, {n}_fits, {n}_grid_y, "
                   f"{n}_smem, {n}_operand_shape, {n}_flops, {n}_bytes,")
        out.append(f"     {n + '_vendor' if spec.vendor != 'none' else 'NULL'}, "
                   f"{n + '_peer' if has_peer else 'NULL'}, "
                   f"{'shoal_driver_' + spec.driver if spec.driver != 'none' else 'NULL'}, "
                   f"{n + '_extent' if _has_extent(r) else 'NULL'}}},")
    if not routines:
        out.append("    {0} /* no spec routine: a placeholder, since C has no zero-length arrays */")
    out.append("};")
    out.append(f"const int shoal_spec_n_routines = {len(routines)};")
    return "\n".join(out) + "\n"


# ---- argument tests --------------------------------------------------------------------------

def _valid_args(r: Routine, prec: str, form: str, size: int = SIZE) -> dict[str, str]:
    """A valid call of size `size` in every dimension, with fake operand addresses (never
    dereferenced: argument errors return before anything is touched) and a NULL handle."""
    spec = r.spec
    args: dict[str, str] = {"handle": "NULL"}
    for o in spec.options:
        args[o.name] = f"({o.type.c_type})0"
    for d in spec.dims:
        args[d] = str(size)
    for s in spec.scalars:
        args[s] = _scalar_arg(spec, prec, "1", "0")
    for o in spec.operands:
        args[o.name] = f"({'const ' if o.access == 'in' else ''}{_elem_type(o, prec)} *{'const *' if form == 'batched' else ''})fake"
        if not o.is_vector:
            args[o.ld] = str(size)
        if form == "strided_batched":
            args[o.stride] = str(size * size)
    args["batch"] = "2"
    return args


def _rules(r: Routine, form: str) -> list[Rule]:
    """(what, the arguments changed, the status wanted) for every rule: the valid call, each
    invalid argument, then no work with NULL operands (no error, but the handle is checked first)."""
    spec = r.spec
    rules: list[Rule] = [("valid, NULL handle", {}, OK), *option_rules(spec.options)]
    for d in spec.dims:
        rules.append((f"{d} < 0", {d: "-1"}, BAD))
    for rule, broken in spec.requires:
        rules.append((f"not {rule.source}", dict(broken), BAD))
    rules.append(("batch < 0", {"batch": "-1"}, BAD))
    for o in spec.operands:
        if not o.is_vector:
            rules.append((f"{o.ld} below its bound", {o.ld: "2"}, BAD))
            rules.append((f"{o.ld} = 0", {o.ld: "0"}, BAD))
        if form == "strided_batched":
            rules.append((f"{o.stride} < 0", {o.stride: "-1"}, BAD))
            if o.access != "in":
                # one element short of the valid call's problem (a 3 x 3 matrix: 8; a vector of
                # length q: q - 1)
                env = spec.evaluate({d: SIZE for d in spec.dims}, {opt.name: 0 for opt in spec.options})
                short = o.rows(env) * o.cols(env) - 1
                rules.append((f"{o.stride} overlapping", {o.stride: str(short)}, BAD))
        rules.append((f"{o.name} NULL", {o.name: "NULL"}, BAD))
        if o.is_vector and o.rows.source in spec.dims:
            # no elements: not read, so NULL passes, where the call stays valid with that dim 0
            dims = {d: SIZE for d in spec.dims} | {o.rows.source: 0}
            env = spec.evaluate(dims, {opt.name: 0 for opt in spec.options})
            if all(rule(env) for rule, _ in spec.requires):
                rules.append((f"{o.name} NULL with {o.rows.source} = 0", {o.name: "NULL", o.rows.source: "0"}, OK))
    # (a requirement between dims, ormqr's k <= q: all of them 0)
    empty = {d: "0" for d in (spec.dims if spec.requires else spec.dims[:1])}
    for o in spec.operands:
        empty[o.name] = "NULL"
        if not o.is_vector:
            empty[o.ld] = "1"
    if form == "strided_batched":
        empty.update({o.stride: "0" for o in spec.operands})
    rules.append(("no work, NULL operands", empty, OK))
    return rules


def test_args_c(routines: list[Routine]) -> str:
    return args_test_c("the spec routines", routines, lambda r: ("batched", "strided_batched"), _params,
                       _valid_args, _rules)


# ---- the test invoker -------------------------------------------------------------------------

def invoke_c(routines: list[Routine]) -> str:
    """spec_invoke(): a shoal_spec_call made into a call of the public typed entry point, so that
    the GPU tests and the benchmark go through the API users call."""
    out = [HEADER.rstrip(), "/* Calls of the public entry points from a shoal_spec_call (tests, benchmark). */",
           '#include "spec_run.h"', "",
           "shoal_status spec_invoke(shoal_handle handle, const shoal_spec_call *c);", "",
           "shoal_status spec_invoke(shoal_handle handle, const shoal_spec_call *c)", "{",
           "    const shoal_spec_params *p = &c->p;", "    (void)p;"]
    for ri, r in enumerate(routines):
        spec = r.spec
        for prec in r.precisions:
            for form in ("batched", "strided_batched"):
                mode = "SHOAL_MODE_ARRAY" if form == "batched" else "SHOAL_MODE_STRIDED"
                args = ["handle"]
                args += [_opt_value(o, f"p->opts[{i}]") for i, o in enumerate(spec.options)]
                args += [f"p->dims[{i}]" for i in range(len(spec.dims))]
                if "alpha" in spec.scalars:
                    args.append(_scalar_arg(spec, prec, "p->alpha", "p->alpha_im"))
                beta_at = _beta_before(spec)
                for i, o in enumerate(spec.operands):
                    if o.name == beta_at:
                        args.append(_scalar_arg(spec, prec, "p->beta", "p->beta_im"))
                    const, T = "const " if o.access == "in" else "", _elem_type(o, prec)
                    ld = [] if o.is_vector else [f"p->op[{i}].ld"]
                    if form == "batched":
                        args += [f"({const}{T} *const *)p->op[{i}].array", *ld]
                    else:
                        args += [f"({const}{T} *)p->op[{i}].ptr", *ld, f"p->op[{i}].stride"]
                args.append("p->batch")
                out.append(f"    if (c->routine == {ri} && c->prec == '{prec}' && c->mode == {mode})")
                out.append(f"        return {_fname(prec, spec.name, form)}(" + ", ".join(args) + ");")
    out += ["    return SHOAL_STATUS_NOT_SUPPORTED;", "}"]
    return "\n".join(out) + "\n"


# ---- docs ------------------------------------------------------------------------------------

def routines_md(routines: list[Routine], lapack: list[emit_lapack.LapackRoutine] | None = None,
                blas2: list[emit_blas2.Blas2Routine] | None = None,
                gemm: list[emit_gemm.GemmRoutine] | None = None) -> str:
    out = ["# Routines declared by specs", "",
           "Generated by `python -m generator emit` from `spec/routines/<r>.toml` (a test fails when this",
           "file is stale); prototypes in `include/shoal_routines.h`. How to add one:",
           "[adding-a-routine.md](adding-a-routine.md).", "",
           "| routine | what | options | operands | precisions | forms | vendor candidate | served by |",
           "|---|---|---|---|---|---|---|---|"]
    for r in routines:
        s = r.spec
        ops = "; ".join(f"{o.name} {o.rows.source}{'' if o.is_vector else ' x ' + o.cols.source} ({o.access})"
                        for o in s.operands)
        vendor = s.vendor.split("(")[0].replace("{X}", "?") if s.vendor != "none" else "none"
        served = f"kernels where `{s.kernels.source}`" + (
            f", driver `{s.driver}` where `{s.driver_serves.source}`" if s.driver != "none" else "")
        out.append(f"| {s.name} | {s.summary} | {', '.join(o.name for o in s.options)} | {ops} | "
                   f"{', '.join(r.precisions)} | batched, strided_batched | {vendor} | {served} |")
    out += emit_lapack.routines_md(lapack or [])
    out += emit_blas2.routines_md(blas2 or [])
    out += emit_gemm.routines_md(gemm or [])
    return "\n".join(out) + "\n"


def routines_from(spaces: list[SearchSpace]) -> list[Routine]:
    return [Routine(s.routine.spec, s) for s in spaces if s.routine.spec is not None]


def _abi_routines_from(spaces: list[SearchSpace], spec_dir: Path, discover: Callable[[Path], list[Any]],
                      routine: Callable[[Any, tuple[str, ...]], R]) -> list[R]:
    """The specs of one ABI in spec_dir whose routine is among spaces (an emission of a subset,
    or a fixture project, pairs with fewer), each with its search space's precisions."""
    by_name = {s.routine.name: s for s in spaces}
    specs = discover(spec_dir) if spec_dir.is_dir() else []
    return [routine(sp, by_name[sp.name].routine.precisions) for sp in specs if sp.name in by_name]


def lapack_routines_from(spaces: list[SearchSpace], spec_dir: Path) -> list[emit_lapack.LapackRoutine]:
    """As _abi_routines_from, and the driver-only routines (no search space: their spec names
    their precisions) where every routine they need is among spaces."""
    paired = _abi_routines_from(spaces, spec_dir, spec_lapack.discover, emit_lapack.LapackRoutine)
    names = {s.routine.name for s in spaces}
    specs = spec_lapack.discover(spec_dir) if spec_dir.is_dir() else []
    only_driver = [emit_lapack.LapackRoutine(sp, sp.precisions) for sp in specs
                   if sp.driver is not None and sp.driver.all_sizes and set(sp.driver.steps) <= names]
    return sorted(paired + only_driver, key=lambda r: r.name)


def blas2_routines_from(spaces: list[SearchSpace], spec_dir: Path) -> list[emit_blas2.Blas2Routine]:
    return _abi_routines_from(spaces, spec_dir, spec_blas2.discover, emit_blas2.Blas2Routine)


def gemm_routines_from(spaces: list[SearchSpace], spec_dir: Path) -> list[emit_gemm.GemmRoutine]:
    return _abi_routines_from(spaces, spec_dir, spec_gemm.discover, emit_gemm.GemmRoutine)


def emit_files(spaces: list[SearchSpace], gen_dir: Path, repo_root: Path,
               public_files: bool = True) -> dict[Path, str]:
    from . import spec_cases
    rs = routines_from(spaces)
    spec_dir = repo_root / "spec" / "routines"
    lapack = lapack_routines_from(spaces, spec_dir)
    blas2 = blas2_routines_from(spaces, spec_dir)
    gemm = gemm_routines_from(spaces, spec_dir)
    for r in rs:
        if r.space.driver is not None and r.space.driver.name != DRIVER_DESIGN:
            raise ValueError(f"{r.name}: driver design must be named {DRIVER_DESIGN!r}")
    files = {
        gen_dir / "spec_api.c": api_c(rs),
        gen_dir / "spec_registry.c": registry_c(rs),
        gen_dir / "test_spec_args.c": test_args_c(rs),
        gen_dir / "spec_invoke.c": invoke_c(rs),
        gen_dir / "lapack_entry.c": emit_lapack.api_c(lapack),
        gen_dir / "lapack_drivers.c": emit_lapack.drivers_c(lapack),
        gen_dir / "test_lapack_spec_args.c": emit_lapack.test_args_c(lapack),
        gen_dir / "blas2_entry.c": emit_blas2.api_c(blas2),
        gen_dir / "test_blas2_spec_args.c": emit_blas2.test_args_c(blas2),
        gen_dir / "gemm_entry.c": emit_gemm.api_c(gemm),
        gen_dir / "test_gemm_spec_args.c": emit_gemm.test_args_c(gemm),
    }
    # the case tables name the precisions the search spaces list: not of a restricted emission
    if public_files:
        files[gen_dir / "spec_cases.c"] = spec_cases.cases_c(spec_cases.load_cases(rs, repo_root / "tests" / "cases"))
    # the public header and the docs table describe every spec of the checkout: written only by
    # an emission of all of them (not by a test emitting one routine, nor a fixture project)
    declared = {p.stem for p in spec_dir.glob("*.toml")}
    abi_names = {r.name for r in lapack} | {r.name for r in blas2} | {r.name for r in gemm}
    if public_files and declared and declared == {r.name for r in rs} | abi_names:
        files[repo_root / "include" / "shoal_routines.h"] = header(rs, lapack, blas2, gemm)
        files[repo_root / "docs" / "routines.md"] = routines_md(rs, lapack, blas2, gemm)
    return files
