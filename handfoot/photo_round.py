"""Photos -> cards -> melds -> scoring: a round scored from pictures.

The wiring between `vision` (which knows classes and geometry) and `scoring`
(which knows points): each photo is read into cards by the reading pipe
(`vision.pipe`), corrections are applied, a table photo is laid out into melds
(the pipe's `layout` stage), the groups become a `scoring.rounds.SideRound`
beside any typed-in cards, and what vision could not place comes back as
findings:

- a face-down card (BACK): warning, "turn it over and photograph again";
- a card that lies in no meld's column: error, it is not scored;
- a rank lying in two columns, or a photo with no cards: warning;
- a blurred photo (`vision/sharpness.py`): warning, "check its cards, or photograph it again".

Corrections without re-photographing (`CardFix`): "8->9" turns the least
confident detected 8 into a 9, "8->" removes it, "->K@table" (or @leftover)
adds a card. A result saved as JSON (`photo_round_to_dict`) holds every card
with its corner boxes, so it can be edited and scored again (`from_dict`)
without the model.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from handfoot.errors import UserError
from scoring.cards import BLACK3, NATURAL, RED3, WILD
from scoring.detection_classes import CLASS_NAMES
from scoring.engine import score_round
from scoring.melds import kind_of
from scoring.rounds import ERROR, WARNING, Finding, RoundResult, SideResult, SideRound
from scoring.rules import Rules
from vision import pipe
from vision.detection import Card, Detection
from vision.imageio import check_image
from vision.ink import FOOT_WILDS, THREES
from vision.layout import DeckLayout
from vision.pipe import LEFTOVER, ROLES, TABLE, DetectFn, Settings, lay_out
from vision.sharpness import BLURRED, is_blurred

# where a card ended up
IN_MELD = "meld"
IN_RED3 = "red3"
FACE_DOWN = "back"
UNPLACED = "unplaced"
LEFT_OVER = "leftover"


# ---------------------------------------------------------------- fixes


@dataclass(frozen=True)
class CardFix:
    """One correction: change (old->new), delete (old->) or add (->new@where).

    side: the side whose cards it touches ("Ann:8->9"); None means any side
    (changes) or the only side (additions). meld: for an addition to the
    table, the rank whose meld the card joins ("->JOKER@K"); None lets the
    card's own rank decide.
    """

    old: str | None
    new: str | None
    where: str | None = None  # table | leftover, only for additions
    side: str | None = None
    text: str = ""
    meld: str | None = None


_FIX = re.compile(r"^\s*(?:([^:>]+?)\s*:)?\s*([A-Za-z0-9]*)\s*->\s*([A-Za-z0-9]*)\s*(?:@\s*([A-Za-z0-9]+))?\s*$")


def _class_name(text: str, fix: str) -> str:
    name = text.upper()
    if name not in CLASS_NAMES:
        raise UserError(f"--fix {fix!r}: unknown card {text!r} (cards: {', '.join(CLASS_NAMES)})")
    return name


def parse_fix(text: str) -> CardFix:
    """Parse "8->9", "8->", "->K@table", "->K@leftover", "->JOKER@K", each optionally "SIDE:...".

    Raises UserError.
    """
    m = _FIX.match(text)
    if not m or not (m.group(2) or m.group(3)):
        raise UserError(
            f'--fix {text!r}: write OLD->NEW ("8->9"), OLD-> to delete ("8->"), '
            "->NEW@table / ->NEW@leftover to add a card, or ->NEW@RANK to add it to that rank's meld "
            '("->JOKER@K"); put SIDE: in front to name a side'
        )
    side = m.group(1).strip() if m.group(1) else None
    old = _class_name(m.group(2), text) if m.group(2) else None
    new = _class_name(m.group(3), text) if m.group(3) else None
    where = m.group(4) if m.group(4) else None
    if old is not None:
        if where is not None:
            raise UserError(f"--fix {text!r}: @{where} is only for additions (->NEW@table)")
        return CardFix(old, new, None, side, text.strip())
    meld = None
    if where is None or where.lower() in ROLES:
        where = (where or TABLE).lower()
    elif where.upper() in CLASS_NAMES:
        where, meld = TABLE, where.upper()
    else:
        raise UserError(f"--fix {text!r}: add to @table, @leftover or @RANK (a meld's rank, e.g. @K), not @{where}")
    return CardFix(None, new, where, side, text.strip(), meld)


# ---------------------------------------------------------------- photos


@dataclass
class PhotoCards:
    """One photo's cards: joined from detections, possibly corrected, then placed."""

    path: Path
    role: str  # table | leftover
    side: str
    width: int
    height: int
    cards: list[Card]
    fixed: set[int] = field(default_factory=set)  # indices of cards a --fix changed
    place: dict[int, str] = field(default_factory=dict)  # card index -> where it went
    group: dict[int, int] = field(default_factory=dict)  # card index -> table group index
    notes: list[str] = field(default_factory=list)
    blur: float | None = None  # `vision.sharpness.photo_blur` of its sure boxes (None: too few to say)
    colour: bool = True  # False: a grey photo (`vision.ink.has_colour`), where no card can be named by its ink


