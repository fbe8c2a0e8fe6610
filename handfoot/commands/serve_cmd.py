"""`handfoot serve`: the game-night page for phones, over the game ledger.

Binds to loopback unless --host says otherwise; off loopback it makes a random
access token, prints the URL with it and that URL as a QR code to scan, and
refuses requests without it.
"""

from __future__ import annotations

import secrets
import socket
from pathlib import Path

import typer

from handfoot.commands.game_cmd import data_option, open_book
from handfoot.errors import UserError


def _lan_address() -> str:
    """This machine's address on its network (for the URL printed when bound to all interfaces)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
            return s.getsockname()[0]
    except OSError:
        return socket.gethostname()


def register(app: typer.Typer) -> None:
    """Add `serve`."""

    @app.command("serve")
    def serve_cmd(
        data: Path | None = data_option(),
        host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on; 0.0.0.0 lets phones on your network in (with an access token)."),
        port: int = typer.Option(8000, "--port", min=0, max=65535, help="Port (0: any free one)."),
        quick: bool = typer.Option(False, "--quick", help="Read each photo once (faster, fewer exact totals)."),
        verbose: bool = typer.Option(False, "--verbose", help="Log every request."),
    ) -> None:
        """Serve the game-night page: each player opens it on a phone to photograph, check and keep the score."""
        from handfoot.server import is_loopback, make_server  # noqa: PLC0415

        book = open_book(data, quick)
        token = None if is_loopback(host) else secrets.token_urlsafe(18)
        try:
            server = make_server(book, host, port, token, verbose)
        except OSError as exc:
            raise UserError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from exc
        bound = server.server_address[1]
        shown = _lan_address() if host in ("0.0.0.0", "::", "") else host
        shown = f"[{shown}]" if ":" in shown else shown
        url = f"http://{shown}:{bound}/" + (f"?token={token}" if token else "")
        typer.echo(f"handfoot: game night at {url}", err=False)
        typer.echo(f"ledger: {book.ledger.folder}")
        if token:
            import segno  # noqa: PLC0415

            typer.echo("scan this with each phone (the URL carries the access token; anyone with it can score):")
            segno.make(url, error="l").terminal(compact=True)
        typer.echo("stop it with Ctrl+C (nothing is lost: every change is already saved)", err=False)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            typer.echo("stopped")
        finally:
            server.server_close()
