"""What the generator emits from the GEMM-ABI specs (generator/spec_gemm.py):

- their blocks of `include/shoal_routines.h`: prototypes with doc comments;
- `generated/gemm_entry.c`: the entry points: the argument checks in the documented order
  (options, dimensions, batch, leading dimensions, NULL operands, strides), then the packing
  into `shoal_gemm_params` / `shoal_gemm_vparams` and the run (runtime/gemm_run.h), which
  checks the handle, returns at once where there is no work and dispatches;
- `generated/test_gemm_spec_args.c`: one argument test per rule;
- their table of `docs/routines.md`.
The kernels, tables and dispatch stay runtime/gemm_api.c's and runtime/blas2_api.c's."""
from __future__ import annotations

from dataclasses import dataclass

from . import precision as precision_mod
from .emit_common import BAD, C_MACROS, OK, OUTPUT_STRIDE_OK, SIZE, Rule, abi_header, args_test_c, conj_alias
from .emit_common import entry_points_c, fname
from .emit_common import max_dims, option_aliases, option_checks, option_rules, scalar_value, src as _src
from .spec import c_expr
from .spec_gemm import GemmOperand, GemmSpec

HEADER = abi_header("gemm")


@dataclass(frozen=True)
class GemmRoutine:
    spec: GemmSpec
    precisions: tuple[str, ...]     # the search space's

    @property
    def name(self) -> str:
        return self.spec.name


def _rename(spec: GemmSpec, form: str) -> dict[str, str]:
    return max_dims(spec.dims, form)


# ---- prototypes -------------------------------------------------------------------------------

def _params(r: GemmRoutine, prec: str, form: str) -> list[str]:
    spec, T = r.spec, precision_mod.get(prec).api
    out = ["shoal_handle handle"]
    out += [f"{o.type.c_type} {o.name}" for o in spec.options]
    if form == "vbatched":
        out += [f"const int *{d}" for d in spec.dims] + [f"int max_{d}" for d in spec.dims]
    else:
        out += [f"int {d}" for d in spec.dims]
    out.append(f"{T} alpha")
    for o in spec.operands:
        if o.access != "in":
            out.append(f"{T} beta")
        const = "const " if o.access == "in" else ""
        if form == "strided_batched":
            out += [f"{const}{T} *{o.name}", f"int64_t {o.ld}", f"int64_t {o.stride}"]
        else:
            out += [f"{const}{T} *const {o.name}[]", f"const int *{o.ld}" if form == "vbatched" else f"int64_t {o.ld}"]
    out.append("int64_t batch")
    return out


def _operand_doc(o: GemmOperand, vbatched: bool) -> str:
    when = f", referenced only where {o.needed.source}" if o.needed is not None else ""
    bound = (f"{o.ld}[i] >= max(1, {_src(o.rows)}) with problem i's sizes (not checked)" if vbatched
             else f"{o.ld} >= max(1, {_src(o.rows)})")
    return f"{o.name} is {_src(o.rows)} x {_src(o.cols)} ({o.access}{when}), {bound}"


def header_blocks(routines: list[GemmRoutine]) -> list[str]:
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
            out.append(" * -> SHOAL_STATUS_INVALID_VALUE; then a NULL handle -> NOT_INITIALIZED; then")
            out.append(" * max_m == 0, max_n == 0 or batch == 0 -> SUCCESS at once. */")
        else:
            out.append(" * Pointer arrays: problem i uses X[i]; strided: X + i * strideX (elements). Strides")
            out.append(" * must not be negative and may be 0 for A and B (one operand shared by every problem);")
            out.append(" * strideC must keep the C_i apart (>= ldc * n) when batch > 1. Options read 0/1 above.")
            out.append(" * Errors, in order: an option out of range, a negative dimension or batch, a leading")
            out.append(f" * dimension below its bound, a NULL operand where {spec.work.source} and batch > 0,")
            out.append(" * a negative or overlapping stride -> SHOAL_STATUS_INVALID_VALUE; then a NULL handle")
            out.append(" * -> NOT_INITIALIZED; then m == 0, n == 0 or batch == 0 -> SUCCESS at once. */")
        for prec in r.precisions:
            for form in spec.forms:
                out.append(f"shoal_status {fname(prec, spec.name, form)}(" + ", ".join(_params(r, prec, form)) + ");")
        out.append("")
    return out


