#!/usr/bin/env bash
# The GPU run the SYRK tiles parameters CP (C's path: 1 team slots, 0 per thread) and ST = 0 (no
# ring) wait for: on an H100 (the device of the SYRK measurements in tuned_db), from the
# repository root:
#   1. carries the SYRK measurements of the base revision (${BASE:-main}) to the new template
#      version (python -m generator carry-version: renders the shipped kernels and samples at both
#      and records the carry only when every file matches; CP = 1 renders byte-identical);
#   2. builds the library and test programs (CUDA_ARCHS from the environment, default 90);
#   3. test_spec_gpu with SHOAL_REQUIRE_GPU=1 on the SYRK cases (tests/cases/syrk.toml) as a
#      control: the shipped kernels are those carried;
#   4. tunes SYRK s and d: the tuner resumes, skipping every task measured or carried, so only the
#      new configurations (CP = 0, ST = 0) are timed; then the library is rebuilt with the new
#      winners and the SYRK cases run again (they now exercise whichever new kernels won).
# Output under ${OUT:-build/syrkcpath_check}: carry.txt, build*.txt, tests_before.txt, tune.txt,
# tests_after.txt, summary.txt. Exit 0 when the carry, the tests and the tuning passed. The
# tuned database (tuned_db/shoal.sql) is dumped by `make tune`: commit it after this run.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-build/syrkcpath_check}
BASE=${BASE:-main}
mkdir -p "$OUT"
export SHOAL_REQUIRE_GPU=1
CUDA_ARCHS=${CUDA_ARCHS:-90}
PY=${PY:-.venv/bin/python}
status=0

echo "== carry: SYRK measurements of $BASE to the new template version"
make tuned_db/shoal.sqlite > "$OUT/db.txt" 2>&1 || { echo "database build failed"; tail -20 "$OUT/db.txt"; exit 1; }
"$PY" -m generator carry-version --db tuned_db/shoal.sqlite --routine syrk --base "$BASE" > "$OUT/carry.txt" 2>&1
rc=$?; echo "carry-version rc=$rc"; tail -5 "$OUT/carry.txt"
[ $rc -eq 0 ] || { echo "renderings differ: not carried, so tuning would remeasure everything; stopping"; exit 1; }
"$PY" -m generator dump-db --db tuned_db/shoal.sqlite --sql tuned_db/shoal.sql >> "$OUT/carry.txt" 2>&1

echo "== build"
make -j"$(nproc)" CUDA_ARCHS="$CUDA_ARCHS" test-programs > "$OUT/build.txt" 2>&1 \
  || { echo "build failed (see $OUT/build.txt)"; tail -20 "$OUT/build.txt"; exit 1; }

echo "== tests: SYRK cases (carried kernels)"
SHOAL_TEST_CASES='*syrk*' build/tests/test_spec_gpu > "$OUT/tests_before.txt" 2>&1
rc=$?; echo "test_spec_gpu rc=$rc"; tail -3 "$OUT/tests_before.txt"; grep '^FAILED' "$OUT/tests_before.txt" | head -20
[ $rc -eq 0 ] || status=1

echo "== tune: SYRK s, d (resumes: only CP = 0 and ST = 0 configurations are timed)"
make tune ROUTINES=syrk PRECISIONS="s d" TUNE_MINUTES="${TUNE_MINUTES:-0}" > "$OUT/tune.txt" 2>&1
rc=$?; echo "tune rc=$rc"; grep '^\[tune\]' "$OUT/tune.txt" | tail -8
[ $rc -eq 0 ] || status=1

echo "== rebuild with the new winners, SYRK cases again"
make -j"$(nproc)" CUDA_ARCHS="$CUDA_ARCHS" test-programs > "$OUT/build_after.txt" 2>&1 \
  || { echo "rebuild failed (see $OUT/build_after.txt)"; tail -20 "$OUT/build_after.txt"; exit 1; }
grep -ho 'shoal_[sd]syrk_tiles_[a-z0-9_]*_\(cp0\|st0_cp0\)' generated/syrk_*.cu 2>/dev/null | sort -u > "$OUT/new_winners.txt"
echo "new-parameter kernels shipped: $(wc -l < "$OUT/new_winners.txt")"
SHOAL_TEST_CASES='*syrk*' build/tests/test_spec_gpu > "$OUT/tests_after.txt" 2>&1
rc=$?; echo "test_spec_gpu rc=$rc"; tail -3 "$OUT/tests_after.txt"; grep '^FAILED' "$OUT/tests_after.txt" | head -20
[ $rc -eq 0 ] || status=1

{ echo "status $status"; grep -c '^ok ' "$OUT/tests_after.txt" | sed 's/^/syrk cases ok: /'; } > "$OUT/summary.txt"
cat "$OUT/summary.txt"
exit $status
