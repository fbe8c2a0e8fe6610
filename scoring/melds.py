"""Judge one side's table: each group of cards becomes a scored `Meld` plus findings.

Pure functions; the engine sums the contributions into breakdown lines.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from scoring.cards import (
    BACK, BLACK3, CLOTHING, FOREIGN, NATURAL, RED3, WILD, CardKind, card_kind, rank_plural,
)
from scoring.model import ERROR, WARNING, Finding, Meld
from scoring.rules import Rules

# Contribution keys: each meld's points fall under one of these breakdown lines.
TABLE_CARDS = "table_cards"
RED3_LAID = "red3_laid"          # counted in cards, priced by the engine (all-laid bonus)
CLOTHING_AGAINST = "clothing_against"
RED3_AGAINST = "red3_against"    # counted in cards
BLACK3_AGAINST = "black3_against"  # counted in cards


def kind_of(rules: Rules, cls: str) -> CardKind:
    """The card kind of `cls` under the rules' family; an unknown name is a foreign card."""
    try:
        return card_kind(rules.family, cls)
    except ValueError:
        return CardKind(cls, FOREIGN)


def card_value(rules: Rules, cls: str) -> int:
    """Points of one card: it counts +value on the table, -value left in hand and foot.

    Foreign and face-down cards are worth nothing (they are reported, not scored).
    """
    kind = kind_of(rules, cls)
    return rules.value(kind.value_key) if kind.value_key else 0


@dataclass
class GroupScore:
    """One group's analysis: the meld, its findings and its points by line key."""

    meld: Meld
    findings: list[Finding] = field(default_factory=list)
    contributions: Counter = field(default_factory=Counter)
    bonus_label: str = ""
    red3_laid: int = 0
    meld_value: int = 0   # what it counts toward the opening minimum (valid melds only)


def describe(index: int, cards: Sequence[str]) -> str:
    """'meld 2 (10 10 2)': how messages name a table group (numbered from 1)."""
    return f"meld {index + 1} ({' '.join(cards)})"


