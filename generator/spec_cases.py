"""GPU test cases of the spec routines: `tests/cases/<routine>.toml` expanded into the C table
`generated/spec_cases.c` that tests/gpu/test_spec_gpu.c runs (tests/cases/README.md)."""
from __future__ import annotations

import itertools
import tomllib
from dataclasses import dataclass
from pathlib import Path

from . import precision as precision_mod
from .emit_spec import HEADER, Routine

MAX_DIM = 1024
MAX_BATCH = 10**7
MAX_CASES = 4000
# tail_offset: every operand's batch ends at its allocation's last element, starting this many
# elements into the allocation; NO_TAIL (the default) keeps the padded allocation
NO_TAIL = -1
MAX_TAIL_OFFSET = 3
FORMS = ("array", "strided")
# page_end: every operand's batch ends at the end of a mapped page with the next page unmapped
# (a read past it faults on the hardware); emitted as this tail_offset (SPEC_HARNESS_PAGE_END in
# oracle/spec_harness.h), so it excludes tail_offset; these cases go last in the table, since a
# fault loses the CUDA context
PAGE_END = 4


class CaseError(ValueError):
    """A case table is malformed or out of bounds."""


@dataclass(frozen=True)
class Case:
    name: str
    routine: int
    prec: str
    form: str
    opts: tuple[int, ...]
    dims: tuple[int, ...]
    batch: int
    ld_pad: int
    tail_offset: int
    alpha: float
    beta: float
    nan: bool
    vendor: bool
    alpha_im: float = 0.0      # imaginary parts: complex precisions only
    beta_im: float = 0.0
    nan_imag: bool = False     # the NaN in the imaginary part only (complex precisions)
    page_end: bool = False
    nan_operand: int = 0       # which operand (index in the spec's list) holds the NaN
    nan_element: int = 0       # and at which element of problem 0's storage (column-major)
    input: int = 0             # INPUTS' index: what the first operand of every problem holds
    driver: int = 0            # > 0: the routine's driver with this leaf / panel width, not the dispatch


# a group's `input`: the first operand's values in every problem (oracle/spec_harness.h
# SPEC_INPUT_*, the same order)
INPUTS = ("random", "zero", "rank_deficient")


