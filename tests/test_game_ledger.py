"""The game ledger and `handfoot game`: rules frozen at the start, rounds from round files (typed cards or
photos), running totals, the winner, undo, export, migrations, and clean errors (exit 2, nothing stored).

Expected totals are worked out by hand from DESIGN.md's remastered-singles column: a clean book of seven
4s is 700 + 7 x 5 = 735 (535 where a house rule makes a clean book 500); three 10s on the table and a 5
left in hand are 30 - 5 = 25. Photo rounds use the example photos' true corners (Ann 515, Bob 840).
"""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import pytest
from PIL import Image

sys.path.insert(0, str(Path(__file__).parent))
from serve_helpers import PHOTOS, TrueCorners  # noqa: E402

import vision.detector as detector_module  # noqa: E402
from handfoot.cli import main  # noqa: E402
from handfoot.errors import UserError  # noqa: E402
from handfoot.ledger import DB_NAME, SCHEMA_VERSION, Ledger  # noqa: E402

HOUSE = 'base = "remastered-singles"\nname = "house"\n[books]\nclean = {clean}\n'


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    out = capsys.readouterr()
    return status, out.out, out.err


def typed_round(folder: Path, number: int, rules: str = "remastered-singles", names=("Ann", "Bob")) -> Path:
    path = folder / f"typed{number}.toml"
    path.write_text(
        f'rules = "{rules}"\nround = {number}\n'
        f'[[sides]]\nname = "{names[0]}"\ntable = ["4 4 4 4 4 4 4"]\nleftover = [""]\n'
        f'[[sides]]\nname = "{names[1]}"\ntable = ["10 10 10"]\nleftover = ["5"]\n'
    )
    return path


def test_a_game_keeps_its_rules_as_they_were_when_it_started(tmp_path, capsys):
    data = tmp_path / "data"
    house = tmp_path / "house.toml"
    house.write_text(HOUSE.format(clean=500))
    status, out, err = run(capsys, "game", "new", "--rules", house, "--sides", "Ann,Bob", "--data", data)
    assert status == 0, err
    game = out.strip()
    assert game == "1"
    house.write_text(HOUSE.format(clean=900))  # edited after the game started: the game must not see it
    round_file = typed_round(tmp_path, 1, rules=str(house))
    status, out, err = run(capsys, "game", "round", game, round_file, "--data", data)
    assert status == 0, err
    status, out, _ = run(capsys, "game", "show", game, "--json", "--data", data)
    sheet = json.loads(out)
    assert sheet["rounds"][0]["totals"] == [535, 25]


def test_rounds_running_totals_winner_undo_and_export(tmp_path, capsys):
    data = tmp_path / "data"
    run(capsys, "game", "new", "--rules", "remastered-singles", "--sides", "Ann,Bob", "--data", data)
    for n in (1, 2):
        assert run(capsys, "game", "round", "1", typed_round(tmp_path, n), "--data", data)[0] == 0
    sheet = json.loads(run(capsys, "game", "show", "1", "--json", "--data", data)[1])
    assert [r["running"] for r in sheet["rounds"]] == [[735, 25], [1470, 50]]
    assert sheet["winner"] is None and not sheet["finished"]
    status, out, _ = run(capsys, "game", "show", "1", "--data", data)
    assert status == 0 and "1470" in out and "Ann" in out
    status, out, _ = run(capsys, "game", "undo", "1", "--data", data)
    assert status == 0 and "round 2" in out
    for n in (2, 3, 4):
        assert run(capsys, "game", "round", "1", typed_round(tmp_path, n), "--data", data)[0] == 0
    sheet = json.loads(run(capsys, "game", "show", "1", "--json", "--data", data)[1])
    assert sheet["totals"] == [4 * 735, 4 * 25] and sheet["finished"] and sheet["winner"] == ["Ann"]
    status, out, _ = run(capsys, "game", "export", "1", "--csv", "--data", data)
    lines = out.splitlines()
    assert lines[0] == "round,status,side,total,running_total"
    assert lines[-2:] == ["4,confirmed,Ann,735,2940", "4,confirmed,Bob,25,100"]
    exported = json.loads(run(capsys, "game", "export", "1", "--json", "--data", data)[1])
    assert exported["rules_frozen"]["books"]["clean"] == 700
    assert exported["rounds"][3]["result"]["input"]["round"] == 4
    status, out, _ = run(capsys, "game", "list", "--data", data)
    assert "finished" in out and "Ann 2940, Bob 100" in out
    # a fifth round: the game is over
    status, _, err = run(capsys, "game", "round", "1", typed_round(tmp_path, 4), "--data", data)
    assert status == 2 and "next round of game 1 is 5" in err


