import re
import shutil
import subprocess

import pytest

from generator import db
from generator.emit import emit, emit_from_path
from generator.project import REPO_ROOT

EXTERN = re.compile(r'extern "C" __global__ void(?: __launch_bounds__\([^)]*\))?\s+(\w+)\s*\(')
DEFAULT = "tiled_{v}_x16_y16_m64_n64_k8"
VARIANTS = ("nn", "nt", "tn", "tt")


def _files(out):
    return {p.name: p.read_bytes() for p in sorted(out.iterdir())}


def _kernel_names(tables_c: str) -> list[str]:
    return re.findall(r'/\* +\d+ \*/ \{"(\w+)"', tables_c)


@pytest.fixture
def tuned(conn, device, add, version):
    """A database with winners of every kind under the current template version, plus stale rows."""
    dev = db.upsert_device(conn, device)
    run = db.start_run(conn, dev, ["gemm"], ["d", "s"], version)
    small = '{"DIM_X":64,"MPB":8,"TN":2}'
    # d nn 8x8x8 strided: shoal's small kernel wins, 2x over the vendor
    add(conn, run, dev, version, kernel="cublas", design="vendor", ms=1.0)
    add(conn, run, dev, version, kernel="shoal_dgemm_staged_nn_x64_mpb8_tn2", design="staged",
        config=small, ms=0.5)
    # d nn 64x64x64 strided: the vendor wins; the best own kernel is kept for vendor-off dispatch
    add(conn, run, dev, version, kernel="cublas", design="vendor", ms=1.0, m=64, n=64, k=64)
    add(conn, run, dev, version, kernel="shoal_dgemm_tiled_nn_x16_y16_m64_n64_k8", design="tiled",
        config='{"BLK_K":8,"BLK_M":64,"BLK_N":64,"DIM_X":16,"DIM_Y":16}', ms=1.5, m=64, n=64, k=64)
    # s tt 4x4x4 array: only the vendor is valid
    add(conn, run, dev, version, kernel="cublas", design="vendor", ms=1.0, prec="s", mode="array",
        variant="tt", m=4, n=4, k=4)
    add(conn, run, dev, version, kernel="shoal_sgemm_staged_tt_x64_mpb8_tn2", design="staged",
        config=small, ms=0.1, prec="s", mode="array", variant="tt", m=4, n=4, k=4, status="wrong")
    # a stale row from an older template version: must not be used
    add(conn, run, dev, "0000000000000000", kernel="shoal_dgemm_staged_nn_x256_mpb64_tn4",
        design="staged", config='{"DIM_X":256,"MPB":64,"TN":4}', ms=0.01, m=8, n=8, k=8)
    # a second device, sorting before the first
    dev2 = db.upsert_device(conn, dict(device, name="NVIDIA A100-SXM4-80GB", cc_major=8))
    add(conn, run, dev2, version, kernel="cublas", design="vendor", ms=1.0, m=2, n=2, k=2)
    conn.commit()
    return conn


# the spec routines' glue (generator/emit_spec.py, emit_lapack.py, emit_blas2.py, emit_gemm.py),
# emitted with no spec routine in a fixture project
SPEC_FILES = ["spec_api.c", "spec_registry.c", "test_spec_args.c", "spec_invoke.c", "spec_cases.c",
              "lapack_entry.c", "lapack_drivers.c", "test_lapack_spec_args.c", "blas2_entry.c", "test_blas2_spec_args.c",
              "gemm_entry.c", "test_gemm_spec_args.c"]


