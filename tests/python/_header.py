"""Reading include/shoal.h with the headers it includes by quotes (shoal_routines.h, generated
from spec/routines/): its prototypes as ctypes argument codes, and a fake libshoal built from
them that records every call (for the CPU tests of the Python package)."""
from __future__ import annotations

import pathlib
import re
import subprocess

REPO = pathlib.Path(__file__).resolve().parents[2]
HEADER = REPO / "include" / "shoal.h"

_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
_PROTO = re.compile(r"\s*((?:const\s+)?\w+\s*\**)\s*(shoal_\w+)\s*\(([^)]*)\)\s*", re.S)


def _strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    return re.sub(r"^\s*#[^\n]*", " ", text, flags=re.M)


def _code(param: str) -> tuple[str, str]:
    """(code, C type for the fake) of one parameter declaration."""
    param = " ".join(param.split())
    if "*" in param or "[" in param:
        if re.fullmatch(r"const char \*\s*\w+", param):
            return "s", "const char *"
        return "p", "void *"
    words = param.split()[:-1]
    base = words[-1]
    return {"shoal_handle": ("h", "void *"), "int64_t": ("l", "long long"), "float": ("f", "float"),
            "double": ("d", "double"), "char": ("c", "char"), "cudaStream_t": ("p", "void *"),
            "shoal_complex_float": ("F", "shoal_complex_float"),
            "shoal_complex_double": ("D", "shoal_complex_double")}.get(
                base, ("i", "int"))


def headers(header: pathlib.Path = HEADER) -> list[pathlib.Path]:
    """header and, recursively, the files it includes by quotes (relative to its directory, as
    the compiler looks first); <system> headers are not shoal's API."""
    out: list[pathlib.Path] = []

    def visit(path: pathlib.Path) -> None:
        if path in out:
            return
        if not path.exists():
            raise FileNotFoundError(f"{path} (included by shoal.h) does not exist")
        out.append(path)
        for name in _INCLUDE.findall(path.read_text()):
            visit((path.parent / name).resolve())

    visit(header.resolve())
    return out


def prototypes(header: pathlib.Path = HEADER) -> dict[str, tuple[str, list[tuple[str, str]]]]:
    """name -> (return type, [(code, C type) per parameter]) over header and its includes."""
    text = "\n".join(_strip_comments(h.read_text()) for h in headers(header))
    out = {}
    for statement in re.split(r"[;{}]", text):
        match = _PROTO.fullmatch(statement)
        if not match:
            continue
        ret, name, params = match.groups()
        params = params.strip()
        args = [] if params in ("", "void") else [_code(p) for p in params.split(",")]
        out[name] = (" ".join(ret.split()), args)
    return out


def statuses(header: pathlib.Path = HEADER) -> dict[int, str]:
    return {int(v): n for n, v in re.findall(r"(SHOAL_STATUS_\w+)\s*=\s*(\d+)", header.read_text())}


_FORMAT = {"h": ("%p", "{}"), "p": ("%p", "{}"), "s": ("%s", "{}"), "i": ("%d", "{}"),
           "l": ("%lld", "{}"), "f": ("%.9g", "(double){}"), "d": ("%.17g", "{}"), "c": ("%c", "{}"),
           "F": ("(%.9g,%.9g)", "(double){0}.re, (double){0}.im"), "D": ("(%.17g,%.17g)", "{0}.re, {0}.im")}

_PRELUDE = r"""
#include <stdio.h>
#include <string.h>
static char g_log[1 << 20];
static int g_status, g_create_status, g_device, g_handles;
const char *fake_log(void) { return g_log; }
void fake_clear(void) { g_log[0] = 0; }
void fake_set_status(int s) { g_status = s; }
void fake_set_create_status(int s) { g_create_status = s; }
typedef struct { float re, im; } shoal_complex_float;
typedef struct { double re, im; } shoal_complex_double;
static void logf_(const char *text) { strncat(g_log, text, sizeof g_log - strlen(g_log) - 1); }
int cudaGetDevice(int *d) { *d = g_device; return 0; }
int cudaSetDevice(int d) { char b[64]; snprintf(b, sizeof b, "cudaSetDevice(%d)\n", d); logf_(b); g_device = d; return 0; }
const char *shoal_create_error_string(void) { return g_create_status ? "cudaGetDeviceCount: fake driver missing" : ""; }
"""

_SPECIAL = {
    "shoal_status_string": None,  # generated from the enum
    "shoal_create": r"""int shoal_create(void *h) {
    char b[64]; snprintf(b, sizeof b, "shoal_create(device=%d)\n", g_device); logf_(b);
    if (g_create_status) return g_create_status;
    *(void **)h = (void *)(0x1000L + 0x10L * ++g_handles + g_device); return 0; }""",
    "shoal_get_dispatch_info": r"""int shoal_get_dispatch_info(void *h, void *name, void *level) {
    (void)h; *(const char **)name = "fake"; *(int *)level = 3; return g_status; }""",
    "shoal_get_workspace_size": r"""int shoal_get_workspace_size(void *h, void *bytes) {
    (void)h; logf_("shoal_get_workspace_size()\n"); *(size_t *)bytes = 123456; return g_status; }""",
}


def fake_source(header: pathlib.Path = HEADER, omit: tuple[str, ...] = ()) -> str:
    lines = [_PRELUDE]
    names = statuses(header)
    cases = "".join(f'    case {v}: return "{n}: fake text";\n' for v, n in names.items())
    lines.append("const char *shoal_status_string(int s) {\n  switch (s) {\n" + cases +
                 '  }\n  return "SHOAL_STATUS_UNKNOWN";\n}')
    for name, (ret, args) in prototypes(header).items():
        if name in omit or name in ("shoal_status_string", "shoal_create_error_string"):
            continue
        if name in _SPECIAL:
            lines.append(_SPECIAL[name])
            continue
        params = ", ".join(f"{ctype} a{i}" for i, (_, ctype) in enumerate(args)) or "void"
        fmt = ",".join(_FORMAT[c][0] for c, _ in args)
        vals = "".join(", " + _FORMAT[c][1].format(f"a{i}") for i, (c, _) in enumerate(args))
        lines.append(
            f"int {name}({params}) {{\n  char b[1024];\n"
            f'  snprintf(b, sizeof b, "{name}({fmt})\\n"{vals});\n  logf_(b);\n  return g_status;\n}}')
    return "\n\n".join(lines) + "\n"


def build_fake(directory: pathlib.Path, omit: tuple[str, ...] = ()) -> pathlib.Path:
    src = directory / "fake_shoal.c"
    lib = directory / "libshoal.so"
    src.write_text(fake_source(omit=omit))
    subprocess.run(["cc", "-shared", "-fPIC", "-O0", "-w", "-o", str(lib), str(src)], check=True)
    return lib
