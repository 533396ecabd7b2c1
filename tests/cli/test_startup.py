"""`tuner --help` and the pure guideline commands must not pay for heavy libraries."""

import subprocess
import sys

HEAVY = (
    "litellm",
    "dspy",
    "optuna",
    "openai",
    "matplotlib",
    "scipy",
    # the viewer's web stack: only `tuner serve` loads it
    "fastapi",
    "uvicorn",
    "starlette",
    "jinja2",
    "playwright",
)


def _modules_after(args: list[str]) -> set[str]:
    code = (
        "import sys\n"
        "from tuner.cli.main import app\n"
        "try:\n"
        f"    app({args!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('\\n'.join(sorted(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return {line.split(".")[0] for line in out.splitlines()}


def test_help_imports_no_heavy_library():
    loaded = _modules_after(["--help"])
    assert not loaded & set(HEAVY), loaded & set(HEAVY)


def test_guideline_commands_import_no_heavy_library(project_dir):
    loaded = _modules_after(["guidelines", "render", "all-active"])
    assert not loaded & set(HEAVY), loaded & set(HEAVY)


def test_session_commands_import_no_web_stack(project_dir):
    loaded = (
        _modules_after(["sessions", "--help"])
        | _modules_after(["export", "--help"])
        | _modules_after(["serve", "--help"])
    )
    assert not loaded & set(HEAVY), loaded & set(HEAVY)
