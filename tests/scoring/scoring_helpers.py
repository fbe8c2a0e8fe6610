"""Helpers for the scoring tests: presets by name and a one-side scorer."""

from __future__ import annotations

from handfoot.rules_files import load_rules
from scoring.engine import score_side
from scoring.rounds import SideResult, SideRound
from scoring.rules import Rules

PRESETS = ("bare-foot-n-wild", "remastered-singles", "magnolia-point", "family-game-knights", "online-classic")
STANDARD = PRESETS[1:]


def rules(name: str) -> Rules:
    """A bundled preset by name."""
    return load_rules(name)


def melds(*texts: str) -> tuple[tuple[str, ...], ...]:
    """("4 4 4", "K K 2") -> (("4","4","4"), ("K","K","2"))."""
    return tuple(tuple(t.split()) for t in texts)


def side(
    preset: str | Rules,
    table: tuple[str, ...] = (),
    leftover: tuple[str, ...] = (),
    round_no: int = 1,
    **kw,
) -> SideResult:
    """Score one side given meld strings and leftover strings."""
    r = rules(preset) if isinstance(preset, str) else preset
    return score_side(r, round_no, SideRound("S", melds(*table), melds(*leftover), **kw))


def line(result: SideResult, prefix: str) -> int | None:
    """Points of the first line whose label starts with `prefix`, or None."""
    for ln in result.lines:
        if ln.label.startswith(prefix):
            return ln.points
    return None


def messages(result: SideResult, level: str = "error") -> list[str]:
    """The messages of the findings of one level."""
    return [f.message for f in result.findings if f.level == level]
