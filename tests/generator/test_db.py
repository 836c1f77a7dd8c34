import sqlite3

import pytest

from generator import db

V = "0123456789abcdef"


def _setup(conn, device):
    dev = db.upsert_device(conn, device)
    run = db.start_run(conn, dev, ["gemm"], ["d"], f"gemm:{V}")
    return dev, run


def test_upsert_device_is_idempotent_and_versions_split(conn, device):
    a = db.upsert_device(conn, device)
    assert db.upsert_device(conn, dict(device, driver_version=99999)) == a
    assert conn.execute("SELECT driver_version FROM devices").fetchone()[0] == "99999"
    b = db.upsert_device(conn, dict(device, cublas_version=130000))
    assert b != a
    assert conn.execute("SELECT count(*) FROM devices").fetchone()[0] == 2


def test_status_check_constraint(conn, device, add):
    dev, run = _setup(conn, device)
    with pytest.raises(ValueError):
        add(conn, run, dev, V, kernel="k", design="staged", status="running")
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute("INSERT INTO measurements (run_id, device_id, routine, precision, mode, "
                     "variant, m, n, k, batch, design, config, kernel, template_version, status, "
                     "created) VALUES (?, ?, 'gemm', 'd', 'strided', 'nn', 1, 1, 1, 1, 'x', '{}', "
                     "'k', ?, 'bogus', '')", (run, dev, V))


def test_insert_replaces_same_key(conn, device, add):
    dev, run = _setup(conn, device)
    add(conn, run, dev, V, kernel="k1", design="staged", status="launch_failed", ms=None)
    add(conn, run, dev, V, kernel="k1", design="staged", status="ok", ms=2.0)
    rows = conn.execute("SELECT status, median_ms FROM measurements").fetchall()
    assert [tuple(r) for r in rows] == [("ok", 2.0)]
    assert db.measured_keys(conn, dev, V, "gemm") == {("gemm", "d", "strided", "nn", 8, 8, 8, "k1")}
    assert db.measured_keys(conn, dev, "other", "gemm") == set()


def test_winners_view(conn, device, add):
    dev, run = _setup(conn, device)
    add(conn, run, dev, V, kernel="cublas", design="vendor", ms=1.0)
    add(conn, run, dev, V, kernel="fast_but_wrong", design="staged", status="wrong", ms=0.1)
    add(conn, run, dev, V, kernel="crashed", design="staged", status="launch_failed", ms=0.05)
    add(conn, run, dev, V, kernel="pruned", design="staged", status="pruned", ms=None)
    add(conn, run, dev, V, kernel="own_b", design="staged", ms=0.5)
    add(conn, run, dev, V, kernel="own_a", design="tiled", ms=0.5)   # tie: kernel name decides
    add(conn, run, dev, V, kernel="own_slow", design="tiled", ms=3.0)
    # a second shape where the vendor wins, and a third with no valid own kernel
    add(conn, run, dev, V, kernel="cublas", design="vendor", ms=1.0, m=16)
    add(conn, run, dev, V, kernel="own_b", design="staged", ms=1.5, m=16)
    add(conn, run, dev, V, kernel="cublas", design="vendor", ms=1.0, m=32)
    add(conn, run, dev, V, kernel="own_b", design="staged", ms=0.2, m=32, status="wrong")
    rows = {r["m"]: r for r in conn.execute("SELECT * FROM winners")}
    assert set(rows) == {8, 16, 32}
    w = rows[8]
    assert (w["kernel"], w["own_kernel"], w["vendor_kernel"]) == ("own_a", "own_a", "cublas")
    assert w["speedup"] == pytest.approx(2.0) and w["vendor_ms"] == 1.0
    assert w["vendor_gflops"] == pytest.approx(2 * 512 * 1000 / 1e6)
    assert w["device_name"] == device["name"]
    w = rows[16]
    assert (w["kernel"], w["design"], w["own_kernel"], w["own_ms"]) == ("cublas", "vendor", "own_b", 1.5)
    assert w["speedup"] == pytest.approx(1.0)
    w = rows[32]
    assert w["kernel"] == "cublas" and w["own_kernel"] is None
    assert conn.execute("SELECT count(*) FROM vendor_baselines").fetchone()[0] == 3


def test_winners_are_per_template_version(conn, device, add):
    dev, run = _setup(conn, device)
    add(conn, run, dev, V, kernel="cublas", design="vendor", ms=1.0)
    add(conn, run, dev, "old", kernel="own", design="staged", ms=0.1)
    rows = conn.execute("SELECT template_version, kernel FROM winners ORDER BY 1").fetchall()
    assert [tuple(r) for r in rows] == [(V, "cublas"), ("old", "own")]


