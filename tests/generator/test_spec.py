"""Routine specs (generator/spec.py, emit_spec.py): loading, the C spelling of every expression
(checked against Python by compiling it), the emitted glue being current and stable, and the
case tables' bounds."""
from __future__ import annotations

import itertools
import shutil
import subprocess
from pathlib import Path

import pytest

from generator import emit_spec, spec_cases
from generator.project import REPO_ROOT
from generator.search_space import discover
from generator.spec import SpecError, c_expr, load
from generator.spec_lapack import abi_of

SPEC_DIR = REPO_ROOT / "spec" / "routines"
# the spec ABI's; the factorization ABI's (abi = "lapack") are tests/generator/test_spec_lapack.py's
SPECS = sorted(p for p in SPEC_DIR.glob("*.toml") if abi_of(p) == "spec")


def _spaces():
    return discover(REPO_ROOT / "search_space")


@pytest.mark.parametrize("path", SPECS, ids=[p.stem for p in SPECS])
def test_spec_loads_and_names_its_parts(path: Path) -> None:
    spec = load(path)
    assert spec.operands and spec.dims and spec.variants
    if spec.options:
        assert spec.variant in {o.name for o in spec.options}
    else:  # a routine without options (orgqr): one table, variant "n"
        assert spec.variant == "" and spec.variants == ("n",) and spec.variant_index == 0
    assert len(set(o.name for o in spec.operands)) == len(spec.operands)


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
@pytest.mark.parametrize("path", SPECS, ids=[p.stem for p in SPECS])
def test_c_expressions_agree_with_python(path: Path, tmp_path: Path) -> None:
    """Every spec expression, evaluated by C over a grid of dims and options, gives what Python
    gives: the emitted checks, registry and counts mean what the spec says."""
    spec = load(path)
    exprs = [spec.flops, spec.bytes, spec.quick_return, spec.kernels, spec.driver_serves]
    exprs += [rule for rule, _ in spec.requires]
    exprs += [o.rows for o in spec.operands] + [o.cols for o in spec.operands]
    sizes = (0, 1, 3, 32, 33, 1024)
    points = []
    for dims in itertools.product(sizes, repeat=len(spec.dims)):
        for opts in itertools.product((0, 1), repeat=len(spec.options)):
            points.append((dims, opts))
    lines = ["#include <stdio.h>", "#define SHOAL_MAX(a, b) ((a) > (b) ? (a) : (b))",
             "#define SHOAL_MIN(a, b) ((a) < (b) ? (a) : (b))",
             "#define SHOAL_CEIL_DIV(a, b) (((a) + (b) - 1) / (b))", "int main(void) {"]
    want = []
    for dims, opts in points:
        env = spec.evaluate(dict(zip(spec.dims, dims)), {o.name: v for o, v in zip(spec.options, opts)})
        lines.append("{")
        lines += [f"const long long {k} = {v};" for k, v in env.items() if k not in {n for n, _ in spec.derived}]
        lines += [f"const long long {n} = {c_expr(e)};" for n, e in spec.derived]
        lines += [f"(void){k};" for k in env]
        for e in exprs:
            lines.append(f'printf("%lld\\n", (long long)({c_expr(e)}));')
            want.append(int(e(env)))
        lines.append("}")
    lines += ["return 0;", "}"]
    src = tmp_path / "x.c"
    src.write_text("\n".join(lines))
    subprocess.run(["gcc", "-O0", "-o", str(tmp_path / "x"), str(src)], check=True)
    got = [int(x) for x in subprocess.run([str(tmp_path / "x")], capture_output=True, text=True,
                                          check=True).stdout.split()]
    assert got == want


def test_emitted_glue_is_current_and_stable(tmp_path: Path) -> None:
    """The committed header and docs table equal what the generator makes, and two emissions
    give the same bytes."""
    spaces = _spaces()
    a = emit_spec.emit_files(spaces, tmp_path / "g1", REPO_ROOT)
    b = emit_spec.emit_files(spaces, tmp_path / "g2", REPO_ROOT)
    assert [t for t in a.values()] == [t for t in b.values()]
    for path, text in a.items():
        if path.parent in (REPO_ROOT / "include", REPO_ROOT / "docs"):
            assert path.read_text() == text, f"{path} is stale: run `python -m generator emit`"


