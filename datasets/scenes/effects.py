"""What the camera and the room do to a photo: light, shadows, glare, colour, blur, noise, JPEG."""

from __future__ import annotations

import math

import cv2
import numpy as np

from datasets.scenes.backgrounds import fbm, soft_blur


def uneven_light(rng: np.random.Generator, img: np.ndarray) -> None:
    """Multiply by a smooth light field: a lamp's fall-off, a gradient, vignetting (in place)."""
    h, w = img.shape[:2]
    field = 1.0 + rng.uniform(0.05, 0.3) * fbm(rng, w, h, rng.uniform(1, 3), 2)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, 2 * math.pi)
    grad = ((xx / w - 0.5) * math.cos(a) + (yy / h - 0.5) * math.sin(a)) * rng.uniform(0, 0.5)
    field += grad
    if rng.random() < 0.5:
        r2 = ((xx / w - 0.5) ** 2 + (yy / h - 0.5) ** 2) * 2
        field *= 1 - rng.uniform(0.1, 0.45) * r2
    img *= np.clip(field, 0.3, 1.6)[..., None]


def cast_shadow(rng: np.random.Generator, img: np.ndarray) -> None:
    """A shadow from something out of the frame (person, phone, lamp arm): a dark soft polygon."""
    h, w = img.shape[:2]
    mask = np.zeros((h, w), np.float32)
    n = int(rng.integers(3, 7))
    cx, cy = rng.uniform(-0.2, 1.2) * w, rng.uniform(-0.2, 1.2) * h
    rad = rng.uniform(0.2, 0.8) * max(w, h)
    ang = np.sort(rng.uniform(0, 2 * math.pi, n))
    pts = np.stack([cx + np.cos(ang) * rad * rng.uniform(0.5, 1.0, n), cy + np.sin(ang) * rad * rng.uniform(0.5, 1.0, n)], 1).astype(np.int32)
    cv2.fillPoly(mask, [pts], 1.0, cv2.LINE_AA)
    soft = rng.uniform(1, 40) if rng.random() < 0.5 else rng.uniform(40, 0.1 * max(w, h) + 41)
    mask = soft_blur(mask, soft)
    img *= (1 - rng.uniform(0.25, 0.65) * mask)[..., None]


def glare(rng: np.random.Generator, img: np.ndarray) -> None:
    """A specular hot spot from a lamp on glossy cards (additive, soft)."""
    h, w = img.shape[:2]
    mask = np.zeros((h, w), np.float32)
    c = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
    ax = (int(rng.uniform(0.03, 0.2) * max(w, h)), int(rng.uniform(0.02, 0.12) * max(w, h)))
    cv2.ellipse(mask, c, ax, rng.uniform(0, 180), 0, 360, 1.0, -1)
    mask = soft_blur(mask, max(ax) * 0.4 + 1)
    img += (rng.uniform(40, 140) * mask)[..., None]


def colour_cast(rng: np.random.Generator, img: np.ndarray) -> None:
    """White balance off (warm bulbs, cool daylight), exposure and contrast changes (in place)."""
    kind = rng.random()
    if kind < 0.45:
        gains = np.array([rng.uniform(0.72, 0.95), rng.uniform(0.9, 1.0), rng.uniform(1.0, 1.1)], np.float32)
    elif kind < 0.65:
        gains = np.array([rng.uniform(1.0, 1.12), rng.uniform(0.95, 1.05), rng.uniform(0.82, 0.97)], np.float32)
    else:
        gains = rng.uniform(0.93, 1.07, 3).astype(np.float32)
    img *= gains * rng.uniform(0.75, 1.2)
    contrast = rng.uniform(0.75, 1.25)
    img[:] = (img - 128) * contrast + 128


def saturation(rng: np.random.Generator, img: np.ndarray) -> None:
    """Scale colour saturation (washed-out webcams to punchy phones); rarely full grey."""
    grey = img.mean(axis=2, keepdims=True)
    s = 0.0 if rng.random() < 0.08 else rng.uniform(0.5, 1.3)
    img[:] = grey + (img - grey) * s


def blur(rng: np.random.Generator, img: np.ndarray, scale: float) -> np.ndarray:
    """Defocus or motion blur, sized relative to the index height in px (`scale`)."""
    if rng.random() < 0.6:
        sigma = rng.uniform(0.4, 0.6 + 0.05 * scale)
        return cv2.GaussianBlur(img, (0, 0), sigma)
    k = int(rng.integers(3, max(4, int(3 + 0.15 * scale))))
    kern = np.zeros((k, k), np.float32)
    kern[k // 2, :] = 1.0
    kern = cv2.warpAffine(kern, cv2.getRotationMatrix2D(((k - 1) / 2, (k - 1) / 2), rng.uniform(0, 180), 1.0), (k, k))
    kern /= max(float(kern.sum()), 1e-6)
    return cv2.filter2D(img, -1, kern)


def sensor_noise(rng: np.random.Generator, img: np.ndarray) -> None:
    """Shot-like and read noise, some of it in colour, some of it blotchy (in place)."""
    h, w = img.shape[:2]
    sigma = rng.uniform(1, 9)
    lum = rng.standard_normal((h, w, 1), dtype=np.float32) * sigma
    chroma = rng.standard_normal((h, w, 3), dtype=np.float32) * sigma * rng.uniform(0, 0.6)
    if rng.random() < 0.3:
        chroma = cv2.GaussianBlur(chroma, (0, 0), 1.2)
    bright = np.clip(img.mean(axis=2, keepdims=True) / 255.0, 0.05, 1.0)
    img += (lum + chroma) * np.sqrt(bright)


def low_res(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """A cheap camera: shoot small, upscale (soft, blocky detail)."""
    h, w = img.shape[:2]
    f = rng.uniform(0.45, 0.8)
    small = cv2.resize(img, (max(8, int(w * f)), max(8, int(h * f))), interpolation=cv2.INTER_AREA)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def jpeg(rng: np.random.Generator, img8: np.ndarray, lo: int = 35, hi: int = 95) -> np.ndarray:
    """Round-trip through JPEG at a random quality."""
    q = int(rng.integers(lo, hi + 1))
    ok, buf = cv2.imencode(".jpg", img8, [cv2.IMWRITE_JPEG_QUALITY, q])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else img8


def photograph(rng: np.random.Generator, img: np.ndarray, index_px: float, strength: float = 1.0) -> np.ndarray:
    """Apply the room and camera to a float BGR frame; returns uint8 BGR.

    `strength` < 1 makes effects rarer and milder (used for evaluation rounds).
    """
    p = lambda x: rng.random() < x * strength  # noqa: E731
    if p(0.85):
        uneven_light(rng, img)
    if p(0.35):
        cast_shadow(rng, img)
    if p(0.25):
        glare(rng, img)
    if p(0.8):
        colour_cast(rng, img)
    if p(0.5):
        saturation(rng, img)
    if p(0.15):
        img = low_res(rng, img)
    if p(0.5):
        img = blur(rng, img, index_px)
    if p(0.7):
        sensor_noise(rng, img)
    out = np.clip(img, 0, 255).astype(np.uint8)
    if p(0.8):
        out = jpeg(rng, out, 30 if strength >= 1 else 60)
    return out
