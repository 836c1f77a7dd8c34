"""The command line as the Makefile calls it (in-process, so the suite stays fast)."""
from pathlib import Path

import pytest

from generator.__main__ import main

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def test_load_dump_emit_show(tmp_path, capsys, fake_tuner):
    sqlite, sql = tmp_path / "shoal.sqlite", tmp_path / "shoal.sql"
    assert main(["load-db", "--sql", str(sql), "--db", str(sqlite)]) == 0   # no dump yet
    assert sqlite.is_file()
    tpl = ["--templates", str(FIXTURES / "templates")]
    assert main(["tune", *tpl, "--db", str(sqlite), "--tuner", fake_tuner, "--work",
                 str(tmp_path / "work"), "--routines", "gemm", "--precisions", "s,d",
                 "--limit-shapes", "1"]) == 0
    assert main(["dump-db", "--db", str(sqlite), "--sql", str(sql)]) == 0
    text = sql.read_text()
    assert "CREATE TABLE" in text and "INSERT INTO" in text
    sqlite.unlink()
    assert main(["load-db", "--sql", str(sql), "--db", str(sqlite)]) == 0
    assert main(["emit", *tpl, "--db", str(sqlite), "--out", str(tmp_path / "gen")]) == 0
    tables = (tmp_path / "gen" / "gemm_tables.c").read_text()
    assert "const int shoal_gemm_n_tables = 1;" in tables
    capsys.readouterr()
    assert main(["show", *tpl, "--db", str(sqlite), "--precision", "d"]) == 0
    out = capsys.readouterr().out
    assert "cuBLAS Gflop/s" in out and " 1  1  1 " in out


def test_count(tmp_path, capsys):
    assert main(["count", "--search-space", str(FIXTURES / "search_space"),
                 "--device-info", str(FIXTURES / "h100.json"), "--precisions", "d"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("gemm d: ") and "vendor 200" in out


def test_bad_search_space_is_a_clean_error(tmp_path, capsys):
    (tmp_path / "gemm.toml").write_text("[routine]\nname = 'gemm'\n")
    assert main(["count", "--search-space", str(tmp_path), "--device-info",
                 str(FIXTURES / "h100.json")]) == 2
    assert "missing 'precisions'" in capsys.readouterr().err


def test_emit_fold_tolerance(tmp_path, capsys):
    tpl = ["--templates", str(FIXTURES / "templates")]
    db, out = str(tmp_path / "none.sqlite"), str(tmp_path / "gen")
    assert main(["emit", *tpl, "--db", db, "--out", out, "--fold-tolerance", "-0.1"]) == 2
    assert "must be >= 0" in capsys.readouterr().err
    # on by default, as a cover: one line per routine
    assert main(["emit", *tpl, "--db", db, "--out", out]) == 0
    assert "[emit] gemm: 16 -> 16 kernels (fold cover, tolerance 0.02)" in capsys.readouterr().out
    assert main(["emit", *tpl, "--db", db, "--out", out, "--fold-cover", "0"]) == 0
    assert "[emit] gemm: 16 -> 16 kernels (fold tolerance 0.02)" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["emit", *tpl, "--db", db, "--out", out, "--fold-cover", "2"])
    assert "--fold-cover" in capsys.readouterr().err
    assert main(["emit", *tpl, "--db", db, "--out", out, "--fold-tolerance", "0"]) == 0
    assert "fold tolerance" not in capsys.readouterr().out
