#!/usr/bin/env bash
# The GPU run complex TRSM waits for (issue 28: shoal_{c,z}trsm_batched / _strided_batched): on an
# H100 (or any CUDA GPU), from the repository root:
#   1. builds the test and benchmark programs if they are missing (make test-programs; CUDA_ARCHS
#      from the environment, default 90);
#   2. test_spec_gpu with SHOAL_REQUIRE_GPU=1 on the c and z TRSM cases (tests/cases/trsm.toml),
#      and, as a control, the s and d ones (the real kernels came through the template change);
#   3. compute-sanitizer memcheck over the c and z cases (scripts/sanitize.sh, reduced batches);
#   4. the spec benchmark of c and z TRSM against cuBLAS (cublas{C,Z}trsmBatched, pointer arrays)
#      at the tuned sizes, and of s and d beside them (same run).
# Output under ${OUT:-build/ctrsm_check}: tests_cz.txt, tests_sd.txt, sanitize/, bench_cz.{csv,md},
# bench_sd.{csv,md}, summary.txt. Exit 0 when the tests and memcheck passed.
# Untuned c and z: the kernels' portable default serves t <= 32 and the recursive driver (leaf 32,
# cuBLAS complex GEMM for the off-diagonal updates) the rest; `make tune ROUTINES=trsm
# PRECISIONS="c z"` tunes them (then `make` and this script again).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-build/ctrsm_check}
mkdir -p "$OUT"
export SHOAL_REQUIRE_GPU=1
CUDA_ARCHS=${CUDA_ARCHS:-90}
status=0

if [ ! -x build/tests/test_spec_gpu ] || [ ! -x build/bin/shoal_spec_bench ]; then
  make -j"$(nproc)" CUDA_ARCHS="$CUDA_ARCHS" test-programs build/bin/shoal_spec_bench > "$OUT/build.txt" 2>&1 \
    || { echo "build failed (see $OUT/build.txt)"; tail -20 "$OUT/build.txt"; exit 1; }
fi

echo "== tests: c and z TRSM cases"
SHOAL_TEST_CASES='ctrsm_*,ztrsm_*' build/tests/test_spec_gpu > "$OUT/tests_cz.txt" 2>&1
rc=$?; echo "test_spec_gpu (c, z) rc=$rc"; tail -3 "$OUT/tests_cz.txt"; grep '^FAILED' "$OUT/tests_cz.txt" | head -20
[ $rc -eq 0 ] || status=1

echo "== tests: s and d TRSM cases (control)"
SHOAL_TEST_CASES='strsm_*,dtrsm_*' build/tests/test_spec_gpu > "$OUT/tests_sd.txt" 2>&1
rc=$?; echo "test_spec_gpu (s, d) rc=$rc"; tail -3 "$OUT/tests_sd.txt"; grep '^FAILED' "$OUT/tests_sd.txt" | head -20
[ $rc -eq 0 ] || status=1

echo "== memcheck: c and z TRSM cases"
SANITIZE_TOOLS=memcheck SHOAL_TEST_CASES='ctrsm_*,ztrsm_*' SANITIZE_LOG_DIR="$OUT/sanitize" \
  scripts/sanitize.sh build/tests/test_spec_gpu > "$OUT/sanitize.txt" 2>&1
rc=$?; echo "sanitize (memcheck) rc=$rc"; tail -6 "$OUT/sanitize.txt"
[ $rc -eq 0 ] || status=1

echo "== benchmark: c, z (and s, d) TRSM against cuBLAS"
SIZES=${SIZES:-2,4,8,16,32,64,128,256,512,1024}
for p in "c z" "s d"; do
  tag=$(echo "$p" | tr -d ' ')
  rows=""
  for prec in $p; do
    build/bin/shoal_spec_bench trsm "$prec" array ${SIZES//,/ } > "$OUT/bench_$prec.csv" 2> "$OUT/bench_$prec.err" \
      || echo "shoal_spec_bench trsm $prec: rc=$?"
  done
  python3 - "$OUT" $p > "$OUT/bench_$tag.md" <<'PY'
import csv, sys
out, precs = sys.argv[1], sys.argv[2:]
print("| p | variant | n | batch | shoal ms | served by | cuBLAS ms | x cuBLAS | own ms | error |")
print("|---|---|---|---|---|---|---|---|---|---|")
for p in precs:
    rows = list(csv.DictReader(open(f"{out}/bench_{p}.csv")))
    g = {}
    for r in rows:
        g.setdefault((r["variant"], int(r["n"])), {})[r["method"]] = r
    for (v, n), m in sorted(g.items()):
        s, pe, o = m.get("shoal"), m.get("peer"), m.get("shoal_own")
        if not s:
            continue
        x = float(pe["median_ms"]) / float(s["median_ms"]) if pe else float("nan")
        print(f"| {p} | {v} | {n} | {s['batch']} | {float(s['median_ms']):.4f} | {s['served_by']} | "
              f"{float(pe['median_ms']) if pe else float('nan'):.4f} | {x:.2f} | "
              f"{float(o['median_ms']) if o else float('nan'):.4f} | {s['error']} |")
PY
  cat "$OUT/bench_$tag.md"
done
{ echo "status $status"; grep -c ' ok$' "$OUT/tests_cz.txt" | sed 's/^/c,z cases ok: /'; } > "$OUT/summary.txt"
cat "$OUT/summary.txt"
exit $status
