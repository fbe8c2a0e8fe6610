"""The corner detector (`models/cards.pt`): trained with ultralytics, from scratch or on from our weights, offline.

`handfoot dataset build` keeps a set's validation scenes as full frames (our
evaluation predicts on full frames), but validation inside training runs at
the tile size: `training_yaml` cuts those frames into tiles at native scale,
as the training tiles are, and writes `train.yaml` pointing at them. The
shipped weights are training legs averaged weight by weight
(`training/average_weights.py`); models/README.md gives the legs.
"""

from __future__ import annotations

import dataclasses
import shutil
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import yaml

from scoring.detection_classes import CLASS_ID, CLASS_NAMES
from vision.errors import ModelError

MODEL_CONFIGS = ("yolo11n.yaml", "yolo26n.yaml")

# Corner indices are not mirror-symmetric ("7", "J", "4"): no left-right flips.
# The generator already rotates, warps and lights scenes; keep ultralytics' own
# geometry mild so the native index scale of the tiles survives.
AUGMENT = dict(
    fliplr=0.0, flipud=0.0, degrees=10.0, scale=0.3, translate=0.1, mosaic=1.0, mixup=0.0, hsv_h=0.02, hsv_s=0.5, hsv_v=0.4, close_mosaic=2
)

# A CPU run sees a few thousand optimizer steps at most. ultralytics' defaults
# suit long runs: gradients accumulated to a nominal batch of 64, 3 warm-up
# epochs and, for short runs, an "auto" AdamW rate of 0.002 * 5 / (4 + classes)
# (0.00037 for our 23). Measured here: 4 epochs of that reached mAP50 0.018 on
# the validation tiles. So: one optimizer step per batch (nbs = batch), a
# 5x higher rate and one warm-up epoch (biases too: their default warm-up
# rate of 0.1 is far too high for AdamW). A leg that continues from our own
# weights may ask for a lower rate and no warm-up (TrainPlan.lr0, .warmup_epochs).
SCHEDULE = dict(optimizer="AdamW", warmup_bias_lr=0.0)
LR0 = 0.002
WARMUP_EPOCHS = 1.0
# A leg from our own weights may leave its first layers as they are (`--freeze`). With yolo11n's
# backbone to its SPPF (the first 10 layers) frozen, this CPU trained 1.8 batches of 16 tiles a
# second against 1.25 with every layer training (models/README.md, "Leg 33"). The last layer (the
# detection head) always trains.
MAX_FREEZE = 22


@dataclass(frozen=True)
class TrainPlan:
    """Everything one training run needs."""

    data: Path
    model: str = "yolo11n.yaml"
    epochs: int = 10
    imgsz: int = 320
    batch: int = 32
    workers: int = 2
    device: str | None = None
    project: Path = Path("runs")
    name: str = "cards"
    patience: int = 50
    fraction: float = 1.0
    time_hours: float | None = None
    lr0: float = LR0
    warmup_epochs: float = WARMUP_EPOCHS
    plots: bool = True
    freeze: int = 0  # the network's first layers left as they are (10: yolo11n's layers 0-9, its backbone to the SPPF)


def check_data_yaml(path: Path) -> dict:
    """Read a dataset's data.yaml and check it uses our class names in our order."""
    if not path.is_file():
        raise ModelError(f"no data.yaml at {path} (build one with `handfoot dataset build`)")
    try:
        data = yaml.safe_load(path.read_text())
    except yaml.YAMLError as exc:
        raise ModelError(f"{path} is not valid YAML: {exc}") from exc
    names = data.get("names") if isinstance(data, dict) else None
    if isinstance(names, dict):
        names = [names[k] for k in sorted(names)]
    if names != list(CLASS_NAMES):
        raise ModelError(f"{path}: names must be handfoot's {len(CLASS_NAMES)} classes in order")
    return data


def check_schedule(plan: TrainPlan) -> None:
    """Refuse learning rates and warm-ups that cannot train."""
    if not 0 < plan.lr0 <= 0.1:
        raise ModelError(f"--lr0 must be above 0 and at most 0.1, not {plan.lr0}")
    if plan.warmup_epochs < 0:
        raise ModelError(f"--warmup-epochs cannot be negative ({plan.warmup_epochs})")
    if not 0 <= plan.freeze <= MAX_FREEZE:
        raise ModelError(f"--freeze must be from 0 to {MAX_FREEZE} layers (10: yolo11n's backbone), not {plan.freeze}")


def pick_device(requested: str | None) -> str:
    """The device to train on: the one asked for, else a GPU when present, else the CPU."""
    if requested:
        return requested
    import torch  # noqa: PLC0415

    return "0" if torch.cuda.is_available() else "cpu"


