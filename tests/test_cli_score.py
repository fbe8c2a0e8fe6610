"""`handfoot score / audit / rescore` with a fake detector (no model): the command path."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

sys.path.insert(0, str(Path(__file__).parent / "vision"))
from blur_photos import index_photo  # noqa: E402
from synth_cards import card_corners, column  # noqa: E402

import vision.detector as detector_module  # noqa: E402
from handfoot.cli import main  # noqa: E402
from vision.detection import Detection  # noqa: E402
from vision.sharpness import BLURRED  # noqa: E402

RULES = "remastered-singles"


class FakeDetector:
    """Returns fixed detections, chosen by the photo's width (each test photo has its own)."""

    def __init__(self, by_width):
        self.by_width = by_width
        self.calls = 0

    def detect(self, image):
        self.calls += 1
        return list(self.by_width[image.shape[1]])

    def read(self, image):  # the photo path reads through this (boxes only: no unsure ones)
        return self.detect(image)


@pytest.fixture
def fake(monkeypatch):
    """Install a fake detector; returns a function registering a photo's detections."""
    det = FakeDetector({})

    def load(weights=None, config=None):
        return det

    monkeypatch.setattr(detector_module, "load_detector", load)

    def add(path: Path, detections, width: int) -> Path:
        Image.fromarray(np.full((700, width, 3), 90, np.uint8)).save(path)
        det.by_width[width] = detections
        return path

    add.detector = det
    return add


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    out = capsys.readouterr()
    return status, out.out, out.err


# Remastered values: 4-7 5, 8-K 10, A 20, 2 20, joker 50, red 3 +100 laid / black 3 -100 held;
# clean book 700. TABLE_DETS scores clean book 700 + seven 4s 35 (735) + K K JOKER K 30 + 50 (80)
# + a laid red 3 100 = 915; HAND_DETS holds a 9 (-10) and a black 3 (-100).
TABLE_DETS = (
    column(["4"] * 7, 100, 100)  # clean book of 4s
    + column(["K", "K", "JOKER", "K"], 180, 100)  # K meld with a joker in its column
    + card_corners("3R", 400, 600)
)
HAND_DETS = card_corners("9", 100, 100) + card_corners("3B", 200, 100)


def test_score_one_side_json_shape_and_total(tmp_path, fake, capsys):
    table = fake(tmp_path / "table.png", TABLE_DETS, 1001)
    hand = fake(tmp_path / "hand.png", HAND_DETS, 1002)
    status, out, _ = run(capsys, "score", table, "--leftover", hand, "--rules", RULES, "--round", 1, "--name", "Ann", "--json")
    assert status == 0
    data = json.loads(out)
    assert set(data) >= {"rules", "round", "sides", "photos", "input"}
    side = data["sides"][0]
    assert side["name"] == "Ann"
    assert side["total"] == 805  # table 915, hand: 9 -10, black 3 -100
    assert {ln["label"] for ln in side["lines"]} and all(set(ln) == {"label", "points"} for ln in side["lines"])
    photos = {Path(p["path"]).name: p for p in data["photos"]}
    assert photos["table.png"]["role"] == "table" and photos["hand.png"]["role"] == "leftover"
    cards = photos["table.png"]["cards"]
    assert len(cards) == 12  # 7 + 4 + 1 physical cards, not 14 corners
    for card in cards:
        assert set(card) >= {"class", "conf", "box", "corners", "place"}
        assert len(card["box"]) == 4 and 0 <= card["conf"] <= 1
    joker = next(c for c in cards if c["class"] == "JOKER")
    king = next(c for c in cards if c["class"] == "K")
    assert joker["place"] == "meld" and joker["meld"] == king["meld"]
    assert next(c for c in cards if c["class"] == "3R")["place"] == "red3"


def test_score_prints_the_breakdown_table(tmp_path, fake, capsys):
    table = fake(tmp_path / "t.png", TABLE_DETS, 1003)
    status, out, _ = run(capsys, "score", table, "--rules", RULES, "--round", 1, "--name", "Ann")
    assert status == 0
    assert "clean book" in out and "Totals:" in out and "12 cards" in out


