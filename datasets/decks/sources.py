"""Where traditional deck art comes from: registry packages, their licences, and what each holds.

Every source is a package from an ordinary registry (Debian apt, npm, PyPI).
For each we record the licence we found stated in its own files, and which
of its decks belong in the default training mix (English indices A/J/Q/K,
two-colour suits) and why the others stay out.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from datasets.decks import render

RANK_NAMES = {"1": "A", "11": "J", "12": "Q", "13": "K", "T": "10", "jack": "J", "queen": "Q", "king": "K"}


@dataclass(frozen=True)
class DeckEntry:
    """One deck a source offers: our name for it, whether it joins the default mix, and why not."""

    name: str
    ref: str  # the source's own handle (file stem, folder)
    in_default_mix: bool = True
    note: str = ""


@dataclass(frozen=True)
class Source:
    """A registry package holding card art."""

    name: str
    registry: str  # "debian" | "npm" | "pypi"
    package: str
    licence: str  # as recorded in the cache and datasets/README.md
    licence_file: str  # path inside the unpacked package that states it
    licence_marker: str  # text that must appear there (checked, so a relicensed package is noticed)
    list_decks: Callable[[Path], list[DeckEntry]]
    render_deck: Callable[[Path, DeckEntry], tuple[dict[str, np.ndarray], list[np.ndarray]]]


# ------------------------------------------------------------------ aisleriot sheets

AISLERIOT_DIR = "usr/share/aisleriot/cards"
# Reviewed by eye (court-card corners, suit colours) for gnome-cards-data / aisleriot 3.22.
AISLERIOT_REVIEW: dict[str, tuple[bool, str]] = {
    "anglo": (True, ""), "anglo_bitmap": (True, ""), "anglo_modern": (True, ""), "anglo_poker": (True, ""),
    "atlasnye": (True, ""), "bellot": (True, ""), "bonded": (True, ""), "dondorf": (True, ""),
    "gnomangelo": (True, ""), "gnomangelo_bitmap": (True, ""), "neoclassical": (True, ""), "orell": (True, ""),
    "ornamental": (True, ""), "paris": (True, ""), "plastic": (True, ""), "simplistic": (True, ""),
    "tango": (True, ""), "tango_nuevo": (True, ""), "tigullio": (True, ""),
    "guyenne-classic": (False, "court cards print a pip, not a letter, in the corner"),
    "ancient_french": (False, "French indices (V/D/R)"),
    "tarocco": (False, "Italian indices (F/D/R)"),
    "berlin": (False, "German indices (B/D/K)"),
    "lattmann": (False, "German indices (B/D/K)"),
    "rheinland": (False, "German indices (B/D/K)"),
    "atlasnye_skat": (False, "German indices (B/D/K), four-colour suits"),
    "slavic_costumes": (False, "Cyrillic indices"),
    "Атласные": (False, "Cyrillic indices"),
    "anglo_modern_4_color": (False, "four-colour suits"),
    "neoclassical_4_color": (False, "four-colour suits"),
    "swiss-xvii": (False, "Swiss suits and indices"),
}


def _ascii_name(stem: str) -> str:
    if stem == "Атласные":
        return "atlasnye-cyrillic"
    return "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in stem).replace("_", "-").lower()


def _aisleriot_decks(root: Path) -> list[DeckEntry]:
    folder = root / AISLERIOT_DIR
    out = []
    for path in sorted(folder.glob("*.svg*")):
        stem = path.name.split(".")[0]
        in_mix, note = AISLERIOT_REVIEW.get(stem, (False, "not reviewed yet"))
        out.append(DeckEntry(f"aisleriot-{_ascii_name(stem)}", path.name, in_mix, note))
    return out


def _aisleriot_render(root: Path, entry: DeckEntry) -> tuple[dict[str, np.ndarray], list[np.ndarray]]:
    return render.render_sheet(root / AISLERIOT_DIR / entry.ref)


# ------------------------------------------------------------------ npm: Adrian Kennard's CC0 SVG cards

HERUKA_DIR = "package/src/images"


def _heruka_decks(root: Path) -> list[DeckEntry]:
    return [
        DeckEntry("kennard-2color", "2color"),
        DeckEntry("kennard-2color-bigface", "2color-bf"),
        DeckEntry("kennard-4color", "4color", False, "four-colour suits"),
        DeckEntry("kennard-4color-bigface", "4color-bf", False, "four-colour suits"),
    ]


def _heruka_render(root: Path, entry: DeckEntry) -> tuple[dict[str, np.ndarray], list[np.ndarray]]:
    folder = root / HERUKA_DIR / entry.ref
    faces = {}
    for path in sorted(folder.glob("*.svg")):
        stem = path.stem
        if stem.endswith("J") and stem[:-1].isdigit():
            code = f"JOKER-{stem[:-1]}"
        else:
            code = RANK_NAMES.get(stem[:-1], stem[:-1]) + stem[-1]
        faces[code] = render.face(render.render_svg(path, render.FACE_WIDTH))
    backs = [render.face(render.render_svg(root / HERUKA_DIR / "back.svg", render.FACE_WIDTH))]
    return faces, backs


# ------------------------------------------------------------------ npm: svg-cards (David Bellot's SVG cards as PNG)

SVG_CARDS_DIR = "package/png/2x"
_SUIT_WORDS = {"club": "C", "diamond": "D", "heart": "H", "spade": "S"}


def _svg_cards_render(root: Path, entry: DeckEntry) -> tuple[dict[str, np.ndarray], list[np.ndarray]]:
    folder = root / SVG_CARDS_DIR
    faces = {}
    for word, suit in _SUIT_WORDS.items():
        for path in folder.glob(f"{word}_*.png"):
            rank = path.stem.split("_", 1)[1]
            faces[RANK_NAMES.get(rank, rank) + suit] = render.face(render.load_png(path))
    for i, colour in enumerate(("black", "red")):
        path = folder / f"joker_{colour}.png"
        if path.exists():
            faces[f"JOKER-{i + 1}"] = render.face(render.load_png(path))
    backs = [render.face(render.load_png(folder / f"back-{c}.png")) for c in ("red", "blue", "navy", "green", "maroon") if (folder / f"back-{c}.png").exists()]
    return faces, backs


# ------------------------------------------------------------------ npm: Chris Aguilar's vector cards (younestouati)

def _aguilar_render(root: Path, entry: DeckEntry) -> tuple[dict[str, np.ndarray], list[np.ndarray]]:
    folder = root / "package" / "cards"
    faces = {}
    for path in folder.glob("*.svg"):
        stem = path.stem
        if stem in ("back", "joker"):
            continue
        rank, suit = stem[:-1], stem[-1].upper()
        faces[RANK_NAMES.get(rank, rank) + suit] = render.face(render.render_svg(path, render.FACE_WIDTH))
    if (folder / "joker.svg").exists():
        faces["JOKER-1"] = render.face(render.render_svg(folder / "joker.svg", render.FACE_WIDTH))
    backs = [render.face(render.render_svg(folder / "back.svg", render.FACE_WIDTH))]
    return faces, backs


# ------------------------------------------------------------------ PyPI: arcade ships Kenney's CC0 cards

KENNEY_DIR = "arcade/resources/assets/images/cards"
_KENNEY_SUITS = {"Clubs": "C", "Diamonds": "D", "Hearts": "H", "Spades": "S"}


def _kenney_render(root: Path, entry: DeckEntry) -> tuple[dict[str, np.ndarray], list[np.ndarray]]:
    folder = root / KENNEY_DIR
    faces = {}
    for word, suit in _KENNEY_SUITS.items():
        for path in folder.glob(f"card{word}*.png"):
            faces[path.stem[len("card") + len(word):] + suit] = render.face(render.load_png(path))
    if (folder / "cardJoker.png").exists():
        faces["JOKER-1"] = render.face(render.load_png(folder / "cardJoker.png"))
    backs = [render.face(render.load_png(p)) for p in sorted(folder.glob("cardBack_*[13].png"))]
    return faces, backs


def _single(name: str) -> Callable[[Path], list[DeckEntry]]:
    return lambda root: [DeckEntry(name, name)]


SOURCES: tuple[Source, ...] = (
    Source("gnome-cards-data", "debian", "gnome-cards-data", "GPL-3+", "usr/share/doc/gnome-cards-data/copyright", "GPL-3+", _aisleriot_decks, _aisleriot_render),
    Source("aisleriot", "debian", "aisleriot", "GPL-3+", "usr/share/doc/aisleriot/copyright", "GPL-3+", _aisleriot_decks, _aisleriot_render),
    Source("react-playing-cards", "npm", "@heruka_urgyen/react-playing-cards", "CC0-1.0 (card art by Adrian Kennard, per the README; package code MIT)", "package/README.md", "CC0", _heruka_decks, _heruka_render),
    Source("svg-cards", "npm", "svg-cards", "LGPL-2.1", "package/package.json", "LGPL-2.1", _single("svg-cards"), _svg_cards_render),
    Source("playing-cards-standard-deck", "npm", "@younestouati/playing-cards-standard-deck", "LGPL-3.0", "package/LICENSE", "LESSER GENERAL PUBLIC LICENSE", _single("aguilar"), _aguilar_render),
    Source("arcade-kenney", "pypi", "arcade", "CC0-1.0 (Kenney card pack)", "arcade/resources/assets/images/License.txt", "CC0", _single("kenney"), _kenney_render),
)
