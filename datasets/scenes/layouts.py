"""Where cards lie on the table: meld columns, red-3 rows, hand fans, rows, piles, scatter.

Everything here works in the layout plane, in units where a card is CARD_W wide,
and returns Placements in drawing order (bottom card first).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from datasets.scenes.cardsets import CardSource, sample_hand, sample_table_melds
from datasets.scenes.model import Placement

CARD_W = 250.0


def card_pose(face_w: int, face_h: int, cx: float, cy: float, angle_deg: float) -> np.ndarray:
    """3x3 map from face pixels to layout units: scale to CARD_W, rotate about the centre, move."""
    k = CARD_W / face_w
    a = math.radians(angle_deg)
    c, s = math.cos(a) * k, math.sin(a) * k
    # x' = c*(u - w/2) - s*(v - h/2) + cx ; y' = s*(u - w/2) + c*(v - h/2) + cy
    return np.array(
        [
            [c, -s, cx - c * face_w / 2 + s * face_h / 2],
            [s, c, cy - s * face_w / 2 - c * face_h / 2],
            [0.0, 0.0, 1.0],
        ]
    )


def procedural_back(rng: np.random.Generator, w: int = 250, h: int = 350) -> np.ndarray:
    """A plain card back (border plus a lattice pattern) for decks that ship none."""
    colours = [(170, 30, 35), (30, 50, 140), (20, 90, 50), (40, 40, 40), (120, 20, 90)]
    col = np.array(colours[int(rng.integers(len(colours)))], float) * rng.uniform(0.8, 1.2)
    img = np.zeros((h, w, 4), np.uint8)
    img[..., :3] = 245
    img[..., 3] = 0
    r = int(0.06 * w)
    alpha = np.zeros((h, w), np.uint8)
    cv2.rectangle(alpha, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(alpha, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(alpha, (cx, cy), r, 255, -1, cv2.LINE_AA)
    img[..., 3] = alpha
    m = int(w * rng.uniform(0.05, 0.1))
    inner = img[m : h - m, m : w - m, :3]
    inner[:] = np.clip(col, 0, 255).astype(np.uint8)
    step = int(rng.integers(8, 20))
    light = tuple(int(v) for v in np.clip(col * 1.6 + 40, 0, 255))
    ih, iw = inner.shape[:2]
    for d in range(-ih, iw, step):
        cv2.line(inner, (d, 0), (d + ih, ih), light, 1, cv2.LINE_AA)
        if rng.random() < 0.7:
            cv2.line(inner, (d + ih, 0), (d, ih), light, 1, cv2.LINE_AA)
    return img


class Placer:
    """Builds Placements for one scene's card source (handles flips and face-down cards).

    strict=True keeps the photo convention: a face that prints its index in one corner
    only (e.g. aisleriot's tango-nuevo) is never laid upside down, where the card on top
    of it would hide that index.
    """

    def __init__(self, rng: np.random.Generator, source: CardSource, flip_p: float = 0.3, strict: bool = False) -> None:
        self.rng = rng
        self.source = source
        self.flip_p = flip_p
        self.strict = strict
        self._back: np.ndarray | None = None

    def card_h(self, cls: str = "") -> float:
        face = self.source.face(cls) if cls else None
        if face is None:
            return CARD_W * 1.4
        h, w = face.image.shape[:2]
        return CARD_W * h / w

    def back_image(self) -> np.ndarray:
        if self._back is None:
            self._back = self.source.back()
            if self._back is None:
                self._back = procedural_back(self.rng)
        return self._back

    def face_up(self, cls: str, cx: float, cy: float, angle: float, place: str, meld: int | None, role: str, flip: bool | None = None) -> Placement:
        face = self.source.face(cls)
        h, w = face.image.shape[:2]
        if flip is None:
            # drawn for every card, so scenes without one-index faces come out as before
            flip = self.rng.random() < self.flip_p and not (self.strict and len(face.corners) < 2)
        pose = card_pose(w, h, cx, cy, angle + (180.0 if flip else 0.0))
        return Placement(cls, face, face.image, list(face.corners), pose, place, meld, role)

    def face_down(self, cx: float, cy: float, angle: float, place: str, role: str) -> Placement:
        back = self.back_image()
        h, w = back.shape[:2]
        return Placement("BACK", None, back, [], card_pose(w, h, cx, cy, angle), place, None, role)

    def index_bottom(self, cls: str) -> float:
        """How far down the card (fraction of its height) its top-left index reaches."""
        face = self.source.face(cls)
        h = face.image.shape[0]
        if not face.corners:
            return 0.2
        top = min(face.corners, key=lambda b: b[1])
        return top[3] / h


def meld_column(
    pl: Placer, cards: list[str], x: float, y: float, meld: int, fan: float, tilt: float, squared: bool = False
) -> tuple[list[Placement], float]:
    """A meld fanned down a column starting with its top card's centre at (x, y).

    Each next card lies on top, shifted `fan` of a card height down so the index of
    the card under it shows. Returns the placements and the column's length.
    """
    rng = pl.rng
    ch = pl.card_h(cards[0])
    step = 0.0 if squared else fan * ch
    dx, dy = math.sin(math.radians(-tilt)), math.cos(math.radians(-tilt))
    out = []
    s = 0.0
    for i, cls in enumerate(cards):
        jit = rng.normal(0, 0.012 * CARD_W) if not squared else rng.normal(0, 0.02 * CARD_W)
        if i:
            s += step * rng.uniform(0.93, 1.07)
        cx = x + dx * s + jit
        cy = y + dy * s + rng.normal(0, 0.01 * CARD_W)
        out.append(pl.face_up(cls, cx, cy, tilt + rng.normal(0, 1.5), "table", meld, "meld"))
    return out, ch + s


def red3_row(pl: Placer, n: int, x: float, y: float, red3: str) -> tuple[list[Placement], float]:
    """Laid red 3s in a row of their own, overlapping sideways so every index shows."""
    rng = pl.rng
    shift = CARD_W * rng.uniform(0.3, 1.1)
    out = []
    for i in range(n):
        out.append(pl.face_up(red3, x + i * shift + rng.normal(0, 3), y + rng.normal(0, 4), rng.normal(0, 2), "table", None, "red3"))
    return out, shift * (n - 1) + CARD_W


def table_layout(
    pl: Placer, n_melds: int | None = None, strict: bool = False, melds: list[list[str]] | None = None, n_red3: int | None = None
) -> list[Placement]:
    """One side's table: meld columns (wrapping into a second row when many) and a red-3 row.

    strict=True is the photo convention (rounds): every index shows, no face-down card,
    no squared-up book.
    """
    rng = pl.rng
    roles = pl.source.roles
    if melds is None:
        if n_melds is None:
            n_melds = 1 + int(rng.choice(12, p=_MELD_COUNT_P))
        melds = sample_table_melds(rng, roles, n_melds)
    if n_red3 is None:
        n_red3 = int(rng.integers(1, 5)) if roles.red3 and rng.random() < 0.5 else 0
    placements: list[Placement] = []
    per_row = max(3, int(rng.integers(4, 13)))
    gap = CARD_W * rng.uniform(1.04, 1.5)
    base_fan = rng.uniform(0.12, 0.35)
    base_tilt = rng.normal(0, 2)
    y0 = 0.0
    if n_red3 and rng.random() < 0.5:  # red 3s above the melds
        row, _ = red3_row(pl, n_red3, 0.0, 0.0, roles.red3)
        placements += row
        y0 = pl.card_h(roles.red3) * rng.uniform(1.1, 1.4)
        n_red3 = 0
    row_y, row_len = y0, 0.0
    for m, cards in enumerate(melds):
        col = m % per_row
        if col == 0 and m:
            row_y += row_len + CARD_W * rng.uniform(0.2, 0.6)
            row_len = 0.0
        fan = float(np.clip(base_fan + rng.normal(0, 0.03), 0.1, 0.4))
        if strict:
            need = max(pl.index_bottom(c) for c in cards) + 0.04
            fan = max(fan, need)
        squared = (not strict) and len(cards) >= 7 and rng.random() < 0.08
        x = col * gap + rng.normal(0, 0.04 * CARD_W)
        y = row_y + rng.normal(0, 0.05 * CARD_W)
        col_cards, length = meld_column(pl, cards, x, y, m, fan, base_tilt + rng.normal(0, 1.5), squared)
        placements += col_cards
        row_len = max(row_len, length)
    if n_red3:  # red 3s to the right of or below the melds
        if rng.random() < 0.5:
            x = min(len(melds), per_row) * gap + CARD_W * 0.3
            row, _ = red3_row(pl, n_red3, x, 0.0, roles.red3)
        else:
            row, _ = red3_row(pl, n_red3, 0.0, row_y + row_len + CARD_W * 0.5, roles.red3)
        placements += row
    if not strict and rng.random() < 0.3:
        placements += _extras(pl, placements)
    return placements


_MELD_COUNT_P = np.array([4, 6, 8, 9, 9, 9, 8, 7, 6, 5, 4, 4], float)
_MELD_COUNT_P /= _MELD_COUNT_P.sum()


def _bounds(placements: list[Placement]) -> tuple[float, float, float, float]:
    pts = []
    for p in placements:
        h, w = p.image.shape[:2]
        q = np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], float) @ p.pose.T
        pts.append(q[:, :2])
    if not pts:
        return 0.0, 0.0, CARD_W, CARD_W * 1.4
    a = np.concatenate(pts)
    return float(a[:, 0].min()), float(a[:, 1].min()), float(a[:, 0].max()), float(a[:, 1].max())


def _extras(pl: Placer, placements: list[Placement]) -> list[Placement]:
    """The stock (face-down pile) and a discard pile beside the melds."""
    rng = pl.rng
    x1, y1, x2, y2 = _bounds(placements)
    out = []
    side = rng.integers(4)
    cx = {0: x1 - CARD_W, 1: x2 + CARD_W, 2: rng.uniform(x1, x2), 3: rng.uniform(x1, x2)}[int(side)]
    cy = {0: rng.uniform(y1, y2), 1: rng.uniform(y1, y2), 2: y1 - CARD_W * 1.2, 3: y2 + CARD_W * 1.2}[int(side)]
    ang = rng.uniform(-30, 30)
    for _ in range(int(rng.integers(1, 6))):
        out.append(pl.face_down(cx + rng.normal(0, 4), cy + rng.normal(0, 4), ang + rng.normal(0, 3), "table", "stock"))
    if rng.random() < 0.6:  # discard pile next to the stock
        dx = CARD_W * rng.uniform(1.1, 1.6)
        for _ in range(int(rng.integers(1, 5))):
            cls = pl.source.random_class()
            out.append(pl.face_up(cls, cx + dx + rng.normal(0, 12), cy + rng.normal(0, 12), rng.uniform(-25, 25), "loose", None, "pile"))
    return out


def fan_group(pl: Placer, cards: list[str], cx: float, cy: float, angle: float, place: str, strict: bool = False) -> list[Placement]:
    """A hand held-style fan: cards turned about a pivot below them, each next one on top."""
    rng = pl.rng
    n = len(cards)
    step = rng.uniform(15, 20) if strict else rng.uniform(6, 16)
    radius = pl.card_h() * rng.uniform(0.3, 0.9)
    out = []
    for i, cls in enumerate(cards):
        a = angle + (i - (n - 1) / 2) * step + rng.normal(0, 1)
        r = math.radians(a)
        x = cx + math.sin(r) * radius
        y = cy - math.cos(r) * radius
        out.append(pl.face_up(cls, x, y, a, place, None, "hand"))
    return out


def row_group(pl: Placer, cards: list[str], x: float, y: float, angle: float, place: str, min_shift: float = 0.2) -> list[Placement]:
    """Cards spread in a straight row, each next one on top and shifted right."""
    rng = pl.rng
    shift = CARD_W * rng.uniform(min_shift, 0.75)
    r = math.radians(angle)
    out = []
    for i, cls in enumerate(cards):
        s = i * shift
        out.append(
            pl.face_up(
                cls, x + math.cos(r) * s + rng.normal(0, 3), y + math.sin(r) * s + rng.normal(0, 5), angle + rng.normal(0, 3), place, None, "hand"
            )
        )
    return out


def pile_group(pl: Placer, cards: list[str], cx: float, cy: float, place: str) -> list[Placement]:
    """An untidy pile: cards dropped on each other at random offsets and angles."""
    rng = pl.rng
    spread = CARD_W * rng.uniform(0.15, 0.6)
    base = rng.uniform(0, 360)
    return [pl.face_up(cls, cx + rng.normal(0, spread), cy + rng.normal(0, spread), base + rng.normal(0, 35), place, None, "pile") for cls in cards]


def leftover_layout(pl: Placer, strict: bool = False, hands: list[list[str]] | None = None) -> list[Placement]:
    """Cards left in hand and foot, spread face up: fans, rows and piles side by side."""
    rng = pl.rng
    roles = pl.source.roles
    if hands is None:
        hands = [sample_hand(rng, roles, int(rng.integers(2, 16))) for _ in range(int(rng.integers(1, 4)))]
    out: list[Placement] = []
    x = 0.0
    for cards in hands:
        if not cards:
            continue
        kinds = ["row", "fan"] if strict else ["row", "fan", "pile", "row2"]
        kind = kinds[int(rng.integers(len(kinds)))]
        ang = rng.normal(0, 4 if strict else 12)
        if kind == "fan":
            group = fan_group(pl, cards, x + CARD_W * len(cards) * 0.15, CARD_W * 1.2, ang, "leftover", strict)
        elif kind == "pile":
            group = pile_group(pl, cards, x + CARD_W, CARD_W, "leftover")
        elif kind == "row2" and len(cards) > 5:
            half = len(cards) // 2
            group = row_group(pl, cards[:half], x, 0.0, ang, "leftover")
            group += row_group(pl, cards[half:], x, pl.card_h() * rng.uniform(0.45, 1.2), ang, "leftover")
        else:
            group = row_group(pl, cards, x, 0.0, ang, "leftover", min_shift=0.25 if strict else 0.2)
        out += group
        x = _bounds(out)[2] + CARD_W * rng.uniform(0.3, 1.0)
    if not strict and rng.random() < 0.2:
        out.append(pl.face_down(x + CARD_W, rng.uniform(0, CARD_W), rng.uniform(0, 360), "leftover", "stock"))
    return out


def generic_layout(pl: Placer, n: int | None = None) -> list[Placement]:
    """Loose cards scattered and overlapping anywhere, any angle, some face down."""
    rng = pl.rng
    n = int(rng.integers(3, 30)) if n is None else n
    area = CARD_W * math.sqrt(n) * rng.uniform(0.9, 2.2)
    out = []
    for _ in range(n):
        x, y = rng.uniform(0, area), rng.uniform(0, area * 0.8)
        ang = rng.uniform(0, 360)
        if rng.random() < 0.1:
            out.append(pl.face_down(x, y, ang, "loose", "loose"))
        else:
            out.append(pl.face_up(pl.source.random_class(), x, y, ang, "loose", None, "loose", flip=False))
    return out


def layout_bounds(placements: list[Placement]) -> tuple[float, float, float, float]:
    """Axis-aligned bounds (x1, y1, x2, y2) of all cards in layout units."""
    return _bounds(placements)
