"""How blurred a photo is, measured on the indices the detector found in it.

A sharp edge blurred by a Gaussian of width sigma keeps its contrast C but
its steepest slope falls to C / (sigma * sqrt(2 pi)), so each index box gives
sigma = C / (slope * sqrt(2 pi)), with C the spread of its grey levels (5th
to 95th percentile) and the slope the 98th percentile of its gradient. The
gradient is a 3 x 3 Sobel, a difference across two pixels: it spreads even a
perfectly sharp step over two pixels (slope C / 2, read as sigma 0.80 px),
and reads a step blurred by sigma as C erf(1 / (sigma sqrt 2)) / 2, which
`_blur_px` inverts, so a sharp edge reads 0 px at any index size. Divided by
the box's long side it says how wide an edge is next to the index, so a
small sharp index and a large soft one are told apart. A photo's blur is the
median over its boxes.

A photo whose blur reaches `BLURRED` is worth photographing again. The
threshold is `dev11`'s top 5 % of photos (thirty-eighth session,
`models/README.md`, "Blur measured free of the gradient's spread"): of the held-out rounds' 1,108 photos
53 reach it; the detector named 87.3 % of their true corners against 98.4 %
of the others', and 26 of the 52 sides with such a photo were scored wrong
against 87 of the other 457 (since the fortieth session's rank reader rule; 27 and 89 before, 91 before
the thirty-ninth session's joining). No real photo of `table-webcam` or
`closeup-phone` reaches it, read as `score` reads them or as `watch` does;
1 of the 193 `edje-rank` photos it can measure.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from vision.detection import Detection

#: A photo whose median index edge is at least this share of an index wide reads as blurred.
BLURRED = 0.039
#: A box whose long side is under MIN_BOX_PX (or short side under two thirds of it), or whose grey levels
#: spread less than MIN_CONTRAST, measures nothing.
MIN_BOX_PX = 6
MIN_CONTRAST = 20.0
#: Fewer measurable boxes than this: no figure (one stray box says nothing of a photo).
MIN_BOXES = 3
_ROOT_2PI = math.sqrt(2 * math.pi)
#: What the Sobel slope makes of a perfectly sharp step: slope C / 2, read as 2 / sqrt(2 pi) px.
SHARP_PX = 2 / _ROOT_2PI


def _blur_px(apparent: float) -> float:
    """The Gaussian width (px) of a step edge whose Sobel slope reads as `apparent` px: the step's central
    difference over two pixels is erf(1 / (s sqrt 2)) of its contrast, so erf(1 / (s sqrt 2)) = SHARP_PX /
    apparent, solved for s by bisection (0 where the edge reads as sharp as a step or sharper)."""
    ratio = SHARP_PX / apparent if apparent > 0 else 1.0
    if ratio >= 1.0:
        return 0.0
    lo, hi = 0.0, 50.0  # erf(x) = ratio for x = 1 / (s sqrt 2); erf rises with x
    for _ in range(50):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if math.erf(mid) < ratio else (lo, mid)
    return 1.0 / (math.sqrt(2) * max(lo, 1e-9))


def edge_width(image: np.ndarray, box: Sequence[float]) -> float | None:
    """The blur width at one index box of a BGR (or grey) image, as a share of the box's long side;
    None where the box is too small or too flat to say."""
    import cv2  # noqa: PLC0415

    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    if min(w, h) < MIN_BOX_PX * 2 / 3 or max(w, h) < MIN_BOX_PX:
        return None
    height, width = image.shape[:2]
    crop = image[max(0, int(y1 - 0.1 * h)) : min(height, int(y2 + 0.1 * h) + 1), max(0, int(x1 - 0.1 * w)) : min(width, int(x2 + 0.1 * w) + 1)]
    if crop.size == 0:
        return None
    grey = (cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop).astype(np.float32)
    contrast = float(np.percentile(grey, 95) - np.percentile(grey, 5))
    if contrast < MIN_CONTRAST:
        return None
    slope = np.hypot(cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)) / 8
    apparent = contrast / (float(np.percentile(slope, 98)) * _ROOT_2PI + 1e-6)
    return _blur_px(apparent) / max(w, h)


def photo_blur(image: np.ndarray, detections: Sequence[Detection]) -> float | None:
    """The median `edge_width` over a photo's index boxes; None with fewer than `MIN_BOXES` measurable."""
    widths = [v for v in (edge_width(image, d.box) for d in detections) if v is not None]
    if len(widths) < MIN_BOXES:
        return None
    return float(np.median(widths))


def is_blurred(blur: float | None) -> bool:
    """Whether a photo's `photo_blur` calls for photographing it again."""
    return blur is not None and blur >= BLURRED
