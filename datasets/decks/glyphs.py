"""Ink masks for the things a card prints: text in a font, suit pips, feet, socks, shoes.

Every function returns a tight uint8 mask (0 = no ink, 255 = full ink) with no
empty border, so the caller knows exactly where the ink of what it pastes lies.
Shapes are drawn at 4x and shrunk, which gives anti-aliased edges.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

_SUPER = 4  # supersampling factor for drawn shapes


@lru_cache(maxsize=1)
def font_dir() -> Path:
    """Matplotlib's bundled TrueType fonts (DejaVu, STIX, Computer Modern): a local, licensed source."""
    import matplotlib  # noqa: PLC0415

    return Path(matplotlib.get_data_path()) / "fonts" / "ttf"


# TrueType faces that print Latin digits and capitals legibly (the Computer Modern
# and STIX symbol fonts are left out: some map letters to symbols; so is
# DejaVuSansDisplay, which has no digits or capitals at all and printed blank
# indices). The list's length and order fix which face each procedural deck
# draws, so a face is replaced in place rather than removed.
TTF_FONTS: tuple[str, ...] = (
    "DejaVuSans.ttf",
    "DejaVuSans-Bold.ttf",
    "DejaVuSans-Oblique.ttf",
    "DejaVuSansMono.ttf",
    "DejaVuSansMono-Bold.ttf",
    "DejaVuSerif.ttf",
    "DejaVuSerif-Bold.ttf",
    "DejaVuSerif-Italic.ttf",
    "DejaVuSans-BoldOblique.ttf",
    "STIXGeneral.ttf",
    "STIXGeneralBol.ttf",
    "cmss10.ttf",
    "cmr10.ttf",
    "cmb10.ttf",
)

HERSHEY_FONTS: tuple[int, ...] = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_PLAIN,
)


@dataclass(frozen=True)
class Font:
    """A typeface: a TrueType file name under font_dir(), or an OpenCV Hershey font id."""

    ttf: str | None = None
    hershey: int | None = None
    weight: int = 2  # stroke thickness for Hershey fonts, in units of the 1/30-height stroke


# What an index prints: every rank, the 3s, the wild values and letters, words.
INDEX_TEXTS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "W", "20", "50", "JOKER")


def prints_all(font: Font, texts: tuple[str, ...] = INDEX_TEXTS) -> bool:
    """Whether the font inks every one of `texts` (a face lacking a glyph prints nothing for it)."""
    return all(_text_big(t, font).size > 1 for t in texts)  # already cropped: 1x1 when blank


@lru_cache(maxsize=1)
def _ttf_fonts() -> tuple[Font, ...]:
    return tuple(f for f in (Font(ttf=name) for name in TTF_FONTS if (font_dir() / name).exists()) if prints_all(f))


def all_fonts() -> list[Font]:
    """Every typeface the procedural decks may use: only faces that print every index text."""
    fonts = list(_ttf_fonts())
    fonts += [Font(hershey=h, weight=w) for h in HERSHEY_FONTS for w in (2, 3)]
    return fonts


def crop(mask: np.ndarray) -> np.ndarray:
    """The mask cut to the bounding box of its ink (an empty mask stays 1x1)."""
    ys, xs = np.nonzero(mask > 24)
    if len(xs) == 0:
        return np.zeros((1, 1), np.uint8)
    return mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def fit_height(mask: np.ndarray, height: int, max_width: int | None = None) -> np.ndarray:
    """Scale a tight mask to the given ink height, squeezed to at most max_width wide."""
    h, w = mask.shape
    scale = height / h
    width = w * scale
    if max_width is not None and width > max_width:
        width = max_width  # condensed, as printed indices squeeze a wide "10"
    size = (max(1, round(width)), max(1, round(h * scale)))
    return crop(cv2.resize(mask, size, interpolation=cv2.INTER_AREA))


@lru_cache(maxsize=4096)
def _text_big(text: str, font: Font) -> np.ndarray:
    """Text rendered large (about 200 px tall) in the font, tightly cropped."""
    if font.ttf is not None:
        pil_font = ImageFont.truetype(str(font_dir() / font.ttf), 200)
        left, top, right, bottom = pil_font.getbbox(text)
        img = Image.new("L", (right - left + 40, bottom - top + 40), 0)
        ImageDraw.Draw(img).text((20 - left, 20 - top), text, font=pil_font, fill=255)
        return crop(np.asarray(img))
    scale = 6.0
    thickness = max(1, round(font.weight * scale))
    (tw, th), base = cv2.getTextSize(text, font.hershey, scale, thickness)
    img = np.zeros((th + base + 4 * thickness, tw + 4 * thickness), np.uint8)
    cv2.putText(img, text, (2 * thickness, th + 2 * thickness), font.hershey, scale, 255, thickness, cv2.LINE_AA)
    return crop(img)


def text_mask(text: str, font: Font, height: int, max_width: int | None = None) -> np.ndarray:
    """Ink mask of `text` whose ink is exactly `height` px tall (narrower if max_width binds)."""
    return fit_height(_text_big(text, font), height, max_width)


