"""Building a YOLO training set from synthetic scenes: tiles for training, full frames for validation.

Every image depends only on (seed, image number), so a build is byte-for-byte
reproducible whatever the number of worker processes.

Layout of a build folder:
    data.yaml                      ultralytics data file (train = tiles, val = full frames)
    train/images, train/labels     tiles (JPEG + YOLO txt)
    val/images, val/labels, val/json   full frames held out for validation
    frames/                        every full frame: JPEG, YOLO txt and ground-truth JSON
    build.json                     counts, seed, options and timing
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from datasets.faces import Deck
from datasets.scenes import SceneOptions, cut_tiles, render_random_scene
from datasets.scenes.cardsets import WORD_JOKER_WEIGHT
from datasets.scenes.tiles import yolo_lines
from scoring.detection_classes import CLASS_ID, CLASS_NAMES

FRAME_QUALITY = 92
TILE_QUALITY = 92


@dataclass(frozen=True)
class BuildJob:
    """What one worker needs to render image number `index`."""

    out: str
    index: int
    seed: int
    tile: int
    val: bool
    textures: tuple[str, ...]
    design_weights: tuple[tuple[str, float], ...] = ()


def data_yaml(out: Path) -> str:
    """The ultralytics data file text: tiles train, full frames validate, names in model order."""
    names = "\n".join(f'  {i}: "{n}"' for i, n in enumerate(CLASS_NAMES))
    return (
        f"# handfoot synthetic corner-index set\npath: {out.resolve()}\ntrain: train/images\n"
        f"val: val/images\nnc: {len(CLASS_NAMES)}\nnames:\n{names}\n"
    )


def write_jpeg(path: Path, img: np.ndarray, quality: int) -> int:
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise OSError(f"could not encode {path}")
    path.write_bytes(buf.tobytes())
    return len(buf)


_DECKS: list[Deck] | None = None


def _init_worker(decks: list[Deck] | None, cache: str | None, word_jokers: bool = False) -> None:
    """Load the deck mix once per process (or take the one handed over)."""
    global _DECKS
    cv2.setNumThreads(1)
    if decks is not None:
        _DECKS = decks
    else:
        from datasets.decks import load_decks  # noqa: PLC0415

        _DECKS = load_decks(Path(cache) if cache else None, word_jokers=word_jokers)


def render_job(job: BuildJob) -> dict:
    """Render one scene and write its frame (and tiles or validation copy); returns counts."""
    assert _DECKS is not None, "worker not initialised"
    out = Path(job.out)
    rng = np.random.default_rng([job.seed, job.index])
    opts = SceneOptions(textures=tuple(Path(t) for t in job.textures), design_weights=job.design_weights)
    scene = render_random_scene(rng, _DECKS, opts)
    stem = f"img-{job.index:06d}"
    h, w = scene.image.shape[:2]
    lines = yolo_lines(scene.labels, w, h, CLASS_ID)
    gt = json.dumps(scene.to_json(), indent=1)
    nbytes = write_jpeg(out / "frames" / f"{stem}.jpg", scene.image, FRAME_QUALITY)
    (out / "frames" / f"{stem}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
    (out / "frames" / f"{stem}.json").write_text(gt)
    counts: Counter = Counter()
    counts["frames"] += 1
    counts[f"kind_{scene.kind}"] += 1
    counts[f"family_{scene.family}"] += 1
    classes: Counter = Counter()
    if job.val:
        nbytes += write_jpeg(out / "val" / "images" / f"{stem}.jpg", scene.image, FRAME_QUALITY)
        (out / "val" / "labels" / f"{stem}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
        (out / "val" / "json" / f"{stem}.json").write_text(gt)
        counts["val_images"] += 1
        counts["val_boxes"] += len(lines)
    else:
        tiles = cut_tiles(scene.image, scene.labels, np.random.default_rng([job.seed, job.index, 7]), job.tile)
        for t, tile in enumerate(tiles):
            tstem = f"{stem}-t{t:02d}"
            nbytes += write_jpeg(out / "train" / "images" / f"{tstem}.jpg", tile.image, TILE_QUALITY)
            tl = yolo_lines(tile.labels, job.tile, job.tile, CLASS_ID)
            (out / "train" / "labels" / f"{tstem}.txt").write_text("\n".join(tl) + ("\n" if tl else ""))
            counts["train_tiles"] += 1
            counts["train_boxes"] += len(tl)
            counts["empty_tiles"] += 0 if tl else 1
            classes.update(c for c, _ in tile.labels)
    return {"counts": dict(counts), "classes": dict(classes), "bytes": nbytes}


def build_dataset(
    out: Path,
    images: int,
    seed: int,
    tile: int = 320,
    val_fraction: float = 0.1,
    decks: list[Deck] | None = None,
    decks_cache: Path | None = None,
    workers: int = 2,
    textures: list[Path] | None = None,
    design_weights: dict[str, float] | None = None,
    progress: Callable[[int, int], None] | None = None,
    word_jokers: bool = False,
) -> dict:
    """Render `images` scenes into `out` (see module docstring); returns counts and timing.

    `decks` defaults to datasets.decks.load_decks(decks_cache, word_jokers=word_jokers). `design_weights`
    (deck name -> weight, others 1) shows some designs more often; with `word_jokers` the word-joker decks
    weigh `WORD_JOKER_WEIGHT` as well. `progress(done, total)` is called after each image.
    """
    if images < 1:
        raise ValueError("images must be at least 1")
    if not 0.0 <= val_fraction < 1.0:
        raise ValueError("val_fraction must be in [0, 1)")
    t0 = time.perf_counter()
    out = Path(out)
    for sub in ("frames", "train/images", "train/labels", "val/images", "val/labels", "val/json"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    n_val = int(round(images * val_fraction))
    if val_fraction > 0 and images > 1:
        n_val = max(1, n_val)
    val_idx = set(int(i) for i in np.random.default_rng([seed, 999]).permutation(images)[:n_val])
    tex = tuple(str(p) for p in (textures or []))
    if word_jokers:
        from datasets.decks import word_joker_names  # noqa: PLC0415

        design_weights = {**(design_weights or {}), **{name: WORD_JOKER_WEIGHT for name in word_joker_names()}}
    weights = tuple(sorted((design_weights or {}).items()))
    jobs = [BuildJob(str(out), i, seed, tile, i in val_idx, tex, weights) for i in range(images)]
    totals: Counter = Counter()
    classes: Counter = Counter()
    nbytes = 0

    def take(res: dict, done: int) -> None:
        nonlocal nbytes
        totals.update(res["counts"])
        classes.update(res["classes"])
        nbytes += res["bytes"]
        if progress:
            progress(done, images)

    if workers <= 1:
        _init_worker(decks, str(decks_cache) if decks_cache else None, word_jokers)
        for k, job in enumerate(jobs, 1):
            take(render_job(job), k)
    else:
        ctx = mp.get_context("fork") if hasattr(os, "fork") else mp.get_context()
        with ctx.Pool(workers, initializer=_init_worker, initargs=(decks, str(decks_cache) if decks_cache else None, word_jokers)) as pool:
            for k, res in enumerate(pool.imap_unordered(render_job, jobs, chunksize=2), 1):
                take(res, k)
    (out / "data.yaml").write_text(data_yaml(out))
    seconds = time.perf_counter() - t0
    summary = {
        "images": images,
        "seed": seed,
        "tile": tile,
        "val_fraction": val_fraction,
        "workers": workers,
        "textures": len(tex),
        "design_weights": dict(weights),
        "word_jokers": word_jokers,
        **{k: totals[k] for k in sorted(totals)},
        "train_classes": {c: classes.get(c, 0) for c in CLASS_NAMES},
        "bytes": nbytes,
        "seconds": round(seconds, 1),
    }
    (out / "build.json").write_text(json.dumps(summary, indent=1))
    return summary
