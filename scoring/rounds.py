"""What a side laid and held at the end of a round, and what it scored: the data crossing the scoring boundary."""

from __future__ import annotations

from dataclasses import dataclass

ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True)
class SideRound:
    """One side's cards at the end of a round.

    table: the side's melds, each a tuple of class names (DESIGN.md); a group made
      only of "3R" is the row of laid red threes (standard deck family).
    leftover: one tuple per player of the side: hand and foot together.
    partners: whether the side is a partnership (for partner going-out rules);
      None means "a partnership when it lists more than one leftover".
    """

    name: str
    table: tuple[tuple[str, ...], ...] = ()
    leftover: tuple[tuple[str, ...], ...] = ()
    went_out: bool = False
    perfect_deal: bool = False
    partners: bool | None = None

    @property
    def is_partnership(self) -> bool:
        """True when partner rules apply to this side."""
        if self.partners is not None:
            return self.partners
        return len(self.leftover) > 1


@dataclass(frozen=True)
class Line:
    """One labelled line of a side's breakdown, e.g. ("clean book of 4s", 700)."""

    label: str
    points: int


@dataclass(frozen=True)
class Finding:
    """A rule the cards break (error) or something doubtful (warning).

    meld: 0-based index into the side's `table` when the finding is about one meld
    (messages number melds from 1, as a player counts them).
    """

    level: str
    message: str
    side: str = ""
    meld: int | None = None


@dataclass(frozen=True)
class Meld:
    """One table group, analysed.

    kind: clean | dirty (books), meld (valid, not a book), invalid, red3s (the laid
      red-three row), clothing_stack (7+ clothing cards), clothing_set (fewer).
    rank: the natural rank ("4", "K", "clothing"), or None when there is none.
    points: what the group adds to the side's total (cards plus bonus; may be negative);
      a red-three row counts each red 3 at its value (an all-laid bonus is the engine's line).
    bonus: the book or stack bonus included in points.
    """

    index: int
    cards: tuple[str, ...]
    rank: str | None
    naturals: int
    wilds: int
    kind: str
    points: int
    bonus: int = 0

    @property
    def is_book(self) -> bool:
        """True for a clean or dirty book."""
        return self.kind in ("clean", "dirty")


@dataclass(frozen=True)
class SideResult:
    """One side's round score: the breakdown lines, their total, and findings."""

    name: str
    total: int
    lines: tuple[Line, ...]
    findings: tuple[Finding, ...]
    melds: tuple[Meld, ...] = ()

    @property
    def has_error(self) -> bool:
        """True when a finding of level error was raised for this side."""
        return any(f.level == ERROR for f in self.findings)


@dataclass(frozen=True)
class RoundResult:
    """All sides' results for one round under one rule set."""

    rules: str
    round: int
    sides: tuple[SideResult, ...]

    @property
    def has_error(self) -> bool:
        """True when any side has an error finding."""
        return any(side.has_error for side in self.sides)
