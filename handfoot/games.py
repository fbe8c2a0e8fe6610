"""Games over the ledger: start a game, read and store photos, correct cards, confirm, undo, the score sheet.

What `handfoot game` and `handfoot serve` share. A round is scored again from
what the ledger keeps (the cards as read, the corrections, the facts, typed
cards) whenever any of it changes, by the same path as `handfoot score`
(`read_side_photos`, `score_photo_round`); the result is stored in the same
transaction as the change. Reading a photo is slow and runs one photo at a
time (`PhotoQueue`), outside any transaction.
"""

from __future__ import annotations

import csv
import io
import os
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from handfoot.errors import Conflict, NotFound, TooLarge, UserError
from handfoot.ledger import PHOTOS, GameRow, Ledger, RoundRow, SideDef
from handfoot.photo_round import (
    CardEdit,
    PhotoRound,
    SideInput,
    apply_card_edits,
    parse_fix,
    photo_from_dict,
    photo_round_to_dict,
    photo_to_dict,
    read_side_photos,
    score_photo_round,
)
from handfoot.report import result_to_dict
from handfoot.rules_files import frozen_rules, thaw_rules
from scoring.detection_classes import CLASS_NAMES
from scoring.rounds import ERROR
from vision.errors import VisionError
from vision.imageio import check_image
from vision.pipe import LEFTOVER, ROLES, TABLE, DetectFn

#: The largest photo upload accepted, in bytes.
MAX_PHOTO_BYTES = 30 * 1024 * 1024
#: Image formats kept (PIL's names) and the suffix their file gets.
_SUFFIX = {"JPEG": ".jpg", "PNG": ".png", "WEBP": ".webp", "MPO": ".jpg", "TIFF": ".tif", "BMP": ".bmp", "GIF": ".gif", "HEIF": ".heic"}


def parse_sides(text: str) -> list[SideDef]:
    """ "Ann,Bob" -> two players; "Reds=Ann+Cy, Blues=Bob+Di" -> two teams with their members. Raises UserError."""
    sides = []
    for part in text.split(","):
        if not part.strip():
            continue
        name, _, members = part.partition("=")
        name = name.strip()
        people = tuple(m.strip() for m in members.split("+") if m.strip())
        if not name:
            raise UserError(f"--sides: a side needs a name, got {part.strip()!r}")
        sides.append(SideDef(name, people))
    return check_sides(sides)


def check_sides(sides: list[SideDef]) -> list[SideDef]:
    """At least two sides, each named once, names of at most 40 characters. Raises UserError."""
    if len(sides) < 2:
        raise UserError('a game needs at least two sides, e.g. "Ann,Bob" (teams: "Reds=Ann+Cy,Blues=Bob+Di")')
    names = [s.name for s in sides]
    for name in names:
        if len(name) > 40 or not name.strip():
            raise UserError(f"a side's name must be 1 to 40 characters, got {name!r}")
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise UserError(f"two sides are named {dupes[0]!r}")
    return sides


@dataclass(frozen=True)
class QueueState:
    """How busy photo reading is: photos being read or waiting, and the recent seconds per photo."""

    busy: int
    seconds_per_photo: float


class PhotoQueue:
    """Reads photos one at a time (the detector runs on the CPU), loading the detector once."""

    def __init__(self, detect_factory: Callable[[], DetectFn]) -> None:
        self._factory = detect_factory
        self._detect: DetectFn | None = None
        self._lock = threading.Lock()
        self._count = threading.Lock()
        self._busy = 0
        self._recent: list[float] = []

    def _detector(self) -> DetectFn:
        if self._detect is None:
            self._detect = self._factory()
        return self._detect

    def state(self) -> QueueState:
        with self._count:
            recent = self._recent[-5:]
            return QueueState(self._busy, sum(recent) / len(recent) if recent else 20.0)

    def read(self, side: str, role: str, path: Path, family: str) -> tuple[dict[str, Any], float]:
        """One photo's cards as read (`photo_to_dict`) and the seconds it took. Raises UserError."""
        sides = [SideInput(name=side, table_photos=[path] if role == TABLE else [], leftover_photos=[path] if role == LEFTOVER else [])]
        with self._count:
            self._busy += 1
        try:
            with self._lock:
                start = time.perf_counter()
                try:
                    photos = read_side_photos(sides, self._detector, family=family)
                except VisionError as exc:
                    raise UserError(str(exc)) from exc
                seconds = time.perf_counter() - start
        finally:
            with self._count:
                self._busy -= 1
        with self._count:
            self._recent.append(seconds)
        return photo_to_dict(photos[0]), seconds


