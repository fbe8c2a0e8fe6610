"""Which corner boxes are one card, read from the pixels between them: the joining's second look.

Geometry alone cannot tell two corners of one card from the corners of two
neighbouring cards a diagonal apart: cards lie apart at any angle, in piles,
in fans, photos are taken at a slant or resized out of shape. The image can.
A small network (`vision.wild_reader.wild_net`, two outputs: APART and ONE)
reads a crop along the line between two boxes (`diagonal_crop`: the line laid
level, from a little beyond one index to a little beyond the other, half as
tall as it is long), as it is and turned half round, odds averaged.

`second_look` runs it over the geometric joining's cards (`vision/corners.py`),
for table and leftover photos alike: a two-corner card it reads as two cards
(under `PART_ODDS`) is parted; then every two lone corners that could be one
card (`could_be_one_card`: alike in size and shape, 1.4 to 7 index sizes
apart) are read, and, surest first, corners are grouped where every pair
across the groups reads ONE at `JOIN_ODDS` or more (`TABLE_JOIN_ODDS` on a
table; up to four corners: a card printing four indices). A card takes its
surest corner's class; two different wilds are never one card (a Remastered
20 or 50 cannot be told from the pair).

It learns from generated scenes whose every card is known
(`training/whole_cards.py`, `handfoot train-whole-cards`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from vision.checkpoints import load_checkpoint, save_checkpoint
from vision.corners import box_aspect, card_order, corner_order
from vision.detection import BACK, JOKER, Card, Detection

DEFAULT_WHOLE_CARD_WEIGHTS = Path(__file__).resolve().parent.parent / "models" / "whole-cards.pt"
CLASSES = ("APART", "ONE")
CROP_SIZE = (64, 32)  # width along the line, height across it (pixels)
CROP_MARGIN = 0.6  # index sizes the crop reaches beyond each index centre, along the line
CROP_BAND = 0.5  # the crop's height as a share of its length
JOIN_ODDS = 0.35  # lone corners read as one card at these odds or more are grouped ...
TABLE_JOIN_ODDS = 0.9  # ... on a table, whose columns line up many corners of one rank, at these ...
PART_ODDS = 0.05  # ... and a joined pair read under these is parted (all set on the real sets and the
# generated rounds: models/README.md, `whole-cards.pt`)
MAX_SIZE_RATIO = 2.0  # two boxes' sizes (longer sides) and shapes (height over width) differ by at most this
# (the detector boxes one card's two indices up to 1.8 times apart on real close-ups)
SPAN = (1.4, 7.0)  # index sizes between the two centres
MAX_CORNERS = 4  # a card prints at most four indices
# A card's class is never chosen between two of these: a pair of two different wilds stays two cards.
WILD_CLASSES = frozenset({"2", "WILD20", "WILD50", "SOCK", "SHOE"})


def diagonal_crop(
    image: np.ndarray,
    a: tuple[float, ...],
    b: tuple[float, ...],
    size: tuple[int, int] = CROP_SIZE,
    margin: float = CROP_MARGIN,
    band: float = CROP_BAND,
) -> np.ndarray:
    """A BGR crop (`size`: width, height) along the line from box `a`'s centre to box `b`'s, laid level: it runs
    `margin` index sizes beyond each centre and is `band` of its length tall (edges beyond the photo repeat its
    border pixels)."""
    import cv2  # noqa: PLC0415

    ca = np.array(((a[0] + a[2]) / 2, (a[1] + a[3]) / 2))
    cb = np.array(((b[0] + b[2]) / 2, (b[1] + b[3]) / 2))
    index = (max(a[2] - a[0], a[3] - a[1]) + max(b[2] - b[0], b[3] - b[1])) / 2
    length = float(np.linalg.norm(cb - ca)) or 1e-6
    along = (cb - ca) / length
    across = np.array((-along[1], along[0]))
    start, end = ca - along * margin * index, cb + along * margin * index
    half = band * (length + 2 * margin * index) / 2
    src = np.float32([start - across * half, end - across * half, start + across * half])
    width, height = size
    warp = cv2.getAffineTransform(src, np.float32([[0, 0], [width, 0], [0, height]]))
    return cv2.warpAffine(image, warp, (width, height), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def could_be_one_card(a: Detection, b: Detection, ratio: float = MAX_SIZE_RATIO) -> bool:
    """Whether two index boxes could be one card's corners by size and span alone: neither a joker nor a card
    back, alike in size and shape within `ratio`, `SPAN` index sizes apart."""
    if a.cls in (JOKER, BACK) or b.cls in (JOKER, BACK):
        return False
    if max(a.size, b.size) > ratio * min(a.size, b.size):
        return False
    if max(box_aspect(a), box_aspect(b)) > ratio * min(box_aspect(a), box_aspect(b)):
        return False
    return SPAN[0] <= math.dist(a.center, b.center) / ((a.size + b.size) / 2) <= SPAN[1]


@dataclass
class WholeCardReader:
    """Reads how likely two index boxes are one card's corners from the crop along the line between them."""

    net: object
    size: tuple[int, int] = CROP_SIZE
    margin: float = CROP_MARGIN
    band: float = CROP_BAND

    def odds(self, image: np.ndarray, pairs: Sequence[tuple[Detection, Detection]]) -> np.ndarray:
        """Odds of one card for each pair: the crop read as it is and turned half round, averaged."""
        if not pairs:
            return np.zeros(0)
        import torch  # noqa: PLC0415

        from vision.wild_reader import as_batch  # noqa: PLC0415

        crops = np.stack([diagonal_crop(image, a.box, b.box, self.size, self.margin, self.band) for a, b in pairs])
        with torch.no_grad():
            views = [torch.softmax(self.net(as_batch(c)), 1)[:, CLASSES.index("ONE")] for c in (crops, np.ascontiguousarray(crops[:, ::-1, ::-1]))]
        return ((views[0] + views[1]) / 2).numpy()


