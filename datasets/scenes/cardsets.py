"""Which cards a deck family has and how Hand and Foot groups them (melds, wilds, red 3s)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from datasets.faces import CardFace, Deck

# How often each family's decks lie on the tables of generated rounds (a guess at what players use).
FAMILY_WEIGHTS: dict[str, float] = {"traditional": 0.6, "remastered": 0.2, "barefoot": 0.2}
# Training scenes show Remastered decks more often than tables do: four of the six drawn
# Remastered decks print a wild's value small under a big W, and the model read most of
# their 50-point wilds as 20-point ones (models/README.md, "What to do next").
SCENE_FAMILY_WEIGHTS: dict[str, float] = {"traditional": 0.5, "remastered": 0.3, "barefoot": 0.2}

# With `dataset build --hard-designs`, training scenes draw these deck designs more often than
# the others (weight 1). They are the designs whose corners leg 24 missed or misread most on the
# dev12 rounds (`training/eval/corner_confusions.py`; models/README.md, "Legs 25 and 26"): star-cornered jokers
# (aguilar, orell, gnomangelo, plastic, bellot), tango-nuevo's whole-word joker, neoclassical 7s
# read as 2s, Remastered 50s read as 20s and Bare Foot clothing read as wilds. Ornamental came
# from a count on the held-out rounds (its aces), not dev12, where 99 % of its corners read right.
HARD_DESIGN_WEIGHTS: dict[str, float] = {
    "aguilar": 3.0,
    "aisleriot-orell": 3.0,
    "aisleriot-tango-nuevo": 3.0,
    "aisleriot-plastic": 2.0,
    "aisleriot-gnomangelo": 2.0,
    "aisleriot-bellot": 2.0,
    "aisleriot-neoclassical": 2.0,
    "aisleriot-ornamental": 2.0,
    "remastered-5": 2.0,
    "barefoot-3": 2.0,
    "barefoot-4": 2.0,
}

# With `dataset build --word-jokers`, each drawn deck whose jokers print a word across the top
# (datasets.decks.word_joker_names) comes up this many times as often as another design.
WORD_JOKER_WEIGHT = 2.0

_WILDS = {"traditional": ("2", "JOKER"), "remastered": ("WILD20", "WILD50"), "barefoot": ("WILD20", "WILD50")}
# How many of a training table's melds hold no wild, by family. Remastered wilds' 20 and 50 differ
# in a few pixels, and showing their decks more often (SCENE_FAMILY_WEIGHTS) did not teach the
# model the 50 (models/README.md): their melds hold wilds more often and more of them.
WILD_FREE_MELDS: dict[str, float] = {"remastered": 0.1}
WILD_SHARE: dict[str, tuple[float, float]] = {"remastered": (0.25, 0.45)}
_WILD_FREE, _SHARE = 0.4, (0.1, 0.45)
_NATURALS = {
    "traditional": ("A", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"),
    "remastered": ("A", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"),
    "barefoot": ("1", "2", "3R", "3B", "4", "5", "6", "7", "8", "9", "10", "11", "12"),
}
_CLOTHING = ("SOCK", "SHOE")


@dataclass(frozen=True)
class FamilyCards:
    """The classes a family's decks print, by their Hand and Foot role."""

    family: str
    naturals: tuple[str, ...]
    wilds: tuple[str, ...]
    red3: str | None  # the red-3 class laid in its own row (None for Bare Foot)
    black3: str | None
    clothing: tuple[str, ...]

    @property
    def all(self) -> tuple[str, ...]:
        extra = tuple(c for c in (self.red3, self.black3) if c)
        return self.naturals + self.wilds + extra + self.clothing


def family_cards(family: str, available: set[str] | None = None) -> FamilyCards:
    """The role table for a family, restricted to classes the decks actually print."""

    def keep(cs):
        return tuple(c for c in cs if available is None or c in available)

    if family == "barefoot":
        return FamilyCards(family, keep(_NATURALS[family]), keep(_WILDS[family]), None, None, keep(_CLOTHING))
    red3 = "3R" if available is None or "3R" in available else None
    black3 = "3B" if available is None or "3B" in available else None
    return FamilyCards(family, keep(_NATURALS[family]), keep(_WILDS[family]), red3, black3, ())


def meld_ranks(roles: FamilyCards) -> list[str]:
    """Ranks a side can meld, one meld each (Bare Foot's red and black 3s are one rank, "3")."""
    ranks = [r for r in roles.naturals if r not in ("3R", "3B")]
    if any(r in roles.naturals for r in ("3R", "3B")):
        ranks.insert(ranks.index("4") if "4" in ranks else len(ranks), "3")
    return ranks


def rank_card(rng: np.random.Generator, roles: FamilyCards, rank: str) -> str:
    """A natural card of a meld rank (Bare Foot 3s come in red and black ink)."""
    if rank == "3":
        threes = [c for c in ("3R", "3B") if c in roles.naturals]
        return threes[int(rng.integers(len(threes)))]
    return rank


def pick_family(rng: np.random.Generator, decks: list[Deck]) -> str:
    """Sample a training scene's deck family (SCENE_FAMILY_WEIGHTS) among those present."""
    present = sorted({d.family for d in decks})
    weights = np.array([SCENE_FAMILY_WEIGHTS.get(f, 0.1) for f in present], float)
    return present[int(rng.choice(len(present), p=weights / weights.sum()))]


