"""Corner detections join into physical cards: counts must be exact."""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from cached_photos import boxes, photo_file
from synth_cards import CARD_H, CARD_W, card_corners, column, index_box, shrunk, turned_column

from vision import corners
from vision.corners import HAND_PHOTO, JoinConfig, dedupe, join_corners
from vision.detection import Detection
from vision.small_jokers import drop_small_jokers


def counts(cards) -> Counter:
    return Counter(c.cls for c in cards)


@pytest.mark.parametrize("angle", range(0, 360, 15))
@pytest.mark.parametrize("scale", [0.4, 1.0, 6.0])
def test_lone_card_at_any_rotation_and_scale_is_one_card(angle, scale):
    dets = card_corners("Q", 500, 500, angle=angle, scale=scale)
    cards = join_corners(dets)
    assert len(cards) == 1
    assert len(cards[0].corners) == 2


def test_lone_fanned_corner_is_a_card():
    cards = join_corners(card_corners("7", 100, 100, which="tl"))
    assert [c.cls for c in cards] == ["7"]


@pytest.mark.parametrize("angle", [0, 90, 180, 270, 10, -12])
@pytest.mark.parametrize("gap", [2.0, 8.0, 25.0])
def test_two_identical_cards_side_by_side_are_two_cards(angle, gap):
    # side by side in the card's own frame, then the pair is turned together
    t = math.radians(angle)
    dx = (CARD_W + gap) * math.cos(t)
    dy = (CARD_W + gap) * math.sin(t)
    dets = card_corners("8", 300, 300, angle=angle) + card_corners("8", 300 + dx, 300 + dy, angle=angle)
    cards = join_corners(dets)
    assert counts(cards) == Counter({"8": 2})
    assert all(len(c.corners) == 2 for c in cards)


@pytest.mark.parametrize("missing", ["first_br", "second_tl", "first_tl"])
def test_identical_neighbours_with_one_corner_hidden_still_count_two(missing):
    a = card_corners("K", 200, 200)
    b = card_corners("K", 200 + CARD_W + 3, 200)
    if missing == "first_br":
        a = a[:1]
    elif missing == "first_tl":
        a = a[1:]
    else:
        b = b[1:]
    assert counts(join_corners(a + b)) == Counter({"K": 2})


def test_identical_cards_one_above_the_other_are_two_cards():
    dets = card_corners("5", 200, 200) + card_corners("5", 200, 200 + CARD_H + 4)
    assert counts(join_corners(dets)) == Counter({"5": 2})


@pytest.mark.parametrize("n", [3, 7, 9])
@pytest.mark.parametrize("step", [18.0, 26.0, 40.0])
def test_fanned_meld_of_identical_cards_counts_each_card(n, step):
    dets = column(["9"] * n, 300, 200, step=step)
    assert len(dets) == n + 1  # last card shows both corners
    assert counts(join_corners(dets)) == Counter({"9": n})


@pytest.mark.parametrize("angle", [30, 60, 135, 250])
def test_turned_column_broken_by_a_wild_does_not_pair_neighbours_along_it(angle):
    # a meld turned at a slant (index boxes square: their shape says nothing of
    # the turn), fanned wide, its chain of 6s broken by a wild: two neighbouring
    # 6s lie along the column, where no card's diagonal runs
    # (the wild one step beyond the pair tells it too: with that rule off, the fan's direction alone)
    dets = turned_column(["6", "6", "2", "6", "6", "6", "6"], 300, 300, angle, step=40.0)
    assert counts(join_corners(dets)) == Counter({"6": 6, "2": 1})
    alone = JoinConfig(column_wild_share=0.0)
    assert counts(join_corners(dets, alone)) == Counter({"6": 6, "2": 1})
    assert counts(join_corners(dets, replace(alone, along_margin=0.0))) != Counter({"6": 6, "2": 1})


def test_wide_fan_does_not_pair_fanned_indices_with_each_other():
    # widely spread fan: top-left indices ~2.6 index heights apart, vertically
    dets = column(["A"] * 5, 300, 200, step=52.0, last_both=False)
    assert counts(join_corners(dets)) == Counter({"A": 5})


def test_horizontal_hand_fan_counts_each_card():
    dets = []
    for k in range(6):
        dets += card_corners("J", 100 + k * 22, 300, which="both" if k == 5 else "tl")
    assert counts(join_corners(dets)) == Counter({"J": 6})


def test_cards_at_different_scales_join_with_their_own_corners():
    small = card_corners("4", 100, 100, scale=0.5)
    big = card_corners("4", 100 + CARD_W * 0.5 + 5 + CARD_W * 1.5, 120, scale=3.0)
    cards = join_corners(small + big)
    assert counts(cards) == Counter({"4": 2})
    for card in cards:
        sizes = {round(d.size) for d in card.corners}
        assert len(sizes) == 1


def test_grid_of_identical_whole_cards():
    dets = []
    for row in range(3):
        for col in range(4):
            dets += card_corners("10", 100 + col * (CARD_W + 6), 100 + row * (CARD_H + 6))
    cards = join_corners(dets)
    assert counts(cards) == Counter({"10": 12})
    assert all(len(c.corners) == 2 for c in cards)


def test_random_spreads_of_whole_cards_count_exactly():
    rng = random.Random(7)
    classes = ["A", "4", "4", "7", "Q", "K", "JOKER", "2"]
    for trial in range(40):
        scale = rng.uniform(0.5, 4.0)
        angle = rng.choice([0, 180, 90, 270]) + rng.uniform(-8, 8)
        cols = rng.randint(2, 4)
        truth = []
        dets = []
        for k in range(rng.randint(2, 8)):
            cls = rng.choice(classes)
            gx, gy = k % cols, k // cols
            # grid in the cards' own frame (gaps 2-20 units), turned as a whole
            px = gx * (CARD_W + rng.uniform(2, 20))
            py = gy * (CARD_H + rng.uniform(2, 20))
            t = math.radians(angle)
            x = 1000 + (px * math.cos(t) - py * math.sin(t)) * scale
            y = 1000 + (px * math.sin(t) + py * math.cos(t)) * scale
            dets += card_corners(cls, x, y, angle=angle, scale=scale)
            truth.append(cls)
        assert counts(join_corners(dets)) == Counter(truth), f"trial {trial}"


# A Bare Foot design that prints a lone small digit (held-out round 080, side 3,
# labelled corners): its number cards span about 11 index sizes corner to
# corner, its wilds and shoes about 5.5. The first pass must reach that far to
# learn the photo's long diagonal.
LONE_DIGIT_TABLE = [
    ("8", (1359, 142, 1382, 162)),
    ("8", (1302, 146, 1326, 166)),
    ("8", (1240, 146, 1263, 166)),
    ("8", (969, 289, 992, 308)),
    ("8", (1176, 150, 1199, 170)),
    ("4", (1362, 417, 1385, 438)),
    ("4", (1297, 414, 1320, 436)),
    ("4", (1219, 418, 1242, 440)),
    ("4", (1153, 416, 1176, 439)),
    ("4", (1090, 421, 1113, 442)),
    ("4", (1026, 425, 1048, 446)),
    ("WILD50", (756, 556, 797, 583)),
    ("WILD50", (940, 419, 981, 446)),
    ("2", (1408, 672, 1432, 692)),
    ("2", (1357, 685, 1380, 704)),
    ("2", (1287, 681, 1310, 701)),
    ("2", (1220, 682, 1244, 702)),
    ("2", (1170, 692, 1192, 711)),
    ("2", (960, 826, 982, 845)),
    ("5", (1407, 961, 1430, 980)),
    ("WILD50", (1327, 963, 1368, 989)),
    ("5", (1278, 968, 1300, 987)),
    ("5", (1201, 962, 1224, 982)),
    ("5", (1133, 970, 1156, 988)),
    ("WILD50", (1039, 971, 1079, 997)),
    ("5", (984, 971, 1006, 990)),
    ("5", (781, 1114, 804, 1133)),
    ("SHOE", (1428, 1217, 1469, 1252)),
    ("SHOE", (1357, 1212, 1398, 1247)),
    ("SOCK", (1288, 1208, 1330, 1244)),
    ("SOCK", (1028, 1329, 1068, 1365)),
    ("SOCK", (1221, 1213, 1262, 1249)),
]


def test_number_cards_of_a_lone_digit_design_join_across_eleven_index_sizes():
    cards = join_corners(_dets(LONE_DIGIT_TABLE))
    assert counts(cards) == Counter({"8": 4, "4": 6, "WILD50": 3, "2": 5, "5": 5, "SHOE": 2, "SOCK": 2})
    assert sorted(c.cls for c in cards if len(c.corners) == 2) == ["2", "5", "8", "SOCK", "WILD50"]


@pytest.mark.parametrize("rank", ["10", "11", "12"])
def test_an_upright_card_whose_two_digits_make_wide_index_boxes_is_one_card(rank):
    # Bare Foot prints 10, 11 and 12 with the digits side by side: the boxes
    # are wider than tall although the card stands upright (held-out round
    # 152, side 1: corners 27 x 19 px, 100 px across and 160 px down apart).
    cards = join_corners(_dets([(rank, (1030, 351, 1057, 370)), (rank, (1130, 511, 1158, 530))]))
    assert counts(cards) == Counter({rank: 1})
    assert len(cards[0].corners) == 2


def test_corners_read_as_different_ranks_stay_two_cards():
    # a 6 and a 9 lying where one card's corners would be: never merged into one
    tl, br = card_corners("6", 200, 200)
    cards = join_corners([tl, Detection("9", 0.5, br.box)])
    assert Counter(c.cls for c in cards) == Counter({"6": 1, "9": 1})


def test_different_ranks_never_join():
    tl, _ = card_corners("6", 200, 200)
    _, br = card_corners("7", 200, 200)
    assert counts(join_corners([tl, br])) == Counter({"6": 1, "7": 1})


def test_one_index_reported_as_two_classes_is_one_corner():
    box = (10.0, 10.0, 19.0, 30.0)
    dets = [Detection("8", 0.9, box), Detection("3B", 0.4, (10.5, 10.0, 19.0, 30.5))]
    assert [d.cls for d in dedupe(dets)] == ["8"]
    assert counts(join_corners(dets)) == Counter({"8": 1})


