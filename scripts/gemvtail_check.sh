#!/usr/bin/env bash
# The GPU run the GEMV bounded-ends fix (branch gemvtail2) waits for (issue 29): test_blas2_gpu, memcheck of the GEMV/TRSV
# cases, and bench/blas2 before (cmp/: main's build, see docs/sanitize.md) and after, twice each,
# with after/before per row. Run on the device with build, lib, generated and cmp carried.
set -uo pipefail
export SHOAL_REQUIRE_GPU=1; build/tests/test_blas2_gpu > $OUT/tests.txt 2>&1; echo "test_blas2_gpu rc=$?"; tail -3 $OUT/tests.txt; SANITIZE_TOOLS=memcheck SHOAL_TEST_CASES='*gemv*,*trsv*' SANITIZE_LOG_DIR=/tmp/san scripts/sanitize.sh build/tests/test_blas2_gpu; cp /tmp/san/summary.txt $OUT/san_summary.txt; for i in 1 2; do for s in before after; do b=build/bin/shoal_blas2_bench; [ $s = before ] && b=cmp/build/bin/shoal_blas2_bench; $b --routine gemv,gemv_misaligned,trsv,gemv_vbatched --csv $OUT/$s$i.csv > /dev/null 2>&1 || echo "$s$i rc=$?"; done; done; python3 - $OUT <<'EOF' | tee $OUT/compare.txt
import csv, glob, sys
t = {}
for f in sorted(glob.glob(sys.argv[1] + '/*.csv')):
    side = 'b' if '/before' in f else 'a'
    for r in csv.DictReader(open(f)):
        if r['method'].startswith('shoal'):
            k = (r['prec'], r['routine'], r['variant'], r['case'], r['m'], r['n'], r['method'], r['mode'])
            t.setdefault(k, {}).setdefault(side, []).append(float(r['median_ms']))
w = []
for k, v in sorted(t.items()):
    if 'a' in v and 'b' in v:
        x = min(v['a']) / min(v['b']); w.append((x, k)); print(' '.join(k), 'after/before %.3f' % x)
print('rows', len(w), 'worst', max(w), 'over 1.02:', sum(x > 1.02 for x, _ in w))
EOF