def test_empty_database_emits_defaults_only(tmp_path, project, space):
    out = tmp_path / "gen"
    res = emit_from_path(tmp_path / "missing.sqlite", project, [space], out)
    assert sorted(p.name for p in res.written) == sorted(
        [f"gemm_{p}_{v}.cu" for p in "sd" for v in ("nn", "nt", "tn", "tt")] + ["gemm_tables.c", "sources.mk"]
        + SPEC_FILES)
    c = (out / "gemm_tables.c").read_text()
    names = _kernel_names(c)
    assert names == sorted(f"shoal_{p}gemm_" + DEFAULT.format(v=v) for p in "sd" for v in VARIANTS)
    assert "const int shoal_gemm_n_tables = 0;" in c
    assert 'const shoal_table shoal_gemm_tables[] = {\n    /* no tuned device' in c
    assert '{"gemm", "", 0, 0, 0, 0},' in c
    assert "const short shoal_gemm_default_kernel[8] = {4, 5, 6, 7, 0, 1, 2, 3};" in c
    assert 'const char shoal_gemm_precisions[] = "sd";' in c  # the defaults' precision order
    d = "".join((out / f"gemm_d_{v}.cu").read_text() for v in ("nn", "nt", "tn", "tt"))
    assert EXTERN.findall(d) == ["shoal_dgemm_" + DEFAULT.format(v=v) for v in VARIANTS]
    assert not (tmp_path / "missing.sqlite").exists()


def test_emission_from_winners(tmp_path, project, space, tuned, capsys):
    out = tmp_path / "gen"
    res = emit(tuned, project, [space], out)
    assert any("ignored 1 measurements of other template versions" in w for w in res.warnings)
    c = (out / "gemm_tables.c").read_text()
    names = _kernel_names(c)
    assert names == sorted(names)
    assert "shoal_dgemm_staged_nn_x64_mpb8_tn2" in names
    assert "shoal_dgemm_staged_nn_x256_mpb64_tn4" not in names          # stale
    assert "shoal_sgemm_staged_tt_x64_mpb8_tn2" not in names            # wrong
    idx = {n: i for i, n in enumerate(names)}
    small, tiled = idx["shoal_dgemm_staged_nn_x64_mpb8_tn2"], \
        idx["shoal_dgemm_tiled_nn_x16_y16_m64_n64_k8"]
    assert (f"{{'d', SHOAL_MODE_STRIDED, 0, {{8, 8, 8}}, {small}, {small}}}," in c)
    assert (f"{{'d', SHOAL_MODE_STRIDED, 0, {{64, 64, 64}}, SHOAL_KERNEL_VENDOR, {tiled}}}," in c)
    assert "{'s', SHOAL_MODE_ARRAY, 3, {4, 4, 4}, SHOAL_KERNEL_VENDOR, -1}," in c
    assert ('{"shoal_dgemm_staged_nn_x64_mpb8_tn2", \'d\', 0, SHOAL_DESIGN_STAGED, 64, 1, '
            '{8, 2, 0, 0, 0}, (const void *)shoal_dgemm_staged_nn_x64_mpb8_tn2, 900},') in c
    # the architecture floor: a kernel only the H100's table names is a __trap() below sm_90, which
    # the runtime's fallback scan must know; the portable defaults run everywhere (floor 0)
    default = "shoal_dgemm_" + DEFAULT.format(v="nn")
    assert re.search(r'\{"' + default + r'", .*, \(const void \*\)' + default + r', 0\},', c)
    assert "extern void shoal_dgemm_staged_nn_x64_mpb8_tn2(void);" in c
    # tables sorted by device name; rules of each table sorted
    assert c.index('"NVIDIA A100-SXM4-80GB", 8, 0') < c.index('"NVIDIA H100 80GB HBM3", 9, 0')
    assert "const int shoal_gemm_n_tables = 2;" in c
    # every kernel of the array is defined in its precision's module, and nothing else is; the
    # tuned ones (the H100 table's, compute capability 9.0) have their code from sm_90 on and a
    # trap below, the portable defaults code everywhere
    defaults = {f"shoal_{p}gemm_" + DEFAULT.format(v=v) for p in "sd" for v in VARIANTS}
    for p in "sd":
        src = "".join((out / f"gemm_{p}_{v}.cu").read_text() for v in ("nn", "nt", "tn", "tt"))
        cu = EXTERN.findall(src)
        assert sorted(set(cu)) == [n for n in names if n.startswith(f"shoal_{p}gemm")]
        for n in set(cu):
            assert cu.count(n) == (1 if n in defaults else 2), n
        assert src.count("__CUDA_ARCH__ >= 900") == sum(n not in defaults for n in set(cu))


