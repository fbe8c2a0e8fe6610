"""Property tests: how a total moves when one natural card moves."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scoring_helpers import PRESETS, rules

from scoring.cards import BAREFOOT_RANKS, STANDARD_RANKS
from scoring.engine import card_value, score_side
from scoring.melds import analyse_table
from scoring.rounds import SideRound

RULES = {name: rules(name) for name in PRESETS}
CLASSES = {  # natural classes and wild classes per deck family
    "standard": ([r for r in STANDARD_RANKS], ["2", "JOKER", "WILD20", "WILD50"]),
    "barefoot": ([r for r in BAREFOOT_RANKS if r != "3"] + ["3R"], ["WILD20", "WILD50"]),
}


@st.composite
def rounds(draw):
    """A preset, a round number, and one side with melds of distinct ranks plus leftovers."""
    preset = draw(st.sampled_from(PRESETS))
    r = RULES[preset]
    naturals, wilds = CLASSES[r.family]
    ranks = draw(st.lists(st.sampled_from(naturals), min_size=1, max_size=5, unique=True))
    table = []
    for rank in ranks:
        n = draw(st.integers(2, 11))
        w = draw(st.integers(0, 4))
        table.append(tuple([rank] * n + draw(st.lists(st.sampled_from(wilds), min_size=w, max_size=w))))
    leftover = tuple(tuple(draw(st.lists(st.sampled_from(naturals + wilds), max_size=6))) for _ in range(draw(st.integers(1, 2))))
    side = SideRound("S", tuple(table), leftover, went_out=draw(st.booleans()), perfect_deal=draw(st.booleans()))
    return r, draw(st.integers(1, r.rounds)), side, draw(st.integers(0, len(table) - 1))


def _kind(r, side, i):
    return analyse_table(r, side.name, side.table)[i].meld.kind


@settings(max_examples=300, deadline=None)
@given(rounds())
def test_adding_a_natural_to_a_meld_adds_its_value(case) -> None:
    r, round_no, side, i = case
    meld = side.table[i]
    natural = meld[0]
    grown = meld + (natural,)
    after = SideRound(side.name, side.table[:i] + (grown,) + side.table[i + 1 :], side.leftover, side.went_out, side.perfect_deal)
    before_kind, after_kind = _kind(r, side, i), _kind(r, after, i)
    assume(before_kind != "invalid" and before_kind == after_kind)  # stays valid, same book status
    delta = score_side(r, round_no, after).total - score_side(r, round_no, side).total
    assert delta == card_value(r, natural)


@settings(max_examples=300, deadline=None)
@given(rounds())
def test_moving_a_natural_from_table_to_hand_costs_twice_its_value(case) -> None:
    r, round_no, side, i = case
    meld = side.table[i]
    natural = meld[0]
    shrunk = meld[1:]
    after = SideRound(
        side.name,
        side.table[:i] + (shrunk,) + side.table[i + 1 :],
        (side.leftover[0] + (natural,),) + side.leftover[1:],
        side.went_out,
        side.perfect_deal,
    )
    before_kind, after_kind = _kind(r, side, i), _kind(r, after, i)
    assume(before_kind != "invalid" and before_kind == after_kind)
    # Going out depends on empty hands: keep that fact unchanged by the move.
    assume(not side.went_out or any(len(p) for p in side.leftover[:1]))
    delta = score_side(r, round_no, after).total - score_side(r, round_no, side).total
    assert delta == -2 * card_value(r, natural)


@settings(max_examples=200, deadline=None)
@given(rounds())
def test_total_is_the_sum_of_the_lines(case) -> None:
    r, round_no, side, _ = case
    result = score_side(r, round_no, side)
    assert result.total == sum(line.points for line in result.lines)
