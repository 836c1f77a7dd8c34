#!/usr/bin/env bash
# One call on the GPU machine, over a copy of the tree with build/, lib/, generated/ and
# tuned_db/shoal.sqlite carried from the build machine (the GPU machine has no OpenBLAS headers
# and no network, so test and benchmark programs are built here and link libshoal dynamically).
# What it does is chosen by environment variables, in this order:
#   BUILD=1    build there first (16 cores: `all` and the spec bench, plus BUILD_TARGETS, e.g.
#              test-programs; ARCHS default 90), with the system's Python packages (no network there)
#              and, where the system lacks cblas.h, the headers carried in build/devinc/ (carry it)
#   PRE="cmd"  a command run after the build (e.g. one test program), its output in pre.log
#   TUNE="gemm:s,d:3 getrf,potrf:d:2"  tune ROUTINES:PRECISIONS:MINUTES, one budget per item, each
#              cut to what the call has left (CALL_SECONDS, default 570, less 120 s for the dump)
#   REMEASURE_DRIVERS=1  the tune items time their routines' driver tasks, and the vendor rows of
#              their shapes, again (after the kernels were retuned and EMIT rebuilt the library
#              the tuner times drivers through); =TIME (ISO 8601 UTC, as tune.log printed it) resumes
#              such a re-timing cut by an earlier call: rows recorded before TIME are timed again
#   REMEASURE_STRIDED_VENDOR=1  the tune items time the vendor rows of their strided shapes again
#              (the library's strided route to the vendor writes pointer arrays; rows timed before
#              2026-11-28 leave that out); =TIME resumes a cut re-timing, as above
#   EMIT=1     emit the dispatch tables from this machine's (newest) database and rebuild libshoal
#              for ARCHS (default 90: the GPU at hand)
#   TESTS="tests/test_gpu_lu.py ..."   pytest these files (GPU tests)
#   BENCH="gemm lapack blas2 spec"     run these benchmarks (BENCH_ARGS / LAPACK_BENCH_ARGS /
#                                      BLAS2_BENCH_ARGS); also gebrd and potrf-vbatched (their make
#                                      targets: GEBRD_BENCH_ARGS, POTRF_VBATCHED_BENCH_ARGS, limits
#                                      gebrd_BENCH_SECONDS, potrf_vbatched_BENCH_SECONDS or BENCH_SECONDS)
# Leaves gpu.txt, tune.log, show.txt, shoal.sql.gz, build.log, tests.log and bench outputs in $OUT
# (8 files at most come back, each under 16 MB: the full dump is gzipped).
set -uo pipefail
OUT=${OUT:-/tmp/shoal_out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
call_start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv > "$OUT/gpu.txt"
if [ "${BUILD:-0}" = 1 ]; then
  python3 -m venv --system-site-packages .venv && touch .venv/.stamp
  t0=$(date +%s)
  # the spec bench is not part of `all` (the benchmarks are `make bench`'s); BENCH=spec needs it
  # The GPU machine has OpenBLAS's runtime library but not its headers: a build/devinc/ carried
  # from the build machine (cblas.h, openblas_config.h) and a link name made here let it build the
  # test and benchmark programs too (BUILD_TARGETS=test-programs ...) instead of carrying them.
  cc_devinc=()
  if ! echo '#include <cblas.h>' | gcc -E -x c - > /dev/null 2>&1 && [ -f build/devinc/cblas.h ]; then
    blas_so=$(ls /usr/lib/x86_64-linux-gnu/libopenblas.so.0 /usr/lib/x86_64-linux-gnu/openblas*/libopenblas.so.0 2>/dev/null | head -1)
    mkdir -p build/devlib && ln -sf "$blas_so" build/devlib/libopenblas.so
    cc_devinc=(CC="gcc -I$PWD/build/devinc -L$PWD/build/devlib")
  fi
  make -j16 PY=python3 CUDA_ARCHS="${ARCHS:-90}" "${cc_devinc[@]}" all build/bin/shoal_spec_bench ${BUILD_TARGETS:-} > "$OUT/build.log" 2>&1 ||
    { tail -40 "$OUT/build.log"; exit 1; }
  echo "build: $(( $(date +%s) - t0 )) s"
fi
if [ -n "${PRE:-}" ]; then
  bash -c "$PRE" > "$OUT/pre.log" 2>&1
  echo "pre exit $?"; tail -${PRE_TAIL:-30} "$OUT/pre.log"
fi
build/bin/shoal_tune --device-info >> "$OUT/gpu.txt" || exit 1
# the database, from the committed dump unless a newer .sqlite was carried (or left by an earlier
# call on this machine while it stayed warm). Which one, and its newest run, is printed: a fresh
# machine starts from the committed dump, so tuning of an earlier call whose dump was not
# committed is not in it (2026-11-27: a SYRK re-timing was lost that way, the call's output
# giving no sign of it)
if [ -f tuned_db/shoal.sqlite ]; then
  db_origin="already here (carried, or left by an earlier call on this machine)"
else
  db_origin="loaded from the committed dump"
  python3 -m generator load-db --sql tuned_db/shoal.sql.gz --db tuned_db/shoal.sqlite > /dev/null
fi
python3 - "$db_origin" <<'PY' | tee -a "$OUT/gpu.txt"
import sqlite3, sys
con = sqlite3.connect("tuned_db/shoal.sqlite")
n, last, routines = con.execute(
    "SELECT count(*), max(started), (SELECT routines FROM runs ORDER BY started DESC LIMIT 1) FROM runs").fetchone()
print(f"database: {sys.argv[1]}; {n} runs, the newest started {last} ({routines or '-'})")
PY
for item in ${TUNE:-}; do
  IFS=: read -r routines precs minutes <<< "$item"
  # a call stopped at its limit loses the machine's database unless the dump below ran: keep
  # 120 s for it (tuning resumes where it stopped, in the next call)
  left=$(( (${CALL_SECONDS:-570} - ($(date +%s) - call_start) - 120) / 60 ))
  [ "$left" -lt "$minutes" ] && minutes=$left
  if [ "$minutes" -lt 1 ]; then
    echo "tune $item: not started, under a minute left in this call" | tee -a "$OUT/tune.log"
    continue
  fi
  timeout $((minutes * 60 + 40)) python3 -m generator tune --db tuned_db/shoal.sqlite --tuner build/bin/shoal_tune \
    --work /tmp/shoal_tune --routines "$routines" --precisions "$precs" --max-minutes "$minutes" \
    ${REMEASURE_DRIVERS:+--remeasure-drivers ${REMEASURE_DRIVERS#1}} \
    ${REMEASURE_STRIDED_VENDOR:+--remeasure-strided-vendor ${REMEASURE_STRIDED_VENDOR#1}} >> "$OUT/tune.log" 2>&1
  echo "tune $item exit $?" | tee -a "$OUT/tune.log"; tail -2 "$OUT/tune.log"
done
if [ -n "${TUNE:-}" ]; then
  # the dump first: it is what must come back
  python3 -m generator dump-db --db tuned_db/shoal.sqlite --sql "$OUT/shoal.sql.gz"
  # the winners table is for reading, not keeping: capped so that it can never cost the call
  # (it queried the winners view once per routine and took 8 minutes at 170 000 measurements,
  # which ended three calls of 2026-11-27 at their limit; one query now, 27 s on 2 cores)
  timeout 120 python3 -m generator show --db tuned_db/shoal.sqlite > "$OUT/show.txt" 2>&1
fi
if [ "${EMIT:-0}" = 1 ]; then
  # keep make from reloading the database from the (older) SQL dump
  mkdir -p .venv && touch .venv/.stamp
  # emit rewrites only the files whose text changed, so make recompiles only those kernels
  python3 -m generator emit --db tuned_db/shoal.sqlite --out generated > "$OUT/build.log" 2>&1
  # both libraries, and every program already built: the benchmarks link the static one, so a
  # program left as it was would still dispatch from the old tables
  make -o tuned_db/shoal.sqlite -o generated/sources.mk PY=python3 CUDA_ARCHS="${ARCHS:-90}" -j16 lib/libshoal.so \
    lib/libshoal.a $(ls build/bin/* build/tests/test_* 2>/dev/null) >> "$OUT/build.log" 2>&1 ||
    { tail -30 "$OUT/build.log"; exit 1; }
  tail -2 "$OUT/build.log"
fi
if [ -n "${TESTS:-}" ]; then
  # a GPU is expected here: a GPU test that skips fails; tests/test_gpu_spec.py alone runs its
  # program for 214 s on the H100 (3016 cases, 2026-11-27)
  SHOAL_REQUIRE_GPU=1 timeout "${TEST_SECONDS:-360}" python3 -m pytest -q -rf $TESTS > "$OUT/tests.log" 2>&1
  grep -E "FAILED|passed|failed" "$OUT/tests.log" | tail -40
fi
for b in ${BENCH:-}; do
  case $b in
    gemm) timeout 300 python3 bench/run_bench.py --out "$OUT/bench.csv" --no-plot ${BENCH_ARGS:-} > /dev/null 2> "$OUT/bench.err"
          echo "bench gemm exit $?"; tail -40 "$OUT/bench.txt" ;;
    blas2) timeout "${BLAS2_BENCH_SECONDS:-300}" python3 bench/run_blas2_bench.py --out "$OUT/blas2.csv" ${BLAS2_BENCH_ARGS:-} > /dev/null 2> "$OUT/blas2_bench.err"
          echo "bench blas2 exit $?"; tail -60 "$OUT/blas2.txt" ;;
    spec) timeout "${SPEC_BENCH_SECONDS:-300}" python3 bench/run_spec_bench.py --out "$OUT/spec.csv" ${SPEC_BENCH_ARGS:-} > /dev/null 2> "$OUT/spec_bench.err"
          echo "bench spec exit $?"; cat "$OUT/spec.md" ;;
    lapack) timeout "${LAPACK_BENCH_SECONDS:-480}" python3 bench/run_lapack_bench.py --out "$OUT/lapack.csv" ${LAPACK_BENCH_ARGS:-} > /dev/null 2> "$OUT/lapack_bench.err"
          echo "bench lapack exit $?"; tail -60 "$OUT/lapack.txt" ;;
    # the torch benchmarks through their make targets (the package on PYTHONPATH, this libshoal);
    # SIGINT at the limit, so that the script's finally still writes the .txt of the rows it has
    gebrd|potrf-vbatched)
          v=$(echo "$b" | tr a-z- A-Z_)
          secs=${b//-/_}_BENCH_SECONDS; args=${v}_BENCH_ARGS
          timeout -s INT "${!secs:-${BENCH_SECONDS:-300}}" make -o tuned_db/shoal.sqlite -o generated/sources.mk PY=python3 "bench-$b" \
            "${v}_BENCH_OUT=$OUT/$b.csv" "${v}_BENCH_ARGS=${!args:-}" > "$OUT/$b.log" 2>&1
          echo "bench $b exit $?"; tail -40 "$OUT/$b.log" ;;
  esac
done
# 8 files at most come back: past that, the logs travel in one archive (tests.log stays readable)
if [ "$(ls "$OUT" | wc -l)" -gt 8 ]; then
  (cd "$OUT" && logs=$(ls | grep -E '\.(err|log)$|^gpu\.txt$|^show\.txt$' | grep -v '^tests\.log$') &&
     tar czf logs.tar.gz $logs && rm -f $logs)
fi
