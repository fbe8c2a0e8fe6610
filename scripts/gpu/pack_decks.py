"""Carry the rendered deck cache to a GPU machine within its 64 MiB transfer limit.

    python scripts/gpu/pack_decks.py pack   DEST     # ~/.cache/handfoot (or $HANDFOOT_CACHE) -> DEST, faces as WebP
    python scripts/gpu/pack_decks.py unpack SRC CACHE  # SRC -> CACHE/decks and CACHE/textures, faces as PNG again

The cache's PNG faces take about 100 MB; as WebP at quality 95 they take
31 MB (mean absolute difference 1.2 grey levels per channel; the training
frames are JPEG-compressed anyway). WebP keeps no alpha channel where every
pixel is opaque, so unpacking makes every face RGBA again, as the cache holds it.
deck.json, manifest.json and the textures travel unchanged.
"""

from __future__ import annotations

import shutil
import sys
from multiprocessing import Pool
from pathlib import Path

from PIL import Image


def _to_webp(job: tuple[Path, Path]) -> None:
    src, dst = job
    Image.open(src).save(dst, quality=95, method=3, alpha_quality=100)


def _to_png(job: tuple[Path, Path]) -> None:
    src, dst = job
    Image.open(src).convert("RGBA").save(dst)


def _copy_tree(src: Path, dst: Path, face_suffix: str, new_suffix: str) -> list[tuple[Path, Path]]:
    """Copy every file but the faces; return (face, destination) pairs to convert."""
    jobs = []
    for path in sorted(src.rglob("*")):
        out = dst / path.relative_to(src)
        if path.is_dir():
            out.mkdir(parents=True, exist_ok=True)
        elif path.suffix == face_suffix:
            jobs.append((path, out.with_suffix(new_suffix)))
        else:
            out.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, out)
    return jobs


def pack(cache: Path, dest: Path) -> int:
    decks = [d for d in sorted((cache / "decks").iterdir()) if (d / "deck.json").is_file()]
    jobs = []
    for deck in decks:
        jobs += _copy_tree(deck, dest / "decks" / deck.name, ".png", ".webp")
    shutil.copyfile(cache / "decks" / "manifest.json", dest / "decks" / "manifest.json")
    if (cache / "textures").is_dir():  # only after `handfoot dataset fetch-textures`; builds go on without it
        shutil.copytree(cache / "textures", dest / "textures", dirs_exist_ok=True)
    with Pool() as pool:
        pool.map(_to_webp, jobs, chunksize=8)
    return len(jobs)


def unpack(src: Path, cache: Path) -> int:
    jobs = _copy_tree(src, cache, ".webp", ".png")
    with Pool() as pool:
        pool.map(_to_png, jobs, chunksize=16)
    return len(jobs)


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "pack":
        from vision.offline import config_dir  # noqa: PLC0415

        count = pack(config_dir().parent, Path(argv[1]))
    elif len(argv) == 3 and argv[0] == "unpack":
        count = unpack(Path(argv[1]), Path(argv[2]))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    print(f"{argv[0]}ed {count} faces")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
