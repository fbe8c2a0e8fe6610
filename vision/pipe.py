"""The reading pipe: photo -> corner boxes -> cards -> melds or a hand, declared once as `STAGES`.

Every command that reads a photo runs these stages through `run`: `score`, `audit` and the web server read a
whole photo (`read`); `watch` reads each frame up to FRAME_LAST, steadies its boxes over frames
(`vision.stability`) and runs the rest from JOIN_FIRST on a steady set that changed. What a stage does is
set by `Settings` and by what the `Flow` holds (no image: nothing is looked at again), never by who calls,
so the two cannot drift apart. The last stage, `layout`, runs apart (`lay_out`): the round builder lays the
cards out only after the corrections a player made to the cards as read.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from vision.corners import HAND_PHOTO, join_corners
from vision.detection import Card, Detection, Reading
from vision.face_letters import drop_face_letters
from vision.gaps import lines_filled
from vision.imageio import load_image
from vision.ink import RED_AT, THREES, has_colour, laid_threes, recolour_foot_wilds, recolour_threes
from vision.joker_faces import drop_joker_faces
from vision.joker_groups import shipped_joker_grouper
from vision.joker_words import word_jokers
from vision.layout import DeckLayout, LeftoverLayout, TableLayout, layout_leftover, layout_table
from vision.sharpness import photo_blur
from vision.small_jokers import drop_small_jokers
from vision.whole_cards import JOIN_ODDS, TABLE_JOIN_ODDS, second_look, shipped_whole_card_reader
from vision.wild_reader import HAND_THREE_ODDS, shipped_reader

DetectFn = Callable[[np.ndarray], list[Detection] | Reading]  # a Reading keeps unsure boxes apart

# what a photo shows
TABLE = "table"  # one side's melds, fanned in columns
LEFTOVER = "leftover"  # the cards left in a player's hand and foot
ROLES = (TABLE, LEFTOVER)


@dataclass
class Flow:
    """What flows between the stages: one photo (or frame) and what has been read from it so far."""

    role: str  # TABLE or LEFTOVER
    image: np.ndarray | None = None  # None: no stage looks at the pixels again
    frame: tuple[int, int] | None = None  # (width, height) of the photo; None: cards given, no photo
    detections: list[Detection] = field(default_factory=list)  # the boxes as they stand: detected, named, kept
    sure: list[Detection] = field(default_factory=list)  # the detector's sure boxes, as detected
    unsure: list[Detection] = field(default_factory=list)  # its boxes under its threshold, kept apart
    taken: list[Detection] = field(default_factory=list)  # unsure boxes a table's columns called for
    blur: float | None = None  # `vision.sharpness.photo_blur` (None: too few boxes to say)
    colour: bool | None = None  # whether the photo has colour (`vision.ink.has_colour`); None: not looked yet
    cards: list[Card] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what a player should check on the picture
    keep: list[Card] = field(default_factory=list)  # cards the layout keeps as they are (corrected ones)
    layout: TableLayout | LeftoverLayout | None = None

    @classmethod
    def of(cls, image: np.ndarray, role: str) -> Flow:
        """A photo (or frame) about to be read."""
        height, width = image.shape[:2]
        return cls(role, image, (width, height))


@dataclass(frozen=True)
class Settings:
    """How the stages run; the same for every caller but for what it asks of the pipe."""

    detect: DetectFn | None = None  # the corner detector (`vision.detector`); needed by `detect` only
    family: str = "standard"  # the rules' deck family: Bare Foot names its wilds apart
    wilds: bool = True  # boxes named again by the second-look readers, corners looked at again as whole cards
    jokers: bool = True  # joker boxes grouped into jokers by the joker grouper (models/jokers.pt)
    blur_boxes: int | None = None  # blur on this many of the surest boxes as named (a live frame), not all sure
    deck: DeckLayout | None = None  # what the table layout knows of the deck; needed by `layout` on a table


@dataclass(frozen=True)
class Stage:
    """One named step of the pipe: reads the flow, writes its results back into it."""

    name: str
    step: Callable[[Flow, Settings], None]


def _detect(flow: Flow, s: Settings) -> None:
    """The detector's corner boxes; a `Reading` keeps its unsure boxes apart."""
    found = s.detect(flow.image)
    flow.sure, flow.unsure = (found.sure, found.unsure) if isinstance(found, Reading) else (found, [])
    flow.detections = list(flow.sure)


