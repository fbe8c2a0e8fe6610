"""Labelled photo sets to measure the detector on: YOLO-format and Pascal VOC."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from scoring.detection_classes import map_dataset_name
from vision.detection import Detection
from vision.errors import VisionError

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp"}
VOC_RANKS = {
    "ace": "A",
    "two": "2",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "ten": "10",
    "jack": "J",
    "queen": "Q",
    "king": "K",
    "joker": "JOKER",
}

Box = tuple[float, float, float, float]


@dataclass
class LabelledPhoto:
    path: Path
    boxes: list[tuple[str, Box]]  # our class name, xyxy in pixels
    cards: Counter = field(default_factory=Counter)  # the physical cards in it, by our class (BACK left out)
    card_ids: list[int] = field(default_factory=list)  # YOLO sets: each box's card (one deck a photo: its label's name)

    def detections(self) -> list[Detection]:
        """The labelled boxes as sure detections: stand-ins for the detector's, in `boxes`' order."""
        return [Detection(cls, 1.0, tuple(box)) for cls, box in self.boxes]


@dataclass
class PhotoSet:
    name: str
    photos: list[LabelledPhoto]
    unknown_names: Counter = field(default_factory=Counter)


def _images_in(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)


def load_yolo_set(data_yaml: Path, split: str | None = None) -> PhotoSet:
    """Read a YOLO data.yaml set; names may be ours or rank+suit (mapped as DESIGN.md says)."""
    if not data_yaml.is_file():
        raise VisionError(f"no such data file: {data_yaml}")
    try:
        data = yaml.safe_load(data_yaml.read_text()) or {}
    except yaml.YAMLError as exc:
        raise VisionError(f"{data_yaml} is not valid YAML: {exc}") from exc
    names = data.get("names")
    if isinstance(names, dict):
        names = [names[k] for k in sorted(names)]
    if not isinstance(names, list):
        raise VisionError(f"{data_yaml} has no list of class names")
    keys = [split] if split else ["test", "val"]
    rel = next((data[k] for k in keys if data.get(k)), None)
    if rel is None:
        raise VisionError(f"{data_yaml} names no {' or '.join(keys)} images")
    root = data_yaml.parent / data.get("path", ".")
    images_dir = (root / rel).resolve()
    if not images_dir.is_dir():
        raise VisionError(f"image folder {images_dir} (from {data_yaml}) does not exist")
    labels_dir = Path(str(images_dir).replace("/images", "/labels"))
    mapped = [map_dataset_name(str(n)) for n in names]
    unknown: Counter = Counter()
    photos = []
    import cv2  # noqa: PLC0415

    for img in _images_in(images_dir):
        label_file = labels_dir / (img.stem + ".txt")
        rows = label_file.read_text().split("\n") if label_file.is_file() else []
        shape = cv2.imread(str(img), cv2.IMREAD_UNCHANGED).shape
        h, w = shape[:2]
        boxes, card_ids = [], []
        names_in = set()  # one deck a photo: each rank+suit name labelled is one card, whatever its corners
        for row in rows:
            parts = row.split()
            if len(parts) < 5:
                continue
            k = int(parts[0])
            cx, cy, bw, bh = (float(v) for v in parts[1:5])
            if mapped[k] is None:
                unknown[str(names[k])] += 1
                continue
            names_in.add(k)
            boxes.append((mapped[k], ((cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h)))
            card_ids.append(k)
        cards = Counter(mapped[k] for k in names_in if mapped[k] != "BACK")
        photos.append(LabelledPhoto(img, boxes, cards, card_ids))
    return PhotoSet(data_yaml.parent.name, photos, unknown)


def load_voc_set(folder: Path) -> PhotoSet:
    """Read every Pascal VOC xml under `folder` (recursively); rank words map to our classes."""
    if not folder.is_dir():
        raise VisionError(f"no such folder: {folder}")
    unknown: Counter = Counter()
    photos = []
    for xml in sorted(folder.rglob("*.xml")):
        root = ET.parse(xml).getroot()
        fname = root.findtext("filename") or ""
        img = xml.parent / fname
        if not img.is_file():
            cands = [p for p in xml.parent.glob(xml.stem + ".*") if p.suffix.lower() in IMAGE_SUFFIXES]
            if not cands:
                continue
            img = cands[0]
        boxes = []
        for obj in root.iter("object"):
            word = (obj.findtext("name") or "").strip().lower()
            cls = VOC_RANKS.get(word) or map_dataset_name(word)
            if cls is None:
                unknown[word] += 1
                continue
            bb = obj.find("bndbox")
            box = tuple(float(bb.findtext(k)) for k in ("xmin", "ymin", "xmax", "ymax"))
            boxes.append((cls, box))
        photos.append(LabelledPhoto(img, boxes, Counter(cls for cls, _ in boxes if cls != "BACK")))
    if not photos:
        raise VisionError(f"no Pascal VOC photos (xml beside jpg) under {folder}")
    return PhotoSet(folder.name, photos, unknown)
