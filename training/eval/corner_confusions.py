"""Which deck designs' corners the detector misses or misreads, from cached round-photo detections.

    python -m training.eval.corner_confusions ROUNDS_DIR CACHE_DIR [--conf 0.3] [--top 40]

ROUNDS_DIR holds generated round photos with their truth JSON (`handfoot dataset rounds`);
CACHE_DIR the detections `handfoot eval-rounds --cache` stored for them. Each true corner box
takes the detection overlapping it most (IoU >= 0.4, conf >= --conf); no such box is a MISS.
Prints the commonest (design, true class -> read as) confusions, then the designs by error rate.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path

from training.eval.metrics import ImageEval, confusion_table

MATCH_IOU = 0.4


def confusions(rounds: Path, cache: Path, conf: float) -> tuple[Counter, Counter]:
    """(design, true, read) -> count of wrong corners, and (design, true) -> count of all corners."""
    wrong: Counter = Counter()
    total: Counter = Counter()
    for truth_file in sorted(rounds.glob("round-*-*.json")):
        cached = cache / f"{rounds.name}--{truth_file.stem}.json"
        if not cached.is_file():
            continue
        preds = [(d["cls"], d["conf"], tuple(d["box"])) for d in json.loads(cached.read_text())["detections"] if d["conf"] >= conf]
        by_design: dict[str, list] = defaultdict(list)
        for card in json.loads(truth_file.read_text())["cards"]:
            by_design[card["deck"]] += [(card["cls"], tuple(box)) for box in card.get("corners") or []]
        for deck, truth in by_design.items():
            for true, reads in confusion_table([ImageEval(truth, preds)], MATCH_IOU).items():
                for read, n in reads.items():
                    total[(deck, true)] += n
                    if read != true:
                        wrong[(deck, true, "MISS" if read == "missed" else read)] += n
    return wrong, total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("rounds", type=Path)
    ap.add_argument("cache", type=Path)
    ap.add_argument("--conf", type=float, default=0.3)
    ap.add_argument("--top", type=int, default=40)
    args = ap.parse_args()
    wrong, total = confusions(args.rounds, args.cache, args.conf)
    if not total:
        raise SystemExit(f"no cached detections in {args.cache} for the photos of {args.rounds}")
    print("design                       true    -> read    count / corners of that design and class")
    for (deck, true, read), n in wrong.most_common(args.top):
        print(f"{deck:28s} {true:7s} -> {read:7s} {n:5d} / {total[(deck, true)]}")
    by_deck: dict[str, Counter] = defaultdict(Counter)
    for (deck, true, read), n in wrong.items():
        by_deck[deck][f"{true}->{read}"] += n
    corners = Counter()
    for (deck, _), n in total.items():
        corners[deck] += n
    print("\ndesigns by error rate")
    for deck in sorted(corners, key=lambda d: -sum(by_deck[d].values()) / corners[d])[: args.top]:
        n = sum(by_deck[deck].values())
        print(f"{deck:28s} {n:5d} / {corners[deck]:5d} = {n / corners[deck]:.3f}  {by_deck[deck].most_common(3)}")


if __name__ == "__main__":
    main()
