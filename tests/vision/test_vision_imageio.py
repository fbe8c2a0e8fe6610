"""Reading photos: EXIF rotation honoured, clear errors naming the file."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from vision.errors import ImageError
from vision.imageio import check_image, load_image


def _photo(path, w=120, h=60, exif_orientation=None):
    rgb = np.zeros((h, w, 3), np.uint8)
    rgb[:, : w // 2] = (255, 0, 0)  # left half red
    img = Image.fromarray(rgb)
    if exif_orientation is None:
        img.save(path)
    else:
        exif = Image.Exif()
        exif[0x0112] = exif_orientation
        img.save(path, exif=exif.tobytes())
    return path


def test_plain_photo_is_bgr_uint8(tmp_path):
    img = load_image(_photo(tmp_path / "a.png"))
    assert img.shape == (60, 120, 3) and img.dtype == np.uint8
    assert tuple(img[30, 10]) == (0, 0, 255)  # red in BGR


def test_exif_rotation_is_applied(tmp_path):
    # orientation 6: the camera held turned; the viewer turns it 90 degrees clockwise
    img = load_image(_photo(tmp_path / "r.jpg", exif_orientation=6))
    assert img.shape[:2] == (120, 60)
    top, bottom = img[5, 30], img[-5, 30]
    assert top[2] > 200 and bottom[2] < 60  # the red half is now on top


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda p: p.write_text("not a picture"), "not an image"),
        (lambda p: p.write_bytes(b""), "empty"),
        (lambda p: None, "not found"),
        (lambda p: p.mkdir(), "folder"),
    ],
)
def test_bad_photos_raise_image_error_naming_the_file(tmp_path, make, words):
    path = tmp_path / "photo.jpg"
    make(path)
    for reader in (load_image, check_image):
        with pytest.raises(ImageError) as err:
            reader(path)
        assert words in str(err.value) and str(path) in str(err.value)


def test_truncated_jpeg_is_an_error(tmp_path):
    good = _photo(tmp_path / "g.jpg", w=400, h=300)
    data = good.read_bytes()
    bad = tmp_path / "cut.jpg"
    bad.write_bytes(data[: len(data) // 3])
    with pytest.raises(ImageError) as err:
        load_image(bad)
    assert "cut.jpg" in str(err.value)


def test_not_an_image_stays_a_clear_error_once_ultralytics_is_loaded(tmp_path):
    # ultralytics wraps PIL's Image.open to pip-install a HEIF plugin on unknown files;
    # our reader must still say "not an image" and never try to install anything.
    from vision.offline import prepare

    prepare()
    import ultralytics.utils.patches  # noqa: F401

    path = tmp_path / "notes.jpg"
    path.write_text("shopping list")
    for reader in (load_image, check_image):
        with pytest.raises(ImageError, match="not an image"):
            reader(path)
