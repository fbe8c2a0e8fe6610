"""Train a second-look reader (`vision/wild_reader.py`) on generated frames.

Its examples are the corners of the reader's classes in `handfoot dataset
build` frames, or `handfoot dataset rounds` photos, of the deck families it
reads (Remastered wilds; Bare Foot wilds and clothing cards; traditional and
Remastered ranks): each frame's (or photo's) JSON names every card, its deck
family and its corner boxes. Each corner gives one crop on its true box and
`jittered` more on boxes shifted and scaled by up to `JITTER` of the box (as
the detector's boxes sit), and one frame in ten (one round in ten: all its
photos) is kept back to measure the result. Nothing here is a real
photo: the readers never learn from the real sets.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.errors import VisionError
from vision.wild_reader import READERS, as_batch, crop_index, net_width, wild_net

JITTER = 0.12  # share of the box: how far a jittered crop's centre and size may stray
HOLD_OUT_EVERY = 10  # frames whose number is a multiple of this are validation frames


@dataclass
class WildCrops:
    """Crops with their labels (indices into `classes`) and which are held out for validation."""

    crops: np.ndarray
    labels: np.ndarray
    held_out: np.ndarray
    classes: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.labels)

    def counts(self) -> dict[str, int]:
        """How many crops of each class."""
        return {cls: int((self.labels == k).sum()) for k, cls in enumerate(self.classes)}


def jittered_box(box, rng: np.random.Generator, jitter: float = JITTER) -> tuple[float, float, float, float]:
    """`box` with its centre moved and its size scaled at random, each by up to `jitter` of the box (as the
    detector's boxes sit on an index)."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    cx = (x1 + x2) / 2 + rng.uniform(-jitter, jitter) * w
    cy = (y1 + y2) / 2 + rng.uniform(-jitter, jitter) * h
    s = rng.uniform(1 - jitter, 1 + jitter)
    return cx - s * w / 2, cy - s * h / 2, cx + s * w / 2, cy + s * h / 2


def _frame_number(path: Path) -> int:
    """A build frame's number (img-000123: 123), or a round photo's round (round-012-side1-table: 12)."""
    stem = path.stem.split("-side")[0] if path.stem.startswith("round-") else path.stem
    digits = "".join(ch for ch in stem if ch.isdigit())
    return int(digits) if digits else 0


def example_files(folders: Iterable[Path]) -> list[Path]:
    """The frame JSONs of build folders (frames/img-*.json) and the photo JSONs of round folders
    (round-*-*.json), in order."""
    files = []
    for folder in map(Path, folders):
        frames = folder / "frames"
        files += sorted(frames.glob("img-*.json")) if frames.is_dir() else sorted(folder.glob("round-*-*.json"))
    return files


def wild_crops(builds: Iterable[Path], jittered: int = 2, seed: int = 0,
               progress: Callable[[list[Path]], Iterable[Path]] | None = None,
               reader: str = "wilds") -> WildCrops:
    """Every face-up corner of the `reader`'s classes (a key of READERS) in the builds' frames of the deck
    families it reads, cropped as the reader crops."""
    import cv2  # noqa: PLC0415

    classes, families = READERS[reader].classes, READERS[reader].families
    rng = np.random.default_rng(seed)
    files = example_files(builds)
    if not files:
        raise VisionError("no frames found: give folders made by `handfoot dataset build` or `handfoot dataset rounds`")
    crops, labels, held = [], [], []
    for file in progress(files) if progress else files:
        try:
            frame = json.loads(file.read_text(encoding="utf-8"))
            if frame.get("family") not in families:
                continue
            corners = [(c["cls"], box) for c in frame["cards"] if c["cls"] in classes and not c["face_down"]
                       for box in c["corners"]]
        except (ValueError, KeyError, TypeError) as exc:
            raise VisionError(f"{file}: not a frame JSON that `handfoot dataset build` or `rounds` wrote ({exc})") from exc
        if not corners:
            continue
        image = cv2.imread(str(file.with_suffix(".jpg")))
        if image is None:
            raise VisionError(f"{file.with_suffix('.jpg')}: missing or unreadable frame image")
        back = _frame_number(file) % HOLD_OUT_EVERY == 0
        for cls, box in corners:
            for copy in range(1 + jittered):
                crops.append(crop_index(image, tuple(box) if copy == 0 else jittered_box(box, rng)))
                labels.append(classes.index(cls))
                held.append(back)
    if not crops:
        raise VisionError(f"the frames hold no corners of {', '.join(classes)} in {' or '.join(families)} scenes "
                          f"(build with {' or '.join(families)} scenes)")
    return WildCrops(np.stack(crops), np.array(labels, dtype=np.int64), np.array(held, dtype=bool), classes)


def _accuracy(net, crops: np.ndarray, y, chunk: int = 4096) -> float:
    import torch  # noqa: PLC0415

    if len(y) == 0:
        return float("nan")
    net.eval()
    with torch.no_grad():
        named = torch.cat([net(as_batch(crops[k : k + chunk])).argmax(1) for k in range(0, len(crops), chunk)])
    return float((named == y).float().mean())


def greyed(crops: np.ndarray, rng: np.random.Generator, share: float) -> np.ndarray:
    """`crops` (N, size, size, 3, uint8) with about `share` of them, drawn by `rng`, turned grey (each pixel's
    three channels their mean); the rest as they were."""
    if share <= 0 or not len(crops):
        return crops
    pick = rng.random(len(crops)) < share
    if not pick.any():
        return crops
    out = crops.copy()
    out[pick] = np.round(out[pick].mean(axis=3, keepdims=True)).astype(np.uint8)
    return out


def train_wild_net(data: WildCrops, epochs: int = 20, batch: int = 64, lr: float = 3e-3, seed: int = 0,
                   progress: Callable[[range], Iterable[int]] | None = None,
                   on_epoch: Callable[[int, float], None] | None = None, width: int = 1, start=None,
                   grey: float = 0.0):
    """Train a `wild_net` (one output per class of `data`) on the crops not held out (AdamW, one-cycle
    rate, light colour and exposure jitter, a `grey` share of each batch without colour: `ReaderKind.grey`):
    a fresh one of `width`, or a copy of the net `start` (a loaded reader's, its width kept); returns the
    net and its accuracy on the held-out crops after each epoch."""
    import torch  # noqa: PLC0415
    from torch import nn  # noqa: PLC0415

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    # the crops stay bytes until a batch needs them (as floats, 300,000 crops would take 6 GB)
    x, y = data.crops[~data.held_out], torch.from_numpy(data.labels[~data.held_out])
    xv, yv = data.crops[data.held_out], torch.from_numpy(data.labels[data.held_out])
    if len(y) == 0:
        raise VisionError("every crop is held out: give more frames")
    net = wild_net(len(data.classes), width if start is None else net_width(start))
    if start is not None:
        net.load_state_dict(start.state_dict())
    opt = torch.optim.AdamW(net.parameters(), lr, weight_decay=1e-3)
    steps = (len(y) + batch - 1) // batch
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, lr, total_steps=epochs * steps)
    curve = []
    for epoch in progress(range(epochs)) if progress else range(epochs):
        net.train()
        order = torch.randperm(len(y))
        for at in range(0, len(y), batch):
            idx = order[at : at + batch]
            xb = as_batch(greyed(x[idx.numpy()], rng, grey))
            xb = xb * (1 + 0.2 * torch.randn(len(idx), 1, 1, 1)) + 0.2 * torch.randn(len(idx), 3, 1, 1)
            loss = nn.functional.cross_entropy(net(xb), y[idx], label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        curve.append(_accuracy(net, xv, yv))
        if on_epoch:
            on_epoch(epoch, curve[-1])
    net.eval()
    return net, curve
