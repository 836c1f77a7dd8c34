"""The tuned database (tuned_db/schema.sql, internals.md §4): opening, text dumps, and the
writes the tuning driver makes. Reading for emission and display lives with those commands."""
from __future__ import annotations

import datetime as _dt
import gzip
import os
import socket
import sqlite3
import tempfile
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any, Iterable, Mapping

from .project import REPO_ROOT

SCHEMA_PATH = REPO_ROOT / "tuned_db" / "schema.sql"
STATUSES: tuple[str, ...] = ("pruned", "compile_failed", "launch_failed", "wrong", "ok")
DEVICE_INT_FIELDS: tuple[str, ...] = (
    "cc_major", "cc_minor", "sm_count", "max_threads_per_block", "max_threads_per_sm",
    "smem_per_block", "smem_per_block_optin", "smem_per_sm", "regs_per_block", "regs_per_sm",
    "l2_bytes", "mem_bytes",
)
DEVICE_VERSION_FIELDS: tuple[str, ...] = (
    "driver_version", "runtime_version", "nvrtc_version", "cublas_version")
DEVICE_FIELDS: tuple[str, ...] = ("name",) + DEVICE_INT_FIELDS + DEVICE_VERSION_FIELDS
# Statically pruned candidates have no shape: recorded under this mode with m = n = k = 0.
STATIC_MODE = "any"


def now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()


def create_schema(conn: sqlite3.Connection, schema: Path = SCHEMA_PATH) -> None:
    conn.executescript(schema.read_text())


def connect(path: str | Path, schema: Path = SCHEMA_PATH) -> sqlite3.Connection:
    """Open (creating if needed) a database; an empty file gets the schema."""
    conn = sqlite3.connect(str(path))
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys = ON")
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    # A database made before some table or view of the schema existed gets it added (every
    # statement of the schema is CREATE ... IF NOT EXISTS); rows already there stay as they are.
    if not {"measurements", "carried_versions", "carried_winners"} <= names:
        create_schema(conn, schema)
        conn.commit()
    return conn


def empty(schema: Path = SCHEMA_PATH) -> sqlite3.Connection:
    return connect(":memory:", schema)


def dump_text(conn: sqlite3.Connection) -> str:
    """SQL text of the whole database. iterdump orders tables by name and rows by rowid, so the
    same database always gives the same text (what keeps tuned_db/shoal.sql.gz diffable through
    `gzip -dc`)."""
    return "\n".join(conn.iterdump()) + "\n"


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# mkstemp creates files 0600; outputs are meant to be read like any other file of the checkout.
_FILE_MODE = 0o666 & ~_umask()


def write_if_changed(path: str | Path, text: str | bytes) -> bool:
    """Replace `path` atomically, and only if the bytes differ (keeps make from rebuilding)."""
    path = Path(path)
    data = text.encode() if isinstance(text, str) else text
    if path.is_file() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, _FILE_MODE)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
    return True


def _is_gzip(path: Path) -> bool:
    return path.suffix == ".gz"


def read_dump(sql_path: str | Path) -> str:
    """A dump's SQL text, from plain or gzip-compressed (`.gz`) form."""
    path = Path(sql_path)
    return gzip.decompress(path.read_bytes()).decode() if _is_gzip(path) else path.read_text()


def dump_sql(db_path: str | Path, sql_path: str | Path) -> bool:
    """Write the dump; a `.gz` path gets it gzip-compressed (the committed dump: the text form
    outgrew what a copy of the tree may carry). The compressed bytes carry no time stamp, and a
    file that already holds the same text is left alone, so an unchanged database never shows
    as a changed file, whatever zlib compressed it."""
    sql_path = Path(sql_path)
    conn = connect(db_path)
    try:
        text = dump_text(conn)
    finally:
        conn.close()
    if not _is_gzip(sql_path):
        return write_if_changed(sql_path, text)
    if sql_path.is_file() and read_dump(sql_path) == text:
        return False
    return write_if_changed(sql_path, gzip.compress(text.encode(), compresslevel=9, mtime=0))


