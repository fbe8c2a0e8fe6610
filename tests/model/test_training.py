"""Training: the arguments handed to ultralytics, and a one-epoch run end to end."""

from __future__ import annotations

from pathlib import Path

import pytest

from handfoot.cli import main
from training import cards as training


class RecordingYOLO:
    """Stands in for ultralytics.YOLO: records what train() is given."""

    calls: list[tuple[str, dict]] = []

    def __init__(self, model: str, task: str | None = None) -> None:
        self.model = model

    def train(self, **kwargs) -> None:
        RecordingYOLO.calls.append((self.model, kwargs))


@pytest.fixture
def recorded(monkeypatch, tmp_path: Path):
    import ultralytics

    RecordingYOLO.calls = []
    monkeypatch.setattr(ultralytics, "YOLO", RecordingYOLO)
    monkeypatch.setattr(training, "check_data_yaml", lambda path: {})
    return RecordingYOLO.calls


def test_training_from_yaml_starts_from_scratch_with_the_cpu_schedule(recorded, tmp_path: Path) -> None:
    training.train(training.TrainPlan(data=tmp_path / "d.yaml", model="yolo11n.yaml", batch=16, project=tmp_path))
    model, args = recorded[0]
    assert model == "yolo11n.yaml" and args["pretrained"] is False
    assert args["nbs"] == 16 and args["optimizer"] == "AdamW" and args["warmup_bias_lr"] == 0.0
    assert args["fliplr"] == 0.0 and args["amp"] is False


def test_continuing_from_our_weights_keeps_them(recorded, tmp_path: Path) -> None:
    # ultralytics drops a checkpoint's weights when told pretrained=False
    weights = tmp_path / "cards.pt"
    weights.write_bytes(b"weights")
    training.train(training.TrainPlan(data=tmp_path / "d.yaml", model=str(weights), project=tmp_path))
    assert recorded[0][1]["pretrained"] is True


def test_a_continuing_leg_can_start_lower_without_warm_up(recorded, tmp_path: Path) -> None:
    weights = tmp_path / "cards.pt"
    weights.write_bytes(b"weights")
    assert (
        main(
            [
                "train",
                "--data",
                str(tmp_path / "d.yaml"),
                "--model",
                str(weights),
                "--lr0",
                "0.0005",
                "--warmup-epochs",
                "0",
                "--project",
                str(tmp_path),
            ]
        )
        == 0
    )
    args = recorded[0][1]
    assert args["lr0"] == 0.0005 and args["warmup_epochs"] == 0.0
    default = training.TrainPlan(data=tmp_path / "d.yaml")
    assert (default.lr0, default.warmup_epochs) == (0.002, 1.0)


def test_a_gpu_machine_can_feed_more_loaders_and_skip_the_plots(recorded, tmp_path: Path) -> None:
    # a GPU trains faster than two loaders can cut tiles; ultralytics' plots need polars, which a bare GPU image may lack
    assert main(["train", "--data", str(tmp_path / "d.yaml"), "--workers", "12", "--no-plots", "--project", str(tmp_path)]) == 0
    assert recorded[0][1]["workers"] == 12 and recorded[0][1]["plots"] is False
    assert main(["train", "--data", str(tmp_path / "d.yaml"), "--project", str(tmp_path)]) == 0
    assert recorded[1][1]["workers"] == 2 and recorded[1][1]["plots"] is True


def test_a_continuing_leg_can_leave_the_backbone_as_it_is(recorded, tmp_path: Path) -> None:
    weights = tmp_path / "cards.pt"
    weights.write_bytes(b"weights")
    assert main(["train", "--data", str(tmp_path / "d.yaml"), "--model", str(weights), "--freeze", "10", "--project", str(tmp_path)]) == 0
    assert main(["train", "--data", str(tmp_path / "d.yaml"), "--model", str(weights), "--project", str(tmp_path)]) == 0
    assert recorded[0][1]["freeze"] == 10
    assert recorded[1][1]["freeze"] is None  # ultralytics' own default: every layer trains


@pytest.mark.parametrize(
    "flag, value, message",
    [
        ("--lr0", "0", "--lr0 must be above 0"),
        ("--lr0", "0.5", "at most 0.1"),
        ("--warmup-epochs", "-1", "cannot be negative"),
        ("--freeze", "-1", "--freeze must be from 0 to 22"),
        ("--freeze", "23", "--freeze must be from 0 to 22"),
    ],
)
def test_training_settings_that_cannot_work_are_refused(recorded, capsys, tmp_path: Path, flag, value, message) -> None:
    status = main(["train", "--data", str(tmp_path / "d.yaml"), flag, value, "--project", str(tmp_path)])
    assert status == 2 and message in capsys.readouterr().err
    assert recorded == []


def test_unknown_architecture_is_a_clear_error(capsys, tmp_path: Path) -> None:
    status = main(["train", "--data", str(tmp_path / "d.yaml"), "--model", "yolo99x.yaml", "--project", str(tmp_path)])
    assert status == 2 and "unknown model" in capsys.readouterr().err


def test_one_epoch_on_a_tiny_generated_set_gives_loadable_weights(simple_only, tmp_path: Path, capsys) -> None:
    data = tmp_path / "set"
    assert main(["dataset", "build", "--out", str(data), "--images", "3", "--seed", "5", "--workers", "1", "--val-fraction", "0.34"]) == 0
    out = tmp_path / "cards.pt"
    status = main(
        [
            "train",
            "--data",
            str(data / "data.yaml"),
            "--epochs",
            "1",
            "--imgsz",
            "320",
            "--batch",
            "4",
            "--fraction",
            "0.5",
            "--project",
            str(tmp_path / "runs"),
            "--name",
            "smoke",
            "--export",
            str(out),
        ]
    )
    assert status == 0, capsys.readouterr().err
    from vision.detector import load_detector

    detector = load_detector(out)
    assert detector.model.names[0] == "A"