class GameBook:
    """Games kept in a ledger, scored the way `handfoot score` scores."""

    def __init__(self, ledger: Ledger, detect_factory: Callable[[], DetectFn] | None = None) -> None:
        self.ledger = ledger
        if detect_factory is None:
            from handfoot.commands.score_cmd import detector_factory  # noqa: PLC0415

            detect_factory = detector_factory(None)
        self.queue = PhotoQueue(detect_factory)

    # ------------------------------------------------------------ games

    def new_game(self, rules_ref: str, sides: list[SideDef]) -> int:
        """Start a game; its rules are frozen now (a preset or a rules file, base merged in). Returns its id."""
        rules, frozen = frozen_rules(rules_ref)
        check_sides(sides)
        name = rules_ref if rules_ref == rules.name else f"{rules.name} ({Path(rules_ref).name})"
        with self.ledger.change() as tx:
            return tx.add_game(name, frozen, sides)

    def games(self) -> list[dict[str, Any]]:
        """Every game, newest last, with its sides, rounds played and totals."""
        with self.ledger.read() as tx:
            ids = tx.game_ids()
        return [self.sheet(i, rounds=False) for i in ids]

    def sheet(self, game_id: int, rounds: bool = True) -> dict[str, Any]:
        """The score sheet: each round's totals by side, the running totals (confirmed rounds only), the winner
        once the last round is confirmed. `rounds`: also each round's result lines and findings."""
        with self.ledger.read() as tx:
            game = tx.game(game_id)
            rows = [tx.round(game_id, n) for n in tx.round_numbers(game_id)]
        rules = thaw_rules(game.rules)
        running = [0] * len(game.sides)
        out_rounds = []
        for row in rows:
            totals = [s.total if s.total is not None else 0 for s in row.sides]
            if row.confirmed:
                running = [a + b for a, b in zip(running, totals)]
            entry: dict[str, Any] = {
                "number": row.number,
                "confirmed": row.confirmed is not None,
                "totals": totals,
                "running": list(running),
                "has_error": _has_error(row.result),
            }
            if rounds:
                entry["result"] = row.result
            out_rounds.append(entry)
        confirmed = [r for r in rows if r.confirmed]
        finished = len(confirmed) == rules.rounds
        best = max(running) if finished else None
        return {
            "id": game.id,
            "created": game.created,
            "rules": game.rules_name,
            "rules_title": rules.title,
            "rounds_in_game": rules.rounds,
            "sides": [{"name": s.name, "members": list(s.members)} for s in game.sides],
            "rounds": out_rounds,
            "totals": running,
            "open_round": next((r.number for r in rows if not r.confirmed), None),
            "finished": finished,
            "winner": [s.name for s, t in zip(game.sides, running) if t == best] if finished else None,
        }

    # ------------------------------------------------------------ rounds

    def start_round(self, game_id: int) -> int:
        """Open the next round (or return the one still open). Raises Conflict past the game's last round."""
        with self.ledger.change() as tx:
            game = tx.game(game_id)
            numbers = tx.round_numbers(game_id)
            for n in numbers:
                if tx.round(game_id, n).confirmed is None:
                    return n
            rules = thaw_rules(game.rules)
            number = (numbers[-1] if numbers else 0) + 1
            if number > rules.rounds:
                raise Conflict(f"the game is over: {rules.name} has {rules.rounds} rounds")
            round_id = tx.add_round(game_id, number, len(game.sides))
            self._rescore(tx, game, tx.round(game_id, number), round_id)
            return number

    def round_view(self, game_id: int, number: int) -> dict[str, Any]:
        """A round as the page shows it: per side the photos with their cards (after corrections, each with its
        index as read), the corrections, the facts, the breakdown lines, total and findings."""
        with self.ledger.read() as tx:
            game = tx.game(game_id)
            row = tx.round(game_id, number)
        pr, kept = self._score(game, row)
        result = result_to_dict(pr.result)
        sides = []
        for pos, (sdef, state) in enumerate(zip(game.sides, row.sides)):
            scored = result["sides"][pos]
            photos = []
            for prow, photo in zip(row.photos, pr.photos):
                if prow.position != pos:
                    continue
                data = photo_to_dict(photo)
                for card, index in zip(data["cards"], kept[prow.id]):
                    card["index"] = index
                photos.append(
                    {
                        "id": prow.id,
                        "role": prow.role,
                        "label": prow.label,
                        "seconds": prow.seconds,
                        "width": data["width"],
                        "height": data["height"],
                        "cards": data["cards"],
                        "notes": data["notes"],
                    }
                )
            sides.append(
                {
                    "position": pos,
                    "name": sdef.name,
                    "members": list(sdef.members),
                    "went_out": state.went_out,
                    "perfect_deal": state.perfect_deal,
                    "table": state.table,
                    "leftover": state.leftover,
                    "total": scored["total"],
                    "lines": scored["lines"],
                    "findings": scored["findings"],
                    "photos": photos,
                    "corrections": [{"id": c.id, "text": _correction_text(c, row)} for c in row.corrections if c.position == pos],
                }
            )
        return {
            "game": game_id,
            "number": number,
            "rules": game.rules_name,
            "confirmed": row.confirmed is not None,
            "has_error": pr.result.has_error,
            "sides": sides,
        }

    def photo_round(self, game_id: int, number: int) -> PhotoRound:
        """The round scored (for `audit` and the annotated pictures); a photo's path is its display name."""
        with self.ledger.read() as tx:
            game = tx.game(game_id)
            row = tx.round(game_id, number)
        return self._score(game, row)[0]

    def add_photo(self, game_id: int, number: int, position: int, role: str, data: bytes, label: str = "") -> str:
        """Store a photo of a side and read its cards; returns its id. The photo is read before anything is
        stored (queued behind other photos), its file written before its row. Raises UserError (4xx)."""
        if role not in ROLES:
            raise UserError(f"a photo's role is table or leftover, not {role!r}")
        if len(data) > MAX_PHOTO_BYTES:
            raise TooLarge(f"the photo is {len(data) / 2**20:.1f} MB, over the {MAX_PHOTO_BYTES // 2**20} MB limit")
        if not data:
            raise UserError("the photo is an empty file (0 bytes)")
        with self.ledger.read() as tx:
            game = tx.game(game_id)
            row = tx.round(game_id, number)
        _open(row)
        side = _side(game, position)
        photo_id = self.ledger.new_photo_id()
        folder = self.ledger.folder / PHOTOS / str(game_id)
        folder.mkdir(parents=True, exist_ok=True)
        temp = folder / f"{photo_id}.part"
        temp.write_bytes(data)
        final: Path | None = None
        try:
            try:
                check_image(temp)
                fmt = _format(temp)
                read, seconds = self.queue.read(side.name, role, temp, thaw_rules(game.rules).family)
            except (VisionError, UserError) as exc:
                message = _plain(getattr(exc, "message", str(exc)), temp)
                raise (TooLarge if "too large" in message else UserError)(message) from exc
            final = folder / f"{photo_id}{_SUFFIX.get(fmt, '.img')}"
            os.replace(temp, final)
            with open(final, "rb") as fh:
                os.fsync(fh.fileno())
            read["path"] = _label(label, role)
            with self.ledger.change() as tx:
                row = tx.round(game_id, number)
                _open(row)
                tx.add_photo(photo_id, row.id, position, role, str(final.relative_to(self.ledger.folder)), read["path"], read, round(seconds, 2))
                self._rescore(tx, game, tx.round(game_id, number), row.id)
        except BaseException:
            for path in (temp, final):
                if path is not None:
                    path.unlink(missing_ok=True)
            raise
        return photo_id

    def add_photo_file(self, game_id: int, number: int, position: int, role: str, path: Path) -> str:
        """`add_photo` from a file on this machine (the command line's round files). Raises UserError."""
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            raise UserError(f"cannot read photo {path}: {exc.strerror or exc}") from exc
        return self.add_photo(game_id, number, position, role, data, Path(path).name)

    def remove_photo(self, game_id: int, number: int, photo_id: str) -> None:
        """Take a photo (and its corrections) out of an open round."""
        with self.ledger.change() as tx:
            game = tx.game(game_id)
            g, n, photo = tx.photo(photo_id)
            if (g, n) != (game_id, number):
                raise NotFound(f"round {number} of game {game_id} has no photo {photo_id}")
            row = tx.round(game_id, number)
            _open(row)
            tx.delete_photo(photo_id)
            self._rescore(tx, game, tx.round(game_id, number), row.id)
        self.ledger.photo_path(photo.file).unlink(missing_ok=True)

    def correct(
        self,
        game_id: int,
        number: int,
        position: int,
        *,
        photo_id: str | None = None,
        card: int | None = None,
        new: str | None = None,
        add: str | None = None,
        where: str = TABLE,
    ) -> int:
        """Correct a side's cards: change card `card` of a photo to `new` (None removes it), or `add` a missed
        card to the table, the leftover, or a meld of a rank (`where`). Checked by scoring again in the same
        transaction: a correction the cards cannot take is refused and nothing is stored. Returns its id."""
        with self.ledger.change() as tx:
            game = tx.game(game_id)
            row = tx.round(game_id, number)
            _open(row)
            _side(game, position)
            if add is not None:
                try:
                    fix = parse_fix(f"->{_card_name(add)}@{where}")
                except UserError as exc:
                    raise UserError(_unfix(exc.message)) from exc
                cid = tx.add_correction(row.id, position, fix=fix.text)
            else:
                photo = next((p for p in row.photos if p.id == photo_id), None)
                if photo is None or photo.position != position:
                    raise NotFound(f"{game.sides[position].name} has no photo {photo_id} in round {number}")
                if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < len(photo.read["cards"]):
                    raise NotFound(f"the photo has no card {card!r} (it has {len(photo.read['cards'])})")
                if any(c.photo_id == photo_id and c.card == card and c.new is None for c in row.corrections):
                    raise Conflict(f"card {card} of that photo was removed already")
                cid = tx.add_correction(row.id, position, photo_id, card, None if new is None else _card_name(new))
            try:
                self._rescore(tx, game, tx.round(game_id, number), row.id)
            except UserError as exc:  # worded for --fix; here the card was tapped or picked
                raise type(exc)(_unfix(exc.message)) from exc
            return cid

    def undo_correction(self, game_id: int, number: int, correction_id: int) -> None:
        """Take back one correction of an open round."""
        with self.ledger.change() as tx:
            game = tx.game(game_id)
            row = tx.round(game_id, number)
            _open(row)
            tx.delete_correction(row.id, correction_id)
            self._rescore(tx, game, tx.round(game_id, number), row.id)

    def set_facts(self, game_id: int, number: int, position: int, went_out: bool | None = None, perfect_deal: bool | None = None) -> None:
        """Mark a side as gone out / with a perfect deal (or not)."""
        with self.ledger.change() as tx:
            game = tx.game(game_id)
            row = tx.round(game_id, number)
            _open(row)
            _side(game, position)
            state = row.sides[position]
            tx.set_facts(
                row.id,
                position,
                state.went_out if went_out is None else bool(went_out),
                state.perfect_deal if perfect_deal is None else bool(perfect_deal),
            )
            self._rescore(tx, game, tx.round(game_id, number), row.id)

    def confirm(self, game_id: int, number: int) -> None:
        """Confirm a round: its totals join the running totals."""
        with self.ledger.change() as tx:
            row = tx.round(game_id, number)
            _open(row)
            tx.set_confirmed(row.id, True)

    def reopen(self, game_id: int, number: int) -> None:
        """Open a confirmed round again to edit it (its totals leave the running totals until confirmed again).
        Only one round is open at a time."""
        with self.ledger.change() as tx:
            row = tx.round(game_id, number)
            if row.confirmed is None:
                return
            for n in tx.round_numbers(game_id):
                if n != number and tx.round(game_id, n).confirmed is None:
                    raise Conflict(f"round {n} is open: confirm it (or undo it) before editing round {number}")
            tx.set_confirmed(row.id, False)

    def undo(self, game_id: int) -> int:
        """Remove the game's last round (open or confirmed) with its photos; returns its number."""
        with self.ledger.change() as tx:
            tx.game(game_id)
            numbers = tx.round_numbers(game_id)
            if not numbers:
                raise Conflict(f"game {game_id} has no round to undo")
            files = tx.delete_round(tx.round(game_id, numbers[-1]).id)
        for file in files:
            self.ledger.photo_path(file).unlink(missing_ok=True)
        return numbers[-1]

    def add_round_file(self, game_id: int, path: Path) -> int:
        """Add a whole round from a round file (photos and/or typed cards), confirmed; returns its number.

        The file's sides must be the game's, its round the next one, its rules the game's. On any error the
        round is undone, so the ledger is as before."""
        from handfoot.roundfile import load_round  # noqa: PLC0415

        spec = load_round(path)
        with self.ledger.read() as tx:
            game = tx.game(game_id)
            numbers = tx.round_numbers(game_id)
        rules = thaw_rules(game.rules)
        if spec.rules.name != rules.name:
            raise UserError(f"{path} is scored under {spec.rules.name}, but game {game_id} plays {rules.name}")
        names = [s.name for s in game.sides]
        if sorted(s.name for s in spec.sides) != sorted(names):
            raise UserError(f"{path} has the sides {', '.join(s.name for s in spec.sides)}; game {game_id} has {', '.join(names)}")
        expected = (numbers[-1] if numbers else 0) + 1
        if spec.round != expected:
            raise UserError(f"{path} is round {spec.round}; the next round of game {game_id} is {expected}")
        for s in spec.sides:  # every photo checked before any is read or stored
            for photo in s.table_photos + s.leftover_photos:
                try:
                    check_image(photo)
                except VisionError as exc:
                    raise UserError(str(exc)) from exc
        number = self.start_round(game_id)
        try:
            for s in spec.sides:
                pos = names.index(s.name)
                for role, photos in ((TABLE, s.table_photos), (LEFTOVER, s.leftover_photos)):
                    for photo in photos:
                        self.add_photo_file(game_id, number, pos, role, photo)
                with self.ledger.change() as tx:
                    row = tx.round(game_id, number)
                    tx.set_typed(row.id, pos, s.table, s.leftover)
                    tx.set_facts(row.id, pos, s.went_out, s.perfect_deal)
                    self._rescore(tx, game, tx.round(game_id, number), row.id)
            self.confirm(game_id, number)
        except BaseException:
            self.undo(game_id)
            raise
        return number

    # ------------------------------------------------------------ export

    def export_json(self, game_id: int) -> dict[str, Any]:
        """The score sheet with every round's full result (lines, findings, photos' cards, input)."""
        sheet = self.sheet(game_id)
        with self.ledger.read() as tx:
            sheet["rules_frozen"] = tx.game(game_id).rules
        return sheet

    def export_csv(self, game_id: int) -> str:
        """One row per round and side: round, status, side, round total, running total."""
        sheet = self.sheet(game_id, rounds=False)
        buf = io.StringIO()
        out = csv.writer(buf, lineterminator="\n")
        out.writerow(["round", "status", "side", "total", "running_total"])
        for r in sheet["rounds"]:
            for side, total, running in zip(sheet["sides"], r["totals"], r["running"]):
                out.writerow([r["number"], "confirmed" if r["confirmed"] else "open", side["name"], total, running])
        return buf.getvalue()

    # ------------------------------------------------------------ scoring

    def _score(self, game: GameRow, row: RoundRow) -> tuple[PhotoRound, dict[str, list[int]]]:
        """Score a round from what the ledger keeps; also each photo's card indices as read, in order."""
        rules = thaw_rules(game.rules)
        sides = []
        for pos, (sdef, state) in enumerate(zip(game.sides, row.sides)):
            sides.append(
                SideInput(
                    name=sdef.name,
                    went_out=state.went_out,
                    perfect_deal=state.perfect_deal,
                    table=state.table,
                    leftover=state.leftover,
                    partners=True if sdef.partners else None,
                    one_player=not sdef.partners,
                    fixes=[parse_fix(c.fix) for c in row.corrections if c.position == pos and c.fix],
                )
            )
        names = {s.name for s in sides}
        photos, kept = [], {}
        for prow in row.photos:
            read = dict(prow.read, side=game.sides[prow.position].name, path=prow.label)
            photo = photo_from_dict(read, f"photo {prow.id}", names)
            edits = [CardEdit(c.card, c.new) for c in row.corrections if c.photo_id == prow.id and c.card is not None]
            kept[prow.id] = apply_card_edits(photo, edits)
            photos.append(photo)
        return score_photo_round(rules, game.rules_name, row.number, sides, photos), kept

    def _rescore(self, tx: Any, game: GameRow, row: RoundRow, round_id: int) -> None:
        pr, _ = self._score(game, row)
        tx.save_result(round_id, photo_round_to_dict(pr, result_to_dict(pr.result)), [s.total for s in pr.result.sides])


