from pathlib import Path

import pytest

from generator.expr import ExprError
from generator.search_space import SearchSpaceError, Shape, candidates, load


def test_designs_and_config_products(space):
    small, tiled = space.design("staged"), space.design("tiled")
    assert [p.name for p in small.params] == ["DIM_X", "MPB", "TN"]
    assert len(list(small.configs())) == 3 * 9 * 3
    assert len(list(tiled.configs())) == 3 * 2 * 3 * 3 * 2
    first = next(tiled.configs())
    assert first == {"DIM_X": 8, "DIM_Y": 8, "BLK_M": 32, "BLK_N": 32, "BLK_K": 8}
    assert len(list(candidates(space, "d"))) == 81 + 108


def test_kernel_and_module_names(space):
    small, tiled = space.design("staged"), space.design("tiled")
    assert space.kernel_name("d", small, "nt", {"DIM_X": 128, "MPB": 8, "TN": 2}) \
        == "shoal_dgemm_staged_nt_x128_mpb8_tn2"
    cfg = {"DIM_X": 16, "DIM_Y": 16, "BLK_M": 64, "BLK_N": 64, "BLK_K": 8}
    assert space.kernel_name("s", tiled, "nn", cfg) == "shoal_sgemm_tiled_nn_x16_y16_m64_n64_k8"
    assert space.module_name("s", tiled, cfg) == "shoal_sgemm_tiled_x16_y16_m64_n64_k8"
    assert tiled.slots(cfg) == {"dim_x": 16, "dim_y": 16, "p0": 64, "p1": 64, "p2": 8, "p3": 0, "p4": 0}
    assert small.slots({"DIM_X": 64, "MPB": 2, "TN": 4}) == \
        {"dim_x": 64, "dim_y": 1, "p0": 2, "p1": 4, "p2": 0, "p3": 0, "p4": 0}


def test_shapes_are_deduplicated_and_ordered(space):
    shapes = space.shapes()
    assert len(shapes) == len(set(shapes))
    assert shapes == space.shapes()                     # deterministic
    # strided small: (19 squares + 8 mnk) x 4 variants; array: (10 + 2) x 4; medium: (7 + 4) x 4
    assert len(shapes) == 27 * 4 + 12 * 4 + 11 * 4
    assert shapes[:3] == [Shape("strided", "nn", 1, 1, 1), Shape("strided", "nt", 1, 1, 1),
                          Shape("strided", "tn", 1, 1, 1)]
    assert Shape("strided", "tt", 3, 5, 7) in shapes
    assert Shape("array", "tt", 2, 8, 4) in shapes
    assert Shape("array", "tt", 3, 5, 7) not in shapes
    assert Shape("array", "nn", 64, 64, 64) not in shapes


def test_duplicate_shapes_across_sets_are_dropped(tmp_path, space):
    text = space.path.read_text() + """
[[shapes.set]]
modes = ["strided"]
variants = ["nn"]
square = [4, 1000]
"""
    p = tmp_path / "gemm.toml"
    p.write_text(text)
    shapes = load(p).shapes()
    assert len(shapes) == len(space.shapes()) + 1
    assert shapes[-1] == Shape("strided", "nn", 1000, 1000, 1000)


