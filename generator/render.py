"""Rendering CUDA modules from the Jinja2 templates.

The same templates and the same module.cu.j2 render the tuning candidates (compiled by the
tuner with NVRTC) and the shipped kernels (compiled by nvcc): one source of truth per kernel."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

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
                   kernels: Iterable[tuple[Design, Instance]], template_version: str) -> str:
    """Every shipped kernel of one precision, grouped by design (sorted by name) and sorted by
    kernel name inside a design, so equal inputs give equal bytes."""
    by_design: dict[str, tuple[Design, dict[str, Instance]]] = {}
    for design, inst in kernels:
        by_design.setdefault(design.name, (design, {}))[1][inst.name] = inst
    groups = [(d, [insts[n] for n in sorted(insts)])
              for d, insts in (by_design[name] for name in sorted(by_design))]
    count = sum(len(i) for _, i in groups)
    return render_module(env, prec, groups,
                         f"shipped {routine} kernels, {count} instance(s)", template_version)
