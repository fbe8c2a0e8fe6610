"""The reading pipe is declared once (`vision.pipe.STAGES`) and every command runs it: `score` (and `audit` and
the web server, through `read_side_photos`) and `watch` alike, so the two cannot drift apart."""

from __future__ import annotations

import ast
import json
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

sys.path.insert(0, str(Path(__file__).parent / "vision"))
from synth_cards import column  # noqa: E402

import vision.detector as detector_module  # noqa: E402
import vision.pipe as pipe  # noqa: E402
from handfoot.cli import main  # noqa: E402
from handfoot.live import WatchConfig, WatchSession  # noqa: E402
from handfoot.rules_files import load_rules  # noqa: E402
from vision.video import Frame  # noqa: E402

RULES = "remastered-singles"
SIZE = 600  # the photo's side, px: under watch's 640, so a frame is read as it is
BOXES = column(["4"] * 7, 100, 100) + column(["K", "K", "K"], 180, 100)  # a clean book of 4s and three kings
NAMES = [
    "detect",
    "fill-gaps",
    "name",
    "sharpness",
    "small-jokers",
    "joker-faces",
    "face-letters",
    "join",
    "second-look",
    "group-jokers",
    "colour",
    "layout",
]


class Fixed:
    """A detector that finds BOXES on any photo."""

    def detect(self, image):
        return list(BOXES)

    read = detect


@pytest.fixture
def no_networks(monkeypatch):
    """The shipped second-look networks left out: the stages still run, on the boxes alone (fast)."""
    monkeypatch.setattr(pipe, "shipped_reader", lambda kind: None)
    monkeypatch.setattr(pipe, "shipped_whole_card_reader", lambda: None)
    monkeypatch.setattr(pipe, "shipped_joker_grouper", lambda: None)
    monkeypatch.setattr(detector_module, "load_detector", lambda weights=None, config=None: Fixed())


def _ran(monkeypatch) -> list[str]:
    """Every stage of STAGES made to note its name when it runs; returns the list it notes into."""
    ran: list[str] = []

    def noted(stage):
        return replace(stage, step=lambda flow, s: ran.append(stage.name) or stage.step(flow, s))

    monkeypatch.setattr(pipe, "STAGES", tuple(noted(s) for s in pipe.STAGES))
    return ran


def _score(tmp_path: Path, capsys) -> list[str]:
    """`handfoot score` on a photo of BOXES: the classes of the cards it read."""
    photo = tmp_path / "table.png"
    Image.fromarray(np.full((SIZE, SIZE, 3), 90, np.uint8)).save(photo)
    assert main(["score", str(photo), "--rules", RULES, "--round", "1", "--json"]) == 0
    return sorted(c["class"] for c in json.loads(capsys.readouterr().out)["photos"][0]["cards"])


def _watch() -> list[str]:
    """`handfoot watch` on frames of BOXES until they are steady: the classes of the cards in view."""
    session = WatchSession(WatchConfig(rules=load_rules(RULES), rules_name=RULES, round_no=1), Fixed().detect)
    for k in range(5):
        session.process(Frame(np.full((SIZE, SIZE, 3), 90, np.uint8), k, k / 10))
    return sorted(c.cls for c in session.score.photo.cards)


def test_the_pipe_is_the_declared_stages_in_order():
    assert [s.name for s in pipe.STAGES] == NAMES
    assert NAMES.index(pipe.FRAME_LAST) + 1 == NAMES.index(pipe.JOIN_FIRST)  # watch cuts it in two, losing nothing
    assert NAMES.index(pipe.READ_LAST) + 1 == NAMES.index("layout")


def test_score_and_watch_run_every_stage_of_the_one_list(no_networks, monkeypatch, tmp_path, capsys):
    ran = _ran(monkeypatch)
    _score(tmp_path, capsys)
    assert ran == NAMES
    ran.clear()
    _watch()
    frame, joined = NAMES[: NAMES.index(pipe.FRAME_LAST) + 1], NAMES[NAMES.index(pipe.JOIN_FIRST) :]
    runs = []  # each frame read up to FRAME_LAST; a steady set that changed joined and laid out from JOIN_FIRST
    while ran:
        part = frame if ran[: len(frame)] == frame else joined
        assert ran[: len(part)] == part, ran
        runs.append("frame" if part is frame else "joined")
        del ran[: len(part)]
    assert runs.count("frame") == 5 and runs[:2] == ["frame", "joined"] and runs.count("joined") >= 2  # steady: again


def test_a_stage_changed_in_the_list_changes_score_and_watch_alike(no_networks, monkeypatch, tmp_path, capsys):
    assert _score(tmp_path, capsys) == _watch() == ["4"] * 7 + ["K"] * 3

    def no_kings(flow, s):
        flow.detections = [d for d in flow.detections if d.cls != "K"]

    stages = tuple(pipe.Stage(s.name, no_kings) if s.name == "face-letters" else s for s in pipe.STAGES)
    monkeypatch.setattr(pipe, "STAGES", stages)
    assert _score(tmp_path, capsys) == _watch() == ["4"] * 7


def test_vision_never_imports_the_app():
    vision = Path(pipe.__file__).parent
    for path in vision.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            assert not any(n.split(".")[0] == "handfoot" for n in names), f"{path.name} imports {names}"
