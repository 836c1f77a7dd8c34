#!/usr/bin/env python3
"""The tuning plan of every routine for one device row of the tuned database, as sorted text:
`pruned <module>` per statically pruned configuration, `task <key> batch=<b>` per task.

    .venv/bin/python scripts/plan_sets.py --db tuned_db/shoal.sqlite --device-id 1 --out DIR

Two checkouts that print the same files prune and plan the same (used to show that writing a
restriction over device limits, e.g. smem_per_block instead of 49152, changed nothing)."""
from __future__ import annotations

import argparse
import hashlib
import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path.cwd()))

from generator.project import default_project  # noqa: E402
from generator.search_space import discover  # noqa: E402
from generator.tasks import build_plan  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", required=True)
    ap.add_argument("--device-id", type=int, default=1)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    conn = sqlite3.connect(args.db)
    conn.row_factory = sqlite3.Row
    row = conn.execute("SELECT * FROM devices WHERE id = ?", (args.device_id,)).fetchone()
    if row is None:
        print(f"no device {args.device_id} in {args.db}", file=sys.stderr)
        return 1
    device = dict(row)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    project = default_project(Path.cwd())
    for space in discover(project.search_space_dir):
        plan = build_plan(space, space.routine.precisions, device)
        lines = sorted([f"pruned {p.candidate.module_name}" for p in plan.pruned]
                       + [f"task {' '.join(map(str, t.key))} batch={t.batch}" for t in plan.tasks])
        text = "\n".join(lines) + "\n"
        (out / f"{space.routine.name}.txt").write_text(text)
        print(f"{space.routine.name:14s} pruned {len(plan.pruned):6d} tasks {len(plan.tasks):7d} "
              f"sha256 {hashlib.sha256(text.encode()).hexdigest()[:16]}  ({device['name']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
