#!/usr/bin/env python3
"""Markdown tables for the README from benchmark CSVs, so that the published figures are the
measured ones, rounded, and nothing typed by hand.

usage: bench/md_tables.py gemm RESULTS.csv     (bench/run_bench.py's CSV)
       bench/md_tables.py blas2 RESULTS.csv    (bench/run_blas2_bench.py's CSV)
       bench/md_tables.py lapack RESULTS.csv   (bench/run_lapack_bench.py's CSV; --routine,
                                                --variant and --sizes pick one table; --peers
                                                the blocked sizes' table with torch)
"""
from __future__ import annotations

import argparse
import csv
import math
import statistics
from collections.abc import Iterable


def read(path: str) -> list[dict[str, str]]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def row(cells: Iterable[object]) -> str:
    return "| " + " | ".join(str(c) for c in cells) + " |"


def header(names: list[str]) -> list[str]:
    return [row(names), row(["---"] * len(names))]


def precisions(rows: list[dict[str, str]]) -> str:
    """The precision columns of the level-2 and factorization tables, in the order d, s, z, c: those
    the rows have (a c/z-only run has no s or d columns)."""
    present = {r["prec"] for r in rows}
    return "".join(p for p in "dszc" if p in present)


def gemm_tables(rows: list[dict[str, str]]) -> list[str]:
    """The precisions the CSV has: d, s, then z, c (complex: Gflop/s at 8 flops a multiply-add)."""
    out: list[str] = []
    dims = lambda r: (int(r["m"]), int(r["n"]), int(r["k"]))  # noqa: E731
    present = {r["prec"] for r in rows}
    names = (("d", "Double"), ("s", "Single"), ("z", "Complex double"), ("c", "Complex single"))
    for prec, name in names:
        if prec not in present:
            continue
        out += [f"{name} precision, NN, square, Gflop/s:", ""]
        out += header(["n", "batch", "shoal", "cuBLAS", "shoal/cuBLAS", "shoal % roof", "own % roof",
                       "shoal array", "cuBLAS array", "array % roof", "own array % roof"])
        square: dict[int, dict[str, dict[str, str]]] = {}
        for r in rows:
            m, n, k = dims(r)
            if r["prec"] == prec and r["trans"] == "nn" and m == n == k:
                square.setdefault(n, {})[r["mode"]] = r
        for n in sorted(square):
            if len(square[n]) < 2:  # a filtered run with one form only
                continue
            s, a = square[n]["strided"], square[n]["array"]
            f = lambda r, key, fmt=".0f": format(float(r[key]), fmt)  # noqa: E731
            out.append(row([n, f"{int(s['batch']):,}", f(s, "shoal_gflops"), f(s, "cublas_gflops"),
                            f(s, "ratio_shoal_cublas", ".2f"), f(s, "shoal_pct_roof"), f(s, "own_pct_roof"),
                            f(a, "shoal_gflops"), f(a, "cublas_gflops"), f(a, "shoal_pct_roof"),
                            f(a, "own_pct_roof")]))
        out.append("")
    out += ["Own kernels, every transpose and the rectangular shapes with all dimensions <= 16, % of roof "
            "(min / median / max, rows under the bar); dispatched vs cuBLAS where a dimension >= 32:", ""]
    out += header(["precision", "mode", "rows <= 16", "own % roof", "under bar", "rows >= 32", "shoal/cuBLAS"])
    for prec in (p for p in "sdcz" if p in present):
        for mode, bar in (("strided", 90), ("array", 85)):
            mine = [r for r in rows if r["prec"] == prec and r["mode"] == mode]
            small = [float(r["own_pct_roof"]) for r in mine if max(dims(r)) <= 16]
            big = [float(r["ratio_shoal_cublas"]) for r in mine if max(dims(r)) >= 32]
            if not (small and big):  # a filtered run: no summary
                continue
            out.append(row([prec, mode, len(small),
                            f"{min(small):.0f} / {statistics.median(small):.0f} / {max(small):.0f}",
                            f"{sum(x < bar for x in small)} (< {bar})", len(big),
                            f"{min(big):.2f}-{max(big):.2f}"]))
    return out


