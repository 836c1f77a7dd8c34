"""`python -m generator tune`: drive the C tuner over the search space and record everything.

The tuner is a separate process so that a kernel which kills the GPU context takes only the
tuner down: we record the culprit as launch_failed and restart with the remaining tasks. Results
are committed as they stream in, so an interrupted run keeps what it measured, and a rerun
skips every key already recorded (resume)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from . import db, render
from .ingest import EXIT_CONTEXT_LOST, EXIT_OK, EXIT_TIME_BUDGET, Ingestor
from .jobfile import job_text, write_job
from .project import Project, template_version
from .search_space import SearchSpace, load_routine
from .tasks import Plan, Task, build_plan

POLL_S = 1.0
PROGRESS_EVERY_S = 10.0
DEADLINE_GRACE_S = 120.0        # the tuner stops itself at --max-seconds; this is the backstop
MAX_FRUITLESS_RESTARTS = 3      # restarts that recorded nothing before we give up
# shoal_tune compiles every module of its job before it times a task: a job of a whole search
# space (the factorizations in c and z: 5831 modules) compiled for minutes and a 3.5-minute call
# on the H100 recorded nothing (2026-11-27). A job of at most this many modules records results
# after each batch, so a time budget always ends with what was measured saved.
MODULES_PER_JOB = 256


class TuneError(RuntimeError):
    pass


@dataclass
class TuneOptions:
    db_path: Path
    tuner: str
    work: Path
    routines: Sequence[str]
    precisions: Sequence[str]
    max_minutes: float | None = None
    limit_shapes: int | None = None
    note: str = ""
    # time the routines' driver tasks (and the vendor rows at their shapes) recorded before this
    # ISO 8601 UTC time again (db.stale_driver_rows); "now": before this run started
    remeasure_drivers: str = ""
    # time the vendor rows of strided shapes recorded before this time again
    # (db.stale_strided_vendor_rows); "now": before this run started
    remeasure_strided_vendor: str = ""


def log(msg: str) -> None:
    print(f"[tune] {msg}", flush=True)


def query_device(tuner: str) -> dict[str, Any]:
    try:
        proc = subprocess.run([tuner, "--device-info"], capture_output=True, text=True, timeout=300)
    except OSError as e:
        raise TuneError(f"cannot run the tuner {tuner!r}: {e}") from None
    if proc.returncode != 0:
        raise TuneError(f"{tuner} --device-info exited {proc.returncode}: {proc.stderr.strip()}")
    # Take the last JSON object line, in case the tuner logs something before it.
    for line in reversed(proc.stdout.splitlines()):
        if line.strip().startswith("{"):
            info = json.loads(line)
            missing = [f for f in ("name",) + db.DEVICE_INT_FIELDS if f not in info]
            if missing:
                raise TuneError(f"{tuner} --device-info lacks {', '.join(missing)}")
            return info
    raise TuneError(f"{tuner} --device-info printed no JSON object: {proc.stdout[:500]!r}")


def _path_for_job(p: Path) -> str:
    """Relative to our working directory (the tuner runs there) when possible: shorter, and a
    checkout under a path with spaces still works."""
    try:
        return os.path.relpath(p)
    except ValueError:
        return str(p.resolve())


class Progress:
    def __init__(self, total: int):
        self.total = total
        self.start = time.monotonic()
        self.last = 0.0
        self.counts: Counter[str] = Counter()

    def show(self, extra: Counter[str], force: bool = False) -> None:
        t = time.monotonic()
        if not force and t - self.last < PROGRESS_EVERY_S:
            return
        self.last = t
        counts = self.counts + extra
        done = sum(counts.values())
        pct = 100.0 * done / self.total if self.total else 100.0
        el = int(t - self.start)
        detail = ", ".join(f"{s} {counts[s]}" for s in db.STATUSES if counts[s])
        log(f"{done}/{self.total} tasks ({pct:.1f}%) [{detail or 'none yet'}] "
            f"elapsed {el // 60}m{el % 60:02d}s")


def _run_tuner(cmd: list[str], results: Path, ing: Ingestor, progress: Progress,
               deadline: float | None) -> int | None:
    """Run the tuner, ingesting as it writes. Returns its exit code; EXIT_TIME_BUDGET if we had
    to stop it past the deadline."""
    log("running " + " ".join(cmd))
    proc = subprocess.Popen(cmd)
    try:
        while True:
            try:
                rc: int | None = proc.wait(timeout=POLL_S)
            except subprocess.TimeoutExpired:
                rc = None
            ing.feed_file(results)
            if rc is not None:
                return rc           # the caller prints the final count after finish()
            progress.show(ing.counts)
            if deadline is not None and time.monotonic() > deadline + DEADLINE_GRACE_S:
                log("tuner overran its time budget; stopping it")
                proc.terminate()
                proc.wait()
                return EXIT_TIME_BUDGET
    except BaseException:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
        raise


def _record_static_prunes(conn: Any, plan: Plan, measured: set[db.MeasuredKey], run_id: int, device_id: int,
                          versions: dict[str, str]) -> int:
    n = 0
    for p in plan.pruned:
        cand = p.candidate
        routine = cand.space.routine.name
        for variant in cand.space.routine.variants:
            kernel = cand.kernel_name(variant)
            key = (routine, cand.prec, db.STATIC_MODE, variant, 0, 0, 0, kernel)
            if key in measured:
                continue
            db.insert_measurement(conn, db.Measurement(
                run_id=run_id, device_id=device_id, routine=routine, precision=cand.prec,
                mode=db.STATIC_MODE, variant=variant, m=0, n=0, k=0, batch=0,
                design=cand.design.name, config=cand.config_json(), kernel=kernel,
                template_version=versions[routine], status="pruned", reason=p.reason))
            n += 1
    conn.commit()
    return n


def _render_modules(project: Project, plan: Plan, tasks: list[Task], src_dir: Path,
                    versions: dict[str, str]) -> dict[int, str]:
    env = render.environment(project)
    used = sorted({t.module for t in tasks if t.module is not None}, key=lambda n: plan.module_ids[n])
    out: dict[int, str] = {}
    for name in used:
        cand = plan.modules[name]
        path = src_dir / f"{name}.cu"
        db.write_if_changed(path, render.render_candidate(
            env, cand, versions[cand.space.routine.name]))
        out[plan.module_ids[name]] = _path_for_job(path)
    return out


def tune(project: Project, opts: TuneOptions) -> int:
    spaces = [load_routine(project.search_space_dir, r) for r in opts.routines]
    versions = {s.routine.name: template_version(project, s) for s in spaces}
    device = query_device(opts.tuner)
    log(f"device: {device['name']} (cc {device['cc_major']}.{device['cc_minor']}, "
        f"{device['sm_count']} SMs); template versions: "
        + ", ".join(f"{r} {v}" for r, v in versions.items()))
    conn = db.connect(opts.db_path)
    device_id = db.upsert_device(conn, device)
    conn.commit()
    run_id = db.start_run(conn, device_id, opts.routines, opts.precisions,
                          ",".join(f"{r}:{v}" for r, v in versions.items()), opts.note)
    try:
        rc, left = _tune(project, opts, conn, spaces, versions, device, device_id, run_id)
        # a run is finished when it leaves no task of its plan: one cut by its time budget (or
        # failing) stays unfinished, and emit keeps its device's tables of those routines out
        # while another device of the same compute capability has one (a tuning in progress
        # must not replace a complete table; README's tuning section)
        if left == 0:
            db.finish_run(conn, run_id)
        return rc
    finally:
        conn.close()


def _tune(project: Project, opts: TuneOptions, conn: Any, spaces: list[SearchSpace],
          versions: dict[str, str], device: dict[str, Any], device_id: int, run_id: int) -> tuple[int, int]:
    """(exit status, tasks of the plan left unmeasured)"""
    start = time.monotonic()
    deadline = start + opts.max_minutes * 60 if opts.max_minutes else None
    plan = Plan()
    for space in spaces:
        build_plan(space, opts.precisions, device, opts.limit_shapes, plan)
    measured: set[db.MeasuredKey] = set()
    stale: dict[db.MeasuredKey, set[str]] = {}
    before = db.now() if opts.remeasure_drivers == "now" else opts.remeasure_drivers
    before_vendor = (db.now() if opts.remeasure_strided_vendor == "now"
                     else opts.remeasure_strided_vendor)
    for space in spaces:
        measured |= db.measured_keys(conn, device_id, versions[space.routine.name],
                                     space.routine.name)
        if before and space.driver is not None:
            rows = db.stale_driver_rows(conn, device_id, space.routine.name,
                                        versions[space.routine.name], opts.precisions, before)
            log(f"{space.routine.name}: {len(rows)} driver, vendor or fastest-kernel task(s) at"
                f" driver shapes recorded before {before}"
                f" to be timed again (rerun with --remeasure-drivers {before} to resume)")
            stale.update(rows)
        if before_vendor:
            rows = db.stale_strided_vendor_rows(conn, device_id, space.routine.name,
                                                versions[space.routine.name], opts.precisions,
                                                before_vendor)
            log(f"{space.routine.name}: {len(rows)} strided vendor row(s) recorded before"
                f" {before_vendor} to be timed again (rerun with --remeasure-strided-vendor"
                f" {before_vendor} to resume)")
            stale.update(rows)
    # a stale row serves until its task is timed again (the Ingestor replaces it)
    measured -= stale.keys()
    n_pruned = _record_static_prunes(conn, plan, measured, run_id, device_id, versions)
    remaining = [t for t in plan.tasks if t.key not in measured]
    log(f"{len(plan.tasks)} tasks in {len(plan.modules)} modules; "
        f"{len(plan.tasks) - len(remaining)} already measured; {len(remaining)} to run; "
        f"{len(plan.pruned)} configurations statically pruned ({n_pruned} new records)")
    if not remaining:
        log("nothing to do")
        return 0, 0
    tasks_by_id = {t.id: t for t in plan.tasks}
    work = opts.work
    modules = _render_modules(project, plan, remaining, work / "src", versions)
    progress = Progress(len(remaining))
    fruitless = 0
    attempt = 0
    while remaining:
        if deadline is not None and time.monotonic() >= deadline:
            log(f"time budget reached with {len(remaining)} tasks left; rerun to resume")
            return 0, len(remaining)
        attempt += 1
        batch = job_batch(remaining, MODULES_PER_JOB)
        used = {plan.module_ids[t.module] for t in batch if t.module is not None}
        job = work / "job.txt"
        results = work / f"results.{attempt}.jsonl"
        results.unlink(missing_ok=True)
        write_job(job, job_text(0, _path_for_job(project.include_dir),
                                _path_for_job(work / "cubin"),
                                {mid: src for mid, src in modules.items() if mid in used},
                                batch, plan.module_ids))
        cmd = [opts.tuner, "--job", _path_for_job(job), "--out", _path_for_job(results)]
        if deadline is not None:
            cmd += ["--max-seconds", str(max(1, int(deadline - time.monotonic())))]
        ing = Ingestor(conn, tasks_by_id, run_id, device_id, versions, stale)
        try:
            rc = _run_tuner(cmd, results, ing, progress, deadline)
        except KeyboardInterrupt:
            ing.finish(None, results)
            progress.counts += ing.counts
            progress.show(Counter(), force=True)
            log("interrupted; what was measured is saved; rerun to resume")
            return 130, len([t for t in remaining if t.id not in ing.recorded])
        culprits = ing.finish(rc, results)
        progress.counts += ing.counts
        progress.show(Counter(), force=True)
        unfinished = [t for t in batch if t.id not in ing.recorded]
        remaining = [t for t in remaining if t.id not in ing.recorded]
        for tid in culprits:
            log(f"context lost while running task {tid} ({tasks_by_id[tid].kernel}); "
                "recorded as launch_failed")
        if rc == EXIT_OK:
            if unfinished:
                log(f"tuner exited 0 but {len(unfinished)} tasks have no result")
                return 1, len(remaining)
            fruitless = 0
            continue
        if rc == EXIT_TIME_BUDGET:
            log(f"time budget reached with {len(remaining)} tasks left; rerun to resume")
            return 0, len(remaining)
        fruitless = 0 if ing.recorded else fruitless + 1
        if rc != EXIT_CONTEXT_LOST and not ing.recorded:
            log(f"tuner failed (exit {rc}) without producing a result; giving up")
            return 1, len(remaining)
        if fruitless >= MAX_FRUITLESS_RESTARTS:
            log(f"tuner failed {fruitless} times in a row without a result; giving up")
            return 1, len(remaining)
        if remaining:
            log(f"tuner exited {rc}; restarting with {len(remaining)} remaining tasks")
    log("all tasks done; next: python -m generator emit")
    return 0, 0


def job_batch(tasks: Sequence[Task], max_modules: int) -> list[Task]:
    """The tasks of the first max_modules modules in task order (and the module-less vendor
    tasks among them): one tuner job, compiled and timed before the next one starts."""
    mods: set[str] = set()
    batch = []
    for t in tasks:
        if t.module is not None and t.module not in mods:
            if len(mods) == max_modules:
                continue
            mods.add(t.module)
        batch.append(t)
    return batch


def print_counts(project: Project, routines: Sequence[str], precisions: Sequence[str],
                 device: dict[str, Any], out: Any = None) -> dict[str, int]:
    """Task counts per precision for a device description: what a tuning run will cost."""
    out = out or sys.stdout
    totals: dict[str, int] = {}
    for r in routines:
        space = load_routine(project.search_space_dir, r)
        for p in precisions:
            plan = build_plan(space, [p], device)
            per_design = Counter(t.design for t in plan.tasks)
            live = Counter(c.design.name for c in plan.modules.values())
            pruned = Counter(x.candidate.design.name for x in plan.pruned)
            totals[f"{r}/{p}"] = len(plan.tasks)
            print(f"{r} {p}: {len(plan.tasks)} tasks, {len(plan.modules)} modules, "
                  f"{len(space.shapes())} shapes; by design: "
                  + ", ".join(f"{d} {n} tasks ({live[d]} configs, {pruned[d]} pruned)"
                              if d != "vendor" else f"vendor {n}"
                              for d, n in sorted(per_design.items())), file=out)
    return totals
