#!/usr/bin/env bash
# usage (GPU machine, repository root, libshoal built): OUT=DIR probe/vtiled/ncu.sh KERNEL_REGEX...
# Nsight Compute on the benchmark's gemm_vbatched rows (--quick: max sizes 32 and 512): for each
# regex, the first matching launch, summarized (throughput, occupancy, issue, stall reasons).
OUT=${OUT:-/tmp/vt_ncu}
mkdir -p "$OUT"
for re in "$@"; do
  timeout 200 ncu --clock-control none --kernel-name "regex:$re" --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats \
    --section LaunchStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
    --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_tensor_op_dmma_cycles_active.avg.pct_of_peak_sustained_active" \
    build/bin/shoal_blas2_bench --routine gemm_vbatched --quick --runs 3 >> "$OUT/ncu.txt" 2>&1
done
python3 - "$OUT/ncu.txt" <<'PY'
import re, sys
keep = ("Registers Per Thread", "Achieved Occupancy", "Warp Cycles Per Issued", "Issued Warp Per Scheduler",
        "No Eligible", "Duration", "Memory Throughput", "Compute (SM) Throughput", "Executed Ipc Active",
        "Theoretical Occupancy", "DRAM Throughput", "L1/TEX Hit", "Shared Memory", "Block Limit", "pipe_")
for line in open(sys.argv[1]):
    m = re.match(r"\s+(\w+) \(\d+, \d+, \d+\)x", line) or re.match(r"\s+(\w+)\(const shoal_gemm_vparams\)", line)
    if m:
        print("##", m.group(1)); continue
    if any(k in line for k in keep):
        print("  ", " ".join(line.split()))
    m = re.match(r"\s+smsp__average_warps_issue_stalled_(\w+)_per_issue_active\.ratio\s+\S+\s+([\d.]+)", line)
    if m and float(m.group(2)) >= 0.05:
        print("   stall", m.group(1), m.group(2))
PY
