"""The second-look readers: a Remastered wild's corner is named 20 or 50, a Bare Foot wild's or clothing
card's 20, 50, sock or shoe, and a standard natural's rank (where the reader is sure), by a small network's
look at its crop."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch
from ink_photos import LEFT, RIGHT, draw_foot_wild, draw_three, two_cards

from vision.detection import Detection
from vision.errors import ModelError
from vision.pipe import name_wilds
from vision.wild_reader import (
    CROP,
    FOOT_SPECIALS,
    NO_TURNS,
    ONE_VIEW,
    RANKS,
    READERS,
    WILD_TURNS,
    WILD_VIEWS,
    WildReader,
    crop_index,
    load_wild_reader,
    net_width,
    save_wild_reader,
    wild_net,
)


class _Says(torch.nn.Module):
    """A stand-in network of `outputs` classes: calls every crop its class `pick` (for two classes,
    True: a 50, False: a 20) with a logit of `sure` over the others' 0 (or the logits `also` gives
    some of them), and counts what it was shown."""

    def __init__(self, pick: int, outputs: int = 2, sure: float = 5.0, also: dict[int, float] | None = None) -> None:
        super().__init__()
        self.pick = int(pick)
        self.outputs = outputs
        self.sure = sure
        self.also = also or {}
        self.shown = 0

    def forward(self, x):
        self.shown += len(x)
        logits = torch.zeros(len(x), self.outputs)
        for k, logit in self.also.items():
            logits[:, k] = logit
        logits[:, self.pick] = self.sure
        return logits


def _readers(monkeypatch, **by_kind) -> None:
    """The product's shipped readers replaced by these (keyword: the kind with '_' for '-'); others absent."""
    import vision.pipe as pipe

    monkeypatch.setattr(pipe, "shipped_reader", lambda kind: by_kind.get(kind.replace("-", "_")))


def _rank_reader(rank: str, sure: float = 5.0, also: dict[str, float] | None = None) -> WildReader:
    """The rank reader's rules over a stand-in network reading `rank` at logit `sure` (`also`: other
    ranks' logits, 0 for the rest)."""
    spec = READERS["ranks"]
    net = _Says(RANKS.index(rank), len(RANKS), sure, {RANKS.index(r): v for r, v in (also or {}).items()})
    return WildReader(
        net,
        classes=RANKS,
        min_odds=spec.min_odds,
        keep_within=spec.keep_within,
        unsure_conf=spec.unsure_conf,
        unsure_odds=spec.unsure_odds,
        lopsided=spec.lopsided,
        lopsided_odds=spec.lopsided_odds,
    )


def _photo() -> np.ndarray:
    img = np.full((200, 300, 3), 230, np.uint8)
    img[50:70, 100:110] = (40, 40, 200)  # an index 10 x 20 px
    img[100:120, 200:210] = (40, 40, 200)  # and another
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
    dets = [
        Detection("WILD20", 0.8, (100, 50, 110, 70)),
        Detection("WILD50", 0.6, (101, 50, 111, 70)),
        Detection("8", 0.9, (10, 10, 20, 30)),
        Detection("WILD20", 0.7, (200, 100, 210, 120)),
    ]
    net = _Says(True)
    out = WildReader(net).read(_photo(), dets)
    assert net.shown == 3  # the 8 is never looked at
    assert sorted((d.cls, d.conf) for d in out) == [("8", 0.9), ("WILD50", 0.7), ("WILD50", 0.8)]


class _SureOnFirstView(torch.nn.Module):
    """A stand-in two-class network shown `views` crops a box: sure of a 50 on each box's first crop
    (logit 6), leaning to a 20 on the others (logit 0.5)."""

    def __init__(self, views: int) -> None:
        super().__init__()
        self.views = views

    def forward(self, x):
        logits = torch.zeros(len(x), 2)
        first = torch.arange(len(x)) % self.views == 0
        logits[first, 1] = 6.0
        logits[~first, 0] = 0.5
        return logits


