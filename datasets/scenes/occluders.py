"""Things that get into the photo over the cards: hands, pens, phones, mugs, score pads, keyboards."""

from __future__ import annotations

import math

import cv2
import numpy as np

from datasets.scenes.backgrounds import soft_blur
from datasets.scenes.compose import OCCLUDER

SKIN = [(255, 220, 190), (235, 190, 160), (210, 160, 120), (170, 120, 85), (120, 80, 55), (90, 60, 40), (245, 205, 180)]


def _edge_anchor(rng: np.random.Generator, w: int, h: int) -> tuple[float, float, float]:
    """A point on a random frame edge and the angle pointing into the frame (degrees)."""
    side = int(rng.integers(4))
    if side == 0:
        return rng.uniform(0, w), 0.0, 90.0
    if side == 1:
        return float(w), rng.uniform(0, h), 180.0
    if side == 2:
        return rng.uniform(0, w), float(h), 270.0
    return 0.0, rng.uniform(0, h), 0.0


def _bgr(rgb: tuple[int, int, int], rng: np.random.Generator, jitter: float = 12) -> tuple[float, float, float]:
    r, g, b = rgb
    c = np.clip(np.array([b, g, r], float) + rng.normal(0, jitter, 3), 0, 255)
    return float(c[0]), float(c[1]), float(c[2])


def hand(rng: np.random.Generator, w: int, h: int, unit: float) -> tuple[np.ndarray, np.ndarray]:
    """A hand reaching in from an edge: palm and fingers as soft skin-coloured shapes.

    Returns a float mask (0-1) and a BGR float colour image of the frame's size.
    """
    mask = np.zeros((h, w), np.float32)
    ax, ay, ang = _edge_anchor(rng, w, h)
    ang += rng.normal(0, 25)
    size = unit * rng.uniform(0.7, 1.4)
    r = math.radians(ang)
    d = np.array([math.cos(r), math.sin(r)])
    n = np.array([-d[1], d[0]])
    reach = rng.uniform(0.2, 1.2) * size
    palm = np.array([ax, ay]) + d * reach
    cv2.ellipse(mask, (int(palm[0]), int(palm[1])), (int(size * 0.55), int(size * 0.45)), ang, 0, 360, 1.0, -1, cv2.LINE_AA)
    # forearm back to the edge
    cv2.line(mask, (int(ax - d[0] * size), int(ay - d[1] * size)), (int(palm[0]), int(palm[1])), 1.0, int(size * 0.7), cv2.LINE_AA)
    curl = rng.uniform(0.3, 1.0)
    for k, off in enumerate((-0.36, -0.12, 0.12, 0.36)):
        base = palm + d * size * 0.4 + n * size * off
        length = size * rng.uniform(0.45, 0.75) * curl * (0.85 if k in (0, 3) else 1.0)
        tip = base + (d + n * rng.normal(0, 0.15)) * length
        cv2.line(mask, (int(base[0]), int(base[1])), (int(tip[0]), int(tip[1])), 1.0, max(2, int(size * 0.17)), cv2.LINE_AA)
    thumb_base = palm + n * size * 0.45 * (1 if rng.random() < 0.5 else -1)
    tip = thumb_base + (d * 0.6 + n * np.sign(np.dot(thumb_base - palm, n)) * 0.6) * size * 0.5
    cv2.line(mask, (int(thumb_base[0]), int(thumb_base[1])), (int(tip[0]), int(tip[1])), 1.0, max(2, int(size * 0.2)), cv2.LINE_AA)
    colour = np.array(_bgr(SKIN[int(rng.integers(len(SKIN)))], rng), np.float32)
    shade = soft_blur(mask, max(1.0, size * 0.15))
    img = colour[None, None, :] * (0.7 + 0.35 * shade[..., None])
    return mask, img


