"""The kernel library (templates/lib/) and the refactor proof around it: templates use the
precision row instead of branching on the element size, library files are covered by the
template version of exactly the routines that import them, every library macro renders for every
precision row, and the file comparison of generator/compare.py tells equal from different."""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import jinja2
import pytest

from generator import render
from generator.compare import FileResult, Report, compare_dirs, routine_of, tokens
from generator.precision import PRECISIONS
from generator.project import Project, default_project, imported_templates, template_version
from generator.search_space import discover

REAL = default_project()
TEMPLATES = REAL.template_dirs[0]
NVCC = Path(os.environ.get("NVCC") or Path(os.environ.get("CUDA_HOME", "/usr/local/cuda")) / "bin" / "nvcc")


def test_no_template_branches_on_the_element_size():
    offenders = [f"{p.relative_to(TEMPLATES)}:{i + 1}"
                 for p in sorted(TEMPLATES.rglob("*.j2"))
                 for i, line in enumerate(p.read_text().splitlines())
                 if re.search(r"P\.elem\s*[=!<>]=?|elem\s*==", line)]
    assert offenders == []


def test_library_files_are_in_the_version_of_their_importers():
    assert {"lib/regs.cu.j2", "lib/chol.cu.j2", "lib/vec.cu.j2", "lib/team.cu.j2"} <= \
        set(imported_templates(REAL, ["potrf_regs.cu.j2"]))
    assert "lib/pivot.cu.j2" in imported_templates(REAL, ["getrf_regs.cu.j2", "getrf_smem.cu.j2"])


def test_a_library_edit_retires_exactly_its_importers(tmp_path):
    tdir = tmp_path / "templates"
    shutil.copytree(TEMPLATES, tdir)
    edited = Project(search_space_dir=REAL.search_space_dir, template_dirs=(tdir,),
                     include_dir=REAL.include_dir)
    spaces = {s.routine.name: s for s in discover(REAL.search_space_dir)}
    before = {r: template_version(edited, s) for r, s in spaces.items()}
    assert before == {r: template_version(REAL, s) for r, s in spaces.items()}
    lib = tdir / "lib" / "pivot.cu.j2"
    lib.write_text(lib.read_text() + "\n")
    after = {r: template_version(edited, s) for r, s in spaces.items()}
    changed = {r for r in spaces if before[r] != after[r]}
    assert changed == {"getrf", "gesv", "getri_fused"}


@pytest.mark.parametrize("prec", sorted(PRECISIONS))
def test_library_macros_render_for_every_row(prec):
    env = render.environment(REAL)
    P = PRECISIONS[prec]
    calls = {
        "lib/vec.cu.j2": ["vec_type(P, 'V16')", "split_join(P)", "lane_of(P)", "row_io(P)", "pitch(P)"],
        "lib/scalar.cu.j2": ["sfmin(P)", "rcp(P)", "nan_value(P)", "ssq_range(P)"],
        "lib/pivot.cu.j2": ["keys(P)", "pivot_key()", "team_argmax(P)"],
        "lib/team.cu.j2": ["opaque()", "team_of()", "team_mask()"],
        "lib/regs.cu.j2": ["helpers(P, true)"],
        "lib/chol.cu.j2": ["factor(P)", "solve(P)"],
    }
    for name, macros in calls.items():
        for m in macros:
            src = f'{{% import "{name}" as lib %}}{{{{ lib.{m} }}}}'
            text = env.from_string(src).render(P=P)
            assert text.strip(), f"{name} {m}"
    keys = env.from_string('{% import "lib/pivot.cu.j2" as l %}{{ l.keys(P) }}').render(P=P)
    assert f"typedef {P.key_t} K;" in keys
    io = env.from_string('{% import "lib/vec.cu.j2" as l %}{{ l.row_io(P) }}').render(P=P)
    assert f"constexpr int V = {P.V};" in io and P.vec_t in io
    # Hermitian Cholesky: the pivot, its square root and 1 / F(i, i) are real (the real part of
    # the diagonal entry; its imaginary part is not read), the update conjugates F(j, k)
    chol = env.from_string('{% import "lib/chol.cu.j2" as l %}{{ l.factor(P) }}{{ l.solve(P) }}').render(P=P)
    real = "T" if not P.is_complex else P.R
    assert f"int factor(T (&a)[N], {real} &inv" in chol and f"void solve(const T (&a)[N], {real} inv" in chol
    assert f"const {real} piv = bk[k]{'.x' if P.is_complex else ''};" in chol
    assert (f"{P.conj}(xs[w])" in chol) == P.is_complex


