"""Build hygiene, on a CPU-only machine and without building anything: a failed generator step
stops `make` with its error, and each target asks only for the system parts it needs (libshoal
needs neither OpenBLAS nor SQLite headers).

Each test works on a copy of the tree (without the 30 MB database dump) in a temporary directory,
with `make -n` or with compilers replaced by `true`, so it takes seconds.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
MAKE = shutil.which("make")
pytestmark = pytest.mark.skipif(MAKE is None, reason="GNU make is not installed")

# Not needed by any Makefile rule that these tests reach, or large.
_IGNORE = shutil.ignore_patterns(".git", ".venv", "build", "lib", "generated", "__pycache__", "results",
                                 "shoal.sql.gz", "*.sqlite", "shoal.pc", ".pytest_cache")
# Headers that only tests, benchmarks and the tuner may use.
_HOST_ONLY_HEADERS = ("cblas.h", "sqlite3.h", "lapacke.h")


def _copy_tree(dst: Path) -> Path:
    shutil.copytree(REPO, dst, ignore=_IGNORE, symlinks=True)
    return dst


def _ready_tree(tmp_path: Path) -> Path:
    """A copy whose venv, database and emitted source list are up to date, so that make runs
    neither pip nor the generator (GEN_CU names one kernel file, enough to be listed)."""
    tree = _copy_tree(tmp_path / "tree")
    (tree / ".venv").mkdir()
    (tree / "generated").mkdir()
    stamp, db, sources = tree / ".venv/.stamp", tree / "tuned_db/shoal.sqlite", tree / "generated/sources.mk"
    stamp.touch()
    db.touch()
    (tree / "generated/.fold-tolerance-0.02-cover1").touch()   # the default FOLD_TOLERANCE, FOLD_COVER
    sources.write_text("GEN_CU := $(GEN_DIR)/gemm_d_nn.cu\nGEN_C := $(GEN_DIR)/gemm_tables.c\n")
    newest = max(p.stat().st_mtime for p in tree.rglob("*") if p.is_file())
    os.utime(stamp, (newest + 1, newest + 1))
    os.utime(db, (newest + 2, newest + 2))
    os.utime(sources, (newest + 3, newest + 3))
    return tree


def _make(tree: Path, *args: str, env: dict[str, str] | None = None,
          timeout: float = 120) -> subprocess.CompletedProcess[str]:
    full_env = dict(os.environ, **(env or {}))
    full_env.pop("MAKEFLAGS", None)
    full_env.pop("MFLAGS", None)
    return subprocess.run([MAKE, "--no-print-directory", *args], cwd=tree, env=full_env, text=True,
                          capture_output=True, timeout=timeout)


def _hide_jinja2(tmp_path: Path) -> Path:
    """A directory that, first on PYTHONPATH, makes `import jinja2` fail as on a bare Python."""
    fake = tmp_path / "no_jinja2"
    (fake / "jinja2").mkdir(parents=True)
    (fake / "jinja2" / "__init__.py").write_text(
        'raise ImportError("No module named \'jinja2\' (hidden by tests/test_build.py)")\n')
    return fake


def _checks_run(output: str) -> list[str]:
    """The parts, in order, that `make -n` would check with scripts/check_deps.sh."""
    return [p for line in output.splitlines() if "scripts/check_deps.sh" in line
            for p in line.split("scripts/check_deps.sh", 1)[1].split()]


# --- 1. a failed generator step stops make ---------------------------------------------------

def test_emit_without_jinja2_stops_make(tmp_path):
    """The venv exists but its Python has no Jinja2: emit fails, and make must stop with that
    error instead of linking a libshoal without kernels (compilers are `true`, so the old
    Makefile's `-include` went on to 'link' and exited 0)."""
    tree = _ready_tree(tmp_path)
    (tree / "generated/sources.mk").unlink()
    fake = _hide_jinja2(tmp_path)
    py = tree / ".venv/bin/python"
    py.parent.mkdir(parents=True)
    py.write_text(f'#!/bin/sh\nPYTHONPATH="{fake}" exec "{sys.executable}" "$@"\n')
    py.chmod(0o755)
    proc = _make(tree, "lib/libshoal.so", "CC=true", "NVCC=true")
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0, f"make exited 0 although emit failed:\n{out}"
    assert "jinja2" in out, out
    assert "generated/sources.mk" in out, out
    assert not (tree / "lib/libshoal.so").exists()
    assert not (tree / "build/obj").exists(), "make compiled something after the failed emit"


def test_no_package_index_and_no_jinja2_stops_make(tmp_path):
    """No venv yet, pip cannot reach an index, the system Python has no Jinja2: the venv step
    fails, says what to install, and make stops."""
    tree = _ready_tree(tmp_path)
    shutil.rmtree(tree / ".venv")
    (tree / "generated/sources.mk").unlink()
    env = {"PYTHONPATH": str(_hide_jinja2(tmp_path)), "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": "",
           "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    proc = _make(tree, "lib/libshoal.so", "CC=true", "NVCC=true", f"PYTHON={sys.executable}", env=env,
                 timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0, f"make exited 0 without Jinja2:\n{out}"
    assert "jinja2" in out.lower(), out
    assert not (tree / "lib/libshoal.so").exists()
    assert not (tree / "build/obj").exists(), "make compiled something after the failed venv step"


def test_a_new_fold_tolerance_emits_again(tmp_path):
    """The tables depend on FOLD_TOLERANCE and FOLD_COVER: another value (and then the first one
    again) re-runs emit with it; an unchanged value runs nothing. PY is `echo`, so emit only
    prints."""
    tree = _ready_tree(tmp_path)
    # all in the past (_ready_tree's are up to 3 s ahead), so that a stamp made now is newer
    past = time.time() - 100
    for p in tree.rglob("*"):
        if p.is_file():
            os.utime(p, (past, past))
    for i, name in enumerate((".venv/.stamp", "tuned_db/shoal.sqlite", "generated/sources.mk")):
        os.utime(tree / name, (past + i + 1, past + i + 1))

    def emits(*args: str) -> list[str]:
        proc = _make(tree, "generated/sources.mk", "PY=echo", *args)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        return [line for line in proc.stdout.splitlines() if line.startswith("echo -m generator emit")]

    assert emits() == []
    (line,) = emits("FOLD_TOLERANCE=0")
    assert line.endswith("--fold-cover 1 --fold-tolerance 0"), line
    assert emits("FOLD_TOLERANCE=0") == []
    (line,) = emits("FOLD_COVER=0")
    assert line.endswith("--fold-cover 0 --fold-tolerance 0.02"), line
    assert emits("FOLD_COVER=0") == []
    (line,) = emits()
    assert line.endswith("--fold-cover 1 --fold-tolerance 0.02"), line
    assert [p.name for p in (tree / "generated").glob(".fold-tolerance-*")] == [
        ".fold-tolerance-0.02-cover1"]


def test_clean_runs_no_generator(tmp_path):
    """`make clean` on a tree with no emitted sources must not emit them first."""
    tree = _copy_tree(tmp_path / "tree")
    proc = _make(tree, "-n", "clean", "PY=false", "PYTHON=false")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "generator" not in proc.stdout
    assert proc.stdout.strip().startswith("rm -rf")


# --- 2. each target asks only for what it needs ----------------------------------------------

def test_library_and_tuner_ask_no_openblas(tmp_path):
    tree = _ready_tree(tmp_path)
    proc = _make(tree, "-n", "all")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    checks = _checks_run(proc.stdout)
    assert "cuda" in checks and "nvrtc" in checks, checks
    assert "openblas" not in checks, checks
    assert "sqlite" not in proc.stdout
    assert "-lopenblas" not in proc.stdout, "the library or the tuner links OpenBLAS"


@pytest.mark.parametrize("target, needs_openblas", [
    ("build/tests/test_gemm_gpu", True),
    ("build/bin/shoal_bench", True),
    ("build/bin/shoal_lapack_bench", True),
    ("build/tests/test_blas2_gpu", False),
    ("build/tests/test_lu_gpu", False),
    ("build/bin/shoal_blas2_bench", False),
])
def test_programs_ask_for_openblas_only_where_they_link_it(tmp_path, target, needs_openblas):
    tree = _ready_tree(tmp_path)
    proc = _make(tree, "-n", target)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    links = "-lopenblas" in proc.stdout
    asks = "openblas" in _checks_run(proc.stdout)
    assert links == needs_openblas, f"{target}: links OpenBLAS: {links}"
    assert asks == needs_openblas, f"{target}: checks for OpenBLAS: {asks}"


def test_make_test_checks_openblas_first_and_ends_with_pytest(tmp_path):
    """`make test` names a missing OpenBLAS before the long library build, and its last command
    is pytest, whose last line counts passed, failed and skipped tests."""
    tree = _ready_tree(tmp_path)
    proc = _make(tree, "-n", "test")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert _checks_run(proc.stdout)[0] == "openblas"
    last = proc.stdout.strip().splitlines()[-1]
    assert re.search(r"-m pytest\b", last), last


def test_make_sanitize_builds_every_gpu_test_program_then_runs_the_script(tmp_path):
    """`make sanitize` (tests/sanitize.mk) covers every GPU test program of TEST_BINS, all four
    tools, and `make sanitize-run` runs the same without building anything."""
    tree = _ready_tree(tmp_path)
    proc = _make(tree, "-n", "sanitize")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    last = proc.stdout.strip().splitlines()[-1]
    assert "scripts/sanitize.sh" in last and "memcheck racecheck synccheck initcheck" in last, last
    progs = sorted(w for w in last.split() if w.startswith("build/tests/"))
    gpu_sources = sorted(p.stem for p in (tree / "tests/gpu").glob("test_*_gpu.c"))
    assert [Path(p).name for p in progs] == gpu_sources
    for p in progs:
        assert re.search(rf"-o {re.escape(p)}\b", proc.stdout), f"make sanitize does not build {p}"
    run_only = _make(tree, "-n", "sanitize-run", "SANITIZE_TOOLS=memcheck")
    assert run_only.returncode == 0, run_only.stdout + run_only.stderr
    (only,) = run_only.stdout.strip().splitlines()
    assert "SANITIZE_TOOLS='memcheck'" in only and "scripts/sanitize.sh" in only, only


def _hiding_cc(tmp_path: Path) -> Path:
    """A C compiler on which the host-only headers exist but refuse to compile: including one,
    even indirectly, is an error."""
    hide = tmp_path / "hidden_headers"
    hide.mkdir()
    for h in _HOST_ONLY_HEADERS:
        (hide / h).write_text(f'#error "{h} hidden by tests/test_build.py"\n')
    cc = tmp_path / "hiding-cc"
    cc.write_text(f'#!/bin/sh\nexec {shutil.which("gcc") or "cc"} -I"{hide}" "$@"\n')
    cc.chmod(0o755)
    return cc


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
def test_check_deps_names_the_missing_part(tmp_path):
    cc = _hiding_cc(tmp_path)
    script = REPO / "scripts/check_deps.sh"
    env = dict(os.environ, CC=str(cc), PYTHON=sys.executable)
    proc = subprocess.run([str(script), "openblas"], env=env, text=True, capture_output=True)
    assert proc.returncode == 1 and "libopenblas-dev" in proc.stderr, proc.stderr
    proc = subprocess.run([str(script), "python"], env=env, text=True, capture_output=True)
    assert proc.returncode == 0, proc.stderr
    proc = subprocess.run([str(script), "sqlite"], env=env, text=True, capture_output=True)
    assert proc.returncode == 2, "an unknown part must be an error"
    env["PYTHON"] = str(tmp_path / "no-such-python")
    proc = subprocess.run([str(script), "python"], env=env, text=True, capture_output=True)
    assert proc.returncode == 1 and "Python 3.11+" in proc.stderr, proc.stderr


# --- what libshoal is built from includes no host-only header --------------------------------

_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)


def _library_sources() -> list[Path]:
    """Everything libshoal is compiled from: runtime/, the public header, the kernel templates
    (rendered into generated/), and generated/ itself where a build has emitted it."""
    files = [p for d in ("runtime", "include", "templates", "generated") for p in (REPO / d).rglob("*")
             if p.is_file() and p.suffix in (".c", ".h", ".cu", ".cuh", ".j2")]
    assert any(p.parent.name == "runtime" for p in files), "no runtime sources found"
    return files


def test_no_library_source_includes_host_only_headers():
    bad = [f"{p.relative_to(REPO)}: {h}" for p in _library_sources()
           for h in _INCLUDE.findall(p.read_text(errors="replace")) if Path(h).name in _HOST_ONLY_HEADERS]
    assert not bad, "libshoal must build without OpenBLAS and SQLite headers:\n" + "\n".join(bad)


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
def test_runtime_preprocesses_with_host_only_headers_poisoned(tmp_path):
    """Indirect includes too: every runtime C file preprocesses with a compiler on which
    cblas.h / sqlite3.h / lapacke.h are #error."""
    cuda_home = Path(os.environ.get("CUDA_HOME", "/usr/local/cuda"))
    if not (cuda_home / "include/cuda_runtime_api.h").is_file():
        pytest.skip(f"no CUDA headers under {cuda_home}")
    cc = _hiding_cc(tmp_path)
    flags = ["-std=c11", "-D_GNU_SOURCE", "-E", "-o", os.devnull, f"-I{REPO / 'include'}",
             f"-I{REPO / 'runtime'}", f"-I{cuda_home / 'include'}"]
    for src in sorted((REPO / "runtime").glob("*.c")):
        proc = subprocess.run([str(cc), *flags, str(src)], text=True, capture_output=True, timeout=120)
        assert proc.returncode == 0, f"{src.relative_to(REPO)}:\n{proc.stderr}"
