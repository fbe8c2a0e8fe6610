"""Training the whole-card reader on generated scenes: which pairs become examples, and the command."""

from dataclasses import dataclass, field

import numpy as np
import pytest

from training.whole_cards import ONE_COPIES, scene_pair_crops
from vision.whole_cards import CROP_SIZE, load_whole_card_reader

TOP, BOTTOM, NEXT = (100.0, 100.0, 120.0, 134.0), (180.0, 220.0, 200.0, 254.0), (260.0, 340.0, 280.0, 374.0)
FAR = (10.0, 10.0, 30.0, 44.0)  # the K's other corner, 3.7 index sizes (of 34 px) from TOP
IMAGE = np.random.default_rng(0).integers(0, 255, (400, 400, 3), dtype=np.uint8)


@dataclass
class _Card:
    cls: str
    corners: list
    face_down: bool = False


@dataclass
class _Scene:
    cards: list = field(default_factory=list)
    image: np.ndarray = field(default_factory=lambda: IMAGE)


def _scene() -> _Scene:
    # an 8 showing both corners; a K beside it; a card face down (no corner of it is read)
    return _Scene([_Card("8", [TOP, BOTTOM]), _Card("K", [NEXT, FAR]), _Card("BACK", [(0, 0, 50, 70)], True)])


def test_every_pair_a_card_could_span_is_an_example_one_or_apart():
    data = scene_pair_crops([_scene(), _scene()], hold_out_every=2)
    assert data.crops.shape[1:] == (CROP_SIZE[1], CROP_SIZE[0], 3)
    # pairs within 1.4-7 index sizes: TOP-BOTTOM 4.2 (one card), BOTTOM-NEXT 4.2 and TOP-FAR 3.7 (two cards);
    # TOP-NEXT lies 8.5 apart, BOTTOM-FAR 7.9 and NEXT-FAR 12.2, so they are not read: 1 + ONE_COPIES ONE, 2 APART
    per_scene = {"APART": 2, "ONE": 1 + ONE_COPIES}
    assert data.counts() == {cls: 2 * n for cls, n in per_scene.items()}
    assert data.held_out.sum() == sum(per_scene.values())  # the first scene is kept back, the second is not


def test_train_whole_cards_renders_scenes_and_writes_a_reader_that_loads(tmp_path, capsys):
    from handfoot.cli import main

    out, cache = tmp_path / "whole.pt", tmp_path / "pairs"
    args = [
        "--scenes",
        "2",
        "--epochs",
        "1",
        "--cache",
        str(cache),
        "--out",
        str(out),
        "--decks-cache",
        str(tmp_path / "no-decks"),
    ]  # the built-in decks alone: quick to load
    assert main(["train-whole-cards", *args]) == 0
    said = capsys.readouterr().out
    assert "held-out accuracy" in said and load_whole_card_reader(out).size == CROP_SIZE
    assert [p.name for p in cache.iterdir()] == ["pairs-1-000000-2-s0.5.npz"]
    # a second run reuses the chunk it finds: the same crops, none rendered again
    before = cache.joinpath("pairs-1-000000-2-s0.5.npz").stat().st_mtime
    assert main(["train-whole-cards", *args]) == 0
    assert cache.joinpath("pairs-1-000000-2-s0.5.npz").stat().st_mtime == before
    assert said.splitlines()[0] == capsys.readouterr().out.splitlines()[0]


def test_a_file_of_another_reader_is_refused_by_name(tmp_path):
    from vision.errors import ModelError
    from vision.wild_reader import save_wild_reader, wild_net

    other = save_wild_reader(wild_net(2), tmp_path / "other.pt", {}, ("J", "JOKER"))
    with pytest.raises(ModelError, match="whole-card reader"):
        load_whole_card_reader(other)
    with pytest.raises(ModelError, match="train-whole-cards"):
        load_whole_card_reader(tmp_path / "missing.pt")
