#!/usr/bin/env bash
# The cuSolverDx peer's first GPU run (bench/dx_peer.h; issue 27 item 1), in two steps:
#
#   scripts/dx_peer_gpu_check.sh prepare   on the build machine (OpenBLAS headers, a package
#       index or .wheels/): libmathdx into .venv (make mathdx-deps), then libshoal and
#       build/bin/shoal_lapack_bench linked with the peer (its rpath finds libmathdx in .venv
#       relative to build/bin, so the tree can move).
#   scripts/dx_peer_gpu_check.sh run       on the GPU machine, over a copy of the tree carrying
#       build, lib, generated, tuned_db/shoal.sqlite and .venv/lib/python3.*/site-packages/nvidia
#       (libmathdx, 21 MB): the factorizations getrf, potrf (L, U) and geqrf at n in
#       {2, 4, 8, 16, 32} (--quick; every measured n is <= 64) in s and d with shoal, the vendor,
#       OpenBLAS and cusolverdx in one run and one CSV, then the side-by-side table. The peer's
#       kernels are generated there first (40 kernels, ~10 s of CPU each, all cores).
# Where the GPU machine has no index and no .venv was carried: `make mathdx-wheel` here puts the
# wheel in .wheels/ (ignored by git); carry .wheels and `make mathdx-deps` installs from it.
#
#   scripts/dx_peer_gpu_check.sh build-run  on the GPU machine alone (as the H100 run of
#       2026-11-26 went): the wheel from a carried .wheels/ into .dx/ (pip --target: that host's
#       python3 has the build's packages but a venv made from it does not), libshoal and the
#       bench built there with MATHDX_HOME=.dx/nvidia/cu13, then `run`.
# Results: $OUT (default /tmp/shoal_out)/lapack-dx.{csv,txt} and dx-side-by-side.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/shoal_out}
case "${1:-}" in
prepare)
    make venv mathdx-deps
    make -j"$(nproc)" lib/libshoal.so build/bin/shoal_lapack_bench build/bin/shoal_dx_gen
    build/bin/shoal_lapack_bench --list --quick --routine getrf > /dev/null
    nm -D build/bin/shoal_lapack_bench | grep -q cusolverdx ||
        { echo "shoal_lapack_bench was linked without libmathdx (bench/dx_none.c)" >&2; exit 1; }
    ;;
build-run)
    # the Makefile's venv rule would pip install without an index: a stamp stands for it, as in
    # scripts/device_session.sh
    python3 -m venv --system-site-packages .venv && touch .venv/.stamp
    python3 -m pip install -q --disable-pip-version-check --no-deps --no-index --find-links .wheels \
        --target .dx -r bench/requirements-mathdx.txt
    make -j"$(nproc)" PY=python3 MATHDX_HOME="$PWD/.dx/nvidia/cu13" lib/libshoal.so build/bin/shoal_lapack_bench \
        build/bin/shoal_dx_gen
    exec "$0" run
    ;;
run)
    mkdir -p "$OUT"
    export SHOAL_DX_CACHE=${SHOAL_DX_CACHE:-build/dx_cache}
    PY=python3
    [ -x .venv/bin/python ] && PY=.venv/bin/python
    rc=0
    $PY bench/run_lapack_bench.py --no-plot --out "$OUT/lapack-dx.csv" -- \
        --quick --routine getrf,potrf,geqrf ${LAPACK_BENCH_ARGS:-} || rc=$?
    $PY - "$OUT/lapack-dx.csv" > "$OUT/dx-side-by-side.txt" <<'PYEOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
def gf(at, method, mode=None):
    v = [float(r["gflops"]) for r in at if r["method"] == method and (mode is None or r["mode"] == mode)
         and r["gflops"] and r["ok"] == "1"]
    return max(v) if v else float("nan")
keys = sorted({(r["prec"], r["routine"], r["variant"], int(r["n"])) for r in rows})
print(f"{'prec':4} {'routine':7} {'uplo':4} {'n':>3} | {'shoal':>8} {'vendor':>8} {'cusolvdx':>8} {'openblas':>8} | "
      f"{'shoal/dx':>8} {'vendor/dx':>9}   (Gflop/s; shoal = strided)")
for p, rt, v, n in keys:
    at = [r for r in rows if (r["prec"], r["routine"], r["variant"], int(r["n"])) == (p, rt, v, n)]
    s = gf(at, "shoal", "strided")
    vend = max([gf(at, m) for m in {r["method"] for r in at} - {"shoal", "cusolverdx", "openblas"}] or [float("nan")])
    dx, cpu = gf(at, "cusolverdx"), gf(at, "openblas")
    print(f"{p:4} {rt:7} {v:4} {n:3} | {s:8.1f} {vend:8.1f} {dx:8.1f} {cpu:8.1f} | {s / dx:8.2f} {vend / dx:9.2f}")
PYEOF
    cat "$OUT/dx-side-by-side.txt"
    exit $rc
    ;;
*)
    awk 'NR > 1 && /^#/ { print } /^set /{ exit }' "$0"
    exit 2
    ;;
esac
