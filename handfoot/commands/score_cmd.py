"""`handfoot score`, `handfoot audit`, `handfoot rescore`: rounds scored from photos.

- `score TABLE.jpg [--leftover HAND.jpg ...] --rules NAME --round N` scores one
  side from its photos; `score ROUND.toml` a whole round from a round file
  whose sides may list `table_photos` and `leftover_photos` beside typed cards.
- `audit ROUND.toml --claimed "Ann=1450,Bob=675"` recomputes, explains each
  difference and lists the cards the detector was least sure of.
- `rescore RESULT.json` scores a saved (possibly hand-edited) result again,
  without the model.

Exit status: 0, 3 when an error finding exists, 2 for unusable input.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from itertools import combinations
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn
from rich.table import Table

from handfoot.errors import UserError
from handfoot.photo_round import (
    PhotoRound,
    SideInput,
    annotate_photo,
    inputs_from_dict,
    least_sure,
    parse_fix,
    photo_round_to_dict,
    read_side_photos,
    score_photo_round,
)
from handfoot.report import print_breakdown, result_to_dict
from handfoot.roundfile import load_round
from handfoot.rules_files import load_rules, preset_names
from scoring.rounds import ERROR, Line
from vision.errors import ModelError, VisionError
from vision.pipe import DetectFn

#: Exit status when the cards break the rules (an error finding).
EXIT_RULE_ERROR = 3
ROUND_SUFFIXES = (".toml", ".json")


@contextmanager
def vision_errors() -> Iterator[None]:
    """Turn a photo or model problem into a one-line user error (exit 2)."""
    try:
        yield
    except VisionError as exc:
        raise UserError(str(exc)) from exc


QUICK_HELP = (
    "Read each photo once, as it is, never again turned half and a quarter round nor at three quarters of its "
    "scale where its first reading is unsure: faster on photos with unsure boxes (most tables), and fewer totals "
    'come out exact (models/README.md, "Figures").'
)


def detector_factory(model: Path | None, quick: bool = False) -> Callable[[], DetectFn]:
    """A function that loads the detector when first needed (never for typed-only rounds); `quick`
    reads each photo once."""

    def make() -> DetectFn:
        from vision import detector  # noqa: PLC0415  (ultralytics only when photos are given)

        config = detector.InferenceConfig().once() if quick else None
        try:
            return detector.load_detector(model, config).read  # unsure boxes apart (vision/gaps.py)
        except ModelError as exc:
            raise UserError(str(exc)) from exc

    return make


def _progress_reader(sides: list[SideInput], model: Path | None, quiet: bool, family: str, quick: bool = False) -> list:
    """Read every side's photos of a deck `family` with a progress bar on stderr."""
    total = sum(len(s.table_photos) + len(s.leftover_photos) for s in sides)
    if total == 0:
        return []
    err = Console(stderr=True)
    with (
        vision_errors(),
        Progress(
            TextColumn("[progress.description]{task.description}"),
            BarColumn(),
            TextColumn("{task.completed}/{task.total} photos"),
            console=err,
            transient=True,
            disable=quiet or not err.is_terminal,
        ) as bar,
    ):
        task = bar.add_task("detecting cards", total=total)
        done = {"n": 0}

        def step(path: Path) -> None:
            if done["n"]:
                bar.advance(task)
            done["n"] += 1
            bar.update(task, description=f"detecting cards: {path.name}")

        photos = read_side_photos(sides, detector_factory(model, quick), step, family)
        bar.advance(task)
    return photos


def _rules_ref(name: str, relative_to: Path | None) -> str:
    """How a saved result names its rules: a preset name, or the rules file's absolute path."""
    if name in preset_names():
        return name
    path = Path(name).expanduser()
    if relative_to is not None and not path.is_absolute():
        path = relative_to / path
    return str(path.resolve())


def _check_round(rules_name: str, rounds: int, round_no: int) -> None:
    if not 1 <= round_no <= rounds:
        raise UserError(f"--round must be from 1 to {rounds} under {rules_name}, got {round_no}")


def _sides_from_round_file(path: Path) -> tuple[Any, str, list[SideInput]]:
    spec = load_round(path)
    sides = [
        SideInput(
            name=s.name,
            went_out=s.went_out,
            perfect_deal=s.perfect_deal,
            table=s.table,
            leftover=s.leftover,
            table_photos=list(s.table_photos),
            leftover_photos=list(s.leftover_photos),
            partners=s.partners,
        )
        for s in spec.sides
    ]
    return spec, _rules_ref(spec.rules_name, path.parent), sides


def _unique_name(folder: Path, stem: str, taken: set[str]) -> Path:
    name = f"{stem}.annotated.jpg"
    k = 2
    while name in taken:
        name = f"{stem}-{k}.annotated.jpg"
        k += 1
    taken.add(name)
    return folder / name


