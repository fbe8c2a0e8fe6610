"""Score a round: each side's table and leftovers under a rule set -> lines, total, findings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from scoring.cards import BACK, BLACK3, FOREIGN, RED3
from scoring.melds import (
    BLACK3_AGAINST,
    CLOTHING_AGAINST,
    RED3_AGAINST,
    TABLE_CARDS,
    GroupScore,
    analyse_table,
    kind_of,
)
from scoring.melds import card_value as _card_value
from scoring.rounds import ERROR, WARNING, Finding, Line, RoundResult, SideResult, SideRound
from scoring.rules import Rules

__all__ = ["card_value", "score_side", "score_round"]


def card_value(rules: Rules, cls: str) -> int:
    """Points of one card (class name) under `rules`: +value on the table, -value left over."""
    return _card_value(rules, cls)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


@dataclass
class _Sheet:
    """One side's score sheet while it is filled in: breakdown lines and findings, in order."""

    name: str
    lines: list[Line] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)

    def add(self, label: str, points: int) -> None:
        self.lines.append(Line(label, points))

    def find(self, level: str, message: str, meld: int | None = None) -> None:
        self.findings.append(Finding(level, message, self.name, meld))


def score_side(rules: Rules, round_no: int, side: SideRound) -> SideResult:
    """Score one side's round: books, table cards, red 3s, leftovers, going out, perfect deal.

    Raises ValueError when `round_no` is outside the rules' rounds.
    """
    minimum = rules.opening_minimum(round_no)
    groups = analyse_table(rules, side.name, side.table)
    sheet = _Sheet(side.name, findings=[f for g in groups for f in g.findings])
    _books(sheet, groups)
    _red_threes_laid(sheet, rules, groups)
    _cards_on_table(sheet, groups)
    _opening_minimum(sheet, rules, round_no, minimum, groups)
    _hand_and_foot(sheet, rules, side)
    if side.went_out:
        _going_out(sheet, rules, round_no, side, groups)
    if side.perfect_deal:
        _perfect_deal(sheet, rules)
    total = sum(line.points for line in sheet.lines)
    return SideResult(side.name, total, tuple(sheet.lines), tuple(sheet.findings), tuple(g.meld for g in groups))


def _books(sheet: _Sheet, groups: Sequence[GroupScore]) -> None:
    """Each book or stack scores its bonus on a line of its own."""
    for g in groups:
        if g.meld.bonus:
            sheet.add(g.bonus_label, g.meld.bonus)


def _red_threes_laid(sheet: _Sheet, rules: Rules, groups: Sequence[GroupScore]) -> None:
    """Laid red 3s score their value each, or the all-laid bonus instead when there are enough."""
    laid = sum(g.red3_laid for g in groups)
    if not laid:
        return
    if rules.red3_all_laid_count and laid >= rules.red3_all_laid_count:
        sheet.add(f"all red 3s laid ({laid})", rules.red3_all_laid_bonus)
    else:
        sheet.add(f"red 3s laid ({laid})", laid * rules.value("red3"))


def _has_melds(groups: Sequence[GroupScore]) -> bool:
    return any(g.meld.kind != "red3s" and g.meld.cards for g in groups)


def _cards_on_table(sheet: _Sheet, groups: Sequence[GroupScore]) -> None:
    """Cards in melds count for the side; 3s and loose clothing on the table count against it."""

    def total_of(key: str) -> int:
        return sum(g.contributions.get(key, 0) for g in groups)

    if _has_melds(groups):
        sheet.add("cards on table", total_of(TABLE_CARDS))
    for key, label in (
        (CLOTHING_AGAINST, "clothing cards not in a stack"),
        (RED3_AGAINST, "red 3s on the table"),
        (BLACK3_AGAINST, "black 3s on the table"),
    ):
        if total_of(key):
            sheet.add(label, total_of(key))


def _opening_minimum(sheet: _Sheet, rules: Rules, round_no: int, minimum: int, groups: Sequence[GroupScore]) -> None:
    """A table whose valid melds cannot have reached the round's opening minimum is a warning."""
    most = sum(g.opening_value for g in groups)
    if _has_melds(groups) and most < minimum:
        books = "" if rules.opening_counts_books else f" (a complete book counts only as the meld of {rules.book_size - 1} cards it grew from)"
        sheet.find(
            WARNING,
            f"the valid melds on the table can have counted at most {most} toward the "
            f"opening{books}, below round {round_no}'s opening minimum of {minimum}",
        )