def test_face_down_card_is_a_warning(tmp_path, fake, capsys):
    back = Detection("BACK", 0.8, (600.0, 400.0, 663.0, 488.0))
    table = fake(tmp_path / "t.png", TABLE_DETS + [back], 1004)
    status, out, _ = run(capsys, "score", table, "--rules", RULES, "--round", 1, "--json")
    data = json.loads(out)
    findings = data["sides"][0]["findings"]
    assert status == 0
    assert any(f["level"] == "warning" and "face down: turn it over and photograph again" in f["message"] for f in findings)


def _index_photo(fake, path: Path, detections, width: int, sigma: float) -> Path:
    """A table photo whose marks fill the detections' boxes, blurred by `sigma` px, read as `detections`."""
    Image.fromarray(index_photo(detections, width, 700, sigma)).save(path)
    fake.detector.by_width[width] = detections
    return path


def test_a_blurred_photo_is_a_warning_that_rescore_keeps(tmp_path, fake, capsys):
    dets = column(["8"] * 5, 100, 100, scale=2.0) + column(["K"] * 3, 300, 100, scale=2.0)
    sharp = _index_photo(fake, tmp_path / "sharp.png", dets, 1020, 0.0)
    soft = _index_photo(fake, tmp_path / "soft.png", dets, 1021, 4.0)
    blurred = lambda data: [f for f in data["sides"][0]["findings"] if "looks blurred" in f["message"]]  # noqa: E731

    status, out, _ = run(capsys, "score", sharp, "--rules", RULES, "--round", 1, "--json")
    assert status == 0 and not blurred(json.loads(out))
    status, out, _ = run(capsys, "score", soft, "--rules", RULES, "--round", 1, "--json", "--out", tmp_path / "o")
    data = json.loads(out)
    assert status == 0  # a warning: the cards as read are still scored
    (warning,) = blurred(data)
    assert warning["level"] == "warning" and "soft.png" in warning["message"] and "photograph it again" in warning["message"]
    assert data["photos"][0]["blur"] >= BLURRED
    assert len(data["photos"][0]["cards"]) == 8  # still read and scored

    status, out, _ = run(capsys, "rescore", tmp_path / "o" / "result.json")  # no model: the saved figure speaks
    assert status == 0 and "looks blurred" in out


@pytest.mark.parametrize(
    ("key", "bad", "said"), [("blur", "soft", "photos[0]: 'blur' is a number or null"), ("colour", "grey", "photos[0]: 'colour' is true or false")]
)
def test_a_bad_photo_figure_in_a_result_file_is_a_clean_error(tmp_path, fake, capsys, key, bad, said):
    table = fake(tmp_path / "t.png", TABLE_DETS, 1022)
    status, out, _ = run(capsys, "score", table, "--rules", RULES, "--round", 1, "--json")
    data = json.loads(out)
    data["photos"][0][key] = bad
    (tmp_path / "r.json").write_text(json.dumps(data))
    status, _, err = run(capsys, "rescore", tmp_path / "r.json")
    assert status == 2 and said in err and "Traceback" not in err


