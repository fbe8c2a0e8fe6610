"""`make demo`, the README's first command: it succeeds when the demo ran, whatever the photos read as."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _make_demo(tmp_path: Path, exit_status: int) -> subprocess.CompletedProcess:
    """`make demo` in a copy of the Makefile whose installed `handfoot` prints a line and exits as told."""
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    (tmp_path / "pyproject.toml").write_text("")
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    fake = bin_dir / "handfoot"
    fake.write_text(f'#!/bin/sh\necho "Totals: Ann 515"\nexit {exit_status}\n')
    fake.chmod(0o755)
    stamp = tmp_path / ".venv" / ".installed"
    stamp.touch()
    os.utime(tmp_path / "pyproject.toml", (1, 1))  # older than the stamp: nothing to install
    return subprocess.run(["make", "-s", "demo"], cwd=tmp_path, capture_output=True, text=True, timeout=60)


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_demo_succeeds_when_the_cards_break_the_rules(tmp_path):
    done = _make_demo(tmp_path, 3)
    assert done.returncode == 0, done.stderr
    assert "Totals: Ann 515" in done.stdout and "exit status 3" in done.stdout


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
@pytest.mark.parametrize("status", [1, 2])
def test_make_demo_fails_when_the_demo_could_not_run(tmp_path, status):
    done = _make_demo(tmp_path, status)
    assert done.returncode != 0
    assert "Totals: Ann 515" in done.stdout


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_demo_passes_a_clean_run_through(tmp_path):
    done = _make_demo(tmp_path, 0)
    assert done.returncode == 0 and "exit status" not in done.stdout
