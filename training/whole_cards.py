"""Train the whole-card reader (`vision/whole_cards.py`) on generated scenes, which know every card's corners.

Its examples are every pair of a scene's true corner boxes that
`could_be_one_card` by size and span, named ONE where both are one card's
and APART otherwise, cropped as the reader crops (`diagonal_crop`) on boxes
jittered as the detector's sit. The scenes mix what players photograph:
tables of fanned melds, hands in fans, rows and piles, cards scattered at any
angle, close-ups (`SCENE_MIX`), every deck family. Scenes are rendered in
chunks kept in a cache folder, so a stopped run resumes where it was.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np

from training.progress import Progress, Say, silent, unshown
from training.reader_net import HOLD_OUT_EVERY, WildCrops, jittered_box, train_wild_net
from vision.detection import Detection
from vision.errors import VisionError
from vision.whole_cards import (
    CLASSES,
    DEFAULT_WHOLE_CARD_WEIGHTS,
    could_be_one_card,
    diagonal_crop,
    save_whole_card_reader,
)

SCENE_MIX = {"generic": 0.3, "closeup": 0.25, "leftover": 0.25, "table": 0.2}  # scene kinds and their shares
CHUNK = 50  # scenes a cached chunk holds
STRETCH = 1.8  # the most a stretched scene is stretched along one axis (or squeezed: 1 / STRETCH)
TRUE_BOX_RATIO = 1.3  # true boxes of one card's indices match in size and shape, jitter aside
ONE_COPIES = 3  # jittered copies of each pair on one card (pairs of two cards are far more common)
JITTER = 0.12  # share of a box: how far a copy's centre and size may stray


def _stretched(image: np.ndarray, boxes: list, rng: np.random.Generator) -> tuple[np.ndarray, list]:
    """The photo and its boxes stretched along one axis by up to `STRETCH` (as a photo resized to a square is,
    or one taken at a slant foreshortens)."""
    import cv2  # noqa: PLC0415

    f = float(np.exp(rng.uniform(-np.log(STRETCH), np.log(STRETCH))))
    sx, sy = (f, 1.0) if rng.random() < 0.5 else (1.0, f)
    h, w = image.shape[:2]
    image = cv2.resize(image, (max(1, round(w * sx)), max(1, round(h * sy))), interpolation=cv2.INTER_AREA)
    return image, [(k, Detection(d.cls, d.conf, (d.box[0] * sx, d.box[1] * sy, d.box[2] * sx, d.box[3] * sy))) for k, d in boxes]


def scene_pair_crops(scenes: Iterable, seed: int = 0, hold_out_every: int = HOLD_OUT_EVERY, stretch: float = 0.0) -> WildCrops:
    """Crops of every pair of a generated scene's true corner boxes that `could_be_one_card` (by size and span
    alone, so the network, not the geometry, tells the rest), labelled ONE where both are one card's corners;
    boxes jittered as the detector's sit, ONE pairs copied `ONE_COPIES` more times. Every
    `hold_out_every`-th scene is kept back to measure the result. `scenes` are `datasets.scenes.model.Scene`s
    of any kind: tables, hands, piles, cards scattered at any angle, close-ups; a `stretch` share of them is
    stretched along one axis first (`_stretched`)."""
    rng = np.random.default_rng(seed)
    stretch_rng = np.random.default_rng([seed, 1])
    crops, labels, held = [], [], []
    for n, scene in enumerate(scenes):
        image = scene.image
        boxes = [(k, Detection(card.cls, 1.0, tuple(box))) for k, card in enumerate(scene.cards) if not card.face_down for box in card.corners]
        if stretch and stretch_rng.random() < stretch:
            image, boxes = _stretched(image, boxes, stretch_rng)
        back = n % hold_out_every == 0
        for i, (ka, a) in enumerate(boxes):
            for kb, b in boxes[i + 1 :]:
                if not could_be_one_card(a, b, TRUE_BOX_RATIO):
                    continue
                one = ka == kb
                for _copy in range(1 + (ONE_COPIES if one else 0)):
                    crop = diagonal_crop(image, jittered_box(a.box, rng, JITTER), jittered_box(b.box, rng, JITTER))
                    crops.append(crop[::-1, ::-1] if rng.random() < 0.5 else crop)
                    labels.append(CLASSES.index("ONE" if one else "APART"))
                    held.append(back)
    if not crops:
        raise VisionError("the scenes hold no pair of boxes that could be one card")
    return WildCrops(np.ascontiguousarray(np.stack(crops)), np.array(labels, dtype=np.int64), np.array(held, dtype=bool), CLASSES)


def _render_chunk(decks: list, first: int, seed: int, count: int) -> list:
    from datasets.scenes.render import SCENE_KINDS, SceneOptions  # noqa: PLC0415

    rng = np.random.default_rng(seed * 100000 + first)
    kinds = list(SCENE_MIX)
    shares = np.array([SCENE_MIX[k] for k in kinds])
    return [SCENE_KINDS[kinds[int(rng.choice(len(kinds), p=shares / shares.sum()))]](rng, decks, SceneOptions()) for _ in range(count)]


def scene_crops(
    load_decks: Callable[[], list],
    scenes: int,
    seed: int,
    cache: Path,
    progress: Callable[[Iterable[int]], Iterable[int]] = iter,
    stretch: float = 0.0,
) -> WildCrops:
    """The pair crops of `scenes` generated scenes, rendered in chunks of up to `CHUNK` and kept in `cache` (one
    .npz a chunk, named by seed, first scene, count and `stretch` share): chunks already there are read back, and
    the decks (`load_decks()`) are loaded only when a chunk must be rendered."""
    cache.mkdir(parents=True, exist_ok=True)
    parts = []
    decks = None
    for first in progress(range(0, scenes, CHUNK)):
        count = min(CHUNK, scenes - first)
        file = cache / (f"pairs-{seed}-{first:06d}-{count}" + (f"-s{stretch:g}" if stretch else "") + ".npz")
        if not file.is_file():
            decks = decks if decks is not None else load_decks()
            data = scene_pair_crops(_render_chunk(decks, first, seed, count), seed=first, stretch=stretch)
            tmp = file.with_suffix(".tmp.npz")
            np.savez(tmp, crops=data.crops, labels=data.labels, held=data.held_out)
            tmp.replace(file)
        saved = np.load(file)
        parts.append((saved["crops"], saved["labels"], saved["held"]))
    return WildCrops(*(np.concatenate([p[k] for p in parts]) for k in range(3)), CLASSES)


def rebuild(
    scenes: int = 1600,
    cache: Path = Path("data/whole-card-pairs"),
    out: Path | None = None,
    epochs: int = 3,
    width: int = 1,
    seed: int = 1,
    decks_cache: Path | None = None,
    stretch: float = 0.5,
    progress: Progress = unshown,
    say: Say = silent,
) -> Path:
    """Train the whole-card reader (`handfoot train-whole-cards`) on `scenes` generated scenes (their crops kept
    in `cache`; a `stretch` share stretched) and write it to `out` (default: models/whole-cards.pt). The defaults
    rebuild the shipped reader."""
    from datasets.decks import load_decks  # noqa: PLC0415

    started = time.monotonic()
    data = scene_crops(lambda: load_decks(decks_cache), scenes, seed, cache, progress("rendering scenes"), stretch)
    counts = ", ".join(f"{n} {cls}" for cls, n in data.counts().items())
    say(f"{len(data)} crops ({counts}), {int(data.held_out.sum())} held out")
    net, curve = train_wild_net(
        data,
        epochs,
        seed=seed,
        width=width,
        progress=progress("training"),
        on_epoch=lambda e, acc: say(f"epoch {e + 1}: held-out accuracy {acc:.4f}"),
    )
    facts = {
        "scenes": scenes,
        "seed": seed,
        "stretch": stretch,
        "crops": len(data),
        "counts": data.counts(),
        "held_out": int(data.held_out.sum()),
        "epochs": epochs,
        "width": width,
        "held_out_accuracy": [round(a, 4) for a in curve],
        "minutes": round((time.monotonic() - started) / 60, 1),
    }
    path = save_whole_card_reader(net, out if out is not None else DEFAULT_WHOLE_CARD_WEIGHTS, facts)
    say(f"wrote {path} (held-out accuracy {curve[-1]:.4f})")
    return path
