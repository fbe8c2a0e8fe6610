"""`handfoot watch --no-window` on a short video of synthetic table scenes.

The video shows three shots of one side's table, cards added between shots.
The detector is replaced by one that returns each shot's true corner boxes
with jitter, missed corners, stray boxes and misread classes, so the test
checks the watch loop (tracking, voting, snapshots, scoring wiring) and not
the model's accuracy.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent / "vision"))
from blur_photos import index_photo  # noqa: E402
from synth_cards import column  # noqa: E402

from handfoot.cli import main  # noqa: E402
from handfoot.commands import watch_cmd  # noqa: E402
from handfoot.live import WatchConfig, WatchSession  # noqa: E402
from handfoot.rules_files import load_rules  # noqa: E402
from scoring.detection_classes import CLASS_NAMES  # noqa: E402
from scoring.engine import score_round  # noqa: E402
from scoring.rounds import SideRound  # noqa: E402
from vision.detection import Detection  # noqa: E402
from vision.sharpness import BLURRED  # noqa: E402
from vision.video import Frame, open_source  # noqa: E402

RULES = "family-game-knights"
FPS = 10
SHOT_FRAMES = 25  # 2.5 s per shot
SETTLE_S = 1.2  # the tracker drops the old view and confirms the new one within this
STABLE_S = 0.8
CANVAS = 640
SHOTS = [
    [["7", "7", "7"], ["K", "K", "2"]],
    [["7", "7", "7", "7", "7"], ["K", "K", "2"], ["9", "9", "9"]],
    [["7"] * 7, ["K", "K", "2"], ["9", "9", "9", "JOKER"], ["A", "A", "A"]],  # a clean book
]


def _render_shots() -> list[dict]:
    from datasets.decks.simple import simple_deck
    from datasets.scenes import SceneOptions, render_table_scene

    rules = load_rules(RULES)
    opts = SceneOptions(long_side=(CANVAS, CANVAS), index_px=(14, 20), fit_p=1.0, max_tilt=8, occluder_p=0.0, effects=0.3, family="traditional")
    deck = simple_deck()
    shots = []
    for k, melds in enumerate(SHOTS):
        scene = render_table_scene(np.random.default_rng(k), [deck], opts, melds=melds, n_red3=0, strict=True)
        canvas = np.full((CANVAS, CANVAS, 3), 90, np.uint8)
        h, w = scene.image.shape[:2]
        canvas[:h, :w] = scene.image
        groups: dict[int, list[str]] = {}
        for card in scene.cards:
            groups.setdefault(card.meld, []).append(card.cls)
        table = tuple(tuple(g) for _, g in sorted(groups.items()))
        truth = score_round(rules, 1, [SideRound("side", table=table)]).sides[0].total
        labels = [Detection(cls, 0.9, tuple(box)) for cls, box in scene.labels]
        shots.append({"image": canvas, "labels": labels, "total": truth, "cards": len(scene.cards)})
    return shots


@pytest.fixture(scope="module")
def shots() -> list[dict]:
    return _render_shots()


@pytest.fixture(scope="module")
def video(shots, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("watch") / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), FPS, (CANVAS, CANVAS))
    assert writer.isOpened()
    for shot in shots:
        for _ in range(SHOT_FRAMES):
            writer.write(shot["image"])
    writer.release()
    return path


class NoisyTruthDetector:
    """Knows which shot a frame shows (nearest thumbnail) and returns its corners, badly."""

    def __init__(self, shots: list[dict], seed: int = 0) -> None:
        self.shots = shots
        self.thumbs = [self._thumb(s["image"]) for s in shots]
        self.rng = random.Random(seed)
        self.calls = 0

    @staticmethod
    def _thumb(image: np.ndarray) -> np.ndarray:
        return cv2.resize(image, (48, 48), interpolation=cv2.INTER_AREA).astype(np.float32)

    def detect(self, image: np.ndarray) -> list[Detection]:
        self.calls += 1
        thumb = self._thumb(image)
        k = int(np.argmin([np.abs(thumb - t).mean() for t in self.thumbs]))
        rng = self.rng
        out = []
        for d in self.shots[k]["labels"]:
            if rng.random() < 0.12:  # missed corner
                continue
            dx, dy = rng.uniform(-1.5, 1.5), rng.uniform(-1.5, 1.5)
            cls = rng.choice(CLASS_NAMES[:14]) if rng.random() < 0.03 else d.cls  # misread
            x1, y1, x2, y2 = d.box
            out.append(Detection(cls, rng.uniform(0.5, 0.95), (x1 + dx, y1 + dy, x2 + dx, y2 + dy)))
        if rng.random() < 0.08:  # a stray box somewhere on the table
            x, y = rng.uniform(20, 600), rng.uniform(20, 600)
            out.append(Detection(rng.choice(CLASS_NAMES[:14]), 0.4, (x, y, x + 8, y + 16)))
        rng.shuffle(out)
        return out


@pytest.fixture
def fake_detector(shots, monkeypatch):
    det = NoisyTruthDetector(shots)
    monkeypatch.setattr(watch_cmd, "load_detector", lambda model, imgsz: det)
    return det


def _watch_json(capsys, *args: str) -> tuple[int, dict]:
    status = main(["watch", "--no-window", "--rules", RULES, "--round", "1", "--json", *args])
    out = capsys.readouterr().out
    return status, json.loads(out)


def test_clean_labels_score_as_the_truth(shots):
    """Guard: the scene's own labels, scored as one photo, give the true totals (else the
    join/layout code disagrees with the scene, not the watch loop)."""
    from handfoot.live import score_view

    cfg = WatchConfig(rules=load_rules(RULES), rules_name=RULES, round_no=1)
    for shot in shots:
        view = score_view(cfg, tuple(shot["labels"]), CANVAS, CANVAS, "table", 0, 1)
        assert (view.card_count, view.total) == (shot["cards"], shot["total"])


def test_a_grey_frame_holding_a_three_is_warned_of():
    """A grey webcam (night mode) cannot show a 3's ink: the view says so, as `handfoot score` does."""
    from handfoot.live import Snapshot, describe_snapshot, score_view

    cfg = WatchConfig(rules=load_rules(RULES), rules_name=RULES, round_no=1)
    threes = tuple(column(["3R"] * 2, 100, 100, scale=2.0))
    grey = np.full((CANVAS, CANVAS, 3), 120, np.uint8)

    def warned(view):
        return [f for s in view.round.result.sides for f in s.findings if "has no colour" in f.message]

    (finding,) = warned(score_view(cfg, threes, CANVAS, CANVAS, "table", 0, 1, image=grey))
    assert "3R" in finding.message and "in colour" in finding.message
    coloured = grey.copy()
    coloured[: CANVAS // 4] = (40, 110, 60)
    assert not warned(score_view(cfg, threes, CANVAS, CANVAS, "table", 0, 1, image=coloured))

    # the live status line says so while the view is grey, and so does the snapshot's line
    for frame, shown in ((grey, True), (coloured, False)):
        session = WatchSession(
            WatchConfig(rules=load_rules(RULES), rules_name=RULES, round_no=1, stable_seconds=0.0), lambda image: list(threes), "test"
        )
        for k in range(10):  # the tracker confirms cards seen over a few frames
            session.process(Frame(frame, k, k * 0.1))
        assert session.score.card_count == 2
        assert ("NO COLOUR" in session.status_lines()[0]) is shown
        snap = Snapshot(1, 1.0, 9, session.score, True)
        assert ("(no colour:" in describe_snapshot(snap)) is shown and snap.to_dict()["colour"] is not shown
        # the same cards, the camera's night mode turned off or on: the status follows the frame
        session.process(Frame(coloured if shown else grey, 10, 1.0))
        assert ("NO COLOUR" in session.status_lines()[0]) is not shown


def test_video_stable_totals_and_no_flicker(video, shots, fake_detector, tmp_path, capsys):
    status, doc = _watch_json(capsys, "--source", str(video), "--out", str(tmp_path / "snaps"), "--stable-seconds", str(STABLE_S))
    assert status == 0
    assert fake_detector.calls == FPS * 0 + SHOT_FRAMES * len(SHOTS)  # every frame of a file is scored
    shot_s = SHOT_FRAMES / FPS
    # one snapshot per shot, each with that shot's true cards and total, taken while it showed
    assert [s["total"] for s in doc["snapshots"]] == [s["total"] for s in shots]
    assert [s["cards"] for s in doc["snapshots"]] == [s["cards"] for s in shots]
    for k, snap in enumerate(doc["snapshots"]):
        assert k * shot_s + STABLE_S <= snap["time"] < (k + 1) * shot_s
        assert Path(snap["image"]).is_file() and Path(snap["json"]).is_file()
        saved = json.loads(Path(snap["json"]).read_text())
        assert saved["view"]["sides"][0]["total"] == snap["total"]
    # the shown count/total never changed once a shot had settled
    for change in doc["changes"]:
        into_shot = change["time"] % shot_s
        assert into_shot < SETTLE_S, f"count changed {into_shot:.1f} s into a still shot: {change}"
    # the round: the last table snapshot
    assert doc["final"]["sides"][0]["total"] == shots[-1]["total"]
    assert doc["frames_processed"] == SHOT_FRAMES * len(SHOTS) and doc["fps"] > 0


def test_text_output_prints_each_snapshot_and_the_breakdown(video, shots, fake_detector, tmp_path, capsys):
    status = main(
        ["watch", "--no-window", "--rules", RULES, "--round", "1", "--source", str(video), "--out", str(tmp_path), "--stable-seconds", str(STABLE_S)]
    )
    out = capsys.readouterr().out
    assert status == 0
    lines = [ln for ln in out.splitlines() if "snapshot" in ln and "total" in ln]
    assert [f"total {s['total']:+d}" in ln for s, ln in zip(shots, lines)] == [True] * 3
    assert f"side {shots[-1]['total']}" in out  # the breakdown's totals line
    assert "fps" in out


def test_once_stops_at_the_first_stable_view(video, shots, fake_detector, tmp_path, capsys):
    status, doc = _watch_json(capsys, "--source", str(video), "--out", str(tmp_path), "--once", "--stable-seconds", str(STABLE_S))
    assert status == 0
    assert len(doc["snapshots"]) == 1 and doc["final"]["sides"][0]["total"] == shots[0]["total"]
    assert doc["frames_processed"] < SHOT_FRAMES


def test_leftover_mode_counts_against(video, shots, fake_detector, tmp_path, capsys):
    status, doc = _watch_json(capsys, "--source", str(video), "--out", str(tmp_path), "--mode", "leftover", "--stable-seconds", str(STABLE_S))
    assert status == 0
    assert all(s["mode"] == "leftover" and s["total"] < 0 for s in doc["snapshots"])
    assert doc["final"]["sides"][0]["total"] == doc["snapshots"][-1]["total"]


def test_camera_that_cannot_be_opened_exits_2(capsys):
    status = main(["watch", "--no-window", "--rules", RULES, "--round", "1", "--source", "9"])
    err = capsys.readouterr().err
    assert status == 2
    assert "cannot open camera 9" in err and "Traceback" not in err


def test_missing_video_file_exits_2(tmp_path, capsys):
    status = main(["watch", "--no-window", "--rules", RULES, "--round", "1", "--source", str(tmp_path / "no.mp4")])
    assert status == 2
    assert "video file not found" in capsys.readouterr().err


def test_not_a_video_exits_2(tmp_path, capsys):
    bad = tmp_path / "notes.mp4"
    bad.write_text("not a video")
    status = main(["watch", "--no-window", "--rules", RULES, "--round", "1", "--source", str(bad)])
    assert status == 2
    assert "cannot open video file" in capsys.readouterr().err


def test_window_without_display_says_use_no_window(monkeypatch, capsys):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    status = main(["watch", "--rules", RULES, "--round", "1", "--source", "0"])
    assert status == 2
    assert "--no-window" in capsys.readouterr().err


def test_unknown_rules_exit_2(capsys):
    status = main(["watch", "--no-window", "--rules", "no-such-rules", "--round", "1"])
    assert status == 2


def test_keys_switch_mode_snapshot_and_build_the_round(shots, tmp_path):
    det = NoisyTruthDetector(shots, seed=3)
    cfg = WatchConfig(rules=load_rules(RULES), rules_name=RULES, round_no=1, out_dir=tmp_path, stable_seconds=0.5)
    session = WatchSession(cfg, det.detect, "test")
    for i in range(12):
        session.process(Frame(shots[2]["image"], i, i / FPS))
    assert session.stable
    assert session.handle_key(ord(" ")) == "snapshot"
    assert session.snapshots[-1].view.total == shots[2]["total"]
    assert session.handle_key(ord("l")) == "leftover"
    for i in range(12, 24):
        session.process(Frame(shots[0]["image"], i, i / FPS))
    session.handle_key(ord(" "))
    assert session.snapshots[-1].view.mode == "leftover" and session.snapshots[-1].view.total < 0
    assert session.handle_key(ord("n")) == "next" and session.player == 1
    session.handle_key(ord(" "))
    final = session.final_round()
    left = session.snapshots[-1].view.total
    assert final.result.sides[0].total == shots[2]["total"] + 2 * left
    assert session.handle_key(ord("t")) == "table" and session.mode == "table"
    assert session.handle_key(ord("q")) == "quit" and session.handle_key(27) == "quit"
    assert session.handle_key(-1) == ""
    frame = session.render()
    assert frame is not None and frame.shape[1] == CANVAS and frame.shape[0] >= CANVAS
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "001-table.jpg",
        "001-table.json",
        "002-leftover-p1.jpg",
        "002-leftover-p1.json",
        "003-leftover-p2.jpg",
        "003-leftover-p2.json",
    ]