def analyse_group(
    rules: Rules, side: str, index: int, cards: Sequence[str], seen_ranks: dict[str, int]
) -> GroupScore:
    """Judge one table group. `seen_ranks` (rank -> first meld index) is updated in place."""
    where = describe(index, cards)
    findings: list[Finding] = []
    contrib: Counter = Counter()

    def find(level: str, message: str) -> None:
        findings.append(Finding(level, f"{where}: {message}", side, index))

    kinds = [kind_of(rules, c) for c in cards]
    for k in kinds:
        if k.category == FOREIGN:
            find(ERROR, f"{k.cls} is not a card of the {rules.family} deck family: not scored")
        elif k.category == BACK:
            find(WARNING, "a face-down card (BACK) is not scored")
    live = [k for k in kinds if k.category not in (FOREIGN, BACK)]
    by_cat: dict[str, list[CardKind]] = {}
    for k in live:
        by_cat.setdefault(k.category, []).append(k)
    naturals = by_cat.get(NATURAL, [])
    wilds = by_cat.get(WILD, [])
    red3s = by_cat.get(RED3, [])
    black3s = by_cat.get(BLACK3, [])
    clothing = by_cat.get(CLOTHING, [])

    def value(ks: Sequence[CardKind]) -> int:
        return sum(rules.value(k.value_key) for k in ks)

    def result(kind: str, rank: str | None, bonus: int = 0, label: str = "",
               red3_laid: int = 0, meld_value: int = 0) -> GroupScore:
        if bonus:
            contrib["bonus"] += bonus
        points = sum(contrib.values()) + red3_laid * rules.value("red3")
        meld = Meld(index, tuple(cards), rank, len(naturals), len(wilds), kind, points, bonus)
        return GroupScore(meld, findings, contrib, label, red3_laid, meld_value)

    if not live:
        return result("invalid", None)

    # The laid red-three row.
    if red3s and len(red3s) == len(live):
        if rules.red3_laid:
            return result("red3s", None, red3_laid=len(red3s))
        find(ERROR, f"red 3s are never laid under {rules.name}: counted against the side")
        contrib[RED3_AGAINST] -= value(red3s)
        return result("invalid", None)

    invalid = False
    # Threes never meld.
    only_threes = not naturals and not wilds and not clothing
    if only_threes:
        find(ERROR, "a meld of 3s is not allowed")
        invalid = True
    laid_in_meld = 0
    if red3s:
        if not only_threes:
            find(ERROR, "a red 3 cannot be inside a meld")
        invalid = True
        if rules.red3_laid:
            laid_in_meld = len(red3s)
        else:
            contrib[RED3_AGAINST] -= value(red3s)
    if black3s:
        if not only_threes:
            find(ERROR, "a black 3 cannot be melded: counted against the side")
        invalid = True
        contrib[BLACK3_AGAINST] -= value(black3s)
    if only_threes:
        return result("invalid", None, red3_laid=laid_in_meld)

    contrib[TABLE_CARDS] += value(wilds)

    # Clothing sets (Bare Foot): clothing cards only, no wilds.
    if clothing and not naturals:
        rank = "clothing"
        if wilds:
            find(ERROR, "no wild cards may be played with clothing cards")
            invalid = True
        elif len(clothing) < rules.min_meld:
            find(ERROR, f"only {len(clothing)} clothing cards: a clothing set needs at least {rules.min_meld}")
            invalid = True
        if rank in seen_ranks:
            find(ERROR, f"a second clothing set (meld {seen_ranks[rank] + 1} is one already)")
            invalid = True
        else:
            seen_ranks[rank] = index
        if not invalid and len(clothing) >= rules.book_size:
            contrib[TABLE_CARDS] += value(clothing)
            return result("clothing_stack", rank, rules.clothing_stack_bonus, "clothing stack",
                          red3_laid=laid_in_meld,
                          meld_value=len(clothing) * rules.clothing_meld_value)
        contrib[CLOTHING_AGAINST] -= value(clothing)
        if invalid:
            return result("invalid", rank, red3_laid=laid_in_meld)
        return result("clothing_set", rank, meld_value=len(clothing) * rules.clothing_meld_value)

    if clothing:
        find(ERROR, "clothing cards cannot go in a meld of numbers: counted against the side")
        invalid = True
        contrib[CLOTHING_AGAINST] -= value(clothing)

    contrib[TABLE_CARDS] += value(naturals)
    if not naturals:
        find(ERROR, "a meld of wilds only is not allowed")
        return result("invalid", None, red3_laid=laid_in_meld)

    ranks = sorted({k.rank for k in naturals})
    if len(ranks) > 1:
        find(ERROR, f"mixes ranks {', '.join(ranks)}: a meld is one rank")
        return result("invalid", None, red3_laid=laid_in_meld)
    rank = ranks[0]
    if rank in seen_ranks:
        find(ERROR, f"a second meld of {rank_plural(rank)} on one side (meld {seen_ranks[rank] + 1} has them)")
        invalid = True
    else:
        seen_ranks[rank] = index
    n, w = len(naturals), len(wilds)
    if n + w < rules.min_meld:
        find(ERROR, f"only {n + w} cards: a meld needs at least {rules.min_meld}")
        invalid = True
    allowed = rules.wilds_allowed(n)
    if w > allowed:
        find(ERROR, f"too many wilds ({w} with {n} naturals): {_wild_rule(rules, n)}")
        invalid = True
    if invalid:
        return result("invalid", rank, red3_laid=laid_in_meld)
    meld_value = value(naturals) + value(wilds)
    if n + w >= rules.book_size:
        kind = "dirty" if w else "clean"
        bonus = rules.dirty_book if w else rules.clean_book
        return result(kind, rank, bonus, f"{kind} book of {rank_plural(rank)}", meld_value=meld_value)
    return result("meld", rank, meld_value=meld_value)


def _wild_rule(rules: Rules, naturals: int) -> str:
    parts = [f"naturals must be at least wilds + {rules.natural_margin}"]
    if rules.max_wilds:
        parts.append(f"at most {rules.max_wilds} wilds in a meld")
    if rules.no_wild_after_book:
        parts.append(
            f"no wild may go onto a finished book, so at most {rules.wilds_before_book()} wilds"
        )
    return f"{'; '.join(parts)} (here at most {rules.wilds_allowed(naturals)})"


def analyse_table(rules: Rules, side: str, table: Sequence[Sequence[str]]) -> list[GroupScore]:
    """Judge every group of a side's table, in order (later duplicates of a rank are flagged)."""
    seen: dict[str, int] = {}
    return [analyse_group(rules, side, i, cards, seen) for i, cards in enumerate(table)]
