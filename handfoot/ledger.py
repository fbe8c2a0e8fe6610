"""The game ledger: games, their sides and every round, kept in SQLite in one data folder.

Pure storage, no HTTP and no scoring: `handfoot.games` decides what to store,
`handfoot serve` and `handfoot game` both go through it. The folder holds
`ledger.sqlite3` and `photos/<game>/<photo id>.<ext>` (ids the ledger makes,
never a name a client sent). Each change is one transaction (`Ledger.change`);
a photo's file is written before its row, so a row never names a missing file.
The schema carries a version (`PRAGMA user_version`); `MIGRATIONS` brings an
older ledger up to date when it is opened.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from handfoot.errors import NotFound, UserError

DB_NAME = "ledger.sqlite3"
PHOTOS = "photos"

#: Schema steps; MIGRATIONS[k] takes a ledger from version k to k + 1.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        created TEXT NOT NULL,
        rules_name TEXT NOT NULL,
        rules_json TEXT NOT NULL
    );
    CREATE TABLE sides (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        name TEXT NOT NULL,
        members_json TEXT NOT NULL,
        PRIMARY KEY (game_id, position)
    );
    CREATE TABLE rounds (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        created TEXT NOT NULL,
        confirmed TEXT,
        result_json TEXT,
        UNIQUE (game_id, number)
    );
    CREATE TABLE round_sides (
        round_id INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        went_out INTEGER NOT NULL DEFAULT 0,
        perfect_deal INTEGER NOT NULL DEFAULT 0,
        table_json TEXT NOT NULL DEFAULT '[]',
        leftover_json TEXT NOT NULL DEFAULT '[]',
        total INTEGER,
        PRIMARY KEY (round_id, position)
    );
    CREATE TABLE photos (
        id TEXT PRIMARY KEY,
        round_id INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        role TEXT NOT NULL,
        file TEXT NOT NULL,
        label TEXT NOT NULL,
        read_json TEXT NOT NULL,
        seconds REAL,
        created TEXT NOT NULL
    );
    CREATE TABLE corrections (
        id INTEGER PRIMARY KEY,
        round_id INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        photo_id TEXT,
        card INTEGER,
        new TEXT,
        fix TEXT,
        created TEXT NOT NULL
    );
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


def default_data_dir() -> Path:
    """The per-user data folder: $HANDFOOT_DATA, else $XDG_DATA_HOME/handfoot, else ~/.local/share/handfoot."""
    if os.environ.get("HANDFOOT_DATA"):
        return Path(os.environ["HANDFOOT_DATA"]).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base).expanduser() / "handfoot"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class SideDef:
    """A side of a game: a player, or a team and its members."""

    name: str
    members: tuple[str, ...] = ()

    @property
    def partners(self) -> bool:
        """A team of two or more players (each has a leftover photo of their own)."""
        return len(self.members) >= 2


@dataclass(frozen=True)
class GameRow:
    """A game as stored: its rules frozen as a complete dict when it started, and its sides."""

    id: int
    created: str
    rules_name: str
    rules: dict[str, Any]
    sides: tuple[SideDef, ...]


@dataclass(frozen=True)
class PhotoRow:
    """A stored photo: the file (relative to the data folder) and its cards as read (`photo_to_dict`)."""

    id: str
    position: int
    role: str
    file: str
    label: str
    read: dict[str, Any]
    seconds: float | None


@dataclass(frozen=True)
class CorrectionRow:
    """One correction: a card of a photo changed (`new`) or removed (`new` None), or a card added (`fix`)."""

    id: int
    position: int
    photo_id: str | None
    card: int | None
    new: str | None
    fix: str | None


@dataclass
class SideState:
    """One side's facts in one round, typed cards beside the photos, and its stored total."""

    position: int
    went_out: bool = False
    perfect_deal: bool = False
    table: list[list[str]] = field(default_factory=list)
    leftover: list[list[str]] = field(default_factory=list)
    total: int | None = None


@dataclass
class RoundRow:
    """A round with all it keeps; `confirmed` is when it was confirmed (None while open)."""

    id: int
    game_id: int
    number: int
    confirmed: str | None
    result: dict[str, Any] | None
    sides: list[SideState]
    photos: list[PhotoRow]
    corrections: list[CorrectionRow]


