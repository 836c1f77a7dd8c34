from generator.prune import applicable, static_prune
from generator.search_space import Candidate, Shape, load
from generator.tasks import build_plan, limit_shapes


def cand(space, design, prec="d", **cfg):
    return Candidate(space, prec, space.design(design), cfg)


def test_threads_per_block(space, device):
    device["max_threads_per_block"] = 128
    assert static_prune(cand(space, "staged", DIM_X=256, MPB=1, TN=1), device) == "threads_per_block"
    assert static_prune(cand(space, "staged", DIM_X=128, MPB=1, TN=1), device) is None
    t = cand(space, "tiled", DIM_X=16, DIM_Y=16, BLK_M=64, BLK_N=64, BLK_K=8)
    assert static_prune(t, device) == "threads_per_block"


def test_restriction_reason_names_the_expression(space, device):
    c = cand(space, "tiled", DIM_X=32, DIM_Y=16, BLK_M=32, BLK_N=32, BLK_K=8)
    assert static_prune(c, device) == "restriction: (BLK_M // DIM_X) * (BLK_N // DIM_Y) >= 4"
    c = cand(space, "tiled", DIM_X=16, DIM_Y=16, BLK_M=32, BLK_N=128, BLK_K=8)
    assert static_prune(c, device) is None
    c = cand(space, "tiled", DIM_X=32, DIM_Y=8, BLK_M=64, BLK_N=68, BLK_K=8)
    assert static_prune(c, device) == "restriction: BLK_N % DIM_Y == 0"
    c = cand(space, "tiled", DIM_X=8, DIM_Y=8, BLK_M=128, BLK_N=128, BLK_K=8)
    assert static_prune(c, device) == "restriction: (BLK_M // DIM_X) * (BLK_N // DIM_Y) <= 32"


def test_restrictions_see_precision(tmp_path, space, device):
    # tiles of 16 * (129 + 129) elements: 16512 bytes in s, 33024 in d; a 20000-byte limit
    # separates them
    src = "(BLK_K * (BLK_M + 1) + BLK_K * (BLK_N + 1)) * elem <= 49152"
    p = tmp_path / "gemm.toml"
    p.write_text(space.path.read_text().replace(src, src.replace("49152", "20000")))
    sp = load(p)
    cfg = dict(DIM_X=32, DIM_Y=16, BLK_M=128, BLK_N=128, BLK_K=16)
    assert static_prune(Candidate(sp, "s", sp.design("tiled"), cfg), device) is None
    assert static_prune(Candidate(sp, "d", sp.design("tiled"), cfg), device) == \
        "restriction: " + src.replace("49152", "20000")


def test_shape_restrictions(space, device):
    small = cand(space, "staged", DIM_X=64, MPB=8, TN=2)
    assert applicable(small, Shape("strided", "nn", 8, 8, 8), device)       # 8*8*4 = 256 >= 32
    assert not applicable(small, Shape("strided", "nn", 48, 48, 48), device)  # max > 32
    assert not applicable(small, Shape("strided", "nn", 1, 1, 1), device)    # TN > n
    few = cand(space, "staged", DIM_X=256, MPB=1, TN=1)
    assert not applicable(few, Shape("strided", "nn", 4, 4, 4), device)      # 16 < 128 threads busy
    many = cand(space, "staged", DIM_X=256, MPB=256, TN=1)
    assert applicable(many, Shape("strided", "nn", 1, 1, 1), device)         # MPB == 256 exemption
    device["smem_per_block_optin"] = 64 * (2 * 32 * 32) * 8 - 1
    big = cand(space, "staged", DIM_X=64, MPB=64, TN=1)
    assert not applicable(big, Shape("strided", "nn", 32, 32, 32), device)
    tiled = cand(space, "tiled", DIM_X=16, DIM_Y=16, BLK_M=64, BLK_N=64, BLK_K=8)
    assert not applicable(tiled, Shape("array", "tt", 4, 4, 4), device)      # max(m, n, k) < 16
    assert not applicable(tiled, Shape("strided", "tt", 16, 16, 16), device)  # tile > 2 x problem
    assert applicable(tiled, Shape("strided", "tt", 32, 32, 32), device)
    deep = cand(space, "tiled", DIM_X=16, DIM_Y=16, BLK_M=32, BLK_N=32, BLK_K=16)
    assert not applicable(deep, Shape("strided", "nn", 32, 32, 4), device)   # BLK_K > max(8, k)
    assert applicable(deep, Shape("strided", "nn", 32, 32, 16), device)


def test_plan_records_prunes_and_only_applicable_tasks(space, device):
    device["max_threads_per_block"] = 128
    plan = build_plan(space, ["d"], device, shape_limit=3)
    shapes = limit_shapes(space.shapes(), 3)
    assert {s.dims for s in shapes} == {(1, 1, 1), (2, 2, 2), (3, 3, 3)}
    assert any(p.reason == "threads_per_block" for p in plan.pruned)
    assert all(t.slots["dim_x"] * t.slots["dim_y"] <= 128 for t in plan.tasks)
    # one vendor task per shape, first in each shape's group
    vendor = [t for t in plan.tasks if t.design == "vendor"]
    assert [t.shape for t in vendor] == shapes
    assert all(t.kernel == "cublas" and t.module is None for t in vendor)
    # no task for a (candidate, shape) that fails a shape restriction
    for t in plan.tasks:
        if t.design != "vendor":
            assert applicable(plan.modules[t.module], t.shape, device)
    assert [t.id for t in plan.tasks] == list(range(len(plan.tasks)))
