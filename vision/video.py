"""Frames from a webcam, a network stream or a video file, for live scoring.

`open_source("0" | "rtsp://..." | "game.mp4")` gives an iterator of `Frame`s:

- a camera index or a URL is *live*: a background thread reads the device as
  fast as it delivers and keeps only the newest frame, so a slow detector
  always works on the current view; frames it never saw count as skipped.
  Frame times are seconds since the source was opened.
- a file is read in order with its own clock (frame number / file fps), so
  "stable for 2 seconds" means 2 seconds of video however fast we process.
  With `realtime=True` it is paced like a live source: frames whose video
  time has already passed on the wall clock are skipped.

A source that cannot be opened raises `SourceError` naming it; a live stream
that stops delivering ends the iteration and says why in `ended`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.errors import VisionError

LIVE_READ_TIMEOUT_S = 5.0  # a live source that delivers nothing this long has ended
DEFAULT_FPS = 25.0  # assumed when a file does not say its frame rate


class SourceError(VisionError):
    """A camera, stream or video file that cannot be opened or read."""


@dataclass(frozen=True)
class SourceSpec:
    """What --source names: a camera index, a stream URL or a video file."""

    kind: str  # "camera" | "url" | "file"
    value: int | str

    @property
    def live(self) -> bool:
        """Cameras and streams run on the wall clock; files on their own."""
        return self.kind != "file"

    def describe(self) -> str:
        """The source in words, for messages."""
        if self.kind == "camera":
            return f"camera {self.value}"
        if self.kind == "url":
            return f"stream {self.value}"
        return f"video file {self.value}"


@dataclass(frozen=True)
class Frame:
    """One frame handed to the detector."""

    image: np.ndarray  # BGR uint8
    index: int  # the frame's number in the source, counting skipped frames (0-based)
    time: float  # seconds: video time for files, since opening for live sources


def parse_source(text: str | int) -> SourceSpec:
    """Read a --source value: a small integer is a camera, `scheme://...` a URL, else a file."""
    raw = str(text).strip()
    if not raw:
        raise SourceError("empty --source: give a camera number (0), a stream URL or a video file")
    if raw.isdigit():
        return SourceSpec("camera", int(raw))
    if "://" in raw:
        return SourceSpec("url", raw)
    return SourceSpec("file", raw)


def _quiet_opencv():
    import cv2  # noqa: PLC0415

    try:
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)
    except AttributeError:  # an OpenCV build without the logging utils
        pass
    return cv2


class VideoSource:
    """An opened source: iterate it for frames; close it (or use `with`) when done."""

    def __init__(self, spec: SourceSpec, capture, *, realtime: bool = False) -> None:
        self.spec = spec
        self._cap = capture
        self.realtime = realtime
        fps = float(capture.get(5) or 0.0)  # cv2.CAP_PROP_FPS
        self.fps = fps if 0.5 <= fps <= 240.0 else (DEFAULT_FPS if spec.kind == "file" else 0.0)
        self.frames_read = 0  # frames decoded or grabbed from the source
        self.frames_given = 0  # frames handed out
        self.ended = ""  # why iteration stopped, in words ("" while running)
        self._lock = threading.Condition()
        self._latest: tuple[int, float, np.ndarray] | None = None
        self._stop = False
        self._thread: threading.Thread | None = None
        self._t0 = time.monotonic()
        if spec.live:
            self._thread = threading.Thread(target=self._reader, name="handfoot-video", daemon=True)
            self._thread.start()

    @property
    def frames_skipped(self) -> int:
        """Frames the source delivered that were never handed out (to stay live)."""
        return max(0, self.frames_read - self.frames_given)

    # live sources: a reader thread keeps only the newest frame
    def _reader(self) -> None:
        last_ok = time.monotonic()
        while not self._stop:
            ok, image = self._cap.read()
            now = time.monotonic()
            if ok and image is not None and image.size:
                last_ok = now
                with self._lock:
                    self._latest = (self.frames_read, now - self._t0, image)
                    self.frames_read += 1
                    self._lock.notify_all()
                continue
            if self.spec.kind == "url" or now - last_ok > LIVE_READ_TIMEOUT_S:
                with self._lock:
                    self.ended = (
                        f"{self.spec.describe()} ended (no frame for {LIVE_READ_TIMEOUT_S:.0f} s)"
                        if self.spec.kind == "camera"
                        else f"{self.spec.describe()} ended"
                    )
                    self._lock.notify_all()
                return
            time.sleep(0.01)

    def _next_live(self) -> Frame | None:
        with self._lock:
            while not self._stop:
                if self._latest is not None:
                    index, t, image = self._latest
                    self._latest = None
                    self.frames_given += 1
                    return Frame(image, index, t)
                if self.ended:
                    return None
                self._lock.wait(timeout=0.5)
        return None

    # files: in order, on the file's own clock
    def _next_file(self) -> Frame | None:
        cap = self._cap
        if self.realtime and self.frames_given:
            target = time.monotonic() - self._t0
            while (self.frames_read + 1) / self.fps <= target:
                if not cap.grab():
                    self.ended = f"{self.spec.describe()}: end of video after {self.frames_read} frames"
                    return None
                self.frames_read += 1
        ok, image = cap.read()
        if not ok or image is None or not image.size:
            self.ended = f"{self.spec.describe()}: end of video after {self.frames_read} frames"
            return None
        index = self.frames_read
        self.frames_read += 1
        self.frames_given += 1
        if self.realtime and self.frames_given == 1:
            self._t0 = time.monotonic()
        return Frame(image, index, index / self.fps)

    def __iter__(self) -> Iterator[Frame]:
        while True:
            frame = self._next_live() if self.spec.live else self._next_file()
            if frame is None:
                return
            yield frame

    def close(self) -> None:
        """Stop the reader and release the device or file."""
        self._stop = True
        with self._lock:
            self._lock.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
            if self._thread.is_alive():
                return  # stuck in a read: releasing under it is unsafe; the daemon thread ends with us
        self._cap.release()

    def __enter__(self) -> VideoSource:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def open_source(source: str | int | SourceSpec, *, realtime: bool = False, timeout_s: float = 10.0) -> VideoSource:
    """Open a camera index, stream URL or video file; raises SourceError naming it when that fails."""
    spec = source if isinstance(source, SourceSpec) else parse_source(source)
    cv2 = _quiet_opencv()
    if spec.kind == "file":
        path = Path(str(spec.value))
        if not path.exists():
            raise SourceError(f"video file not found: {path}")
        if path.is_dir():
            raise SourceError(f"video source is a folder, not a video file: {path}")
        cap = cv2.VideoCapture(str(path))
        if not cap.isOpened():
            cap.release()
            raise SourceError(f"cannot open video file {path} (not a video OpenCV can decode)")
    elif spec.kind == "url":
        ms = int(timeout_s * 1000)
        params = [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, ms, cv2.CAP_PROP_READ_TIMEOUT_MSEC, ms]
        cap = cv2.VideoCapture(str(spec.value), cv2.CAP_FFMPEG, params)
        if not cap.isOpened():
            cap.release()
            raise SourceError(f"cannot open stream {spec.value} (check the address and that the camera app is serving)")
    else:
        cap = cv2.VideoCapture(int(spec.value))
        if not cap.isOpened():
            cap.release()
            raise SourceError(f"cannot open camera {spec.value} (no such camera, or it is in use; try another number with --source)")
    return VideoSource(spec, cap, realtime=realtime)
