"""`handfoot score-round FILE`: score a round typed into a TOML/JSON round file."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from handfoot.errors import UserError
from handfoot.report import print_breakdown, result_to_dict
from handfoot.roundfile import load_round
from scoring.engine import score_round
from scoring.game import game_totals
from scoring.rounds import RoundResult

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
    """Add the `score-round` and `score-game` commands to the app."""
    register_game(app)

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


def register_game(app: typer.Typer) -> None:
    """Add the `score-game` command: several round files, one game ledger."""

    @app.command("score-game")
    def score_game_cmd(
        files: list[Path] = typer.Argument(..., help="One round file per round, all under the same rules."),
        as_json: bool = typer.Option(False, "--json", help="Print rounds and game totals as JSON."),
    ) -> None:
        """Score a game from its round files and add up each side's totals.

        Exit status: 0, 3 when any round has an error finding, 2 for unusable input.
        """
        results = game_results(files)
        totals = game_totals(results)
        if as_json:
            typer.echo(json.dumps({"rounds": [result_to_dict(r) for r in results], "totals": totals}, indent=2))
        else:
            console = Console()
            for result in results:
                print_breakdown(console, result)
            console.print(ledger_table(results, totals))
        if any(r.has_error for r in results):
            raise typer.Exit(EXIT_RULE_ERROR)


def game_results(files: list[Path]) -> list[RoundResult]:
    """Score each round file; they must share one rule set and not repeat a round number."""
    specs = [load_round(f) for f in files]
    names = {s.rules.name for s in specs}
    if len(names) > 1:
        raise UserError(f"the round files use different rules: {', '.join(sorted(names))}")
    seen: dict[int, Path] = {}
    for spec in specs:
        if spec.round in seen:
            raise UserError(f"round {spec.round} appears twice: {seen[spec.round]} and {spec.path}")
        seen[spec.round] = spec.path
    specs.sort(key=lambda s: s.round)
    return [score_round(s.rules, s.round, s.side_rounds()) for s in specs]


def ledger_table(results: list[RoundResult], totals: dict[str, int]) -> Table:
    """Sides down, rounds across, game total last."""
    table = Table(title="Game")
    table.add_column("side")
    for r in results:
        table.add_column(f"round {r.round}", justify="right")
    table.add_column("total", justify="right", style="bold")
    for name, total in totals.items():
        cells = []
        for r in results:
            side = next((s for s in r.sides if s.name == name), None)
            cells.append(str(side.total) if side else "-")
        table.add_row(escape(name), *cells, str(total))
    return table
