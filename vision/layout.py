"""Cards on the table -> melds (columns), the red-three row, and what cannot be placed.

The table convention (DESIGN.md, photo conventions): each meld is a column of
cards fanned so every top-left index shows; red 3s lie in a row of their own.
This module knows classes and geometry, never points:

- naturals of one class are one meld of the side (one meld per rank), even
  when they lie in two columns (a note says so);
- classes the caller names in `meld_groups` meld together (Bare Foot's socks
  and shoes form one clothing stack);
- each wild goes to the meld whose column it lies in; a wild in no meld's
  column is unplaced;
- the red-three class (when the caller says red 3s are laid) goes to the row;
- BACK cards (face down) are kept apart for a warning.

Photos may be turned a quarter: when most index boxes are wider than tall,
columns run across the photo and the axes are swapped.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from vision.detection import Card, Detection

BACK = "BACK"

# Standard family (traditional or Remastered deck) and Bare Foot wild classes.
STANDARD_WILDS: frozenset[str] = frozenset({"2", "JOKER", "WILD20", "WILD50"})
BAREFOOT_WILDS: frozenset[str] = frozenset({"WILD20", "WILD50"})
BAREFOOT_MELD_GROUPS: Mapping[str, str] = {"SOCK": "CLOTHING", "SHOE": "CLOTHING"}


@dataclass(frozen=True)
class LayoutConfig:
    """Tolerances, in index sizes (the photo's median corner size)."""

    column_gap: float = 1.8  # corners further apart across than this are other columns
    wild_across: float = 1.6  # a wild's index at most this far from a column's line
    wild_along: float = 5.0  # ... and at most this far beyond the column's ends
    along_weight: float = 0.25  # how much distance along a column counts in choosing


@dataclass
class TableLayout:
    """A side's table photo, grouped: no points, only cards."""

    melds: list[list[Card]] = field(default_factory=list)
    red_threes: list[Card] = field(default_factory=list)
    backs: list[Card] = field(default_factory=list)
    unplaced: list[Card] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    meld_keys: list[str] = field(default_factory=list)  # the class (or group) of each meld

    def cards(self) -> list[Card]:
        """Every card in the layout, each once."""
        out = [c for meld in self.melds for c in meld]
        return out + self.red_threes + self.backs + self.unplaced


@dataclass
class LeftoverLayout:
    """A leftover (hand and foot) photo: every face-up card counts; backs are warnings."""

    cards: list[Card] = field(default_factory=list)
    backs: list[Card] = field(default_factory=list)


def _median_size(cards: Iterable[Card]) -> float:
    sizes = [d.size for c in cards for d in c.corners if d.cls != BACK]
    return statistics.median(sizes) if sizes else 1.0


def columns_run_across(cards: Iterable[Card]) -> bool:
    """True when most index boxes are wider than tall (photo turned a quarter)."""
    votes = 0
    for card in cards:
        for d in card.corners:
            if d.cls == BACK:
                continue
            x1, y1, x2, y2 = d.box
            w, h = x2 - x1, y2 - y1
            if w > h * 1.15:
                votes += 1
            elif h > w * 1.15:
                votes -= 1
    return votes > 0


def _axes(det: Detection, swapped: bool) -> tuple[float, float]:
    """(across, along) coordinates of a corner: along runs down a column."""
    x, y = det.center
    return (y, x) if swapped else (x, y)


@dataclass
class _Column:
    key: str
    cards: list[Card]
    across: float
    along_min: float
    along_max: float


def _split_columns(key: str, cards: list[Card], swapped: bool, gap: float) -> list[_Column]:
    """Cluster one meld's cards into columns: corners closer than `gap` across, and
    the two corners of one card, are in one column."""
    corners = [(ci, d) for ci, c in enumerate(cards) for d in c.corners]
    parent = list(range(len(cards)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    order = sorted(corners, key=lambda cd: _axes(cd[1], swapped)[0])
    for (ca, da), (cb, db) in zip(order, order[1:]):
        if _axes(db, swapped)[0] - _axes(da, swapped)[0] <= gap:
            parent[find(ca)] = find(cb)
    groups: dict[int, list[Card]] = {}
    for ci, card in enumerate(cards):
        groups.setdefault(find(ci), []).append(card)
    columns = []
    for members in groups.values():
        pts = [_axes(d, swapped) for c in members for d in c.corners]
        columns.append(
            _Column(
                key=key,
                cards=members,
                across=statistics.median(p[0] for p in pts),
                along_min=min(p[1] for p in pts),
                along_max=max(p[1] for p in pts),
            )
        )
    columns.sort(key=lambda col: col.across)
    return columns


def _wild_cost(wild: Card, col: _Column, swapped: bool, size: float, cfg: LayoutConfig) -> float | None:
    best: float | None = None
    for d in wild.corners:
        across, along = _axes(d, swapped)
        d_across = abs(across - col.across) / size
        if along < col.along_min:
            d_along = (col.along_min - along) / size
        elif along > col.along_max:
            d_along = (along - col.along_max) / size
        else:
            d_along = 0.0
        if d_across > cfg.wild_across or d_along > cfg.wild_along:
            continue
        cost = d_across + cfg.along_weight * d_along
        if best is None or cost < best:
            best = cost
    return best


def layout_table(
    cards: list[Card],
    wild_classes: frozenset[str] | set[str],
    *,
    red_three_class: str | None = "3R",
    meld_groups: Mapping[str, str] | None = None,
    config: LayoutConfig | None = None,
) -> TableLayout:
    """Group a table photo's cards into melds, red threes, backs and unplaced cards.

    `wild_classes`: classes that are wild in the rules' deck family.
    `red_three_class`: the class laid in the red-three row, or None when
    red 3s are ordinary cards (Bare Foot's natural 3s).
    `meld_groups`: class -> group name for classes that meld together.
    Every card is returned exactly once.
    """
    cfg = config or LayoutConfig()
    groups = dict(meld_groups or {})
    out = TableLayout()
    faces = [c for c in cards if c.cls != BACK]
    out.backs = [c for c in cards if c.cls == BACK]
    swapped = columns_run_across(faces)
    size = _median_size(faces)

    by_key: dict[str, list[Card]] = {}
    wilds: list[Card] = []
    for card in faces:
        if red_three_class is not None and card.cls == red_three_class:
            out.red_threes.append(card)
        elif card.cls in wild_classes:
            wilds.append(card)
        else:
            by_key.setdefault(groups.get(card.cls, card.cls), []).append(card)

    columns: list[_Column] = []
    for key, members in by_key.items():
        cols = _split_columns(key, members, swapped, cfg.column_gap * size)
        if len(cols) > 1:
            out.notes.append(
                f"the {key} cards lie in {len(cols)} columns; counted as one meld of {key} "
                "(a side has one meld per rank)"
            )
        columns.extend(cols)

    extra: dict[str, list[Card]] = {}
    for wild in wilds:
        scored = [(c, _wild_cost(wild, col, swapped, size, cfg)) for c, col in enumerate(columns)]
        fits = [(cost, c) for c, cost in scored if cost is not None]
        if not fits:
            out.unplaced.append(wild)
            continue
        _, best = min(fits)
        extra.setdefault(columns[best].key, []).append(wild)

    key_pos = {}
    for col in columns:
        key_pos.setdefault(col.key, col.across)
    for key in sorted(by_key, key=lambda k: key_pos[k]):
        meld = sorted(by_key[key] + extra.get(key, []), key=lambda c: _axes(c.corners[0], swapped)[::-1])
        out.melds.append(meld)
        out.meld_keys.append(key)
    return out


def layout_leftover(cards: list[Card]) -> LeftoverLayout:
    """A leftover photo: every face-up card counts against its player."""
    return LeftoverLayout(
        cards=[c for c in cards if c.cls != BACK],
        backs=[c for c in cards if c.cls == BACK],
    )

