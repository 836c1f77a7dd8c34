"""Every design of every routine compiles: the first valid configuration of each design, in each
precision, kept by the static pruning of a fake H100, rendered as one shipped module per routine and precision and compiled with nvcc for
sm_90 (the tuner compiles with NVRTC on the GPU machine, where a template that does not compile
would only show as compile_failed rows). Skips where nvcc is absent."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from generator import render
from generator.prune import static_prune
from generator.project import default_project, template_version
from generator.search_space import candidates, load_routine

PROJECT = default_project()
DEVICE = json.loads((Path(__file__).resolve().parent / "fixtures" / "h100.json").read_text())
ROUTINES = sorted(p.stem for p in PROJECT.search_space_dir.glob("*.toml"))
NVCC = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if Path("/usr/local/cuda/bin/nvcc").exists() else None)


def _module(routine: str, prec: str) -> str:
    space = load_routine(PROJECT.search_space_dir, routine)
    first = {}
    for cand in candidates(space, prec):
        if cand.design.name not in first and static_prune(cand, DEVICE) is None:
            first[cand.design.name] = cand
    assert first, f"{routine}: no valid configuration"
    insts = [(c.design, i) for c in first.values() for i in render.candidate_instances(c)]
    env = render.environment(PROJECT)
    return render.render_shipped(env, routine, prec, insts, template_version(PROJECT, space))


@pytest.mark.parametrize("routine", ROUTINES)
def test_every_design_compiles(routine: str, tmp_path: Path) -> None:
    if NVCC is None:
        pytest.skip("SKIP: nvcc not found")
    space = load_routine(PROJECT.search_space_dir, routine)
    for prec in space.routine.precisions:
        src = tmp_path / f"{routine}_{prec}.cu"
        src.write_text(_module(routine, prec))
        r = subprocess.run([NVCC, "-arch=sm_90", "-cubin", "-std=c++17", f"-I{PROJECT.include_dir}",
                            "-o", str(tmp_path / f"{routine}_{prec}.cubin"), str(src)],
                           capture_output=True, text=True)
        assert r.returncode == 0, f"{routine} {prec}:\n{r.stderr[-3000:]}"