def read_photo(path: Path, role: str, side: str, detect: DetectFn, family: str = "standard", wilds: bool = True, jokers: bool = True) -> PhotoCards:
    """`side`'s photo of `role` read by the reading pipe (`vision.pipe.read`); `wilds`: boxes named again by the
    second-look readers and corners looked at again as whole cards; `jokers`: joker boxes grouped again."""
    flow = pipe.read(Path(path), role, Settings(detect=detect, family=family, wilds=wilds, jokers=jokers))
    width, height = flow.frame
    return PhotoCards(Path(path), role, side, width, height, flow.cards, notes=flow.notes, blur=flow.blur, colour=flow.colour)


# ---------------------------------------------------------------- sides


@dataclass
class SideInput:
    """What one side brings: typed cards, photos, facts, corrections."""

    name: str
    went_out: bool = False
    perfect_deal: bool = False
    table: list[list[str]] = field(default_factory=list)
    leftover: list[list[str]] = field(default_factory=list)
    table_photos: list[Path] = field(default_factory=list)
    leftover_photos: list[Path] = field(default_factory=list)
    fixes: list[CardFix] = field(default_factory=list)
    partners: bool | None = None
    one_player: bool = False  # all leftover photos belong to one player (hand and foot)


#: Players in a partnership side (Hand and Foot partners play in pairs).
PARTNERSHIP_PLAYERS = 2


@dataclass
class PhotoRound:
    """A scored round with the photos and cards it came from."""

    rules: Rules
    rules_name: str
    round_no: int
    sides: list[SideInput]
    photos: list[PhotoCards]
    result: RoundResult
    tables: dict[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict)
    leftovers: dict[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict)


def deck_layout(rules: Rules) -> DeckLayout:
    """The wild classes, red-three class, meld keys and non-natural classes of the rules' deck family."""
    wilds: set[str] = set()
    red3: str | None = None
    keys: dict[str, str] = {}
    others: set[str] = set()
    for cls in CLASS_NAMES:
        kind = kind_of(rules, cls)
        if kind.category == WILD:
            wilds.add(cls)
        elif kind.category == RED3:
            red3 = cls
        if kind.category not in (NATURAL, BLACK3):
            others.add(cls)
        if kind.rank:
            keys[cls] = kind.rank
    return DeckLayout(frozenset(wilds), red3, keys, frozenset(others))


def _group_rank(rules: Rules, group: Sequence[str]) -> str | None:
    for cls in group:
        kind = kind_of(rules, cls)
        if kind.category == NATURAL or kind.rank:
            return kind.rank or cls
    return None


def _is_red3_row(rules: Rules, group: Sequence[str]) -> bool:
    return bool(group) and all(kind_of(rules, c).category == RED3 for c in group)


def _where(card: Card, photo: PhotoCards) -> str:
    x, y = card.center
    return f"{photo.path.name} at x={x:.0f}, y={y:.0f}"