def test_every_argument_rule_has_a_test() -> None:
    """One argument test per rule, per precision and form: options twice (and an alias accepted:
    SHOAL_OP_C; each enumerator refused: HERK's SHOAL_OP_T), dims, the spec's requirements
    (ormqr's k <= q), batch, leading dimensions twice (none for vectors), strides, NULL operands,
    and a vector NULL where its length (a dim) is 0: not read, accepted (orgqr's and ormqr's tau)."""
    for r in emit_spec.routines_from(_spaces()):
        text = emit_spec.test_args_c([r])
        s = r.spec
        aliases = sum((o.type.real_alias is not None) + len(o.type.refused)
                      + (len(o.type.values) - 1 if o.type.enum_values else 0) for o in s.options)
        per_form = {"batched": 2 * len(s.options) + aliases + len(s.dims) + len(s.requires) + 1
                    + sum(2 if o.is_vector and o.rows.source in s.dims else 1 if o.is_vector else 3
                          for o in s.operands)}
        per_form["strided_batched"] = per_form["batched"] + len(s.operands) + sum(o.access != "in" for o in s.operands)
        want = len(r.precisions) * sum(n + 2 for n in per_form.values())
        assert text.count("expect(") - 1 == want  # minus the definition


GOOD = """name = "x"
summary = "s"
options = [{ name = "uplo", type = "uplo" }]
dims = ["n"]
scalars = ["alpha"]
operands = [{ name = "A", access = "inout", rows = "n", cols = "n" }]
variant = "uplo"
flops = "n * n"
bytes = "n * n * elem"
oracle = "x"
vendor = "none"
kernels = "n <= 32"
"""


def test_driver_serves_defaults_to_what_the_kernels_do_not(tmp_path: Path) -> None:
    """Without `driver_serves` the driver takes exactly the calls the kernels do not; with it the
    two may overlap (both serve there, and the tuned tables choose)."""
    f = tmp_path / "x.toml"
    f.write_text(GOOD)
    spec = load(f)
    for n in (1, 32, 33, 1024):
        env = spec.evaluate({"n": n}, {"uplo": 0})
        assert bool(spec.driver_serves(env)) == (not spec.kernels(env))
    f.write_text(GOOD.replace('kernels = "n <= 32"', 'kernels = "n >= 1"\ndriver_serves = "n > 16"'))
    spec = load(f)
    both = [n for n in (1, 16, 17, 1024)
            if spec.kernels(spec.evaluate({"n": n}, {"uplo": 0}))
            and spec.driver_serves(spec.evaluate({"n": n}, {"uplo": 0}))]
    assert both == [17, 1024]


def test_spec_rejects_bad_files(tmp_path: Path) -> None:
    bad = tmp_path / "x.toml"
    bad.write_text(GOOD)
    assert load(bad).variants == ("l", "u")
    bad.write_text(GOOD.replace('type = "uplo"', 'type = "sideways"'))
    with pytest.raises(SpecError, match="type must be one of"):
        load(bad)
    bad.write_text(GOOD.replace('rows = "n"', 'rows = "q"'))
    with pytest.raises(Exception, match="unknown name 'q'"):
        load(bad)
    bad.write_text(GOOD.replace('variant = "uplo"', 'variant = "side"'))
    with pytest.raises(SpecError, match="variant must name an option"):
        load(bad)
    bad.write_text(GOOD.replace('variant = "uplo"\n', ""))
    with pytest.raises(SpecError, match="variant must name an option"):
        load(bad)
    # no options at all (orgqr): no variant, one table
    bad.write_text(GOOD.replace('options = [{ name = "uplo", type = "uplo" }]\n', "").replace('variant = "uplo"\n', ""))
    assert load(bad).variants == ("n",)


VECTOR = GOOD.replace('operands = [{ name = "A", access = "inout", rows = "n", cols = "n" }]',
                     'dims = ["n", "k"]\noperands = [{ name = "A", access = "inout", rows = "n", cols = "n" },\n'
                     '  { name = "tau", kind = "vector", access = "in", length = "k", stride = "strideTau" }]\n'
                     'requires = [{ rule = "k <= n", broken_by = { k = "4" } }]').replace('dims = ["n"]\n', "")