class CardSource:
    """Draws card faces for one scene: one family, one to three deck designs shuffled together.

    `design_weights` (deck name -> weight, others 1) makes some designs come up more often;
    without it every design is as likely (and the draw is the one earlier builds made).
    """

    def __init__(self, rng: np.random.Generator, decks: list[Deck], family: str, design_weights: dict[str, float] | None = None) -> None:
        pool = [d for d in decks if d.family == family and d.faces]
        if not pool:
            raise ValueError(f"no deck of family {family!r}")
        n = 1 if len(pool) == 1 else int(rng.choice([1, 1, 1, 2, 2, 3]))
        if design_weights:
            w = np.array([design_weights.get(d.name, 1.0) for d in pool], float)
            idx = rng.choice(len(pool), size=min(n, len(pool)), replace=False, p=w / w.sum())
        else:
            idx = rng.choice(len(pool), size=min(n, len(pool)), replace=False)
        self.rng = rng
        self._pool = pool
        self.decks = [pool[int(i)] for i in idx]
        self.family = family
        available = set().union(*(d.faces for d in self.decks))
        self.roles = family_cards(family, available)
        # one design per class per scene most of the time: several copies look identical
        self._chosen: dict[str, CardFace] = {}

    def face(self, cls: str) -> CardFace:
        """A face of class `cls`; repeated calls mostly return the identical face."""
        if cls in self._chosen and self.rng.random() < 0.85:
            return self._chosen[cls]
        options = [f for d in self.decks for f in d.faces.get(cls, [])]
        if not options:  # the scene's designs lack this face (its index was unreadable): borrow one
            options = [f for d in self._pool for f in d.faces.get(cls, [])]
        if not options:
            raise KeyError(cls)
        face = options[int(self.rng.integers(len(options)))]
        self._chosen.setdefault(cls, face)
        return face

    def back(self) -> np.ndarray | None:
        """A card back of one of the scene's decks (None when no deck ships one)."""
        backs = [b for d in self.decks for b in d.backs]
        if not backs:
            return None
        return backs[int(self.rng.integers(len(backs)))]

    def has(self, cls: str) -> bool:
        return any(cls in d.faces and d.faces[cls] for d in self.decks)

    def random_class(self) -> str:
        """Any class the scene's decks print (uniform over classes)."""
        classes = [c for c in self.roles.all if self.has(c)]
        return classes[int(self.rng.integers(len(classes)))]


def sample_meld(rng: np.random.Generator, roles: FamilyCards, rank: str, size: int, wild_share: float) -> list[str]:
    """A meld of `size` cards of `rank`, wilds inside it (naturals always outnumber wilds)."""
    n_wild = 0
    if roles.wilds and wild_share > 0:
        n_wild = int(rng.binomial(size, wild_share))
        n_wild = min(n_wild, (size - 1) // 2, 3)
    cards = [rank_card(rng, roles, rank) for _ in range(size - n_wild)]
    cards += [roles.wilds[int(rng.integers(len(roles.wilds)))] for _ in range(n_wild)]
    # wilds go anywhere but the first card, mostly at the end
    naturals, wilds = cards[: size - n_wild], cards[size - n_wild :]
    if rng.random() < 0.5:
        order = naturals + wilds
    else:
        order = [naturals[0]]
        rest = naturals[1:] + wilds
        rng.shuffle(rest)
        order += rest
    return order


def sample_table_melds(rng: np.random.Generator, roles: FamilyCards, n_melds: int) -> list[list[str]]:
    """Melds of one side: distinct ranks, 3-12 cards, books (7+) common, some wilds."""
    ranks = meld_ranks(roles)
    if roles.clothing:
        ranks.append("CLOTHING")
    n = min(n_melds, len(ranks))
    chosen = [ranks[int(i)] for i in rng.choice(len(ranks), size=n, replace=False)]
    melds = []
    for rank in chosen:
        size = int(rng.integers(7, 13)) if rng.random() < 0.45 else int(rng.integers(3, 7))
        if rank == "CLOTHING":
            melds.append([roles.clothing[int(rng.integers(len(roles.clothing)))] for _ in range(size)])
            continue
        free = WILD_FREE_MELDS.get(roles.family, _WILD_FREE)
        wild_share = 0.0 if rng.random() < free else float(rng.uniform(*WILD_SHARE.get(roles.family, _SHARE)))
        melds.append(sample_meld(rng, roles, rank, size, wild_share))
    return melds


def sample_hand(rng: np.random.Generator, roles: FamilyCards, n: int) -> list[str]:
    """Loose cards left in a hand or foot: any class, naturals and black 3s most often.

    Black 3s are as common as a natural (they stay in hands, and real photos confuse
    them with red 3s); wilds, red 3s and clothing cards each come twice as rarely.
    """
    pool = list(roles.naturals) * 2 + list(roles.wilds) + list(roles.clothing)
    pool += [c for c in (roles.red3,) if c] + [c for c in (roles.black3,) if c] * 2
    return [pool[int(rng.integers(len(pool)))] for _ in range(n)]