def test_a_wild_is_named_by_its_odds_averaged_over_its_crops_not_by_one_crop_or_a_vote():
    boxes = [Detection("WILD20", 0.8, (100, 50, 110, 70)), Detection("WILD20", 0.7, (200, 100, 210, 120))]
    # two of each box's three crops lean to a 20 (the centred one among them), but the odds averaged over
    # the three favour the 50 the tightest crop is sure of
    out = WildReader(_SureOnFirstView(len(WILD_VIEWS)), views=WILD_VIEWS).read(_photo(), boxes)
    assert [d.cls for d in out] == ["WILD50", "WILD50"]


@pytest.mark.parametrize(
    ("kind", "views", "turns"), [("wilds", WILD_VIEWS, WILD_TURNS), ("foot-wilds", WILD_VIEWS, WILD_TURNS), ("ranks", ONE_VIEW, NO_TURNS)]
)
def test_the_shipped_wild_readers_read_three_crops_at_three_turns_and_the_rank_reader_one_upright(kind, views, turns):
    assert len(WILD_VIEWS) == 3 and ONE_VIEW == (1.0,) and len(WILD_TURNS) == 3 and NO_TURNS == (0.0,)
    if not READERS[kind].weights.is_file():
        pytest.skip(f"{READERS[kind].weights.name} not present")
    reader = load_wild_reader(kind=kind)
    assert (reader.views, reader.turns) == (views, turns)
    shown = _Says(0, len(reader.classes))
    reader.net = shown
    reader.read(_photo(), [Detection(reader.classes[-1], 0.3, (100, 50, 110, 70))])
    assert shown.shown == len(views) * len(turns)


def test_a_turned_crop_turns_the_index_about_the_boxs_centre():
    upright = crop_index(_photo(), (100, 50, 110, 70))
    turned = crop_index(_photo(), (100, 50, 110, 70), angle=90)
    red = lambda crop: (crop[:, :, 2] > 150) & (crop[:, :, 0] < 120)  # noqa: E731
    rows, cols = np.where(red(upright))
    assert np.ptp(rows) > 1.7 * np.ptp(cols)  # the 10 x 20 px index stands upright ...
    rows, cols = np.where(red(turned))
    assert np.ptp(cols) > 1.7 * np.ptp(rows)  # ... and lies on its side a quarter turn on
    assert abs(rows.mean() - CROP / 2) <= 1.5 and abs(cols.mean() - CROP / 2) <= 1.5


def test_wilds_laid_at_a_slant_are_read_right_at_the_readers_turns():
    # four Remastered wilds from held-out round photos, on cards laid at a slant; each box named the wrong
    # value, as the detector did. Read upright alone, the reader before the sixty-sixth session kept two of
    # them wrong; the one trained with grey crops too reads them right either way (its turns still pay on
    # the round sets' wilds: models/README.md, "Wilds in grey photos").
    if not READERS["wilds"].weights.is_file():
        pytest.skip("wilds.pt not present")
    import cv2  # noqa: PLC0415

    here = Path(__file__).parent
    image = cv2.imread(str(here / "slanted_wilds.jpg"))
    truth = json.loads((here / "slanted_wilds.json").read_text())
    boxes = [Detection("WILD20" if t["cls"] == "WILD50" else "WILD50", 0.6, tuple(t["box"])) for t in truth]
    reader = load_wild_reader(kind="wilds")
    turned = reader.view_odds(image, boxes)
    assert [d.cls for d in reader.read(image, boxes)] == [t["cls"] for t in truth]
    true = [reader.classes.index(t["cls"]) for t in truth]
    assert all(turned[k, c] >= 0.6 for k, c in enumerate(true))  # sure of each, not a coin's toss


def test_a_box_on_blank_paper_keeps_the_detectors_name():
    dets = [Detection("WILD20", 0.8, (100, 50, 110, 70)), Detection("WILD20", 0.7, (150, 150, 160, 170))]
    out = WildReader(_Says(True)).read(_photo(), dets)  # the second box shows no ink at all
    assert [(d.cls, d.box) for d in out] == [("WILD50", dets[0].box), ("WILD20", dets[1].box)]


