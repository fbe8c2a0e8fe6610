"""`handfoot dataset build` and `dataset rounds`: files ultralytics and the round parser can read."""

from __future__ import annotations

import json
from collections import Counter

import cv2
import pytest

from datasets.build import build_dataset
from datasets.decks import simple_deck
from datasets.scenes.rounds import build_rounds, plan_round, round_toml
from handfoot.cli import main
from scoring.detection_classes import CLASS_NAMES


@pytest.fixture(scope="module")
def deck():
    return simple_deck()


def test_build_command_writes_a_data_yaml_ultralytics_reads_and_320_tiles(tmp_path, simple_only):
    out = tmp_path / "set"
    assert main(["dataset", "build", "--out", str(out), "--images", "4", "--seed", "3", "--workers", "1", "--val-fraction", "0.25"]) == 0
    from vision.offline import prepare

    prepare()
    from ultralytics.data.utils import check_det_dataset

    data = check_det_dataset(str(out / "data.yaml"), autodownload=False)
    assert [data["names"][i] for i in range(len(CLASS_NAMES))] == list(CLASS_NAMES)
    tiles = sorted((out / "train" / "images").glob("*.jpg"))
    assert tiles
    for t in tiles[:10]:
        assert cv2.imread(str(t)).shape == (320, 320, 3)
        lab = out / "train" / "labels" / (t.stem + ".txt")
        for line in lab.read_text().split("\n"):
            if line:
                cls, *xywh = line.split()
                assert 0 <= int(cls) < len(CLASS_NAMES) and all(0 <= float(v) <= 1 for v in xywh)
    assert len(list((out / "val" / "images").glob("*.jpg"))) == 1
    assert len(list((out / "frames").glob("*.json"))) == 4
    summary = json.loads((out / "build.json").read_text())
    assert summary["train_tiles"] == len(tiles)


def test_build_is_byte_for_byte_reproducible_for_a_seed(tmp_path, deck):
    a = build_dataset(tmp_path / "a", 2, seed=5, decks=[deck], workers=1, val_fraction=0.0)
    b = build_dataset(tmp_path / "b", 2, seed=5, decks=[deck], workers=1, val_fraction=0.0)
    assert a["train_tiles"] == b["train_tiles"]
    files_a = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*.jpg"))
    assert files_a == sorted(p.relative_to(tmp_path / "b") for p in (tmp_path / "b").rglob("*.jpg"))
    for rel in files_a:
        assert (tmp_path / "a" / rel).read_bytes() == (tmp_path / "b" / rel).read_bytes()


def test_build_rejects_a_file_as_output_folder(tmp_path, capsys):
    f = tmp_path / "file"
    f.write_text("x")
    assert main(["dataset", "build", "--out", str(f), "--images", "1"]) == 2
    assert "not a folder" in capsys.readouterr().err


def test_planned_rounds_follow_their_preset_rules(tmp_path):
    import numpy as np

    from handfoot.roundfile import load_round
    from scoring.engine import score_round

    presets = set()
    for i in range(60):
        plan = plan_round(np.random.default_rng([2, i]), ["traditional", "remastered", "barefoot"])
        presets.add(plan.rules)
        path = tmp_path / f"r{i}.toml"
        path.write_text(round_toml(plan))
        spec = load_round(path)
        result = score_round(spec.rules, spec.round, spec.side_rounds())
        assert not result.has_error, [x.message for s in result.sides for x in s.findings]
        assert 1 <= len(spec.sides) <= 4
    assert len(presets) == 5


def test_rounds_write_round_files_whose_true_cards_match_the_photos(tmp_path, deck):
    from handfoot.roundfile import load_round

    build_rounds(tmp_path, 1, seed=4, decks=[deck])
    files = sorted(tmp_path.glob("round-*.toml"))
    assert [f.name for f in files] == ["round-001.toml"]
    spec = load_round(files[0])
    for side in spec.sides:
        assert len(side.table_photos) == 1
        truth = json.loads(side.table_photos[0].with_suffix(".json").read_text())
        seen = Counter(c["cls"] for c in truth["cards"])
        assert seen == Counter(x for meld in side.table for x in meld)
        assert all(c["corners"] and not c["face_down"] for c in truth["cards"])
        players = [cards for cards in side.leftover if cards]
        assert len(side.leftover_photos) == len(players)
        for photo, cards in zip(side.leftover_photos, players):
            truth = json.loads(photo.with_suffix(".json").read_text())
            assert Counter(c["cls"] for c in truth["cards"]) == Counter(cards)
            assert all(c["place"] == "leftover" and c["corners"] for c in truth["cards"])