def stack_text(text: str, font: Font, letter_height: int, gap: int) -> np.ndarray:
    """Letters of `text` stacked top to bottom, centred (a joker's vertical index)."""
    letters = [text_mask(ch, font, letter_height) for ch in text]
    return stack([m for m in letters], gap)


def stack(masks: list[np.ndarray], gap: int, align: str = "center") -> np.ndarray:
    """Masks placed one under the other with `gap` px between them."""
    width = max(m.shape[1] for m in masks)
    height = sum(m.shape[0] for m in masks) + gap * (len(masks) - 1)
    out = np.zeros((height, width), np.uint8)
    y = 0
    for m in masks:
        x = (width - m.shape[1]) // 2 if align == "center" else 0
        out[y : y + m.shape[0], x : x + m.shape[1]] = np.maximum(out[y : y + m.shape[0], x : x + m.shape[1]], m)
        y += m.shape[0] + gap
    return out


def side_by_side(masks: list[np.ndarray], gap: int) -> np.ndarray:
    """Masks placed left to right, vertically centred."""
    height = max(m.shape[0] for m in masks)
    width = sum(m.shape[1] for m in masks) + gap * (len(masks) - 1)
    out = np.zeros((height, width), np.uint8)
    x = 0
    for m in masks:
        y = (height - m.shape[0]) // 2
        out[y : y + m.shape[0], x : x + m.shape[1]] = np.maximum(out[y : y + m.shape[0], x : x + m.shape[1]], m)
        x += m.shape[1] + gap
    return out


# ---------------------------------------------------------------- drawn shapes


def _canvas(size: int) -> np.ndarray:
    return np.zeros((size * _SUPER, size * _SUPER), np.uint8)


def _finish(img: np.ndarray, size: int) -> np.ndarray:
    small = cv2.resize(img, (size, size), interpolation=cv2.INTER_AREA)
    return crop(small)


@lru_cache(maxsize=256)
def _shape(kind: str, size: int) -> np.ndarray:
    s = size * _SUPER
    img = _canvas(size)
    u = s / 100.0  # drawing unit: 1/100 of the box

    def pt(x: float, y: float) -> tuple[int, int]:
        return (round(x * u), round(y * u))

    def circle(x: float, y: float, r: float) -> None:
        cv2.circle(img, pt(x, y), round(r * u), 255, -1, cv2.LINE_AA)

    def poly(points: list[tuple[float, float]]) -> None:
        cv2.fillPoly(img, [np.array([pt(x, y) for x, y in points], np.int32)], 255, cv2.LINE_AA)

    def ellipse(x: float, y: float, ax: float, ay: float, angle: float = 0) -> None:
        cv2.ellipse(img, pt(x, y), (round(ax * u), round(ay * u)), angle, 0, 360, 255, -1, cv2.LINE_AA)

    if kind == "heart":
        circle(28, 32, 24)
        circle(72, 32, 24)
        poly([(6, 40), (94, 40), (50, 96)])
    elif kind == "diamond":
        poly([(50, 2), (90, 50), (50, 98), (10, 50)])
    elif kind == "spade":
        circle(28, 58, 22)
        circle(72, 58, 22)
        poly([(8, 52), (92, 52), (50, 2)])
        poly([(44, 60), (56, 60), (66, 98), (34, 98)])
    elif kind == "club":
        circle(50, 26, 22)
        circle(26, 60, 22)
        circle(74, 60, 22)
        poly([(45, 40), (55, 40), (66, 98), (34, 98)])
    elif kind == "dot":
        circle(50, 50, 45)
    elif kind == "star":
        pts = []
        for i in range(10):
            r = 48 if i % 2 == 0 else 20
            a = np.pi / 2 + i * np.pi / 5
            pts.append((50 + r * np.cos(a), 52 - r * np.sin(a)))
        poly(pts)
    elif kind == "foot":  # a left footprint: sole plus five toes
        ellipse(46, 66, 22, 32, 8)
        circle(30, 22, 9)
        circle(45, 14, 7)
        circle(57, 14, 6)
        circle(67, 19, 5.5)
        circle(75, 27, 5)
    elif kind == "sock":  # leg going up, foot pointing right
        poly([(22, 2), (56, 2), (56, 62), (22, 62)])
        ellipse(58, 78, 34, 18)
        circle(32, 70, 22)
        poly([(22, 6), (56, 6), (56, 14), (22, 14)])
    elif kind == "shoe":  # a low shoe pointing right
        poly([(6, 40), (40, 34), (56, 50), (86, 58), (96, 74), (96, 86), (6, 86)])
        ellipse(24, 40, 18, 16)
        poly([(4, 88), (98, 88), (98, 96), (4, 96)])
    elif kind == "bar":
        poly([(4, 40), (96, 40), (96, 60), (4, 60)])
    else:
        raise ValueError(f"unknown shape {kind!r}")
    return _finish(img, size)


SHAPES = ("heart", "diamond", "spade", "club", "dot", "star", "foot", "sock", "shoe", "bar")


def shape_mask(kind: str, height: int, mirror: bool = False) -> np.ndarray:
    """Ink mask of a drawn shape (suit pip, foot, sock, shoe, ...) with the given ink height."""
    m = fit_height(_shape(kind, 200), height)
    return m[:, ::-1].copy() if mirror else m