def gemv_tables(rows: list[dict[str, str]]) -> list[str]:
    out: list[str] = []
    gemv = {(r["prec"], r["variant"], int(r["m"]), int(r["n"]), r["method"], r["mode"]): r
            for r in rows if r["routine"] == "gemv"}
    shapes = sorted({(k[2], k[3]) for k in gemv}, key=lambda s: (s[0] != s[1], s))
    cols = [(p, v) for p in precisions(list(gemv.values())) for v in ("ntc" if p in "cz" else "nt")]
    for mode, vendor in (("strided", "cublas?gemvStridedBatched"), ("array", "cublas?gemvBatched")):
        out += [f"GEMV, packed, {'strided batches' if mode == 'strided' else 'pointer arrays'}: shoal as "
                f"dispatched, Gflop/s (x {vendor}) % of roof"
                + ("; own = shoal's kernels alone (vendor dispatch off)" if mode == "strided" else ""), ""]
        out += header(["m x n"] + [f"{p} {v.upper()}" for p, v in cols])
        for m, n in shapes:
            cells = [f"{m} x {n}"]
            for p, v in cols:
                s, c = gemv[(p, v, m, n, "shoal", mode)], gemv[(p, v, m, n, "cublas", mode)]
                cell = (f"{float(s['gflops']):.0f} ({float(s['gflops']) / float(c['gflops']):.2f}x) "
                        f"{float(s['pct_roof']):.0f}%")
                if mode == "strided":
                    cell += f"; own {float(gemv[(p, v, m, n, 'shoal_own', mode)]['pct_roof']):.0f}%"
                cells.append(cell)
            out.append(row(cells))
        out.append("")
    return out


def trsv_table(rows: list[dict[str, str]]) -> list[str]:
    """Strided shoal (as dispatched) vs cublas?trsmBatched with one right-hand side, per n."""
    trsv = {(r["prec"], r["variant"], int(r["n"]), r["method"], r["mode"]): r
            for r in rows if r["routine"] == "trsv"}
    if not trsv:
        return []
    cols = [(p, v) for p in precisions(list(trsv.values()))
            for v in (("ln", "lt", "lc", "un", "ut", "uc") if p in "cz" else ("ln", "lt", "un", "ut"))]
    out = header(["n"] + [f"{p} {v}" for p, v in cols])
    for n in sorted({k[2] for k in trsv}):
        cells: list[object] = [n]
        for p, v in cols:
            s, c = trsv.get((p, v, n, "shoal", "strided")), trsv.get((p, v, n, "cublas_trsm", "array"))
            cells.append("-" if s is None or c is None else
                         f"{float(s['gflops']):.0f} ({float(s['gflops']) / float(c['gflops']):.1f}x) "
                         f"{float(s['pct_roof']):.0f}%")
        out.append(row(cells))
    return out + [""]


def vbatched_tables(rows: list[dict[str, str]]) -> list[str]:
    def pick(routine: str) -> dict[tuple[str, ...], dict[str, str]]:
        return {(r["prec"], r["variant"], r["n"], r["case"], r["method"], r["mode"]): r
                for r in rows if r["routine"] == routine}

    out: list[str] = []
    gv = pick("gemv_vbatched")
    out += header(["N", "prec", "op", "equal: vbatched / fixed", "uniform %roof", "skewed %roof"])
    for n, p, v in sorted({(k[2], k[0], k[1]) for k in gv}, key=lambda t: (int(t[0]), t[1], t[2])):
        ve, fe = gv[(p, v, n, "equal", "shoal", "vbatched")], gv[(p, v, n, "equal", "shoal_fixed", "array")]
        a, b = float(ve["gflops"]), float(fe["gflops"])
        out.append(row([n, p, v.upper(), f"{a:.0f} / {b:.0f} = {a / b:.2f}",
                        f"{float(gv[(p, v, n, 'uniform', 'shoal', 'vbatched')]['pct_roof']):.0f}%",
                        f"{float(gv[(p, v, n, 'skewed', 'shoal', 'vbatched')]['pct_roof']):.0f}%"]))
    out.append("")
    gm = pick("gemm_vbatched")
    out += header(["N", "prec", "equal: v / fixed", "uniform: v / grouped", "skewed: v / grouped"])
    for n, p, v in sorted({(k[2], k[0], k[1]) for k in gm}, key=lambda t: (int(t[0]), t[1])):
        cells: list[object] = [n, p]
        for case, other in (("equal", ("shoal_fixed", "array")), ("uniform", ("cublas_grouped", "grouped")),
                            ("skewed", ("cublas_grouped", "grouped"))):
            a = float(gm[(p, v, n, case, "shoal", "vbatched")]["gflops"])
            b = float(gm[(p, v, n, case) + other]["gflops"])
            cells.append(f"{a:.0f} / {b:.0f} = {a / b:.2f}")
        out.append(row(cells))
    return out


# The README's factorization sizes: the powers of two, sizes between them, and 31 (odd, one short)
LAPACK_SIZES = (2, 3, 4, 6, 8, 12, 16, 20, 24, 28, 31, 32)


