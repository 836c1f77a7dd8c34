#!/usr/bin/env bash
# The staged GEMM designs with __launch_bounds__ asking 512 (shipped), 1024 or 2048 resident
# threads per SM: a probe tune of each into its own database, then the best per shape.
OUT=${OUT:-/tmp/pg_out}
for t in 512 1024 2048; do
  tdir=(); [ $t = 512 ] || tdir=(--templates build/probe_trsv/t$t)
  python3 -m generator tune --db /tmp/tr$t.sqlite --tuner build/bin/shoal_tune --work /tmp/trw$t \
    --routines trsv --precisions s --max-minutes 2 --search-space build/probe_trsv "${tdir[@]}" > "$OUT/trsv$t.log" 2>&1
  tail -1 "$OUT/trsv$t.log"
  python3 -m generator show --db /tmp/tr$t.sqlite --search-space build/probe_trsv "${tdir[@]}" | grep -E "^s " | \
    awk -v t=$t '{print t, $2, $3, $4, $NF, $(NF-1), $(NF-2)}'
done
