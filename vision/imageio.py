"""Reading photos: any format PIL reads, EXIF rotation applied, clear errors.

Every failure raises `ImageError` with a message that names the file, so the
command line can print it as one line (exit status 2).
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from vision.errors import ImageError

#: The most pixels a photo may have. Phones take 12-50 Mpx; a larger image
#: (often a small file that decodes to a huge one) would take gigabytes of
#: memory and minutes to read, so it is refused with a clear "too large".
MAX_PIXELS = 150_000_000


def _pil_open(path: Path) -> Image.Image:
    """PIL's own `Image.open`, never ultralytics' wrapper of it.

    Once ultralytics is imported, `Image.open` tries to pip-install a HEIF
    plugin whenever a file is not an image; we want the plain "not an image".
    """
    patches = sys.modules.get("ultralytics.utils.patches")
    opener = getattr(patches, "_image_open", None) or Image.open
    return opener(path)


def _too_large(path: Path, width: int, height: int) -> ImageError:
    return ImageError(
        f"photo is too large: {width} x {height} pixels ({width * height / 1e6:.0f} Mpx), "
        f"over the {MAX_PIXELS / 1e6:.0f} Mpx handfoot reads; take it at a lower resolution: {path}"
    )


def _open_checked(path: Path) -> Image.Image:
    """Open a photo (header only) and refuse one over MAX_PIXELS, before anything is decoded.

    PIL's own guard (DecompressionBombError, at about 179 Mpx) is worded the same way.
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            img = _pil_open(path)
    except Image.DecompressionBombError as exc:  # PIL's guard, past twice its MAX_IMAGE_PIXELS
        pixels = 2 * (Image.MAX_IMAGE_PIXELS or 0)
        raise ImageError(
            f"photo is too large: over {pixels / 1e6:.0f} Mpx, past the {MAX_PIXELS / 1e6:.0f} Mpx "
            f"handfoot reads; take it at a lower resolution: {path}"
        ) from exc
    width, height = img.size
    if width * height > MAX_PIXELS:
        img.close()
        raise _too_large(path, width, height)
    return img


def load_image(path: Path) -> np.ndarray:
    """Read a photo as a BGR uint8 array (H x W x 3), upright as its EXIF says.

    Raises ImageError naming the file when it is missing, a folder, empty,
    not an image, truncated, or has no pixels.
    """
    path = Path(path)
    if not path.exists():
        raise ImageError(f"photo not found: {path}")
    if path.is_dir():
        raise ImageError(f"photo is a folder, not an image file: {path}")
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise ImageError(f"cannot read photo {path}: {exc.strerror or exc}") from exc
    if size == 0:
        raise ImageError(f"photo is an empty file (0 bytes): {path}")
    try:
        with _open_checked(path) as img, warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            img.load()
            upright = ImageOps.exif_transpose(img)
            rgb = upright.convert("RGB")
    except UnidentifiedImageError as exc:
        raise ImageError(f"not an image (unknown or unsupported format): {path}") from exc
    except (OSError, SyntaxError, ValueError) as exc:
        raise ImageError(f"cannot decode photo {path}: {exc}") from exc
    array = np.asarray(rgb, dtype=np.uint8)
    if array.ndim != 3 or array.shape[0] == 0 or array.shape[1] == 0:
        raise ImageError(f"photo has no pixels: {path}")
    return np.ascontiguousarray(array[:, :, ::-1])


def check_image(path: Path) -> tuple[int, int]:
    """Cheaply check that a photo exists and is an image (reads only its header).

    Returns (width, height) as stored; raises ImageError naming the file, also for
    one over MAX_PIXELS (a small file may decode to a huge image).
    """
    path = Path(path)
    if not path.exists():
        raise ImageError(f"photo not found: {path}")
    if path.is_dir():
        raise ImageError(f"photo is a folder, not an image file: {path}")
    if path.stat().st_size == 0:
        raise ImageError(f"photo is an empty file (0 bytes): {path}")
    try:
        with _open_checked(path) as img:
            width, height = img.size
    except UnidentifiedImageError as exc:
        raise ImageError(f"not an image (unknown or unsupported format): {path}") from exc
    except (OSError, SyntaxError, ValueError) as exc:
        raise ImageError(f"cannot decode photo {path}: {exc}") from exc
    if width == 0 or height == 0:
        raise ImageError(f"photo has no pixels: {path}")
    return width, height
