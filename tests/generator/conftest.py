"""Shared fixtures: a frozen copy of the GEMM search space with fixture design templates in front of the
real ones (so the generator is testable before and independently of the CUDA templates), a fake
H100, a fake tuner, and helpers to fill a database."""
from __future__ import annotations

import json
import stat
import sys
from pathlib import Path

import pytest

from generator import db
from generator.project import Project, default_project, template_version
from generator.search_space import SearchSpace, load_routine

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(scope="session")
def project() -> Project:
    real = default_project()
    return Project(search_space_dir=FIXTURES / "search_space",
                   template_dirs=(FIXTURES / "templates",) + real.template_dirs,
                   include_dir=real.include_dir)


@pytest.fixture(scope="session")
def space(project: Project) -> SearchSpace:
    return load_routine(project.search_space_dir, "gemm")


@pytest.fixture(scope="session")
def version(project: Project, space: SearchSpace) -> str:
    return template_version(project, space)


@pytest.fixture
def device() -> dict:
    return json.loads((FIXTURES / "h100.json").read_text())


@pytest.fixture
def conn():
    c = db.empty()
    yield c
    c.close()


@pytest.fixture
def fake_tuner(tmp_path: Path) -> str:
    """An executable path, as `--tuner` expects, that runs fixtures/fake_tuner.py."""
    path = tmp_path / "fake_shoal_tune"
    path.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{FIXTURES / "fake_tuner.py"}" "$@"\n')
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


@pytest.fixture
def add():
    return add_measurement


def add_measurement(conn, run_id: int, device_id: int, version: str, *, kernel: str, design: str,
        config: str = "{}", status: str = "ok", ms: float | None = 1.0, prec: str = "d",
        mode: str = "strided", variant: str = "nn", m: int = 8, n: int = 8, k: int = 8,
        batch: int = 1000, reason: str = "") -> None:
    """Insert one measurement with Gflop/s derived like the ingester does."""
    g = 2 * m * n * k * batch / (ms * 1e6) if ms else None
    db.insert_measurement(conn, db.Measurement(
        run_id=run_id, device_id=device_id, routine="gemm", precision=prec, mode=mode,
        variant=variant, m=m, n=n, k=k, batch=batch, design=design, config=config, kernel=kernel,
        template_version=version, status=status, reason=reason, median_ms=ms, min_ms=ms,
        gflops=g, created="2000-01-01T00:00:00+00:00"))