def test_vector_operands_and_requirements(tmp_path: Path) -> None:
    """A vector operand (LAPACK's tau) has no leading dimension in the call, its stride named as
    the spec says, and is a length x 1 matrix with ld = max(1, length) past the entry point; a
    requirement between dims is checked after the dims, before batch, and has its argument test
    (the no-work test then zeroes every dim, so that it still holds)."""
    f = tmp_path / "x.toml"
    f.write_text(VECTOR)
    spec = load(f)
    (a, tau) = spec.operands
    assert not a.is_vector and tau.is_vector and tau.stride == "strideTau"
    assert tau.cols.source == "1" and tau.rows.source == "k"
    assert [r.source for r, _ in spec.requires] == ["k <= n"]
    space = _spaces()[0]
    r = emit_spec.Routine(spec, space)
    params = emit_spec._params(r, "d", "strided_batched")
    assert "int64_t ldtau" not in params and "int64_t strideTau" in params and "int64_t lda" in params
    assert "int64_t ldtau" not in emit_spec._params(r, "d", "batched")
    checks = "\n".join(emit_spec._checks(r, "d", "strided_batched"))
    assert checks.index("if (!(k <= n)) return BAD;") < checks.index("if (batch < 0)")
    assert "ldtau" not in checks and "if (strideTau < 0) return BAD;" in checks
    # a vector of no elements is not read: NULL refused only where it has some
    assert "(!A || (!tau && k > 0))) return BAD;" in checks
    rules = emit_spec._rules(r, "strided_batched")
    assert ("not k <= n", {"k": "4"}, emit_spec.BAD) in rules
    assert ("tau NULL with k = 0", {"tau": "NULL", "k": "0"}, emit_spec.OK) in rules
    assert not any("ldtau" in what for what, _, _ in rules)
    assert rules[-1][1]["n"] == "0" and rules[-1][1]["k"] == "0"
    api = emit_spec.api_c([r])
    assert "c.p.op[1].ld = SHOAL_MAX(1, k);" in api
    for bad, msg in (('kind = "vector"', 'kind = "tensor"'), ('broken_by = { k = "4" }', 'broken_by = {}')):
        f.write_text(VECTOR.replace(*(bad, msg)))
        with pytest.raises(SpecError, match="kind must be|broken_by must"):
            load(f)


def test_case_tables_have_bounds(tmp_path: Path) -> None:
    rs = emit_spec.routines_from(_spaces())
    if not rs:
        pytest.skip("no spec routine yet")
    assert spec_cases.load_cases(rs, REPO_ROOT / "tests" / "cases")
    (tmp_path / "cases").mkdir()
    for r in rs:
        (tmp_path / "cases" / f"{r.name}.toml").write_text(
            '[[group]]\nname = "big"\ndims = [[2000, 1]]\n')
    with pytest.raises(spec_cases.CaseError, match="sizes in 0..1024"):
        spec_cases.load_cases(rs, tmp_path / "cases")


def test_case_tables_tail_offset(tmp_path: Path) -> None:
    """tail_offset reaches the generated table (0..3, -1 where unset) and is bounded; the
    committed tables have tail groups for every spec routine (issue 29)."""
    rs = emit_spec.routines_from(_spaces())
    if not rs:
        pytest.skip("no spec routine yet")
    shipped = spec_cases.load_cases(rs, REPO_ROOT / "tests" / "cases")
    for i, r in enumerate(rs):
        tails = {c.tail_offset for c in shipped if c.routine == i}
        assert {0, 1, 2, 3} <= tails and spec_cases.NO_TAIL in tails, (r.name, tails)
    (tmp_path / "cases").mkdir()
    def dims(r: emit_spec.Routine) -> str:
        return "[" + ", ".join("1" for _ in r.spec.dims) + "]"
    for r in rs:
        (tmp_path / "cases" / f"{r.name}.toml").write_text(
            f'[[group]]\nname = "t"\nforms = ["strided"]\ndims = [{dims(r)}]\ntail_offset = 2\n')
    cases = spec_cases.load_cases(rs, tmp_path / "cases")
    assert cases and all(c.tail_offset == 2 for c in cases)
    lines = spec_cases.cases_c(cases).splitlines()
    for c in cases:
        (line,) = [l for l in lines if f'"{c.name}"' in l]
        assert f"{c.batch}LL, 0, 2, " in line, line
    for bad in ("4", "-2", "true"):
        for r in rs:
            (tmp_path / "cases" / f"{r.name}.toml").write_text(
                f'[[group]]\nname = "t"\ndims = [{dims(r)}]\ntail_offset = {bad}\n')
        with pytest.raises(spec_cases.CaseError, match="tail_offset"):
            spec_cases.load_cases(rs, tmp_path / "cases")


