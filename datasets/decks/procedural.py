"""Approximations of the Hand & Foot Remastered and Bare Foot -N- Wild decks, in many variants.

Until photos of the physical decks exist these are guesses from the rule texts:
- Remastered: no suits; ranks 4-10, J, Q, K, A with their point value printed,
  a red 3 and a black 3, 20- and 50-point wild cards, colour-coded backs.
- Bare Foot -N- Wild: numbers 1-12, each printed in red ink and in black ink
  (a red-ink 3 is class 3R, a black-ink 3 is 3B), a blue 20-point and a red
  50-point wild showing a foot, and sock and shoe clothing cards.

Each variant draws its font, ink colours, corner layout (what sits under the
rank), frame and centre art from a seeded random generator, so a detector
learns the glyphs rather than one imagined design. Boxes are known exactly:
they are the ink extent of the pasted index tile.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import cv2
import numpy as np

from datasets.decks import canvas, glyphs
from datasets.decks.canvas import RGB, Tile
from datasets.faces import CardFace, Deck

REMASTERED_VALUES: dict[str, int] = {
    "4": 5, "5": 5, "6": 5, "7": 5, "8": 10, "9": 10, "10": 10, "J": 10, "Q": 10, "K": 10,
    "A": 20, "3R": 100, "3B": -100, "WILD20": 20, "WILD50": 50,
}
BAREFOOT_NUMBERS = tuple(str(n) for n in range(1, 13))
BAREFOOT_VALUES = {n: (5 if int(n) <= 5 else 10 if int(n) <= 10 else 20) for n in BAREFOOT_NUMBERS}
CLOTHING_VALUES = {"SOCK": 50, "SHOE": 100}

REMASTERED_CLASSES = tuple(REMASTERED_VALUES)
BAREFOOT_CLASSES = ("1", "2", "3R", "3B", "4", "5", "6", "7", "8", "9", "10", "11", "12", "WILD20", "WILD50", "SOCK", "SHOE")

RED: RGB = (205, 24, 36)
BLACK: RGB = (22, 22, 26)
BLUE: RGB = (28, 78, 190)
_INKS: tuple[RGB, ...] = (
    (22, 22, 26), (30, 60, 150), (20, 110, 60), (110, 40, 140), (0, 110, 130), (150, 80, 10), (60, 60, 60),
)
_BACK_COLOURS: tuple[RGB, ...] = (
    (200, 30, 40), (30, 80, 190), (20, 140, 70), (240, 170, 20), (120, 50, 160), (240, 110, 20), (20, 150, 170), (40, 40, 40),
)


@dataclass
class Style:
    """One variant's printing choices."""

    rank_font: glyphs.Font
    mark_font: glyphs.Font
    paper: RGB
    rank_h: float  # fraction of card height
    mark_h: float
    gap: float
    mx: float  # corner margins, fractions of width / height
    my: float
    mark: str  # what sits under the rank: "value", "dot", "bar", "star", "foot", "none"
    frame: str  # "none", "line", "double", "band"
    frame_color: RGB
    art: str  # centre art: "big", "disc", "value", "outline"
    ink_mode: str  # "mono": one ink for all ranks; "rainbow": an ink per rank
    mono_ink: RGB
    radius: float


def _style(rng: random.Random, family: str) -> Style:
    fonts = glyphs.all_fonts()
    rank_font = rng.choice(fonts)
    marks = ["value", "value", "dot", "bar", "star", "none"] if family == "remastered" else ["value", "dot", "foot", "foot", "none"]
    return Style(
        rank_font=rank_font,
        mark_font=rng.choice([rank_font, rng.choice(fonts)]),
        paper=rng.choice([(255, 255, 255), (250, 248, 240), (245, 245, 250), tuple(rng.randint(230, 255) for _ in range(3))]),
        rank_h=rng.uniform(0.08, 0.12),
        mark_h=rng.uniform(0.04, 0.06),
        gap=rng.uniform(0.008, 0.02),
        mx=rng.uniform(0.05, 0.08),
        my=rng.uniform(0.035, 0.055),
        mark=rng.choice(marks),
        frame=rng.choice(["none", "line", "double", "band"]),
        frame_color=rng.choice(_INKS + (RED, BLUE)),
        art=rng.choice(["big", "disc", "value", "outline"]),
        ink_mode=rng.choice(["mono", "rainbow"]),
        mono_ink=rng.choice(_INKS),
        radius=rng.uniform(0.04, 0.08),
    )


