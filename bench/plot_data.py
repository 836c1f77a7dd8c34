"""What the benchmark plots show, from the rows of a benchmark CSV: no matplotlib needed.

A CSV (bench/md_tables.py reads it) becomes one Family per routine family, each a list of panels
(small multiples over precision and variant or form), each panel a list of series of (n, Gflop/s)
points. Series roles: "shoal" (as dispatched; a point may be served by the vendor), "own"
(shoal's kernels alone, vendor dispatch off), "peer" (cuBLAS, cuSOLVER, OpenBLAS on the CPU...),
"roof" (Gflop/s at the run's copy bandwidth, capped by the compute peak where the bench caps it).

Families (the PNG <csv stem>-<family>.png each):
  gemm      GEMM, square NN, strided and pointer arrays    (bench/run_bench.py)
  lu        getrf, getri, inverse; getrs, gesv if present   (bench/run_lapack_bench.py)
  cholesky  potrf (lower and upper); potrs, posv if present
  qr        geqrf
  gemv      square packed GEMV, op N and T                   (bench/run_blas2_bench.py)
  trsv      TRSV, every uplo/trans
  vbatched  gemv_vbatched, gemm_vbatched by size distribution
  trsm      TRSM, left and right                             (bench/run_spec_bench.py, and the
  syrk      SYRK, A A^T and A^T A                             tuner's trsm-syrk export)
  herk      HERK, A A^H and A^H A
gemv_misaligned (an alignment study, not a routine) and rectangular GEMM/GEMV shapes are left to
the tables.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import plot_served
from md_tables import rhs_class, rhs_classes
from plot_served import is_vendor

Row = dict[str, str]


@dataclass(frozen=True)
class Point:
    n: int
    gflops: float
    vendor: bool = False      # shoal's call was served by the vendor at this n


@dataclass
class Series:
    label: str
    role: str                 # shoal, own, peer, roof
    points: list[Point] = field(default_factory=list)
    group: str | None = None  # speedups compare a shoal series with the peers of its group (None: all)


@dataclass
class Panel:
    title: str
    series: list[Series]
    xlabel: str = "n"


@dataclass
class Family:
    name: str
    title: str
    panels: list[Panel]
    ncols: int = 2


def num(s: str | None) -> float:
    try:
        return float(s)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return math.nan


def roof_of(gflops: float, pct_roof: float) -> float:
    """The roof's Gflop/s from a measurement and its % of roof."""
    if not (gflops > 0 and pct_roof > 0):
        return math.nan
    return gflops * 100.0 / pct_roof


def bench_kind(fieldnames: Iterable[str]) -> str:
    """gemm, lapack, blas2, spec or tuned, from a CSV's header."""
    cols = set(fieldnames)
    if "shoal_gflops" in cols:
        return "gemm"
    if "served_by" in cols:
        return "spec"
    if "own_kernel" in cols and "vendor_ms" in cols:
        return "tuned"
    if "nrhs" in cols:
        return "lapack"
    if "case" in cols and "method" in cols:
        return "blas2"
    raise ValueError(f"not a shoal benchmark CSV (columns: {sorted(cols)})")


PEER_NAMES = {"cublas": "cuBLAS", "cusolver": "cuSOLVER", "openblas": "OpenBLAS (CPU)",
              "cusolverdx": "cuSolverDx"}


def peer_label(method: str) -> str:
    """'cublas_getrf+getri' -> 'cuBLAS getrf+getri'."""
    head, _, tail = method.partition("_")
    return (PEER_NAMES.get(head, head) + (" " + tail if tail else "")).strip()


def _series(label: str, role: str, pts: Iterable[Point], group: str | None = None) -> Series | None:
    """A series of its finite, positive points sorted by n; None when it has none."""
    kept = sorted((p for p in pts if p.gflops > 0 and math.isfinite(p.gflops)), key=lambda p: p.n)
    return Series(label, role, kept, group) if kept else None


def _panel(title: str, candidates: Iterable[Series | None], xlabel: str = "n") -> Panel | None:
    series = [s for s in candidates if s is not None]
    return Panel(title, series, xlabel) if any(s.role in ("shoal", "own") for s in series) else None


PREC_NAMES = {"s": "single", "d": "double", "c": "complex single", "z": "complex double"}


def _precs(rows: list[Row]) -> list[str]:
    return [p for p in "sdcz" if any(r["prec"] == p for r in rows)]


# --- GEMM (bench/run_bench.py) ---------------------------------------------------------------

