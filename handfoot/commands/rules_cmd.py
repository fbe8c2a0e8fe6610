"""`handfoot rules list|show`: the bundled rule presets and custom rules files."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.table import Table

from handfoot.report import rules_table
from handfoot.rules_files import load_rules, preset_names


def register(app: typer.Typer) -> None:
    """Add the `rules` command group to the app."""
    sub = typer.Typer(help="List the rule presets or show one in full.", no_args_is_help=True)

    @sub.command("list")
    def list_presets() -> None:
        """List the bundled rule presets."""
        table = Table()
        table.add_column("preset", no_wrap=True)
        for header in ("title", "deck", "sides", "rounds"):
            table.add_column(header)
        for name in preset_names():
            r = load_rules(name)
            table.add_row(name, r.title, r.family, r.sides, str(r.rounds))
        Console().print(table)

    @sub.command("show")
    def show(
        name: str = typer.Argument(..., help="A preset name, or the path of a rules .toml file."),
    ) -> None:
        """Show every number of a preset or custom rules file."""
        Console().print(rules_table(load_rules(name)))

    app.add_typer(sub, name="rules")