def apply_fixes(photos: list[PhotoCards], fixes: Sequence[CardFix]) -> list[CardFix]:
    """Apply changes and deletions to the least confident matching card; return additions.

    Raises UserError when no detected card of the old class is left to fix.
    """
    additions: list[CardFix] = []
    for fix in fixes:
        if fix.old is None:
            additions.append(fix)
            continue
        best: tuple[float, int, int] | None = None
        for p, photo in enumerate(photos):
            if fix.side is not None and photo.side != fix.side:
                continue
            for i, card in enumerate(photo.cards):
                if card.cls == fix.old and i not in photo.fixed:
                    if best is None or card.conf < best[0]:
                        best = (card.conf, p, i)
        if best is None:
            whose = f" on {fix.side}'s photos" if fix.side else ""
            raise UserError(f"--fix {fix.text!r}: no detected {fix.old} card{whose} to change")
        _, p, i = best
        _change_card(photos[p], i, fix.new, fix.text)
    return additions


def _change_card(photo: PhotoCards, i: int, new: str | None, text: str) -> None:
    """Card `i` of a photo becomes a `new` (sure, kept where it lies) or, with None, is removed; noted."""
    card = photo.cards[i]
    if new is None:
        del photo.cards[i]
        photo.fixed = {k if k < i else k - 1 for k in photo.fixed if k != i}
        photo.notes.append(f"fix {text}: removed the {card.cls} {_where(card, photo)}")
    else:
        corners = tuple(replace(d, cls=new, conf=1.0) for d in card.corners)
        photo.cards[i] = Card(new, 1.0, corners)
        photo.fixed.add(i)
        photo.notes.append(f"fix {text}: the {card.cls} {_where(card, photo)} is a {new}")


@dataclass(frozen=True)
class CardEdit:
    """A correction of one card picked on the picture (a tap): card `index` of the photo as read becomes
    `new`, or is removed (None). Unlike a CardFix it names the very card, not the least sure of a class."""

    index: int
    new: str | None


def apply_card_edits(photo: PhotoCards, edits: Sequence[CardEdit]) -> list[int]:
    """Apply edits to a photo's cards as read, in order (a later edit of the same card wins); return, for each
    card left, its index as read, so a picture can name cards stably however many were removed.

    Raises UserError for an index the photo does not have or an unknown card.
    """
    final: dict[int, str | None] = {}
    for edit in edits:
        if not 0 <= edit.index < len(photo.cards):
            raise UserError(f"the photo has no card {edit.index} (it has {len(photo.cards)})")
        if edit.new is not None and edit.new not in CLASS_NAMES:
            raise UserError(f"unknown card {edit.new!r} (cards: {', '.join(CLASS_NAMES)})")
        final[edit.index] = edit.new
    kept = list(range(len(photo.cards)))
    for i in sorted(final, reverse=True):  # from the end, so earlier indices still hold
        old, new = photo.cards[i].cls, final[i]
        if new == old and i not in photo.fixed:
            continue
        _change_card(photo, i, new, f"{old}->{new or ''}")
        if new is None:
            del kept[i]
    return kept