class Tx:
    """The ledger's reads and writes inside one transaction (`Ledger.change` / `Ledger.read`)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    # -- games
    def add_game(self, rules_name: str, rules: dict[str, Any], sides: list[SideDef]) -> int:
        cur = self.conn.execute("INSERT INTO games (created, rules_name, rules_json) VALUES (?, ?, ?)", (_now(), rules_name, json.dumps(rules)))
        game_id = int(cur.lastrowid)
        self.conn.executemany(
            "INSERT INTO sides (game_id, position, name, members_json) VALUES (?, ?, ?, ?)",
            [(game_id, k, s.name, json.dumps(list(s.members))) for k, s in enumerate(sides)],
        )
        return game_id

    def game(self, game_id: int) -> GameRow:
        """Raises NotFound for an unknown game."""
        row = self.conn.execute("SELECT id, created, rules_name, rules_json FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise NotFound(f"no game {game_id}")
        sides = tuple(
            SideDef(name, tuple(json.loads(members)))
            for name, members in self.conn.execute("SELECT name, members_json FROM sides WHERE game_id = ? ORDER BY position", (game_id,))
        )
        return GameRow(row[0], row[1], row[2], json.loads(row[3]), sides)

    def game_ids(self) -> list[int]:
        return [r[0] for r in self.conn.execute("SELECT id FROM games ORDER BY id")]

    # -- rounds
    def add_round(self, game_id: int, number: int, sides: int) -> int:
        cur = self.conn.execute("INSERT INTO rounds (game_id, number, created) VALUES (?, ?, ?)", (game_id, number, _now()))
        round_id = int(cur.lastrowid)
        self.conn.executemany("INSERT INTO round_sides (round_id, position) VALUES (?, ?)", [(round_id, k) for k in range(sides)])
        return round_id

    def round_numbers(self, game_id: int) -> list[int]:
        return [r[0] for r in self.conn.execute("SELECT number FROM rounds WHERE game_id = ? ORDER BY number", (game_id,))]

    def round(self, game_id: int, number: int) -> RoundRow:
        """Raises NotFound for an unknown round."""
        row = self.conn.execute("SELECT id, confirmed, result_json FROM rounds WHERE game_id = ? AND number = ?", (game_id, number)).fetchone()
        if row is None:
            raise NotFound(f"game {game_id} has no round {number}")
        round_id = row[0]
        sides = [
            SideState(pos, bool(out), bool(perfect), json.loads(table), json.loads(left), total)
            for pos, out, perfect, table, left, total in self.conn.execute(
                "SELECT position, went_out, perfect_deal, table_json, leftover_json, total FROM round_sides WHERE round_id = ? ORDER BY position",
                (round_id,),
            )
        ]
        photos = [
            PhotoRow(pid, pos, role, file, label, json.loads(read), secs)
            for pid, pos, role, file, label, read, secs in self.conn.execute(
                "SELECT id, position, role, file, label, read_json, seconds FROM photos WHERE round_id = ? ORDER BY created, rowid", (round_id,)
            )
        ]
        corrections = [
            CorrectionRow(*r)
            for r in self.conn.execute("SELECT id, position, photo_id, card, new, fix FROM corrections WHERE round_id = ? ORDER BY id", (round_id,))
        ]
        return RoundRow(round_id, game_id, number, row[1], json.loads(row[2]) if row[2] else None, sides, photos, corrections)

    def set_facts(self, round_id: int, position: int, went_out: bool, perfect_deal: bool) -> None:
        self.conn.execute(
            "UPDATE round_sides SET went_out = ?, perfect_deal = ? WHERE round_id = ? AND position = ?",
            (int(went_out), int(perfect_deal), round_id, position),
        )

    def set_typed(self, round_id: int, position: int, table: list[list[str]], leftover: list[list[str]]) -> None:
        self.conn.execute(
            "UPDATE round_sides SET table_json = ?, leftover_json = ? WHERE round_id = ? AND position = ?",
            (json.dumps(table), json.dumps(leftover), round_id, position),
        )

    def save_result(self, round_id: int, result: dict[str, Any], totals: list[int]) -> None:
        self.conn.execute("UPDATE rounds SET result_json = ? WHERE id = ?", (json.dumps(result), round_id))
        self.conn.executemany(
            "UPDATE round_sides SET total = ? WHERE round_id = ? AND position = ?", [(t, round_id, k) for k, t in enumerate(totals)]
        )

    def set_confirmed(self, round_id: int, confirmed: bool) -> None:
        self.conn.execute("UPDATE rounds SET confirmed = ? WHERE id = ?", (_now() if confirmed else None, round_id))

    def delete_round(self, round_id: int) -> list[str]:
        """Delete a round with its photos' rows and corrections; return its photo files (to remove after commit)."""
        files = [r[0] for r in self.conn.execute("SELECT file FROM photos WHERE round_id = ?", (round_id,))]
        self.conn.execute("DELETE FROM rounds WHERE id = ?", (round_id,))
        return files

    # -- photos and corrections
    def add_photo(
        self, photo_id: str, round_id: int, position: int, role: str, file: str, label: str, read: dict[str, Any], seconds: float | None
    ) -> None:
        self.conn.execute(
            "INSERT INTO photos (id, round_id, position, role, file, label, read_json, seconds, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (photo_id, round_id, position, role, file, label, json.dumps(read), seconds, _now()),
        )

    def photo(self, photo_id: str) -> tuple[int, int, PhotoRow]:
        """(game id, round number, the photo). Raises NotFound."""
        row = self.conn.execute(
            "SELECT r.game_id, r.number, p.id, p.position, p.role, p.file, p.label, p.read_json, p.seconds "
            "FROM photos p JOIN rounds r ON r.id = p.round_id WHERE p.id = ?",
            (photo_id,),
        ).fetchone()
        if row is None:
            raise NotFound(f"no photo {photo_id}")
        return row[0], row[1], PhotoRow(row[2], row[3], row[4], row[5], row[6], json.loads(row[7]), row[8])

    def delete_photo(self, photo_id: str) -> None:
        self.conn.execute("DELETE FROM corrections WHERE photo_id = ?", (photo_id,))
        self.conn.execute("DELETE FROM photos WHERE id = ?", (photo_id,))

    def add_correction(
        self, round_id: int, position: int, photo_id: str | None = None, card: int | None = None, new: str | None = None, fix: str | None = None
    ) -> int:
        cur = self.conn.execute(
            "INSERT INTO corrections (round_id, position, photo_id, card, new, fix, created) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (round_id, position, photo_id, card, new, fix, _now()),
        )
        return int(cur.lastrowid)

    def delete_correction(self, round_id: int, correction_id: int) -> None:
        cur = self.conn.execute("DELETE FROM corrections WHERE id = ? AND round_id = ?", (correction_id, round_id))
        if cur.rowcount == 0:
            raise NotFound(f"no correction {correction_id} in this round")


