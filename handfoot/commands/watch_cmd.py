"""`handfoot watch`: live scoring from a webcam, a network stream or a video file."""

from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path

import typer
from rich.console import Console

from handfoot import live
from handfoot.errors import UserError
from handfoot.report import print_breakdown
from handfoot.rules_files import load_rules
from vision.errors import ModelError, VisionError
from vision.offline import THREADS_ENV
from vision.pipe import LEFTOVER, TABLE

#: Exit status when the round's cards break the rules (as `score-round`).
EXIT_RULE_ERROR = 3
#: Exit status when no view was captured, so nothing was scored.
EXIT_NOTHING = 1


def load_detector(model: Path | None, imgsz: int):
    """The card detector, run at `imgsz` pixels in one pass, never enlarged nor read turned: live frames must keep pace (looked up here so tests can swap it)."""
    from vision.detector import InferenceConfig  # noqa: PLC0415
    from vision.detector import load_detector as _load  # noqa: PLC0415

    return _load(model, InferenceConfig(max_side=imgsz, single_pass=imgsz, index_target=None).once())


def open_source_for(source: str, realtime: bool):
    """Open --source (looked up here so tests can swap it); a source that cannot be opened is a UserError."""
    from vision.video import SourceError, open_source  # noqa: PLC0415

    try:
        return open_source(source, realtime=realtime)
    except SourceError as exc:
        raise UserError(str(exc)) from exc


def set_threads(count: int) -> None:
    """Limit the detector's CPU threads (torch intra-op threads); set before loading the detector, so that it
    reads through PyTorch, which keeps to the limit (vision/fast_backend.py)."""
    import torch  # noqa: PLC0415
    import ultralytics.utils.torch_utils as torch_utils  # noqa: PLC0415

    os.environ[THREADS_ENV] = str(count)
    torch_utils.NUM_THREADS = count  # ultralytics resets torch to this when its predictor starts
    torch.set_num_threads(count)


def default_out_dir() -> Path:
    """handfoot-watch-YYYYmmdd-HHMMSS in the current folder."""
    return Path(f"handfoot-watch-{datetime.now().strftime('%Y%m%d-%H%M%S')}")


def register(app: typer.Typer) -> None:
    """Add the `watch` command to the app."""

    @app.command("watch")
    def watch_cmd(
        rules: str = typer.Option(..., "--rules", help="Rule preset name (see `handfoot rules list`) or rules file."),
        round_no: int = typer.Option(..., "--round", min=1, help="Round number (1-based): sets the opening and going-out rules."),
        source: str = typer.Option("0", "--source", help="Camera number (0, 1, ...), stream URL (rtsp://, http://) or video file."),
        side: str = typer.Option("side", "--side", help="Name of the side (player or team) being scored."),
        out: Path | None = typer.Option(None, "--out", help="Folder for snapshots (frame JPEG + result JSON); default handfoot-watch-<date-time>."),
        model: Path | None = typer.Option(None, "--model", help="Detector weights (default models/cards.pt)."),
        mode: str = typer.Option(TABLE, "--mode", help="What a snapshot is taken as at the start: table or leftover (t/l keys switch)."),
        no_window: bool = typer.Option(False, "--no-window", help="No window: snapshot each stable view and print it (for scripts and tests)."),
        stable_seconds: float = typer.Option(
            1.5, "--stable-seconds", min=0.0, help="How long the view must hold before it counts as stable (video time for files)."
        ),
        imgsz: int = typer.Option(640, "--imgsz", min=160, max=4096, help="Frames are scaled to at most this many pixels on the long side."),
        once: bool = typer.Option(False, "--once", help="With --no-window: stop after the first stable snapshot."),
        realtime: bool = typer.Option(
            False, "--realtime", help="Play a video file at its own speed, skipping frames to keep up (always on in a window)."
        ),
        as_json: bool = typer.Option(False, "--json", help="Print snapshots, fps and the final result as JSON on stdout."),
        threads: int = typer.Option(
            0, "--threads", min=0, max=64, help="CPU threads for the detector (0: every core; 1 is often faster on a busy machine)."
        ),
    ) -> int:
        """Score the table live from a camera over it, or from a video.

        In a window: cards are boxed and melds outlined with the running total;
        space snapshots the view as the side's table (or leftover), t / l switch
        between table and leftover, n starts the next player's leftover, q quits
        and prints the round. With --no-window each view that has held still for
        --stable-seconds is snapshotted and printed, and the round is printed at
        the end of the video (or on Ctrl-C).

        Exit status: 0 scored, 1 nothing captured, 2 bad input (a source that
        cannot be opened, unknown rules, missing model), 3 the cards break the rules.
        """
        if mode not in (TABLE, LEFTOVER):
            raise UserError(f"--mode {mode!r}: use table or leftover")
        if not no_window and not live.display_available():
            raise UserError("no display to open a window on (DISPLAY is not set): run with --no-window")
        rules_obj = load_rules(rules)
        if round_no > rules_obj.rounds:
            raise UserError(f"--round {round_no}: {rules_obj.name} has {rules_obj.rounds} rounds")
        console = Console(stderr=as_json)
        src = open_source_for(source, realtime or not no_window)
        with src:
            if threads:
                set_threads(threads)
            try:
                detector = load_detector(model, imgsz)
            except ModelError as exc:
                raise UserError(str(exc)) from exc
            config = live.WatchConfig(
                rules=rules_obj,
                rules_name=rules,
                round_no=round_no,
                side=side,
                mode=mode,
                stable_seconds=stable_seconds,
                imgsz=imgsz,
                out_dir=out if out is not None else default_out_dir(),
                once=once,
            )
            session = live.WatchSession(config, detector.detect, src.spec.describe())
            console.print(f"watching {src.spec.describe()} (snapshots go to {config.out_dir})", highlight=False)
            try:
                if no_window:
                    live.run_headless(session, src, console)
                else:
                    live.run_window(session, src, console)
            except VisionError as exc:
                raise UserError(str(exc)) from exc
            if src.ended:
                console.print(src.ended, highlight=False)
        summary = session.summary(src)
        console.print(
            f"{session.frames_processed} frames scored at {summary['fps']:.1f} fps ({summary['frames_skipped']} skipped to stay live)",
            highlight=False,
        )
        final = session.final_round()
        if as_json:
            typer.echo(json.dumps(summary, indent=2))
        elif final is not None:
            print_breakdown(console, final.result)
        if final is None:
            console.print("no cards were captured: nothing to score")
            raise typer.Exit(EXIT_NOTHING)
        if final.result.has_error:
            raise typer.Exit(EXIT_RULE_ERROR)
        return 0