def gemm_families(rows: list[Row]) -> list[Family]:
    sq = [r for r in rows if r["trans"] == "nn" and r["m"] == r["n"] == r["k"]]
    panels = []
    for mode in ("strided", "array"):
        for p in _precs(sq):
            mine = [r for r in sq if r["prec"] == p and r["mode"] == mode]
            col = lambda c: [Point(int(r["n"]), num(r[c])) for r in mine]  # noqa: E731
            panels.append(_panel(f"{PREC_NAMES[p]}, NN, {'strided' if mode == 'strided' else 'pointer arrays'}", [
                _series("shoal (as dispatched)", "shoal",
                        [Point(int(r["n"]), num(r["shoal_gflops"]), is_vendor(r.get("kernel"))) for r in mine]),
                _series("shoal own kernels", "own", col("own_gflops")),
                _series("cuBLAS", "peer", col("cublas_gflops")),
                _series("OpenBLAS + OpenMP (CPU)", "peer", col("cpu_gflops")),
                _series("roof", "roof", col("roof_gflops")),
            ], "n (m = n = k)"))
    return [Family("gemm", "Batched GEMM, square NN", [p for p in panels if p], ncols=max(1, len(_precs(sq))))]


# --- LAPACK (bench/run_lapack_bench.py) ------------------------------------------------------

LAPACK_FAMILIES = (("lu", "LU family: getrf, getri, inverse (getri_fused), solves",
                    ("getrf", "getri", "inverse", "getrs", "gesv")),
                   ("cholesky", "Cholesky: potrf, solves", ("potrf", "potrs", "posv")),
                   ("qr", "Householder QR: geqrf", ("geqrf",)))
FORM = {"strided": "strided", "array": "pointer arrays"}


def _shoal_forms(mine: list[Row], served: Callable[[Row], str], shoal_method: str = "shoal",
                 label: str = "shoal", role: str = "shoal", group: str | None = None) -> list[Series | None]:
    out = []
    for mode in ("strided", "array", "vbatched"):
        at = [r for r in mine if r["method"] == shoal_method and r["mode"] == mode]
        if at:
            out.append(_series(f"{label}, {FORM[mode]}" if mode in FORM else label, role,
                               [Point(int(r["n"]), num(r["gflops"]), is_vendor(served(r))) for r in at], group))
    return out


def _roof(mine: list[Row], method: str = "shoal", pct: str = "pct_roof", label: str = "roof") -> Series | None:
    """The roof from one method's rows (every method of a row shares it)."""
    at = {}
    for r in mine:
        if r["method"] == method:
            at.setdefault(int(r["n"]), roof_of(num(r["gflops"]), num(r[pct])))
    return _series(label, "roof", (Point(n, g) for n, g in at.items()))


def lapack_families(rows: list[Row], served: dict) -> list[Family]:
    out = []
    precs = _precs(rows)
    for name, title, routines in LAPACK_FAMILIES:
        panels = []
        for routine in routines:
            mine_r = [r for r in rows if r["routine"] == routine]
            for variant in sorted({r["variant"] for r in mine_r}):
                # a solve's right-hand sides as one curve each: a fixed count, or n/4 (grows with n)
                for nrhs in rhs_classes(r for r in mine_r if r["variant"] == variant):
                    for p in precs:
                        mine = [r for r in mine_r if r["prec"] == p and r["variant"] == variant
                                and rhs_class(r) == nrhs]
                        who = lambda r: plot_served.lookup(  # noqa: E731
                            served, r["prec"], r["routine"], r["variant"], int(r["n"]), int(r["n"]), r["nrhs"],
                            r["method"], r["mode"])
                        peers = sorted({r["method"] for r in mine if not r["method"].startswith("shoal")})
                        what = routine + (f" {variant}" if variant != "n" or routine == "getrs" else "") + \
                            (f", nrhs {nrhs}" if nrhs != "0" else "")
                        panels.append(_panel(f"{PREC_NAMES[p]}, {what}", [
                            *_shoal_forms(mine, who),
                            *(_series(peer_label(m), "peer", [Point(int(r["n"]), num(r["gflops"]))
                                                              for r in mine if r["method"] == m]) for m in peers),
                            _roof(mine)]))
        panels = [p for p in panels if p]
        if panels:
            out.append(Family(name, title, panels, ncols=max(1, len(precs))))
    return out


# --- BLAS-2 (bench/run_blas2_bench.py) -------------------------------------------------------

