"""Table layout: melds by rank, wilds by column, red threes, backs, unplaced cards."""

from __future__ import annotations

from collections import Counter

from synth_cards import CARD_H, CARD_W, card_corners, column

from vision.corners import join_corners
from vision.detection import Card, Detection
from vision.layout import (
    BAREFOOT_MELD_GROUPS,
    BAREFOOT_WILDS,
    STANDARD_WILDS,
    LayoutConfig,
    layout_leftover,
    layout_table,
)

COL = CARD_W + 10  # distance between meld columns


def melds_of(layout) -> list[Counter]:
    return [Counter(c.cls for c in meld) for meld in layout.melds]


def table(*columns_, extra=()):
    dets = []
    for k, classes in enumerate(columns_):
        dets += column(list(classes), 100 + k * COL, 100)
    return join_corners(dets + list(extra))


def test_each_rank_is_one_meld_and_wilds_go_to_their_column():
    cards = table(["8", "8", "2", "8"], ["K", "JOKER", "K", "K", "2"], ["5", "5", "5"])
    lay = layout_table(cards, STANDARD_WILDS)
    assert melds_of(lay) == [
        Counter({"8": 3, "2": 1}),
        Counter({"K": 3, "JOKER": 1, "2": 1}),
        Counter({"5": 3}),
    ]
    assert lay.unplaced == [] and lay.backs == [] and lay.red_threes == []


def test_wild_at_the_bottom_of_a_column_fully_visible_goes_to_that_column():
    # the wild is the last card: both its corners show, the second near the next column
    cards = table(["Q", "Q", "Q", "WILD50"], ["4", "4", "4"])
    lay = layout_table(cards, STANDARD_WILDS)
    assert melds_of(lay) == [Counter({"Q": 3, "WILD50": 1}), Counter({"4": 3})]


def test_wild_far_from_every_column_is_unplaced_never_dropped():
    stray = card_corners("JOKER", 100 + 5 * COL, 900)
    cards = table(["9", "9", "9"], extra=stray)
    lay = layout_table(cards, STANDARD_WILDS)
    assert melds_of(lay) == [Counter({"9": 3})]
    assert [c.cls for c in lay.unplaced] == ["JOKER"]
    assert len(lay.cards()) == len(cards)


def test_red_threes_are_a_row_of_their_own_when_laid():
    row = card_corners("3R", 100, 500) + card_corners("3R", 100 + COL, 500)
    cards = table(["A", "A", "A"], extra=row)
    lay = layout_table(cards, STANDARD_WILDS, red_three_class="3R")
    assert [c.cls for c in lay.red_threes] == ["3R", "3R"]
    assert melds_of(lay) == [Counter({"A": 3})]


def test_barefoot_threes_are_naturals_and_twos_are_not_wild():
    cards = table(["3R", "3R", "3R", "WILD20"], ["2", "2", "2"])
    lay = layout_table(cards, BAREFOOT_WILDS, red_three_class=None)
    assert lay.red_threes == []
    assert melds_of(lay) == [Counter({"3R": 3, "WILD20": 1}), Counter({"2": 3})]


def test_barefoot_socks_and_shoes_meld_together():
    cards = table(["SOCK", "SHOE", "SOCK", "SHOE"], ["7", "7", "7"])
    lay = layout_table(cards, BAREFOOT_WILDS, red_three_class=None, meld_groups=BAREFOOT_MELD_GROUPS)
    assert melds_of(lay) == [Counter({"SOCK": 2, "SHOE": 2}), Counter({"7": 3})]
    assert lay.meld_keys == ["CLOTHING", "7"]


def test_back_cards_are_kept_for_a_warning():
    back = Detection("BACK", 0.9, (600.0, 600.0, 600 + CARD_W, 600 + CARD_H))
    cards = table(["6", "6", "6"], extra=[back])
    lay = layout_table(cards, STANDARD_WILDS)
    assert [c.cls for c in lay.backs] == ["BACK"]
    assert melds_of(lay) == [Counter({"6": 3})]


def test_one_rank_in_two_columns_is_one_meld_with_a_note():
    cards = table(["J", "J", "J"], ["10", "10", "10"], ["J", "J"])
    lay = layout_table(cards, STANDARD_WILDS)
    assert Counter({"J": 5}) in melds_of(lay)
    assert len(lay.melds) == 2
    assert any("J" in note and "2 columns" in note for note in lay.notes)


