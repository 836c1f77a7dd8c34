"""Safe evaluation of the small expressions in search-space files.

Restrictions, thread counts, flop/byte counts and the batch rule are Python expressions written
in TOML. They are data, not code: a typo or a hostile file must not run anything, so each one is
parsed with `ast`, checked against a whitelist of node types, operators, names and functions,
and only then compiled and evaluated with no builtins at all.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping


class ExprError(ValueError):
    """A search-space expression is not allowed or failed to evaluate."""


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def clamp(x: Any, lo: Any, hi: Any) -> Any:
    return max(lo, min(x, hi))


def pow2ceil(x: int) -> int:
    """Smallest power of two >= x (1 for x <= 1): the thread team of a size-x factorization."""
    p = 1
    while p < x:
        p *= 2
    return p


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "min": min,
    "max": max,
    "abs": abs,
    "ceil_div": ceil_div,
    "clamp": clamp,
    "pow2ceil": pow2ceil,
}

# Device limits from `shoal_tune --device-info` that expressions may use (internals.md §1).
DEVICE_LIMITS: tuple[str, ...] = (
    "max_threads_per_block", "max_threads_per_sm", "smem_per_block", "smem_per_block_optin",
    "smem_per_sm", "regs_per_block", "regs_per_sm", "sm_count", "l2_bytes",
)

_NODES = (
    ast.Expression, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.Name, ast.Load,
    ast.Constant, ast.Call, ast.IfExp,
    ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow,
    ast.UAdd, ast.USub, ast.Not, ast.And, ast.Or,
    ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE,
)
# A literal exponent bound keeps `10**10**10` from hanging the generator.
_MAX_EXPONENT = 256


@dataclass(frozen=True)
class Expr:
    """One checked, compiled expression; `where` says where it came from, for error messages."""
    source: str
    where: str
    names: frozenset[str] = field(default_factory=frozenset)   # names it actually uses
    _code: Any = field(default=None, repr=False, compare=False)

    def __call__(self, env: Mapping[str, Any]) -> Any:
        missing = self.names - env.keys()
        if missing:
            raise ExprError(f"{self.where}: {self.source!r}: no value for {', '.join(sorted(missing))}")
        scope: dict[str, Any] = {"__builtins__": {}}
        scope.update(FUNCTIONS)
        try:
            return eval(self._code, scope, {n: env[n] for n in self.names})  # noqa: S307 - checked AST
        except Exception as e:  # ZeroDivisionError, TypeError on bad operands, ...
            raise ExprError(f"{self.where}: {self.source!r}: {type(e).__name__}: {e}") from None


def compile_expr(source: str, allowed_names: Iterable[str], where: str = "expression") -> Expr:
    """Parse and check `source`; raise ExprError naming the offending construct."""
    if not isinstance(source, str):
        raise ExprError(f"{where}: expected an expression string, got {source!r}")
    allowed = frozenset(allowed_names)
    try:
        tree = ast.parse(source.strip(), mode="eval")
    except SyntaxError as e:
        raise ExprError(f"{where}: {source!r}: syntax error: {e.msg}") from None
    used: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, _NODES):
            raise ExprError(f"{where}: {source!r}: {type(node).__name__} is not allowed "
                            "(only arithmetic, comparisons, and/or/not, and calls to "
                            f"{', '.join(FUNCTIONS)})")
        if isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS:
                fname = node.func.id if isinstance(node.func, ast.Name) else ast.unparse(node.func)
                raise ExprError(f"{where}: {source!r}: call to {fname!r} is not allowed; "
                                f"functions: {', '.join(FUNCTIONS)}")
            if node.keywords:
                raise ExprError(f"{where}: {source!r}: keyword arguments are not allowed")
        elif isinstance(node, ast.Name):
            if node.id in FUNCTIONS:
                continue  # only reachable as a call's func (a bare function name fails at eval)
            if node.id not in allowed:
                raise ExprError(f"{where}: {source!r}: unknown name {node.id!r}; allowed here: "
                                f"{', '.join(sorted(allowed))}")
            used.add(node.id)
        elif isinstance(node, ast.Constant):
            if not isinstance(node.value, (int, float, str)) or isinstance(node.value, complex):
                raise ExprError(f"{where}: {source!r}: constant {node.value!r} is not allowed")
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            exp = node.right
            if not (isinstance(exp, ast.Constant) and isinstance(exp.value, int)
                    and abs(exp.value) <= _MAX_EXPONENT):
                raise ExprError(f"{where}: {source!r}: exponents must be integer literals "
                                f"<= {_MAX_EXPONENT}")
    # A function name used as a value (e.g. `min + 1`) would slip past the Name check above.
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in FUNCTIONS:
            if not any(isinstance(p, ast.Call) and p.func is node for p in ast.walk(tree)):
                raise ExprError(f"{where}: {source!r}: {node.id!r} must be called")
    code = compile(tree, f"<{where}>", "eval")
    return Expr(source=source, where=where, names=frozenset(used), _code=code)
