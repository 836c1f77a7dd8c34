#!/usr/bin/env bash
# On the GPU machine: time the probe drivers given as arguments, then profile them with ncu
# (stall reasons per issued instruction, occupancy, issue activity). Output in $OUT.
OUT=${OUT:-/tmp/kprof}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv | tee "$OUT/gpu.txt"
for d in "$@"; do
  echo "== $d" | tee -a "$OUT/time.txt"
  "$d" | tee -a "$OUT/time.txt"
done
[ "${NCU:-1}" = 1 ] || exit 0
for d in "$@"; do
  timeout 400 ncu --clock-control none --section SpeedOfLight --section Occupancy --section WarpStateStats \
    --section SchedulerStats --section LaunchStats --section InstructionStats \
    --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio" \
    "$d" --once >> "$OUT/ncu.txt" 2>&1
done
python3 - "$OUT/ncu.txt" <<'PY'
import re, sys
cur = None
keep = ("Registers Per Thread", "Achieved Occupancy", "Warp Cycles Per Issued", "Issued Warp Per Scheduler",
        "No Eligible", "Duration", "Memory Throughput", "Executed Instructions ", "Theoretical Occupancy")
for line in open(sys.argv[1]):
    m = re.match(r"\s+(\S+)\(const shoal_lapack_params\)", line) or re.match(r"\s+(\w+) \(\d+, \d+, \d+\)x", line)
    if m:
        cur = m.group(1); print("##", cur); continue
    if any(k in line for k in keep):
        print("  ", " ".join(line.split()))
    m = re.match(r"\s+smsp__average_warps_issue_stalled_(\w+)_per_issue_active\.ratio\s+\S+\s+([\d.]+)", line)
    if m and float(m.group(2)) >= 0.05:
        print("   stall", m.group(1), m.group(2))
PY
