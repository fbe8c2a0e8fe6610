"""Average two detector checkpoints of one architecture, weight by weight (a "model soup").

    python -m training.average_weights FIRST.pt SECOND.pt --share 0.7 --out soup.pt

Every floating-point tensor of the result is `share` times FIRST's plus
(1 - share) times SECOND's, computed in float32 and stored in FIRST's type;
counters (BatchNorm's batch count) are SECOND's. The rest of the checkpoint
(class names, training arguments) is FIRST's. Meant for two legs of one run,
the second trained on from the first: weights that close lie in one basin,
so their average is a model in its own right (models/README.md, "Leg 22").
"""

from __future__ import annotations

import argparse
import copy
import sys
from pathlib import Path


def average(first: dict, second: dict, share: float) -> dict:
    """A checkpoint whose model weights are `share` * first + (1 - share) * second."""
    a, b = first["model"].state_dict(), second["model"].state_dict()
    if a.keys() != b.keys() or any(a[k].shape != b[k].shape for k in a):
        raise ValueError("the two checkpoints are not of one architecture")
    out = copy.deepcopy(first)
    out["model"].load_state_dict(
        {k: (share * v.float() + (1.0 - share) * b[k].float()).to(v.dtype) if v.is_floating_point() else b[k] for k, v in a.items()}
    )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", type=Path)
    parser.add_argument("second", type=Path)
    parser.add_argument("--share", type=float, default=0.5, help="FIRST's share of each weight (0-1; default 0.5).")
    parser.add_argument("--out", type=Path, required=True, help="Where to write the averaged checkpoint.")
    args = parser.parse_args(argv)
    if not 0.0 <= args.share <= 1.0:
        parser.error("--share must lie between 0 and 1")
    import torch  # noqa: PLC0415

    try:
        first, second = (torch.load(p, map_location="cpu", weights_only=False) for p in (args.first, args.second))
        soup = average(first, second, args.share)
    except Exception as exc:  # a missing, corrupt or foreign file: say so, no traceback
        print(f"error: {exc}", file=sys.stderr)
        return 2
    args.out.parent.mkdir(parents=True, exist_ok=True)
    torch.save(soup, args.out)
    print(f"wrote {args.out} ({args.share:g} of {args.first}, {1 - args.share:g} of {args.second})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
