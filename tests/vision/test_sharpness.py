"""How blurred a photo is, from its index boxes (`vision/sharpness.py`)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from blur_photos import index_photo
from synth_cards import column

from vision.sharpness import BLURRED, edge_width, is_blurred, photo_blur


def _column(scale: float):
    return column(["8"] * 6, 60 * scale, 60 * scale, scale=scale)


def test_a_sharp_photo_is_not_blurred_and_a_soft_one_is():
    dets = _column(2.0)  # indices 18 x 40 px
    sharp = photo_blur(index_photo(dets, 400, 700), dets)
    soft = photo_blur(index_photo(dets, 400, 700, sigma=4.0), dets)
    assert sharp is not None and soft is not None
    assert not is_blurred(sharp) and sharp < BLURRED * 0.7
    assert is_blurred(soft)


def test_blur_grows_with_the_blur_applied():
    dets = _column(2.0)
    values = [photo_blur(index_photo(dets, 400, 700, sigma=s), dets) for s in (0.0, 1.0, 2.0, 3.0, 4.0)]
    assert all(a < b for a, b in zip(values, values[1:])), values


def test_the_figure_is_a_share_of_the_index_size():
    """The same blur relative to the index reads about the same at two photo scales."""
    small, large = _column(2.0), _column(4.0)
    a = photo_blur(index_photo(small, 400, 700, sigma=2.0), small)
    b = photo_blur(index_photo(large, 800, 1400, sigma=4.0), large)
    assert abs(a - b) / b < 0.25, (a, b)
    # while the same pixels of blur are half as wide beside an index twice the size
    c = photo_blur(index_photo(large, 800, 1400, sigma=2.0), large)
    assert c < 0.7 * b


def test_too_few_or_flat_boxes_say_nothing():
    dets = _column(2.0)
    photo = index_photo(dets, 400, 700)
    assert photo_blur(photo, dets[:2]) is None  # two boxes: too few to judge a photo by
    flat = np.full((700, 400, 3), 90, np.uint8)
    assert photo_blur(flat, dets) is None
    assert edge_width(flat, dets[0].box) is None
    assert edge_width(photo, (10.0, 10.0, 13.0, 14.0)) is None  # a box of a few pixels
    assert not is_blurred(None)


def test_a_sharp_index_reads_sharp_at_any_size():
    """The gradient's own two-pixel spread is taken out: small sharp indices (a live frame's, about 20 px)
    read as sharp as large ones instead of coming near the warning, and blurring them still shows."""
    for scale in (1.0, 2.0, 4.0):  # indices 9 x 20, 18 x 40 and 36 x 80 px
        dets = _column(scale)
        w, h = int(200 * scale), int(350 * scale)
        assert photo_blur(index_photo(dets, w, h), dets) < 0.01
        assert is_blurred(photo_blur(index_photo(dets, w, h, sigma=1.5 * scale), dets))


def test_blur_in_pixels_is_read_back_from_the_apparent_width():
    from vision.sharpness import SHARP_PX, _blur_px

    assert _blur_px(SHARP_PX) == 0.0 and _blur_px(0.5) == 0.0
    for sigma in (0.5, 1.0, 2.0, 4.0):
        apparent = SHARP_PX / math.erf(1 / (sigma * math.sqrt(2)))  # what the Sobel slope reads
        assert _blur_px(apparent) == pytest.approx(sigma, rel=1e-4)
