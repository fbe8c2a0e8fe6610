"""Drawing placed cards into a frame through the camera, and labelling what stays visible.

The frame keeps an id map beside the pixels: which card (or occluder, -2) is on
top at each pixel. A corner index is labelled when at least VISIBLE_MIN of its
area shows the card it belongs to and lies inside the frame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from datasets.scenes.camera import apply, local_scale
from datasets.scenes.model import BoxF, CardTruth, Placement

VISIBLE_MIN = 0.6
BACKGROUND, OCCLUDER = -1, -2


@dataclass
class CardStyle:
    """How cards look in this photo: paper tone, edge darkness, shadow under each card."""

    paper: tuple[float, float, float] = (1.0, 1.0, 1.0)  # BGR gains on the artwork
    edge: float = 0.25  # how dark a card's rim is drawn
    shadow_dir: tuple[float, float] = (1.0, 1.0)
    shadow_len: float = 0.012  # offset of the drop shadow, in card widths
    shadow_soft: float = 0.012  # blur of the drop shadow, in card widths
    shadow_strength: float = 0.35
    jitter: float = 0.04  # per-card brightness jitter


def sample_style(rng: np.random.Generator) -> CardStyle:
    """Paper tone, rims and shadows for one photo."""
    warm = rng.uniform(-0.04, 0.08)
    a = rng.uniform(0, 2 * math.pi)
    return CardStyle(
        paper=(1.0 - warm, 1.0 - warm * 0.4, 1.0),
        edge=float(rng.uniform(0.05, 0.45)),
        shadow_dir=(math.cos(a), math.sin(a)),
        shadow_len=float(rng.uniform(0.0, 0.03)),
        shadow_soft=float(rng.uniform(0.004, 0.03)),
        shadow_strength=float(rng.uniform(0.1, 0.5)),
        jitter=float(rng.uniform(0.0, 0.06)),
    )


def card_matrix(h: np.ndarray, placement: Placement) -> np.ndarray:
    """Face pixels -> image pixels for one placed card."""
    m = h @ placement.pose
    return m / m[2, 2]


def quad_of(m: np.ndarray, w: int, h: int) -> np.ndarray:
    """The card's four corners (TL, TR, BR, BL) in image pixels."""
    return apply(m, np.array([[0, 0], [w, 0], [w, h], [0, h]], float))


