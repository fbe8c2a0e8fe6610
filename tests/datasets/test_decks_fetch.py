"""Corner finding on artwork, the deck cache, and `handfoot dataset fetch-decks` (no network: subprocess mocked)."""

from __future__ import annotations

import io
import json
import math
import subprocess
import tarfile
from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets.decks import fetched_decks, procedural_decks, simple_deck
from datasets.decks import sources as sources_mod
from datasets.decks.cache import load_deck, save_deck
from datasets.decks.corners import CORNER_RULES, find_deck_corners
from datasets.decks.fetch import fetch_all
from datasets.decks.render import face as to_face
from datasets.decks.simple import RANKS, SUITS
from datasets.decks.sources import DeckEntry, Source
from datasets.faces import CardFace, Deck


def _known_and_cleared(deck: Deck) -> dict[int, list]:
    known = {id(f): list(f.corners) for fs in deck.faces.values() for f in fs}
    for fs in deck.faces.values():
        for f in fs:
            f.corners = []
    return known


def _worst_error(deck: Deck, known: dict[int, list]) -> int:
    worst = 0
    for fs in deck.faces.values():
        for f in fs:
            assert len(f.corners) == len(known[id(f)]), f.cls
            for a, b in zip(f.corners, known[id(f)]):
                worst = max(worst, max(abs(p - q) for p, q in zip(a, b)))
    return worst


@pytest.mark.parametrize("seed", [0, 1])
def test_corner_finder_recovers_simple_deck_boxes(seed):
    deck = simple_deck(seed)
    known = _known_and_cleared(deck)
    report = find_deck_corners(deck)
    assert report.ok and report.kept == 54 and not report.dropped
    assert _worst_error(deck, known) <= 3


def test_corner_finder_places_a_pip_that_touches_other_art():
    deck = simple_deck(0)
    face = deck.faces["5"][0]
    x1, y1, x2, y2 = face.corners[0]
    # a thick line from the pip out into the card: the pip is no longer a blob of its own
    cv2.line(face.image, (x2 - 4, y2 - 8), (x2 + 80, y2 + 60), (20, 20, 24, 255), 5)
    known = _known_and_cleared(deck)
    report = find_deck_corners(deck)
    assert report.ok
    assert face in deck.faces["5"]
    assert max(abs(p - q) for p, q in zip(face.corners[0], known[id(face)][0])) <= 4