def test_frames_of_hands_are_named_as_hands(shots, tmp_path, monkeypatch):
    from vision import pipe

    asked = []
    monkeypatch.setattr(pipe, "name_wilds", lambda image, dets, family, wilds, hands, unsure: asked.append(hands) or dets)
    cfg = WatchConfig(rules=load_rules(RULES), rules_name=RULES, round_no=1, out_dir=tmp_path, stable_seconds=0.5)
    session = WatchSession(cfg, NoisyTruthDetector(shots, seed=3).detect, "test")
    session.process(Frame(shots[2]["image"], 0, 0.0))
    session.handle_key(ord("l"))
    session.process(Frame(shots[0]["image"], 1, 1 / FPS))
    assert asked == [False, True]  # a hand's 3s take the rank reader's colour, as in `handfoot score`


MODEL = Path(__file__).resolve().parent.parent / "models" / "cards.pt"


@pytest.mark.skipif(not MODEL.is_file(), reason="models/cards.pt is not trained yet")
def test_real_model_smoke(video, tmp_path, capsys):
    """The real detector runs in the loop and reports fps (accuracy is not judged here)."""
    status = main(
        [
            "watch",
            "--no-window",
            "--rules",
            RULES,
            "--round",
            "1",
            "--source",
            str(video),
            "--out",
            str(tmp_path),
            "--stable-seconds",
            str(STABLE_S),
            "--json",
            "--realtime",
        ]
    )
    doc = json.loads(capsys.readouterr().out)
    assert status in (0, 1, 3)
    assert doc["frames_processed"] > 0
    # fps leaves the first (warm-up) frame out: on a loaded machine, real time may allow only that one
    assert doc["fps"] > 0 or doc["frames_processed"] == 1


