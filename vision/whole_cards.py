"""A second look at lone corners: the two corners of one whole card, left apart by the joining.

On a table photo the joining (`vision/corners.py`) can leave a whole card as
two cards of one corner each. Either one of its indices was misread (a red
3's far corner read as a 5), so the two differ in class, or its deck prints
indices so large that its corners lie far nearer each other than the
photo's other cards' (2.2 index sizes beside 4.2), so the geometry refuses
them. Geometry alone cannot tell such a pair from the corners of two
neighbouring cards a diagonal apart (models/README.md, "A whole card with
one index misread").

So a small network (`vision.wild_reader.wild_net`, two outputs: APART and
ONE) looks at the pixels. For every two lone corners that could be one
card's diagonal (`could_be_one_card`: alike in size and shape, 1.4 to 7
index sizes apart, the line between them running as their boxes are turned
as the joining asks, and no other box's centre within the rectangle they span), it reads a crop
along that line (`diagonal_crop`: the line laid level, from a little beyond
one index to a little beyond the other, half as tall as it is long), read
as it is and turned half round, odds averaged. Pairs read at `ONE_CARD_ODDS`
or more are joined, surest first, each corner once; the card takes the class
of its more confident corner. Two different wilds are left apart: which of
them is right cannot be told from the pair (a Remastered 20 or 50).

It learns from generated round photos (`vision/whole_card_training.py`,
`handfoot train-whole-cards`): every such pair of the detector's own boxes,
one card or two by the photo's true corners.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from vision.checkpoints import load_checkpoint, save_checkpoint
from vision.corners import box_aspect, direction_ok
from vision.detection import BACK, JOKER, Card, Detection, box_iou

DEFAULT_WHOLE_CARD_WEIGHTS = Path(__file__).resolve().parent.parent / "models" / "whole-cards.pt"
CLASSES = ("APART", "ONE")
CROP_SIZE = (64, 32)  # width along the line, height across it (pixels)
CROP_MARGIN = 0.6  # index sizes the crop reaches beyond each index centre, along the line
CROP_BAND = 0.5  # the crop's height as a share of its length
ONE_CARD_ODDS = 0.9  # pairs read as one card at these odds or more are joined (held-out rounds: all 17 joins
# right; 0.5 joined a 2 away on `dev13`: models/README.md, "Two lone corners of one whole card")
MAX_SIZE_RATIO = 1.3  # the two boxes' sizes (longer sides) ...
MAX_SHAPE_RATIO = 1.3  # ... and shapes (height over width) differ by at most these factors
SPAN = (1.4, 7.0)  # index sizes between the two centres
CLEAR_ASPECT = 1.4  # box height over width (or width over height) from which a box says how its card is turned
# (`vision.corners.direction_ok`, as the joining's tables)
SAME_BOX_IOU = 0.5  # a box overlapping either corner this much is that corner again, not a box between them
# A card's class is never chosen between two of these: a pair of two different wilds stays two cards.
WILD_CLASSES = frozenset({"2", "WILD20", "WILD50", "SOCK", "SHOE"})


def diagonal_crop(image: np.ndarray, a: tuple[float, ...], b: tuple[float, ...], size: tuple[int, int] = CROP_SIZE,
                  margin: float = CROP_MARGIN, band: float = CROP_BAND) -> np.ndarray:
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


def could_be_one_card(a: Detection, b: Detection, others: Sequence[Detection]) -> bool:
    """Whether two index boxes could be one card's two corners by their geometry alone (module doc); `others`
    are the photo's boxes (a and b among them or not: a box overlapping either by `SAME_BOX_IOU` is that
    corner, not one lying between)."""
    if a.cls in (JOKER, BACK) or b.cls in (JOKER, BACK):
        return False
    if max(a.size, b.size) > MAX_SIZE_RATIO * min(a.size, b.size):
        return False
    if max(box_aspect(a), box_aspect(b)) > MAX_SHAPE_RATIO * min(box_aspect(a), box_aspect(b)):
        return False
    if not SPAN[0] <= math.dist(a.center, b.center) / ((a.size + b.size) / 2) <= SPAN[1]:
        return False
    if not direction_ok(a, b, CLEAR_ASPECT):
        return False
    x1, y1 = min(a.box[0], b.box[0]), min(a.box[1], b.box[1])
    x2, y2 = max(a.box[2], b.box[2]), max(a.box[3], b.box[3])
    return not any(x1 < d.center[0] < x2 and y1 < d.center[1] < y2 for d in others
                   if box_iou(d.box, a.box) < SAME_BOX_IOU and box_iou(d.box, b.box) < SAME_BOX_IOU)


@dataclass
class WholeCardReader:
    """Reads how likely two index boxes are one card's corners from the crop along the line between them."""

    net: object
    size: tuple[int, int] = CROP_SIZE
    margin: float = CROP_MARGIN
    band: float = CROP_BAND
    threshold: float = ONE_CARD_ODDS

    def odds(self, image: np.ndarray, pairs: Sequence[tuple[Detection, Detection]]) -> np.ndarray:
        """Odds of one card for each pair: the crop read as it is and turned half round, averaged."""
        if not pairs:
            return np.zeros(0)
        import torch  # noqa: PLC0415

        from vision.wild_reader import as_batch  # noqa: PLC0415

        crops = np.stack([diagonal_crop(image, a.box, b.box, self.size, self.margin, self.band) for a, b in pairs])
        with torch.no_grad():
            views = [torch.softmax(self.net(as_batch(c)), 1)[:, CLASSES.index("ONE")]
                     for c in (crops, np.ascontiguousarray(crops[:, ::-1, ::-1]))]
        return ((views[0] + views[1]) / 2).numpy()