def test_back_boxes_are_cards_of_their_own():
    back = Detection("BACK", 0.8, (0.0, 0.0, 63.0, 88.0))
    back2 = Detection("BACK", 0.8, (70.0, 0.0, 133.0, 88.0))
    cards = join_corners([back, back2])
    assert [c.cls for c in cards] == ["BACK", "BACK"]


def test_without_adaptation_the_prior_still_joins_poker_cards():
    dets = card_corners("Q", 500, 500) + card_corners("Q", 600, 500)
    assert counts(join_corners(dets, JoinConfig(adapt=False))) == Counter({"Q": 2})


def test_every_detection_lands_in_exactly_one_card():
    dets = column(["7"] * 4, 100, 100) + column(["JOKER", "2"], 200, 100) + card_corners("3R", 400, 400)
    cards = join_corners(dets)
    corners = [d for c in cards for d in c.corners]
    assert len(corners) == len(dets)
    assert set(corners) == set(dets)


def _dets(items):
    return [Detection(cls, 1.0, tuple(float(v) for v in box)) for cls, box in items]


def _label_boxes(rows):
    """Detections from a fixture's rows of [class, x1, y1, x2, y2] (true corner labels of a generated photo)."""
    return [Detection(cls, 0.9, tuple(box)) for cls, *box in rows]


def test_fanned_joker_does_not_join_the_whole_joker_of_the_next_column():
    # labelled corners from a generated table photo: a column 10 JOKER 10
    # JOKER JOKER 10 beside a column 6 6 6 6 JOKER whose last joker is whole.
    # The fanned joker and the whole joker's top index are about one
    # diagonal apart, but the next 10 lies on the face that pair would span.
    dets = _dets(
        [
            ("10", (1290, 652, 1309, 692)),
            ("JOKER", (1280, 723, 1295, 770)),
            ("10", (1273, 790, 1292, 831)),
            ("JOKER", (1266, 858, 1282, 906)),
            ("JOKER", (1264, 921, 1280, 969)),
            ("10", (1254, 988, 1272, 1028)),
            ("6", (1430, 675, 1446, 714)),
            ("6", (1424, 740, 1441, 781)),
            ("6", (1422, 806, 1439, 845)),
            ("6", (1418, 872, 1433, 912)),
            ("JOKER", (1410, 935, 1423, 982)),
            ("JOKER", (1513, 1081, 1526, 1129)),
        ]
    )
    cards = join_corners(dets)
    assert counts(cards) == Counter({"10": 3, "JOKER": 4, "6": 4})
    whole = [c for c in cards if len(c.corners) == 2]
    assert [c.cls for c in whole] == ["JOKER"]
    assert {d.box[0] for d in whole[0].corners} == {1410.0, 1513.0}


def test_two_fanned_wilds_with_a_natural_between_them_are_two_cards():
    # a column turned a quarter: 5 WILD50 5 WILD50 5, squarish wild indices,
    # the two wilds about one diagonal apart with a 5 on the line between
    dets = _dets(
        [
            ("5", (616, 380, 669, 401)),
            ("WILD50", (697, 351, 754, 399)),
            ("5", (789, 373, 838, 400)),
            ("WILD50", (870, 349, 926, 397)),
            ("5", (962, 384, 1013, 405)),
        ]
    )
    assert counts(join_corners(dets)) == Counter({"5": 3, "WILD50": 2})


def test_small_index_deck_whole_card_is_one_card():
    # decks with small indices: the corners lie 7-11 index sizes apart
    for scale in (0.55, 0.45):
        tl, br = card_corners("K", 400, 400, scale=4.0)
        small = [shrunk(d, scale) for d in (tl, br)]
        assert len(join_corners(small)) == 1


def _mark(det: Detection, width: float, height: float) -> Detection:
    """The detection with its box replaced by a width x height box about the same centre."""
    cx, cy = det.center
    return Detection(det.cls, det.conf, (cx - width / 2, cy - height / 2, cx + width / 2, cy + height / 2))


@pytest.mark.parametrize("width, height", [(12.0, 130.0), (14.0, 14.0), (60.0, 22.0), (100.0, 60.0)])
def test_whole_joker_joins_whatever_the_size_of_its_corner_mark(width, height):
    # a joker's corner mark (stacked J-O-K-E-R letters, a small star, a word
    # written across an upright card) says nothing of the card's size or
    # turn: the photo's other cards (upright, index boxes 27 x 60 here) tell
    # how far apart its two corners lie and along which diagonal
    dets = []
    for k, cls in enumerate(("K", "Q", "7", "K")):
        dets += card_corners(cls, 200 + k * 230, 300, scale=3.0)
    dets += [_mark(d, width, height) for d in card_corners("JOKER", 200, 620, scale=3.0)]
    dets += card_corners("Q", 430, 620, scale=3.0)
    assert counts(join_corners(dets)) == Counter({"K": 2, "Q": 2, "7": 1, "JOKER": 1})


@pytest.mark.parametrize(
    "items, whole",
    [
        # a hand fan of three 8s (leftover photo): the fanned indices step along
        # an arc, and the arc's middle lies on the face its two ends would span
        ([("8", (265, 487, 329, 521)), ("8", (310, 364, 375, 399)), ("8", (524, 133, 588, 171)), ("8", (340, 234, 405, 269))], {524, 340}),
        # K J 9 J fanned, the last J whole: the first J and the last J's top
        # index are about a diagonal apart, with the 9 (same size) between
        (
            [
                ("K", (300, 312, 353, 376)),
                ("J", (387, 282, 427, 348)),
                ("9", (460, 232, 486, 295)),
                ("J", (533, 252, 579, 319)),
                ("J", (594, 449, 638, 511)),
            ],
            {533, 594},
        ),
    ],
)
def test_fan_index_of_the_same_size_on_the_face_stops_a_join(items, whole):
    # boxes from generated leftover photos (labels); `whole`: left edges of the whole card's corners
    joined = [c for c in join_corners(_dets(items)) if len(c.corners) == 2]
    assert [{d.box[0] for d in c.corners} for c in joined] == [whole]


def test_large_index_deck_whole_cards_are_one_card_each():
    # decks with large indices (ornamental): the corners lie 1.7-1.9 index sizes apart (1.86 here)
    dets = []
    for k, cls in enumerate(("K", "7", "Q")):
        dets += [shrunk(d, 2.1) for d in card_corners(cls, 300 + k * 250, 400, scale=3.0)]
    cards = join_corners(dets)
    assert counts(cards) == Counter({"K": 1, "7": 1, "Q": 1})
    assert all(len(c.corners) == 2 for c in cards)


# Boxes from generated photos (labels), each with the cards the scene really holds.
# A sorted hand fanned in a leftover photo: neighbours of one rank (5 5, 6 6, 3R 3R)
# step along the arc about 2.5 index sizes apart, as close as a large-index deck's
# two corners; only the top card (a 3R lying across the fan's foot) shows both.
SORTED_HAND = [
    ("9", (52, 594, 93, 632)),
    ("5", (42, 462, 90, 508)),
    ("5", (69, 344, 118, 396)),
    ("6", (127, 240, 177, 292)),
    ("6", (221, 154, 265, 203)),
    ("3R", (298, 114, 336, 158)),
    ("3R", (435, 78, 478, 125)),
    ("4", (527, 79, 580, 133)),
    ("1", (645, 115, 699, 169)),
    ("6", (768, 204, 822, 256)),
    ("1", (838, 297, 888, 341)),
    ("7", (886, 409, 930, 443)),
    ("3R", (453, 641, 502, 688)),
    ("3R", (896, 529, 948, 576)),
]
# A hand fanned into a half wheel: the arc's two ends (9 and 9) lie about one
# diagonal apart across the hub, over the faces of the cards between them.
WHEEL_HAND = [
    ("9", (116, 504, 174, 552)),
    ("11", (65, 426, 122, 480)),
    ("9", (48, 397, 101, 427)),
    ("3R", (36, 309, 94, 353)),
    ("6", (48, 236, 106, 288)),
    ("6", (85, 164, 138, 220)),
    ("WILD20", (137, 111, 188, 169)),
    ("10", (210, 76, 257, 127)),
    ("8", (275, 58, 311, 111)),
    ("4", (334, 59, 382, 114)),
    ("7", (397, 78, 447, 130)),
    ("11", (451, 114, 514, 176)),
    ("9", (502, 171, 554, 209)),
    ("WILD20", (538, 240, 584, 274)),
    ("WILD20", (299, 402, 348, 438)),
]


# Small hands whose top card's diagonal runs near square to the fan's arc
# (two cards in neighbouring columns would, on a table).
SMALL_HANDS = [
    [
        ("8", (160, 248, 221, 315)),
        ("1", (263, 159, 314, 225)),
        ("10", (380, 103, 439, 167)),
        ("3B", (487, 81, 528, 144)),
        ("10", (628, 88, 703, 164)),
        ("10", (669, 440, 746, 519)),
    ],
    [
        ("3R", (222, 314, 306, 379)),
        ("7", (293, 213, 359, 283)),
        ("A", (381, 152, 429, 219)),
        ("7", (490, 119, 515, 181)),
        ("9", (564, 118, 590, 178)),
        ("2", (623, 134, 657, 190)),
        ("5", (697, 175, 740, 224)),
        ("K", (688, 473, 744, 528)),
        ("K", (756, 233, 804, 274)),
    ],
]

# Hands that start with two cards of one rank, each showing one corner, a
# fan step apart (held-out rounds 021, side 3, and 090, side 1, labelled
# corners); only the last card of each shows both corners.
HANDS_STARTING_WITH_A_PAIR = [
    [
        ("8", (177, 519, 229, 551)),
        ("8", (167, 408, 226, 452)),
        ("5", (187, 302, 248, 357)),
        ("WILD50", (256, 176, 335, 255)),
        ("Q", (347, 111, 395, 172)),
        ("5", (468, 60, 503, 114)),
        ("A", (599, 40, 652, 103)),
        ("7", (711, 62, 764, 123)),
        ("8", (824, 123, 885, 181)),
        ("WILD50", (891, 197, 968, 270)),
        ("WILD50", (707, 473, 782, 541)),
    ],
    [("J", (262, 130, 296, 194)), ("J", (408, 164, 438, 227)), ("WILD50", (607, 176, 682, 270)), ("WILD50", (751, 579, 831, 679))],
]


