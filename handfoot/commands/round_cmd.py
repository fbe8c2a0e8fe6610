"""`handfoot score-round FILE`: score a round typed into a TOML/JSON round file."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console

from handfoot.report import print_breakdown, result_to_dict
from handfoot.roundfile import load_round
from scoring.engine import score_round
from scoring.model import RoundResult

#: Exit status when the cards break the rules (an error finding).
EXIT_RULE_ERROR = 3


def score_file(path: Path) -> RoundResult:
    """Load a round file and score it (raises UserError for unusable input)."""
    spec = load_round(path)
    return score_round(spec.rules, spec.round, spec.side_rounds())


def emit(result: RoundResult, as_json: bool) -> int:
    """Print the result (JSON or rich tables); return the exit status (0, or 3 on error findings)."""
    if as_json:
        typer.echo(json.dumps(result_to_dict(result), indent=2))
    else:
        print_breakdown(Console(), result)
    return EXIT_RULE_ERROR if result.has_error else 0


def register(app: typer.Typer) -> None:
    """Add the `score-round` command to the app."""

    @app.command("score-round")
    def score_round_cmd(
        file: Path = typer.Argument(..., help="Round file (.toml or .json): rules, round, sides."),
        as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
    ) -> int:
        """Score one round from typed-in cards.

        Exit status: 0 when the cards follow the rules, 3 when an error finding was
        raised, 2 for unusable input.
        """
        status = emit(score_file(file), as_json)
        if status:
            raise typer.Exit(status)
        return status
