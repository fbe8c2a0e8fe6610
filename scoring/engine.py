"""Score a round: each side's table and leftovers under a rule set -> lines, total, findings."""

from __future__ import annotations

from collections.abc import Sequence

from scoring.cards import BACK, BLACK3, FOREIGN, RED3
from scoring.melds import (
    BLACK3_AGAINST, CLOTHING_AGAINST, RED3_AGAINST, TABLE_CARDS, analyse_table, kind_of,
)
from scoring.melds import card_value as _card_value
from scoring.model import ERROR, WARNING, Finding, Line, RoundResult, SideResult, SideRound
from scoring.rules import Rules

__all__ = ["card_value", "score_side", "score_round"]


def card_value(rules: Rules, cls: str) -> int:
    """Points of one card (class name) under `rules`: +value on the table, -value left over."""
    return _card_value(rules, cls)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def score_side(rules: Rules, round_no: int, side: SideRound) -> SideResult:
    """Score one side's round: books, table cards, red 3s, leftovers, going out, perfect deal.

    Raises ValueError when `round_no` is outside the rules' rounds.
    """
    minimum = rules.opening_minimum(round_no)
    name = side.name
    groups = analyse_table(rules, name, side.table)
    findings: list[Finding] = []
    lines: list[Line] = []
    for g in groups:
        findings.extend(g.findings)

    # Books and stacks, each its own line.
    for g in groups:
        if g.meld.bonus:
            lines.append(Line(g.bonus_label, g.meld.bonus))

    # Red 3s laid (the row, or misplaced into melds where laying them is allowed).
    laid = sum(g.red3_laid for g in groups)
    if laid:
        if rules.red3_all_laid_count and laid >= rules.red3_all_laid_count:
            lines.append(Line(f"all red 3s laid ({laid})", rules.red3_all_laid_bonus))
        else:
            lines.append(Line(f"red 3s laid ({laid})", laid * rules.value("red3")))

    def total_of(key: str) -> int:
        return sum(g.contributions.get(key, 0) for g in groups)

    has_melds = any(g.meld.kind != "red3s" and g.meld.cards for g in groups)
    if has_melds:
        lines.append(Line("cards on table", total_of(TABLE_CARDS)))
    for key, label in (
        (CLOTHING_AGAINST, "clothing cards not in a stack"),
        (RED3_AGAINST, "red 3s on the table"),
        (BLACK3_AGAINST, "black 3s on the table"),
    ):
        if total_of(key):
            lines.append(Line(label, total_of(key)))

    # Opening minimum: the valid melds on the table must at least reach it.
    meld_value = sum(g.meld_value for g in groups)
    if has_melds and meld_value < minimum:
        findings.append(Finding(
            WARNING,
            f"the valid melds on the table are worth {meld_value}, below round {round_no}'s "
            f"opening minimum of {minimum}",
            name,
        ))

    # Leftovers: hand and foot of every player of the side.
    left_cards = left_plain = left_red3 = left_black3 = 0
    left_value = red3_value = black3_value = 0
    for p, cards in enumerate(side.leftover):
        who = f"player {p + 1}'s hand and foot" if len(side.leftover) > 1 else "hand and foot"
        for cls in cards:
            kind = kind_of(rules, cls)
            left_cards += 1
            if kind.category == FOREIGN:
                findings.append(Finding(
                    ERROR, f"{who}: {cls} is not a card of the {rules.family} deck family: not scored", name))
            elif kind.category == BACK:
                findings.append(Finding(WARNING, f"{who}: a face-down card (BACK) is not scored", name))
            elif kind.category == RED3:
                left_red3 += 1
                red3_value += card_value(rules, cls)
            elif kind.category == BLACK3:
                left_black3 += 1
                black3_value += card_value(rules, cls)
            else:
                left_plain += 1
                left_value += card_value(rules, cls)
    if left_plain:
        lines.append(Line("left in hand and foot", -left_value))
    if left_red3:
        lines.append(Line(f"red 3s left in hand and foot ({left_red3})", -red3_value))
    if left_black3:
        lines.append(Line(f"black 3s left in hand and foot ({left_black3})", -black3_value))

    # Going out.
    if side.went_out:
        ok = True
        # The player going out empties hand and foot; partners may still hold cards.
        if side.leftover and all(len(cards) for cards in side.leftover):
            ok = False
            held = min(len(cards) for cards in side.leftover)
            who = "every player still holds cards" if len(side.leftover) > 1 else \
                f"{_plural(held, 'card')} still in hand and foot"
            findings.append(Finding(
                ERROR, f"went out with {who}: no going-out bonus", name))
        need_clean, need_dirty = rules.books_to_go_out(round_no, side.is_partnership)
        clean = sum(1 for g in groups if g.meld.kind == "clean")
        dirty = sum(1 for g in groups if g.meld.kind == "dirty")
        if clean < need_clean or dirty < need_dirty:
            ok = False
            who = "a partnership" if side.is_partnership else "a side"
            findings.append(Finding(
                ERROR,
                f"going out in round {round_no} needs {who} to have {need_clean} clean and "
                f"{need_dirty} dirty books; it has {clean} clean and {dirty} dirty: "
                "no going-out bonus",
                name,
            ))
        if rules.clothing_must_be_stack:
            for g in groups:
                if g.meld.rank == "clothing" and g.meld.kind != "clothing_stack":
                    ok = False
                    findings.append(Finding(
                        ERROR,
                        f"meld {g.meld.index + 1}: went out with a clothing set that is not a "
                        f"stack of {rules.book_size}: no going-out bonus",
                        name, g.meld.index,
                    ))
        if ok and rules.going_out_bonus:
            lines.append(Line("going out", rules.going_out_bonus))

    if side.perfect_deal:
        if rules.perfect_deal_bonus:
            lines.append(Line("perfect deal (exactly 22 cards)", rules.perfect_deal_bonus))
        else:
            findings.append(Finding(
                WARNING, f"a perfect deal earns no bonus under {rules.name}", name))

    total = sum(line.points for line in lines)
    return SideResult(name, total, tuple(lines), tuple(findings), tuple(g.meld for g in groups))


def score_round(rules: Rules, round_no: int, sides: Sequence[SideRound]) -> RoundResult:
    """Score every side of one round; flags more than one side claiming to have gone out."""
    results = [score_side(rules, round_no, s) for s in sides]
    out = [s.name for s in sides if s.went_out]
    if len(out) > 1:
        note = f"{', '.join(out)} all say they went out; only one side can end the round"
        results = [
            SideResult(r.name, r.total, r.lines, r.findings + (Finding(WARNING, note, r.name),), r.melds)
            if s.went_out else r
            for r, s in zip(results, sides)
        ]
    return RoundResult(rules.name, round_no, tuple(results))
