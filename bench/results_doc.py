#!/usr/bin/env python3
"""docs/results.md from the committed benchmark CSVs, so that the published tables are the
measured ones and say when, where and how they were measured.

usage: bench/results_doc.py [--out docs/results.md]   (make results-doc)
       bench/results_doc.py --check                    (exit 1 when docs/results.md is stale)

Which run serves which table is the SECTIONS list below; the date and device of each run come
from the first lines of the .txt beside its CSV, as the benchmark wrote them.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import md_tables  # noqa: E402
import plot_data  # noqa: E402
import python_overhead  # noqa: E402
import run_qr_torch_bench  # noqa: E402
import run_gebrd_bench  # noqa: E402
import run_spec_bench  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
OUT = ROOT / "docs" / "results.md"

COMMANDS = {"gemm": "bench/run_bench.py", "lapack": "bench/run_lapack_bench.py", "dx": "bench/run_lapack_bench.py",
            "blas2": "bench/run_blas2_bench.py", "spec": "bench/run_spec_bench.py"}
# benchmarks outside `make bench`: kind -> the script that wrote the run
SCRIPTS = {"qr-torch": "bench/run_qr_torch_bench.py", "gebrd": "bench/run_gebrd_bench.py"}
SIZES = (2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)
# the blocked factorizations' sizes (issue 22's performance bar)
BLOCKED_SIZES = (33, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024)


@dataclass(frozen=True)
class Section:
    title: str
    run: str                  # bench/results/<run>.{csv,txt}
    kind: str                 # gemm, lapack, dx, blas2, tuned, spec, python, cost, qr-torch, gebrd
    intro: str
    routine: str = ""         # lapack: the md_tables routine and variant
    variant: str = "n"
    parts: tuple[str, ...] = field(default=())   # blas2: gemv, trsv, vbatched
    plots: tuple[str, ...] = field(default=())   # the plot families linked (bench/plot_data.py; make plots)
    before: str = ""          # cost: the run before the change (run is the one after it)
    sizes: tuple[int, ...] = md_tables.LAPACK_SIZES   # lapack: the rows' n
    nrhs: str = ""            # lapack: only the rows with this many right-hand sides ("" all)
    peers: bool = False       # lapack: md_tables.peers_table (shoal, vendor, torch, shoal / best peer)
    notes: tuple[str, ...] = field(default=())   # lines after the table


def report_lines(run: str) -> list[str]:
    """The lines of <run>.txt, the printed report; none where the run kept only its CSV."""
    txt = RESULTS / f"{run}.txt"
    return txt.read_text().splitlines() if txt.is_file() else []


def torch_of(run: str) -> str:
    """"PyTorch <version>, CUDA <version>" from the torch peer's header line in <run>.txt (the
    peer appends it to the C bench's report); "PyTorch" where the report has none."""
    for line in report_lines(run):
        if line.startswith("# torch_lapack_peer: torch "):
            torch, cuda = line.split(": ", 1)[1].split(", ")[:2]
            return f"PyTorch {torch.split()[1]}, {cuda}"
    return "PyTorch"


def roof_cap_of(run: str) -> str:
    """How the run capped its roof, from the C bench's report: the --peak-gflops figures, or none."""
    for line in report_lines(run):
        if line.startswith("# roof capped by the compute peak (--peak-gflops): "):
            words = line.split(": ", 1)[1].split()   # "51000 Gflop/s in s and c, 63000 in d and z"
            return f"capped at {words[0]} (s, c) / {words[6]} (d, z) Gflop/s"
    return "not capped (the memory roof alone)"


