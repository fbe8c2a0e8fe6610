"""What the detector reports and what corners join into."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

Box = tuple[float, float, float, float]  # x1, y1, x2, y2 in image pixels
JOKER = "JOKER"  # the joker's class, which several steps after the detector treat apart
BACK = "BACK"  # a face-down card's class (a whole card's box)


def box_intersection(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """Area shared by two xyxy boxes."""
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    return ix * iy


def share_inside(inner: tuple[float, ...], outer: tuple[float, ...]) -> float:
    """How much of box `inner`'s area lies inside box `outer` (0..1; 1 for a box of no area)."""
    area = (inner[2] - inner[0]) * (inner[3] - inner[1])
    return box_intersection(inner, outer) / area if area > 0 else 1.0


def inside_convex(point: tuple[float, float], polygon: Sequence[Sequence[float]], edges: bool = True) -> bool:
    """Whether `point` lies inside a convex polygon (its corners in order round it, either way); on an edge
    counts as inside where `edges` is set."""
    turns = [(q[0] - o[0]) * (point[1] - o[1]) - (q[1] - o[1]) * (point[0] - o[0]) for o, q in zip(polygon, list(polygon[1:]) + list(polygon[:1]))]
    if edges:
        return all(t >= 0 for t in turns) or all(t <= 0 for t in turns)
    return all(t > 0 for t in turns) or all(t < 0 for t in turns)


def box_iou(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """Intersection over union of two xyxy boxes."""
    inter = box_intersection(a, b)
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


@dataclass(frozen=True)
class Detection:
    """One detected corner index (or a BACK card box)."""

    cls: str
    conf: float
    box: Box

    @property
    def center(self) -> tuple[float, float]:
        x1, y1, x2, y2 = self.box
        return ((x1 + x2) / 2.0, (y1 + y2) / 2.0)

    @property
    def size(self) -> float:
        """Index size: the longer side of the box, in pixels."""
        x1, y1, x2, y2 = self.box
        return max(x2 - x1, y2 - y1)


@dataclass
class Reading:
    """A photo's detections: the sure boxes, and apart from them the unsure ones (`vision/detector.py`)."""

    sure: list[Detection]
    unsure: list[Detection] = field(default_factory=list)


@dataclass(frozen=True)
class Card:
    """One physical card: the corner detections that belong to it."""

    cls: str
    conf: float
    corners: tuple[Detection, ...] = field(default_factory=tuple)
    marks: tuple[Detection, ...] = ()  # more boxes on its face that are its own (a joker's word), not cards

    @property
    def center(self) -> tuple[float, float]:
        xs = [d.center[0] for d in self.corners]
        ys = [d.center[1] for d in self.corners]
        return (sum(xs) / len(xs), sum(ys) / len(ys))

    @property
    def box(self) -> Box:
        """The box around all of the card's corner detections."""
        return (
            min(d.box[0] for d in self.corners),
            min(d.box[1] for d in self.corners),
            max(d.box[2] for d in self.corners),
            max(d.box[3] for d in self.corners),
        )


def nms_merge(dets: list[Detection], iou: float) -> list[Detection]:
    """Class-aware non-maximum suppression: of boxes of one class overlapping at `iou` or more, the surest stays
    (detections from overlapping tiles, or a box renamed onto another of its new name)."""
    kept: list[Detection] = []
    for det in sorted(dets, key=lambda d: d.conf, reverse=True):
        if all(d.cls != det.cls or box_iou(d.box, det.box) < iou for d in kept):
            kept.append(det)
    return kept


def renamed(dets: list[Detection], name: Callable[[Detection], str | None], iou: float) -> list[Detection]:
    """`dets` with each detection renamed where `name` gives it another class (None: keep it);
    a box renamed onto another box of its new name merges with it (`nms_merge` at `iou`)."""
    out = []
    for det in dets:
        cls = name(det)
        out.append(replace(det, cls=cls) if cls and cls != det.cls else det)
    return nms_merge(out, iou) if out != list(dets) else out