def _colour_photo(fake, path: Path, detections, width: int) -> Path:
    """A colour photo (a green cloth along its foot) read as `detections`: each red 3's box white paper with
    red ink across its middle."""
    pixels = np.full((700, width, 3), 90, np.uint8)
    pixels[650:] = (40, 110, 60)
    for d in detections:
        if d.cls == "3R":
            x1, y1, x2, y2 = (round(v) for v in d.box)
            pixels[y1:y2, x1:x2] = 240
            pixels[y1 + (y2 - y1) // 3 : y2 - (y2 - y1) // 3, x1 + 2 : x2 - 2] = (200, 20, 30)
    Image.fromarray(pixels).save(path)
    fake.detector.by_width[width] = detections
    return path


def _colourless(data: dict) -> list[dict]:
    return [f for side in data["sides"] for f in side["findings"] if "has no colour" in f["message"]]


def test_a_grey_photo_holding_a_three_is_a_warning_that_rescore_keeps(tmp_path, fake, capsys):
    grey = fake(tmp_path / "grey.png", TABLE_DETS, 1030)  # the fake's photos are grey
    status, out, _ = run(capsys, "score", grey, "--rules", RULES, "--round", 1, "--json", "--out", tmp_path / "o")
    data = json.loads(out)
    (warning,) = _colourless(data)
    assert status == 0 and warning["level"] == "warning"  # the cards as read are still scored
    assert "grey.png" in warning["message"] and "1 card: 3R" in warning["message"]
    assert "foot wild" not in warning["message"] and "in colour" in warning["message"]
    assert data["photos"][0]["colour"] is False
    status, out, _ = run(capsys, "rescore", tmp_path / "o" / "result.json")  # no photo needed: the saved flag speaks
    assert status == 0 and "has no colour" in out

    coloured = _colour_photo(fake, tmp_path / "colour.png", TABLE_DETS, 1031)
    status, out, _ = run(capsys, "score", coloured, "--rules", RULES, "--round", 1, "--json")
    data = json.loads(out)
    assert status == 0 and not _colourless(data) and data["photos"][0]["colour"] is True


def test_a_grey_photo_warns_only_of_cards_that_ink_names_in_its_family(tmp_path, fake, capsys):
    no_threes = fake(tmp_path / "nothrees.png", column(["4"] * 7, 100, 100), 1032)
    status, out, _ = run(capsys, "score", no_threes, "--rules", RULES, "--round", 1, "--json")
    assert status == 0 and not _colourless(json.loads(out))

    table = fake(tmp_path / "t.png", column(["4"] * 7, 100, 100), 1033)
    hand = fake(tmp_path / "h.png", card_corners("WILD50", 100, 100) + card_corners("9", 300, 100), 1034)
    status, out, _ = run(capsys, "score", table, "--leftover", hand, "--rules", "bare-foot-n-wild", "--round", 1, "--json")
    (warning,) = _colourless(json.loads(out))
    assert "leftover photo h.png" in warning["message"] and "foot wild" in warning["message"]
    assert "1 card: WILD50" in warning["message"]


def test_stray_wild_is_an_error_finding_with_exit_3(tmp_path, fake, capsys):
    stray = card_corners("2", 900, 600)
    table = fake(tmp_path / "t.png", TABLE_DETS + stray, 1005)
    status, out, _ = run(capsys, "score", table, "--rules", RULES, "--round", 1, "--json")
    assert status == 3
    data = json.loads(out)
    errors = [f["message"] for f in data["sides"][0]["findings"] if f["level"] == "error"]
    assert any("2" in m and "no meld's column" in m for m in errors)
    placed = [c["place"] for c in data["photos"][0]["cards"]]
    assert placed.count("unplaced") == 1


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda p: p.write_text("hello"), "not an image"),
        (lambda p: p.write_bytes(b""), "empty"),
        (lambda p: None, "not found"),
    ],
)
def test_bad_photo_exits_2_naming_the_file(tmp_path, fake, capsys, make, words):
    bad = tmp_path / "bad.jpg"
    make(bad)
    status, out, err = run(capsys, "score", bad, "--rules", RULES, "--round", 1)
    assert status == 2
    assert words in err and "bad.jpg" in err and "Traceback" not in err
    assert fake.detector.calls == 0


def test_bad_leftover_photo_fails_before_any_detection(tmp_path, fake, capsys):
    table = fake(tmp_path / "t.png", TABLE_DETS, 1006)
    status, _, err = run(capsys, "score", table, "--leftover", tmp_path / "gone.png", "--rules", RULES, "--round", 1)
    assert status == 2 and "gone.png" in err
    assert fake.detector.calls == 0


def test_unknown_rules_and_bad_round_exit_2(tmp_path, fake, capsys):
    table = fake(tmp_path / "t.png", TABLE_DETS, 1007)
    status, _, err = run(capsys, "score", table, "--rules", "no-such-rules", "--round", 1)
    assert status == 2 and "no-such-rules" in err
    status, _, err = run(capsys, "score", table, "--rules", RULES, "--round", 9)
    assert status == 2 and "--round" in err
    status, _, err = run(capsys, "score", table, "--round", 1)
    assert status == 2 and "--rules" in err
    # without --round, a wrong rule name is reported first, and a right one gives the rounds it has
    status, _, err = run(capsys, "score", table, "--rules", "no-such-rules")
    assert status == 2 and "no-such-rules" in err
    status, _, err = run(capsys, "score", table, "--rules", RULES)
    assert status == 2 and "--round" in err and "1 to 4" in err  # "Each game consists of 4 rounds"
    assert fake.detector.calls == 0


