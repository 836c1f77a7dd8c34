#!/usr/bin/env python3
"""Are the kernels of the working tree the same as those of a git revision? (generator/compare.py)

    .venv/bin/python scripts/compare_kernels.py --base main [--routines potrf,getrf] [--db X]

Renders the shipped kernels (from the tuned database) and a few sample configurations of every
design at --base and in the working tree, and compares each file: same bytes, same tokens
(comments and whitespace aside), or identical cubins from nvcc. Exit 0 when every file matches,
1 otherwise. Run it after every template refactor; `python -m generator carry-version` runs the
same comparison before it lets old measurements stand for the new template version."""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator import db  # noqa: E402
from generator.compare import CompareError, compare  # noqa: E402
from generator.project import REPO_ROOT  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", default="HEAD", help="git revision to compare with (default HEAD)")
    ap.add_argument("--routines", help="comma-separated (default: every routine with a search space)")
    ap.add_argument("--db", help="tuned database (default: built from tuned_db/shoal.sql.gz in a temp dir)")
    ap.add_argument("--samples", type=int, default=2, help="sample configurations per design (default 2)")
    ap.add_argument("--jobs", type=int, default=2, help="parallel nvcc compiles")
    ap.add_argument("--work", help="keep the renderings (base/, before/, after/) in this folder")
    ap.add_argument("-v", "--verbose", action="store_true", help="one line per file")
    args = ap.parse_args()
    routines = [r for r in (args.routines or "").split(",") if r] or \
        sorted(p.stem for p in (REPO_ROOT / "search_space").glob("*.toml"))
    with tempfile.TemporaryDirectory(prefix="shoal-cmp-db-") as tmp:
        db_path = Path(args.db) if args.db else Path(tmp) / "shoal.sqlite"
        if not args.db:
            db.load_sql(REPO_ROOT / "tuned_db" / "shoal.sql.gz", db_path)
        try:
            rep = compare(args.base, db_path, routines, work=Path(args.work) if args.work else None,
                          samples=args.samples, jobs=args.jobs)
        except CompareError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
    for r, (old, new) in sorted(rep.versions.items()):
        print(f"{r:14s} {old} -> {new}{'' if old != new else ' (unchanged)'}")
    for f in rep.files:
        if args.verbose or f.how not in ("bytes", "tokens", "cubin"):
            print(f"{f.how:11s} {f.name} {f.detail}")
    print(("SAME: " if rep.ok else "DIFFERENT: ") + rep.summary())
    return 0 if rep.ok else 1


if __name__ == "__main__":
    sys.exit(main())
