"""Proof that a template refactor changes no kernel: render before and after, compare.

"Before" is a git revision (its generator, templates and search spaces, extracted with `git
archive`), "after" the working tree. Both emit the shipped kernels from the same tuned database,
the after side reading the measurements of the before side's template versions (the versions
are read back from the before side's <routine>_tables.c); both also render a few sample
configurations of every design (the first ones a fake H100 keeps), so designs that ship no
kernel today are covered too. A pair of files is the same when its bytes are, else when its
tokens are (comments and whitespace aside), else when nvcc compiles both to identical cubins.
A routine that lists more precisions than at the base (a precision added, e.g. c and z) is
compared in the base's precisions: the working tree is emitted as if it listed only those, and
the new precisions, which have no measurements to carry, are reported apart
(Report.added_precisions).

Used by scripts/compare_kernels.py and by `python -m generator carry-version`, which records
that the old version's measurements stand for the new one only when this comparison passes."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from .project import REPO_ROOT

DEVICE_FIXTURE = REPO_ROOT / "tests" / "generator" / "fixtures" / "h100.json"
NVCC_FLAGS = ["-cubin", "-arch=sm_90", "-O3", "-std=c++17"]

# Rendered in each tree with that tree's own generator (only long-standing entry points), so the
# same code serves a revision that predates this module.
_SAMPLE_SNIPPET = r"""
import json, sys
from pathlib import Path
from generator import render
from generator.prune import static_prune
from generator.project import default_project
from generator.search_space import candidates, discover
dev = json.loads(Path(sys.argv[1]).read_text())
out = Path(sys.argv[2]); per_design = int(sys.argv[3]); wanted = set(sys.argv[4:])
proj = default_project(); env = render.environment(proj)
for space in discover(proj.search_space_dir):
    r = space.routine.name
    if wanted and r not in wanted:
        continue
    for prec in space.routine.precisions:
        picked = {}
        for cand in candidates(space, prec):
            got = picked.setdefault(cand.design.name, [])
            # a parameter added with an implied value: only its implied value exists on both
            # sides, so only configurations at it are sampled
            added = any(getattr(p, "implied", None) is not None
                        and cand.cfg.get(p.name, p.implied) != p.implied for p in cand.design.params)
            if len(got) < per_design and not added and static_prune(cand, dev) is None:
                got.append(cand)
        for d, cands in sorted(picked.items()):
            insts = [(c.design, i) for c in cands for i in render.candidate_instances(c)]
            text = render.render_shipped(env, r, prec, insts, "sample")
            (out / f"{r}_{prec}_{d}.cu").write_text(text)
