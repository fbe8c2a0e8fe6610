"""Game totals: the sum of each side's round totals across a game."""

from __future__ import annotations

from collections.abc import Sequence

from scoring.engine import score_round
from scoring.rounds import RoundResult, SideRound
from scoring.rules import Rules


def game_totals(rounds: Sequence[RoundResult]) -> dict[str, int]:
    """Each side's total over all rounds, keyed by side name in order of first appearance."""
    totals: dict[str, int] = {}
    for result in rounds:
        for side in result.sides:
            totals[side.name] = totals.get(side.name, 0) + side.total
    return totals


def score_game(rules: Rules, rounds: Sequence[Sequence[SideRound]]) -> list[RoundResult]:
    """Score a whole game: round i (1-based) uses that round's minimum and going-out rule."""
    if len(rounds) > rules.rounds:
        raise ValueError(f"{rules.name} has {rules.rounds} rounds, got {len(rounds)}")
    return [score_round(rules, i + 1, sides) for i, sides in enumerate(rounds)]
