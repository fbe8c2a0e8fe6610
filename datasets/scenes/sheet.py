"""A contact sheet of rendered scenes (for review and the README)."""

from __future__ import annotations

import cv2
import numpy as np

from datasets.scenes.model import Scene


def draw_labels(scene: Scene) -> np.ndarray:
    """The scene image with its label boxes and class names drawn."""
    img = scene.image.copy()
    for cls, (x1, y1, x2, y2) in scene.labels:
        cv2.rectangle(img, (int(x1), int(y1)), (int(x2), int(y2)), (0, 0, 255), 1)
        cv2.putText(img, cls, (int(x1), max(8, int(y1) - 2)), cv2.FONT_HERSHEY_SIMPLEX, 0.35, (0, 0, 255), 1, cv2.LINE_AA)
    return img


def contact_sheet(images: list[np.ndarray], cols: int = 4, cell: int = 320) -> np.ndarray:
    """Images letterboxed into `cell` x `cell` squares on a grid."""
    rows = (len(images) + cols - 1) // cols
    sheet = np.full((rows * cell, cols * cell, 3), 255, np.uint8)
    for i, img in enumerate(images):
        h, w = img.shape[:2]
        k = cell / max(h, w)
        small = cv2.resize(img, (max(1, int(w * k)), max(1, int(h * k))), interpolation=cv2.INTER_AREA)
        r, c = divmod(i, cols)
        y, x = r * cell + (cell - small.shape[0]) // 2, c * cell + (cell - small.shape[1]) // 2
        sheet[y : y + small.shape[0], x : x + small.shape[1]] = small
    return sheet


def write_contact_sheet(path: str, seed: int = 7, count: int = 12, labelled_every: int = 3) -> int:
    """Render `count` random scenes (default deck mix and texture cache) into one JPEG; returns its bytes."""
    from pathlib import Path  # noqa: PLC0415

    from datasets.decks import load_decks  # noqa: PLC0415
    from datasets.scenes.backgrounds import texture_files  # noqa: PLC0415
    from datasets.scenes.render import SceneOptions, render_random_scene  # noqa: PLC0415
    from datasets.scenes.textures import texture_cache  # noqa: PLC0415

    decks = load_decks()
    opts = SceneOptions(textures=tuple(texture_files(texture_cache())))
    images = []
    for i in range(count):
        scene = render_random_scene(np.random.default_rng([seed, i]), decks, opts)
        images.append(draw_labels(scene) if i % labelled_every == labelled_every - 1 else scene.image)
    sheet = contact_sheet(images, cols=4, cell=300)
    ok, buf = cv2.imencode(".jpg", sheet, [cv2.IMWRITE_JPEG_QUALITY, 80])
    Path(path).write_bytes(buf.tobytes())
    return len(buf)


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="Write a contact sheet of synthetic scenes.")
    parser.add_argument("--out", default="datasets/contact-scenes.jpg")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--count", type=int, default=12)
    args = parser.parse_args()
    print(write_contact_sheet(args.out, args.seed, args.count), "bytes ->", args.out)
