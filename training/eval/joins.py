"""How well corners join into cards, on generated photos whose JSON lists every true card.

Each generated frame (`handfoot dataset build`: frames/*.json) and round photo
(`handfoot dataset rounds`: round-*.json) records every card with the corner
boxes the labels came from. Joining the true labels as the product does and
comparing shows the joining's own errors: a false pair (two cards' corners
joined as one card) or a split card (one card's two corners left apart).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from training.eval.rounds import label_detections
from vision.pipe import LEFTOVER, TABLE, join_for

#: Scene kinds (the JSON's "kind", in built frames and round photos alike) read as a table or as hands.
ROLE_OF_KIND = {"table": TABLE, "leftover": LEFTOVER}


@dataclass
class JoinCheck:
    photo: str
    role: str
    false_pairs: list[str]  # "7+7": the classes of the two cards joined as one
    split_cards: list[str]  # classes of cards whose two corners stayed apart

    @property
    def right(self) -> bool:
        return not self.false_pairs and not self.split_cards


@dataclass
class JoinsReport:
    checks: list[JoinCheck] = field(default_factory=list)

    def to_dict(self) -> dict:
        out: dict = {}
        for role in (TABLE, LEFTOVER):
            mine = [c for c in self.checks if c.role == role]
            out[role] = {
                "photos": len(mine),
                "photos_with_a_wrong_join": sum(not c.right for c in mine),
                "false_pairs": sum(len(c.false_pairs) for c in mine),
                "split_cards": sum(len(c.split_cards) for c in mine),
                "commonest_false_pairs": dict(Counter(p for c in mine for p in c.false_pairs).most_common(5)),
            }
        out["wrong"] = [c.__dict__ for c in self.checks if not c.right]
        return out


def _key(box: Iterable[float]) -> tuple[float, ...]:
    return tuple(round(float(v), 1) for v in box)


def role_of(data: dict) -> str | None:
    """TABLE or LEFTOVER by the photo's scene kind; None (generic scenes, close-ups) to skip."""
    return ROLE_OF_KIND.get(data.get("kind", ""))


def check_photo(path: Path, data: dict, role: str) -> JoinCheck:
    """Join one photo's true corner labels and compare with its true cards."""
    owner = {_key(box): i for i, card in enumerate(data["cards"]) for box in card.get("corners", ())}
    false_pairs, seen = [], Counter()
    for card in join_for(role, label_detections(data), jokers=False):  # the joining's own geometry
        ids = {owner.get(_key(d.box)) for d in card.corners}
        if len(ids) > 1:
            false_pairs.append("+".join(d.cls for d in card.corners))
        seen.update(i for i in ids if i is not None)
    split = [data["cards"][i]["cls"] for i, n in seen.items() if n > 1]
    return JoinCheck(path.name, role, false_pairs, split)


def evaluate_joins(files: Iterable[Path]) -> JoinsReport:
    """Check every table and leftover photo among `files` (JSON ground truth); others are skipped."""
    report = JoinsReport()
    for path in files:
        data = json.loads(path.read_text())
        role = role_of(data)
        if role is not None and "cards" in data and "labels" in data:
            report.checks.append(check_photo(path, data, role))
    return report
