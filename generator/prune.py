"""Static pruning: what can be decided from the search space and the device limits alone.

Register and occupancy limits need the compiled kernel, so the C tuner prunes those (status
'pruned' with its own reason). Here: a configuration that can never launch or that a
restriction forbids is recorded once as pruned; a shape restriction only says that a candidate
does not apply to a shape, which is not a result and creates no record."""
from __future__ import annotations

from typing import Any, Mapping

from .search_space import Candidate, Shape, restriction_env, shape_env


def static_prune(cand: Candidate, device: Mapping[str, Any]) -> str | None:
    """The reason this candidate cannot run on `device`, or None if it survives."""
    env = restriction_env(cand.design, cand.cfg, cand.prec, device)
    threads = cand.design.threads(env)
    if threads > device["max_threads_per_block"]:
        return "threads_per_block"
    for r in cand.design.restrictions:
        if not r(env):
            return f"restriction: {r.source}"
    return None


def applicable(cand: Candidate, shape: Shape, device: Mapping[str, Any]) -> bool:
    """Whether a (candidate, shape) task exists at all."""
    env = shape_env(restriction_env(cand.design, cand.cfg, cand.prec, device), shape)
    env.update(cand.space.spec_env(shape, cand.prec))
    return all(r(env) for r in cand.design.shape_restrictions)
