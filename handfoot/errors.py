"""Errors a user can act on: printed as one clear message, never a traceback.

The same errors answer requests to `handfoot serve`: `http_status` says which
4xx answer a web client gets (400 bad input unless a subclass says otherwise).
"""

from __future__ import annotations


class UserError(Exception):
    """Bad input from the user (file, option, rules). Exit status 2 by default."""

    http_status = 400

    def __init__(self, message: str, exit_code: int = 2) -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code


class NotFound(UserError):
    """An unknown game, round, side, photo or correction."""

    http_status = 404


class Conflict(UserError):
    """A request the game's state does not allow now (a confirmed round changed, a round past the last)."""

    http_status = 409


class TooLarge(UserError):
    """An upload over the size limit."""

    http_status = 413