def write_outputs(pr: PhotoRound, data: dict[str, Any], out: Path, base: Path | None = None) -> list[Path]:
    """Write an annotated image per photo and result.json into `out`; return what was written.

    A photo that can no longer be read (rescore of a moved file) is skipped
    with a note on stderr; the JSON is always written.
    """
    from vision.annotate import save_image  # noqa: PLC0415
    from vision.imageio import load_image  # noqa: PLC0415

    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"cannot create output folder {out}: {exc.strerror or exc}") from exc
    written: list[Path] = []
    taken: set[str] = set()
    err = Console(stderr=True)
    for photo in pr.photos:
        path = _find_photo(photo.path, base)
        try:
            image = load_image(path)
        except VisionError as exc:
            err.print(f"[yellow]note:[/] no annotated image for {photo.path}: {exc}", highlight=False)
            continue
        target = _unique_name(out, photo.path.stem, taken)
        with vision_errors():
            save_image(target, annotate_photo(pr, photo, image))
        written.append(target)
    result_path = out / "result.json"
    result_path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    written.append(result_path)
    return written


def _find_photo(path: Path, base: Path | None) -> Path:
    if path.exists() or base is None or path.is_absolute():
        return path
    return base / path


def _print_photos(console: Console, pr: PhotoRound) -> None:
    for photo in pr.photos:
        places: dict[str, int] = {}
        for i in range(len(photo.cards)):
            key = photo.place.get(i, "")
            places[key] = places.get(key, 0) + 1
        parts = ", ".join(f"{n} {k}" for k, n in sorted(places.items()) if k)
        console.print(
            f"{photo.side}: {photo.role} photo {photo.path.name}: {len(photo.cards)} cards" + (f" ({parts})" if parts else ""),
            highlight=False,
        )
        for note in photo.notes:
            console.print(f"  note: {note}", highlight=False)


def emit(pr: PhotoRound, as_json: bool, out: Path | None, base: Path | None = None) -> int:
    """Print the result (JSON or tables), write --out files; return the exit status."""
    data = photo_round_to_dict(pr, result_to_dict(pr.result))
    written = write_outputs(pr, data, out, base) if out is not None else []
    if as_json:
        typer.echo(json.dumps(data, indent=2))
        if written:
            Console(stderr=True).print(f"wrote {len(written)} files to {out}", highlight=False)
    else:
        console = Console()
        _print_photos(console, pr)
        print_breakdown(console, pr.result)
        for path in written:
            console.print(f"wrote {path}", highlight=False)
    return EXIT_RULE_ERROR if pr.result.has_error else 0


def score_inputs(
    input_path: Path,
    *,
    leftover: list[Path],
    rules: str | None,
    round_no: int | None,
    went_out: bool,
    perfect_deal: bool,
    name: str,
    model: Path | None,
    fixes: list[str],
    quiet: bool = False,
    quick: bool = False,
) -> PhotoRound:
    """Everything `score` does before printing: read inputs, detect, lay out, score."""
    parsed = [parse_fix(f) for f in fixes]
    if input_path.suffix.lower() in ROUND_SUFFIXES:
        given = [
            opt
            for opt, val in (
                ("--leftover", leftover),
                ("--rules", rules),
                ("--round", round_no),
                ("--went-out", went_out),
                ("--perfect-deal", perfect_deal),
            )
            if val
        ]
        if given:
            raise UserError(f"{given[0]} is for a single table photo; the round file {input_path} gives it")
        spec, rules_ref, sides = _sides_from_round_file(input_path)
        rules_obj, round_value = spec.rules, spec.round
    else:
        if rules is None:
            raise UserError("give the rules: --rules NAME (presets: " + ", ".join(preset_names()) + ")")
        rules_obj = load_rules(rules)
        if round_no is None:
            raise UserError(f"give the round number: --round N (1 to {rules_obj.rounds} under {rules_obj.name})")
        _check_round(rules_obj.name, rules_obj.rounds, round_no)
        rules_ref, round_value = _rules_ref(rules, None), round_no
        if not name.strip():
            raise UserError("--name must not be empty")
        sides = [
            SideInput(
                name=name,
                went_out=went_out,
                perfect_deal=perfect_deal,
                table_photos=[input_path],
                leftover_photos=list(leftover),
                one_player=True,
            )
        ]
    photos = _progress_reader(sides, model, quiet, rules_obj.family, quick)
    return score_photo_round(rules_obj, rules_ref, round_value, sides, photos, parsed)


