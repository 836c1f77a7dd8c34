"""packaging/version_script.py: the exported names are the functions the public headers declare,
following their quoted includes, and nothing that only a comment or a macro mentions."""
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "packaging" / "version_script.py"


def run(*args: str) -> str:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, check=True).stdout


def test_declarations_across_quoted_includes(tmp_path):
    (tmp_path / "top.h").write_text(
        '#include <stdint.h>\n#include "more.h"\n'
        "/* shoal_in_a_comment(h) is not declared */\n"
        "#define SHOAL_MACRO(x) shoal_in_a_macro(x)\n"
        "typedef enum shoal_status { SHOAL_OK } shoal_status;\n"
        "shoal_status shoal_create(void **h);\nconst char *shoal_status_string(shoal_status s);\n")
    (tmp_path / "more.h").write_text("// shoal_line_comment(1)\nint shoal_more(int a,\n               int b);\n")
    top = str(tmp_path / "top.h")
    assert run("--list", top).split() == ["shoal_create", "shoal_more", "shoal_status_string"]
    assert run("--headers", top).split() == [top, str(tmp_path / "more.h")]
    script = run(top)
    assert "global:" in script and "    shoal_more;\n" in script and "local:\n    *;" in script
    assert "shoal_in_a_comment" not in script and "shoal_in_a_macro" not in script


def test_the_real_header_declares_the_api():
    names = run("--list", str(SCRIPT.parents[1] / "include" / "shoal.h")).split()
    for n in ("shoal_create", "shoal_destroy", "shoal_get_version", "shoal_create_error_string",
              "shoal_dgemm_strided_batched", "shoal_sgetrf_batched"):
        assert n in names
    assert all(n.startswith("shoal_") for n in names)
