"""Card faces as the scene generator uses them: artwork plus where its indices are."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

Box = tuple[int, int, int, int]  # x1, y1, x2, y2 in face pixels


@dataclass
class CardFace:
    """One card's face image (RGBA, upright, portrait) and its index-corner boxes.

    `corners` holds a box for every printed corner index (usually top-left and
    the rotated copy at bottom-right), each tight around rank glyph plus the
    small suit/colour mark below it.
    """

    cls: str  # a name from scoring.detection_classes.CLASS_NAMES (never BACK)
    image: np.ndarray  # H x W x 4, uint8, RGBA
    corners: list[Box]
    deck: str


@dataclass
class Deck:
    """A deck design: its faces by class, its back, and where it came from."""

    name: str
    family: str  # "traditional" | "remastered" | "barefoot"
    faces: dict[str, list[CardFace]]
    backs: list[np.ndarray] = field(default_factory=list)  # RGBA card backs
    source: str = ""
    licence: str = ""
