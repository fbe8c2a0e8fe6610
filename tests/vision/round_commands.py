"""Checks shared by the tests of the commands that train on generated round photos."""

import re


def assert_folders_named(main, command: str, tmp_path, capsys, out) -> None:
    """`command` names a folder holding no round photos, and one that is not there, instead of failing."""
    assert main([command, str(tmp_path), "--out", str(out)]) != 0
    assert "no round photos" in " ".join(capsys.readouterr().err.split())
    assert main([command, str(tmp_path / "nowhere"), "--out", str(out)]) != 0
    assert "nowhere is not a folder" in " ".join(capsys.readouterr().err.split())


def trained_counts(monkeypatch, capsys, command: str, rounds, out, stand_in, classes: tuple[str, ...]) -> list[int]:
    """Run `command` for one epoch on `rounds` with `stand_in` (a `seen`/`detect` object) for the detector, check
    it reports its held-out accuracy, and return its crops' counts of `classes` as it printed them."""
    from handfoot.cli import main
    from handfoot.commands import model_cmd

    monkeypatch.setattr(model_cmd, "_detector", lambda model, conf, cache: (None, stand_in))
    assert main([command, str(rounds), "--out", str(out), "--epochs", "1"]) == 0
    said = capsys.readouterr().out
    assert "held-out accuracy" in said
    pattern = r"\(" + ", ".join(rf"(\d+) {cls}" for cls in classes) + r"\)"
    return [int(n) for n in re.search(pattern, said).groups()]