def _place_table(rules: Rules, deck: DeckLayout, photo: PhotoCards, groups: list[list[str]]) -> list[Finding]:
    """Lay out one table photo, merge its melds into `groups`, return its findings."""
    findings: list[Finding] = []
    lay = lay_out(TABLE, photo.cards, deck, keep=[photo.cards[i] for i in photo.fixed])
    index = {id(c): i for i, c in enumerate(photo.cards)}
    for old, new in lay.reread:  # a misread natural inside another rank's column, read as that rank
        i = index.pop(id(old))
        photo.cards[i] = new
        index[id(new)] = i
    for meld in lay.melds:
        classes = [c.cls for c in meld]
        rank = _group_rank(rules, classes)
        target = next(
            (g for g, cards in enumerate(groups) if rank is not None and _group_rank(rules, cards) == rank),
            None,
        )
        if target is None:
            groups.append([])
            target = len(groups) - 1
        groups[target].extend(classes)
        for c in meld:
            photo.place[index[id(c)]] = IN_MELD
            photo.group[index[id(c)]] = target
    if lay.red_threes:
        target = next((g for g, cards in enumerate(groups) if _is_red3_row(rules, cards)), None)
        if target is None:
            groups.append([])
            target = len(groups) - 1
        for c in lay.red_threes:
            groups[target].append(c.cls)
            photo.place[index[id(c)]] = IN_RED3
            photo.group[index[id(c)]] = target
    findings.extend(_face_down(photo, lay.backs, index))
    for c in lay.unplaced:
        photo.place[index[id(c)]] = UNPLACED
        findings.append(
            Finding(
                ERROR,
                f"table photo {_where(c, photo)}: a {c.cls} lies in no meld's column, so it is not "
                "scored: move it into its meld's column and photograph again, or add it with --fix",
                photo.side,
            )
        )
    for note in lay.notes:
        findings.append(Finding(WARNING, f"table photo {photo.path.name}: {note}", photo.side))
    return findings


def _face_down(photo: PhotoCards, backs: list[Card], index: dict[int, int]) -> list[Finding]:
    """Mark face-down cards and warn about each (table and leftover photos alike)."""
    for c in backs:
        photo.place[index[id(c)]] = FACE_DOWN
    return [
        Finding(WARNING, f"{photo.role} photo {_where(c, photo)}: a card is face down: turn it over and photograph again", photo.side) for c in backs
    ]


def _place_leftover(photo: PhotoCards) -> tuple[list[str], list[Finding]]:
    lay = lay_out(LEFTOVER, photo.cards)
    index = {id(c): i for i, c in enumerate(photo.cards)}
    findings = []
    for c in lay.cards:
        photo.place[index[id(c)]] = LEFT_OVER
    findings.extend(_face_down(photo, lay.backs, index))
    return [c.cls for c in lay.cards], findings


def _addition_group(rules: Rules, side: str, fix: CardFix, groups: list[list[str]]) -> int:
    """Which table group a card added with --fix joins; a new group when no meld fits.

    Raises UserError when the fix names a meld ("->JOKER@K") the side does not have.
    """
    rank = _group_rank(rules, [fix.meld or fix.new])
    target = next((g for g, cards in enumerate(groups) if rank is not None and _group_rank(rules, cards) == rank), None)
    if fix.meld is not None and target is None:
        if rank is None:
            raise UserError(f"--fix {fix.text!r}: @{fix.meld} is not a rank that makes a meld; name one (e.g. @K)")
        ranks = sorted({r for g in groups if (r := _group_rank(rules, g)) is not None})
        have = f"its melds: {', '.join(ranks)}" if ranks else "it has no melds"
        raise UserError(f"--fix {fix.text!r}: {side} has no meld of {rank} to add to ({have})")
    if target is None and kind_of(rules, fix.new).category == RED3:
        target = next((g for g, cards in enumerate(groups) if _is_red3_row(rules, cards)), None)
    if target is None:
        groups.append([])
        target = len(groups) - 1
    return target


def blurred_message(photo: PhotoCards) -> str:
    """The warning for a blurred photo (`vision.sharpness.is_blurred`)."""
    return (
        f"{photo.role} photo {photo.path.name} looks blurred (its index edges are {photo.blur:.1%} of an index "
        f"wide, over the {BLURRED:.1%} where misreads grow common): check its cards on the picture, or hold the "
        "camera still and photograph it again"
    )


def ink_named(family: str) -> tuple[str, ...]:
    """The classes a deck `family` tells apart by ink alone on some of its designs (DESIGN.md): red and black 3s,
    and Bare Foot's blue 20-point and red 50-point wilds."""
    return THREES + FOOT_WILDS if family == "barefoot" else THREES


