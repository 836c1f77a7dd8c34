"""Carried template versions (tuned_db carried_versions): measurements of an old version stand for
a new one only through a recorded carry, transitively, and every reader honours it: the
carried_winners view, emit, show, the tuner's resume keys and prune-db."""
from __future__ import annotations

import io

import pytest

from generator import db
from generator.emit import emit
from generator.show import ShowFilter, show

A, B, C, X = "aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb", "cccccccccccccccc", "xxxxxxxxxxxxxxxx"
STAGED = '{"DIM_X":64,"MPB":8,"TN":2}'


def _setup(conn, device):
    dev = db.upsert_device(conn, device)
    run = db.start_run(conn, dev, ["gemm"], ["d"], "gemm:test")
    return dev, run


def _winners(conn, version):
    return {(r["m"], r["kernel"], r["measured_version"]) for r in conn.execute(
        "SELECT * FROM carried_winners WHERE routine = 'gemm' AND template_version = ?", (version,))}


def test_chain_and_cycles(conn):
    db.carry_version(conn, "gemm", A, B, "test")
    db.carry_version(conn, "gemm", B, C, "test")
    db.carry_version(conn, "gemv", X, C, "another routine")
    assert db.version_chain(conn, "gemm", C) == [C, B, A]
    assert db.version_chain(conn, "gemm", B) == [B, A]
    assert db.version_chain(conn, "gemm", A) == [A]
    assert db.carry_version(conn, "gemm", A, B, "again") is False          # already recorded
    with pytest.raises(ValueError, match="cycle"):
        db.carry_version(conn, "gemm", C, A, "test")
    with pytest.raises(ValueError, match="itself"):
        db.carry_version(conn, "gemm", A, A, "test")


def test_view_without_carries_is_per_version(conn, device, add):
    dev, run = _setup(conn, device)
    add(conn, run, dev, A, kernel="old", design="staged", ms=0.5)
    add(conn, run, dev, B, kernel="new", design="staged", ms=0.7)
    assert _winners(conn, A) == {(8, "old", A)}
    assert _winners(conn, B) == {(8, "new", B)}


def test_carried_rows_compete_with_new_ones(conn, device, add):
    dev, run = _setup(conn, device)
    add(conn, run, dev, A, kernel="cublas", design="vendor", ms=1.0)
    add(conn, run, dev, A, kernel="old_fast", design="staged", ms=0.5)
    add(conn, run, dev, A, kernel="only_old_shape", design="staged", ms=0.5, m=16)
    add(conn, run, dev, C, kernel="new_faster", design="tiled", ms=0.4)     # a new design, say
    db.carry_version(conn, "gemm", A, B, "test")
    db.carry_version(conn, "gemm", B, C, "test")
    assert _winners(conn, C) == {(8, "new_faster", C), (16, "only_old_shape", A)}
    row = conn.execute("SELECT * FROM carried_winners WHERE template_version = ? AND m = 8",
                       (C,)).fetchone()
    assert (row["vendor_kernel"], row["own_kernel"]) == ("cublas", "new_faster")
    # the plain view still sees each version apart
    assert {r["kernel"] for r in conn.execute("SELECT * FROM winners WHERE template_version = ?",
                                              (C,))} == {"new_faster"}


def test_nearest_measurement_of_a_key_counts(conn, device, add):
    """A key measured again under the new version replaces the carried row, even when the new
    result is worse or not ok: the nearest measurement is the truth about that kernel."""
    dev, run = _setup(conn, device)
    add(conn, run, dev, A, kernel="k", design="staged", ms=0.1)
    add(conn, run, dev, A, kernel="other", design="staged", ms=0.3)
    add(conn, run, dev, B, kernel="k", design="staged", ms=0.2, status="wrong")
    db.carry_version(conn, "gemm", A, B, "test")
    assert _winners(conn, B) == {(8, "other", A)}
    assert _winners(conn, A) == {(8, "k", A)}


