"""Corner detections -> physical cards.

A fully visible card shows two corner indices: the top-left one and its copy
rotated by 180 degrees at the bottom right. A card in a fan shows only one.
Several identical cards (several decks) may lie side by side, so counting
detections per class over-counts and counting "one per class" under-counts;
this module decides which detections are the two corners of one card.

Geometry used (all in units of the index size, so it holds at any scale):
- the opposite corner of the same card sits about one card diagonal away:
  centre distance / index size is near `diagonal_ratio` (about 3.7 on real
  phone close-ups of poker cards, 5.1 on our drawn simple deck, 3.0 for its
  tall joker index), so the window is wide and the ratio is re-estimated
  from each photo's own pairs;
- both corners have about the same index size and box shape (the bottom
  corner is the top one turned half a turn);
- the line joining them runs along the card's diagonal: for an upright or
  upside-down card (tall index box) both offsets have the same sign, for a
  card turned a quarter (wide index box) opposite signs. This rule separates
  two identical cards lying side by side or one above the other;
- near a fan (a chain of fanned indices in a line), a pair square to the
  fan is two cards in neighbouring fans, not one card's diagonal;
- a pair with another index lying on the segment between them, or one more
  step beyond either end, is steps of a fan (two cards), not one card: the
  segment between a card's corners runs over its own face.

Pairs are chosen greedily by how well they fit, each detection used once.
BACK boxes are whole cards and never joined.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from vision.detection import Card, Detection

BACK = "BACK"

# Classes whose corners may join although the detector named them differently
# (pairs of class names). Empty: joining a 6 with a 9 merged real 6s and 9s
# lying near each other far more often than it mended a misread corner
# (synthetic scenes, perfect labels); a misread corner stays its own card.
CONFUSABLE: frozenset[frozenset[str]] = frozenset()


@dataclass(frozen=True)
class JoinConfig:
    """Tolerances of the corner-joining geometry (ratios are in index sizes)."""

    diagonal_ratio: float = 4.2  # expected corner distance / index size
    min_ratio: float = 1.9
    max_ratio: float = 6.8
    max_size_ratio: float = 2.0  # larger index size / smaller one (perspective)
    max_cost: float = 0.85  # |ln(ratio / expected)| plus penalties
    clear_aspect: float = 1.4  # box h/w (or w/h) from which orientation is trusted
    max_aspect_ratio: float = 1.6  # the two corners of a card are boxes of one shape
    adapt: bool = True  # re-estimate diagonal_ratio from this photo's pairs
    adapt_min_pairs: int = 2
    duplicate_iou: float = 0.6  # overlapping boxes of any class are one detection
    cross_class_penalty: float = 0.2
    step_tolerance: float = 0.45  # index sizes: how near a third index must be to mark a fan step
    axis_radius: float = 6.0  # index sizes: fan steps this near tell how cards are turned
    axis_margin: float = 20.0  # degrees: a pair this close to square to a fan is two cards
    chain_degrees: float = 15.0  # how straight three fanned indices must lie


def box_iou(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """Intersection over union of two xyxy boxes."""
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def dedupe(detections: list[Detection], iou: float = 0.6) -> list[Detection]:
    """Drop a detection that overlaps a more confident one (any class) by `iou` or more.

    The detector's own suppression is per class, so one index can come back
    as two classes; it is still one corner.
    """
    kept: list[Detection] = []
    for det in sorted(detections, key=lambda d: d.conf, reverse=True):
        if all(box_iou(det.box, k.box) < iou for k in kept):
            kept.append(det)
    return kept


def _aspect(det: Detection) -> float:
    x1, y1, x2, y2 = det.box
    w, h = max(x2 - x1, 1e-6), max(y2 - y1, 1e-6)
    return h / w


def _direction_ok(a: Detection, b: Detection, clear_aspect: float) -> bool:
    """Whether the line a-b can be the diagonal of a card with these index boxes.

    Only rejects when both boxes agree on a clear orientation and the line
    runs against it; ambiguous (square-ish, rotated) boxes accept any line.
    """
    aspects = (_aspect(a), _aspect(b))
    portrait = all(r >= clear_aspect for r in aspects)
    landscape = all(r <= 1.0 / clear_aspect for r in aspects)
    if not (portrait or landscape):
        return True
    dx = b.center[0] - a.center[0]
    dy = b.center[1] - a.center[1]
    # angle of the line from the vertical, 0..90 degrees
    phi = math.degrees(math.atan2(abs(dx), abs(dy)))
    same_sign = dx * dy > 0
    if portrait:
        return same_sign and 5.0 <= phi <= 84.0
    return (not same_sign) and 6.0 <= phi <= 85.0


def _classes_match(a: str, b: str) -> tuple[bool, bool]:
    """(may join, is a cross-class join)."""
    if a == b:
        return True, False
    return frozenset({a, b}) in CONFUSABLE, True


@dataclass(frozen=True)
class _Pair:
    cost: float
    ratio: float
    i: int
    j: int


def _alike(d: Detection, a: Detection, b: Detection, tol: float = 0.25) -> bool:
    """Whether index d has the size and box shape of both a and b (one fan, one angle)."""
    for other in (a, b):
        if abs(d.size - other.size) > tol * other.size:
            return False
        ra, rd = _aspect(other), _aspect(d)
        if max(ra, rd) / min(ra, rd) > 1.0 + tol:
            return False
    return True


def _is_fan_step(a: Detection, b: Detection, others: list[Detection], tol: float) -> bool:
    """True when a-b looks like steps of a fan, not the diagonal of one card: another
    index lies on the segment between them, or one more step beyond either end.

    The segment between a card's two corners runs over that card's own face,
    so no other index shows on it when both of its corners do.
    """
    ax, ay = a.center
    bx, by = b.center
    vx, vy = bx - ax, by - ay
    length2 = vx * vx + vy * vy
    if length2 <= 0:
        return True
    probes = ((bx + vx, by + vy), (ax - vx, ay - vy))
    for d in others:
        if d is a or d is b or d.cls == BACK:
            continue
        if d.cls not in (a.cls, b.cls) and not _alike(d, a, b):
            continue  # a card of another rank lying across at its own angle
        cx, cy = d.center
        t = ((cx - ax) * vx + (cy - ay) * vy) / length2
        if 0.1 < t < 0.9:
            px, py = ax + t * vx, ay + t * vy
            if (cx - px) ** 2 + (cy - py) ** 2 <= tol * tol:
                return True
        for px, py in probes:
            if (cx - px) ** 2 + (cy - py) ** 2 <= tol * tol:
                return True
    return False


def _local_axes(dets: list[Detection], cfg: JoinConfig) -> list[tuple[float, float, int]]:
    """Per detection, the fan directions around it, as summed doubled-angle vectors.

    A fan shows as chains of indices: an index whose two nearest neighbours
    (each closer than `min_ratio` index sizes) lie on opposite sides in one
    line is the middle of a fan, and the line runs along (table columns) or
    across (hand fans) the cards, so the cards near it are turned that way.
    Scattered cards make no such chains and give no axis.
    """
    steps: list[tuple[float, float, float, float]] = []  # x, y, cos 2a, sin 2a
    faces = [d for d in dets if d.cls != BACK]
    for a in faces:
        ax, ay = a.center
        near = []
        for b in faces:
            if b is a:
                continue
            dx, dy = b.center[0] - ax, b.center[1] - ay
            dist = math.hypot(dx, dy)
            size = (a.size + b.size) / 2.0
            if 0.5 * size <= dist < cfg.min_ratio * size:
                near.append((dist, dx, dy))
        if len(near) < 2:
            continue
        near.sort()
        (d1, x1, y1), (d2, x2, y2) = near[0], near[1]
        cos = (x1 * x2 + y1 * y2) / (d1 * d2)
        if cos > -math.cos(math.radians(cfg.chain_degrees)):
            continue  # the two neighbours are not on opposite sides in one line
        angle = math.atan2(y1 - y2, x1 - x2)
        steps.append((ax, ay, math.cos(2 * angle), math.sin(2 * angle)))
    out = []
    for a in dets:
        reach2 = (cfg.axis_radius * a.size) ** 2
        c = sn = 0.0
        n = 0
        for x, y, cc, ss in steps:
            if (x - a.center[0]) ** 2 + (y - a.center[1]) ** 2 <= reach2:
                c += cc
                sn += ss
                n += 1
        out.append((c, sn, n))
    return out


def _across_a_fan(a: Detection, b: Detection, axes: tuple[float, float, int], max_off: float) -> bool:
    """True when the line a-b runs within `max_off` degrees of square to the local fan.

    Two cards in neighbouring fans (columns) sit side by side, square to the
    fans; a card's own diagonal runs at 35-55 degrees to them, or along them
    when the fan itself runs diagonally.
    """
    c, sn, n = axes
    if n < 2 or math.hypot(c, sn) < 0.8 * n:
        return False  # no steady fan nearby: nothing to compare with
    axis = math.degrees(0.5 * math.atan2(sn, c))
    line = math.degrees(math.atan2(b.center[1] - a.center[1], b.center[0] - a.center[0]))
    off = (line - axis) % 180.0
    return abs(off - 90.0) < max_off


def _candidate_pairs(dets: list[Detection], cfg: JoinConfig, expected: float) -> list[_Pair]:
    pairs: list[_Pair] = []
    axes = _local_axes(dets, cfg)
    for i, a in enumerate(dets):
        for j in range(i + 1, len(dets)):
            b = dets[j]
            ok, cross = _classes_match(a.cls, b.cls)
            if not ok:
                continue
            sa, sb = max(a.size, 1e-6), max(b.size, 1e-6)
            if max(sa, sb) / min(sa, sb) > cfg.max_size_ratio:
                continue
            size = (sa + sb) / 2.0
            dist = math.dist(a.center, b.center)
            ratio = dist / size
            if not cfg.min_ratio <= ratio <= cfg.max_ratio:
                continue
            ra, rb = _aspect(a), _aspect(b)
            if max(ra, rb) / min(ra, rb) > cfg.max_aspect_ratio:
                continue
            if not _direction_ok(a, b, cfg.clear_aspect):
                continue
            ca, sa_, na = axes[i]
            cb, sb_, nb = axes[j]
            if _across_a_fan(a, b, (ca + cb, sa_ + sb_, na + nb), cfg.axis_margin):
                continue
            cost = abs(math.log(ratio / expected)) + (cfg.cross_class_penalty if cross else 0.0)
            if cost <= cfg.max_cost and not _is_fan_step(a, b, dets, cfg.step_tolerance * size):
                pairs.append(_Pair(cost, ratio, i, j))
    pairs.sort(key=lambda p: (p.cost, p.i, p.j))
    return pairs


def _greedy(pairs: list[_Pair], n: int) -> list[_Pair]:
    """Best-fitting pairs first, each detection used once.

    (Swapping a pair for two when both its corners had other free partners
    was tried: worse on synthetic tables, 42 vs 44 exact of 60.)
    """
    used = [False] * n
    chosen: list[_Pair] = []
    for p in pairs:
        if not used[p.i] and not used[p.j]:
            used[p.i] = used[p.j] = True
            chosen.append(p)
    return chosen


def _card_from(corners: tuple[Detection, ...]) -> Card:
    """One card from its corners: class of the most confident corner.

    When two corners disagree (6 vs 9), confidence drops by half the
    loser's confidence, so the card shows among the least sure ones.
    """
    best = max(corners, key=lambda d: d.conf)
    conf = best.conf
    for other in corners:
        if other.cls != best.cls:
            conf = conf * (1.0 - other.conf / 2.0)
    return Card(cls=best.cls, conf=conf, corners=corners)


def estimate_diagonal_ratio(detections: list[Detection], config: JoinConfig | None = None) -> float | None:
    """Median corner-distance ratio of the photo's joined pairs, or None if too few."""
    cfg = config or JoinConfig()
    dets = [d for d in dedupe(detections, cfg.duplicate_iou) if d.cls != BACK]
    chosen = _greedy(_candidate_pairs(dets, cfg, cfg.diagonal_ratio), len(dets))
    if len(chosen) < cfg.adapt_min_pairs:
        return None
    ratios = sorted(p.ratio for p in chosen)
    mid = len(ratios) // 2
    median = ratios[mid] if len(ratios) % 2 else (ratios[mid - 1] + ratios[mid]) / 2.0
    return median