def colourless_message(photo: PhotoCards, family: str) -> str | None:
    """The warning for a grey photo holding cards that ink tells apart (`ink_named`); None where it needs none."""
    named = sorted({c.cls for c in photo.cards} & set(ink_named(family)))
    if photo.colour or not named:
        return None
    count = sum(c.cls in named for c in photo.cards)
    inks = "the colour of a 3" + (" and of a foot wild" if family == "barefoot" else "")
    return (
        f"{photo.role} photo {photo.path.name} has no colour, so {inks} could only be guessed from its print "
        f"({count} {'card' if count == 1 else 'cards'}: {' '.join(named)}): check them on the picture, or "
        "photograph it again in colour"
    )


def build_side(rules: Rules, side: SideInput, photos: list[PhotoCards]) -> tuple[SideRound, list[Finding]]:
    """Typed cards plus photo cards -> the SideRound to score, and the photo findings."""
    deck = deck_layout(rules)
    findings: list[Finding] = []
    for photo in photos:
        photo.place.clear()
        photo.group.clear()
    additions = [f for f in side.fixes if f.old is None]
    groups = [list(g) for g in side.table if g]
    leftover = [list(g) for g in side.leftover]
    for photo in photos:
        if not photo.cards:
            findings.append(Finding(WARNING, f"{photo.role} photo {photo.path.name}: no cards found", side.name))
        if is_blurred(photo.blur):
            findings.append(Finding(WARNING, blurred_message(photo), side.name))
        if (grey := colourless_message(photo, rules.family)) is not None:
            findings.append(Finding(WARNING, grey, side.name))
        if photo.role == TABLE:
            findings.extend(_place_table(rules, deck, photo, groups))
    left_photos = [p for p in photos if p.role == LEFTOVER]
    for k, photo in enumerate(left_photos):
        cards, found = _place_leftover(photo)
        findings.extend(found)
        player = 0 if side.one_player else k
        while len(leftover) <= player:
            leftover.append([])
        leftover[player].extend(cards)
    if side.partners and not side.one_player:
        # A partner who went out holds nothing and has no leftover photo: still a player of the side.
        while len(leftover) < PARTNERSHIP_PLAYERS:
            leftover.append([])
    for fix in additions:
        if fix.where == LEFTOVER:
            if not leftover:
                leftover.append([])
            leftover[0].append(fix.new)
        else:
            groups[_addition_group(rules, side.name, fix, groups)].append(fix.new)
    side_round = SideRound(
        name=side.name,
        table=tuple(tuple(g) for g in groups if g),
        leftover=tuple(tuple(g) for g in leftover),
        went_out=side.went_out,
        perfect_deal=side.perfect_deal,
        partners=side.partners,
    )
    return side_round, findings


def score_photo_round(
    rules: Rules,
    rules_name: str,
    round_no: int,
    sides: Sequence[SideInput],
    photos: Sequence[PhotoCards],
    fixes: Sequence[CardFix] = (),
) -> PhotoRound:
    """Score sides whose photos are already read (detected, or loaded from JSON).

    `fixes` are applied first: changes and deletions to the least confident
    matching card of any photo (of the named side), additions to their side
    (kept in that side's `fixes`, so a saved result re-adds them).
    """
    names = [s.name for s in sides]
    for fix in fixes:
        if fix.side is not None and fix.side not in names:
            raise UserError(f"--fix {fix.text!r}: no side named {fix.side!r} (sides: {', '.join(names)})")
    for fix in apply_fixes(list(photos), fixes):
        if fix.side is None and len(sides) > 1:
            raise UserError(f"--fix {fix.text!r}: name the side to add the card to, e.g. {names[0]}:{fix.text}")
        target = next(s for s in sides if fix.side in (None, s.name))
        target.fixes.append(fix)
    rounds = []
    extra: dict[str, list[Finding]] = {}
    for side in sides:
        mine = [p for p in photos if p.side == side.name]
        side_round, found = build_side(rules, side, mine)
        rounds.append(side_round)
        extra[side.name] = found
    try:
        result = score_round(rules, round_no, rounds)
    except ValueError as exc:
        raise UserError(str(exc)) from exc
    merged = tuple(SideResult(r.name, r.total, r.lines, r.findings + tuple(extra.get(r.name, ())), r.melds) for r in result.sides)
    result = RoundResult(result.rules, result.round, merged)
    return PhotoRound(
        rules=rules,
        rules_name=rules_name,
        round_no=round_no,
        sides=list(sides),
        photos=list(photos),
        result=result,
        tables={s.name: s.table for s in rounds},
        leftovers={s.name: s.leftover for s in rounds},
    )