def _has_error(result: dict[str, Any] | None) -> bool:
    return bool(result) and any(f["level"] == ERROR for s in result["sides"] for f in s["findings"])


def _open(row: RoundRow) -> None:
    if row.confirmed is not None:
        raise Conflict(f"round {row.number} is confirmed: edit it first to change it")


def _side(game: GameRow, position: int) -> SideDef:
    if not isinstance(position, int) or not 0 <= position < len(game.sides):
        raise NotFound(f"game {game.id} has no side {position} (sides 0 to {len(game.sides) - 1})")
    return game.sides[position]


def _card_name(text: Any) -> str:
    name = str(text).upper()
    if name not in CLASS_NAMES:
        raise UserError(f"unknown card {text!r} (cards: {' '.join(CLASS_NAMES)})")
    return name


def _format(path: Path) -> str:
    from PIL import Image  # noqa: PLC0415

    with Image.open(path) as img:
        return img.format or ""


def _unfix(message: str) -> str:
    """A --fix message without its "--fix '...': " opening (on the page a card is tapped or picked)."""
    return re.sub(r"^--fix '[^']*': ", "", message)


def _plain(message: str, path: Path) -> str:
    """An image error without the server's temporary file name."""
    return message.replace(f": {path}", "").replace(f" {path}:", ":").replace(str(path), "the photo")


def _label(label: str, role: str) -> str:
    """A display name for a photo from the client's file name: letters, digits, dot, dash, underscore only."""
    base = "".join(ch for ch in Path(label.replace("\\", "/")).name if ch.isalnum() or ch in "._-")[:60]
    return base or f"{role}.jpg"


def _correction_text(c: Any, row: RoundRow) -> str:
    if c.fix:
        return f"added {c.fix.removeprefix('->').replace('@', ' to ')}"
    photo = next((p for p in row.photos if p.id == c.photo_id), None)
    old = photo.read["cards"][c.card]["class"] if photo is not None and c.card < len(photo.read["cards"]) else "?"
    where = f" ({photo.label})" if photo is not None else ""
    return f"{old} -> {c.new}{where}" if c.new else f"removed {old}{where}"
