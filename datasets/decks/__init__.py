"""Deck designs for the synthetic-data generator: every face with its index-corner boxes.

- simple_deck: a traditional deck drawn here (exact boxes; the project's tests use it)
- procedural_decks: Hand & Foot Remastered and Bare Foot -N- Wild approximations
- fetched_decks: traditional decks rendered into the cache by `handfoot dataset fetch-decks`
- load_decks: the mix the scene generator draws from
- contact_sheet: all faces with their corner boxes drawn, for review
"""

from __future__ import annotations

from pathlib import Path

from datasets.decks.cache import cache_dir, load_deck, read_stored, stored_decks
from datasets.decks.procedural import procedural_decks
from datasets.decks.sheet import contact_sheet
from datasets.decks.simple import simple_deck
from datasets.faces import Deck

SIMPLE_VARIANTS = 4  # simple-deck seeds load_decks mixes in
# With `word_jokers` (training builds: `handfoot dataset build --word-jokers`), this many simple decks
# whose jokers print one word across the top join the mix (models/README.md, "Leg 29").
WORD_JOKER_VARIANTS = 6
WORD_JOKER_SEED = 5000


def _mix_folders(cache: Path | None) -> list[Path]:
    """The cached deck folders that belong in the default mix (complete, and neither foreign indices nor
    four-colour suits)."""
    folders = []
    for folder in stored_decks(cache_dir(cache)):
        stored = read_stored(folder)
        if stored is not None and stored.in_default_mix:
            folders.append(folder)
    return folders


def fetched_decks(cache: Path | None = None) -> list[Deck]:
    """The traditional decks rendered into the cache that belong in the default mix.

    Decks with foreign indices or four-colour suits are cached but left out.
    An empty list when nothing has been fetched yet.
    """
    decks = (load_deck(folder) for folder in _mix_folders(cache))
    return [deck for deck in decks if deck is not None]


def fetched_design_count(cache: Path | None = None) -> int:
    """How many fetched designs of the default mix the cache holds (0 before `handfoot dataset fetch-decks`)."""
    return len(_mix_folders(cache))


def word_joker_names() -> list[str]:
    """The names of the word-joker decks `load_decks(word_jokers=True)` adds."""
    return [f"simple-word-{WORD_JOKER_SEED + i}" for i in range(WORD_JOKER_VARIANTS)]


def load_decks(cache: Path | None = None, fetched: bool = True, seed: int = 0, word_jokers: bool = False) -> list[Deck]:
    """Every deck the scene generator should mix: simple-deck variants, procedural decks, fetched decks,
    and with `word_jokers` the simple decks whose jokers print a word across the top (never in rounds)."""
    decks = [simple_deck(seed * 100 + i) for i in range(SIMPLE_VARIANTS)]
    decks += procedural_decks(seed)
    if fetched:
        decks += fetched_decks(cache)
    if word_jokers:
        decks += [simple_deck(WORD_JOKER_SEED + i, word_joker=True) for i in range(WORD_JOKER_VARIANTS)]
    return decks


__all__ = ["contact_sheet", "fetched_decks", "fetched_design_count", "load_decks", "procedural_decks", "simple_deck",
           "word_joker_names"]
