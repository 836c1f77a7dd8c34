"""Command line: `python -m generator {tune,emit,show,count,load-db,dump-db,prune-db,merge-db,
carry-version} ...`."""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from . import db
from .expr import ExprError
from .project import REPO_ROOT, Project, default_project, template_version
from .search_space import SearchSpaceError, discover, restrict_precisions


def _csv(s: str) -> list[str]:
    return [x.strip() for x in s.split(",") if x.strip()]


def _project(args: argparse.Namespace) -> Project:
    p = default_project()
    dirs = tuple(Path(d) for d in args.templates) + p.template_dirs if args.templates else p.template_dirs
    return Project(search_space_dir=Path(args.search_space or p.search_space_dir),
                   template_dirs=dirs, include_dir=p.include_dir)


def cmd_tune(args: argparse.Namespace) -> int:
    from .tune import TuneError, TuneOptions, tune
    opts = TuneOptions(db_path=Path(args.db), tuner=args.tuner, work=Path(args.work),
                       routines=_csv(args.routines), precisions=_csv(args.precisions),
                       max_minutes=args.max_minutes, limit_shapes=args.limit_shapes, note=args.note,
                       remeasure_drivers=args.remeasure_drivers,
                       remeasure_strided_vendor=args.remeasure_strided_vendor)
    try:
        return tune(_project(args), opts)
    except TuneError as e:
        print(f"[tune] error: {e}", file=sys.stderr)
        return 1


def cmd_emit(args: argparse.Namespace) -> int:
    from .emit import emit_from_path
    project = _project(args)
    use: dict[str, str] = {}
    for item in args.use_version or []:
        routine, sep, version = item.partition("=")
        if not sep or not routine or not version:
            print(f"error: --use-version {item!r}: expected ROUTINE=VERSION", file=sys.stderr)
            return 2
        use[routine] = version
    only: dict[str, tuple[str, ...]] = {}
    for item in args.only_precisions or []:
        routine, sep, precs = item.partition("=")
        if not sep or not routine or not precs:
            print(f"error: --only-precisions {item!r}: expected ROUTINE=P,P", file=sys.stderr)
            return 2
        only[routine] = tuple(_csv(precs))
    if args.fold_tolerance < 0:
        print(f"error: --fold-tolerance {args.fold_tolerance}: must be >= 0", file=sys.stderr)
        return 2
    spaces = discover(project.search_space_dir)
    try:
        spaces = [restrict_precisions(s, only[s.routine.name]) if s.routine.name in only else s for s in spaces]
    except ValueError as e:
        print(f"error: --only-precisions: {e}", file=sys.stderr)
        return 2
    res = emit_from_path(Path(args.db), project, spaces, Path(args.out),
                         use, args.fold_tolerance, bool(args.fold_cover), public_files=not only)
    for line in res.folds:
        print(f"[emit] {line}")
    for p in res.written:
        print(f"[emit] wrote {p}")
    if res.unchanged:
        print(f"[emit] {len(res.unchanged)} file(s) unchanged")
    return 0


def _unknown(what: str, value: str, valid: list[str]) -> str:
    return f"error: unknown {what} '{value}'; valid: {', '.join(valid)}"


def _check_show_filter(args: argparse.Namespace, spaces: list) -> str | None:
    """One line naming a misspelt routine, precision or variant and the valid values, or None."""
    routines = sorted(s.routine.name for s in spaces)
    if args.routine is not None and args.routine not in routines:
        return _unknown("routine", args.routine, routines)
    mine = [s for s in spaces if args.routine in (None, s.routine.name)]
    precisions = sorted({p for s in mine for p in s.routine.precisions})
    if args.precision is not None and args.precision not in precisions:
        return _unknown("precision", args.precision, precisions)
    variants = sorted({v for s in mine for v in s.routine.variants})
    if args.variant is not None and args.variant not in variants:
        return _unknown("variant" + (f" of {args.routine}" if args.routine else ""), args.variant, variants)
    return None