def test_the_reader_leaves_a_photo_without_wilds_or_colour_as_it_is():
    dets = [Detection("8", 0.9, (10, 10, 20, 30))]
    assert WildReader(_Says(True)).read(_photo(), dets) == dets
    grey = _photo()[:, :, 0]
    wild = [Detection("WILD20", 0.8, (100, 50, 110, 70))]
    assert WildReader(_Says(True)).read(grey, wild) == wild


def test_name_wilds_asks_the_reader_for_the_standard_family_and_the_ink_for_bare_foot(monkeypatch):
    _readers(monkeypatch, wilds=WildReader(_Says(True)))
    dets = [Detection("WILD20", 0.8, (100, 50, 110, 70))]
    assert [d.cls for d in name_wilds(_photo(), dets, "standard")] == ["WILD50"]
    assert name_wilds(_photo(), dets, "standard", wilds=False) == dets
    # a Bare Foot wild keeps to its ink: the right one is printed red, so it is the 50, whatever the
    # Remastered reader would say (and with no Bare Foot reader present)
    _readers(monkeypatch, wilds=WildReader(_Says(False)))
    foot = two_cards((190, 90, 30), (30, 30, 200), draw_foot_wild)
    assert [d.cls for d in name_wilds(foot, [Detection("WILD20", 0.8, RIGHT)], "barefoot")] == ["WILD50"]


def test_bare_foot_boxes_are_named_by_the_foot_reader_then_their_wilds_by_ink(monkeypatch):
    foot = two_cards((190, 90, 30), (30, 30, 200), draw_foot_wild)  # left printed blue, right red
    dets = [Detection("WILD50", 0.8, LEFT), Detection("8", 0.9, (10, 10, 20, 30))]
    sock = WildReader(_Says(FOOT_SPECIALS.index("SOCK"), 4), classes=FOOT_SPECIALS)
    _readers(monkeypatch, foot_wilds=sock)
    # the reader's sock stands (the ink names wilds only); the 8 is never looked at
    assert sorted(d.cls for d in name_wilds(foot, dets, "barefoot")) == ["8", "SOCK"]
    assert sock.net.shown == 1
    # a box the reader calls a wild is then named by its ink where the ink is clear: blue is the 20
    fifty = WildReader(_Says(FOOT_SPECIALS.index("WILD50"), 4), classes=FOOT_SPECIALS)
    _readers(monkeypatch, foot_wilds=fifty)
    assert sorted(d.cls for d in name_wilds(foot, [Detection("SHOE", 0.7, LEFT)], "barefoot")) == ["WILD20"]
    # without the readers (eval-rounds --no-readers) a shoe stays a shoe
    assert [d.cls for d in name_wilds(foot, [Detection("SHOE", 0.7, LEFT)], "barefoot", wilds=False)] == ["SHOE"]


def test_the_rank_reader_renames_a_natural_only_where_it_is_sure_and_never_a_threes_colour():
    five = [Detection("5", 0.8, (100, 50, 110, 70))]
    assert [d.cls for d in _rank_reader("9").read(_photo(), five)] == ["9"]
    assert _rank_reader("9", sure=1.0).read(_photo(), five) == five  # odds of about 0.17: not sure enough
    black = [Detection("3B", 0.8, (100, 50, 110, 70))]
    assert _rank_reader("3R").read(_photo(), black) == black  # the ink names a 3's colour
    assert [d.cls for d in _rank_reader("5").read(_photo(), black)] == ["5"]
    reader = _rank_reader("9")
    wild = [Detection("WILD20", 0.8, (100, 50, 110, 70))]
    assert reader.read(_photo(), wild) == wild and reader.net.shown == 0


def test_the_rank_reader_needs_less_sureness_to_rename_a_natural_the_detector_was_unsure_of():
    unsure = [Detection("8", 0.3, (100, 50, 110, 70))]
    sure = [Detection("8", 0.7, (100, 50, 110, 70))]
    # odds of about 0.69: under RANK_MIN_ODDS, over RANK_UNSURE_ODDS; the 8 keeps a twelfth of them
    reader = _rank_reader("6", sure=3.5, also={"8": 1.0})
    assert [d.cls for d in reader.read(_photo(), unsure)] == ["6"]
    assert reader.read(_photo(), sure) == sure
    assert _rank_reader("6", sure=1.0).read(_photo(), unsure) == unsure  # odds of about 0.17: still not enough
    black = [Detection("3B", 0.3, (100, 50, 110, 70))]
    assert _rank_reader("3R", sure=3.0).read(_photo(), black) == black  # nor a 3's colour