def test_pitch_rule():
    """pitch(n): the smallest p >= n with p = V mod 2V, for the V of every row."""
    env = render.environment(REAL)
    for P in PRECISIONS.values():
        text = env.from_string('{% import "lib/vec.cu.j2" as l %}{{ l.pitch(P) }}').render(P=P)
        expr = re.search(r"return (.*);", text).group(1)
        cond, rest = expr.split("?")
        yes, no = rest.split(":")
        for n in range(1, 70):
            p = eval(yes.replace("n", str(n))) if eval(cond.replace("n", str(n))) \
                else eval(no.replace("n", str(n)))
            assert p >= n and p % (2 * P.V) == P.V % (2 * P.V) and p - n < 2 * P.V, (P.name, n, p)


def test_tokens_ignore_comments_and_layout_only():
    a = "int  x = 1; /* one */\n#pragma unroll\nfor (;;) {}\n"
    assert tokens(a) == tokens("int x=1;\n// other words\n#pragma unroll\nfor(;;){}")
    assert tokens(a) != tokens("int x = 2;\n#pragma unroll\nfor (;;) {}\n")
    assert tokens(a) != tokens("int x = 1;\n#pragma unroll for (;;) {}\n")   # directive line ends
    assert tokens('s = "a /* b */";') != tokens('s = "a";')


def test_routine_of():
    rs = ["gemm", "gemm_vbatched", "getri", "getri_fused"]
    assert routine_of("gemm_vbatched_d_nn.cu", rs) == "gemm_vbatched"
    assert routine_of("gemm_d_nn.cu", rs) == "gemm"
    assert routine_of("getri_fused_tables.c", rs) == "getri_fused"
    assert routine_of("getri_fused_d_n.cu", ["getri"]) is None
    assert routine_of("sources.mk", rs) is None


def _write(d: Path, name: str, text: str) -> None:
    (d / name).parent.mkdir(parents=True, exist_ok=True)
    (d / name).write_text(text)


def test_compare_dirs(tmp_path):
    before, after = tmp_path / "b", tmp_path / "a"
    _write(before, "x_tables.c", "int t[] = {1};\n")
    _write(after, "x_tables.c", "/* other version */ int t[] = {1};\n")
    _write(before, "same.cu", "int v;\n")
    _write(after, "same.cu", "int v;\n")
    _write(before, "gone.cu", "int g;\n")
    _write(after, "new.cu", "int n;\n")
    _write(before, "y_tables.c", "int t[] = {1};\n")
    _write(after, "y_tables.c", "int t[] = {2};\n")
    res = {f.name: f.how for f in compare_dirs(before, after, REAL.include_dir.parent,
                                                REAL.include_dir.parent, str(NVCC))}
    assert res == {"x_tables.c": "tokens", "same.cu": "bytes", "gone.cu": "only before",
                   "new.cu": "only after", "y_tables.c": "DIFFERENT"}


def test_report_carries_past_an_added_design_only():
    same, new_sample = FileResult("shipped/x.cu", "bytes"), FileResult("samples/syrk_d_new.cu", "only after")
    assert Report("b", ["syrk"], files=[same, new_sample]).ok
    assert "samples/syrk_d_new.cu new" in Report("b", ["syrk"], files=[same, new_sample]).summary()
    # a shipped kernel only after, or a sample only before, is a change: no carry
    assert not Report("b", ["syrk"], files=[same, FileResult("shipped/y.cu", "only after")]).ok
    assert not Report("b", ["syrk"], files=[same, FileResult("samples/syrk_d_old.cu", "only before")]).ok
    assert not Report("b", ["syrk"], files=[new_sample]).ok