def test_dump_load_round_trip(tmp_path, device, add):
    path = tmp_path / "a.sqlite"
    conn = db.connect(path)
    dev, run = _setup(conn, device)
    add(conn, run, dev, V, kernel="cublas", design="vendor", ms=1.0)
    add(conn, run, dev, V, kernel="own", design="staged", config='{"DIM_X":64}', ms=0.25,
        reason="it's quoted")
    db.finish_run(conn, run)
    conn.commit()
    conn.close()
    sql = tmp_path / "a.sql"
    assert db.dump_sql(path, sql) is True
    assert db.dump_sql(path, sql) is False                  # unchanged -> not rewritten
    copy = tmp_path / "b.sqlite"
    db.load_sql(sql, copy)
    sql2 = tmp_path / "b.sql"
    db.dump_sql(copy, sql2)
    assert sql.read_bytes() == sql2.read_bytes()
    c = db.connect(copy)
    assert c.execute("SELECT kernel FROM winners").fetchone()[0] == "own"
    assert c.execute("SELECT reason FROM measurements WHERE kernel='own'").fetchone()[0] == "it's quoted"


def test_gzip_dump_round_trip_and_stable(tmp_path, device, add):
    """The committed dump is gzip-compressed: the same text as the plain dump, no time stamp in
    the bytes, not rewritten when the text is unchanged, and loadable as it is."""
    import gzip
    path = tmp_path / "a.sqlite"
    conn = db.connect(path)
    dev, run = _setup(conn, device)
    add(conn, run, dev, V, kernel="own", design="staged", config='{"DIM_X":64}', ms=0.25)
    db.finish_run(conn, run)
    conn.commit()
    conn.close()
    plain, packed = tmp_path / "a.sql", tmp_path / "a.sql.gz"
    assert db.dump_sql(path, plain) and db.dump_sql(path, packed)
    assert gzip.decompress(packed.read_bytes()) == plain.read_bytes()
    assert packed.read_bytes()[4:8] == b"\0\0\0\0"          # gzip's mtime field
    assert db.dump_sql(path, packed) is False
    copy = tmp_path / "b.sqlite"
    db.load_sql(packed, copy)
    assert db.connect(copy).execute("SELECT kernel FROM winners").fetchone()[0] == "own"


def test_load_without_dump_creates_empty_schema(tmp_path):
    target = tmp_path / "sub" / "x.sqlite"
    db.load_sql(tmp_path / "missing.sql", target)
    c = db.connect(target)
    names = {r[0] for r in c.execute("SELECT name FROM sqlite_master")}
    assert {"devices", "runs", "measurements", "winners", "vendor_baselines"} <= names
    assert c.execute("SELECT count(*) FROM measurements").fetchone()[0] == 0


def test_load_replaces_existing_database(tmp_path, device):
    target = tmp_path / "x.sqlite"
    conn = db.connect(target)
    _setup(conn, device)
    conn.close()
    db.load_sql(tmp_path / "missing.sql", target)
    assert db.connect(target).execute("SELECT count(*) FROM devices").fetchone()[0] == 0


def test_prune_keeps_only_current_versions(conn, device, add):
    dev, run = _setup(conn, device)
    old_run = db.start_run(conn, dev, ["gemm"], ["d"], "gemm:old")
    add(conn, run, dev, V, kernel="cublas", design="vendor", ms=1.0)
    add(conn, old_run, dev, "old", kernel="own", design="staged", ms=0.1)
    add(conn, old_run, dev, "old", kernel="cublas", design="vendor", ms=1.0)
    assert db.prune_versions(conn, {"gemm": V}) == 2
    assert [tuple(r) for r in conn.execute("SELECT template_version, kernel FROM measurements")] == [(V, "cublas")]
    assert [r[0] for r in conn.execute("SELECT id FROM runs")] == [run]


def _stamp(conn, kernel, created, version=V, prec="d"):
    conn.execute("UPDATE measurements SET created = ? WHERE kernel = ? AND template_version = ?"
                 " AND precision = ?", (created, kernel, version, prec))


T1, T2 = "2026-01-02T00:00:00+00:00", "2026-01-03T00:00:00+00:00"


def test_stale_driver_rows_this_version_chain_precisions_and_time(conn, device, add):
    dev, run = _setup(conn, device)
    add(conn, run, dev, V, kernel="drv_leaf32", design="driver", ms=1.0)
    add(conn, run, dev, V, kernel="drv_leaf32", design="driver", ms=1.0, prec="s")
    add(conn, run, dev, V, kernel="own", design="staged", ms=0.5)
    add(conn, run, dev, "old", kernel="drv_leaf32", design="driver", ms=2.0)
    # a version carried to V: its driver rows would compete for V's winners, so they count too
    add(conn, run, dev, "prev", kernel="drv_leaf16", design="driver", ms=0.9)
    add(conn, run, dev, "prev", kernel="own2", design="staged", ms=0.6)
    add(conn, run, dev, V, kernel="drv_leaf64", design="driver", ms=0.8)
    _stamp(conn, "drv_leaf64", T2)            # timed again already: not stale
    assert db.carry_version(conn, "gemm", "prev", V, "test")
    key = ("gemm", "d", "strided", "nn", 8, 8, 8)
    # and the fastest kernel there ("own", 0.5 ms; not "own2"): the driver's competitor
    assert db.stale_driver_rows(conn, dev, "gemm", V, ["d"], T1) == {
        (*key, "drv_leaf32"): {V}, (*key, "drv_leaf16"): {"prev"}, (*key, "own"): {V}}
    assert db.stale_driver_rows(conn, dev, "gemm", V, ["d"], "1999-01-01T00:00:00+00:00") == {}
    # nothing is deleted: the stale rows serve until they are timed again
    assert conn.execute("SELECT count(*) FROM measurements").fetchone()[0] == 7


