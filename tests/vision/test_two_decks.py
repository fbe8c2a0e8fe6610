"""A wild of one deck among the melds of another, whose cards are another size for the size of their index: the
neighbours' diagonals do not veto its pair (`JoinConfig.deck_shape`), so it is one card, not two."""

from cached_photos import boxes, miscounted, miscounted_without, photo_file

import vision.corners as corners
from vision.corners import JoinConfig, join_corners
from vision.pipe import TABLE

PHOTO = "two_decks_photo.json"


def simplistic_twos(config: JoinConfig | None = None) -> list[int]:
    """Corners per card of the photo's two `aisleriot-simplistic` 2s (their indices are under 40 px tall; the
    `kennard` indices are over 50)."""
    cards = join_corners(boxes(photo_file(PHOTO)), config)
    return sorted(len(c.corners) for c in cards if c.cls == "2" and c.corners[0].box[3] - c.corners[0].box[1] < 40)


def test_a_wild_of_another_deck_among_the_melds_is_one_card():
    assert simplistic_twos() == [2]
    assert simplistic_twos(JoinConfig(deck_shape=0)) == [1, 1]  # asked of the other deck's cards, it is vetoed


def test_held_out_photo_of_two_decks_counts_its_cards(monkeypatch):
    photo = photo_file(PHOTO)
    assert miscounted(TABLE, photo) == {}
    assert miscounted_without(monkeypatch, corners, "_same_deck", TABLE, photo, stand_in=lambda ratio, other, cfg: True) == {"2": 1}
