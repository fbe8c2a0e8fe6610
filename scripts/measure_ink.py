"""How well ink alone names 3s (red or black) and Bare Foot wilds (blue 20, red 50) on true boxes.

    python scripts/measure_ink.py FRAMES_DIR [--first N] [--limit N]

FRAMES_DIR is a `handfoot dataset build` folder's `frames/` (or a `dataset
rounds` folder): every JPEG with a .json beside it. Each true 3R/3B box is
named by `vision.ink.ink_class`, and each true WILD20/WILD50 box of a Bare Foot
photo by `vision.ink.foot_wild_class`, as the product names detected boxes.
Photos without colour are counted apart (the product leaves them to the model).
Prints JSON: per group, the boxes, those in grey photos, those named, and those
named wrongly, with the wrong ones by (true, named).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from vision.detection import Detection
from vision.imageio import load_image
from vision.ink import FOOT_WILDS, THREES, foot_wild_class, has_colour, ink_class


def tally(frames: list[Path]) -> dict:
    groups = {"threes": Counter(), "foot_wilds": Counter()}
    wrong = {"threes": Counter(), "foot_wilds": Counter()}
    for path in frames:
        truth = json.loads(path.with_suffix(".json").read_text())
        barefoot = truth.get("family") == "barefoot"
        boxes = [(lab["cls"], lab["box"]) for lab in truth.get("labels", [])]
        wanted = [(c, b) for c, b in boxes if c in THREES or (barefoot and c in FOOT_WILDS)]
        if not wanted:
            continue
        image = load_image(path)
        colour = has_colour(image)
        for cls, box in wanted:
            group = "threes" if cls in THREES else "foot_wilds"
            count = groups[group]
            count["boxes"] += 1
            if not colour:
                count["grey"] += 1
                continue
            det = Detection(cls, 1.0, tuple(box))
            named = ink_class(image, det) if group == "threes" else foot_wild_class(image, det)
            if named is None:
                continue
            count["named"] += 1
            if named != cls:
                count["wrong"] += 1
                wrong[group][f"{cls}->{named}"] += 1
    return {g: {**{k: groups[g][k] for k in ("boxes", "grey", "named", "wrong")}, "wrong_by": dict(wrong[g])} for g in groups}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("frames", type=Path)
    parser.add_argument("--first", type=int, default=0, help="skip the photos before this one (sorted by name)")
    parser.add_argument("--limit", type=int, default=0, help="use at most this many photos (0: all)")
    args = parser.parse_args()
    frames = sorted(p for p in args.frames.glob("*.jpg") if p.with_suffix(".json").is_file())[args.first :]
    if args.limit:
        frames = frames[: args.limit]
    print(json.dumps({"photos": len(frames), **tally(frames)}))


if __name__ == "__main__":
    main()
