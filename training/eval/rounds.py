"""End-to-end check of the photo path on generated rounds with known cards.

Each round file from `handfoot dataset rounds` holds the true cards (table and
leftover strings) beside the photos. The true result scores those strings; the
found result scores the photos alone, exactly as `handfoot score` would. A side
is right when both totals agree; a wrong side is put down to its first cause:
cards missed or invented on the table or in the leftover, or the right cards
grouped into the wrong melds. A side whose photos drew a blurred-photo warning
(`vision/sharpness.py`) is marked, so the warning's worth can be read off: how
many wrong sides it caught, and how many right ones it alarmed.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from handfoot.photo_round import SideInput, read_side_photos, score_photo_round
from handfoot.roundfile import RoundSpec, load_round
from scoring.engine import score_round
from vision.detection import Detection, Reading
from vision.sharpness import is_blurred


@dataclass
class SideCheck:
    round_file: str
    side: str
    true_total: int
    found_total: int
    cause: str  # "" when right
    blurred: bool = False  # one of its photos drew the blurred-photo warning

    @property
    def right(self) -> bool:
        return self.true_total == self.found_total


@dataclass
class RoundsReport:
    sides: list[SideCheck] = field(default_factory=list)

    @property
    def exact_rate(self) -> float:
        return sum(s.right for s in self.sides) / len(self.sides) if self.sides else 0.0

    @property
    def mean_abs_error(self) -> float:
        return sum(abs(s.true_total - s.found_total) for s in self.sides) / len(self.sides) if self.sides else 0.0

    def causes(self) -> Counter:
        return Counter(s.cause for s in self.sides if not s.right)

    def to_dict(self) -> dict:
        return {
            "sides": len(self.sides),
            "exact_total_rate": round(self.exact_rate, 4),
            "mean_abs_error": round(self.mean_abs_error, 1),
            "failure_causes": dict(self.causes()),
            "blurred_sides": {"wrong": sum(s.blurred and not s.right for s in self.sides), "right": sum(s.blurred and s.right for s in self.sides)},
            "failures": [s.__dict__ for s in self.sides if not s.right],
        }


def _diff(truth: Counter, found: Counter) -> str:
    missed = truth - found
    extra = found - truth
    parts = []
    if missed:
        parts.append("missed " + " ".join(sorted(missed.elements())))
    if extra:
        parts.append("extra " + " ".join(sorted(extra.elements())))
    return ", ".join(parts)


def first_cause(true_table, true_left, found_table, found_left) -> str:
    """Why a side's found cards differ from the truth, most basic reason first."""
    flat = lambda groups: Counter(c for g in groups for c in g)  # noqa: E731
    table = _diff(flat(true_table), flat(found_table))
    if table:
        return "table cards: " + table
    left = _diff(flat(true_left), flat(found_left))
    if left:
        return "leftover cards: " + left
    if sorted(map(sorted, true_table)) != sorted(map(sorted, found_table)):
        return "meld grouping"
    return "other"


def label_detections(data: dict) -> list[Detection]:
    """A generated photo's true corner labels (its JSON) as sure detections."""
    return [Detection(lab["cls"], 1.0, tuple(lab["box"])) for lab in data["labels"]]


class LabelOracle:
    """Stands in for the detector with each photo's true corner labels (the JSON beside it).

    Scoring with it measures the corner joining and table layout alone.
    """

    def __init__(self) -> None:
        self.path: Path | None = None

    def seen(self, path: Path) -> None:
        self.path = path

    def detect(self, image) -> list[Detection]:
        return label_detections(json.loads(self.path.with_suffix(".json").read_text()))


