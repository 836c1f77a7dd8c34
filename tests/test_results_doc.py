"""docs/results.md is generated from the committed CSVs (bench/results_doc.py); this fails when
a CSV or the script changed and `make results-doc` was not run, or the page was edited by hand."""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "bench" / "results_doc.py"


def check(out: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), "--check", "--out", str(out)], capture_output=True,
                          text=True, cwd=ROOT)


def test_results_doc_is_current():
    proc = check(ROOT / "docs" / "results.md")
    assert proc.returncode == 0, proc.stderr


def test_a_hand_edit_is_caught(tmp_path):
    page = tmp_path / "results.md"
    page.write_text((ROOT / "docs" / "results.md").read_text().replace("| 2 |", "| 2.0 |", 1))
    proc = check(page)
    assert proc.returncode == 1 and "make results-doc" in proc.stderr


def test_every_section_names_its_run_date_and_device():
    text = (ROOT / "docs" / "results.md").read_text()
    sections = text.split("\n## ")[1:]
    assert len(sections) >= 6
    for s in sections:
        measured = next(line for line in s.splitlines() if line.startswith("Measured "))
        assert re.match(r"Measured \d{4}-\d\d-\d\d \d\d:\d\d on NVIDIA ", measured), measured
        # a benchmark run, or the tuner's measurements exported from the tuned database
        assert "bench/results/" in measured and ("bench/run_" in measured or "`make tune`" in measured)
        run = measured.split("`bench/results/")[1].split("`")[0]
        assert (ROOT / "bench" / "results" / run).is_file(), run