"""

_VERSION_RE = re.compile(r"routine (\w+), template version ([0-9a-f]+)")
_COMMENT_RE = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_TOKEN_RE = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|[A-Za-z_]\w*|\d[\w.]*|\S')


class CompareError(RuntimeError):
    pass


def tokens(text: str) -> list[str]:
    """C/CUDA tokens with comments dropped; a preprocessor line ends with a '\\n' token, since
    there (and only there) a line break is part of the meaning."""
    out: list[str] = []
    for line in _COMMENT_RE.sub(" ", text).split("\n"):
        toks = _TOKEN_RE.findall(line)
        out += toks
        if toks and toks[0] == "#":
            out.append("\n")
    return out


@dataclass
class FileResult:
    name: str                 # path relative to the output folder
    how: str                  # 'bytes', 'tokens', 'cubin', 'DIFFERENT', 'only before', 'only after'
    detail: str = ""


@dataclass
class Report:
    base: str
    routines: list[str]
    versions: dict[str, tuple[str, str]] = field(default_factory=dict)  # routine -> (before, after)
    files: list[FileResult] = field(default_factory=list)
    # routine -> precisions the working tree lists beyond the base's (not compared: nothing measured)
    added_precisions: dict[str, list[str]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        same = [f for f in self.files if f.how in ("bytes", "tokens", "cubin")]
        return bool(same) and all(f in same or self.is_added_design(f) for f in self.files)

    @staticmethod
    def is_added_design(f: FileResult) -> bool:
        """A sample file only the working tree renders: a design the base lacks, whose
        configurations have nothing measured to carry (the tuner times them)."""
        return f.how == "only after" and f.name.startswith("samples/")

    def counts(self) -> dict[str, int]:
        c: dict[str, int] = {}
        for f in self.files:
            c[f.how] = c.get(f.how, 0) + 1
        return c

    def summary(self) -> str:
        c = ", ".join(f"{n} {how}" for how, n in sorted(self.counts().items()))
        added = "; ".join([f"{r} adds {', '.join(p)}" for r, p in sorted(self.added_precisions.items()) if p]
                          + [f"{f.name} new" for f in self.files if self.is_added_design(f)])
        return f"{len(self.files)} file(s) vs {self.base}: {c}" + (f" ({added}: not compared)" if added else "")


def _run(cmd: list[str], cwd: Path) -> None:
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if r.returncode != 0:
        raise CompareError(f"{' '.join(cmd)} (in {cwd}) failed:\n{r.stdout[-2000:]}{r.stderr[-3000:]}")


def extract_revision(rev: str, dest: Path, repo: Path = REPO_ROOT) -> str:
    """The tree of `rev` (without the tuned database dump) under dest; returns the commit id."""
    commit = subprocess.run(["git", "rev-parse", "--verify", f"{rev}^{{commit}}"], cwd=repo,
                            capture_output=True, text=True)
    if commit.returncode != 0:
        raise CompareError(f"not a revision: {rev}: {commit.stderr.strip()}")
    sha = commit.stdout.strip()
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryFile() as tar:
        r = subprocess.run(["git", "archive", "--format=tar", sha, "--", ".",
                            ":(exclude)tuned_db/shoal.sql.gz"], cwd=repo, stdout=tar,
                           stderr=subprocess.PIPE)
        if r.returncode != 0:
            raise CompareError(f"git archive {sha} failed: {r.stderr.decode()[-2000:]}")
        tar.seek(0)
        with tarfile.open(fileobj=tar) as tf:
            tf.extractall(dest, filter="data")
    return sha


def emitted_versions(out: Path) -> dict[str, str]:
    """routine -> template version, from the header comments of emitted <routine>_tables.c."""
    found: dict[str, str] = {}
    for f in sorted(out.glob("*_tables.c")):
        m = _VERSION_RE.search(f.read_text())
        if m:
            found[m.group(1)] = m.group(2)
    return found


def render_tree(tree: Path, db_path: Path, out: Path, routines: list[str], samples: int,
                use_versions: dict[str, str] | None = None, python: str = sys.executable,
                only_precisions: dict[str, list[str]] | None = None) -> None:
    """Emits the shipped kernels of `tree` from db_path into out/shipped and the design samples
    into out/samples (only the given routines' files are kept)."""
    shipped, sampled = out / "shipped", out / "samples"
    sampled.mkdir(parents=True, exist_ok=True)
    cmd = [python, "-m", "generator", "emit", "--db", str(db_path), "--out", str(shipped)]
    for r, v in sorted((use_versions or {}).items()):
        cmd += ["--use-version", f"{r}={v}"]
    for r, ps in sorted((only_precisions or {}).items()):
        cmd += ["--only-precisions", f"{r}={','.join(ps)}"]
    _run(cmd, tree)
    for f in list(shipped.iterdir()):
        if routine_of(f.name, routines) is None:
            f.unlink()
    if samples > 0:
        _run([python, "-c", _SAMPLE_SNIPPET, str(DEVICE_FIXTURE), str(sampled), str(samples),
              *routines], tree)
        for f in list(sampled.iterdir()):
            r = routine_of(f.name, routines)
            if r is not None and r in (only_precisions or {}) and precision_of(f.name, r) not in only_precisions[r]:
                f.unlink()


def precision_of(filename: str, routine: str) -> str | None:
    """The precision letter of an emitted or sampled <routine>_<p>_<...>.cu, None for other files."""
    m = re.fullmatch(re.escape(routine) + r"_([sdcz])_\w+\.cu", filename)
    return m.group(1) if m else None


def routine_of(filename: str, routines: list[str]) -> str | None:
    """The routine an emitted file belongs to: the longest routine name it starts with
    (gemm_vbatched_d_nn.cu belongs to gemm_vbatched, not gemm)."""
    best = None
    for r in routines:
        if (filename.startswith(f"{r}_")) and (best is None or len(r) > len(best)):
            best = r
    if best is None:
        return None
    rest = filename[len(best) + 1:]
    # <routine>_tables.c or <routine>_<p>_<variant>.cu: the rest has no further routine prefix
    return best if rest == "tables.c" or re.fullmatch(r"[sdcz]_\w+\.cu", rest) else None


def _cubin(src: Path, tree: Path, nvcc: str) -> bytes:
    out = src.with_suffix(".cubin")
    _run([nvcc, *NVCC_FLAGS, f"-I{tree / 'include'}", f"-I{tree / 'runtime'}", "-o", str(out),
          str(src)], src.parent)
    return out.read_bytes()


_NO_INSTANCES = re.compile(r"kernels, 0 instance\(s\)")


def _empty_sample(name: str, path: Path) -> bool:
    """A design sample with no configuration (every candidate of that precision pruned: a design
    before it served the precision renders an empty module), which has nothing measured."""
    return name.startswith("samples/") and bool(_NO_INSTANCES.search(path.read_text()[:1000]))


_PRECISIONS_LINE = re.compile(r"^const char shoal_\w+_precisions\[\] = [^;]*;$", re.M)


def _without_precisions(path: Path) -> str:
    """An emitted <routine>_tables.c without its shoal_<r>_precisions definition."""
    return _PRECISIONS_LINE.sub("", path.read_text())


def compare_dirs(before: Path, after: Path, before_tree: Path, after_tree: Path, nvcc: str,
                 jobs: int = 2, cubins: bool = True) -> list[FileResult]:
    """cubins = False: files equal neither in bytes nor in tokens are DIFFERENT without compiling
    (a carry on measured evidence, where the kernels are known to differ)."""
    names = sorted({str(p.relative_to(before)) for p in before.rglob("*") if p.is_file()
                    and p.suffix in (".cu", ".c")}
                   | {str(p.relative_to(after)) for p in after.rglob("*") if p.is_file()
                      and p.suffix in (".cu", ".c")})
    results: dict[str, FileResult] = {}
    to_compile: list[str] = []
    for n in names:
        b, a = before / n, after / n
        if not a.is_file():
            results[n] = FileResult(n, "only before")
        elif not b.is_file():
            results[n] = FileResult(n, "only after")
        elif b.read_bytes() == a.read_bytes():
            results[n] = FileResult(n, "bytes")
        elif _empty_sample(n, b) and not _empty_sample(n, a):
            # a design's new precision counts as a new design: its sample is only after
            results[n] = FileResult(n, "only after")
        elif tokens(b.read_text()) == tokens(a.read_text()):
            results[n] = FileResult(n, "tokens")
        elif n.endswith("_tables.c") and tokens(_without_precisions(b)) == tokens(_without_precisions(a)):
            # the list of the routine's precisions is the search space's, not a measured kernel's:
            # tables that differ only there dispatch the same kernels
            results[n] = FileResult(n, "tokens")
        elif n.endswith(".cu") and cubins:
            to_compile.append(n)
        elif n.endswith(".cu"):
            results[n] = FileResult(n, "DIFFERENT", "not compiled")
        else:
            results[n] = FileResult(n, "DIFFERENT", "tables differ beyond comments")

    def one(n: str) -> FileResult:
        try:
            cb = _cubin(before / n, before_tree, nvcc)
            ca = _cubin(after / n, after_tree, nvcc)
        except CompareError as e:
            return FileResult(n, "DIFFERENT", f"compile failed: {e}")
        return FileResult(n, "cubin" if cb == ca else "DIFFERENT",
                          "" if cb == ca else f"cubins differ ({len(cb)} vs {len(ca)} bytes)")

    if to_compile:
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
            for fr in ex.map(one, to_compile):
                results[fr.name] = fr
    return [results[n] for n in names]


def compare(base: str, db_path: Path, routines: list[str], work: Path | None = None,
            samples: int = 2, nvcc: str | None = None, jobs: int = 2,
            repo: Path = REPO_ROOT, python: str = sys.executable, cubins: bool = True) -> Report:
    """Before = revision `base`, after = the working tree at `repo`."""
    nvcc = nvcc or os.environ.get("NVCC") or str(
        Path(os.environ.get("CUDA_HOME", "/usr/local/cuda")) / "bin" / "nvcc")
    keep = work is not None
    db_path = Path(db_path).resolve()
    work = Path(work) if work else Path(tempfile.mkdtemp(prefix="shoal-compare-"))
    try:
        base_tree = work / "base"
        if base_tree.exists():
            shutil.rmtree(base_tree)
        sha = extract_revision(base, base_tree, repo)
        for side in ("before", "after"):
            if (work / side).exists():
                shutil.rmtree(work / side)
        render_tree(base_tree, db_path, work / "before", routines, samples, python=python)
        old = emitted_versions(work / "before" / "shipped")
        missing = [r for r in routines if r not in old]
        if missing:
            raise CompareError(f"{base}: no emitted tables for {', '.join(missing)}")
        from .project import default_project, template_version
        from .search_space import load_routine
        proj = default_project(repo)
        # the precisions the base emitted (the portable defaults give every listed one files)
        base_precs = {r: sorted({p for f in (work / "before" / "shipped").iterdir()
                                 if routine_of(f.name, routines) == r and (p := precision_of(f.name, r))})
                      for r in routines}
        now_precs = {r: list(load_routine(proj.search_space_dir, r).routine.precisions) for r in routines}
        added = {r: [p for p in now_precs[r] if p not in base_precs[r]] for r in routines}
        only = {r: [p for p in now_precs[r] if p in base_precs[r]] for r in routines if added[r]}
        render_tree(repo, db_path, work / "after", routines, samples,
                    use_versions={r: old[r] for r in routines}, python=python, only_precisions=only)
        rep = Report(base=f"{base} ({sha[:12]})", routines=list(routines),
                     added_precisions={r: p for r, p in added.items() if p})
        for r in routines:
            rep.versions[r] = (old[r], template_version(proj, load_routine(proj.search_space_dir, r)))
        rep.files = compare_dirs(work / "before", work / "after", base_tree, repo, nvcc, jobs, cubins)
        return rep
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)
