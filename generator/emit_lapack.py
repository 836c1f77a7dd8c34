"""What the generator emits from the factorization-ABI specs (generator/spec_lapack.py):

- their blocks of `include/shoal_routines.h`: prototypes with doc comments;
- `generated/lapack_entry.c`: the entry points: the argument checks in the documented order
  (options, dimensions, batch, leading dimensions, NULL operands, strides), then the packing
  into `shoal_lapack_params` and `shoal_lapack_run` (runtime/lapack_api.c), which dispatches;
- `generated/lapack_drivers.c`: the drivers that serve sizes above the kernels' (the spec's
  `driver`), a table by routine that runtime/lapack_api.c dispatches to;
- `generated/test_lapack_spec_args.c`: one argument-error test per rule;
- their table of `docs/routines.md`.
The kernels, tables and dispatch stay runtime/lapack_routines.c's."""
from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass

from . import precision as precision_mod
from .emit_common import BAD, C_MACROS, OK, OUTPUT_STRIDE_OK, SIZE, Rule, abi_header, args_test_c, entry_points_c, max_dims
from .emit_common import fname as _fname
from .emit_common import conj_alias, conj_packing, option_aliases, option_checks, option_rules, src as _src
from .spec import c_expr
from .spec_lapack import FIXED_FORMS, KERNEL_MAX_N, LapackOperand, LapackSpec

HEADER = abi_header("lapack")
FORMS = FIXED_FORMS


@dataclass(frozen=True)
class LapackRoutine:
    spec: LapackSpec
    precisions: tuple[str, ...]     # the search space's

    @property
    def name(self) -> str:
        return self.spec.name


def forms_of(r: LapackRoutine) -> tuple[str, ...]:
    return r.spec.forms


def routine_id(name: str) -> str:
    """enum shoal_lapack_routine (runtime/lapack_routines.h)."""
    return f"SHOAL_{name.upper()}"


# ---- prototypes -------------------------------------------------------------------------------

def _params(r: LapackRoutine, prec: str, form: str) -> list[str]:
    # the row's public element type (shoal_complex_* in c and z, the layout of cuComplex)
    spec, T = r.spec, precision_mod.get(prec).api
    if form == "vbatched":
        return _vparams(spec, T)
    batched = form == "batched"
    out = ["shoal_handle handle"]
    out += [f"{o.type.c_type} {o.name}" for o in spec.options]
    out += [f"int {d}" for d in spec.dims]
    for o in spec.operands:
        const = "const " if o.access == "in" else ""
        if o.kind == "info":
            out.append(f"int *{o.name}")
        elif o.kind == "pivots":
            out.append(f"{const}int *{o.name}")
            if not batched:
                out.append(f"int64_t {o.stride}")
        elif batched:
            out.append(f"{const}{T} *const {o.name}[]")
            if o.kind == "matrix":
                out.append(f"int64_t {o.ld}")
        else:
            out.append(f"{const}{T} *{o.name}")
            if o.kind == "matrix":
                out.append(f"int64_t {o.ld}")
            out.append(f"int64_t {o.stride}")
    out.append("int64_t batch")
    return out


def _vparams(spec: LapackSpec, T: str) -> list[str]:
    """Variable size: each dim a device array beside its maximum, MAGMA's order (sizes, maxima,
    then the operands: pointer arrays with device arrays of leading dimensions)."""
    out = ["shoal_handle handle"] + [f"{o.type.c_type} {o.name}" for o in spec.options]
    out += [f"const int *{d}" for d in spec.dims] + [f"int max_{d}" for d in spec.dims]
    for o in spec.operands:
        if o.kind == "info":
            out.append(f"int *{o.name}")
        else:
            out += [f"{'const ' if o.access == 'in' else ''}{T} *const {o.name}[]", f"const int *{o.ld}"]
    return out + ["int64_t batch"]