def _fill_gaps(flow: Flow, s: Settings) -> None:
    """On a table, the unsure boxes that a column's even spacing calls for are taken (`vision/gaps.py`)."""
    if flow.role != TABLE:
        return
    flow.taken = lines_filled(flow.sure, flow.unsure)
    flow.detections = flow.detections + flow.taken
    if flow.taken:
        n = len(flow.taken)
        flow.notes.append(
            f"{n} unsure {'index' if n == 1 else 'indices'} taken where a column's "
            "even spacing calls for a card (under the detector's threshold): check them on the picture"
        )


def _name(flow: Flow, s: Settings) -> None:
    """Boxes named again by the second-look readers and by their ink (`name_wilds`)."""
    flow.detections = name_wilds(flow.image, flow.detections, s.family, s.wilds, hands=flow.role == LEFTOVER, unsure=flow.unsure)


def _sharpness(flow: Flow, s: Settings) -> None:
    """How blurred the indices came out, on the detector's sure boxes; with `blur_boxes`, on that many of the
    surest boxes as named (a live frame: a box costs 0.4-0.8 ms)."""
    boxes = flow.sure if s.blur_boxes is None else sorted(flow.detections, key=lambda d: -d.conf)[: s.blur_boxes]
    flow.blur = photo_blur(flow.image, boxes)


def _small_jokers(flow: Flow, s: Settings) -> None:
    """Joker boxes far smaller than the photo's indices dropped (`vision/small_jokers.py`: a design's pips)."""
    flow.detections = drop_small_jokers(flow.detections)


def _joker_faces(flow: Flow, s: Settings) -> None:
    """Joker boxes where two of a joker's diagonals cross dropped (`vision/joker_faces.py`: its emblem)."""
    flow.detections = drop_joker_faces(flow.detections)


def _face_letters(flow: Flow, s: Settings) -> None:
    """Unsure rank boxes far larger than the indices dropped (`vision/face_letters.py`: a court card's letter)."""
    flow.detections = drop_face_letters(flow.detections)


def _join(flow: Flow, s: Settings) -> None:
    """Corners joined into cards (`vision.corners`); a leftover photo shows hands, so fans are read as fans."""
    flow.cards = join_corners(flow.detections, HAND_PHOTO if flow.role == LEFTOVER else None)


def _second_look(flow: Flow, s: Settings) -> None:
    """Given the photo, the whole-card reader looks again at which corners are one card (`vision/whole_cards.py`)."""
    if s.wilds and flow.image is not None:
        odds = TABLE_JOIN_ODDS if flow.role == TABLE else JOIN_ODDS
        flow.cards = second_look(flow.image, flow.cards, shipped_whole_card_reader(), odds)


def _group_jokers(flow: Flow, s: Settings) -> None:
    """Joker boxes grouped into jokers again by the joker grouper, where present (`vision/joker_groups.py`)."""
    grouper = shipped_joker_grouper() if s.jokers else None
    if grouper is not None:
        flow.cards = grouper.group(flow.cards, flow.role == LEFTOVER)


def _colour(flow: Flow, s: Settings) -> None:
    """Whether the photo has colour, where not known yet: in a grey one no card can be named by its ink."""
    if flow.colour is None:
        flow.colour = flow.image is None or has_colour(flow.image)


def _layout(flow: Flow, s: Settings) -> None:
    """A table's cards laid out into melds, red 3s, backs and strays; a leftover's into a hand (`vision.layout`)."""
    if flow.role == TABLE:
        deck = s.deck
        flow.layout = layout_table(
            flow.cards, deck.wilds, red_three_class=deck.red_three_class, meld_groups=deck.meld_key, keep=flow.keep, fixed_classes=deck.not_natural
        )
    else:
        flow.layout = layout_leftover(flow.cards)


#: The reading pipe, in the order its stages run. Each filter and second look earns its keep: the comments give
#: the 200 held-out rounds' exact sides without it (436 of 509 with every stage; one readings cache, so only the
#: stage differs: `handfoot eval-rounds eval-rounds --cache DIR` with the stage left out of STAGES).
STAGES: tuple[Stage, ...] = (
    Stage("detect", _detect),
    Stage("fill-gaps", _fill_gaps),  # 428
    Stage("name", _name),  # real closeup-phone 382 of 438 without it (384 with)
    Stage("sharpness", _sharpness),
    Stage("small-jokers", _small_jokers),  # 431
    Stage("joker-faces", _joker_faces),  # 435
    Stage("face-letters", _face_letters),  # 432
    Stage("join", _join),
    Stage("second-look", _second_look),  # 434
    Stage("group-jokers", _group_jokers),  # 428
    Stage("colour", _colour),
    Stage("layout", _layout),
)

#: `watch` reads each frame up to here, then steadies its boxes over frames (`vision.stability`) ...
FRAME_LAST = "sharpness"
#: ... and joins a steady set from here on; `join_for` starts here too.
JOIN_FIRST = "small-jokers"
#: A photo's reading ends here; `layout` follows once the cards as read are corrected.
READ_LAST = "colour"