# Factorization bench methods that are not the vendor's GPU library calls: shoal's own, the
# cuSolverDx peer, the CPU baseline and PyTorch (bench/torch_lapack_peer.py).
NOT_VENDOR = ("cusolverdx", "openblas", "torch")


def vendor_gflops(at: list[dict[str, str]]) -> list[float]:
    """Gflop/s of the vendor's batched library calls (cuBLAS, cuSOLVER) among a size's rows."""
    return [float(r["gflops"]) for r in at if not r["method"].startswith("shoal") and r["method"] not in NOT_VENDOR]


def strided_shoal(at: list[dict[str, str]]) -> dict[str, str] | None:
    """shoal's strided row among a size's rows (the tables' shoal figure), None if there is none."""
    return next((r for r in at if r["method"] == "shoal" and r["mode"] == "strided"), None)


def torch_gflops(at: list[dict[str, str]]) -> list[float]:
    """Gflop/s of the torch peer's rows (bench/torch_lapack_peer.py) among a size's rows."""
    return [float(r["gflops"]) for r in at if r["method"] == "torch" and r["gflops"]]


def lapack_table(rows: list[dict[str, str]], routine: str, variant: str, sizes: Iterable[int]) -> list[str]:
    """Strided shoal vs the best of the vendor's methods (pointer arrays, its only form), per n;
    a torch column (Gflop/s) per precision where the CSV has the torch peer's rows."""
    mine = [r for r in rows if r["routine"] == routine and r["variant"] == variant]
    precs = precisions(mine)
    torch = any(r["method"] == "torch" for r in mine)
    cols = ("shoal", "vendor", "ratio", "% roof") + (("torch",) if torch else ())
    out = header(["n"] + [f"{p} {c}" for p in precs for c in cols])
    for n in sizes:
        cells: list[object] = [n]
        for p in precs:
            at = [r for r in mine if r["prec"] == p and int(r["n"]) == n]
            shoal, vendor = strided_shoal(at), vendor_gflops(at)
            if not shoal or not vendor:
                cells += ["-"] * 4
            else:
                s, v = float(shoal["gflops"]), max(vendor)
                cells += [f"{s:.0f}", f"{v:.0f}", f"{s / v:.1f}", f"{float(shoal['pct_roof']):.0f}"]
            if torch:
                t = torch_gflops(at)
                cells.append(f"{t[0]:.0f}" if t else "-")
        out.append(row(cells))
    return out


def rhs_class(r: dict[str, str]) -> str:
    """A row's right-hand sides as the tables group them: "0" (a factorization), a fixed count,
    or "n/4" (the blocked sizes' second count, which grows with n; bench/plot_data.py draws it as
    one curve too)."""
    n, nrhs = int(r["n"]), int(r["nrhs"])
    return "n/4" if n > 32 and nrhs > 1 and nrhs == n // 4 else str(nrhs)


def rhs_classes(rows: Iterable[dict[str, str]]) -> list[str]:
    """The rows' right-hand-side classes in order: the counts ascending, then n/4."""
    return sorted({rhs_class(r) for r in rows}, key=lambda c: (c == "n/4", int(c) if c != "n/4" else 0))


def peers_table(rows: list[dict[str, str]], routine: str, variant: str, sizes: Iterable[int]) -> list[str]:
    """The blocked sizes: per n (and, for a solve, per right-hand-side count: 1, n/4) and
    precision, strided shoal, the vendor's best call, torch, shoal over the faster of the two peers,
    and shoal's % of the roof. Only rows whose check passed (ok = 1) count: a method that failed its
    check shows "failed" and is no peer; one that has no row shows "-"."""
    mine = [r for r in rows if r["routine"] == routine and r["variant"] == variant]
    precs = precisions(mine)
    classes = rhs_classes(mine)
    solve = classes != ["0"]
    cols = ("shoal", "vendor", "torch", "shoal / best peer", "% roof")
    out = header(["n"] + (["nrhs"] if solve else []) + [f"{p} {c}" for p in precs for c in cols])

    def figure(at: list[dict[str, str]]) -> tuple[str, float]:
        """A method's cell and its Gflop/s where its check passed (else NaN)."""
        if not at:
            return "-", math.nan
        good = [float(r["gflops"]) for r in at if r.get("ok", "1") == "1" and r["gflops"]]
        return (f"{max(good):.0f}", max(good)) if good else ("failed", math.nan)

    for n in sizes:
        for c in classes:
            cells: list[object] = [n] + ([c] if solve else [])
            here = [r for r in mine if int(r["n"]) == n and rhs_class(r) == c]
            if not here:
                continue
            for p in precs:
                at = [r for r in here if r["prec"] == p]
                shoal, gs = figure([r for r in at if r["method"] == "shoal" and r["mode"] == "strided"])
                vendor, gv = figure([r for r in at if not r["method"].startswith("shoal")
                                     and r["method"] not in NOT_VENDOR])
                torch, gt = figure([r for r in at if r["method"] == "torch"])
                best = max((g for g in (gv, gt) if math.isfinite(g)), default=math.nan)
                roof = next((r["pct_roof"] for r in at if r["method"] == "shoal" and r["mode"] == "strided"
                             and r.get("ok", "1") == "1" and r["pct_roof"]), "")
                cells += [shoal, vendor, torch, f"{gs / best:.2f}" if best > 0 and math.isfinite(gs) else "-",
                          f"{float(roof):.0f}" if roof else "-"]
            out.append(row(cells))
    return out


