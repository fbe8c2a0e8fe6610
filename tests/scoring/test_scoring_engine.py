"""Scoring a round: Remastered's worked examples and every finding the cards can raise."""

from __future__ import annotations

import pytest
from scoring_helpers import line, melds, messages, rules, side

from scoring.engine import score_round
from scoring.melds import analyse_table
from scoring.rounds import SideRound


def test_clean_book_of_seven_fours_scores_735() -> None:
    result = side("remastered-singles", ("4 4 4 4 4 4 4",), round_no=4)
    assert result.total == 735
    assert line(result, "clean book of 4s") == 700
    assert line(result, "cards on table") == 35


def test_three_fours_and_six_tens_make_a_75_point_meld() -> None:
    result = side("remastered-singles", ("4 4 4", "10 10 10 10 10 10"), round_no=1)
    assert result.total == 75
    assert not result.findings  # 75 >= 60: meets round 1's minimum


def test_breakdown_lines_and_total() -> None:
    result = side(
        "remastered-singles",
        ("4 4 4 4 4 4 4", "10 10 10 10 2 2 JOKER", "3R 3R"),
        ("5 9 3B",),
    )
    assert [(ln.label, ln.points) for ln in result.lines] == [
        ("clean book of 4s", 700),
        ("dirty book of 10s", 300),
        ("red 3s laid (2)", 200),
        ("cards on table", 35 + 40 + 90),
        ("left in hand and foot", -15),
        ("black 3s left in hand and foot (1)", -100),
    ]
    assert result.total == sum(ln.points for ln in result.lines) == 1250


def test_melds_are_reported_with_kind_and_counts() -> None:
    groups = analyse_table(rules("online-classic"), "S", melds("8 8 8 8 8 8 8", "9 9 9 9 9 JOKER 2", "K K 2", "3B 3B 3B"))
    kinds = [(g.meld.rank, g.meld.naturals, g.meld.wilds, g.meld.kind) for g in groups]
    assert kinds == [("8", 7, 0, "clean"), ("9", 5, 2, "dirty"), ("K", 2, 1, "meld"), (None, 0, 0, "invalid")]
    assert groups[0].meld.points == 570 and groups[1].meld.points == 300 + 5 * 10 + 50 + 20


# --- findings -----------------------------------------------------------------------------


def _only_error(result, text: str) -> str:
    errors = messages(result)
    assert len(errors) == 1, result.findings
    assert text in errors[0]
    return errors[0]


def test_too_many_wilds() -> None:
    result = side("online-classic", ("9 9 9", "K K 2 JOKER"))
    msg = _only_error(result, "too many wilds")
    assert msg.startswith("meld 2 (K K 2 JOKER)")
    assert result.findings[0].meld == 1 and result.findings[0].side == "S"


def test_meld_of_threes() -> None:
    _only_error(side("online-classic", ("9 9 9", "3B 3B 3B")), "a meld of 3s")


def test_meld_of_wilds_only() -> None:
    result = side("family-game-knights", ("9 9 9", "2 2 JOKER"))
    _only_error(result, "wilds only")
    assert line(result, "cards on table") == 30 + 90  # still counted at face value


def test_two_melds_of_one_rank() -> None:
    result = side("remastered-singles", ("9 9 9 9 9 9 9", "9 9 9 9 9 9 9"))
    _only_error(result, "second meld of 9s")
    assert line(result, "clean book of 9s") == 700  # only the first is a book
    assert sum(1 for ln in result.lines if ln.label.startswith("clean book")) == 1
    assert line(result, "cards on table") == 140


def test_black_three_in_a_meld() -> None:
    result = side("remastered-singles", ("9 9 9 9 9 9 3B",))
    _only_error(result, "black 3")
    assert line(result, "clean book") is None  # invalid: no book bonus
    assert line(result, "black 3s on the table") == -100


def test_clothing_card_in_a_number_meld() -> None:
    result = side("bare-foot-n-wild", ("9 9 9 9 SOCK",))
    _only_error(result, "clothing cards cannot go in a meld")
    assert line(result, "clothing cards not in a stack") == -50


def test_wild_in_a_clothing_set() -> None:
    result = side("bare-foot-n-wild", ("SOCK SOCK SHOE WILD20",))
    _only_error(result, "no wild cards")