def test_missing_model_exits_2_naming_it(video, tmp_path, capsys):
    status = main(["watch", "--no-window", "--rules", RULES, "--round", "1", "--source", str(video), "--model", str(tmp_path / "none.pt")])
    err = capsys.readouterr().err
    assert status == 2
    assert "none.pt" in err and "Traceback" not in err


def test_window_loop_keys_with_a_stand_in_window(video, shots, fake_detector, tmp_path, monkeypatch, capsys):
    """The window front end: frames shown, space snapshots, l switches, q quits and prints the round."""
    shown = []
    keys = {24: ord(" "), 40: ord("l"), 70: ord(" "), 72: ord("q")}
    calls = {"n": 0}

    def wait_key(delay: int) -> int:
        calls["n"] += 1
        return keys.get(calls["n"], -1)

    monkeypatch.setattr(cv2, "namedWindow", lambda *a, **k: None)
    monkeypatch.setattr(cv2, "imshow", lambda name, img: shown.append(img.shape))
    monkeypatch.setattr(cv2, "waitKey", wait_key)
    monkeypatch.setattr(cv2, "getWindowProperty", lambda *a: 1.0)
    monkeypatch.setattr(cv2, "destroyAllWindows", lambda: None)
    monkeypatch.setenv("DISPLAY", ":99")
    monkeypatch.setattr("sys.platform", "linux")
    # a window plays files in real time; run as fast as the detector instead
    monkeypatch.setattr(watch_cmd, "open_source_for", lambda source, realtime: open_source(source, realtime=False))
    status = main(["watch", "--rules", RULES, "--round", "1", "--source", str(video), "--out", str(tmp_path), "--stable-seconds", str(STABLE_S)])
    out = capsys.readouterr().out
    assert status == 0
    assert len(shown) == 72  # one frame per key poll until q
    assert sorted(p.name for p in tmp_path.glob("*.jpg")) == ["001-table.jpg", "002-leftover-p1.jpg"]
    table = json.loads((tmp_path / "001-table.json").read_text())
    left = json.loads((tmp_path / "002-leftover-p1.json").read_text())
    assert table["snapshot"]["total"] == shots[0]["total"]
    assert left["snapshot"]["total"] < 0
    expected = shots[0]["total"] + left["snapshot"]["total"]
    assert f"side {expected}" in out