def read_side_photos(
    sides: Sequence[SideInput],
    detect_factory: Callable[[], DetectFn],
    progress: Callable[[Path], None] | None = None,
    family: str = "standard",
    wilds: bool = True,
    jokers: bool = True,
) -> list[PhotoCards]:
    """Detect cards on every side's photos of a deck `family`; the detector is loaded only when a photo exists.
    `wilds`: boxes are named again by the second-look readers (`vision.pipe.name_wilds`); `jokers`: joker boxes
    are grouped by the joker grouper (`read_photo`).

    Every photo is loaded first, so a bad path fails before the model is touched.
    """
    todo = [(p, TABLE, s.name) for s in sides for p in s.table_photos]
    todo += [(p, LEFTOVER, s.name) for s in sides for p in s.leftover_photos]
    if not todo:
        return []
    for path, _, _ in todo:
        check_image(Path(path))  # a bad photo fails before the model is loaded
    detect = detect_factory()
    out = []
    for path, role, side in todo:
        if progress is not None:
            progress(Path(path))
        out.append(read_photo(Path(path), role, side, detect, family, wilds, jokers))
    return out


# ---------------------------------------------------------------- JSON


def _round_box(box: Sequence[float]) -> list[float]:
    return [round(float(v), 1) for v in box]


def card_to_dict(card: Card, photo: PhotoCards, i: int) -> dict[str, Any]:
    """One card of a photo as JSON: class, confidence, box, corner boxes, where it went."""
    out: dict[str, Any] = {
        "class": card.cls,
        "conf": round(float(card.conf), 3),
        "box": _round_box(card.box),
        "corners": [_round_box(d.box) for d in card.corners],
        "place": photo.place.get(i, ""),
    }
    if card.marks:
        out["marks"] = [_round_box(d.box) for d in card.marks]  # more of its own marks (a joker's word)
    if i in photo.group:
        out["meld"] = photo.group[i] + 1  # counted from 1, as players count
    if i in photo.fixed:
        out["fixed"] = True
    return out


def photo_to_dict(photo: PhotoCards) -> dict[str, Any]:
    """A photo's cards as JSON."""
    return {
        "path": str(photo.path),
        "role": photo.role,
        "side": photo.side,
        "width": photo.width,
        "height": photo.height,
        "cards": [card_to_dict(c, photo, i) for i, c in enumerate(photo.cards)],
        "notes": list(photo.notes),
        "blur": None if photo.blur is None else round(photo.blur, 4),
        "colour": photo.colour,
    }


def photo_round_to_dict(pr: PhotoRound, result_dict: dict[str, Any]) -> dict[str, Any]:
    """The round result's JSON (as `score-round` prints it) plus photos and the input.

    `result_dict` is `handfoot.report.result_to_dict(pr.result)`; "input" keeps
    what `rescore` needs: rules, round, each side's facts and typed cards.
    """
    out = dict(result_dict)
    out["photos"] = [photo_to_dict(p) for p in pr.photos]
    out["input"] = {
        "rules": pr.rules_name,
        "round": pr.round_no,
        "sides": [
            {
                "name": s.name,
                "went_out": s.went_out,
                "perfect_deal": s.perfect_deal,
                "partners": s.partners,
                "one_player": s.one_player,
                "table": [list(g) for g in s.table],
                "leftover": [list(g) for g in s.leftover],
                "fixes": [f.text for f in s.fixes if f.old is None],
            }
            for s in pr.sides
        ],
    }
    return out


