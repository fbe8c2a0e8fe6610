"""Table tops: procedural wood, felt, cloth, knit, carpet, stone and plain colours, plus texture files."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np


def value_noise(rng: np.random.Generator, w: int, h: int, cells: float) -> np.ndarray:
    """Smooth noise in [-1, 1]-ish with about `cells` features across the longer side."""
    s = max(w, h) / max(cells, 1.0)
    gw, gh = max(2, int(math.ceil(w / s)) + 2), max(2, int(math.ceil(h / s)) + 2)
    g = rng.standard_normal((gh, gw)).astype(np.float32)
    big = cv2.resize(g, (int(gw * s), int(gh * s)), interpolation=cv2.INTER_CUBIC)
    ox, oy = int(rng.integers(0, max(1, big.shape[1] - w))), int(rng.integers(0, max(1, big.shape[0] - h)))
    out = big[oy : oy + h, ox : ox + w]
    if out.shape[:2] != (h, w):
        out = cv2.resize(out, (w, h))
    return out


def fbm(rng: np.random.Generator, w: int, h: int, cells: float, octaves: int = 4) -> np.ndarray:
    """Fractal noise: value noise summed over octaves, normalised to about [-1, 1].

    Computed at a lower resolution when its finest features are large (then upscaled).
    """
    finest = max(w, h) / (cells * 2 ** (octaves - 1))
    s = int(max(1, min(8, finest // 6)))
    sw, sh = max(2, -(-w // s)), max(2, -(-h // s))
    out = np.zeros((sh, sw), np.float32)
    amp, total = 1.0, 0.0
    for o in range(octaves):
        out += amp * value_noise(rng, sw, sh, cells * 2**o)
        total += amp
        amp *= 0.5
    out /= total
    return out if s == 1 else cv2.resize(out, (w, h), interpolation=cv2.INTER_LINEAR)


def soft_blur(img: np.ndarray, sigma: float) -> np.ndarray:
    """Gaussian blur; large sigmas are done on a shrunken copy (same look, a fraction of the time)."""
    if sigma <= 4:
        return cv2.GaussianBlur(img, (0, 0), max(sigma, 0.1))
    h, w = img.shape[:2]
    f = min(sigma / 2.0, 16.0)
    small = cv2.resize(img, (max(2, int(w / f)), max(2, int(h / f))), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), sigma / f)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _colour(rng: np.random.Generator, palette: list[tuple[int, int, int]], jitter: float = 18) -> np.ndarray:
    """A BGR colour from a palette (given as RGB), jittered."""
    r, g, b = palette[int(rng.integers(len(palette)))]
    return np.clip(np.array([b, g, r], np.float32) + rng.normal(0, jitter, 3), 0, 255)


def _tint(field: np.ndarray, base: np.ndarray, contrast: float) -> np.ndarray:
    """Colour a scalar field (~[-1, 1]) around a base colour."""
    f = 1.0 + contrast * field[..., None]
    return np.clip(base[None, None, :] * f, 0, 255)


WOODS = [(150, 100, 60), (190, 140, 90), (110, 70, 40), (220, 190, 150), (90, 55, 35), (200, 170, 130), (160, 150, 140), (230, 215, 190)]
FELTS = [(30, 110, 60), (20, 80, 45), (30, 60, 120), (120, 30, 35), (50, 50, 55), (90, 90, 95), (20, 20, 25)]
CLOTHS = [(235, 235, 230), (200, 40, 40), (40, 70, 150), (220, 200, 160), (120, 150, 120), (240, 220, 200), (60, 60, 70), (170, 130, 170)]
KNITS = [(225, 210, 195), (200, 200, 205), (150, 160, 175), (230, 200, 200), (110, 120, 110), (240, 235, 225)]
CARPETS = [(120, 100, 80), (90, 90, 100), (150, 60, 60), (70, 90, 70), (180, 170, 150)]
SOLIDS = [
    (245, 245, 245),
    (220, 220, 215),
    (40, 40, 40),
    (15, 15, 18),
    (200, 180, 150),
    (120, 140, 160),
    (230, 230, 240),
    (170, 170, 170),
    (90, 70, 60),
    (250, 250, 252),
    (60, 80, 60),
]


def wood(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """Wood grain: warped stripes, fine streaks and optional plank seams."""
    big = int(math.hypot(w, h)) + 4
    y = np.arange(big, dtype=np.float32)[:, None]
    warp = fbm(rng, big, big, rng.uniform(2, 6), 3) * rng.uniform(10, 60)
    period = rng.uniform(6, 40)
    stripes = np.sin((y + warp) * 2 * math.pi / period)
    streak = cv2.resize(rng.standard_normal((big, max(2, big // 40))).astype(np.float32), (big, big), interpolation=cv2.INTER_LINEAR)
    streak = cv2.GaussianBlur(streak, (0, 0), 0.8)
    field = 0.5 * stripes * rng.uniform(0.3, 1.0) + 0.5 * streak + 0.3 * fbm(rng, big, big, 3, 2)
    field = field.T  # grain runs along x before turning
    if rng.random() < 0.5:  # plank seams
        pw = int(rng.uniform(0.1, 0.4) * big)
        for x0 in range(int(rng.integers(0, pw)), big, pw):
            field[x0 : x0 + 2, :] -= 2.5
            field[x0 + 2 : x0 + pw, :] += rng.normal(0, 0.3)
    m = cv2.getRotationMatrix2D((big / 2, big / 2), rng.uniform(0, 180), 1.0)
    field = cv2.warpAffine(field, m, (big, big), borderMode=cv2.BORDER_REFLECT)
    ox, oy = (big - w) // 2, (big - h) // 2
    field = field[oy : oy + h, ox : ox + w]
    return _tint(field, _colour(rng, WOODS), rng.uniform(0.08, 0.2))


def felt(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """Felt or baize: a deep colour with fine fibre noise and soft blotches."""
    fine = cv2.GaussianBlur(rng.standard_normal((h, w), dtype=np.float32), (0, 0), rng.uniform(0.5, 1.2))
    field = 0.6 * fine + 0.4 * fbm(rng, w, h, rng.uniform(3, 10), 3)
    return _tint(field, _colour(rng, FELTS, 10), rng.uniform(0.05, 0.15))


def cloth(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """Woven cloth, gingham or a plain tablecloth, with folds."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, math.pi)
    u = xx * math.cos(a) + yy * math.sin(a)
    v = -xx * math.sin(a) + yy * math.cos(a)
    p = rng.uniform(2.5, 7)
    weave = np.sin(u * 2 * math.pi / p) * np.sin(v * 2 * math.pi / p)
    base = _colour(rng, CLOTHS)
    folds = fbm(rng, w, h, rng.uniform(1.5, 4), 2)
    img = _tint(0.4 * weave + 0.6 * folds, base, rng.uniform(0.06, 0.14))
    if rng.random() < 0.35:  # gingham / check
        cp = rng.uniform(20, 80)
        check = ((np.floor(u / cp) + np.floor(v / cp)) % 2).astype(np.float32)
        other = _colour(rng, CLOTHS)
        img = img * (1 - 0.5 * check[..., None]) + other * 0.5 * check[..., None]
    return img


