"""Turn a built data set into what training reads: validation frames cut into tiles.

`handfoot dataset build` keeps validation scenes as full frames (our evaluation
predicts on full frames). Validation inside training runs at the tile size, so
this cuts those frames into tiles at native scale, as the training tiles are,
and writes `train.yaml` pointing at them.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import yaml

from datasets.scenes.tiles import cut_tiles, yolo_lines
from scoring.classes import CLASS_ID, CLASS_NAMES


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
        out.append((CLASS_NAMES[int(parts[0])],
                    ((cx - bw / 2) * width, (cy - bh / 2) * height, (cx + bw / 2) * width, (cy + bh / 2) * height)))
    return out


def training_yaml(data_dir: Path, tile: int = 320, seed: int = 0) -> Path:
    """Write (once) DIR/val-tiles and DIR/train.yaml; returns the yaml's path."""
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
    spec = {"path": str(data_dir.resolve()), "train": "train/images", "val": "val-tiles/images",
            "nc": len(CLASS_NAMES), "names": {i: n for i, n in enumerate(CLASS_NAMES)}}
    target.write_text(yaml.safe_dump(spec, sort_keys=False))
    return target
