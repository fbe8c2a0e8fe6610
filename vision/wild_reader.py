"""A second look at wilds: which of its few look-alikes is this index?

Hand & Foot Remastered prints its wilds' value small (on four of our six drawn
decks, under a big W), so the detector, which sees an index at 10-50 px,
names the two alike and often wrongly: a 50 read as a 20 was the commonest
misread on the held-out rounds (models/README.md, "Wilds"). This module crops
every box the detector called one of a reader's classes from the photo at full
resolution, squares it, and lets a small network trained on nothing but these
crops (`vision/wild_training.py`, `handfoot train-wilds`) name it.

Two readers ship: the Remastered one (`models/wilds.pt`: a 20 or a 50) for the
standard family, and the Bare Foot one (`models/foot-wilds.pt`: a blue 20, a
red 50, a sock or a shoe), whose clothing cards print their value in the
wilds' place and colours (a blue sock "50" was read as a red wild's 50).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from vision.checkpoints import load_checkpoint, save_checkpoint
from vision.detection import Detection, renamed

WILDS = ("WILD20", "WILD50")  # the Remastered reader's classes, in its output order
FOOT_SPECIALS = ("WILD20", "WILD50", "SOCK", "SHOE")  # the Bare Foot reader's
READER_CLASSES = {"remastered": WILDS, "barefoot": FOOT_SPECIALS}  # by the deck family of the frames it learns
DEFAULT_WILD_WEIGHTS = Path(__file__).resolve().parent.parent / "models" / "wilds.pt"
DEFAULT_FOOT_WEIGHTS = Path(__file__).resolve().parent.parent / "models" / "foot-wilds.pt"
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


def wild_net(outputs: int = len(WILDS)):
    """Four 3x3 convolution blocks and a linear head with `outputs` classes: about 60,000 weights."""
    from torch import nn  # noqa: PLC0415

    def block(cin: int, cout: int) -> list:
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]

    return nn.Sequential(*block(3, 16), nn.MaxPool2d(2), *block(16, 32), nn.MaxPool2d(2),
                         *block(32, 64), nn.MaxPool2d(2), *block(64, 64),
                         nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(64, outputs))


@dataclass
class WildReader:
    """Names each box of one of `classes` in a photo by the trained network's look at its crop."""

    net: object
    size: int = CROP
    margin: float = MARGIN
    classes: tuple[str, ...] = WILDS  # the network's outputs, in order

    def names(self, image: np.ndarray, dets: list[Detection]) -> list[str]:
        """For each detection, the class the network reads in its crop."""
        import torch  # noqa: PLC0415

        if not dets:
            return []
        crops = np.stack([crop_index(image, d.box, self.size, self.margin) for d in dets])
        with torch.no_grad():
            return [self.classes[k] for k in self.net(as_batch(crops)).argmax(1).tolist()]

    def read(self, image: np.ndarray, dets: list[Detection], iou: float = MERGE_IOU) -> list[Detection]:
        """`dets` with every box of the reader's classes named as the network reads it; a box renamed
        onto another box of its new name merges with it (class-aware NMS at `iou`)."""
        mine = [d for d in dets if d.cls in self.classes]
        if not mine or image is None or image.ndim != 3:
            return list(dets)
        named = {id(d): cls for d, cls in zip(mine, self.names(image, mine))}
        return renamed(dets, lambda d: named.get(id(d)), iou)


def save_wild_reader(net, path: Path, facts: dict, classes: tuple[str, ...] = WILDS) -> Path:
    """Write the network's weights with its `classes`, the crop geometry and `facts` (how it was
    trained, what it scored)."""
    return save_checkpoint({"classes": list(classes), "size": CROP, "margin": MARGIN, "state": net.state_dict(),
                            "facts": facts}, path)


def load_wild_reader(path: Path | None = None, classes: tuple[str, ...] = WILDS) -> WildReader:
    """Load a reader of `classes` written by `save_wild_reader` (default models/wilds.pt, the Remastered
    one); never downloads. A file of other classes is refused by name."""

    def build(saved: dict) -> WildReader:
        if saved.get("classes") != list(classes):
            raise ValueError(f"its classes are {saved.get('classes')}, not {list(classes)}")
        net = wild_net(len(classes))
        net.load_state_dict(saved["state"])
        net.eval()
        return WildReader(net, int(saved["size"]), float(saved["margin"]), tuple(classes))

    return load_checkpoint(path if path is not None else DEFAULT_WILD_WEIGHTS, "wild reader", "handfoot train-wilds",
                           build)


@lru_cache(maxsize=1)
def shipped_wild_reader() -> WildReader | None:
    """The bundled Remastered reader (models/wilds.pt), loaded once; None where this checkout has none."""
    if not DEFAULT_WILD_WEIGHTS.is_file():
        return None
    return load_wild_reader(DEFAULT_WILD_WEIGHTS)


@lru_cache(maxsize=1)
def shipped_foot_reader() -> WildReader | None:
    """The bundled Bare Foot reader (models/foot-wilds.pt), loaded once; None where this checkout has none."""
    if not DEFAULT_FOOT_WEIGHTS.is_file():
        return None
    return load_wild_reader(DEFAULT_FOOT_WEIGHTS, FOOT_SPECIALS)