def join_corners(detections: list[Detection], config: JoinConfig | None = None) -> list[Card]:
    """Group corner detections into physical cards (one or two corners each).

    Every detection ends up in exactly one card (after merging duplicate
    boxes of one index); BACK boxes are cards of their own. Cards come back
    sorted top to bottom, then left to right, by their first corner.
    """
    cfg = config or JoinConfig()
    dets = dedupe(detections, cfg.duplicate_iou)
    backs = [d for d in dets if d.cls == BACK]
    faces = [d for d in dets if d.cls != BACK]
    expected = cfg.diagonal_ratio
    if cfg.adapt:
        estimate = estimate_diagonal_ratio(faces, cfg)
        if estimate is not None:
            # stay inside the window: one odd photo must not drag it away
            expected = min(max(estimate, cfg.min_ratio + 0.6), cfg.max_ratio - 0.6)
    chosen = _greedy(_candidate_pairs(faces, cfg, expected), len(faces))
    paired: set[int] = set()
    cards: list[Card] = []
    for p in chosen:
        paired.update((p.i, p.j))
        a, b = faces[p.i], faces[p.j]
        first, second = sorted((a, b), key=lambda d: (d.center[0] + d.center[1]))
        cards.append(_card_from((first, second)))
    for k, det in enumerate(faces):
        if k not in paired:
            cards.append(Card(cls=det.cls, conf=det.conf, corners=(det,)))
    cards.extend(Card(cls=d.cls, conf=d.conf, corners=(d,)) for d in backs)
    cards.sort(key=lambda c: (c.corners[0].center[1], c.corners[0].center[0]))
    return cards
