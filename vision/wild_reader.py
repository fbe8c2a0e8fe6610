"""A second look at an index box: which of a few look-alikes (or, for ranks, which rank) is it?

Hand & Foot Remastered prints its wilds' value small (on four of our six drawn
decks, under a big W), so the detector, which sees an index at 10-50 px,
names the two alike and often wrongly: a 50 read as a 20 was the commonest
misread on the held-out rounds (models/README.md, "Wilds"). This module crops
every box the detector called one of a reader's classes from the photo at full
resolution, squares it, and lets a small network trained on nothing but these
crops (`training/wilds.py`, `handfoot train-wilds`) name it.

Four readers ship (`READERS`): the Remastered one (`models/wilds.pt`: a 20
or a 50) for the standard family; the Bare Foot one (`models/foot-wilds.pt`:
a blue 20, a red 50, a sock or a shoe), whose clothing cards print their
value in the wilds' place and colours (a blue sock "50" was read as a red
wild's 50); and the rank reader (`models/ranks.pt`: A to K and the two 3s)
for the standard family's naturals, which renames a box only where it is
sure (`min_odds`; `unsure_odds` where the detector was unsure, under
`unsure_conf`) or where its crop all but rules the detector's rank out
(another rank at `lopsided` times that rank's odds, and at least
`lopsided_odds`), and changes a 3's colour only where asked to, in a photo
of hands (`within_odds`; elsewhere the ink names that); and the joker-word
reader (`models/joker-words.pt`: a J or a joker), which reads a crop three
times a J box wide and is used by `vision/joker_words.py`'s `word_jokers`
(it learns from the detector's own J boxes, `training/joker_words.py`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from vision.checkpoints import load_checkpoint, save_checkpoint
from vision.detection import Detection, renamed

WILDS = ("WILD20", "WILD50")  # the Remastered reader's classes, in its output order
FOOT_SPECIALS = ("WILD20", "WILD50", "SOCK", "SHOE")  # the Bare Foot reader's
RANKS = ("A", "2", "3R", "3B", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")  # the rank reader's
MODELS = Path(__file__).resolve().parent.parent / "models"
CROP = 40  # px: each crop is scaled to CROP x CROP
MARGIN = 1.3  # the crop's side: this many times the box's longer side, centred on the box
# A box is renamed by the rank reader only where it gives its class at least these odds. On `dev11`
# (leg 24's boxes) a 10-epoch trial reader renamed 433 boxes at 0.8, 3 of them wrongly, and 673 at
# 0.5, 66 wrongly; the shipped one's exact sides there were flat from 0.6 to 0.9 (models/README.md), and so
# were the width-2 reader's of the forty-fifth session (0.7, 0.8, 0.9: 391, 390, 390 of 494).
RANK_MIN_ODDS = 0.8
# In a photo of hands, a 3 is given the colour the rank reader reads where that is its likeliest class at
# these odds or more (`WildReader.read`'s `within_odds`, from `vision.pipe.name_wilds`). Development
# rounds, three readings:
# `dev11` 343 -> 346 exact sides of 494, `dev12` 379 -> 384 of 510 (0.6: 345 and 384; 0.8: 343 and 383).
HAND_THREE_ODDS = 0.5
# Where the detector itself was unsure of a natural (its fused confidence under RANK_UNSURE_CONF), the rank
# reader renames it at RANK_UNSURE_ODDS already: on `dev11`'s cached boxes (four readings) that renamed 30 more
# boxes than RANK_MIN_ODDS alone, 28 of them to their true rank and 2 away from it (models/README.md, "The rank
# reader where the detector was unsure").
RANK_UNSURE_CONF = 0.4
RANK_UNSURE_ODDS = 0.6
# The rank reader also renames a natural where it finds another rank at least RANK_LOPSIDED times likelier
# than the detector's and at odds of RANK_LOPSIDED_ODDS or more, however sure the detector was: a crop that
# rules the detector's rank out. On `dev11`'s cached sure boxes (four readings) it renamed 15 more, 13 of
# them to their true rank and 1 away from it; exact sides 382 -> 384, none broken (models/README.md, "A rank
# the reader rules out").
RANK_LOPSIDED = 20.0
RANK_LOPSIDED_ODDS = 0.3
# The wild readers read each box from several crops and average the network's odds over them: the crop's
# margin as a share of the reader's own, so a box fitted a little off its index is seen at three framings
# (the readers learnt from such boxes too, jittered). On the held-out rounds' detector boxes matched to
# their true labels these views named 833 of 849 Remastered wilds and 845 of 854 Bare Foot specials right
# (one crop: 832 and 843), and exact sides rose on both round sets with none broken (models/README.md,
# "Wilds read from three crops, and a jack inside a joker's word"). The rank reader keeps its one crop:
# its renaming odds were set on it, and three crops renamed naturals wrongly on `dev11`.
ONE_VIEW = (1.0,)
WILD_VIEWS = (0.92, 1.0, 1.12)
# ... and each of those crops is read turned as well, a twelfth of a turn either way about the box's
# centre: a wild's value reads the same however the card lies, and an index on a card laid at a slant
# is seen nearer the turns the network learnt it at in one of them. On the same boxes the nine crops named
# 841 of 849 Remastered wilds and 848 of 854 Bare Foot specials right, and on `dev11`'s first 100 rounds
# 407 of 407 and 564 of 568 (three crops upright: 833, 845, 406 and 561). Eighth turns all round (24
# crops: 837, 847, 407 and 565) broke three held-out sides for four fixed: the network's odds swing widely
# on crops turned further than it learnt (models/README.md, "Wilds read at three turns"). The rank reader
# reads its crop as it lies: a 6 turned half round is a 9. The readers trained with grey crops too (sixty-sixth
# session) name 723 of the held-out rounds' 723 true Remastered wild boxes right and 789 of 796 Bare Foot ones
# at the three turns, 719 and 788 upright alone.
NO_TURNS = (0.0,)
WILD_TURNS = (0.0, 30.0, -30.0)
# The wild readers learn from a share of each training batch shown without colour (each crop's channels replaced
# by their mean; `training.reader_net.greyed`), beside the generator's own grey photos (one in twelve). Readers
# that learnt the two values' inks rather than their print misread grey photos: on the held-out rounds' true
# boxes the wild readers trained without it named 12 of 69 wilds in grey photos wrongly, against 2 of 1,450 in
# colour ones; trained with it (sixty-sixth session, the same builds and seed), the Remastered reader names all
# 723 right, grey or not (models/README.md, "Wilds in grey photos"). A Bare Foot foot wild printing no value
# differs from the other by its ink alone. The rank reader learns in colour: a 3's colour is its class.
WILD_GREY = 0.3
# The joker-word reader's crops: three times the J box's longer side, so that an `aisleriot-tango-nuevo`
# joker's "oker" beside its J, or an `aisleriot-tango` joker's jester below its word, lies in the crop
# whatever way the card is turned; 48 px keeps the word's small letters a few pixels high.
JOKER_WORD_CROP = 48
JOKER_WORD_MARGIN = 3.0


@dataclass(frozen=True)
class ReaderKind:
    """One shipped reader: its classes, the deck families of the generated frames it learns from,
    its weights, and how it renames."""

    title: str  # how messages name it
    classes: tuple[str, ...]  # the network's outputs, in order
    families: tuple[str, ...]
    weights: Path
    min_odds: float = 0.0  # a box is renamed only where the network gives its class at least these odds
    keep_within: tuple[str, ...] = ()  # a box of one of these is never renamed to another of them
    unsure_conf: float = 0.0  # a box the detector gave less confidence than this is renamed at `unsure_odds`
    unsure_odds: float = 0.0
    lopsided: float = 0.0  # a box is also renamed where its new class has this many times its detected class's odds
    lopsided_odds: float = 1.0  # ... and at least these odds
    width: int = 1  # the network's width (`wild_net`) when it is trained
    views: tuple[float, ...] = ONE_VIEW  # the crops each box is read from, as shares of the margin (WILD_VIEWS)
    turns: tuple[float, ...] = NO_TURNS  # ... each turned by these degrees about the box's centre (WILD_TURNS)
    size: int = CROP  # px: the side its crops are scaled to
    margin: float = MARGIN  # a crop's side, as a share of its box's longer side
    grey: float = 0.0  # share of each training batch it learns from shown without colour (WILD_GREY)


READERS = {
    "wilds": ReaderKind("wild reader", WILDS, ("remastered",), MODELS / "wilds.pt", views=WILD_VIEWS, turns=WILD_TURNS, grey=WILD_GREY),
    "foot-wilds": ReaderKind(
        "Bare Foot reader", FOOT_SPECIALS, ("barefoot",), MODELS / "foot-wilds.pt", views=WILD_VIEWS, turns=WILD_TURNS, grey=WILD_GREY
    ),
    "ranks": ReaderKind(
        "rank reader",
        RANKS,
        ("traditional", "remastered"),
        MODELS / "ranks.pt",
        RANK_MIN_ODDS,
        ("3R", "3B"),
        RANK_UNSURE_CONF,
        RANK_UNSURE_ODDS,
        RANK_LOPSIDED,
        RANK_LOPSIDED_ODDS,
        width=2,
    ),
    # a J box, or the joker whose word "Joker" begins with it: read from a crop wide enough to show the rest of
    # the word or the card's face (`vision/joker_words.py`, `word_jokers`, which sets when a box is renamed)
    "joker-words": ReaderKind(
        "joker-word reader",
        ("J", "JOKER"),
        ("traditional", "remastered"),
        MODELS / "joker-words.pt",
        turns=WILD_TURNS,
        size=JOKER_WORD_CROP,
        margin=JOKER_WORD_MARGIN,
    ),
}
MERGE_IOU = 0.5  # a renamed box merges with a box of its new name overlapping it this much
# A crop whose pixels spread less than this (standard deviation, grey levels) shows no ink: the readers
# leave its box as the detector named it (the width-2 rank reader gives a blank crop a 2 at odds 0.33).
MIN_INK_SPREAD = 4.0


def crop_index(image: np.ndarray, box: tuple[float, float, float, float], size: int = CROP, margin: float = MARGIN, angle: float = 0.0) -> np.ndarray:
    """A `size` x `size` BGR square around `box`: its longer side times `margin`, centred on the box and
    turned `angle` degrees (counter-clockwise) about its centre (edges beyond the photo repeat its border
    pixels)."""
    import cv2  # noqa: PLC0415

    x1, y1, x2, y2 = box
    side = max(x2 - x1, y2 - y1, 1.0) * margin
    centre = ((x1 + x2) / 2, (y1 + y2) / 2)
    k = size / side
    warp = cv2.getRotationMatrix2D(centre, angle, k)
    warp[:, 2] += (size / 2 - centre[0], size / 2 - centre[1])
    return cv2.warpAffine(image, warp, (size, size), flags=cv2.INTER_AREA if side > size else cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE)


def as_batch(crops: np.ndarray):
    """Crops (N, size, size, 3, uint8) as the network's input: each crop centred on its own mean
    and scaled by its own contrast (so light and exposure matter little, colour still does)."""
    import torch  # noqa: PLC0415

    t = torch.from_numpy(np.ascontiguousarray(crops)).float().permute(0, 3, 1, 2)
    mean = t.mean(dim=(1, 2, 3), keepdim=True)
    spread = t.std(dim=(1, 2, 3), keepdim=True) + 8.0
    return (t - mean) / spread


def wild_net(outputs: int = len(WILDS), width: int = 1):
    """Four 3x3 convolution blocks (16, 32, 64 and 64 channels times `width`) and a linear head with
    `outputs` classes: about 60,000 weights at width 1, 240,000 at width 2."""
    from torch import nn  # noqa: PLC0415

    def block(cin: int, cout: int) -> list:
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]

    a, b, c = 16 * width, 32 * width, 64 * width
    return nn.Sequential(
        *block(3, a),
        nn.MaxPool2d(2),
        *block(a, b),
        nn.MaxPool2d(2),
        *block(b, c),
        nn.MaxPool2d(2),
        *block(c, c),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Dropout(0.2),
        nn.Linear(c, outputs),
    )


def net_width(net) -> int:
    """The `width` a `wild_net` was built with (its first convolution's channels over 16)."""
    return int(net[0].out_channels) // 16


@dataclass
class WildReader:
    """Names each box of one of `classes` in a photo by the trained network's look at its crop."""

    net: object
    size: int = CROP
    margin: float = MARGIN
    classes: tuple[str, ...] = WILDS  # the network's outputs, in order
    min_odds: float = 0.0  # rename only where the network gives its class at least these odds
    keep_within: tuple[str, ...] = ()  # never rename a box of one of these to another of them
    unsure_conf: float = 0.0  # a box the detector was less sure of than this needs only `unsure_odds`
    unsure_odds: float = 0.0
    lopsided: float = 0.0  # also rename where the new class has this many times the detected class's odds (0: never)
    lopsided_odds: float = 1.0  # ... and at least these odds
    views: tuple[float, ...] = ONE_VIEW  # each box's crops, their margins as shares of `margin` (WILD_VIEWS)
    turns: tuple[float, ...] = NO_TURNS  # ... each read turned by these degrees (WILD_TURNS)

    def crops(self, image: np.ndarray, dets: list[Detection]) -> np.ndarray:
        """Each detection's centred crop, as the network sees it (N, size, size, 3, uint8)."""
        if not dets:
            return np.zeros((0, self.size, self.size, 3), np.uint8)
        return np.stack([crop_index(image, d.box, self.size, self.margin) for d in dets])

    def view_odds(self, image: np.ndarray, dets: list[Detection]) -> np.ndarray:
        """The network's odds of each class for each detection, averaged over its `views` crops, each read at
        every one of its `turns`."""
        if not dets:
            return np.zeros((0, len(self.classes)))
        crops = np.stack(
            [crop_index(image, d.box, self.size, self.margin * share, angle) for d in dets for share in self.views for angle in self.turns]
        )
        return self.odds_of(crops).reshape(len(dets), len(self.views) * len(self.turns), -1).mean(axis=1)

    def odds_of(self, crops: np.ndarray) -> np.ndarray:
        """The network's odds of each of `classes` in each crop (rows sum to 1)."""
        import torch  # noqa: PLC0415

        if not len(crops):
            return np.zeros((0, len(self.classes)))
        with torch.no_grad():
            return torch.softmax(self.net(as_batch(crops)), dim=1).numpy()

    def likeliest(self, image: np.ndarray, dets: list[Detection]) -> list[tuple[str, float]]:
        """For each detection, the class the network finds likeliest in its crop, and its odds."""
        return [(self.classes[int(row.argmax())], float(row.max())) for row in self.view_odds(image, dets)]

    def names(self, image: np.ndarray, dets: list[Detection]) -> list[str | None]:
        """For each detection, the class the network reads in its crop (None: not sure enough)."""
        return [cls if p >= self.min_odds else None for cls, p in self.likeliest(image, dets)]

    def read(self, image: np.ndarray, dets: list[Detection], iou: float = MERGE_IOU, within_odds: float | None = None) -> list[Detection]:
        """`dets` with every box of the reader's classes named as the network reads it (where sure
        enough); a box renamed onto another box of its new name merges with it (class-aware NMS at `iou`).
        A box of `keep_within` is renamed to another of them only where `within_odds` is given and the
        network gives that class at least those odds (the rank reader: a 3's colour, in a photo of hands)."""
        mine = [d for d in dets if d.cls in self.classes]
        if not mine or image is None or image.ndim != 3:
            return list(dets)

        def new_name(det: Detection, row: np.ndarray) -> str | None:
            cls, p = self.classes[int(row.argmax())], float(row.max())
            if cls in self.keep_within and det.cls in self.keep_within:
                return cls if within_odds is not None and p >= within_odds else None
            if p >= (min(self.min_odds, self.unsure_odds) if det.conf < self.unsure_conf else self.min_odds):
                return cls
            was = float(row[self.classes.index(det.cls)])
            return cls if self.lopsided and p >= self.lopsided_odds and p >= self.lopsided * was else None

        crops = self.crops(image, mine)
        inked = crops.reshape(len(crops), -1).std(axis=1) >= MIN_INK_SPREAD
        named = {id(d): cls for d, row, ink in zip(mine, self.view_odds(image, mine), inked) if ink and (cls := new_name(d, row)) is not None}
        return renamed(dets, lambda d: named.get(id(d)), iou)


def save_wild_reader(net, path: Path, facts: dict, classes: tuple[str, ...] = WILDS, size: int = CROP, margin: float = MARGIN) -> Path:
    """Write the network's weights with its `classes`, the crop geometry it learnt from (`size`, `margin`)
    and `facts` (how it was trained, what it scored)."""
    return save_checkpoint(
        {"classes": list(classes), "size": size, "margin": margin, "width": net_width(net), "state": net.state_dict(), "facts": facts}, path
    )


def load_wild_reader(path: Path | None = None, kind: str = "wilds") -> WildReader:
    """Load a reader of `kind` (a key of READERS) written by `save_wild_reader` (default: that kind's
    shipped weights); never downloads. A file of other classes is refused by name."""
    spec = READERS[kind]

    def build(saved: dict) -> WildReader:
        if saved.get("classes") != list(spec.classes):
            raise ValueError(f"its classes are {saved.get('classes')}, not {list(spec.classes)}")
        net = wild_net(len(spec.classes), int(saved.get("width", 1)))
        net.load_state_dict(saved["state"])
        net.eval()
        return WildReader(
            net,
            int(saved["size"]),
            float(saved["margin"]),
            spec.classes,
            spec.min_odds,
            spec.keep_within,
            spec.unsure_conf,
            spec.unsure_odds,
            spec.lopsided,
            spec.lopsided_odds,
            spec.views,
            spec.turns,
        )

    return load_checkpoint(path if path is not None else spec.weights, spec.title, f"handfoot train-wilds --reader {kind}", build)


@cache
def shipped_reader(kind: str) -> WildReader | None:
    """The bundled reader of `kind` (READERS), loaded once; None where this checkout has none."""
    weights = READERS[kind].weights
    if not weights.is_file():
        return None
    return load_wild_reader(weights, kind)
