"""The generator pieces the level-2 and variable-size routines added: triangular variant flags,
imported templates in the template version, search spaces without a vendor, and the real
gemv / trsv / vbatched search spaces rendering for both precisions, and where trsv tries its
warp-per-problem path (TW = 64)."""
import json
from pathlib import Path

from generator import render
from generator.project import Project, default_project, imported_templates, template_version
from generator.search_space import candidates, load_routine, variant_flags
from generator.tasks import NO_VENDOR, VENDOR_DESIGN, build_plan


def test_triangular_variant_flags():
    # ta = upper, tb = op T; the GEMM and one-letter forms keep their meaning
    assert [variant_flags(v) for v in ("ln", "lt", "un", "ut")] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert variant_flags("tn") == (1, 0)
    assert variant_flags("u") == (1, 0)
    assert variant_flags("n") == (0, 0)


def _project_with(tmp_path: Path, files: dict[str, str]) -> Project:
    real = default_project()
    tdir = tmp_path / "templates"
    tdir.mkdir()
    for name, text in files.items():
        (tdir / name).write_text(text)
    return Project(search_space_dir=real.search_space_dir, template_dirs=(tdir,) + real.template_dirs,
                   include_dir=real.include_dir)


def test_imports_are_followed_transitively(tmp_path):
    project = _project_with(tmp_path, {
        "a.cu.j2": '{% import "b.cu.j2" as b %}{% from "c.cu.j2" import x %}',
        "b.cu.j2": "{%- include 'c.cu.j2' %}",
        "c.cu.j2": "plain",
    })
    assert imported_templates(project, ["a.cu.j2"]) == ["b.cu.j2", "c.cu.j2"]
    assert imported_templates(project, ["c.cu.j2"]) == []


def test_editing_an_imported_template_changes_the_importers_version():
    project = default_project()
    trsv = load_routine(project.search_space_dir, "trsv")
    gemm = load_routine(project.search_space_dir, "gemm")
    assert "gemv_stream.cu.j2" in imported_templates(project, trsv.templates())
    # GEMM's dmma design runs the variable-size routine's vmma loop (and its DMMA helpers); the
    # others share the kernel library's vector types, scalar arithmetic and GEMM scalars
    assert imported_templates(project, gemm.templates()) == ["gemm_vmma.cu.j2", "lib/vec.cu.j2",
                                                              "lib/arith.cu.j2", "lib/gemm.cu.j2",
                                                              "lib/mma.cu.j2"]
    assert len(template_version(project, trsv)) == 16


def test_imported_template_edit_is_seen(tmp_path):
    real = default_project()
    trsv = load_routine(real.search_space_dir, "trsv")
    before = template_version(real, trsv)
    stream = (real.template_dirs[0] / "gemv_stream.cu.j2").read_text()
    edited = _project_with(tmp_path, {"gemv_stream.cu.j2": stream + "\n{# edited #}\n"})
    assert template_version(edited, trsv) != before


def test_no_vendor_tasks_without_a_vendor(device):
    space = load_routine(default_project().search_space_dir, "gemm_vbatched")
    assert space.routine.vendor == NO_VENDOR
    plan = build_plan(space, ["d"], device, shape_limit=1)
    assert plan.tasks and all(t.design != VENDOR_DESIGN for t in plan.tasks)
    gemv = load_routine(default_project().search_space_dir, "gemv")
    plan = build_plan(gemv, ["d"], device, shape_limit=1)
    assert sum(t.design == VENDOR_DESIGN for t in plan.tasks) == 2  # one per variant of the shape


def test_level2_search_spaces_render_every_design():
    project = default_project()
    env = render.environment(project)
    for routine in ("gemv", "trsv", "gemv_vbatched", "gemm_vbatched"):
        space = load_routine(project.search_space_dir, routine)
        version = template_version(project, space)
        for prec in ("s", "d"):
            seen = set()
            for cand in candidates(space, prec):
                if cand.design.name in seen:
                    continue
                seen.add(cand.design.name)
                src = render.render_candidate(env, cand, version)
                for variant in space.routine.variants:
                    assert f'extern "C" __global__' in src and cand.kernel_name(variant) in src
            assert seen == {d.name for d in space.designs}


def test_trsv_warp_path_only_where_it_serves(device):
    """TW = 64 (a warp per problem, the folded 64-row triangle) is tried only for 32 < n <= 64,
    once per DIM_X and MINT (NB = 32, XCAP = 0: the path ignores both), within its shared-memory
    restriction; the other sizes keep their own paths."""
    space = load_routine(default_project().search_space_dir, "trsv")
    plan = build_plan(space, ["s", "d"], device)
    wide = [t for t in plan.tasks if t.design == "blocked" and json.loads(t.config)["TW"] == 64]
    assert {t.shape.n for t in wide} == {48, 64}
    for t in wide:
        cfg = json.loads(t.config)
        assert cfg["NB"] == 32 and cfg["XCAP"] == 0
        assert cfg["DIM_X"] * 65 * (4 if t.prec == "s" else 8) <= 100000
        assert t.slots["p2"] == 64  # the launch reads TW from p2 to size grid and tile
    beyond = [t for t in plan.tasks if t.design == "blocked" and t.shape.n > 64]
    assert beyond and all(json.loads(t.config)["TW"] == 0 for t in beyond)


def test_syrk_kernels_and_driver_both_tuned_above_64(device):
    """SYRK's spec lets the triangle-tile kernels and the recursive driver both serve n > 64: the
    plan times both there, and only kernels at n <= 64."""
    space = load_routine(default_project().search_space_dir, "syrk")
    plan = build_plan(space, ["d"], device)
    by_n: dict[int, set[str]] = {}
    for t in plan.tasks:
        by_n.setdefault(t.shape.dims[1], set()).add(t.design)
    assert {"driver", "tri"} <= by_n[128] and {"driver", "tri"} <= by_n[1024]
    assert "driver" not in by_n[64] and "driver" not in by_n[2]
