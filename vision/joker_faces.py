"""A joker box in the middle of a joker's four corner marks is the picture on its face.

Some joker designs (`aisleriot-plastic` among them) print a mark at all four
corners and an emblem of the same kind in the middle of the face. The
detector boxes that emblem as a joker now and then, and then it counts a
joker too many: worse, an index lying on the line between two corners keeps
the joining from pairing them, so the card's marks come apart into more
jokers still (held-out round 61 side 1: two jokers counted as four).

A joker box is dropped where the photo's other joker boxes hold two pairs
that could each be one card's diagonal, both centred on it: each pair
`SPAN` natural index sides long (a card's diagonal is about 4.5 of them),
the two within `LENGTHS` of each other in length, crossing at `CROSSING`
degrees or more (a card's diagonals cross at about 70), and each pair's
middle within `MIDDLE` of its length from the box. Two crossing pairs are
asked for, not one, because a row of jokers laid across meld columns puts
one joker's corner in the middle of its neighbours' (measured with one pair:
8 held-out sides broken). On the cached four readings this mends held-out
round 61 side 1, `dev11` round 65 side 2, `dev11`'s unseen rounds 124 side 2
and 149 side 1, and `dev13` round 91 side 3, and breaks none
(models/README.md, "Joker faces").
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from vision.detection import JOKER, Detection
from vision.small_jokers import index_side

SPAN = (2.5, 6.0)  # a pair that may be a card's diagonal: this long, in natural index sides (`index_side`)
LENGTHS = 1.3  # the two diagonals' lengths within this ratio of each other
CROSSING = 40.0  # degrees: the two diagonals cross at least this steeply
MIDDLE = 0.15  # each diagonal's middle within this share of its length from the joker box


Diagonal = tuple[int, int, float, float, tuple[float, float]]  # (i, j, length, direction in radians, middle)


def _card_diagonals(jokers: Sequence[Detection], side: float) -> list[Diagonal]:
    """Each pair of `jokers` (indices into it) a card's diagonal long (`SPAN` index sides)."""
    low, high = SPAN[0] * side, SPAN[1] * side
    found = []
    for i, a in enumerate(jokers):
        for j in range(i + 1, len(jokers)):
            b = jokers[j]
            length = math.dist(a.center, b.center)
            if low <= length <= high:
                middle = ((a.center[0] + b.center[0]) / 2, (a.center[1] + b.center[1]) / 2)
                found.append((i, j, length, math.atan2(b.center[1] - a.center[1], b.center[0] - a.center[0]), middle))
    return found


def is_face(k: int, jokers: Sequence[Detection], diagonals: Sequence[Diagonal]) -> bool:
    """Whether joker box `jokers[k]` lies where two crossing `diagonals` of the other joker boxes meet (their
    middles within `MIDDLE` of their length from it): a joker's face."""
    centre = jokers[k].center
    through = [d for d in diagonals if k not in d[:2] and math.dist(d[4], centre) <= MIDDLE * d[2]]
    for n, (a, b, length, direction, _) in enumerate(through):
        for c, d, other, turn, _ in through[n + 1 :]:
            if len({a, b, c, d}) < 4 or max(length, other) > LENGTHS * min(length, other):
                continue
            crossing = abs(math.degrees(direction - turn)) % 180.0
            if CROSSING <= crossing <= 180.0 - CROSSING:
                return True
    return False


def drop_joker_faces(detections: Sequence[Detection]) -> list[Detection]:
    """`detections` without the joker boxes lying on a joker's face (`is_face`); a photo with too few natural
    indices to give their size (`index_side`) loses none."""
    side = index_side(detections)
    jokers = [d for d in detections if d.cls == JOKER]
    if side is None or len(jokers) < 5:
        return list(detections)
    diagonals = _card_diagonals(jokers, side)  # measured once for every box
    faces = {id(d) for k, d in enumerate(jokers) if is_face(k, jokers, diagonals)}
    return [d for d in detections if id(d) not in faces]
