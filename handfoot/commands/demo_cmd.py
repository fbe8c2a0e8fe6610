"""`handfoot demo`: score the bundled example round from its photos with the bundled model.

`make demo` runs this. It prints what was found in each photo and every
side's breakdown, and writes the annotated photos and result.json to
`demo-out/` (or `--out`). `--typed` scores the typed example round instead
(no model, no photos).
"""

from __future__ import annotations

from pathlib import Path

import typer

from handfoot.commands import round_cmd, score_cmd
from handfoot.errors import UserError

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
#: The example round scored from photos (examples/photos/round.toml).
EXAMPLE_PHOTO_ROUND = EXAMPLES / "photos" / "round.toml"
#: The true cards of the example photos, typed (examples/photos/true-cards.toml).
EXAMPLE_TRUE_CARDS = EXAMPLES / "photos" / "true-cards.toml"
#: The example round typed as cards (examples/round.toml).
EXAMPLE_ROUND = EXAMPLES / "round.toml"


def example(path: Path) -> Path:
    """A bundled example file; UserError when the repository copy is missing."""
    if not path.is_file():
        raise UserError(f"the example round file is missing: {path} (run the demo from a checkout of the handfoot repository)")
    return path


def register(app: typer.Typer) -> None:
    """Add the `demo` command to the app."""

    @app.command("demo")
    def demo(
        out: Path = typer.Option(Path("demo-out"), "--out", help="Folder for the annotated photos and result.json."),
        typed: bool = typer.Option(False, "--typed", help="Score the typed example round (examples/round.toml)."),
        model: Path | None = typer.Option(None, "--model", help="Detector weights (default models/cards.pt)."),
        as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
    ) -> None:
        """Score the bundled example photos (examples/photos/) with the bundled model.

        Prints each side's breakdown and writes annotated photos to --out.
        """
        if typed:
            status = round_cmd.emit(round_cmd.score_file(example(EXAMPLE_ROUND)), as_json)
        else:
            pr = score_cmd.score_inputs(
                example(EXAMPLE_PHOTO_ROUND),
                leftover=[],
                rules=None,
                round_no=None,
                went_out=False,
                perfect_deal=False,
                name="Side",
                model=model,
                fixes=[],
                quiet=as_json,
            )
            status = score_cmd.emit(pr, as_json, out)
            if not as_json and EXAMPLE_TRUE_CARDS.is_file():
                truth = round_cmd.score_file(EXAMPLE_TRUE_CARDS)
                typer.echo("The photos' true cards (examples/photos/true-cards.toml) score: " + ", ".join(f"{s.name} {s.total}" for s in truth.sides))
        if status:
            raise typer.Exit(status)
