"""The tracker turns flickering per-frame detections into a steady confirmed view."""

from __future__ import annotations

import random

import pytest

from vision.detection import Detection
from vision.stability import CardTracker, StabilityConfig, vote

FPS = 10.0


def corner(cls: str, x: float, y: float, size: float = 20.0) -> Detection:
    """A corner index box of height `size` centred at (x, y)."""
    return Detection(cls, 0.9, (x - size * 0.23, y - size / 2, x + size * 0.23, y + size / 2))


def table(n: int, cls: str = "7") -> list[Detection]:
    """`n` corners of one fanned meld column (index centres 26 px apart)."""
    return [corner(cls, 100.0, 80.0 + 26.0 * i) for i in range(n)]


def noisy(
    dets: list[Detection], rng: random.Random, jitter: float = 2.0, drop: float = 0.15, extra: float = 0.1, flip: float = 0.0
) -> list[Detection]:
    """One frame's read of `dets`: jittered boxes, some missed, a stray box, a misread class."""
    out = []
    for d in dets:
        if rng.random() < drop:
            continue
        dx, dy = rng.uniform(-jitter, jitter), rng.uniform(-jitter, jitter)
        cls = "9" if (flip and rng.random() < flip) else d.cls
        x1, y1, x2, y2 = d.box
        out.append(Detection(cls, d.conf, (x1 + dx, y1 + dy, x2 + dx, y2 + dy)))
    if rng.random() < extra:
        out.append(corner(rng.choice(["K", "4", "JOKER"]), rng.uniform(300, 600), rng.uniform(20, 400)))
    rng.shuffle(out)
    return out


def run(frames: list[list[Detection]], config: StabilityConfig | None = None):
    tracker = CardTracker(config)
    return [tracker.update(dets, i / FPS) for i, dets in enumerate(frames)]


def test_still_noisy_table_gives_one_steady_count():
    rng = random.Random(1)
    truth = table(6)
    views = run([noisy(truth, rng, flip=0.1) for _ in range(200)])
    counts = [len(v.detections) for v in views]
    settled = counts[8:]
    assert set(settled) == {6}
    assert all(v.class_counts() == {"7": 6} for v in views[8:])
    assert len({v.version for v in views[8:]}) == 1  # no change once settled
    assert views[-1].is_stable(5.0)


def test_stray_one_frame_boxes_are_never_confirmed():
    rng = random.Random(2)
    truth = table(3)
    views = run([noisy(truth, rng, drop=0.0, extra=0.5) for _ in range(100)])
    assert all(len(v.detections) <= 3 for v in views)
    assert all(v.class_counts() == {"7": 3} for v in views[4:])


def test_missed_frames_do_not_drop_a_card():
    truth = table(4)
    frames = [list(truth) for _ in range(10)]
    # one card missed in 5 of 7 consecutive frames: still there
    for i in range(10, 30):
        frames.append(truth[:3] + ([] if (i % 7) < 5 else [truth[3]]))
    views = run(frames)
    assert all(len(v.detections) == 4 for v in views[4:])


def test_card_added_and_removed_changes_the_view_once_each():
    rng = random.Random(3)
    before, after = table(3), table(4)
    frames = [noisy(before, rng) for _ in range(30)] + [noisy(after, rng) for _ in range(30)]
    frames += [noisy(before, rng) for _ in range(30)]
    views = run(frames)
    counts = [len(v.detections) for v in views]
    assert counts[25] == 3 and counts[55] == 4 and counts[85] == 3
    changes = [i for i in range(1, len(views)) if views[i].changed]
    # first confirmation, the fourth card appearing, the fourth card leaving
    assert len([i for i in changes if i >= 20]) == 2
    assert 30 < changes[-2] <= 38 and 60 < changes[-1] <= 68
    assert not views[changes[-1]].is_stable(0.5) and views[89].is_stable(1.5)


def test_jitter_does_not_swap_identical_neighbours():
    rng = random.Random(4)
    truth = [corner("Q", 200.0, 100.0 + 24.0 * i) for i in range(7)]
    views = run([noisy(truth, rng, jitter=3.0, drop=0.1, extra=0.0) for _ in range(120)])
    assert all(len(v.detections) == 7 for v in views[10:])
    assert len({v.signature for v in views[10:]}) == 1


def test_class_vote_needs_a_majority_to_switch():
    assert vote(["6", "9", "9", None], "6") == "9"
    assert vote(["6", "6", "9", "9"], "6") == "6"  # a tie keeps the class
    assert vote(["6", "9", "9", "8", "8"], "6") == "6"  # most reads, but no majority
    assert vote([None, None], "K") == "K"
    assert vote(["Q"], "") == "Q"


def test_misread_class_majority_wins_over_the_window():
    truth = [corner("6", 50, 50)]
    frames = [list(truth) for _ in range(10)]
    flipped = [Detection("9", 0.8, truth[0].box)]
    frames += [flipped for _ in range(10)]
    views = run(frames)
    assert views[9].class_counts() == {"6": 1}
    assert views[-1].class_counts() == {"9": 1}
    assert views[11].class_counts() == {"6": 1}  # two misreads are not enough
    assert views[19].class_counts() == {"9": 1}  # ten of the last fifteen reads


def test_same_sequence_same_views():
    rng1, rng2 = random.Random(7), random.Random(7)
    a = run([noisy(table(5), rng1) for _ in range(40)])
    b = run([noisy(table(5), rng2) for _ in range(40)])
    assert [v.signature for v in a] == [v.signature for v in b]


def test_bad_config_is_refused():
    with pytest.raises(ValueError):
        StabilityConfig(window=3, confirm_hits=4)
    with pytest.raises(ValueError):
        StabilityConfig(confirm_hits=2, drop_hits=2)
