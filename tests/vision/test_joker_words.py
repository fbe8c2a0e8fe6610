"""An unsure rank box inside a joker's box (the first letter of its word) is not counted as a card."""

from collections import Counter

from cached_photos import miscounted, miscounted_without, photo_file

import handfoot.photo_round as photo_round
from handfoot.photo_round import TABLE
from vision.detection import Detection, share_inside
from vision.joker_words import INSIDE, WORD_CONF, drop_joker_letters

JOKER = Detection("JOKER", 0.5, (100.0, 100.0, 160.0, 200.0))  # a joker's word down its corner


def box(cls: str, x: float, y: float, conf: float, side: float = 30.0) -> Detection:
    return Detection(cls, conf, (x, y, x + side, y + side))


def test_an_unsure_jack_inside_a_jokers_box_is_dropped():
    letter = box("J", 110, 110, WORD_CONF - 0.2)
    assert drop_joker_letters([JOKER, letter]) == [JOKER]


def test_a_sure_index_or_one_beside_the_joker_stays():
    sure = box("8", 110, 110, WORD_CONF + 0.2)
    beside = box("J", 150, 110, 0.3)  # a third of it within the joker's box
    assert share_inside(beside.box, JOKER.box) < INSIDE
    assert drop_joker_letters([JOKER, sure, beside]) == [JOKER, sure, beside]


def test_only_rank_boxes_are_dropped_and_only_where_a_joker_box_holds_them():
    wild, back = box("WILD20", 110, 110, 0.3), box("BACK", 110, 110, 0.3)
    assert drop_joker_letters([JOKER, wild, back]) == [JOKER, wild, back]
    lone = [box("J", 110, 110, 0.3)]
    assert drop_joker_letters(lone) == lone


def test_a_held_out_table_counts_its_joker_and_no_jack_from_its_word(monkeypatch):
    photo = photo_file("joker_word_photo.json")
    assert miscounted(TABLE, photo) == Counter()
    # the rule turned off: a jack too many
    assert miscounted_without(monkeypatch, photo_round, "drop_joker_letters", TABLE, photo) == Counter({"J": 1})
