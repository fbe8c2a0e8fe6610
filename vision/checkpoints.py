"""Saving and loading the small second-look networks (the wild, Bare Foot and rank readers, the joker grouper) by path.

Each is one torch file holding a dict: the network's weights (`state`), what it
needs to run (its input geometry or scaling) and `facts` about how it was
trained. Writing goes through a temporary file, so an interrupted run never
leaves half a file where the product loads it; loading names a missing, damaged
or foreign file instead of failing somewhere inside torch.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from vision.errors import ModelError

Loaded = TypeVar("Loaded")


def save_checkpoint(payload: dict, path: Path) -> Path:
    """Write `payload` to `path` (folders made as needed) all at once."""
    import torch  # noqa: PLC0415

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    torch.save(payload, tmp)
    tmp.replace(path)
    return path


def load_checkpoint(path: Path, what: str, command: str, build: Callable[[dict], Loaded]) -> Loaded:
    """`build(saved dict)` of the file at `path`; a ModelError naming `what` (and the `command` that trains
    one) when the file is missing, is no torch file, or `build` rejects it."""
    import torch  # noqa: PLC0415

    path = Path(path)
    if not path.is_file():
        raise ModelError(f"{what} weights not found: {path} (train them with `{command}`)")
    try:
        return build(torch.load(path, map_location="cpu", weights_only=True))
    except Exception as exc:  # a corrupt or foreign file
        raise ModelError(f"cannot load {what} weights {path}: {exc}") from exc
