"""Writing the tuner's job file (internals.md §3): one `key=value` record per line.

Values are written bare, so none may contain whitespace or '='; paths are checked here rather
than letting the C parser split them silently."""
from __future__ import annotations

from pathlib import Path
from typing import Iterable, Mapping

from .search_space import SLOTS
from .tasks import Task


def _value(v: object) -> str:
    s = str(v)
    if not s or any(c.isspace() for c in s) or "=" in s:
        raise ValueError(f"job file value {s!r} is empty or contains whitespace or '='")
    return s


def job_text(device: int, include_dir: str, cubin_dir: str, modules: Mapping[int, str],
             tasks: Iterable[Task], module_ids: Mapping[str, int]) -> str:
    """`modules` maps module id -> source path; only modules that a task uses should be listed
    (the tuner compiles every module in the file)."""
    lines = [f"device {device}", f"include_dir {_value(include_dir)}",
             f"cubin_dir {_value(cubin_dir)}"]
    lines += [f"module id={mid} src={_value(src)}" for mid, src in sorted(modules.items())]
    for t in tasks:
        s = t.shape
        module = -1 if t.module is None else module_ids[t.module]
        slots = " ".join(f"{k}={t.slots[k]}" for k in SLOTS)
        lines.append(
            f"task id={t.id} routine={t.routine} prec={t.prec} mode={s.mode} "
            f"variant={t.variant_index} m={s.m} n={s.n} k={s.k} batch={t.batch} "
            f"kernel={_value(t.kernel)} module={module} design={t.design} {slots}")
    return "\n".join(lines) + "\n"


def write_job(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
