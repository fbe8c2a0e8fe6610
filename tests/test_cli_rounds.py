"""The manual-entry commands: score-round, rules list/show, demo (exit status and output)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from handfoot.cli import main
from handfoot.errors import UserError
from handfoot.roundfile import load_round, parse_tokens

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"

GOOD = """\
rules = "remastered-singles"
round = 1

[[sides]]
name = "Ann"
went_out = true
table = ["4 4 4 4 4 4 4", "10 10 10 10 2 2 joker", "3R 3R"]
leftover = [""]

[[sides]]
name = "Bob"
table = ["k k k"]
leftover = ["5 9 3B"]
"""


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep rich from wrapping messages mid-word."""
    monkeypatch.setenv("COLUMNS", "200")


def run(capsys: pytest.CaptureFixture, *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out = capsys.readouterr()
    return status, out.out, out.err


def write(tmp_path: Path, text: str, name: str = "round.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_score_round_json(tmp_path: Path, capsys) -> None:
    status, out, _ = run(capsys, "score-round", str(write(tmp_path, GOOD)), "--json")
    assert status == 0
    data = json.loads(out)
    assert data["rules"] == "remastered-singles" and data["round"] == 1
    ann, bob = data["sides"]
    assert set(ann) == {"name", "total", "lines", "findings"}
    assert ann["name"] == "Ann"
    assert {"label": "clean book of 4s", "points": 700} in ann["lines"]
    assert {"label": "going out", "points": 100} in ann["lines"]
    assert ann["total"] == 700 + 300 + 200 + 35 + 40 + 90 + 100
    assert bob["total"] == 30 - 15 - 100
    assert any(f["level"] == "warning" and "opening minimum" in f["message"] for f in bob["findings"])


def test_score_round_table(tmp_path: Path, capsys) -> None:
    status, out, _ = run(capsys, "score-round", str(write(tmp_path, GOOD)))
    assert status == 0
    assert "clean book of 4s" in out and "+700" in out
    assert "1465" in out and "Bob" in out
    assert "opening minimum" in out


def test_score_round_json_file(tmp_path: Path, capsys) -> None:
    data = {"rules": "online-classic", "round": 2, "sides": [{"name": "Us", "table": ["9 9 9 9 9 9 9", "3B 3B 3B"], "leftover": ["", ""]}]}
    path = write(tmp_path, json.dumps(data), "round.json")
    status, out, _ = run(capsys, "score-round", str(path), "--json")
    assert status == 3  # a meld of 3s is an error finding
    findings = json.loads(out)["sides"][0]["findings"]
    assert any(f["level"] == "error" and "meld of 3s" in f["message"] for f in findings)


def test_rule_breaking_round_exits_3_with_readable_errors(tmp_path: Path, capsys) -> None:
    text = GOOD.replace('"k k k"', '"k k 2 2"')
    status, out, _ = run(capsys, "score-round", str(write(tmp_path, text)))
    assert status == 3
    assert "too many wilds" in out and "error" in out


def test_custom_rules_file_relative_to_the_round_file(tmp_path: Path, capsys) -> None:
    (tmp_path / "rules").mkdir()
    write(tmp_path / "rules", 'base = "remastered-singles"\nname = "ours"\n[books]\nclean = 100\n', "ours.toml")
    path = write(tmp_path, GOOD.replace('"remastered-singles"', '"rules/ours.toml"'))
    status, out, _ = run(capsys, "score-round", str(path), "--json")
    assert status == 0
    data = json.loads(out)
    assert data["rules"] == "ours"
    assert {"label": "clean book of 4s", "points": 100} in data["sides"][0]["lines"]


@pytest.mark.parametrize(
    ("text", "name", "message"),
    [
        ("rules = [", "round.toml", "not valid TOML"),
        ('{"rules": ', "round.json", "not valid JSON"),
        ('round = 1\n[[sides]]\nname = "A"\n', "round.toml", "lacks the key 'rules'"),
        (GOOD.replace("round = 1", "round = 9"), "round.toml", "round must be a whole number from 1 to 4"),
        (GOOD.replace('"remastered-singles"', '"house"'), "round.toml", "unknown rule preset 'house'"),
        (GOOD.replace('"remastered-singles"', '"missing.toml"'), "round.toml", "rules file not found"),
        (GOOD.replace("5 9 3B", "5 9 3X"), "round.toml", "unknown card '3X'"),
        (GOOD.replace("went_out = true", "went_out = 1"), "round.toml", "went_out must be true or false"),
        (GOOD.replace('name = "Bob"', 'name = "Bob"\ncolour = "red"'), "round.toml", "unknown key 'colour'"),
        (GOOD.replace('name = "Bob"', 'name = "Ann"'), "round.toml", "two sides are named 'Ann'"),
        (GOOD.replace('leftover = [""]', 'leftover = "5 9"'), "round.toml", "leftover must be a list of strings"),
        (GOOD.replace('leftover = [""]', 'leftover = [""]\ntable_photos = "a.jpg"'), "round.toml", "table_photos must be a list of strings"),
        ("rules = 'online-classic'\nround = 1\nsides = []\n", "round.toml", "sides must be a non-empty list"),
    ],
)
def test_unusable_input_exits_2_with_a_clear_message(tmp_path: Path, capsys, text: str, name: str, message: str) -> None:
    status, out, err = run(capsys, "score-round", str(write(tmp_path, text, name)))
    assert status == 2
    assert message in err
    assert "Traceback" not in err + out


def test_missing_round_file_exits_2(tmp_path: Path, capsys) -> None:
    status, _, err = run(capsys, "score-round", str(tmp_path / "nope.toml"))
    assert status == 2 and "round file not found" in err


def test_unknown_preset_lists_the_presets(tmp_path: Path, capsys) -> None:
    _, _, err = run(capsys, "score-round", str(write(tmp_path, GOOD.replace('"remastered-singles"', '"house"'))))
    for name in ("bare-foot-n-wild", "remastered-singles", "magnolia-point", "family-game-knights", "online-classic"):
        assert name in err


def test_unknown_token_lists_the_valid_cards() -> None:
    with pytest.raises(UserError) as info:
        parse_tokens("4 4 queen")
    assert "'queen'" in info.value.message
    assert "A 2 3R 3B 4 5 6 7 8 9 10 J Q K JOKER 1 11 12 WILD20 WILD50 SOCK SHOE BACK" in info.value.message


def test_tokens_accept_lower_case_and_commas() -> None:
    assert parse_tokens("joker, 3r wild20 k 10") == ["JOKER", "3R", "WILD20", "K", "10"]
    assert parse_tokens("   ") == []


def test_photo_lists_are_kept_relative_to_the_round_file(tmp_path: Path) -> None:
    text = GOOD.replace('leftover = [""]', 'leftover = [""]\ntable_photos = ["p/t.jpg"]\nleftover_photos = ["l.jpg"]')
    spec = load_round(write(tmp_path, text))
    assert spec.sides[0].table_photos == [tmp_path / "p" / "t.jpg"]
    assert spec.sides[0].leftover_photos == [tmp_path / "l.jpg"]
    assert spec.sides[1].table_photos == []
    assert spec.rules_name == "remastered-singles" and spec.round == 1
    assert spec.sides[0].table[1] == ["10", "10", "10", "10", "2", "2", "JOKER"]


def test_partners_key_declares_a_partnership(tmp_path: Path, capsys) -> None:
    text = """rules = "family-game-knights"
round = 4
[[sides]]
name = "Us"
partners = true
went_out = true
table = ["4 4 4 4 4 4 4", "5 5 5 5 5 5 5", "6 6 6 6 6 2 2", "7 7 7 7 7 2 2"]
leftover = [""]
"""
    status, out, _ = run(capsys, "score-round", str(write(tmp_path, text)), "--json")
    assert status == 3
    assert "2 clean and 3 dirty" in out
    status, out, _ = run(capsys, "score-round", str(write(tmp_path, text.replace("partners = true", ""))), "--json")
    assert status == 0


EXAMPLE_TOTALS = {
    # Remastered, round 1. Ann: clean book of 4s 700 + 35, dirty book of 10s 300 + 40 + 2s 40 + joker 50,
    # K K K 2 50, two red 3s 200, going out 100, perfect deal 100 = 1615. Bob: clean book of 8s 700 + 80,
    # A A JOKER 90, 6 6 6 15; held 5 9 Q Q -35 and a black 3 -100 = 750. Cy: J J J J 40, 7 7 7 2 35;
    # held 4 K K joker -75 and a red 3 -100 = -100.
    "round.toml": {"Ann": 1615, "Bob": 750, "Cy": -100},
    # Family Game Knights, round 4, partners (2 clean + 3 dirty to go out). Ann & Ben: clean 5s 500 + 35,
    # clean 9s 500 + 80, dirty Qs 300 + 40 + 90, dirty 7s 300 + 25 + 40, dirty As 300 + 80 + 90, going out
    # 100, held 6 8 -15 = 2465. Cat & Dan: clean Ks 500 + 70, J J J 2 50; held 4 4 -10, a black 3 -5,
    # 10 10 -20 and a red 3 -500 = 85.
    "round-partners.json": {"Ann & Ben": 2465, "Cat & Dan": 85},
    # Bare Foot, round 2 (no going-out bonus). Ann: clean stack of 12s 500 + 140, clothing stack 1000 +
    # 3 socks 150 + 4 shoes 400, 6 6 6 WILD20 50, 3 3 3 (numbers here) 15 = 2255. Bob: 1 1 1 1 WILD50
    # WILD20 90, a clothing set that is no stack counts against: sock shoe shoe -250; held 11 7 sock
    # -80 = -240.
    "round-barefoot.toml": {"Ann": 2255, "Bob": -240},
}


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("round*")))
def test_example_round_files_score(capsys, example: str) -> None:
    status, out, err = run(capsys, "score-round", str(EXAMPLES / example), "--json")
    assert status == 0, err
    assert {s["name"]: s["total"] for s in json.loads(out)["sides"]} == EXAMPLE_TOTALS[example]


