"""The runtime never loads training code, and the rules core stands alone (issue 85).

`vision/` (reading photos) imports no `training`; `scoring/` (the rule book)
imports none of `vision`, `training` or `handfoot`; and in the app package
only the model commands reach `training`. Every file is parsed, not
imported, so an import inside a function counts as much as one at the top.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# package -> the top-level packages its files must not import
FORBIDDEN = {
    "vision": {"training"},
    "scoring": {"vision", "training", "handfoot"},
}
# app modules that may import `training`: the commands that train and measure
TRAINING_COMMANDS = {"handfoot/commands/model_cmd.py"}


def imported_packages(source: str) -> set[str]:
    """The top-level packages `source` imports: `import a.b`, `from a.b import c` (relative imports name their
    own package, never another), and `importlib.import_module("a.b")` or `__import__("a")` given a string."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                found.add(node.args[0].value.split(".")[0])
    return found


def offences(package: str, banned: set[str]) -> list[str]:
    """`file: package` for every banned import in the package's files."""
    return [
        f"{path.relative_to(ROOT)}: {name}"
        for path in sorted((ROOT / package).rglob("*.py"))
        for name in sorted(imported_packages(path.read_text(encoding="utf-8")) & banned)
    ]


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_the_runtime_packages_import_nothing_they_must_not(package):
    assert list((ROOT / package).rglob("*.py")), f"no files under {package}/: the check would pass on nothing"
    assert offences(package, FORBIDDEN[package]) == []


def test_only_the_model_commands_of_the_app_reach_training():
    users = {
        str(path.relative_to(ROOT)) for path in (ROOT / "handfoot").rglob("*.py") if "training" in imported_packages(path.read_text(encoding="utf-8"))
    }
    assert users <= TRAINING_COMMANDS


@pytest.mark.parametrize(
    "source",
    [
        "import training",
        "import training.cards as cards",
        "from training.eval import metrics",
        "from training import progress",
        "def f():\n    from training.wilds import rebuild  # noqa: PLC0415\n    return rebuild",
        "import importlib\nimportlib.import_module('training.jokers')",
        "from importlib import import_module\nimport_module('training')",
        "__import__('training.cards')",
        "import numpy as np, training",
    ],
)
def test_the_check_flags_every_way_of_importing_training(source):
    assert "training" in imported_packages(source)


@pytest.mark.parametrize(
    "source",
    [
        "import trainingwheels",
        "from vision.training_view import x",  # a runtime module whose name merely starts so
        "from . import training",  # relative: the package's own module, not the training package
        "# import training\nx = 'import training'",
        "import_module(name)",
    ],
)
def test_the_check_leaves_other_names_alone(source):
    assert "training" not in imported_packages(source)


def test_an_offending_file_is_named(tmp_path, monkeypatch):
    (tmp_path / "scoring").mkdir()
    (tmp_path / "scoring" / "clean.py").write_text("import math\n")
    (tmp_path / "scoring" / "bad.py").write_text("def f():\n    from vision.detection import Card\n")
    monkeypatch.setitem(globals(), "ROOT", tmp_path)
    assert offences("scoring", FORBIDDEN["scoring"]) == ["scoring/bad.py: vision"]
