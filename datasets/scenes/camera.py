"""The camera: a homography from the layout plane to the photo, from a tilted pinhole model."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass
class CameraSpec:
    """What the photographer did: frame size, how the layout turns, tilt, zoom, framing."""

    width: int
    height: int
    rotation: float  # degrees, the whole layout turned in the table plane
    tilt: float  # degrees away from overhead (0 = straight down)
    tilt_dir: float  # degrees, which way the camera leans
    distance: float  # camera distance in layout extents (smaller = stronger perspective)
    scale: float  # image px per layout unit at the layout centre
    centre: tuple[float, float]  # where the layout centre lands, in image px


def _rot_z(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]], float)


def _rot_x(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]], float)


def homography(spec: CameraSpec, layout_centre: tuple[float, float], extent: float) -> np.ndarray:
    """3x3 map from layout units to image pixels.

    The plane is turned by `rotation`, viewed by a pinhole camera tilted by `tilt`
    towards `tilt_dir` from `distance * extent` away; then scaled so a layout unit at
    the layout centre is `scale` px, with that centre at `centre`.
    """
    lx, ly = layout_centre
    to_origin = np.array([[1, 0, -lx], [0, 1, -ly], [0, 0, 1]], float)
    turn = _rot_z(math.radians(spec.rotation))
    # plane -> camera: rotate the plane about the axis given by tilt_dir, push it away
    d = spec.distance * max(extent, 1.0)
    tilt_axis = _rot_z(math.radians(spec.tilt_dir))
    r3 = tilt_axis @ _rot_x(math.radians(spec.tilt)) @ tilt_axis.T
    ext = np.column_stack([r3[:, 0], r3[:, 1], np.array([0.0, 0.0, d])])
    proj = np.diag([d, d, 1.0]) @ ext  # focal = d: unit scale at the centre when overhead
    h = proj @ turn @ to_origin
    h /= h[2, 2]
    # local scale at the layout centre (the plane origin maps to (0, 0))
    jac = _jacobian(h, lx, ly)
    local = math.sqrt(abs(np.linalg.det(jac)))
    s = spec.scale / max(local, 1e-9)
    cx, cy = spec.centre
    fin = np.array([[s, 0, cx], [0, s, cy], [0, 0, 1]], float) @ h
    return fin / fin[2, 2]


def _jacobian(h: np.ndarray, x: float, y: float) -> np.ndarray:
    p = h @ np.array([x, y, 1.0])
    w = p[2]
    u, v = p[0] / w, p[1] / w
    return np.array(
        [
            [(h[0, 0] - u * h[2, 0]) / w, (h[0, 1] - u * h[2, 1]) / w],
            [(h[1, 0] - v * h[2, 0]) / w, (h[1, 1] - v * h[2, 1]) / w],
        ]
    )


def local_scale(h: np.ndarray, x: float, y: float) -> float:
    """Image px per layout unit near (x, y) (geometric mean of the two axes)."""
    return math.sqrt(abs(np.linalg.det(_jacobian(h, x, y))))


def apply(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Map N x 2 points through a homography."""
    p = np.column_stack([pts, np.ones(len(pts))]) @ h.T
    return p[:, :2] / p[:, 2:3]


def sample_frame_size(rng: np.random.Generator, long_side: tuple[int, int] = (640, 1600)) -> tuple[int, int]:
    """A photo size: long side in range, a common aspect, landscape or portrait."""
    long_px = int(rng.integers(long_side[0], long_side[1] + 1))
    aspect = [4 / 3, 3 / 2, 16 / 9, 1.0][int(rng.choice(4, p=[0.4, 0.15, 0.3, 0.15]))]
    short_px = int(round(long_px / aspect))
    if rng.random() < 0.3:
        return short_px, long_px
    return long_px, short_px
