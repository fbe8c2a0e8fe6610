"""Not written yet: registers no command."""

import typer


def register(app: typer.Typer) -> None:
    """Add this module's commands to the app."""
