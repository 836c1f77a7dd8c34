import io

from generator import db
from generator.show import ShowFilter, show


def _fill(conn, device, add, version):
    dev = db.upsert_device(conn, device)
    run = db.start_run(conn, dev, ["gemm"], ["d"], version)
    add(conn, run, dev, version, kernel="cublas", design="vendor", ms=1.0)
    add(conn, run, dev, version, kernel="shoal_dgemm_staged_nn_x64_mpb8_tn2", design="staged", ms=0.5)
    add(conn, run, dev, version, kernel="shoal_dgemm_staged_nn_x64_mpb4_tn2", design="staged", ms=0.1,
        status="wrong")
    add(conn, run, dev, version, kernel="cublas", design="vendor", ms=1.0, variant="tn")
    add(conn, run, dev, version, kernel="shoal_dgemm_staged_tn_x64_mpb8_tn2", design="staged", ms=4.0,
        variant="tn")
    add(conn, run, dev, version, kernel="shoal_dgemm_staged_tt_x256_mpb1_tn1", design="staged",
        ms=None, status="pruned", mode="any", variant="tt", m=0, n=0, k=0, batch=0,
        reason="threads_per_block")
    add(conn, run, dev, "stale", kernel="shoal_dgemm_staged_nn_x64_mpb2_tn2", design="staged",
        ms=0.01)
    conn.commit()


def test_show_compares_with_the_vendor(conn, device, add, version):
    _fill(conn, device, add, version)
    out = io.StringIO()
    n = show(conn, ShowFilter(versions={"gemm": version}), out)
    text = out.getvalue()
    assert n == 2
    assert "NVIDIA H100 80GB HBM3" in text and version in text
    for col in ("winner kernel", "winner Gflop/s", "cuBLAS Gflop/s", "speedup", "best own kernel",
                "own Gflop/s", "own/cuBLAS"):
        assert col in text
    nn = next(line for line in text.splitlines() if line.startswith("d ") and " nn " in line)
    assert "shoal_dgemm_staged_nn_x64_mpb8_tn2" in nn and "2.00x" in nn
    tn = next(line for line in text.splitlines() if line.startswith("d ") and " tn " in line)
    assert "cublas" in tn and "shoal_dgemm_staged_tn_x64_mpb8_tn2" in tn and "0.25x" in tn
    assert "pruned 1" in text and "wrong 1" in text and "ok 4" in text
    assert "mpb2" not in text                     # other template versions are hidden


def test_show_filters(conn, device, add, version):
    _fill(conn, device, add, version)
    out = io.StringIO()
    assert show(conn, ShowFilter(variant="tn", versions={"gemm": version}), out) == 1
    out = io.StringIO()
    assert show(conn, ShowFilter(device="a100", versions={"gemm": version}), out) == 0
    assert "no tuned shapes match" in out.getvalue()
    out = io.StringIO()
    assert show(conn, ShowFilter(), out) == 3        # all versions
    assert "stale" in out.getvalue()
