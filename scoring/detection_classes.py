"""The detection classes: DESIGN.md's 23 model names, in model order.

This is the one contract vision and scoring share; it says nothing of points.
"""

from __future__ import annotations

CLASS_NAMES: tuple[str, ...] = (
    "A",
    "2",
    "3R",
    "3B",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "J",
    "Q",
    "K",
    "JOKER",
    "1",
    "11",
    "12",
    "WILD20",
    "WILD50",
    "SOCK",
    "SHOE",
    "BACK",
)
CLASS_ID: dict[str, int] = {name: i for i, name in enumerate(CLASS_NAMES)}

_SUITS = "HDCS"


def map_dataset_name(name: str) -> str | None:
    """Map a real data set's label (rank+suit, jokers, BACK) to our class name.

    Returns None when the name has no counterpart in our classes.
    """
    label = name.strip().upper()
    if label in CLASS_ID:
        return label
    if label in {"RED JOKER", "BLACK JOKER", "JOKER"}:
        return "JOKER"
    if len(label) >= 2 and label[-1] in _SUITS:
        rank = label[:-1]
        if rank == "3":
            return "3R" if label[-1] in "HD" else "3B"
        if rank in CLASS_ID and rank not in {"3R", "3B", "BACK"}:
            return rank
    return None