def test_live_frames_are_read_once_at_the_chosen_size_never_enlarged(monkeypatch):
    import vision.detector

    seen = []
    monkeypatch.setattr(vision.detector, "load_detector", lambda model, config: seen.append(config) or "detector")
    assert watch_cmd.load_detector(None, 480) == "detector"
    config = seen[0]
    assert config.max_side == config.single_pass == 480
    small = [Detection("7", 0.9, (0, 0, 12, 18))] * 5  # indices a photo would read again enlarged
    assert vision.detector.zoom_for(small, config) == 1.0
    assert vision.detector.zoom_for(small, vision.detector.InferenceConfig()) > 1.0


MARKS = column(["7"] * 4, 150, 120) + column(["K"] * 3, 330, 120)  # indices 9 x 20 px, a live frame's size


def _marks_video(path: Path, sigma: float) -> Path:
    """A still video of index-like marks filling MARKS' boxes, blurred by `sigma` px (0: sharp)."""
    image = index_photo(MARKS, CANVAS, CANVAS, sigma)
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), FPS, (CANVAS, CANVAS))
    for _ in range(SHOT_FRAMES):
        writer.write(image)
    writer.release()
    return path


class MarksDetector:
    """Finds MARKS on every frame, sharp or not (so only the blur differs)."""

    def detect(self, image: np.ndarray) -> list[Detection]:
        return list(MARKS)


