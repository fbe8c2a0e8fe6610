"""Contact sheets: every face of every deck with its corner boxes drawn, for review by eye."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from datasets.faces import Deck

_BOX_COLOUR = (0, 200, 0)  # RGB


def _thumb(image: np.ndarray, corners: list, height: int) -> np.ndarray:
    """The face over a grey checker (so transparency shows), boxes drawn, scaled to `height`."""
    rgb = image[..., :3].astype(np.float32)
    a = image[..., 3:4].astype(np.float32) / 255.0
    out = (rgb * a + 160 * (1 - a)).astype(np.uint8)
    for x1, y1, x2, y2 in corners:
        cv2.rectangle(out, (x1, y1), (x2 - 1, y2 - 1), _BOX_COLOUR, 2)
    scale = height / out.shape[0]
    return cv2.resize(out, (round(out.shape[1] * scale), height), interpolation=cv2.INTER_AREA)


def deck_strip(deck: Deck, height: int = 140, label_w: int = 200) -> np.ndarray:
    """One row: the deck's name, then all faces (in class order) and backs."""
    from scoring.detection_classes import CLASS_NAMES  # noqa: PLC0415

    tiles = [_thumb(f.image, f.corners, height) for cls in CLASS_NAMES for f in deck.faces.get(cls, [])]
    tiles += [_thumb(b, [], height) for b in deck.backs]
    pad = np.full((height, 4, 3), 255, np.uint8)
    row = np.hstack([x for t in tiles for x in (t, pad)]) if tiles else np.full((height, 10, 3), 255, np.uint8)
    label = np.full((height, label_w, 3), 255, np.uint8)
    words = [deck.name, deck.family, f"{sum(len(v) for v in deck.faces.values())} faces"]
    for i, text in enumerate(words):
        cv2.putText(label, text[:24], (6, 24 + 22 * i), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (0, 0, 0), 1, cv2.LINE_AA)
    return np.hstack([label, row])


def contact_sheet(decks: list[Deck], path: Path) -> None:
    """Write one image with a row per deck: every face with its corner boxes in green, then the backs.

    Rows are about 140 px tall; a JPEG (smaller) or PNG by the path's suffix.
    """
    path = Path(path)
    rows = [deck_strip(d) for d in decks]
    if not rows:
        rows = [np.full((40, 400, 3), 255, np.uint8)]
    width = max(r.shape[1] for r in rows)
    sep = lambda: np.full((6, width, 3), 200, np.uint8)  # noqa: E731
    parts = []
    for r in rows:
        parts += [np.pad(r, ((0, 0), (0, width - r.shape[1]), (0, 0)), constant_values=255), sep()]
    sheet = np.vstack(parts)
    path.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(path), cv2.cvtColor(sheet, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 85]):
        raise OSError(f"could not write the contact sheet to {path}")
