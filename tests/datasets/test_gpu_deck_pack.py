"""scripts/gpu/pack_decks.py: the deck cache survives the trip to a GPU machine as WebP."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
from PIL import Image

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "gpu" / "pack_decks.py"


def _pack_decks():
    spec = importlib.util.spec_from_file_location("pack_decks", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["pack_decks"] = module  # its worker pool pickles the converters by module name
    spec.loader.exec_module(module)
    return module


def test_packed_faces_come_back_as_rgba_pngs_beside_their_deck_files(tmp_path: Path) -> None:
    pack_decks = _pack_decks()
    cache = tmp_path / "cache"
    deck = cache / "decks" / "drawn"
    deck.mkdir(parents=True)
    rng = np.random.default_rng(3)
    face = np.full((120, 80, 4), 255, np.uint8)
    face[10:40, 8:30, :3] = rng.integers(0, 60, (30, 22, 3))  # a dark index on white, fully opaque
    Image.fromarray(face, "RGBA").save(deck / "7-0.png")
    (deck / "deck.json").write_text(json.dumps({"name": "drawn", "faces": [{"file": "7-0.png", "cls": "7"}]}))
    (deck.parent / "unfinished").mkdir()  # no deck.json: not a deck, not packed
    (cache / "decks" / "manifest.json").write_text("{}")
    (cache / "textures").mkdir()
    (cache / "textures" / "wood.jpg").write_bytes(b"jpeg")

    assert pack_decks.pack(cache, tmp_path / "carry") == 1
    assert (tmp_path / "carry" / "decks" / "drawn" / "7-0.webp").is_file()
    assert not (tmp_path / "carry" / "decks" / "unfinished").exists()
    assert pack_decks.unpack(tmp_path / "carry", tmp_path / "there") == 1

    back = Image.open(tmp_path / "there" / "decks" / "drawn" / "7-0.png")
    assert back.mode == "RGBA" and back.size == (80, 120)
    assert np.abs(np.asarray(back).astype(int) - face).mean() < 3
    assert (tmp_path / "there" / "decks" / "drawn" / "deck.json").read_text() == (deck / "deck.json").read_text()
    assert (tmp_path / "there" / "decks" / "manifest.json").is_file()
    assert (tmp_path / "there" / "textures" / "wood.jpg").read_bytes() == b"jpeg"


def test_a_cache_without_textures_packs_its_decks(tmp_path: Path) -> None:
    """`fetch-textures` is optional: a cache that never ran it still packs (builds then use drawn tables)."""
    pack_decks = _pack_decks()
    cache = tmp_path / "cache"
    deck = cache / "decks" / "drawn"
    deck.mkdir(parents=True)
    Image.fromarray(np.full((60, 40, 4), 255, np.uint8), "RGBA").save(deck / "A-0.png")
    (deck / "deck.json").write_text(json.dumps({"name": "drawn", "faces": [{"file": "A-0.png", "cls": "A"}]}))
    (cache / "decks" / "manifest.json").write_text("{}")

    assert pack_decks.pack(cache, tmp_path / "carry") == 1
    assert not (tmp_path / "carry" / "textures").exists()
    assert pack_decks.unpack(tmp_path / "carry", tmp_path / "there") == 1
    assert (tmp_path / "there" / "decks" / "drawn" / "A-0.png").is_file()