def pen(rng: np.random.Generator, w: int, h: int, unit: float) -> tuple[np.ndarray, np.ndarray]:
    """A pen or pencil lying across part of the frame."""
    mask = np.zeros((h, w), np.float32)
    x, y = rng.uniform(0, w), rng.uniform(0, h)
    a = rng.uniform(0, math.pi)
    length = unit * rng.uniform(1.5, 3.5)
    dx, dy = math.cos(a) * length / 2, math.sin(a) * length / 2
    thick = max(2, int(unit * rng.uniform(0.05, 0.1)))
    cv2.line(mask, (int(x - dx), int(y - dy)), (int(x + dx), int(y + dy)), 1.0, thick, cv2.LINE_AA)
    colour = np.array(_bgr([(20, 40, 160), (200, 30, 30), (30, 30, 30), (230, 200, 40), (240, 240, 240)][int(rng.integers(5))], rng), np.float32)
    img = np.broadcast_to(colour, (h, w, 3)).copy()
    hl = np.zeros((h, w), np.float32)
    cv2.line(hl, (int(x - dx), int(y - dy)), (int(x + dx), int(y + dy)), 1.0, max(1, thick // 4), cv2.LINE_AA)
    img += 80 * hl[..., None]
    return mask, img


def phone(rng: np.random.Generator, w: int, h: int, unit: float) -> tuple[np.ndarray, np.ndarray]:
    """A phone lying near the edge: dark rounded slab with a faint screen reflection."""
    mask = np.zeros((h, w), np.float32)
    ax, ay, _ = _edge_anchor(rng, w, h)
    cw, ch = unit * rng.uniform(0.8, 1.0), unit * rng.uniform(1.6, 2.0)
    box = ((ax, ay), (cw, ch), rng.uniform(0, 180))
    pts = cv2.boxPoints(box).astype(np.int32)
    cv2.fillConvexPoly(mask, pts, 1.0, cv2.LINE_AA)
    shade = rng.uniform(10, 60)
    img = np.full((h, w, 3), shade, np.float32)
    img += 25 * soft_blur(mask, unit * 0.3)[..., None]
    return mask, img


def mug(rng: np.random.Generator, w: int, h: int, unit: float) -> tuple[np.ndarray, np.ndarray]:
    """A mug or glass seen from above: rim ring and a dark drink inside."""
    mask = np.zeros((h, w), np.float32)
    ax, ay, _ = _edge_anchor(rng, w, h)
    r = int(unit * rng.uniform(0.5, 0.8))
    cv2.circle(mask, (int(ax), int(ay)), r, 1.0, -1, cv2.LINE_AA)
    inner = np.zeros((h, w), np.float32)
    cv2.circle(inner, (int(ax), int(ay)), int(r * 0.82), 1.0, -1, cv2.LINE_AA)
    rim = np.array(_bgr([(240, 240, 240), (200, 40, 40), (40, 80, 160), (230, 200, 60)][int(rng.integers(4))], rng), np.float32)
    drink = np.array(_bgr([(60, 35, 20), (120, 80, 40), (200, 200, 200)][int(rng.integers(3))], rng), np.float32)
    img = rim[None, None, :] * (1 - inner[..., None]) + drink[None, None, :] * inner[..., None]
    return mask, img


def score_pad(rng: np.random.Generator, w: int, h: int, unit: float) -> tuple[np.ndarray, np.ndarray]:
    """A score pad with ruled lines and handwritten numbers (digits that are not card indices)."""
    pw, ph = int(unit * rng.uniform(1.2, 2.2)), int(unit * rng.uniform(1.6, 2.8))
    pad = np.zeros((ph, pw, 3), np.uint8)
    pad[:] = _bgr([(250, 250, 245), (250, 240, 170), (240, 240, 240)][int(rng.integers(3))], rng, 5)
    step = max(6, int(ph / rng.uniform(10, 20)))
    for y in range(step, ph, step):
        cv2.line(pad, (0, y), (pw, y), (200, 160, 130), 1, cv2.LINE_AA)
        if rng.random() < 0.7:
            txt = str(int(rng.integers(0, 3000)) // 5 * 5)
            cv2.putText(
                pad,
                txt,
                (int(rng.uniform(2, pw * 0.4)), y - 2),
                cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
                step / 30,
                (120, 40, 20),
                max(1, step // 12),
                cv2.LINE_AA,
            )
    pad = pad.astype(np.float32)
    mask_small = np.ones((ph, pw), np.float32)
    ax, ay, _ = _edge_anchor(rng, w, h)
    m = cv2.getRotationMatrix2D((pw / 2, ph / 2), rng.uniform(0, 360), 1.0)
    m[:, 2] += [ax - pw / 2, ay - ph / 2]
    mask = cv2.warpAffine(mask_small, m, (w, h))
    img = cv2.warpAffine(pad, m, (w, h))
    return mask, img


def keyboard(rng: np.random.Generator, w: int, h: int, unit: float) -> tuple[np.ndarray, np.ndarray]:
    """A keyboard edge: rows of light keys on a frame, along one side of the photo."""
    kw = max(6, int(unit * rng.uniform(0.15, 0.3)))
    rows = int(rng.integers(2, 5))
    bw, bh = w * 2, rows * (kw + 3) + 6
    board = np.zeros((bh, bw, 3), np.float32)
    body = rng.uniform(150, 230) if rng.random() < 0.6 else rng.uniform(20, 60)
    board[:] = body * 0.85
    key = body if body > 100 else body + 20
    for r in range(rows):
        x = int(rng.integers(0, kw))
        while x < bw:
            kwid = kw if rng.random() > 0.1 else kw * 2
            cv2.rectangle(board, (x, 3 + r * (kw + 3)), (x + kwid, 3 + r * (kw + 3) + kw), (key, key, key), -1)
            x += kwid + 3
    mask_small = np.ones((bh, bw), np.float32)
    side = int(rng.integers(4))
    ang = [0, 90, 180, 270][side] + rng.normal(0, 5)
    cx, cy = [(w / 2, h), (0, h / 2), (w / 2, 0), (w, h / 2)][side]
    m = cv2.getRotationMatrix2D((bw / 2, bh / 2), ang, 1.0)
    m[:, 2] += [cx - bw / 2, cy - bh / 2]
    return cv2.warpAffine(mask_small, m, (w, h)), cv2.warpAffine(board, m, (w, h))


KINDS = {
    "hand": (hand, 0.45),
    "pen": (pen, 0.12),
    "phone": (phone, 0.1),
    "mug": (mug, 0.1),
    "score_pad": (score_pad, 0.13),
    "keyboard": (keyboard, 0.1),
}


def add_occluders(rng: np.random.Generator, frame: np.ndarray, ids: np.ndarray, unit: float, count: int) -> list[str]:
    """Draw `count` objects over the frame (soft shadow under each) and mark them in the id map."""
    h, w = ids.shape
    names = list(KINDS)
    p = np.array([KINDS[n][1] for n in names])
    drawn = []
    for _ in range(count):
        name = names[int(rng.choice(len(names), p=p / p.sum()))]
        mask, img = KINDS[name][0](rng, w, h, unit)
        if name == "hand" and rng.random() < 0.3:  # a moving hand is blurred
            k = int(rng.integers(5, 25))
            kern = np.zeros((k, k), np.float32)
            kern[k // 2, :] = 1.0 / k
            kern = cv2.warpAffine(kern, cv2.getRotationMatrix2D((k / 2, k / 2), rng.uniform(0, 180), 1.0), (k, k))
            kern /= max(kern.sum(), 1e-6)
            mask = cv2.filter2D(mask, -1, kern)
            img = cv2.filter2D(img, -1, kern)
        else:
            mask = cv2.GaussianBlur(mask, (0, 0), 0.8)
        shadow = soft_blur(np.roll(mask, (int(unit * 0.05), int(unit * 0.05)), (0, 1)), unit * 0.08)
        frame *= (1 - 0.35 * shadow)[..., None]
        frame[:] = frame * (1 - mask[..., None]) + img * mask[..., None]
        ids[mask > 0.5] = OCCLUDER
        drawn.append(name)
    return drawn
