"""Whole scenes: a layout, a camera, a table top, the cards, objects, the room's light, labels."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from datasets.faces import Deck
from datasets.scenes import backgrounds, camera, compose, effects, layouts, occluders
from datasets.scenes.cardsets import CardSource, pick_family
from datasets.scenes.model import Placement, Scene

INDEX_PX = (10.0, 80.0)


@dataclass
class SceneOptions:
    """Knobs shared by the scene kinds."""

    long_side: tuple[int, int] = (640, 1600)
    index_px: tuple[float, float] = INDEX_PX  # index height range in the frame
    fit_p: float = 0.6  # chance the whole layout is framed (else a random zoom and crop)
    max_tilt: float = 55.0
    occluder_p: float = 0.35
    effects: float = 1.0  # strength of room/camera effects (1 = training mix)
    textures: tuple[Path, ...] = ()
    family: str | None = None
    never_crop: bool = False  # framed layouts too big for the frame get a bigger photo, not a crop
    max_long_side: int = 4000
    design_weights: tuple[tuple[str, float], ...] = ()  # (deck name, weight) pairs; others weigh 1


def _index_units(placements: list[Placement]) -> float:
    """Median printed index height in layout units."""
    hs = []
    for p in placements:
        if p.face is None or not p.corners:
            continue
        k = layouts.CARD_W / p.image.shape[1]
        hs += [(b[3] - b[1]) * k for b in p.corners]
    return float(np.median(hs)) if hs else layouts.CARD_W * 0.2


def _sample_camera_angles(rng: np.random.Generator, max_tilt: float) -> tuple[float, float, float, float]:
    r = rng.random()
    if r < 0.5:
        rot = rng.normal(0, 6)
    elif r < 0.7:
        rot = float(rng.choice([90, 180, 270])) + rng.normal(0, 6)
    else:
        rot = rng.uniform(0, 360)
    t = rng.random()
    tilt = rng.uniform(0, 10) if t < 0.4 else rng.uniform(10, 35) if t < 0.8 else rng.uniform(35, 55)
    return rot, min(tilt, max_tilt), rng.uniform(0, 360), rng.uniform(0.9, 3.0)


def _frame_layout(rng: np.random.Generator, placements: list[Placement], opts: SceneOptions) -> tuple[np.ndarray, int, int, float]:
    """Choose the photo size and the layout -> image homography; returns (H, w, h, index px)."""
    x1, y1, x2, y2 = layouts.layout_bounds(placements)
    extent = max(x2 - x1, y2 - y1, layouts.CARD_W)
    idx_units = _index_units(placements)
    w, h = camera.sample_frame_size(rng, opts.long_side)
    rot, tilt, tdir, dist = _sample_camera_angles(rng, opts.max_tilt)
    lo, hi = opts.index_px
    fit = rng.random() < opts.fit_p
    if fit:
        centre = ((x1 + x2) / 2, (y1 + y2) / 2)
    else:
        focus = placements[int(rng.integers(len(placements)))]
        centre = tuple(focus.pose[:2, 2] + focus.pose[:2, :2] @ np.array([focus.image.shape[1] / 2, focus.image.shape[0] / 2]))
    idx_px = math.exp(rng.uniform(math.log(lo), math.log(hi)))
    spec = camera.CameraSpec(w, h, rot, tilt, tdir, dist, idx_px / idx_units, (w * rng.uniform(0.3, 0.7), h * rng.uniform(0.3, 0.7)))
    hmg = camera.homography(spec, centre, extent)
    if not fit:  # a layout far smaller than the frame: the photographer would step closer
        bx1, by1, bx2, by2 = _projected_bounds(hmg, placements)
        fit = max(bx2 - bx1, by2 - by1) < 0.4 * max(w, h)
    if fit and opts.never_crop:
        w, h = _grow_to_fit(rng, hmg, placements, w, h, idx_px, lo, opts.max_long_side)
    if fit:
        w, h = _shrink_to_fit(rng, hmg, placements, w, h, idx_px, hi, opts.long_side[0])
    hmg, idx_px = _place(rng, hmg, placements, w, h, idx_px, lo, hi, fit)
    if rng.random() < 0.1:  # a stretched export (non-square pixels)
        k = rng.uniform(0.8, 1.25)
        hmg = np.diag([k, 1.0, 1.0]) @ hmg
        hmg[0, :] += (1 - k) * w / 2 * hmg[2, :]
    return hmg, w, h, idx_px


def _projected_bounds(hmg: np.ndarray, placements: list[Placement]) -> tuple[float, float, float, float]:
    pts = []
    for p in placements:
        ih, iw = p.image.shape[:2]
        pts.append(compose.quad_of(compose.card_matrix(hmg, p), iw, ih))
    a = np.concatenate(pts)
    return float(a[:, 0].min()), float(a[:, 1].min()), float(a[:, 0].max()), float(a[:, 1].max())


def _grow_to_fit(
    rng: np.random.Generator, hmg: np.ndarray, placements: list[Placement], w: int, h: int, idx_px: float, lo: float, max_long: int
) -> tuple[int, int]:
    """A bigger photo when the whole layout would only fit with indices smaller than `lo`."""
    bx1, by1, bx2, by2 = _projected_bounds(hmg, placements)
    k = min(w * 0.95 / max(bx2 - bx1, 1), h * 0.95 / max(by2 - by1, 1))
    if idx_px * k >= lo:
        return w, h
    g = min(lo * rng.uniform(1.0, 1.2) / (idx_px * k), max_long / max(w, h))
    return int(w * g), int(h * g)


def _shrink_to_fit(
    rng: np.random.Generator, hmg: np.ndarray, placements: list[Placement], w: int, h: int, idx_px: float, hi: float, min_long: int
) -> tuple[int, int]:
    """A smaller photo when a few cards framed whole would need indices larger than `hi`."""
    bx1, by1, bx2, by2 = _projected_bounds(hmg, placements)
    k = min(w * 0.9 / max(bx2 - bx1, 1), h * 0.9 / max(by2 - by1, 1))
    if idx_px * k <= hi:
        return w, h
    g = max(hi * rng.uniform(0.9, 1.4) / (idx_px * k), min_long / max(w, h))
    return (int(w * g), int(h * g)) if g < 1 else (w, h)


def _place(
    rng: np.random.Generator, hmg: np.ndarray, placements: list[Placement], w: int, h: int, idx_px: float, lo: float, hi: float, fit: bool
) -> tuple[np.ndarray, float]:
    """Zoom and shift the projected layout within the frame.

    fit: the whole layout fills the frame (zoom kept within the index-height range).
    Otherwise the zoom stays; a layout smaller than the frame lies anywhere inside it,
    a larger one is shifted so it covers the frame (no empty margins from cropping).
    """
    bx1, by1, bx2, by2 = _projected_bounds(hmg, placements)
    k = 1.0
    if fit:
        margin = rng.uniform(0.8, 0.97)
        k = min(w * margin / max(bx2 - bx1, 1), h * margin / max(by2 - by1, 1))
        new_idx = idx_px * k
        if new_idx < lo:  # too small to read: zoom in and crop
            k *= rng.uniform(lo, lo * 1.4) / new_idx
        elif new_idx > hi:
            k *= hi / new_idx
    t = []
    for lo_b, hi_b, size in ((bx1, bx2, w), (by1, by2, h)):
        span = (hi_b - lo_b) * k
        if span <= size:  # whole layout inside: anywhere
            t.append(rng.uniform(-lo_b * k, size - hi_b * k))
        else:  # layout bigger than the frame: cover the frame, keep the focus where possible
            t.append(float(np.clip(0.0, size - hi_b * k, -lo_b * k)))
    sim = np.array([[k, 0, t[0]], [0, k, t[1]], [0, 0, 1]], float)
    out = sim @ hmg
    return out / out[2, 2], idx_px * k


def render_placements(rng: np.random.Generator, placements: list[Placement], kind: str, family: str, opts: SceneOptions) -> Scene:
    """Photograph a laid-out set of cards: frame, table top, cards, objects, effects, labels."""
    hmg, w, h, idx_px = _frame_layout(rng, placements, opts)
    frame, top = backgrounds.table_top(rng, w, h, list(opts.textures))
    ids = np.full((h, w), compose.BACKGROUND, np.int16)
    style = compose.sample_style(rng)
    mats = compose.draw_cards(frame, ids, placements, hmg, rng, style)
    drawn: list[str] = []
    if rng.random() < opts.occluder_p:
        unit = idx_px * layouts.CARD_W / max(_index_units(placements), 1.0)
        drawn = occluders.add_occluders(rng, frame, ids, unit, int(rng.integers(1, 3)))
    labels, truths = compose.label_cards(placements, mats, ids)
    image = effects.photograph(rng, frame, idx_px, opts.effects)
    meta = {
        "index_px": round(idx_px, 1),
        "table_top": top,
        "objects": drawn,
        "decks": sorted({p.face.deck for p in placements if p.face is not None}),
    }
    return Scene(image, labels, truths, kind, family, meta)


def _source(rng: np.random.Generator, decks: list[Deck], opts: SceneOptions, strict: bool = False) -> tuple[layouts.Placer, str]:
    fam = opts.family or pick_family(rng, decks)
    source = CardSource(rng, decks, fam, dict(opts.design_weights))
    return layouts.Placer(rng, source, strict=strict), fam


def render_table_scene(
    rng: np.random.Generator,
    decks: list[Deck],
    opts: SceneOptions | None = None,
    *,
    melds: list[list[str]] | None = None,
    n_red3: int | None = None,
    strict: bool = False,
) -> Scene:
    """A side's table: meld columns fanned down, red-3 row, maybe stock and discard piles.

    `melds` (class names per meld) and `n_red3` fix the cards; otherwise they are sampled.
    strict=True follows the photo conventions exactly (every index shows, nothing face down).
    """
    opts = opts or SceneOptions()
    placer, fam = _source(rng, decks, opts, strict)
    placements = layouts.table_layout(placer, strict=strict, melds=melds, n_red3=n_red3)
    if not placements:
        placements = layouts.generic_layout(placer)
    return render_placements(rng, placements, "table", fam, opts)


def render_leftover_scene(
    rng: np.random.Generator, decks: list[Deck], opts: SceneOptions | None = None, *, hands: list[list[str]] | None = None, strict: bool = False
) -> Scene:
    """Cards left in hand and foot, spread face up in fans, rows and untidy piles."""
    opts = opts or SceneOptions()
    placer, fam = _source(rng, decks, opts, strict)
    placements = layouts.leftover_layout(placer, strict=strict, hands=hands)
    if not placements:
        placements = layouts.generic_layout(placer)
    return render_placements(rng, placements, "leftover", fam, opts)


def render_generic_scene(rng: np.random.Generator, decks: list[Deck], opts: SceneOptions | None = None) -> Scene:
    """Loose cards scattered and overlapping at any angle."""
    opts = opts or SceneOptions()
    placer, fam = _source(rng, decks, opts)
    return render_placements(rng, layouts.generic_layout(placer), "generic", fam, opts)


def render_closeup_scene(rng: np.random.Generator, decks: list[Deck], opts: SceneOptions | None = None) -> Scene:
    """One to four cards photographed close (big indices), like a quick phone snap."""
    opts = opts or SceneOptions()
    close = SceneOptions(**{**opts.__dict__, "index_px": (max(opts.index_px[0], 30.0), opts.index_px[1]), "fit_p": 0.5})
    placer, fam = _source(rng, decks, opts)
    return render_placements(rng, layouts.generic_layout(placer, int(rng.integers(1, 5))), "closeup", fam, close)


SCENE_KINDS = {"table": render_table_scene, "leftover": render_leftover_scene, "generic": render_generic_scene, "closeup": render_closeup_scene}
KIND_WEIGHTS = {"table": 0.46, "leftover": 0.28, "generic": 0.14, "closeup": 0.12}


def render_random_scene(rng: np.random.Generator, decks: list[Deck], opts: SceneOptions | None = None) -> Scene:
    """One scene of a kind drawn from KIND_WEIGHTS."""
    kinds = list(KIND_WEIGHTS)
    p = np.array([KIND_WEIGHTS[k] for k in kinds])
    kind = kinds[int(rng.choice(len(kinds), p=p / p.sum()))]
    return SCENE_KINDS[kind](rng, decks, opts)
