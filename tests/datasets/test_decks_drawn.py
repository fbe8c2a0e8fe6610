"""The decks the project draws itself: simple deck boxes, procedural coverage, load_decks."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from datasets.decks import contact_sheet, glyphs, load_decks, procedural_decks, simple_deck, word_joker_names
from datasets.decks.procedural import BAREFOOT_CLASSES, REMASTERED_CLASSES
from scoring.detection_classes import CLASS_NAMES

TRADITIONAL = {"A", "2", "3R", "3B", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JOKER"}


@pytest.fixture(scope="module")
def deck():
    return simple_deck()


def _ink(face) -> np.ndarray:
    """True where the face prints something darker/more coloured than its paper."""
    rgb = face.image[..., :3].astype(int)
    paper = np.median(rgb[face.image[..., 3] == 255].reshape(-1, 3), axis=0)
    return (np.abs(rgb - paper).sum(axis=2) > 90) & (face.image[..., 3] > 200)


def test_simple_deck_has_54_cards_of_traditional_classes(deck):
    assert deck.family == "traditional"
    assert set(deck.faces) == TRADITIONAL
    assert sum(len(v) for v in deck.faces.values()) == 54
    assert len(deck.faces["3R"]) == 2 and len(deck.faces["3B"]) == 2 and len(deck.faces["JOKER"]) == 2
    img = deck.faces["A"][0].image
    assert img.shape == (350, 250, 4) and img.dtype == np.uint8
    assert img[0, 0, 3] == 0 and img[175, 125, 3] == 255  # rounded transparent corner, opaque body


def test_simple_deck_red_threes_are_red(deck):
    for cls, want_red in (("3R", True), ("3B", False)):
        for face in deck.faces[cls]:
            x1, y1, x2, y2 = face.corners[0]
            region = face.image[y1:y2, x1:x2, :3].astype(int)
            dark = region.sum(axis=2) < 500
            r, g = region[..., 0][dark].mean(), region[..., 1][dark].mean()
            assert (r - g > 80) == want_red


def test_simple_deck_boxes_lie_on_the_printed_index(deck):
    for faces in deck.faces.values():
        for face in faces:
            ink = _ink(face)
            assert len(face.corners) == 2
            for x1, y1, x2, y2 in face.corners:
                assert 0 <= x1 < x2 <= 250 and 0 <= y1 < y2 <= 350
                box = ink[y1:y2, x1:x2]
                assert box.mean() > 0.15, f"{face.cls}: box {x1, y1, x2, y2} holds little ink"
                # each edge row/column of the box touches ink: the box is tight
                assert box[0].any() and box[-1].any() and box[:, 0].any() and box[:, -1].any()
                # a ring 2..6 px outside the box is paper: nothing else printed next to the index
                ring = np.zeros_like(ink)
                ring[max(0, y1 - 6) : y2 + 6, max(0, x1 - 6) : x2 + 6] = True
                ring[max(0, y1 - 2) : y2 + 2, max(0, x1 - 2) : x2 + 2] = False
                assert not ink[ring].any(), f"{face.cls}: ink right next to box {x1, y1, x2, y2}"


def test_simple_deck_corner_copies_are_180_degree_rotations(deck):
    face = deck.faces["K"][0]
    (a, b) = face.corners
    h, w = face.image.shape[:2]
    assert b == (w - a[2], h - a[3], w - a[0], h - a[1])
    top = face.image[a[1] : a[3], a[0] : a[2], :3]
    bottom = face.image[b[1] : b[3], b[0] : b[2], :3][::-1, ::-1]
    assert np.abs(top.astype(int) - bottom.astype(int)).mean() < 3


def test_simple_deck_is_deterministic_and_seeds_differ():
    a, b, c = simple_deck(0), simple_deck(0), simple_deck(1)
    assert np.array_equal(a.faces["Q"][0].image, b.faces["Q"][0].image)
    assert not np.array_equal(a.faces["Q"][0].image, c.faces["Q"][0].image)


def test_simple_deck_width_scales():
    d = simple_deck(width=125)
    assert d.faces["7"][0].image.shape == (175, 125, 4)


@pytest.fixture(scope="module")
def proc():
    return procedural_decks(seed=0, count=4)


def test_procedural_decks_cover_every_class_of_their_family(proc):
    families = [d.family for d in proc]
    assert families.count("remastered") == 2 and families.count("barefoot") == 2
    for d in proc:
        want = set(REMASTERED_CLASSES if d.family == "remastered" else BAREFOOT_CLASSES)
        assert set(d.faces) == want, d.name
        assert set(d.faces) <= set(CLASS_NAMES) - {"BACK"}
        assert d.backs, d.name


def test_procedural_boxes_hold_ink_inside_the_card(proc):
    for d in proc:
        for faces in d.faces.values():
            for face in faces:
                h, w = face.image.shape[:2]
                ink = _ink(face)
                assert len(face.corners) == 2
                for x1, y1, x2, y2 in face.corners:
                    assert 0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h
                    assert x2 - x1 < w * 0.3 and y2 - y1 < h * 0.3, f"{d.name} {face.cls}: box too big"
                    assert ink[y1:y2, x1:x2].mean() > 0.1, f"{d.name} {face.cls}: box without ink"


def test_barefoot_threes_split_by_ink_colour(proc):
    d = next(d for d in proc if d.family == "barefoot")
    for cls, want_red in (("3R", True), ("3B", False)):
        (face,) = d.faces[cls]
        x1, y1, x2, y2 = face.corners[0]
        region = face.image[y1:y2, x1:x2, :3].astype(int)
        inked = _ink(face)[y1:y2, x1:x2]
        r, g = region[..., 0][inked].mean(), region[..., 1][inked].mean()
        assert (r - g > 80) == want_red


def _index_shape(face) -> np.ndarray:
    """The ink of a face's first corner box, scaled to a common size."""
    import cv2  # noqa: PLC0415

    x1, y1, x2, y2 = face.corners[0]
    return cv2.resize(_ink(face)[y1:y2, x1:x2].astype(np.uint8), (24, 40), interpolation=cv2.INTER_NEAREST)