def test_the_rank_reader_renames_a_sure_natural_whose_rank_its_crop_rules_out():
    sure_four = [Detection("4", 0.6, (100, 50, 110, 70))]
    # an A at odds of about 0.40 (under RANK_MIN_ODDS), the detector's 4 at 0.005: 80 times less likely
    ruled_out = _rank_reader("A", sure=3.0, also={"4": -1.4, "Q": 2.5, "K": 2.0})
    assert [d.cls for d in ruled_out.read(_photo(), sure_four)] == ["A"]
    # the same A where the 4 keeps a fifth of the A's odds: the detector's name stands
    kept = _rank_reader("A", sure=3.0, also={"4": 1.4, "Q": 2.5, "K": 2.0})
    assert kept.read(_photo(), sure_four) == sure_four
    # nor at odds under RANK_LOPSIDED_ODDS, however lopsided: a crop the reader cannot read
    blur = _rank_reader("A", sure=1.0, also={"4": -4.0, "Q": 0.9, "K": 0.9, "J": 0.9, "10": 0.9})
    assert blur.read(_photo(), sure_four) == sure_four
    # and never a 3's colour (the ink names that)
    black = [Detection("3B", 0.6, (100, 50, 110, 70))]
    assert _rank_reader("3R", sure=3.0, also={"3B": -2.0, "Q": 2.5}).read(_photo(), black) == black


def test_a_box_the_rank_reader_makes_a_three_is_coloured_by_its_ink(monkeypatch):
    photo = two_cards((25, 25, 25), (30, 30, 200), draw_three)  # left printed black, right red
    _readers(monkeypatch, ranks=_rank_reader("3R"))
    dets = [Detection("5", 0.8, LEFT), Detection("5", 0.7, RIGHT)]
    assert sorted((d.box, d.cls) for d in name_wilds(photo, dets, "standard")) == [(LEFT, "3B"), (RIGHT, "3R")]
    assert name_wilds(photo, dets, "standard", wilds=False) == dets
    assert name_wilds(photo, dets, "barefoot") == dets  # Bare Foot numbers are not its to read


def test_in_a_photo_of_hands_a_threes_colour_is_the_rank_readers_unless_the_ink_is_clear(monkeypatch):
    grey = two_cards((25, 25, 25), (25, 25, 25), draw_three)[:, :, :1].repeat(3, axis=2)  # the ink says nothing
    red = [Detection("3R", 0.8, LEFT)]
    _readers(monkeypatch, ranks=_rank_reader("3B"))  # odds of about 0.92
    assert name_wilds(grey, red, "standard") == red  # on the table a 3 keeps its colour
    assert [d.cls for d in name_wilds(grey, red, "standard", hands=True)] == ["3B"]  # in a hand the reader's stands
    assert name_wilds(grey, red, "standard", wilds=False, hands=True) == red  # --no-readers
    _readers(monkeypatch, ranks=_rank_reader("3B", sure=2.0))  # odds of about 0.36: under HAND_THREE_ODDS
    assert name_wilds(grey, red, "standard", hands=True) == red
    # clear ink has the last word: a 3 printed red stays red whatever the reader reads
    _readers(monkeypatch, ranks=_rank_reader("3B"))
    inked = two_cards((25, 25, 25), (30, 30, 200), draw_three)  # left printed black, right red
    assert [d.cls for d in name_wilds(inked, [Detection("3R", 0.8, RIGHT)], "standard", hands=True)] == ["3R"]
    # a twin box of the new colour merges with the recoloured one
    twins = [Detection("3R", 0.8, LEFT), Detection("3B", 0.5, LEFT)]
    assert [(d.cls, d.conf) for d in name_wilds(grey, twins, "standard", hands=True)] == [("3B", 0.8)]


