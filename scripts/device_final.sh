#!/usr/bin/env bash
# Runs on the GPU machine after (resumed) tuning: finishes tuning within a budget, emits the
# dispatch tables, rebuilds libshoal there (nvcc is on that machine; the test and benchmark
# programs built on the build machine link it dynamically), then runs the GPU tests and the
# benchmark. Usage: scripts/device_final.sh "<precision>:<minutes> ..." [bench args...]
# BENCH=0 skips the benchmark. Leaves tune.log, build.log, tests.log, bench.csv/.txt, show.txt and shoal.sql.gz in $OUT.
set -uo pipefail
OUT=${OUT:-/tmp/shoal_out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
budgets=${1:-""}
shift || true
for pm in $budgets; do
  p=${pm%%:*} minutes=${pm##*:}
  timeout $((minutes * 60 + 40)) python3 -m generator tune --db tuned_db/shoal.sqlite --tuner build/bin/shoal_tune \
    --work /tmp/shoal_tune --routines gemm --precisions "$p" --max-minutes "$minutes" >> "$OUT/tune.log" 2>&1
  echo "tune $p exit $?" | tee -a "$OUT/tune.log"; tail -2 "$OUT/tune.log"
done
python3 -m generator dump-db --db tuned_db/shoal.sqlite --sql /tmp/shoal.sql && gzip -c /tmp/shoal.sql > "$OUT/shoal.sql.gz"
python3 -m generator show --db tuned_db/shoal.sqlite > "$OUT/show.txt" 2>&1
# The database on this machine is the newest: emit from it here, then rebuild the library from
# those sources, keeping make from reloading the database from the (older) SQL dump.
mkdir -p .venv && touch .venv/.stamp
python3 -m generator emit --db tuned_db/shoal.sqlite --out generated > "$OUT/build.log" 2>&1
touch generated/*.cu generated/*.c
make -o tuned_db/shoal.sqlite -o generated/sources.mk PY=python3 -j16 lib/libshoal.so >> "$OUT/build.log" 2>&1 ||
  { tail -20 "$OUT/build.log"; exit 1; }
tail -2 "$OUT/build.log"
timeout 240 python3 -m pytest -q tests/test_c_api.py tests/test_gpu_gemm.py > "$OUT/tests.log" 2>&1
tail -3 "$OUT/tests.log"
[ "${BENCH:-1}" = 1 ] || exit 0
timeout 300 python3 bench/run_bench.py --out "$OUT/bench.csv" --no-plot "$@" > /dev/null 2> "$OUT/bench.err"
echo "bench exit $?"; tail -60 "$OUT/bench.txt"
