"""A traditional 54-card deck the project draws itself, with exactly known index boxes.

No downloads, deterministic for a seed, fast: the whole project's tests use it.
Seed 0 is a plain white deck in DejaVu Sans Bold; other seeds change the font,
paper tint and pip shapes a little (the generator mixes a few of them). A
word-joker deck (`word_joker=True`, training builds only) prints its jokers'
index as one word across the card's top, as many real jokers do (the real
close-ups' jokers print a red script "Joker": models/README.md, "Corner boxes
fitted unlike the real labels").
"""

from __future__ import annotations

import random

import cv2
import numpy as np

from datasets.decks import canvas, glyphs
from datasets.decks.canvas import RGB, Tile
from datasets.faces import CardFace, Deck

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = {"H": "heart", "D": "diamond", "C": "club", "S": "spade"}
RED: RGB = (200, 16, 32)
BLACK: RGB = (20, 20, 24)

_SIMPLE_FONTS = (
    "DejaVuSans-Bold.ttf",
    "DejaVuSerif-Bold.ttf",
    "DejaVuSans.ttf",
    "DejaVuSansMono-Bold.ttf",
    "DejaVuSerif.ttf",
    "STIXGeneralBol.ttf",
)

# pip centres for number cards: (column -1/0/1, row 0..1 from top to bottom)
_PIPS: dict[str, list[tuple[int, float]]] = {
    "2": [(0, 0), (0, 1)],
    "3": [(0, 0), (0, 0.5), (0, 1)],
    "4": [(-1, 0), (1, 0), (-1, 1), (1, 1)],
    "5": [(-1, 0), (1, 0), (0, 0.5), (-1, 1), (1, 1)],
    "6": [(-1, 0), (1, 0), (-1, 0.5), (1, 0.5), (-1, 1), (1, 1)],
    "7": [(-1, 0), (1, 0), (0, 0.25), (-1, 0.5), (1, 0.5), (-1, 1), (1, 1)],
    "8": [(-1, 0), (1, 0), (0, 0.25), (-1, 0.5), (1, 0.5), (0, 0.75), (-1, 1), (1, 1)],
    "9": [(-1, 0), (1, 0), (-1, 1 / 3), (1, 1 / 3), (0, 0.5), (-1, 2 / 3), (1, 2 / 3), (-1, 1), (1, 1)],
    "10": [(-1, 0), (1, 0), (0, 1 / 6), (-1, 1 / 3), (1, 1 / 3), (-1, 2 / 3), (1, 2 / 3), (0, 5 / 6), (-1, 1), (1, 1)],
}


def class_of(rank: str, suit: str) -> str:
    """Our class name for a traditional card (3s split by suit colour)."""
    if rank == "3":
        return "3R" if suit in "HD" else "3B"
    return rank


class _Layout:
    """Sizes of one deck's printed parts, in pixels, from the card width."""

    def __init__(self, width: int) -> None:
        self.w, self.h = canvas.card_size(width)
        self.rank_h = round(0.10 * self.h)
        self.rank_max_w = round(0.17 * self.w)
        self.pip_h = round(0.062 * self.h)
        self.gap = max(2, round(0.014 * self.h))
        self.mx = round(0.06 * self.w)
        self.my = round(0.045 * self.h)
        self.joker_letter_h = round(0.05 * self.h)


def _index_tile(rank: str, suit: str, font: glyphs.Font, lay: _Layout, color: RGB) -> Tile:
    rank_mask = glyphs.text_mask(rank, font, lay.rank_h, lay.rank_max_w)
    pip = glyphs.shape_mask(SUITS[suit], lay.pip_h)
    return canvas.tile_column([(rank_mask, color), (pip, color)], lay.gap)


