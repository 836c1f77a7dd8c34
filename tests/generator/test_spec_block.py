"""A spec design's block is its slots' (runtime/spec_launch.c launches dim_x x dim_y threads from
the kernel descriptor): for every configuration of every spec routine's design, the product of
the parameters in slots dim_x and dim_y (1 where none) equals the design's `threads`. A
parameter that sizes the block but sits in another slot launches blocks of 0 threads (gebrd's
N in p0 did, caught before its first GPU run)."""
from __future__ import annotations

import itertools

from generator.project import default_project
from generator.search_space import discover


def test_the_block_of_every_spec_design_is_its_threads() -> None:
    checked = 0
    for space in discover(default_project().search_space_dir):
        if space.routine.spec is None:
            continue
        for d in space.designs:
            names = [p.name for p in d.params]
            for values in itertools.product(*(p.values for p in d.params)):
                cfg = dict(zip(names, values))
                slots = {p.slot: cfg[p.name] for p in d.params}
                block = slots.get("dim_x", 0) * slots.get("dim_y", 1)
                assert block == d.threads(cfg), (space.routine.name, d.name, cfg)
                checked += 1
    assert checked > 1000  # every spec routine's designs, not a vacuous pass