def _operand_doc(o: LapackOperand) -> str:
    when = f", referenced only where {o.needed.source}" if o.needed is not None else ""
    if o.kind == "matrix":
        return f"{o.name} is {_src(o.rows)} x {_src(o.cols)} ({o.access}{when}), {o.ld} >= max(1, {_src(o.rows)})"
    if o.kind == "pivots":
        return (f"{o.name}: {_src(o.length)} 1-based pivots per problem ({o.access}), a device array: problem i's "
                f"at {o.name} + i * {_src(o.length)} (_batched) or + i * {o.stride} (strided)")
    if o.kind == "vector":
        return (f"{o.name}: {_src(o.length)} elements per problem ({o.access}): {o.name}[i] (_batched) or "
                f"{o.name} + i * {o.stride} (strided)")
    return f"{o.name}: one int per problem (out), a device array: {o.name}[i]"


def header_blocks(routines: list[LapackRoutine]) -> list[str]:
    out: list[str] = []
    for r in routines:
        spec = r.spec
        out.append(f"/* {spec.name}: {spec.summary}")
        for line in spec.notes.splitlines():
            out.append(f" * {line}".rstrip())
        if spec.vbatched:
            out += _vbatched_doc(spec)
            for prec in r.precisions:
                out.append(f"shoal_status {_fname(prec, spec.name, 'vbatched')}(" + ", ".join(_params(r, prec, 'vbatched')) + ");")
            out.append("")
            continue
        for o in spec.operands:
            out.append(f" * {_operand_doc(o)}.")
        out.append(" * Pointer arrays: problem i uses X[i]; strided: X + i * strideX (elements). A written")
        out.append(" * operand's stride must keep problems apart when batch > 1 (>= ldX * cols, or its length);")
        out.append(" * an input's must not be negative.")
        if spec.requires:
            errors = ("Errors, in order: an option out of range, a negative dimension, dimensions that break "
                      + " or that break ".join(f"({r.source})" for r, _ in spec.requires) + ", a negative batch, a leading"
                      f" dimension below its bound, a NULL operand where {spec.work.source} and batch > 0, a"
                      " negative or overlapping stride -> SHOAL_STATUS_INVALID_VALUE; then a NULL handle ->"
                      f" NOT_INITIALIZED; then no work ({_no_work(spec)}, or batch == 0) -> SUCCESS at once;")
            out += [f" * {line}" for line in textwrap.wrap(errors, 95)]
        else:
            out.append(" * Errors, in order: an option out of range, a negative dimension or batch, a leading")
            out.append(f" * dimension below its bound, a NULL operand where {spec.work.source} and batch > 0, a")
            out.append(" * negative or overlapping stride -> SHOAL_STATUS_INVALID_VALUE; then a NULL handle ->")
            out.append(f" * NOT_INITIALIZED; then no work ({_no_work(spec)}, or batch == 0) -> SUCCESS at once;")
        last = (f"then {size_limit(spec)}."
                + "".join(f" Where {rt.when.source}, the call is {rt.routine}'s." for rt in spec.routes) + " */")
        out += [f" * {line}" for line in textwrap.wrap(last, 95)]
        for prec in r.precisions:
            for form in FORMS:
                out.append(f"shoal_status {_fname(prec, spec.name, form)}(" + ", ".join(_params(r, prec, form)) + ");")
        out.append("")
    return out


