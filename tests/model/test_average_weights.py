"""training/average_weights.py: two checkpoints of one architecture averaged weight by weight."""

from __future__ import annotations

import pytest
import torch

from training import average_weights


def _checkpoint(fill: float, width: int = 3) -> dict:
    net = torch.nn.Sequential(torch.nn.Linear(width, 2), torch.nn.BatchNorm1d(2)).half()
    with torch.no_grad():
        for p in net.parameters():
            p.fill_(fill)
    net[1].num_batches_tracked.fill_(int(fill * 10))
    return {"model": net, "train_args": {"fill": fill}}


def test_the_average_is_the_share_of_each_weight_and_keeps_the_first_ones_type_and_facts():
    soup = average_weights.average(_checkpoint(1.0), _checkpoint(2.0), 0.7)
    weights = soup["model"].state_dict()
    assert torch.allclose(weights["0.weight"].float(), torch.full((2, 3), 1.3), atol=1e-3)
    assert weights["0.weight"].dtype == torch.float16
    assert int(weights["1.num_batches_tracked"]) == 20  # counters are the second's
    assert soup["train_args"] == {"fill": 1.0}


def test_checkpoints_of_two_architectures_are_refused():
    with pytest.raises(ValueError, match="not of one architecture"):
        average_weights.average(_checkpoint(1.0), _checkpoint(1.0, width=4), 0.5)


def test_the_command_writes_a_loadable_soup_and_names_a_bad_file(tmp_path, capsys):
    a, b, out = tmp_path / "a.pt", tmp_path / "b.pt", tmp_path / "soup.pt"
    torch.save(_checkpoint(1.0), a)
    torch.save(_checkpoint(3.0), b)
    assert average_weights.main([str(a), str(b), "--out", str(out)]) == 0
    soup = torch.load(out, weights_only=False)
    assert torch.allclose(soup["model"].state_dict()["0.bias"].float(), torch.full((2,), 2.0))
    (tmp_path / "bad.pt").write_text("not a checkpoint")
    assert average_weights.main([str(a), str(tmp_path / "bad.pt"), "--out", str(out)]) == 2
    assert capsys.readouterr().err.startswith("error:")
