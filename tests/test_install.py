"""`make install` as an application team uses it: stage an install (DESTDIR) of the built library,
check what ships (soname, links, no rpath, exactly the public API exported, header, pkg-config and
CMake files, licence), then build the examples against the staged tree through pkg-config and
through find_package(shoal), and run them (they exit 77, a skip, where there is no GPU).

Needs the library built (`make`, which `make test` runs first); a missing build fails, as it
must not look like a clean skip. The pkg-config and CMake builds skip where the tool is absent.
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ("gemm_batched", "lu_solve", "cholesky_solve")
PREFIX = "/opt/shoal"
SKIP_EXIT = 77


def version() -> str:
    fields = {}
    for line in (ROOT / "include" / "shoal.h").read_text().splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == "#define" and parts[1].startswith("SHOAL_VERSION_"):
            fields[parts[1]] = parts[2]
    return ".".join(fields[f"SHOAL_VERSION_{k}"] for k in ("MAJOR", "MINOR", "PATCH"))


def declared() -> set[str]:
    out = subprocess.run([sys.executable, str(ROOT / "packaging" / "version_script.py"), "--list",
                          str(ROOT / "include" / "shoal.h")], capture_output=True, text=True, check=True)
    return set(out.stdout.split())


def exported(lib: Path) -> set[str]:
    """Functions in the dynamic symbol table that the library defines."""
    out = subprocess.run(["nm", "-D", "--defined-only", str(lib)], capture_output=True, text=True, check=True)
    return {f[2].split("@")[0] for f in (line.split() for line in out.stdout.splitlines())
            if len(f) == 3 and f[1] in "TtWiu"}


def dynamic_section(lib: Path) -> str:
    return subprocess.run(["readelf", "-d", str(lib)], capture_output=True, text=True, check=True).stdout


@pytest.fixture(scope="module")
def staged(tmp_path_factory) -> Path:
    """The prefix of a `make install PREFIX=/opt/shoal DESTDIR=<tmp>`."""
    if not (ROOT / "lib" / "libshoal.so").exists() or not (ROOT / "lib" / "libshoal.a").exists():
        pytest.fail("lib/libshoal.so or lib/libshoal.a is missing: run `make` first", pytrace=False)
    dest = tmp_path_factory.mktemp("stage")
    # a make of its own, not a job of the `make test` that may be running this test
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    proc = subprocess.run(["make", "--no-print-directory", "install", f"PREFIX={PREFIX}", f"DESTDIR={dest}"],
                          cwd=ROOT, capture_output=True, text=True, timeout=1800, env=env)
    if proc.returncode != 0:
        pytest.fail(f"make install failed:\n{proc.stdout}{proc.stderr}", pytrace=False)
    return dest / PREFIX.lstrip("/")


def test_installed_files(staged):
    v = version()
    lib = staged / "lib"
    assert (lib / f"libshoal.so.{v}").is_file() and not (lib / f"libshoal.so.{v}").is_symlink()
    assert os.readlink(lib / f"libshoal.so.{v.split('.')[0]}") == f"libshoal.so.{v}"
    assert os.readlink(lib / "libshoal.so") == f"libshoal.so.{v.split('.')[0]}"
    for f in ("libshoal.a", "pkgconfig/shoal.pc", "cmake/shoal/shoalConfig.cmake",
              "cmake/shoal/shoalConfigVersion.cmake"):
        assert (lib / f).is_file(), f
    headers = subprocess.run([sys.executable, str(ROOT / "packaging" / "version_script.py"), "--headers",
                              "include/shoal.h"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    assert "include/shoal.h" in headers
    for h in headers:   # shoal.h and every header it includes with quotes
        assert (staged / h).read_bytes() == (ROOT / h).read_bytes(), h
    assert "BSD 3-Clause" in (staged / "share" / "doc" / "shoal" / "LICENSE").read_text()
    # nothing in the package files points back into the build tree
    for f in ("pkgconfig/shoal.pc", "cmake/shoal/shoalConfig.cmake"):
        assert str(ROOT) not in (lib / f).read_text(), f


def test_installed_library_has_soname_and_no_rpath(staged):
    v = version()
    dyn = dynamic_section(staged / "lib" / f"libshoal.so.{v}")
    assert f"Library soname: [libshoal.so.{v.split('.')[0]}]" in dyn
    assert "RPATH" not in dyn and "RUNPATH" not in dyn, dyn


@pytest.mark.parametrize("which", ["installed", "build tree"])
def test_exports_exactly_the_public_api(staged, which):
    lib = staged / "lib" / f"libshoal.so.{version()}" if which == "installed" else ROOT / "lib" / "libshoal.so"
    want, got = declared(), exported(lib)
    assert len(want) > 50
    assert not want - got, f"declared in shoal.h but not exported: {sorted(want - got)}"
    assert not got - want, f"exported but not declared in shoal.h: {sorted(got - want)}"


def pkg_config(staged: Path, *args: str) -> list[str]:
    env = dict(os.environ, PKG_CONFIG_PATH=str(staged / "lib" / "pkgconfig"))
    out = subprocess.run(["pkg-config", *args, "shoal"], capture_output=True, text=True, env=env, check=True)
    return out.stdout.split()


@pytest.fixture(scope="module")
def pkgconfig_builds(staged, tmp_path_factory) -> dict[str, Path | str]:
    """Each example built with `cc $(pkg-config --cflags shoal) x.c $(pkg-config --libs shoal) -lm`:
    the program's path, or the compiler's output where the build failed."""
    if shutil.which("pkg-config") is None:
        pytest.skip("pkg-config is not installed (apt-get install pkg-config; .ci/run does)")
    out = tmp_path_factory.mktemp("pkgconfig")
    cflags, libs = pkg_config(staged, "--cflags"), pkg_config(staged, "--libs")
    assert "-lcudart" in libs and "-lshoal" in libs
    cc = os.environ.get("CC", "cc")
    built: dict[str, Path | str] = {}
    for ex in EXAMPLES:
        exe = out / ex
        proc = subprocess.run([cc, "-std=c11", "-Wall", *cflags, str(ROOT / "examples" / f"{ex}.c"), "-o", str(exe),
                               *libs, "-lm"], capture_output=True, text=True)
        built[ex] = exe if proc.returncode == 0 else proc.stdout + proc.stderr
    return built


@pytest.fixture(scope="module")
def cmake_builds(staged, tmp_path_factory) -> Path:
    if shutil.which("cmake") is None:
        pytest.skip("cmake is not installed")
    build = tmp_path_factory.mktemp("cmake")
    for cmd in (["cmake", "-S", str(ROOT / "examples"), "-B", str(build), f"-DCMAKE_PREFIX_PATH={staged}"],
                ["cmake", "--build", str(build), "-j2"]):
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
        if proc.returncode != 0:
            pytest.fail(f"{' '.join(cmd)} failed:\n{proc.stdout}{proc.stderr}", pytrace=False)
    return build


def run_example(exe: Path) -> None:
    # no LD_LIBRARY_PATH: the program must find libshoal through what its build gave it (the
    # pkg-config rpath, CMake's build rpath)
    env = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
    proc = subprocess.run([str(exe)], capture_output=True, text=True, env=env, timeout=600)
    out = proc.stdout + proc.stderr
    print(out)
    if proc.returncode == SKIP_EXIT:
        # no GPU: the message must still name the CUDA error behind it
        assert "shoal_create" in out and "cuda" in out, out
        pytest.skip(f"no GPU: {out.strip().splitlines()[-1]}")
    assert proc.returncode == 0, f"{exe.name} exited with {proc.returncode}:\n{out}"


@pytest.mark.parametrize("example", EXAMPLES)
def test_pkgconfig_build(pkgconfig_builds, example):
    assert isinstance(pkgconfig_builds[example], Path), pkgconfig_builds[example]


@pytest.mark.parametrize("example", EXAMPLES)
def test_pkgconfig_run(pkgconfig_builds, example):
    exe = pkgconfig_builds[example]
    if not isinstance(exe, Path):
        pytest.fail(f"{example} did not build (see test_pkgconfig_build)", pytrace=False)
    run_example(exe)


@pytest.mark.parametrize("example", EXAMPLES)
def test_cmake_build_and_run(cmake_builds, example):
    exe = cmake_builds / example
    assert exe.is_file()
    run_example(exe)


def test_cmake_static_target_links(cmake_builds):
    """shoal::shoal_static: the archive with its CUDA libraries is enough to link a program."""
    exe = cmake_builds / "gemm_batched_static"
    assert exe.is_file()
    assert "libshoal.so" not in dynamic_section(exe)
