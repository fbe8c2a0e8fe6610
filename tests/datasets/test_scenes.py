"""Synthetic scenes: corner labels where the indices are, only visible ones, reproducible images."""

from __future__ import annotations

import numpy as np
import pytest

from datasets.decks import simple_deck
from datasets.scenes import SceneOptions, compose, render_leftover_scene, render_random_scene, render_table_scene
from datasets.scenes.layouts import card_pose
from datasets.scenes.model import Placement
from datasets.scenes.tiles import clip_labels, cut_tiles

SMALL = SceneOptions(long_side=(640, 720))


@pytest.fixture(scope="module")
def deck():
    return simple_deck()


def _place(deck, cls: str, cx: float, cy: float, angle: float = 0.0) -> Placement:
    face = deck.faces[cls][0]
    h, w = face.image.shape[:2]
    return Placement(cls, face, face.image, list(face.corners), card_pose(w, h, cx, cy, angle), "table")


def _render(placements: list[Placement], size=(600, 800)):
    h, w = size
    frame = np.full((h, w, 3), 90.0, np.float32)
    ids = np.full((h, w), compose.BACKGROUND, np.int16)
    style = compose.CardStyle(shadow_strength=0.0, edge=0.0, jitter=0.0)
    mats = compose.draw_cards(frame, ids, placements, np.eye(3), np.random.default_rng(0), style)
    labels, truths = compose.label_cards(placements, mats, ids)
    return frame, labels, truths


def test_card_at_known_pose_gets_its_index_boxes_where_the_ink_is(deck):
    card = _place(deck, "K", 300, 250)
    face = card.face
    h, w = face.image.shape[:2]
    frame, labels, _ = _render([card])
    ox, oy = 300 - 250 / 2, 250 - 250 * h / w / 2  # face pixels -> frame (scale 1 for a 250 px face)
    assert [c for c, _ in labels] == ["K", "K"]
    for (x1, y1, x2, y2), (_, box) in zip(face.corners, labels):
        assert box == pytest.approx((x1 + ox, y1 + oy, x2 + ox, y2 + oy), abs=0.6)
        patch = frame[int(box[1]) : int(box[3]), int(box[0]) : int(box[2])]
        assert patch.min() < 120  # dark ink of the rank glyph inside the box
    # turned 90 degrees: the label becomes the axis-aligned box of the turned index
    _, turned, _ = _render([_place(deck, "K", 300, 250, 90.0)])
    bw, bh = turned[0][1][2] - turned[0][1][0], turned[0][1][3] - turned[0][1][1]
    cw, ch = face.corners[0][2] - face.corners[0][0], face.corners[0][3] - face.corners[0][1]
    assert (bw, bh) == pytest.approx((ch, cw), abs=1.0)


def test_covered_corner_gets_no_label_and_fanned_index_does(deck):
    lower = _place(deck, "7", 300, 250)
    h = lower.image.shape[0] * 250 / lower.image.shape[1]
    # the same card fanned down by 30%: the lower card's top-left index shows, its bottom-right does not
    upper = _place(deck, "9", 300, 250 + 0.3 * h)
    _, labels, truths = _render([lower, upper])
    assert sorted(c for c, _ in labels) == ["7", "9", "9"]
    assert len(truths[0].corners) == 1 and truths[0].corners[0][1] < 250  # the top one
    # squared on top: nothing of the lower card is labelled
    _, labels, truths = _render([lower, _place(deck, "9", 302, 252)])
    assert sorted(c for c, _ in labels) == ["9", "9"]
    assert truths[0].corners == []


def test_index_mostly_outside_the_frame_is_not_labelled(deck):
    card = _place(deck, "Q", 100, 150)  # top-left index at about x -15..19
    _, labels, _ = _render([card])
    xs = [box[0] for _, box in labels]
    assert labels and all(x > 100 for x in xs)  # only the bottom-right index remains


