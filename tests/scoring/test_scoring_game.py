"""Game totals: rounds add up per side, each round under its own minimum and going-out rule."""

from __future__ import annotations

import pytest
from scoring_helpers import melds, rules

from scoring.game import game_totals, score_game
from scoring.rounds import SideRound

TWO_AND_TWO = melds("9 9 9 9 9 9 9", "8 8 8 8 8 8 8", "K K K K K 2 2", "Q Q Q Q Q 2 2")
ONE_AND_ONE = melds("9 9 9 9 9 9 9", "K K K K K 2 2")


def test_game_totals_add_rounds_per_side() -> None:
    r = rules("family-game-knights")
    rounds = [[SideRound("Ann", ONE_AND_ONE, ((),), went_out=True), SideRound("Bob", melds("5 5 5"), (("3R",),))]] * 4
    results = score_game(r, rounds)
    per_round = [[s.total for s in res.sides] for res in results]
    totals = game_totals(results)
    assert totals == {"Ann": sum(p[0] for p in per_round), "Bob": sum(p[1] for p in per_round)}
    assert list(totals) == ["Ann", "Bob"]
    assert totals["Bob"] == 4 * (15 - 500)


def test_round_number_decides_the_going_out_requirement() -> None:
    r = rules("family-game-knights")
    results = score_game(r, [[SideRound("Ann", ONE_AND_ONE, ((),), went_out=True)]] * 4)
    bonus = [any(ln.label == "going out" for ln in res.sides[0].lines) for res in results]
    assert bonus == [True, True, True, False]  # round 4 wants 2 clean + 2 dirty
    results = score_game(r, [[SideRound("Ann", TWO_AND_TWO, ((),), went_out=True)]] * 4)
    assert all(any(ln.label == "going out" for ln in res.sides[0].lines) for res in results)


def test_round_number_decides_the_opening_minimum() -> None:
    r = rules("remastered-singles")
    results = score_game(r, [[SideRound("Ann", melds("10 10 10 10 10 10 10"))]] * 4)  # 70 points of cards
    warned = [any("opening minimum" in f.message for f in res.sides[0].findings) for res in results]
    assert warned == [False, True, True, True]


def test_a_game_longer_than_the_preset_is_refused() -> None:
    with pytest.raises(ValueError, match="4 rounds"):
        score_game(rules("online-classic"), [[]] * 5)
