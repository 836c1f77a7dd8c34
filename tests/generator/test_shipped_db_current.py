"""The committed tuned database serves the checkout: every routine measured in
tuned_db/shoal.sqlite (built by `make` from tuned_db/shoal.sql.gz) reaches those measurements
from its current template version, directly or through carried versions. A template edit whose
carry was recorded in a database that a device's dump later replaced left TRSM, SYRK and HERK
without tuned tables from 2026-11-27 until the seventeenth session found it: the build emits the
portable defaults then, silently."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from generator import db
from generator.project import default_project, template_version
from generator.search_space import load_routine

PROJECT = default_project()
SHIPPED = PROJECT.search_space_dir.parent / "tuned_db" / "shoal.sqlite"
ROUTINES = sorted(p.stem for p in PROJECT.search_space_dir.glob("*.toml"))


@pytest.fixture(scope="module")
def shipped() -> sqlite3.Connection:
    if not SHIPPED.is_file():
        pytest.skip(f"SKIP: {SHIPPED} not built (make builds it from tuned_db/shoal.sql.gz)")
    conn = sqlite3.connect(f"file:{SHIPPED}?mode=ro", uri=True)
    yield conn
    conn.close()


@pytest.mark.parametrize("routine", ROUTINES)
def test_measurements_reach_the_current_template_version(routine: str, shipped: sqlite3.Connection) -> None:
    measured = {v for (v,) in shipped.execute(
        "SELECT DISTINCT template_version FROM measurements WHERE routine = ? AND status = 'ok'", (routine,))}
    if not measured:
        pytest.skip(f"{routine}: never tuned")
    current = template_version(PROJECT, load_routine(PROJECT.search_space_dir, routine))
    chain = db.version_chain(shipped, routine, current)
    assert measured & set(chain), (
        f"{routine}: the template version {current} reaches none of the measured versions "
        f"{sorted(measured)}: carry them (python -m generator carry-version --base <commit>) or retune")
