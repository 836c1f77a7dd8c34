"""Emitted rules carry the dimensions the runtime looks calls up by: a routine without k (GEMV,
TRSV) is looked up as (m, n, 1), so its square shapes, tuned as (n, n, n), must be emitted as
(n, n, 1) or no call ever matches them exactly (and a nearest-shape tie can hand the call to the
vendor)."""
import pytest

from generator import db
from generator.emit import emit
from generator.project import default_project, template_version
from generator.search_space import load_routine


def _gemv_measurement(run, dev, version, m, n, k):
    return db.Measurement(
        run_id=run, device_id=dev, routine="gemv", precision="d", mode="strided", variant="n",
        m=m, n=n, k=k, batch=1000, design="vendor", config="{}", kernel="cublas",
        template_version=version, status="ok", reason="", median_ms=1.0, min_ms=1.0,
        gflops=2 * m * n * 1000 / 1e6, created="2000-01-01T00:00:00+00:00")


def test_dispatch_dims_follow_the_work_formulas():
    project = default_project()
    dims = {r: load_routine(project.search_space_dir, r).routine.dispatch_dims
            for r in ("gemm", "gemv", "trsv", "gemv_vbatched", "gemm_vbatched", "getrs", "getrf")}
    assert dims["gemm"] == dims["gemm_vbatched"] == dims["getrs"] == ("m", "n", "k")
    assert dims["gemv"] == dims["trsv"] == dims["gemv_vbatched"] == dims["getrf"] == ("m", "n")


def _emit_gemv_vendor_winners(conn, device, out, shapes):
    """Emits GEMV tables from a database where the vendor won at each (m, n, k) of shapes."""
    project = default_project()
    space = load_routine(project.search_space_dir, "gemv")
    version = template_version(project, space)
    dev = db.upsert_device(conn, device)
    run = db.start_run(conn, dev, ["gemv"], ["d"], version)
    for m, n, k in shapes:
        db.insert_measurement(conn, _gemv_measurement(run, dev, version, m, n, k))
    conn.commit()
    emit(conn, project, [space], out)


def test_square_level2_shapes_are_emitted_with_k_one(tmp_path, conn, device):
    _emit_gemv_vendor_winners(conn, device, tmp_path / "gen", [(16, 16, 16), (16, 256, 1)])
    tables = (tmp_path / "gen" / "gemv_tables.c").read_text()
    assert "{16, 16, 1}" in tables and "{16, 256, 1}" in tables
    assert "{16, 16, 16}" not in tables


def test_shapes_that_coincide_without_k_are_refused(tmp_path, conn, device):
    with pytest.raises(ValueError, match="coincide"):
        _emit_gemv_vendor_winners(conn, device, tmp_path / "gen", [(16, 16, 16), (16, 16, 1)])