def _blank(width: int, st: Style) -> np.ndarray:
    card = canvas.blank_card(width, st.paper, st.radius)
    w = card.shape[1]
    if st.frame == "line":
        canvas.draw_frame(card, round(0.025 * w), 1, st.frame_color, round(0.04 * w))
    elif st.frame == "double":
        canvas.draw_frame(card, round(0.02 * w), 2, st.frame_color, round(0.04 * w))
        canvas.draw_frame(card, round(0.035 * w), 1, st.frame_color, round(0.03 * w))
    elif st.frame == "band":
        band = round(0.025 * w)
        h = card.shape[0]
        inner = card[band : h - band, band : w - band, :3].copy()
        card[..., :3] = st.frame_color
        card[band : h - band, band : w - band, :3] = inner
    return card


def _mark_mask(st: Style, h: int, value: int | None, rng_mark: str | None = None) -> np.ndarray | None:
    kind = rng_mark or st.mark
    if kind == "none":
        return None
    if kind == "value":
        return glyphs.text_mask(str(value), st.mark_font, h) if value is not None else None
    size = {"dot": 0.6, "bar": 0.5, "star": 1.0, "foot": 1.0}[kind]
    m = glyphs.shape_mask(kind, max(3, round(h * size)))
    if kind == "bar":
        m = cv2.resize(m, (max(3, round(h * 1.2)), max(2, round(h * 0.35))), interpolation=cv2.INTER_AREA)
    return m


def _index(st: Style, card_h: int, main: np.ndarray, main_ink: RGB, mark: np.ndarray | None, mark_ink: RGB) -> Tile:
    parts = [(main, main_ink)]
    if mark is not None:
        parts.append((mark, mark_ink))
    return canvas.tile_column(parts, max(2, round(st.gap * card_h)))


