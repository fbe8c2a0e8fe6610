"""`handfoot demo`: score the bundled example round and print its breakdown."""

from __future__ import annotations

from pathlib import Path

import typer

from handfoot.commands.round_cmd import emit, score_file
from handfoot.errors import UserError

#: The example round shipped in the repository (examples/round.toml).
EXAMPLE_ROUND = Path(__file__).resolve().parents[2] / "examples" / "round.toml"


def example_round() -> Path:
    """The bundled example round file; UserError when the repository copy is missing."""
    if not EXAMPLE_ROUND.is_file():
        raise UserError(
            f"the example round file is missing: {EXAMPLE_ROUND} "
            "(run the demo from a checkout of the handfoot repository)"
        )
    return EXAMPLE_ROUND


def register(app: typer.Typer) -> None:
    """Add the `demo` command to the app."""

    @app.command("demo")
    def demo(as_json: bool = typer.Option(False, "--json", help="Print the result as JSON.")) -> None:
        """Score the bundled example round (examples/round.toml) and print the breakdown."""
        status = emit(score_file(example_round()), as_json)
        if status:
            raise typer.Exit(status)