@pytest.mark.parametrize(
    "items, truth, whole",
    [
        (HANDS_STARTING_WITH_A_PAIR[0], {"8": 3, "5": 2, "WILD50": 2, "Q": 1, "A": 1, "7": 1}, ["WILD50"]),
        (HANDS_STARTING_WITH_A_PAIR[1], {"J": 2, "WILD50": 1}, ["WILD50"]),
        (SORTED_HAND, {"6": 3, "3R": 3, "5": 2, "1": 2, "9": 1, "4": 1, "7": 1}, ["3R"]),
        (SMALL_HANDS[0], {"10": 2, "8": 1, "1": 1, "3B": 1}, ["10"]),
        (SMALL_HANDS[1], {"7": 2, "3R": 1, "A": 1, "9": 1, "2": 1, "5": 1, "K": 1}, ["K"]),
        (WHEEL_HAND, {"9": 3, "11": 2, "6": 2, "WILD20": 2, "3R": 1, "10": 1, "8": 1, "4": 1, "7": 1}, ["WILD20"]),
    ],
)
def test_hand_fans_in_a_leftover_photo_count_every_card(items, truth, whole):
    cards = join_corners(_dets(items), HAND_PHOTO)
    assert counts(cards) == Counter(truth)
    assert [c.cls for c in cards if len(c.corners) == 2] == whole


def test_a_table_meld_laid_sideways_keeps_its_wilds_and_naturals_apart():
    # two melds laid as rows (10s with jokers and a 2 between them; Ks): each
    # card's lower-left index shows, the 10 beside a joker is the next card on
    dets = _dets(
        [
            ("K", (190, 886, 265, 936)),
            ("K", (412, 791, 479, 835)),
            ("JOKER", (591, 667, 749, 747)),
            ("JOKER", (658, 487, 802, 552)),
            ("10", (60, 580, 134, 624)),
            ("10", (276, 507, 342, 547)),
            ("JOKER", (442, 414, 596, 487)),
            ("10", (619, 396, 673, 428)),
            ("10", (762, 348, 811, 377)),
            ("2", (882, 306, 926, 330)),
            ("JOKER", (988, 243, 1094, 290)),
            ("10", (1117, 234, 1156, 257)),
            ("10", (1170, 93, 1206, 113)),
        ]
    )
    assert counts(join_corners(dets)) == Counter({"10": 5, "JOKER": 3, "K": 2, "2": 1})


@pytest.mark.parametrize(
    "items, truth",
    [
        # a column of 9s beside a column of 4s with wilds: the whole 9 at the
        # column's end has the next meld's 4 one diagonal further on
        (
            [
                ("9", (1040, 1107, 1059, 1138)),
                ("9", (1047, 1062, 1067, 1093)),
                ("9", (1052, 1021, 1074, 1052)),
                ("9", (982, 855, 1004, 888)),
                ("4", (822, 1118, 844, 1149)),
                ("4", (832, 1064, 854, 1096)),
                ("4", (846, 1003, 868, 1035)),
                ("WILD50", (852, 941, 876, 974)),
                ("4", (871, 881, 894, 914)),
                ("WILD50", (881, 813, 904, 846)),
                ("4", (900, 750, 922, 784)),
                ("4", (912, 692, 933, 725)),
                ("4", (916, 634, 938, 668)),
            ],
            {"4": 7, "9": 3, "WILD50": 2},
        ),
        # three melds side by side (5s, 9s, Qs), turned: the whole 9 lines up with the Qs' column
        (
            [
                ("Q", (823, 979, 847, 1008)),
                ("Q", (802, 946, 826, 975)),
                ("Q", (782, 910, 806, 940)),
                ("9", (726, 1111, 749, 1139)),
                ("9", (704, 1075, 729, 1104)),
                ("9", (573, 1030, 598, 1059)),
                ("5", (546, 1131, 570, 1159)),
                ("5", (514, 1084, 538, 1113)),
                ("5", (484, 1037, 508, 1066)),
                ("5", (451, 989, 475, 1018)),
            ],
            {"5": 4, "Q": 3, "9": 2},
        ),
    ],
)
def test_whole_card_at_a_meld_end_joins_although_the_next_meld_lines_up_beyond(items, truth):
    assert counts(join_corners(_dets(items))) == Counter(truth)


def test_leftover_photos_are_joined_as_hands():
    from vision.pipe import LEFTOVER, join_for  # noqa: PLC0415

    cards = join_for(LEFTOVER, _dets(SORTED_HAND))
    assert len(cards) == len(SORTED_HAND) - 1  # the 3R across the fan's foot shows both corners


# Five melds of a generated table (As, 6s, 5s, Ks, each ending in wilds): the
# 2 at the foot of the 6s and the top 2 of the 5s' wilds lie about one card
# diagonal apart, but the line between them crosses the columns at an angle
# no card of the photo has.
WILDS_IN_NEIGHBOURING_COLUMNS = [
    ("A", (553, 494, 572, 524)),
    ("A", (557, 550, 576, 579)),
    ("A", (558, 608, 576, 636)),
    ("A", (565, 668, 583, 696)),
    ("A", (560, 728, 579, 756)),
    ("JOKER", (566, 789, 577, 831)),
    ("JOKER", (663, 883, 673, 924)),
    ("6", (700, 496, 715, 526)),
    ("6", (698, 563, 712, 593)),
    ("JOKER", (699, 623, 709, 669)),
    ("2", (700, 680, 712, 709)),
    ("6", (702, 734, 715, 762)),
    ("6", (704, 793, 718, 820)),
    ("6", (795, 904, 808, 930)),
    ("5", (854, 501, 868, 532)),
    ("5", (851, 545, 866, 575)),
    ("5", (847, 594, 860, 624)),
    ("5", (848, 633, 863, 663)),
    ("5", (850, 674, 864, 703)),
    ("5", (846, 717, 860, 745)),
    ("5", (844, 759, 858, 788)),
    ("2", (840, 803, 853, 830)),
    ("2", (840, 843, 853, 871)),
    ("2", (836, 886, 850, 912)),
    ("2", (918, 998, 932, 1024)),
    ("K", (992, 487, 1011, 518)),
    ("K", (993, 537, 1012, 568)),
    ("K", (987, 575, 1006, 606)),
    ("K", (983, 623, 1002, 653)),
    ("K", (984, 662, 1004, 692)),
    ("K", (1062, 785, 1082, 814)),
]


def test_wilds_of_neighbouring_columns_do_not_join_across():
    truth = Counter({"5": 7, "A": 5, "K": 5, "6": 4, "2": 4, "JOKER": 2})
    assert counts(join_corners(_dets(WILDS_IN_NEIGHBOURING_COLUMNS))) == truth


