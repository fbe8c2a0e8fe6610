"""Judge one side's table: each group of cards becomes a scored `Meld` plus findings.

Pure functions; the engine sums the contributions into breakdown lines.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from scoring.cards import (
    BACK,
    BLACK3,
    CLOTHING,
    FOREIGN,
    NATURAL,
    RED3,
    WILD,
    CardKind,
    card_kind,
    rank_plural,
)
from scoring.rounds import ERROR, WARNING, Finding, Meld
from scoring.rules import Rules

# Contribution keys: each meld's points fall under one of these breakdown lines.
TABLE_CARDS = "table_cards"
RED3_LAID = "red3_laid"  # counted in cards, priced by the engine (all-laid bonus)
CLOTHING_AGAINST = "clothing_against"
RED3_AGAINST = "red3_against"  # counted in cards
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
    opening_value: int = 0  # the most it can have counted toward the opening minimum


def describe(index: int, cards: Sequence[str]) -> str:
    """'meld 2 (10 10 2)': how messages name a table group (numbered from 1)."""
    return f"meld {index + 1} ({' '.join(cards)})"


@dataclass
class _Group:
    """A table group while it is judged: its live cards by category, findings and points so far."""

    rules: Rules
    side: str
    index: int
    cards: tuple[str, ...]
    seen_ranks: dict[str, int]
    kinds: dict[str, list[CardKind]] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    contrib: Counter = field(default_factory=Counter)
    invalid: bool = False
    red3_laid: int = 0

    def of(self, category: str) -> list[CardKind]:
        """The group's live cards of one category."""
        return self.kinds.get(category, [])

    def value(self, category: str) -> int:
        """The card values of the group's cards of one category."""
        return sum(self.rules.value(k.value_key) for k in self.of(category))

    def find(self, level: str, message: str) -> None:
        """A finding about this group."""
        where = describe(self.index, self.cards)
        self.findings.append(Finding(level, f"{where}: {message}", self.side, self.index))

    def breaks(self, message: str) -> None:
        """An error that leaves the group no meld (its cards still count at face value)."""
        self.find(ERROR, message)
        self.invalid = True

    def earlier_meld_of(self, rank: str) -> int | None:
        """Claim `rank` for this group; the index of the side's earlier group of it, if any."""
        first = self.seen_ranks.setdefault(rank, self.index)
        return None if first == self.index else first

    def result(self, kind: str, rank: str | None = None, bonus: int = 0, label: str = "", opening_value: int = 0) -> GroupScore:
        """The judged group: its points are its contributions plus any laid red 3s."""
        if bonus:
            self.contrib["bonus"] += bonus
        points = sum(self.contrib.values()) + self.red3_laid * self.rules.value("red3")
        meld = Meld(self.index, self.cards, rank, len(self.of(NATURAL)), len(self.of(WILD)), kind, points, bonus)
        return GroupScore(meld, self.findings, self.contrib, label, self.red3_laid, opening_value)


def analyse_group(rules: Rules, side: str, index: int, cards: Sequence[str], seen_ranks: dict[str, int]) -> GroupScore:
    """Judge one table group. `seen_ranks` (rank -> first meld index) is updated in place."""
    group = _Group(rules, side, index, tuple(cards), seen_ranks)
    _sort_cards(group)
    if not group.kinds:
        return group.result("invalid")
    if len(group.of(RED3)) == sum(map(len, group.kinds.values())):
        return _red_three_row(group)
    _threes_never_meld(group)
    if not (group.of(NATURAL) or group.of(WILD) or group.of(CLOTHING)):
        return group.result("invalid")
    group.contrib[TABLE_CARDS] += group.value(WILD)
    if group.of(CLOTHING) and not group.of(NATURAL):
        return _clothing_set(group)
    return _number_meld(group)


def _sort_cards(group: _Group) -> None:
    """Sort the group's cards by category; foreign and face-down cards are reported, not scored."""
    for cls in group.cards:
        kind = kind_of(group.rules, cls)
        if kind.category == FOREIGN:
            group.find(ERROR, f"{cls} is not a card of the {group.rules.family} deck family: not scored")
        elif kind.category == BACK:
            group.find(WARNING, "a face-down card (BACK) is not scored")
        else:
            group.kinds.setdefault(kind.category, []).append(kind)


def _red_three_row(group: _Group) -> GroupScore:
    """A row of red 3s: laid for their value, or an error counted against where never laid."""
    if group.rules.red3_laid:
        group.red3_laid = len(group.of(RED3))
        return group.result("red3s")
    group.find(ERROR, f"red 3s are never laid under {group.rules.name}: counted against the side")
    group.contrib[RED3_AGAINST] -= group.value(RED3)
    return group.result("invalid")


def _threes_never_meld(group: _Group) -> None:
    """3s never form or join a meld: black 3s count against; red 3s as laid, or against."""
    only_threes = not (group.of(NATURAL) or group.of(WILD) or group.of(CLOTHING))
    if only_threes:
        group.breaks("a meld of 3s is not allowed")
    if group.of(RED3):
        if not only_threes:
            group.find(ERROR, "a red 3 cannot be inside a meld")
        group.invalid = True
        if group.rules.red3_laid:
            group.red3_laid = len(group.of(RED3))
        else:
            group.contrib[RED3_AGAINST] -= group.value(RED3)
    if group.of(BLACK3):
        if not only_threes:
            group.find(ERROR, "a black 3 cannot be melded: counted against the side")
        group.invalid = True
        group.contrib[BLACK3_AGAINST] -= group.value(BLACK3)