def load_sql(sql_path: str | Path, db_path: str | Path, schema: Path = SCHEMA_PATH) -> None:
    """Rebuild `db_path` from a dump (or from the schema alone if there is no dump yet). Built
    beside the target and renamed over it, so a failed load leaves the old database intact."""
    sql_path, db_path = Path(sql_path), Path(db_path)
    db_path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=db_path.parent, prefix=f".{db_path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        conn = sqlite3.connect(tmp)
        try:
            if sql_path.is_file():
                conn.executescript(read_dump(sql_path))
            else:
                create_schema(conn, schema)
            conn.commit()
        finally:
            conn.close()
        os.chmod(tmp, _FILE_MODE)
        os.replace(tmp, db_path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


# -- writes of the tuning driver -----------------------------------------------------------------
def upsert_device(conn: sqlite3.Connection, info: Mapping[str, Any]) -> int:
    missing = [f for f in ("name",) + DEVICE_INT_FIELDS if info.get(f) is None]
    if missing:
        raise ValueError(f"device info lacks {', '.join(missing)}")
    row: dict[str, Any] = {"name": str(info["name"])}
    row.update({f: int(info[f]) for f in DEVICE_INT_FIELDS})
    row.update({f: "" if info.get(f) is None else str(info[f]) for f in DEVICE_VERSION_FIELDS})
    cols = ", ".join(DEVICE_FIELDS)
    marks = ", ".join(f":{f}" for f in DEVICE_FIELDS)
    # Limits may be refined by a newer tuner; the identity (the UNIQUE columns) stays.
    updates = ", ".join(f"{f} = excluded.{f}" for f in DEVICE_INT_FIELDS[2:] + ("driver_version",))
    conn.execute(
        f"INSERT INTO devices ({cols}) VALUES ({marks}) "
        "ON CONFLICT (name, cc_major, cc_minor, runtime_version, nvrtc_version, cublas_version) "
        f"DO UPDATE SET {updates}", row)
    return conn.execute(
        "SELECT id FROM devices WHERE name = :name AND cc_major = :cc_major AND cc_minor = :cc_minor"
        " AND runtime_version = :runtime_version AND nvrtc_version = :nvrtc_version"
        " AND cublas_version = :cublas_version", row).fetchone()[0]


def start_run(conn: sqlite3.Connection, device_id: int, routines: Iterable[str],
              precisions: Iterable[str], template_version: str, note: str = "") -> int:
    cur = conn.execute(
        "INSERT INTO runs (device_id, started, routines, precisions, template_version, host, note)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (device_id, now(), ",".join(routines), ",".join(precisions), template_version,
         socket.gethostname(), note))
    conn.commit()
    assert cur.lastrowid is not None
    return cur.lastrowid


def finish_run(conn: sqlite3.Connection, run_id: int) -> None:
    conn.execute("UPDATE runs SET finished = ? WHERE id = ?", (now(), run_id))
    conn.commit()


@dataclass
class Measurement:
    run_id: int
    device_id: int
    routine: str
    precision: str
    mode: str
    variant: str
    m: int
    n: int
    k: int
    batch: int
    design: str
    config: str
    kernel: str
    template_version: str
    status: str
    reason: str = ""
    median_ms: float | None = None
    min_ms: float | None = None
    gflops: float | None = None
    gbs: float | None = None
    error: float | None = None
    regs: int | None = None
    smem: int | None = None
    resident_threads: int | None = None
    created: str = ""


_MEAS_FIELDS = [f.name for f in fields(Measurement)]
_KEY = ("device_id", "template_version", "routine", "precision", "mode", "variant", "m", "n", "k",
        "kernel")


def insert_measurement(conn: sqlite3.Connection, meas: Measurement) -> None:
    """Insert, or replace the row with the same key: the newest result for a key wins."""
    if meas.status not in STATUSES:
        raise ValueError(f"status {meas.status!r} not one of {STATUSES}")
    row = asdict(meas)
    row["created"] = row["created"] or now()
    updates = ", ".join(f"{f} = excluded.{f}" for f in _MEAS_FIELDS if f not in _KEY)
    conn.execute(
        f"INSERT INTO measurements ({', '.join(_MEAS_FIELDS)}) "
        f"VALUES ({', '.join(':' + f for f in _MEAS_FIELDS)}) "
        f"ON CONFLICT ({', '.join(_KEY)}) DO UPDATE SET {updates}", row)