def _grouped(image: np.ndarray, dets: Sequence[Detection], reader: WholeCardReader, join_odds: float) -> list[list[int]]:
    """`dets` (indices) in groups that are one card each: every two that `could_be_one_card` (two different
    wilds left out) are read; surest first, two groups merge where every pair across them reads ONE at
    `join_odds` or more, up to `MAX_CORNERS`."""
    pairs = [
        (i, j)
        for i in range(len(dets))
        for j in range(i + 1, len(dets))
        if not (dets[i].cls != dets[j].cls and dets[i].cls in WILD_CLASSES and dets[j].cls in WILD_CLASSES) and could_be_one_card(dets[i], dets[j])
    ]
    odds = reader.odds(image, [(dets[i], dets[j]) for i, j in pairs])
    one = {pair: p for pair, p in zip(pairs, odds) if p >= join_odds}
    group_of = {k: [k] for k in range(len(dets))}
    for (i, j), _ in sorted(one.items(), key=lambda kv: -kv[1]):
        gi, gj = group_of[i], group_of[j]
        if gi is gj or len(gi) + len(gj) > MAX_CORNERS:
            continue
        if all((min(a, b), max(a, b)) in one for a in gi for b in gj):
            gi.extend(gj)
            for k in gj:
                group_of[k] = gi
    return list({id(g): g for g in group_of.values()}.values())


def _card_of(corners: Sequence[Detection]) -> Card:
    top = max(corners, key=lambda d: d.conf)
    return Card(top.cls, top.conf, tuple(sorted(corners, key=corner_order)))


def _plain(card: Card, corners: int) -> bool:
    return len(card.corners) == corners and not card.marks and card.cls not in (JOKER, BACK)


def second_look(image: np.ndarray | None, cards: Sequence[Card], reader: WholeCardReader | None, join_odds: float = JOIN_ODDS) -> list[Card]:
    """The joining's `cards` read again from the pixels (module doc): two-corner cards read as two (under
    `PART_ODDS`) parted, then lone corners grouped into cards at `join_odds`. Jokers, backs and cards with
    marks of their own stay as they are; without a reader or a colour image the cards come back as they were."""
    if reader is None or image is None or getattr(image, "ndim", 0) != 3:
        return list(cards)
    cards = list(cards)
    twos = [k for k, c in enumerate(cards) if _plain(c, 2)]
    odds = reader.odds(image, [cards[k].corners for k in twos])
    parted = {k for k, o in zip(twos, odds) if o < PART_ODDS}
    cards = [c for k, c in enumerate(cards) if k not in parted] + [Card(d.cls, d.conf, (d,)) for k in sorted(parted) for d in cards[k].corners]
    lone = [k for k, c in enumerate(cards) if _plain(c, 1)]
    groups = [g for g in _grouped(image, [cards[k].corners[0] for k in lone], reader, join_odds) if len(g) > 1]
    taken = {lone[k] for g in groups for k in g}
    joined = [_card_of([cards[lone[k]].corners[0] for k in g]) for g in groups]
    return sorted([c for k, c in enumerate(cards) if k not in taken] + joined, key=card_order)


def save_whole_card_reader(net, path: Path, facts: dict) -> Path:
    """Write the network's weights with the crop geometry it learnt from and `facts` (how it was trained)."""
    from vision.wild_reader import net_width  # noqa: PLC0415

    return save_checkpoint(
        {
            "classes": list(CLASSES),
            "size": list(CROP_SIZE),
            "margin": CROP_MARGIN,
            "band": CROP_BAND,
            "width": net_width(net),
            "state": net.state_dict(),
            "facts": facts,
        },
        path,
    )


def load_whole_card_reader(path: Path | None = None) -> WholeCardReader:
    """Load a reader written by `save_whole_card_reader` (default: models/whole-cards.pt); never downloads."""
    from vision.wild_reader import wild_net  # noqa: PLC0415

    def build(saved: dict) -> WholeCardReader:
        if saved.get("classes") != list(CLASSES):
            raise ValueError(f"its classes are {saved.get('classes')}, not {list(CLASSES)}")
        net = wild_net(len(CLASSES), int(saved.get("width", 1)))
        net.load_state_dict(saved["state"])
        net.eval()
        return WholeCardReader(net, tuple(saved["size"]), float(saved["margin"]), float(saved["band"]))

    return load_checkpoint(path if path is not None else DEFAULT_WHOLE_CARD_WEIGHTS, "whole-card reader", "handfoot train-whole-cards", build)


@cache
def shipped_whole_card_reader() -> WholeCardReader | None:
    """The bundled reader (models/whole-cards.pt), loaded once; None where this checkout has none."""
    if not DEFAULT_WHOLE_CARD_WEIGHTS.is_file():
        return None
    return load_whole_card_reader(DEFAULT_WHOLE_CARD_WEIGHTS)