def lu_blocked_sections(run: str, sizes: tuple[int, ...] = BLOCKED_SIZES, driver: str = "") -> tuple[Section, ...]:
    """The LU family above n = 32 (the blocked LU drivers) from one run of bench/run_lapack_bench.py
    with its torch peer, e.g. LAPACK_BENCH_ARGS="--prec sd --routine getrf,gesv,getrs,getri --n
    33,48,64,96,128,192,256,384,512,768,1024 --peak-gflops 51000,63000 --no-dx --no-cpu": add
    `*lu_blocked_sections("<run>")` to SECTIONS once bench/results/<run>.{csv,txt} are committed;
    sizes: the rows shown, driver: a sentence on the driver as the run had it."""
    torch = torch_of(run)
    common = ("Batch: 4x L2 / bytes, at least 2048, 1024 from n = 256. Roof: copy bandwidth x flops / bytes, "
              f"{roof_cap_of(run)}. Every method checked first (info, and 16 sampled LAPACK "
              "residuals, 2 from n = 256): a method that failed shows \"failed\" and is nobody's peer. shoal / "
              "best peer > 1: shoal (strided) faster than the faster of the vendor and torch.")
    return (
        Section("LU above n = 32 (getrf): the blocked driver", run, "lapack",
                "getrf from n = 33 to 1024 through the blocked LU driver (getrf_blocked), strided batches. "
                f"{driver + ' ' if driver else ''}vendor = cublas{{S,D}}getrfBatched (pointer arrays, its only "
                f"form); torch = `torch.linalg.lu_factor_ex` on the same GPU in the same run ({torch}; "
                f"bench/torch_lapack_peer.py). Flops: LAPACK working note 41. {common}",
                routine="getrf", sizes=sizes, peers=True, plots=("lu",),
                notes=(md_tables.published_torch_note(),)),
        Section("Inverse from the LU factors above n = 32 (getri)", run, "lapack",
                "getri from the factors and pivots (made by the vendor's getrf before timing) to the inverse, out "
                "of place. vendor = cublas{S,D}getriBatched; torch = `torch.linalg.lu_solve(LU, pivots, I)` "
                "from factors made outside the timing: PyTorch's way from the same factors to the same inverse "
                "(its `inv_ex` factors the matrix first, a solve with the identity, and so pairs with the "
                "`inverse` rows, getri_fused, not with getri). Every method counted at getri's flops (4n^3/3; "
                f"lu_solve with n right-hand sides does 2n^3). Roof bytes: A read, the inverse written. {common}",
                routine="getri", sizes=sizes, peers=True, plots=("lu",)),
        Section("LU solve above n = 32 (getrs, op N): 1 and n/4 right-hand sides", run, "lapack",
                "getrs from the factors (made by the vendor's getrf before timing), B overwritten by X. vendor = "
                "cublas{S,D}getrsBatched; torch = `torch.linalg.lu_solve` from factors made outside the timing. "
                f"Roof bytes: A read, B read and written. {common}",
                routine="getrs", sizes=sizes, peers=True, plots=("lu",)),
        Section("LU factor and solve above n = 32 (gesv): 1 and n/4 right-hand sides", run, "lapack",
                "gesv: A overwritten by its factors, B by X. vendor = cublas{S,D}getrfBatched + "
                "cublas{S,D}getrsBatched, timed together; torch = `torch.linalg.solve_ex` (its own copy of A "
                f"factored). Roof bytes: A and B read and written. {common}",
                routine="gesv", sizes=sizes, peers=True, plots=("lu",)),
    )