def draw_cards(
    frame: np.ndarray, ids: np.ndarray, placements: list[Placement], hmg: np.ndarray, rng: np.random.Generator, style: CardStyle
) -> list[np.ndarray]:
    """Paint cards bottom to top into `frame` (float32 BGR) and `ids`; returns each card's matrix."""
    fh, fw = frame.shape[:2]
    mats = []
    for i, p in enumerate(placements):
        m = card_matrix(hmg, p)
        mats.append(m)
        ih, iw = p.image.shape[:2]
        quad = quad_of(m, iw, ih)
        if not np.all(np.isfinite(quad)):
            continue
        card_w_px = float(np.linalg.norm(quad[1] - quad[0]))
        pad = int(card_w_px * (style.shadow_len + 3 * style.shadow_soft)) + 3
        x1 = max(int(math.floor(quad[:, 0].min())) - pad, 0)
        y1 = max(int(math.floor(quad[:, 1].min())) - pad, 0)
        x2 = min(int(math.ceil(quad[:, 0].max())) + pad + 1, fw)
        y2 = min(int(math.ceil(quad[:, 1].max())) + pad + 1, fh)
        if x2 <= x1 or y2 <= y1:
            continue
        src, msrc = _prescaled(p.image, m, iw, ih)
        t = np.array([[1, 0, -x1], [0, 1, -y1], [0, 0, 1]], float) @ msrc
        warped = cv2.warpPerspective(src, t, (x2 - x1, y2 - y1), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
        alpha = warped[..., 3].astype(np.float32) / 255.0
        if not alpha.any():
            continue
        roi = frame[y1:y2, x1:x2]
        # drop shadow on whatever lies below
        if style.shadow_strength > 0 and card_w_px > 4:
            off = style.shadow_len * card_w_px
            sh = cv2.warpAffine(
                alpha, np.float32([[1, 0, off * style.shadow_dir[0]], [0, 1, off * style.shadow_dir[1]]]), (alpha.shape[1], alpha.shape[0])
            )
            sig = max(0.6, style.shadow_soft * card_w_px)
            sh = cv2.GaussianBlur(sh, (0, 0), sig)
            roi *= (1.0 - style.shadow_strength * sh)[..., None]
        rgb = warped[..., 2::-1].astype(np.float32)  # RGBA -> BGR
        gain = np.array(style.paper, np.float32) * (1.0 + rng.normal(0, style.jitter))
        rgb *= gain
        if style.edge > 0:  # the card's rim: a thin darker line where it ends
            a8 = (alpha > 0.5).astype(np.uint8)
            rim = a8 - cv2.erode(a8, np.ones((3, 3), np.uint8))
            rgb *= (1.0 - style.edge * rim.astype(np.float32))[..., None]
        a3 = alpha[..., None]
        roi[:] = roi * (1.0 - a3) + rgb * a3
        ids[y1:y2, x1:x2][alpha > 0.5] = i
    return mats


def _prescaled(img: np.ndarray, m: np.ndarray, w: int, h: int) -> tuple[np.ndarray, np.ndarray]:
    """Shrink artwork that the camera sees much smaller (area filter, no aliasing)."""
    s = local_scale(m, w / 2, h / 2)
    if s >= 0.7:
        return img, m
    f = max(s * 1.3, 0.02)
    nw, nh = max(2, int(round(w * f))), max(2, int(round(h * f)))
    small = cv2.resize(img, (nw, nh), interpolation=cv2.INTER_AREA)
    back = np.array([[w / nw, 0, 0], [0, h / nh, 0], [0, 0, 1]], float)
    return small, m @ back


def _visible_fraction(poly: np.ndarray, ids: np.ndarray, who: int) -> float:
    """Share of a polygon's area that lies inside the frame and shows card `who`."""
    area = 0.5 * abs(float(np.dot(poly[:, 0], np.roll(poly[:, 1], 1)) - np.dot(poly[:, 1], np.roll(poly[:, 0], 1))))
    if area < 1.0:
        return 0.0
    fh, fw = ids.shape
    x1, y1 = max(int(math.floor(poly[:, 0].min())), 0), max(int(math.floor(poly[:, 1].min())), 0)
    x2, y2 = min(int(math.ceil(poly[:, 0].max())) + 1, fw), min(int(math.ceil(poly[:, 1].max())) + 1, fh)
    if x2 <= x1 or y2 <= y1:
        return 0.0
    mask = np.zeros((y2 - y1, x2 - x1), np.uint8)
    pts = np.round((poly - [x1, y1]) * 16).astype(np.int32)
    cv2.fillPoly(mask, [pts], 1, lineType=cv2.LINE_8, shift=4)
    filled = int(mask.sum())
    if filled == 0:
        return 0.0
    mine = int(np.count_nonzero(mask.astype(bool) & (ids[y1:y2, x1:x2] == who)))
    # normalise by the whole polygon's pixel count (estimated from the in-frame part) so that
    # rasterisation error cancels and the part outside the frame counts as not visible
    inside = _clipped_area(poly, fw, fh)
    whole = filled * area / inside if inside > 1e-6 else area
    return min(1.0, mine / max(whole, 1.0))


def _clipped_area(poly: np.ndarray, fw: int, fh: int) -> float:
    """Area of the polygon's part inside the frame."""
    inter, _ = cv2.intersectConvexConvex(poly.astype(np.float32), np.float32([[0, 0], [fw, 0], [fw, fh], [0, fh]]))
    return float(inter)


def _box(poly: np.ndarray, fw: int, fh: int) -> BoxF:
    return (
        max(float(poly[:, 0].min()), 0.0),
        max(float(poly[:, 1].min()), 0.0),
        min(float(poly[:, 0].max()), float(fw)),
        min(float(poly[:, 1].max()), float(fh)),
    )


def label_cards(
    placements: list[Placement], mats: list[np.ndarray], ids: np.ndarray, min_index_px: float = 5.0
) -> tuple[list[tuple[str, BoxF]], list[CardTruth]]:
    """YOLO labels for visible corner indices (and face-down cards) plus per-card ground truth."""
    fh, fw = ids.shape
    labels: list[tuple[str, BoxF]] = []
    truths: list[CardTruth] = []
    for i, (p, m) in enumerate(zip(placements, mats)):
        ih, iw = p.image.shape[:2]
        quad = quad_of(m, iw, ih)
        if not np.all(np.isfinite(quad)):
            continue
        seen = _visible_fraction(quad, ids, i)
        if seen <= 0.0:
            continue
        boxes: list[BoxF] = []
        if p.face is None:
            if seen >= VISIBLE_MIN:
                boxes.append(_box(quad, fw, fh))
                labels.append(("BACK", boxes[-1]))
        else:
            for bx1, by1, bx2, by2 in p.corners:
                poly = apply(m, np.array([[bx1, by1], [bx2, by1], [bx2, by2], [bx1, by2]], float))
                box = _box(poly, fw, fh)
                if box[3] - box[1] < min_index_px and box[2] - box[0] < min_index_px:
                    continue
                if _visible_fraction(poly, ids, i) >= VISIBLE_MIN:
                    boxes.append(box)
                    labels.append((p.cls, box))
        truths.append(
            CardTruth(
                cls=p.cls,
                face_down=p.face is None,
                place=p.place,
                meld=p.meld,
                quad=[(float(x), float(y)) for x, y in quad],
                corners=boxes,
                deck=p.face.deck if p.face is not None else "",
                visible=seen,
            )
        )
    return labels, truths