@pytest.fixture
def marks_detector(monkeypatch):
    monkeypatch.setattr(watch_cmd, "load_detector", lambda model, imgsz: MarksDetector())


def test_a_blurred_view_is_flagged_and_its_snapshot_warned(marks_detector, tmp_path, capsys, monkeypatch):
    import vision.pipe as pipe

    # The marks are no real index: what a reader would rename them to is beside the point here.
    monkeypatch.setattr(pipe, "shipped_reader", lambda kind: None)
    args = ("--out", str(tmp_path / "o"), "--stable-seconds", str(STABLE_S))
    status, sharp = _watch_json(capsys, "--source", str(_marks_video(tmp_path / "sharp.avi", 0.0)), *args)
    assert status == 0 and not sharp["snapshots"][0]["blurred"] and sharp["snapshots"][0]["blur"] < BLURRED / 2
    assert not any("looks blurred" in f["message"] for f in sharp["final"]["sides"][0]["findings"])

    soft = _marks_video(tmp_path / "soft.avi", 1.5)
    status, doc = _watch_json(capsys, "--source", str(soft), *args)
    assert status == 0  # still read and scored: a warning, not a refusal
    (snap,) = doc["snapshots"]
    assert snap["blurred"] and snap["blur"] >= BLURRED and snap["cards"] == sharp["snapshots"][0]["cards"]
    warned = [f["message"] for f in doc["final"]["sides"][0]["findings"] if "looks blurred" in f["message"]]
    assert len(warned) == 1 and "photograph it again" in warned[0]
    saved = json.loads(Path(snap["json"]).read_text())
    assert saved["view"]["photos"][0]["blur"] == snap["blur"]

    status = main(
        [
            "watch",
            "--no-window",
            "--rules",
            RULES,
            "--round",
            "1",
            "--source",
            str(soft),
            "--out",
            str(tmp_path / "t"),
            "--stable-seconds",
            str(STABLE_S),
        ]
    )
    assert status == 0 and "snapshot 1: table" in (out := capsys.readouterr().out) and "(looks blurred" in out


def test_the_status_line_says_blurred_while_the_frame_is():
    cfg = WatchConfig(rules=load_rules(RULES), rules_name=RULES, round_no=1, stable_seconds=0.5)
    session = WatchSession(cfg, MarksDetector().detect, "test")
    sharp, soft = index_photo(MARKS, CANVAS, CANVAS), index_photo(MARKS, CANVAS, CANVAS, 1.5)
    session.process(Frame(sharp, 0, 0.0))
    assert "BLURRED" not in session.status_lines()[0]
    session.process(Frame(soft, 1, 0.1))  # the camera moved: the same cards, so the view is not scored again
    assert "BLURRED" in session.status_lines()[0] and "hold the camera still" in session.status_lines()[0]
    session.process(Frame(sharp, 2, 0.2))
    assert "BLURRED" not in session.status_lines()[0]
