"""bench/run_spec_bench.py's selection of routines and precisions, without a GPU: the benchmark
program is replaced by a recorder that prints one CSV row per call."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
import run_spec_bench  # noqa: E402

HEADER = "routine,prec,form,variant,n,batch,method,served_by,median_ms,gflops,gbs,roof_pct,error\n"


def run(monkeypatch, tmp_path, *argv):
    calls = []
    sizes = run.sizes = []

    def fake_run(cmd, capture_output, text):
        calls.append(cmd[1:3])
        sizes.append(cmd[4:])
        row = f"{cmd[1]},{cmd[2]},{cmd[3]},n,4,10,shoal,k,1.0,1.0,1.0,1.0,0.1\n"
        return subprocess.CompletedProcess(cmd, 0, HEADER + row, "# GPU, copy bandwidth 1 GB/s\n")
    monkeypatch.setattr(run_spec_bench.subprocess, "run", fake_run)
    monkeypatch.setattr(sys, "argv", ["run_spec_bench.py", "--out", str(tmp_path / "s.csv"), "--no-plot", *argv])
    return run_spec_bench.main(), calls


def test_routines_and_precisions_select_the_runs(monkeypatch, tmp_path):
    rc, calls = run(monkeypatch, tmp_path)
    assert rc == 0 and calls == [["trsm", "s"], ["trsm", "d"], ["syrk", "s"], ["syrk", "d"], ["ormqr", "s"],
                          ["ormqr", "d"], ["orgqr", "s"], ["orgqr", "d"], ["gebrd", "s"], ["gebrd", "d"]], calls
    # gebrd stops at 512: its sizes leave 1024 out, the others keep it
    assert run.sizes[0][-1] == "1024" and run.sizes[-1][-1] == "512", run.sizes
    rc, calls = run(monkeypatch, tmp_path, "--routines", "syrk", "--precisions", "d,c")
    # a precision the routine's search space does not list is left out
    assert rc == 0 and calls == [["syrk", "d"]], calls
    assert (tmp_path / "s.csv").read_text().count("\n") == 2


def test_an_unknown_routine_is_a_usage_error(monkeypatch, tmp_path):
    with pytest.raises(SystemExit) as e:
        run(monkeypatch, tmp_path, "--routines", "trsm,gemm")
    assert e.value.code == 2
