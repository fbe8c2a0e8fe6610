"""An unsure rank box far larger than the photo's indices (a letter printed across a court card's face) is not
counted as a card."""

from collections import Counter

import pytest
from cached_photos import miscounted, miscounted_without, photo_file

import vision.pipe as pipe
from vision.detection import Detection
from vision.face_letters import FACE_CONF, LARGE, drop_face_letters
from vision.pipe import LEFTOVER
from vision.small_jokers import MIN_NATURALS, NATURAL_CONF


def box(cls: str, x: float, conf: float = 0.8, side: float = 20.0) -> Detection:
    return Detection(cls, conf, (x, 100.0, x + side, 100.0 + side))


INDICES = [box("9", 0), box("A", 40), box("J", 80), box("10", 120)]  # a hand's indices, 20 px


def test_an_unsure_rank_box_far_larger_than_the_indices_is_dropped():
    face = box("J", 200, FACE_CONF - 0.2, side=20 * LARGE + 2)
    assert drop_face_letters([*INDICES, face]) == INDICES


@pytest.mark.parametrize(
    "face",
    [
        box("J", 200, FACE_CONF + 0.1, side=20 * LARGE + 2),  # the detector was sure of it
        box("J", 200, FACE_CONF - 0.2, side=20 * LARGE - 2),  # not large enough
        box("JOKER", 200, 0.3, side=60),  # a joker's mark may be a whole word
        box("SOCK", 200, 0.3, side=60),  # a Bare Foot sock's index is a picture
        box("WILD50", 200, 0.3, side=60),
        box("BACK", 200, 0.3, side=200),  # a face-down card is boxed whole
    ],
)
def test_a_sure_box_one_not_large_enough_or_one_naming_no_rank_stays(face):
    assert drop_face_letters([*INDICES, face]) == [*INDICES, face]


def test_a_photo_of_too_few_sure_indices_to_measure_keeps_every_box():
    few = [*INDICES[: MIN_NATURALS - 1], box("J", 200, NATURAL_CONF - 0.05, side=60)]
    assert drop_face_letters(few) == few
    assert drop_face_letters([*few, INDICES[-1]]) == [*few[:-1], INDICES[-1]]


PHOTOS = photo_file("face_letter_photos.json")["photos"]


@pytest.mark.parametrize("photo", PHOTOS, ids=[p["photo"] for p in PHOTOS])
def test_held_out_hands_count_their_cards_and_no_court_card_twice(photo, monkeypatch):
    assert miscounted(LEFTOVER, photo) == Counter()
    # the rule turned off: one court card too many
    extra = miscounted_without(monkeypatch, pipe, "drop_face_letters", LEFTOVER, photo)
    assert sum(extra.values()) == 1 and set(extra) <= {"J", "Q", "K"}