def test_rules_list(capsys) -> None:
    status, out, _ = run(capsys, "rules", "list")
    assert status == 0
    for name in ("bare-foot-n-wild", "remastered-singles", "magnolia-point", "family-game-knights", "online-classic"):
        assert name in out


def test_rules_show_preset(capsys) -> None:
    status, out, _ = run(capsys, "rules", "show", "family-game-knights")
    assert status == 0
    assert "50 / 90 / 120 / 150" in out
    assert "2c+3d" in out and "500 / 300" in out


def test_rules_show_custom_file(capsys) -> None:
    status, out, _ = run(capsys, "rules", "show", str(EXAMPLES / "house-rules.toml"))
    assert status == 0
    assert "house-rules" in out and "500 / 300" in out and "200" in out


def test_rules_show_bad_file_names_the_key(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, 'base = "online-classic"\n[books]\nclen = 1\n', "bad.toml")
    status, _, err = run(capsys, "rules", "show", str(path))
    assert status == 2 and "books.clen" in err


def test_rules_show_unknown(capsys) -> None:
    status, _, err = run(capsys, "rules", "show", "nope")
    assert status == 2 and "unknown rule preset 'nope'" in err


def test_demo_typed_scores_the_example_round(capsys) -> None:
    status, out, _ = run(capsys, "demo", "--typed")
    assert status == 0
    assert "clean book of 4s" in out and "Totals:" in out


