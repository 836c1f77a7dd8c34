import json

import pytest

from generator import db
from generator.ingest import CONTEXT_LOST, Ingestor, ingest_file
from generator.tasks import build_plan

V = "feedfacefeedface"


@pytest.fixture
def setup(conn, space, device):
    plan = build_plan(space, ["d"], device, shape_limit=1)
    dev = db.upsert_device(conn, device)
    run = db.start_run(conn, dev, ["gemm"], ["d"], V)
    return plan, {t.id: t for t in plan.tasks}, dev, run


def _write(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records))


def _ok(tid, ms):
    return {"id": tid, "status": "ok", "reason": "", "median_ms": ms, "min_ms": ms, "error": 0.5,
            "regs": 32, "smem": 0, "resident_threads": 2048}


def _rows(conn):
    return {r["kernel"]: r for r in conn.execute("SELECT * FROM measurements")}


def test_running_tail_after_context_loss_is_launch_failed(tmp_path, conn, setup):
    plan, tasks, dev, run = setup
    t0, t1, t2 = plan.tasks[:3]
    path = tmp_path / "results.jsonl"
    _write(path, [{"id": t0.id, "status": "running"}, _ok(t0.id, 0.5),
                  {"id": t1.id, "status": "running"},
                  {"id": t1.id, "status": "wrong", "reason": "", "median_ms": 0, "error": 1e9},
                  {"id": t2.id, "status": "running"}])
    ing = ingest_file(conn, path, tasks, run, dev, V, exit_code=3)
    rows = _rows(conn)
    assert rows[t0.kernel]["status"] == "ok"
    assert rows[t1.kernel]["status"] == "wrong" and rows[t1.kernel]["gflops"] is None
    assert rows[t2.kernel]["status"] == "launch_failed"
    assert rows[t2.kernel]["reason"] == CONTEXT_LOST
    assert set(ing.recorded) == {t0.id, t1.id, t2.id}


def test_gflops_and_gbs(tmp_path, conn, setup):
    plan, tasks, dev, run = setup
    t = plan.tasks[0]
    path = tmp_path / "r.jsonl"
    _write(path, [_ok(t.id, 0.25)])
    ingest_file(conn, path, tasks, run, dev, V, exit_code=0)
    r = _rows(conn)[t.kernel]
    m, n, k = t.shape.dims
    assert r["gflops"] == pytest.approx(2 * m * n * k * t.batch / (0.25 * 1e6))
    assert r["gbs"] == pytest.approx((m * k + k * n + m * n) * 8 * t.batch / (0.25 * 1e6))
    assert (r["batch"], r["variant"], r["mode"], r["template_version"]) == \
        (t.batch, t.shape.variant, t.shape.mode, V)


@pytest.mark.parametrize("rc", [0, 4, None])
def test_running_tail_after_clean_stop_is_not_recorded(tmp_path, conn, setup, rc):
    plan, tasks, dev, run = setup
    t0, t1 = plan.tasks[:2]
    path = tmp_path / "r.jsonl"
    _write(path, [_ok(t0.id, 1.0), {"id": t1.id, "status": "running"}])
    ingest_file(conn, path, tasks, run, dev, V, exit_code=rc)
    assert set(_rows(conn)) == {t0.kernel}


@pytest.mark.parametrize("rc", [-11, 1])
def test_died_tuner_blames_running_task(tmp_path, conn, setup, rc):
    plan, tasks, dev, run = setup
    t0 = plan.tasks[0]
    path = tmp_path / "r.jsonl"
    _write(path, [{"id": t0.id, "status": "running"}])
    ingest_file(conn, path, tasks, run, dev, V, exit_code=rc)
    assert _rows(conn)[t0.kernel]["status"] == "launch_failed"


def test_last_status_wins_and_garbage_is_skipped(tmp_path, conn, setup, capsys):
    plan, tasks, dev, run = setup
    t0 = plan.tasks[0]
    path = tmp_path / "r.jsonl"
    path.write_text(
        json.dumps({"id": t0.id, "status": "launch_failed", "reason": "x"}) + "\n"
        + "not json\n" + json.dumps({"id": 999999, "status": "ok"}) + "\n"
        + json.dumps(_ok(t0.id, 2.0)) + "\n"
        # C printf spells non-finite numbers nan/inf; a crash may cut the last line short
        + '{"id":%d,"status":"wrong","reason":"","median_ms":0,"min_ms":0,"error":nan,"regs":1,'
          '"smem":0,"resident_threads":-inf}\n' % plan.tasks[1].id
        + '{"id":%d,"stat' % plan.tasks[2].id)
    ingest_file(conn, path, tasks, run, dev, V, exit_code=3)
    rows = _rows(conn)
    assert rows[t0.kernel]["status"] == "ok" and rows[t0.kernel]["median_ms"] == 2.0
    assert rows[plan.tasks[1].kernel]["status"] == "wrong"
    assert rows[plan.tasks[1].kernel]["error"] is None
    assert plan.tasks[2].kernel not in rows
    err = capsys.readouterr().err
    assert "malformed" in err and "unknown task id 999999" in err


def test_streaming_ingest_waits_for_complete_lines(tmp_path, conn, setup):
    plan, tasks, dev, run = setup
    t0 = plan.tasks[0]
    path = tmp_path / "r.jsonl"
    ing = Ingestor(conn, tasks, run, dev, {"gemm": V})
    line = json.dumps(_ok(t0.id, 1.0)) + "\n"
    path.write_text(line[:10])
    ing.feed_file(path)
    assert not ing.recorded
    with open(path, "a") as f:
        f.write(line[10:])
    ing.feed_file(path)
    assert set(ing.recorded) == {t0.id}
    # committed: another connection to the same database would see it
    assert conn.in_transaction is False


def test_a_task_timed_again_replaces_the_row_of_an_older_version(tmp_path, conn, setup, add):
    """tune --remeasure-drivers: the stale row (here under a version carried to V) stays until its
    task is timed again, then the new row under V takes its place instead of competing with it."""
    plan, tasks, dev, run = setup
    t0, t1 = plan.tasks[:2]
    s = t0.shape
    for t in (t0, t1):
        add(conn, run, dev, "prev", kernel=t.kernel, design=t.design, ms=9.0, mode=s.mode,
            variant=s.variant, m=t.shape.m, n=t.shape.n, k=t.shape.k)
    path = tmp_path / "r.jsonl"
    _write(path, [_ok(t0.id, 1.0)])
    ing = Ingestor(conn, tasks, run, dev, {"gemm": V}, {t0.key: {"prev"}, t1.key: {"prev"}})
    ing.feed_file(path)
    rows = [(r["kernel"], r["template_version"], r["median_ms"]) for r in
            conn.execute("SELECT * FROM measurements ORDER BY kernel, template_version")]
    assert sorted(rows) == sorted([(t0.kernel, V, 1.0), (t1.kernel, "prev", 9.0)])
