"""Real table-top textures from a Debian package (GIMP's patterns), unpacked into a cache outside git.

`fetch_textures()` runs `apt-get download gimp-data`, unpacks it with `dpkg -x`,
converts the table-like patterns (woods, stones, marble, fabric, leather, paper)
from GIMP's .pat format to PNG and records the licence. Nothing here runs at
build time unless the cache exists.
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import tempfile
from pathlib import Path

import cv2
import numpy as np

PACKAGE = "gimp-data"
PATTERN_DIR = "usr/share/gimp/2.0/patterns"
# patterns that look like something cards could lie on
TABLE_LIKE = (
    "Wood/burlwood",
    "Wood/corkboard",
    "Wood/parque1",
    "Wood/parque2",
    "Wood/parque3",
    "Wood/pine",
    "Wood/walnut",
    "Wood/wood1",
    "Wood/wood2",
    "Wood/wood3",
    "Wood/wood4",
    "Wood/wood5",
    "Stone/granite1",
    "Stone/marble1",
    "Stone/marble2",
    "Stone/marble3",
    "Stone/pink_marble",
    "Stone/slate",
    "Stone/stone33",
    "Stone/terra",
    "Stone/cracked",
    "Fabric/burlap",
    "Animal/leather",
    "Paper/paper",
    "Paper/crinklepaper",
    "Legacy/fibers",
)
LICENCE = (
    "GIMP patterns from the Debian package gimp-data (upstream GIMP, https://www.gimp.org/); "
    "licence per debian/copyright 'Files: *': GPL-3+ (with GPL-2+, LGPL-3+, MIT, Expat, BSD-2-clause "
    "for other files). Used only as synthetic-photo backgrounds, never shipped in the repository."
)


def texture_cache(cache: Path | None = None) -> Path:
    """The texture folder: `cache` when given, else $HANDFOOT_CACHE/textures, else ~/.cache/handfoot/textures."""
    if cache is not None:
        return Path(cache).expanduser()
    env = os.environ.get("HANDFOOT_CACHE")
    if env:
        return Path(env).expanduser() / "textures"
    return Path.home() / ".cache" / "handfoot" / "textures"


def read_pat(data: bytes) -> np.ndarray:
    """Decode a GIMP .pat pattern to a BGR image (raises ValueError on a bad file)."""
    if len(data) < 24:
        raise ValueError("too short for a GIMP pattern")
    header, version, w, h, depth, magic = struct.unpack(">IIIII4s", data[:24])
    if magic != b"GPAT" or depth not in (1, 2, 3, 4) or w * h * depth > len(data) - header:
        raise ValueError("not a GIMP pattern")
    px = np.frombuffer(data, np.uint8, w * h * depth, header).reshape(h, w, depth)
    if depth in (1, 2):
        return cv2.cvtColor(np.ascontiguousarray(px[..., 0]), cv2.COLOR_GRAY2BGR)
    return cv2.cvtColor(np.ascontiguousarray(px[..., :3]), cv2.COLOR_RGB2BGR)


def fetch_textures(cache: Path | None = None) -> list[Path]:
    """Download gimp-data with apt, convert its table-like patterns to PNG in the cache; returns the files."""
    dest = texture_cache(cache) / "gimp"
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        run = subprocess.run(["apt-get", "download", PACKAGE], cwd=tmp, capture_output=True, text=True)
        debs = sorted(Path(tmp).glob(f"{PACKAGE}_*.deb"))
        if not debs:
            raise RuntimeError(f"apt-get download {PACKAGE} failed: {run.stderr.strip()[-300:]}")
        subprocess.run(["dpkg", "-x", str(debs[0]), str(Path(tmp) / "x")], check=True, capture_output=True)
        root = Path(tmp) / "x" / PATTERN_DIR
        out = []
        for name in TABLE_LIKE:
            src = root / f"{name}.pat"
            if not src.is_file():
                continue
            img = read_pat(src.read_bytes())
            path = dest / (name.replace("/", "-").lower() + ".png")
            cv2.imwrite(str(path), img)
            out.append(path)
        copyright_file = Path(tmp) / "x" / "usr/share/doc" / PACKAGE / "copyright"
        if copyright_file.is_file():
            shutil.copy(copyright_file, dest / "debian-copyright.txt")
        (dest / "SOURCE.txt").write_text(f"{debs[0].name}\n{LICENCE}\n")
    return out