def test_stale_driver_rows_take_the_vendor_rows_at_their_shapes(conn, device, add):
    """A driver competes with the vendor row of its shape: both are timed again together, so
    that an older vendor row (another batch) is never compared with a new driver row."""
    dev, run = _setup(conn, device)
    add(conn, run, dev, V, kernel="drv_leaf32", design="driver", ms=1.0, m=64, batch=1279)
    add(conn, run, dev, V, kernel="cublas", design="vendor", ms=0.9, m=64, batch=640)
    add(conn, run, dev, V, kernel="cublas", design="vendor", ms=0.1, m=8)        # no driver there
    add(conn, run, dev, V, kernel="cublas", design="vendor", ms=0.9, m=64, prec="s")
    stale = db.stale_driver_rows(conn, dev, "gemm", V, ["d"], T1)
    assert {(k[4], k[7]) for k in stale} == {(64, "drv_leaf32"), (64, "cublas")}


def test_stale_driver_rows_take_the_fastest_kernel_at_their_shapes(conn, device, add):
    """The fastest ok kernel row of a driver's shape is timed again with the driver (a winner
    decided within one run); slower kernels, failed ones and shapes without a driver are not, and
    a fastest kernel already timed again (created after `before`) leaves the shape alone."""
    dev, run = _setup(conn, device)
    add(conn, run, dev, V, kernel="drv_leaf32", design="driver", ms=1.0, m=64)
    add(conn, run, dev, V, kernel="tri_a", design="tri", ms=0.7, m=64)
    add(conn, run, dev, V, kernel="tri_b", design="tri", ms=0.8, m=64)
    add(conn, run, dev, V, kernel="bad", design="tri", ms=0.1, m=64, status="wrong")
    add(conn, run, dev, V, kernel="tiles", design="tiles", ms=0.2, m=8)       # no driver there
    add(conn, run, dev, V, kernel="drv_leaf32", design="driver", ms=1.0, m=128)
    add(conn, run, dev, "prev", kernel="tri_c", design="tri", ms=0.5, m=128)  # carried to V
    add(conn, run, dev, V, kernel="tri_c", design="tri", ms=0.6, m=128)
    assert db.carry_version(conn, "gemm", "prev", V, "test")
    stale = db.stale_driver_rows(conn, dev, "gemm", V, ["d"], T1)
    assert {(k[4], k[7]): v for k, v in stale.items()} == {
        (64, "drv_leaf32"): {V}, (64, "tri_a"): {V}, (128, "drv_leaf32"): {V},
        (128, "tri_c"): {"prev"}}
    _stamp(conn, "tri_a", T2)
    stale = db.stale_driver_rows(conn, dev, "gemm", V, ["d"], T1)
    assert {(k[4], k[7]) for k in stale} == {(64, "drv_leaf32"), (128, "drv_leaf32"), (128, "tri_c")}


def test_replace_key_drops_the_older_versions_row(conn, device, add):
    dev, run = _setup(conn, device)
    add(conn, run, dev, "prev", kernel="drv_leaf16", design="driver", ms=0.9)
    add(conn, run, dev, "prev", kernel="drv_leaf32", design="driver", ms=0.9)
    db.replace_key(conn, dev, ("gemm", "d", "strided", "nn", 8, 8, 8, "drv_leaf16"), ["prev"])
    assert [r[0] for r in conn.execute("SELECT kernel FROM measurements")] == ["drv_leaf32"]


def test_merge_adds_missing_rows_and_keeps_existing(tmp_path, device, add):
    a_path, b_path = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    a, b = db.connect(a_path), db.connect(b_path)
    dev_a, run_a = _setup(a, device)
    dev_b, run_b = _setup(b, device)
    add(a, run_a, dev_a, V, kernel="k1", design="staged", ms=1.0)
    add(b, run_b, dev_b, V, kernel="k1", design="staged", ms=5.0)     # same key: a's row stays
    add(b, run_b, dev_b, V, kernel="k2", design="staged", ms=2.0, m=4)
    a.commit(), b.commit()
    b.close()
    assert db.merge_from(a, b_path) == 1
    rows = sorted(tuple(r) for r in a.execute("SELECT kernel, m, median_ms FROM measurements"))
    assert rows == [("k1", 8, 1.0), ("k2", 4, 2.0)]
    assert a.execute("SELECT COUNT(*) FROM devices").fetchone()[0] == 1
    assert a.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 2
