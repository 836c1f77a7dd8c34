"""examples/batched_solve.py runs against the built library where a GPU and PyTorch exist (exit
77 from the script: skipped, with its reason)."""
import os
import pathlib
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


def test_python_example_runs():
    env = dict(os.environ, PYTHONPATH=str(REPO / "python"))
    proc = subprocess.run([sys.executable, str(REPO / "examples" / "batched_solve.py")], capture_output=True,
                          text=True, timeout=300, env=env, cwd=REPO)
    print(proc.stdout, proc.stderr)
    if proc.returncode == 77:
        why = proc.stdout.strip() or "no GPU"
        if os.environ.get("SHOAL_REQUIRE_GPU", "") not in ("", "0"):
            pytest.fail(f"SHOAL_REQUIRE_GPU=1 but {why}", pytrace=False)
        pytest.skip(why)
    assert proc.returncode == 0, proc.stdout + proc.stderr
