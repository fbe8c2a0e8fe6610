"""`handfoot dataset ...`: deck artwork and synthetic scenes."""

import typer

from handfoot.commands import build_cmd, decks_cmd


def register(app: typer.Typer) -> None:
    """Add the `dataset` command group to the app."""
    sub = typer.Typer(help="Build synthetic training data: deck artwork and table scenes.", no_args_is_help=True)
    decks_cmd.register(sub)
    build_cmd.register(sub)
    app.add_typer(sub, name="dataset")
