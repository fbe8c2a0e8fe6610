"""The wild reader: a Remastered wild's corner is named 20 or 50 by a small network's look at its crop."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from handfoot.photo_round import name_wilds
from vision.detection import Detection
from vision.errors import ModelError
from vision.wild_reader import (
    CROP,
    DEFAULT_WILD_WEIGHTS,
    WildReader,
    crop_index,
    load_wild_reader,
    save_wild_reader,
    wild_net,
)

from ink_photos import RIGHT, draw_foot_wild, two_cards


class _Says(torch.nn.Module):
    """A stand-in network: calls every crop a 50 (or a 20), and counts what it was shown."""

    def __init__(self, fifty: bool) -> None:
        super().__init__()
        self.fifty = fifty
        self.shown = 0

    def forward(self, x):
        self.shown += len(x)
        logits = torch.zeros(len(x), 2)
        logits[:, 1 if self.fifty else 0] = 5.0
        return logits


def _photo() -> np.ndarray:
    img = np.full((200, 300, 3), 230, np.uint8)
    img[50:70, 100:110] = (40, 40, 200)  # an index 10 x 20 px
    return img


def test_a_crop_is_a_square_centred_on_the_box_with_a_margin():
    crop = crop_index(_photo(), (100, 50, 110, 70))
    assert crop.shape == (CROP, CROP, 3)
    # the box's long side (20 px) times 1.3 fills the crop: the red index spans the middle 1/1.3 of its height
    red_rows = np.where((crop[:, :, 2] > 150) & (crop[:, :, 0] < 120))[0]
    assert abs(red_rows.min() - CROP * 0.15 / 1.3) <= 2 and abs(red_rows.max() + 1 - CROP * 1.15 / 1.3) <= 2
    red_cols = np.where((crop[CROP // 2, :, 2] > 150) & (crop[CROP // 2, :, 0] < 120))[0]
    assert abs((red_cols.min() + red_cols.max() + 1) / 2 - CROP / 2) <= 1.5


def test_a_crop_past_the_photos_edge_repeats_the_border_instead_of_failing():
    crop = crop_index(_photo(), (-5, -5, 15, 25))
    assert crop.shape == (CROP, CROP, 3) and crop.min() > 0


def test_the_reader_renames_wilds_only_and_merges_a_box_renamed_onto_its_twin():
    dets = [Detection("WILD20", 0.8, (100, 50, 110, 70)), Detection("WILD50", 0.6, (101, 50, 111, 70)),
            Detection("8", 0.9, (10, 10, 20, 30)), Detection("WILD20", 0.7, (200, 100, 210, 120))]
    net = _Says(fifty=True)
    out = WildReader(net).read(_photo(), dets)
    assert net.shown == 3  # the 8 is never looked at
    assert sorted((d.cls, d.conf) for d in out) == [("8", 0.9), ("WILD50", 0.7), ("WILD50", 0.8)]


def test_the_reader_leaves_a_photo_without_wilds_or_colour_as_it_is():
    dets = [Detection("8", 0.9, (10, 10, 20, 30))]
    assert WildReader(_Says(True)).read(_photo(), dets) == dets
    grey = _photo()[:, :, 0]
    wild = [Detection("WILD20", 0.8, (100, 50, 110, 70))]
    assert WildReader(_Says(True)).read(grey, wild) == wild


def test_name_wilds_asks_the_reader_for_the_standard_family_and_the_ink_for_bare_foot(monkeypatch):
    import handfoot.photo_round as photo_round

    monkeypatch.setattr(photo_round, "shipped_wild_reader", lambda: WildReader(_Says(fifty=True)))
    dets = [Detection("WILD20", 0.8, (100, 50, 110, 70))]
    assert [d.cls for d in name_wilds(_photo(), dets, "standard")] == ["WILD50"]
    assert name_wilds(_photo(), dets, "standard", wilds=False) == dets
    # a Bare Foot wild keeps to its ink: the right one is printed red, so it is the 50, whatever a reader says
    monkeypatch.setattr(photo_round, "shipped_wild_reader", lambda: WildReader(_Says(fifty=False)))
    foot = two_cards((190, 90, 30), (30, 30, 200), draw_foot_wild)
    assert [d.cls for d in name_wilds(foot, [Detection("WILD20", 0.8, RIGHT)], "barefoot")] == ["WILD50"]


def test_weights_round_trip_and_bad_files_are_named(tmp_path):
    net = wild_net()
    path = save_wild_reader(net, tmp_path / "w" / "wilds.pt", {"note": "test"})
    loaded = load_wild_reader(path)
    x = torch.randn(2, 3, CROP, CROP)
    assert torch.allclose(loaded.net(x), net.eval()(x))
    with pytest.raises(ModelError, match="not found"):
        load_wild_reader(tmp_path / "none.pt")
    bad = tmp_path / "bad.pt"
    bad.write_bytes(b"not a checkpoint")
    with pytest.raises(ModelError, match="cannot load wild reader weights"):
        load_wild_reader(bad)


@pytest.fixture(scope="module")
def remastered_frames(tmp_path_factory):
    """Ten generated scenes of the six drawn Remastered decks (a seed no training build used)."""
    from datasets.build import build_dataset
    from datasets.decks.procedural import remastered_deck

    out = tmp_path_factory.mktemp("remastered")
    build_dataset(out, 10, seed=9101, decks=[remastered_deck(v) for v in range(6)], workers=1, val_fraction=0.0)
    return out


# Measured: the shipped reader names 0.94 of these frames' 78 true wild corners right (models/README.md);
# the detector alone named about half of the held-out rounds' Remastered wild corners right.
SHIPPED_WILD_FLOOR = 0.85


def test_the_shipped_reader_names_generated_remastered_wilds(remastered_frames):
    if not DEFAULT_WILD_WEIGHTS.is_file():
        pytest.skip("models/wilds.pt not present")
    from vision.wild_training import wild_crops

    data = wild_crops([remastered_frames], jittered=0)
    reader = load_wild_reader()
    with torch.no_grad():
        from vision.wild_reader import as_batch

        named = reader.net(as_batch(data.crops)).argmax(1).numpy()
    assert len(data) >= 20
    assert (named == data.fifty).mean() >= SHIPPED_WILD_FLOOR


def test_train_wilds_writes_a_reader_that_loads(remastered_frames, tmp_path, capsys):
    from handfoot.cli import main

    out = tmp_path / "wilds.pt"
    assert main(["train-wilds", str(remastered_frames), "--out", str(out), "--epochs", "1", "--jittered", "0"]) == 0
    assert "held-out accuracy" in capsys.readouterr().out
    reader = load_wild_reader(out)
    assert reader.size == CROP
    assert main(["train-wilds", str(tmp_path), "--out", str(out)]) != 0
    assert "no frames/ folder" in " ".join(capsys.readouterr().err.split())


def test_a_damaged_shipped_reader_is_named_not_silently_skipped(monkeypatch, tmp_path):
    import vision.wild_reader as wild_reader

    bad = tmp_path / "wilds.pt"
    bad.write_bytes(b"truncated")
    monkeypatch.setattr(wild_reader, "DEFAULT_WILD_WEIGHTS", bad)
    wild_reader.shipped_wild_reader.cache_clear()
    try:
        with pytest.raises(ModelError, match="cannot load wild reader weights"):
            name_wilds(_photo(), [Detection("WILD20", 0.8, (100, 50, 110, 70))], "standard")
        # without one (a checkout that has not trained it) the detector's names stand
        monkeypatch.setattr(wild_reader, "DEFAULT_WILD_WEIGHTS", tmp_path / "absent.pt")
        wild_reader.shipped_wild_reader.cache_clear()
        dets = [Detection("WILD20", 0.8, (100, 50, 110, 70))]
        assert name_wilds(_photo(), dets, "standard") == dets
    finally:
        wild_reader.shipped_wild_reader.cache_clear()
