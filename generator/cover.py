"""The relaxed fold (issue 26): generator/fold.py only folds into kernels the tables keep anyway,
but often one kernel that no rule chose was measured within the tolerance at many shapes, each
with a different winner, and shipping it alone serves them all. This is a set cover per routine:
the elements are the rule slots (a rule's dispatched and own kernel), a kernel covers a slot
where it was measured 'ok' at the slot's exact shape in at most (1 + tol) times the tuner's
choice there (and, for a dispatched slot, faster than the vendor), as in fold.alternatives; the
tuned kernel always covers its own slot.

Greedy and deterministic: kernels shipped anyway (portable defaults, driver entries) come first;
then repeatedly the kernel covering the most still-uncovered slots (ties: the one tuned for most
of them, so no tuned kernel is swapped for an equal one; then by name). Greedy covers can hold
kernels that later picks made redundant: those go as in fold.fold (fewest slots first, ties by
name). Each slot finally takes its tuned kernel if kept, else the fastest kept cover (ties by
name). The bound is taken from the tuned kernel only, so nothing chains past it. Greedy is no
optimum in general (on the shipped database it matched an integer program's for every routine):
where fold.fold ships no more kernels, its result stands."""
from __future__ import annotations

from typing import Callable, Iterable

from . import fold
from .fold import FoldResult, Site, Timings, alternatives, replacements

Slot = tuple[int, int]


def cover(sites: list[Site], timings: Timings, tol: float, fixed: Iterable[str] = (),
          unfoldable: Iterable[str] = (),
          shippable: Callable[[str], bool] = lambda name: True) -> FoldResult:
    """Rewrites the sites' kernels in place, like fold.fold. `fixed` (portable defaults) and
    `unfoldable` (driver entries) are kept and may be targets; a kernel no rule chose is a target
    only where `shippable` says the emitter can build it. tol <= 0 changes nothing."""
    res = FoldResult()
    if tol <= 0:
        return res
    original = [list(s.kernels) for s in sites]
    tuned = _shipped(sites)
    free = set(fixed) | set(unfoldable)
    # per slot: its tuned kernel first, then the others fastest first; a slot whose tuned kernel
    # is free stays as it is and needs no cover
    covers: dict[Slot, list[str]] = {}
    alt = alternatives(sites, timings, tol)
    for i, s in enumerate(sites):
        for slot, x in enumerate(s.kernels):
            if x is not None and x not in free:
                covers[(i, slot)] = [x] + [y for y in alt.get((i, slot), ())
                                           if y in tuned or y in free or shippable(y)]
    kept = set(free)
    _greedy(covers, kept)
    _drop_redundant(covers, kept, free)
    folded = [Site(s.key, list(s.kernels)) for s in sites]
    plain = fold.fold(folded, timings, tol, fixed, unfoldable)
    if len(_shipped(folded) - free) <= len(kept - free):
        for s, f in zip(sites, folded):
            s.kernels[:] = f.kernels
        return plain
    for (i, slot), c in covers.items():
        sites[i].kernels[slot] = next(y for y in c if y in kept)
    final = _shipped(sites)
    res.removed = sorted(tuned - final)
    res.added = sorted(final - tuned)
    res.folds = replacements(sites, original, timings)
    return res


def _shipped(sites: list[Site]) -> set[str]:
    return {x for s in sites for x in s.kernels if x is not None}


def _greedy(covers: dict[Slot, list[str]], kept: set[str]) -> None:
    """Adds kernels to `kept` until every slot has a cover in it."""
    count: dict[str, int] = {}       # uncovered slots each kernel covers
    own: dict[str, int] = {}         # ... of which it is the tuned kernel
    by_kernel: dict[str, list[Slot]] = {}
    open_slots = {s for s, c in covers.items() if not kept.intersection(c)}
    for s in sorted(open_slots):
        c = covers[s]
        own[c[0]] = own.get(c[0], 0) + 1
        for y in c:
            count[y] = count.get(y, 0) + 1
            by_kernel.setdefault(y, []).append(s)
    while open_slots:
        y = min(count, key=lambda y: (-count[y], -own.get(y, 0), y))
        kept.add(y)
        for s in by_kernel[y]:
            if s in open_slots:
                open_slots.discard(s)
                c = covers[s]
                own[c[0]] -= 1
                for z in c:
                    count[z] -= 1
        del count[y]


def _drop_redundant(covers: dict[Slot, list[str]], kept: set[str], free: set[str]) -> None:
    """Removes kept kernels whose slots all have another kept cover, the one serving the fewest
    slots first (ties by name), until none can go."""
    while True:
        serving: dict[str, list[Slot]] = {}
        for s, c in covers.items():
            serving.setdefault(next(y for y in c if y in kept), []).append(s)
        for y in sorted(kept - free, key=lambda y: (len(serving.get(y, ())), y)):
            if all(any(z in kept and z != y for z in covers[s]) for s in serving.get(y, ())):
                kept.discard(y)
                break
        else:
            return
