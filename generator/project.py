"""Where the generator's inputs live, and the template version that ties measurements to them.

The template search path is a list so that tests can put fixture templates in front of the
real ones without copying templates/module.cu.j2."""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from .search_space import SearchSpace

MODULE_TEMPLATE = "module.cu.j2"
REPO_ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Project:
    search_space_dir: Path
    template_dirs: tuple[Path, ...]
    include_dir: Path            # runtime/: kernel_abi.h for NVRTC

    def template_path(self, name: str) -> Path:
        for d in self.template_dirs:
            if (d / name).is_file():
                return d / name
        raise FileNotFoundError(f"template {name!r} not found in "
                                f"{', '.join(str(d) for d in self.template_dirs)}")


def default_project(root: Path = REPO_ROOT) -> Project:
    return Project(search_space_dir=root / "search_space", template_dirs=(root / "templates",),
                   include_dir=root / "runtime")


# {% import "x.cu.j2" ... %} / {% from "x.cu.j2" import ... %} / {% include "x.cu.j2" %}
_TEMPLATE_REF = re.compile(r"""{%-?\s*(?:import|from|include)\s+["']([^"']+)["']""")


def imported_templates(project: Project, names: list[str]) -> list[str]:
    """Templates that the named ones import or include (by literal name), transitively, in
    first-seen order, excluding the named ones themselves."""
    seen = list(names)
    out: list[str] = []
    i = 0
    while i < len(seen):
        text = project.template_path(seen[i]).read_text()
        for ref in _TEMPLATE_REF.findall(text):
            if ref not in seen:
                seen.append(ref)
                out.append(ref)
        i += 1
    return out


def template_version(project: Project, space: SearchSpace) -> str:
    """First 16 hex digits of sha256 over the search-space file, the design templates it names
    and module.cu.j2, then the templates those import, transitively (a TRSV template reuses the
    GEMV device functions and the LU designs the pivot search of templates/lib/, so an edit there
    must retire their results too, unless carried: tuned_db carried_versions). A measurement is only trusted for
    emission under the same version: the kernel names would still match after a template edit,
    but not the code behind them."""
    h = hashlib.sha256()
    names = space.templates() + [MODULE_TEMPLATE] + imported_templates(project, space.templates())
    files = [(space.path.name, space.path)] + [(t, project.template_path(t)) for t in names]
    if space.routine.spec is not None:
        # a spec routine's kernels follow its declaration (operands, options) too
        files.append((f"spec/{space.routine.spec.path.name}", space.routine.spec.path))
    for label, f in files:
        data = f.read_bytes()
        # Name and length frame each file so that moving bytes between files changes the hash.
        # Templates are named as imported ("lib/regs.cu.j2"), so library files named like a
        # design template stay apart.
        h.update(f"{label}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()[:16]