def test_resume_keys_follow_the_chain(conn, device, add):
    dev, run = _setup(conn, device)
    add(conn, run, dev, A, kernel="k_old", design="staged")
    add(conn, run, dev, B, kernel="k_new", design="staged")
    add(conn, run, dev, X, kernel="k_stale", design="staged")
    key = lambda k: ("gemm", "d", "strided", "nn", 8, 8, 8, k)  # noqa: E731
    assert db.measured_keys(conn, dev, B, "gemm") == {key("k_new")}
    db.carry_version(conn, "gemm", A, B, "test")
    assert db.measured_keys(conn, dev, B, "gemm") == {key("k_new"), key("k_old")}


def test_prune_keeps_carried_versions(conn, device, add):
    dev, run = _setup(conn, device)
    for v in (A, B, C, X):
        add(conn, run, dev, v, kernel=f"k_{v[0]}", design="staged")
    db.carry_version(conn, "gemm", A, B, "test")
    db.carry_version(conn, "gemm", X, A, "test")
    db.carry_version(conn, "gemm", C, "dddddddddddddddd", "a branch that is not kept")
    assert db.prune_versions(conn, {"gemm": B}) == 1                        # C's row only
    left = {r[0] for r in conn.execute("SELECT template_version FROM measurements")}
    assert left == {A, B, X}
    carries = {(r[0], r[1]) for r in conn.execute("SELECT from_version, to_version FROM carried_versions")}
    assert carries == {(A, B), (X, A)}


def test_emit_and_show_use_carried_measurements(tmp_path, conn, device, add, project, space, version):
    dev, run = _setup(conn, device)
    kernel = "shoal_dgemm_staged_nn_x64_mpb8_tn2"
    add(conn, run, dev, A, kernel="cublas", design="vendor", ms=1.0)
    add(conn, run, dev, A, kernel=kernel, design="staged", config=STAGED, ms=0.5)
    conn.commit()
    res = emit(conn, project, [space], tmp_path / "before")
    assert any("ignored 2 measurements" in w for w in res.warnings)
    assert kernel not in (tmp_path / "before" / "gemm_tables.c").read_text()
    out = io.StringIO()
    assert show(conn, ShowFilter(versions={"gemm": version}), out) == 0

    db.carry_version(conn, "gemm", A, version, "test")
    res = emit(conn, project, [space], tmp_path / "after")
    assert not any("ignored" in w for w in res.warnings)
    assert kernel in (tmp_path / "after" / "gemm_tables.c").read_text()
    assert "extern \"C\" __global__" in (tmp_path / "after" / "gemm_d_nn.cu").read_text()
    out = io.StringIO()
    assert show(conn, ShowFilter(versions={"gemm": version}), out) == 1
    assert f"template version {version} (with {A} carried)" in out.getvalue()
    assert kernel in out.getvalue()


def test_old_database_gets_the_new_table(tmp_path, device):
    """A database made from a dump that predates carried_versions gains it on connect, and its
    dump only gains lines."""
    path = tmp_path / "old.sqlite"
    conn = db.connect(path)
    db.upsert_device(conn, device)
    conn.commit()
    conn.execute("DROP VIEW carried_winners")
    conn.execute("DROP TABLE carried_versions")
    conn.commit()
    old_dump = db.dump_text(conn)
    conn.close()
    conn = db.connect(path)
    new_dump = db.dump_text(conn)
    conn.close()
    old_lines, new_lines = old_dump.splitlines(), new_dump.splitlines()
    assert "CREATE TABLE carried_versions (" in new_lines
    it = iter(new_lines)
    assert all(line in it for line in old_lines)   # old lines appear in order: insertions only


def test_merge_copies_carries(tmp_path, device, add):
    other_path = tmp_path / "other.sqlite"
    other = db.connect(other_path)
    dev, run = _setup(other, device)
    add(other, run, dev, A, kernel="k", design="staged")
    db.carry_version(other, "gemm", A, B, "elsewhere")
    other.close()
    conn = db.connect(tmp_path / "mine.sqlite")
    assert db.merge_from(conn, other_path) == 1
    assert db.version_chain(conn, "gemm", B) == [B, A]
    assert db.merge_from(conn, other_path) == 0     # idempotent
    conn.close()