def _joker_tile(font: glyphs.Font, lay: _Layout, color: RGB) -> Tile:
    parts = [(glyphs.text_mask(ch, font, lay.joker_letter_h, lay.rank_max_w), color) for ch in "JOKER"]
    return canvas.tile_column(parts, max(2, lay.gap // 2))


# Typefaces of a word joker's index: italic and upright, as printed jokers vary. (OpenCV's
# Hershey "script" faces print upright sans letters in the OpenCV installed here.)
_WORD_FONTS = tuple(glyphs.Font(ttf=name) for name in (
    "DejaVuSerif-BoldItalic.ttf", "DejaVuSerif-Italic.ttf", "STIXGeneralBolIta.ttf", "STIXGeneralItalic.ttf",
    "DejaVuSans-BoldOblique.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSans-Bold.ttf",
))
_WORDS = ("Joker", "JOKER", "joker")


def _word_joker_tile(rng: random.Random, lay: _Layout, color: RGB) -> Tile:
    """One word across the top, 0.35-0.6 of the card wide, as its index."""
    word, font = rng.choice(_WORDS), rng.choice(_WORD_FONTS)
    probe = glyphs.text_mask(word, font, 100)
    width = rng.uniform(0.35, 0.6) * lay.w
    height = round(min(max(width * probe.shape[0] / probe.shape[1], 0.045 * lay.h), 0.1 * lay.h))
    return canvas.tile_column([(glyphs.text_mask(word, font, height, round(width)), color)], 0)


def _draw_word_joker_art(card: np.ndarray, rng: random.Random, lay: _Layout, color: RGB, keep_out: list[tuple[int, int, int, int]]) -> None:
    """A dark figure strewn with small stars in the middle of the face, clear of the index boxes."""
    robe = tuple(rng.randint(10, 80) for _ in range(3))
    cx, cy = lay.w / 2, lay.h / 2
    pts = np.array([[cx + rng.uniform(-0.3, 0.3) * lay.w * np.cos(a), cy + rng.uniform(0.15, 0.3) * lay.h * np.sin(a)]
                    for a in np.linspace(0, 2 * np.pi, 9)[:-1]], np.int32)
    mask = np.zeros(card.shape[:2], np.uint8)
    cv2.fillPoly(mask, [pts], 255)
    for x1, y1, x2, y2 in keep_out:
        mask[max(0, y1 - 4):y2 + 4, max(0, x1 - 4):x2 + 4] = 0
    canvas.ink(card, mask, robe, 0, 0)  # type: ignore[arg-type]
    star = glyphs.shape_mask("star", max(4, round(0.035 * lay.h)))
    gold = (235, 190, 40)
    for _ in range(12):
        x, y = round(cx + rng.uniform(-0.25, 0.25) * lay.w), round(cy + rng.uniform(-0.22, 0.22) * lay.h)
        canvas.ink(card, star, gold if rng.random() < 0.7 else color, x, y)


def _draw_pips(card: np.ndarray, rank: str, suit: str, lay: _Layout, color: RGB) -> None:
    if rank == "A":
        m = glyphs.shape_mask(SUITS[suit], round(0.26 * lay.h))
        canvas.ink(card, m, color, (lay.w - m.shape[1]) // 2, (lay.h - m.shape[0]) // 2)
        return
    pip = glyphs.shape_mask(SUITS[suit], round(0.09 * lay.h))
    flipped = pip[::-1, ::-1]
    ph, pw = pip.shape
    top, bottom = 0.2 * lay.h, 0.8 * lay.h
    for col, row in _PIPS[rank]:
        cx = lay.w / 2 + col * 0.15 * lay.w
        cy = top + row * (bottom - top)
        m = pip if row <= 0.5 else flipped
        canvas.ink(card, m, color, round(cx - pw / 2), round(cy - ph / 2))


def _draw_court(card: np.ndarray, rank: str, suit: str, font: glyphs.Font, lay: _Layout, color: RGB) -> None:
    x1, y1 = round(0.26 * lay.w), round(0.15 * lay.h)
    x2, y2 = lay.w - x1, lay.h - y1
    frame = np.zeros(card.shape[:2], np.uint8)
    frame[y1:y2, x1:x2] = 255
    frame[y1 + 3 : y2 - 3, x1 + 3 : x2 - 3] = 0
    canvas.ink(card, frame, color, 0, 0)
    big = glyphs.text_mask(rank, font, round(0.2 * lay.h))
    canvas.ink(card, big, color, (lay.w - big.shape[1]) // 2, round(0.27 * lay.h))
    pip = glyphs.shape_mask(SUITS[suit], round(0.12 * lay.h))
    canvas.ink(card, pip, color, (lay.w - pip.shape[1]) // 2, round(0.55 * lay.h))


def _draw_joker_art(card: np.ndarray, font: glyphs.Font, lay: _Layout, color: RGB) -> None:
    star = glyphs.shape_mask("star", round(0.3 * lay.h))
    canvas.ink(card, star, color, (lay.w - star.shape[1]) // 2, round(0.22 * lay.h))
    word = glyphs.text_mask("JOKER", font, round(0.06 * lay.h), round(0.45 * lay.w))
    canvas.ink(card, word, color, (lay.w - word.shape[1]) // 2, round(0.64 * lay.h))


def simple_back(width: int, color: RGB, paper: RGB = (255, 255, 255)) -> np.ndarray:
    """A plain card back: a coloured panel with a diamond lattice, white margin."""
    card = canvas.blank_card(width, paper)
    h, w = card.shape[:2]
    m = round(0.05 * w)
    canvas.fill_rect(card, (m, m, w - m, h - m), color)
    lattice = np.zeros((h, w), np.uint8)
    step = max(6, w // 12)
    for k in range(-h, w + h, step):
        cv2.polylines(lattice, [np.array([[k, 0], [k + h, h]], np.int32)], False, 255, 1, cv2.LINE_AA)
        cv2.polylines(lattice, [np.array([[k, h], [k + h, 0]], np.int32)], False, 255, 1, cv2.LINE_AA)
    lattice[:m, :] = 0
    lattice[h - m :, :] = 0
    lattice[:, :m] = 0
    lattice[:, w - m :] = 0
    canvas.ink(card, lattice, tuple(min(255, c + 70) for c in color), 0, 0)
    return card


def simple_deck(seed: int = 0, width: int = 250, word_joker: bool = False) -> Deck:
    """A traditional deck (A-K in four suits, two jokers) drawn here, with exact index boxes.

    Each face's `corners` are the ink boxes of its top-left index (rank over suit
    pip; a joker prints J-O-K-E-R stacked, or with `word_joker` one word across
    the top) and of the 180-degree copy at bottom-right. Seed 0 is the reference
    design; other seeds vary font and tint.
    """
    rng = random.Random(seed)
    font = glyphs.Font(ttf=_SIMPLE_FONTS[seed % len(_SIMPLE_FONTS)])
    paper: RGB = (255, 255, 255) if seed == 0 else tuple(rng.randint(236, 255) for _ in range(3))  # type: ignore[assignment]
    lay = _Layout(width)
    name = f"simple-word-{seed}" if word_joker else f"simple-{seed}"
    faces: dict[str, list[CardFace]] = {}
    for suit in SUITS:
        color = RED if suit in "HD" else BLACK
        for rank in RANKS:
            card = canvas.blank_card(width, paper)
            corners = canvas.paste_corner_pair(card, _index_tile(rank, suit, font, lay, color), lay.mx, lay.my)
            if rank in ("J", "Q", "K"):
                _draw_court(card, rank, suit, font, lay, color)
            else:
                _draw_pips(card, rank, suit, lay, color)
            cls = class_of(rank, suit)
            faces.setdefault(cls, []).append(CardFace(cls, card, corners, name))
    for color in (RED, BLACK):
        card = canvas.blank_card(width, paper)
        if word_joker:
            corners = canvas.paste_corner_pair(card, _word_joker_tile(rng, lay, color), lay.mx, lay.my)
            _draw_word_joker_art(card, rng, lay, color, corners)
        else:
            corners = canvas.paste_corner_pair(card, _joker_tile(font, lay, color), lay.mx, lay.my)
            _draw_joker_art(card, font, lay, color)
        faces.setdefault("JOKER", []).append(CardFace("JOKER", card, corners, name))
    backs = [simple_back(width, (30, 60, 160) if seed % 2 == 0 else (160, 30, 40), paper)]
    return Deck(name, "traditional", faces, backs, source="drawn by handfoot (datasets/decks/simple.py)", licence="AGPL-3.0-or-later (project code)")