def test_a_tuning_in_progress_leaves_a_same_cc_table_in_place(tmp_path, project, space, tuned, add, version,
                                                               device):
    """A device whose newest run over the routine is unfinished (cut by its time budget) is not
    emitted while another device of its compute capability has a table; alone, it is."""
    for (rid,) in tuned.execute("SELECT id FROM runs").fetchall():   # the fixture's runs, complete
        db.finish_run(tuned, rid)
    dev = db.upsert_device(tuned, dict(device, name="NVIDIA H200"))
    run = db.start_run(tuned, dev, ["gemm"], ["d"], version)   # never finished
    add(tuned, run, dev, version, kernel="cublas", design="vendor", ms=1.0, m=16, n=16, k=16)
    tuned.commit()
    res = emit(tuned, project, [space], tmp_path / "a")
    c = (tmp_path / "a" / "gemm_tables.c").read_text()
    assert '"NVIDIA H200"' not in c and '"NVIDIA H100 80GB HBM3", 9, 0' in c
    assert any("tuning in progress on NVIDIA H200" in w for w in res.warnings)
    db.finish_run(tuned, run)
    emit(tuned, project, [space], tmp_path / "b")
    assert '"NVIDIA H200", 9, 0' in (tmp_path / "b" / "gemm_tables.c").read_text()
    # with no other table of cc 9.0 an unfinished tuning is emitted: better than another arch's
    h100 = tuned.execute("SELECT id FROM devices WHERE name = ?", (device["name"],)).fetchone()[0]
    tuned.execute("DELETE FROM measurements WHERE device_id = ?", (h100,))
    tuned.execute("UPDATE runs SET finished = NULL WHERE id = ?", (run,))
    tuned.commit()
    emit(tuned, project, [space], tmp_path / "c")
    assert '"NVIDIA H200", 9, 0' in (tmp_path / "c" / "gemm_tables.c").read_text()


def test_emission_is_deterministic_and_writes_only_changes(tmp_path, project, space, tuned):
    out = tmp_path / "gen"
    first = emit(tuned, project, [space], out)
    assert len(first.written) == 10 + len(SPEC_FILES)
    before = _files(out)
    mtimes = {p: p.stat().st_mtime_ns for p in out.iterdir()}
    again = emit(tuned, project, [space], out)
    assert again.written == [] and len(again.unchanged) == 10 + len(SPEC_FILES)
    assert _files(out) == before
    assert {p: p.stat().st_mtime_ns for p in out.iterdir()} == mtimes
    # through a dump and a reload (a fresh checkout): the same bytes
    path = tmp_path / "copy.sqlite"
    sql = tmp_path / "dump.sql"
    sql.write_text(db.dump_text(tuned))
    db.load_sql(sql, path)
    out2 = tmp_path / "gen2"
    emit_from_path(path, project, [space], out2)
    assert _files(out2) == before


def test_winners_read_once_grouped_by_routine_and_version(tuned, version):
    """emit and show read a winners view once for all routines (a query of it ranks every
    measurement) and hand each (routine, template version) its own rows, in the order of its
    shapes."""
    from generator.db import winners_by_version
    groups = winners_by_version(tuned)
    assert set(groups) == {("gemm", version), ("gemm", "0000000000000000")}
    for (routine, ver), rows in groups.items():
        assert all(r["routine"] == routine and r["template_version"] == ver for r in rows)
        keys = [(r["device_id"], r["precision"], r["mode"], r["variant"], r["m"], r["n"], r["k"]) for r in rows]
        assert keys == sorted(keys)
    n = tuned.execute("SELECT count(*) FROM carried_winners").fetchone()[0]
    assert sum(len(rows) for rows in groups.values()) == n
    plain = winners_by_version(tuned, "winners")
    assert sum(len(r) for r in plain.values()) == tuned.execute("SELECT count(*) FROM winners").fetchone()[0]
    with pytest.raises(ValueError):
        winners_by_version(tuned, "measurements")


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
def test_tables_compile_as_c11(tmp_path, project, space, tuned):
    out = tmp_path / "gen"
    emit(tuned, project, [space], out)
    subprocess.run(["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-I", str(REPO_ROOT / "runtime"),
                    "-c", str(out / "gemm_tables.c"), "-o", str(tmp_path / "t.o")], check=True)
