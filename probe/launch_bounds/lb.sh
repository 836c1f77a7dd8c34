#!/usr/bin/env bash
# usage (GPU machine, repository root): probe/launch_bounds/lb.sh ROUTINE TEMPLATE...
# The TEMPLATEs of ROUTINE (file names under templates/) with their kernel's __launch_bounds__
# asking 512 (the shipped gemm floor; trsv ships none), 1024 or 2048 resident threads per SM:
# a probe tune of probe/launch_bounds/ROUTINE.toml (single precision) into one scratch database
# per floor, then each shape's best own kernel: floor, mode, variant, n, own/vendor, Gflop/s, kernel.
set -u
routine=$1; shift
OUT=${OUT:-/tmp/lb_out}
work=build/probe_lb/$routine
mkdir -p "$OUT" "$work"
cp "probe/launch_bounds/$routine.toml" "$work/"
for t in 512 1024 2048; do
  tdir=()
  if [ "$t" != 512 ]; then
    mkdir -p "$work/t$t"
    for tpl in "$@"; do
      T=$t python3 - "templates/$tpl" "$work/t$t/$tpl" <<'PY'
import os, re, sys
src = open(sys.argv[1]).read()
bound = "__launch_bounds__({{ cfg.DIM_X }}, {{ (%s + cfg.DIM_X - 1) // cfg.DIM_X }})" % os.environ["T"]
out, n = re.subn(r"__launch_bounds__\(\{\{ cfg\.DIM_X \}\}.*\)$", bound, src, flags=re.M)
assert n == 1, f"{sys.argv[1]}: {n} launch bounds"
open(sys.argv[2], "w").write(out)
PY
    done
    tdir=(--templates "$work/t$t")
  fi
  python3 -m generator tune --db "/tmp/lb_$routine$t.sqlite" --tuner build/bin/shoal_tune --work "/tmp/lbw_$routine$t" \
    --routines "$routine" --precisions s --max-minutes 2 --search-space "$work" "${tdir[@]}" > "$OUT/$routine$t.log" 2>&1
  tail -1 "$OUT/$routine$t.log"
  python3 -m generator show --db "/tmp/lb_$routine$t.sqlite" --search-space "$work" "${tdir[@]}" | grep -E "^s " | \
    awk -v t="$t" '{print t, $2, $3, $4, $NF, $(NF-1), $(NF-2)}'
done