def _expand(r: Routine, index: int, g: dict, where: str) -> list[Case]:
    spec = r.spec
    n_opt = len(spec.options)
    opts = g.get("opts", "all")
    if opts == "all":
        opt_list = None  # per precision, below
    else:
        opt_list = [tuple(o) for o in opts]
    for o in opt_list or []:
        if len(o) != n_opt or any(not 0 <= v < len(t.type.values) for v, t in zip(o, spec.options)):
            raise CaseError(f"{where}: options {o} must be {n_opt} values, each one of its option's")
    dims = [tuple(d) for d in g.get("dims", [])]
    if not dims:
        raise CaseError(f"{where}: no dims")
    for d in dims:
        if len(d) != len(spec.dims) or any(not (0 <= x <= MAX_DIM) for x in d):
            raise CaseError(f"{where}: dims {d} must be {len(spec.dims)} sizes in 0..{MAX_DIM}")
    batch = int(g.get("batch", 100))
    if not 1 <= batch <= MAX_BATCH:
        raise CaseError(f"{where}: batch {batch} not in 1..{MAX_BATCH}")
    tail = g.get("tail_offset", NO_TAIL)
    if not isinstance(tail, int) or isinstance(tail, bool) or not (tail == NO_TAIL or 0 <= tail <= MAX_TAIL_OFFSET):
        raise CaseError(f"{where}: tail_offset {tail!r} not in 0..{MAX_TAIL_OFFSET}")
    page_end = g.get("page_end", False)
    if not isinstance(page_end, bool):
        raise CaseError(f"{where}: page_end {page_end!r} must be true or false")
    if page_end and tail != NO_TAIL:
        raise CaseError(f"{where}: page_end and tail_offset exclude each other (a page-end operand ends at its page)")
    precs = tuple(g.get("precisions", r.precisions))
    forms = tuple(g.get("forms", FORMS))
    if not set(precs) <= set(r.precisions) or not set(forms) <= set(FORMS):
        raise CaseError(f"{where}: precisions {precs} / forms {forms} not served")
    alpha, beta = float(g.get("alpha", 1.5)), float(g.get("beta", 0.5))
    # complex precisions: complex scalars unless the group says otherwise (a zero scalar stays 0)
    # or the routine's scalars are real (herk)
    real = r.spec.real_scalars
    if real and ("alpha_im" in g or "beta_im" in g):
        raise CaseError(f"{where}: {r.spec.name}'s alpha and beta are real")
    alpha_im = 0.0 if real else float(g.get("alpha_im", 0.5 if alpha != 0 else 0.0))
    beta_im = 0.0 if real else float(g.get("beta_im", -0.25 if beta != 0 else 0.0))
    nan_imag = bool(g.get("nan_imag", False))
    if nan_imag and not all(precision_mod.get(p).is_complex for p in precs):
        raise CaseError(f"{where}: nan_imag needs complex precisions only")
    names = [o.name for o in spec.operands]
    nan_name = g.get("nan_operand", names[0])
    nan_element = g.get("nan_element", 0)
    if ("nan_operand" in g or "nan_element" in g) and not (g.get("nan") or nan_imag):
        raise CaseError(f"{where}: nan_operand and nan_element need nan or nan_imag")
    if nan_name not in names:
        raise CaseError(f"{where}: nan_operand {nan_name!r} is not an operand of {spec.name} ({', '.join(names)})")
    if not isinstance(nan_element, int) or isinstance(nan_element, bool) or nan_element < 0:
        raise CaseError(f"{where}: nan_element {nan_element!r} must be an element offset >= 0")
    input_name = g.get("input", INPUTS[0])
    if input_name not in INPUTS:
        raise CaseError(f"{where}: input {input_name!r} is not one of {', '.join(INPUTS)}")
    driver = g.get("driver", 0)
    if not isinstance(driver, int) or isinstance(driver, bool) or driver < 0:
        raise CaseError(f"{where}: driver {driver!r} must be a leaf size >= 1 (0: the dispatch)")
    if driver and spec.driver == "none":
        raise CaseError(f"{where}: {spec.name} has no driver")
    out = []
    for p in precs:
        cx = precision_mod.get(p).is_complex
        # "all": every value of every option; in the real precisions not the values that alias
        # another there (SHOAL_OP_C is SHOAL_OP_T)
        mine = opt_list if opt_list is not None else list(itertools.product(
            *(range(len(opt.type.values) if cx or not opt.type.real_alias else 2) for opt in spec.options)))
        for f, o, d in itertools.product(forms, mine, dims):
            letters = "".join(opt.type.name_of(v) for opt, v in zip(spec.options, o))
            name = f"{p}{r.name}_{f}_{g['name']}_{letters}_{'x'.join(map(str, d))}"
            out.append(Case(name, index, p, f, o, d, batch, int(g.get("ld_pad", 0)), PAGE_END if page_end else tail, alpha, beta,
                            bool(g.get("nan", False)) or nan_imag, bool(g.get("vendor", False)),
                            alpha_im if cx else 0.0, beta_im if cx else 0.0, nan_imag, page_end,
                            names.index(nan_name), nan_element, INPUTS.index(input_name), driver))
    return out


def load_cases(routines: list[Routine], cases_dir: Path) -> list[Case]:
    cases: list[Case] = []
    for i, r in enumerate(routines):
        path = cases_dir / f"{r.name}.toml"
        if not path.is_file():
            raise CaseError(f"{path}: every spec routine needs a case table")
        groups = tomllib.loads(path.read_text()).get("group", [])
        mine: list[Case] = []
        for j, g in enumerate(groups):
            mine += _expand(r, i, g, f"{path} group[{j}] {g.get('name')!r}")
        if not mine or len(mine) > MAX_CASES:
            raise CaseError(f"{path}: {len(mine)} cases (1..{MAX_CASES} allowed)")
        names = [c.name for c in mine]
        if len(names) != len(set(names)):
            raise CaseError(f"{path}: case names repeat (two groups share a name?)")
        cases += mine
    # page-end cases last (over all routines): a kernel fault there loses the CUDA context
    return [c for c in cases if not c.page_end] + [c for c in cases if c.page_end]


def cases_c(cases: list[Case]) -> str:
    out = [HEADER.rstrip(), "/* The GPU test cases of the spec routines (tests/cases/<r>.toml). */",
           '#include "spec_cases.h"', "", "const spec_case spec_cases[] = {"]
    for c in cases:
        opts = ", ".join(map(str, c.opts)) or "0"
        dims = ", ".join(map(str, c.dims))
        out.append(f"    {{\"{c.name}\", {c.routine}, '{c.prec}', {int(c.form == 'array')}, {{{opts}}}, "
                   f"{{{dims}}}, {c.batch}LL, {c.ld_pad}, {c.tail_offset}, {c.alpha!r}, {c.beta!r}, {int(c.nan)}, "
                   f"{int(c.vendor)}, {c.alpha_im!r}, {c.beta_im!r}, {int(c.nan_imag)}, {c.nan_operand}, "
                   f"{c.nan_element}LL, {c.input}, {c.driver}}},")
    if not cases:
        out.append("    {0} /* no cases: a placeholder, since C has no zero-length arrays */")
    out += ["};", f"const int spec_n_cases = {len(cases)};"]
    return "\n".join(out) + "\n"