def test_every_label_belongs_to_a_ground_truth_card_corner(deck):
    for seed in range(4):
        for fn in (render_table_scene, render_leftover_scene):
            scene = fn(np.random.default_rng(seed), [deck], SMALL)
            corners = [b for c in scene.cards for b in c.corners]
            assert len(corners) == len(scene.labels)
            by_cls = {(c.cls, tuple(b)) for c in scene.cards for b in c.corners}
            for cls, box in scene.labels:
                assert (cls, tuple(box)) in by_cls
                x1, y1, x2, y2 = box
                assert 0 <= x1 < x2 <= scene.image.shape[1] and 0 <= y1 < y2 <= scene.image.shape[0]
            for card in scene.cards:  # each labelled corner lies on its card
                qx = [p[0] for p in card.quad]
                qy = [p[1] for p in card.quad]
                for x1, y1, x2, y2 in card.corners:
                    assert min(qx) - 1 <= x1 and x2 <= max(qx) + 1 and min(qy) - 1 <= y1 and y2 <= max(qy) + 1


def test_table_scene_lays_melds_in_columns_with_every_index_showing_when_strict(deck):
    melds = [["4"] * 7, ["10", "10", "10", "2"], ["K", "K", "JOKER"]]
    scene = render_table_scene(
        np.random.default_rng(3),
        [deck],
        SceneOptions(long_side=(1200, 1400), index_px=(20, 30), fit_p=1.0, occluder_p=0.0, effects=0.0),
        melds=melds,
        n_red3=2,
        strict=True,
    )
    table = [c for c in scene.cards if c.meld is not None]
    assert sorted(c.cls for c in table) == sorted(x for m in melds for x in m)
    assert sorted(c.cls for c in scene.cards if c.meld is None) == ["3R", "3R"]
    assert all(c.corners for c in scene.cards)  # every card shows at least one index
    assert not any(c.face_down for c in scene.cards)


def _one_index_copy(deck):
    """The deck as a design that prints its index in the top-left corner only (like tango-nuevo)."""
    import copy

    one = copy.deepcopy(deck)
    for faces in one.faces.values():
        for face in faces:
            face.corners = [min(face.corners, key=lambda b: (b[1], b[0]))]
    return one


def test_strict_photos_of_a_one_index_design_never_turn_a_card_over_its_index(deck):
    # Turned upside down in a fanned column, such a card's only index lies under the next
    # card: the held-out rounds had 73 table cards that nobody could read that way.
    one = _one_index_copy(deck)
    melds = [["4"] * 8, ["9"] * 7, ["K", "K", "K", "JOKER"], ["Q"] * 6]
    opts = SceneOptions(long_side=(1200, 1400), index_px=(20, 30), fit_p=1.0, occluder_p=0.0, effects=0.0)
    for seed in range(2):
        table = render_table_scene(np.random.default_rng(seed), [one], opts, melds=melds, n_red3=0, strict=True)
        assert len(table.cards) == 25 and all(c.corners for c in table.cards)
        left = render_leftover_scene(np.random.default_rng(seed), [one], opts, hands=[["5", "6", "7", "8", "J", "A"]], strict=True)
        assert all(c.corners for c in left.cards)


def test_same_seed_same_image_bytes_other_seed_differs(deck):
    a = render_random_scene(np.random.default_rng(11), [deck], SMALL)
    b = render_random_scene(np.random.default_rng(11), [deck], SMALL)
    c = render_random_scene(np.random.default_rng(12), [deck], SMALL)
    assert a.image.tobytes() == b.image.tobytes() and a.labels == b.labels
    assert a.image.shape != c.image.shape or a.image.tobytes() != c.image.tobytes()


def test_tiles_keep_boxes_mostly_inside_and_clip_them():
    labels = [("5", (300.0, 10.0, 340.0, 40.0)), ("6", (305.0, 100.0, 325.0, 130.0))]
    kept = clip_labels(labels, 0, 0, 320)
    assert kept == [("6", (305.0, 100.0, 320.0, 130.0))]  # 75% inside; the 50% one is dropped
    img = np.zeros((700, 900, 3), np.uint8)
    tiles = cut_tiles(img, [("A", (10.0, 10.0, 30.0, 40.0))], np.random.default_rng(0), 320, empty_p=0.0)
    assert len(tiles) == 1 and tiles[0].image.shape == (320, 320, 3)
    x0, y0 = tiles[0].origin
    assert tiles[0].labels == [("A", (10.0 - x0, 10.0 - y0, 30.0 - x0, 40.0 - y0))]


