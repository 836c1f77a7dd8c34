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
    assert peer.choose_batch("getrf", 2, "s", H100_L2, free) == (4_000_000, False)
    assert peer.choose_batch("potrf", 32, "d", H100_L2, free) == (4 * H100_L2 // (32 * 32 * 8) + 1, False)
    assert peer.choose_batch("getrf", 192, "d", H100_L2, free) == (2048, False)
    # the C bench's bytes per problem: + C for getri, + B for the solves
    assert peer.choose_batch("getri", 32, "d", H100_L2, free) == (4 * H100_L2 // (2 * 32 * 32 * 8) + 1, False)
    assert peer.choose_batch("getrs", 32, "d", H100_L2, free, nrhs=8) == (
        4 * H100_L2 // ((32 * 32 + 32 * 8) * 8) + 1, False)
    assert peer.choose_batch("gesv", 64, "s", H100_L2, free, nrhs=16) == (
        4 * H100_L2 // ((64 * 64 + 64 * 16) * 4) + 1, False)
    # exactly 1024 from n = 256
    assert peer.choose_batch("getrf", 256, "s", H100_L2, free) == (1024, False)
    assert peer.choose_batch("potrf", 1024, "d", H100_L2, free) == (1024, False)
    assert peer.choose_batch("gesv", 1024, "d", H100_L2, free, nrhs=256) == (1024, False)
    # the 40 GB cap: z at n = 1024 holds 3 x 16 MiB a matrix
    batch, limited = peer.choose_batch("potrf", 1024, "z", H100_L2, free)
    assert limited and batch == int(40e9 // peer.alloc_bytes_per_problem("potrf", 1024, "z"))
    # and 70% of what is free
    assert peer.choose_batch("getrf", 1024, "d", H100_L2, 10 << 30) == (
        int(0.7 * (10 << 30) // (3 * 8 * 1024 * 1024 + 4100)), True)


def test_what_each_routine_holds() -> None:
    a, es = 64 * 64, 8
    assert peer.alloc_bytes_per_problem("getri", 64, "d") == 3 * a * es + 4 * 65
    assert peer.alloc_bytes_per_problem("getrs", 64, "d", 16) == (2 * a + 3 * 64 * 16) * es + 4 * 65
    assert peer.alloc_bytes_per_problem("gesv", 64, "d", 16) == (3 * a + 3 * 64 * 16) * es + 4 * 65


def test_lawn41_flops_and_roof() -> None:
    assert peer.flops_per_problem("potrf", 3, "d") == pytest.approx(9 + 4.5 + 0.5)
    assert peer.flops_per_problem("getrf", 3, "s") == pytest.approx(18 - 4.5 + 2.5)
    assert peer.flops_per_problem("potrf", 3, "z") == pytest.approx(4 * 14)
    # the C bench's LU counts: getri 4n^3/3 - n^2 + 5n/3, getrs (2n^2 - n) nrhs, gesv getrf + getrs
    assert peer.flops_per_problem("getri", 3, "d") == pytest.approx(36 - 9 + 5)
    assert peer.flops_per_problem("getrs", 3, "d", nrhs=2) == pytest.approx(2 * 15)
    assert peer.flops_per_problem("gesv", 3, "c", nrhs=2) == pytest.approx(4 * (16 + 30))
    # memory roof: copy GB/s x flops / bytes (A read and written)
    mem = 3000.0 * peer.flops_per_problem("potrf", 1024, "d") / (2 * 1024 * 1024 * 8)
    assert peer.roof_gflops("potrf", 1024, "d", 3000.0, None) == pytest.approx(mem)
    # the solves' bytes: A read, B read and written (getrs); A and B read and written (gesv)
    assert peer.roof_bytes_per_problem("getrs", 64, "s", 16) == (64 * 64 + 2 * 64 * 16) * 4
    assert peer.roof_bytes_per_problem("gesv", 64, "s", 16) == (2 * 64 * 64 + 2 * 64 * 16) * 4
    assert peer.roof_bytes_per_problem("getri", 64, "z") == 2 * 64 * 64 * 16
    mem = 3000.0 * peer.flops_per_problem("getrs", 1024, "d", 256) / ((1024 * 1024 + 2 * 1024 * 256) * 8)
    assert peer.roof_gflops("getrs", 1024, "d", 3000.0, None, nrhs=256) == pytest.approx(mem)
    # a peak caps it, by the real type: c takes S, z takes D
    assert peer.roof_gflops("potrf", 1024, "d", 3000.0, (50_000.0, 25_000.0)) == 25_000.0
    assert peer.roof_gflops("potrf", 1024, "c", 3000.0, (10_000.0, 25_000.0)) == 10_000.0
    assert peer.roof_gflops("potrf", 4, "d", 3000.0, (50_000.0, 25_000.0)) < 25_000.0  # memory bound


def test_samples_as_the_c_bench() -> None:
    assert peer.sample_indices(2048, 32) == [round(k * 2047 / 15) for k in range(16)]
    assert peer.sample_indices(1024, 256) == [0, 1023]


def test_rows_as_the_c_bench() -> None:
    """Variants, right-hand sides, sizes and seeds' keys as bench/lapack_bench.c makes them."""
    assert peer.variants_of("getrs", "d") == "n" and peer.variants_of("getrs", "z") == "ntc"
    assert peer.variants_of("potrf", "s") == "lu" and peer.variants_of("gesv", "c") == "n"
    assert peer.nrhs_list("getrf", 1024, None) == [0]
    assert peer.nrhs_list("getrs", 32, None) == [1] and peer.nrhs_list("gesv", 16, 3) == [3]
    assert peer.nrhs_list("gesv", 33, None) == [1, 8] and peer.nrhs_list("getrs", 1024, None) == [1, 256]
    assert peer.nrhs_list("getrs", 1024, 4) == [4]
    args = peer.build_parser().parse_args(["--quick"])
    assert peer.sizes_of(args, "getrf") == [2, 4, 8, 16, 32] and peer.sizes_of(args, "gesv") == [4, 8, 16, 32]
    assert peer.sizes_of(peer.build_parser().parse_args(["--n", "33,64"]), "getrs") == [33, 64]
    assert peer.row_key("d", "getrf", "n", 64, 0) == "d:getrf:n:64"   # the Cholesky run's seeds kept
    assert peer.row_key("z", "getrs", "c", 64, 16) == "z:getrs:c:64:16"


def test_slow_calls_get_fewer_runs_as_in_the_c_bench() -> None:
    """(runs, warm-ups still to make) after a first warm-up call of call_s seconds."""
    assert peer.runs_within(9, 0.5, 10.0) == (9, 1)     # 9 runs + 2 warm-ups: 5.5 s
    assert peer.runs_within(9, 0.9, 10.0) == (9, 1)     # 9.9 s
    assert peer.runs_within(9, 1.0, 10.0) == (9, 0)     # 11 s > 10 s: int(10 / 1) - 1 = 9
    assert peer.runs_within(9, 1.5, 10.0) == (5, 0)     # 6 - 1 = 5
    assert peer.runs_within(9, 2.0, 10.0) == (3, 0)     # 4, made odd
    assert peer.runs_within(9, 2.6, 10.0) == (1, 0)     # 2 fit: one run after the first warm-up
    assert peer.runs_within(9, 30.0, 10.0) == (1, 0)
    assert peer.runs_within(1, 3.0, 10.0) == (1, 1)     # --runs 1 stays 1 run after warm-up


def test_residual_quotient_as_the_oracle() -> None:
    assert peer.quotient(1.0, 4.0) == 0.25
    assert peer.quotient(0.0, 0.0) == 0.0 and peer.quotient(1.0, 0.0) == float("inf")
    assert peer.quotient(float("nan"), 1.0) == float("inf") and peer.quotient(1.0, float("inf")) == float("inf")


def test_csv_rows_have_the_c_bench_columns(tmp_path: Path) -> None:
    path = tmp_path / "x.csv"
    path.write_text("device,prec,routine,variant,mode,n,nrhs,batch,method,median_ms,gflops,gbs,pct_roof,ok\n"
                    '"GPU X",d,potrf,l,strided,64,0,2048,shoal,1,2,3,4,1\n')
    r = peer.Result("d", "potrf", "u", 64, 0, 2048, False, 2.0, 0.5, 0, True)
    s = peer.Result("d", "gesv", "n", 64, 16, 2048, False, 4.0, 0.5, 0, False)
    with peer.open_csv(path, append=True) as f:
        peer.write_row(f, "GPU X", r, roof=r.gflops() * 2)
        peer.write_row(f, "GPU X", s, roof=s.gflops() * 4)
    text = path.read_text().splitlines()
    assert len(text) == 4 and text[2].startswith('"GPU X",d,potrf,u,strided,64,0,2048,torch,2,')
    assert text[3].startswith('"GPU X",d,gesv,n,strided,64,16,2048,torch,4,')
    rows = list(csv.DictReader(path.open()))
    assert rows[1]["pct_roof"] == "50" and rows[1]["ok"] == "1" and rows[1]["device"] == "GPU X"
    assert float(rows[1]["gflops"]) == pytest.approx(peer.flops_per_problem("potrf", 64, "d") * 2048 / 2e6, rel=1e-5)
    assert rows[2]["pct_roof"] == "25" and rows[2]["ok"] == "0"
    assert float(rows[2]["gbs"]) == pytest.approx(peer.roof_bytes_per_problem("gesv", 64, "d", 16) * 2048 / 4e6,
                                                  rel=1e-5)


def test_wrapper_passes_the_c_bench_selection_to_the_peer() -> None:
    report = "# shoal_lapack_bench 0.1.0\n# device-to-device copy: 3012.5 GB/s (bytes read + written)\n"
    args = run_lapack_bench.torch_peer_args(
        ["--prec", "sd", "--routine", "potrf,posv", "--n", "33,1024", "--no-cpu", "--runs", "5",
         "--peak-gflops", "50000,25000", "--nrhs", "2"], report)
    assert args == ["--prec", "sd", "--routine", "potrf", "--n", "33,1024", "--nrhs", "2", "--runs", "5",
                    "--peak-gflops", "50000,25000", "--copy-gbs", "3012.5"]
    # the LU run: every routine of it has a torch counterpart, in the peer's order
    args = run_lapack_bench.torch_peer_args(
        ["--prec", "sd", "--routine", "getrf,gesv,getrs,getri", "--n", "33,1024", "--peak-gflops", "51000,63000",
         "--no-dx", "--no-cpu", "--method-seconds", "20"], report)
    assert args == ["--prec", "sd", "--routine", "getrf,getri,getrs,gesv", "--n", "33,1024",
                    "--method-seconds", "20", "--peak-gflops", "51000,63000", "--copy-gbs", "3012.5"]
    assert run_lapack_bench.torch_peer_args(["--quick"], "")[:5] == [
        "--prec", "sd", "--routine", "getrf,getri,potrf,geqrf,getrs,gesv", "--quick"]
    assert run_lapack_bench.torch_peer_args(["--routine", "inverse", "--routine", "posv"], report) is None
    # what the peer takes is what the wrapper passes
    assert peer.build_parser().parse_args(args).method_seconds == 20.0


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


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="needs torch (CPU suffices)")
def test_every_case_checks_out_on_cpu_tensors() -> None:
    """build_case's calls, restores and checks, on CPU tensors (the peer runs them on the GPU):
    every routine, precision and variant passes its residual check, a call after a restore gives
    the same output, and a wrong answer fails the check."""
    import torch
    gen = torch.Generator().manual_seed(1)
    for prec in "sdcz":
        for routine in peer.ROUTINES:
            for variant in peer.variants_of(routine, prec):
                for n in (5, 40):
                    for nrhs in peer.nrhs_list(routine, n, None):
                        a0 = torch.empty((6, n, n), dtype=peer.dtype_of(torch, prec))
                        (peer.fill_spd if routine == "potrf" else peer.fill_uniform)(torch, a0, gen)
                        b0 = None
                        if routine in peer.SOLVES:
                            b0 = torch.empty((6, n, nrhs), dtype=a0.dtype)
                            peer.fill_uniform(torch, b0, gen)
                        case = peer.build_case(torch, routine, variant, a0, b0, [0, 5], peer.EPS[prec])
                        first = []
                        for _ in range(2):
                            case.restore()
                            out = case.call()
                            first.append(out[0] if isinstance(out, tuple) else out)
                        info_bad, resid = case.check(out)
                        assert info_bad == 0 and resid <= peer.ERROR_LIMIT, (prec, routine, variant, n, nrhs, resid)
                        assert torch.equal(first[0], first[1]), (prec, routine, variant, n)
    a = torch.randn(8, 8, dtype=torch.float64, generator=gen)
    b = torch.randn(8, 2, dtype=torch.float64, generator=gen)
    x = torch.linalg.solve(a.mT, b)
    assert peer.residual_solve(torch, a, b, x, "t", peer.EPS["d"]) <= peer.ERROR_LIMIT
    assert peer.residual_solve(torch, a, b, x, "n", peer.EPS["d"]) > peer.ERROR_LIMIT   # the op matters
    x[0, 0] = float("nan")
    assert peer.residual_solve(torch, a, b, x, "t", peer.EPS["d"]) == float("inf")
    c = torch.linalg.inv(a)
    assert peer.residual_inverse(torch, a, c, peer.EPS["d"]) <= peer.ERROR_LIMIT
    assert peer.residual_inverse(torch, a, c * 1.0001, peer.EPS["d"]) > peer.ERROR_LIMIT