def knit(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """A knitted blanket: columns of V-shaped stitches (two slanted loops), rows apart, with deep folds."""
    p = int(rng.integers(10, 30))  # stitch width in px
    ph = int(p * rng.uniform(0.7, 1.0))  # row height
    tile = np.zeros((ph * 4, p * 4), np.float32)  # drawn at 4x for smooth loops
    for cx, ang in ((int(1.25 * p), -30), (int(2.75 * p), 30)):  # the two legs of a V, a valley between columns
        cv2.ellipse(tile, (cx, 2 * ph), (int(p * 0.78), int(ph * 2.1)), ang, 0, 360, 1.0, -1, cv2.LINE_AA)
    tile = cv2.GaussianBlur(tile, (0, 0), p * 0.3)
    tile = cv2.resize(tile, (p, ph), interpolation=cv2.INTER_AREA)
    tile = (tile / max(float(tile.max()), 1e-6)) ** 0.8
    big = np.tile(tile, (h // ph + 8, w // p + 8))
    # wavy rows and a slow bend, then turn the whole blanket
    warp = fbm(rng, w, h, 3, 2) * p * rng.uniform(0.5, 1.5)
    mx, my = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
    field = cv2.remap(big, mx + warp + 2 * p, my + warp * 0.6 + 2 * ph, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    m = cv2.getRotationMatrix2D((w / 2, h / 2), rng.uniform(-90, 90), 1.0)
    field = cv2.warpAffine(field, m, (w, h), borderMode=cv2.BORDER_REFLECT)
    folds = fbm(rng, w, h, rng.uniform(1.5, 3), 2)
    fuzz = cv2.GaussianBlur(rng.standard_normal((h, w), dtype=np.float32), (0, 0), 0.7) * 0.15
    return _tint((field - 0.55) * 1.4 + folds * 0.6 + fuzz, _colour(rng, KNITS, 10), rng.uniform(0.2, 0.35))


def carpet(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """Carpet or rug: speckled colour noise at several scales."""
    base = _colour(rng, CARPETS, 20)
    speck = rng.standard_normal((h, w, 3), dtype=np.float32) * rng.uniform(10, 30)
    speck = cv2.GaussianBlur(speck, (0, 0), rng.uniform(0.6, 1.5))
    field = fbm(rng, w, h, rng.uniform(4, 20), 3)
    return np.clip(_tint(field, base, 0.15) + speck, 0, 255)


def stone(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """Marble, granite or laminate counter: veins or grains on a light or dark base."""
    base = _colour(rng, SOLIDS, 10)
    f = fbm(rng, w, h, rng.uniform(2, 6), 5)
    veins = 1 - np.abs(np.sin(f * rng.uniform(6, 14)))
    veins = veins ** rng.uniform(6, 20)
    grain = rng.standard_normal((h, w), dtype=np.float32) * rng.uniform(0, 0.5)
    sign = -1 if base.mean() > 128 else 1
    return _tint(sign * veins * 0.8 + 0.2 * grain, base, rng.uniform(0.1, 0.3))


def solid(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """A plain surface (desk, plastic, paper) with a gentle gradient and grain."""
    base = _colour(rng, SOLIDS, 12)
    grad = fbm(rng, w, h, 1.5, 2)
    grain = rng.standard_normal((h, w), dtype=np.float32) * rng.uniform(0.02, 0.1)
    return _tint(grad * 0.5 + grain, base, rng.uniform(0.03, 0.1))


def from_file(rng: np.random.Generator, w: int, h: int, path: Path) -> np.ndarray | None:
    """A texture image scaled up, tiled (mirrored), turned and recoloured over the frame; None when unreadable."""
    tex = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if tex is None or min(tex.shape[:2]) < 16:
        return None
    k = rng.uniform(1.5, 6.0) * max(w, h) / 1600
    tex = cv2.resize(tex, (max(8, int(tex.shape[1] * k)), max(8, int(tex.shape[0] * k))), interpolation=cv2.INTER_CUBIC)
    side = int(math.hypot(w, h)) + 2
    reps_y, reps_x = side // tex.shape[0] + 2, side // tex.shape[1] + 2
    row = np.concatenate([tex if i % 2 == 0 else tex[:, ::-1] for i in range(reps_x)], axis=1)
    big = np.concatenate([row if i % 2 == 0 else row[::-1] for i in range(reps_y)], axis=0)
    m = cv2.getRotationMatrix2D((big.shape[1] / 2, big.shape[0] / 2), rng.uniform(0, 360), 1.0)
    m[:, 2] -= [(big.shape[1] - w) / 2, (big.shape[0] - h) / 2]
    img = cv2.warpAffine(big, m, (w, h), borderMode=cv2.BORDER_REFLECT).astype(np.float32)
    img *= rng.uniform(0.9, 1.1, 3).astype(np.float32) * rng.uniform(0.8, 1.15)  # recolour a little
    return img


GENERATORS = {"wood": wood, "felt": felt, "cloth": cloth, "knit": knit, "carpet": carpet, "stone": stone, "solid": solid}
WEIGHTS = {"wood": 0.25, "felt": 0.1, "cloth": 0.12, "knit": 0.1, "carpet": 0.08, "stone": 0.1, "solid": 0.25}


def texture_files(folder: Path | None) -> list[Path]:
    """Image files usable as table tops under a folder (sorted, for determinism)."""
    if folder is None or not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*") if p.suffix.lower() in {".png", ".jpg", ".jpeg"})


def table_top(rng: np.random.Generator, w: int, h: int, textures: list[Path] | None = None) -> tuple[np.ndarray, str]:
    """A whole background frame (float32 BGR 0-255) and the name of its kind.

    Sometimes two surfaces meet (table edge and floor, placemat on a table).
    """
    kind, img = _one(rng, w, h, textures)
    if rng.random() < 0.15:
        _, other = _one(rng, w, h, textures)
        mask = np.zeros((h, w), np.float32)
        pts = rng.uniform(0, 1, (2, 2)) * [w, h]
        a, b = pts
        normal = np.array([-(b[1] - a[1]), b[0] - a[0]])
        yy, xx = np.mgrid[0:h, 0:w]
        side = (xx - a[0]) * normal[0] + (yy - a[1]) * normal[1]
        mask[side > 0] = 1.0
        mask = cv2.GaussianBlur(mask, (0, 0), 1.5)[..., None]
        img = img * (1 - mask) + other * mask
        kind += "+edge"
    return img.astype(np.float32), kind


def _one(rng: np.random.Generator, w: int, h: int, textures: list[Path] | None) -> tuple[str, np.ndarray]:
    if textures and rng.random() < 0.35:
        img = from_file(rng, w, h, textures[int(rng.integers(len(textures)))])
        if img is not None:
            return "file", img
    names = list(GENERATORS)
    p = np.array([WEIGHTS[n] for n in names])
    name = names[int(rng.choice(len(names), p=p / p.sum()))]
    return name, GENERATORS[name](rng, w, h).astype(np.float32)
