"""A joker box where two of a joker's diagonals cross (the emblem on its face) is not counted as a joker."""

import math
from collections import Counter

from cached_photos import miscounted, miscounted_without, photo_file

import vision.pipe as pipe
from vision.detection import Detection
from vision.joker_faces import CROSSING, drop_joker_faces
from vision.pipe import TABLE

INDEX = 30.0  # the naturals' index side, px


def box(cls: str, x: float, y: float, conf: float = 0.8, side: float = INDEX) -> Detection:
    """A `side` x `side` box centred on (x, y)."""
    return Detection(cls, conf, (x - side / 2, y - side / 2, x + side / 2, y + side / 2))


NATURALS = [box("8", 100 + 40 * i, 500) for i in range(4)]  # a meld's indices: they give the index size


def joker_at(x: float, y: float, width: float = 3 * INDEX, height: float = 4 * INDEX) -> list[Detection]:
    """A whole joker's four corner marks, the card's middle at (x, y)."""
    return [box("JOKER", x + sx * width / 2, y + sy * height / 2) for sx in (-1, 1) for sy in (-1, 1)]


def test_a_joker_box_where_a_jokers_four_marks_cross_is_dropped():
    marks = joker_at(400, 200)
    face = box("JOKER", 403, 198, conf=0.3)
    assert drop_joker_faces([*NATURALS, *marks, face]) == [*NATURALS, *marks]


def test_a_row_of_jokers_keeps_the_joker_in_its_middle():
    row = [box("JOKER", 200 + 60 * i, 200) for i in range(5)]  # one joker's corner in the middle of its neighbours'
    assert drop_joker_faces([*NATURALS, *row]) == [*NATURALS, *row]


def test_one_diagonal_is_not_enough():
    top_left, _, _, bottom_right = joker_at(400, 200)
    others = [box("JOKER", 700, 600), box("JOKER", 760, 600)]  # jokers elsewhere: no second diagonal
    face = box("JOKER", 400, 200)
    dets = [*NATURALS, top_left, bottom_right, face, *others]
    assert drop_joker_faces(dets) == dets


def test_diagonals_crossing_at_a_shallow_angle_are_no_card():
    half = math.radians(CROSSING - 10) / 2  # a card far longer than wide: its diagonals cross at CROSSING - 10 degrees
    diagonal = 4.5 * INDEX
    marks = joker_at(400, 300, width=diagonal * math.sin(half), height=diagonal * math.cos(half))
    face = box("JOKER", 400, 300)
    dets = [*NATURALS, *marks, face]
    assert drop_joker_faces(dets) == dets


def test_a_photo_without_naturals_to_measure_keeps_every_box():
    dets = [*joker_at(400, 200), box("JOKER", 400, 200)]
    assert drop_joker_faces(dets) == dets


def test_a_held_out_table_counts_its_two_jokers_not_four(monkeypatch):
    photo = photo_file("joker_face_photo.json")
    assert miscounted(TABLE, photo) == Counter()
    # the rule turned off: two jokers too many
    assert miscounted_without(monkeypatch, pipe, "drop_joker_faces", TABLE, photo) == Counter({"JOKER": 2})
