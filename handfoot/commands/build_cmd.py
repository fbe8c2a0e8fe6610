"""`handfoot dataset build`, `rounds` and `round-tiles`: synthetic training sets and evaluation rounds."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from handfoot.errors import UserError


def _progress() -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn())


def _check_out(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out} exists and is not a folder")


def _warn_unfetched(decks_cache: Path | None) -> None:
    """Say so when no fetched deck designs are cached: the photos then come from the drawn decks alone, and a
    set built with the README's command and seed is not the set its figures were measured on."""
    from datasets.decks import fetched_design_count  # noqa: PLC0415
    from datasets.decks.cache import cache_dir  # noqa: PLC0415

    if fetched_design_count(decks_cache) == 0:
        Console(stderr=True).print(
            f"[yellow]warning:[/yellow] no fetched deck designs in {cache_dir(decks_cache)}: the photos use the "
            "drawn decks only, so this set differs from one built after `handfoot dataset fetch-decks` with the "
            "same seed (the README's figures were measured on those)"
        )


def _textures(folder: Path | None) -> list[Path]:
    """Texture images from --textures, else from the texture cache when it was fetched."""
    from datasets.scenes.backgrounds import texture_files  # noqa: PLC0415
    from datasets.scenes.textures import texture_cache  # noqa: PLC0415

    if folder is None:
        return texture_files(texture_cache())
    if not folder.is_dir():
        raise UserError(f"--textures {folder} is not a folder")
    return texture_files(folder)


def build(
    out: Path = typer.Option(..., "--out", help="Folder to write the data set into (created if missing)."),
    images: int = typer.Option(..., "--images", min=1, help="How many full scenes to render."),
    seed: int = typer.Option(1, "--seed", help="Random seed: the same seed gives the same image bytes."),
    tile: int = typer.Option(320, "--tile", min=64, help="Training tile size in px (cut at native scale)."),
    val_fraction: float = typer.Option(0.1, "--val-fraction", min=0.0, max=0.9, help="Share of scenes kept whole for validation."),
    decks_cache: Path | None = typer.Option(None, "--decks-cache", help="Deck cache folder (fetched deck designs)."),
    textures: Path | None = typer.Option(
        None, "--textures", help="Folder of table-top texture images to mix in (default: the fetch-textures cache)."
    ),
    workers: int = typer.Option(2, "--workers", min=1, help="Worker processes."),
    hard_designs: bool = typer.Option(
        False,
        "--hard-designs/--even-designs",
        help="Show the deck designs the shipped model reads worst more often (cardsets.HARD_DESIGN_WEIGHTS); default: every design as often.",
    ),
    word_jokers: bool = typer.Option(
        False,
        "--word-jokers/--no-word-jokers",
        help="Mix in drawn decks whose jokers print one word across the top, shown twice as often as other "
        'designs (real jokers often do; the shipped model misses them: models/README.md, "Leg 29").',
    ),
) -> None:
    """Render synthetic Hand and Foot photos into a YOLO data set (tiles to train, full frames to validate)."""
    from datasets.build import build_dataset  # noqa: PLC0415
    from datasets.scenes.cardsets import HARD_DESIGN_WEIGHTS  # noqa: PLC0415

    _check_out(out)
    if decks_cache is not None and not decks_cache.is_dir():
        raise UserError(f"--decks-cache {decks_cache} is not a folder")
    _warn_unfetched(decks_cache)
    tex = _textures(textures)
    console = Console()
    with _progress() as bar:
        task = bar.add_task("rendering scenes", total=images)
        summary = build_dataset(
            out,
            images,
            seed,
            tile=tile,
            val_fraction=val_fraction,
            decks_cache=decks_cache,
            workers=workers,
            textures=tex,
            design_weights=HARD_DESIGN_WEIGHTS if hard_designs else None,
            progress=lambda done, total: bar.update(task, completed=done),
            word_jokers=word_jokers,
        )
    console.print(
        f"wrote {summary.get('frames', 0)} frames, {summary.get('train_tiles', 0)} training tiles "
        f"({summary.get('train_boxes', 0)} boxes, {summary.get('empty_tiles', 0)} empty), "
        f"{summary.get('val_images', 0)} validation frames in {summary['seconds']} s -> {out / 'data.yaml'}"
    )


