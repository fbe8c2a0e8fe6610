"""Shared test fixtures: where the optional real photos and the shipped model are, and generated rounds."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
MODEL = REPO / "models" / "cards.pt"


def real_photos_dir() -> Path:
    return Path(os.environ.get("HANDFOOT_REAL_PHOTOS", REPO.parent / "shared" / "real-photos"))


@pytest.fixture
def real_photos() -> Path:
    """../shared/real-photos, or skip when this checkout has none beside it."""
    path = real_photos_dir()
    if not path.is_dir():
        pytest.skip(f"real photos not found at {path}")
    return path


@pytest.fixture
def shipped_model() -> Path:
    """models/cards.pt, or skip when it has not been trained yet."""
    if not MODEL.is_file():
        pytest.skip("models/cards.pt not present")
    return MODEL


@pytest.fixture
def simple_only(monkeypatch):
    """Builds draw only the project's own simple deck (fast, nothing fetched)."""
    import datasets.decks
    from datasets.decks import simple_deck

    deck = simple_deck()
    monkeypatch.setattr(datasets.decks, "load_decks", lambda cache=None, **kw: [deck])
    return deck


@pytest.fixture(scope="session")
def simple_rounds(tmp_path_factory) -> Path:
    """Six generated rounds of the project's own simple deck (nothing fetched), for the training commands."""
    from datasets.decks import simple_deck
    from datasets.scenes.rounds import build_rounds

    folder = tmp_path_factory.mktemp("simple-rounds")
    build_rounds(folder, 6, seed=31, decks=[simple_deck()])
    return folder