class DetectionCache:
    """Keeps each photo's detections in a folder, so a second evaluation of the same photos with the
    same model and threshold skips the detector (for trying joining and layout rules on the model's
    own boxes). A file holds the model's `key`; a file made with another key is detected again.
    """

    def __init__(self, folder: Path, key: str, detect_factory: Callable) -> None:
        self.folder = Path(folder)
        self.key = key
        self.detect_factory = detect_factory
        self.path: Path | None = None
        self._detect: Callable | None = None
        self.hits = 0
        self.misses = 0

    def seen(self, path: Path) -> None:
        self.path = Path(path)

    def _file(self) -> Path:
        return self.folder / f"{self.path.parent.name}--{self.path.stem}.json"

    def detect(self, image) -> Reading:
        file = self._file()
        if file.is_file():
            try:
                data = json.loads(file.read_text())
                if data.get("key") == self.key:
                    self.hits += 1
                    return Reading(_detections(data["detections"]), _detections(data.get("unsure", [])))
            except (ValueError, KeyError, TypeError):
                pass  # a damaged file is detected again and written over
        if self._detect is None:
            self._detect = self.detect_factory()
        found = self._detect(image)
        if not isinstance(found, Reading):
            found = Reading(list(found))
        self.misses += 1
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = file.with_suffix(".tmp")
        tmp.write_text(json.dumps({"key": self.key, "detections": _as_json(found.sure), "unsure": _as_json(found.unsure)}))
        tmp.replace(file)
        return found


def _detections(rows: list[dict]) -> list[Detection]:
    return [Detection(d["cls"], float(d["conf"]), tuple(d["box"])) for d in rows]


def _as_json(dets: list[Detection]) -> list[dict]:
    return [{"cls": d.cls, "conf": d.conf, "box": list(d.box)} for d in dets]


def check_round(
    spec: RoundSpec, detect_factory: Callable, progress: Callable | None = None, wilds: bool = True, jokers: bool = True
) -> list[SideCheck]:
    """Score one round from its true cards and from its photos (`wilds`: boxes named again by the
    second-look readers: ranks, Remastered and Bare Foot wilds; `jokers`: joker boxes grouped by the joker grouper); compare per side."""
    truth = score_round(spec.rules, spec.round, spec.side_rounds())
    inputs = [
        SideInput(
            name=s.name,
            went_out=s.went_out,
            perfect_deal=s.perfect_deal,
            table_photos=list(s.table_photos),
            leftover_photos=list(s.leftover_photos),
            partners=s.partners,
        )
        for s in spec.sides
    ]
    photos = read_side_photos(inputs, detect_factory, progress, spec.rules.family, wilds, jokers)
    found = score_photo_round(spec.rules, spec.rules_name, spec.round, inputs, photos)
    checks = []
    for spec_side, t, f in zip(spec.sides, truth.sides, found.result.sides):
        cause = (
            ""
            if t.total == f.total
            else first_cause(spec_side.table, spec_side.leftover, found.tables.get(f.name, ()), found.leftovers.get(f.name, ()))
        )
        blurred = any(is_blurred(p.blur) for p in photos if p.side == f.name)
        checks.append(SideCheck(spec.path.name, f.name, t.total, f.total, cause, blurred))
    return checks


def evaluate_rounds(
    files: Iterable[Path],
    detect_factory: Callable,
    oracle: bool = False,
    cache: DetectionCache | None = None,
    wilds: bool = True,
    jokers: bool = True,
) -> RoundsReport:
    """Check every round file; the detector is built once by `detect_factory`.

    With `oracle`, each photo's true labels replace the detector (and are
    never renamed by the second-look readers nor grouped by the joker grouper); with
    a `cache`, detections come from (and go to) its folder; `wilds`: the
    model's boxes are named again by the second-look readers (ranks, wilds, Bare Foot clothing), and `jokers`: its
    joker boxes grouped by the joker grouper, as `handfoot score` does.
    """
    detector = None
    label_oracle = LabelOracle() if oracle else None
    watcher = label_oracle or cache
    if label_oracle is not None:
        detect_factory = lambda: label_oracle.detect  # noqa: E731
    elif cache is not None:
        detect_factory = lambda: cache.detect  # noqa: E731

    def shared():
        nonlocal detector
        if detector is None:
            detector = detect_factory()
        return detector

    report = RoundsReport()
    for path in files:
        report.sides.extend(check_round(load_round(path), shared, watcher.seen if watcher else None, wilds and not oracle, jokers and not oracle))
    return report
