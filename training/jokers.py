"""Train the joker grouper (`vision/joker_groups.py`) on generated round photos.

Each round photo's JSON (`handfoot dataset rounds`) lists every card with its
outline, in the order the cards were laid (a later card lies on top). A joker
box belongs to the topmost card whose outline holds its centre; two boxes on
one joker are a positive pair, any other pair (two jokers, or a box lying on no
joker at all) a negative one. The examples are the pairs of boxes the joining
leaves on jokers, from the detector's own boxes on those photos, so the network
learns the detector's habits (extra marks, missed corners) as well as the
cards' geometry. One photo in ten is kept back to measure the result.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from training.progress import Progress, Say, silent, unshown
from training.round_photos import DetectSource, check_folders, joined_round_photos
from vision.detection import JOKER, Card, inside_convex
from vision.errors import VisionError
from vision.joker_groups import (
    FEATURES,
    JokerBoxes,
    JokerGrouper,
    corner_groups,
    joker_boxes,
    joker_net,
    load_joker_grouper,
    save_joker_grouper,
)

HOLD_OUT_EVERY = 10  # photos whose number (in the order given) is a multiple of this are held out


def true_card_of(point: tuple[float, float], truth: dict) -> int:
    """Index of the topmost true joker under point (cards later in the JSON lie on top); -1 when the topmost
    card there is no joker, or there is none."""
    top = -1
    for n, card in enumerate(truth["cards"]):
        if inside_convex(point, card["quad"]):
            top = n
    return top if top >= 0 and truth["cards"][top]["cls"] == JOKER else -1


def true_jokers(truth: dict) -> int:
    """Face-up jokers with a labelled corner in view: what a perfect grouping would count."""
    return sum(1 for c in truth["cards"] if c["cls"] == JOKER and not c.get("face_down") and c.get("corners"))


@dataclass
class PhotoPairs:
    """One photo's joker boxes (as the joining left them), the rows of their pairs in the examples, its true
    joker count and whether it is held out."""

    found: JokerBoxes
    rows: list[int]
    truth: int
    held_out: bool


@dataclass
class JokerExamples:
    """Pair features with their labels (1: one joker's), per photo records, and which are held out."""

    features: np.ndarray
    same: np.ndarray
    held_out: np.ndarray
    photos: list[PhotoPairs]

    def __len__(self) -> int:
        return len(self.same)


def joker_examples(photos: Iterable[tuple[Sequence[Card], bool, dict]]) -> JokerExamples:
    """Examples from (joined cards, is a photo of hands, the photo's true JSON) for each photo."""
    rows: list[np.ndarray] = []
    same: list[float] = []
    held: list[bool] = []
    records: list[PhotoPairs] = []
    for number, (cards, hands, truth) in enumerate(photos):
        found = joker_boxes(cards, hands)
        count = true_jokers(truth)
        if not found.boxes and not count:
            continue
        out = number % HOLD_OUT_EVERY == 0
        owner = [true_card_of(d.center, truth) for d in found.boxes]
        start = len(same)
        for i, j in found.pairs:
            same.append(float(owner[i] >= 0 and owner[i] == owner[j]))
            held.append(out)
        rows.append(found.features)
        records.append(PhotoPairs(found, list(range(start, len(same))), count, out))
    features = np.concatenate(rows) if rows else np.zeros((0, FEATURES), np.float32)
    return JokerExamples(features, np.array(same, np.float32), np.array(held, bool), records)


def counts_right(examples: JokerExamples, odds: np.ndarray | None, held_out: bool = True, threshold: float = 0.5) -> tuple[int, int, int]:
    """(photos, photos whose joker count the joining alone gets right, photos the grouping gets right) among the
    held-out photos (or the training ones); `odds` per example row, None: the true labels (a perfect network)."""
    photos = joining = grouped = 0
    for photo in examples.photos:
        if photo.held_out != held_out:
            continue
        p = examples.same if odds is None else odds
        groups = corner_groups(photo.found, {pair: float(p[r]) for pair, r in zip(photo.found.pairs, photo.rows)}, threshold)
        photos += 1
        joining += len(set(photo.found.card_of)) == photo.truth
        grouped += len(groups) == photo.truth
    return photos, joining, grouped


def train_joker_net(
    examples: JokerExamples,
    epochs: int = 300,
    batch: int = 128,
    lr: float = 0.003,
    seed: int = 0,
    progress: Callable[[range], Iterable[int]] | None = None,
):
    """Fit the pair network on the examples not held out; returns (grouper, held-out pair accuracy)."""
    import torch  # noqa: PLC0415

    train = ~examples.held_out
    if train.sum() < 10 or len(np.unique(examples.same[train])) < 2:
        raise VisionError(f"too few joker pairs to train on ({int(train.sum())}): give more round photos with jokers")
    torch.manual_seed(seed)
    x_all = examples.features
    mean = x_all[train].mean(axis=0)
    scale = x_all[train].std(axis=0) + 1e-6
    x = torch.from_numpy((x_all[train] - mean) / scale)
    y = torch.from_numpy(examples.same[train])
    net = joker_net()
    opt = torch.optim.AdamW(net.parameters(), lr, weight_decay=1e-3)
    steps = progress(range(epochs)) if progress else range(epochs)
    for _ in steps:
        net.train()
        order = torch.randperm(len(x))
        for k in range(0, len(x), batch):
            idx = order[k : k + batch]
            loss = torch.nn.functional.binary_cross_entropy_with_logits(net(x[idx]).squeeze(1), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    net.eval()
    grouper = JokerGrouper(net, mean, scale)
    held = examples.held_out
    accuracy = float(((grouper.odds(x_all[held]) >= 0.5) == (examples.same[held] >= 0.5)).mean()) if held.any() else 0.0
    return grouper, accuracy


def rebuild(
    folders: list[Path],
    detection: DetectSource,
    out: Path = Path("models/jokers.pt"),
    epochs: int = 300,
    seed: int = 0,
    beside: Path | None = None,
    progress: Progress = unshown,
    say: Say = silent,
) -> Path:
    """Train the joker grouper (`handfoot train-jokers`) on the detector's joker boxes in the round photos of
    `folders` (never the held-out rounds) and write it to `out`; a grouper file `beside` is kept beside the new
    network (the file written holds both, their odds averaged: models/jokers.pt was made so)."""
    check_folders(folders)
    kept = [load_joker_grouper(beside)] if beside is not None else []
    started = time.monotonic()
    detect, seen = detection()
    examples = joker_examples(joined_round_photos(folders, detect, seen, progress("detecting and joining")))
    say(
        f"{len(examples)} pairs of joker boxes ({int(examples.same.sum())} on one joker) from "
        f"{len(examples.photos)} photos with jokers, {int(examples.held_out.sum())} pairs held out"
    )
    grouper, accuracy = train_joker_net(examples, epochs, seed=seed, progress=progress("training"))
    photos, joining, grouped = counts_right(examples, grouper.odds(examples.features))
    say(f"held out: pairs right {accuracy:.4f}; joker count right on {grouped} of {photos} photos (the joining alone: {joining})")
    if kept:
        joint = dataclasses.replace(grouper, beside=tuple(kept))
        both = counts_right(examples, joint.odds(examples.features))[2]
        say(f"with {beside} beside it: joker count right on {both} of {photos} photos")
    facts = {
        "folders": [str(f) for f in folders],
        "pairs": len(examples),
        "photos": len(examples.photos),
        "held_out_pairs": int(examples.held_out.sum()),
        "epochs": epochs,
        "seed": seed,
        "held_out_pair_accuracy": round(accuracy, 4),
        "held_out_photos": {"photos": photos, "joining_right": joining, "grouped_right": grouped},
        "minutes": round((time.monotonic() - started) / 60, 1),
    }
    path = save_joker_grouper(grouper.net, grouper.mean, grouper.scale, out, facts, kept)
    say(f"wrote {path}")
    return path