def _joker_design(face: CardFace, mark_at: tuple[int, int], size: int, art_under_second: bool) -> np.ndarray:
    """Paper with a round mark at `mark_at` and the word JOKER printed beside it, the same turned 180 degrees
    (optionally with a blob of art just under that second mark, in its own upright view)."""
    paper = np.full_like(face.image, 255)
    x, y = mark_at
    for turn in (0, 1):
        cv2.circle(paper, (x + size // 2, y + size // 2), size // 2, (20, 20, 24, 255), -1)
        for k in range(5):  # letters of the word, close beside the mark
            lx = x + size + 4 + k * (size // 2 + 3)
            cv2.rectangle(paper, (lx, y), (lx + size // 2, y + size), (20, 20, 24, 255), -1)
        if turn == 1 and art_under_second:
            cv2.rectangle(paper, (x, y + size + 3), (x + size, y + 2 * size), (20, 20, 24, 255), -1)
        paper = np.ascontiguousarray(paper[::-1, ::-1])
    return paper


def _redrawn_joker(draw) -> tuple[CardFace, tuple[int, ...], int]:
    """A drawn deck whose first joker `draw(joker, rank_box, glyph_height)` paints anew, its corners found
    again: (that joker, the 5's index box, the height of a rank glyph)."""
    deck = simple_deck(0)
    find_deck_corners(deck)
    g = deck.faces["5"][0].corners[0]
    size = (g[3] - g[1]) // 2  # about the height of a rank glyph
    joker = deck.faces["JOKER"][0]
    joker.image = draw(joker, g, size)
    report = find_deck_corners(deck)
    assert report.ok and joker in deck.faces["JOKER"]
    return joker, g, size


def test_a_jokers_mark_is_its_index_not_the_word_beside_it():
    joker, g, size = _redrawn_joker(lambda face, g, size: _joker_design(face, (g[0], g[1]), size, True))
    h, w = joker.image.shape[:2]
    top, bottom = joker.corners
    # the mark alone: not the word beside it, and the second copy not grown into the art under it
    assert top[2] - top[0] <= size + 3 and top[3] - top[1] <= size + 3
    assert abs(top[0] - g[0]) <= 2 and abs(top[1] - g[1]) <= 2
    assert bottom == (w - top[2], h - top[3], w - top[0], h - top[1])


WORD_STEP = 0.13  # a drawn joker word's letter pitch, as a share of the card's width


def _word_across_the_top(face: CardFace, g: tuple[int, ...], height: int) -> np.ndarray:
    """ "Joker" in large letters across the card's top (five letters spaced as a word, running past half the
    card's width), art below, no mark in the corner and no second copy."""
    h, w = face.image.shape[:2]
    paper = np.full_like(face.image, 255)
    step = round(WORD_STEP * w)
    for k in range(5):
        x = g[0] + k * step
        cv2.rectangle(paper, (x, g[1]), (x + 2 * step // 3, g[1] + height), (20, 20, 24, 255), -1)  # taller than wide
    cv2.circle(paper, (w // 2, h * 2 // 3), w // 4, (40, 90, 200, 255), -1)  # the art
    return paper


def test_a_joker_word_printed_across_the_top_is_boxed_whole():
    joker, g, height = _redrawn_joker(_word_across_the_top)
    step = round(WORD_STEP * joker.image.shape[1])
    assert len(joker.corners) == 1
    x1, y1, x2, y2 = joker.corners[0]
    assert abs(x1 - g[0]) <= 2 and x2 >= g[0] + 4 * step + 2 * step // 3 - 2  # from the first letter to the last
    assert y2 - y1 <= height + 2  # one line of letters: none of the art under it


def _print_four_indices(face: CardFace) -> list[tuple[int, int, int, int]]:
    """Print the face's top-left index again at its top-right corner (upright) and bottom-left (turned), as
    decks like dondorf do; returns the boxes of those two new copies."""
    h, w = face.image.shape[:2]
    x1, y1, x2, y2 = face.corners[0]
    crop = face.image[y1:y2, x1:x2].copy()
    face.image[y1:y2, w - x2 : w - x1] = crop
    face.image[h - y2 : h - y1, x1:x2] = crop[::-1, ::-1]
    return [(w - x2, y1, w - x1, y2), (x1, h - y2, x2, h - y1)]


def test_indices_printed_in_all_four_corners_are_all_boxed_when_asked():
    deck = simple_deck(0)
    copies = {id(f): _print_four_indices(f) for fs in deck.faces.values() for f in fs}
    known = _known_and_cleared(deck)
    report = find_deck_corners(deck, every_copy=True)
    assert report.ok and report.kept == 54
    for fs in deck.faces.values():
        for f in fs:
            assert len(f.corners) == 4, f.cls
            for want in known[id(f)] + copies[id(f)]:
                assert min(max(abs(p - q) for p, q in zip(found, want)) for found in f.corners) <= 3, f.cls
    # by default such faces keep their two boxes, top-left and bottom-right
    faces = [f for fs in deck.faces.values() for f in fs]
    for f in faces:
        f.corners = []
    find_deck_corners(deck)
    for f in faces:
        assert len(f.corners) == (4 if f.cls == "JOKER" else 2), f.cls  # a joker's marks are always all boxed


def test_only_a_joker_that_prints_its_mark_four_times_gets_four_boxes():
    def four_stars(face: CardFace, g, size):
        paper = _joker_design(face, (g[0], g[1]), size, False)
        h, w = paper.shape[:2]
        x, y = g[0], g[1]
        for cx, cy in ((w - x - size // 2, y + size // 2), (x + size // 2, h - y - size // 2)):
            cv2.circle(paper, (cx, cy), size // 2, (20, 20, 24, 255), -1)
        return paper

    joker, g, size = _redrawn_joker(four_stars)
    h, w = joker.image.shape[:2]
    assert len(joker.corners) == 4
    centres = [((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in joker.corners]
    want = [
        (g[0] + size / 2, g[1] + size / 2),
        (w - g[0] - size / 2, g[1] + size / 2),
        (g[0] + size / 2, h - g[1] - size / 2),
        (w - g[0] - size / 2, h - g[1] - size / 2),
    ]
    assert all(min(math.dist(c, t) for c in centres) <= 3 for t in want)
    # the two-mark joker of the test above and the simple deck's own faces keep two boxes each
    two, _, _ = _redrawn_joker(lambda face, g, size: _joker_design(face, (g[0], g[1]), size, True))
    assert len(two.corners) == 2


def test_corner_finder_rejects_a_deck_without_indices():
    blank = np.full((350, 250, 4), 255, np.uint8)
    faces = {cls: [CardFace(cls, blank.copy(), [], "blank")] for cls in ("2", "5", "9", "K")}
    deck = Deck("blank", "traditional", faces)
    report = find_deck_corners(deck)
    assert not report.ok and report.reason
    assert all(f.corners == [] for fs in deck.faces.values() for f in fs)


def test_cache_round_trip(tmp_path: Path):
    deck = simple_deck(0)
    save_deck(tmp_path, deck)
    back = load_deck(tmp_path / deck.name)
    assert back is not None and back.name == deck.name and back.family == "traditional"
    assert np.array_equal(back.faces["Q"][1].image, deck.faces["Q"][1].image)
    assert back.faces["Q"][1].corners == deck.faces["Q"][1].corners
    assert len(back.backs) == len(deck.backs)


def test_fetched_decks_is_empty_for_an_empty_cache(tmp_path: Path, monkeypatch):
    assert fetched_decks(tmp_path / "missing") == []
    monkeypatch.setenv("HANDFOOT_CACHE", str(tmp_path))
    assert fetched_decks() == []


# ------------------------------------------------------------------ fetching, with the registry clients mocked


def _failing_run(args, **kwargs):
    return subprocess.CompletedProcess(args, 100, "", "E: Unable to locate package no-such-cards\n")


BROKEN = Source("broken-debian", "debian", "no-such-cards", "GPL-3+", "copyright", "GPL", lambda root: [], lambda root, e: ({}, []))


def _local_package(folder: Path) -> None:
    """An npm-style tarball holding simple_deck(2) as PNG files, placed where `npm pack` would leave it."""
    folder.mkdir(parents=True, exist_ok=True)
    deck = simple_deck(2)
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:

        def add(name: str, data: bytes) -> None:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))

        add("package/LICENSE", b"CC0 1.0 Universal\n")
        i = {}
        for suit in SUITS:
            for rank in RANKS:
                cls = "3R" if rank == "3" and suit in "HD" else "3B" if rank == "3" else rank
                k = i.get(cls, 0)
                i[cls] = k + 1
                img = deck.faces[cls][k].image
                add(f"package/cards/{rank}{suit}.png", cv2.imencode(".png", cv2.cvtColor(img, cv2.COLOR_RGBA2BGRA))[1].tobytes())
    (folder / "local-cards-1.0.0.tgz").write_bytes(buf.getvalue())


def _local_render(root: Path, entry: DeckEntry):
    faces = {}
    for path in (root / "package" / "cards").glob("*.png"):
        img = cv2.cvtColor(cv2.imread(str(path), cv2.IMREAD_UNCHANGED), cv2.COLOR_BGRA2RGBA)
        faces[path.stem] = to_face(img)
    return faces, []


LOCAL = Source("local", "npm", "local-cards", "CC0-1.0", "package/LICENSE", "CC0", lambda root: [DeckEntry("local-deck", "cards")], _local_render)


def test_fetch_reports_an_unusable_source_and_goes_on(tmp_path: Path, monkeypatch):
    monkeypatch.setattr("datasets.decks.fetch.subprocess.run", _failing_run)
    _local_package(tmp_path / "downloads")
    results = fetch_all(tmp_path, sources=(BROKEN, LOCAL))
    broken, local = results
    assert not broken.ok and "apt-get" in broken.error and "Unable to locate package" in broken.error
    assert local.ok and local.rendered == ["local-deck"] and not local.failed
    (deck,) = fetched_decks(tmp_path)
    assert deck.name == "local-deck" and sum(len(v) for v in deck.faces.values()) == 52
    # boxes found on the artwork match the ones simple_deck drew
    ref = simple_deck(2)
    for cls, faces in deck.faces.items():
        for f in faces:
            assert any(max(abs(p - q) for p, q in zip(f.corners[0], r.corners[0])) <= 3 for r in ref.faces[cls])


def test_fetch_decks_command_warns_writes_sheet_and_skips_cached(tmp_path: Path, monkeypatch, capsys):
    from handfoot.cli import main

    monkeypatch.setattr("datasets.decks.fetch.subprocess.run", _failing_run)
    monkeypatch.setattr(sources_mod, "SOURCES", (BROKEN, LOCAL))
    # keep the drawn decks in the contact sheet few, so the test stays fast
    monkeypatch.setattr("datasets.decks.SIMPLE_VARIANTS", 1)
    monkeypatch.setattr("datasets.decks.procedural_decks", lambda seed=0, count=12: procedural_decks(seed, 2))
    _local_package(tmp_path / "decks" / "downloads")
    sheet = tmp_path / "sheet.jpg"
    code = main(["dataset", "fetch-decks", "--cache", str(tmp_path / "decks"), "--sheet", str(sheet)])
    out = capsys.readouterr().out
    assert code == 0
    assert "warning" in out and "broken-debian" in out and "Unable to locate package" in out
    assert "Traceback" not in out
    assert "local: 1 rendered" in out
    assert sheet.stat().st_size > 10_000 and str(sheet) in out.replace("\n", "")
    assert (tmp_path / "decks" / "manifest.json").is_file()

    code = main(["dataset", "fetch-decks", "--cache", str(tmp_path / "decks"), "--sheet", str(sheet)])
    assert code == 0
    assert "local: 0 rendered, 1 already cached" in capsys.readouterr().out

    # a deck whose boxes were found by older corner rules is rendered again
    deck_json = next((tmp_path / "decks").glob("*/deck.json"))
    stored = json.loads(deck_json.read_text())
    del stored["corner_rules"]
    deck_json.write_text(json.dumps(stored))
    code = main(["dataset", "fetch-decks", "--cache", str(tmp_path / "decks"), "--sheet", str(sheet)])
    assert code == 0
    assert "local: 1 rendered" in capsys.readouterr().out
    assert json.loads(deck_json.read_text())["corner_rules"] == CORNER_RULES
