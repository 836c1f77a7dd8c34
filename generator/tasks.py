"""Turning a search space and a device into the tuner's work: static prunes, candidate modules
and (kernel, shape) tasks.

Ids are assigned over the full plan before anything already measured is dropped, so a resumed
run gives a module the same id (the tuner caches cubins by module id and source hash) and the
job files of two runs can be compared line by line."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from .prune import applicable, static_prune
from .search_space import SLOTS, Candidate, SearchSpace, Shape, candidates, config_json

VENDOR_DESIGN = "vendor"
# `vendor = "none"` in a search space: the vendor has no such routine, nothing to measure
NO_VENDOR = "none"


@dataclass(frozen=True)
class Task:
    id: int
    routine: str
    prec: str
    shape: Shape
    variant_index: int
    batch: int
    kernel: str
    design: str                 # VENDOR_DESIGN for the vendor baseline
    config: str                 # JSON, sorted keys ('{}' for the vendor)
    slots: dict[str, int]       # dim_x, dim_y, p0..p3 (all 0 for the vendor)
    module: str | None          # candidate module name; None for the vendor
    flops: float                # per problem; Gflop/s = flops * batch / time
    bytes: float                # per problem

    @property
    def key(self) -> tuple[str, str, str, str, int, int, int, str]:
        s = self.shape
        return (self.routine, self.prec, s.mode, s.variant, s.m, s.n, s.k, self.kernel)


@dataclass(frozen=True)
class Pruned:
    candidate: Candidate
    reason: str


@dataclass
class Plan:
    tasks: list[Task] = field(default_factory=list)
    modules: dict[str, Candidate] = field(default_factory=dict)    # name -> candidate
    module_ids: dict[str, int] = field(default_factory=dict)
    pruned: list[Pruned] = field(default_factory=list)


def limit_shapes(shapes: list[Shape], limit: int | None) -> list[Shape]:
    """Keep the shapes of the first `limit` distinct (m, n, k), with all their modes and
    variants: a quick run still compares every variant of the sizes it covers."""
    if limit is None:
        return shapes
    keep: list[tuple[int, int, int]] = []
    for s in shapes:
        if s.dims not in keep:
            keep.append(s.dims)
    chosen = set(keep[:limit])
    return [s for s in shapes if s.dims in chosen]


def build_plan(space: SearchSpace, precisions: Iterable[str], device: Mapping[str, Any],
               shape_limit: int | None = None, plan: Plan | None = None) -> Plan:
    """Append this routine's work to `plan`. Tasks are shape-major (the vendor first, then every
    applicable candidate), so the runs being compared sit close together in time and a run cut
    short by its time budget leaves whole shapes compared, not half of every shape."""
    plan = plan or Plan()
    shapes = limit_shapes(space.shapes(), shape_limit)
    for prec in precisions:
        if prec not in space.routine.precisions:
            raise ValueError(f"routine {space.routine.name} has no precision {prec!r}")
        live: list[Candidate] = []
        for cand in candidates(space, prec):
            reason = static_prune(cand, device)
            if reason is None:
                live.append(cand)
            else:
                plan.pruned.append(Pruned(cand, reason))
        for shape in shapes:
            batch = space.batch_for(shape, prec, device)
            common: dict[str, Any] = dict(routine=space.routine.name, prec=prec, shape=shape,
                          variant_index=space.variant_index(shape.variant), batch=batch,
                          flops=space.flops(shape, prec), bytes=space.bytes(shape, prec))
            if space.routine.vendor != NO_VENDOR:
                plan.tasks.append(Task(id=len(plan.tasks), kernel=space.routine.vendor,
                                       design=VENDOR_DESIGN, config="{}",
                                       slots={s: 0 for s in SLOTS},
                                       module=None, **common))
            spec, driver = space.routine.spec, space.driver
            if driver is not None and spec.driver_serves(space.spec_env(shape, prec)):
                # the driver's sizes (where the kernels serve too, the tables choose); its leaf
                # steps are the library's own
                # dispatched calls, so the tuner times it through the library (no module)
                for cfg in driver.configs():
                    plan.tasks.append(Task(
                        id=len(plan.tasks), kernel=space.kernel_name(prec, driver, shape.variant, cfg),
                        design=driver.name, config=config_json(cfg), slots=driver.slots(cfg),
                        module=None, **common))
            for cand in live:
                if not applicable(cand, shape, device):
                    continue
                name = cand.module_name
                if name not in plan.modules:
                    plan.modules[name] = cand
                    plan.module_ids[name] = len(plan.module_ids)
                plan.tasks.append(Task(id=len(plan.tasks), kernel=cand.kernel_name(shape.variant),
                                       design=cand.design.name, config=cand.config_json(),
                                       slots=cand.design.slots(cand.cfg), module=name, **common))
    return plan