def cmd_show(args: argparse.Namespace) -> int:
    from .show import NotADatabase, open_tuned_db, ShowFilter, show
    project = _project(args)
    spaces = discover(project.search_space_dir)
    bad = _check_show_filter(args, spaces)
    if bad:
        print(bad, file=sys.stderr)
        return 2
    versions = None
    if not args.all_versions:
        versions = {s.routine.name: template_version(project, s) for s in spaces
                    if args.routine in (None, s.routine.name)}
    if not Path(args.db).is_file():
        print(f"error: {args.db} does not exist (run load-db or tune first)", file=sys.stderr)
        return 1
    try:
        conn = open_tuned_db(args.db)
        try:
            show(conn, ShowFilter(device=args.device, routine=args.routine, precision=args.precision,
                                  variant=args.variant, mode=args.mode, versions=versions), sys.stdout)
        finally:
            conn.close()
    except NotADatabase as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


def cmd_count(args: argparse.Namespace) -> int:
    from .tune import print_counts, query_device
    if args.device_info:
        device = json.loads(Path(args.device_info).read_text())
    else:
        device = query_device(args.tuner)
    print_counts(_project(args), _csv(args.routines), _csv(args.precisions), device)
    return 0


def cmd_load_db(args: argparse.Namespace) -> int:
    db.load_sql(args.sql, args.db)
    src = args.sql if Path(args.sql).is_file() else f"{db.SCHEMA_PATH} (no {args.sql} yet)"
    print(f"[load-db] {args.db} <- {src}")
    return 0


def cmd_dump_db(args: argparse.Namespace) -> int:
    changed = db.dump_sql(args.db, args.sql)
    print(f"[dump-db] {args.sql} {'written' if changed else 'unchanged'}")
    return 0


def cmd_prune_db(args: argparse.Namespace) -> int:
    project = _project(args)
    keep = {s.routine.name: template_version(project, s) for s in discover(project.search_space_dir)}
    conn = db.connect(args.db)
    try:
        n = db.prune_versions(conn, keep)
    finally:
        conn.close()
    print(f"[prune-db] deleted {n} measurement(s) of superseded template versions")
    return 0


def cmd_merge_db(args: argparse.Namespace) -> int:
    conn = db.connect(args.db)
    try:
        n = db.merge_from(conn, args.other)
    finally:
        conn.close()
    print(f"[merge-db] {n} measurement(s) added from {args.other}")
    return 0


def carry_evidence(base: str, files: list, samples: int, measured: str = "") -> str:
    """The evidence a carry records: the comparison's counts for the routine's files (f.how per
    file), and where the kernels differ, the stated measurement that the old results still hold."""
    hows = [f.how for f in files]
    counts = ", ".join(f"{hows.count(h)} {h}" for h in sorted(set(hows)))
    if measured:
        return f"{measured} (measured; generator/compare.py vs {base}: {counts})"
    return (f"generator/compare.py vs {base}: shipped kernels and {samples} sample(s) per design "
            f"equal ({counts})")


