"""`python -m generator show`: what serves each tuned shape, and how it compares with the vendor.

One table per device (and template version): the overall winner, the vendor's rate beside it,
and shoal's best own kernel, which is what users get with vendor dispatch off. A summary line
per table counts the rows that did not make it (pruned, failed, wrong), so absences are
explained rather than silent."""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any, Sequence, TextIO

from .db import STATUSES, version_chain, winners_by_version

VENDOR_LABELS = {"cublas": "cuBLAS", "cusolver": "cuSOLVER"}


@dataclass
class ShowFilter:
    device: str | None = None          # substring of the device name
    routine: str | None = None
    precision: str | None = None
    variant: str | None = None
    mode: str | None = None
    # routine -> template version (shown with the measurements carried to it, tuned_db
    # carried_versions); None: every measured version on its own
    versions: dict[str, str] | None = None


class NotADatabase(Exception):
    """The file given to `show` is not a tuned database (or not readable as one)."""


_REQUIRED = ("devices", "measurements", "winners")


def open_tuned_db(path: str) -> sqlite3.Connection:
    """Open a tuned database read-only (show must never create or change one)."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        conn.row_factory = sqlite3.Row
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    except sqlite3.Error as e:
        raise NotADatabase(f"{path} is not a shoal tuned database ({e})") from None
    missing = [n for n in _REQUIRED if n not in names]
    if missing:
        conn.close()
        raise NotADatabase(f"{path} is not a shoal tuned database (no {', '.join(missing)}; "
                           "make it with `python -m generator load-db` or `make tune`)")
    return conn


def _filters(f: ShowFilter) -> dict[str, str]:
    """The filter's column values that are set: a WHERE clause for queries of measurements
    (_where), a test on the winners rows read once (show)."""
    return {col: val for col, val in (("routine", f.routine), ("precision", f.precision),
                                      ("variant", f.variant), ("mode", f.mode)) if val is not None}


def _where(f: ShowFilter, alias: str = "") -> tuple[str, list[Any]]:
    a = f"{alias}." if alias else ""
    conds = _filters(f)
    return (" AND ".join(f"{a}{col} = ?" for col in conds) or "1"), list(conds.values())


def _groups(conn: sqlite3.Connection, f: ShowFilter, device_id: int, where: str,
            args: list[Any]) -> list[tuple[str, str, list[str]]]:
    """(routine, version shown, versions whose measurements count for it) per table."""
    measured = conn.execute(
        f"SELECT DISTINCT routine, template_version FROM measurements WHERE device_id = ? "
        f"AND {where} ORDER BY routine, template_version", [device_id, *args]).fetchall()
    if f.versions is None:
        return [(r, v, [v]) for r, v in measured]
    have = {(r, v) for r, v in measured}
    out = []
    for routine, version in sorted(f.versions.items()):
        chain = version_chain(conn, routine, version)
        if any((routine, v) in have for v in chain):
            out.append((routine, version, chain))
    return out


def _fmt(x: float | None, spec: str = ".1f") -> str:
    return "-" if x is None else format(x, spec)


def _ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a is not None and b else None


def _table(rows: Sequence[Sequence[str]], out: TextIO) -> None:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    numeric = [all(_is_num(r[i]) for r in rows[1:]) for i in range(len(rows[0]))]
    for j, r in enumerate(rows):
        cells = [c.rjust(w) if numeric[i] else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))]
        print("  ".join(cells).rstrip(), file=out)
        if j == 0:
            print("  ".join("-" * w for w in widths), file=out)


def _is_num(s: str) -> bool:
    try:
        float(s.rstrip("x"))
        return True
    except ValueError:
        return s == "-"


def show(conn: sqlite3.Connection, f: ShowFilter, out: TextIO) -> int:
    """Print the tables; returns the number of tuned shapes shown."""
    devices = conn.execute("SELECT * FROM devices WHERE instr(lower(name), lower(?)) > 0 "
                           "ORDER BY name, cc_major, cc_minor, id", (f.device or "",)).fetchall()
    where, args = _where(f)
    # one query of the view for all tables (db.winners_by_version), filtered here
    winners = winners_by_version(conn, "winners" if f.versions is None else "carried_winners")
    keep = _filters(f)
    shown = 0
    for dev in devices:
        for routine, version, chain in _groups(conn, f, dev["id"], where, args):
            carried = f" (with {', '.join(chain[1:])} carried)" if len(chain) > 1 else ""
            print(f"== {dev['name']} (cc {dev['cc_major']}.{dev['cc_minor']}, {dev['sm_count']} SMs,"
                  f" CUDA runtime {dev['runtime_version'] or '?'}, cuBLAS "
                  f"{dev['cublas_version'] or '?'}) | {routine} | template version "
                  f"{version}{carried}", file=out)
            rows = [r for r in winners.get((routine, version), [])
                    if r["device_id"] == dev["id"] and all(r[c] == v for c, v in keep.items())]
            vendor = None
            if rows:
                vendor = next((r["vendor_kernel"] for r in rows if r["vendor_kernel"]), None)
            vlabel = VENDOR_LABELS.get(vendor or "cublas", vendor or "vendor")
            table = [["prec", "mode", "variant", "m", "n", "k", "batch", "winner kernel",
                      "winner Gflop/s", f"{vlabel} Gflop/s", "speedup", "best own kernel",
                      "own Gflop/s", f"own/{vlabel}"]]
            for r in rows:
                table.append([r["precision"], r["mode"], r["variant"], str(r["m"]), str(r["n"]),
                              str(r["k"]), str(r["batch"]), r["kernel"], _fmt(r["gflops"]),
                              _fmt(r["vendor_gflops"]), _fmt(r["speedup"], ".2f") + "x"
                              if r["speedup"] is not None else "-",
                              r["own_kernel"] or "-", _fmt(r["own_gflops"]),
                              _fmt(_ratio(r["vendor_ms"], r["own_ms"]), ".2f") + "x"
                              if _ratio(r["vendor_ms"], r["own_ms"]) is not None else "-"])
            if rows:
                _table(table, out)
            else:
                print("(no shape has an ok result)", file=out)
            shown += len(rows)
            counts = dict(conn.execute(
                f"SELECT status, count(*) FROM measurements WHERE device_id = ? AND routine = ? "
                f"AND template_version IN ({', '.join('?' for _ in chain)}) AND {where} "
                "GROUP BY status", [dev["id"], routine, *chain, *args]).fetchall())
            vendor_wins = sum(1 for r in rows if r["design"] == "vendor")
            print(f"shapes {len(rows)} (own kernel wins {len(rows) - vendor_wins}, vendor wins "
                  f"{vendor_wins}); measurements: "
                  + ", ".join(f"{s} {counts.get(s, 0)}" for s in STATUSES), file=out)
            print(file=out)
    if not shown:
        print("no tuned shapes match", file=out)
    return shown
