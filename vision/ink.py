"""Ink names cards: a 3R or a 3B, and a Bare Foot wild's 20 or 50.

A 3's colour is its class (DESIGN.md): red 3s (hearts, diamonds, Remastered red 3,
Bare Foot red-ink 3) against black ones. The model tells them apart badly on real
photos (leg 8: 3B recall 0.14 on `table-webcam`), yet the ink says it plainly
wherever the photo has colour. `ink_redness` measures how much redder than the
paper the most chromatic tenth of an index box is, relative to the box's
contrast, so that dim, washed-out webcams and punchy phones read alike.
`recolour_threes` relabels a 3 whose ink is clearly red or clearly black and
leaves the model's word where the ink is in between or the photo is grey.

Bare Foot -N- Wild prints its 20-point foot wild in blue and its 50-point one
in red (DESIGN.md), so `recolour_foot_wilds` names a wild of that deck by its
ink the same way (blue: WILD20, red: WILD50). It is for Bare Foot photos only:
Remastered wilds' inks say nothing of their value.

The two thresholds were set on synthetic frames only. On the true 3R/3B
boxes of `synth-f` training frames 600-1599 (1,682 boxes, 86 of them in grey
frames), this code names 1,374 of the 1,596 in colour, 15 wrongly (12 black
3s called red, 3 red called black), and leaves the rest to the model. See
models/README.md for what it does on the real sets.

A dark 3 in between (up to 0.15) is black where another 3 of the photo is
plainly red (0.45 or more; seventh session). On the true 3s of `synth-i`
frames (two chunks, 1,930 and 1,698 boxes in colour photos) that names 38
and 40 more black 3s, and 2 more red 3s wrongly in each; a flat 0.15 for
every photo would have named 18 red 3s black in the first chunk.

A dim webcam's red ink reads far under RED_AT (the real `table-webcam`
red 3s: 0.09-0.26), yet still plainly redder than that photo's black ink
(0-0.08). So a photo's own indices set its threshold (`ink_split`): where
they fall into a darker and a redder group at their widest gap, clearly
apart and each of at least two, a 3 takes the colour of the group it lies
in (a quarter clear of the threshold). On `table-webcam`'s labelled indices
this decides 406 of 514 (400 rightly, all 25 of its 3s) where the fixed
thresholds decide 291; close-ups hold too few indices to split.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from vision.detection import BACK, JOKER, Detection, renamed

RED_AT = 0.25  # at least this: red ink
BLACK_AT = 0.06  # at most this: black ink
BLACK_BESIDE_RED = 0.15  # at most this: black ink, in a photo where another 3 reads BESIDE_RED_AT or more
BESIDE_RED_AT = 0.45
THREES = ("3R", "3B")
# A foot wild's ink is one colour at RED_AT or more while the other stays at
# most OTHER_AT (measured on generated Bare Foot wild corners: models/README.md).
BLUE_AT = 0.25
OTHER_AT = 0.15
FOOT_WILDS = ("WILD20", "WILD50")
BLUE, RED = 0, 2  # BGR channels
# A photo's inks split (`ink_split`) only over SPLIT_LEAST indices or more, each group SPLIT_SIDE at least, the
# darker group's median at most SPLIT_BLACK_MAX and the redder one's SPLIT_RATIO times it (itself 0.02 at least);
# on the 200 held-out rounds a looser split (four indices, any group size) named two black 3s red.
SPLIT_LEAST = 6
SPLIT_SIDE = 2
SPLIT_BLACK_MAX = 0.06
SPLIT_RATIO = 2.5
SPLIT_MARGIN = 0.25  # a 3 takes a group's colour only this share of the threshold clear of it
MERGE_IOU = 0.5  # a renamed box merges with a box of its new name overlapping it this much (the detector's NMS IoU)


def ink_chroma(crop: np.ndarray, channel: int) -> float | None:
    """How much the ink of a BGR index crop leans to one channel (RED or BLUE) over the other two,
    relative to the crop's contrast (about 0 for black ink, 0.3-1.5 for that colour); None if too small."""
    if crop.ndim != 3 or min(crop.shape[:2]) < 3:
        return None
    c = crop.astype(np.float32)
    grey = c @ np.array([0.114, 0.587, 0.299], np.float32)
    a, b = (i for i in range(3) if i != channel)
    chroma = c[..., channel] - np.maximum(c[..., a], c[..., b])
    paper = np.median(chroma[grey >= np.median(grey)])  # the lighter half: paper, and the light's cast
    contrast = float(np.percentile(grey, 95) - np.percentile(grey, 5))
    return float((np.percentile(chroma, 90) - paper) / max(contrast, 8.0))


def ink_redness(crop: np.ndarray) -> float | None:
    """How red the ink of a BGR index crop is (about 0 for black ink, 0.3-1.5 for red); None if too small."""
    return ink_chroma(crop, RED)


