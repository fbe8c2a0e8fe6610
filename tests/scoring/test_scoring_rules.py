"""Custom rules: start from a preset, override numbers; bad keys and values are named."""

from __future__ import annotations

import pytest
from scoring_helpers import side

from handfoot.rules_files import preset_dicts
from scoring.rules import RulesError, rules_from_dict


def test_custom_rules_override_a_preset() -> None:
    r = rules_from_dict(
        {"base": "remastered-singles", "name": "ours", "books": {"clean": 500}, "card_values": {"A": 15}, "opening_meld": 40},
        preset_dicts(),
    )
    assert (r.name, r.clean_book, r.dirty_book, r.value("A"), r.value("K")) == ("ours", 500, 300, 15, 10)
    assert r.opening_meld == (40, 40, 40, 40)
    assert side(r, ("4 4 4 4 4 4 4",)).total == 535


def test_custom_rules_may_change_the_number_of_rounds() -> None:
    r = rules_from_dict(
        {
            "base": "online-classic",
            "rounds": 2,
            "opening_meld": [50, 70],
            "going_out": {"clean_books": [1, 2], "dirty_books": 1, "partner_clean_books": 1, "partner_dirty_books": 1},
        },
        preset_dicts(),
    )
    assert r.rounds == 2 and r.books_to_go_out(2) == (2, 1)
    assert r.name == "online-classic (custom)"


def test_a_rules_file_may_leave_books_out_of_the_opening() -> None:
    # online-classic counts a book of ten Ks (100) toward round 2's 90; with books left out it can
    # have opened only as six Ks (60), below 90.
    table = ("K K K K K K K K K K",)
    plain = rules_from_dict({"base": "online-classic"}, preset_dicts())
    ours = rules_from_dict({"base": "online-classic", "opening_counts_books": False}, preset_dicts())
    assert (plain.opening_counts_books, ours.opening_counts_books) == (True, False)
    assert not side(plain, table, round_no=2).findings
    (said,) = [f.message for f in side(ours, table, round_no=2).findings]
    assert "at most 60 " in said and "minimum of 90" in said


@pytest.mark.parametrize(
    ("data", "named"),
    [
        ({"colour": "red"}, "'colour'"),
        ({"opening_counts_books": "no"}, "opening_counts_books must be true or false"),
        ({"books": {"clen": 600}}, "'books.clen'"),
        ({"card_values": {"1": 5}}, "'card_values.1'"),
        ({"going_out": {"bonuss": 5}}, "'going_out.bonuss'"),
    ],
)
def test_unknown_keys_are_named(data: dict, named: str) -> None:
    with pytest.raises(RulesError, match=named):
        rules_from_dict({"base": "remastered-singles", **data}, preset_dicts())


@pytest.mark.parametrize(
    ("data", "named"),
    [
        ({"rounds": 5}, "opening_meld has 4 entries but rounds = 5"),
        ({"books": {"clean": "lots"}}, "books.clean must be a whole number"),
        ({"red_threes": {"laid": 1}}, "red_threes.laid must be true or false"),
        ({"family": "tarot"}, "family must be one of"),
        ({"base": "nope"}, "unknown base preset 'nope'"),
        ({"books": 7}, "books must be a table"),
    ],
)
def test_bad_values_are_named(data: dict, named: str) -> None:
    with pytest.raises(RulesError, match=named):
        rules_from_dict({"base": "remastered-singles", **data}, preset_dicts())


def test_a_rules_file_without_base_needs_every_card_value() -> None:
    data = dict(preset_dicts()["online-classic"])
    data["card_values"] = {k: v for k, v in data["card_values"].items() if k != "K"}
    with pytest.raises(RulesError, match="lacks K"):
        rules_from_dict(data, {})


def test_a_rules_file_without_base_needs_its_core_keys() -> None:
    with pytest.raises(RulesError, match="lack 'family'"):
        rules_from_dict({"name": "x"}, {})


def test_switching_family_asks_for_that_familys_values() -> None:
    with pytest.raises(RulesError, match=r"unknown key .card_values\."):
        rules_from_dict({"base": "remastered-singles", "family": "barefoot"}, preset_dicts())