# PyTorch's batched LU kernel as published for the H100 (d getrf, batch 1024): not measured by
# this project; shown beside the measured getrf table, labelled as what it is.
PUBLISHED_TORCH_GETRF = {"label": "published, H100", "prec": "d", "batch": 1024,
                         "gflops": {256: 1800, 512: 3390, 1024: 6130}}


def published_torch_note() -> str:
    """The published PyTorch figures as one line of text, beside a getrf table."""
    p = PUBLISHED_TORCH_GETRF
    figures = ", ".join(f"n = {n}: {g}" for n, g in sorted(p["gflops"].items()))
    return (f"PyTorch's batched LU kernel ({p['label']}; {p['prec']} getrf, batch {p['batch']}; not measured "
            f"by this benchmark), Gflop/s: {figures}.")


def dx_table(rows: list[dict[str, str]]) -> list[str]:
    """Shoal (strided) beside the cuSolverDx peer (method cusolverdx) and the vendor's best call,
    one row per routine, variant and measured n: Gflop/s, % of the roof, shoal / cusolverdx."""
    out = header(["routine", "variant", "n"] + [f"{p} {c}" for p in "ds"
                                                 for c in ("shoal", "% roof", "cusolverdx", "% roof", "vendor",
                                                           "shoal / dx")])
    order = {"getrf": 0, "potrf": 1, "geqrf": 2}
    keys = sorted({(r["routine"], r["variant"], int(r["n"])) for r in rows if r["method"] == "cusolverdx"},
                  key=lambda k: (order.get(k[0], 9), k))
    for routine, variant, n in keys:
        cells: list[object] = [routine, variant, n]
        for p in "ds":
            at = [r for r in rows if (r["routine"], r["variant"], int(r["n"]), r["prec"]) == (routine, variant, n, p)
                  and r.get("ok", "1") == "1"]
            shoal = [r for r in at if r["method"] == "shoal" and r["mode"] == "strided"]
            dx = [r for r in at if r["method"] == "cusolverdx"]
            vendor = vendor_gflops(at)
            if not shoal or not dx:
                cells += ["-"] * 6
                continue
            s_, d_ = float(shoal[0]["gflops"]), float(dx[0]["gflops"])
            cells += [f"{s_:.0f}", f"{float(shoal[0]['pct_roof']):.0f}", f"{d_:.0f}", f"{float(dx[0]['pct_roof']):.0f}",
                      f"{max(vendor):.0f}" if vendor else "-", f"{s_ / d_:.2f}"]
        out.append(row(cells))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kind", choices=["gemm", "blas2", "lapack", "dx"])
    ap.add_argument("csv")
    ap.add_argument("--routine", default="getrf", help="lapack: getrf, inverse, getri, potrf, geqrf")
    ap.add_argument("--variant", default="n", help="lapack: n (potrf: l or u)")
    ap.add_argument("--sizes", default=",".join(map(str, LAPACK_SIZES)), help="lapack: comma-separated n")
    ap.add_argument("--peers", action="store_true",
                    help="lapack: shoal, vendor, torch and shoal / best peer per n (and nrhs), the blocked "
                         "sizes' table; getrf adds the published PyTorch figures")
    args = ap.parse_args()
    rows = read(args.csv)
    if args.kind == "gemm":
        lines = gemm_tables(rows)
    elif args.kind == "blas2":
        lines = gemv_tables(rows) + trsv_table(rows) + vbatched_tables(rows)
    elif args.kind == "dx":
        lines = dx_table(rows)
    elif args.peers:
        lines = peers_table(rows, args.routine, args.variant, [int(x) for x in args.sizes.split(",")])
        if args.routine == "getrf":
            lines += ["", published_torch_note()]
    else:
        lines = lapack_table(rows, args.routine, args.variant, (int(x) for x in args.sizes.split(",")))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
