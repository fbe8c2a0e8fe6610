"""Keep ultralytics fully offline: no settings sync, no font or weight download.

Call `prepare()` before importing ultralytics.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

THREADS_ENV = "HANDFOOT_THREADS"  # a limit on the detector's CPU threads (PyTorch's; see use_all_cores)


def config_dir() -> Path:
    base = os.environ.get("HANDFOOT_CACHE") or os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "handfoot")
    return Path(base) / "ultralytics"


def prepare() -> Path:
    """Set the environment ultralytics reads and give it a local font."""
    cfg = config_dir()
    cfg.mkdir(parents=True, exist_ok=True)
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ["YOLO_AUTOINSTALL"] = "False"  # never pip-install anything at run time
    os.environ.setdefault("YOLO_CONFIG_DIR", str(cfg))
    os.environ.setdefault("YOLO_VERBOSE", "False")
    # ultralytics wants Arial for plots; matplotlib (its dependency) ships DejaVu Sans.
    font_src = _matplotlib_font()
    if font_src is not None:
        for name in ("Arial.ttf", "Arial.Unicode.ttf"):
            dst = Path(os.environ["YOLO_CONFIG_DIR"]) / name
            if not dst.exists():
                shutil.copyfile(font_src, dst)
    try:
        from ultralytics.utils import SETTINGS  # noqa: PLC0415

        if SETTINGS.get("sync", False):
            SETTINGS.update({"sync": False})
    except Exception:  # ultralytics missing or settings unreadable: nothing to turn off
        pass
    return cfg


def _matplotlib_font() -> Path | None:
    try:
        import matplotlib  # noqa: PLC0415
    except ImportError:
        return None
    path = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"
    return path if path.exists() else None


def use_all_cores() -> int:
    """Let ultralytics use every CPU core; returns the thread count set.

    ultralytics resets torch to cpu_count - 1 threads whenever it picks a
    device: a single thread on a 2-core machine, which halves training and
    inference speed. HANDFOOT_THREADS overrides the count.
    """
    import ultralytics.utils.torch_utils as torch_utils  # noqa: PLC0415

    count = int(os.environ.get(THREADS_ENV) or 0) or max(1, os.cpu_count() or 1)
    torch_utils.NUM_THREADS = count
    return count
