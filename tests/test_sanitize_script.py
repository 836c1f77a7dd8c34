"""scripts/sanitize.sh (`make sanitize`) on any CPU, with a fake compute-sanitizer and fake test
programs: it skips cleanly without a sanitizer or a GPU (and fails where SHOAL_REQUIRE_GPU is
set), fails on any report, on a failed case and on a filter that selects nothing, reports runs
cut by its budget, and prints the tool x program summary."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "scripts/sanitize.sh"

# Prints "ERROR SUMMARY: N errors" (racecheck: "RACECHECK SUMMARY: N hazards displayed ...") into
# --log-file, N from FAKE_ERRORS_<tool>_<program>; exits
# --error-exitcode when N > 0, else with the program's status (as compute-sanitizer does).
FAKE_SANITIZER = r"""#!/usr/bin/env bash
[ "$1" = --version ] && { echo "fake sanitizer 1.0"; exit 0; }
while [ $# -gt 0 ]; do
  case $1 in
    --tool) tool=$2; shift 2 ;;
    --error-exitcode) ecode=$2; shift 2 ;;
    --log-file) log=$2; shift 2 ;;
    --print-limit|--check-device-heap) shift 2 ;;
    *) break ;;
  esac
done
echo "$tool $*" >> "$FAKE_CALLS"
"$@"; rc=$?
var="FAKE_ERRORS_${tool}_$(basename "$1")"
n=${!var:-0}
if [ "$tool" = racecheck ]; then
  echo "========= RACECHECK SUMMARY: $n hazards displayed ($n errors, 0 warnings)" > "$log"
else
  echo "========= ERROR SUMMARY: $n errors" > "$log"
fi
[ "$n" -gt 0 ] && exit "$ecode"
exit $rc
"""

# Cases a_one, b_two; --list and a run honour SHOAL_TEST_CASES (one pattern) and SHOAL_TEST_SHARD
# (I/J: every J-th selected case from the I-th); a run says which cases it ran; FAKE_RC is the
# exit status of a run with cases.
FAKE_PROGRAM = r"""#!/usr/bin/env bash
if [ "$1" = --list ]; then
  IFS=/ read -r si sj <<< "${SHOAL_TEST_SHARD:-0/1}"
  i=0
  for c in a_one b_two; do
    if [[ -z "${SHOAL_TEST_CASES:-}" || $c == ${SHOAL_TEST_CASES} ]]; then
      (( i++ % sj == si )) && echo $c
    fi
  done
  exit 0