@pytest.mark.parametrize(
    "args, says",
    [
        (["game", "show", "9"], "no game 9"),
        (["game", "undo", "9"], "no game 9"),
        (["game", "new", "--rules", "remastered-singles", "--sides", "Ann"], "at least two sides"),
        (["game", "new", "--rules", "remastered-singles", "--sides", "Ann,Ann"], "two sides are named 'Ann'"),
        (["game", "new", "--rules", "no-such", "--sides", "Ann,Bob"], "unknown rule preset"),
        (["game", "export", "1"], "one of --csv or --json"),
    ],
)
def test_game_errors_are_one_line_with_status_2(tmp_path, capsys, args, says):
    run(capsys, "game", "new", "--rules", "remastered-singles", "--sides", "Ann,Bob", "--data", tmp_path)
    status, _, err = run(capsys, *args, "--data", tmp_path)
    assert status == 2 and says in " ".join(err.split()) and "Traceback" not in err


def test_a_round_file_that_fails_stores_nothing(tmp_path, capsys):
    data = tmp_path / "data"
    run(capsys, "game", "new", "--rules", "remastered-singles", "--sides", "Ann,Bob", "--data", data)
    other = typed_round(tmp_path, 1, names=("Ann", "Cy"))
    status, _, err = run(capsys, "game", "round", "1", other, "--data", data)
    assert status == 2 and "game 1 has Ann, Bob" in " ".join(err.split())
    wrong_rules = typed_round(tmp_path, 1, rules="online-classic")
    status, _, err = run(capsys, "game", "round", "1", wrong_rules, "--data", data)
    assert status == 2 and "plays remastered-singles" in " ".join(err.split())
    missing = tmp_path / "missing.toml"
    missing.write_text('rules = "remastered-singles"\nround = 1\n[[sides]]\nname = "Ann"\ntable_photos = ["nope.jpg"]\n[[sides]]\nname = "Bob"\n')
    status, _, err = run(capsys, "game", "round", "1", missing, "--data", data)
    assert status == 2 and "photo not found" in err
    sheet = json.loads(run(capsys, "game", "show", "1", "--json", "--data", data)[1])
    assert sheet["rounds"] == []


def test_a_photo_round_file_copies_the_photos_into_the_ledger(tmp_path, capsys, monkeypatch):
    fake = TrueCorners()
    monkeypatch.setattr(detector_module, "load_detector", lambda weights=None, config=None: fake)
    data = tmp_path / "data"
    round_file = tmp_path / "round.toml"
    round_file.write_text(
        'rules = "remastered-singles"\nround = 1\n'
        + "".join(
            f'[[sides]]\nname = "{who.title()}"\ntable_photos = ["{PHOTOS}/{who}-table.jpg"]\nleftover_photos = ["{PHOTOS}/{who}-hand.jpg"]\n'
            for who in ("ann", "bob")
        )
    )
    run(capsys, "game", "new", "--rules", "remastered-singles", "--sides", "Ann,Bob", "--data", data)
    status, out, err = run(capsys, "game", "round", "1", round_file, "--data", data)
    assert status == 0, err
    sheet = json.loads(run(capsys, "game", "show", "1", "--json", "--data", data)[1])
    assert sheet["totals"] == [515, 840]
    stored = sorted(p.name for p in (data / "photos" / "1").iterdir())
    assert len(stored) == 4 and all(len(Path(n).stem) == 32 and n.endswith(".jpg") for n in stored)
    assert sorted(ph["path"] for ph in sheet["rounds"][0]["result"]["photos"]) == sorted(
        f"{w}-{k}.jpg" for w in ("ann", "bob") for k in ("table", "hand")
    )


def test_the_ledger_has_a_schema_version_and_refuses_what_it_cannot_read(tmp_path):
    Ledger(tmp_path / "a")
    with sqlite3.connect(tmp_path / "a" / DB_NAME) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        conn.execute("PRAGMA user_version = 99")
    with pytest.raises(UserError, match="newer handfoot"):
        Ledger(tmp_path / "a")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / DB_NAME).write_bytes(b"not a database at all" * 100)
    with pytest.raises(UserError, match="not a handfoot ledger"):
        Ledger(tmp_path / "b")


def test_a_small_file_that_decodes_to_a_huge_image_is_too_large_with_status_2(tmp_path, capsys):
    huge = tmp_path / "huge.png"
    Image.new("1", (20000, 10000)).save(huge, optimize=True)
    assert huge.stat().st_size < 2_000_000
    status, _, err = run(capsys, "score", huge, "--rules", "remastered-singles", "--round", "1")
    assert status == 2 and "too large" in err and "bug" not in err