def run(flow: Flow, settings: Settings = Settings(), start: str | None = None, stop: str | None = None) -> Flow:
    """Run the stages from `start` to `stop` (both included; None: the first, the last) on `flow`; return it."""
    names = [stage.name for stage in STAGES]
    first = 0 if start is None else names.index(start)
    last = len(names) - 1 if stop is None else names.index(stop)
    for stage in STAGES[first : last + 1]:
        stage.step(flow, settings)
    return flow


def read(path: Path, role: str, settings: Settings) -> Flow:
    """A photo on disk (EXIF honoured) read into cards: every stage but the layout."""
    return run(Flow.of(load_image(path), role), settings, stop=READ_LAST)


def join_for(role: str, detections: list[Detection], jokers: bool = True, image: np.ndarray | None = None) -> list[Card]:
    """Cards from one photo's corner boxes as named: the stages from JOIN_FIRST to the joker grouping. Given the
    photo (`image`), the whole-card reader looks again; with `jokers`, the joker grouper groups joker boxes."""
    flow = Flow(role, image, None, list(detections))
    return run(flow, Settings(jokers=jokers), start=JOIN_FIRST, stop="group-jokers").cards


def lay_out(role: str, cards: list[Card], deck: DeckLayout | None = None, keep: Sequence[Card] = ()) -> TableLayout | LeftoverLayout:
    """The `layout` stage on cards as read and corrected: a table's melds (`deck` needed) or a leftover hand;
    cards in `keep` (corrected ones) are kept as they are."""
    return run(Flow(role, cards=cards, keep=list(keep)), Settings(deck=deck), start="layout").layout


def name_by_ink(image: np.ndarray, detections: list[Detection], family: str) -> list[Detection]:
    """A Bare Foot photo's wilds named by their ink (blue 20, red 50); other families' as detected."""
    return recolour_foot_wilds(image, detections) if family == "barefoot" else detections


def name_wilds(
    image: np.ndarray, detections: list[Detection], family: str, wilds: bool = True, hands: bool = False, unsure: list[Detection] | None = None
) -> list[Detection]:
    """Every box the second-look readers (`vision/wild_reader.py`) read better named by them, where
    `wilds` is set and the reader is present; otherwise as detected (Bare Foot wilds still by their ink).

    Standard family: first a J the detector was unsure of, or one of its `unsure` boxes (under its threshold), as
    a joker where the joker-word reader (models/joker-words.pt) sees the rest of a joker's word or face around it
    (`vision.joker_words.word_jokers`); then a natural's rank by the rank reader (models/ranks.pt) where it is sure; in a photo of
    `hands` a 3's colour too, where a 3 of the other colour is its likeliest class at HAND_THREE_ODDS or more
    (on the table a laid 3 is a red 3 all but always, and there the reader turned red 3s black on
    development rounds; in a hand a black 3 read as red costs its side hundreds of points); a 3 it made or
    recoloured then coloured by its ink where the ink is clear (in a photo of hands a 3 turns red by its ink only
    there), or where the photo's own index inks part clearly into black and red (`vision.ink.ink_split`, in a
    photo of hands any 3); and a (Remastered) wild by the wild reader
    (models/wilds.pt). On a table photo holding a red 3, a black 3 whose ink is not plainly black is then
    red (`vision.ink.laid_threes`: black 3s are never melded).
    Bare Foot: a wild or clothing card by the Bare Foot reader (models/foot-wilds.pt: wild 20 or 50,
    sock or shoe), then a wild by its ink where the ink is clear (blue 20, red 50).
    """

    def by_reader(kind: str, dets: list[Detection], within_odds: float | None = None) -> list[Detection]:
        reader = shipped_reader(kind) if wilds else None
        return reader.read(image, dets, within_odds=within_odds) if reader is not None else dets

    if family == "barefoot":
        return name_by_ink(image, by_reader("foot-wilds", detections), family)
    words = shipped_reader("joker-words") if wilds else None
    ranked = by_reader("ranks", word_jokers(image, detections, words, unsure or []), HAND_THREE_ODDS if hands else None)
    made_threes = {(d.cls, d.box) for d in ranked if d.cls in THREES} - {(d.cls, d.box) for d in detections}
    if hands:  # red only where the reader made or recoloured a 3
        ranked = recolour_threes(image, ranked, red_at=RED_AT if made_threes else math.inf, own_inks=True)
    elif made_threes:
        ranked = recolour_threes(image, ranked, own_inks=True)
    named = by_reader("wilds", ranked)
    return named if hands else laid_threes(image, named)
