#!/usr/bin/env bash
# Runs on the GPU machine over a copy of the tree with build/, lib/ and tuned_db/shoal.sqlite
# carried from the build machine (the GPU machine has no OpenBLAS headers and no network).
# Usage: scripts/device_tune.sh "<precision>:<minutes> ..." [test]   e.g. "d:6 s:3"
# Leaves gpu.txt, tests.log, tune.log, show.txt and shoal.sql.gz in $OUT (files come back only up
# to 16 MB, and the dump with every measurement is larger).
set -uo pipefail
OUT=${OUT:-/tmp/shoal_out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
budgets=${1:-"d:4 s:4"}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv > "$OUT/gpu.txt"
build/bin/shoal_tune --device-info >> "$OUT/gpu.txt" || exit 1
cat "$OUT/gpu.txt"
if [ "${2:-}" = test ]; then
  timeout 150 python3 -m pytest -q -x tests/test_c_api.py tests/test_gpu_gemm.py > "$OUT/tests.log" 2>&1
  tail -5 "$OUT/tests.log"
fi
for pm in $budgets; do
  p=${pm%%:*} minutes=${pm##*:}
  timeout $((minutes * 60 + 40)) python3 -m generator tune --db tuned_db/shoal.sqlite --tuner build/bin/shoal_tune \
    --work /tmp/shoal_tune --routines gemm --precisions "$p" --max-minutes "$minutes" >> "$OUT/tune.log" 2>&1
  echo "tune $p exit $?" | tee -a "$OUT/tune.log"
  tail -3 "$OUT/tune.log"
done
python3 -m generator show --db tuned_db/shoal.sqlite > "$OUT/show.txt" 2>&1
python3 -m generator dump-db --db tuned_db/shoal.sqlite --sql /tmp/shoal.sql && gzip -c /tmp/shoal.sql > "$OUT/shoal.sql.gz"
grep -c "" "$OUT/show.txt"; tail -25 "$OUT/show.txt"
