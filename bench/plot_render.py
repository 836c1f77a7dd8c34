"""Draws a plot_data.Family into a PNG with matplotlib (imported by the caller, Agg backend).

Each panel: Gflop/s against n, log-log, and below it shoal / best peer with a line at 1.0.
Points where shoal's call was served by the vendor get a red ring, in both panels, and the
legend says so.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from plot_data import Family, Panel, Series, speedups

VENDOR_LABEL = "shoal's call served by the vendor (cuBLAS/cuSOLVER)"
# shoal's series in blues, its own kernels in green, peers in warm colours and grey, the roof black
SHOAL_COLORS = ("#1f4e9c", "#4a90d9", "#7fb3e6", "#a8c8f0")
OWN_COLORS = ("#2e8b57", "#66bb6a")
PEER_COLORS = ("#d2691e", "#9b59b6", "#808080", "#c0392b", "#b8860b", "#8e6c8a")
PEER_MARKERS = ("^", "v", "D", "P", "*", "h")


def _style(s: Series, i: int) -> dict[str, Any]:
    if s.role == "shoal":
        return dict(color=SHOAL_COLORS[i % len(SHOAL_COLORS)], marker="o", markersize=4, linewidth=2)
    if s.role == "own":
        return dict(color=OWN_COLORS[i % len(OWN_COLORS)], marker="s", markersize=3, linestyle="--", linewidth=1.2)
    if s.role == "roof":
        return dict(color="black", linestyle=":", linewidth=1.2)
    return dict(color=PEER_COLORS[i % len(PEER_COLORS)], marker=PEER_MARKERS[i % len(PEER_MARKERS)],
                markersize=4, linewidth=1)


def _ring_vendor(ax: Any, s: Series, legend: bool) -> bool:
    """Red rings on the series' vendor-served points; legend: give them the legend entry."""
    pts = [p for p in s.points if p.vendor]
    if pts:
        ax.scatter([p.n for p in pts], [p.gflops for p in pts], s=70, facecolors="none", edgecolors="red",
                   linewidths=1.5, zorder=5, label=VENDOR_LABEL if legend else "_nolegend_")
    return bool(pts)


def _xaxis(ax: Any, ns: list[int]) -> None:
    ax.set_xscale("log", base=2)
    if ns:
        ticks = sorted(set(ns))
        if len(ticks) > 12:   # a tick per power of two where there are many sizes
            ticks = [n for n in ticks if n & (n - 1) == 0] or ticks
        ax.set_xticks(ticks)
        ax.set_xticklabels([str(n) for n in ticks], fontsize=7)
        ax.set_xlim(min(ns) / 1.25, max(ns) * 1.25)
    ax.minorticks_off()
    ax.grid(True, which="major", alpha=0.3)


def _draw_panel(ax: Any, sx: Any, panel: Panel) -> None:
    counters: dict[str, int] = {}
    vendor_shown = False
    ns = [p.n for s in panel.series for p in s.points]
    for s in panel.series:
        i = counters[s.role] = counters.get(s.role, -1) + 1
        ax.plot([p.n for p in s.points], [p.gflops for p in s.points], label=s.label, **_style(s, i))
        vendor_shown = _ring_vendor(ax, s, not vendor_shown) or vendor_shown
    ax.set_yscale("log")
    _xaxis(ax, ns)
    ax.tick_params(labelbottom=False)
    ax.set_ylabel("Gflop/s", fontsize=8)
    ax.set_title(panel.title, fontsize=9)
    ax.legend(fontsize=6, loc="best", framealpha=0.8)

    ratios = speedups(panel)
    counters = {}
    for s in ratios:
        i = counters[s.role] = counters.get(s.role, -1) + 1
        sx.plot([p.n for p in s.points], [p.gflops for p in s.points], **_style(s, i))
        _ring_vendor(sx, s, False)
    sx.axhline(1.0, color="black", linewidth=0.8)
    sx.set_yscale("log")
    ys = [p.gflops for s in ratios for p in s.points] + [1.0]
    lo, hi = min(ys) / 1.5, max(ys) * 1.5
    sx.set_ylim(lo, hi)
    # readable ratios: 1-2-5 ticks where the range is narrow (log axes would label only the
    # decades, often none), the decades where it is wide
    ticks = [m * 10.0 ** e for e in range(-4, 6) for m in (1, 2, 5) if lo <= m * 10.0 ** e <= hi]
    if len(ticks) > 6:
        ticks = [10.0 ** e for e in range(-4, 6) if lo <= 10.0 ** e <= hi]
    sx.set_yticks(ticks)
    sx.set_yticklabels([f"{t:g}" for t in ticks])
    if not ratios:
        sx.text(0.5, 0.5, "no peer measured here", transform=sx.transAxes, ha="center", va="center",
                fontsize=7, color="gray")
    _xaxis(sx, ns)
    sx.set_ylabel("x best peer", fontsize=8)
    sx.set_xlabel(panel.xlabel, fontsize=8)
    sx.tick_params(axis="y", labelsize=7)
    ax.tick_params(axis="y", labelsize=7)


def render(family: Family, png: Path, subtitle: str, plt: Any) -> Path:
    """Writes the family's figure to png; plt is matplotlib.pyplot."""
    ncols = max(1, min(family.ncols, len(family.panels)))
    nrows = math.ceil(len(family.panels) / ncols)
    width, height = 4.6 * ncols, 4.4 * nrows + 0.7
    fig = plt.figure(figsize=(width, height))
    # margins in inches: the two-line title above, the axis labels left and below
    outer = fig.add_gridspec(nrows, ncols, left=0.75 / width, right=1 - 0.1 / width, top=1 - 0.9 / height,
                             bottom=0.45 / height, hspace=0.3, wspace=0.25)
    for k, panel in enumerate(family.panels):
        cell = outer[divmod(k, ncols)].subgridspec(2, 1, height_ratios=[3, 1.1], hspace=0.06)
        ax = fig.add_subplot(cell[0])
        _draw_panel(ax, fig.add_subplot(cell[1], sharex=ax), panel)
    fig.suptitle(f"{family.title}\n{subtitle}", fontsize=10, y=1 - 0.1 / height, va="top")
    # no software version in the metadata: the same CSV gives the same bytes
    fig.savefig(png, dpi=80, metadata={"Software": None})
    plt.close(fig)
    return png
