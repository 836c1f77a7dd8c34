"""What the generator emits from the level-2-ABI specs (generator/spec_blas2.py):

- their blocks of `include/shoal_routines.h`: prototypes with doc comments;
- `generated/blas2_entry.c`: the entry points: the argument checks in the documented order
  (options, dimensions, batch, leading dimensions, increments, NULL operands, strides), the
  handle, the BLAS quick return, then the packing into `shoal_blas2_params` and
  `shoal_blas2_run` (runtime/blas2_api.c), which dispatches;
- `generated/test_blas2_spec_args.c`: one argument test per rule;
- their table of `docs/routines.md`.
The kernels, tables and dispatch stay runtime/blas2_api.c's and runtime/lapack_routines.c's."""
from __future__ import annotations

import re
from dataclasses import dataclass

from . import precision as precision_mod
from .emit_common import BAD, C_MACROS, OK, SIZE, Rule, abi_header, args_test_c, entry_points_c, fname
# enum shoal_lapack_routine lists the level-2 routines too
from .emit_lapack import routine_id
from .emit_common import conj_alias, conj_packing, max_dims, option_aliases, option_checks, option_rules
from .emit_common import scalar_value, src as _src
from .spec import OPTION_TYPES, c_expr
from .spec_blas2 import Blas2Operand, Blas2Spec

HEADER = abi_header("blas2")


@dataclass(frozen=True)
class Blas2Routine:
    spec: Blas2Spec
    precisions: tuple[str, ...]     # the search space's

    @property
    def name(self) -> str:
        return self.spec.name


def _rename(spec: Blas2Spec, form: str) -> dict[str, str]:
    return max_dims(spec.dims, form)


def _c(e: object, spec: Blas2Spec, form: str) -> str:
    return c_expr(e, _rename(spec, form))  # type: ignore[arg-type]


# ---- prototypes -------------------------------------------------------------------------------

def _params(r: Blas2Routine, prec: str, form: str) -> list[str]:
    spec, T = r.spec, precision_mod.get(prec).api
    out = ["shoal_handle handle"]
    out += [f"{o.type.c_type} {o.name}" for o in spec.options]
    if form == "vbatched":
        out += [f"const int *{d}" for d in spec.dims] + [f"int max_{d}" for d in spec.dims]
    else:
        out += [f"int {d}" for d in spec.dims]
    if spec.scalars:
        out.append(f"{T} alpha")
    beta_done = not spec.scalars
    for o in spec.operands:
        if not beta_done and o.access != "in":
            out.append(f"{T} beta")
            beta_done = True
        const = "const " if o.access == "in" else ""
        if form == "strided_batched":
            out += [f"{const}{T} *{o.name}", f"int64_t {o.ld}", f"int64_t {o.stride}"]
        else:
            out += [f"{const}{T} *const {o.name}[]", f"const int *{o.ld}" if form == "vbatched" else f"int64_t {o.ld}"]
    out.append("int64_t batch")
    return out


def _operand_doc(o: Blas2Operand, vbatched: bool) -> str:
    if o.kind == "matrix":
        bound = (f"{o.ld}[i] >= max(1, {_src(o.rows)}) with problem i's sizes (not checked)" if vbatched
                 else f"{o.ld} >= max(1, {_src(o.rows)})")
        return f"{o.name} is {_src(o.rows)} x {_src(o.cols)} ({o.access}), {bound}"
    inc = f"{o.ld}[i] per problem (nonzero, not checked)" if vbatched else f"{o.ld} (nonzero)"
    return f"{o.name}: {_src(o.length)} elements ({o.access}) at increment {inc}"