def _clothing_set(group: _Group) -> GroupScore:
    """Clothing cards (Bare Foot) form one set per side, no wilds; book_size of them make a stack.

    Clothing cards not in a completed stack count against the side, even on the table.
    """
    rules, clothing = group.rules, group.of(CLOTHING)
    if group.of(WILD):
        group.breaks("no wild cards may be played with clothing cards")
    elif len(clothing) < rules.min_meld:
        group.breaks(f"only {len(clothing)} clothing cards: a clothing set needs at least {rules.min_meld}")
    earlier = group.earlier_meld_of("clothing")
    if earlier is not None:
        group.breaks(f"a second clothing set (meld {earlier + 1} is one already)")
    if not group.invalid and len(clothing) >= rules.book_size:
        group.contrib[TABLE_CARDS] += group.value(CLOTHING)
        return group.result(
            "clothing_stack", "clothing", rules.clothing_stack_bonus, "clothing stack", opening_value=_opening_value(group, is_book=True)
        )
    group.contrib[CLOTHING_AGAINST] -= group.value(CLOTHING)
    if group.invalid:
        return group.result("invalid", "clothing")
    return group.result("clothing_set", "clothing", opening_value=_opening_value(group, is_book=False))


def _number_meld(group: _Group) -> GroupScore:
    """A meld: one rank, one meld of it per side, min_meld+ cards, wilds within the limit.

    book_size cards or more make a book: clean without wilds, dirty with.
    """
    rules = group.rules
    if group.of(CLOTHING):
        group.breaks("clothing cards cannot go in a meld of numbers: counted against the side")
        group.contrib[CLOTHING_AGAINST] -= group.value(CLOTHING)
    group.contrib[TABLE_CARDS] += group.value(NATURAL)
    rank = _one_rank(group)
    if rank is None:
        return group.result("invalid")
    earlier = group.earlier_meld_of(rank)
    if earlier is not None:
        group.breaks(f"a second meld of {rank_plural(rank)} on one side (meld {earlier + 1} has them)")
    _meld_size_and_wild_limit(group)
    if group.invalid:
        return group.result("invalid", rank)
    wilds = len(group.of(WILD))
    if len(group.of(NATURAL)) + wilds < rules.book_size:
        return group.result("meld", rank, opening_value=_opening_value(group, is_book=False))
    kind = "dirty" if wilds else "clean"
    bonus = rules.dirty_book if wilds else rules.clean_book
    return group.result(kind, rank, bonus, f"{kind} book of {rank_plural(rank)}", opening_value=_opening_value(group, is_book=True))


def _one_rank(group: _Group) -> str | None:
    """The meld's one rank; None (an error) when it holds no natural or mixes ranks."""
    if not group.of(NATURAL):
        group.find(ERROR, "a meld of wilds only is not allowed")
        return None
    ranks = sorted({k.rank for k in group.of(NATURAL)})
    if len(ranks) > 1:
        group.find(ERROR, f"mixes ranks {', '.join(ranks)}: a meld is one rank")
        return None
    return ranks[0]


def _meld_size_and_wild_limit(group: _Group) -> None:
    """A meld has at least min_meld cards and no more wilds than its naturals allow."""
    rules = group.rules
    n, w = len(group.of(NATURAL)), len(group.of(WILD))
    if n + w < rules.min_meld:
        group.breaks(f"only {n + w} cards: a meld needs at least {rules.min_meld}")
    if w > rules.wilds_allowed(n):
        group.breaks(f"too many wilds ({w} with {n} naturals): {_wild_rule(rules, n)}")


def _opening_value(group: _Group, is_book: bool) -> int:
    """The most a valid group can have counted toward the opening minimum (the photo shows the
    round's end, not the opening): its cards' values, clothing cards at their meld value.

    Where complete books do not count (Remastered), a book counted at most as the meld it grew
    from: its best meld of book_size - 1 cards.
    """
    rules = group.rules
    if group.of(CLOTHING):
        cards = len(group.of(CLOTHING))
        if is_book and not rules.opening_counts_books:
            cards = rules.book_size - 1
        return cards * rules.clothing_meld_value
    if not is_book or rules.opening_counts_books:
        return group.value(NATURAL) + group.value(WILD)
    return _best_meld_below_book(rules, [rules.value(k.value_key) for k in group.of(NATURAL)], [rules.value(k.value_key) for k in group.of(WILD)])


def _best_meld_below_book(rules: Rules, naturals: list[int], wilds: list[int]) -> int:
    """The most points a legal meld of fewer than book_size of these cards (values) can hold."""
    naturals, wilds = sorted(naturals, reverse=True), sorted(wilds, reverse=True)
    largest = rules.book_size - 1
    best = 0
    for n in range(1, min(len(naturals), largest) + 1):
        w = min(len(wilds), rules.wilds_allowed(n), largest - n)
        if n + w >= rules.min_meld:
            best = max(best, sum(naturals[:n]) + sum(wilds[:w]))
    return best


def _wild_rule(rules: Rules, naturals: int) -> str:
    parts = [f"naturals must be at least wilds + {rules.natural_margin}"]
    if rules.max_wilds:
        parts.append(f"at most {rules.max_wilds} wilds in a meld")
    if rules.no_wild_after_book:
        parts.append(f"no wild may go onto a finished book, so at most {rules.wilds_before_book()} wilds")
    return f"{'; '.join(parts)} (here at most {rules.wilds_allowed(naturals)})"


def analyse_table(rules: Rules, side: str, table: Sequence[Sequence[str]]) -> list[GroupScore]:
    """Judge every group of a side's table, in order (later duplicates of a rank are flagged)."""
    seen: dict[str, int] = {}
    return [analyse_group(rules, side, i, cards, seen) for i, cards in enumerate(table)]