def test_missing_model_is_a_clean_error(tmp_path, capsys):
    Image.fromarray(np.zeros((50, 50, 3), np.uint8)).save(tmp_path / "t.png")
    status, _, err = run(capsys, "score", tmp_path / "t.png", "--rules", RULES, "--round", 1, "--model", tmp_path / "none.pt")
    assert status == 2 and "none.pt" in err and "Traceback" not in err


def test_round_file_adds_photo_cards_to_typed_ones(tmp_path, fake, capsys):
    fake(tmp_path / "ann-table.png", TABLE_DETS, 1008)
    fake(tmp_path / "bob-hand.png", HAND_DETS, 1009)
    (tmp_path / "round.toml").write_text(
        f'rules = "{RULES}"\nround = 2\n'
        '[[sides]]\nname = "Ann"\ntable = ["4"]\nleftover = ["5"]\ntable_photos = ["ann-table.png"]\n'
        '[[sides]]\nname = "Bob"\ntable = ["Q Q Q"]\nleftover_photos = ["bob-hand.png"]\n'
    )
    status, out, _ = run(capsys, "score", tmp_path / "round.toml", "--json")
    assert status == 0
    data = json.loads(out)
    got = {s["name"]: s["total"] for s in data["sides"]}
    # Ann: the typed 4 joins the photo's seven: clean book 700 + eight 4s 40, K K JOKER K 80, red 3 100,
    # a 5 held -5 = 915. Bob: Q Q Q 30, the hand photo's 9 -10 and black 3 -100 = -80.
    assert got == {"Ann": 915, "Bob": -80}


def test_typed_only_round_file_needs_no_model(tmp_path, monkeypatch, capsys):
    def boom(*a, **k):
        raise AssertionError("the detector must not load without photos")

    monkeypatch.setattr(detector_module, "load_detector", boom)
    (tmp_path / "r.toml").write_text(f'rules = "{RULES}"\nround = 1\n[[sides]]\nname = "A"\ntable = ["5 5 5"]\n')
    status, out, _ = run(capsys, "score", tmp_path / "r.toml", "--json")
    assert status == 0 and json.loads(out)["photos"] == []


def test_round_file_rejects_single_photo_options(tmp_path, capsys):
    (tmp_path / "r.toml").write_text(f'rules = "{RULES}"\nround = 1\n[[sides]]\nname = "A"\ntable = ["5 5 5"]\n')
    status, _, err = run(capsys, "score", tmp_path / "r.toml", "--rules", RULES)
    assert status == 2 and "--rules" in err


def test_fix_changes_the_least_confident_card(tmp_path, fake, capsys):
    dets = column(["8", "8", "8", "8"], 100, 100)
    dets[1] = Detection("8", 0.41, dets[1].box)  # the one to change
    table = fake(tmp_path / "t.png", dets + column(["9", "9", "9"], 180, 100), 1010)
    status, out, _ = run(capsys, "score", table, "--rules", RULES, "--round", 1, "--json", "--fix", "8->9")
    assert status == 0
    cards = json.loads(out)["photos"][0]["cards"]
    fixed = [c for c in cards if c.get("fixed")]
    assert len(fixed) == 1 and fixed[0]["class"] == "9"
    assert fixed[0]["box"][1] == pytest.approx(dets[1].box[1], abs=0.2)
    assert sum(c["class"] == "8" for c in cards) == 3 and sum(c["class"] == "9" for c in cards) == 4


def test_fix_delete_and_add(tmp_path, fake, capsys):
    table = fake(tmp_path / "t.png", column(["8"] * 4, 100, 100), 1011)
    status, out, _ = run(
        capsys, "score", table, "--rules", RULES, "--round", 1, "--json", "--fix", "8->", "--fix", "->K@table", "--fix", "->5@leftover"
    )
    assert status == 3  # a lone K is not a meld: an error finding
    data = json.loads(out)
    assert sum(c["class"] == "8" for c in data["photos"][0]["cards"]) == 3
    # 8 8 8 30, the lone K (no meld, still on the table) 10, the 5 in hand -5
    assert data["sides"][0]["total"] == 35


