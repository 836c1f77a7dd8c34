"""bench/torch_lapack_peer.py and its place in bench/run_lapack_bench.py, without a GPU or torch:
the C bench's batch rule, flops and roof, the CSV it appends, the options the wrapper derives."""
from __future__ import annotations

import csv
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
import run_lapack_bench  # noqa: E402
import torch_lapack_peer as peer  # noqa: E402

H100_L2 = 50 << 20


def test_batch_rule_matches_the_c_bench() -> None:
    free = 80 << 30
    # 4 x L2 / bytes per problem + 1, clamped to [2048, 4e6]
    assert peer.choose_batch(2, "s", H100_L2, free) == (4_000_000, False)
    assert peer.choose_batch(32, "d", H100_L2, free) == (4 * H100_L2 // (32 * 32 * 8) + 1, False)
    assert peer.choose_batch(192, "d", H100_L2, free) == (2048, False)
    # exactly 1024 from n = 256
    assert peer.choose_batch(256, "s", H100_L2, free) == (1024, False)
    assert peer.choose_batch(1024, "d", H100_L2, free) == (1024, False)
    # the 40 GB cap: z at n = 1024 holds 3 x 16 MiB a matrix
    batch, limited = peer.choose_batch(1024, "z", H100_L2, free)
    assert limited and batch == int(40e9 // peer.alloc_bytes_per_problem(1024, "z"))
    # and 70% of what is free
    assert peer.choose_batch(1024, "d", H100_L2, 10 << 30) == (int(0.7 * (10 << 30) // (3 * 8 * 1024 * 1024 + 4100)),
                                                               True)


def test_lawn41_flops_and_roof() -> None:
    assert peer.flops_per_problem("potrf", 3, "d") == pytest.approx(9 + 4.5 + 0.5)
    assert peer.flops_per_problem("getrf", 3, "s") == pytest.approx(18 - 4.5 + 2.5)
    assert peer.flops_per_problem("potrf", 3, "z") == pytest.approx(4 * 14)
    # memory roof: copy GB/s x flops / bytes (A read and written)
    mem = 3000.0 * peer.flops_per_problem("potrf", 1024, "d") / (2 * 1024 * 1024 * 8)
    assert peer.roof_gflops("potrf", 1024, "d", 3000.0, None) == pytest.approx(mem)
    # a peak caps it, by the real type: c takes S, z takes D
    assert peer.roof_gflops("potrf", 1024, "d", 3000.0, (50_000.0, 25_000.0)) == 25_000.0
    assert peer.roof_gflops("potrf", 1024, "c", 3000.0, (10_000.0, 25_000.0)) == 10_000.0
    assert peer.roof_gflops("potrf", 4, "d", 3000.0, (50_000.0, 25_000.0)) < 25_000.0  # memory bound


def test_samples_as_the_c_bench() -> None:
    assert peer.sample_indices(2048, 32) == [round(k * 2047 / 15) for k in range(16)]
    assert peer.sample_indices(1024, 256) == [0, 1023]


def test_csv_rows_have_the_c_bench_columns(tmp_path: Path) -> None:
    path = tmp_path / "x.csv"
    path.write_text("device,prec,routine,variant,mode,n,nrhs,batch,method,median_ms,gflops,gbs,pct_roof,ok\n"
                    '"GPU X",d,potrf,l,strided,64,0,2048,shoal,1,2,3,4,1\n')
    r = peer.Result("d", "potrf", "u", 64, 2048, False, 2.0, 0.5, 0, True)
    with peer.open_csv(path, append=True) as f:
        peer.write_row(f, "GPU X", r, roof=r.gflops() * 2)
    text = path.read_text().splitlines()
    assert len(text) == 3 and text[2].startswith('"GPU X",d,potrf,u,strided,64,0,2048,torch,2,')
    rows = list(csv.DictReader(path.open()))
    assert rows[1]["pct_roof"] == "50" and rows[1]["ok"] == "1" and rows[1]["device"] == "GPU X"
    assert float(rows[1]["gflops"]) == pytest.approx(peer.flops_per_problem("potrf", 64, "d") * 2048 / 2e6, rel=1e-5)


def test_wrapper_passes_the_c_bench_selection_to_the_peer() -> None:
    report = "# shoal_lapack_bench 0.1.0\n# device-to-device copy: 3012.5 GB/s (bytes read + written)\n"
    args = run_lapack_bench.torch_peer_args(
        ["--prec", "sd", "--routine", "potrf,posv", "--n", "33,1024", "--no-cpu", "--runs", "5",
         "--peak-gflops", "50000,25000", "--nrhs", "2"], report)
    assert args == ["--prec", "sd", "--routine", "potrf", "--n", "33,1024", "--runs", "5",
                    "--peak-gflops", "50000,25000", "--copy-gbs", "3012.5"]
    assert run_lapack_bench.torch_peer_args(["--quick"], "")[:5] == ["--prec", "sd", "--routine", "getrf,potrf",
                                                                    "--quick"]
    assert run_lapack_bench.torch_peer_args(["--routine", "geqrf", "--routine", "posv"], report) is None


@pytest.mark.skipif(importlib.util.find_spec("torch") is not None, reason="torch is installed here")
def test_without_torch_the_peer_skips_with_77() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "torch_lapack_peer.py"), "--n", "4"],
                          capture_output=True, text=True)
    assert done.returncode == 77 and done.stdout.startswith("SKIP: ")
    assert subprocess.run([sys.executable, str(ROOT / "bench" / "torch_lapack_peer.py"), "--help"],
                          capture_output=True).returncode == 0


def test_wrapper_leaves_n_to_the_c_bench(tmp_path: Path) -> None:
    """`--n 64` once read as an abbreviation of --no-plot; the fake bench shows what it got."""
    fake = tmp_path / "fake_bench.sh"
    fake.write_text("#!/bin/sh\necho \"$@\" > " + str(tmp_path / "argv") + "\nexit 77\n")
    fake.chmod(0o755)
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "run_lapack_bench.py"), "--bin", str(fake),
                           "--out", str(tmp_path / "x.csv"), "--no-torch", "--n", "64", "--routine", "potrf"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "argv").read_text().split()[2:] == ["--n", "64", "--routine", "potrf"]
