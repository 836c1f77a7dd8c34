"""The GPU test harness's own rules, checked on any CPU: SHOAL_REQUIRE_GPU turns skips into
failures (in the C runner, tests/gpu/gpu_test.c, and in tests/conftest.py), a case that recorded
no runs fails, case tables are bounded and their names unique and whole, and the who-served check
accepts only the dispatch's answer (or its vendor-declined fallback).

The C runner is built against stubs of the CUDA runtime and libshoal (tests/c/gpu_harness_stub.c);
conftest.py is exercised by running pytest on a GPU test file with SHOAL_BUILD_DIR pointing at a
fake program.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
CUDA_HOME = Path(os.environ.get("CUDA_HOME", "/usr/local/cuda"))


@pytest.fixture(scope="module")
def stub_runner(tmp_path_factory) -> Path:
    cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    if not (CUDA_HOME / "include/cuda_runtime_api.h").is_file():
        pytest.skip(f"no CUDA headers under {CUDA_HOME} (the runner's types come from them)")
    exe = tmp_path_factory.mktemp("harness") / "gpu_harness_stub"
    proc = subprocess.run([cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-D_GNU_SOURCE",
                           f"-I{REPO / 'include'}", f"-I{REPO / 'runtime'}", f"-I{REPO / 'tests/gpu'}",
                           f"-I{CUDA_HOME / 'include'}", str(REPO / "tests/c/gpu_harness_stub.c"),
                           str(REPO / "tests/gpu/gpu_test.c"), "-o", str(exe)],
                          text=True, capture_output=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return exe


def _run(exe: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k not in ("SHOAL_REQUIRE_GPU", "STUB_DEVICES",
                                                             "STUB_SUITE", "STUB_SERVED", "SHOAL_TEST_CASES", "SHOAL_TEST_SHARD", "SHOAL_TEST_RUN_SHARD",
                                                             "SHOAL_TEST_QUICK", "SHOAL_TEST_MAX_BATCH")}
    full.update(env)
    return subprocess.run([str(exe), *args], text=True, capture_output=True, env=full, timeout=60)


def test_no_device_skips(stub_runner):
    proc = _run(stub_runner, "--case", "two_runs")
    assert proc.returncode == 77 and proc.stdout.startswith("SKIP"), proc.stdout


@pytest.mark.parametrize("value", ["1", "yes"])
def test_no_device_fails_where_a_gpu_is_required(stub_runner, value):
    proc = _run(stub_runner, "--case", "two_runs", SHOAL_REQUIRE_GPU=value)
    assert proc.returncode == 1 and "FAILED" in proc.stdout, proc.stdout


def test_require_gpu_zero_means_not_required(stub_runner):
    assert _run(stub_runner, "--case", "two_runs", SHOAL_REQUIRE_GPU="0").returncode == 77


def test_listing_needs_no_device_even_where_required(stub_runner):
    proc = _run(stub_runner, "--list", SHOAL_REQUIRE_GPU="1")
    assert proc.returncode == 0 and proc.stdout.split()[:2] == ["two_runs", "no_runs"], proc.stdout


def test_case_with_runs_passes(stub_runner):
    proc = _run(stub_runner, "--case", "two_runs", STUB_DEVICES="1")
    assert proc.returncode == 0 and "ok two_runs (2 runs)" in proc.stdout, proc.stdout


def test_case_with_no_runs_fails(stub_runner):
    proc = _run(stub_runner, "--case", "no_runs", STUB_DEVICES="1")
    assert proc.returncode == 1 and "FAILED no_runs" in proc.stdout, proc.stdout


@pytest.mark.parametrize("case, served, passes", [
    ("served_same", "kernel_a", True),         # served what the dispatch named
    ("served_same", "cublas", False),          # the vendor served a call routed to a kernel
    ("served_same", "", False),                # nothing recorded as served
    ("served_fallback", "kernel_b", True),     # the vendor declined: the vendor-off kernel served
    ("served_fallback", "cublas", True),
    ("served_fallback", "kernel_a", False),    # neither the vendor nor its fallback
    ("served_other", "kernel_b", False),       # a fallback counts only where the vendor was named
])
def test_who_served(stub_runner, case, served, passes):
    env = {"STUB_DEVICES": "1"}
    if served:
        env["STUB_SERVED"] = served
    proc = _run(stub_runner, "--case", case, **env)
    assert (proc.returncode == 0) == passes, proc.stdout


@pytest.mark.parametrize("suite, message", [
    ("overflow", "is full"),
    ("duplicate", "both named"),
    ("long_name", "does not fit"),
])
def test_broken_case_tables_fail_loudly(stub_runner, suite, message):
    proc = _run(stub_runner, "--list", STUB_SUITE=suite)
    assert proc.returncode == 2 and message in proc.stderr, proc.stdout + proc.stderr


# --- reduced runs (make sanitize, tests/sanitize.mk) ------------------------------------------

def test_case_filter_selects_runs_and_lists(stub_runner):
    proc = _run(stub_runner, STUB_DEVICES="1", SHOAL_TEST_CASES="two_*,batch")
    ran = [l.split()[1] for l in proc.stdout.splitlines() if l.startswith("== ")]
    assert ran == ["two_runs", "batch"] and "0 of 2 cases failed" in proc.stdout, proc.stdout
    listed = _run(stub_runner, "--list", SHOAL_TEST_CASES="served_*,nothing").stdout.split()
    assert listed == ["served_same", "served_fallback", "served_other"]
    assert _run(stub_runner, "--list").stdout.split()[-4:] == ["batch", "tail", "page_end", "fault"]


def test_shards_split_the_selected_cases(stub_runner):
    selected = _run(stub_runner, "--list", SHOAL_TEST_CASES="served_*,two_*,batch").stdout.split()
    shards = [_run(stub_runner, "--list", SHOAL_TEST_CASES="served_*,two_*,batch",
                   SHOAL_TEST_SHARD=f"{i}/3").stdout.split() for i in range(3)]
    # every third selected case from the i-th, in table order: each case in exactly one shard
    assert shards == [selected[i::3] for i in range(3)] and len(selected) >= 4, (selected, shards)
    proc = _run(stub_runner, STUB_DEVICES="1", SHOAL_TEST_SHARD="1/2")
    ran = [l.split()[1] for l in proc.stdout.splitlines() if l.startswith("== ")]
    assert ran and ran == _run(stub_runner, "--list", SHOAL_TEST_SHARD="1/2").stdout.split(), proc.stdout


@pytest.mark.parametrize("var", ["SHOAL_TEST_SHARD", "SHOAL_TEST_RUN_SHARD"])
@pytest.mark.parametrize("value", ["2/2", "-1/2", "1", "a/b", "0/0", "0/2x"])
def test_malformed_shard_is_a_usage_error(stub_runner, var, value):
    proc = _run(stub_runner, "--list", **{var: value})
    assert proc.returncode == 2 and var in proc.stderr, proc.stderr


def test_run_shards_split_a_cases_runs(stub_runner):
    runs = lambda out: [l for l in out.splitlines() if l.startswith("run ")]  # noqa: E731
    whole = _run(stub_runner, "--case", "five_runs", STUB_DEVICES="1")
    assert whole.returncode == 0 and "ok five_runs (5 runs)" in whole.stdout, whole.stdout
    shards = [_run(stub_runner, "--case", "five_runs", STUB_DEVICES="1", SHOAL_TEST_RUN_SHARD=f"{i}/3")
              for i in range(3)]
    # every third run from the i-th: each run in exactly one process
    assert [runs(p.stdout) for p in shards] == [runs(whole.stdout)[i::3] for i in range(3)], shards
    assert all(p.returncode == 0 for p in shards)
    assert "ok five_runs (2 runs, 3 in other shards)" in shards[0].stdout, shards[0].stdout
    # a shard that got none of a case's runs passes; a case with no runs at all still fails
    empty = _run(stub_runner, "--case", "five_runs", STUB_DEVICES="1", SHOAL_TEST_RUN_SHARD="6/7")
    assert empty.returncode == 0 and "ok five_runs (0 runs, 5 in other shards)" in empty.stdout, empty.stdout
    assert _run(stub_runner, "--case", "no_runs", STUB_DEVICES="1", SHOAL_TEST_RUN_SHARD="0/2").returncode == 1


@pytest.mark.parametrize("env, batch", [
    ({}, 1000000),
    ({"SHOAL_TEST_QUICK": "1"}, 129),
    ({"SHOAL_TEST_QUICK": "0"}, 1000000),
    ({"SHOAL_TEST_QUICK": "1", "SHOAL_TEST_MAX_BATCH": "1000"}, 1000),
    ({"SHOAL_TEST_MAX_BATCH": "7"}, 7),
])
def test_quick_caps_batches(stub_runner, env, batch):
    proc = _run(stub_runner, "--case", "batch", STUB_DEVICES="1", **env)
    assert proc.returncode == 0 and f"batch {batch}\n" in proc.stdout, proc.stdout


def test_tail_alloc_ends_at_the_buffers_last_element(stub_runner):
    # 10 doubles 3 elements in: exactly 104 bytes, the buffer at byte 24
    proc = _run(stub_runner, "--case", "tail", STUB_DEVICES="1")
    assert proc.returncode == 0 and "tail bytes 104 at 24" in proc.stdout, proc.stdout


# --- conftest.py: the pytest side --------------------------------------------------------------

def _fake_program(build: Path, body: str) -> None:
    """build/tests/test_gemm_gpu as a shell script with cases s_a and s_b."""
    prog = build / "tests" / "test_gemm_gpu"
    prog.parent.mkdir(parents=True, exist_ok=True)
    prog.write_text('#!/bin/sh\nif [ "$1" = --list ]; then echo s_a; echo s_b; exit 0; fi\n' + body)
    prog.chmod(0o755)


def _pytest_gpu_gemm(build: Path, **env: str) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k != "SHOAL_REQUIRE_GPU"}
    full.update(env, SHOAL_BUILD_DIR=str(build))
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "tests/test_gpu_gemm.py"], cwd=REPO, text=True, capture_output=True, env=full,
                          timeout=120)


def test_conftest_skips_without_gpu_and_fails_where_required(tmp_path):
    _fake_program(tmp_path, 'echo "SKIP: no CUDA device (fake)"; exit 77\n')
    proc = _pytest_gpu_gemm(tmp_path)
    assert "2 skipped" in proc.stdout and proc.returncode == 0, proc.stdout
    proc = _pytest_gpu_gemm(tmp_path, SHOAL_REQUIRE_GPU="1")
    assert "2 failed" in proc.stdout and "SHOAL_REQUIRE_GPU" in proc.stdout, proc.stdout


def test_conftest_fails_a_case_with_no_runs(tmp_path):
    _fake_program(tmp_path, 'if [ "$2" = s_a ]; then echo "ok s_a (3 runs)"; else echo "ok s_b (0 runs)"; fi\n')
    proc = _pytest_gpu_gemm(tmp_path)
    assert "1 failed, 1 passed" in proc.stdout and "recorded no runs" in proc.stdout, proc.stdout


# Page-end operands (issue 29): the runner's VMM allocator against stubbed driver entry points.
def test_page_end_skips_without_driver_entry_points(stub_runner):
    proc = _run(stub_runner, "--case", "page_end", STUB_DEVICES="1")
    assert proc.returncode == 77, proc.stdout
    assert "SKIP: page_end: page-end operands unavailable: no driver entry point" in proc.stdout, proc.stdout


def test_page_end_skips_without_vmm(stub_runner):
    proc = _run(stub_runner, "--case", "page_end", STUB_DEVICES="1", STUB_VMM="1", STUB_VMM_ATTR="0")
    assert proc.returncode == 77 and "no virtual memory management" in proc.stdout, proc.stdout


def test_page_end_skip_fails_where_a_gpu_is_required(stub_runner):
    proc = _run(stub_runner, "--case", "page_end", STUB_DEVICES="1", SHOAL_REQUIRE_GPU="1")
    assert proc.returncode == 1 and "FAILED page_end: skipped" in proc.stdout, proc.stdout


def test_page_end_skip_is_not_a_failure_in_a_plain_run(stub_runner):
    proc = _run(stub_runner, STUB_DEVICES="1", SHOAL_TEST_CASES="two_runs,page_end")
    assert proc.returncode == 0 and "SKIP: page_end" in proc.stdout and "0 of 2 cases failed" in proc.stdout, \
        proc.stdout


def test_page_end_places_the_operand_at_the_end_of_the_mapping(stub_runner):
    """129 doubles (1032 bytes) at a 64 KiB granularity: one granule mapped and made accessible,
    one more reserved after it; the buffer's last byte is the mapping's last; freeing unmaps,
    releases and frees the whole reservation."""
    proc = _run(stub_runner, "--case", "page_end", STUB_DEVICES="1", STUB_VMM="1")
    assert proc.returncode == 0, proc.stdout
    assert ("page_end reserved 131072 mapped 65536 accessible 65536 created 1 offset 64504 end 65536"
            in proc.stdout), proc.stdout
    assert "page_end freed: unmapped 65536 released 1 reservation 131072" in proc.stdout, proc.stdout


def test_a_kernel_fault_says_so(stub_runner):
    proc = _run(stub_runner, "--case", "fault", STUB_DEVICES="1")
    assert proc.returncode == 1, proc.stdout
    assert "FAILED fault:" in proc.stdout and "illegal memory access" in proc.stdout, proc.stdout
    assert "a kernel faulted" in proc.stdout and "did not run" in proc.stdout, proc.stdout
