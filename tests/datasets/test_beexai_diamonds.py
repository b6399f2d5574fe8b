"""BEExAI's Diamonds (Table 5): the curated benchmark's log(1 + price)
target and the split/preprocessing of :func:`preprocessed` with it."""

import numpy as np
import pytest

from sklearn_xai.datasets import load_diamonds, preprocessed


def test_log_target_is_log1p_of_the_price():
    price = load_diamonds().target
    bunch = load_diamonds(log_target=True)
    np.testing.assert_array_equal(bunch.target, np.log1p(price))
    np.testing.assert_array_equal(bunch.data, load_diamonds().data)
    X, y = load_diamonds(log_target=True, return_X_y=True, as_frame=True)
    assert y.name == "log1p_price" and X.shape == (53940, 9)
    assert float(y.iloc[0]) == pytest.approx(np.log(327.0))  # price 326


def test_load_diamonds_validates_log_target():
    with pytest.raises(ValueError, match="log_target"):
        load_diamonds(log_target="yes")


def test_preprocessed_passes_loader_params_and_minmax_scales_the_log_target():
    data = preprocessed("load_diamonds", loader_params={"log_target": True},
                        random_state=0)
    train = data["train_indices"]
    log_price = np.log1p(load_diamonds().target)
    lo, hi = log_price[train].min(), log_price[train].max()
    np.testing.assert_allclose(data["target"], (log_price - lo) / (hi - lo), rtol=0, atol=1e-12)
    # Inputs: quantile transform with normal output, fitted on the training
    # rows: zero (the removal baseline) splits every training column in half.
    below = (data["data"][train] < 0).mean(axis=0)
    np.testing.assert_allclose(below, 0.5, atol=0.06)  # ties: table 0.55