def train(plan: TrainPlan, resume: bool = False) -> Path:
    """Run (or resume) one training; returns the path of the best weights."""
    import os  # noqa: PLC0415

    from vision.offline import prepare, use_all_cores  # noqa: PLC0415

    os.environ["YOLO_VERBOSE"] = "True"  # training shows its own progress bars and per-epoch figures
    prepare()
    from ultralytics import YOLO  # noqa: PLC0415

    use_all_cores()

    run_dir = plan.project.resolve() / plan.name
    last = run_dir / "weights" / "last.pt"
    if resume:
        if not last.is_file():
            raise ModelError(f"nothing to resume: {last} does not exist")
        YOLO(str(last)).train(resume=True)
    else:
        if plan.model not in MODEL_CONFIGS and not Path(plan.model).is_file():
            raise ModelError(f"unknown model {plan.model!r}; choose one of {', '.join(MODEL_CONFIGS)} or a .yaml path")
        check_schedule(plan)
        check_data_yaml(plan.data)
        model = YOLO(plan.model, task="detect")
        extra = {"time": plan.time_hours} if plan.time_hours else {}
        model.train(
            data=str(plan.data.resolve()),
            epochs=plan.epochs,
            imgsz=plan.imgsz,
            batch=plan.batch,
            workers=plan.workers,
            device=pick_device(plan.device),
            project=str(plan.project.resolve()),
            name=plan.name,
            exist_ok=True,
            pretrained=plan.model.endswith(".pt"),
            amp=False,
            plots=plan.plots,
            patience=plan.patience,
            fraction=plan.fraction,
            verbose=True,
            nbs=plan.batch,
            lr0=plan.lr0,
            warmup_epochs=plan.warmup_epochs,
            freeze=plan.freeze or None,
            **SCHEDULE,
            **AUGMENT,
            **extra,
        )
    best = run_dir / "weights" / "best.pt"
    return best if best.is_file() else last


def export_weights(weights: Path, dest: Path) -> Path:
    """Copy trained weights to `dest` (e.g. models/cards.pt), creating folders."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(weights, dest)
    return dest


def rebuild(plan: TrainPlan, resume: bool = False) -> Path:
    """One training run (`handfoot train`): on a set `handfoot dataset build` made, its validation frames are cut
    into tiles first (`training_yaml`); any other data.yaml is read as it is. Returns the best weights' path."""
    data = plan.data
    if not resume and data.is_file() and (data.parent / "val" / "images").is_dir():
        plan = dataclasses.replace(plan, data=training_yaml(data.parent, plan.imgsz))
    return train(plan, resume=resume)


def read_yolo_labels(label_file: Path, width: int, height: int) -> list[tuple[str, tuple[float, float, float, float]]]:
    """YOLO txt rows of our class ids as (class name, xyxy pixel box)."""
    out = []
    if not label_file.is_file():
        return out
    for row in label_file.read_text().splitlines():
        parts = row.split()
        if len(parts) < 5:
            continue
        cx, cy, bw, bh = (float(v) for v in parts[1:5])
        out.append((CLASS_NAMES[int(parts[0])], ((cx - bw / 2) * width, (cy - bh / 2) * height, (cx + bw / 2) * width, (cy + bh / 2) * height)))
    return out


def training_yaml(data_dir: Path, tile: int = 320, seed: int = 0) -> Path:
    """Write (once) DIR/val-tiles and DIR/train.yaml; returns the yaml's path."""
    import cv2  # noqa: PLC0415  (the command line imports this module for its defaults: cv2 only when cutting)

    from datasets.scenes.tiles import cut_tiles, yolo_lines  # noqa: PLC0415

    target = data_dir / "train.yaml"
    if target.is_file():
        return target
    val_images = data_dir / "val" / "images"
    out_images = data_dir / "val-tiles" / "images"
    out_labels = data_dir / "val-tiles" / "labels"
    out_images.mkdir(parents=True, exist_ok=True)
    out_labels.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    for img_path in sorted(val_images.glob("*.jpg")):
        image = cv2.imread(str(img_path))
        h, w = image.shape[:2]
        labels = read_yolo_labels(data_dir / "val" / "labels" / (img_path.stem + ".txt"), w, h)
        for i, t in enumerate(cut_tiles(image, labels, rng, tile)):
            stem = f"{img_path.stem}-t{i:02d}"
            cv2.imwrite(str(out_images / f"{stem}.jpg"), t.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
            (out_labels / f"{stem}.txt").write_text("\n".join(yolo_lines(t.labels, tile, tile, CLASS_ID)) + "\n")
    spec = {
        "path": str(data_dir.resolve()),
        "train": "train/images",
        "val": "val-tiles/images",
        "nc": len(CLASS_NAMES),
        "names": {i: n for i, n in enumerate(CLASS_NAMES)},
    }
    target.write_text(yaml.safe_dump(spec, sort_keys=False))
    return target
