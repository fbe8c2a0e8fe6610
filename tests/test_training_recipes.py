"""The training commands are wiring over the recipes in `training/`: same defaults, and news through callbacks."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from handfoot.commands import model_cmd
from training import cards, joker_words, jokers, whole_cards, wilds
from training.progress import silent, unshown


def _option_defaults(command) -> dict:
    """Each option's default of a typer command (arguments, which have none, left out)."""
    out = {}
    for name, param in inspect.signature(command).parameters.items():
        default = getattr(param.default, "default", param.default)
        if default is not ...:
            out[name] = default
    return out


@pytest.mark.parametrize(
    "command, recipe",
    [
        (model_cmd.train_wilds, wilds.rebuild),
        (model_cmd.train_jokers, jokers.rebuild),
        (model_cmd.train_joker_words, joker_words.rebuild),
        (model_cmd.train_whole_cards, whole_cards.rebuild),
    ],
)
def test_a_command_and_its_recipe_have_the_same_defaults(command, recipe):
    options = _option_defaults(command)
    recipe_defaults = {n: p.default for n, p in inspect.signature(recipe).parameters.items() if p.default is not inspect.Parameter.empty}
    shared = options.keys() & recipe_defaults.keys()
    assert shared >= {"out", "epochs", "seed"} & options.keys()
    assert {n: options[n] for n in shared} == {n: recipe_defaults[n] for n in shared}
    assert recipe_defaults["progress"] is unshown and recipe_defaults["say"] is silent


def test_train_and_its_plan_have_the_same_defaults():
    options = _option_defaults(model_cmd.train)
    plan = {f.name: f.default for f in dataclasses.fields(cards.TrainPlan) if f.default is not dataclasses.MISSING}
    options["time_hours"] = options.pop("hours")
    shared = options.keys() & plan.keys()
    assert len(shared) >= 12
    assert {n: options[n] for n in shared} == {n: plan[n] for n in shared}


def test_a_recipe_tells_its_news_through_say_and_refuses_through_vision_errors(tmp_path):
    from vision.errors import VisionError

    told = []
    with pytest.raises(VisionError, match="unknown --reader"):
        wilds.rebuild([tmp_path], reader="nonsense", say=told.append)
    with pytest.raises(VisionError, match="neither a frames/ folder nor round photos"):
        wilds.rebuild([tmp_path], say=told.append)
    with pytest.raises(VisionError, match="is not a folder"):
        jokers.rebuild([tmp_path / "missing"], lambda: pytest.fail("the detector is loaded after the folders are checked"))
    assert told == []


def test_the_command_line_turns_a_recipes_refusal_into_a_message(capsys, tmp_path):
    from handfoot.cli import main

    assert main(["train-jokers", str(tmp_path / "missing")]) == 2
    assert "is not a folder" in " ".join(capsys.readouterr().err.split())  # rich wraps long lines