def blas2_families(rows: list[Row], served: dict) -> list[Family]:
    precs = _precs(rows)

    def who(r: Row) -> str:
        return plot_served.lookup(served, r["prec"], r["routine"], r["variant"], int(r["m"]), int(r["n"]),
                                  r["case"], r["method"], r["mode"])

    def peer(mine: list[Row], method: str, mode: str, label: str, group: str | None = None) -> Series | None:
        return _series(label, "peer", [Point(int(r["n"]), num(r["gflops"])) for r in mine
                                        if r["method"] == method and r["mode"] == mode], group)

    out = []
    gemv = [r for r in rows if r["routine"] == "gemv" and r["m"] == r["n"]]
    panels = []
    for v in sorted({r["variant"] for r in gemv}):
        for p in precs:
            mine = [r for r in gemv if r["prec"] == p and r["variant"] == v]
            panels.append(_panel(f"{PREC_NAMES[p]}, op {v.upper()}", [
                *_shoal_forms(mine, who),
                *_shoal_forms(mine, who, "shoal_own", "shoal own kernels", "own"),
                peer(mine, "cublas", "strided", "cuBLAS gemvStridedBatched"),
                peer(mine, "cublas", "array", "cuBLAS gemvBatched"),
                _roof(mine)], "n (m = n)"))
    if any(panels):
        out.append(Family("gemv", "Batched GEMV, square, packed", [p for p in panels if p], ncols=len(precs)))

    trsv = [r for r in rows if r["routine"] == "trsv"]
    variants = sorted({r["variant"] for r in trsv})
    panels = []
    for p in precs:
        for v in variants:
            mine = [r for r in trsv if r["prec"] == p and r["variant"] == v]
            panels.append(_panel(f"{PREC_NAMES[p]}, uplo {v[0].upper()}, op {v[1:].upper()}", [
                *_shoal_forms(mine, who),
                peer(mine, "cublas_trsm", "array", "cuBLAS trsmBatched (1 rhs)"),
                _roof(mine)]))
    if any(panels):
        out.append(Family("trsv", "Batched TRSV, non-unit diagonal", [p for p in panels if p],
                          ncols=max(1, len(variants))))

    panels = []
    for routine in ("gemv_vbatched", "gemm_vbatched"):
        mine_r = [r for r in rows if r["routine"] == routine]
        for v in sorted({r["variant"] for r in mine_r}):
            for p in precs:
                mine = [r for r in mine_r if r["prec"] == p and r["variant"] == v]
                series: list[Series | None] = []
                for case in ("equal", "uniform", "skewed"):
                    at = [r for r in mine if r["case"] == case]
                    series += _shoal_forms([r for r in at if r["method"] == "shoal"], who,
                                           label=f"shoal vbatched, {case}", group=case)
                    series.append(peer(at, "cublas_grouped", "grouped", f"cuBLAS grouped, {case}", case))
                equal = [r for r in mine if r["case"] == "equal"]
                # shoal's fixed-size routine on the equal batch: what vbatched must keep up with
                series += [_series(f"shoal fixed-size, {FORM[mode]} (equal)", "peer",
                                   [Point(int(r["n"]), num(r["gflops"]), is_vendor(who(r))) for r in equal
                                    if r["method"] == "shoal_fixed" and r["mode"] == mode], "equal")
                           for mode in ("array", "strided")]
                series.append(_roof([r for r in equal], label="roof (equal sizes)"))
                op = f"op {v.upper()}" if routine == "gemv_vbatched" else v.upper()
                panels.append(_panel(f"{PREC_NAMES[p]}, {routine} {op}", series,
                                     "N (sizes up to N; equal: all N)"))
    if any(panels):
        out.append(Family("vbatched", "Variable-size batches", [p for p in panels if p], ncols=len(precs)))
    return out


# --- spec routines (bench/run_spec_bench.py) and the tuner's export ---------------------------

SPEC_ROUTINES = ("trsm", "syrk", "herk", "ormqr", "orgqr")
SPEC_PEERS = {"trsm": "cuBLAS trsmBatched", "syrk": "cuBLAS gemmStridedBatched (full product)",
              "herk": "cuBLAS gemmStridedBatched (full product)", "ormqr": "no peer", "orgqr": "no peer"}
SPEC_TITLES = {"trsm": "Batched TRSM, m = n, one triangular A per problem",
               "syrk": "Batched SYRK, k = n", "herk": "Batched HERK, k = n",
               "ormqr": "Batched ormqr (op(Q) C, C op(Q)), m = n = k", "orgqr": "Batched orgqr (Q formed), m = n = k"}