def test_fix_adds_a_wild_to_the_meld_it_names(tmp_path, fake, capsys):
    table = fake(tmp_path / "t.png", column(["8"] * 4, 100, 100) + column(["K"] * 3, 180, 100), 1017)
    status, out, _ = run(capsys, "score", table, "--rules", RULES, "--round", 1, "--json", "--fix", "->JOKER@k")
    assert status == 0  # the joker joins the kings: no lone-wild error
    assert json.loads(out)["sides"][0]["total"] == 120  # four 8s 40 + K K K 30 + joker 50

    # saved and rescored, the addition still joins the kings
    run(capsys, "score", table, "--rules", RULES, "--round", 1, "--fix", "->JOKER@K", "--out", tmp_path / "o")
    status, out, _ = run(capsys, "rescore", tmp_path / "o" / "result.json", "--json")
    assert status == 0 and json.loads(out)["sides"][0]["total"] == 120

    # without naming the meld, a wild forms a meld of its own: an error finding
    status, _, _ = run(capsys, "score", table, "--rules", RULES, "--round", 1, "--fix", "->JOKER@table")
    assert status == 3


@pytest.mark.parametrize(("fix", "says"), [("->2@Q", "no meld of Q to add to (its melds: 8)"), ("->2@JOKER", "@JOKER is not a rank")])
def test_fix_to_a_meld_the_side_lacks_is_a_clean_error(tmp_path, fake, capsys, fix, says):
    table = fake(tmp_path / "t.png", column(["8"] * 4, 100, 100), 1018)
    status, _, err = run(capsys, "score", table, "--rules", RULES, "--round", 1, "--fix", fix)
    assert status == 2 and says in err


@pytest.mark.parametrize("bad", ["8=>9", "X->9", "->K@sofa", "8->9@table", "->K@7S"])
def test_bad_fix_is_a_clean_error(tmp_path, fake, capsys, bad):
    table = fake(tmp_path / "t.png", TABLE_DETS, 1012)
    status, _, err = run(capsys, "score", table, "--rules", RULES, "--round", 1, "--fix", bad)
    assert status == 2 and "--fix" in err


def test_fix_without_such_a_card_is_a_clean_error(tmp_path, fake, capsys):
    table = fake(tmp_path / "t.png", TABLE_DETS, 1013)
    status, _, err = run(capsys, "score", table, "--rules", RULES, "--round", 1, "--fix", "7->8")
    assert status == 2 and "no detected 7" in err


def test_out_writes_annotated_images_and_rescore_reads_edits(tmp_path, fake, capsys):
    table = fake(tmp_path / "t.png", TABLE_DETS, 1014)
    hand = fake(tmp_path / "h.png", HAND_DETS, 1015)
    out_dir = tmp_path / "out"
    status, out, _ = run(capsys, "score", table, "--leftover", hand, "--rules", RULES, "--round", 1, "--name", "Ann", "--json", "--out", out_dir)
    assert status == 0
    first = json.loads(out)
    assert first["sides"][0]["total"] == 805  # table 915, hand: 9 -10, black 3 -100
    for name in ("t.annotated.jpg", "h.annotated.jpg", "result.json"):
        assert (out_dir / name).is_file()
    annotated = Image.open(out_dir / "t.annotated.jpg")
    assert annotated.width == 1014 and annotated.height > 700  # photo plus a findings band

    # unchanged: same total, without the model
    status, out, _ = run(capsys, "rescore", out_dir / "result.json", "--json")
    assert status == 0 and json.loads(out)["sides"][0]["total"] == 805

    # the player says the 9 left in hand is really an ace (20, where a 9 is 10: the total must move)
    saved = json.loads((out_dir / "result.json").read_text())
    hand_photo = next(p for p in saved["photos"] if p["role"] == "leftover")
    next(c for c in hand_photo["cards"] if c["class"] == "9")["class"] = "A"
    (out_dir / "result.json").write_text(json.dumps(saved))
    status, out, _ = run(capsys, "rescore", out_dir / "result.json", "--json")
    assert json.loads(out)["sides"][0]["total"] == 795  # table 915, hand: ace -20, black 3 -100


def test_rescore_bad_file_is_a_clean_error(tmp_path, capsys):
    status, _, err = run(capsys, "rescore", tmp_path / "none.json")
    assert status == 2 and "none.json" in err
    (tmp_path / "x.json").write_text('{"photos": []}')
    status, _, err = run(capsys, "rescore", tmp_path / "x.json")
    assert status == 2 and "input" in err


