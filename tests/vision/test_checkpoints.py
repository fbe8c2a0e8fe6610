"""Second-look networks' files: written whole, and a missing, damaged or foreign one named."""

from __future__ import annotations

import pytest

from vision.checkpoints import load_checkpoint, save_checkpoint
from vision.errors import ModelError


def _build(saved: dict) -> int:
    if saved.get("kind") != "test":
        raise ValueError(f"its kind is {saved.get('kind')}")
    return saved["value"]


def test_a_checkpoint_round_trips_and_leaves_no_temporary_file(tmp_path):
    path = save_checkpoint({"kind": "test", "value": 7}, tmp_path / "deep" / "net.pt")
    assert load_checkpoint(path, "test net", "handfoot train-test", _build) == 7
    assert sorted(p.name for p in path.parent.iterdir()) == ["net.pt"]


def test_missing_damaged_and_foreign_files_are_named_with_the_command_that_trains_one(tmp_path):
    with pytest.raises(ModelError, match=r"test net weights not found: .*none\.pt \(train them with `handfoot x`\)"):
        load_checkpoint(tmp_path / "none.pt", "test net", "handfoot x", _build)
    bad = tmp_path / "bad.pt"
    bad.write_bytes(b"not a checkpoint")
    with pytest.raises(ModelError, match="cannot load test net weights"):
        load_checkpoint(bad, "test net", "handfoot x", _build)
    foreign = save_checkpoint({"kind": "other"}, tmp_path / "foreign.pt")
    with pytest.raises(ModelError, match="its kind is other"):
        load_checkpoint(foreign, "test net", "handfoot x", _build)
