"""The tuning driver against fixtures/fake_tuner.py: job file, streaming ingest, restart after a
lost context, a stop on the time budget, and resume."""
from pathlib import Path

import pytest

from generator import db
from generator.tasks import build_plan
from generator.tune import TuneOptions, tune


@pytest.fixture
def opts(tmp_path, fake_tuner, monkeypatch):
    log = tmp_path / "tuner.log"
    monkeypatch.setenv("FAKE_TUNER_LOG", str(log))
    return TuneOptions(db_path=tmp_path / "t.sqlite", tuner=fake_tuner, work=tmp_path / "work",
                       routines=["gemm"], precisions=["d"], limit_shapes=2)


def _invocations(tmp_path: Path) -> list[str]:
    return (tmp_path / "tuner.log").read_text().splitlines()


def _statuses(path):
    c = db.connect(path)
    try:
        return {tuple(r[:8]): r[8] for r in c.execute(
            "SELECT routine, precision, mode, variant, m, n, k, kernel, status FROM measurements")}
    finally:
        c.close()


def test_full_run_then_resume_does_nothing(tmp_path, opts, project, space, device, capsys):
    assert tune(project, opts) == 0
    plan = build_plan(space, ["d"], device, shape_limit=2)
    st = _statuses(opts.db_path)
    assert {t.key for t in plan.tasks} <= set(st)
    assert all(st[t.key] == "ok" for t in plan.tasks)   # fake tuner found each kernel in its module
    pruned = [k for k, s in st.items() if s == "pruned"]
    assert len(pruned) == 4 * len(plan.pruned) and all(k[2] == "any" and k[4] == 0 for k in pruned)
    job = (opts.work / "job.txt").read_text().splitlines()
    assert job[0] == "device 0" and job[1].startswith("include_dir ")
    assert job[1].endswith("runtime") and job[2].startswith("cubin_dir ")
    assert sum(line.startswith("task ") for line in job) == len(plan.tasks)
    assert sum(line.startswith("module ") for line in job) == len(plan.modules)
    out = capsys.readouterr().out
    assert "[tune]" in out and "all tasks done" in out
    c = db.connect(opts.db_path)
    run = c.execute("SELECT * FROM runs").fetchone()
    assert run["finished"] is not None and run["template_version"].startswith("gemm:")
    c.close()
    # resume: everything is measured, so the tuner is only asked for the device
    n = len(_invocations(tmp_path))
    assert tune(project, opts) == 0
    assert _invocations(tmp_path)[n:] == ["--device-info"]
    assert "nothing to do" in capsys.readouterr().out


def test_lost_context_restarts_without_the_culprit(tmp_path, opts, project, space, device,
                                                   monkeypatch):
    plan = build_plan(space, ["d"], device, shape_limit=2)
    culprit = next(t for t in plan.tasks if t.design == "staged" and t.shape.mode == "array")
    monkeypatch.setenv("FAKE_TUNER_CRASH", culprit.kernel)
    assert tune(project, opts) == 0
    st = _statuses(opts.db_path)
    crashed = {k for k, s in st.items() if s == "launch_failed"}
    same_kernel = {t.key for t in plan.tasks if t.kernel == culprit.kernel}
    assert culprit.key in crashed and crashed == same_kernel
    assert all(st[t.key] == "ok" for t in plan.tasks if t.key not in crashed)
    runs = [a for a in _invocations(tmp_path) if a.startswith("--job")]
    assert len(runs) == len(same_kernel) + 1
    c = db.connect(opts.db_path)
    assert {r[0] for r in c.execute("SELECT reason FROM measurements WHERE status = "
                                    "'launch_failed'")} == {"context lost"}


def test_time_budget_stop_then_resume(tmp_path, opts, project, space, device, monkeypatch):
    monkeypatch.setenv("FAKE_TUNER_STOP_AFTER", "5")
    opts.max_minutes = 30
    assert tune(project, opts) == 0
    first = _invocations(tmp_path)
    assert any("--max-seconds" in a for a in first)
    st = _statuses(opts.db_path)
    assert sum(s == "ok" for s in st.values()) == 5
    # a run cut by its budget stays unfinished: emit keeps such a tuning from replacing another
    # device's complete table (db.tuning_in_progress)
    c = db.connect(opts.db_path)
    assert c.execute("SELECT finished FROM runs").fetchone()[0] is None
    dev = c.execute("SELECT device_id FROM runs").fetchone()[0]
    assert db.tuning_in_progress(c, "gemm") == {dev} and db.tuning_in_progress(c, "syrk") == set()
    c.close()
    monkeypatch.delenv("FAKE_TUNER_STOP_AFTER")
    assert tune(project, opts) == 0
    c = db.connect(opts.db_path)
    assert c.execute("SELECT finished FROM runs ORDER BY id DESC").fetchone()[0] is not None
    assert db.tuning_in_progress(c, "gemm") == set()   # the newest run decides
    c.close()
    plan = build_plan(space, ["d"], device, shape_limit=2)
    job_ids = [int(line.split()[1][3:]) for line in (opts.work / "job.txt").read_text().splitlines()
               if line.startswith("task ")]
    assert len(job_ids) == len(plan.tasks) - 5             # only what was missing
    st = _statuses(opts.db_path)
    assert all(st[t.key] == "ok" for t in plan.tasks)


