"""Live scoring from a camera or video: the `handfoot watch` loop.

Each frame is read by the reading pipe (`vision.pipe`) up to its named,
measured boxes, -> `vision.stability.CardTracker` (a steady set of corners)
and, only when that set changes, the rest of the same pipe (corners joined
into cards) -> table or leftover layout -> scoring, through
`handfoot.photo_round` exactly as a photo is scored. So the total on screen
changes only when the table does, and a frame costs one detector call plus a
little bookkeeping.

A *snapshot* keeps the current view as the side's table (or a player's
leftover): the frame as JPEG and the view's scored JSON are written under the
output folder at once, so nothing captured is lost if the camera dies. How
blurred each frame is (`vision/sharpness.py`, on the corners found in it) is
shown in the status line; a snapshot keeps its frame's figure, says so on its
line, and a blurred one carries the photo path's warning to check its cards
or take it again. The
round is the latest table snapshot plus the latest leftover snapshot of each
player, scored together.

Two front ends share `WatchSession`:
- `run_window`: an OpenCV window, cards boxed, melds and running total, and
  keys (space: snapshot, t/l: table/leftover, n: next player's leftover,
  q/Esc: quit);
- `run_headless`: no window; a snapshot is taken each time the view has been
  stable for `stable_seconds` (video time for files) and its cards differ
  from the previous snapshot's, for tests and scripts.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console

from handfoot.photo_round import (
    PhotoCards,
    PhotoRound,
    SideInput,
    annotate_photo,
    colourless_message,
    photo_round_to_dict,
    score_photo_round,
)
from handfoot.report import result_to_dict
from scoring.rules import Rules
from vision import pipe
from vision.detection import Detection
from vision.ink import has_colour
from vision.pipe import FRAME_LAST, JOIN_FIRST, LEFTOVER, READ_LAST, TABLE, DetectFn, Flow, Settings
from vision.sharpness import is_blurred
from vision.stability import CardTracker, StabilityConfig, StableView
from vision.video import Frame, VideoSource

WINDOW_TITLE = "handfoot watch"
KEYS_HELP = "space: snapshot  t: table  l: leftover  n: next player  q: quit"
#: Whether the frames have colour is looked at again after this many seconds of video (a camera's night mode).
COLOUR_CHECK_S = 1.0
#: A frame's blur is measured on at most this many of its corners, the surest (0.4-0.8 ms each on this CPU, timed beside other work).
BLUR_BOXES = 12


@dataclass(frozen=True)
class WatchConfig:
    """What one `watch` run scores and how patient it is."""

    rules: Rules
    rules_name: str
    round_no: int
    side: str = "side"
    mode: str = TABLE  # what a snapshot is taken as: table | leftover
    stable_seconds: float = 1.5
    imgsz: int = 640  # frames are scaled so their long side is at most this
    out_dir: Path | None = None
    once: bool = False  # headless: stop after the first snapshot
    stability: StabilityConfig = field(default_factory=StabilityConfig)


@dataclass
class ViewScore:
    """The confirmed view of one tracker version, scored on its own."""

    version: int
    mode: str
    player: int
    photo: PhotoCards
    round: PhotoRound

    @property
    def total(self) -> int:
        """Points of what is in view (the side's table, or one player's leftover)."""
        return self.round.result.sides[0].total

    @property
    def card_count(self) -> int:
        return len(self.photo.cards)

    @property
    def blurred(self) -> bool:
        """The frame's corners came out blurred (`vision.sharpness.is_blurred`)."""
        return is_blurred(self.photo.blur)

    @property
    def colourless(self) -> bool:
        """The frame is grey and holds cards its ink would name (`handfoot.photo_round.colourless_message`)."""
        return colourless_message(self.photo, self.round.rules.family) is not None

    def card_counts(self) -> dict[str, int]:
        """Cards per class, in class order of first appearance."""
        return dict(sorted(Counter(c.cls for c in self.photo.cards).items()))

    def content(self) -> tuple:
        """What the view holds for scoring, independent of card order and positions."""
        side = self.photo.side
        table = tuple(sorted(tuple(sorted(g)) for g in self.round.tables.get(side, ())))
        leftover = tuple(sorted(tuple(sorted(g)) for g in self.round.leftovers.get(side, ())))
        return (self.mode, self.player, table, leftover)

    def melds(self) -> list[dict[str, Any]]:
        """The view's groups as scored: rank, kind, cards, points."""
        side = self.round.result.sides[0]
        return [{"rank": m.rank, "kind": m.kind, "cards": len(m.cards), "points": m.points} for m in side.melds]