def test_batch_expression(space, device):
    tiny = space.batch_for(Shape("strided", "nn", 1, 1, 1), "d", device)
    big = space.batch_for(Shape("strided", "nn", 512, 512, 512), "d", device)
    mid = space.batch_for(Shape("strided", "nn", 16, 16, 16), "s", device)
    assert tiny == 4000000 and big == 128
    assert mid == max(2**25 // 256, 4 * device["l2_bytes"] // (3 * 256 * 4) + 1)
    assert all(isinstance(b, int) for b in (tiny, big, mid))


def test_flops_and_bytes(space):
    s = Shape("strided", "nn", 2, 8, 4)
    assert space.flops(s, "d") == 2 * 2 * 8 * 4
    assert space.bytes(s, "s") == (2 * 4 + 4 * 8 + 2 * 8) * 4


def _broken(tmp_path: Path, space, old: str, new: str) -> Path:
    text = space.path.read_text()
    assert old in text
    p = tmp_path / "gemm.toml"
    p.write_text(text.replace(old, new, 1))
    return p


@pytest.mark.parametrize("old,new,err,match", [
    ('"BLK_M % DIM_X == 0"', '"__import__(\'os\')"', ExprError, "call to '__import__'"),
    ('"BLK_M % DIM_X == 0"', '"BLK_M % m == 0"', ExprError, "unknown name 'm'"),
    ('slot = "p2"', 'slot = "p7"', SearchSpaceError, "slot 'p7'"),
    ('values = [8, 16] }', 'values = [] }', SearchSpaceError, "non-empty list"),
    ('modes = ["strided"]', 'modes = ["packed"]', SearchSpaceError, "modes must be"),
    ('design = "tiled"', 'design = "huge"', SearchSpaceError, "unknown design 'huge'"),
    ('tag = "y"', 'tag = "x"', SearchSpaceError, "tags are not unique"),
])
def test_malformed_search_space_is_rejected_at_load(tmp_path, space, old, new, err, match):
    with pytest.raises(err, match=match):
        load(_broken(tmp_path, space, old, new))


def test_compile_only_parameter_names_the_kernel_not_the_descriptor(tmp_path, space):
    # slot "none": a parameter of the code alone (two of them may coexist; they stay out of the slots)
    p = _broken(tmp_path, space, '{ name = "TN",    tag = "tn",  slot = "p1",    values = [1, 2, 4] },',
                '{ name = "TN",    tag = "tn",  slot = "p1",    values = [1, 2, 4] },\n'
                '  { name = "U1", tag = "u", slot = "none", values = [0, 2] },\n'
                '  { name = "U2", tag = "w", slot = "none", values = [1] },')
    small = load(p).design("staged")
    cfg = {"DIM_X": 64, "MPB": 2, "TN": 4, "U1": 2, "U2": 1}
    assert load(p).kernel_name("d", small, "nn", cfg) == "shoal_dgemm_staged_nn_x64_mpb2_tn4_u2_w1"
    assert small.slots(cfg) == {"dim_x": 64, "dim_y": 1, "p0": 2, "p1": 4, "p2": 0, "p3": 0, "p4": 0}
    assert len(list(small.configs())) == 3 * 9 * 3 * 2


def test_spec_routine_bytes_and_batch_follow_the_precision(device):
    # a spec routine's counts come from its spec (spec/routines/trsm.toml): the element size must
    # be the task's precision, so that single precision gets half the bytes and twice the batch
    from generator.search_space import load_routine
    trsm = load_routine(Path(__file__).resolve().parents[2] / "search_space", "trsm")
    s = Shape("strided", "l", 64, 64, 1)
    assert trsm.bytes(s, "d") == (64 * 65 // 2 + 2 * 64 * 64) * 8
    assert trsm.bytes(s, "s") * 2 == trsm.bytes(s, "d")
    assert trsm.batch_for(s, "s", device) > trsm.batch_for(s, "d", device)


def test_default_parameters_per_precision(tmp_path):
    # [routine.default] by_precision: TRSM's z default takes one team per block (48 KB of static
    # shared memory), the other precisions the shared default; an override names known parameters
    # of a listed precision only
    from generator.search_space import SearchSpaceError, load_routine
    root = Path(__file__).resolve().parents[2]
    trsm = load_routine(root / "search_space", "trsm")
    by = {(p, v): c for p, v, _, c in trsm.default_kernels()}
    assert by[("z", "l")]["NB"] == 1 and by[("z", "r")]["NB"] == 1
    assert by[("s", "l")]["NB"] == by[("d", "r")]["NB"] == by[("c", "l")]["NB"] == 2
    assert all(c["N"] == 32 for c in by.values())
    (tmp_path / "search_space").mkdir()
    (tmp_path / "spec").symlink_to(root / "spec")
    text = (root / "search_space" / "trsm.toml").read_text()
    for bad, match in (("z = { NB = 1, Q = 2 }", "unknown parameters"), ("q = { NB = 1 }", "listed precision")):
        p = tmp_path / "search_space" / "trsm.toml"
        p.write_text(text.replace("z = { NB = 1 }", bad))
        with pytest.raises(SearchSpaceError, match=match):
            load_routine(tmp_path / "search_space", "trsm")


def test_implied_parameter_keeps_former_names_and_configs(tmp_path, space):
    # `implied = v`: a parameter added after kernels were measured; at v it stays out of the
    # kernel's name and its database config, and a config read without it (a row measured before
    # it existed, the routine default) takes v, so the old measurements keep their kernels
    from generator.search_space import Candidate
    p = _broken(tmp_path, space, '{ name = "TN",    tag = "tn",  slot = "p1",    values = [1, 2, 4] },',
                '{ name = "TN",    tag = "tn",  slot = "p1",    values = [1, 2, 4] },\n'
                '  { name = "CP", tag = "cp", slot = "none", values = [1, 0], implied = 1 },')
    sp = load(p)
    small = sp.design("staged")
    old = {"DIM_X": 64, "MPB": 2, "TN": 4}
    assert sp.kernel_name("d", small, "nn", {**old, "CP": 1}) == "shoal_dgemm_staged_nn_x64_mpb2_tn4"
    assert sp.kernel_name("d", small, "nn", {**old, "CP": 0}) == "shoal_dgemm_staged_nn_x64_mpb2_tn4_cp0"
    assert sp.kernel_name("d", small, "nn", old) == "shoal_dgemm_staged_nn_x64_mpb2_tn4"
    assert small.complete(old) == {**old, "CP": 1}
    assert Candidate(sp, "d", small, {**old, "CP": 1}).config_json() == '{"DIM_X":64,"MPB":2,"TN":4}'
    assert Candidate(sp, "d", small, {**old, "CP": 0}).config_json() == '{"CP":0,"DIM_X":64,"MPB":2,"TN":4}'
    assert small.slots({**old, "CP": 0}) == small.slots(old)
    assert len(list(small.configs())) == 3 * 9 * 3 * 2
    bad = _broken(tmp_path, space, '{ name = "TN",    tag = "tn",  slot = "p1",    values = [1, 2, 4] },',
                  '{ name = "TN",    tag = "tn",  slot = "p1",    values = [1, 2, 4] },\n'
                  '  { name = "CP", tag = "cp", slot = "none", values = [1, 0], implied = 2 },')
    with pytest.raises(SearchSpaceError, match="implied value 2"):
        load(bad)


def test_syrk_tiles_c_path_and_ringless_steps():
    # SYRK tiles: CP = 1 (team slots) and ST >= 1 render as before CP existed (same names, the
    # prelude's syrk); CP = 0 renders syrk_own under an include guard, ST = 0 only with CP = 0
    from generator import render
    from generator.project import default_project
    from generator.search_space import Candidate, load_routine
    proj = default_project()
    sp = load_routine(proj.search_space_dir, "syrk")
    tiles = sp.design("tiles")
    assert sp.routine.default.params["CP"] == 1
    base = {"N": 8, "R": 2, "TPP": 32, "NB": 4, "KB": 8, "VEC": 0}
    env = render.environment(proj)
    team = Candidate(sp, "s", tiles, {**base, "ST": 1, "CP": 1})
    assert team.kernel_name("n") == "shoal_ssyrk_tiles_n_n8_r2_tpp32_nb4_kb8_st1"
    text = render.render_candidate(env, team, "v")
    assert "syrk_own" not in text and "SHOAL_SYRK_TILES_OWN_s" not in text
    insts = [(tiles, i) for cfg in ({**base, "ST": 0, "CP": 0}, {**base, "ST": 1, "CP": 0}, {**base, "ST": 1, "CP": 1})
             for i in render.candidate_instances(Candidate(sp, "s", tiles, cfg))]
    own = render.render_shipped(env, "syrk", "s", insts, "v")
    assert own.count("#define SHOAL_SYRK_TILES_OWN_s") == 4   # one per kernel, the guard keeps one
    assert "syrk_own<8, 2, 32, 4, 8, 0, 1>(p)" in own and "syrk<8, 2, 32, 4, 8, 1, 0>(p)" in own
    # an arch floor guards the kernel alone, not the shared code rendered before it
    name = Candidate(sp, "s", tiles, {**base, "ST": 0, "CP": 0}).kernel_name("t")
    guarded = render.render_shipped(env, "syrk", "s", insts, "v", arch_floor={name: 900})
    assert guarded.count("__trap()") == 1 and guarded.count("#define SHOAL_SYRK_TILES_OWN_s") == 4


def test_syrk_tri_rings_past_48k_are_dynamic(device):
    # launch.smem is the kernel's RING_BYTES (templates/gemm_vmma.cu.j2: STAGES steps of BLK_K
    # rows of both operand tiles, rows padded by 4 doubles or 8 floats) where that passes the 48
    # KiB of static shared memory, else 0; the shallow rings of 32- and 64-tiles the tables chose
    # from stay static
    from generator.project import default_project
    from generator.prune import static_prune
    from generator.search_space import load_routine
    sp = load_routine(default_project().search_space_dir, "syrk")
    smem = dict(sp.design("tri").launch)["smem"]
    seen = set()
    for prec, elem, pad in (("s", 4, 8), ("d", 8, 4)):
        for cand in candidates(sp, prec):
            if cand.design.name != "tri" or static_prune(cand, device) is not None:
                continue
            c = cand.cfg
            ring = c["STAGES"] * c["BLK_K"] * 2 * (c["BLK"] + pad) * elem
            assert ring <= device["smem_per_block_optin"]
            got = smem({**c, "elem": elem, "n": 256, "k": 256, "uplo": 0, "trans": 0})
            # the static kernels' names and descriptors are those measured before RING existed
            assert (c["RING"] == 0) == (got == 0) and ("_rg" in cand.kernel_name("n")) == (got > 0)
            assert got == (ring if ring > 48 * 1024 else 0), (prec, c)
            if (c["BLK_K"], c["STAGES"]) in ((8, 3), (16, 2)) and c["BLK"] <= 64:
                assert got == 0, (prec, c)   # the kernels of the tables so far
            seen.add(got > 0)
    assert seen == {True, False}


def test_launch_rules_are_checked():
    # only grid_y and smem, naming only what the launch code has (slots, elem, the call)
    import tomllib
    from generator.project import default_project
    from generator.search_space import _load_design
    table = tomllib.loads((default_project().search_space_dir / "syrk.toml").read_text())
    tri = next(d for d in table["design"] if d["name"] == "tri")
    spec_names = frozenset({"uplo", "trans"})
    _load_design(tri, "tri", spec_names)
    for launch, match in (({"grid_z": "1"}, "grid_z"), ({"smem": "smem_per_block"}, "smem_per_block"),
                          ({"smem": "STAGES * elem"}, "STAGES"), ({"smem": "RING * BLK_K * elem"}, None)):
        bad = {**tri, "launch": {**tri["launch"], **launch}}
        if match is None:
            _load_design(bad, "tri", spec_names)
            continue
        with pytest.raises(SearchSpaceError, match=match):
            _load_design(bad, "tri", spec_names)


def test_syrk_mma_and_tiles_c_path_and_vector_copies():
    # CP = 1, VEC = 0 render as before the parameters existed (same names, same call); the new
    # paths name themselves and pass both to the design's syrk
    from generator import render
    from generator.project import default_project
    from generator.search_space import Candidate, load_routine
    proj = default_project()
    sp = load_routine(proj.search_space_dir, "syrk")
    mma = sp.design("mma")
    env = render.environment(proj)
    base = {"N": 32, "TPP": 64, "NB": 1, "KB": 16, "ST": 2}
    old = Candidate(sp, "d", mma, {**base, "CP": 1, "VEC": 0})
    assert old.kernel_name("n") == "shoal_dsyrk_mma_n_n32_tpp64_nb1_kb16_st2"
    assert "syrk<32, 64, 1, 16, 2, 0>(p)" in render.render_candidate(env, old, "v")
    new = Candidate(sp, "d", mma, {**base, "CP": 0, "VEC": 1})
    assert new.kernel_name("n") == "shoal_dsyrk_mma_n_n32_tpp64_nb1_kb16_st2_cp0_v1"
    assert "syrk<32, 64, 1, 16, 2, 0, 0, 1>(p)" in render.render_candidate(env, new, "v")
    # tiles: VEC on the per-thread C path, named and passed the same way
    tiles = sp.design("tiles")
    cfg = {"N": 32, "R": 2, "TPP": 32, "NB": 1, "KB": 16, "ST": 2, "CP": 0}
    plain = Candidate(sp, "s", tiles, {**cfg, "VEC": 0})
    assert plain.kernel_name("n") == "shoal_ssyrk_tiles_n_n32_r2_tpp32_nb1_kb16_st2_cp0"
    assert "syrk_own<32, 2, 32, 1, 16, 2, 0>(p)" in render.render_candidate(env, plain, "v")
    vec = Candidate(sp, "s", tiles, {**cfg, "VEC": 1})
    assert vec.kernel_name("n") == "shoal_ssyrk_tiles_n_n32_r2_tpp32_nb1_kb16_st2_cp0_v1"
    assert "syrk_own<32, 2, 32, 1, 16, 2, 0, 1>(p)" in render.render_candidate(env, vec, "v")


def test_fallback_kernels_are_shipped_beside_the_default(tmp_path):
    # [[routine.fallback]]: getrf ships tall-panel kernels in every build (the blocked driver's
    # panels on an untuned device), one per panel width, rows by precision; checked like the
    # default (known design, exactly its parameters)
    from generator.search_space import SearchSpaceError, load_routine
    root = Path(__file__).resolve().parents[2]
    getrf = load_routine(root / "search_space", "getrf")
    by = {(p, c["NC"]): c["M"] for p, _, d, c in getrf.fallback_kernels() if d.name == "tall"}
    assert by[("s", 32)] == 1024 and by[("d", 32)] == 512 and by[("z", 32)] == 256
    assert by[("z", 16)] == 512 and all(by[(p, 8)] == 1024 for p in "sdcz")
    # the 64-column panel in s (512 rows), d and c (256), not z (`precisions`)
    assert by[("s", 64)] == 512 and by[("d", 64)] == 256 and by[("c", 64)] == 256 and ("z", 64) not in by
    assert len(getrf.fallback_kernels()) == 3 * 4 + 3  # widths x precisions (one variant)
    # every fallback passes its design's restrictions (it is shipped untuned: nothing prunes it)
    import json
    from generator.prune import static_prune
    from generator.search_space import Candidate
    device = json.loads((Path(__file__).parent / "fixtures" / "h100.json").read_text())
    for p, _, d, c in getrf.fallback_kernels():
        assert static_prune(Candidate(getrf, p, d, c), device) is None, (p, c)
    (tmp_path / "search_space").mkdir()
    (tmp_path / "spec").symlink_to(root / "spec")
    text = (root / "search_space" / "getrf.toml").read_text()
    for old, new, match in (("params = { M = 1024, NC = 8, T = 256 }", "params = { M = 1024, NC = 8 }",
                             "params must be exactly"),
                            ('design = "tall"\nparams = { M = 1024, NC = 8', 'design = "tallest"\nparams = { M = 1024, NC = 8',
                             "unknown design"),
                            ('precisions = ["s", "d", "c"]', 'precisions = ["s", "q"]', "routine's precisions"),
                            ('[routine.default]\ndesign = "regs"', '[routine.default]\nprecisions = ["s"]\ndesign = "regs"',
                             "every precision")):
        assert old in text
        (tmp_path / "search_space" / "getrf.toml").write_text(text.replace(old, new))
        with pytest.raises(SearchSpaceError, match=match):
            load_routine(tmp_path / "search_space", "getrf")


@pytest.mark.parametrize("routine", ["orgqr", "ormqr"])
def test_q_panels_fallbacks_and_their_extent(routine):
    # a spec design's `extent` (slotted parameters only: the runtime reads it from the kernel
    # descriptor) and the fallbacks it orders: orgqr and ormqr ship one panel per size bucket,
    # each within its design's restrictions in every precision, and the registry gets the extent
    # function that runtime/spec_run.c's fallback scan calls (NULL for a routine whose designs
    # have none: TRSM)
    import json
    import tomllib
    from generator import emit_spec
    from generator.expr import ExprError
    from generator.prune import static_prune
    from generator.search_space import Candidate, _load_design, discover, load_routine
    root = Path(__file__).resolve().parents[2]
    space = load_routine(root / "search_space", routine)
    rows = sorted({c["M"] for _, _, _, c in space.fallback_kernels()})
    assert rows == [32, 64, 128, 256, 512]
    device = json.loads((Path(__file__).parent / "fixtures" / "h100.json").read_text())
    for p, _, d, c in space.fallback_kernels() + space.default_kernels():
        assert static_prune(Candidate(space, p, d, c), device) is None, (p, c)
    registry = emit_spec.registry_c(emit_spec.routines_from(discover(root / "search_space")))
    assert f"static long long {routine}_extent(const shoal_kernel_desc *kd)" in registry
    assert "    case 0: return kd->p[0];\n    default: return LLONG_MAX;" in registry
    entry = registry[registry.index(f'{{"{routine}", '):].split("},", 1)[0]
    assert entry.rstrip().endswith(f"{routine}_extent")
    trsm = registry[registry.index('{"trsm", '):].split("},", 1)[0]
    assert trsm.rstrip().endswith(", NULL")
    panel = next(d for d in tomllib.loads((root / "search_space" / f"{routine}.toml").read_text())["design"])
    for bad in ("m", "elem * M", "M +"):
        with pytest.raises((SearchSpaceError, ExprError), match="extent"):
            _load_design({**panel, "extent": bad}, "panel", frozenset({"q", "nx", "side", "trans"}))