# ---- entry points -----------------------------------------------------------------------------

def _checks(r: GemmRoutine, prec: str, form: str) -> list[str]:
    spec = r.spec
    out = []
    out += option_checks(spec.options) + option_aliases(spec.options, prec)
    work = c_expr(spec.work, _rename(spec, form))
    if form == "vbatched":
        out += conj_alias(spec.options, prec)
        out += [f"    if (max_{d} < 0) return BAD;" for d in spec.dims]
        out.append("    if (batch < 0) return BAD;")
        ptrs = list(spec.dims) + [x for o in spec.operands for x in (o.name, o.ld)]
        out.append(f"    if ({work} && batch > 0 && (" + " || ".join(f"!{p}" for p in ptrs) + ")) return BAD;")
        return out
    out += [f"    if ({d} < 0) return BAD;" for d in spec.dims]
    out.append("    if (batch < 0) return BAD;")
    out += [f"    if ({o.ld} < SHOAL_MAX(1, {c_expr(o.rows)})) return BAD;" for o in spec.operands]
    nulls = " || ".join(f"({c_expr(o.needed)} && !{o.name})" if o.needed is not None else f"!{o.name}"
                        for o in spec.operands)
    out.append(f"    if ({work} && batch > 0 && ({nulls})) return BAD;")
    if form == "strided_batched":
        for o in spec.operands:
            if o.access == "in":
                out.append(f"    if ({o.stride} < 0) return BAD;")
            else:
                out.append(f"    if (!output_stride_ok({o.stride}, {o.ld} * {c_expr(o.cols)}, batch)) return BAD;")
    return out


def _packing(r: GemmRoutine, prec: str, form: str) -> list[str]:
    spec = r.spec
    ty = "shoal_gemm_vparams" if form == "vbatched" else "shoal_gemm_params"
    out = [f"    {ty} p;", "    memset(&p, 0, sizeof p);"]
    out += [f"    p.{d} = {'max_' + d if form == 'vbatched' else d};" for d in spec.dims]
    if precision_mod.get(prec).is_complex:
        out += [f"    p.{s}[0] = {s}.re;\n    p.{s}[1] = {s}.im;" for s in ("alpha", "beta")]
    else:
        out += ["    p.alpha[0] = alpha;", "    p.beta[0] = beta;"]
    if form != "vbatched":
        out += [f"    p.{o.ld} = {o.ld};" for o in spec.operands]
    out.append("    p.batch = batch;")
    for o in spec.operands:
        base = "const void" if o.access == "in" else "void"
        if form == "strided_batched":
            out.append(f"    p.{o.name} = ({base} *){o.name};")
            out.append(f"    p.stride_{o.name.lower()} = {o.stride};")
        else:
            out.append(f"    p.{o.name}_array = ({base} *const *){o.name};")
    if form == "vbatched":
        out += [f"    p.{d}_v = {d};" for d in spec.dims]
        out += [f"    p.{o.ld}_v = {o.ld};" for o in spec.operands]
        out += _vbatched_conj(r, prec)
    return out


def _vbatched_conj(r: GemmRoutine, prec: str) -> list[str]:
    """c and z, vbatched: conj_alias made op C op T (the variant expression sees 0 or 1); the
    kernels of the t variant conjugate A (bit 0) and B (bit 1) as they load them. The fixed-size
    run takes the options and sets shoal_gemm_params.conj itself (runtime/gemm_api.c)."""
    if not precision_mod.get(prec).is_complex:
        return []
    bits = " | ".join(f"conj_{o.name} << {i}" for i, o in enumerate(r.spec.options))
    return [f"    p.conj = {bits};"]


def _run(r: GemmRoutine, prec: str, form: str) -> str:
    spec = r.spec
    if form == "vbatched":
        return f"    return shoal_gemm_vbatched_run(handle, '{prec}', (int)({c_expr(spec.variant)}), &p);"
    return f"    return shoal_gemm_run(handle, '{prec}', " + ", ".join(o.name for o in spec.options) + ", &p);"


