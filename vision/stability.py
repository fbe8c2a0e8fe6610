"""Steady card views from flickering per-frame detections (webcam mode).

A detector run on every frame of a still table does not return the same list
each time: a corner is missed in one frame, a stray box appears in another,
boxes jitter by a pixel or two and a 6 may read as a 9 now and then. Scoring
each frame on its own would make the total jump around. This module tracks
corner detections over frames and reports a *confirmed* set that changes only
when the table does:

- each detection is matched to a track of the previous frames by centre
  distance in units of the index size (greedy, best fit first; a class
  mismatch costs a little, so a track follows a corner whose read flickers);
- a track is confirmed once it was seen in `confirm_hits` of the last
  `window` frames, and dropped only when it was seen in at most `drop_hits`
  of them (hysteresis: a missed frame or two changes nothing, a one-frame
  stray box is never confirmed);
- a track's class is voted over its last `class_window` reads (misses not
  counted) and switches only when another class holds a strict majority of
  them, so a corner misread now and then keeps its class;
- the view's `signature` (confirmed tracks and their classes) changes only
  when a card appears, leaves or is re-read; `version` counts those changes
  and `stable_for` is the time since the last one, so a caller recomputes
  the layout and score only on a new version and calls the view stable once
  `stable_for` reaches its threshold.

Everything here is pure bookkeeping on `Detection`s: no images, no model.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field

import numpy as np

from vision.detection import Box, Detection


@dataclass(frozen=True)
class StabilityConfig:
    """How detections are tracked and voted over frames."""

    window: int = 7  # frames of history each track keeps
    confirm_hits: int = 4  # seen in this many of the last `window` frames: confirmed
    drop_hits: int = 1  # seen in at most this many: a confirmed track is dropped
    max_distance: float = 0.5  # match gate: centre distance / index size
    max_size_ratio: float = 1.6  # larger index size / smaller one
    class_penalty: float = 0.25  # added match cost when the classes differ
    smoothing: float = 0.5  # weight of a new box in the track's running box
    class_window: int = 15  # last reads (misses not counted) the class is voted over

    def __post_init__(self) -> None:
        if self.window < 1:
            raise ValueError("window must be at least 1 frame")
        if not 1 <= self.confirm_hits <= self.window:
            raise ValueError("confirm_hits must be between 1 and window")
        if not 0 <= self.drop_hits < self.confirm_hits:
            raise ValueError("drop_hits must be below confirm_hits")


@dataclass
class Track:
    """One corner index followed over frames."""

    id: int
    box: Box
    size: float
    reads: deque = field(default_factory=deque)  # class read per frame, None when missed
    classes: deque = field(default_factory=deque)  # the last class reads, misses left out
    cls: str = ""
    conf: float = 0.0
    confirmed: bool = False

    @property
    def hits(self) -> int:
        """Frames of the window in which the track was seen."""
        return sum(1 for r in self.reads if r is not None)

    @property
    def center(self) -> tuple[float, float]:
        x1, y1, x2, y2 = self.box
        return ((x1 + x2) / 2.0, (y1 + y2) / 2.0)

    def detection(self) -> Detection:
        """The track as a detection: voted class, running box, last confidence."""
        return Detection(self.cls, self.conf, self.box)


@dataclass(frozen=True)
class StableView:
    """What the tracker reports after one frame."""

    frame: int  # how many frames the tracker has seen, counting this one
    time: float  # the frame's time in seconds
    detections: tuple[Detection, ...]  # confirmed corners: voted class, smoothed box
    signature: tuple[tuple[int, str], ...]  # (track id, class) of the confirmed tracks
    version: int  # increments each time the signature changes
    changed: bool  # the signature changed on this frame
    since: float  # time of the last signature change
    pending: int  # tracks seen lately but not (or no longer) confirmed

    @property
    def stable_for(self) -> float:
        """Seconds since the confirmed set last changed."""
        return max(0.0, self.time - self.since)

    def is_stable(self, seconds: float) -> bool:
        """True once the confirmed set has held for `seconds`."""
        return self.stable_for >= seconds

    def class_counts(self) -> dict[str, int]:
        """Confirmed corners per class (corners, not cards)."""
        return dict(Counter(d.cls for d in self.detections))


def _center(box: Box) -> tuple[float, float]:
    return ((box[0] + box[2]) / 2.0, (box[1] + box[3]) / 2.0)


def _size(box: Box) -> float:
    return max(box[2] - box[0], box[3] - box[1], 1e-6)


def match(tracks: list[Track], detections: list[Detection], cfg: StabilityConfig) -> list[tuple[int, int]]:
    """Greedy best-first matching: (track index, detection index) pairs within the gate."""
    if not tracks or not detections:
        return []
    t_box = np.array([tr.box for tr in tracks], dtype=float)
    d_box = np.array([d.box for d in detections], dtype=float)
    t_c = (t_box[:, :2] + t_box[:, 2:]) / 2.0
    d_c = (d_box[:, :2] + d_box[:, 2:]) / 2.0
    t_s = np.array([tr.size for tr in tracks], dtype=float)
    d_s = np.maximum(np.maximum(d_box[:, 2] - d_box[:, 0], d_box[:, 3] - d_box[:, 1]), 1e-6)
    dist = np.hypot(t_c[:, None, 0] - d_c[None, :, 0], t_c[:, None, 1] - d_c[None, :, 1])
    mean_size = (t_s[:, None] + d_s[None, :]) / 2.0
    norm = dist / mean_size
    ratio = np.maximum(t_s[:, None], d_s[None, :]) / np.minimum(t_s[:, None], d_s[None, :])
    ok = (norm <= cfg.max_distance) & (ratio <= cfg.max_size_ratio)
    ti_all, di_all = np.nonzero(ok)
    pairs = []
    for ti, di in zip(ti_all.tolist(), di_all.tolist()):
        cost = float(norm[ti, di]) + (cfg.class_penalty if detections[di].cls != tracks[ti].cls else 0.0)
        pairs.append((cost, ti, di))
    pairs.sort()
    used_t: set[int] = set()
    used_d: set[int] = set()
    out: list[tuple[int, int]] = []
    for _, ti, di in pairs:
        if ti in used_t or di in used_d:
            continue
        used_t.add(ti)
        used_d.add(di)
        out.append((ti, di))
    return out


def vote(reads, current: str) -> str:
    """A track's class after these reads: the current one unless another holds a strict majority.

    `None` reads (missed frames) do not vote.
    """
    counts = Counter(r for r in reads if r is not None)
    total = sum(counts.values())
    if not counts:
        return current
    best, n = counts.most_common(1)[0]
    if best != current and (not current or 2 * n > total):
        return best
    return current


def _blend(old: Box, new: Box, weight: float) -> Box:
    return tuple(o + weight * (n - o) for o, n in zip(old, new))  # type: ignore[return-value]


class CardTracker:
    """Feeds per-frame detections in, gets a steady confirmed view out.

    Deterministic: the same detection sequence always gives the same views.
    """

    def __init__(self, config: StabilityConfig | None = None) -> None:
        self.config = config or StabilityConfig()
        self.tracks: list[Track] = []
        self._next_id = 0
        self._frames = 0
        self._version = 0
        self._signature: tuple[tuple[int, str], ...] = ()
        self._since: float | None = None

    def reset(self) -> None:
        """Forget every track (e.g. after the camera was moved)."""
        self.__init__(self.config)

    def update(self, detections: list[Detection], time: float) -> StableView:
        """Add one frame's detections (taken at `time` seconds) and report the view."""
        cfg = self.config
        self._frames += 1
        if self._since is None:
            self._since = time
        dets = list(detections)
        matched = match(self.tracks, dets, cfg)
        seen_t = {ti for ti, _ in matched}
        seen_d = {di for _, di in matched}
        for ti, di in matched:
            tr, det = self.tracks[ti], dets[di]
            tr.reads.append(det.cls)
            tr.classes.append(det.cls)
            tr.box = _blend(tr.box, det.box, cfg.smoothing)
            tr.size = _size(tr.box)
            tr.conf = det.conf
        for ti, tr in enumerate(self.tracks):
            if ti not in seen_t:
                tr.reads.append(None)
        for di, det in enumerate(dets):
            if di not in seen_d:
                tr = Track(id=self._next_id, box=det.box, size=_size(det.box), cls=det.cls, conf=det.conf)
                tr.reads.append(det.cls)
                tr.classes.append(det.cls)
                self._next_id += 1
                self.tracks.append(tr)
        kept: list[Track] = []
        for tr in self.tracks:
            while len(tr.reads) > cfg.window:
                tr.reads.popleft()
            while len(tr.classes) > cfg.class_window:
                tr.classes.popleft()
            tr.cls = vote(tr.classes, tr.cls)
            hits = tr.hits
            if not tr.confirmed and hits >= cfg.confirm_hits:
                tr.confirmed = True
            elif tr.confirmed and hits <= cfg.drop_hits:
                tr.confirmed = False
            if hits == 0 or (not tr.confirmed and hits <= cfg.drop_hits and len(tr.reads) >= cfg.window):
                continue  # gone: no read left in the window, or a stray that never confirmed
            kept.append(tr)
        self.tracks = kept
        confirmed = [tr for tr in self.tracks if tr.confirmed]
        signature = tuple(sorted((tr.id, tr.cls) for tr in confirmed))
        changed = signature != self._signature
        if changed:
            self._signature = signature
            self._version += 1
            self._since = time
        return StableView(
            frame=self._frames,
            time=time,
            detections=tuple(tr.detection() for tr in sorted(confirmed, key=lambda t: t.id)),
            signature=signature,
            version=self._version,
            changed=changed,
            since=self._since,
            pending=sum(1 for tr in self.tracks if not tr.confirmed and tr.hits >= 2),
        )