def test_a_leftover_photo_is_named_as_hands_and_a_table_photo_is_not(monkeypatch, tmp_path):
    import cv2

    import vision.pipe as pipe

    path = tmp_path / "photo.jpg"
    cv2.imwrite(str(path), _photo())
    asked = []
    monkeypatch.setattr(pipe, "name_wilds", lambda image, dets, family, wilds, hands, unsure: asked.append(hands) or dets)
    for role in (pipe.LEFTOVER, pipe.TABLE):
        pipe.read(path, role, pipe.Settings(detect=lambda image: [], jokers=False))
    assert asked == [True, False]


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


def test_a_wider_reader_loads_as_wide_as_it_was_trained(tmp_path):
    wide = wild_net(len(RANKS), width=2)
    assert sum(p.numel() for p in wide.parameters()) > 3 * sum(p.numel() for p in wild_net(len(RANKS)).parameters())
    loaded = load_wild_reader(save_wild_reader(wide, tmp_path / "ranks.pt", {}, RANKS), "ranks")
    x = torch.randn(3, 3, CROP, CROP)
    assert torch.allclose(loaded.net(x), wide.eval()(x))


def test_a_reader_of_other_classes_is_refused_by_name(tmp_path):
    foot = save_wild_reader(wild_net(len(FOOT_SPECIALS)), tmp_path / "foot.pt", {}, FOOT_SPECIALS)
    assert load_wild_reader(foot, "foot-wilds").classes == FOOT_SPECIALS
    with pytest.raises(ModelError, match="SOCK"):
        load_wild_reader(foot)  # a Remastered reader is asked for


def _generated(tmp_path_factory, name: str, seed: int, deck) -> Path:
    """Ten generated scenes of the six drawn decks `deck(0..5)` (a seed no training build used)."""
    from datasets.build import build_dataset

    out = tmp_path_factory.mktemp(name)
    build_dataset(out, 10, seed=seed, decks=[deck(v) for v in range(6)], workers=1, val_fraction=0.0)
    return out


@pytest.fixture(scope="module")
def remastered_frames(tmp_path_factory):
    from datasets.decks.procedural import remastered_deck

    return _generated(tmp_path_factory, "remastered", 9101, remastered_deck)


@pytest.fixture(scope="module")
def barefoot_frames(tmp_path_factory):
    from datasets.decks.procedural import barefoot_deck

    return _generated(tmp_path_factory, "barefoot", 9102, barefoot_deck)


# Measured (models/README.md): the shipped wild reader names 0.96 of its frames' 78 true wild corners
# right, one crop each (0.94 before the sixty-sixth session; the detector alone named about half of the
# held-out rounds' Remastered wild corners right); the Bare Foot reader all 56 of its frames' (the detector
# alone 0.56 of `dev11`'s Bare Foot sock corners).
SHIPPED_FLOORS = {"wilds": ("remastered_frames", 0.85), "foot-wilds": ("barefoot_frames", 0.85)}
# ... and turned grey, its 78 wild corners (one crop each): 0.923 for the reader trained with grey crops
# (sixty-sixth session), 0.859 for the one before it
SHIPPED_GREY_FLOOR = 0.9


@pytest.mark.parametrize("kind", sorted(SHIPPED_FLOORS))
def test_a_shipped_reader_names_generated_corners_of_its_classes(kind, request):
    frames, floor = SHIPPED_FLOORS[kind]
    if not READERS[kind].weights.is_file():
        pytest.skip(f"{READERS[kind].weights.name} not present")
    from training.wilds import wild_crops
    from vision.wild_reader import as_batch

    data = wild_crops([request.getfixturevalue(frames)], jittered=0, reader=kind)
    reader = load_wild_reader(kind=kind)
    with torch.no_grad():
        named = reader.net(as_batch(data.crops)).argmax(1).numpy()
    assert len(data) >= 20
    assert (named == data.labels).mean() >= floor


def test_the_shipped_wild_reader_names_generated_wilds_photographed_in_grey(remastered_frames):
    """A Remastered wild prints its value, so a grey photo (a webcam's night mode) must not fool the reader."""
    if not READERS["wilds"].weights.is_file():
        pytest.skip("models/wilds.pt not present")
    from training.reader_net import greyed
    from training.wilds import wild_crops
    from vision.wild_reader import as_batch

    data = wild_crops([remastered_frames], jittered=0, reader="wilds")
    grey = greyed(data.crops, np.random.default_rng(0), 1.0)
    with torch.no_grad():
        named = load_wild_reader(kind="wilds").net(as_batch(grey)).argmax(1).numpy()
    assert (named == data.labels).mean() >= SHIPPED_GREY_FLOOR