def api_c(routines: list[GemmRoutine]) -> str:
    head = [HEADER, "/* Entry points of GEMM and the variable-size GEMM: argument checks in the documented",
            " * order, then the packing and the run of runtime/gemm_run.h (the handle, the quick return,",
            " * the dispatch). */",
            "#include <stdint.h>", "#include <string.h>", "", '#include "gemm_run.h"', "",
            *C_MACROS, *OUTPUT_STRIDE_OK]
    empty = ["/* no GEMM-ABI spec */", "typedef int shoal_no_gemm_spec; /* ISO C: a translation unit is not empty */"]
    return entry_points_c(head, routines, empty, lambda r: r.spec.forms, _params,
                          lambda r, prec, form: _checks(r, prec, form) + _packing(r, prec, form) + [_run(r, prec, form)])


# ---- argument tests ---------------------------------------------------------------------------

def _valid_args(r: GemmRoutine, prec: str, form: str) -> dict[str, str]:
    """A valid call of size 3 in every dimension and batch 2, fake operand addresses (never
    dereferenced: argument errors return before anything is touched) and a NULL handle."""
    spec, T = r.spec, precision_mod.get(prec).api
    args = {"handle": "NULL", "batch": "2", "alpha": scalar_value(prec, T, "1", "0"),
            "beta": scalar_value(prec, T, "0", "0")}
    args.update({o.name: f"({o.type.c_type})0" for o in spec.options})
    for d in spec.dims:
        if form == "vbatched":
            args[d], args[f"max_{d}"] = "(const int *)fake", str(SIZE)
        else:
            args[d] = str(SIZE)
    for o in spec.operands:
        const = "const " if o.access == "in" else ""
        args[o.name] = f"({const}{T} *{'' if form == 'strided_batched' else 'const *'})fake"
        args[o.ld] = "(const int *)fake" if form == "vbatched" else str(SIZE)
        if form == "strided_batched":
            args[o.stride] = str(SIZE * SIZE)
    return args


def rules(r: GemmRoutine, form: str) -> list[Rule]:
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
            out.append((f"{o.ld} below its bound", {o.ld: str(SIZE - 1)}, bad))
            out.append((f"{o.ld} = 0", {o.ld: "0"}, bad))
        out += [(f"{o.name} NULL", {o.name: "NULL"}, bad) for o in spec.operands]
        # an operand needed only sometimes may be NULL where it is not (A and B with k == 0)
        for o in spec.operands:
            if o.needed is not None:
                out.append((f"{o.name} NULL where k == 0", {"k": "0", o.name: "NULL"}, ok))
    if form == "strided_batched":
        for o in spec.operands:
            out.append((f"{o.stride} < 0", {o.stride: "-1"}, bad))
            if o.access != "in":
                out.append((f"{o.stride} overlapping", {o.stride: str(SIZE * SIZE - 1)}, bad))
            else:
                out.append((f"{o.stride} = 0 (shared input)", {o.stride: "0"}, ok))
    nulls = [o.name for o in spec.operands] + (list(spec.dims) + [o.ld for o in spec.operands]
                                               if form == "vbatched" else [])
    out.append(("no work, NULL operands", {dim_args[0]: "0", **{n: "NULL" for n in nulls}}, ok))
    return out


def test_args_c(routines: list[GemmRoutine]) -> str:
    return args_test_c("GEMM and the variable-size GEMM", routines, lambda r: r.spec.forms, _params, _valid_args, rules)


# ---- docs -------------------------------------------------------------------------------------

def routines_md(routines: list[GemmRoutine]) -> list[str]:
    if not routines:
        return []
    out = ["", "## GEMM (`abi = \"gemm\"`)", "",
           "Their entry points pack `shoal_gemm_params` (runtime/kernel_abi.h) or `shoal_gemm_vparams`",
           "(runtime/blas2_abi.h); their kernels, tables and dispatch are runtime/gemm_api.c's and",
           "runtime/blas2_api.c's.", "",
           "| routine | what | options | operands | precisions | forms |",
           "|---|---|---|---|---|---|"]
    for r in routines:
        s = r.spec
        ops = "; ".join(f"{o.name} {o.rows.source} x {o.cols.source} ({o.access})" for o in s.operands)
        what = s.summary.replace("|", "\\|")  # a table cell
        out.append(f"| {s.name} | {what} | {', '.join(o.name for o in s.options)} | {ops} | "
                   f"{', '.join(r.precisions)} | {', '.join(s.forms)} |")
    return out
