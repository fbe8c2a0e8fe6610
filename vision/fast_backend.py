"""The detector's network run by OpenVINO: the same weights, converted once, read faster on a CPU.

Issue #4 asks for the faster of PyTorch and an exported model. On this project's
2-core CPU the shipped weights read a 640 px photo once in 47-57 ms through
OpenVINO against 80-82 ms through PyTorch, with the round and real-set figures
the same within their noise (models/README.md, "The network read through
OpenVINO"). So
where the `openvino` package is installed (a project dependency), `load_detector`
reads a `.pt` file through its OpenVINO copy: made the first time those weights
are read (ultralytics traces the network and OpenVINO converts it: seconds, no
download), kept in the handfoot cache folder under the weights' content digest
(never in the repository), and made again only when the weights change.

HANDFOOT_BACKEND=torch reads the `.pt` file through PyTorch as before, and so
does a thread limit (HANDFOOT_THREADS, `watch --threads`: PyTorch keeps to it,
OpenVINO takes every core); where OpenVINO is missing, or the conversion fails
or its copy will not load, so does everything else (with one line on stderr
saying why).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
import warnings
from pathlib import Path

from vision.offline import THREADS_ENV, config_dir

BACKEND_ENV = "HANDFOOT_BACKEND"  # "torch": never use the OpenVINO copy
OPENVINO = "openvino"
PYTORCH = "pytorch"


def weights_digest(path: Path) -> str:
    """The first 16 hex digits of the SHA-256 of a weights file, or of an OpenVINO folder's files."""
    path = Path(path)
    sha = hashlib.sha256()
    for file in sorted(path.iterdir()) if path.is_dir() else [path]:
        if file.is_file():
            sha.update(file.name.encode())
            sha.update(file.read_bytes())
    return sha.hexdigest()[:16]


def is_openvino_folder(path: Path) -> bool:
    """A folder holding an OpenVINO model (`.xml` with its `.bin`), as ultralytics exports one."""
    path = Path(path)
    return path.is_dir() and any(x.with_suffix(".bin").is_file() for x in path.glob("*.xml"))


def wanted_backend(weights: Path) -> str:
    """The backend `load_detector` reads `weights` with: OpenVINO for an OpenVINO folder, or for a `.pt`
    file where the package is installed, HANDFOOT_BACKEND is not "torch" and no thread limit is set
    (HANDFOOT_THREADS, `watch --threads`); PyTorch otherwise."""
    weights = Path(weights)
    if is_openvino_folder(weights):
        return OPENVINO
    if weights.suffix != ".pt" or os.environ.get(BACKEND_ENV, "").strip().lower() in ("torch", "pytorch"):
        return PYTORCH
    if os.environ.get(THREADS_ENV):  # a thread limit: PyTorch keeps to it, OpenVINO takes every core
        return PYTORCH
    try:
        import openvino  # noqa: F401, PLC0415
    except ImportError:
        return PYTORCH
    return OPENVINO


def copies_dir() -> Path:
    """Where the OpenVINO copies live: beside ultralytics' settings in the handfoot cache folder."""
    return config_dir().parent / "openvino"


def openvino_copy(weights: Path) -> Path | None:
    """The OpenVINO folder converted from the `.pt` file `weights` (made now if this cache lacks it), or None
    where `wanted_backend` says PyTorch or the conversion fails (one line on stderr says why)."""
    weights = Path(weights)
    if is_openvino_folder(weights):
        return weights
    if wanted_backend(weights) != OPENVINO:
        return None
    target = copies_dir() / f"{weights.stem}-{weights_digest(weights)}_openvino_model"
    if is_openvino_folder(target):
        return target
    try:
        return _convert(weights, target)
    except Exception as exc:  # noqa: BLE001 - any failure of a third-party converter: PyTorch still works
        print(f"handfoot: reading {weights} with PyTorch (its OpenVINO copy could not be made: {exc})", file=sys.stderr)
        return None


def _convert(weights: Path, target: Path) -> Path:
    """Export `weights` for OpenVINO (any input size) into a scratch folder, then move it to `target` whole,
    so that a run stopped halfway never leaves a broken copy behind."""
    from ultralytics import YOLO  # noqa: PLC0415

    print(f"handfoot: converting {weights.name} for OpenVINO (once for these weights; a few seconds)", file=sys.stderr)
    no_telemetry()
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent, prefix=".converting-") as scratch:
        copy = Path(scratch) / weights.name
        shutil.copyfile(weights, copy)
        with warnings.catch_warnings():  # torch's notices about its tracer, which the export uses
            warnings.simplefilter("ignore")
            made = Path(YOLO(str(copy), task="detect").export(format="openvino", dynamic=True, verbose=False))
        if not is_openvino_folder(made):
            raise RuntimeError(f"the export wrote no OpenVINO model ({made})")
        try:
            os.replace(made, target)
        except OSError:
            if not is_openvino_folder(target):  # not another process's finished copy: a real failure
                raise
    return target


OVC_MODULES = ("convert_impl", "telemetry_utils", "utils", "main")  # openvino.tools.ovc modules that report usage


def no_telemetry() -> None:
    """Point OpenVINO's converter at its own do-nothing telemetry: left alone, it reports each conversion to
    Intel unless the user has opted out (a consent file), and handfoot sends nothing anywhere."""
    import importlib  # noqa: PLC0415

    stub = importlib.import_module("openvino.tools.ovc.telemetry_stub")
    for name in OVC_MODULES:
        try:
            module = importlib.import_module(f"openvino.tools.ovc.{name}")
        except ImportError:
            continue
        if hasattr(module, "tm"):
            module.tm = stub