def header_blocks(routines: list[Blas2Routine]) -> list[str]:
    out: list[str] = []
    for r in routines:
        spec = r.spec
        out.append(f"/* {spec.name}: {spec.summary}")
        for line in spec.notes.splitlines():
            out.append(f" * {line}".rstrip())
        for o in spec.operands:
            out.append(f" * {_operand_doc(o, spec.vbatched)}.")
        if spec.vbatched:
            dims = ", ".join(spec.dims)
            out.append(f" * {dims}, {', '.join(o.ld for o in spec.operands)} are device arrays of batch ints: the")
            out.append(f" * shapes above are problem i's, bounded by {', '.join('max_' + d for d in spec.dims)}.")
            out.append(" * Errors, in order: an option out of range, a negative maximum or batch, a NULL")
            out.append(f" * pointer where {spec.work.source} (of the maxima) and batch > 0")
        else:
            out.append(" * Pointer arrays: problem i uses X[i]; strided: X + i * strideX (elements). A written")
            out.append(" * vector's stride must keep problems apart when batch > 1 (>= 1 + (length - 1) * |inc|);")
            out.append(" * an input's must not be negative. Options read 0/1 in the expressions.")
            out.append(" * Errors, in order: an option out of range, a negative dimension or batch, a leading")
            out.append(" * dimension below its bound, a zero increment, a NULL operand where")
            out.append(f" * {spec.work.source} and batch > 0, a negative or overlapping stride")
        out.append(" * -> SHOAL_STATUS_INVALID_VALUE; then a NULL handle -> NOT_INITIALIZED; then")
        out.append(f" * {spec.quick.source} -> SUCCESS at once (the BLAS quick return). */")
        for prec in r.precisions:
            for form in spec.forms:
                out.append(f"shoal_status {fname(prec, spec.name, form)}(" + ", ".join(_params(r, prec, form)) + ");")
        out.append("")
    return out


# ---- entry points -----------------------------------------------------------------------------

def _checks(r: Blas2Routine, prec: str, form: str) -> list[str]:
    spec = r.spec
    out = []
    out += option_checks(spec.options) + option_aliases(spec.options, prec)
    out += conj_alias(spec.options, prec)
    work = _c(spec.work, spec, form)
    if form == "vbatched":
        out += [f"    if (max_{d} < 0) return BAD;" for d in spec.dims]
        out.append("    if (batch < 0) return BAD;")
        ptrs = list(spec.dims) + [x for o in spec.operands for x in (o.name, o.ld)]
        out.append(f"    if ({work} && batch > 0 && (" + " || ".join(f"!{p}" for p in ptrs) + ")) return BAD;")
        return out
    out += [f"    if ({d} < 0) return BAD;" for d in spec.dims]
    out.append("    if (batch < 0) return BAD;")
    for o in spec.operands:
        if o.kind == "matrix":
            out.append(f"    if ({o.ld} < SHOAL_MAX(1, {c_expr(o.rows)})) return BAD;")
        else:
            out.append(f"    if ({o.ld} == 0) return BAD;")
    out.append(f"    if ({work} && batch > 0 && (" + " || ".join(f"!{o.name}" for o in spec.operands) + ")) return BAD;")
    if form == "strided_batched":
        for o in spec.operands:
            if o.access == "in":
                out.append(f"    if ({o.stride} < 0) return BAD;")
            else:
                out.append(f"    if (!vector_stride_ok({o.stride}, {c_expr(o.length)}, {o.ld}, batch)) return BAD;")
    return out


def _quick(spec: Blas2Spec, prec: str, form: str) -> str:
    """The quick-return test; in c and z a comparison of a scalar with a constant compares both
    parts (alpha == 0: both zero; beta == 1: 1 + 0i)."""
    q = _c(spec.quick, spec, form)
    if precision_mod.get(prec).is_complex:
        for sc in spec.scalars:
            q = re.sub(rf"\({sc} == (\d+)\)", rf"({sc}.re == \1 && {sc}.im == 0)", q)
    return q


