"""The detector's boxes on generated round photos, which the joker grouper and the joker-word reader learn from.

Each photo `handfoot dataset rounds` makes has a JSON naming every true card
beside it. These networks learn from the detector's own boxes there, not
from the true labels, so they learn its habits (extra marks, missed corners)
as well. A recipe is given `detection`, called once its inputs are checked
(loading the detector takes a while): it returns the detect function and the
callback told each photo's path before it is detected (a detection cache
needs it), or None.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from training.progress import Phase, Progress, Say, silent, unshown
from training.reader_net import WildCrops, train_wild_net
from vision.detection import Detection
from vision.errors import VisionError
from vision.wild_reader import net_width

DetectSource = Callable[[], tuple[Callable, Callable | None]]  # detection(): (detect, seen or None)


@dataclass
class RoundPhoto:
    """One generated round photo: its pixels, the detector's sure boxes, its true JSON and its round's number."""

    image: np.ndarray
    boxes: list[Detection]
    truth: dict
    round_number: int


def check_folders(folders: list[Path]) -> None:
    """Refuse a folder that is not there, before the detector is loaded."""
    missing = [f for f in folders if not f.is_dir()]
    if missing:
        raise VisionError(f"{missing[0]} is not a folder (make round photos with `handfoot dataset rounds`)")


def round_photo_files(folders: list[Path]) -> list[Path]:
    """The JSON of every generated round photo (round-*-*.json beside its .jpg) in `folders`; none is an error."""
    paths = [p for f in folders for p in sorted(f.glob("round-*-*.json")) if p.with_suffix(".jpg").is_file()]
    if not paths:
        raise VisionError(
            f"no round photos (round-*-*.jpg with their JSON) in {', '.join(map(str, folders))} (make some with `handfoot dataset rounds`)"
        )
    return paths


def joined_round_photos(folders: list[Path], detect, seen: Callable | None, progress: Phase) -> list:
    """(joined cards without the joker grouper, is a photo of hands, true JSON) of every generated round photo."""
    from handfoot.photo_round import read_photo  # noqa: PLC0415
    from training.eval.joins import role_of  # noqa: PLC0415
    from vision.pipe import LEFTOVER  # noqa: PLC0415

    out = []
    for path in progress(round_photo_files(folders)):
        try:
            truth = json.loads(path.read_text())
            role = role_of(truth)
            family = "barefoot" if truth.get("family") == "barefoot" else "standard"
        except (ValueError, AttributeError) as exc:
            raise VisionError(f"{path}: not a photo JSON that `handfoot dataset rounds` wrote ({exc})") from exc
        if role is None or "cards" not in truth:
            continue
        if seen is not None:
            seen(path.with_suffix(".jpg"))
        photo = read_photo(path.with_suffix(".jpg"), role, "", detect, family, wilds=True, jokers=False)
        out.append((photo.cards, role == LEFTOVER, truth))
    return out


def read_round_photos(
    folders: list[Path], detect, seen: Callable | None, progress: Phase, keep=lambda truth: truth.get("family") != "barefoot"
) -> Iterator[RoundPhoto]:
    """Each generated round photo of `folders` whose truth (its JSON) `keep` takes (default: traditional and
    Remastered decks) as a RoundPhoto: its pixels, the detector's sure boxes, its truth."""
    from vision.imageio import load_image  # noqa: PLC0415

    for path in progress(round_photo_files(folders)):
        try:
            truth = json.loads(path.read_text())
            number = int(path.stem.split("-")[1])
        except (ValueError, IndexError) as exc:
            raise VisionError(f"{path}: not a photo JSON that `handfoot dataset rounds` wrote ({exc})") from exc
        if not isinstance(truth, dict) or not keep(truth):
            continue
        image = load_image(path.with_suffix(".jpg"))
        if seen is not None:
            seen(path.with_suffix(".jpg"))
        found = detect(image)
        yield RoundPhoto(image, list(getattr(found, "sure", found)), truth, number)


def reader_trained(
    folders: list[Path],
    detection: DetectSource,
    epochs: int,
    seed: int,
    label: str,
    crops_of: Callable[[Iterable[RoundPhoto], int], WildCrops],
    keep=None,
    width: int = 1,
    progress: Progress = unshown,
    say: Say = silent,
):
    """Shared by the readers that learn from the detector's boxes on generated round photos: the folders
    checked, each photo `keep` takes (by its truth; default: `read_round_photos`'s) detected, `crops_of(photos,
    seed)` cut, and a `wild_net` of `width` trained on them; returns (the net, its crops, and facts of the run:
    its data, epochs, seed, held-out accuracy after each epoch, minutes)."""
    started = time.monotonic()
    check_folders(folders)
    detect, seen = detection()
    chosen = {} if keep is None else {"keep": keep}
    data = crops_of(read_round_photos(folders, detect, seen, progress(label), **chosen), seed)
    counts = ", ".join(f"{n} {cls}" for cls, n in data.counts().items())
    say(f"{len(data)} crops ({counts}), {int(data.held_out.sum())} held out")
    net, curve = train_wild_net(
        data,
        epochs,
        seed=seed,
        progress=progress("training"),
        width=width,
        on_epoch=lambda e, acc: say(f"epoch {e + 1}: held-out accuracy {acc:.4f}"),
    )
    facts = {
        "folders": [str(f) for f in folders],
        "crops": len(data),
        "counts": data.counts(),
        "held_out": int(data.held_out.sum()),
        "epochs": epochs,
        "seed": seed,
        "width": net_width(net),
        "held_out_accuracy": [round(a, 4) for a in curve],
        "minutes": round((time.monotonic() - started) / 60, 1),
    }
    return net, data, facts
