"""Rendering CUDA modules from the Jinja2 templates.

The same templates and the same module.cu.j2 render the tuning candidates (compiled by the
tuner with NVRTC) and the shipped kernels (compiled by nvcc): one source of truth per kernel."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

import jinja2

from . import precision as precision_mod
from .expr import pow2ceil
from .project import MODULE_TEMPLATE, Project
from .search_space import Candidate, Design, variant_flags


@dataclass(frozen=True)
class Instance:
    """One kernel in a module: the arguments of the design's kernel(...) macro."""
    name: str
    cfg: dict[str, int]
    ta: int
    tb: int


def environment(project: Project) -> jinja2.Environment:
    # StrictUndefined: a misspelt cfg field must fail at generation, not become an empty string
    # that surfaces as a baffling NVRTC error on the GPU machine.
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(d) for d in project.template_dirs]),
        undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
        keep_trailing_newline=True, autoescape=False)
    # the same helper as in search-space expressions, so that a template and its search space
    # agree on derived quantities such as the thread team of a factorization
    env.globals["pow2ceil"] = pow2ceil
    return env


def render_module(env: jinja2.Environment, prec: str, groups: Iterable[tuple[Design, list[Instance]]],
                  title: str, template_version: str) -> str:
    designs = [{"name": d.name, "template": d.template, "instances": list(insts)}
               for d, insts in groups]
    names = [d["name"] for d in designs]
    if len(names) != len(set(names)):
        raise ValueError(f"a design appears twice in one module: {names}")
    return env.get_template(MODULE_TEMPLATE).render(
        title=title, template_version=template_version, P=precision_mod.get(prec), designs=designs)


def candidate_instances(cand: Candidate) -> list[Instance]:
    return [Instance(cand.kernel_name(v), dict(cand.cfg), *variant_flags(v))
            for v in cand.space.routine.variants]


def render_candidate(env: jinja2.Environment, cand: Candidate, template_version: str) -> str:
    """One configuration with every variant: the tuner compiles one module per configuration."""
    return render_module(env, cand.prec, [(cand.design, candidate_instances(cand))],
                         f"tuning candidate {cand.module_name}", template_version)


def render_shipped(env: jinja2.Environment, routine: str, prec: str,
                   kernels: Iterable[tuple[Design, Instance]], template_version: str,
                   arch_floor: Mapping[str, int] | None = None) -> str:
    """Every shipped kernel of one precision, grouped by design (sorted by name) and sorted by
    kernel name inside a design, so equal inputs give equal bytes. arch_floor: kernel name ->
    the lowest __CUDA_ARCH__ whose devices can dispatch it (generator/emit.py); below it the
    kernel compiles to a trap (see _arch_guard). Absent names have code on every architecture."""
    by_design: dict[str, tuple[Design, dict[str, Instance]]] = {}
    for design, inst in kernels:
        by_design.setdefault(design.name, (design, {}))[1][inst.name] = inst
    groups = [(d, [insts[n] for n in sorted(insts)])
              for d, insts in (by_design[name] for name in sorted(by_design))]
    count = sum(len(i) for _, i in groups)
    text = render_module(env, prec, groups, f"shipped {routine} kernels, {count} instance(s)", template_version)
    for design, insts in groups:
        macros = env.get_template(design.template).module
        for i in insts:
            floor = (arch_floor or {}).get(i.name)
            if floor is None:
                continue
            kernel = str(macros.kernel(i.name, i.cfg, i.ta, i.tb, precision_mod.get(prec))).strip()
            if text.count(kernel) != 1:
                raise ValueError(f"{i.name}: its kernel text is not found once in its module")
            text = text.replace(kernel, _arch_guard(kernel, i.name, floor))
    return text


def _arch_guard(kernel: str, name: str, floor: int) -> str:
    """A kernel that no tuned table of a device below compute capability floor / 100 can
    dispatch (the runtime takes the table of the highest compute capability not above the
    device's, runtime/dispatch.c) keeps its code for floor and up and for the host pass; below,
    the same signature with a trap, so that the nvcc passes of older architectures (the default
    CUDA_ARCHS has sm_80 beside sm_90) skip the kernel's instantiation. The code above the floor
    is the same text, hence the same machine code."""
    # a kernel macro may render device code of its own before the kernel (SYRK tiles' CP = 0,
    # under an include guard); that code stays outside the guard, since a later kernel of the
    # module may rely on it
    at = kernel.find('extern "C"')
    pre, kernel = (kernel[:at], kernel[at:]) if at > 0 else ("", kernel)
    head = kernel[:kernel.index("{")].rstrip()
    if name not in head or not head.endswith(")"):
        raise ValueError(f"{name}: cannot find its signature before the first brace")
    cc = f"{floor // 100}.{floor // 10 % 10}"
    return (f"{pre}#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= {floor}\n{kernel}\n#else\n"
            f"/* no table a device below compute capability {cc} selects dispatches it */\n"
            f"{head}\n{{\n    __trap();\n}}\n#endif")