class Ledger:
    """One data folder: the SQLite file and the photos. Safe to use from several threads: each
    transaction opens its own connection, and SQLite serialises the writers."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder).expanduser()
        try:
            (self.folder / PHOTOS).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UserError(f"cannot create the data folder {self.folder}: {exc.strerror or exc}") from exc
        self.db = self.folder / DB_NAME
        self._migrate()

    def _connect(self) -> sqlite3.Connection:
        try:
            conn = sqlite3.connect(self.db, timeout=30, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise UserError(f"cannot open the ledger {self.db}: {exc}") from exc
        conn.execute("PRAGMA foreign_keys = ON")
        return conn

    def _migrate(self) -> None:
        conn = self._connect()
        try:
            conn.execute("BEGIN IMMEDIATE")
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                conn.execute("ROLLBACK")
                raise UserError(f"the ledger {self.db} was written by a newer handfoot (schema {version}, this one knows {SCHEMA_VERSION})")
            for step in range(version, SCHEMA_VERSION):
                for statement in MIGRATIONS[step].split(";"):
                    if statement.strip():
                        conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            conn.execute("COMMIT")
        except sqlite3.DatabaseError as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise UserError(f"{self.db} is not a handfoot ledger ({exc})") from exc
        finally:
            conn.close()

    @contextmanager
    def _transaction(self, begin: str) -> Iterator[Tx]:
        conn = self._connect()
        try:
            conn.execute(begin)
            try:
                yield Tx(conn)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        finally:
            conn.close()

    def change(self) -> AbstractContextManager[Tx]:
        """One write transaction: all of it is stored, or (on any error) none of it. Writers wait for each other."""
        return self._transaction("BEGIN IMMEDIATE")

    def read(self) -> AbstractContextManager[Tx]:
        """A consistent read (one snapshot)."""
        return self._transaction("BEGIN")

    def new_photo_id(self) -> str:
        """A fresh photo id (32 hex digits): the only name a stored photo gets."""
        return secrets.token_hex(16)

    def photo_path(self, file: str) -> Path:
        """The absolute path of a stored photo file; refuses anything outside the photos folder."""
        root = (self.folder / PHOTOS).resolve()
        path = (self.folder / file).resolve()
        if root not in path.parents:
            raise NotFound("no such photo")
        return path
