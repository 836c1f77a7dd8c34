#!/usr/bin/env bash
# The GPU test programs under compute-sanitizer (issue 29): every program x every tool, at reduced
# batches (SHOAL_TEST_QUICK=1, tests/gpu/gpu_test.h), each run failing on any sanitizer report
# (--error-exitcode), then a summary: tool x program, errors. `make sanitize` (tests/sanitize.mk)
# builds the programs and runs this; docs/sanitize.md has the GPU-machine recipe.
#
# Usage: scripts/sanitize.sh [PROGRAM...]   (default: build/tests/test_*_gpu)
# Environment:
#   SANITIZE_TOOLS    tools to run (default "memcheck racecheck synccheck initcheck")
#   SHOAL_TEST_CASES  case-name patterns (comma-separated, shell globs), e.g. "s*,*tail*": only
#                     those cases run; programs with none are left out (racecheck is slow: split
#                     it over calls this way)
#   SANITIZE_JOBS     processes per program and tool (default 1): the program's cases are split
#                     into that many shards (SHOAL_TEST_SHARD, tests/gpu/gpu_test.h) run side by
#                     side on the one GPU, their logs joined. No speed-up measured on the H100
#                     (each process's start dominates: docs/sanitize.md); SHOAL_TEST_SHARD alone
#                     cuts a long run into fixed parts for separate calls
#   SANITIZE_SPLIT    cases (default) or runs: the JOBS processes split the runs of every selected
#                     case instead (SHOAL_TEST_RUN_SHARD; programs whose cases call
#                     gpu_test_run_taken, test_blas2_gpu): for a few cases of hundreds of runs each
#   SHOAL_TEST_QUICK / SHOAL_TEST_MAX_BATCH  the batch cap (default: QUICK=1, i.e. 129)
#   SANITIZE_BUDGET   seconds for the whole run (0: none); runs that would start after it are
#                     "not run", and one still going at the end is stopped ("timeout")
#   SANITIZE_LOG_DIR  where each run's program output and sanitizer log go (default build/sanitize)
#   SANITIZE_ARGS     more compute-sanitizer options for every run (e.g. "--leak-check full")
#   COMPUTE_SANITIZER the program (default: $CUDA_HOME/bin/compute-sanitizer, else on PATH)
#   SHOAL_REQUIRE_GPU=1  no GPU or no compute-sanitizer is a failure instead of a SKIP
# Exit: 0 every run clean and every case passed (or SKIP), 1 a sanitizer report or a failed case,
# 2 usage, 3 runs left undone (budget, timeout).
set -uo pipefail

TOOLS=${SANITIZE_TOOLS:-memcheck racecheck synccheck initcheck}
LOG_DIR=${SANITIZE_LOG_DIR:-build/sanitize}
BUDGET=${SANITIZE_BUDGET:-0}
JOBS=${SANITIZE_JOBS:-1}
# the script shards (SANITIZE_JOBS); a shard of shards would lose cases or runs
unset SHOAL_TEST_SHARD SHOAL_TEST_RUN_SHARD
case ${SANITIZE_SPLIT:=cases} in
  cases) SHARD_VAR=SHOAL_TEST_SHARD ;;
  runs) SHARD_VAR=SHOAL_TEST_RUN_SHARD ;;
  *) echo "SANITIZE_SPLIT='$SANITIZE_SPLIT': cases or runs" >&2; exit 2 ;;
esac
ERROR_EXIT=86 # what compute-sanitizer exits with when it reported something
export SHOAL_TEST_QUICK=${SHOAL_TEST_QUICK:-1}

required() { [ -n "${SHOAL_REQUIRE_GPU:-}" ] && [ "${SHOAL_REQUIRE_GPU}" != 0 ]; }
skip() {
  if required; then echo "FAILED: $1 and SHOAL_REQUIRE_GPU is set"; exit 1; fi
  echo "SKIP: $1"; exit 0
}

# Options per tool: the device heap (malloc/new in kernels) is checked by memcheck.
tool_args() {
  case $1 in
    memcheck) echo "--check-device-heap yes" ;;
    racecheck|synccheck|initcheck) echo "" ;;
    *) echo "unknown tool '$1' (memcheck, racecheck, synccheck, initcheck)" >&2; return 1 ;;
  esac
}

for t in $TOOLS; do tool_args "$t" > /dev/null || exit 2; done
[[ "$JOBS" =~ ^[1-9][0-9]*$ ]] || { echo "SANITIZE_JOBS='$JOBS': a positive count" >&2; exit 2; }
if [ $# -gt 0 ]; then progs=("$@"); else progs=(build/tests/test_*_gpu); fi
for p in "${progs[@]}"; do
  [ -x "$p" ] || { echo "no test program $p (build it: make sanitize builds them all)" >&2; exit 2; }
done

SAN=${COMPUTE_SANITIZER:-}
if [ -z "$SAN" ]; then
  if [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer" ]; then
    SAN=${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer
  else
    SAN=$(command -v compute-sanitizer || true)
  fi
fi
[ -n "$SAN" ] && [ -x "$SAN" ] || skip "no compute-sanitizer (CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}, PATH)"

# The programs' own device check: a run that selects no case exits 77 without a device.
SHOAL_TEST_CASES='//no case//' "${progs[0]}" > /dev/null 2>&1
case $? in
  0) ;;
  77) skip "no CUDA device (${progs[0]})" ;;
  *) echo "FAILED: ${progs[0]} could not start (run it alone to see why)"; exit 1 ;;
esac

