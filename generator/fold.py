"""Folding near-tied kernels at emit time (issue 26): the compile time of the library grows with the
number of distinct kernels, and many tuned shapes have several kernels within a few percent of the
winner. A rule's kernel X may be replaced by a kernel Y that the tables keep anyway, where Y was
measured 'ok' at that exact shape within the tolerance of the tuned choice (and, for the
dispatched choice, still faster than the vendor there). Greedy and deterministic: repeatedly the
removable kernel serving the fewest rules (ties by name) goes, until none can.

The tolerance is measured against the kernel the tuner chose for that rule, never against an
earlier fold's target, so chained folds cannot drift beyond it. generator/cover.py relaxes the
targets to any kernel measured at the shape, winner or not (a set cover); this module keeps what
both share."""
from __future__ import annotations

import sqlite3
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from .tasks import VENDOR_DESIGN

# (device_id, precision, mode, variant, m, n, k): one tuned shape as the tuner measured it
Key = tuple[int, str, str, str, int, int, int]
BEST, OWN = 0, 1


@dataclass
class Site:
    """One dispatch rule: its measured shape and its kernels ([best, own]; None: the vendor, or no
    own kernel). fold() rewrites `kernels` in place."""
    key: Key
    kernels: list[str | None]


@dataclass(frozen=True)
class Timings:
    """'ok' median times per shape: shoal's kernels by name, and the fastest vendor row; and per
    kernel its (design, config) as recorded, so a kernel no rule chose can still be emitted."""
    kernels: Mapping[Key, Mapping[str, float]]
    vendor: Mapping[Key, float]
    configs: Mapping[str, tuple[str, str]] = field(default_factory=dict)


@dataclass(frozen=True)
class Fold:
    site: int
    slot: int
    original: str
    target: str
    ratio: float            # target's time / original's time at the site's shape


@dataclass
class FoldResult:
    removed: list[str] = field(default_factory=list)      # in the order they went
    added: list[str] = field(default_factory=list)        # targets no rule chose (cover only)
    folds: list[Fold] = field(default_factory=list)       # final replacements, by site and slot

    def worst(self) -> Fold | None:
        return max(self.folds, key=lambda f: (f.ratio, -f.site, -f.slot), default=None)


def load_timings(conn: sqlite3.Connection, routine: str, chain: list[str],
                 keys: Iterable[Key]) -> Timings:
    """The measurements that carried_winners ranks, at `keys`: per (shape, kernel) the row of the
    nearest version of `chain` counts, whatever its status (as in the view), then only 'ok' rows
    with a positive median stay."""
    wanted = set(keys)
    devices = sorted({k[0] for k in wanted})
    if not wanted or not chain:
        return Timings({}, {})
    rank = {v: i for i, v in enumerate(chain)}
    nearest: dict[tuple[Key, str], tuple[int, str, str, str, float | None]] = {}
    q = (f"SELECT device_id, precision, mode, variant, m, n, k, kernel, design, config, "
         f"template_version, status, median_ms FROM measurements WHERE routine = ? "
         f"AND device_id IN ({', '.join('?' for _ in devices)}) "
         f"AND template_version IN ({', '.join('?' for _ in chain)})")
    for row in conn.execute(q, (routine, *devices, *chain)):
        key: Key = tuple(row[:7])  # type: ignore[assignment]
        if key not in wanted:
            continue
        kernel, design, config, ver, status, ms = row[7:]
        prev = nearest.get((key, kernel))
        if prev is None or rank[ver] < prev[0]:
            nearest[(key, kernel)] = (rank[ver], design, config, status, ms)
    kernels: dict[Key, dict[str, float]] = defaultdict(dict)
    vendor: dict[Key, float] = {}
    configs: dict[str, tuple[str, str]] = {}
    for (key, kernel), (_, design, config, status, ms) in sorted(nearest.items()):
        if status != "ok" or ms is None or ms <= 0:
            continue
        if design == VENDOR_DESIGN:
            vendor[key] = min(ms, vendor.get(key, ms))
        else:
            kernels[key][kernel] = ms
            configs.setdefault(kernel, (design, config))
    return Timings(dict(kernels), vendor, configs)


def alternatives(sites: list[Site], timings: Timings, tol: float
                 ) -> dict[tuple[int, int], list[str]]:
    """Per (site, slot): every kernel that may stand for the tuned one there, fastest first (ties
    by name). Computed once from the tuned choices, so the bound never moves."""
    out: dict[tuple[int, int], list[str]] = {}
    for i, s in enumerate(sites):
        times = timings.kernels.get(s.key, {})
        vendor = timings.vendor.get(s.key)
        for slot, x in enumerate(s.kernels):
            if x is None or x not in times:
                continue
            limit = (1.0 + tol) * times[x]
            ok = [(t, y) for y, t in times.items() if y != x and t <= limit
                  and (slot != BEST or vendor is None or t < vendor)]
            out[(i, slot)] = [y for _, y in sorted(ok)]
    return out


def fold(sites: list[Site], timings: Timings, tol: float, fixed: Iterable[str] = (),
         unfoldable: Iterable[str] = ()) -> FoldResult:
    """Shrinks the set of kernels the sites use. `fixed` kernels (the portable defaults) are always
    kept and may be targets; `unfoldable` ones (driver entries, which cost no compile) are never
    removed but may be targets too. tol <= 0 changes nothing."""
    res = FoldResult()
    if tol <= 0:
        return res
    original = [list(s.kernels) for s in sites]
    options = alternatives(sites, timings, tol)
    uses: dict[str, set[tuple[int, int]]] = defaultdict(set)
    for i, s in enumerate(sites):
        for slot, x in enumerate(s.kernels):
            if x is not None:
                uses[x].add((i, slot))
    kept = set(uses) | set(fixed)
    never = set(fixed) | set(unfoldable)

    def plan(x: str) -> dict[tuple[int, int], str] | None:
        out = {}
        for site_slot in sorted(uses[x]):
            y = next((y for y in options.get(site_slot, ()) if y in kept and y != x), None)
            if y is None:
                return None
            out[site_slot] = y
        return out

    while True:
        best: tuple[int, str, dict[tuple[int, int], str]] | None = None
        for x in sorted(kept - never):
            n_rules = len({i for i, _ in uses[x]})
            if best is not None and (n_rules, x) >= best[:2]:
                continue
            p = plan(x)
            if p is not None:
                best = (n_rules, x, p)
        if best is None:
            break
        _, x, p = best
        for (i, slot), y in p.items():
            sites[i].kernels[slot] = y
            uses[y].add((i, slot))
        del uses[x]
        kept.discard(x)
        res.removed.append(x)
    res.folds = replacements(sites, original, timings)
    return res


def replacements(sites: list[Site], original: list[list[str | None]],
                 timings: Timings) -> list[Fold]:
    """The slots whose kernel differs from `original`, by site and slot."""
    out = []
    for i, s in enumerate(sites):
        for slot, (x, y) in enumerate(zip(original[i], s.kernels)):
            if x != y:
                assert x is not None and y is not None
                t = timings.kernels[s.key]
                out.append(Fold(i, slot, x, y, t[y] / t[x]))
    return out