SECTIONS = (
    Section("Batched GEMM", "h100-2026-11-22-gemm-mint", "gemm",
            "shoal = as dispatched (its own kernel or cuBLAS, as tuned); own = shoal's kernels alone "
            "(vendor dispatch off); array = the pointer-array API. alpha = 1, beta = 0; roof = min(compute "
            "peak, copy bandwidth x flops / bytes) with bytes = A and B read once, C written once.", plots=("gemm",)),
    Section("Batched GEMM in c and z", "h100-2026-11-27-gemm-complex", "gemm",
            "As above, complex: peers cublas{C,Z}gemmStridedBatched / gemmBatched; flops 8 m n k (a "
            "complex multiply-add is 8 real flops), elements of 8 (c) and 16 (z) bytes; the compute peak "
            "is cuBLAS's c/z GEMM at 8192^3. Ops: nn over the sizes, nc, cn and cc (C = conjugate "
            "transpose) at 4, 16 and 64 (`run_bench.py --prec cz --quick`). Tables from the first c/z "
            "tuning (2026-11-27 18:04-18:30; about 800 of c's 15220 tasks were left, resumable); the 99 "
            "GEMM GPU cases (s, d, c, z) passed on them in the same machine session.", plots=("gemm",)),
    Section("LU with partial pivoting (getrf), strided batches", "h100-2026-11-22-getrf-serial-pf", "lapack",
            "vendor = cublas?getrfBatched (pointer arrays, its only form); ratio = shoal / vendor; Gflop/s "
            "from LAPACK working note 41's flop counts; roof bytes: A read and written.",
            routine="getrf", plots=("lu",)),
    Section("Inverse, factor and invert fused in one kernel (getri_fused), strided batches",
            "h100-2026-11-22-pf", "lapack",
            "vendor = the faster of cublas?matinvBatched and cublas?getrfBatched + cublas?getriBatched; "
            "roof bytes: A read, the inverse written.", routine="inverse", plots=("lu",)),
    Section("Cholesky (potrf, lower), strided batches", "h100-2026-11-22-inverse-serial", "lapack",
            "vendor = cusolverDn?potrfBatched; roof bytes: A read and written.", routine="potrf", variant="l",
            plots=("cholesky",)),
    Section("Householder QR (geqrf), strided batches", "h100-2026-11-22-inverse-serial", "lapack",
            "vendor = cublas?geqrfBatched; roof bytes: A read and written (tau not counted).", routine="geqrf",
            plots=("qr",)),
    Section("Tiny factorizations beside NVIDIA's cuSolverDx (getrf, potrf, geqrf), strided batches",
            "h100-2026-11-26-lapack-dx", "dx",
            "cusolverdx = cuSolverDx 0.5.0 (MathDx 26.06.1, through libmathdx, `bench/dx_*.c`): one fused kernel "
            "per routine and n, the library's suggested BatchesPerBlock and block dim, partial pivoting for "
            "getrf, in place on the same strided operands, checked like the vendor (every row passed); vendor = "
            "the best of the cuBLAS/cuSOLVER batched calls; Gflop/s, % of the roof (A read and written at the "
            "run's copy bandwidth); shoal / dx > 1: shoal faster.", plots=("lu", "cholesky", "qr")),
    Section("Factorizations in c and z before their tuning: LU (getrf), strided batches",
            "h100-2026-11-27-lapack-complex", "lapack",
            "c and z against cublas{C,Z}getrfBatched, same run (`run_lapack_bench.py --quick --prec cz "
            "--no-cpu --no-dx`; its printed report did not come back from the machine, the CSV did). "
            "Untuned: every n runs the portable default kernel, compiled for n = 32, so small n pay for "
            "32 (tuning is the next step); flops x4 (LAWN 41 complex counts); 124 rows, every one checked "
            "first (complex residuals; oracle/lapack_check.c's z forms check these rows since).", routine="getrf", plots=("lu",)),
    Section("Factorizations in c and z before their tuning: inverse (getri_fused)",
            "h100-2026-11-27-lapack-complex", "lapack",
            "As above; vendor = the faster of cublas{C,Z}matinvBatched and getrf + getriBatched.",
            routine="inverse", plots=("lu",)),
    Section("Factorizations in c and z before their tuning: Hermitian Cholesky (potrf, lower)",
            "h100-2026-11-27-lapack-complex", "lapack",
            "As above; vendor = cusolverDn{C,Z}potrfBatched; inputs Hermitian with a real diagonal.",
            routine="potrf", variant="l", plots=("cholesky",)),
    Section("Factorizations in c and z before their tuning: solve with A^H (getrs, op C)",
            "h100-2026-11-27-lapack-complex", "lapack",
            "As above; vendor = cublas{C,Z}getrsBatched with CUBLAS_OP_C; one right-hand side.",
            routine="getrs", variant="c", plots=("lu",)),
    Section("Factorizations in c and z before their tuning: Householder QR (geqrf)",
            "h100-2026-11-27-lapack-complex", "lapack",
            "As above; vendor = cublas{C,Z}geqrfBatched; LAPACK's complex Householder (complex tau, real "
            "beta).", routine="geqrf", plots=("qr",)),
    Section("Factorizations in c and z after their first tuning: LU (getrf)",
            "h100-2026-11-28-lapack-complex-tuned", "lapack",
            "The same benchmark after tuning on the H100 (`generator tune`): getrf, geqrf and gesv in c and z "
            "(gesv z 80% through: the strided z shapes above n = 16 still on the default), potrf in c; "
            "getrs, getri, getri_fused, potrs, posv and potrf z untuned (their rows below are the default "
            "kernel's). shoal:arr is dispatched, the vendor where it won the tuning ([cublas]); strided "
            "batches have no vendor route yet (the vendor takes pointer arrays), so where the vendor won, "
            "s/v < 1 shows the best own kernel. 124 rows, every one checked first.",
            routine="getrf", plots=("lu",)),
    Section("Factorizations in c and z after their first tuning: solve (gesv)",
            "h100-2026-11-28-lapack-complex-tuned", "lapack",
            "As above; vendor = cublas{C,Z}getrfBatched + getrsBatched; one right-hand side.",
            routine="gesv", plots=("lu",)),
    Section("Factorizations in c and z after their first tuning: Hermitian Cholesky (potrf, lower)",
            "h100-2026-11-28-lapack-complex-tuned", "lapack",
            "As above; c tuned, z still the default kernel.", routine="potrf", variant="l", plots=("cholesky",)),
    Section("Factorizations in c and z after their first tuning: Householder QR (geqrf)",
            "h100-2026-11-28-lapack-complex-tuned", "lapack",
            "As above.", routine="geqrf", plots=("qr",)),
    Section("Cholesky above n = 32 (potrf, lower): the recursive driver", "h200-2026-11-28-chol-blocked", "lapack",
            "potrf from n = 33 to 1024 through the blocked driver (runtime/drivers/chol_blocked.c: recursive "
            "halving, 32-blocks by the tuned potrf kernels, TRSM and SYRK steps dispatched; the driver itself not "
            "tuned yet), on an H200 (the machine this run was lent; the H100 rows elsewhere on this page are not comparable to it). vendor = cusolverDnDpotrfBatched (pointer "
            "arrays); torch = `torch.linalg.cholesky_ex` on the same GPU in the same run (PyTorch 2.11, CUDA "
            "13.0; bench/torch_lapack_peer.py). Batch: 4x L2 / bytes, at least 2048, 1024 from n = 256. Roof: "
            "copy bandwidth x flops / bytes, capped at 51 (s) / 63 (d) Tflop/s. Every row checked first "
            "(16 sampled residuals, 2 from n = 256).",
            routine="potrf", variant="l", sizes=BLOCKED_SIZES, plots=("cholesky",)),
    Section("Cholesky above n = 32 (potrf, upper)", "h200-2026-11-28-chol-blocked", "lapack",
            "As above, uplo = U.", routine="potrf", variant="u", sizes=BLOCKED_SIZES, plots=("cholesky",)),
    Section("Cholesky solve above n = 32 (posv, lower, one right-hand side)", "h200-2026-11-28-chol-blocked",
            "lapack",
            "As above; vendor = cusolverDnDpotrfBatched + cusolverDnDpotrsBatched (which takes one right-hand "
            "side only: the nrhs = n/4 rows, in the CSV, have no vendor); no torch posv peer.",
            routine="posv", variant="l", sizes=BLOCKED_SIZES, nrhs="1", plots=("cholesky",)),
    # the run measured getrf and gesv (getrs and getri above 32 are still to be benchmarked)
    *(s for s in lu_blocked_sections(
        "h200-2026-11-28-lu-wide", (33, 40, 48, 56, 64, 96, 128, 192, 256, 384, 512, 768, 1024),
        "Panels of up to 64 columns where they have at most 128 rows (so a square matrix of 33..64 is one "
        "launch of the tall kernel), 32 below that, tuned 48- and 64-column kernels (2026-11-28 14:00).")
      if s.routine in ("getrf", "gesv")),
    Section("Householder QR above n = 32 (geqrf): the blocked driver", "h200-2026-11-28-qr-blocked", "lapack",
            "geqrf from n = 40 to 1024 through the blocked QR driver (geqrf_blocked: left-looking panels of "
            "32 columns, 16 from 513 rows in d, each one launch of the tall kernel, which applies the earlier "
            "panels' reflectors and factors its own), strided batches, on the untuned fallback kernels (the "
            "tall design was not tuned yet). vendor = cublas{S,D}geqrfBatched (pointer arrays); torch = "
            "`torch.geqrf` on the same GPU in the same run (bench/torch_lapack_peer.py). Flops: 4n^3/3 + "
            "2n^2 + 14n/3 (LAPACK working note 41). Batch: 4x L2 / bytes, at least 2048, 1024 from n = 256; "
            "every method checked first (16 sampled residuals ||A - QR||, 2 from n = 256).",
            routine="geqrf", sizes=(40, 64, 96, 128, 256, 512, 1024), peers=True, plots=("qr",)),
    Section("Householder QR of 33..64 in one launch (geqrf)", "h200-2026-11-29-qr-fused", "lapack",
            "The blocked driver's whole-matrix launch: where a kernel holds the matrix, the regs design with "
            "a team of two warps per matrix (one column a thread, the step loop unrolled by chunks of 8), "
            "here its untuned fallbacks N = 48 (n <= 48) and N = 64; n = 96 still the panels. Strided "
            "batches; vendor = cublas{S,D,C}geqrfBatched (pointer arrays); torch = `torch.geqrf`, same GPU "
            "and run. Before this change the same GPU measured (2026-11-28 21:13, panels) s 155 / 288 and "
            "d 75 / 238 Gflop/s at n = 40 / 64. Every method checked first.",
            routine="geqrf", sizes=(33, 40, 48, 56, 64, 96), peers=True, plots=("qr",)),
    Section("QR with Q formed, and Q applied, against PyTorch (issue 23's bar)", "h200-2026-11-29-qr-torch",
            "qr-torch",
            "geqrf + orgqr (Q's n columns formed in place) and ormqr (Q^T C, C m x m) through the Python "
            "package, against `torch.geqrf` + `torch.linalg.householder_product`, `torch.linalg.qr` and "
            "`torch.ormqr`, on the same data in one process, CUDA events around the calls (Python included "
            "on both sides), batches as the issue fixes them (1000 and 8192 matrices: at the small shapes "
            "less than the L2 cache, unlike the other tables; each run starts from restored inputs). ormqr "
            "dispatched the first part of the H200's ormqr tuning (s and d); orgqr ran its untuned default "
            "kernel (M 1024, NC 8, 256 threads). Issue 23 asks >= 10x the best torch "
            "method at n = 64..512 with 1000 matrices and >= 100x at 8192 matrices of 3 x 3 and 16 x 16: "
            "met everywhere but d at 256 x 256 (7.97x; orgqr there is still the untuned default, geqrf and "
            "orgqr were not timed apart)."),
    Section("Least squares (gels) against PyTorch and cuBLAS (issue 23's bar)", "h200-2026-11-29-gels-torch-rerun",
            "qr-torch",
            "shoal.gels (the driver: geqrf, ormqr with Q^T, TRSM; nrhs 1) against `torch.linalg.lstsq` "
            "(its CUDA driver, gels) and `cublas{S,D}gelsBatched` called through ctypes on pointer arrays, "
            "square A, the same data in one process, CUDA events around the calls (Python included), "
            "every method checked first by the normal equations. The second run (13:22), with dispatch "
            "tables chosen per precision (TRSM in d now the H100's tuned rules, where the first run, "
            "10:50, took the portable default) and the row kernel as one flat loop; the tuned geqrf "
            "and ormqr of the H200 (s, d). Against the best other method (cuBLAS, which torch's lstsq "
            "calls for a batch) 5.2-13.8x at n = 64..512; 1.45x (s) and 1.53x (d) at 8192 matrices of "
            "16 x 16 (0.95x and 1.13x in the first run); at 3 x 3 cuBLAS is still 3x faster (0.33x, "
            "0.35x; 0.21x, 0.20x in the first): the driver's five launches, which the one-kernel solve "
            "after geqrf for factors of at most 32 rows (runtime/drivers/gels_small.cu, after this run) "
            "replaces. The same build passed the 96 gels and gelqf GPU cases (the wide pointer-array "
            "fix and gelqf's first run) and memcheck on them."),
    Section("Bidiagonal reduction (gebrd) against cuSOLVER and the 16-core CPU (issue 25's bar)",
            "h200-2026-11-29-gebrd", "gebrd",
            "shoal.gebrd (untuned: the per-size fallback kernels; the tile design up to 128, z 64, the "
            "in-place global-memory design above) against a loop of cusolverDn?gebrd, one matrix a call "
            "over 8 streams (cuSOLVER has no batched gebrd, nor one for m < n), and LAPACKE ?gebrd on 16 "
            "host threads, the same data in one process, every method checked first by the singular "
            "values of its B. Issue 25's bar (>= 20x the cuSOLVER loop and >= 3x the CPU at n <= 256, "
            ">= 5x and >= 2x at 512) is met at every measured shape in s and d: the narrowest margins "
            "are the CPU's at 256 (5.3x s) and 512 (2.8x s). 256 x 256 ran 500 matrices (s: 131 MB, "
            "below 4x L2) and 512 x 512 200 (s: 210 MB) to keep cuSOLVER's loop (2-5 s a call) in "
            "one device call; c and z ran a second call a minute later with fewer shapes. The same "
            "build passed the 708 gebrd GPU cases (s, d, c, z) and memcheck on 148 of them."),
    Section("Bidiagonal reduction (gebrd), tuned, with the blocked driver, at batch 1000 and n = 1024",
            "h200-2026-11-29-gebrd-tuned", "gebrd",
            "The same benchmark after gebrd was tuned on the H200 (s, d: 140 of 147 tasks, kernels and "
            "the blocked driver's panel width nb) and the blocked form (xLABRD panels, two GEMMs a "
            "panel: runtime/drivers/gebrd_labrd.c) joined it: the tuned dispatch takes the driver from "
            "n = 256 up in s (192: the global-memory kernel) and 192 up in d, nb 8 or 16 by size. 256 and 512 at batch 1000 (s: 262 MB and 1 GB, above "
            "4x L2), 1024 x 1024 at 100 matrices (s only: d's row did not finish in the call's time). "
            "Against the untuned run above: s 512 from 2.8x to 7.3x the CPU, s 256 from 5.3x to 8.2x. "
            "cuSOLVER and the CPU ran once or a few times (their seconds a call); the same build passed "
            "the 417 gebrd GPU cases of the blocked driver, the boundary sizes, zero and rank-deficient "
            "matrices and n up to 1024 (s, d, c, z), and memcheck on 270 of them."),
    Section("Multiplication by Q (ormqr), untuned (spec bench)", "h200-2026-11-29-spec-ormqr", "spec",
            "The first run of ormqr, m = n = k (Q of order n applied to n columns, side l, or rows, side r), "
            "trans N, strided, before any tuning: every size ran the portable default kernel (1024 rows, "
            "8-column panels, 256 threads), whose rows past n are zeros that each reflector still passes "
            "over. No peer in the program (cuBLAS has no batched ormqr); `torch.ormqr` timed by host clock "
            "on the same GPU a minute later (the .txt: 0.59 ms a matrix of 64 in double against shoal's "
            "3.3 us here, 0.19 ms at 256 against 52 us) is indicative only. The 1360 GPU cases of ormqr "
            "passed (s, d, c, z) before this run, memcheck and racecheck clean on a subset.",
            plots=("ormqr",)),
    Section("GEMV and TRSV in c and z (ops N, T and C)", "h100-2026-11-27-blas2-complex", "blas2",
            "c and z against cublas{C,Z}gemvStridedBatched / gemvBatched and cublas{C,Z}trsmBatched "
            "(`run_blas2_bench.py --quick --prec cz --routine gemv,trsv`), on the first c/z tuning "
            "(2026-11-27 21:00: gemv 1143 of 5852 tasks, trsv 557 of 1564; shapes without a measured "
            "kernel take the portable default); op C runs the transposed variant's kernels.",
            parts=("gemv", "trsv"), plots=("gemv", "trsv")),
    Section("GEMV", "h100-2026-11-23-blas2", "blas2",
            "Each cell: Gflop/s (ratio to cuBLAS) % of roof; roof = copy bandwidth x flops / bytes (A, x "
            "read, y written). Above 100%: a read-mostly stream runs a little faster than the copy that "
            "defines the roof.", parts=("gemv",), plots=("gemv",)),
    Section("TRSV, strided batches", "h100-2026-11-23-blas2", "blas2",
            "shoal (as dispatched; cuBLAS has no strided TRSV) vs cublas?trsmBatched with one right-hand "
            "side: Gflop/s (ratio) % of roof; columns are precision and uplo/trans (non-unit diagonal).",
            parts=("trsv",), plots=("trsv",)),
    Section("TRSM and SYRK, tuned kernels and drivers against cuBLAS (the tuner's measurements)",
            "h100-2026-11-27-tuned-final", "tuned",
            "Each cell: shoal's fastest own kernel or recursive driver (TRSM: kernels to n = 32, the "
            "driver above; SYRK: kernels at every n, the driver too above 64) as the tuner "
            "timed it, Gflop/s, and in brackets the ratio to cublas?trsmBatched timed in the same run on "
            "the same operands (SYRK has no vendor call; its peer is in the next table). Side l: op(A) X = "
            "alpha B, side r: X op(A) = alpha B, m = n; SYRK variant n: C = alpha A A^T + beta C, t: A^T A, "
            "k = n; TRSM in s, d, c and z.", plots=("trsm", "syrk")),
    Section("TRSM and SYRK as a benchmark run dispatched them (spec bench)", "h100-2026-11-27-spec-final", "spec",
            "shoal as dispatched against the peer (TRSM: cublas?trsmBatched, pointer arrays; SYRK: the full "
            "product by cublas?gemmStridedBatched, twice SYRK's flops, counted at SYRK's); roof = the "
            "share of this run's copy bandwidth that the call's bytes take. The tables of the tuning "
            "above are linked (SYRK to n = 64: the register-tile kernels, with or without their ring and "
            "with C through shared slots or per thread as tuned (s, d), the DMMA kernels (d) and, at the "
            "driver's long-k leaves, the register-fragment DMMA kernels (s); from n = 24 the triangle-tile "
            "kernels on the FP64 tensor cores (s, d; design tri); the level-batched driver above 64, "
            "where the tables chose it). `own` is shoal without the vendor in any step. This run's "
            "tables are the committed ones: every driver and vendor row of the current kernels was "
            "timed again after their tuning (06:51-06:53 and 09:13-09:15) and the tables emitted "
            "from that database before this run.",
            plots=("trsm", "syrk")),
    Section("SYRK with every driver shape decided in one run (spec bench, the committed tables)",
            "h100-2026-11-27-spec-retimed", "spec",
            "As above, SYRK only, on the tables emitted after the driver re-timing of 2026-11-27 15:05 "
            "(`--remeasure-drivers`: at each driver shape the driver, the vendor and the fastest kernel "
            "timed again in the same run, so a winner is no longer chosen across runs). The GPU cases "
            "(648) passed on these tables in the same call. This supersedes the SYRK rows of the run above.",
            plots=("syrk",)),
    Section("Complex TRSM (c, z) as a benchmark run dispatched it (spec bench)", "h100-2026-11-26-spec-complex",
            "spec",
            "shoal as dispatched against cublas{C,Z}trsmBatched (pointer arrays), trans N, complex alpha; "
            "Gflop/s as that run counted them, a complex multiply and add as 2 flops: a quarter of the "
            "real flops (8, LAPACK Working Note 41), which runs from 2026-11-27 count (the spec's cx); "
            "the ratios come from times and hold. Roof as above. The driver's off-diagonal updates are cuBLAS complex GEMM (shoal's GEMM has no c/z "
            "yet), so `own` is the vendor-free path only at n <= 32.", plots=("trsm",)),
    Section("HERK (c, z) as a benchmark run dispatched it (spec bench)", "h100-2026-11-27-spec-herk", "spec",
            "shoal as dispatched against the full product by cublas{C,Z}gemmStridedBatched (op(A) op(A)^H, "
            "twice HERK's flops, counted at HERK's; a complex multiply-add as 8 real flops); variant n: "
            "C = alpha A A^H + beta C, c: A^H A, k = n, alpha and beta real. To n = 64 the register-tile "
            "kernels (syrk_tiles in complex rows), above the recursive driver, its off-diagonal blocks "
            "by cuBLAS complex GEMM (shoal's GEMM has no c/z yet: `own` is vendor-free only to n = 64). "
            "Tables from the tuning of 2026-11-27 (every kernel task; the drivers re-timed after the "
            "kernels were emitted, one task short); the 552 GPU cases passed on them in the same call.",
            plots=("herk",)),
    Section("SYRK and HERK after the last candidates were tuned (spec bench, the committed tables)",
            "h100-2026-11-27-spec-candidates", "spec",
            "As the two tables above, on the tables emitted after the SYRK candidates added 2026-11-27 "
            "(the triangle-tile kernel on m16n8k8 and a three-block floor for its deep rings: 1752 tasks, "
            "s and d) and HERK's driver from n = 33 (12 tasks a precision) were tuned at 17:20-17:29, "
            "and every SYRK and HERK driver shape was re-timed in one run after their emission "
            "(17:30-17:31). The SYRK and HERK GPU cases (1872) passed on these tables, memcheck and "
            "synccheck clean on SYRK's 648 cases. This supersedes the SYRK and HERK rows above.",
            plots=("syrk", "herk")),
    Section("Variable-size batches", "h100-2026-11-23-blas2", "blas2",
            "First table, gemv_vbatched: against the fixed-size routine on an equal batch (pointer "
            "arrays), and % of roof by size distribution (uniform in [1, N]; skewed: 1% at N, 99% in "
            "[1, N/10]). Second table, gemm_vbatched NN: against the fixed-size routine (equal batch) and "
            "cublas?gemmGroupedBatched with one group per distinct size.", parts=("vbatched",),
            plots=("vbatched",)),
    Section("What bounded GEMV/TRSV ends cost (issue 29), blas2 benchmark before and after",
            "h100-2026-11-26-gemv-bounded-after", "cost",
            "The fix that keeps every GEMV and TRSV load inside its operand (head and tail of misaligned "
            "or odd-length rows) against the commit before it, `bench/run_blas2_bench.py` once on each "
            "side, one after the other on the same GPU. Listed: every shoal row more than 2% slower after "
            "(time after / time before), beside the same ratio of the peer's row of that shape, whose "
            "code did not change: the run-to-run spread.", before="h100-2026-11-26-gemv-bounded-before"),
    Section("The Python package against the C API", "h100-2026-11-26-python", "python",
            "The same strided call (the same handle, stream and operands) through the package with "
            "PyTorch tensors and through the C function called directly (ctypes, arguments prepared "
            "beforehand): ms per call from CUDA events over loops of back-to-back calls on a busy "
            "stream; host us = the host time of one call on a batch of 16. getrf allocates its pivots "
            "and info per call; getrf+out passes them in."),
)