def _vbatched_doc(spec: LapackSpec) -> list[str]:
    dims = ", ".join(spec.dims)
    mats = [o for o in spec.operands if o.kind == "matrix"]
    info = [o.name for o in spec.operands if o.kind == "info"]
    def each(e: object) -> str:  # problem i's value of an expression of the dims
        return re.sub(r"\b(" + "|".join(spec.dims) + r")\b", r"\1[i]", _src(e))

    many = len(spec.dims) > 1
    maxima = {d: f"max_{d}" for d in spec.dims}
    work = re.sub(r"\b(" + "|".join(spec.dims) + r")\b", lambda m: maxima[m[1]], spec.work.source)
    # the driver's limit is on m and n (the run path's), not on nrhs
    limited = " or ".join(dict.fromkeys(maxima[e.source] for f, e in spec.shape if f in ("m", "n")))
    text = (f"Variable size: {dims}: {'device arrays' if many else 'a device array'}, one int per problem; "
            + ", ".join(f"max_{d}" for d in spec.dims) + f" {'bound them' if many else 'bounds it'} (the caller's: "
            "the launches are shaped by the maxima). "
            + " ".join(f"{o.name}: a device array of pointers, problem i's {each(o.rows)} x {each(o.cols)} ({o.access}) "
                       f"at {o.name}[i], {o.ld}: a device array, {o.ld}[i] >= max(1, {each(o.rows)})." for o in mats)
            + (f" {info[0]}: one int per problem (out)." if info else "")
            + " The sizes are checked on the device, per problem, as LAPACK checks its arguments: a "
            f"negative size or one above its maximum, or a leading dimension below its bound, leaves the "
            f"problem untouched with {info[0] if info else 'info'}[i] = -(the argument's position in LAPACK's call); "
            f"a problem of size 0 gets 0. Errors, in order: an option out of range, a negative maximum or batch, "
            f"a NULL array where {work} and batch > 0 -> SHOAL_STATUS_INVALID_VALUE; then a NULL handle -> "
            f"NOT_INITIALIZED; then no work (not ({work}), or batch == 0) -> SUCCESS at once; then {limited} above "
            f"{spec.driver.max_n} -> SHOAL_STATUS_NOT_SUPPORTED. "
            f"Served by the driver {spec.driver.name}; no host synchronization.")
    return [f" * {line}" for line in textwrap.wrap(text, 95)[:-1]] + [f" * {textwrap.wrap(text, 95)[-1]} */"]


def _no_work(spec: LapackSpec) -> str:
    """The calls that return at once, in the header's words."""
    if spec.driver is not None and spec.driver.all_sizes:
        return f"not ({spec.work.source})"  # the driver sees m or n = 0
    return " or ".join(f"{d} == 0" for d in spec.dims if d != "nrhs" or not spec.routes)


def size_limit(spec: LapackSpec) -> str:
    """What becomes of the sizes the kernels do not take, in the header's and the docs' words."""
    if spec.driver is not None and spec.driver.all_sizes:
        return (f"every call is served by the driver {spec.driver.name} (a sequence of dispatched steps: "
                f"{', '.join(spec.driver.steps)}) up to {spec.driver.max_n}; above that -> SHOAL_STATUS_NOT_SUPPORTED")
    if spec.driver is None:
        return f"a matrix above {KERNEL_MAX_N} -> SHOAL_STATUS_NOT_SUPPORTED"
    return (f"a matrix above {KERNEL_MAX_N} is served by the driver {spec.driver.name} (a sequence of "
            f"dispatched steps) up to {spec.driver.max_n}; above that -> SHOAL_STATUS_NOT_SUPPORTED")


# ---- drivers ----------------------------------------------------------------------------------

def drivers_c(routines: list[LapackRoutine]) -> str:
    """The table of runtime/lapack_drivers.h: routine -> its driver above the kernels' sizes."""
    with_driver = [r for r in routines if r.spec.driver is not None]
    out = [HEADER.rstrip("\n"), '#include "lapack_drivers.h"', ""]
    for r in with_driver:
        out.append(f"shoal_status shoal_driver_{r.spec.driver.name}(struct shoal_context *ctx, char prec, int variant, "
                   "shoal_lapack_params *p);")
    out += ["", "const shoal_lapack_driver shoal_lapack_drivers[SHOAL_LAPACK_N_ROUTINES] = {"]
    for r in with_driver:
        d = r.spec.driver
        out.append(f'    [{routine_id(r.name)}] = {{"{d.name}", shoal_driver_{d.name}, {d.max_n}, {int(d.all_sizes)}}},')
    if not with_driver:
        out.append("    {NULL, NULL, 0, 0}, /* no spec names a driver */")
    out += ["};", ""]
    return "\n".join(out)


# ---- entry points -----------------------------------------------------------------------------

def _min_stride(o: LapackOperand) -> str:
    return f"{o.ld} * {c_expr(o.cols)}" if o.kind == "matrix" else c_expr(o.length)


def _varrays(spec: LapackSpec) -> list[str]:
    """A vbatched call's device arrays, each of which must be non-NULL where there is work: the
    sizes, then each operand and, for a matrix, its leading dimensions."""
    return list(spec.dims) + [n for o in spec.operands for n in ((o.name, o.ld) if o.kind == "matrix" else (o.name,))]


