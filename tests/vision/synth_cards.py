"""Synthetic corner detections of cards placed on a table (no model, no images).

A card is 63 x 88 units (poker size); its top-left index is a 9 x 20 box
centred 7 right and 14 down from the card's top-left corner, and the
bottom-right index is that box turned half a turn about the card centre.
Boxes are the axis-aligned boxes around the turned index, as a detector
trained on rotated cards reports them.
"""

from __future__ import annotations

import math

from vision.detection import Detection

CARD_W, CARD_H = 63.0, 88.0
INDEX_W, INDEX_H = 9.0, 20.0
INDEX_CX, INDEX_CY = 7.0, 14.0


def _rotate(x: float, y: float, angle_deg: float) -> tuple[float, float]:
    t = math.radians(angle_deg)
    return (x * math.cos(t) - y * math.sin(t), x * math.sin(t) + y * math.cos(t))


def index_box(cx: float, cy: float, angle_deg: float, scale: float) -> tuple[float, float, float, float]:
    """Axis-aligned box of an index of the standard size, centred at (cx, cy), turned."""
    w, h = INDEX_W * scale, INDEX_H * scale
    t = math.radians(angle_deg)
    bw = abs(w * math.cos(t)) + abs(h * math.sin(t))
    bh = abs(w * math.sin(t)) + abs(h * math.cos(t))
    return (cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2)


def card_corners(
    cls: str,
    x: float,
    y: float,
    *,
    angle: float = 0.0,
    scale: float = 1.0,
    conf: float = 0.9,
    which: str = "both",
) -> list[Detection]:
    """Corner detections of a card whose centre is (x, y), turned `angle` degrees.

    `which`: "both", "tl" (fanned: only the top-left index shows) or "br"; for a deck printing its
    index in all four corners also "tr", "bl", "top" (tl and tr: a meld's column shows a card's top
    edge), "left" (tl and bl: a hand fan shows its left edge) and "all".
    """
    out = []
    offs = {
        "tl": (INDEX_CX - CARD_W / 2, INDEX_CY - CARD_H / 2),
        "br": (CARD_W / 2 - INDEX_CX, CARD_H / 2 - INDEX_CY),
        "tr": (CARD_W / 2 - INDEX_CX, INDEX_CY - CARD_H / 2),
        "bl": (INDEX_CX - CARD_W / 2, CARD_H / 2 - INDEX_CY),
    }
    groups = {"both": ("tl", "br"), "top": ("tl", "tr"), "left": ("tl", "bl"), "all": ("tl", "tr", "br", "bl")}
    keys = groups.get(which, (which,))
    for key in keys:
        ox, oy = _rotate(offs[key][0] * scale, offs[key][1] * scale, angle)
        out.append(Detection(cls, conf, index_box(x + ox, y + oy, angle, scale)))
    return out


def shrunk(det: Detection, share: float) -> Detection:
    """The detection with its box scaled by `share` about its centre (under 1: a deck printing a smaller index;
    over 1: a larger one)."""
    cx, cy = det.center
    w, h = (det.box[2] - det.box[0]) * share / 2, (det.box[3] - det.box[1]) * share / 2
    return Detection(det.cls, det.conf, (cx - w, cy - h, cx + w, cy + h))


def column(
    classes: list[str],
    x: float,
    y_top: float,
    *,
    step: float = 26.0,
    scale: float = 1.0,
    conf: float = 0.9,
    last_both: bool = True,
) -> list[Detection]:
    """A meld fanned downwards: each card's top-left index shows, the last card whole.

    (x, y_top) is the centre of the first card; `step` the vertical offset
    between cards (in card units, scaled).
    """
    dets: list[Detection] = []
    for k, cls in enumerate(classes):
        last = k == len(classes) - 1
        which = "both" if (last and last_both) else "tl"
        dets += card_corners(cls, x, y_top + k * step * scale, scale=scale, conf=conf, which=which)
    return dets


def turned_column(
    classes: list[str], x: float, y: float, angle: float, *, step: float = 26.0, covered: str = "tl", last: str = "both"
) -> list[Detection]:
    """A meld fanned along its cards' long side, the whole meld turned `angle` degrees
    about its first card's centre (x, y): each covered card shows its `covered` indices (`card_corners`'s
    `which`: the top-left one; "top" for a deck printing four), the last card its `last` ones (whole)."""
    t = math.radians(angle)
    dets: list[Detection] = []
    for k, cls in enumerate(classes):
        which = last if k == len(classes) - 1 else covered
        dets += card_corners(cls, x - math.sin(t) * k * step, y + math.cos(t) * k * step, angle=angle, which=which)
    return dets
