"""Joker boxes far smaller than a photo's indices (a design's suit pips), or than its other jokers' marks,
are not counted as jokers."""

from collections import Counter

from cached_photos import miscounted, miscounted_without, photo_file

import vision.small_jokers as small_jokers
from vision.detection import Detection
from vision.pipe import LEFTOVER, TABLE, join_for
from vision.small_jokers import SMALL_AMONG_JOKERS, SMALL_JOKER, drop_small_jokers


def square(cls: str, x: float, y: float, side: float, conf: float = 0.8) -> Detection:
    return Detection(cls, conf, (x, y, x + side, y + side))


def fan_of_naturals(side: float = 40.0) -> list[Detection]:
    """A hand's fan: one index per card, a card's width apart."""
    return [square(cls, 100 + 70 * n, 100, side) for n, cls in enumerate(["4", "7", "9", "J", "K"])]


def test_pip_sized_joker_boxes_are_dropped_and_index_sized_ones_kept():
    pips = [square("JOKER", 110 + 70 * n, 300, 12, conf=0.5) for n in range(4)]
    joker = square("JOKER", 500, 100, 40, conf=0.6)
    kept = drop_small_jokers(fan_of_naturals() + pips + [joker])
    assert [d for d in kept if d.cls == "JOKER"] == [joker]
    assert len(kept) == 6


def test_the_ratio_is_measured_against_the_photos_own_index_size():
    # the same 12 px marks beside 20 px indices are no smaller than a joker's mark may be
    small_photo = fan_of_naturals(side=20) + [square("JOKER", 500, 300, 12)]
    assert sum(d.cls == "JOKER" for d in drop_small_jokers(small_photo)) == 1
    edge = fan_of_naturals(side=40) + [square("JOKER", 500, 300, 40 * SMALL_JOKER * 1.01)]
    assert sum(d.cls == "JOKER" for d in drop_small_jokers(edge)) == 1


def test_too_few_naturals_to_measure_keeps_every_box():
    dets = fan_of_naturals()[:2] + [square("JOKER", 500, 300, 10)]
    assert drop_small_jokers(dets) == dets


def test_only_jokers_are_dropped_and_unsure_naturals_do_not_set_the_size():
    tiny_natural = square("5", 600, 300, 10)
    unsure = [square("Q", 100 + 70 * n, 500, 400, conf=0.1) for n in range(9)]  # would raise the median tenfold
    joker = square("JOKER", 700, 300, 30)
    kept = drop_small_jokers(fan_of_naturals() + [tiny_natural, joker] + unsure)
    assert tiny_natural in kept and joker in kept


def test_a_hand_photo_with_a_row_of_pips_counts_no_jokers():
    pips = [square("JOKER", 110 + 70 * n, 145, 12, conf=0.5) for n in range(5)]
    cards = join_for(LEFTOVER, fan_of_naturals() + pips, jokers=False)
    assert Counter(c.cls for c in cards) == Counter({"4": 1, "7": 1, "9": 1, "J": 1, "K": 1})


def column_of_jokers(side: float = 40.0, conf: float = 0.7) -> list[Detection]:
    """Three jokers fanned down a meld column: one mark each, a step apart."""
    return [square("JOKER", 600, 100 + 60 * n, side, conf) for n in range(3)]


def test_a_joker_box_far_smaller_than_the_photos_other_jokers_is_dropped():
    # naturals of 20 px would keep a 20 px joker box (the natural rule's floor is 9 px) ...
    pip = square("JOKER", 700, 400, 20, conf=0.35)
    kept = drop_small_jokers(fan_of_naturals(side=20) + column_of_jokers() + [pip])
    # ... but beside three 40 px joker marks of the same design it is no joker's mark
    assert pip not in kept
    assert sum(d.cls == "JOKER" for d in kept) == 3
    edge = square("JOKER", 700, 400, 40 * SMALL_AMONG_JOKERS * 1.01, conf=0.35)
    assert edge in drop_small_jokers(fan_of_naturals(side=20) + column_of_jokers() + [edge])


def test_too_few_sure_jokers_to_measure_keep_a_small_one():
    pip = square("JOKER", 700, 400, 20, conf=0.35)
    one = column_of_jokers()[:1]  # with the small box itself, two sure joker boxes: too few to say
    assert pip in drop_small_jokers(fan_of_naturals(side=20) + one + [pip])
    # unsure joker boxes do not make up the count
    unsure = column_of_jokers(conf=0.2)
    assert pip in drop_small_jokers(fan_of_naturals(side=20) + unsure + [pip])
    assert len(drop_small_jokers(fan_of_naturals(side=20) + unsure + [pip])) == 5 + 3 + 1


def test_a_held_out_tables_boxes_count_its_jokers_once(monkeypatch):
    photo = photo_file("small_joker_photo.json")
    # six index-sized joker marks and two boxes under half their side, on no joker
    assert miscounted(TABLE, photo) == Counter()
    # measured against the naturals alone (the design's tall, narrow indices), one of the two stays: a joker
    # too many
    unmeasured = miscounted_without(monkeypatch, small_jokers, "joker_side", TABLE, photo, lambda detections: None)
    assert unmeasured == Counter({"JOKER": 1})