SPEC_VARIANTS = {("trsm", "l"): "left", ("trsm", "r"): "right", ("syrk", "n"): "A A^T", ("syrk", "t"): "A^T A",
                 ("herk", "n"): "A A^H", ("herk", "c"): "A^H A", ("ormqr", "l"): "Q C", ("ormqr", "r"): "C Q",
                 ("orgqr", "n"): "Q"}


def spec_families(rows: list[Row]) -> list[Family]:
    out = []
    for routine in SPEC_ROUTINES:
        mine_r = [r for r in rows if r["routine"] == routine]
        panels = []
        for v in sorted({r["variant"] for r in mine_r}):
            for p in _precs(mine_r):
                mine = [r for r in mine_r if r["prec"] == p and r["variant"] == v]
                form = FORM.get(mine[0]["form"], mine[0]["form"]) if mine else ""
                pts = lambda m: [Point(int(r["n"]), num(r["gflops"]), m == "shoal" and is_vendor(r["served_by"]))  # noqa: E731
                                 for r in mine if r["method"] == m]
                panels.append(_panel(f"{PREC_NAMES[p]}, {SPEC_VARIANTS.get((routine, v), v)}, {form}", [
                    _series("shoal (as dispatched)", "shoal", pts("shoal")),
                    _series("shoal own kernels and drivers", "own", pts("shoal_own")),
                    _series(SPEC_PEERS.get(routine, "peer"), "peer", pts("peer")),
                    _roof(mine, pct="roof_pct")]))
        if any(panels):
            out.append(Family(routine, SPEC_TITLES[routine], [p for p in panels if p], ncols=2))
    return out


def tuned_families(rows: list[Row]) -> list[Family]:
    """The tuner's best own kernel (n <= 32) or driver per size against the vendor it timed."""
    out = []
    for routine in SPEC_ROUTINES:
        mine_r = [r for r in rows if r["routine"] == routine]
        panels = []
        for v in sorted({r["variant"] for r in mine_r}):
            for mode in ("strided", "array"):
                for p in _precs(mine_r):
                    mine = [r for r in mine_r if r["prec"] == p and r["variant"] == v and r["mode"] == mode]
                    panels.append(_panel(f"{PREC_NAMES[p]}, {SPEC_VARIANTS.get((routine, v), v)}, {FORM[mode]}", [
                        _series("shoal best own kernel / driver (tuner)", "own",
                                [Point(int(r["n"]), num(r["own_gflops"])) for r in mine]),
                        _series("cuBLAS trsmBatched (tuner)", "peer",
                                [Point(int(r["n"]), num(r["vendor_gflops"])) for r in mine])]))
        if any(panels):
            out.append(Family(routine, SPEC_TITLES[routine] + ", as the tuner timed it", [p for p in panels if p],
                              ncols=max(1, len(_precs(mine_r)))))
    return out


def families(rows: list[Row], kind: str, served: dict | None = None) -> list[Family]:
    """Every family a CSV of that kind holds; served: the report's served-by entries (plot_served)."""
    served = served or {}
    if kind == "gemm":
        return gemm_families(rows)
    if kind == "lapack":
        return lapack_families(rows, served)
    if kind == "blas2":
        return blas2_families(rows, served)
    if kind == "spec":
        return spec_families(rows)
    if kind == "tuned":
        return tuned_families(rows)
    raise ValueError(kind)


# --- speedups --------------------------------------------------------------------------------

def speedups(panel: Panel) -> list[Series]:
    """shoal / best peer at each n where both were measured: one series per shoal series (the
    own kernels' series where the panel has no shoal series), against the peers of its group."""
    subjects = [s for s in panel.series if s.role == "shoal"] or [s for s in panel.series if s.role == "own"]
    out = []
    for s in subjects:
        peers = [q for q in panel.series if q.role == "peer" and (q.group is None or q.group == s.group)]
        best: dict[int, float] = {}
        for q in peers:
            for pt in q.points:
                best[pt.n] = max(best.get(pt.n, 0.0), pt.gflops)
        pts = [Point(pt.n, pt.gflops / best[pt.n], pt.vendor) for pt in s.points if best.get(pt.n, 0) > 0]
        if pts:
            out.append(Series(s.label, s.role, pts, s.group))
    return out


def png_name(csv_stem: str, family: str) -> str:
    """The PNG of a family, beside its CSV: <csv stem>-<family>.png."""
    return f"{csv_stem}-{family}.png"