def _vchecks(spec: LapackSpec, prec: str) -> list[str]:
    out = option_checks(spec.options) + option_aliases(spec.options, prec) + conj_alias(spec.options, prec)
    out += [f"    if (max_{d} < 0) return BAD;" for d in spec.dims]
    out.append("    if (batch < 0) return BAD;")
    arrays = _varrays(spec)
    work = c_expr(spec.work, max_dims(spec.dims, "vbatched"))
    out.append(f"    if ({work} && batch > 0 && ({' || '.join('!' + a for a in arrays)})) return BAD;")
    return out


def _vpacking(spec: LapackSpec) -> list[str]:
    """The maxima in m, n, nrhs (what the run path reads for no work and the driver's limit),
    the per-problem arrays beside them; ld 1 in the fixed fields (the arrays hold them)."""
    out = ["    shoal_lapack_params p;", "    memset(&p, 0, sizeof p);"]
    for f, e in spec.shape:
        out.append(f"    p.{f} = {c_expr(e, max_dims(spec.dims, 'vbatched'))};")
        if e.source != "0":
            out.append(f"    p.{f}_array = {e.source};")
    filled = {o.slot: o for o in spec.operands}
    for slot in ("A", "B"):
        out.append(f"    p.ld{slot.lower()} = 1;")
        if slot in filled:
            out.append(f"    p.ld{slot.lower()}_array = {filled[slot].ld};")
    out.append("    p.batch = batch;")
    for o in spec.operands:
        out.append(f"    p.info = {o.name};" if o.kind == "info" else f"    p.{o.slot}_array = (void *const *){o.name};")
    return out


def _checks(r: LapackRoutine, prec: str, form: str) -> list[str]:
    spec = r.spec
    if form == "vbatched":
        return _vchecks(spec, prec)
    out = []
    out += option_checks(spec.options) + option_aliases(spec.options, prec)
    out += conj_alias(spec.options, prec)
    for d in spec.dims:
        out.append(f"    if ({d} < 0) return BAD;")
    for rule, _ in spec.requires:
        out.append(f"    if (!{c_expr(rule)}) return BAD;")
    out.append("    if (batch < 0) return BAD;")
    for o in spec.operands:
        if o.kind == "matrix":
            out.append(f"    if ({o.ld} < SHOAL_MAX(1, {c_expr(o.rows)})) return BAD;")
    nulls = " || ".join(f"({c_expr(o.needed)} && !{o.name})" if o.needed is not None else f"!{o.name}"
                        for o in spec.operands)
    out.append(f"    if ({c_expr(spec.work)} && batch > 0 && ({nulls})) return BAD;")
    if form == "strided_batched":
        for o in spec.operands:
            if not o.has_stride:
                continue
            if o.access == "in":
                cond = f"{o.stride} < 0"
            else:
                cond = f"!output_stride_ok({o.stride}, {_min_stride(o)}, batch)"
            if o.stride_when is not None:
                cond = f"{c_expr(o.stride_when)} && {cond}"
            out.append(f"    if ({cond}) return BAD;")
    return out


def _packing(r: LapackRoutine, prec: str, form: str) -> list[str]:
    spec = r.spec
    if form == "vbatched":
        return _vpacking(spec)
    batched = form == "batched"
    out = ["    shoal_lapack_params p;", "    memset(&p, 0, sizeof p);"]
    out += [f"    p.{f} = {c_expr(e)};" for f, e in spec.shape]
    out += conj_packing(spec.options, prec)
    filled = {o.slot: o for o in spec.operands}
    for slot in ("A", "B"):
        # a slot no operand fills keeps ld 1, as the kernels and the vendor calls expect
        out.append(f"    p.ld{slot.lower()} = {filled[slot].ld if slot in filled else '1'};")
    out.append("    p.batch = batch;")
    for o in spec.operands:
        s = o.slot.lower()
        if o.kind == "info":
            out.append(f"    p.info = {o.name};")
        elif o.kind == "pivots":
            out.append(f"    p.ipiv = (int *){o.name};")
            out.append(f"    p.stride_ipiv = {c_expr(o.length) if batched else o.stride};")
        elif batched:
            out.append(f"    p.{o.slot}_array = (void *const *){o.name};")
        else:
            out.append(f"    p.{o.slot} = (void *){o.name};")
            out.append(f"    p.stride_{s} = {o.stride};")
    return out