def test_broken_tuner_gives_up(tmp_path, opts, project):
    bad = tmp_path / "bad_tuner"
    bad.write_text(f'#!/bin/sh\nif [ "$1" = --device-info ]; then exec "{opts.tuner}" "$@"; fi\n'
                   "exit 1\n")
    bad.chmod(0o755)
    opts.tuner = str(bad)
    assert tune(project, opts) == 1


def test_remeasure_drivers_keeps_every_row_and_resumes(tmp_path, fake_tuner, monkeypatch):
    """tune --remeasure-drivers BEFORE on a routine with a driver (TRSM, real search space): a run
    cut after 3 tasks leaves every shape its driver and vendor rows (3 of them new), and a rerun
    with the same BEFORE times only the rest, then nothing."""
    from generator.project import default_project, template_version
    from generator.search_space import load_routine
    monkeypatch.setenv("FAKE_TUNER_LOG", str(tmp_path / "tuner.log"))
    project = default_project()
    opts = TuneOptions(db_path=tmp_path / "t.sqlite", tuner=fake_tuner, work=tmp_path / "work",
                       routines=["trsm"], precisions=["d"], limit_shapes=6)
    assert tune(project, opts) == 0
    c = db.connect(opts.db_path)
    c.execute("UPDATE measurements SET created = '2000-01-01T00:00:00+00:00'")
    c.commit()
    version = template_version(project, load_routine(project.search_space_dir, "trsm"))
    dev = c.execute("SELECT id FROM devices").fetchone()[0]
    before = "2020-01-01T00:00:00+00:00"
    stale = db.stale_driver_rows(c, dev, "trsm", version, ["d"], before)
    drivers = c.execute("SELECT count(*) FROM measurements WHERE design = 'driver'").fetchone()[0]
    assert drivers > 0 and len(stale) > drivers     # the vendor rows at the drivers' shapes too
    total = c.execute("SELECT count(*) FROM measurements").fetchone()[0]

    def fresh() -> int:
        return c.execute("SELECT count(*) FROM measurements WHERE created > ?", (before,)).fetchone()[0]

    monkeypatch.setenv("FAKE_TUNER_STOP_AFTER", "3")
    opts.remeasure_drivers, opts.max_minutes = before, 30
    assert tune(project, opts) == 0
    assert c.execute("SELECT count(*) FROM measurements").fetchone()[0] == total
    assert fresh() == 3
    monkeypatch.delenv("FAKE_TUNER_STOP_AFTER")
    assert tune(project, opts) == 0
    assert c.execute("SELECT count(*) FROM measurements").fetchone()[0] == total
    assert fresh() == len(stale)
    assert db.stale_driver_rows(c, dev, "trsm", version, ["d"], before) == {}
    n = len(_invocations(tmp_path))
    assert tune(project, opts) == 0
    assert _invocations(tmp_path)[n:] == ["--device-info"]
    c.close()


def test_jobs_of_a_few_modules_each_cover_every_task(tmp_path, opts, project, space, device,
                                                     monkeypatch):
    """A search space larger than one job is tuned in jobs of MODULES_PER_JOB modules (each
    compiled, then timed and recorded), one after another, until every task has its row."""
    from generator import tune as tune_mod
    monkeypatch.setattr(tune_mod, "MODULES_PER_JOB", 3)
    assert tune(project, opts) == 0
    plan = build_plan(space, ["d"], device, shape_limit=2)
    st = _statuses(opts.db_path)
    assert all(st[t.key] == "ok" for t in plan.tasks)
    jobs = [line for line in _invocations(tmp_path) if line.startswith("--job")]
    assert len(jobs) >= -(-len(plan.modules) // 3)
    last = (opts.work / "job.txt").read_text().splitlines()
    assert 1 <= sum(line.startswith("module ") for line in last) <= 3


def test_job_batch_takes_the_first_modules_and_their_tasks(space, device):
    from generator.tune import job_batch
    plan = build_plan(space, ["d"], device, shape_limit=2)
    batch = job_batch(plan.tasks, 2)
    mods = {t.module for t in batch if t.module is not None}
    assert len(mods) == 2
    assert [t for t in plan.tasks if t.module is None or t.module in mods] == batch