def test_carry_evidence_states_proof_or_measurement():
    """A carry records either the comparison that found the kernels equal or, where they differ
    (carry-version --measured), the stated measurement beside the comparison's counts."""
    from types import SimpleNamespace as F

    from generator.__main__ import carry_evidence
    files = [F(how="bytes"), F(how="cubin"), F(how="bytes")]
    assert carry_evidence("main (abc)", files, 2) == \
        "generator/compare.py vs main (abc): shipped kernels and 2 sample(s) per design equal " \
        "(2 bytes, 1 cubin)"
    files.append(F(how="DIFFERENT"))
    assert carry_evidence("main (abc)", files, 2, "H100 bench/gemv: worst row +1.2%") == \
        "H100 bench/gemv: worst row +1.2% (measured; generator/compare.py vs main (abc): " \
        "1 DIFFERENT, 2 bytes, 1 cubin)"


def test_compare_without_cubins_compiles_nothing(tmp_path):
    """--measured compares by bytes and tokens only: a differing kernel file is DIFFERENT, and no
    compiler is run (the nvcc given does not exist)."""
    from generator.compare import compare_dirs
    for side, body in (("before", "__global__ void k() { int a = 1; }"),
                       ("after", "__global__ void k() { int a = 2; }")):
        (tmp_path / side).mkdir()
        (tmp_path / side / "gemv_s_n.cu").write_text(body)
        (tmp_path / side / "gemv_tables.c").write_text("/* x */ int t;")
    res = compare_dirs(tmp_path / "before", tmp_path / "after", tmp_path, tmp_path,
                       nvcc=str(tmp_path / "no-nvcc"), cubins=False)
    assert [(r.name, r.how, r.detail) for r in res] == [
        ("gemv_s_n.cu", "DIFFERENT", "not compiled"), ("gemv_tables.c", "bytes", "")]


def test_compare_counts_an_empty_sample_as_absent(tmp_path):
    """A design that gains a precision: the base renders that precision's sample with no
    configuration, the working tree with some. It is a new design's sample (only after, nothing
    measured to carry), not a differing kernel; two empty samples stay equal, and a sample that
    loses its configurations still differs."""
    from generator.compare import Report, compare_dirs
    empty = "/* Generated\n * shipped syrk kernels, 0 instance(s)\n * precision s */\n"
    full = "/* Generated\n * shipped syrk kernels, 3 instance(s)\n * precision s */\n__global__ void k() {}\n"
    for side in ("before", "after"):
        (tmp_path / side / "samples").mkdir(parents=True)
    files = {"syrk_s_mma.cu": (empty, full), "syrk_s_frags.cu": (empty, empty),
             "syrk_d_mma.cu": (full, full), "syrk_s_tri.cu": (full, empty)}
    for name, (b, a) in files.items():
        (tmp_path / "before" / "samples" / name).write_text(b)
        (tmp_path / "after" / "samples" / name).write_text(a)
    res = {r.name: r.how for r in compare_dirs(tmp_path / "before", tmp_path / "after", tmp_path,
                                               tmp_path, nvcc=str(tmp_path / "no-nvcc"), cubins=False)}
    assert res == {"samples/syrk_s_mma.cu": "only after", "samples/syrk_s_frags.cu": "bytes",
                   "samples/syrk_d_mma.cu": "bytes", "samples/syrk_s_tri.cu": "DIFFERENT"}
    kept = [r for r in compare_dirs(tmp_path / "before", tmp_path / "after", tmp_path, tmp_path,
                                    nvcc="none", cubins=False) if r.name != "samples/syrk_s_tri.cu"]
    assert Report(base="x", routines=["syrk"], files=kept).ok