def test_every_procedural_deck_prints_ranks_that_tell_apart():
    """A deck whose rank face prints nothing shows only its mark: 7 and 8 would look alike."""
    ranks = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
    for d in procedural_decks(seed=0):  # the decks load_decks draws with
        shapes = {cls: _index_shape(d.faces[cls][0]) for cls in ranks if cls in d.faces}
        assert len(shapes) >= 5, d.name
        for a in shapes:
            for b in shapes:
                if a < b:
                    assert (shapes[a] != shapes[b]).mean() > 0.05, f"{d.name}: the {a} and {b} indices look alike"


def test_fonts_print_every_index_text():
    fonts = glyphs.all_fonts()
    assert len(fonts) >= 20
    for font in fonts:
        for text in glyphs.INDEX_TEXTS:
            assert glyphs.text_mask(text, font, 40).sum() > 0, f"{font} prints no {text!r}"
    # matplotlib's display face has no digits: it printed blank indices once, and is refused
    assert not glyphs.prints_all(glyphs.Font(ttf="DejaVuSansDisplay.ttf"))


def test_procedural_variants_differ():
    a, b = procedural_decks(seed=0, count=2), procedural_decks(seed=1, count=2)
    assert not np.array_equal(a[0].faces["7"][0].image, b[0].faces["7"][0].image)


def test_load_decks_without_fetched_works_with_an_empty_cache(tmp_path: Path):
    decks = load_decks(cache=tmp_path / "nothing-here", fetched=True)
    families = {d.family for d in decks}
    assert families == {"traditional", "remastered", "barefoot"}
    names = [d.name for d in decks]
    assert len(names) == len(set(names))
    assert load_decks(fetched=False)[0].name == decks[0].name


def test_contact_sheet_writes_an_image(tmp_path: Path, deck):
    out = tmp_path / "sheet.jpg"
    contact_sheet([deck], out)
    assert out.stat().st_size > 10_000


def test_a_word_joker_deck_prints_its_jokers_index_as_one_word_across_the_top():
    plain, words = simple_deck(7), simple_deck(7, word_joker=True)
    assert words.name == "simple-word-7" and words.family == "traditional"
    assert np.array_equal(plain.faces["8"][1].image, words.faces["8"][1].image)  # only the jokers differ
    for face in words.faces["JOKER"]:
        ink = _ink(face)
        (x1, y1, x2, y2), bottom = face.corners
        assert x2 - x1 > 1.5 * (y2 - y1) and x2 - x1 >= 0.3 * 250  # a word, not stacked letters
        assert bottom == (250 - x2, 350 - y2, 250 - x1, 350 - y1)
        for bx1, by1, bx2, by2 in face.corners:
            box = ink[by1:by2, bx1:bx2]
            assert box[0].any() and box[-1].any() and box[:, 0].any() and box[:, -1].any()
            ring = np.zeros_like(ink)
            ring[max(0, by1 - 6) : by2 + 6, max(0, bx1 - 6) : bx2 + 6] = True
            ring[max(0, by1 - 2) : by2 + 2, max(0, bx1 - 2) : bx2 + 2] = False
            assert not ink[ring].any()
        assert ink[120:230, 60:190].mean() > 0.05  # the figure in the middle
    for plain_face in plain.faces["JOKER"]:
        (x1, y1, x2, y2), _ = plain_face.corners
        assert y2 - y1 > x2 - x1  # the plain deck's joker stacks J-O-K-E-R


def test_load_decks_adds_the_word_joker_decks_only_for_training_builds(tmp_path: Path):
    plain = [d.name for d in load_decks(cache=tmp_path, fetched=False)]
    mixed = [d.name for d in load_decks(cache=tmp_path, fetched=False, word_jokers=True)]
    assert not set(plain) & set(word_joker_names())
    assert mixed == plain + word_joker_names()