def rounds(
    out: Path = typer.Option(..., "--out", help="Folder to write photos and round files into."),
    n_rounds: int = typer.Option(..., "--rounds", min=1, help="How many rounds to generate."),
    seed: int = typer.Option(1, "--seed", help="Random seed."),
    decks_cache: Path | None = typer.Option(None, "--decks-cache", help="Deck cache folder (fetched deck designs)."),
) -> None:
    """Generate scored-round photo sets (table and leftover photos plus round-XXX.toml with the true cards)."""
    from datasets.scenes.rounds import build_rounds  # noqa: PLC0415

    _check_out(out)
    if decks_cache is not None and not decks_cache.is_dir():
        raise UserError(f"--decks-cache {decks_cache} is not a folder")
    _warn_unfetched(decks_cache)
    with _progress() as bar:
        task = bar.add_task("rendering rounds", total=n_rounds)
        summary = build_rounds(out, n_rounds, seed, decks_cache=decks_cache, progress=lambda done, total: bar.update(task, completed=done))
    Console().print(f"wrote {summary['rounds']} rounds, {summary['photos']} photos -> {out}")


def round_tiles(
    folders: list[Path] = typer.Argument(..., help="Round sets written by `handfoot dataset rounds`."),
    out: Path = typer.Option(..., "--out", help="Folder to write the data set into (created if missing)."),
    seed: int = typer.Option(1, "--seed", help="Random seed: the same seed gives the same tiles."),
    tile: int = typer.Option(320, "--tile", min=64, help="Training tile size in px."),
    photos: int | None = typer.Option(None, "--photos", min=1, help="Use only this many photos, drawn at random (default: all)."),
    val_every: int = typer.Option(10, "--val-every", min=2, help="Keep whole for validation the photos of rounds numbered a multiple of this."),
    val_photos: int = typer.Option(
        60, "--val-photos", min=1, help="At most this many validation photos (the first; the rest of those rounds are left out)."
    ),
) -> None:
    """Cut round photos into training tiles at the scale the detector reads them (turned as its readings are)."""
    from datasets.round_tiles import build_round_tiles  # noqa: PLC0415
    from vision.detector import InferenceConfig, working_scale  # noqa: PLC0415

    _check_out(out)
    for folder in folders:
        if not folder.is_dir():
            raise UserError(f"{folder} is not a folder")
    config = InferenceConfig()
    with _progress() as bar:
        task = bar.add_task("cutting photos", total=None)
        try:
            summary = build_round_tiles(
                folders,
                out,
                lambda sizes, w, h: working_scale(sizes, w, h, config),
                seed=seed,
                tile=tile,
                val_every=val_every,
                val_photos=val_photos,
                max_photos=photos,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
            )
        except ValueError as exc:
            raise UserError(str(exc)) from exc
    Console().print(
        f"wrote {summary.get('train_tiles', 0)} training tiles ({summary.get('train_boxes', 0)} boxes) from "
        f"{summary.get('train_photos', 0)} photos, {summary.get('val_images', 0)} validation photos in "
        f"{summary['seconds']} s -> {out / 'data.yaml'}"
    )


def fetch_textures(
    cache: Path | None = typer.Option(None, "--cache", help="Texture folder (default $HANDFOOT_CACHE/textures)."),
) -> None:
    """Download GIMP's table-like patterns (Debian package gimp-data) as table tops for `dataset build`."""
    from datasets.scenes.textures import fetch_textures as fetch  # noqa: PLC0415
    from datasets.scenes.textures import texture_cache

    try:
        files = fetch(cache)
    except (RuntimeError, OSError) as exc:
        raise UserError(f"could not fetch textures: {exc}") from exc
    Console().print(f"wrote {len(files)} textures to {texture_cache(cache) / 'gimp'}")


def register(app: typer.Typer) -> None:
    """Add `build`, `rounds`, `round-tiles` and `fetch-textures` to the `dataset` command group."""
    app.command("build")(build)
    app.command("rounds")(rounds)
    app.command("round-tiles")(round_tiles)
    app.command("fetch-textures")(fetch_textures)