def test_greyed_turns_about_its_share_of_crops_grey_and_leaves_the_rest():
    from training.reader_net import greyed

    crops = np.random.default_rng(1).integers(0, 256, (400, 8, 8, 3), dtype=np.uint8)
    assert greyed(crops, np.random.default_rng(0), 0.0) is crops
    half = greyed(crops, np.random.default_rng(0), 0.5)
    flat = (half.max(axis=3) == half.min(axis=3)).all(axis=(1, 2))
    assert 150 < flat.sum() < 250  # about half, at random
    assert (half[~flat] == crops[~flat]).all()  # the others untouched
    assert np.abs(half[flat, ..., 0].astype(int) - crops[flat].mean(axis=3)).max() <= 0.5  # the channels' mean
    every = greyed(crops, np.random.default_rng(0), 1.0)
    assert (every.max(axis=3) == every.min(axis=3)).all()


# Measured: of these frames' 206 true rank corners the shipped rank reader (width 2, forty-fifth session) is
# sure (RANK_MIN_ODDS) of 202 and names all 202 right (the width-1 reader before it: 204 and 204).
SHIPPED_RANK_SURE_FLOOR, SHIPPED_RANK_RIGHT_FLOOR = 0.8, 0.97


def test_the_shipped_rank_reader_names_generated_ranks_right_where_it_is_sure(remastered_frames):
    if not READERS["ranks"].weights.is_file():
        pytest.skip("models/ranks.pt not present")
    from training.wilds import wild_crops

    data = wild_crops([remastered_frames], jittered=0, reader="ranks")
    reader = load_wild_reader(kind="ranks")
    odds = reader.odds_of(data.crops)
    sure, named = odds.max(axis=1) >= reader.min_odds, odds.argmax(axis=1)
    assert len(data) >= 100
    assert sure.mean() >= SHIPPED_RANK_SURE_FLOOR
    assert (named[sure] == data.labels[sure]).mean() >= SHIPPED_RANK_RIGHT_FLOOR


def test_train_wilds_writes_a_reader_that_loads(remastered_frames, tmp_path, capsys):
    from handfoot.cli import main

    out = tmp_path / "wilds.pt"
    assert main(["train-wilds", str(remastered_frames), "--out", str(out), "--epochs", "1", "--jittered", "0"]) == 0
    assert "held-out accuracy" in capsys.readouterr().out
    reader = load_wild_reader(out)
    assert reader.size == CROP and net_width(reader.net) == 1
    # the wild readers learn from grey crops too, as shipped, unless told otherwise; the rank reader never by default
    assert torch.load(out, weights_only=False)["facts"]["grey"] == READERS["wilds"].grey > 0 == READERS["ranks"].grey
    assert main(["train-wilds", str(remastered_frames), "--out", str(out), "--epochs", "1", "--jittered", "0", "--grey", "0"]) == 0
    assert torch.load(out, weights_only=False)["facts"]["grey"] == 0
    assert main(["train-wilds", str(tmp_path), "--out", str(out)]) != 0
    assert "neither a frames/ folder nor round photos" in " ".join(capsys.readouterr().err.split())


