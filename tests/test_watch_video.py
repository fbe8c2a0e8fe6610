"""Opening watch sources: camera numbers, URLs, files; file clock and real-time pacing."""

from __future__ import annotations

import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.video import SourceError, open_source, parse_source


def _video(path: Path, frames: int, fps: float = 10.0) -> Path:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (64, 48))
    for i in range(frames):
        img = np.full((48, 64, 3), (i * 9) % 256, np.uint8)
        writer.write(img)
    writer.release()
    return path


def test_parse_source_kinds():
    assert parse_source("0").kind == "camera" and parse_source("0").value == 0
    assert parse_source(2).value == 2
    assert parse_source("rtsp://cam.local/stream").kind == "url"
    assert parse_source("game.mp4").kind == "file"
    with pytest.raises(SourceError):
        parse_source("  ")


def test_file_frames_in_order_on_video_time(tmp_path):
    path = _video(tmp_path / "v.avi", 12)
    with open_source(str(path)) as src:
        frames = list(src)
        assert src.fps == pytest.approx(10.0)
        assert "end of video after 12 frames" in src.ended
    assert [f.index for f in frames] == list(range(12))
    assert [round(f.time, 3) for f in frames] == [round(i / 10, 3) for i in range(12)]
    assert frames[0].image.shape == (48, 64, 3)


def test_realtime_file_skips_frames_to_keep_up(tmp_path):
    path = _video(tmp_path / "v.avi", 60, fps=100.0)  # 0.6 s of video
    with open_source(str(path), realtime=True) as src:
        got = []
        for frame in src:
            got.append(frame.index)
            time.sleep(0.05)  # a slow detector: 20 frames per second
        assert src.frames_skipped > 20
    assert got == sorted(got) and len(got) < 30


def test_sources_that_cannot_be_opened_name_themselves(tmp_path):
    with pytest.raises(SourceError, match="video file not found"):
        open_source(str(tmp_path / "none.avi"))
    with pytest.raises(SourceError, match="folder"):
        open_source(str(tmp_path))
    with pytest.raises(SourceError, match="cannot open camera 9"):
        open_source("9")


class _FakeStream:
    """A capture that delivers `n` frames quickly, then reports the stream gone."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.sent = 0
        self.released = False

    def get(self, prop: int) -> float:
        return 30.0

    def read(self):
        if self.sent >= self.n:
            return False, None
        self.sent += 1
        time.sleep(0.002)
        return True, np.full((8, 8, 3), self.sent % 256, np.uint8)

    def release(self) -> None:
        self.released = True


def test_live_stream_hands_out_the_newest_frame_and_says_when_it_ended():
    from vision.video import SourceSpec, VideoSource

    cap = _FakeStream(200)
    src = VideoSource(SourceSpec("url", "http://cam/stream"), cap)
    got = []
    for frame in src:
        got.append(frame.index)
        time.sleep(0.02)  # slower than the stream: frames must be skipped, never queued
    src.close()
    assert got == sorted(set(got)) and len(got) < 100
    assert src.frames_skipped == 200 - len(got)
    assert src.ended == "stream http://cam/stream ended" and cap.released