def _packing(r: Blas2Routine, prec: str, form: str) -> list[str]:
    spec = r.spec
    out = ["    shoal_blas2_params p;", "    memset(&p, 0, sizeof p);"]
    out += [f"    p.{f} = {_c(e, spec, form)};" for f, e in spec.shape]
    for o in spec.options:
        if o.type is OPTION_TYPES["diag"]:
            out.append(f"    p.diag_unit = {o.name} == SHOAL_DIAG_UNIT;")
    if spec.scalars and precision_mod.get(prec).is_complex:
        out += [f"    p.{sc}[0] = {sc}.re;\n    p.{sc}[1] = {sc}.im;" for sc in ("alpha", "beta")]
    elif spec.scalars:
        out += ["    p.alpha[0] = alpha;", "    p.beta[0] = beta;"]
    out += conj_packing(spec.options, prec)
    filled = {o.slot: o for o in spec.operands}
    for slot, field in (("A", "lda"), ("x", "incx"), ("y", "incy")):
        o = filled.get(slot)
        if o is None:
            value = "1"  # a slot no operand fills keeps increment 1, as the kernels and cuBLAS expect
        elif form == "vbatched":
            # the launch is shaped for the maxima; the per-problem values come from the arrays
            value = f"SHOAL_MAX(1, {_c(o.rows, spec, form)})" if o.kind == "matrix" else "1"
        else:
            value = o.ld
        out.append(f"    p.{field} = {value};")
    out.append("    p.batch = batch;")
    const = {"A": "const void"}
    for o in spec.operands:
        base = const.get(o.slot, "void")
        if form == "strided_batched":
            out.append(f"    p.{o.slot} = ({base} *){o.name};")
            out.append(f"    p.stride_{o.slot.lower()} = {o.stride};")
        else:
            out.append(f"    p.{o.slot}_array = ({base} *const *){o.name};")
    if form == "vbatched":
        out += [f"    p.{d}_v = {d};" for d in spec.dims]
        out += [f"    p.{o.ld}_v = {o.ld};" for o in spec.operands]
    return out


def api_c(routines: list[Blas2Routine]) -> str:
    def body(r: Blas2Routine, prec: str, form: str) -> list[str]:
        spec = r.spec
        variant = f"(int)({c_expr(spec.variant)})" if spec.variant is not None else "0"
        return (_checks(r, prec, form)
                + ["    struct shoal_context *ctx = shoal_context_get(handle);",
                   "    if (!ctx) return SHOAL_STATUS_NOT_INITIALIZED;",
                   f"    if ({_quick(spec, prec, form)}) return SHOAL_STATUS_SUCCESS;"]
                + _packing(r, prec, form)
                + [f"    return shoal_blas2_run(ctx, {routine_id(r.name)}, '{prec}', {variant}, &p);"])

    head = [HEADER, "/* Entry points of the level-2 routines: argument checks in the documented order, the",
            " * handle, the BLAS quick return, then the packing into shoal_blas2_params and",
            " * runtime/blas2_api.c's dispatch. */",
            "#include <stdint.h>", "#include <string.h>", "", '#include "blas2_run.h"', "",
            *C_MACROS,
            "static int64_t abs64(int64_t x) { return x < 0 ? -x : x; }", "",
            "/* Strided output vectors must not share an element (len elements at increment inc, problems",
            " * stride apart), or results would depend on the order problems run in: either each vector",
            " * ends before the next begins, or they interleave (a column-major batch x len array: stride",
            " * 1, increment >= batch) with every problem's elements in their own residue class. Inputs may",
            " * be shared (stride 0). */",
            "static int vector_stride_ok(int64_t stride, int len, int64_t inc, int64_t batch)", "{",
            "    if (stride < 0) return 0;",
            "    if (batch <= 1 || len <= 1) return 1;",
            "    return stride >= 1 + (int64_t)(len - 1) * abs64(inc) ||",
            "           (stride >= 1 && abs64(inc) >= 1 + stride * (batch - 1));", "}", ""]
    empty = ["/* no level-2-ABI spec */", "typedef int shoal_no_blas2_spec; /* ISO C: a translation unit is not empty */"]
    return entry_points_c(head, routines, empty, lambda r: r.spec.forms, _params, body)


# ---- argument tests ---------------------------------------------------------------------------

def _valid_args(r: Blas2Routine, prec: str, form: str) -> dict[str, str]:
    """A valid call of size 3 in every dimension and batch 2, alpha 1 and beta 0 (no quick
    return), fake operand addresses (never dereferenced: argument errors return before
    anything is touched) and a NULL handle."""
    spec, T = r.spec, precision_mod.get(prec).api
    args = {"handle": "NULL", "batch": "2", "alpha": "1", "beta": "0"}
    if precision_mod.get(prec).is_complex:
        args.update(alpha=scalar_value(prec, T, "1", "0"), beta=scalar_value(prec, T, "0", "0"))
    args.update({o.name: f"({o.type.c_type})0" for o in spec.options})
    for d in spec.dims:
        if form == "vbatched":
            args[d], args[f"max_{d}"] = "(const int *)fake", str(SIZE)
        else:
            args[d] = str(SIZE)
    for o in spec.operands:
        const = "const " if o.access == "in" else ""
        args[o.name] = f"({const}{T} *{'' if form == 'strided_batched' else 'const *'})fake"
        if form == "vbatched":
            args[o.ld] = "(const int *)fake"
        else:
            args[o.ld] = str(SIZE) if o.kind == "matrix" else "1"
        if form == "strided_batched":
            args[o.stride] = str(SIZE * SIZE if o.kind == "matrix" else SIZE)
    return args