KERNEL = """extern "C" __global__ void k(float *x)
{{
    constexpr int P = {pitch};
    x[threadIdx.x * P] = {value};
}}
"""


def test_compare_dirs_compiles_what_tokens_cannot_decide(tmp_path):
    if not NVCC.is_file():
        pytest.skip(f"SKIP: nvcc not found ({NVCC})")
    before, after = tmp_path / "b", tmp_path / "a"
    _write(before, "same.cu", KERNEL.format(pitch="6", value="1.0f"))
    _write(after, "same.cu", KERNEL.format(pitch="4 + 2", value="1.0f"))
    _write(before, "diff.cu", KERNEL.format(pitch="6", value="1.0f"))
    _write(after, "diff.cu", KERNEL.format(pitch="6", value="2.0f"))
    res = {f.name: f.how for f in compare_dirs(before, after, REAL.include_dir.parent,
                                                REAL.include_dir.parent, str(NVCC))}
    assert res == {"same.cu": "cubin", "diff.cu": "DIFFERENT"}


def test_strict_names_in_library():
    """A misspelt field of the row fails at rendering (StrictUndefined), in the library too."""
    env = render.environment(REAL)
    with pytest.raises(jinja2.UndefinedError):
        env.from_string('{% import "lib/vec.cu.j2" as l %}{{ l.row_io(P) }}').render(P={"V": 2})


@pytest.mark.parametrize("prec", sorted(PRECISIONS))
def test_arith_renders_operators_for_real_rows_and_row_operations_for_complex(prec):
    """lib/arith.cu.j2: real rows keep the C operators the real designs were written with (their
    renderings, and the tuning measured on them, unchanged); complex rows use the row's names."""
    env = render.environment(REAL)
    P = PRECISIONS[prec]

    def r(call: str) -> str:
        return env.from_string(f'{{% import "lib/arith.cu.j2" as a %}}{{{{ a.{call} }}}}').render(P=P)

    if not P.is_complex:
        assert r("mul(P, 'x', 'y')") == "x * y"
        assert r("sub_mul(P, 'y', 'a', 'b')") == "y -= a * b"
        assert r("scale(P, 'x', 'd')") == "x *= d"
        assert r("inv(P, 'x')") == "T(1) / x"
        assert r("zero(P)") == "T(0)" and r("one(P)") == "T(1)"
        assert r("scalar(P, 'p.alpha', 'p.alpha_im')") == "(T)p.alpha"
        assert r("is_zero(P, 'a')") == "a == T(0)"
        assert r("conj_if(P, 'cj', 'x')") == "x"
        assert r("cx(P, ', bool cj')") == ""
        assert r("vec16_complex(P, 'vec16')").strip() == ""
    else:
        assert r("mul(P, 'x', 'y')") == f"{P.mul}(x, y)"
        assert r("sub_mul(P, 'y', 'a', 'b')") == f"y = {P.fma}({P.neg}(a), b, y)"
        assert r("inv(P, 'x')") == f"{P.inv}(x)"
        assert r("scalar(P, 're', 'im')") == f"{P.make}(({P.R})re, ({P.R})im)"
        assert r("conj_if(P, 'cj', 'x')") == f"(cj ? {P.conj}(x) : x)"
        assert r("cx(P, ', bool cj')") == ", bool cj"
        spec = r("vec16_complex(P, 'vec16')")
        assert f"struct vec16<{P.T}>" in spec and spec.count(P.make) == P.V


def test_complex_operations_exist_in_kernel_util():
    """Every operation a complex row names is defined in runtime/kernel_util.cuh."""
    util = (REAL.include_dir / "kernel_util.cuh").read_text()
    for P in PRECISIONS.values():
        if not P.is_complex:
            continue
        for op in (P.mul, P.fma, P.conj, P.neg, P.inv, P.make, P.abs1):
            suffix = "f" if P.R == "float" else ""
            assert op.startswith("shoal_") and op.endswith(suffix)
            stem = op[:-1] if suffix else op
            assert f"{stem}##S" in util, op
        assert f"typedef {'float2' if P.R == 'float' else 'double2'} {P.T};" in util