def test_photo_turned_a_quarter_still_assigns_wilds_by_column():
    # same table turned 90 degrees: columns run across the photo
    dets = []
    for k, classes in enumerate((["8", "8", "JOKER", "8"], ["K", "K", "2", "K"])):
        y = 100 + k * COL
        for i, cls in enumerate(classes):
            last = i == len(classes) - 1
            dets += card_corners(cls, 800 - i * 26, y, angle=90, which="both" if last else "tl")
    lay = layout_table(join_corners(dets), STANDARD_WILDS)
    assert sorted(melds_of(lay), key=lambda c: sorted(c)) == sorted(
        [Counter({"8": 3, "JOKER": 1}), Counter({"K": 3, "2": 1})], key=lambda c: sorted(c)
    )


def test_leftover_counts_every_face_up_card_and_keeps_backs_apart():
    dets = []
    for k, cls in enumerate(["4", "4", "K", "3B", "JOKER"]):
        dets += card_corners(cls, 100 + k * (CARD_W + 5), 100)
    dets.append(Detection("BACK", 0.7, (100.0, 300.0, 163.0, 388.0)))
    left = layout_leftover(join_corners(dets))
    assert Counter(c.cls for c in left.cards) == Counter({"4": 2, "K": 1, "3B": 1, "JOKER": 1})
    assert len(left.backs) == 1


def test_only_wilds_on_the_table_are_unplaced():
    cards = join_corners(column(["2", "JOKER", "2"], 100, 100))
    lay = layout_table(cards, STANDARD_WILDS)
    assert lay.melds == []
    assert len(lay.unplaced) == 3
    assert isinstance(lay.unplaced[0], Card)


def test_a_run_of_wilds_at_a_column_end_all_go_to_that_column():
    # the last wilds lie further beyond the last natural than one wild may,
    # but each lies next to a wild already in the column
    cards = table(["A", "A", "A", "2", "JOKER", "2", "JOKER", "2"], ["K", "K", "K"])
    lay = layout_table(cards, STANDARD_WILDS)
    assert melds_of(lay) == [Counter({"A": 3, "2": 3, "JOKER": 2}), Counter({"K": 3})]
    assert lay.unplaced == []


def covered(dets: list[Detection]) -> list[Card]:
    """Each detection a card of its own (cards covered but for one corner)."""
    return [Card(d.cls, d.conf, (d,)) for d in dets]


def test_a_whole_wild_ending_a_column_stays_there_when_its_far_corner_lies_amid_the_next_column():
    # held-out round 171 side 3: a 2 ends a column of 6s; the next column of 8s lies so close that the 2's
    # far corner falls between two 8s, on their line, nearer it than the 2's own corner is to the 6s
    sixes = covered(column(["6", "6"], 100, 100, last_both=False))
    eights = covered(column(["8"] * 5, 149, 116, step=40, last_both=False))
    two = card_corners("2", 100, 152)
    assert min(abs(two[1].center[1] - e.corners[0].center[1]) for e in eights) < 20  # amid the 8s
    cards = sixes + eights + [Card("2", 0.9, tuple(two))]
    assert melds_of(layout_table(cards, STANDARD_WILDS)) == [Counter({"6": 2, "2": 1}), Counter({"8": 5})]
    # placed by its best corner alone, as before, it joined the 8s
    before = layout_table(cards, STANDARD_WILDS, config=LayoutConfig(whole_inside=0))
    assert melds_of(before) == [Counter({"6": 2}), Counter({"8": 5, "2": 1})]


def test_a_wild_with_every_corner_inside_columns_is_still_placed():
    # two covered 2s of neighbouring columns joined as one card by mistake: not lost, placed by its best corner
    sixes = covered(column(["6", "6", "6", "6"], 100, 100, last_both=False))
    eights = covered(column(["8"] * 5, 149, 116, step=40, last_both=False))
    two = card_corners("2", 100, 152)
    cards = sixes + eights + [Card("2", 0.9, tuple(two))]
    lay = layout_table(cards, STANDARD_WILDS)
    assert lay.unplaced == [] and sum(m["2"] for m in melds_of(lay)) == 1