def rules(r: Blas2Routine, form: str) -> list[Rule]:
    """(what, the arguments changed, the status wanted) for every rule: each invalid argument,
    then the calls that must pass the checks (to the NULL handle)."""
    spec = r.spec
    bad, ok = BAD, OK
    out: list[Rule] = [("valid, NULL handle", {}, ok)]
    out += option_rules(spec.options)
    dim_args = [f"max_{d}" for d in spec.dims] if form == "vbatched" else list(spec.dims)
    out += [(f"{d} < 0", {d: "-1"}, bad) for d in dim_args]
    out.append(("batch < 0", {"batch": "-1"}, bad))
    if form == "vbatched":
        out += [(f"{d} NULL", {d: "NULL"}, bad) for d in spec.dims]
        for o in spec.operands:
            out += [(f"{o.name} NULL", {o.name: "NULL"}, bad), (f"{o.ld} NULL", {o.ld: "NULL"}, bad)]
    else:
        for o in spec.operands:
            if o.kind == "matrix":
                out.append((f"{o.ld} below its bound", {o.ld: str(SIZE - 1)}, bad))
                out.append((f"{o.ld} = 0", {o.ld: "0"}, bad))
            else:
                out.append((f"{o.ld} = 0", {o.ld: "0"}, bad))
                out.append((f"{o.ld} negative (BLAS: allowed)", {o.ld: "-1"}, ok))
        out += [(f"{o.name} NULL", {o.name: "NULL"}, bad) for o in spec.operands]
    if form == "strided_batched":
        for o in spec.operands:
            out.append((f"{o.stride} < 0", {o.stride: "-1"}, bad))
            if o.access != "in":
                out.append((f"{o.stride} overlapping", {o.stride: str(SIZE - 1)}, bad))
                out.append((f"{o.stride} overlapping at increment -2", {o.stride: str(2 * SIZE - 2), o.ld: "-2"}, bad))
            else:
                out.append((f"{o.stride} = 0 (shared input)", {o.stride: "0"}, ok))
    # no work: NULL pointers are no error (the handle is checked next)
    nulls = [o.name for o in spec.operands] + ([d for d in spec.dims] + [o.ld for o in spec.operands]
                                               if form == "vbatched" else [])
    out.append(("no work, NULL operands", {dim_args[0]: "0", **{n: "NULL" for n in nulls}}, ok))
    return out


def test_args_c(routines: list[Blas2Routine]) -> str:
    return args_test_c("the level-2 routines", routines, lambda r: r.spec.forms, _params, _valid_args, rules)


# ---- docs -------------------------------------------------------------------------------------

def routines_md(routines: list[Blas2Routine]) -> list[str]:
    if not routines:
        return []
    out = ["", "## Level 2 (`abi = \"blas2\"`)", "",
           "Their entry points pack `shoal_blas2_params` (runtime/blas2_abi.h); their kernels, tables and",
           "dispatch are runtime/blas2_api.c's and runtime/lapack_routines.c's (docs/blas2.md).", "",
           "| routine | what | options | operands | precisions | forms | quick return |",
           "|---|---|---|---|---|---|---|"]
    for r in routines:
        s = r.spec
        ops = []
        for o in s.operands:
            if o.kind == "matrix":
                ops.append(f"{o.name} {o.rows.source} x {o.cols.source} ({o.access})")
            else:
                ops.append(f"{o.name} {o.length.source} elements ({o.access})")
        what = s.summary.replace("|", "\\|")  # a table cell
        out.append(f"| {s.name} | {what} | {', '.join(o.name for o in s.options) or '-'} | {'; '.join(ops)} | "
                   f"{', '.join(r.precisions)} | {', '.join(s.forms)} | `{s.quick.source}` |")
    return out
