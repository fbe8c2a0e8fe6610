"""`handfoot dataset fetch-decks`: download and render the traditional deck art into the cache."""

from __future__ import annotations

import time
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from handfoot.errors import UserError


class _ProgressReporter:
    """Shows fetch progress as a rich bar over all decks found so far."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self.task = progress.add_task("starting", total=0)
        self.total = 0

    def source_started(self, source: str, step: str) -> None:
        self.progress.update(self.task, description=f"{source}: {step}")

    def decks_found(self, count: int) -> None:
        self.total += count
        self.progress.update(self.task, total=self.total)

    def deck_done(self, deck: str, status: str) -> None:
        self.progress.advance(self.task)


def fetch_decks(
    cache: Path | None = typer.Option(
        None,
        "--cache",
        help="Deck cache directory (default: $HANDFOOT_CACHE/decks, else ~/.cache/handfoot/decks).",
        file_okay=False,
    ),
    sheet: Path | None = typer.Option(
        None,
        "--sheet",
        help="Where to write the contact sheet (default: contact-sheet.jpg in the cache).",
        dir_okay=False,
    ),
) -> None:
    """Download card-deck packages (Debian, npm, PyPI), render every deck into the cache, find each face's
    index-corner boxes and write a contact sheet for review. Already-rendered decks are skipped."""
    from datasets.decks import contact_sheet, load_decks  # noqa: PLC0415
    from datasets.decks.cache import cache_dir  # noqa: PLC0415
    from datasets.decks.fetch import fetch_all  # noqa: PLC0415

    console = Console(soft_wrap=True)
    root = cache_dir(cache)
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"cannot create the deck cache {root}: {exc.strerror}") from exc
    if sheet is not None and sheet.suffix.lower() not in (".jpg", ".jpeg", ".png"):
        raise UserError(f"--sheet {sheet}: use a .jpg or .png file name")
    started = time.monotonic()
    with Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as progress:
        results = fetch_all(root, reporter=_ProgressReporter(progress))
    elapsed = time.monotonic() - started

    for res in results:
        if not res.ok:
            console.print(f"[yellow]warning:[/] {res.source}: {res.error}", highlight=False)
            continue
        console.print(
            f"[green]ok[/] {res.source}: {len(res.rendered)} rendered, {len(res.skipped)} already cached"
            + (f", {len(res.failed)} rejected" if res.failed else ""),
            highlight=False,
        )
        for why in res.failed:
            console.print(f"   [yellow]rejected[/] {why}", highlight=False)
        for why in res.excluded:
            console.print(f"   [dim]not in the default mix: {why}[/]", highlight=False)

    decks = load_decks(cache=root, fetched=True)
    families: dict[str, int] = {}
    for d in decks:
        families[d.family] = families.get(d.family, 0) + 1
    console.print(
        "decks in the default mix: " + ", ".join(f"{n} {fam}" for fam, n in sorted(families.items())) + f"  (fetch took {elapsed:.0f} s)",
        highlight=False,
    )
    out = sheet or root / "contact-sheet.jpg"
    contact_sheet(decks, out)
    console.print(f"contact sheet: {out}", highlight=False)
    if not any(r.ok for r in results):
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add `fetch-decks` to the `dataset` command group."""
    app.command("fetch-decks")(fetch_decks)