@pytest.mark.parametrize("prec", sorted(PRECISIONS))
def test_lu_spellings_render_the_real_text_and_complex_operations(prec):
    """lib/arith.cu.j2's LU block and lib/scalar's *_any declarations: real rows render what the
    LU designs were written with (so their tuning carries); complex rows the row's functions,
    kernel_util's Smith division below sfmin, and lib/pivot keys of abs1 (izamax's measure)."""
    env = render.environment(REAL)
    P = PRECISIONS[prec]

    def r(call: str, lib: str = "lib/arith.cu.j2") -> str:
        return env.from_string(f'{{% import "{lib}" as a %}}{{{{ a.{call} }}}}').render(P=P)

    keys = r("keys(P)", "lib/pivot.cu.j2")
    if not P.is_complex:
        assert r("mag_t(P)") == "T"
        assert r("abs1(P, 'x')") == "fabs(x)"
        assert r("div(P, 'a', 'b')") == "a / b" and r("div_by(P, 'x', 'd')") == "x /= d"
        assert r("rcp_nr(P, 'x')") == "shoal_util::rcp_nr(x)"
        assert r("nr_ok(P, 'x')") == "shoal_util::nr_ok(x)"
        assert r("shfl_mask(P, 'M', 'v', 'j', 'W')") == "__shfl_sync(M, v, j, W)"
        for decl, lib_macro in (("sfmin_any", "sfmin"), ("rcp_any", "rcp"), ("nan_any", "nan_value")):
            assert r(f"{decl}(P)", "lib/scalar.cu.j2") == r(f"{lib_macro}(P)", "lib/scalar.cu.j2")
        assert f"{P.as_key}(v) &" in keys
    else:
        cdiv = P.fma.replace("cfma", "cdiv")
        assert r("mag_t(P)") == P.R
        assert r("abs1(P, 'x')") == f"{P.abs1}(x)"
        assert r("div(P, 'a', 'b')") == f"{cdiv}(a, b)"
        assert r("div_by(P, 'x', 'd')") == f"x = {cdiv}(x, d)"
        assert r("rcp_nr(P, 'x')") == f"{P.inv}(x)"
        assert r("nr_ok(P, 'x')") == f"({P.abs1}(x) >= {P.R}({P.sfmin}))"
        assert r("shfl_mask(P, 'M', 'v', 'j', 'W')") == "shoal_shfl_sync(M, v, j, W)"
        assert f"constexpr {P.R} SFMIN" in r("sfmin_any(P)", "lib/scalar.cu.j2")
        assert f"return {P.inv}(x);" in r("rcp_any(P)", "lib/scalar.cu.j2")
        assert r("nan_any(P)", "lib/scalar.cu.j2").count(P.nan) == 2
        assert f"{P.as_key}({P.abs1}(v)) &" in keys
        util = (REAL.include_dir / "kernel_util.cuh").read_text()
        assert "shoal_cdiv##S" in util


def test_lu_family_counts_real_flops_in_every_precision():
    """The LU search spaces list c and z, and count 4x the flops there (cx), the bytes by elem."""
    spaces = {s.routine.name: s for s in discover(REAL.search_space_dir)}
    for name in ("getrf", "getrs", "gesv", "getri", "getri_fused"):
        space = spaces[name]
        assert set("sdcz") <= set(space.routine.precisions), name
        shape = next(iter(space.shapes()))
        flops = {p: space.flops(shape, p) for p in "sdcz"}
        assert flops["s"] == flops["d"] > 0 and flops["c"] == flops["z"] == 4 * flops["d"], name
        assert space.bytes(shape, "z") > space.bytes(shape, "c") > space.bytes(shape, "s"), name