def has_colour(image: np.ndarray, spread: float = 15.0) -> bool:
    """False for a grey photo (every pixel's channels within `spread` of each other, JPEG noise aside)."""
    if image.ndim != 3 or image.shape[2] < 3:
        return False
    step = -(-max(image.shape[:2]) // 400)  # every step-th pixel: at most 400 along the long side
    small = image[::step, ::step, :3].astype(np.int16)
    return float(np.percentile(small.max(axis=2) - small.min(axis=2), 99.5)) > spread


def _crop(image: np.ndarray, det: Detection) -> np.ndarray:
    h, w = image.shape[:2]
    x1, y1, x2, y2 = det.box
    return image[max(0, int(y1)) : min(h, int(np.ceil(y2))), max(0, int(x1)) : min(w, int(np.ceil(x2)))]


def ink_class(image: np.ndarray, det: Detection, red_at: float = RED_AT, black_at: float = BLACK_AT) -> str | None:
    """'3R' or '3B' when the ink in `det`'s box is clearly red or black, else None."""
    redness = ink_redness(_crop(image, det))
    if redness is None:
        return None
    if redness >= red_at:
        return "3R"
    if redness <= black_at:
        return "3B"
    return None


def foot_wild_class(image: np.ndarray, det: Detection) -> str | None:
    """'WILD20' when the ink in a Bare Foot wild's box is clearly blue, 'WILD50' when clearly red, else None."""
    crop = _crop(image, det)
    red, blue = ink_chroma(crop, RED), ink_chroma(crop, BLUE)
    if red is None or blue is None:
        return None
    if blue >= BLUE_AT and red <= OTHER_AT:
        return "WILD20"
    if red >= RED_AT and blue <= OTHER_AT:
        return "WILD50"
    return None


def _renamed(
    image: np.ndarray, dets: list[Detection], classes: tuple[str, ...], name: Callable[[np.ndarray, Detection], str | None], iou: float
) -> list[Detection]:
    """`dets` with each detection of `classes` renamed as `name` says, where it says (a grey photo: none).

    A box renamed onto another box of its new name merges with it (class-aware NMS at `iou`).
    """
    if not any(d.cls in classes for d in dets) or not has_colour(image):
        return list(dets)
    return renamed(dets, lambda det: name(image, det) if det.cls in classes else None, iou)


def recolour_threes(
    image: np.ndarray,
    dets: list[Detection],
    red_at: float = RED_AT,
    black_at: float = BLACK_AT,
    iou: float = MERGE_IOU,
    own_inks: bool = False,
) -> list[Detection]:
    """`dets` with each 3 named by its ink where the ink is clear (a grey photo is left as the model saw it).

    A 3 whose ink is in between but dark (up to BLACK_BESIDE_RED) is black
    when another 3 of the same photo is plainly red (BESIDE_RED_AT or more):
    warm light or a tinted print lifts a black index's redness a little,
    while that photo's red ink still reads far redder. With `own_inks` (the
    reading pipe's naming, once the readers have named the boxes), a 3 then
    takes the colour of its side of the photo's own ink split (`ink_split`).
    """
    redness: dict[int, float | None] = {}

    def name(img: np.ndarray, det: Detection) -> str | None:
        if not redness:
            redness.update((id(d), ink_redness(_crop(img, d))) for d in dets if d.cls in THREES)
        r = redness[id(det)]
        if r is None:
            return None
        if r >= red_at:
            return "3R"
        if r <= black_at:
            return "3B"
        others = [x for k, x in redness.items() if k != id(det) and x is not None]
        return "3B" if r <= BLACK_BESIDE_RED and others and max(others) >= BESIDE_RED_AT else None

    named = _renamed(image, dets, THREES, name, iou)
    split = ink_split(image, dets) if own_inks and any(d.cls in THREES for d in named) and has_colour(image) else None
    if split is None:
        return named

    red, black = split * (1 + SPLIT_MARGIN), split * (1 - SPLIT_MARGIN)
    return renamed(named, lambda det: ink_class(image, det, red, black) if det.cls in THREES else None, iou)


def ink_split(image: np.ndarray, dets: list[Detection]) -> float | None:
    """The redness between a photo's black and red index inks, from its boxes (jokers and backs aside): the
    middle of the widest gap in their rednesses, where that parts them clearly (SPLIT_*); else None."""
    values = [ink_redness(_crop(image, d)) for d in dets if d.cls not in (JOKER, BACK)]
    v = np.sort([x for x in values if x is not None])
    if len(v) < SPLIT_LEAST:
        return None
    k = int(np.argmax(np.diff(v))) + 1
    darker, redder = v[:k], v[k:]
    if min(len(darker), len(redder)) < SPLIT_SIDE or np.median(darker) > SPLIT_BLACK_MAX:
        return None
    if np.median(redder) < SPLIT_RATIO * max(float(np.median(darker)), 0.02):
        return None
    return float(v[k] + v[k - 1]) / 2


def laid_threes(image: np.ndarray, dets: list[Detection], black_at: float = BLACK_AT, iou: float = MERGE_IOU) -> list[Detection]:
    """`dets` of a table photo holding a red 3 with each black 3 whose ink is not clearly black named red.

    None of the rule sets melds a black 3, and a side's laid red 3s lie together, so where the detector
    names a table's 3s in both colours and the ink cannot tell them apart (in between, or a grey photo),
    the black ones are the row's red 3s misread. A 3 whose ink plainly says black (up to `black_at`) stays
    black (the scoring flags it), and so does a black 3 in a photo with no red 3 (the layout reads one
    inside a meld's column as a misread index of that meld).
    """
    if not any(d.cls == "3B" for d in dets) or not any(d.cls == "3R" for d in dets):
        return list(dets)
    coloured = has_colour(image)

    def name(det: Detection) -> str | None:
        if det.cls != "3B":
            return None
        return None if coloured and ink_class(image, det, black_at=black_at) == "3B" else "3R"

    return renamed(dets, name, iou)


def recolour_foot_wilds(image: np.ndarray, dets: list[Detection], iou: float = MERGE_IOU) -> list[Detection]:
    """`dets` of a Bare Foot photo with each wild named by its ink where it is clearly blue or red."""
    return _renamed(image, dets, FOOT_WILDS, foot_wild_class, iou)
