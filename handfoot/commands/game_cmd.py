"""`handfoot game ...`: the game ledger from the command line (the same ledger `handfoot serve` keeps).

- `game new --rules NAME --sides "Ann,Bob"` starts a game (rules frozen now) and prints its id;
- `game list`, `game show ID [--json]` (the score sheet), `game round ID ROUND.toml` (a round from a
  round file, photos or typed cards), `game undo ID` (the last round), `game export ID --csv|--json`.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from handfoot.errors import UserError
from handfoot.ledger import Ledger, default_data_dir

DATA_HELP = "The ledger's data folder (default: $HANDFOOT_DATA, else ~/.local/share/handfoot)."


def data_option() -> Path | None:
    """The shared --data option."""
    return typer.Option(None, "--data", help=DATA_HELP)


def open_book(data: Path | None, quick: bool = False):
    """The GameBook over the ledger in `data` (or the default folder)."""
    from handfoot.commands.score_cmd import detector_factory  # noqa: PLC0415
    from handfoot.games import GameBook  # noqa: PLC0415

    return GameBook(Ledger(data or default_data_dir()), detector_factory(None, quick))


def print_sheet(console: Console, sheet: dict) -> None:
    """The score sheet as a table: a row per round, a column per side, running totals under each."""
    title = f"Game {sheet['id']}: {sheet['rules']}, {len(sheet['rounds'])} of {sheet['rounds_in_game']} rounds"
    table = Table(title=escape(title))
    table.add_column("round")
    for side in sheet["sides"]:
        members = f" ({', '.join(side['members'])})" if side["members"] else ""
        table.add_column(escape(side["name"] + members), justify="right")
    for r in sheet["rounds"]:
        label = str(r["number"]) + ("" if r["confirmed"] else " (open)") + (" !" if r["has_error"] else "")
        cells = [f"{t:+d}" + (f"  [dim]= {run}[/]" if r["confirmed"] else "") for t, run in zip(r["totals"], r["running"], strict=True)]
        table.add_row(label, *cells)
    table.add_section()
    table.add_row("[bold]total[/]", *[f"[bold]{t}[/]" for t in sheet["totals"]])
    console.print(table)
    if sheet["winner"]:
        console.print(f"Winner: {escape(' and '.join(sheet['winner']))}", highlight=False)
    if any(r["has_error"] for r in sheet["rounds"]):
        console.print("! the cards of that round break the rules: its totals are provisional", highlight=False)


def register(app: typer.Typer) -> None:
    """Add the `game` command group."""
    game = typer.Typer(help="A game's ledger: rounds kept, running totals (the same ledger `serve` keeps).", no_args_is_help=True)
    app.add_typer(game, name="game")

    @game.command("new")
    def new_cmd(
        rules: str = typer.Option(..., "--rules", help="Rule preset name or rules .toml path (frozen into the game)."),
        sides: str = typer.Option(..., "--sides", help='Players "Ann,Bob", or teams "Reds=Ann+Cy,Blues=Bob+Di".'),
        data: Path | None = data_option(),
    ) -> None:
        """Start a game; prints its id."""
        from handfoot.games import parse_sides  # noqa: PLC0415

        book = open_book(data)
        typer.echo(book.new_game(rules, parse_sides(sides)))

    @game.command("list")
    def list_cmd(data: Path | None = data_option()) -> None:
        """Every game in the ledger with its rounds and totals."""
        games = open_book(data).games()
        if not games:
            typer.echo('no games yet: start one with  handfoot game new --rules NAME --sides "Ann,Bob"')
            return
        for g in games:
            totals = ", ".join(f"{s['name']} {t}" for s, t in zip(g["sides"], g["totals"]))
            state = "finished" if g["finished"] else f"{len(g['rounds'])} of {g['rounds_in_game']} rounds"
            typer.echo(f"{g['id']}  {g['created'][:10]}  {g['rules']}  {state}  {totals}")

    @game.command("show")
    def show_cmd(
        game_id: int = typer.Argument(..., metavar="ID"), as_json: bool = typer.Option(False, "--json"), data: Path | None = data_option()
    ) -> None:
        """The score sheet: rounds by sides, running totals, the winner once the game is over."""
        sheet = open_book(data).sheet(game_id, rounds=as_json)
        if as_json:
            typer.echo(json.dumps(sheet, indent=2))
        else:
            print_sheet(Console(), sheet)

    @game.command("round")
    def round_cmd(
        game_id: int = typer.Argument(..., metavar="ID"),
        round_file: Path = typer.Argument(..., metavar="ROUND.toml", help="Round file: photos and/or typed cards."),
        data: Path | None = data_option(),
    ) -> None:
        """Add the next round from a round file (its photos are copied into the ledger), confirmed."""
        book = open_book(data)
        number = book.add_round_file(game_id, round_file)
        Console().print(f"round {number} added to game {game_id}", highlight=False)
        print_sheet(Console(), book.sheet(game_id, rounds=False))

    @game.command("undo")
    def undo_cmd(game_id: int = typer.Argument(..., metavar="ID"), data: Path | None = data_option()) -> None:
        """Remove the game's last round."""
        number = open_book(data).undo(game_id)
        typer.echo(f"round {number} of game {game_id} removed")

    @game.command("export")
    def export_cmd(
        game_id: int = typer.Argument(..., metavar="ID"),
        as_csv: bool = typer.Option(False, "--csv", help="A CSV row per round and side."),
        as_json: bool = typer.Option(False, "--json", help="Everything kept, as JSON."),
        data: Path | None = data_option(),
    ) -> None:
        """Export a game as CSV or JSON (to standard output)."""
        if as_csv == as_json:
            raise UserError("give one of --csv or --json")
        book = open_book(data)
        if as_csv:
            typer.echo(book.export_csv(game_id), nl=False)
        else:
            typer.echo(json.dumps(book.export_json(game_id), indent=2))