def _hand_and_foot(sheet: _Sheet, rules: Rules, side: SideRound) -> None:
    """Cards left in every player's hand and foot count against the side; 3s on lines of their own."""
    plain: list[int] = []
    red3s: list[int] = []
    black3s: list[int] = []
    for p, cards in enumerate(side.leftover):
        who = f"player {p + 1}'s hand and foot" if len(side.leftover) > 1 else "hand and foot"
        for cls in cards:
            category = kind_of(rules, cls).category
            if category == FOREIGN:
                sheet.find(ERROR, f"{who}: {cls} is not a card of the {rules.family} deck family: not scored")
            elif category == BACK:
                sheet.find(WARNING, f"{who}: a face-down card (BACK) is not scored")
            else:
                {RED3: red3s, BLACK3: black3s}.get(category, plain).append(card_value(rules, cls))
    if plain:
        sheet.add("left in hand and foot", -sum(plain))
    if red3s:
        sheet.add(f"red 3s left in hand and foot ({len(red3s)})", -sum(red3s))
    if black3s:
        sheet.add(f"black 3s left in hand and foot ({len(black3s)})", -sum(black3s))


def _going_out(sheet: _Sheet, rules: Rules, round_no: int, side: SideRound, groups: Sequence[GroupScore]) -> None:
    """The going-out bonus, when every going-out condition holds (each failed one is an error)."""
    conditions = [
        _emptied_hand_and_foot(sheet, side),
        _has_books_to_go_out(sheet, rules, round_no, side, groups),
        _clothing_sets_are_stacks(sheet, rules, groups),
    ]
    if all(conditions) and rules.going_out_bonus:
        sheet.add("going out", rules.going_out_bonus)


def _emptied_hand_and_foot(sheet: _Sheet, side: SideRound) -> bool:
    """The player going out empties hand and foot; partners may still hold cards."""
    if not side.leftover or not all(len(cards) for cards in side.leftover):
        return True
    held = min(len(cards) for cards in side.leftover)
    who = "every player still holds cards" if len(side.leftover) > 1 else f"{_plural(held, 'card')} still in hand and foot"
    sheet.find(ERROR, f"went out with {who}: no going-out bonus")
    return False


def _has_books_to_go_out(sheet: _Sheet, rules: Rules, round_no: int, side: SideRound, groups: Sequence[GroupScore]) -> bool:
    """Going out needs the round's clean and dirty books (partnerships may need more)."""
    need_clean, need_dirty = rules.books_to_go_out(round_no, side.is_partnership)
    clean = sum(1 for g in groups if g.meld.kind == "clean")
    dirty = sum(1 for g in groups if g.meld.kind == "dirty")
    if clean >= need_clean and dirty >= need_dirty:
        return True
    who = "a partnership" if side.is_partnership else "a side"
    sheet.find(
        ERROR,
        f"going out in round {round_no} needs {who} to have {need_clean} clean and "
        f"{need_dirty} dirty books; it has {clean} clean and {dirty} dirty: no going-out bonus",
    )
    return False


def _clothing_sets_are_stacks(sheet: _Sheet, rules: Rules, groups: Sequence[GroupScore]) -> bool:
    """Bare Foot: a started clothing set must be a completed stack before the round ends."""
    if not rules.clothing_must_be_stack:
        return True
    ok = True
    for g in groups:
        if g.meld.rank == "clothing" and g.meld.kind != "clothing_stack":
            ok = False
            sheet.find(
                ERROR,
                f"meld {g.meld.index + 1}: went out with a clothing set that is not a stack of {rules.book_size}: no going-out bonus",
                g.meld.index,
            )
    return ok


def _perfect_deal(sheet: _Sheet, rules: Rules) -> None:
    """Picking exactly 22 cards earns the perfect-deal bonus where the rules have one."""
    if rules.perfect_deal_bonus:
        sheet.add("perfect deal (exactly 22 cards)", rules.perfect_deal_bonus)
    else:
        sheet.find(WARNING, f"a perfect deal earns no bonus under {rules.name}")


def score_round(rules: Rules, round_no: int, sides: Sequence[SideRound]) -> RoundResult:
    """Score every side of one round; flags more than one side claiming to have gone out."""
    results = [score_side(rules, round_no, s) for s in sides]
    out = [s.name for s in sides if s.went_out]
    if len(out) > 1:
        note = f"{', '.join(out)} all say they went out; only one side can end the round"
        results = [
            SideResult(r.name, r.total, r.lines, r.findings + (Finding(WARNING, note, r.name),), r.melds) if s.went_out else r
            for r, s in zip(results, sides)
        ]
    return RoundResult(rules.name, round_no, tuple(results))