def _scene(shown: list[bool]):
    import numpy as np

    from datasets.scenes.model import CardTruth, Scene

    cards = [CardTruth("7", False, "table", 0, [(0, 0)] * 4, [(0, 0, 5, 9)] if s else []) for s in shown]
    return Scene(np.zeros((4, 4, 3), np.uint8), [], cards, "table", "traditional")


def test_a_round_photo_is_taken_again_until_every_laid_card_is_in_it():
    # A layout wider than the frame is cropped: a column left wholly outside is no card of the photo,
    # while the round file counts it. Such a photo is taken again, as one hiding an index is.
    from datasets.scenes.rounds import _photograph

    renders = iter([_scene([True, True]), _scene([True, False, True]), _scene([True, True, True])])
    assert len(_photograph(lambda: next(renders), cards=3).cards) == 3
    # Where no photo shows every card, the one showing the most is kept, not the last one.
    renders = iter([_scene([True, True, True, False]), _scene([True, True])])
    kept = _photograph(lambda: next(renders), cards=5, tries=2)
    assert len(kept.cards) == 4


def test_round_decks_print_every_card_the_round_needs(deck):
    # A design whose joker index could not be found has no joker face: a round with a joker
    # must then be photographed with another design, never crash.
    import copy

    import numpy as np

    from datasets.scenes.rounds import _round_decks

    no_joker = copy.copy(deck)
    no_joker.name = "no-joker"
    no_joker.faces = {cls: faces for cls, faces in deck.faces.items() if cls != "JOKER"}
    for seed in range(20):
        used = _round_decks(np.random.default_rng(seed), [no_joker, deck], deck.family, {"JOKER", "K"})
        assert any(d.faces.get("JOKER") for d in used)
    with pytest.raises(ValueError, match="JOKER"):
        _round_decks(np.random.default_rng(0), [no_joker], deck.family, {"JOKER"})


def test_build_records_the_design_weights_it_drew_with(tmp_path, deck):
    summary = build_dataset(tmp_path / "w", 1, seed=5, decks=[deck], workers=1, val_fraction=0.0, design_weights={deck.name: 2.0})
    assert json.loads((tmp_path / "w" / "build.json").read_text())["design_weights"] == {deck.name: 2.0}
    assert summary["design_weights"] == {deck.name: 2.0}
    even = build_dataset(tmp_path / "e", 1, seed=5, decks=[deck], workers=1, val_fraction=0.0)
    assert even["design_weights"] == {}


@pytest.mark.parametrize("stored, warned", [(None, True), (False, True), (True, False)])
def test_rounds_command_warns_when_no_fetched_design_is_cached(tmp_path, capsys, simple_only, stored, warned):
    from datasets.decks.cache import save_deck

    cache = tmp_path / "decks"
    cache.mkdir()
    if stored is not None:  # a design in the cache, in the default mix or left out of it
        save_deck(cache, simple_deck(7), in_default_mix=stored)
    out = tmp_path / "rounds"
    assert main(["dataset", "rounds", "--out", str(out), "--rounds", "1", "--seed", "4", "--decks-cache", str(cache)]) == 0
    err = capsys.readouterr().err
    assert ("no fetched deck designs" in err) is warned
    assert (out / "round-001.toml").is_file()


def test_build_command_mixes_in_word_joker_decks_only_when_asked(tmp_path, monkeypatch, deck):
    import datasets.decks
    from datasets.decks import word_joker_names

    words = [simple_deck(5000 + i, word_joker=True) for i in range(2)]
    asked = []

    def load(cache=None, word_jokers=False, **kw):
        asked.append(word_jokers)
        return [deck] + (words if word_jokers else [])

    monkeypatch.setattr(datasets.decks, "load_decks", load)
    drawn = {}
    for flag in ("--word-jokers", "--no-word-jokers"):
        out = tmp_path / flag
        assert main(["dataset", "build", "--out", str(out), "--images", "4", "--seed", "3", "--workers", "1", "--val-fraction", "0", flag]) == 0
        summary = json.loads((out / "build.json").read_text())
        assert summary["word_jokers"] == (flag == "--word-jokers")
        drawn[flag] = {card["deck"] for f in (out / "frames").glob("*.json") for card in json.loads(f.read_text())["cards"]}
    assert asked == [True, False]
    assert json.loads((tmp_path / "--word-jokers" / "build.json").read_text())["design_weights"] == {name: 2.0 for name in word_joker_names()}
    assert drawn["--word-jokers"] & {w.name for w in words}
    assert drawn["--no-word-jokers"] == {deck.name}
