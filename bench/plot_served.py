"""Who served shoal's calls in a benchmark run: its own kernel, a driver, or the vendor.

The GEMM CSV names shoal's kernel per row (`kernel`) and the spec CSV has `served_by`, but the
LAPACK and BLAS-2 CSVs carry no such column: their printed report (the .txt beside the CSV) does,
in the last field of each table row. This module reads those reports; no matplotlib needed.

Key of a served-by entry: (prec, routine, variant, m, n, case, method, mode); case is the LAPACK
row's nrhs, the variable-size row's distribution, or "*" where the report's row does not say
(every case of that shape was served alike).
"""
from __future__ import annotations

import re
from pathlib import Path

Key = tuple[str, str, str, int, int, str, str, str]

# The vendor as shoal's dispatch names it: "cublas" in the reports and the GEMM CSV, "vendor" in
# the spec CSV (runtime/spec_run.c: shoal_spec_served_by).
VENDOR_NAMES = ("vendor", "cublas", "cusolver")


def is_vendor(served_by: str | None) -> bool:
    return bool(served_by) and served_by.strip().lower().startswith(VENDOR_NAMES)


# "## s trsv uplo=L trans=N diag=N: ..." -> prec s, routine trsv, variant "ln" (the CSV's spelling:
# the options' letters in order, the unit-diagonal flag left out as the CSV leaves it out)
_SECTION = re.compile(r"^## ([sdcz]) (\w+)((?: \w+=\w+)*)(?: NN)?:")
_OPTION_KEYS = ("uplo", "trans", "side")
# report notes -> (method, mode): "str=" strided, "arr=" pointer arrays, "own=" vendor dispatch
# off, "vb=" the variable-size call; after a bare "fixed" the tokens name the fixed-size call
_TOKENS = {"str": "strided", "arr": "array", "own": "strided", "vb": "vbatched", "fixed": "array"}


def _variant(routine: str, options: str) -> str:
    opts = dict(o.split("=") for o in options.split())
    letters = "".join(opts[k].lower() for k in _OPTION_KEYS if k in opts)
    if routine == "gemm_vbatched":
        return "nn"
    return letters or "n"


def notes_served(notes: str, lapack: bool) -> dict[tuple[str, str], str]:
    """{(method, mode): served_by} from a report row's last field."""
    text = notes.split(";")[0].strip()
    if not text:
        return {}
    if lapack:   # "KERNEL" or "KERNEL [ARRAY_KERNEL]"
        m = re.match(r"(\S+)(?: \[(\S+)\])?", text)
        if not m:
            return {}
        return {("shoal", "strided"): m.group(1), ("shoal", "array"): m.group(2) or m.group(1)}
    out: dict[tuple[str, str], str] = {}
    fixed = False
    for tok in text.split():
        if tok == "fixed":
            fixed = True
            continue
        if "=" not in tok:
            continue
        key, val = tok.split("=", 1)
        if key not in _TOKENS:
            continue
        method = "shoal_fixed" if fixed or key == "fixed" else "shoal_own" if key == "own" else "shoal"
        out[(method, _TOKENS[key])] = val
    return out


def _row_shape(cells: list[str], routine: str) -> tuple[int, int, str] | None:
    """(m, n, case) from the first field of a report row; None for header lines."""
    try:
        if routine.endswith("_vbatched"):        # "N dist batch [groups]"
            return int(cells[0]), int(cells[0]), cells[1]
        if routine in ("gemv", "gemv_misaligned", "trsv"):   # "m n batch"
            return int(cells[0]), int(cells[1]), "*"
        return int(cells[0]), int(cells[0]), cells[1]  # LAPACK: "n nrhs batch"; case = nrhs
    except (ValueError, IndexError):
        return None


def parse_report(lines: list[str]) -> dict[Key, str]:
    """Served-by entries of a LAPACK or BLAS-2 report's tables."""
    out: dict[Key, str] = {}
    section = None
    for line in lines:
        m = _SECTION.match(line)
        if m:
            prec, routine = m.group(1), m.group(2)
            section = (prec, routine, _variant(routine, m.group(3)))
            continue
        if section is None or "|" not in line:
            continue
        prec, routine, variant = section
        fields = line.split("|")
        shape = _row_shape(fields[0].split(), routine)
        if shape is None:
            continue
        lapack = routine not in ("gemv", "gemv_misaligned", "trsv", "gemv_vbatched", "gemm_vbatched")
        for (method, mode), who in notes_served(fields[-1], lapack).items():
            out[(prec, routine, variant, shape[0], shape[1], shape[2], method, mode)] = who
    return out


def read_report(csv_path: Path) -> dict[Key, str]:
    """Served-by entries from the report beside a CSV; empty when there is none."""
    txt = Path(csv_path).with_suffix(".txt")
    if not txt.is_file():
        return {}
    return parse_report(txt.read_text().splitlines())


def lookup(served: dict[Key, str], prec: str, routine: str, variant: str, m: int, n: int, case: str,
           method: str, mode: str) -> str:
    """The served-by entry of one CSV row ("" when the report does not say)."""
    for c in (case, "*"):
        who = served.get((prec, routine, variant, m, n, c, method, mode))
        if who is not None:
            return who
    return ""
