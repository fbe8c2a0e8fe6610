"""`handfoot eval-joins`: the joining's own errors on generated photos with true cards."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "vision"))
from synth_cards import card_corners, column  # noqa: E402

from handfoot.cli import main  # noqa: E402


def frame(cards: list[list], kind: str) -> dict:
    """A `dataset build` frame JSON: each true card is a list of its corner detections."""
    return {
        "kind": kind,
        "cards": [{"cls": dets[0].cls, "corners": [list(d.box) for d in dets]} for dets in cards],
        "labels": [{"cls": d.cls, "box": list(d.box)} for dets in cards for d in dets],
    }


def write_frames(folder: Path, frames: list[dict]) -> Path:
    folder.mkdir()
    for i, data in enumerate(frames):
        (folder / f"img-{i:06d}.json").write_text(json.dumps(data))
    return folder


def test_eval_joins_counts_false_pairs_and_passes_right_photos(tmp_path: Path, capsys) -> None:
    meld = column(["7", "7", "7", "7"], 200, 200)
    right = frame([meld[:1], meld[1:2], meld[2:3], meld[3:]], "table")  # the last card shows both corners
    whole = card_corners("5", 600, 600)
    # the truth says these two corners are two cards: joining them as one is a false pair
    wrong = frame([whole[:1], whole[1:]], "leftover")
    closeup = frame([whole], "closeup")  # neither a table nor hands: skipped
    folder = write_frames(tmp_path / "frames", [right, wrong, closeup])

    assert main(["eval-joins", str(folder), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["table"] == {"photos": 1, "photos_with_a_wrong_join": 0, "false_pairs": 0, "split_cards": 0, "commonest_false_pairs": {}}
    assert out["leftover"]["photos"] == 1
    assert out["leftover"]["false_pairs"] == 1
    assert out["leftover"]["commonest_false_pairs"] == {"5+5": 1}
    assert [w["photo"] for w in out["wrong"]] == ["img-000001.json"]


def test_eval_joins_counts_a_card_left_in_two(tmp_path: Path, capsys) -> None:
    # one card's two corners far apart (a card 6 times too long): the joiner cannot pair them
    a, b = card_corners("K", 200, 200)
    far = replace(b, box=(b.box[0] + 600, b.box[1] + 900, b.box[2] + 600, b.box[3] + 900))
    folder = write_frames(tmp_path / "frames", [frame([[a, far]], "table")])
    assert main(["eval-joins", str(folder)]) == 0
    assert "1 with a wrong join (0 false pairs, 1 split cards)" in capsys.readouterr().out


@pytest.mark.parametrize("content", [None, "not json", '{"kind": "table", "cards": [{}], "labels": 3}'])
def test_eval_joins_bad_folder_is_a_clear_error(tmp_path: Path, capsys, content) -> None:
    folder = tmp_path / "frames"
    folder.mkdir()
    if content is not None:
        (folder / "img-000000.json").write_text(content)
    assert main(["eval-joins", str(folder)]) != 0
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert "frames" in err
