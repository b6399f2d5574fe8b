"""The text_synthetic preset, reduced (its quick variant), end to end."""

import numpy as np
import pytest
import torch

from sklearn_xai.benchmark import get_preset, run_benchmark, write_report


@pytest.fixture(autouse=True)
def _one_thread():
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(n)


def test_text_synthetic_quick_runs_end_to_end(tmp_path):
    spec = get_preset("text_synthetic", quick=True)
    assert set(spec.models) == {"bow_logistic", "text_cnn"}
    result = run_benchmark(spec)
    table = result.table
    ok = table[table.status == "ok"]
    skipped = table[table.status != "ok"]
    # the embedding gradients are not applicable to the scikit-learn pipeline,
    # and only there
    assert set(skipped.explainer) == {"ig_pad"}
    assert set(skipped.model) == {"bow_logistic"}
    assert skipped.error.str.contains("not applicable").all()
    assert len(ok) == 4 * 7 and np.isfinite(ok.value).all()

    def value(model, explainer, metric):
        return ok[(ok.model == model) & (ok.explainer == explainer)
                  & (ok.metric == metric)].value.item()

    # occlusion of the bag of words: its leave-one-out effects are the
    # occlusion itself ([MASK] is an unknown word, like a deleted token)
    assert value("bow_logistic", "occlusion", "taucorr_loo") == pytest.approx(1.0)
    for model in ("bow_logistic", "text_cnn"):
        for metric in ("aopc_comprehensiveness", "token_f1"):
            assert value(model, "occlusion", metric) > value(model, "random", metric)
    board = result.leaderboard()
    assert len(board)
    write_report(result, tmp_path, figures=False)
    assert any(tmp_path.iterdir())