def parse_claims(text: str, sides: list[str]) -> dict[str, int]:
    """ "Ann=1450,Bob=675" -> {"Ann": 1450, "Bob": 675}; names must be sides of the round."""
    claims: dict[str, int] = {}
    for part in text.split(","):
        if not part.strip():
            continue
        if "=" not in part:
            raise UserError(f"--claimed: write NAME=POINTS pairs separated by commas, got {part.strip()!r}")
        who, _, pts = part.rpartition("=")
        who = who.strip()
        if who not in sides:
            raise UserError(f"--claimed: no side named {who!r} in the round (sides: {', '.join(sides)})")
        try:
            claims[who] = int(pts.strip())
        except ValueError as exc:
            raise UserError(f"--claimed: {who}'s points must be a whole number, got {pts.strip()!r}") from exc
    if not claims:
        raise UserError("--claimed: give at least one NAME=POINTS")
    return claims


def explaining_lines(lines: tuple[Line, ...], found: int, claimed: int, most: int = 3) -> list[list[Line]]:
    """Sets of up to `most` breakdown lines whose removal turns the found total into the claim.

    (Players who forgot a bonus claim less by that line; players who missed a
    penalty claim more by it.)
    """
    gap = found - claimed
    hits: list[list[Line]] = []
    for size in range(1, most + 1):
        for combo in combinations(lines, size):
            if sum(line.points for line in combo) == gap:
                hits.append(list(combo))
        if hits:
            break
    return hits[:5]


def audit_round(pr: PhotoRound, claims: dict[str, int], least: int) -> dict[str, Any]:
    """The audit as data: per side claimed, found, difference, explaining lines, errors;
    and the least sure cards."""
    sides = []
    for side in pr.result.sides:
        if side.name not in claims:
            continue
        claimed = claims[side.name]
        sides.append(
            {
                "name": side.name,
                "claimed": claimed,
                "found": side.total,
                "difference": claimed - side.total,
                "explained_by": [
                    [{"label": ln.label, "points": ln.points} for ln in combo]
                    for combo in (explaining_lines(side.lines, side.total, claimed) if claimed != side.total else [])
                ],
                "findings": [{"level": f.level, "message": f.message} for f in side.findings],
            }
        )
    unsure = [
        {
            "side": u.side,
            "photo": u.photo,
            "class": u.cls,
            "conf": round(u.conf, 3),
            "x": round(u.x),
            "y": round(u.y),
            "place": u.place,
            "meld": u.meld,
        }
        for u in least_sure(pr, least)
    ]
    return {"rules": pr.result.rules, "round": pr.result.round, "sides": sides, "least_sure": unsure}


def print_audit(console: Console, audit: dict[str, Any]) -> None:
    """The audit for people: a claimed/found table, what explains each gap, cards to check."""
    table = Table(title=f"Round {audit['round']} under {audit['rules']}: claimed vs found")
    for col in ("side", "claimed", "found", "difference"):
        table.add_column(col, justify="left" if col == "side" else "right")
    for s in audit["sides"]:
        diff = s["difference"]
        table.add_row(s["name"], str(s["claimed"]), str(s["found"]), "[green]0[/]" if diff == 0 else f"[red]{diff:+d}[/]")
    console.print(table)
    for s in audit["sides"]:
        if s["difference"] == 0:
            console.print(f"{s['name']}: the claim matches.", highlight=False)
            continue
        console.print(f"[bold]{s['name']}[/]: claimed {s['claimed']}, found {s['found']} ({s['difference']:+d}).", highlight=False)
        for combo in s["explained_by"]:
            what = " + ".join(f"{ln['label']} ({ln['points']:+d})" for ln in combo)
            console.print(f"  the claim leaves out: {what}", highlight=False)
        if not s["explained_by"]:
            console.print("  no set of breakdown lines accounts for the difference: check the cards below", highlight=False)
        for f in s["findings"]:
            if f["level"] == ERROR:
                console.print(f"  [red]error:[/] {f['message']}", highlight=False)
    if audit["least_sure"]:
        t = Table(title="Cards the detector was least sure of (check them on the table)")
        for col in ("side", "photo", "card", "confidence", "position (x, y)", "where"):
            t.add_column(col)
        for u in audit["least_sure"]:
            where = f"meld {u['meld']}" if u["meld"] else (u["place"] or "-")
            t.add_row(u["side"], Path(u["photo"]).name, u["class"], f"{u['conf']:.2f}", f"{u['x']}, {u['y']}", where)
        console.print(t)
    else:
        console.print("No photos in this round: nothing detected to check.")


def _load_result_json(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise UserError(f"result file not found: {path}") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"cannot read result file {path}: {exc}") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserError(f"result file {path} is not valid JSON: {exc}") from exc


