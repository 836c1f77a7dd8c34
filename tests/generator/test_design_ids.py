"""Every design of every search space is known to the runtime: the emitted tables name it as
SHOAL_DESIGN_<NAME> (runtime/dispatch_table.h) and the tuner maps its name to that id through
shoal_design_from_name (runtime/gemm_launch.c). A design missing from either would only show on
the GPU machine (a build error of the emitted tables, or every candidate of the design failing)."""
from __future__ import annotations

import re

from generator.project import default_project
from generator.search_space import load_routine

PROJECT = default_project()
RUNTIME = PROJECT.include_dir   # runtime/


def _designs() -> set[str]:
    """Designs of the hand-wired routines; a spec routine's designs are numbered by the
    generator (SHOAL_DESIGN_SPEC + index, runtime/spec_run.h) and need no name of their own."""
    names: set[str] = set()
    for path in PROJECT.search_space_dir.glob("*.toml"):
        space = load_routine(PROJECT.search_space_dir, path.stem)
        if space.routine.spec is None:
            names |= {d.name for d in space.designs}
    return names


def test_every_design_has_a_runtime_id_and_name() -> None:
    enum = set(re.findall(r"SHOAL_DESIGN_([A-Z_]+)\s*=", (RUNTIME / "dispatch_table.h").read_text()))
    mapped = dict(re.findall(r'strcmp\(name, "(\w+)"\) == 0\) return SHOAL_DESIGN_([A-Z_]+);',
                             (RUNTIME / "gemm_launch.c").read_text()))
    designs = _designs()
    assert designs, "no search spaces found"
    for name in sorted(designs):
        assert name.upper() in enum, f"design {name}: no SHOAL_DESIGN_{name.upper()} in dispatch_table.h"
        assert mapped.get(name) == name.upper(), f"design {name}: not mapped by shoal_design_from_name"
    ids = re.findall(r"SHOAL_DESIGN_[A-Z_]+\s*=\s*(\d+)", (RUNTIME / "dispatch_table.h").read_text())
    assert len(ids) == len(set(ids)), "two designs share an id"
