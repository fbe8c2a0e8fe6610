"""Load rule sets: the bundled presets (scoring/presets/*.toml) or a user's rules file."""

from __future__ import annotations

import copy
import tomllib
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from handfoot.errors import UserError
from scoring.rules import Rules, RulesError, resolve_base, rules_from_dict


@lru_cache(maxsize=1)
def _preset_dicts() -> dict[str, dict[str, Any]]:
    folder = resources.files("scoring").joinpath("presets")
    out: dict[str, dict[str, Any]] = {}
    for entry in folder.iterdir():
        if entry.name.endswith(".toml"):
            out[entry.name[: -len(".toml")]] = tomllib.loads(entry.read_text(encoding="utf-8"))
    return out


def preset_dicts() -> dict[str, dict[str, Any]]:
    """The raw preset tables by name (a copy: callers may not change the bundled ones)."""
    return copy.deepcopy(_preset_dicts())


def preset_names() -> list[str]:
    """The names of the bundled rule presets, sorted."""
    return sorted(_preset_dicts())


def _looks_like_path(text: str) -> bool:
    return text.endswith(".toml") or "/" in text or "\\" in text


def load_rules(name_or_path: str, relative_to: Path | None = None) -> Rules:
    """A preset by name, or a rules file (TOML) by path (relative paths against `relative_to`).

    Raises UserError (exit 2) for an unknown preset (listing the presets), an
    unreadable or malformed file, or a rules error (naming the bad key or value).
    """
    presets = _preset_dicts()
    if name_or_path in presets:
        return rules_from_dict(presets[name_or_path], presets)
    path, data = _rules_file(name_or_path, relative_to)
    try:
        return rules_from_dict(data, presets)
    except RulesError as exc:
        raise UserError(f"rules file {path}: {exc}") from exc


def frozen_rules(name_or_path: str, relative_to: Path | None = None) -> tuple[Rules, dict[str, Any]]:
    """The rules and the complete dict they were built from, base preset merged in: what a game keeps,
    so a later edit of the rules file (or of a preset) does not change it (`thaw_rules`). Raises UserError."""
    presets = _preset_dicts()
    if name_or_path in presets:
        where, data = name_or_path, copy.deepcopy(presets[name_or_path])
    else:
        path, data = _rules_file(name_or_path, relative_to)
        where = f"rules file {path}"
    try:
        resolved = resolve_base(data, presets)
        return rules_from_dict(resolved, {}), resolved
    except RulesError as exc:
        raise UserError(f"{where}: {exc}") from exc


def thaw_rules(frozen: dict[str, Any]) -> Rules:
    """Rules from a dict kept by `frozen_rules` (no preset or file is read). Raises UserError."""
    try:
        return rules_from_dict(frozen, {})
    except RulesError as exc:
        raise UserError(f"the game's saved rules are unusable: {exc}") from exc


def _rules_file(name_or_path: str, relative_to: Path | None) -> tuple[Path, dict[str, Any]]:
    """Read a rules file's TOML (its name defaults to the file's stem). Raises UserError."""
    path = Path(name_or_path).expanduser()
    if relative_to is not None and not path.is_absolute():
        path = relative_to / path
    if not path.is_file():
        if _looks_like_path(name_or_path):
            raise UserError(f"rules file not found: {path}")
        raise UserError(f"unknown rule preset {name_or_path!r}; presets: {', '.join(preset_names())} (or give the path of a rules .toml file)")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UserError(f"cannot read rules file {path}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise UserError(f"rules file {path} is not UTF-8 text") from exc
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"rules file {path} is not valid TOML: {exc}") from exc
    data.setdefault("name", path.stem)
    return path, data