def _need(data: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(data, dict) or key not in data:
        raise UserError(f"{where}: missing {key!r}")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise UserError(f"{where}: {key!r} has the wrong type ({type(value).__name__})")
    return value


def _box(value: Any, where: str) -> tuple[float, float, float, float]:
    if not isinstance(value, list) or len(value) != 4 or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        raise UserError(f"{where}: a box is four numbers [x1, y1, x2, y2], got {value!r}")
    x1, y1, x2, y2 = (float(v) for v in value)
    return (min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2))


def _cards(items: Any, where: str) -> list[list[str]]:
    if not isinstance(items, list) or not all(isinstance(g, list) for g in items):
        raise UserError(f"{where}: expected a list of card lists")
    out = []
    for g in items:
        group = []
        for c in g:
            if not isinstance(c, str) or c.upper() not in CLASS_NAMES:
                raise UserError(f"{where}: unknown card {c!r}")
            group.append(c.upper())
        out.append(group)
    return out


def inputs_from_dict(data: Any, source: str) -> tuple[str, int, list[SideInput], list[PhotoCards]]:
    """Read a saved result (possibly edited by hand) back: rules name, round, sides, photos.

    A photo's card may be edited ("class"), deleted, or added with only a
    "class" and a "box"; cards are laid out and scored again, no model needed.
    Raises UserError naming the bad entry.
    """
    where = source
    inp = _need(data, "input", dict, where)
    rules_name = _need(inp, "rules", str, f"{where}: input")
    round_no = _need(inp, "round", int, f"{where}: input")
    sides = []
    for k, s in enumerate(_need(inp, "sides", list, f"{where}: input")):
        w = f"{where}: input.sides[{k}]"
        fixes = [parse_fix(t) for t in s.get("fixes", [])] if isinstance(s, dict) else []
        sides.append(
            SideInput(
                name=_need(s, "name", str, w),
                went_out=bool(s.get("went_out", False)),
                perfect_deal=bool(s.get("perfect_deal", False)),
                partners=s.get("partners"),
                one_player=bool(s.get("one_player", False)),
                table=_cards(s.get("table", []), w + ".table"),
                leftover=_cards(s.get("leftover", []), w + ".leftover"),
                fixes=fixes,
            )
        )
    names = {s.name for s in sides}
    photos = [photo_from_dict(p, f"{where}: photos[{k}]", names) for k, p in enumerate(data.get("photos", []) if isinstance(data, dict) else [])]
    return rules_name, round_no, sides, photos


def photo_from_dict(p: Any, where: str, names: set[str]) -> PhotoCards:
    """One photo's cards from its JSON (`photo_to_dict`, possibly edited): a card needs a "class" and a
    "box" (or "corners"). Raises UserError naming the bad entry (`where`)."""
    w = where
    role = _need(p, "role", str, w)
    side = _need(p, "side", str, w)
    if role not in ROLES:
        raise UserError(f"{w}: role must be table or leftover, not {role!r}")
    if side not in names:
        raise UserError(f"{w}: side {side!r} is not one of {sorted(names)}")
    cards = []
    for j, c in enumerate(_need(p, "cards", list, w)):
        cw = f"{w}.cards[{j}]"
        cls = _need(c, "class", str, cw).upper()
        if cls not in CLASS_NAMES:
            raise UserError(f"{cw}: unknown card {cls!r}")
        conf = float(c.get("conf", 1.0))
        corner_boxes = c.get("corners") or [c.get("box")]
        if corner_boxes == [None]:
            raise UserError(f'{cw}: give the card a "box"')
        corners = tuple(Detection(cls, conf, _box(b, cw)) for b in corner_boxes)
        marks = tuple(Detection(cls, conf, _box(b, cw)) for b in _need(c, "marks", list, cw)) if "marks" in c else ()
        cards.append(Card(cls, conf, corners, marks))
    blur = p.get("blur")
    if blur is not None and (isinstance(blur, bool) or not isinstance(blur, (int, float))):
        raise UserError(f"{w}: 'blur' is a number or null, not {blur!r}")
    colour = p.get("colour", True)
    if not isinstance(colour, bool):
        raise UserError(f"{w}: 'colour' is true or false, not {colour!r}")
    return PhotoCards(
        path=Path(_need(p, "path", str, w)),
        role=role,
        side=side,
        width=int(p.get("width", 0)),
        height=int(p.get("height", 0)),
        cards=cards,
        blur=None if blur is None else float(blur),
        colour=colour,
    )


