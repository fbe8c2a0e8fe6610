"""The detector read through OpenVINO: which backend is chosen, the converted copy made once and kept in the
cache folder, PyTorch when asked for or when the conversion fails, and the same cards read either way."""

from __future__ import annotations

import contextlib
import os
import sys
from collections import Counter
from pathlib import Path

import pytest

from vision import fast_backend
from vision.fast_backend import OPENVINO, PYTORCH, openvino_copy, wanted_backend

REPO = Path(__file__).resolve().parents[2]
MODEL = REPO / "models" / "cards.pt"
PHOTOS = REPO / "examples" / "photos"

try:
    import openvino  # noqa: F401

    HAS_OPENVINO = True
except ImportError:
    HAS_OPENVINO = False


@pytest.fixture
def cache(tmp_path: Path, monkeypatch) -> Path:
    """A cache folder of this test's own (no copy made by another run)."""
    monkeypatch.setenv("HANDFOOT_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv(fast_backend.BACKEND_ENV, raising=False)
    return tmp_path / "cache"


def test_pytorch_is_chosen_when_asked_for_or_when_openvino_is_missing(tmp_path: Path, monkeypatch, cache) -> None:
    weights = tmp_path / "cards.pt"
    weights.write_bytes(b"not read")
    monkeypatch.setenv(fast_backend.BACKEND_ENV, "torch")
    assert wanted_backend(weights) == PYTORCH
    assert openvino_copy(weights) is None
    monkeypatch.delenv(fast_backend.BACKEND_ENV)
    monkeypatch.setitem(sys.modules, "openvino", None)  # `import openvino` now fails
    assert wanted_backend(weights) == PYTORCH
    assert openvino_copy(weights) is None
    assert not cache.exists() or not any(cache.rglob("*.xml"))


def test_an_openvino_folder_is_read_as_it_is(tmp_path: Path) -> None:
    folder = tmp_path / "cards_openvino_model"
    folder.mkdir()
    (folder / "cards.xml").write_text("<net/>")
    assert wanted_backend(folder) == PYTORCH  # no .bin beside it: not a model
    (folder / "cards.bin").write_bytes(b"\0")
    assert wanted_backend(folder) == OPENVINO
    assert openvino_copy(folder) == folder


def test_a_failed_conversion_falls_back_to_pytorch_with_one_line_why(tmp_path: Path, monkeypatch, cache, capsys) -> None:
    if not HAS_OPENVINO:
        pytest.skip("openvino not installed")
    weights = tmp_path / "cards.pt"
    weights.write_bytes(b"weights")

    def broken(w, target):
        raise RuntimeError("converter exploded")

    monkeypatch.setattr(fast_backend, "_convert", broken)
    assert openvino_copy(weights) is None
    err = capsys.readouterr().err
    assert "PyTorch" in err and "converter exploded" in err and len(err.strip().splitlines()) == 1


@pytest.mark.skipif(not MODEL.is_file() or not HAS_OPENVINO, reason="needs models/cards.pt and openvino")
def test_the_shipped_model_is_read_through_its_openvino_copy_made_once(cache) -> None:
    from vision.detector import load_detector

    first = load_detector()
    assert first.backend == OPENVINO
    copies = [p for p in cache.rglob("*.xml")]
    assert len(copies) == 1 and fast_backend.weights_digest(MODEL) in str(copies[0])
    made = copies[0].stat().st_mtime_ns
    assert load_detector().backend == OPENVINO
    assert copies[0].stat().st_mtime_ns == made  # read again, not made again
    assert not [p for p in cache.rglob(".converting-*")]  # no scratch folder left behind


@pytest.mark.skipif(not MODEL.is_file() or not HAS_OPENVINO, reason="needs models/cards.pt and openvino")
def test_openvino_reads_the_example_photos_as_pytorch_does(monkeypatch) -> None:
    from vision.corners import join_corners
    from vision.detector import InferenceConfig, load_detector
    from vision.imageio import load_image

    config = InferenceConfig().once()  # one reading: the networks' own difference, not the fusion's
    fast = load_detector(None, config)
    monkeypatch.setenv(fast_backend.BACKEND_ENV, "torch")
    slow = load_detector(None, config)
    assert (fast.backend, slow.backend) == (OPENVINO, PYTORCH)
    same = differ = 0
    for photo in sorted(PHOTOS.glob("*.jpg")):
        image = load_image(photo)
        a = Counter(c.cls for c in join_corners(fast.detect(image)))
        b = Counter(c.cls for c in join_corners(slow.detect(image)))
        same += sum((a & b).values())
        differ += sum(((a - b) + (b - a)).values())
    assert same > 50
    assert differ <= 0.03 * same  # a card or two where a box sits at the threshold


def test_a_thread_limit_reads_through_pytorch(tmp_path: Path, monkeypatch, cache) -> None:
    if not HAS_OPENVINO:
        pytest.skip("openvino not installed")
    weights = tmp_path / "cards.pt"
    weights.write_bytes(b"not read")
    monkeypatch.delenv("HANDFOOT_THREADS", raising=False)
    assert wanted_backend(weights) == OPENVINO
    monkeypatch.setenv("HANDFOOT_THREADS", "1")  # OpenVINO would take every core
    assert wanted_backend(weights) == PYTORCH


def test_watch_sets_its_thread_limit_before_it_loads_the_detector(monkeypatch, capsys) -> None:
    from handfoot.cli import main
    from handfoot.commands import watch_cmd

    monkeypatch.delenv("HANDFOOT_THREADS", raising=False)
    monkeypatch.setattr(watch_cmd, "set_threads", lambda n: monkeypatch.setenv("HANDFOOT_THREADS", str(n)))
    limits = []

    def load(model, imgsz):
        limits.append(os.environ.get("HANDFOOT_THREADS"))
        raise watch_cmd.ModelError("stop here")

    monkeypatch.setattr(watch_cmd, "load_detector", load)
    monkeypatch.setattr(watch_cmd, "open_source_for", lambda source, realtime: contextlib.nullcontext())
    status = main(["watch", "--no-window", "--source", "x.avi", "--rules", "family-game-knights", "--round", "1", "--threads", "1"])
    assert status != 0 and "stop here" in capsys.readouterr().err
    assert limits == ["1"]


@pytest.mark.skipif(not MODEL.is_file() or not HAS_OPENVINO, reason="needs models/cards.pt and openvino")
def test_a_copy_that_will_not_load_falls_back_to_pytorch_and_says_so(cache, capsys) -> None:
    from vision.detector import load_detector

    broken = fast_backend.copies_dir() / f"cards-{fast_backend.weights_digest(MODEL)}_openvino_model"
    broken.mkdir(parents=True)
    (broken / "cards.xml").write_text("<net")  # cut short
    (broken / "cards.bin").write_bytes(b"\0")
    detector = load_detector()
    assert detector.backend == PYTORCH
    err = capsys.readouterr().err
    assert "PyTorch" in err and str(broken) in err


@pytest.mark.skipif(not MODEL.is_file() or not HAS_OPENVINO, reason="needs models/cards.pt and openvino")
def test_the_conversion_reports_nothing_to_openvinos_telemetry(cache, monkeypatch) -> None:
    telemetry = pytest.importorskip("openvino_telemetry")
    calls = []
    for method in ("send_event", "send_error", "start_session", "end_session"):
        monkeypatch.setattr(telemetry.Telemetry, method, lambda self, *a, **k: calls.append(a))
    import importlib

    for name in fast_backend.OVC_MODULES:  # as a fresh process finds them: the real telemetry wired in
        monkeypatch.setattr(importlib.import_module(f"openvino.tools.ovc.{name}"), "tm", telemetry, raising=False)
    assert openvino_copy(MODEL) is not None
    assert calls == []
