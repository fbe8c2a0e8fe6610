"""Synthetic Hand and Foot photos: table and leftover scenes with corner-index labels.

Public API:
- render_table_scene(rng, decks, opts=None, *, melds=None, n_red3=None, strict=False) -> Scene
- render_leftover_scene(rng, decks, opts=None, *, hands=None, strict=False) -> Scene
- render_generic_scene(rng, decks, opts=None) -> Scene
- render_random_scene(rng, decks, opts=None) -> Scene
- cut_tiles(scene_image, labels, rng, tile=320) -> list[Tile]
"""

from datasets.scenes.model import CardTruth, Placement, Scene
from datasets.scenes.render import (
    SceneOptions,
    render_generic_scene,
    render_leftover_scene,
    render_random_scene,
    render_table_scene,
)
from datasets.scenes.tiles import Tile, cut_tiles

__all__ = [
    "CardTruth",
    "Placement",
    "Scene",
    "SceneOptions",
    "Tile",
    "cut_tiles",
    "render_generic_scene",
    "render_leftover_scene",
    "render_random_scene",
    "render_table_scene",
]
