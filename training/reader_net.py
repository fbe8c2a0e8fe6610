"""What every small reader learns from and how: labelled crops, and the loop that trains a `wild_net` on them.

The index readers (`training/wilds.py`), the joker-word reader
(`training/joker_words.py`) and the whole-card reader
(`training/whole_cards.py`) each cut their own crops into a `WildCrops`;
`train_wild_net` trains any of them the same way, measured after each epoch
on the crops held out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from vision.errors import VisionError
from vision.wild_reader import as_batch, net_width, wild_net

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


def train_wild_net(
    data: WildCrops,
    epochs: int = 20,
    batch: int = 64,
    lr: float = 3e-3,
    seed: int = 0,
    progress: Callable[[range], Iterable[int]] | None = None,
    on_epoch: Callable[[int, float], None] | None = None,
    width: int = 1,
    start=None,
    grey: float = 0.0,
):
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