def test_case_tables_page_end(tmp_path: Path) -> None:
    """page_end = true reaches the generated table as tail_offset PAGE_END (4,
    SPEC_HARNESS_PAGE_END), excludes tail_offset, must be a boolean, and its cases go last in the
    table, after every routine's other cases (a kernel fault loses the CUDA context); the
    committed tables have a page_end group for every spec routine (issue 29)."""
    rs = emit_spec.routines_from(_spaces())
    if not rs:
        pytest.skip("no spec routine yet")
    shipped = spec_cases.load_cases(rs, REPO_ROOT / "tests" / "cases")
    for i, r in enumerate(rs):
        assert any(c.page_end and c.tail_offset == spec_cases.PAGE_END for c in shipped if c.routine == i), r.name
    flags = [c.page_end for c in shipped]
    assert flags == sorted(flags), "page-end cases must come last"
    assert all("page_end" in c.name for c in shipped if c.page_end)
    assert all(c.tail_offset != spec_cases.PAGE_END for c in shipped if not c.page_end)
    assert 'tail_offset = SPEC_HARNESS_PAGE_END' not in spec_cases.cases_c(shipped)  # a plain number
    (tmp_path / "cases").mkdir()
    def dims(r: emit_spec.Routine) -> str:
        return "[" + ", ".join("1" for _ in r.spec.dims) + "]"
    for r in rs:
        (tmp_path / "cases" / f"{r.name}.toml").write_text(
            f'[[group]]\nname = "pe"\nforms = ["strided"]\ndims = [{dims(r)}]\npage_end = true\n'
            f'[[group]]\nname = "plain"\nforms = ["strided"]\ndims = [{dims(r)}]\n')
    cases = spec_cases.load_cases(rs, tmp_path / "cases")
    flags = [c.page_end for c in cases]
    assert flags == sorted(flags) and 2 * sum(flags) == len(flags)
    lines = spec_cases.cases_c(cases).splitlines()
    for c in cases:
        (line,) = [l for l in lines if f'"{c.name}"' in l]
        assert f"{c.batch}LL, 0, {4 if c.page_end else -1}, " in line, line
    for bad, match in (('page_end = true\ntail_offset = 1', "exclude"), ('page_end = 1', "page_end"),
                       ('page_end = "yes"', "page_end")):
        for r in rs:
            (tmp_path / "cases" / f"{r.name}.toml").write_text(
                f'[[group]]\nname = "t"\ndims = [{dims(r)}]\n{bad}\n')
        with pytest.raises(spec_cases.CaseError, match=match):
            spec_cases.load_cases(rs, tmp_path / "cases")


def test_case_tables_nan_operand(tmp_path: Path) -> None:
    """nan_operand / nan_element reach the generated table (the operand's index in the spec, the
    element offset) and are checked: an operand of the routine, an offset >= 0, and only with
    nan; the committed ormqr and orgqr tables poison a reflector and tau, not only A(0, 0)."""
    rs = emit_spec.routines_from(_spaces())
    r = next((r for r in rs if r.name == "ormqr"), None)
    if r is None:
        pytest.skip("no ormqr spec")
    shipped = spec_cases.load_cases(rs, REPO_ROOT / "tests" / "cases")
    names = [o.name for o in r.spec.operands]
    for routine in ("ormqr", "orgqr"):
        i = [x.name for x in rs].index(routine)
        ops = [x.name for x in rs[i].spec.operands]
        poisoned = {(ops[c.nan_operand], c.nan_element) for c in shipped if c.routine == i and c.nan}
        assert {("A", 1), ("tau", 0)} <= poisoned, (routine, poisoned)
    (tmp_path / "cases").mkdir()
    only = [r]
    path = tmp_path / "cases" / "ormqr.toml"
    path.write_text('[[group]]\nname = "n"\nforms = ["strided"]\nprecisions = ["d"]\nopts = [[0, 0]]\ndims = [[4, 4, 4]]\n'
                    'nan = true\nnan_operand = "C"\nnan_element = 5\n')
    (case,) = spec_cases.load_cases(only, tmp_path / "cases")
    assert (case.nan_operand, case.nan_element) == (names.index("C"), 5)
    assert spec_cases.cases_c([case]).splitlines()[-3].endswith(f", 0, {names.index('C')}, 5LL, 0, 0}},")
    for bad, match in (('nan = true\nnan_operand = "B"', "not an operand"),
                       ('nan = true\nnan_element = -1', "nan_element"),
                       ('nan_operand = "C"', "need nan")):
        path.write_text(f'[[group]]\nname = "n"\ndims = [[4, 4, 4]]\n{bad}\n')
        with pytest.raises(spec_cases.CaseError, match=match):
            spec_cases.load_cases(only, tmp_path / "cases")


