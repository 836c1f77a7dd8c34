"""Every design of every routine compiles: the first configuration of each design that the static
pruning of a fake H100 keeps, in each precision, rendered as one shipped module per routine and
precision and compiled with nvcc for sm_90 (the tuner compiles with NVRTC on the GPU machine,
where a template that does not compile would only show as compile_failed rows). nvcc is found as
the Makefile finds it ($NVCC, else $CUDA_HOME/bin/nvcc, CUDA_HOME defaulting to /usr/local/cuda);
skips where it is absent."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from generator import render
from generator.prune import static_prune
from generator.project import default_project, template_version
from generator.search_space import SearchSpace, candidates, load_routine

PROJECT = default_project()
DEVICE = json.loads((Path(__file__).resolve().parent / "fixtures" / "h100.json").read_text())
ROUTINES = sorted(p.stem for p in PROJECT.search_space_dir.glob("*.toml"))
NVCC = Path(os.environ.get("NVCC") or Path(os.environ.get("CUDA_HOME", "/usr/local/cuda")) / "bin" / "nvcc")


def _module(space: SearchSpace, prec: str) -> str:
    first = {}
    for cand in candidates(space, prec):
        if cand.design.name not in first and static_prune(cand, DEVICE) is None:
            first[cand.design.name] = cand
    assert first, f"{space.routine.name}: no valid configuration"
    insts = [(c.design, i) for c in first.values() for i in render.candidate_instances(c)]
    env = render.environment(PROJECT)
    return render.render_shipped(env, space.routine.name, prec, insts, template_version(PROJECT, space))


@pytest.mark.parametrize("routine", ROUTINES)
def test_every_design_compiles(routine: str, tmp_path: Path) -> None:
    if not NVCC.is_file():
        pytest.skip(f"SKIP: nvcc not found ({NVCC})")
    space = load_routine(PROJECT.search_space_dir, routine)
    for prec in space.routine.precisions:
        src = tmp_path / f"{routine}_{prec}.cu"
        src.write_text(_module(space, prec))
        r = subprocess.run([NVCC, "-arch=sm_90", "-cubin", "-std=c++17", f"-I{PROJECT.include_dir}",
                            "-o", str(tmp_path / f"{routine}_{prec}.cubin"), str(src)],
                           capture_output=True, text=True)
        assert r.returncode == 0, f"{routine} {prec}:\n{r.stderr[-3000:]}"