def _routine_expr(spec: LapackSpec) -> str:
    expr = routine_id(spec.name)
    for rt in reversed(spec.routes):
        expr = f"{c_expr(rt.when)} ? {routine_id(rt.routine)} : {expr}"
    return expr


def api_c(routines: list[LapackRoutine]) -> str:
    names = {r.name for r in routines}
    for r in routines:
        for rt in r.spec.routes:
            if rt.routine not in names:
                raise ValueError(f"{r.spec.path}: routes to {rt.routine!r}, not a factorization-ABI routine")

    def body(r: LapackRoutine, prec: str, form: str) -> list[str]:
        variant = f"(int){r.spec.variant}" if r.spec.variant else "0"
        return (_checks(r, prec, form) + _packing(r, prec, form)
                + [f"    return shoal_lapack_run(handle, {_routine_expr(r.spec)}, '{prec}', {variant}, &p);"])

    head = [HEADER, "/* Entry points of the factorizations: argument checks in the documented order, then the",
            " * packing into shoal_lapack_params and runtime/lapack_api.c's dispatch. */",
            "#include <stdint.h>", "#include <string.h>", "", '#include "lapack_run.h"', "",
            *C_MACROS, *OUTPUT_STRIDE_OK]
    empty = ["/* no factorization-ABI spec */",
             "typedef int shoal_no_lapack_spec; /* ISO C: a translation unit is not empty */"]
    return entry_points_c(head, routines, empty, forms_of, _params, body)


# ---- argument tests ---------------------------------------------------------------------------

def _valid_args(r: LapackRoutine, prec: str, form: str) -> dict[str, str]:
    """A valid call of size 3 in every dimension and batch 2, with fake operand addresses (never
    dereferenced: argument errors return before anything is touched) and a NULL handle."""
    spec, T = r.spec, precision_mod.get(prec).api
    batched = form == "batched"
    args = {"handle": "NULL", "batch": "2"}
    if form == "vbatched":
        args.update({o.name: f"({o.type.c_type})0" for o in spec.options})
        args.update({d: "(const int *)fake" for d in spec.dims} | {f"max_{d}": str(SIZE) for d in spec.dims})
        for o in spec.operands:
            if o.kind == "info":
                args[o.name] = "(int *)fake"
            else:
                args[o.name] = f"({'const ' if o.access == 'in' else ''}{T} *const *)fake"
                args[o.ld] = "(const int *)fake"
        return args
    args.update({o.name: f"({o.type.c_type})0" for o in spec.options})
    args.update({d: str(SIZE) for d in spec.dims})
    for o in spec.operands:
        const = "const " if o.access == "in" else ""
        if o.kind in ("pivots", "info"):
            args[o.name] = f"({const}int *)fake"
        else:
            args[o.name] = f"({const}{T} *{'const *' if batched else ''})fake"
        if o.kind == "matrix":
            args[o.ld] = str(SIZE)
        if o.has_stride and not batched:
            args[o.stride] = str(SIZE * SIZE if o.kind == "matrix" else SIZE)
    return args