def test_a_scene_needing_a_face_its_design_lacks_borrows_it_from_another_design(deck):
    import copy

    from datasets.scenes.cardsets import CardSource

    no_queen = copy.copy(deck)
    no_queen.name = "no-queen"
    no_queen.faces = {cls: faces for cls, faces in deck.faces.items() if cls != "Q"}
    alone = 0
    for seed in range(40):
        source = CardSource(np.random.default_rng(seed), [no_queen, deck], deck.family)
        alone += [d.name for d in source.decks] == ["no-queen"]
        queen = source.face("Q")
        assert any(queen is face for face in deck.faces["Q"])
    assert alone  # some scenes drew the queenless design alone


def test_training_scenes_show_remastered_decks_more_often_than_generated_rounds_do():
    # The training recipe leans on Remastered decks (their wilds are the commonest misread),
    # while the held-out rounds keep the players' mix, so their figures stay comparable.
    from types import SimpleNamespace

    from datasets.scenes.cardsets import pick_family
    from datasets.scenes.rounds import plan_round

    decks = [SimpleNamespace(family=f) for f in ("traditional", "remastered", "barefoot")]
    draws = 3000
    scenes = [pick_family(np.random.default_rng([5, i]), decks) for i in range(draws)]
    rounds = [plan_round(np.random.default_rng([5, i]), [d.family for d in decks]).family for i in range(draws)]
    scene_share, round_share = scenes.count("remastered") / draws, rounds.count("remastered") / draws
    assert 0.27 < scene_share < 0.33
    assert 0.17 < round_share < 0.23
    assert 0.17 < scenes.count("barefoot") / draws < 0.23


def test_remastered_training_tables_hold_more_wilds_than_traditional_ones():
    # Remastered wilds (a small 20 or 50 under a big W) are the commonest misread: their melds show more of them.
    from datasets.scenes.cardsets import family_cards, sample_table_melds

    def wild_share(family: str) -> float:
        roles = family_cards(family)
        cards = [c for i in range(400) for m in sample_table_melds(np.random.default_rng([9, i]), roles, 6) for c in m]
        return sum(c in roles.wilds for c in cards) / len(cards)

    traditional, remastered = wild_share("traditional"), wild_share("remastered")
    assert remastered > 1.5 * traditional
    assert 0.05 < traditional < 0.2


def test_hard_design_weights_show_a_weighted_design_more_often_and_leave_even_draws_as_they_were():
    # `dataset build --hard-designs` weighs the designs the model reads worst; without weights
    # the draw must stay the one earlier builds made, so their seeds still give the same images.
    from types import SimpleNamespace

    from datasets.scenes.cardsets import HARD_DESIGN_WEIGHTS, CardSource

    names = ["aguilar", "plain-1", "plain-2", "plain-3", "plain-4"]
    pool = [SimpleNamespace(name=n, family="traditional", faces={"K": ["face"]}) for n in names]

    def share(weights) -> float:
        drawn = [d.name for i in range(2000) for d in CardSource(np.random.default_rng([3, i]), pool, "traditional", weights).decks]
        return drawn.count("aguilar") / len(drawn)

    assert HARD_DESIGN_WEIGHTS["aguilar"] == 3.0
    even, hard = share(None), share(HARD_DESIGN_WEIGHTS)
    assert 0.17 < even < 0.23  # one design in five
    assert hard > 1.5 * even
    for i in range(50):
        before = np.random.default_rng([4, i])
        n = 1 if len(pool) == 1 else int(before.choice([1, 1, 1, 2, 2, 3]))
        expected = [names[int(k)] for k in before.choice(len(pool), size=n, replace=False)]
        assert [d.name for d in CardSource(np.random.default_rng([4, i]), pool, "traditional").decks] == expected
