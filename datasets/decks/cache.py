"""The on-disk deck cache (outside git): where it is, how a rendered deck is stored and read back.

Layout of the cache directory (default ~/.cache/handfoot/decks, or
$HANDFOOT_CACHE/decks, or an explicit directory):

    manifest.json            one entry per source: package, version, licence, status, decks
    downloads/               the fetched package files (.deb, .tgz, .whl) and their unpacked trees
    <deck>/deck.json         name, family, source, licence, in_default_mix, faces [{file, cls, corners}], backs
    <deck>/<card>.png        one RGBA face per card, about 250 px wide
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from datasets.decks.corners import CORNER_RULES
from datasets.faces import CardFace, Deck

DECK_FILE = "deck.json"
MANIFEST_FILE = "manifest.json"


def cache_dir(cache: Path | None = None) -> Path:
    """The deck cache directory: `cache` itself when given, else $HANDFOOT_CACHE/decks, else ~/.cache/handfoot/decks."""
    if cache is not None:
        return Path(cache).expanduser()
    env = os.environ.get("HANDFOOT_CACHE")
    if env:
        return Path(env).expanduser() / "decks"
    return Path.home() / ".cache" / "handfoot" / "decks"


@dataclass
class StoredFace:
    """One face as deck.json lists it."""

    file: str
    cls: str
    corners: list[list[int]]


@dataclass
class StoredDeck:
    """deck.json: a rendered deck's description."""

    name: str
    family: str
    source: str
    licence: str
    in_default_mix: bool = True
    note: str = ""
    faces: list[StoredFace] = field(default_factory=list)
    backs: list[str] = field(default_factory=list)
    corner_rules: int = 1  # the CORNER_RULES its boxes were found with (decks stored before the field: 1)


def write_png(path: Path, rgba: np.ndarray) -> None:
    """Save an RGBA array as PNG."""
    if not cv2.imwrite(str(path), cv2.cvtColor(rgba, cv2.COLOR_RGBA2BGRA)):
        raise OSError(f"could not write {path}")


def read_png(path: Path) -> np.ndarray:
    """Load a PNG as RGBA uint8 (opaque when it has no alpha)."""
    img = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if img is None:
        raise OSError(f"could not read {path}")
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGRA)
    elif img.shape[2] == 3:
        img = cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)
    return cv2.cvtColor(img, cv2.COLOR_BGRA2RGBA)


def save_deck(root: Path, deck: Deck, face_files: list[str] | None = None, in_default_mix: bool = True, note: str = "") -> Path:
    """Write a deck's faces and backs as PNGs plus deck.json under root/<deck.name>/; returns that folder."""
    folder = root / deck.name
    folder.mkdir(parents=True, exist_ok=True)
    stored = StoredDeck(deck.name, deck.family, deck.source, deck.licence, in_default_mix, note, corner_rules=CORNER_RULES)
    i = 0
    for cls, faces in deck.faces.items():
        for face in faces:
            name = face_files[i] if face_files else f"{cls}-{i}.png"
            write_png(folder / name, face.image)
            stored.faces.append(StoredFace(name, cls, [list(map(int, b)) for b in face.corners]))
            i += 1
    for j, back in enumerate(deck.backs):
        name = f"back-{j}.png"
        write_png(folder / name, back)
        stored.backs.append(name)
    tmp = folder / (DECK_FILE + ".tmp")
    tmp.write_text(json.dumps(_as_json(stored), indent=1))
    tmp.replace(folder / DECK_FILE)  # deck.json appears last: its presence means the deck is complete
    return folder


def _as_json(stored: StoredDeck) -> dict:
    d = dict(stored.__dict__)
    d["faces"] = [f.__dict__ for f in stored.faces]
    return d


def read_stored(folder: Path) -> StoredDeck | None:
    """deck.json of a cached deck, or None when the folder holds no complete deck."""
    path = folder / DECK_FILE
    if not path.is_file():
        return None
    d = json.loads(path.read_text())
    faces = [StoredFace(**f) for f in d.pop("faces", [])]
    return StoredDeck(faces=faces, **d)


def load_deck(folder: Path) -> Deck | None:
    """A cached deck with its images, or None when the folder holds no complete deck."""
    stored = read_stored(folder)
    if stored is None:
        return None
    faces: dict[str, list[CardFace]] = {}
    for f in stored.faces:
        img = read_png(folder / f.file)
        faces.setdefault(f.cls, []).append(CardFace(f.cls, img, [tuple(b) for b in f.corners], stored.name))  # type: ignore[misc]
    backs = [read_png(folder / b) for b in stored.backs]
    return Deck(stored.name, stored.family, faces, backs, stored.source, stored.licence)


def stored_decks(root: Path) -> list[Path]:
    """Folders under root that hold a complete deck, sorted by name."""
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir() if (p / DECK_FILE).is_file())


def read_manifest(root: Path) -> dict:
    """manifest.json (an empty manifest when none exists yet)."""
    path = root / MANIFEST_FILE
    if not path.is_file():
        return {"sources": {}}
    return json.loads(path.read_text())


def write_manifest(root: Path, manifest: dict) -> None:
    """Write manifest.json atomically."""
    root.mkdir(parents=True, exist_ok=True)
    tmp = root / (MANIFEST_FILE + ".tmp")
    tmp.write_text(json.dumps(manifest, indent=1, sort_keys=True))
    tmp.replace(root / MANIFEST_FILE)