@dataclass
class Snapshot:
    """A view kept as the side's table or a player's leftover."""

    number: int
    time: float
    frame: int
    view: ViewScore
    stable: bool
    image_path: Path | None = None
    json_path: Path | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (the full scored view is in the snapshot's own JSON file)."""
        return {
            "number": self.number,
            "mode": self.view.mode,
            "player": self.view.player + 1,
            "time": round(self.time, 3),
            "frame": self.frame,
            "stable": self.stable,
            "cards": self.view.card_count,
            "card_counts": self.view.card_counts(),
            "total": self.view.total,
            "melds": self.view.melds(),
            "blur": None if self.view.photo.blur is None else round(self.view.photo.blur, 4),
            "blurred": self.view.blurred,
            "colour": self.view.photo.colour,
            "image": str(self.image_path) if self.image_path else None,
            "json": str(self.json_path) if self.json_path else None,
        }


@dataclass(frozen=True)
class Change:
    """The shown card count or total changed at this frame."""

    frame: int
    time: float
    cards: int
    total: int

    def to_dict(self) -> dict[str, Any]:
        return {"frame": self.frame, "time": round(self.time, 3), "cards": self.cards, "total": self.total}


class FpsMeter:
    """Frames per second over the whole run and over the last few frames."""

    def __init__(self, recent: int = 20) -> None:
        self.stamps: deque[float] = deque(maxlen=recent)
        self.first: float | None = None
        self.last: float | None = None
        self.count = 0

    def tick(self, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        self.stamps.append(now)
        if self.first is None:
            self.first = now
        self.last = now
        self.count += 1

    @property
    def overall(self) -> float:
        """Frames after the first per second (the first frame's model warm-up is left out)."""
        if self.count < 2 or self.last is None or self.first is None or self.last <= self.first:
            return 0.0
        return (self.count - 1) / (self.last - self.first)

    @property
    def recent(self) -> float:
        if len(self.stamps) < 2 or self.stamps[-1] <= self.stamps[0]:
            return 0.0
        return (len(self.stamps) - 1) / (self.stamps[-1] - self.stamps[0])


def fit_frame(image: np.ndarray, imgsz: int) -> np.ndarray:
    """The frame scaled down so its long side is at most `imgsz` (never up)."""
    h, w = image.shape[:2]
    scale = imgsz / max(h, w)
    if scale >= 1.0:
        return image
    import cv2  # noqa: PLC0415

    return cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)


def score_view(
    config: WatchConfig,
    detections: tuple[Detection, ...],
    width: int,
    height: int,
    mode: str,
    player: int,
    version: int,
    name: str = "live view",
    blur: float | None = None,
    image: np.ndarray | None = None,
    colour: bool | None = None,
) -> ViewScore:
    """Join the confirmed corners into cards (the reading pipe from JOIN_FIRST, as `handfoot score` joins them)
    and score them alone as a table or a leftover (`blur`: the frame's `vision.sharpness.photo_blur`, kept on
    the photo so a blurred one is warned of). Given the frame (`image`), a grey one is warned of where ink would
    name a card (`colour`: whether it has colour, when already known)."""
    flow = Flow(mode, image, (width, height), list(detections), blur=blur, colour=colour)
    pipe.run(flow, Settings(family=config.rules.family), start=JOIN_FIRST, stop=READ_LAST)
    photo = PhotoCards(Path(name), mode, config.side, width, height, flow.cards, blur=flow.blur, colour=flow.colour)
    side = SideInput(name=config.side)
    pr = score_photo_round(config.rules, config.rules_name, config.round_no, [side], [photo])
    return ViewScore(version, mode, player, photo, pr)


class WatchSession:
    """The state of one `watch` run: tracker, current scored view, snapshots, the round."""

    def __init__(self, config: WatchConfig, detect: DetectFn, source_name: str = "") -> None:
        self.config = config
        self.detect = detect
        self.source_name = source_name
        self.tracker = CardTracker(config.stability)
        self.mode = config.mode
        self.player = 0
        self.view: StableView | None = None
        self.score: ViewScore | None = None
        self.image: np.ndarray | None = None  # the last frame, as detected on
        self.blur: float | None = None  # its `vision.sharpness.photo_blur`, on the corners found in it
        self._colour_seen: tuple[float, bool] | None = None  # (when, whether the frames had colour then)
        self.frame: Frame | None = None
        self.snapshots: list[Snapshot] = []
        self.changes: list[Change] = []
        self.fps = FpsMeter()
        self.frames_processed = 0
        self._last_auto_content: tuple | None = None
        self._out_ready = False

    # ------------------------------------------------------------ frames

    def process(self, frame: Frame) -> StableView:
        """Read one frame up to FRAME_LAST (the reading pipe), update the tracker, rescore when the confirmed set
        changed (or the frames turned grey or back: a grey view is warned of)."""
        image = fit_frame(frame.image, self.config.imgsz)
        settings = Settings(detect=self.detect, family=self.config.rules.family, blur_boxes=BLUR_BOXES)
        read = pipe.run(Flow.of(image, self.mode), settings, stop=FRAME_LAST)
        view = self.tracker.update(read.detections, frame.time)
        self.image, self.frame, self.view = image, frame, view
        self.blur = read.blur
        h, w = image.shape[:2]
        colour = self._colour(image, frame.time)
        if (
            self.score is None
            or view.version != self.score.version
            or self.score.mode != self.mode
            or self.score.player != self.player
            or self.score.photo.colour != colour
        ):
            self.score = score_view(self.config, view.detections, w, h, self.mode, self.player, view.version, image=image, colour=colour)
        self.frames_processed += 1
        self.fps.tick()
        shown = (self.score.card_count, self.score.total)
        if not self.changes or (self.changes[-1].cards, self.changes[-1].total) != shown:
            self.changes.append(Change(frame.index, frame.time, *shown))
        return view

    def _colour(self, image: np.ndarray, at: float) -> bool:
        """Whether the frames have colour (`vision.ink.has_colour`), looked at again every COLOUR_CHECK_S seconds
        (4 ms a 640 x 480 frame: a tenth of a reading, for what changes only when a camera's night mode does)."""
        if self._colour_seen is None or at - self._colour_seen[0] >= COLOUR_CHECK_S or at < self._colour_seen[0]:
            self._colour_seen = (at, has_colour(image))
        return self._colour_seen[1]

    @property
    def stable(self) -> bool:
        """The confirmed set has held for `stable_seconds`."""
        return self.view is not None and self.view.is_stable(self.config.stable_seconds)

    # ------------------------------------------------------------ snapshots

    def auto_snapshot_due(self) -> bool:
        """Headless rule: stable, holds cards, and differs from the last automatic snapshot."""
        if not self.stable or self.score is None or self.score.card_count == 0:
            return False
        return self.score.content() != self._last_auto_content

    def snapshot(self, auto: bool = False) -> Snapshot | None:
        """Keep the current view; writes the frame JPEG and result JSON when an output folder is set."""
        if self.score is None or self.frame is None or self.image is None:
            return None
        number = len(self.snapshots) + 1
        stem = f"{number:03d}-{self.mode}" + (f"-p{self.player + 1}" if self.mode == LEFTOVER else "")
        image_path = json_path = None
        name = f"{stem}.jpg"
        if self.config.out_dir is not None:
            out = Path(self.config.out_dir)
            out.mkdir(parents=True, exist_ok=True)
            image_path, json_path = out / f"{stem}.jpg", out / f"{stem}.json"
            name = str(image_path)
        h, w = self.image.shape[:2]
        view = score_view(
            self.config,
            self.view.detections if self.view else (),
            w,
            h,
            self.mode,
            self.player,
            self.score.version,
            name,
            blur=self.blur,
            image=self.image,
        )
        snap = Snapshot(number, self.frame.time, self.frame.index, view, self.stable, image_path, json_path)
        if image_path is not None and json_path is not None:
            _write_jpeg(image_path, self.image)
            doc = {
                "snapshot": snap.to_dict(),
                "source": self.source_name,
                "fps": round(self.fps.overall, 2),
                "view": photo_round_to_dict(view.round, result_to_dict(view.round.result)),
            }
            _write_json(json_path, doc)
        self.snapshots.append(snap)
        if auto:
            self._last_auto_content = self.score.content()
        return snap

    # ------------------------------------------------------------ keys

    def handle_key(self, key: int) -> str:
        """Apply one key press; returns the action: snapshot, table, leftover, next, quit or ''."""
        if key < 0:
            return ""
        ch = chr(key & 0xFF).lower() if (key & 0xFF) < 128 else ""
        if ch == " ":
            return "snapshot" if self.snapshot() is not None else ""
        if ch == "t":
            self.mode = TABLE
            return "table"
        if ch == "l":
            self.mode = LEFTOVER
            return "leftover"
        if ch == "n":
            self.mode = LEFTOVER
            if any(s.view.mode == LEFTOVER and s.view.player == self.player for s in self.snapshots):
                self.player += 1
            return "next"
        if ch == "q" or key & 0xFF == 27:
            return "quit"
        return ""

    # ------------------------------------------------------------ the round

    def round_photos(self) -> list[PhotoCards]:
        """The latest table snapshot and the latest leftover snapshot of each player."""
        table = [s for s in self.snapshots if s.view.mode == TABLE]
        photos = [table[-1].view.photo] if table else []
        players = sorted({s.view.player for s in self.snapshots if s.view.mode == LEFTOVER})
        for p in players:
            last = [s for s in self.snapshots if s.view.mode == LEFTOVER and s.view.player == p][-1]
            photos.append(last.view.photo)
        return photos

    def final_round(self) -> PhotoRound | None:
        """The round from the snapshots taken, or None when there is none."""
        photos = self.round_photos()
        if not photos:
            return None
        cfg = self.config
        return score_photo_round(cfg.rules, cfg.rules_name, cfg.round_no, [SideInput(name=cfg.side)], photos)

    def summary(self, source: VideoSource | None = None) -> dict[str, Any]:
        """Machine-readable run report: fps, frame counts, snapshots, changes, final result."""
        final = self.final_round()
        out: dict[str, Any] = {
            "source": self.source_name,
            "rules": self.config.rules_name,
            "round": self.config.round_no,
            "side": self.config.side,
            "imgsz": self.config.imgsz,
            "stable_seconds": self.config.stable_seconds,
            "fps": round(self.fps.overall, 2),
            "frames_processed": self.frames_processed,
            "frames_read": source.frames_read if source else self.frames_processed,
            "frames_skipped": source.frames_skipped if source else 0,
            "ended": source.ended if source else "",
            "snapshots": [s.to_dict() for s in self.snapshots],
            "changes": [c.to_dict() for c in self.changes],
            "final": result_to_dict(final.result) if final else None,
        }
        return out

    # ------------------------------------------------------------ drawing

    def status_lines(self) -> list[str]:
        """The overlay's status: mode, cards, total, stability, fps, keys."""
        s = self.score
        what = "table" if self.mode == TABLE else f"leftover (player {self.player + 1})"
        cards = s.card_count if s else 0
        total = s.total if s else 0
        if self.stable:
            state = "STABLE"
        else:
            held = self.view.stable_for if self.view else 0.0
            state = f"settling {held:.1f}/{self.config.stable_seconds:.1f} s"
        if is_blurred(self.blur):
            state += f", BLURRED {self.blur:.1%}: hold the camera still"
        if s is not None and s.colourless:
            state += ", NO COLOUR: cards told apart by their ink are guessed"
        return [
            f"{what}: {cards} cards, total {total:+d}   [{state}]",
            f"{self.fps.recent:.1f} fps   snapshots: {len(self.snapshots)}",
            KEYS_HELP,
        ]

    def render(self) -> np.ndarray | None:
        """The current frame with cards boxed, melds outlined, total and status written."""
        if self.image is None or self.score is None:
            return None
        out = annotate_photo(self.score.round, self.score.photo, self.image)
        _status_bar(out, self.status_lines(), stable=self.stable)
        return out


# ---------------------------------------------------------------- files


def _write_jpeg(path: Path, image: np.ndarray) -> None:
    from vision.annotate import save_image  # noqa: PLC0415

    save_image(path, image)


def _write_json(path: Path, doc: dict[str, Any]) -> None:
    tmp = path.with_suffix(path.suffix + ".part")
    tmp.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    os.replace(tmp, path)


def _status_bar(image: np.ndarray, lines: list[str], stable: bool) -> None:
    """Write the status lines in a dark band along the bottom of `image` (in place)."""
    import cv2  # noqa: PLC0415

    h, w = image.shape[:2]
    size = max(0.4, 0.5 * max(h, w) / 1000.0 * 1.2)
    thick = 1
    line_h = int(cv2.getTextSize("Ag", cv2.FONT_HERSHEY_SIMPLEX, size, thick)[0][1] * 1.9) + 2
    top = max(0, h - line_h * len(lines) - 4)
    band = image[top:h]
    band[:] = (band * 0.35).astype(image.dtype)
    colours = [(80, 220, 80) if stable else (0, 200, 255), (255, 255, 255), (200, 200, 200)]
    for i, text in enumerate(lines):
        y = top + line_h * (i + 1) - 4
        cv2.putText(image, text, (8, y), cv2.FONT_HERSHEY_SIMPLEX, size, colours[min(i, 2)], thick, cv2.LINE_AA)


# ---------------------------------------------------------------- front ends


def describe_snapshot(snap: Snapshot) -> str:
    """One line for the terminal: when, what, how many cards, the total, where it was saved."""
    v = snap.view
    what = "table" if v.mode == TABLE else f"leftover of player {v.player + 1}"
    melds = ", ".join(f"{m['rank']}s x{m['cards']} {m['kind']} {m['points']:+d}" for m in v.melds() if m["rank"])
    line = f"[{snap.time:7.2f} s] snapshot {snap.number}: {what}: {v.card_count} cards, total {v.total:+d}"
    if melds and v.mode == TABLE:
        line += f" ({melds})"
    if not snap.stable:
        line += " (view was not stable yet)"
    if v.blurred:
        line += f" (looks blurred: index edges {v.photo.blur:.1%} of an index wide; check its cards, or hold the camera still and take it again)"
    if v.colourless:
        line += " (no colour: the cards told apart by their ink were guessed; check them, or take it again in colour)"
    if snap.image_path:
        line += f" -> {snap.image_path}"
    return line


def run_headless(session: WatchSession, source: VideoSource, console: Console) -> None:
    """Read the source to its end (or Ctrl-C, or the first snapshot with `once`), snapshotting stable views."""
    try:
        for frame in source:
            session.process(frame)
            if session.auto_snapshot_due():
                snap = session.snapshot(auto=True)
                if snap is not None:
                    console.print(describe_snapshot(snap), highlight=False, soft_wrap=True)
                    if session.config.once:
                        break
    except KeyboardInterrupt:
        console.print("interrupted: scoring what was captured")


def display_available() -> bool:
    """Whether a window can be opened (Linux needs an X11 or Wayland display)."""
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def run_window(session: WatchSession, source: VideoSource, console: Console) -> None:
    """Show the annotated view in a window and act on keys until q, Esc, window close or source end."""
    import cv2  # noqa: PLC0415

    cv2.namedWindow(WINDOW_TITLE, cv2.WINDOW_NORMAL)
    last = None
    try:
        for frame in source:
            session.process(frame)
            last = session.render()
            if last is not None:
                cv2.imshow(WINDOW_TITLE, last)
            action = session.handle_key(cv2.waitKey(1))
            if action == "snapshot":
                console.print(describe_snapshot(session.snapshots[-1]), highlight=False, soft_wrap=True)
            elif action in ("table", "leftover", "next"):
                who = f" (player {session.player + 1})" if session.mode == LEFTOVER else ""
                console.print(f"snapshots are now taken as: {session.mode}{who}")
            elif action == "quit":
                return
            if cv2.getWindowProperty(WINDOW_TITLE, cv2.WND_PROP_VISIBLE) < 1:
                return
        console.print(f"{source.ended or 'source ended'}: press q in the window to finish")
        while last is not None and cv2.getWindowProperty(WINDOW_TITLE, cv2.WND_PROP_VISIBLE) >= 1:
            action = session.handle_key(cv2.waitKey(100))
            if action == "snapshot":
                console.print(describe_snapshot(session.snapshots[-1]), highlight=False, soft_wrap=True)
            elif action == "quit":
                return
    except KeyboardInterrupt:
        console.print("interrupted: scoring what was captured")
    finally:
        cv2.destroyAllWindows()