# ---------------------------------------------------------------- audit helpers


@dataclass(frozen=True)
class UnsureCard:
    """A detected card to check by eye: the least confident ones first."""

    side: str
    photo: str
    cls: str
    conf: float
    x: float
    y: float
    place: str
    meld: int | None


def least_sure(pr: PhotoRound, count: int = 8) -> list[UnsureCard]:
    """The `count` cards the detector was least sure of (corrected cards excluded)."""
    found = []
    for photo in pr.photos:
        for i, card in enumerate(photo.cards):
            if i in photo.fixed:
                continue
            x, y = card.center
            meld = photo.group.get(i)
            found.append(
                UnsureCard(photo.side, str(photo.path), card.cls, card.conf, x, y, photo.place.get(i, ""), None if meld is None else meld + 1)
            )
    found.sort(key=lambda u: u.conf)
    return found[:count]


# ---------------------------------------------------------------- annotated images

_PLACE_COLOUR = {
    IN_MELD: "GREEN",
    IN_RED3: "MAGENTA",
    FACE_DOWN: "ORANGE",
    UNPLACED: "RED",
    LEFT_OVER: "BLUE",
}


def _meld_label(side: SideResult | None, g: int) -> str:
    if side is None or g >= len(side.melds):
        return f"meld {g + 1}"
    m = side.melds[g]
    if m.kind == "red3s":
        return f"red 3s: {m.points:+d}"
    kind = {
        "clean": "clean book",
        "dirty": "dirty book",
        "clothing_stack": "clothing stack",
        "clothing_set": "clothing set",
        "invalid": "INVALID",
    }.get(m.kind, "meld")
    rank = f"{m.rank}s" if m.rank else "?"
    return f"meld {g + 1} ({rank}, {kind}): {m.points:+d}"


def _meld_short(side: SideResult | None, g: int) -> str:
    if side is None or g >= len(side.melds):
        return f"meld {g + 1}"
    m = side.melds[g]
    return f"red 3s {m.points:+d}" if m.kind == "red3s" else f"meld {g + 1}: {m.points:+d}"


def annotate_photo(pr: PhotoRound, photo: PhotoCards, image: np.ndarray) -> np.ndarray:
    """The photo with every card boxed and named, melds outlined with their points,
    and the side's total and findings written at the top."""
    from vision import annotate as draw  # noqa: PLC0415  (cv2 drawing only when asked)

    side = next((s for s in pr.result.sides if s.name == photo.side), None)
    marks = []
    for i, card in enumerate(photo.cards):
        colour = getattr(draw, _PLACE_COLOUR.get(photo.place.get(i, ""), "GREEN"))
        star = "*" if i in photo.fixed else ""
        boxes = tuple(d.box for d in card.corners + card.marks)
        marks.append(draw.CardMark(boxes, f"{card.cls}{star} {card.conf:.2f}", colour))
    groups: dict[int, list] = {}
    for i, g in photo.group.items():
        groups.setdefault(g, []).extend(d.box for d in photo.cards[i].corners)
    group_marks = [draw.GroupMark(tuple(boxes), _meld_short(side, g)) for g, boxes in sorted(groups.items())]
    header = [f"{photo.side}: {photo.role} photo {photo.path.name}"]
    if side is not None:
        header[0] += f" - side total {side.total}"
        header += [_meld_label(side, g) for g in sorted(groups)]
        for f in side.findings[:8]:
            text = f"{f.level}: {f.message}"
            header.append(text if len(text) <= 110 else text[:107] + "...")
    header += photo.notes[:4]
    return draw.annotate(image, marks, group_marks, header)