def test_a_misread_natural_inside_another_ranks_column_is_read_as_that_rank_with_a_note():
    cards = table(["8", "8", "6", "8", "2"], ["K", "K", "K"])
    lay = layout_table(cards, STANDARD_WILDS)
    assert melds_of(lay) == [Counter({"8": 4, "2": 1}), Counter({"K": 3})]
    assert [(old.cls, new.cls) for old, new in lay.reread] == [("6", "8")]
    old, new = lay.reread[0]
    assert new.corners == old.corners and new.conf < old.conf  # among the least sure cards
    assert any("lone 6" in note and "8" in note for note in lay.notes)
    assert len(lay.cards()) == len(cards)


def test_the_whole_last_card_of_a_column_misread_is_read_as_the_columns_rank():
    cards = table(["Q", "Q", "Q", "9"], ["4", "4", "4"])
    lay = layout_table(cards, STANDARD_WILDS)
    assert melds_of(lay) == [Counter({"Q": 4}), Counter({"4": 3})]


def test_a_rank_with_a_column_of_its_own_is_never_read_as_another():
    # two 7s and a wild are a meld in their own column; the lone 6 has a column of its own too
    cards = table(["8", "8", "6", "8"], ["7", "7", "2"], ["6"])
    lay = layout_table(cards, STANDARD_WILDS)
    assert Counter({"7": 2, "2": 1}) in melds_of(lay)
    assert Counter({"6": 2}) in melds_of(lay) and lay.reread == []


def test_a_card_corrected_by_hand_keeps_its_class():
    cards = table(["8", "8", "6", "8"], ["K", "K", "K"])
    six = next(c for c in cards if c.cls == "6")
    lay = layout_table(cards, STANDARD_WILDS, keep=[six])
    assert Counter({"6": 1}) in melds_of(lay) and lay.reread == []


def test_a_fixed_class_inside_a_meld_stays_itself_for_the_rules_to_judge():
    cards = table(["8", "8", "SOCK", "8"], ["K", "K", "K"])
    lay = layout_table(cards, STANDARD_WILDS, fixed_classes={"3R", "SOCK", "SHOE"})
    assert Counter({"SOCK": 1}) in melds_of(lay) and lay.reread == []


def test_misread_cards_of_two_ranks_in_one_column_all_join_its_meld():
    # the two 6s could take the 9 as strays of their own, but are strays themselves:
    # only a rank with more than two cards takes strays, so every card joins the 8s
    cards = table(["8", "6", "8", "6", "8", "9"])
    lay = layout_table(cards, STANDARD_WILDS)
    assert melds_of(lay) == [Counter({"8": 6})]
    assert len(lay.cards()) == len(cards) and len(lay.reread) == 3


def test_misread_cards_inside_a_longer_column_are_its_rank_even_when_their_rank_has_a_meld():
    # three 8s of the first column read as 6s; the 6s' own meld lies two columns on
    cards = table(["8", "8", "6", "6", "8", "6", "8"], [], ["6", "6", "6", "6", "6"])
    lay = layout_table(cards, STANDARD_WILDS)
    assert melds_of(lay) == [Counter({"8": 7}), Counter({"6": 5})]
    assert [(old.cls, new.cls) for old, new in lay.reread] == [("6", "8")] * 3
    assert len(lay.cards()) == len(cards)


def test_a_group_as_long_as_the_column_it_lies_in_is_not_outvoted():
    # three 6s among three 8s: no majority says which rank the column is, so all stay
    cards = table(["8", "6", "8", "6", "8", "6"], [], ["6", "6", "6", "6"])
    lay = layout_table(cards, STANDARD_WILDS)
    assert melds_of(lay) == [Counter({"8": 3}), Counter({"6": 7})]
    assert lay.reread == []


def test_more_misread_cards_than_the_layout_allows_stay_as_read():
    # three 6s inside a column of four 8s, where at most two may be read as another rank
    cards = table(["8", "6", "8", "6", "8", "6", "8"], [], ["6", "6", "6", "6", "6"])
    lay = layout_table(cards, STANDARD_WILDS, config=LayoutConfig(stray_column_max=2))
    assert Counter({"6": 8}) in melds_of(lay) and lay.reread == []
