"""Cards on the table -> melds (columns), the red-three row, and what cannot be placed.

The table convention (DESIGN.md, photo conventions): each meld is a column of
cards fanned so every top-left index shows; red 3s lie in a row of their own.
This module knows classes and geometry, never points:

- naturals of one class are one meld of the side (one meld per rank), even
  when they lie in two columns (a note says so);
- classes the caller names in `meld_groups` meld together (Bare Foot's socks
  and shoes form one clothing stack);
- each wild goes to the meld whose column it lies in (a placed wild
  lengthens its column, so a run of wilds at a column's end stays in it);
  a wild in no meld's column is unplaced;
- the red-three class (when the caller says red 3s are laid) goes to the row;
- BACK cards (face down) are kept apart for a warning;
- a natural whose rank has no column of its own, lying inside another
  natural rank's column (between its cards, or one fan step past its end), is read
  as that rank (a misread index: a meld holds one rank, and one or two cards
  lying inside another meld are no meld of their own); a note says so. So are
  a few cards of a rank whose meld lies in a longer column elsewhere, when
  they lie inside a column longer than their group (the column's majority
  says which rank it is).

Photos may be turned any way: the direction the columns run in is measured
from each meld's fanned indices (which lie on a line), and each column's
line is fitted, so a tilted or perspective photo still puts a wild in the
column it lies in.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from vision.detection import BACK, JOKER, Card, Detection

# Standard family (traditional or Remastered deck) and Bare Foot wild classes.
STANDARD_WILDS: frozenset[str] = frozenset({"2", JOKER, "WILD20", "WILD50"})
BAREFOOT_WILDS: frozenset[str] = frozenset({"WILD20", "WILD50"})
BAREFOOT_MELD_GROUPS: Mapping[str, str] = {"SOCK": "CLOTHING", "SHOE": "CLOTHING"}


@dataclass(frozen=True)
class DeckLayout:
    """What the layout needs to know of a deck family (no points)."""

    wilds: frozenset[str]
    red_three_class: str | None
    meld_key: dict[str, str]
    # classes that are no natural of a meld and are never read as another rank (red 3s, clothing); a black 3
    # lying inside another rank's meld column is read as that rank, with a note, like any stray (a misread index)
    not_natural: frozenset[str] = frozenset()


@dataclass(frozen=True)
class LayoutConfig:
    """Tolerances, in index sizes (the photo's median corner size)."""

    column_gap: float = 1.8  # corners further apart across than this are other columns
    wild_across: float = 1.6  # a wild's index at most this far from a column's line
    wild_along: float = 5.0  # ... and at most this far beyond the column's ends
    along_weight: float = 0.25  # how much distance along a column counts in choosing
    whole_inside: float = 1.0  # a whole wild's corner this far or more inside a column's run of indices (from
    # both ends) does not place it there while another of its corners fits a column (0: off)
    stray_across: float = 1.0  # a natural this near another rank's column line lies in it ...
    stray_along: float = 3.0  # ... when no further than this beyond the column's ends
    stray_max: int = 2  # at most this many cards of one rank are read as a column's rank
    stray_column_max: int = 4  # ... or this many, lying apart from a longer column of their own rank


@dataclass
class TableLayout:
    """A side's table photo, grouped: no points, only cards."""

    melds: list[list[Card]] = field(default_factory=list)
    red_threes: list[Card] = field(default_factory=list)
    backs: list[Card] = field(default_factory=list)
    unplaced: list[Card] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    meld_keys: list[str] = field(default_factory=list)  # the class (or group) of each meld
    reread: list[tuple[Card, Card]] = field(default_factory=list)  # (as detected, as placed) for strays

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


@dataclass(frozen=True)
class Frame:
    """Photo axes turned so columns run along (ux, uy); across is the normal."""

    ux: float
    uy: float

    def axes(self, det: Detection) -> tuple[float, float]:
        """(across, along) coordinates of a corner."""
        x, y = det.center
        return (x * self.uy - y * self.ux, x * self.ux + y * self.uy)

    def half_width(self, det: Detection) -> float:
        """Half the corner box's extent across the columns."""
        x1, y1, x2, y2 = det.box
        return ((x2 - x1) * abs(self.uy) + (y2 - y1) * abs(self.ux)) / 2.0


def column_frame(groups: Iterable[list[Card]], size: float) -> Frame:
    """The direction the meld columns run in, from the fanned indices of each meld.

    Each fanned index (a single-corner card) steps to its nearest neighbour of
    the same meld along the column; those steps are averaged as axes (so up
    and down agree). With no fan to measure, index box shapes decide between
    down the photo and across it.
    """
    sx = sy = 0.0
    all_cards: list[Card] = []
    reach2 = (2.5 * size) ** 2
    for members in groups:
        all_cards.extend(members)
        pts = [c.corners[0].center for c in members if len(c.corners) == 1]
        for i, (x, y) in enumerate(pts):
            near = min(((px - x) ** 2 + (py - y) ** 2, px - x, py - y) for j, (px, py) in enumerate(pts) if j != i) if len(pts) > 1 else None
            if near is None or near[0] > reach2 or near[0] == 0:
                continue
            angle = math.atan2(near[2], near[1])  # one fan step: along the column
            sx += math.cos(2 * angle)
            sy += math.sin(2 * angle)
    if sx == 0.0 and sy == 0.0:
        return Frame(1.0, 0.0) if columns_run_across(all_cards) else Frame(0.0, 1.0)
    angle = 0.5 * math.atan2(sy, sx)
    ux, uy = math.cos(angle), math.sin(angle)
    if (abs(uy) >= abs(ux) and uy < 0) or (abs(ux) > abs(uy) and ux < 0):
        ux, uy = -ux, -uy
    return Frame(ux, uy)


@dataclass
class _Column:
    key: str
    cards: list[Card]
    across: float  # across position of the fitted line at along = 0
    slope: float  # d(across) / d(along): columns lean a little under perspective
    along_min: float
    along_max: float
    half: float = 0.0  # typical half width of its indices across the column

    def across_at(self, along: float) -> float:
        return self.across + self.slope * along


def _fit_column(key: str, members: list[Card], frame: Frame, size: float) -> _Column:
    pts = [frame.axes(d) for c in members for d in c.corners]
    middle = statistics.median(p[0] for p in pts)
    # one point per card: its corner on the column's line (a whole card's
    # other corner lies a card width off it)
    anchors = [min((frame.axes(d) for d in c.corners), key=lambda p: abs(p[0] - middle)) for c in members]
    slope, across = 0.0, statistics.median(p[0] for p in anchors)
    if len(anchors) >= 3:
        mean_al = sum(p[1] for p in anchors) / len(anchors)
        mean_ac = sum(p[0] for p in anchors) / len(anchors)
        var = sum((p[1] - mean_al) ** 2 for p in anchors)
        if var >= (2 * size) ** 2 * len(anchors) / 4:
            fit = sum((p[1] - mean_al) * (p[0] - mean_ac) for p in anchors) / var
            if abs(fit) <= 0.35:
                slope, across = fit, mean_ac - fit * mean_al
    return _Column(
        key=key,
        cards=members,
        across=across,
        slope=slope,
        along_min=min(p[1] for p in pts),
        along_max=max(p[1] for p in pts),
        half=statistics.median(frame.half_width(d) for c in members for d in c.corners),
    )


def _split_columns(key: str, cards: list[Card], frame: Frame, size: float, gap: float) -> list[_Column]:
    """Cluster one meld's cards into columns: corners closer than `gap` across, and
    the two corners of one card, are in one column."""
    corners = [(ci, d) for ci, c in enumerate(cards) for d in c.corners]
    parent = list(range(len(cards)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    order = sorted(corners, key=lambda cd: frame.axes(cd[1])[0])
    for (ca, da), (cb, db) in zip(order, order[1:]):
        if frame.axes(db)[0] - frame.axes(da)[0] <= gap:
            parent[find(ca)] = find(cb)
    groups: dict[int, list[Card]] = {}
    for ci, card in enumerate(cards):
        groups.setdefault(find(ci), []).append(card)
    columns = [_fit_column(key, members, frame, size) for members in groups.values()]
    columns.sort(key=lambda col: col.across)
    return columns


def _inside(card: Card, col: _Column, frame: Frame, size: float, cfg: LayoutConfig) -> float | None:
    """How far (index sizes across) the card's nearest corner lies from the column's line,
    when it lies inside the column: on its line, between its ends or `stray_along` past them."""
    best: float | None = None
    for d in card.corners:
        across, along = frame.axes(d)
        if not col.along_min - cfg.stray_along * size <= along <= col.along_max + cfg.stray_along * size:
            continue
        off = abs(across - col.across_at(along)) / size
        if off <= cfg.stray_across and (best is None or off < best):
            best = off
    return best


def _reread_strays(
    columns: list[_Column],
    frame: Frame,
    size: float,
    cfg: LayoutConfig,
    keep: frozenset[int],
    fixed: frozenset[str],
) -> list[tuple[Card, _Column, str]]:
    """Naturals of a meld key with no column of its own, or of a short column apart from their
    key's longest, each lying inside another key's longer column: (card, that column, the one
    class its cards show). A column of mixed classes (socks and
    shoes, Bare Foot's red and black 3s) names no class, so it takes no strays; cards in
    `keep` (ids: corrected by hand) and classes in `fixed` stay as they are, and columns of
    a `fixed` class take no strays."""
    by_key: dict[str, list[_Column]] = {}
    for col in columns:
        by_key.setdefault(col.key, []).append(col)
    count = {key: sum(len(col.cards) for col in cols) for key, cols in by_key.items()}
    # groups that may be strays, each read as another rank whole or not at all: every card of
    # a key with no more than `stray_max` cards, and each column of at most `stray_column_max`
    # cards of a key whose longest column is longer (a meld lies apart from other ranks' columns)
    suspects: list[tuple[str, list[_Column]]] = []
    for key, cols in by_key.items():
        if count[key] <= cfg.stray_max:
            suspects.append((key, cols))
        else:
            longest = max(len(col.cards) for col in cols)
            suspects += [(key, [col]) for col in cols if len(col.cards) <= cfg.stray_column_max and len(col.cards) < longest]
    suspect_cols = {id(col) for _, cols in suspects for col in cols}
    # a home is no suspect group itself (so its key holds more cards than a stray rank may), and
    # it takes only groups shorter than it (below)
    homes = [
        (col, classes.pop())
        for col in columns
        if id(col) not in suspect_cols and len(classes := {c.cls for c in col.cards}) == 1 and not classes & fixed
    ]
    out: list[tuple[Card, _Column, str]] = []
    for key, cols in suspects:
        cards = [c for col in cols for c in col.cards]
        if any(id(c) in keep or c.cls in fixed for c in cards):
            continue
        found = []
        for card in cards:
            fits = [
                (off, n, col, cls)
                for n, (col, cls) in enumerate(homes)  # n: no _Column compared
                if col.key != key and len(col.cards) > len(cards) and (off := _inside(card, col, frame, size, cfg)) is not None
            ]
            if not fits:
                break
            _, _, col, cls = min(fits)
            found.append((card, col, cls))
        else:
            out.extend(found)
    return out


def _deep_inside(along: float, col: _Column, size: float, cfg: LayoutConfig) -> bool:
    """Whether a point `along` the column lies inside its run of indices, `whole_inside` sizes from both ends."""
    reach = cfg.whole_inside * size
    return col.along_min + reach < along < col.along_max - reach


def _wild_cost(wild: Card, col: _Column, frame: Frame, size: float, cfg: LayoutConfig, ends_only: bool = False) -> float | None:
    """How well the wild fits the column (its best corner; None: not at all). With `ends_only`, a corner
    deep inside the column's run of indices (`_deep_inside`) does not count."""
    best: float | None = None
    for d in wild.corners:
        across, along = frame.axes(d)
        if ends_only and _deep_inside(along, col, size, cfg):
            continue
        # fanned indices line up by their edge (a wide "WILD" index and a
        # narrow "7" start at the same card margin): compare centres and edges
        line = col.across_at(along)
        grow = frame.half_width(d) - col.half
        d_across = min(abs(across - line), abs(across - grow - line), abs(across + grow - line)) / size
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


def _place_wilds(
    wilds: list[Card], columns: list[_Column], frame: Frame, size: float, cfg: LayoutConfig
) -> tuple[list[tuple[Card, int]], list[Card]]:
    """Each wild with the column it lies in, best fit first, and the wilds in none.

    A placed wild lengthens its column, so a run of wilds at a column's end
    (2, JOKER, 2 after the last natural) belongs to it however long the run.
    A wild showing both corners is the last card of its column: the next
    card of a column covers a card's far corner. So its far corner, a card's
    diagonal off, may lie among the indices of a neighbouring column (a 2
    ending a column of 6s, its far corner between two 8s of the next
    column), and it is placed first by its corners that lie deep inside no
    column's run (`LayoutConfig.whole_inside`), by any where none of those fits.
    Columns are changed in place (their ends).
    """
    placed: list[tuple[Card, int]] = []
    left = list(wilds)
    while left:
        fits = []
        for w, wild in enumerate(left):
            # a whole wild is the last card of its column: first by a corner that is not deep inside one
            for ends_only in (True, False) if len(wild.corners) > 1 and cfg.whole_inside > 0 else (False,):
                mine = [(cost, w, c) for c, col in enumerate(columns) if (cost := _wild_cost(wild, col, frame, size, cfg, ends_only)) is not None]
                if mine:
                    fits += mine
                    break
        if not fits:
            break
        _, w, c = min(fits)
        wild = left.pop(w)
        alongs = [frame.axes(d)[1] for d in wild.corners]
        col = columns[c]
        col.along_min, col.along_max = min(col.along_min, *alongs), max(col.along_max, *alongs)
        placed.append((wild, c))
    return placed, left


def layout_table(
    cards: list[Card],
    wild_classes: frozenset[str] | set[str],
    *,
    red_three_class: str | None = "3R",
    meld_groups: Mapping[str, str] | None = None,
    config: LayoutConfig | None = None,
    keep: Iterable[Card] = (),
    fixed_classes: Iterable[str] = (),
) -> TableLayout:
    """Group a table photo's cards into melds, red threes, backs and unplaced cards.

    `wild_classes`: classes that are wild in the rules' deck family.
    `red_three_class`: the class laid in the red-three row, or None when
    red 3s are ordinary cards (Bare Foot's natural 3s).
    `meld_groups`: class -> group name for classes that meld together.
    `keep`: cards whose class was set by hand; they are never read as another rank.
    `fixed_classes`: classes never read as another rank nor taking strays (clothing cards in
    a meld break the rules: the scoring must see them as they are).
    Every card is returned exactly once (a stray natural as its re-read copy, see `reread`).
    """
    cfg = config or LayoutConfig()
    groups = dict(meld_groups or {})
    out = TableLayout()
    faces = [c for c in cards if c.cls != BACK]
    out.backs = [c for c in cards if c.cls == BACK]
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

    frame = column_frame(by_key.values(), size)
    columns: list[_Column] = []
    for key, members in by_key.items():
        cols = _split_columns(key, members, frame, size, cfg.column_gap * size)
        if len(cols) > 1:
            out.notes.append(f"the {key} cards lie in {len(cols)} columns; counted as one meld of {key} (a side has one meld per rank)")
        columns.extend(cols)

    strays = _reread_strays(columns, frame, size, cfg, frozenset(id(c) for c in keep), frozenset(fixed_classes))
    moved = {id(card) for card, _, _ in strays}
    for card, home, cls in strays:
        new = Card(cls, card.conf * 0.5, card.corners)
        out.reread.append((card, new))
        by_key[home.key].append(new)
        out.notes.append(
            f"a lone {card.cls} lies inside the column of the {home.key} meld: counted as {cls} "
            f"(check it on the table; --fix '{card.cls}->{card.cls}' keeps it a {card.cls})"
        )
    by_key = {k: kept for k, v in by_key.items() if (kept := [c for c in v if id(c) not in moved])}
    for col in columns:
        col.cards = [c for c in col.cards if id(c) not in moved]
    columns = [col for col in columns if col.cards]

    extra: dict[str, list[Card]] = {}
    placed, out.unplaced = _place_wilds(wilds, columns, frame, size, cfg)
    for wild, c in placed:
        extra.setdefault(columns[c].key, []).append(wild)

    key_pos = {}
    for col in columns:
        key_pos.setdefault(col.key, col.across)
    for key in sorted(by_key, key=lambda k: key_pos[k]):
        meld = sorted(by_key[key] + extra.get(key, []), key=lambda c: frame.axes(c.corners[0])[::-1])
        out.melds.append(meld)
        out.meld_keys.append(key)
    return out


def layout_leftover(cards: list[Card]) -> LeftoverLayout:
    """A leftover photo: every face-up card counts against its player."""
    return LeftoverLayout(
        cards=[c for c in cards if c.cls != BACK],
        backs=[c for c in cards if c.cls == BACK],
    )
