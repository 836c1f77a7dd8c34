"""Reading the tuner's results.jsonl into the database (internals.md §3).

The tuner writes `{"id":N,"status":"running"}` before each task and a final line after it. The
last status per id wins. A task still 'running' when the tuner lost the GPU context (exit 3) or
died is the culprit and is recorded as launch_failed, so that a restart skips it instead of
crashing on it again. One still 'running' at a clean stop (exit 0 or 4, or killed by us) is
simply not recorded and runs again on resume."""
from __future__ import annotations

import json
import math
import re
import sqlite3
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Mapping

from .db import STATUSES, MeasuredKey, Measurement, insert_measurement, now, replace_key
from .tasks import Task

EXIT_OK = 0
EXIT_CONTEXT_LOST = 3
EXIT_TIME_BUDGET = 4
CONTEXT_LOST = "context lost"


# C's printf spells non-finite numbers nan / inf / -nan, which JSON has no words for.
_NONFINITE = re.compile(r"(?<=[:,\[])\s*-?(?:nan|inf(?:inity)?)\s*(?=[,}\]])", re.IGNORECASE)


def parse_line(line: str) -> Any:
    try:
        return json.loads(line)
    except ValueError:
        return json.loads(_NONFINITE.sub("null", line))


def _num(v: Any) -> float | None:
    """A finite number or None: NULL in the database rather than a value SQL text can't hold."""
    if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v):
        return float(v)
    return None


def _int(v: Any) -> int | None:
    f = _num(v)
    return None if f is None else int(f)


class Ingestor:
    """Feeds result lines into the database as they arrive; call finish() once the tuner exited."""

    def __init__(self, conn: sqlite3.Connection, tasks: Mapping[int, Task], run_id: int,
                 device_id: int, template_version: Mapping[str, str] | str,
                 replaces: Mapping[MeasuredKey, set[str]] | None = None):
        self.conn = conn
        # Tasks timed again (tune --remeasure-drivers): key -> the versions holding the stale row,
        # which the new row replaces (db.stale_driver_rows).
        self.replaces = replaces or {}
        self.tasks = tasks
        self.run_id = run_id
        self.device_id = device_id
        # One version per routine (a run may tune several search spaces).
        self.versions = template_version
        self.running: set[int] = set()
        self.recorded: dict[int, str] = {}   # id -> status last recorded
        self.counts: Counter[str] = Counter()
        self._offset = 0
        self._partial = b""

    def _version(self, task: Task) -> str:
        v = self.versions
        return v if isinstance(v, str) else v[task.routine]

    def record(self, task: Task, status: str, res: Mapping[str, Any]) -> None:
        reason = str(res.get("reason") or "")
        if status not in STATUSES:
            reason = f"tuner reported unknown status {status!r}" + (f": {reason}" if reason else "")
            status = "launch_failed"
        median = _num(res.get("median_ms"))
        rate = task.batch / (median * 1e6) if median and median > 0 else None
        s = task.shape
        stale = self.replaces.get(task.key)
        if stale:
            replace_key(self.conn, self.device_id, task.key, stale - {self._version(task)})
        insert_measurement(self.conn, Measurement(
            run_id=self.run_id, device_id=self.device_id, routine=task.routine,
            precision=task.prec, mode=s.mode, variant=s.variant, m=s.m, n=s.n, k=s.k,
            batch=task.batch, design=task.design, config=task.config, kernel=task.kernel,
            template_version=self._version(task), status=status, reason=reason,
            median_ms=median, min_ms=_num(res.get("min_ms")),
            gflops=task.flops * rate if rate else None, gbs=task.bytes * rate if rate else None,
            error=_num(res.get("error")), regs=_int(res.get("regs")), smem=_int(res.get("smem")),
            resident_threads=_int(res.get("resident_threads")), created=now()))
        if task.id in self.recorded:
            self.counts[self.recorded[task.id]] -= 1
        self.recorded[task.id] = status
        self.counts[status] += 1

    def feed_line(self, line: str) -> None:
        line = line.strip()
        if not line:
            return
        try:
            res = parse_line(line)
            tid = int(res["id"])
            status = str(res["status"])
        except (ValueError, KeyError, TypeError):
            print(f"[ingest] ignoring malformed result line: {line[:200]}", file=sys.stderr)
            return
        task = self.tasks.get(tid)
        if task is None:
            print(f"[ingest] ignoring result for unknown task id {tid}", file=sys.stderr)
            return
        if status == "running":
            self.running.add(tid)
            return
        self.running.discard(tid)
        self.record(task, status, res)

    def feed_file(self, path: Path) -> int:
        """Ingest the complete lines appended since the last call; commit; return how many lines."""
        if not path.is_file():
            return 0
        with open(path, "rb") as f:
            f.seek(self._offset)
            data = f.read()
        self._offset += len(data)
        data = self._partial + data
        lines = data.split(b"\n")
        self._partial = lines.pop()         # an unfinished line waits for its newline
        for raw in lines:
            self.feed_line(raw.decode("utf-8", "replace"))
        self.conn.commit()
        return len(lines)

    def finish(self, exit_code: int | None, path: Path | None = None) -> list[int]:
        """After the tuner exited with `exit_code` (None: we stopped it ourselves). Returns the
        ids recorded as launch_failed because they were running when the context was lost."""
        if path is not None:
            self.feed_file(path)
        if self._partial.strip():
            # A line without its newline: the tuner died while writing it; use it if it parses.
            self.feed_line(self._partial.decode("utf-8", "replace"))
        self._partial = b""
        culprits: list[int] = []
        if exit_code is not None and exit_code not in (EXIT_OK, EXIT_TIME_BUDGET):
            for tid in sorted(self.running):
                self.record(self.tasks[tid], "launch_failed", {"reason": CONTEXT_LOST})
                culprits.append(tid)
        self.running.clear()
        self.conn.commit()
        return culprits


def ingest_file(conn: sqlite3.Connection, path: Path, tasks: Mapping[int, Task], run_id: int,
                device_id: int, template_version: Mapping[str, str] | str,
                exit_code: int | None) -> Ingestor:
    """Ingest a whole results file after the fact (the tuning driver streams instead)."""
    ing = Ingestor(conn, tasks, run_id, device_id, template_version)
    ing.finish(exit_code, path)
    return ing