def rules(r: LapackRoutine, form: str) -> list[Rule]:
    """(what, the arguments changed, the status wanted) for every rule: each invalid argument,
    then the calls that must pass the checks (to the NULL handle)."""
    spec = r.spec
    bad, ok = BAD, OK
    if form == "vbatched":
        return _vrules(spec)
    out: list[Rule] = [("valid, NULL handle", {}, ok)]
    out += option_rules(spec.options)
    out += [(f"{d} < 0", {d: "-1"}, bad) for d in spec.dims]
    out += [(f"not {rule.source}", dict(broken), bad) for rule, broken in spec.requires]
    out.append(("batch < 0", {"batch": "-1"}, bad))
    for o in spec.operands:
        if o.kind == "matrix":
            out.append((f"{o.ld} below its bound", {o.ld: str(SIZE - 1)}, bad))
            out.append((f"{o.ld} = 0", {o.ld: "0"}, bad))
    out += [(f"{o.name} NULL", {o.name: "NULL"}, bad) for o in spec.operands]
    if form == "strided_batched":
        for o in spec.operands:
            if o.has_stride:
                out.append((f"{o.stride} < 0", {o.stride: "-1"}, bad))
                if o.access != "in":
                    out.append((f"{o.stride} overlapping", {o.stride: str((SIZE * SIZE if o.kind == 'matrix' else SIZE) - 1)}, bad))
    # no work: NULL operands are no error (the handle is checked next); a driver-only routine
    # has work with any dimension non-zero (gels writes B where m or n is 0): all of them 0
    zero = spec.dims if spec.driver is not None and spec.driver.all_sizes else spec.dims[:1]
    empty = {**{d: "0" for d in zero}, **{o.name: "NULL" for o in spec.operands}}
    out.append(("no work, NULL operands", empty, ok))
    # an operand needed only sometimes may be NULL where it is not
    env = {d: SIZE for d in spec.dims} | {o.name: 0 for o in spec.options}
    for o in spec.operands:
        if o.needed is None:
            continue
        for d in spec.dims:
            e = dict(env, **{d: 0})
            if spec.work(e) and not o.needed(e):
                out.append((f"{o.name} NULL where {d} == 0", {d: "0", o.name: "NULL"}, ok))
                break
    return out


def _vrules(spec: LapackSpec) -> list[Rule]:
    """The host's checks of a variable-size call (its per-problem sizes are the device's)."""
    out: list[Rule] = [("valid, NULL handle", {}, OK)]
    out += option_rules(spec.options)
    out += [(f"max_{d} < 0", {f"max_{d}": "-1"}, BAD) for d in spec.dims]
    out.append(("batch < 0", {"batch": "-1"}, BAD))
    arrays = _varrays(spec)
    out += [(f"{a} NULL", {a: "NULL"}, BAD) for a in arrays]
    out.append(("no work, NULL arrays", {f"max_{spec.dims[0]}": "0", **{a: "NULL" for a in arrays}}, OK))
    out.append(("batch 0, NULL arrays", {"batch": "0", **{a: "NULL" for a in arrays}}, OK))
    return out


def test_args_c(routines: list[LapackRoutine]) -> str:
    return args_test_c("the factorizations", routines, forms_of, _params, _valid_args, rules)


# ---- docs -------------------------------------------------------------------------------------

def routines_md(routines: list[LapackRoutine]) -> list[str]:
    if not routines:
        return []
    out = ["", "## Factorizations (`abi = \"lapack\"`)", "",
           "Their entry points pack `shoal_lapack_params` (runtime/lapack_abi.h); their kernels, tables and",
           "dispatch are runtime/lapack_routines.c's (docs/lapack.md). Sizes above 32 are served by the",
           "routine's driver (a sequence of dispatched steps, runtime/drivers/) up to its limit; without",
           "one, or above it, the call returns `SHOAL_STATUS_NOT_SUPPORTED`.", "",
           "| routine | what | options | operands | precisions | forms | routed | above 32 |",
           "|---|---|---|---|---|---|---|---|"]
    for r in routines:
        s = r.spec
        ops = []
        for o in s.operands:
            if o.kind == "matrix":
                ops.append(f"{o.name} {o.rows.source} x {o.cols.source} ({o.access})")
            elif o.kind == "info":
                ops.append(f"{o.name} (out)")
            else:
                ops.append(f"{o.name} {o.length.source} {'ints' if o.kind == 'pivots' else 'elements'} ({o.access})")
        routed = "; ".join(f"{rt.when.source}: {rt.routine}" for rt in s.routes) or "-"
        what = s.summary.replace("|", "\\|")  # a table cell
        above = f"driver {s.driver.name} up to {s.driver.max_n}" if s.driver else "not supported"
        if s.driver and s.driver.all_sizes:
            steps = f" ({', '.join(s.driver.steps)})" if s.driver.steps else ""
            above = f"driver {s.driver.name} at every size up to {s.driver.max_n}{steps}"
        out.append(f"| {s.name} | {what} | {', '.join(o.name for o in s.options) or '-'} | {'; '.join(ops)} | "
                   f"{', '.join(r.precisions)} | {', '.join(s.forms)} | {routed} | {above} |")
    return out
