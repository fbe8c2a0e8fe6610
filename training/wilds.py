"""Train the index readers (`vision/wild_reader.py`: models/ranks.pt, wilds.pt, foot-wilds.pt) on generated frames.

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
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np

from training.progress import Progress, Say, silent, unshown
from training.reader_net import HOLD_OUT_EVERY, WildCrops, jittered_box, train_wild_net
from vision.errors import VisionError
from vision.wild_reader import READERS, crop_index, load_wild_reader, net_width, save_wild_reader


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


def wild_crops(
    builds: Iterable[Path], jittered: int = 2, seed: int = 0, progress: Callable[[list[Path]], Iterable[Path]] | None = None, reader: str = "wilds"
) -> WildCrops:
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
            corners = [(c["cls"], box) for c in frame["cards"] if c["cls"] in classes and not c["face_down"] for box in c["corners"]]
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
        raise VisionError(
            f"the frames hold no corners of {', '.join(classes)} in {' or '.join(families)} scenes (build with {' or '.join(families)} scenes)"
        )
    return WildCrops(np.stack(crops), np.array(labels, dtype=np.int64), np.array(held, dtype=bool), classes)


def rebuild(
    builds: list[Path],
    reader: str = "wilds",
    out: Path | None = None,
    epochs: int = 20,
    jittered: int = 2,
    seed: int = 0,
    width: int | None = None,
    start: Path | None = None,
    lr: float = 3e-3,
    grey: float | None = None,
    progress: Progress = unshown,
    say: Say = silent,
) -> Path:
    """Train the index reader `reader` (`handfoot train-wilds --reader`: wilds, foot-wilds or ranks) on the frames
    of `builds` and write it to `out` (default: the reader's shipped file); `width` and `grey` default to the
    shipped reader's, and a `start` file's net is trained on (its width kept) instead of a fresh one."""
    if reader == "joker-words":
        raise VisionError("the joker-word reader learns from the detector's own J boxes: train it with `handfoot train-joker-words`")
    if reader not in READERS:
        raise VisionError(f"unknown --reader {reader!r}: choose one of {', '.join(k for k in READERS if k != 'joker-words')}")
    out = out if out is not None else READERS[reader].weights
    first = load_wild_reader(start, reader).net if start is not None else None
    width = width if width is not None else READERS[reader].width  # a --start net keeps its own (train_wild_net)
    grey = READERS[reader].grey if grey is None else grey
    missing = [b for b in builds if not example_files([b])]
    if missing:
        raise VisionError(
            f"{missing[0]} has neither a frames/ folder nor round photos (make one with `handfoot dataset build` or `handfoot dataset rounds`)"
        )
    started = time.monotonic()
    data = wild_crops(builds, jittered, seed, progress("cropping index corners"), reader=reader)
    counts = ", ".join(f"{n} {cls}" for cls, n in data.counts().items())
    say(f"{len(data)} crops ({counts}), {int(data.held_out.sum())} held out")
    net, curve = train_wild_net(
        data,
        epochs,
        lr=lr,
        seed=seed,
        progress=progress("training"),
        width=width,
        start=first,
        grey=grey,
        on_epoch=lambda e, acc: say(f"epoch {e + 1}: held-out accuracy {acc:.4f}"),
    )
    facts = {
        "builds": [str(b) for b in builds],
        "reader": reader,
        "crops": len(data),
        "held_out": int(data.held_out.sum()),
        "epochs": epochs,
        "jittered": jittered,
        "seed": seed,
        "width": net_width(net),
        "start": str(start) if start is not None else None,
        "lr": lr,
        "grey": grey,
        "held_out_accuracy": [round(a, 4) for a in curve],
        "minutes": round((time.monotonic() - started) / 60, 1),
    }
    path = save_wild_reader(net, out, facts, data.classes)
    say(f"wrote {path} (held-out accuracy {curve[-1]:.4f})")
    return path
