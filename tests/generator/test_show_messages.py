"""`python -m generator show` as a user meets it: a misspelt routine, precision or variant, or a
file that is not a tuned database, gives one line on stderr (no traceback) and a non-zero exit."""
import subprocess
import sys
from pathlib import Path

from generator import db

ROOT = Path(__file__).resolve().parents[2]


def show(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "generator", "show", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


def tuned_db(tmp_path: Path) -> Path:
    path = tmp_path / "tuned.sqlite"
    db.connect(path).close()       # an empty database with the schema
    return path


def one_line(proc: subprocess.CompletedProcess) -> str:
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    return lines[0]


def test_misspelt_routine_exits_2_naming_the_valid_ones(tmp_path):
    proc = show("--db", str(tuned_db(tmp_path)), "--routine", "getrff")
    assert proc.returncode == 2
    line = one_line(proc)
    assert "unknown routine 'getrff'" in line and "getrf" in line and "gemm" in line and "potrf" in line
    assert proc.stdout == ""


def test_misspelt_precision_exits_2(tmp_path):
    proc = show("--db", str(tuned_db(tmp_path)), "--routine", "gemm", "--precision", "double")
    assert proc.returncode == 2
    line = one_line(proc)
    assert "unknown precision 'double'" in line and "d, s" in line


def test_misspelt_variant_exits_2(tmp_path):
    proc = show("--db", str(tuned_db(tmp_path)), "--routine", "gemm", "--variant", "NN")
    assert proc.returncode == 2
    assert "unknown variant of gemm 'NN'" in one_line(proc)


def test_valid_filter_on_an_empty_database_is_not_an_error(tmp_path):
    proc = show("--db", str(tuned_db(tmp_path)), "--routine", "gemm", "--precision", "d")
    assert proc.returncode == 0, proc.stderr
    assert "no tuned shapes match" in proc.stdout


def test_text_file_is_one_line(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("these are not the measurements you are looking for\n" * 100)
    proc = show("--db", str(path))
    assert proc.returncode == 1
    line = one_line(proc)
    assert str(path) in line and "not a shoal tuned database" in line


def test_other_sqlite_file_is_one_line_and_left_unchanged(tmp_path):
    import sqlite3
    path = tmp_path / "other.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    proc = show("--db", str(path))
    assert proc.returncode == 1
    assert "not a shoal tuned database (no devices, measurements, winners" in one_line(proc)
    assert path.read_bytes() == before   # show opened it read-only, created no schema


def test_missing_file_is_one_line(tmp_path):
    proc = show("--db", str(tmp_path / "absent.sqlite"))
    assert proc.returncode == 1
    assert "does not exist" in one_line(proc)
