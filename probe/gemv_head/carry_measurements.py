"""Carry measurements across a template change that left their kernels' code as it was.

Any edit to a template retires every measurement of the routines that use it (the template
version hashes the files, generator/project.py), which is the safe rule. Where an edit provably
leaves some kernels' code unchanged (a design template not rendered into their modules, a
device function they do not instantiate) and their cubins compare equal, re-measuring them
spends GPU time for nothing; this relabels their rows to the current template version instead.
Checking that the code is unchanged is the caller's job: state how it was checked in the commit.

Usage: python scripts/carry_measurements.py --db tuned_db/shoal.sqlite --routine trsv
           [--designs group,group_ptr,vendor] [--from-version HEX]
(--from-version defaults to the newest version measured before this one.)
"""
from __future__ import annotations

import argparse
import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from generator.project import default_project, template_version  # noqa: E402
from generator.search_space import load_routine  # noqa: E402


def previous_version(conn: sqlite3.Connection, routine: str, current: str) -> str:
    row = conn.execute("SELECT template_version FROM measurements WHERE routine = ? AND template_version != ?"
                       " GROUP BY template_version ORDER BY max(created) DESC LIMIT 1",
                       (routine, current)).fetchone()
    if row is None:
        raise SystemExit(f"no measurements of {routine} under another version than {current}")
    return row[0]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--routine", required=True)
    ap.add_argument("--designs", default="", help="comma-separated; default every design")
    ap.add_argument("--from-version", default="")
    args = ap.parse_args()
    project = default_project()
    current = template_version(project, load_routine(project.search_space_dir, args.routine))
    conn = sqlite3.connect(args.db)
    try:
        old = args.from_version or previous_version(conn, args.routine, current)
        designs = [d for d in args.designs.split(",") if d]
        where = "routine = ? AND template_version = ?"
        params: list[str] = [args.routine, old]
        if designs:
            where += f" AND design IN ({','.join('?' * len(designs))})"
            params += designs
        cur = conn.execute(f"UPDATE measurements SET template_version = ? WHERE {where}", [current, *params])
        conn.commit()
        print(f"[carry] {args.routine}: {cur.rowcount} measurement(s) {old} -> {current}"
              + (f" (designs {', '.join(designs)})" if designs else ""))
    finally:
        conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
