"""A second look at Remastered wilds: is the index a 20-point or a 50-point wild?

Hand & Foot Remastered prints its wilds' value small (on four of our six drawn
decks, under a big W), so the detector, which sees an index at 10-50 px,
names the two alike and often wrongly: a 50 read as a 20 was the commonest
misread on the held-out rounds (models/README.md, "Wilds"). This module crops
every box the detector called WILD20 or WILD50 from the photo at full
resolution, squares it, and lets a small network trained on nothing but these
crops (`vision/wild_training.py`, `handfoot train-wilds`) name it.

Bare Foot photos keep their own rule (the ink: `vision/ink.py`); this reader is
for the standard family, whose only wilds are Remastered ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from vision.checkpoints import load_checkpoint, save_checkpoint
from vision.detection import Detection, renamed

WILDS = ("WILD20", "WILD50")  # the network's classes, in its output order
DEFAULT_WILD_WEIGHTS = Path(__file__).resolve().parent.parent / "models" / "wilds.pt"
CROP = 40  # px: each crop is scaled to CROP x CROP
MARGIN = 1.3  # the crop's side: this many times the box's longer side, centred on the box
MERGE_IOU = 0.5  # a renamed box merges with a box of its new name overlapping it this much


def crop_index(image: np.ndarray, box: tuple[float, float, float, float], size: int = CROP,
               margin: float = MARGIN) -> np.ndarray:
    """A `size` x `size` BGR square around `box`: its longer side times `margin`, centred on the box
    (edges beyond the photo repeat its border pixels)."""
    import cv2  # noqa: PLC0415

    x1, y1, x2, y2 = box
    side = max(x2 - x1, y2 - y1, 1.0) * margin
    left, top = (x1 + x2 - side) / 2, (y1 + y2 - side) / 2
    k = size / side
    warp = np.float32([[k, 0, -left * k], [0, k, -top * k]])
    return cv2.warpAffine(image, warp, (size, size), flags=cv2.INTER_AREA if side > size else cv2.INTER_CUBIC,
                          borderMode=cv2.BORDER_REPLICATE)


def as_batch(crops: np.ndarray):
    """Crops (N, size, size, 3, uint8) as the network's input: each crop centred on its own mean
    and scaled by its own contrast (so light and exposure matter little, colour still does)."""
    import torch  # noqa: PLC0415

    t = torch.from_numpy(np.ascontiguousarray(crops)).float().permute(0, 3, 1, 2)
    mean = t.mean(dim=(1, 2, 3), keepdim=True)
    spread = t.std(dim=(1, 2, 3), keepdim=True) + 8.0
    return (t - mean) / spread


def wild_net():
    """Four 3x3 convolution blocks and a linear head: about 60,000 weights."""
    from torch import nn  # noqa: PLC0415

    def block(cin: int, cout: int) -> list:
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]

    return nn.Sequential(*block(3, 16), nn.MaxPool2d(2), *block(16, 32), nn.MaxPool2d(2),
                         *block(32, 64), nn.MaxPool2d(2), *block(64, 64),
                         nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(64, len(WILDS)))


@dataclass
class WildReader:
    """Names each WILD20/WILD50 box of a photo by the trained network's look at its crop."""

    net: object
    size: int = CROP
    margin: float = MARGIN

    def fifty_odds(self, image: np.ndarray, dets: list[Detection]) -> list[float]:
        """For each detection, the network's probability that its crop is a 50-point wild."""
        import torch  # noqa: PLC0415

        if not dets:
            return []
        crops = np.stack([crop_index(image, d.box, self.size, self.margin) for d in dets])
        with torch.no_grad():
            return torch.softmax(self.net(as_batch(crops)), dim=1)[:, 1].tolist()

    def read(self, image: np.ndarray, dets: list[Detection], iou: float = MERGE_IOU) -> list[Detection]:
        """`dets` with every wild named as the network reads it; a box renamed onto another box of
        its new name merges with it (class-aware NMS at `iou`)."""
        wild = [d for d in dets if d.cls in WILDS]
        if not wild or image is None or image.ndim != 3:
            return list(dets)
        fifty = {id(d): odds >= 0.5 for d, odds in zip(wild, self.fifty_odds(image, wild))}
        return renamed(dets, lambda d: WILDS[fifty[id(d)]] if id(d) in fifty else None, iou)


def save_wild_reader(net, path: Path, facts: dict) -> Path:
    """Write the network's weights with the crop geometry and `facts` (how it was trained, what it scored)."""
    return save_checkpoint({"classes": list(WILDS), "size": CROP, "margin": MARGIN, "state": net.state_dict(),
                            "facts": facts}, path)


def _wild_reader(saved: dict) -> WildReader:
    if saved.get("classes") != list(WILDS):
        raise ValueError(f"its classes are {saved.get('classes')}")
    net = wild_net()
    net.load_state_dict(saved["state"])
    net.eval()
    return WildReader(net, int(saved["size"]), float(saved["margin"]))


def load_wild_reader(path: Path | None = None) -> WildReader:
    """Load a wild reader written by `save_wild_reader` (default models/wilds.pt); never downloads."""
    return load_checkpoint(path if path is not None else DEFAULT_WILD_WEIGHTS, "wild reader", "handfoot train-wilds",
                           _wild_reader)


@lru_cache(maxsize=1)
def shipped_wild_reader() -> WildReader | None:
    """The bundled reader (models/wilds.pt), loaded once; None where this checkout has none."""
    if not DEFAULT_WILD_WEIGHTS.is_file():
        return None
    return load_wild_reader(DEFAULT_WILD_WEIGHTS)