MeasuredKey = tuple[str, str, str, str, int, int, int, str]


# -- carried template versions (schema: carried_versions, carried_winners) -----------------------
def version_chain(conn: sqlite3.Connection, routine: str, version: str) -> list[str]:
    """The versions whose measurements serve `version` of `routine`: itself, then those carried
    to it directly or through a chain, nearest first (ties by name)."""
    hops = {version: 0}
    frontier = [version]
    while frontier:
        nxt = []
        for v in frontier:
            for (src,) in conn.execute("SELECT from_version FROM carried_versions WHERE routine = ?"
                                       " AND to_version = ? ORDER BY from_version", (routine, v)):
                if src not in hops:
                    hops[src] = hops[v] + 1
                    nxt.append(src)
        frontier = nxt
    return sorted(hops, key=lambda v: (hops[v], v))


def carry_version(conn: sqlite3.Connection, routine: str, from_version: str, to_version: str,
                  evidence: str) -> bool:
    """Records that from_version's measurements stand for to_version (the caller has shown that
    their kernels are the same). Refuses a carry that would close a cycle; returns False where
    the row exists already."""
    if from_version == to_version:
        raise ValueError(f"{routine}: carrying version {from_version} to itself")
    if to_version in version_chain(conn, routine, from_version):
        raise ValueError(f"{routine}: {to_version} already stands for {from_version}; carrying "
                         f"{from_version} to {to_version} would close a cycle")
    cur = conn.execute("INSERT INTO carried_versions (routine, from_version, to_version, evidence,"
                       " created) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                       (routine, from_version, to_version, evidence, now()))
    conn.commit()
    return cur.rowcount == 1


def winners_by_version(conn: sqlite3.Connection, view: str = "carried_winners"
                       ) -> dict[tuple[str, str], list[sqlite3.Row]]:
    """The rows of a winners view (`winners` or `carried_winners`) by (routine, template
    version), from one query: SQLite ranks the whole measurements table for every query of the
    view, filtered or not (a routine's filter is not pushed below its window functions): about
    10 s a query at 160 000 measurements, so one query per routine made emit, and with it every
    build, take minutes (and `show` 8 minutes at 170 000)."""
    if view not in ("winners", "carried_winners"):
        raise ValueError(f"no winners view {view!r}")
    out: dict[tuple[str, str], list[sqlite3.Row]] = {}
    for r in conn.execute(f"SELECT * FROM {view} ORDER BY routine, template_version, device_id,"
                          " precision, mode, variant, m, n, k"):
        out.setdefault((r["routine"], r["template_version"]), []).append(r)
    return out


def tuning_in_progress(conn: sqlite3.Connection, routine: str) -> set[int]:
    """Devices whose newest run over `routine` is unfinished: cut by its time budget, interrupted
    or failed with tasks of its plan left (tune.py finishes a run only when none is left)."""
    newest: dict[int, Any] = {}
    for dev, routines, finished in conn.execute(
            "SELECT device_id, routines, finished FROM runs ORDER BY started, id"):
        if routine in routines.split(","):
            newest[dev] = finished
    return {dev for dev, finished in newest.items() if finished is None}


def _in(values: list[str]) -> str:
    return "(" + ", ".join("?" for _ in values) + ")"


def measured_keys(conn: sqlite3.Connection, device_id: int, template_version: str,
                  routine: str) -> set[MeasuredKey]:
    """(routine, precision, mode, variant, m, n, k, kernel) already recorded under this version or
    one carried to it: every stored status is final, so a resumed run skips all of them."""
    chain = version_chain(conn, routine, template_version)
    rows = conn.execute(
        "SELECT routine, precision, mode, variant, m, n, k, kernel FROM measurements"
        f" WHERE device_id = ? AND routine = ? AND template_version IN {_in(chain)}",
        (device_id, routine, *chain))
    return {tuple(r) for r in rows}  # type: ignore[misc]


def stale_driver_rows(conn: sqlite3.Connection, device_id: int, routine: str,
                      template_version: str, precisions: Iterable[str],
                      before: str) -> dict[MeasuredKey, set[str]]:
    """The driver rows of one routine (this device, its version and the versions carried to it,
    these precisions) recorded before `before` (ISO 8601 UTC, as `created`), with the vendor rows
    and the fastest kernel row at the drivers' shapes recorded before it: key -> the versions
    that hold such a row.

    A driver is timed through the library the tuner was built with, so rows measured before the
    routine's retuned kernels were emitted describe other leaves; what it competes with at its
    shape is timed again with it, so that the winner is decided by times of one run: the vendor
    row (a row from an earlier run may have used another batch: the batch rule changed once for
    single precision) and the fastest of shoal's own kernels there (the tables picked SYRK s
    n = 128's driver, timed at 09:14, over a kernel timed at 06:20 on 2026-11-27, and the bench
    measured the driver 7% slower than that kernel). Should the re-timed kernel come out slower,
    the next fastest becomes the one compared; a rerun with the same `before` takes it in turn.
    Nothing is deleted here: a stale row keeps serving until its task is timed again (Ingestor
    replaces it), so a run cut short leaves every shape with a row, and a rerun with the same
    `before` resumes where it stopped."""
    precs = list(precisions)
    chain = version_chain(conn, routine, template_version)
    where = (f"device_id = ? AND routine = ? AND template_version IN {_in(chain)}"
             f" AND precision IN {_in(precs)}")
    args = (device_id, routine, *chain, *precs)
    at_driver = ("(precision, mode, variant, m, n, k) IN (SELECT precision, mode, variant, m, n,"
                 f" k FROM measurements WHERE {where} AND design = 'driver')")
    cols = "routine, precision, mode, variant, m, n, k, kernel, template_version"
    rows = conn.execute(
        f"SELECT {cols} FROM measurements WHERE {where} AND created < ? AND (design = 'driver' OR"
        f" (design = 'vendor' AND {at_driver}))"
        # the fastest ok kernel row of each driver shape, over the chain's versions
        f" UNION SELECT {cols} FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY precision, mode,"
        " variant, m, n, k ORDER BY median_ms, kernel) AS fastest FROM measurements"
        f" WHERE {where} AND status = 'ok' AND median_ms > 0"
        f" AND design NOT IN ('driver', 'vendor') AND {at_driver})"
        " WHERE fastest = 1 AND created < ?",
        (*args, before, *args, *args, *args, before))
    stale: dict[MeasuredKey, set[str]] = {}
    for r in rows:
        stale.setdefault(tuple(r[:8]), set()).add(r[8])  # type: ignore[arg-type]
    return stale


def stale_strided_vendor_rows(conn: sqlite3.Connection, device_id: int, routine: str,
                              template_version: str, precisions: Iterable[str],
                              before: str) -> dict[MeasuredKey, set[str]]:
    """The vendor rows of one routine's strided shapes (this device, its version and the versions
    carried to it, these precisions) recorded before `before`: key -> the versions that hold it.

    The factorizations' vendor takes pointer arrays only. Until 2026-11-28 the tuner timed its
    strided rows on pointer arrays made beforehand, and the library could not route a strided call
    to it; since, a strided call gets its arrays written by the library (a launch per chunk of
    problems, runtime/lapack_vendor_strided.c) and the tuner times that route, so rows from
    before describe a cheaper call than the one dispatch would make. Like stale_driver_rows, a
    stale row serves until its task is timed again, and a rerun with the same `before` resumes."""
    precs = list(precisions)
    chain = version_chain(conn, routine, template_version)
    rows = conn.execute(
        "SELECT routine, precision, mode, variant, m, n, k, kernel, template_version FROM measurements"
        f" WHERE device_id = ? AND routine = ? AND template_version IN {_in(chain)}"
        f" AND precision IN {_in(precs)} AND design = 'vendor' AND mode = 'strided' AND created < ?",
        (device_id, routine, *chain, *precs, before))
    stale: dict[MeasuredKey, set[str]] = {}
    for r in rows:
        stale.setdefault(tuple(r[:8]), set()).add(r[8])  # type: ignore[arg-type]
    return stale


def replace_key(conn: sqlite3.Connection, device_id: int, key: MeasuredKey,
                versions: Iterable[str]) -> None:
    """Deletes this device's rows of `key` under `versions`: a task timed again under the current
    version replaces what an older version of its chain held (both would compete for the winner)."""
    vs = list(versions)
    if vs:
        conn.execute("DELETE FROM measurements WHERE device_id = ? AND routine = ? AND precision = ?"
                     " AND mode = ? AND variant = ? AND m = ? AND n = ? AND k = ? AND kernel = ?"
                     f" AND template_version IN {_in(vs)}", (device_id, *key, *vs))


def prune_versions(conn: sqlite3.Connection, keep: Mapping[str, str]) -> int:
    """Deletes the measurements of template versions other than keep[routine] and those carried
    to it (they describe kernels the templates no longer produce; git history keeps the dumps
    that held them), then the runs left without measurements and the carries that no longer
    lead to a kept version. Returns the number of measurements deleted."""
    deleted = 0
    for routine, version in keep.items():
        chain = version_chain(conn, routine, version)
        cur = conn.execute("DELETE FROM measurements WHERE routine = ? AND template_version NOT IN "
                           f"{_in(chain)}", (routine, *chain))
        deleted += cur.rowcount
        conn.execute(f"DELETE FROM carried_versions WHERE routine = ? AND to_version NOT IN "
                     f"{_in(chain)}", (routine, *chain))
    conn.execute("DELETE FROM runs WHERE id NOT IN (SELECT DISTINCT run_id FROM measurements)")
    conn.commit()
    return deleted


def merge_from(conn: sqlite3.Connection, other_path: str | Path) -> int:
    """Copies the devices, runs and measurements of another tuned database into this one (tuning
    split over machines or sessions), and its carried versions. Ids are remapped; where both hold
    a measurement with the same key, this database's row stays. Returns the number of
    measurements added."""
    other = connect(other_path)
    try:
        other.row_factory = sqlite3.Row
        device_ids = {r["id"]: upsert_device(conn, dict(r)) for r in other.execute("SELECT * FROM devices")}
        run_ids: dict[int, int] = {}
        for r in other.execute("SELECT * FROM runs ORDER BY id"):
            cur = conn.execute(
                "INSERT INTO runs (device_id, started, finished, routines, precisions, template_version,"
                " host, note) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (device_ids[r["device_id"]], r["started"], r["finished"], r["routines"], r["precisions"],
                 r["template_version"], r["host"], r["note"]))
            assert cur.lastrowid is not None
            run_ids[r["id"]] = cur.lastrowid
        added = 0
        for r in other.execute("SELECT * FROM measurements ORDER BY id"):
            row = {f: r[f] for f in _MEAS_FIELDS}
            row["run_id"] = run_ids[r["run_id"]]
            row["device_id"] = device_ids[r["device_id"]]
            cur = conn.execute(
                f"INSERT INTO measurements ({', '.join(_MEAS_FIELDS)}) "
                f"VALUES ({', '.join(':' + f for f in _MEAS_FIELDS)}) "
                f"ON CONFLICT ({', '.join(_KEY)}) DO NOTHING", row)
            added += cur.rowcount
        for r in other.execute("SELECT * FROM carried_versions ORDER BY routine, from_version, to_version"):
            conn.execute("INSERT INTO carried_versions (routine, from_version, to_version, evidence,"
                         " created) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING", tuple(r))
        conn.execute("DELETE FROM runs WHERE id NOT IN (SELECT DISTINCT run_id FROM measurements)")
        conn.commit()
        return added
    finally:
        other.close()