def cmd_carry_version(args: argparse.Namespace) -> int:
    from .compare import CompareError, compare, routine_of
    from .search_space import load_routine
    project = default_project()
    routines = _csv(args.routine)
    measured = (args.measured or "").strip()
    if args.measured is not None and not measured:
        print("[carry-version] --measured needs the measurement (what was run, where, the worst "
              "row)", file=sys.stderr)
        return 2
    if not Path(args.db).is_file():
        print(f"{args.db} does not exist (run load-db first)", file=sys.stderr)
        return 1
    try:
        rep = compare(args.base, Path(args.db), routines, work=Path(args.work) if args.work else None,
                      samples=args.samples, jobs=args.jobs, cubins=not measured)
    except CompareError as e:
        print(f"[carry-version] error: {e}", file=sys.stderr)
        return 1
    for f in rep.files:
        if f.how not in ("bytes", "tokens", "cubin"):
            print(f"[carry-version] {f.name}: {f.how} {f.detail}", file=sys.stderr)
    print(f"[carry-version] {rep.summary()}")
    if not rep.ok and not measured:
        print("[carry-version] refused: the kernels differ; retune instead (or, after measuring "
              "that the old results hold, --measured)", file=sys.stderr)
        return 1
    conn = db.connect(args.db)
    try:
        for r in routines:
            old, new = rep.versions[r]
            if new != template_version(project, load_routine(project.search_space_dir, r)):
                raise AssertionError("the working tree changed during the comparison")
            if old == new:
                print(f"[carry-version] {r}: version {new} unchanged, nothing to carry")
                continue
            mine = [f for f in rep.files if routine_of(Path(f.name).name, routines) == r]
            evidence = carry_evidence(rep.base, mine, args.samples, measured)
            if rep.added_precisions.get(r):
                # the new precisions have no measurements; the old ones' renderings were compared
                evidence += f"; precisions {', '.join(rep.added_precisions[r])} added (nothing to carry)"
            added = db.carry_version(conn, r, old, new, evidence)
            print(f"[carry-version] {r}: {old} -> {new} {'recorded' if added else 'already recorded'}")
    finally:
        conn.close()
    return 0


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m generator", description=__doc__)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--search-space", help="directory of <routine>.toml "
                        f"(default {REPO_ROOT / 'search_space'})")
    common.add_argument("--templates", action="append", help="template directory searched before "
                        "templates/ (repeatable; for experiments and tests)")
    sub = ap.add_subparsers(dest="cmd", required=True)

    t = sub.add_parser("tune", parents=[common], help="tune on this machine's GPU (resumable)")
    t.add_argument("--db", required=True)
    t.add_argument("--tuner", required=True, help="path of shoal_tune")
    t.add_argument("--work", required=True, help="scratch directory (sources, cubins, job, results)")
    t.add_argument("--routines", default="gemm")
    t.add_argument("--precisions", default="s,d")
    t.add_argument("--max-minutes", type=float, help="stop (resumably) after this long")
    t.add_argument("--limit-shapes", type=int, help="only the first N distinct (m, n, k)")
    t.add_argument("--note", default="", help="free text stored with the run")
    t.add_argument("--remeasure-drivers", nargs="?", const="now", default="", metavar="BEFORE",
                   help="time the routines' driver tasks recorded before BEFORE (ISO 8601 UTC, "
                   "default: this run's start) again: a driver is timed through the library the "
                   "tuner was built with, so after the routine's kernels are retuned and emitted "
                   "(and the tuner rebuilt), its earlier rows describe other leaves; the vendor "
                   "rows and the fastest kernel row of the drivers' shapes are timed again with "
                   "them. The old rows serve until replaced; pass the time the first run printed "
                   "to resume a cut run")
    t.add_argument("--remeasure-strided-vendor", nargs="?", const="now", default="", metavar="BEFORE",
                   help="time the vendor rows of the routines' strided shapes recorded before BEFORE "
                   "(ISO 8601 UTC, default: this run's start) again: the factorizations' vendor "
                   "takes pointer arrays, and since 2026-11-28 a strided call reaches it with its "
                   "arrays written by the library, a cost the older rows leave out. The old rows "
                   "serve until replaced; pass the time the first run printed to resume a cut run")
    t.set_defaults(func=cmd_tune)

    e = sub.add_parser("emit", parents=[common], help="write generated/ from the database")
    e.add_argument("--db", required=True)
    e.add_argument("--out", required=True)
    e.add_argument("--use-version", action="append", metavar="ROUTINE=VERSION",
                   help="emit ROUTINE from the measurements of this template version instead of "
                   "the current one (for comparisons; repeatable)")
    e.add_argument("--only-precisions", action="append", metavar="ROUTINE=P,P",
                   help="emit ROUTINE in these of its precisions only, and neither the public "
                   "header nor the docs table (generator/compare.py: the view of a tree that "
                   "added precisions as its base had them; repeatable)")
    e.add_argument("--fold-tolerance", type=float, default=0.02, metavar="TOL",
                   help="replace a rule's kernel by one the tables keep anyway where that was "
                   "measured within 1+TOL of it at the shape, to ship fewer kernels (0: off; "
                   "default %(default)s; generator/fold.py)")
    e.add_argument("--fold-cover", type=int, choices=(0, 1), default=1, metavar="0|1",
                   help="1: fold by a set cover that may ship a kernel no rule chose, measured "
                   "within the tolerance at several rules' shapes (generator/cover.py); 0: only "
                   "into kernels shipped anyway (generator/fold.py); default %(default)s")
    e.set_defaults(func=cmd_emit)

    s = sub.add_parser("show", parents=[common], help="winners per shape vs the vendor")
    s.add_argument("--db", required=True)
    s.add_argument("--device", help="substring of the device name")
    s.add_argument("--routine")
    s.add_argument("--precision")
    s.add_argument("--variant")
    s.add_argument("--mode")
    s.add_argument("--all-versions", action="store_true",
                   help="also show measurements of other template versions")
    s.set_defaults(func=cmd_show)

    c = sub.add_parser("count", parents=[common], help="tasks a tuning run would have")
    src = c.add_mutually_exclusive_group(required=True)
    src.add_argument("--device-info", help="JSON as printed by shoal_tune --device-info")
    src.add_argument("--tuner", help="ask this shoal_tune for the device info")
    c.add_argument("--routines", default="gemm")
    c.add_argument("--precisions", default="s,d")
    c.set_defaults(func=cmd_count)

    ld = sub.add_parser("load-db", help="rebuild the SQLite database from its SQL dump")
    ld.add_argument("--sql", required=True)
    ld.add_argument("--db", required=True)
    ld.set_defaults(func=cmd_load_db)

    dd = sub.add_parser("dump-db", help="write the SQL dump of the database (deterministic)")
    dd.add_argument("--db", required=True)
    dd.add_argument("--sql", required=True)
    dd.set_defaults(func=cmd_dump_db)

    pr = sub.add_parser("prune-db", parents=[common],
                        help="delete measurements of template versions other than the current ones")
    pr.add_argument("--db", required=True)
    pr.set_defaults(func=cmd_prune_db)

    mg = sub.add_parser("merge-db", help="add the measurements of another database (tuning split "
                        "over machines or sessions); existing rows win")
    mg.add_argument("--db", required=True)
    mg.add_argument("--other", required=True, help="the other .sqlite file")
    mg.set_defaults(func=cmd_merge_db)
    cv = sub.add_parser("carry-version", help="record that a routine's measurements of the "
                        "template version at --base stand for the working tree's version, after "
                        "proving that both render the same kernels (generator/compare.py)")
    cv.add_argument("--db", required=True)
    cv.add_argument("--routine", required=True, help="routine(s), comma-separated")
    cv.add_argument("--base", default="HEAD", help="git revision of the old templates "
                    "(default HEAD: the working tree's uncommitted edits)")
    cv.add_argument("--samples", type=int, default=2,
                    help="sample configurations rendered per design and precision (default 2)")
    cv.add_argument("--jobs", type=int, default=2, help="parallel nvcc compiles")
    cv.add_argument("--work", help="keep the renderings in this folder")
    cv.add_argument("--measured", metavar="TEXT",
                    help="record the carry although the kernels differ, on this measurement that "
                    "the old results still hold (a before/after benchmark of the changed kernels "
                    "on the tuned device: what ran, where, the worst row); stored as the evidence")
    cv.set_defaults(func=cmd_carry_version)
    return ap


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.func(args)
    except (SearchSpaceError, ExprError, FileNotFoundError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # `show ... | head` closed the pipe: stop quietly (stdout is pointed at /dev/null so that
        # the interpreter's final flush does not raise again)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
