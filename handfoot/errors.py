"""Errors a user can act on: printed as one clear message, never a traceback."""

from __future__ import annotations


class UserError(Exception):
    """Bad input from the user (file, option, rules). Exit status 2 by default."""

    def __init__(self, message: str, exit_code: int = 2) -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code
