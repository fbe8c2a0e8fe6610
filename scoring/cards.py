"""Card kinds: what a detection class means under a deck family (DESIGN.md "Deck families").

A class name is only a printed index; the rule preset's deck family decides
whether it is a natural of some rank, a wild, a red or black three, a clothing
card, a card that does not belong to the deck (foreign) or a face-down card.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.detection_classes import CLASS_NAMES

FAMILIES: tuple[str, ...] = ("standard", "barefoot")

NATURAL = "natural"
WILD = "wild"
RED3 = "red3"
BLACK3 = "black3"
CLOTHING = "clothing"
FOREIGN = "foreign"
BACK = "back"

STANDARD_RANKS: tuple[str, ...] = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
BAREFOOT_RANKS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12")

#: The keys a rules file's [card_values] table must hold, per family (value keys).
VALUE_KEYS: dict[str, tuple[str, ...]] = {
    "standard": STANDARD_RANKS + ("wild20", "wild50", "red3", "black3"),
    "barefoot": BAREFOOT_RANKS + ("wild20", "wild50", "sock", "shoe"),
}


@dataclass(frozen=True)
class CardKind:
    """The meaning of one class under a deck family.

    category: natural | wild | red3 | black3 | clothing | foreign | back.
    rank: the natural's rank (meld key), "clothing" for clothing cards, else "".
    value_key: the key of its value in the rules' card values ("" when worthless).
    """

    cls: str
    category: str
    rank: str = ""
    value_key: str = ""


def _standard(cls: str) -> CardKind:
    if cls in STANDARD_RANKS:
        return CardKind(cls, NATURAL, cls, cls)
    if cls in ("2", "WILD20"):
        return CardKind(cls, WILD, "", "wild20")
    if cls in ("JOKER", "WILD50"):
        return CardKind(cls, WILD, "", "wild50")
    if cls == "3R":
        return CardKind(cls, RED3, "", "red3")
    if cls == "3B":
        return CardKind(cls, BLACK3, "", "black3")
    if cls == "BACK":
        return CardKind(cls, BACK)
    return CardKind(cls, FOREIGN)


def _barefoot(cls: str) -> CardKind:
    if cls in ("3R", "3B"):
        return CardKind(cls, NATURAL, "3", "3")
    if cls in BAREFOOT_RANKS:
        return CardKind(cls, NATURAL, cls, cls)
    if cls == "WILD20":
        return CardKind(cls, WILD, "", "wild20")
    if cls == "WILD50":
        return CardKind(cls, WILD, "", "wild50")
    if cls in ("SOCK", "SHOE"):
        return CardKind(cls, CLOTHING, "clothing", cls.lower())
    if cls == "BACK":
        return CardKind(cls, BACK)
    return CardKind(cls, FOREIGN)


def card_kind(family: str, cls: str) -> CardKind:
    """Map a detection class name to its kind under `family` ("standard" or "barefoot").

    Raises ValueError for an unknown family or a name that is not a detection class.
    """
    if cls not in CLASS_NAMES:
        raise ValueError(f"unknown card class {cls!r}")
    if family == "standard":
        return _standard(cls)
    if family == "barefoot":
        return _barefoot(cls)
    raise ValueError(f"unknown deck family {family!r} (known: {', '.join(FAMILIES)})")


def rank_plural(rank: str) -> str:
    """'4' -> '4s', 'K' -> 'Ks': used in line labels ("clean book of 4s")."""
    return f"{rank}s"
