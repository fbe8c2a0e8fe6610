"""Photos of index-like marks at known boxes, sharp or blurred by a known amount (no model, no deck art)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.detection import Detection


def index_photo(detections: list[Detection], width: int, height: int, sigma: float = 0.0) -> np.ndarray:
    """A white BGR photo with a dark, glyph-like mark (an outline with a bar across: an '8' or a 'B')
    filling each detection's box, blurred by a Gaussian of `sigma` px (0: sharp)."""
    image = np.full((height, width, 3), 235, np.uint8)
    for det in detections:
        x1, y1, x2, y2 = (int(round(v)) for v in det.box)
        stroke = max(2, (x2 - x1) // 6)
        cv2.rectangle(image, (x1 + stroke // 2, y1 + stroke // 2), (x2 - stroke // 2, y2 - stroke // 2), (30, 30, 30), stroke)
        mid = (y1 + y2) // 2
        cv2.line(image, (x1, mid), (x2, mid), (30, 30, 30), stroke)
    if sigma > 0:
        image = cv2.GaussianBlur(image, (0, 0), sigma)
    return image
