"""Rule presets as data: the `Rules` dataclass and its pure parser `rules_from_dict`.

A rules dict (parsed from TOML by the app) has this shape; every key is
checked, an unknown key is an error naming it::

    base = "remastered-singles"     # optional: start from a preset, override below
    name = "my-house-rules"
    title = "..."; source = "..."; sides = "..."
    family = "standard"             # or "barefoot" (DESIGN.md deck families)
    rounds = 4
    opening_meld = [60, 90, 120, 150]
    opening_counts_books = true     # false: complete books do not count toward the opening meld
    perfect_deal_bonus = 100        # 0: no bonus for picking exactly 22 cards
    [card_values]                   # every value key of the family (scoring.cards.VALUE_KEYS)
    [melds]    min_size, book_size, natural_margin, max_wilds, no_wild_after_book
    [books]    clean, dirty
    [red_threes]  laid, all_laid_count, all_laid_bonus
    [clothing]    stack_bonus, meld_value
    [going_out]   bonus, clean_books, dirty_books, partner_clean_books,
                  partner_dirty_books, clothing_must_be_stack

Per-round numbers (opening_meld, the going-out book counts) are a list with one
entry per round, or a single number meaning every round.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring.cards import FAMILIES, VALUE_KEYS


class RulesError(ValueError):
    """A rules dict names an unknown key, lacks one, or holds a bad value."""


@dataclass(frozen=True)
class Rules:
    """One complete rule set (a preset or a user's custom rules)."""

    name: str
    title: str
    source: str
    family: str
    sides: str
    rounds: int
    opening_meld: tuple[int, ...]
    opening_counts_books: bool
    card_values: tuple[tuple[str, int], ...]
    min_meld: int
    book_size: int
    natural_margin: int
    max_wilds: int
    no_wild_after_book: bool
    clean_book: int
    dirty_book: int
    red3_laid: bool
    red3_all_laid_count: int
    red3_all_laid_bonus: int
    clothing_stack_bonus: int
    clothing_meld_value: int
    going_out_bonus: int
    going_out_clean: tuple[int, ...]
    going_out_dirty: tuple[int, ...]
    partner_going_out_clean: tuple[int, ...]
    partner_going_out_dirty: tuple[int, ...]
    clothing_must_be_stack: bool
    perfect_deal_bonus: int

    def value(self, key: str) -> int:
        """The points of one value key ("4", "wild50", "red3", "sock", ...); 0 when absent."""
        return dict(self.card_values).get(key, 0)

    def opening_minimum(self, round_no: int) -> int:
        """The opening-meld minimum of round `round_no` (1-based)."""
        return self.opening_meld[self._index(round_no)]

    def books_to_go_out(self, round_no: int, partners: bool = False) -> tuple[int, int]:
        """(clean, dirty) books a side needs to go out in round `round_no`."""
        i = self._index(round_no)
        if partners:
            return self.partner_going_out_clean[i], self.partner_going_out_dirty[i]
        return self.going_out_clean[i], self.going_out_dirty[i]

    def wilds_allowed(self, naturals: int) -> int:
        """The most wilds a meld with `naturals` natural cards may hold under these rules."""
        limit = max(0, naturals - self.natural_margin)
        if self.max_wilds:
            limit = min(limit, self.max_wilds)
        if self.no_wild_after_book:
            limit = min(limit, self.wilds_before_book())
        return limit

    def wilds_before_book(self) -> int:
        """Most wilds that fit before a meld reaches book size, keeping the natural margin.

        With the margin kept at every step, w wilds need w + margin naturals, so a
        meld holding w wilds had at least 2w + margin cards when the last wild went
        on; beyond book size that wild went onto a finished book.
        """
        return max(0, (self.book_size - self.natural_margin) // 2)

    def _index(self, round_no: int) -> int:
        if not 1 <= round_no <= self.rounds:
            raise ValueError(f"round {round_no} is outside 1..{self.rounds} for {self.name}")
        return round_no - 1


# Schema: section -> {key: (type, field name)}; "" is the top level.
_INT, _BOOL, _STR, _ROUNDS = "int", "bool", "str", "rounds"
_SCHEMA: dict[str, dict[str, tuple[str, str]]] = {
    "": {
        "name": (_STR, "name"),
        "title": (_STR, "title"),
        "source": (_STR, "source"),
        "family": (_STR, "family"),
        "sides": (_STR, "sides"),
        "rounds": (_INT, "rounds"),
        "opening_meld": (_ROUNDS, "opening_meld"),
        "opening_counts_books": (_BOOL, "opening_counts_books"),
        "perfect_deal_bonus": (_INT, "perfect_deal_bonus"),
    },
    "melds": {
        "min_size": (_INT, "min_meld"),
        "book_size": (_INT, "book_size"),
        "natural_margin": (_INT, "natural_margin"),
        "max_wilds": (_INT, "max_wilds"),
        "no_wild_after_book": (_BOOL, "no_wild_after_book"),
    },
    "books": {
        "clean": (_INT, "clean_book"),
        "dirty": (_INT, "dirty_book"),
    },
    "red_threes": {
        "laid": (_BOOL, "red3_laid"),
        "all_laid_count": (_INT, "red3_all_laid_count"),
        "all_laid_bonus": (_INT, "red3_all_laid_bonus"),
    },
    "clothing": {
        "stack_bonus": (_INT, "clothing_stack_bonus"),
        "meld_value": (_INT, "clothing_meld_value"),
    },
    "going_out": {
        "bonus": (_INT, "going_out_bonus"),
        "clean_books": (_ROUNDS, "going_out_clean"),
        "dirty_books": (_ROUNDS, "going_out_dirty"),
        "partner_clean_books": (_ROUNDS, "partner_going_out_clean"),
        "partner_dirty_books": (_ROUNDS, "partner_going_out_dirty"),
        "clothing_must_be_stack": (_BOOL, "clothing_must_be_stack"),
    },
}
_SPECIAL = {"base", "card_values"}
# Keys a rules file may leave out, with their defaults.
_DEFAULTS: dict[str, Any] = {
    "title": "",
    "source": "",
    "sides": "",
    "opening_counts_books": True,
    "perfect_deal_bonus": 0,
    "min_meld": 3,
    "book_size": 7,
    "natural_margin": 1,
    "max_wilds": 0,
    "no_wild_after_book": False,
    "red3_all_laid_count": 0,
    "red3_all_laid_bonus": 0,
    "red3_laid": False,
    "clothing_stack_bonus": 0,
    "clothing_meld_value": 0,
    "going_out_bonus": 0,
    "clothing_must_be_stack": False,
}


def _merge(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """Deep-merge two rules dicts: tables merge key by key, other values replace."""
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def _resolve_base(data: Mapping[str, Any], presets: Mapping[str, dict], seen: tuple[str, ...] = ()) -> dict:
    base = data.get("base")
    if base is None:
        return dict(data)
    if not isinstance(base, str):
        raise RulesError(f"'base' must be a preset name, got {base!r}")
    if base not in presets:
        raise RulesError(f"unknown base preset {base!r} (presets: {', '.join(sorted(presets))})")
    if base in seen:
        raise RulesError(f"presets form a loop through {base!r}")
    parent = _resolve_base(presets[base], presets, seen + (base,))
    merged = _merge(parent, {k: v for k, v in data.items() if k != "base"})
    if "name" not in data:
        merged["name"] = f"{base} (custom)"
    if "title" not in data:
        merged["title"] = f"based on {base}"
    return merged


def resolve_base(data: Mapping[str, Any], presets: Mapping[str, dict]) -> dict:
    """A rules dict with its `base` preset merged in (pure): a copy that no longer needs the presets,
    so a game can keep its rules as they were when it started (`rules_from_dict(frozen, {})`)."""
    if not isinstance(data, Mapping):
        raise RulesError("a rules file must be a table of keys")
    return _resolve_base(data, presets)


def _check_type(where: str, kind: str, value: Any) -> Any:
    if kind == _BOOL:
        if not isinstance(value, bool):
            raise RulesError(f"{where} must be true or false, got {value!r}")
        return value
    if kind == _STR:
        if not isinstance(value, str):
            raise RulesError(f"{where} must be a string, got {value!r}")
        return value
    if kind == _INT:
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(f"{where} must be a whole number, got {value!r}")
        return value
    # _ROUNDS: one int, or a list of ints; broadcast later
    if isinstance(value, bool):
        raise RulesError(f"{where} must be a number or a list of numbers, got {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return tuple(value)
    raise RulesError(f"{where} must be a number or a non-empty list of numbers, got {value!r}")


def rules_from_dict(data: Mapping[str, Any], presets: Mapping[str, dict]) -> Rules:
    """Build `Rules` from a parsed rules file (pure; no I/O).

    `presets` maps preset names to their raw dicts, for `base = "<preset>"`.
    Raises RulesError naming any unknown key, missing key or bad value.
    """
    if not isinstance(data, Mapping):
        raise RulesError("a rules file must be a table of keys")
    merged = _resolve_base(data, presets)
    fields = _read_keys(merged)
    for required in ("name", "family", "rounds", "opening_meld", "clean_book", "dirty_book", "going_out_clean", "going_out_dirty"):
        if required not in fields:
            raise RulesError(f"rules lack '{_key_of(required)}'")
    family = fields["family"]
    if family not in FAMILIES:
        raise RulesError(f"family must be one of {', '.join(FAMILIES)}, got {family!r}")
    rounds = fields["rounds"]
    if rounds < 1:
        raise RulesError(f"rounds must be at least 1, got {rounds}")
    fields["card_values"] = _card_values(family, merged.get("card_values"))
    fields.setdefault("partner_going_out_clean", fields["going_out_clean"])
    fields.setdefault("partner_going_out_dirty", fields["going_out_dirty"])
    for field in ("opening_meld", "going_out_clean", "going_out_dirty", "partner_going_out_clean", "partner_going_out_dirty"):
        fields[field] = _per_round(_key_of(field), fields[field], rounds)
    for field in ("min_meld", "book_size"):
        if fields[field] < 1:
            raise RulesError(f"{_key_of(field)} must be at least 1, got {fields[field]}")
    if fields["natural_margin"] < 0 or fields["max_wilds"] < 0:
        raise RulesError("melds.natural_margin and melds.max_wilds may not be negative")
    return Rules(**fields)


def _read_keys(merged: Mapping[str, Any]) -> dict[str, Any]:
    """The defaults overlaid with every schema key of `merged`, type-checked, by field name."""
    fields: dict[str, Any] = dict(_DEFAULTS)
    for key, value in merged.items():
        if key in _SPECIAL:
            continue
        if key in _SCHEMA and key:
            if not isinstance(value, Mapping):
                raise RulesError(f"{key} must be a table of keys (a TOML section)")
            for sub, subvalue in value.items():
                if sub not in _SCHEMA[key]:
                    known = ", ".join(_SCHEMA[key])
                    raise RulesError(f"unknown key '{key}.{sub}' in rules (known in {key}: {known})")
                kind, field = _SCHEMA[key][sub]
                fields[field] = _check_type(f"{key}.{sub}", kind, subvalue)
        elif key in _SCHEMA[""]:
            kind, field = _SCHEMA[""][key]
            fields[field] = _check_type(key, kind, value)
        else:
            known = ", ".join(sorted(set(_SCHEMA[""]) | _SPECIAL | (set(_SCHEMA) - {""})))
            raise RulesError(f"unknown key '{key}' in rules (known: {known})")
    return fields


def _card_values(family: str, table: Any) -> tuple[tuple[str, int], ...]:
    if not isinstance(table, Mapping):
        raise RulesError("rules lack the card_values table")
    keys = VALUE_KEYS[family]
    for key in table:
        if key not in keys:
            raise RulesError(f"unknown key 'card_values.{key}' for the {family} deck family (known: {', '.join(keys)})")
    missing = [k for k in keys if k not in table]
    if missing:
        raise RulesError(f"card_values lacks {', '.join(missing)}")
    return tuple((k, _check_type(f"card_values.{k}", _INT, table[k])) for k in keys)


def _per_round(key: str, value: int | tuple[int, ...], rounds: int) -> tuple[int, ...]:
    if isinstance(value, int):
        return (value,) * rounds
    if len(value) != rounds:
        raise RulesError(f"{key} has {len(value)} entries but rounds = {rounds}")
    return tuple(value)


def _key_of(field: str) -> str:
    """The rules-file key ("going_out.clean_books") of a Rules field name."""
    for section, keys in _SCHEMA.items():
        for key, (_, name) in keys.items():
            if name == field:
                return f"{section}.{key}" if section else key
    return field
