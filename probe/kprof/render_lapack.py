"""Render chosen factorization candidates into one .cu with a launch table for lapack_driver.cu.

usage: PYTHONPATH=. python probe/kprof/render_lapack.py OUT.cu SPEC ... [--templates DIR] [--search-space DIR]
SPEC: [@TDIR@]ROUTINE:PREC:DESIGN:K=V,...[:TAG[:OLD=>NEW;;OLD=>NEW]]
  @TDIR@   render this one with the templates in TDIR first (e.g. a copy of the previous template)
  TAG      a variant: the rendered text with the substitutions applied, kernels renamed NAME_TAG
Then: nvcc -O3 -std=c++17 -arch=sm_90 -Iruntime -Ibuild/kprof -DKERNELS_CU='"OUT.cu"' \
          probe/kprof/lapack_driver.cu -o build/kprof/drv    (and run.sh on the GPU machine)
"""
import argparse
from dataclasses import replace
from pathlib import Path

from generator import render
from generator.project import default_project, template_version
from generator.search_space import Candidate, load_routine


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("specs", nargs="+")
    ap.add_argument("--templates", action="append", default=[])
    ap.add_argument("--search-space")
    a = ap.parse_args()
    project = default_project()
    if a.templates:
        project = replace(project, template_dirs=tuple(Path(t) for t in a.templates) + project.template_dirs)
    if a.search_space:
        project = replace(project, search_space_dir=Path(a.search_space))
    env = render.environment(project)
    srcs, table = [], []
    for spec in a.specs:
        # [@DIR@]ROUTINE:PREC:DESIGN:K=V,...[:TAG:OLD=>NEW;;OLD=>NEW]: with TAG, a variant of the rendered
        # text (text substitutions), its kernels and namespace renamed with the tag
        # a leading "@DIR@" renders this spec with the templates in DIR first
        sproject, senv = project, env
        if spec.startswith("@"):
            tdir, spec = spec[1:].split("@", 1)
            sproject = replace(project, template_dirs=(Path(tdir),) + project.template_dirs)
            senv = render.environment(sproject)
        routine, prec, design, kv, *var = spec.split(":", 5)
        cfg = {k: int(v) for k, v in (p.split("=") for p in kv.split(","))}
        space = load_routine(project.search_space_dir, routine)
        cand = Candidate(space, prec, space.design(design), cfg)
        src = render.render_candidate(senv, cand, template_version(sproject, space))
        names = [inst.name for inst in render.candidate_instances(cand)]
        if var:
            tag, subs = var[0], var[1] if len(var) > 1 else ""
            for sub in filter(None, subs.split(";;")):
                old, new = sub.split("=>")
                if old not in src:
                    raise SystemExit(f"{spec}: {old!r} not in the rendered source")
                src = src.replace(old, new)
            for n in names:
                src = src.replace(n, f"{n}_{tag}")
            names = [f"{n}_{tag}" for n in names]
        # every module in its own namespace (candidates of one precision share the name)
        src = src.replace(f"shoal_{routine}_{design}_", f"m{len(srcs)}_shoal_{routine}_{design}_")
        srcs.append(src)
        table += [(n, routine, prec, cfg) for n in names]
    with open(a.out, "w") as f:
        f.write("\n".join(srcs))
        f.write("\nstruct probe_kernel { const char *name, *routine; char prec; int N, NB, R; const void *fn; };\n")
        f.write("static const probe_kernel probe_kernels[] = {\n")
        for name, routine, prec, cfg in table:
            f.write(f'  {{"{name}", "{routine}", \'{prec}\', {cfg["N"]}, {cfg.get("NB", 1)}, '
                    f'{cfg.get("R", 1)}, (const void *){name}}},\n')
        f.write("};\n")


if __name__ == "__main__":
    main()