def run_info(run: str) -> tuple[str, str]:
    """(date, device) from the benchmark's own header lines in <run>.txt; a run kept without its
    report: the date its name carries, the device its rows name."""
    if not (RESULTS / f"{run}.txt").is_file():
        rows = md_tables.read(str(RESULTS / f"{run}.csv"))
        return "-".join(run.split("-")[1:4]), rows[0]["device"]
    lines = (RESULTS / f"{run}.txt").read_text().splitlines()
    date = lines[0].rsplit(",", 1)[1].strip()          # "# shoal_bench 0.1.0, 2026-11-22 14:41"
    device = lines[1].split(": ", 1)[1].split("; shoal table")[0]   # "# device 0: NAME (...); cuBLAS ..."
    return date, device


def tuned_table(rows: list[dict]) -> list[str]:
    """One row per routine, precision, form and variant; a column per n."""
    cells: dict[tuple, dict[int, str]] = {}
    for r in rows:
        key = (r["routine"], r["prec"], r["mode"], r["variant"])
        cell = f"{float(r['own_gflops']):.0f}"
        if r["vendor_ms"]:
            cell += f" ({float(r['vendor_ms']) / float(r['own_ms']):.2f}x)"
        cells.setdefault(key, {})[int(r["n"])] = cell
    out = ["| routine | p | form | variant | " + " | ".join(f"n={n}" for n in SIZES) + " |",
           "|---|---|---|---|" + "---|" * len(SIZES)]
    for key in sorted(cells, key=lambda k: (k[0] != "trsm", k)):
        out.append("| " + " | ".join(key) + " | " + " | ".join(cells[key].get(n, "-") for n in SIZES) + " |")
    return out + [""]