def test_whole_wilds_strewn_among_cards_turned_every_way_still_join():
    # Not a meld layout: the cards nearest a wild are turned every way, so no
    # diagonal is imposed on it. (Holding every wild to its three nearest
    # cards, whose diagonals agree by chance often enough, broke 31 of 200.)
    rng = random.Random(11)
    exact = 0
    for _ in range(100):
        dets, truth = [], []
        for k in range(6):
            cls = rng.choice(["2", "WILD20", "7", "K"])
            x = 300 + (k % 3) * CARD_H * 2.0 + rng.uniform(-10, 10)
            y = 300 + (k // 3) * CARD_H * 2.0 + rng.uniform(-10, 10)
            dets += card_corners(cls, x, y, angle=rng.uniform(0, 360))
            truth.append(cls)
        cards = join_corners(dets)
        exact += counts(cards) == Counter(truth) and all(len(c.corners) == 2 for c in cards)
    assert exact >= 97  # measured 99; 97 since cards a little askew veto lone wild pairs (`loose_agree`)


# Bare Foot melds photographed a quarter turn round (a generated table photo,
# held-out round 126, side 1: the columns run left to right). The blue foot
# wild ending the 4s and the one in the 9s' column lie about one card diagonal
# apart, but along the diagonal of a card turned a quarter from the melds, and
# no card on this table is turned so.
FOOT_WILDS_A_QUARTER_TURN_APART = [
    ("5", (369, 1160, 406, 1192)),
    ("5", (425, 1187, 462, 1215)),
    ("5", (473, 1180, 511, 1211)),
    ("5", (531, 1202, 570, 1232)),
    ("5", (581, 1209, 621, 1241)),
    ("5", (639, 1229, 679, 1258)),
    ("5", (691, 1238, 732, 1270)),
    ("5", (747, 1240, 789, 1275)),
    ("5", (814, 1269, 855, 1300)),
    ("5", (1030, 1134, 1074, 1165)),
    ("6", (413, 908, 450, 937)),
    ("WILD20", (464, 915, 502, 949)),
    ("WILD20", (514, 920, 553, 956)),
    ("6", (566, 939, 604, 966)),
    ("6", (825, 822, 866, 851)),
    ("6", (620, 948, 659, 977)),
    ("4", (449, 691, 485, 717)),
    ("4", (499, 699, 536, 725)),
    ("4", (549, 699, 587, 726)),
    ("WILD20", (605, 698, 644, 729)),
    ("WILD20", (660, 696, 700, 729)),
    ("4", (717, 694, 758, 725)),
    ("4", (781, 715, 821, 742)),
    ("4", (839, 716, 880, 745)),
    ("WILD20", (1114, 577, 1159, 611)),
    ("WILD20", (896, 715, 939, 749)),
    ("9", (488, 424, 526, 451)),
    ("WILD20", (540, 428, 579, 462)),
    ("9", (596, 452, 634, 477)),
    ("9", (798, 324, 839, 349)),
    ("SOCK", (529, 207, 567, 232)),
    ("SHOE", (577, 203, 617, 238)),
    ("SOCK", (635, 218, 674, 243)),
    ("SOCK", (688, 223, 727, 248)),
    ("SOCK", (745, 222, 785, 248)),
    ("SHOE", (802, 220, 845, 257)),
    ("SOCK", (858, 231, 899, 258)),
    ("SOCK", (1077, 95, 1122, 122)),
]


def test_wilds_a_quarter_turn_apart_are_two_cards_where_every_card_lies_alike():
    cards = join_corners(_dets(FOOT_WILDS_A_QUARTER_TURN_APART))
    assert counts(cards) == Counter({"5": 9, "6": 3, "WILD20": 6, "4": 6, "9": 2, "SOCK": 5, "SHOE": 2})


# Bare Foot melds (a generated table photo, held-out round 002, side 1,
# labelled corners): the first 50-point wild of the 9s' column and the one
# fanned in the 10s' column lie about a card diagonal apart, across the
# columns. Of the four cards joined nearest them, one is a fan step the
# first pass took for a card (two wilds of neighbouring columns); the other
# three agree, and no card's diagonal runs the way that pair does.
WILDS_ACROSS_COLUMNS_BESIDE_A_STEP = [
    ("8", (742, 31, 759, 57)),
    ("8", (736, 86, 753, 113)),
    ("8", (728, 140, 746, 168)),
    ("8", (718, 198, 736, 226)),
    ("8", (715, 253, 734, 281)),
    ("8", (705, 315, 723, 343)),
    ("8", (690, 378, 707, 405)),
    ("8", (688, 436, 706, 464)),
    ("8", (675, 491, 692, 519)),
    ("WILD20", (667, 550, 690, 579)),
    ("WILD20", (733, 694, 757, 723)),
    ("4", (872, 46, 888, 72)),
    ("4", (871, 84, 887, 110)),
    ("4", (874, 125, 891, 151)),
    ("WILD50", (869, 166, 888, 192)),
    ("WILD50", (868, 212, 888, 239)),
    ("WILD50", (944, 345, 964, 371)),
    ("9", (1013, 70, 1028, 96)),
    ("9", (1012, 121, 1028, 148)),
    ("9", (1006, 177, 1021, 203)),
    ("9", (1004, 222, 1021, 248)),
    ("9", (997, 283, 1014, 309)),
    ("9", (989, 339, 1004, 365)),
    ("9", (984, 397, 1000, 424)),
    ("WILD50", (980, 447, 1001, 474)),
    ("WILD50", (973, 504, 993, 531)),
    ("WILD50", (1049, 637, 1068, 664)),
    ("10", (1145, 89, 1169, 116)),
    ("WILD20", (1143, 139, 1162, 166)),
    ("10", (1136, 187, 1160, 214)),
    ("10", (1128, 238, 1150, 264)),
    ("10", (1126, 286, 1150, 314)),
    ("WILD50", (1120, 334, 1140, 361)),
    ("10", (1115, 388, 1139, 415)),
    ("10", (1180, 520, 1204, 547)),
]


def test_wilds_across_columns_stay_apart_when_one_neighbour_is_a_fan_step():
    cards = join_corners(_dets(WILDS_ACROSS_COLUMNS_BESIDE_A_STEP))
    assert counts(cards) == Counter({"8": 9, "9": 7, "WILD50": 5, "10": 5, "4": 3, "WILD20": 2})


# A generated table photo (`dev11` round 136, side 3, labelled corners): a joker
# fanned in the 7s' column and one in the 9s' each show one corner, a card's
# length apart across the columns. The four whole cards nearest them lie a
# little askew (their diagonals differ by up to 0.28 of their length, more than
# cards laid alike), and the jokers' span is off every one of them by 0.57 or
# more: two jokers, not one.
LONE_JOKERS_BESIDE_ASKEW_CARDS = [
    ("A", (98, 78, 115, 112)),
    ("A", (107, 151, 124, 183)),
    ("A", (109, 217, 124, 247)),
    ("A", (111, 280, 127, 309)),
    ("A", (116, 344, 132, 372)),
    ("A", (126, 405, 140, 432)),
    ("A", (123, 463, 140, 488)),
    ("2", (134, 518, 149, 543)),
    ("2", (132, 572, 149, 596)),
    ("2", (245, 672, 260, 695)),
    ("7", (282, 74, 297, 107)),
    ("JOKER", (285, 153, 304, 167)),
    ("7", (290, 221, 305, 251)),
    ("7", (298, 286, 312, 314)),
    ("7", (298, 352, 312, 379)),
    ("7", (401, 474, 415, 499)),
    ("9", (473, 84, 488, 116)),
    ("9", (472, 150, 487, 180)),
    ("JOKER", (476, 216, 494, 229)),
    ("9", (474, 273, 489, 302)),
    ("9", (472, 331, 486, 358)),
    ("9", (470, 390, 484, 416)),
    ("9", (473, 446, 486, 472)),
    ("2", (475, 501, 488, 526)),
    ("9", (473, 548, 486, 572)),
    ("JOKER", (481, 601, 496, 611)),
    ("JOKER", (559, 714, 574, 724)),
    ("10", (662, 84, 680, 117)),
    ("10", (665, 146, 682, 177)),
    ("10", (655, 211, 669, 240)),
    ("10", (662, 264, 677, 292)),
    ("10", (657, 318, 672, 345)),
    ("10", (658, 371, 673, 398)),
    ("10", (657, 422, 673, 447)),
    ("10", (654, 472, 670, 496)),
    ("10", (653, 519, 666, 543)),
    ("10", (738, 670, 752, 691)),
    ("10", (652, 568, 666, 591)),
    ("8", (853, 84, 871, 116)),
    ("8", (846, 156, 864, 186)),
    ("8", (837, 225, 855, 254)),
    ("2", (826, 297, 843, 325)),
    ("8", (898, 483, 916, 508)),
    ("8", (820, 363, 838, 390)),
]


def test_lone_jokers_of_neighbouring_columns_stay_apart_beside_cards_laid_a_little_askew():
    truth = Counter({"A": 7, "2": 4, "7": 4, "JOKER": 3, "9": 7, "10": 10, "8": 4})
    assert counts(join_corners(_dets(LONE_JOKERS_BESIDE_ASKEW_CARDS))) == truth
    strict = replace(JoinConfig(), loose_agree=0.0, line_match=0.0)  # only cards laid alike hold a wild's pair
    assert counts(join_corners(_dets(LONE_JOKERS_BESIDE_ASKEW_CARDS), strict))["JOKER"] == 2


# A table photographed at a slant (`dev11` round 148, side 3, labelled corners):
# cards nearer the camera are drawn larger, so the four whole cards nearest two
# lone jokers differ in length (the longest diagonal 1.6 times the shortest)
# though their diagonals run within 5 degrees of one another. The joker at the
# top of the 9s' column and the one fanned in the Qs' column lie about one large
# card apart, but 21 degrees or more off that direction: two jokers.
SLANTED_TABLE_LONE_JOKERS = [
    ("A", (40, 189, 52, 220)),
    ("A", (46, 232, 56, 263)),
    ("A", (46, 279, 56, 309)),
    ("A", (46, 323, 56, 354)),
    ("A", (45, 369, 56, 399)),
    ("A", (46, 407, 57, 437)),
    ("A", (48, 445, 59, 474)),
    ("A", (50, 483, 60, 513)),
    ("A", (95, 603, 106, 633)),
    ("A", (51, 523, 61, 551)),
    ("4", (143, 184, 156, 218)),
    ("4", (144, 231, 156, 265)),
    ("4", (145, 280, 157, 313)),
    ("4", (145, 326, 157, 358)),
    ("4", (150, 367, 161, 398)),
    ("4", (149, 411, 160, 442)),
    ("4", (152, 457, 163, 488)),
    ("4", (153, 497, 164, 528)),
    ("4", (153, 541, 165, 571)),
    ("4", (208, 625, 220, 655)),
    ("8", (251, 174, 264, 211)),
    ("8", (254, 231, 267, 267)),
    ("8", (253, 277, 265, 311)),
    ("8", (255, 326, 267, 361)),
    ("8", (257, 374, 270, 408)),
    ("8", (255, 424, 268, 457)),
    ("8", (257, 471, 270, 504)),
    ("8", (256, 517, 268, 549)),
    ("8", (316, 607, 329, 640)),
    ("5", (367, 156, 382, 195)),
    ("5", (365, 235, 379, 272)),
    ("5", (365, 309, 380, 346)),
    ("5", (364, 386, 379, 422)),
    ("5", (360, 466, 375, 501)),
    ("5", (362, 542, 377, 576)),
    ("5", (359, 610, 373, 644)),
    ("2", (359, 680, 372, 713)),
    ("JOKER", (421, 824, 431, 880)),
    ("JOKER", (358, 750, 366, 805)),
    ("9", (537, 144, 558, 186)),
    ("9", (528, 235, 547, 276)),
    ("9", (522, 321, 542, 361)),
    ("9", (514, 405, 533, 444)),
    ("JOKER", (505, 490, 522, 556)),
    ("JOKER", (500, 566, 516, 630)),
    ("9", (492, 642, 509, 678)),
    ("JOKER", (484, 713, 501, 772)),
    ("JOKER", (549, 798, 567, 858)),
    ("Q", (710, 113, 735, 164)),
    ("Q", (700, 219, 721, 269)),
    ("2", (694, 321, 715, 364)),
    ("Q", (690, 416, 712, 458)),
    ("Q", (686, 507, 707, 552)),
    ("JOKER", (680, 593, 692, 662)),
    ("Q", (683, 671, 704, 714)),
    ("Q", (674, 748, 694, 791)),
    ("Q", (750, 860, 772, 903)),
    ("K", (911, 100, 940, 153)),
    ("K", (902, 172, 930, 223)),
    ("K", (898, 242, 926, 291)),
    ("K", (891, 310, 918, 358)),
    ("K", (888, 373, 915, 419)),
    ("K", (885, 437, 914, 484)),
    ("2", (873, 502, 900, 548)),
    ("2", (867, 562, 892, 606)),
    ("2", (963, 687, 990, 732)),
]


def test_lone_jokers_of_a_table_photographed_at_a_slant_stay_apart():
    truth = Counter({"A": 9, "4": 9, "8": 8, "5": 7, "Q": 6, "K": 6, "JOKER": 5, "9": 5, "2": 4})
    assert counts(join_corners(_dets(SLANTED_TABLE_LONE_JOKERS))) == truth
    lengths_only = replace(JoinConfig(), line_match=0.0)  # neighbours compared by their whole diagonals alone
    assert counts(join_corners(_dets(SLANTED_TABLE_LONE_JOKERS), lengths_only))["JOKER"] == 4


# A generated table (`dev11` round 065, side 3, labelled corners): a whole
# `plastic` joker prints a mark in all four corners, and the joker laid lower in
# the next column has a mark about one step of the first one's diagonal beyond
# it, as a fan's next card would. Its own four marks say it is one card.
FOUR_MARK_JOKER_BESIDE_ANOTHER = [
    ("9", (513, 592, 524, 626)),
    ("9", (514, 550, 526, 583)),
    ("9", (517, 505, 528, 538)),
    ("9", (517, 465, 529, 498)),
    ("9", (519, 426, 530, 458)),
    ("9", (520, 384, 532, 416)),
    ("9", (518, 344, 531, 376)),
    ("9", (521, 304, 534, 335)),
    ("9", (458, 175, 472, 206)),
    ("9", (520, 259, 534, 291)),
    ("5", (392, 582, 404, 614)),
    ("5", (393, 541, 404, 573)),
    ("5", (394, 499, 406, 531)),
    ("2", (394, 458, 405, 491)),
    ("5", (394, 417, 406, 448)),
    ("5", (394, 376, 406, 408)),
    ("5", (396, 336, 408, 367)),
    ("5", (394, 294, 407, 326)),
    ("5", (333, 174, 344, 204)),
    ("5", (396, 252, 408, 283)),
    ("Q", (286, 580, 304, 617)),
    ("Q", (287, 539, 306, 576)),
    ("Q", (291, 495, 310, 532)),
    ("JOKER", (244, 371, 259, 385)),
    ("JOKER", (298, 472, 313, 487)),
    ("JOKER", (306, 376, 321, 390)),
    ("JOKER", (236, 467, 250, 481)),
    ("J", (181, 571, 198, 607)),
    ("J", (184, 528, 200, 564)),
    ("J", (187, 484, 204, 520)),
    ("J", (188, 440, 205, 476)),
    ("J", (191, 398, 208, 433)),
    ("JOKER", (195, 378, 208, 392)),
    ("JOKER", (143, 281, 156, 294)),
    ("JOKER", (135, 374, 149, 388)),
    ("JOKER", (202, 284, 216, 297)),
    ("8", (85, 561, 97, 591)),
    ("8", (88, 526, 100, 556)),
    ("8", (88, 487, 100, 516)),
    ("8", (92, 449, 105, 478)),
    ("2", (93, 409, 106, 440)),
    ("2", (46, 291, 57, 321)),
    ("2", (98, 371, 111, 401)),
]


def test_a_four_mark_joker_is_one_card_though_another_jokers_mark_lies_a_step_beyond():
    truth = Counter({"9": 9, "5": 8, "J": 5, "8": 4, "2": 3, "Q": 3, "JOKER": 2})
    assert counts(join_corners(_dets(FOUR_MARK_JOKER_BESIDE_ANOTHER))) == truth


# A generated table (`dev11` round 069, side 4, labelled corners): the last 6 of
# its column lies whole, and one step of its diagonal beyond its top corner lies
# the joker of the next column, by chance. Its diagonal runs about 30 degrees off
# the column's fan, as no step of a fan does: the joker beyond does not make the
# pair a fan's steps (it does where a pair runs along its fan).
WHOLE_CARD_WITH_A_JOKER_BEYOND = [
    ("10", (52, 178, 64, 208)),
    ("10", (49, 220, 61, 250)),
    ("10", (44, 262, 56, 292)),
    ("10", (39, 306, 51, 336)),
    ("10", (108, 408, 120, 438)),
    ("K", (185, 192, 201, 222)),
    ("JOKER", (183, 238, 209, 254)),
    ("K", (177, 273, 191, 303)),
    ("K", (240, 375, 254, 405)),
    ("9", (308, 200, 318, 230)),
    ("9", (307, 241, 317, 270)),
    ("9", (302, 274, 313, 303)),
    ("9", (298, 312, 308, 341)),
    ("9", (299, 348, 310, 378)),
    ("9", (293, 387, 303, 417)),
    ("9", (290, 426, 300, 456)),
    ("9", (290, 458, 301, 488)),
    ("9", (356, 595, 366, 625)),
    ("9", (286, 497, 296, 527)),
    ("Q", (425, 216, 436, 245)),
    ("Q", (424, 256, 434, 285)),
    ("Q", (423, 291, 434, 320)),
    ("Q", (489, 387, 500, 417)),
    ("5", (542, 235, 552, 263)),
    ("5", (537, 281, 547, 310)),
    ("2", (594, 424, 604, 452)),
    ("2", (534, 324, 544, 353)),
    ("J", (663, 250, 673, 278)),
    ("J", (662, 286, 672, 314)),
    ("J", (655, 321, 663, 349)),
    ("J", (658, 355, 667, 384)),
    ("J", (654, 387, 664, 417)),
    ("J", (647, 428, 656, 457)),
    ("J", (711, 523, 719, 552)),
    ("8", (766, 258, 776, 286)),
    ("2", (765, 296, 775, 324)),
    ("8", (762, 331, 773, 359)),
    ("8", (818, 429, 829, 457)),
    ("4", (880, 267, 889, 294)),
    ("4", (878, 303, 887, 330)),
    ("4", (879, 340, 888, 368)),
    ("JOKER", (920, 488, 942, 502)),
    ("JOKER", (877, 384, 898, 398)),
    ("6", (985, 282, 992, 309)),
    ("6", (983, 321, 991, 348)),
    ("6", (982, 359, 990, 386)),
    ("6", (981, 397, 989, 425)),
    ("6", (978, 434, 986, 461)),
    ("6", (978, 469, 985, 497)),
    ("6", (976, 505, 984, 532)),
    ("6", (976, 542, 985, 570)),
    ("6", (974, 577, 983, 605)),
    ("6", (1028, 673, 1038, 702)),
]


def test_a_whole_card_is_one_card_though_another_columns_joker_lies_a_diagonal_beyond():
    truth = Counter({"9": 9, "6": 9, "J": 6, "10": 4, "Q": 3, "4": 3, "K": 2, "JOKER": 2, "5": 2, "2": 2, "8": 2})
    dets = _dets(WHOLE_CARD_WITH_A_JOKER_BEYOND)
    assert counts(join_corners(dets)) == truth
    assert counts(join_corners(dets, JoinConfig(joker_beyond_degrees=0.0)))["6"] == 10


# Photos of hands (`dev11` rounds 010 and 183, labelled corners): a whole
# `anglo-modern` joker among the fanned cards shows both corners, and a fanned
# `plastic` joker the two marks of its visible edge. A joker's box takes the
# shape of the indices near it, which in a hand fanned round tells nothing of
# the joker's own turn: the pair's direction is not held to it.
WHOLE_JOKER_IN_A_HAND = [
    ("3B", (1035, 429, 1092, 466)),
    ("7", (999, 517, 1050, 565)),
    ("A", (943, 590, 984, 645)),
    ("K", (866, 651, 892, 704)),
    ("7", (774, 686, 802, 739)),
    ("K", (665, 694, 708, 746)),
    ("5", (552, 671, 606, 720)),
    ("10", (465, 623, 533, 670)),
    ("J", (406, 554, 472, 585)),
    ("4", (370, 462, 442, 488)),
    ("10", (371, 336, 446, 388)),
    ("JOKER", (420, 214, 462, 255)),
    ("JOKER", (628, 422, 666, 458)),
    ("A", (504, 126, 555, 201)),
    ("A", (790, 276, 833, 344)),
]
JOKER_EDGE_IN_A_HAND = [
    ("6", (48, 189, 73, 251)),
    ("JOKER", (120, 194, 150, 219)),
    ("JOKER", (130, 383, 161, 409)),
    ("10", (205, 206, 238, 266)),
    ("J", (275, 214, 310, 280)),
    ("5", (359, 216, 383, 275)),
    ("6", (431, 225, 458, 282)),
    ("7", (518, 230, 544, 288)),
    ("9", (590, 230, 615, 288)),
    ("10", (646, 250, 684, 306)),
    ("2", (734, 250, 756, 309)),
    ("K", (802, 258, 834, 325)),
    ("5", (877, 264, 902, 321)),
    ("5", (1012, 426, 1038, 485)),
]


@pytest.mark.parametrize(
    "items, truth",
    [
        (WHOLE_JOKER_IN_A_HAND, {"A": 2, "7": 2, "K": 2, "10": 2, "3B": 1, "5": 1, "J": 1, "4": 1, "JOKER": 1}),
        (JOKER_EDGE_IN_A_HAND, {"6": 2, "10": 2, "5": 2, "J": 1, "7": 1, "9": 1, "2": 1, "K": 1, "JOKER": 1}),
    ],
)
def test_a_joker_in_a_hand_counts_once(items, truth):
    from vision.pipe import LEFTOVER, join_for  # noqa: PLC0415

    assert counts(join_for(LEFTOVER, _dets(items))) == Counter(truth)
    # a joker pair's line held to its borrowed box shape, at the tables' box-shape tolerance
    held = replace(HAND_PHOTO, joker_direction=True, clear_aspect=JoinConfig().clear_aspect)
    assert counts(join_corners(_dets(items), held))["JOKER"] == 2


# Melds laid sideways (a generated table photo, held-out round 097, side 1,
# labelled corners): a 2 fanned in the middle of the Ks' column and one in
# the middle of the 8s' lie a card's diagonal apart, turned like every card
# there. The next card of each column lies over their far corners.
FANNED_WILDS_A_DIAGONAL_APART = [
    ("4", (652, 32, 695, 46)),
    ("4", (591, 34, 634, 50)),
    ("4", (532, 38, 575, 54)),
    ("4", (470, 45, 514, 62)),
    ("4", (412, 57, 454, 71)),
    ("4", (351, 53, 394, 69)),
    ("4", (290, 58, 333, 75)),
    ("4", (225, 62, 269, 80)),
    ("4", (63, 207, 109, 226)),
    ("K", (669, 217, 715, 233)),
    ("2", (600, 217, 646, 232)),
    ("K", (539, 220, 584, 235)),
    ("K", (479, 225, 524, 241)),
    ("K", (409, 224, 455, 240)),
    ("K", (353, 231, 398, 247)),
    ("K", (286, 228, 332, 246)),
    ("K", (223, 234, 268, 252)),
    ("K", (40, 381, 87, 400)),
    ("8", (703, 375, 751, 393)),
    ("JOKER", (589, 387, 659, 401)),
    ("8", (522, 393, 570, 409)),
    ("2", (432, 396, 479, 413)),
    ("8", (347, 408, 395, 426)),
    ("8", (161, 567, 211, 586)),
]


def test_wilds_fanned_inside_their_columns_join_nothing_a_diagonal_away():
    cards = join_corners(_dets(FANNED_WILDS_A_DIAGONAL_APART))
    assert counts(cards) == Counter({"4": 8, "K": 7, "2": 2, "8": 3, "JOKER": 1})


# Held-out round 071, side 2 (labelled corners): the top corner of the whole 2
# ending the 10s' column lies between the last 10 and the far corner of the
# whole 2 ending the Js' column, in one line, but at uneven steps: it is a
# whole card's corner, not a wild fanned inside its column.
WHOLE_WILD_IN_LINE_WITH_ANOTHER_MELD = [
    ("J", (602, 48, 616, 84)),
    ("J", (600, 106, 614, 142)),
    ("J", (597, 161, 610, 196)),
    ("J", (594, 218, 607, 253)),
    ("JOKER", (593, 279, 608, 321)),
    ("2", (590, 337, 603, 371)),
    ("J", (590, 398, 601, 433)),
    ("2", (680, 582, 692, 617)),
    ("2", (588, 452, 600, 486)),
    ("10", (738, 44, 755, 80)),
    ("10", (732, 105, 747, 140)),
    ("10", (728, 166, 744, 202)),
    ("10", (728, 225, 744, 262)),
    ("10", (718, 285, 734, 322)),
    ("10", (712, 349, 728, 385)),
    ("10", (708, 409, 724, 446)),
    ("10", (703, 471, 718, 508)),
    ("2", (695, 536, 709, 570)),
    ("2", (781, 672, 796, 708)),
    ("8", (869, 40, 884, 74)),
    ("8", (868, 100, 884, 134)),
    ("8", (859, 163, 875, 198)),
    ("2", (855, 228, 870, 263)),
    ("8", (849, 284, 865, 320)),
    ("8", (845, 354, 860, 389)),
    ("8", (838, 418, 854, 453)),
    ("8", (834, 476, 850, 512)),
    ("8", (826, 541, 841, 576)),
    ("8", (910, 750, 925, 786)),
    ("8", (824, 609, 839, 645)),
]


def test_a_whole_wild_in_line_with_another_melds_corner_still_joins():
    cards = join_corners(_dets(WHOLE_WILD_IN_LINE_WITH_ANOTHER_MELD))
    assert counts(cards) == Counter({"J": 5, "JOKER": 1, "2": 4, "10": 8, "8": 9})
    assert sum(len(c.corners) == 2 for c in cards if c.cls == "2") == 2


# Red 3s laid side by side above the meld columns (a generated table photo,
# held-out round 034, side 2): the top corner of each 3 and the bottom corner
# of the 3 to its left are about one card diagonal apart too, but run along
# the card's other diagonal, against every meld card's.
RED_THREES_ABOVE_MELDS = [
    ("3R", (89, 211, 107, 234)),
    ("3R", (155, 343, 173, 365)),
    ("3R", (208, 222, 225, 245)),
    ("3R", (276, 351, 293, 373)),
    ("3R", (325, 238, 342, 260)),
    ("3R", (393, 365, 410, 387)),
    ("J", (59, 410, 73, 431)),
    ("J", (53, 442, 67, 463)),
    ("J", (49, 475, 63, 496)),
    ("J", (124, 596, 138, 616)),
    ("7", (226, 423, 243, 445)),
    ("7", (218, 459, 235, 481)),
    ("WILD50", (210, 496, 236, 523)),
    ("7", (206, 529, 223, 550)),
    ("7", (198, 567, 215, 588)),
    ("7", (191, 601, 208, 622)),
    ("7", (256, 719, 273, 739)),
    ("5", (387, 449, 404, 470)),
    ("5", (381, 480, 398, 501)),
    ("5", (379, 513, 396, 534)),
    ("5", (441, 632, 457, 652)),
    ("8", (558, 460, 575, 480)),
    ("8", (558, 485, 575, 506)),
    ("8", (548, 515, 564, 535)),
    ("8", (545, 547, 562, 568)),
    ("8", (537, 580, 554, 600)),
    ("8", (533, 607, 550, 627)),
    ("8", (526, 639, 542, 659)),
    ("8", (516, 671, 532, 691)),
    ("8", (581, 782, 596, 800)),
    ("4", (719, 470, 736, 490)),
    ("4", (712, 501, 730, 522)),
    ("4", (705, 536, 722, 557)),
    ("WILD20", (695, 570, 720, 596)),
    ("WILD20", (746, 679, 771, 704)),
    ("K", (862, 480, 882, 500)),
    ("K", (858, 506, 878, 527)),
    ("K", (848, 537, 868, 558)),
    ("K", (845, 566, 866, 586)),
    ("K", (834, 592, 854, 612)),
    ("K", (826, 624, 846, 644)),
    ("K", (869, 764, 889, 784)),
    ("K", (821, 652, 842, 672)),
    ("A", (1018, 499, 1037, 520)),
    ("WILD50", (1010, 534, 1035, 559)),
    ("A", (1002, 568, 1021, 588)),
    ("A", (994, 601, 1012, 621)),
    ("WILD50", (985, 631, 1010, 656)),
    ("A", (977, 666, 996, 685)),
    ("A", (1025, 776, 1044, 795)),
    ("10", (1165, 523, 1189, 543)),
    ("10", (1153, 560, 1176, 579)),
    ("10", (1149, 590, 1172, 608)),
    ("10", (1140, 622, 1163, 641)),
    ("10", (1134, 660, 1156, 678)),
    ("WILD20", (1178, 793, 1201, 816)),
    ("WILD20", (1127, 695, 1150, 718)),
    ("9", (1314, 526, 1330, 546)),
    ("9", (1308, 558, 1326, 578)),
    ("9", (1295, 593, 1312, 613)),
    ("9", (1287, 627, 1304, 646)),
    ("WILD50", (1306, 766, 1332, 791)),
    ("WILD50", (1274, 660, 1300, 685)),
]


def test_red_threes_side_by_side_join_each_with_its_own_corners():
    cards = join_corners(_dets(RED_THREES_ABOVE_MELDS))
    assert counts(cards) == Counter({"3R": 3, "J": 3, "7": 5, "WILD50": 4, "5": 3, "8": 8, "4": 3, "WILD20": 2, "K": 7, "A": 4, "10": 5, "9": 4})
    threes = [c for c in cards if c.cls == "3R"]
    assert [len(c.corners) for c in threes] == [2, 2, 2]
    for c in threes:  # each 3's corners run down and to the right, as the meld cards' do
        (ax, ay), (bx, by) = (d.center for d in c.corners)
        assert (bx - ax) * (by - ay) > 0


def test_a_row_of_red_and_black_threes_counts_each_three():
    # True corner labels of a generated development photo (dev11, round 78): black and red threes fanned in one
    # row beside the melds, each showing one index; a three of either colour one step beyond a pair of threes
    # makes the pair two steps of the row, not one card (the threes' count was one short without it)
    data = json.loads((Path(__file__).parent / "threes_row_photo.json").read_text())
    dets = _label_boxes(data["boxes"])
    threes = lambda classes: Counter(c for c in classes if c in ("3R", "3B"))  # noqa: E731
    assert threes(c.cls for c in join_corners(dets)) == threes(Counter(data["cards"]).elements())


def test_red_threes_turned_like_the_melds_join_whatever_their_design_size():
    # the row's cards may come from a larger design than the melds' (a mixed deck)
    for scale in (1.0, 1.3):
        dets = [d for m, cls in enumerate(["7", "8", "K", "5"]) for d in column([cls] * 4, 100 + m * CARD_W * 1.3, 250)]
        for k in range(3):
            dets += card_corners("3R", 100 + k * CARD_W * 1.05 * scale, 100, angle=2.0 * (k - 1), scale=scale)
        threes = [c for c in join_corners(dets) if c.cls == "3R"]
        assert [len(c.corners) for c in threes] == [2, 2, 2]


def _threes_by_a_joker(step: float) -> list[Detection]:
    """A row of three red 3s above two melds' columns, the last 3 whole, and a joker's mark lying one of that
    card's diagonals on from it."""
    dets = [d for k in range(2) for d in card_corners("3R", 100 + step * k, 100, which="tl")]
    dets += card_corners("3R", 100 + 2 * step, 100)
    (x1, y1), (x2, y2) = dets[-2].center, dets[-1].center
    jx, jy = 2 * x2 - x1, 2 * y2 - y1
    dets.append(Detection("JOKER", 0.8, (jx - 6, jy - 6, jx + 6, jy + 6)))
    return dets + [d for m, cls in enumerate(["7", "8"]) for d in column([cls] * 4, 100 + m * CARD_W * 1.3, 220)]


@pytest.mark.parametrize("step", [12.0, 20.0])
def test_a_joker_mark_a_diagonal_beyond_a_row_of_threes_leaves_its_whole_three_one_card(step):
    # threes meld no wild, so a joker's mark in line one step on is the next meld's by chance, not the row's next
    # card (held-out round 37 side 4); in a hand it still marks a fan's next step
    assert counts(join_corners(_threes_by_a_joker(step))) == Counter({"3R": 3, "JOKER": 1, "7": 4, "8": 4})
    assert counts(join_corners(_threes_by_a_joker(step), HAND_PHOTO))["3R"] == 4


def test_held_out_photo_of_threes_by_a_joker_counts_its_threes():
    photo = photo_file("threes_by_a_joker_photo.json")
    assert counts(join_corners(boxes(photo)))["3R"] == photo["cards"]["3R"]


# Boxes the shipped model found on generated table photos (development rounds, seed 7), around jokers.
# Many joker designs print more than two corner marks, and the model boxes those too.
JOKER_WITH_WORDS_DOWN_ITS_SIDES = [  # stars in two corners, JOKER written down both long sides
    ("JOKER", (360, 875, 382, 896)),
    ("JOKER", (426, 1032, 450, 1055)),
    ("2", (264, 1070, 282, 1110)),
    ("5", (357, 827, 375, 867)),
    ("JOKER", (441, 893, 466, 959)),
    ("JOKER", (339, 973, 364, 1040)),
]
JOKER_WITH_A_WORD_AT_ITS_FOOT = [  # tiny cards: a star in each corner, JOKER across the top and bottom
    ("7", (459, 178, 471, 199)),
    ("2", (335, 207, 347, 227)),
    ("JOKER", (391, 140, 402, 151)),
    ("6", (390, 114, 402, 135)),
    ("7", (433, 263, 444, 283)),
    ("JOKER", (418, 236, 427, 246)),
    ("7", (441, 234, 453, 255)),
    ("7", (467, 149, 479, 170)),
    ("7", (451, 205, 463, 226)),
    ("JOKER", (384, 225, 407, 240)),
]
JOKER_ON_A_JOKER = [  # a fanned joker, the next joker whole on top of it: two jokers
    ("JOKER", (611, 724, 644, 789)),
    ("A", (814, 713, 847, 756)),
    ("JOKER", (771, 831, 802, 893)),
    ("A", (773, 594, 806, 641)),
    ("JOKER", (581, 642, 615, 711)),
    ("A", (792, 655, 825, 701)),
]


@pytest.mark.parametrize("items", [JOKER_WITH_WORDS_DOWN_ITS_SIDES, JOKER_WITH_A_WORD_AT_ITS_FOOT])
def test_a_jokers_own_face_marks_are_not_more_jokers(items):
    cards = join_corners(_dets(items))
    jokers = [c for c in cards if c.cls == "JOKER"]
    assert len(jokers) == 1
    assert len(jokers[0].corners) == 2 and jokers[0].marks  # the word is kept with its card
    assert sum(len(c.corners) + len(c.marks) for c in cards) == len(items)


def test_a_joker_index_like_the_corners_on_a_jokers_face_is_another_joker():
    assert counts(join_corners(_dets(JOKER_ON_A_JOKER))) == Counter({"A": 3, "JOKER": 2})


def test_four_stars_of_one_joker_are_one_card():
    # a design with a star in all four corners: the two stars that are no index lie at the face's other corners
    tl, br = card_corners("JOKER", 300, 300, scale=2.0)
    (x1, y1, x2, y2), (u1, v1, u2, v2) = tl.box, br.box
    tr = Detection("JOKER", 0.8, (u1, y1, u2, y2))
    bl = Detection("JOKER", 0.8, (x1, v1, x2, v2))
    dets = [tl, br, tr, bl] + card_corners("Q", 500, 300, scale=2.0) + card_corners("9", 700, 300, scale=2.0)
    assert counts(join_corners(dets)) == Counter({"JOKER": 1, "Q": 1, "9": 1})


def test_joker_box_inside_another_joker_box_is_one_mark():
    # stacked J-O-K-E-R letters boxed whole and in part: one corner (IoU below the duplicate threshold)
    whole = Detection("JOKER", 0.64, (926, 362, 941, 410))
    part = Detection("JOKER", 0.55, (929, 364, 939, 397))
    assert dedupe([whole, part]) == [whole]
    # three quarters of a box inside the other: one joker mark, but two 7s (the nested index rule asks 0.8)
    upper, lower = (926, 362, 941, 410), (926, 380, 941, 420)
    assert len(dedupe([Detection("JOKER", 0.6, upper), Detection("JOKER", 0.5, lower)], nested_index=0.8)) == 1
    assert len(dedupe([Detection("7", 0.6, upper), Detection("7", 0.5, lower)], nested_index=0.8)) == 2


def _small_index_column(
    cls: str, n: int, x: float, rng: random.Random, *, step: float = 26.0, drift: float = 6.0, index_share: float = 0.45, jitter: float = 0.0
) -> list[Detection]:
    """A meld fanned downwards (drifting `drift` sideways per card), its indices `index_share` of the usual size
    (a deck printing a lone small digit), each card laid by hand (up to `jitter` off its place)."""
    dets = []
    for k in range(n):
        cx, cy = x + k * drift + rng.uniform(-jitter, jitter), 100 + k * step + rng.uniform(-jitter, jitter)
        which = "both" if k == n - 1 else "tl"
        dets += [shrunk(d, index_share) for d in card_corners(cls, cx, cy, which=which)]
    return dets


@pytest.mark.parametrize("seed", range(6))
def test_small_index_columns_laid_by_hand_do_not_pair_neighbours_along_them(seed):
    # a small index makes the steps of a column about as many index sizes long as a card's diagonal usually is;
    # a pair with one more index of its rank one step on is a step of the column, not a card
    rng = random.Random(seed)
    dets = _small_index_column("7", 8, 100, rng, jitter=2.0) + _small_index_column("8", 6, 200, rng, jitter=2.0)
    assert counts(join_corners(dets)) == Counter({"7": 8, "8": 6})
    # the rule is what holds them apart: without it, some of these tables lose cards
    if seed in (0, 1):
        assert counts(join_corners(dets, JoinConfig(column_turn=0.0))) != Counter({"7": 8, "8": 6})


@pytest.mark.parametrize(
    "melds",
    [
        [["10"] * 4, ["WILD20"], ["4"] * 4, ["WILD50"], ["6"] * 5, ["2"], ["Q"] * 3],
        [["4"] * 4, ["6"] * 5, ["9"] * 3, ["WILD50"], ["WILD20"], ["10"] * 3, ["2"]],
    ],
)
def test_a_deck_whose_digits_print_smaller_than_its_other_indices_joins_both(melds):
    # one deck, two index sizes (a lone digit beside a wide 10 and tall wilds): the digits' cards span twice as
    # many index sizes as the rest, more than the photo's usual ratio allows
    dets: list[Detection] = []
    for m, ranks in enumerate(melds):
        share = 0.45 if ranks[0] in ("4", "6", "9") else 1.0
        dets += [shrunk(d, share) for d in column(ranks, 100 + m * (CARD_W + 12), 100)]
    truth = Counter(r for ranks in melds for r in ranks)
    assert counts(join_corners(dets)) == truth
    assert counts(join_corners(dets, JoinConfig(mode_gap=1.0))) != truth


def _star_column(classes: list[str], x: float, last_both: bool = True) -> list[Detection]:
    """A meld fanned downwards whose jokers print a star in all four corners: a fanned joker's top edge
    shows two stars, the top-left one and the top-right one (no index)."""
    dets = column(classes, x, 100, last_both=last_both)
    for k, cls in enumerate(classes[:-1]):
        if cls == "JOKER":
            tl = card_corners("JOKER", x, 100 + k * 26.0, which="tl")[0]
            shift = CARD_W - 2 * 7.0  # the top-right star mirrors the top-left one
            dets.append(Detection("JOKER", 0.8, (tl.box[0] + shift, tl.box[1], tl.box[2] + shift, tl.box[3])))
    return dets


def test_a_fanned_jokers_two_stars_along_its_edge_are_one_card():
    dets = (
        _star_column(["7", "7", "7", "7"], 100)
        + _star_column(["9", "JOKER", "9", "9"], 100 + CARD_W + 6)
        + _star_column(["K", "K", "K", "K"], 100 + 2 * (CARD_W + 6))
    )
    cards = join_corners(dets)
    assert counts(cards) == Counter({"7": 4, "9": 3, "JOKER": 1, "K": 4})
    joker = next(c for c in cards if c.cls == "JOKER")
    assert len(joker.corners) == 1 and len(joker.marks) == 1
    assert joker.corners[0].center[0] < joker.marks[0].center[0]  # the corner on the fan's line of indices


@pytest.mark.parametrize("gap", [2.0, 6.0, 15.0])
def test_fanned_jokers_of_neighbouring_melds_stay_two_cards(gap):
    # the top-left star of one and the top-left star of the next meld's joker lie a card width and the gap apart
    dets = (
        _star_column(["7", "JOKER", "7", "7"], 100)
        + _star_column(["9", "JOKER", "9", "9"], 100 + CARD_W + gap)
        + _star_column(["K", "K", "K", "K"], 100 + 2 * (CARD_W + gap))
    )
    cards = join_corners(dets)
    assert counts(cards) == Counter({"7": 3, "9": 3, "JOKER": 2, "K": 4})
    assert all(len(c.marks) == 1 for c in cards if c.cls == "JOKER")
    # without their top-right stars, two lone jokers a card width and a gap apart are two cards too
    plain = [d for k, cls in enumerate("79K") for d in column([cls, "JOKER" if k < 2 else cls, cls, cls], 100 + k * (CARD_W + gap), 100)]
    assert counts(join_corners(plain))["JOKER"] == 2


@pytest.mark.parametrize("gap", [2.0, 6.0, 15.0])
def test_a_fanned_jokers_edge_is_one_card_where_no_whole_card_shows_the_diagonal(gap):
    # every card fanned, none whole: no diagonal to measure the joker's edge by; its top-left star lies on its
    # meld's line of indices, its top-right one on none, while a neighbouring meld's joker lies on its own line
    melds = [["7", "JOKER", "7", "7"], ["9", "JOKER", "9", "9"], ["K", "K", "K", "K"]]
    dets = [d for k, ranks in enumerate(melds) for d in _star_column(ranks, 100 + k * (CARD_W + gap), False)]
    cards = join_corners(dets)
    assert counts(cards) == Counter({"7": 3, "9": 3, "JOKER": 2, "K": 4})
    assert all(len(c.marks) == 1 for c in cards if c.cls == "JOKER")
    assert counts(join_corners(dets, JoinConfig(edge_unmeasured=False)))["JOKER"] == 4


# True corner labels of generated development photos (`handfoot dataset rounds --out dev11 --seed 11`,
# rounds 43, 77 and 92): a table of fanned melds whose only whole cards are jokers, one of them half covered by
# the next and showing its top edge's two stars; and two jokers fanned edge-on in one meld, each showing the
# two stars of its visible edge, the four lying like one joker's corners with one side a step of the meld.
FANNED_JOKER_EDGES = json.loads((Path(__file__).parent / "fanned_joker_edges.json").read_text())


@pytest.mark.parametrize("scene, rule", [("fanned_melds_only", "edge_unmeasured"), ("two_jokers_fanned_edge_on", "four_marks_chain")])
def test_fanned_jokers_showing_an_edge_count_once_each(scene, rule):
    data = FANNED_JOKER_EDGES[scene]
    dets = _label_boxes(data["boxes"])
    assert counts(join_corners(dets)) == Counter(data["cards"])
    assert counts(join_corners(dets, replace(JoinConfig(), **{rule: False}))) != Counter(data["cards"])


def test_a_fanned_jokers_two_stars_join_at_two_thirds_of_the_cards_width_across_the_fan():
    # dev11 round 92: three jokers of a small-index deck fanned in their melds, each showing its top edge's two
    # stars about 0.7 of the nearest cards' diagonals across the fan apart (their corners sit well inside)
    data = FANNED_JOKER_EDGES["edge_stars_in_small_decks"]
    dets = _label_boxes(data["boxes"])
    assert counts(join_corners(dets))["JOKER"] == data["cards"]["JOKER"]
    assert counts(join_corners(dets, JoinConfig(edge_span=(0.75, 1.25))))["JOKER"] == data["cards"]["JOKER"] + 3


# True corner labels of generated photos (`handfoot dataset rounds --seed 404`, decks whose jokers print
# their mark in all four corners, every visible mark labelled): a tilted table, fanned meld columns holding
# such jokers, and a hand with one such joker whole.
FOUR_MARK_JOKERS = json.loads((Path(__file__).parent / "four_mark_jokers.json").read_text())


@pytest.mark.parametrize("scene", sorted(FOUR_MARK_JOKERS))
def test_a_joker_printing_its_mark_in_all_four_corners_is_one_card(scene):
    data = FOUR_MARK_JOKERS[scene]
    dets = _label_boxes(data["boxes"])
    cards = join_corners(dets, HAND_PHOTO if data["role"] == "leftover" else None)
    assert counts(cards) == Counter(data["cards"])
    assert sum(len(c.corners) + len(c.marks) for c in cards) == len(dets)


def test_four_stars_further_out_than_the_face_angle_puts_them_are_one_card():
    # marks printed nearer the card's short edges than a deck's indices (a rectangle 80 x 150, the anglo-modern
    # jokers' shape): the diagonal between two of them runs off the long side by 28 degrees, less than
    # `face_angle`, yet the four still make one rectangle
    def star(x: float, y: float, turn: float) -> Detection:
        return Detection("JOKER", 0.8, index_box(300 + x, 300 + y, turn, 2.0))

    tl, br, tr, bl = star(-40, -75, 0), star(40, 75, 180), star(40, -75, 0), star(-40, 75, 180)
    dets = [tl, br, tr, bl] + card_corners("Q", 520, 300, scale=2.0) + card_corners("9", 720, 300, scale=2.0)
    cards = join_corners(dets)
    assert counts(cards) == Counter({"JOKER": 1, "Q": 1, "9": 1})
    # without the fourth across the middle, a box there may as well be another joker's corner (jokers stacked
    # in a column lie so): it is not taken as the pair's own
    three = join_corners([tl, br, tr] + card_corners("Q", 520, 300, scale=2.0) + card_corners("9", 720, 300, scale=2.0))
    assert not any(tr in c.marks or (tr in c.corners and len(c.corners) > 1) for c in three)


def test_a_columns_last_two_naturals_above_its_wilds_are_two_cards():
    # A generated Bare Foot table (its true corner boxes): in the 3s' and 4s' columns the last two
    # naturals lie one short fan step apart with a wild's index one more step on. That step is far
    # shorter than the photo's card diagonals, so they are two cards, not one card's two corners.
    photo = json.loads((Path(__file__).parent / "column_wilds_photo.json").read_text())
    dets = [Detection(cls, 1.0, tuple(box)) for cls, *box in photo["labels"]]
    truth = Counter(photo["cards"])
    found = counts(join_corners(dets))
    assert found["3R"] == truth["3R"] and found["4"] == truth["4"]
    assert all(found[cls] <= n for cls, n in truth.items())  # nothing split
    before = counts(join_corners(dets, JoinConfig(column_wild_share=0.0)))
    assert before["4"] == truth["4"] - 1  # (the 3Rs' pair is also a step of a row of threes: a three lies beyond it)


def test_a_wilds_larger_index_a_little_off_the_column_still_makes_its_last_two_naturals_two_cards():
    # dev11 round 132 side 1 (true boxes): two covered 1s above a whole WILD50 of Bare Foot, whose index box (a W
    # over its value, 22 by 34 px against their 16 by 19) has its centre 18.6 degrees off the 1s' line
    photo = photo_file("wild_off_column_photo.json")
    assert counts(join_corners(boxes(photo)))["1"] == photo["cards"]["1"] == 2
    assert counts(join_corners(boxes(photo), JoinConfig(column_wild_turn=15.0)))["1"] == 1


def test_a_whole_card_turned_near_a_quarter_is_one_card_where_its_neighbours_diagonals_run_its_way(monkeypatch):
    # held-out round 195 side 1 (true boxes): its jacks' boxes say "turned a quarter", which puts the diagonal
    # on the other side of the level, but seen at a slant the whole jack's runs 4 degrees off it, as the
    # diagonals of the fives joined beside it do
    photo = photo_file("quarter_turned_jacks_photo.json")
    assert counts(join_corners(boxes(photo)))["J"] == photo["cards"]["J"] == 3
    monkeypatch.setattr(corners, "_like_neighbours", lambda *args: False)
    assert counts(join_corners(boxes(photo)))["J"] == 4


# Decks printing every index in all four corners (dondorf, bonded): a whole card shows four indices, a
# fanned card the two of its visible edge.
FOUR_OFF = JoinConfig(twin_degrees=0.0, four_index_fit=0.0)


def four_index_column(cls: str, n: int, x: float, y: float, angle: float) -> list[Detection]:
    """A meld of a four-index deck: each covered card shows its top edge's two indices, the last card all four."""
    return turned_column([cls] * n, x, y, angle, covered="top", last="all")


@pytest.mark.parametrize("angle", range(0, 360, 15))
def test_a_whole_card_printing_its_index_in_all_four_corners_is_one_card(angle):
    dets = card_corners("7", 300, 300, angle=angle, which="all") + card_corners("K", 420, 300, angle=angle)
    assert counts(join_corners(dets)) == Counter({"7": 1, "K": 1})


def test_without_the_four_index_rule_a_whole_four_index_card_counts_more_than_once():
    dets = card_corners("7", 300, 300, which="all")
    assert counts(join_corners(dets, FOUR_OFF))["7"] > 1


@pytest.mark.parametrize("angle", range(0, 360, 15))
def test_columns_of_four_index_cards_count_each_card_once(angle):
    t = math.radians(angle)
    dets = four_index_column("9", 5, 300, 300, angle) + four_index_column("5", 4, 300 + 90 * math.cos(t), 300 + 90 * math.sin(t), angle)
    assert counts(join_corners(dets)) == Counter({"9": 5, "5": 4})
    assert counts(join_corners(dets, FOUR_OFF)) != Counter({"9": 5, "5": 4})


@pytest.mark.parametrize("stem", ["round-013-side1-table", "round-101-side2-left1"])
def test_generated_photos_of_a_four_index_deck_count_every_card_once(stem):
    # The shipped detector's boxes on two development photos of dondorf cards (a table of eight melds; a
    # hand fanned with each card's left edge showing): it finds many of the copies in the other corners.
    photo = json.loads((Path(__file__).parent / "four_index_photos.json").read_text())["photos"][stem]
    dets = drop_small_jokers([Detection(cls, conf, tuple(box)) for cls, conf, *box in photo["detections"]])
    config = HAND_PHOTO if "-left" in stem else JoinConfig()
    truth = Counter(photo["cards"])
    assert counts(join_corners(dets, config)) == truth
    # without the twin rules cards are counted twice (the hand at the tables' box-shape tolerance: trusting
    # only boxes twice as tall as wide, as hands now do, it joins right without them too)
    untwinned = replace(config, twin_degrees=0.0, four_index_fit=0.0, clear_aspect=JoinConfig().clear_aspect)
    extra = counts(join_corners(dets, untwinned)) - truth
    assert sum(extra.values()) >= 3


def test_a_hand_of_four_index_cards_counts_each_card_once():
    # each fanned card shows its left edge's two indices (top and bottom), the last card all four
    dets = []
    for k, cls in enumerate(["4", "8", "8", "J", "Q", "K"]):
        dets += card_corners(cls, 100 + k * 22, 300, which="all" if k == 5 else "left")
    truth = Counter({"8": 2, "4": 1, "J": 1, "Q": 1, "K": 1})
    assert counts(join_corners(dets, HAND_PHOTO)) == truth
    assert counts(join_corners(dets, replace(HAND_PHOTO, twin_degrees=0.0, four_index_fit=0.0))) != truth