def test_audit_explains_the_difference_and_lists_unsure_cards(tmp_path, fake, capsys):
    dets = list(TABLE_DETS)
    dets[2] = Detection("4", 0.33, dets[2].box)
    fake(tmp_path / "ann.png", dets, 1016)
    (tmp_path / "round.toml").write_text(
        f'rules = "{RULES}"\nround = 1\n[[sides]]\nname = "Ann"\ntable_photos = ["ann.png"]\n[[sides]]\nname = "Bob"\ntable = ["Q Q Q"]\n'
    )
    claimed = "Ann=815,Bob=30"  # Ann's table scores 915 (TABLE_DETS): she left out her red 3 (100)
    status, out, _ = run(capsys, "audit", tmp_path / "round.toml", "--claimed", claimed, "--json")
    assert status == 0
    audit = json.loads(out)
    ann = next(s for s in audit["sides"] if s["name"] == "Ann")
    assert ann["difference"] == -100
    assert any(len(c) == 1 and "red 3" in c[0]["label"] for c in ann["explained_by"])
    first = audit["least_sure"][0]
    assert first["class"] == "4" and first["conf"] == pytest.approx(0.33)
    assert Path(first["photo"]).name == "ann.png"
    status, out, _ = run(capsys, "audit", tmp_path / "round.toml", "--claimed", claimed)
    assert "least sure" in out and "red 3s laid" in out


def test_audit_rejects_unknown_side(tmp_path, capsys):
    (tmp_path / "r.toml").write_text(f'rules = "{RULES}"\nround = 1\n[[sides]]\nname = "A"\ntable = ["5 5 5"]\n')
    status, _, err = run(capsys, "audit", tmp_path / "r.toml", "--claimed", "Zed=10")
    assert status == 2 and "Zed" in err


def test_exif_turned_photo_reaches_the_detector_upright(tmp_path, fake, capsys):
    # stored 1100 wide x 500 high, EXIF says "turn 90 degrees": the detector must see 500 x 1100
    fake.detector.by_width[500] = column(["6"] * 3, 100, 100)
    exif = Image.Exif()
    exif[0x0112] = 6
    Image.fromarray(np.full((500, 1100, 3), 90, np.uint8)).save(tmp_path / "turned.jpg", exif=exif.tobytes())
    status, out, _ = run(capsys, "score", tmp_path / "turned.jpg", "--rules", RULES, "--round", 1, "--json")
    assert status == 0
    photo = json.loads(out)["photos"][0]
    assert (photo["width"], photo["height"]) == (500, 1100)
    assert len(photo["cards"]) == 3


def test_partner_who_went_out_needs_no_leftover_photo(tmp_path, fake, capsys):
    # A partnership side went out: one partner holds nothing (no photo), the other's hand is photographed.
    fake(tmp_path / "table.png", TABLE_DETS, 1010)
    fake(tmp_path / "hand.png", HAND_DETS, 1011)
    (tmp_path / "round.toml").write_text(
        f'rules = "{RULES}"\nround = 1\n'
        '[[sides]]\nname = "Us"\nwent_out = true\npartners = true\n'
        'table_photos = ["table.png"]\nleftover_photos = ["hand.png"]\n'
    )
    status, out, _ = run(capsys, "score", tmp_path / "round.toml", "--json")
    side = json.loads(out)["sides"][0]
    # table 915, the hand's 9 -10 and black 3 -100 = 805; no going-out bonus: Remastered asks for a
    # clean and a dirty book, and the side has no dirty one (an error: exit 3)
    assert side["total"] == 805
    assert status == 3 and any("0 dirty" in f["message"] for f in side["findings"])
    assert not any("still" in f["message"] for f in side["findings"]), side["findings"]


@pytest.mark.parametrize("args", [["--voc", "photos"], ["--data", "data.yaml"]])
def test_eval_failure_sheet_needs_a_yolo_set_and_an_image_name(tmp_path, capsys, args):
    status, _, err = run(capsys, "eval", *args, "--failures", tmp_path / ("sheet.jpg" if "--voc" in args else "sheet.txt"))
    assert status == 2 and "--failures" in err and "Traceback" not in err