def rescore_file(path: Path) -> tuple[PhotoRound, Path]:
    """Score a saved result.json again (cards as edited; no model)."""
    data = _load_result_json(path)
    rules_name, round_no, sides, photos = inputs_from_dict(data, str(path))
    rules = load_rules(rules_name, relative_to=path.parent)
    _check_round(rules.name, rules.rounds, round_no)
    return score_photo_round(rules, rules_name, round_no, sides, photos), path.parent


def _exit(status: int) -> int:
    if status:
        raise typer.Exit(status)
    return status


def register(app: typer.Typer) -> None:
    """Add `score`, `audit` and `rescore` to the app."""

    @app.command("score")
    def score_cmd(
        input_path: Path = typer.Argument(
            ...,
            metavar="TABLE_PHOTO|ROUND_FILE",
            help="One side's table photo (any image), or a round file (.toml/.json) for a whole round.",
        ),
        leftover: list[Path] = typer.Option([], "--leftover", help="Photo of cards left in hand and foot (repeatable; all count against the side)."),
        rules: str | None = typer.Option(None, "--rules", help="Rule preset name or rules .toml path."),
        round_no: int | None = typer.Option(None, "--round", help="Round number (1-based)."),
        went_out: bool = typer.Option(False, "--went-out", help="This side went out."),
        perfect_deal: bool = typer.Option(False, "--perfect-deal", help="Exactly 22 cards picked up."),
        name: str = typer.Option("Side", "--name", help="Name of the side in the output."),
        as_json: bool = typer.Option(False, "--json", help="Print the result as JSON, with every card found."),
        out: Path | None = typer.Option(None, "--out", help="Folder for annotated photos and result.json."),
        model: Path | None = typer.Option(None, "--model", help="Detector weights (default models/cards.pt)."),
        quick: bool = typer.Option(False, "--quick", help=QUICK_HELP),
        fix: list[str] = typer.Option(
            [],
            "--fix",
            help='Correct a card without re-photographing (repeatable): "8->9" changes the least sure 8, '
            '"8->" removes it, "->K@table" / "->K@leftover" adds one, "->JOKER@K" adds a wild to '
            'the meld of kings; "Ann:8->9" names a side.',
        ),
    ) -> int:
        """Score a round from photos: one side's table photo, or a round file.

        Exit status: 0, 3 when an error finding was raised, 2 for unusable input.
        """
        pr = score_inputs(
            input_path,
            leftover=leftover,
            rules=rules,
            round_no=round_no,
            went_out=went_out,
            perfect_deal=perfect_deal,
            name=name,
            model=model,
            fixes=fix,
            quiet=as_json,
            quick=quick,
        )
        return _exit(emit(pr, as_json, out))

    @app.command("audit")
    def audit_cmd(
        round_file: Path = typer.Argument(..., help="Round file (.toml/.json) with photos and/or typed cards."),
        claimed: str = typer.Option(..., "--claimed", help='The totals the players wrote down: "Ann=1450,Bob=675".'),
        least: int = typer.Option(8, "--least", min=0, help="How many least-sure cards to list."),
        model: Path | None = typer.Option(None, "--model", help="Detector weights (default models/cards.pt)."),
        quick: bool = typer.Option(False, "--quick", help=QUICK_HELP),
        as_json: bool = typer.Option(False, "--json", help="Print the audit as JSON."),
    ) -> int:
        """Check claimed totals: recompute, explain each difference, list cards to check.

        Exit status: 0, 3 when an error finding was raised, 2 for unusable input.
        """
        if round_file.suffix.lower() not in ROUND_SUFFIXES:
            raise UserError(f"audit takes a round file (.toml or .json), not {round_file}")
        spec, rules_ref, sides = _sides_from_round_file(round_file)
        claims = parse_claims(claimed, [s.name for s in sides])
        photos = _progress_reader(sides, model, as_json, spec.rules.family, quick)
        pr = score_photo_round(spec.rules, rules_ref, spec.round, sides, photos)
        audit = audit_round(pr, claims, least)
        if as_json:
            typer.echo(json.dumps(audit, indent=2))
        else:
            print_audit(Console(), audit)
        return _exit(EXIT_RULE_ERROR if pr.result.has_error else 0)

    @app.command("rescore")
    def rescore_cmd(
        result_file: Path = typer.Argument(..., help="A result.json written by `score --out` (edited or not)."),
        as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
        out: Path | None = typer.Option(None, "--out", help="Folder for annotated photos and result.json."),
    ) -> int:
        """Score a saved result again after editing its cards (no model, no photos needed).

        Edit a card's "class", delete a card, or add {"class": "K", "box": [x1, y1, x2, y2]}
        to a photo's "cards"; typed cards and facts are under "input".
        Exit status: 0, 3 when an error finding was raised, 2 for unusable input.
        """
        pr, base = rescore_file(result_file)
        return _exit(emit(pr, as_json, out, base))
