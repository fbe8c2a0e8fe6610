"""Round files: one round's cards typed in by hand (TOML or JSON), parsed and checked.

rules = "remastered-singles"   # preset name or rules file path (relative to this file)
round = 1
[[sides]]
name = "Ann"
went_out = true                # optional, default false
perfect_deal = false           # optional, default false
partners = false               # optional; default: a partnership when leftover lists 2+ players
table = ["4 4 4 4 4 4 4", "10 10 10 10 2 2 JOKER", "3R 3R"]
leftover = ["5 9 3B"]          # one string per player of the side
table_photos = []              # optional paths, relative to this file
leftover_photos = []
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from handfoot.errors import UserError
from handfoot.rules_files import load_rules
from scoring.detection_classes import CLASS_NAMES
from scoring.rounds import SideRound
from scoring.rules import Rules

_ROUND_KEYS = {"rules", "round", "sides"}
_SIDE_KEYS = {"name", "went_out", "perfect_deal", "partners", "table", "leftover", "table_photos", "leftover_photos"}
_LOWER = {name.lower(): name for name in CLASS_NAMES}


@dataclass
class SideSpec:
    """One side as written in a round file (paths resolved against the file)."""

    name: str
    went_out: bool
    perfect_deal: bool
    table: list[list[str]]
    leftover: list[list[str]]
    table_photos: list[Path] = field(default_factory=list)
    leftover_photos: list[Path] = field(default_factory=list)
    partners: bool | None = None

    def to_side_round(self) -> SideRound:
        """The scoring engine's view of this side."""
        return SideRound(
            name=self.name,
            table=tuple(tuple(m) for m in self.table),
            leftover=tuple(tuple(p) for p in self.leftover),
            went_out=self.went_out,
            perfect_deal=self.perfect_deal,
            partners=self.partners,
        )


@dataclass
class RoundSpec:
    """A parsed round file."""

    rules: Rules
    rules_name: str
    round: int
    sides: list[SideSpec]
    path: Path

    def side_rounds(self) -> list[SideRound]:
        """Every side as the engine takes it."""
        return [s.to_side_round() for s in self.sides]


def parse_tokens(text: str) -> list[str]:
    """Split a card string ("10 10 2 joker", commas allowed) into class names.

    Lower case is accepted. Raises UserError naming the bad token and listing the valid ones.
    """
    tokens = text.replace(",", " ").split()
    out = []
    for token in tokens:
        name = _LOWER.get(token.lower())
        if name is None:
            raise UserError(f"unknown card {token!r}; valid cards: {' '.join(CLASS_NAMES)}")
        out.append(name)
    return out


def _read(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise UserError(f"round file not found: {path}") from exc
    except OSError as exc:
        raise UserError(f"cannot read round file {path}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise UserError(f"round file {path} is not UTF-8 text") from exc
    if path.suffix.lower() == ".json" or (path.suffix.lower() != ".toml" and text.lstrip().startswith("{")):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise UserError(f"round file {path} is not valid JSON: {exc}") from exc
    else:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise UserError(f"round file {path} is not valid TOML: {exc}") from exc
    if not isinstance(data, dict):
        raise UserError(f"round file {path} must hold a table of keys (rules, round, sides)")
    return data


def _strings(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise UserError(f"{where} must be a list of strings, got {value!r}")
    return value


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise UserError(f"{where} must be true or false, got {value!r}")
    return value


def _cards(texts: list[str], where: str) -> list[list[str]]:
    out = []
    for i, text in enumerate(texts):
        try:
            out.append(parse_tokens(text))
        except UserError as exc:
            raise UserError(f"{where}[{i}]: {exc.message}") from exc
    return out


def _side(data: Any, i: int, base: Path) -> SideSpec:
    where = f"sides[{i}]"
    if not isinstance(data, dict):
        raise UserError(f"{where} must be a table with name, table and leftover")
    unknown = sorted(set(data) - _SIDE_KEYS)
    if unknown:
        raise UserError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(sorted(_SIDE_KEYS))})")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise UserError(f"{where} needs a name (a non-empty string)")
    where = f"side {name!r}"
    partners = data.get("partners")
    if partners is not None:
        partners = _bool(partners, f"{where}: partners")
    return SideSpec(
        name=name,
        went_out=_bool(data.get("went_out", False), f"{where}: went_out"),
        perfect_deal=_bool(data.get("perfect_deal", False), f"{where}: perfect_deal"),
        table=[m for m in _cards(_strings(data.get("table", []), f"{where}: table"), f"{where}: table") if m],
        leftover=_cards(_strings(data.get("leftover", []), f"{where}: leftover"), f"{where}: leftover"),
        table_photos=[base / p for p in _strings(data.get("table_photos", []), f"{where}: table_photos")],
        leftover_photos=[base / p for p in _strings(data.get("leftover_photos", []), f"{where}: leftover_photos")],
        partners=partners,
    )


def load_round(path: Path) -> RoundSpec:
    """Read and check a round file (TOML, or JSON by .json suffix). Raises UserError."""
    path = Path(path)
    data = _read(path)
    unknown = sorted(set(data) - _ROUND_KEYS)
    if unknown:
        raise UserError(f"round file {path}: unknown key {unknown[0]!r} (known: rules, round, sides)")
    for key in ("rules", "round", "sides"):
        if key not in data:
            raise UserError(f"round file {path} lacks the key {key!r}")
    rules_name = data["rules"]
    if not isinstance(rules_name, str):
        raise UserError(f"round file {path}: rules must be a preset name or a path, got {rules_name!r}")
    rules = load_rules(rules_name, relative_to=path.parent)
    round_no = data["round"]
    if isinstance(round_no, bool) or not isinstance(round_no, int) or not 1 <= round_no <= rules.rounds:
        raise UserError(f"round file {path}: round must be a whole number from 1 to {rules.rounds} under {rules.name}, got {round_no!r}")
    sides = data["sides"]
    if not isinstance(sides, list) or not sides:
        raise UserError(f"round file {path}: sides must be a non-empty list of tables")
    specs = [_side(s, i, path.parent) for i, s in enumerate(sides)]
    names = [s.name for s in specs]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise UserError(f"round file {path}: two sides are named {dupes[0]!r}")
    return RoundSpec(rules=rules, rules_name=rules_name, round=round_no, sides=specs, path=path)