def _centre(card: np.ndarray, st: Style, text: str, ink: RGB, sub: str | None, icon: str | None = None, icon_ink: RGB | None = None) -> None:
    """Centre art: big text (or an icon) and an optional line of small text, kept clear of the corners."""
    h, w = card.shape[:2]
    big_h = round(0.2 * h)
    if st.art == "disc":
        disc = glyphs.shape_mask("dot", round(0.42 * w))
        dy = round(0.44 * h - disc.shape[0] / 2)
        canvas.ink(card, disc, ink, (w - disc.shape[1]) // 2, dy)
        fg: RGB = st.paper
    else:
        fg = ink
    if icon is not None:
        m = glyphs.shape_mask(icon, round(0.26 * h))
        if m.shape[1] > 0.42 * w:
            m = glyphs.fit_height(m, round(m.shape[0] * 0.42 * w / m.shape[1]))
        canvas.ink(card, m, fg if st.art == "disc" else (icon_ink or fg), (w - m.shape[1]) // 2, round(0.44 * h - m.shape[0] / 2))
        if text:
            t = glyphs.text_mask(text, st.rank_font, round(0.07 * h), round(0.3 * w))
            canvas.ink(card, t, ink if st.art == "disc" else st.paper, (w - t.shape[1]) // 2, round(0.47 * h - t.shape[0] / 2))
    else:
        m = glyphs.text_mask(text, st.rank_font, big_h, round((0.3 if st.art == "disc" else 0.4) * w))
        if st.art == "outline":
            k = np.ones((5, 5), np.uint8)
            m = np.clip(m.astype(np.int16) - cv2.erode(m, k).astype(np.int16), 0, 255).astype(np.uint8)
        canvas.ink(card, m, fg, (w - m.shape[1]) // 2, round(0.44 * h - m.shape[0] / 2))
    if sub and st.art != "big":
        s = glyphs.text_mask(sub, st.mark_font, round(0.045 * h), round(0.4 * w))
        canvas.ink(card, s, ink, (w - s.shape[1]) // 2, round(0.7 * h))


def _face(width: int, st: Style, cls: str, deck: str, tile: Tile, art: dict) -> CardFace:
    card = _blank(width, st)
    h = card.shape[0]
    corners = canvas.paste_corner_pair(card, tile, round(st.mx * width), round(st.my * h))
    _centre(card, st, **art)
    return CardFace(cls, card, corners, deck)


def _back(width: int, color: RGB, rng: random.Random, label: str) -> np.ndarray:
    card = canvas.blank_card(width, (255, 255, 255))
    h, w = card.shape[:2]
    m = round(rng.uniform(0.03, 0.07) * w)
    canvas.fill_rect(card, (m, m, w - m, h - m), color)
    light = tuple(min(255, c + 80) for c in color)
    pattern = np.zeros((h, w), np.uint8)
    kind = rng.choice(["stripes", "dots", "plain"])
    if kind == "stripes":
        for k in range(-h, w + h, max(6, w // 14)):
            cv2.line(pattern, (k, 0), (k + h, h), 255, 2, cv2.LINE_AA)
    elif kind == "dots":
        for y in range(m + 8, h - m, 16):
            for x in range(m + 8, w - m, 16):
                cv2.circle(pattern, (x, y), 3, 255, -1, cv2.LINE_AA)
    pattern[:m], pattern[h - m :], pattern[:, :m], pattern[:, w - m :] = 0, 0, 0, 0
    canvas.ink(card, pattern, light, 0, 0)  # type: ignore[arg-type]
    t = glyphs.text_mask(label, glyphs.Font(ttf="DejaVuSans-Bold.ttf"), round(0.06 * h), round(0.7 * w))
    canvas.ink(card, t, (255, 255, 255), (w - t.shape[1]) // 2, (h - t.shape[0]) // 2)
    return card


def remastered_deck(seed: int, width: int = 250) -> Deck:
    """One Hand & Foot Remastered look-alike: every class of the family once (3s: red and black)."""
    rng = random.Random(f"remastered-{seed}")
    st = _style(rng, "remastered")
    name = f"remastered-{seed}"
    h = canvas.card_size(width)[1]
    rank_h, mark_h = round(st.rank_h * h), round(st.mark_h * h)
    max_w = round(0.19 * width)
    wild_layout = rng.choice(["W+value", "value+star", "value+W"])
    inks = list(_INKS)
    rng.shuffle(inks)
    faces: dict[str, list[CardFace]] = {}
    for i, cls in enumerate(REMASTERED_CLASSES):
        value = REMASTERED_VALUES[cls]
        if cls == "3R":
            ink: RGB = RED
        elif cls == "3B":
            ink = BLACK
        elif cls.startswith("WILD"):
            ink = rng.choice([(230, 120, 0), (130, 30, 150), (0, 120, 120), (200, 20, 120)])
        else:
            ink = st.mono_ink if st.ink_mode == "mono" else inks[i % len(inks)]
        if cls.startswith("WILD"):
            vtext = str(value)
            if wild_layout == "W+value":
                main, mark = glyphs.text_mask("W", st.rank_font, rank_h, max_w), glyphs.text_mask(vtext, st.mark_font, mark_h)
            elif wild_layout == "value+star":
                main, mark = glyphs.text_mask(vtext, st.rank_font, rank_h, max_w), glyphs.shape_mask("star", mark_h)
            else:
                main, mark = glyphs.text_mask(vtext, st.rank_font, rank_h, max_w), glyphs.text_mask("W", st.mark_font, mark_h)
            art = {"text": "WILD", "ink": ink, "sub": f"{value} POINTS", "icon": "star" if rng.random() < 0.5 else None}
        else:
            text = "3" if cls in ("3R", "3B") else cls
            main = glyphs.text_mask(text, st.rank_font, rank_h, max_w)
            mark = _mark_mask(st, mark_h, value)
            art = {"text": text, "ink": ink, "sub": f"{value} POINTS" if value > 0 else f"{value}"}
        tile = _index(st, h, main, ink, mark, ink)
        faces[cls] = [_face(width, st, cls, name, tile, art)]
    colours = rng.sample(_BACK_COLOURS, 3)
    backs = [_back(width, c, rng, "HAND & FOOT") for c in colours]
    return Deck(name, "remastered", faces, backs, source="procedural approximation (datasets/decks/procedural.py)", licence="AGPL-3.0-or-later (project code)")


def barefoot_deck(seed: int, width: int = 250) -> Deck:
    """One Bare Foot -N- Wild look-alike: numbers 1-12 in red and black ink, foot wilds, sock, shoe."""
    rng = random.Random(f"barefoot-{seed}")
    st = _style(rng, "barefoot")
    name = f"barefoot-{seed}"
    h = canvas.card_size(width)[1]
    rank_h, mark_h = round(st.rank_h * h), round(st.mark_h * h)
    max_w = round(0.19 * width)
    faces: dict[str, list[CardFace]] = {}

    def add(cls: str, tile: Tile, art: dict) -> None:
        faces.setdefault(cls, []).append(_face(width, st, cls, name, tile, art))

    for number in BAREFOOT_NUMBERS:
        value = BAREFOOT_VALUES[number]
        for ink in (RED, BLACK):
            cls = ("3R" if ink == RED else "3B") if number == "3" else number
            main = glyphs.text_mask(number, st.rank_font, rank_h, max_w)
            mark = _mark_mask(st, mark_h, value)
            add(cls, _index(st, h, main, ink, mark, ink), {"text": number, "ink": ink, "sub": f"{value} POINTS"})
    wild_layout = rng.choice(["value+foot", "foot+value", "W+foot"])
    for cls, ink, value in (("WILD20", BLUE, 20), ("WILD50", RED, 50)):
        foot = glyphs.shape_mask("foot", rank_h if wild_layout == "foot+value" else mark_h)
        vt = glyphs.text_mask(str(value), st.rank_font if wild_layout == "value+foot" else st.mark_font, rank_h if wild_layout == "value+foot" else mark_h, max_w)
        if wild_layout == "value+foot":
            tile = _index(st, h, vt, ink, foot, ink)
        elif wild_layout == "foot+value":
            tile = _index(st, h, foot, ink, vt, ink)
        else:
            tile = _index(st, h, glyphs.text_mask("W", st.rank_font, rank_h, max_w), ink, foot, ink)
        add(cls, tile, {"text": str(value), "ink": ink, "sub": "WILD", "icon": "foot", "icon_ink": ink})
    cloth_layout = rng.choice(["icon+value", "value+icon", "word"])
    for cls, icon in (("SOCK", "sock"), ("SHOE", "shoe")):
        ink = rng.choice([BLACK, (120, 60, 20), (30, 60, 150), (20, 110, 60)])
        value = CLOTHING_VALUES[cls]
        icon_big = glyphs.shape_mask(icon, rank_h)
        if icon_big.shape[1] > max_w:
            icon_big = glyphs.fit_height(icon_big, round(rank_h * max_w / icon_big.shape[1]))
        if cloth_layout == "icon+value":
            tile = _index(st, h, icon_big, ink, glyphs.text_mask(str(value), st.mark_font, mark_h), ink)
        elif cloth_layout == "value+icon":
            tile = _index(st, h, glyphs.text_mask(str(value), st.rank_font, rank_h, max_w), ink, glyphs.shape_mask(icon, mark_h), ink)
        else:
            word = glyphs.text_mask(cls, st.rank_font, round(rank_h * 0.6), round(0.2 * width))
            tile = _index(st, h, word, ink, glyphs.shape_mask(icon, mark_h), ink)
        add(cls, tile, {"text": "", "ink": ink, "sub": f"{cls} {value}", "icon": icon, "icon_ink": ink})
    colours = [(30, 80, 190), (200, 30, 40)]
    backs = [_back(width, c, rng, "BARE FOOT") for c in colours]
    return Deck(name, "barefoot", faces, backs, source="procedural approximation (datasets/decks/procedural.py)", licence="AGPL-3.0-or-later (project code)")


def procedural_decks(seed: int = 0, count: int = 12) -> list[Deck]:
    """`count` procedural decks, alternating Remastered and Bare Foot look-alikes (variant seeds from `seed`)."""
    decks: list[Deck] = []
    for i in range(count):
        variant = seed * 1000 + i // 2
        decks.append(remastered_deck(variant) if i % 2 == 0 else barefoot_deck(variant))
    return decks