def test_a_misread_card_inside_a_meld_column_is_scored_as_its_rank_and_can_be_kept(tmp_path, fake, capsys):
    dets = column(["8", "8", "6", "8"], 100, 100) + column(["9", "9", "9"], 180, 100)
    table = fake(tmp_path / "t.png", dets, 1019)
    status, out, _ = run(capsys, "score", table, "--rules", RULES, "--round", 1, "--json")
    data = json.loads(out)
    assert status == 0  # a warning, not an error
    assert data["sides"][0]["total"] == 70  # four 8s 40 + three 9s 30
    cards = data["photos"][0]["cards"]
    assert sum(c["class"] == "8" for c in cards) == 4 and not any(c["class"] == "6" for c in cards)
    assert any("lone 6" in f["message"] for f in data["sides"][0]["findings"])
    status, out, _ = run(capsys, "score", table, "--rules", RULES, "--round", 1, "--json", "--fix", "6->6")
    assert json.loads(out)["sides"][0]["total"] == 65  # three 8s 30 + the kept 6 5 + three 9s 30


def test_a_black_three_inside_a_meld_column_is_a_misread_index_unless_kept(tmp_path, fake, capsys):
    # a sideways 5 or 8 may be read as a black 3, which no meld of another rank can hold
    dets = column(["8", "8", "3B", "8"], 100, 100) + column(["9", "9", "9"], 180, 100)
    table = fake(tmp_path / "t.png", dets, 1020)
    status, out, _ = run(capsys, "score", table, "--rules", RULES, "--round", 1, "--json")
    data = json.loads(out)
    assert status == 0 and data["sides"][0]["total"] == 70  # four 8s 40 + three 9s 30
    assert any("lone 3B" in f["message"] for f in data["sides"][0]["findings"])
    # kept a black 3 by hand, it is one in a meld, which the rules forbid
    status, out, _ = run(capsys, "score", table, "--rules", RULES, "--round", 1, "--json", "--fix", "3B->3B")
    assert status == 3
    assert any(c["class"] == "3B" for c in json.loads(out)["photos"][0]["cards"])


def test_a_jokers_word_is_kept_with_its_card_and_survives_rescore(tmp_path, fake, capsys):
    # the K meld ends in a whole joker with JOKER printed down its face: the model boxes the word too
    kings = column(["K", "K", "JOKER", "K", "JOKER"], 180, 100)
    tl, br = kings[-2:]
    cx, cy = (tl.center[0] + br.center[0]) / 2, (tl.center[1] + br.center[1]) / 2
    word = Detection("JOKER", 0.5, (cx - 5, cy - 25, cx + 5, cy + 25))
    dets = column(["4"] * 7, 100, 100) + kings + [word] + card_corners("3R", 400, 600)
    table = fake(tmp_path / "t.png", dets, 1016)
    out_dir = tmp_path / "out"
    status, out, _ = run(capsys, "score", table, "--rules", RULES, "--round", 1, "--name", "Ann", "--json", "--out", out_dir)
    assert status == 0
    expected = 965  # clean book of 4s 735 + K K JOKER K JOKER 30 + 100 + a laid red 3 100
    assert json.loads(out)["sides"][0]["total"] == expected
    saved = json.loads((out_dir / "result.json").read_text())
    jokers = [c for c in saved["photos"][0]["cards"] if c["class"] == "JOKER"]
    assert sorted(len(c.get("marks", [])) for c in jokers) == [0, 1]
    status, out, _ = run(capsys, "rescore", out_dir / "result.json", "--json")
    assert status == 0 and json.loads(out)["sides"][0]["total"] == expected


@pytest.mark.parametrize("command", ["score", "audit"])
def test_quick_reads_each_photo_once_and_the_default_reads_it_turned_too(tmp_path, monkeypatch, capsys, command):
    seen = []

    def load(weights=None, config=None):
        seen.append(config or detector_module.InferenceConfig())
        return FakeDetector({1001: TABLE_DETS})

    monkeypatch.setattr(detector_module, "load_detector", load)
    Image.fromarray(np.full((700, 1001, 3), 90, np.uint8)).save(tmp_path / "t.png")
    (tmp_path / "r.toml").write_text(f'rules = "{RULES}"\nround = 1\n[[sides]]\nname = "Ann"\ntable_photos = ["t.png"]\n')
    extra = ["--claimed", "Ann=0"] if command == "audit" else []
    for flags in ([], ["--quick"]):
        status, out, err = run(capsys, command, tmp_path / "r.toml", "--json", *extra, *flags)
        assert status in (0, 3), err
    assert [c.turns for c in seen] == [detector_module.InferenceConfig().turns, ()]
    assert seen[0].turns  # the default reads each photo turned as well