def lone_pairs(cards: Sequence[Card]) -> list[tuple[int, int]]:
    """Index pairs (into `cards`) of one-corner cards that `could_be_one_card`, two different wilds left out."""
    lone = [k for k, c in enumerate(cards) if len(c.corners) == 1 and not c.marks and c.cls not in (JOKER, BACK)]
    boxes = [d for c in cards for d in (*c.corners, *c.marks)]
    pairs = []
    for n, i in enumerate(lone):
        for j in lone[n + 1:]:
            a, b = cards[i].corners[0], cards[j].corners[0]
            if a.cls != b.cls and a.cls in WILD_CLASSES and b.cls in WILD_CLASSES:
                continue
            if could_be_one_card(a, b, boxes):
                pairs.append((i, j))
    return pairs


def join_whole_cards(image: np.ndarray, cards: Sequence[Card], reader: WholeCardReader | None) -> list[Card]:
    """`cards` with each two lone corners the `reader` reads as one card (at its threshold) made one card, surest
    first, each corner once; the card takes its more confident corner's class. Without a reader (or a colour
    image) the cards come back as they are."""
    if reader is None or image is None or getattr(image, "ndim", 0) != 3:
        return list(cards)
    pairs = lone_pairs(cards)
    odds = reader.odds(image, [(cards[i].corners[0], cards[j].corners[0]) for i, j in pairs])
    taken: set[int] = set()
    joined = []
    for k in sorted(range(len(pairs)), key=lambda k: -odds[k]):
        i, j = pairs[k]
        if odds[k] < reader.threshold or i in taken or j in taken:
            continue
        taken |= {i, j}
        a, b = cards[i].corners[0], cards[j].corners[0]
        top = a if a.conf >= b.conf else b
        joined.append(Card(top.cls, top.conf, (a, b)))
    return [c for k, c in enumerate(cards) if k not in taken] + joined


def save_whole_card_reader(net, path: Path, facts: dict) -> Path:
    """Write the network's weights with the crop geometry it learnt from and `facts` (how it was trained)."""
    from vision.wild_reader import net_width  # noqa: PLC0415

    return save_checkpoint({"classes": list(CLASSES), "size": list(CROP_SIZE), "margin": CROP_MARGIN,
                            "band": CROP_BAND, "width": net_width(net), "state": net.state_dict(), "facts": facts}, path)


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

    return load_checkpoint(path if path is not None else DEFAULT_WHOLE_CARD_WEIGHTS, "whole-card reader",
                           "handfoot train-whole-cards", build)


@lru_cache(maxsize=None)
def shipped_whole_card_reader() -> WholeCardReader | None:
    """The bundled reader (models/whole-cards.pt), loaded once; None where this checkout has none."""
    if not DEFAULT_WHOLE_CARD_WEIGHTS.is_file():
        return None
    return load_whole_card_reader(DEFAULT_WHOLE_CARD_WEIGHTS)
