"""A second look at jokers: which joker boxes of a photo belong to one card?

A joker prints no rank index. Its corner mark is a star, a ring, the word
JOKER or stacked letters, often at all four corners and sometimes again across
its face, so the detector finds one to five boxes on each joker. The geometric
joining (`vision/corners.py`) pairs two of them as the card's corners and takes
marks it can place as the card's own, but where jokers lie stacked in a meld's
column, a mark is missed, or a mark of one joker sits a diagonal from another's,
it splits one joker into two or three cards (or, less often, makes one of two):
the commonest wrong card count left on the generated round photos.

This module looks at every pair of joker boxes the joining left in a photo and
lets a small network, trained on round photos whose JSON tells which card each
box lies on (`training/jokers.py`, `handfoot train-jokers`), say how
likely the two are marks of one card. The boxes the joining took for cards'
corners are then grouped afresh: from one box a group, the two groups with the
highest mean odds join while that mean stays above the threshold (average
linkage), so a joker split into two cards becomes one and two jokers joined as
one come apart; a box the joining took for a joker's own mark (its word, a
fourth star) stays with that joker's first corner.
The network sees only geometry, in units of the cards around it: how far
apart the two boxes lie against the diagonals of the joined cards nearest
them, at what angle, how many other indices lie between them, their sizes,
shapes and confidences, whether each was a corner or a mark of its card and
how many boxes that card had, whether the joining put them on one card, and
whether the photo shows hands.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

import numpy as np

from vision.checkpoints import load_checkpoint, save_checkpoint
from vision.corners import card_order, corner_order, nearest_values
from vision.detection import BACK, JOKER, Card, Detection

NOT_JOINED = frozenset({JOKER, BACK})  # card classes that give no scale: their marks say nothing of a card's size
DEFAULT_JOKER_WEIGHTS = Path(__file__).resolve().parent.parent / "models" / "jokers.pt"
MAX_SPAN = 2.0  # pairs further apart than this many local card diagonals are never one card
THRESHOLD = 0.5  # two groups join while their boxes' mean odds of one card stay above this
NEAREST_SIZES = 3  # the local index size is the median of this many nearest non-joker indices ...
NEAREST_DIAGONALS = 4  # ... and the local card diagonal the median of this many nearest joined cards'
FALLBACK_RATIO = 4.2  # card diagonal / index size where no card is joined near (vision.corners' prior)
FEATURES = 23


@dataclass(frozen=True)
class Surroundings:
    """What a photo's joined non-joker cards say of the scale and turn around any point."""

    sizes: list[tuple[tuple[float, float], float]]  # (centre, index size) of every non-joker corner
    diagonals: list[tuple[tuple[float, float], tuple[float, float]]]  # (middle, corner-to-corner) of each card
    indices: list[Detection]  # every non-joker corner

    @classmethod
    def of(cls, cards: Sequence[Card]) -> Surroundings:
        others = [c for c in cards if c.cls not in NOT_JOINED]
        sizes = [(d.center, d.size) for c in others for d in c.corners]
        diagonals = []
        for c in others:
            if len(c.corners) == 2:
                a, b = c.corners[0].center, c.corners[1].center
                diagonals.append((((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), (b[0] - a[0], b[1] - a[1])))
        return cls(sizes, diagonals, [d for c in others for d in c.corners])


def _log_aspect(d: Detection) -> float:
    x1, y1, x2, y2 = d.box
    return math.log(max(y2 - y1, 1e-3) / max(x2 - x1, 1e-3))


def pair_features(
    a: Detection,
    b: Detection,
    same_card: bool,
    around: Surroundings,
    hands: bool,
    jokers: Sequence[Detection],
    corners: tuple[bool, bool],
    boxes: tuple[int, int],
) -> tuple[float, list[float]]:
    """(span in local card diagonals, the network's inputs) for joker boxes a and b.

    `same_card`: the joining put them on one card; `hands`: a photo of hands;
    `jokers`: every joker box of the photo; `corners`: whether a and b are
    corners of their cards (else marks); `boxes`: how many joker boxes their
    cards hold.
    """
    mid = ((a.center[0] + b.center[0]) / 2, (a.center[1] + b.center[1]) / 2)
    size = float(np.median(nearest_values(mid, around.sizes, NEAREST_SIZES))) if around.sizes else (a.size + b.size) / 2
    size = max(size, 1e-3)
    v = (b.center[0] - a.center[0], b.center[1] - a.center[1])
    dist = math.hypot(*v) + 1e-6
    near = nearest_values(mid, around.diagonals, NEAREST_DIAGONALS)
    if near:
        diagonal = float(np.median([math.hypot(*u) for u in near]))
        doubled = [2 * math.atan2(u[1], u[0]) for u in near]  # a diagonal has no sign: compare doubled angles
        turn = math.atan2(float(np.median(np.sin(doubled))), float(np.median(np.cos(doubled)))) / 2
    else:
        diagonal, turn = FALLBACK_RATIO * size, math.pi / 2
    diagonal = max(diagonal, 1e-3)
    angle = math.atan2(v[1], v[0])
    on_segment = in_circle = 0
    for d in around.indices:
        t = ((d.center[0] - a.center[0]) * v[0] + (d.center[1] - a.center[1]) * v[1]) / dist**2
        off = math.dist(d.center, (a.center[0] + t * v[0], a.center[1] + t * v[1]))
        on_segment += 0.05 < t < 0.95 and off < 0.75 * size
        in_circle += math.dist(d.center, mid) < dist / 2
    jokers_between = sum(1 for d in jokers if d is not a and d is not b and math.dist(d.center, mid) < dist / 2)
    ra, rb = a.size / size, b.size / size
    span = dist / diagonal
    return span, [
        span,
        dist / size / 5,
        math.cos(2 * (angle - turn)),
        math.sin(2 * (angle - turn)),
        math.cos(2 * angle),
        math.sin(2 * angle),
        min(on_segment, 4) / 2,
        min(in_circle, 6) / 3,
        min(jokers_between, 4) / 2,
        float(same_card),
        min(a.conf, b.conf),
        max(a.conf, b.conf),
        math.log(max(min(ra, rb), 1e-3)),
        math.log(max(max(ra, rb), 1e-3)),
        min(_log_aspect(a), _log_aspect(b)),
        max(_log_aspect(a), _log_aspect(b)),
        float(hands),
        float(bool(near)),
        diagonal / size / 5,
        float(min(corners)),
        float(max(corners)),
        min(boxes) / 2,
        max(boxes) / 2,
    ]


@dataclass
class JokerBoxes:
    """A photo's joker boxes with the card each one is on now, and every pair near enough to be one card."""

    boxes: list[Detection]
    card_of: list[int]  # index (in the photo's cards) of each box's card
    corner: list[bool]  # whether each box is one of its card's corners (else one of its marks)
    pairs: list[tuple[int, int]]  # (i, j) into boxes
    features: np.ndarray  # one row per pair


def joker_boxes(cards: Sequence[Card], hands: bool, max_span: float = MAX_SPAN) -> JokerBoxes:
    """Every joker box of joined `cards` (corners and marks) and the features of each pair of them."""
    boxes: list[Detection] = []
    card_of: list[int] = []
    corner: list[bool] = []
    for n, card in enumerate(cards):
        if card.cls == JOKER:
            for d in (*card.corners, *card.marks):
                boxes.append(d)
                card_of.append(n)
                corner.append(any(d is c for c in card.corners))
    around = Surroundings.of(cards) if len(boxes) > 1 else Surroundings([], [], [])
    pairs, rows = [], []
    per_card = [card_of.count(n) for n in card_of]
    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            span, row = pair_features(
                boxes[i], boxes[j], card_of[i] == card_of[j], around, hands, boxes, (corner[i], corner[j]), (per_card[i], per_card[j])
            )
            if span <= max_span:
                pairs.append((i, j))
                rows.append(row)
    return JokerBoxes(boxes, card_of, corner, pairs, np.array(rows, np.float32).reshape(-1, FEATURES))


def average_linkage(start: Sequence[Sequence[int]], odds: dict[tuple[int, int], float], threshold: float = THRESHOLD) -> list[list[int]]:
    """Groups of items, from the `start` groups: the two groups whose items' pairs have the highest mean odds
    join, while that mean is above `threshold` (a pair not in `odds` counts 0). Groups only ever join."""
    n = 1 + max([k for g in start for k in g] + [k for pair in odds for k in pair], default=-1)
    table = np.zeros((n, n))
    for (i, j), p in odds.items():
        table[i, j] = table[j, i] = p
    groups = [list(g) for g in start]
    while len(groups) > 1:
        best, pick = threshold, None
        for x in range(len(groups)):
            for y in range(x + 1, len(groups)):
                mean = float(table[np.ix_(groups[x], groups[y])].mean())
                if mean > best:
                    best, pick = mean, (x, y)
        if pick is None:
            break
        x, y = pick
        groups[x] = groups[x] + groups[y]
        del groups[y]
    return groups


def corner_groups(found: JokerBoxes, odds: dict[tuple[int, int], float], threshold: float = THRESHOLD) -> list[list[int]]:
    """The photo's jokers as groups of box indices: the joining's corners grouped by average linkage from one
    corner a group, and each of the joining's marks with its card's first corner (what the joining's geometry
    took for a joker's own mark, such as its word, stays its own)."""
    groups = average_linkage([[k] for k, c in enumerate(found.corner) if c], odds, threshold)
    where = {k: n for n, g in enumerate(groups) for k in g}
    first = {}
    for k, (card, corner) in enumerate(zip(found.card_of, found.corner)):
        if corner:
            first.setdefault(card, k)
    for k, (card, corner) in enumerate(zip(found.card_of, found.corner)):
        if corner:
            continue
        if card in first:
            groups[where[first[card]]].append(k)
        else:  # a card of marks alone (none the joining makes): a joker of its own
            first[card] = k
            where[k] = len(groups)
            groups.append([k])
    return groups


def joker_card(boxes: Sequence[Detection]) -> Card:
    """One joker from boxes of several of the joining's cards: every box is a corner of it, so the layout can
    place it by any of them; its confidence is its surest box's."""
    return Card(JOKER, max(d.conf for d in boxes), tuple(sorted(boxes, key=corner_order)))


def joker_net():
    """Two hidden layers of 32: about 1,900 weights."""
    from torch import nn  # noqa: PLC0415

    return nn.Sequential(nn.Linear(FEATURES, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))


@dataclass
class JokerGrouper:
    """Groups a photo's joker boxes into jokers again by the trained network's odds that two are one card's.

    Groupers trained on other boxes may stand `beside` it: the odds are then the mean of all their networks'
    (models/jokers.pt holds one trained on leg 22's boxes beside one trained on leg 24's)."""

    net: object
    mean: np.ndarray
    scale: np.ndarray
    max_span: float = MAX_SPAN
    threshold: float = THRESHOLD
    beside: tuple[JokerGrouper, ...] = ()
    facts: dict = field(default_factory=dict)

    def own_odds(self, features: np.ndarray) -> np.ndarray:
        """This network's odds alone."""
        import torch  # noqa: PLC0415

        if not len(features):
            return np.zeros(0)
        x = torch.from_numpy(((features - self.mean) / self.scale).astype(np.float32))
        with torch.no_grad():
            return torch.sigmoid(self.net(x)).squeeze(1).numpy()

    def odds(self, features: np.ndarray) -> np.ndarray:
        """The mean of this network's odds and those of the groupers beside it."""
        return np.mean([g.own_odds(features) for g in self.members()], axis=0)

    def members(self) -> list[JokerGrouper]:
        """This grouper first, then every one beside it (and beside those)."""
        return [self, *(m for g in self.beside for m in g.members())]

    def group(self, cards: Sequence[Card], hands: bool) -> list[Card]:
        """`cards` with the jokers grouped again (`corner_groups`; other cards as they were), sorted as the
        joining sorts them."""
        found = joker_boxes(cards, hands, self.max_span)
        if len(found.boxes) < 2:
            return list(cards)
        odds = dict(zip(found.pairs, self.odds(found.features).tolist()))
        out = [c for c in cards if c.cls != JOKER]
        for group in corner_groups(found, odds, self.threshold):
            owners = {found.card_of[k] for k in group}
            if len(owners) == 1 and len(group) == found.card_of.count(found.card_of[group[0]]):
                out.append(cards[owners.pop()])  # one of the joining's jokers, whole: kept as it was
            else:
                out.append(joker_card([found.boxes[k] for k in group]))
        out.sort(key=card_order)
        return out


def _payload(net, mean: np.ndarray, scale: np.ndarray, facts: dict) -> dict:
    import torch  # noqa: PLC0415

    return {"mean": torch.tensor(mean), "scale": torch.tensor(scale), "state": net.state_dict(), "facts": facts}


def save_joker_grouper(net, mean: np.ndarray, scale: np.ndarray, path: Path, facts: dict, beside: Sequence[JokerGrouper] = ()) -> Path:
    """Write the network's weights with its input scaling and `facts` (how it was trained, what it scored),
    and every network of the groupers `beside` it, whose odds are averaged with its own when it is loaded."""
    kept = [m for g in beside for m in g.members()]
    return save_checkpoint(
        {
            "features": FEATURES,
            **_payload(net, mean, scale, facts),
            "max_span": MAX_SPAN,
            "threshold": THRESHOLD,
            "beside": [_payload(m.net, m.mean, m.scale, m.facts) for m in kept],
        },
        path,
    )


def _member(saved: dict) -> JokerGrouper:
    net = joker_net()
    net.load_state_dict(saved["state"])
    net.eval()
    return JokerGrouper(net, saved["mean"].numpy(), saved["scale"].numpy(), facts=saved.get("facts", {}))


def _joker_grouper(saved: dict) -> JokerGrouper:
    if saved.get("features") != FEATURES:
        raise ValueError(f"it takes {saved.get('features')} features, not {FEATURES}")
    return replace(
        _member(saved),
        max_span=float(saved["max_span"]),
        threshold=float(saved["threshold"]),
        beside=tuple(_member(m) for m in saved.get("beside", [])),
    )


def load_joker_grouper(path: Path | None = None) -> JokerGrouper:
    """Load a grouper written by `save_joker_grouper` (default models/jokers.pt); never downloads."""
    return load_checkpoint(path if path is not None else DEFAULT_JOKER_WEIGHTS, "joker grouper", "handfoot train-jokers", _joker_grouper)


@lru_cache(maxsize=1)
def shipped_joker_grouper() -> JokerGrouper | None:
    """The bundled grouper (models/jokers.pt), loaded once; None where this checkout has none."""
    if not DEFAULT_JOKER_WEIGHTS.is_file():
        return None
    return load_joker_grouper(DEFAULT_JOKER_WEIGHTS)