def test_demo_without_the_example_fails_clearly(capsys, monkeypatch, tmp_path: Path) -> None:
    from handfoot.commands import demo_cmd

    monkeypatch.setattr(demo_cmd, "EXAMPLE_PHOTO_ROUND", tmp_path / "gone.toml")
    status, _, err = run(capsys, "demo", "--out", str(tmp_path / "out"))
    assert status == 2 and "example round file is missing" in err


def test_score_game_adds_rounds(tmp_path: Path, capsys) -> None:
    one = write(tmp_path, GOOD, "r1.toml")
    two = write(tmp_path, GOOD.replace("round = 1", "round = 2"), "r2.toml")
    status, out, _ = run(capsys, "score-game", str(two), str(one), "--json")
    assert status == 0
    data = json.loads(out)
    assert [r["round"] for r in data["rounds"]] == [1, 2]
    # GOOD scores Ann 1465 and Bob -85 in any round (a round's minimum only warns): twice over
    assert [[s["total"] for s in r["sides"]] for r in data["rounds"]] == [[1465, -85], [1465, -85]]
    assert data["totals"] == {"Ann": 2930, "Bob": -170}
    status, out, _ = run(capsys, "score-game", str(one), str(two))
    assert status == 0 and "round 2" in out and "2930" in out


def test_score_game_refuses_mixed_rules_or_repeated_rounds(tmp_path: Path, capsys) -> None:
    one = write(tmp_path, GOOD, "r1.toml")
    other = write(tmp_path, GOOD.replace('"remastered-singles"', '"online-classic"').replace("round = 1", "round = 2"), "r2.toml")
    status, _, err = run(capsys, "score-game", str(one), str(other))
    assert status == 2 and "different rules" in err
    status, _, err = run(capsys, "score-game", str(one), str(one))
    assert status == 2 and "round 1 appears twice" in err


def test_blank_table_entries_are_ignored(tmp_path: Path) -> None:
    spec = load_round(write(tmp_path, GOOD.replace('table = ["k k k"]', 'table = ["k k k", "  "]')))
    assert spec.sides[1].table == [["K", "K", "K"]]