def test_red_three_inside_a_meld() -> None:
    result = side("remastered-singles", ("9 9 9 3R",))
    _only_error(result, "red 3 cannot be inside a meld")


def test_red_three_laid_where_never_laid() -> None:
    result = side("online-classic", ("9 9 9", "3R 3R"))
    _only_error(result, "never laid")
    assert line(result, "red 3s on the table") == -600


def test_going_out_without_the_required_books() -> None:
    result = side("remastered-singles", ("9 9 9 9 9 9 9", "K K K"), ("",), went_out=True)
    msg = _only_error(result, "no going-out bonus")
    assert "1 clean and 1 dirty" in msg and "0 dirty" in msg
    assert line(result, "going out") is None


def test_going_out_with_cards_still_held() -> None:
    result = side("remastered-singles", ("9 9 9 9 9 9 9", "K K K K K 2 2"), ("5",), went_out=True)
    _only_error(result, "still in hand and foot")
    assert line(result, "going out") is None


def test_partner_may_hold_cards_when_the_other_goes_out() -> None:
    result = side("online-classic", ("9 9 9 9 9 9 9", "K K K K K 2 2"), ("", "5 5"), went_out=True)
    assert not messages(result)
    assert line(result, "going out") == 100
    assert line(result, "left in hand and foot") == -10


@pytest.mark.parametrize(
    ("preset", "card"),
    [
        ("remastered-singles", "11"),
        ("remastered-singles", "SHOE"),
        ("bare-foot-n-wild", "K"),
        ("bare-foot-n-wild", "JOKER"),
        ("bare-foot-n-wild", "A"),
        ("online-classic", "1"),
    ],
)
def test_foreign_card_is_reported_not_scored(preset: str, card: str) -> None:
    on_table = side(preset, (f"9 9 9 {card}",))
    _only_error(on_table, f"{card} is not a card")
    assert line(on_table, "cards on table") == 30
    held = side(preset, (), (card,))
    _only_error(held, f"{card} is not a card")
    assert held.total == 0


def test_face_down_card_is_a_warning_never_points() -> None:
    result = side("remastered-singles", ("9 9 9 BACK",), ("BACK",))
    assert not messages(result)
    assert len([m for m in messages(result, "warning") if "face-down" in m]) == 2
    assert result.total == 30


def test_short_meld() -> None:
    result = side("online-classic", ("9 9 9 9 9", "K K"))
    _only_error(result, "only 2 cards")
    assert line(result, "cards on table") == 70


def test_mixed_ranks() -> None:
    _only_error(side("online-classic", ("9 9 9 K",)), "mixes ranks")


def test_below_the_opening_minimum_is_a_warning() -> None:
    result = side("remastered-singles", ("9 9 9",), round_no=2)
    assert not messages(result)
    assert any("below round 2's opening minimum of 90" in m for m in messages(result, "warning"))
    assert result.total == 30


def test_invalid_meld_counts_face_value_without_book_bonus() -> None:
    result = side("online-classic", ("9 9 9 2 2 2 2",))  # 3 naturals, 4 wilds: 7 cards
    assert any("too many wilds" in m for m in messages(result))
    assert line(result, "dirty book") is None
    assert result.total == 30 + 80


def test_round_flags_two_sides_going_out() -> None:
    book = melds("9 9 9 9 9 9 9", "K K K K K 2 2")
    r = rules("online-classic")
    result = score_round(r, 1, [SideRound("A", book, ((),), True), SideRound("B", book, ((),), True), SideRound("C", book)])
    assert [bool(messages(s, "warning")) for s in result.sides] == [True, True, False]
    assert not result.has_error


def test_round_result_has_error() -> None:
    r = rules("online-classic")
    result = score_round(r, 1, [SideRound("A", melds("9 9 9 9 9 9 9")), SideRound("B", melds("3B 3B 3B"))])
    assert result.has_error and result.rules == "online-classic" and result.round == 1
    assert [s.has_error for s in result.sides] == [False, True]


def test_unknown_class_name_is_a_foreign_card() -> None:
    result = side("online-classic", (), ("Z",))
    assert any("Z is not a card" in m for m in messages(result))