# One program under one tool, its cases in JOBS shards side by side; the shards' logs joined into
# $log.san and $log.out. Returns the worst exit: timeout (124) over a report over any other failure.
run_shards() {
  local tool=$1 prog=$2 log=$3 left_ms=$4 i rc worst=0
  local -a pids=()
  for (( i = 0; i < JOBS; ++i )); do
    # shellcheck disable=SC2046,SC2086
    env "$SHARD_VAR=$i/$JOBS" timeout "$(( left_ms / 1000 )).$(printf %03d $(( left_ms % 1000 )))" \
      "$SAN" --tool "$tool" --error-exitcode $ERROR_EXIT --print-limit 200 $(tool_args "$tool") \
      ${SANITIZE_ARGS:-} --log-file "$log.$i.san" "$prog" > "$log.$i.out" 2>&1 &
    pids+=($!)
  done
  : > "$log.san"
  : > "$log.out"
  for (( i = 0; i < JOBS; ++i )); do
    wait "${pids[$i]}"
    rc=$?
    if [ "$rc" -eq 124 ] || { [ "$rc" -eq $ERROR_EXIT ] && [ "$worst" -ne 124 ]; } || [ "$worst" -eq 0 ]; then
      worst=$rc
    fi
    # each shard's logs under a header line (a shard with no summary line leaves its count out,
    # which the caller reads as "no summary")
    [ "$JOBS" -gt 1 ] && echo "=== shard $i/$JOBS, exit $rc" | tee -a "$log.out" >> "$log.san"
    cat "$log.$i.san" >> "$log.san" 2>/dev/null
    cat "$log.$i.out" >> "$log.out"
    rm -f "$log.$i.san" "$log.$i.out"
  done
  return "$worst"
}

# 1 (a report or a failure) outranks 3 (something not run)
worse() { if [ "$1" = 1 ] || [ "$status" = 0 ]; then status=$1; fi; }

mkdir -p "$LOG_DIR"
# milliseconds: with whole seconds a 1 s budget could run out before the first run when the
# clock ticked just after the start
now_ms() { date +%s%3N; }
t_start=$(now_ms)
declare -A cell
status=0
selected_any=0
echo "# compute-sanitizer: $("$SAN" --version 2>/dev/null | tail -1); tools: $TOOLS"
echo "# batches capped at ${SHOAL_TEST_MAX_BATCH:-129}; cases: ${SHOAL_TEST_CASES:-all}; $JOBS processes split the $SANITIZE_SPLIT; logs in $LOG_DIR"
for tool in $TOOLS; do
  for p in "${progs[@]}"; do
    name=$(basename "$p")
    n_cases=$("$p" --list 2>/dev/null | wc -l)
    if [ "$n_cases" -eq 0 ]; then cell[$tool,$name]="-"; continue; fi
    selected_any=1
    left_ms=0
    if [ "$BUDGET" -gt 0 ]; then
      left_ms=$(( BUDGET * 1000 - ($(now_ms) - t_start) ))
      if [ "$left_ms" -le 0 ]; then cell[$tool,$name]="not run"; worse 3; continue; fi
    fi
    log=$LOG_DIR/$tool.$name
    t0=$(date +%s)
    run_shards "$tool" "$p" "$log" "$left_ms"
    rc=$?
    secs=$(( $(date +%s) - t0 ))
    # memcheck, synccheck, initcheck: "ERROR SUMMARY: N errors"; racecheck: "RACECHECK SUMMARY: N
    # hazards displayed (E errors, W warnings)"; any report counts
    counts=$(grep -Eo '(ERROR|RACECHECK) SUMMARY: [0-9]+' "$log.san" 2>/dev/null | grep -Eo '[0-9]+$')
    errors=
    if [ "$(echo "$counts" | grep -c .)" -eq "$JOBS" ]; then errors=$(( $(echo "$counts" | paste -sd+) )); fi
    failed_cases=$(grep -c '^FAILED' "$log.out")
    if [ "$rc" -eq 124 ]; then
      cell[$tool,$name]="timeout (${secs}s)"; worse 3
    elif [ "$rc" -eq 77 ]; then
      cell[$tool,$name]="skipped"; required && worse 1
    elif [ -z "$errors" ]; then
      cell[$tool,$name]="no summary, exit $rc"; worse 1
    elif [ "$errors" -ne 0 ] || [ "$rc" -eq $ERROR_EXIT ]; then
      cell[$tool,$name]="$errors errors"; worse 1
    elif [ "$rc" -ne 0 ]; then
      cell[$tool,$name]="0, $failed_cases FAILED lines, exit $rc"; worse 1
    else
      cell[$tool,$name]="0"
    fi
    cell[$tool,$name]="${cell[$tool,$name]} [${n_cases} cases, ${secs}s]"
    echo "$tool $name: ${cell[$tool,$name]}"
  done
done
if [ "$selected_any" = 0 ]; then
  echo "FAILED: SHOAL_TEST_CASES=${SHOAL_TEST_CASES:-} selects no case of any program"; exit 1
fi

# The summary: one row per program, one column per tool.
{
  printf '\n%-26s' "sanitizer errors"
  for tool in $TOOLS; do printf ' | %-30s' "$tool"; done
  printf '\n'
  for p in "${progs[@]}"; do
    name=$(basename "$p")
    printf '%-26s' "$name"
    for tool in $TOOLS; do printf ' | %-30s' "${cell[$tool,$name]}"; done
    printf '\n'
  done
  printf 'total %ss; %s\n' "$(( ($(now_ms) - t_start) / 1000 ))" \
    "$([ $status = 0 ] && echo "clean" || echo "NOT clean (exit $status): see $LOG_DIR/<tool>.<program>.{san,out}")"
} | tee "$LOG_DIR/summary.txt"
exit $status
