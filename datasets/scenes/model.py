"""Data crossing the scene generator's boundaries: placed cards, ground truth, scenes."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from datasets.faces import CardFace

BoxF = tuple[float, float, float, float]  # x1, y1, x2, y2 in image pixels


@dataclass
class Placement:
    """One physical card laid in the layout plane (before the camera sees it).

    `pose` maps face pixels (x, y, 1) to layout units (3x3, affine). Layout units
    are chosen so that every card is CARD_W units wide whatever its face size.
    """

    cls: str  # the card's printed class; "BACK" when it lies face down
    face: CardFace | None  # None for a face-down card
    image: np.ndarray  # RGBA artwork actually drawn (face or back)
    corners: list[tuple[int, int, int, int]]  # index boxes in `image` pixels (empty when face down)
    pose: np.ndarray
    place: str  # "table" | "leftover" | "loose"
    meld: int | None = None  # meld column on the table; None for red-3 row, leftovers, loose cards
    role: str = ""  # "meld", "red3", "stock", "hand", "pile", "loose"


@dataclass
class CardTruth:
    """Ground truth for one physical card as it appears in the photo."""

    cls: str
    face_down: bool
    place: str
    meld: int | None
    quad: list[tuple[float, float]]  # card corners in image pixels: TL, TR, BR, BL of the face
    corners: list[BoxF]  # the labelled corner boxes (BACK: the whole-card box)
    deck: str = ""
    visible: float = 1.0  # fraction of the card's area that is uncovered and inside the frame

    def to_json(self) -> dict:
        """A JSON-ready dict (rounded floats)."""
        return {
            "cls": self.cls,
            "face_down": self.face_down,
            "place": self.place,
            "meld": self.meld,
            "quad": [[round(x, 1), round(y, 1)] for x, y in self.quad],
            "corners": [[round(v, 1) for v in b] for b in self.corners],
            "deck": self.deck,
            "visible": round(self.visible, 3),
        }


@dataclass
class Scene:
    """A rendered photo: BGR image, YOLO-style labels and per-card ground truth."""

    image: np.ndarray  # H x W x 3, uint8, BGR
    labels: list[tuple[str, BoxF]]  # (class name, xyxy box in image pixels)
    cards: list[CardTruth]
    kind: str  # "table" | "leftover" | "generic"
    family: str
    meta: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        """Ground truth a scorer or evaluation needs, JSON-ready."""
        h, w = self.image.shape[:2]
        return {
            "kind": self.kind,
            "family": self.family,
            "width": w,
            "height": h,
            "cards": [c.to_json() for c in self.cards],
            "labels": [{"cls": c, "box": [round(v, 1) for v in b]} for c, b in self.labels],
            "meta": self.meta,
        }