fi
[ -n "${FAKE_NO_GPU:-}" ] && { echo "SKIP: no CUDA device (fake)"; exit 77; }
[ -z "$("$0" --list)" ] && { echo "0 of 0 cases failed"; exit 0; }
sleep "${FAKE_SLEEP:-0}"
echo "quick=$SHOAL_TEST_QUICK"
echo "run shard: ${SHOAL_TEST_RUN_SHARD:-none}"
echo "ran: $("$0" --list | tr '\n' ' ')"
exit "${FAKE_RC:-0}"
"""


@pytest.fixture
def fake(tmp_path: Path) -> dict:
    san = tmp_path / "compute-sanitizer"
    san.write_text(FAKE_SANITIZER)
    progs = []
    for name in ("test_x_gpu", "test_y_gpu"):
        p = tmp_path / name
        p.write_text(FAKE_PROGRAM)
        progs.append(str(p))
    for p in [san, *map(Path, progs)]:
        p.chmod(0o755)
    return {"san": str(san), "progs": progs, "tmp": tmp_path}


def _run(fake: dict, san: bool = True, **env: str) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items()
            if not k.startswith(("SHOAL_", "SANITIZE_", "FAKE_")) and k != "COMPUTE_SANITIZER"}
    full.update(SANITIZE_LOG_DIR=str(fake["tmp"] / "logs"), FAKE_CALLS=str(fake["tmp"] / "calls"),
                CUDA_HOME=str(fake["tmp"] / "no_cuda"), PATH="/usr/bin:/bin")
    if san:
        full["COMPUTE_SANITIZER"] = fake["san"]
    full.update(env)
    return subprocess.run(["bash", str(SCRIPT), *fake["progs"]], text=True, capture_output=True, env=full,
                          timeout=60)


def test_no_sanitizer_skips_or_fails_where_required(fake):
    proc = _run(fake, san=False)
    assert proc.returncode == 0 and proc.stdout.startswith("SKIP: no compute-sanitizer"), proc.stdout
    proc = _run(fake, san=False, SHOAL_REQUIRE_GPU="1")
    assert proc.returncode == 1 and "FAILED" in proc.stdout, proc.stdout


def test_no_gpu_skips_or_fails_where_required(fake):
    proc = _run(fake, FAKE_NO_GPU="1")
    assert proc.returncode == 0 and proc.stdout.startswith("SKIP: no CUDA device"), proc.stdout
    assert _run(fake, FAKE_NO_GPU="1", SHOAL_REQUIRE_GPU="1").returncode == 1


def test_clean_run_covers_every_tool_and_program_quick(fake):
    proc = _run(fake)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    calls = (fake["tmp"] / "calls").read_text().splitlines()
    assert len(calls) == 8 and {c.split()[0] for c in calls} == {"memcheck", "racecheck", "synccheck", "initcheck"}
    assert "quick=1" in (fake["tmp"] / "logs/memcheck.test_x_gpu.out").read_text()
    summary = (fake["tmp"] / "logs/summary.txt").read_text()
    assert summary.count("| 0 [2 cases") == 8 and "clean" in summary, summary


def test_a_report_fails_and_is_counted(fake):
    proc = _run(fake, FAKE_ERRORS_racecheck_test_y_gpu="3")
    assert proc.returncode == 1, proc.stdout
    assert "racecheck test_y_gpu: 3 errors" in proc.stdout and "NOT clean" in proc.stdout, proc.stdout


def test_a_failed_case_fails_without_reports(fake):
    proc = _run(fake, FAKE_RC="1", SANITIZE_TOOLS="synccheck")
    assert proc.returncode == 1 and "synccheck test_x_gpu: 0, 0 FAILED lines, exit 1" in proc.stdout, proc.stdout


def test_case_filter_leaves_out_programs_and_must_select_something(fake):
    proc = _run(fake, SHOAL_TEST_CASES="a_*", SANITIZE_TOOLS="memcheck")
    assert proc.returncode == 0 and "[1 cases" in proc.stdout, proc.stdout
    proc = _run(fake, SHOAL_TEST_CASES="zzz", SANITIZE_TOOLS="memcheck")
    assert proc.returncode == 1 and "selects no case" in proc.stdout, proc.stdout


def test_budget_cuts_runs_and_says_so(fake):
    proc = _run(fake, SANITIZE_BUDGET="1", FAKE_SLEEP="3", SANITIZE_TOOLS="memcheck initcheck")
    assert proc.returncode == 3, proc.stdout
    assert "timeout" in proc.stdout and "not run" in proc.stdout, proc.stdout


def test_unknown_tool_is_a_usage_error(fake):
    assert _run(fake, SANITIZE_TOOLS="memcheck leakcheck").returncode == 2


def test_shards_run_every_case_once_and_sum_their_reports(fake):
    proc = _run(fake, SANITIZE_JOBS="2", SANITIZE_TOOLS="memcheck racecheck", FAKE_ERRORS_memcheck_test_x_gpu="2")
    assert proc.returncode == 1, proc.stdout
    calls = (fake["tmp"] / "calls").read_text().splitlines()
    assert len(calls) == 8, calls  # 2 tools x 2 programs x 2 shards
    # each shard reported 2: the program's count is their sum
    assert "memcheck test_x_gpu: 4 errors" in proc.stdout, proc.stdout
    assert "racecheck test_y_gpu: 0 [2 cases" in proc.stdout, proc.stdout
    logs = fake["tmp"] / "logs"
    ran = [l for l in (logs / "racecheck.test_y_gpu.out").read_text().splitlines() if l.startswith("ran:")]
    assert sorted(ran) == ["ran: a_one ", "ran: b_two "], ran
    assert not list(logs.glob("*.[0-9].*")), "the shards' own logs are joined and removed"


def test_run_split_gives_every_process_all_cases_and_a_share_of_their_runs(fake):
    proc = _run(fake, SANITIZE_JOBS="3", SANITIZE_SPLIT="runs", SANITIZE_TOOLS="initcheck")
    assert proc.returncode == 0 and "3 processes split the runs" in proc.stdout, proc.stdout
    out = (fake["tmp"] / "logs" / "initcheck.test_x_gpu.out").read_text().splitlines()
    assert sorted(l for l in out if l.startswith("run shard:")) == [f"run shard: {i}/3" for i in range(3)], out
    assert [l for l in out if l.startswith("ran:")] == ["ran: a_one b_two "] * 3, out
    assert _run(fake, SANITIZE_SPLIT="tests").returncode == 2


def test_jobs_must_be_a_count(fake):
    assert _run(fake, SANITIZE_JOBS="0").returncode == 2
    assert _run(fake, SANITIZE_JOBS="x").returncode == 2