COST_KEY = ("prec", "routine", "variant", "case", "m", "n", "batch", "mode")
COST_LIMIT = 1.02   # issue 29: within 2% on every row, or the cost stated per row


def cost_table(before: list[dict], after: list[dict]) -> list[str]:
    """Every shoal row slower after than before by more than COST_LIMIT, with the peer's ratio."""
    def times(rows: list[dict]) -> dict[tuple, dict[str, float]]:
        out: dict[tuple, dict[str, float]] = {}
        for r in rows:
            out.setdefault(tuple(r[k] for k in COST_KEY), {})[r["method"]] = float(r["median_ms"])
        return out
    b, a = times(before), times(after)

    def peers(k: tuple) -> list[float]:   # after / before of the cuBLAS methods at shape k
        return [a[k][m] / b[k][m] for m in sorted(a[k]) if m.startswith("cublas") and m in b.get(k, {})]
    shoal = [(a[k]["shoal"] / b[k]["shoal"], k) for k in a if "shoal" in a[k] and "shoal" in b.get(k, {})]
    peer = [x for k in a for x in peers(k)]
    slow = sorted((x for x in shoal if x[0] > COST_LIMIT), reverse=True)
    count = lambda xs, f: sum(1 for x in xs if f(x))  # noqa: E731
    ratios = sorted(r for r, _ in shoal)
    out = [f"{len(shoal)} shoal rows: median after/before {ratios[len(ratios) // 2]:.3f}, "
           f"{count(ratios, lambda r: r > COST_LIMIT)} above {COST_LIMIT}, "
           f"{count(ratios, lambda r: r < 2 - COST_LIMIT)} below {2 - COST_LIMIT:.2f}; the peer's "
           f"{len(peer)} rows (unchanged code): {count(peer, lambda r: r > COST_LIMIT)} above "
           f"{COST_LIMIT}, {count(peer, lambda r: r < 2 - COST_LIMIT)} below {2 - COST_LIMIT:.2f}, "
           f"highest {max(peer):.2f}.", "",
           "| routine | p | variant | case | m | n | batch | form | before ms | after ms | after / before "
           "| peer after / before |", "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for ratio, k in slow:
        p, routine, variant, case, m, n, batch, mode = k
        out.append(f"| {routine} | {p} | {variant} | {case} | {m} | {n} | {batch} | {mode} | "
                   f"{b[k]['shoal']:.4f} | {a[k]['shoal']:.4f} | {ratio:.3f} | "
                   f"{' / '.join(f'{x:.3f}' for x in peers(k)) or '-'} |")
    return out + [""]


def plot_links(s: Section) -> list[str]:
    """The section's plots (`make plots` draws them): one image link per family, on one line."""
    if not s.plots:
        return []
    links = [f"![{s.title}: {f}](../bench/results/{plot_data.png_name(s.run, f)})" for f in s.plots]
    return [" ".join(links), ""]


def section(s: Section) -> list[str]:
    rows = md_tables.read(str(RESULTS / f"{s.run}.csv"))
    date, device = run_info(s.run)
    where = f"`bench/results/{s.run}.csv` (the printed report beside it: `{s.run}.txt`)"
    if s.kind == "cost":
        source = f"`{COMMANDS['blas2']}`"
        where = f"`bench/results/{s.before}.csv` before, `bench/results/{s.run}.csv` after (CSVs only)"
    elif s.kind in COMMANDS:
        source = f"`{COMMANDS[s.kind]}` (the benchmark that `make bench` runs)"
    elif s.kind == "python":
        source = "`bench/python_overhead.py` (`make bench-python`)"
    elif s.kind in SCRIPTS:
        source = f"`{SCRIPTS[s.kind]}`"
    else:
        source = "the tuner (`make tune`), from the tuned database"
    out = [f"## {s.title}", "", f"Measured {date} on {device}; {source}, {where}.", "", s.intro, ""]
    out += plot_links(s)
    if s.kind == "gemm":
        out += md_tables.gemm_tables(rows)
    elif s.kind == "tuned":
        out += tuned_table(rows)
    elif s.kind == "spec":
        out += run_spec_bench.table(rows).splitlines()
    elif s.kind == "python":
        out += python_overhead.table(rows).splitlines()
    elif s.kind == "qr-torch":
        out += run_qr_torch_bench.table(rows).splitlines()
    elif s.kind == "gebrd":
        out += run_gebrd_bench.table(rows).splitlines()
    elif s.kind == "lapack":
        picked = [r for r in rows if not s.nrhs or r["nrhs"] == s.nrhs]
        table = md_tables.peers_table if s.peers else md_tables.lapack_table
        out += table(picked, s.routine, s.variant, s.sizes)
    elif s.kind == "dx":
        out += md_tables.dx_table(rows)
    elif s.kind == "cost":
        out += cost_table(md_tables.read(str(RESULTS / f"{s.before}.csv")), rows)
    else:
        for part in s.parts:
            out += {"gemv": md_tables.gemv_tables, "trsv": md_tables.trsv_table,
                    "vbatched": md_tables.vbatched_tables}[part](rows)
    if s.notes:
        out += [""] + list(s.notes)
    while out and out[-1] == "":
        out.pop()
    return out + [""]


def render() -> str:
    lines = ["# shoal: measured results", "",
             "Generated by `bench/results_doc.py` (`make results-doc`) from the CSV files in `bench/results/`; "
             "do not edit by hand (`tests/test_results_doc.py` fails when this page and the CSVs disagree). "
             "Every figure is the median of CUDA-event-timed runs after warm-up, on data larger than 4x the L2 "
             "cache, with shoal and the vendor measured in the same run on the same data, and every method "
             "checked against a host reference before it was timed.", ""]
    for s in SECTIONS:
        lines += section(s)
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--check", action="store_true", help="compare with --out instead of writing it")
    args = ap.parse_args()
    text = render()
    if args.check:
        if not args.out.is_file() or args.out.read_text() != text:
            print(f"{args.out} is stale: run `make results-doc`", file=sys.stderr)
            return 1
        return 0
    args.out.write_text(text)
    print(f"[results-doc] {args.out} written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