def test_case_tables_input(tmp_path: Path) -> None:
    """`input` reaches the generated table as SPEC_INPUT_*'s value (random 0, zero 1,
    rank_deficient 2) and is checked; the committed gebrd table has zero and rank-deficient
    matrices (issue 25)."""
    rs = emit_spec.routines_from(_spaces())
    r = next((r for r in rs if r.name == "gebrd"), None)
    if r is None:
        pytest.skip("no gebrd spec")
    shipped = spec_cases.load_cases(rs, REPO_ROOT / "tests" / "cases")
    i = [x.name for x in rs].index("gebrd")
    assert {0, 1, 2} <= {c.input for c in shipped if c.routine == i}
    (tmp_path / "cases").mkdir()
    path = tmp_path / "cases" / "gebrd.toml"
    for name, value in (("zero", 1), ("rank_deficient", 2), ("random", 0)):
        path.write_text(f'[[group]]\nname = "i"\nforms = ["strided"]\nprecisions = ["d"]\ndims = [[5, 4]]\n'
                        f'input = "{name}"\n')
        (case,) = spec_cases.load_cases([r], tmp_path / "cases")
        assert case.input == value
        assert spec_cases.cases_c([case]).splitlines()[-3].endswith(f"LL, {value}, 0}},")
    path.write_text('[[group]]\nname = "i"\ndims = [[5, 4]]\ninput = "ones"\n')
    with pytest.raises(spec_cases.CaseError, match="input 'ones'"):
        spec_cases.load_cases([r], tmp_path / "cases")


def test_case_tables_driver(tmp_path: Path) -> None:
    """`driver` (a leaf size: the case calls the driver directly) reaches the generated table,
    needs a routine with a driver and a size >= 0; the committed gebrd table calls its blocked
    driver at several panel widths."""
    rs = emit_spec.routines_from(_spaces())
    gebrd = next((r for r in rs if r.name == "gebrd"), None)
    orgqr = next((r for r in rs if r.name == "orgqr"), None)
    if gebrd is None or orgqr is None:
        pytest.skip("no gebrd or orgqr spec")
    shipped = spec_cases.load_cases(rs, REPO_ROOT / "tests" / "cases")
    i = [x.name for x in rs].index("gebrd")
    assert {8, 16, 32} <= {c.driver for c in shipped if c.routine == i}
    (tmp_path / "cases").mkdir()
    path = tmp_path / "cases" / "gebrd.toml"
    path.write_text('[[group]]\nname = "b"\nforms = ["strided"]\nprecisions = ["d"]\ndims = [[70, 65]]\ndriver = 16\n')
    (case,) = spec_cases.load_cases([gebrd], tmp_path / "cases")
    assert case.driver == 16 and spec_cases.cases_c([case]).splitlines()[-3].endswith("LL, 0, 16},")
    path.write_text('[[group]]\nname = "b"\ndims = [[70, 65]]\ndriver = -1\n')
    with pytest.raises(spec_cases.CaseError, match="driver -1"):
        spec_cases.load_cases([gebrd], tmp_path / "cases")
    (tmp_path / "cases" / "orgqr.toml").write_text('[[group]]\nname = "b"\ndims = [[8, 8, 8]]\ndriver = 8\n')
    with pytest.raises(spec_cases.CaseError, match="has no driver"):
        spec_cases.load_cases([orgqr], tmp_path / "cases")


def test_complex_flops_count_real_operations() -> None:
    """A task's flops in c and z are 4x those of s and d at the same shape (cx: a complex multiply
    and add is 8 real flops), bytes follow the element size: TRSM, the spec routine in all four."""
    space = next(s for s in _spaces() if s.routine.name == "trsm")
    shape = next(iter(space.shapes()))
    flops = {p: space.flops(shape, p) for p in "sdcz"}
    assert flops["s"] == flops["d"] > 0
    assert flops["c"] == flops["z"] == 4 * flops["d"]
