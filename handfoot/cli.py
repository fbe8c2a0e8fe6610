"""The `handfoot` command-line app: thin wiring of vision and scoring.

Each command group lives in `handfoot.commands.<name>` and exposes
`register(app)`; this module only assembles them and turns user errors into
clear messages with an exit status.
"""

from __future__ import annotations

import os
import sys
from importlib import import_module

import typer
from rich.console import Console
from rich.markup import escape

from handfoot import __version__
from handfoot.errors import UserError

COMMAND_MODULES = (
    "rules_cmd",
    "round_cmd",
    "dataset_cmd",
    "model_cmd",
    "score_cmd",
    "watch_cmd",
    "demo_cmd",
    "game_cmd",
    "serve_cmd",
)

app = typer.Typer(
    name="handfoot",
    help="Score Hand and Foot rounds from photos of the table, or from typed-in cards.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"handfoot {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version and exit."),
) -> None:
    """Score Hand and Foot rounds from photos of the table, or from typed-in cards."""


for _name in COMMAND_MODULES:
    import_module(f"handfoot.commands.{_name}").register(app)


def main(argv: list[str] | None = None) -> int:
    """Console-script entry point: runs the app, mapping UserError to its exit status."""
    err = Console(stderr=True)
    try:
        status = app(args=argv, standalone_mode=False)
    except UserError as exc:
        err.print(f"[bold red]error:[/] {escape(exc.message)}", highlight=False)
        return exc.exit_code
    except typer.Exit as exc:
        return exc.exit_code
    except KeyboardInterrupt:
        err.print("interrupted")
        return 130
    except typer.Abort:
        err.print("aborted")
        return 1
    except Exception as exc:
        if hasattr(exc, "show") and hasattr(exc, "exit_code"):  # a usage error: unknown option, missing argument
            exc.show()
            return exc.exit_code
        if os.environ.get("HANDFOOT_DEBUG"):
            raise
        err.print(
            f"[bold red]internal error:[/] {escape(type(exc).__name__)}: {escape(str(exc))}\n"
            "This is a bug in handfoot; run again with HANDFOOT_DEBUG=1 for the details.",
            highlight=False,
        )
        return 1
    return status if isinstance(status, int) else 0


if __name__ == "__main__":
    sys.exit(main())