def test_round_photos_give_the_same_crops_as_frames_and_hold_out_whole_rounds(remastered_frames, tmp_path, capsys):
    import shutil

    from handfoot.cli import main
    from training.wilds import wild_crops

    frames = sorted((remastered_frames / "frames").glob("img-*.json"))
    for k, frame in enumerate(frames, start=1):  # each frame as the table photo of its own round
        for ext in (".json", ".jpg"):
            shutil.copy(frame.with_suffix(ext), tmp_path / f"round-{k:03d}-side1-table{ext}")
    from_frames = wild_crops([remastered_frames], jittered=0, reader="ranks")
    from_rounds = wild_crops([tmp_path], jittered=0, reader="ranks")
    assert sorted(from_rounds.labels.tolist()) == sorted(from_frames.labels.tolist())
    last = json.loads(frames[-1].read_text())
    in_last_round = sum(len(c["corners"]) for c in last["cards"] if c["cls"] in RANKS and not c["face_down"])
    assert in_last_round > 0 and from_rounds.held_out.sum() == in_last_round  # round 10 is held out, whole
    out = tmp_path / "ranks.pt"
    assert main(["train-wilds", str(tmp_path), "--reader", "ranks", "--out", str(out), "--epochs", "1", "--jittered", "0"]) == 0
    trained = load_wild_reader(out, "ranks")
    assert trained.classes == RANKS and net_width(trained.net) == 2  # as wide as the shipped rank reader
    assert net_width(load_wild_reader(None, "ranks").net) == 2


def test_train_wilds_trains_on_from_given_weights_and_keeps_their_width(remastered_frames, tmp_path, capsys):
    import torch

    from handfoot.cli import main

    first, on, fresh = tmp_path / "first.pt", tmp_path / "on.pt", tmp_path / "fresh.pt"
    base = ["train-wilds", str(remastered_frames), "--reader", "ranks", "--epochs", "1", "--jittered", "0"]
    assert main([*base, "--out", str(first), "--width", "1"]) == 0
    assert main([*base, "--out", str(on), "--start", str(first), "--lr", "1e-6"]) == 0
    assert main([*base, "--out", str(fresh), "--width", "1", "--seed", "1", "--lr", "1e-6"]) == 0
    weights = [dict(load_wild_reader(p, "ranks").net.named_parameters()) for p in (first, on, fresh)]
    assert net_width(load_wild_reader(on, "ranks").net) == 1  # the start's width, not the rank reader's 2

    def apart(a, b) -> float:
        # learnt weights (not the norms' running means)
        return max(float((a[k] - b[k]).detach().abs().max()) for k in a)

    assert apart(weights[0], weights[1]) < 0.01 < apart(weights[0], weights[2])  # a tiny rate stays near its start
    assert torch.load(on, weights_only=True)["facts"]["start"] == str(first)
    capsys.readouterr()
    assert main([*base, "--out", str(on), "--start", str(tmp_path / "none.pt")]) != 0
    assert "weights not found" in " ".join(capsys.readouterr().err.split())


def test_train_wilds_for_bare_foot_writes_a_reader_of_its_four_classes(barefoot_frames, tmp_path, capsys):
    from handfoot.cli import main

    out = tmp_path / "foot.pt"
    args = ["train-wilds", str(barefoot_frames), "--reader", "foot-wilds", "--out", str(out), "--epochs", "1", "--jittered", "0"]
    assert main(args) == 0
    assert "SOCK" in capsys.readouterr().out  # the crops per class are counted
    assert load_wild_reader(out, "foot-wilds").classes == FOOT_SPECIALS
    assert main(["train-wilds", str(barefoot_frames), "--reader", "bicycle", "--out", str(out)]) != 0
    assert "unknown --reader 'bicycle'" in " ".join(capsys.readouterr().err.split())


def test_a_damaged_shipped_reader_is_named_not_silently_skipped(monkeypatch, tmp_path):
    import dataclasses

    import vision.wild_reader as wild_reader

    def ship(weights) -> None:
        monkeypatch.setitem(wild_reader.READERS, "wilds", dataclasses.replace(READERS["wilds"], weights=weights))
        wild_reader.shipped_reader.cache_clear()

    bad = tmp_path / "wilds.pt"
    bad.write_bytes(b"truncated")
    try:
        ship(bad)
        with pytest.raises(ModelError, match="cannot load wild reader weights"):
            name_wilds(_photo(), [Detection("WILD20", 0.8, (100, 50, 110, 70))], "standard")
        # without one (a checkout that has not trained it) the detector's names stand
        ship(tmp_path / "absent.pt")
        dets = [Detection("WILD20", 0.8, (100, 50, 110, 70))]
        assert name_wilds(_photo(), dets, "standard") == dets
    finally:
        wild_reader.shipped_reader.cache_clear()
