"""The docstring blocks the nets and the XAI-TRIS modules share are written
once (models/_estimators.py ``_net_doc``, models/_modules.py) and read as
written out."""

import pytest

pytest.importorskip("skorch")

from sklearn_xai.models import (  # noqa: E402
    BEExAIMLPClassifier,
    BEExAIMLPRegressor,
    LogisticNetClassifier,
    MLPNetClassifier,
    TetrominoCNN,
    TetrominoMLP,
    TetrominoNetClassifier,
)

NET_ATTRIBUTES = """\
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when ``X`` has string column names.
    n_outputs_ : int
"""


@pytest.mark.parametrize("net, defaults", [
    (MLPNetClassifier, ("1e-3", 100, 64)), (LogisticNetClassifier, ("1e-3", 100, 64)),
    (BEExAIMLPClassifier, ("1e-3", 200, 128)), (BEExAIMLPRegressor, ("1e-3", 200, 128)),
    (TetrominoNetClassifier, ("5e-4", 500, 512))], ids=lambda p: getattr(p, "__name__", ""))
def test_net_blocks_read_as_written_out(net, defaults):
    doc = net.__doc__
    lr, max_epochs, batch_size = defaults
    assert (f"    lr : float, default={lr}\n        Learning rate of the optimizer "
            "(Adam by default; ``optimizer=`` and\n        ``optimizer__*`` as in "
            f"skorch).\n    max_epochs : int, default={max_epochs}\n        Maximum "
            f"number of epochs.\n    batch_size : int, default={batch_size}\n"
            "        Mini-batch size of the training (``-1``: the whole training "
            "set).\n") in doc
    openxai = net in (MLPNetClassifier, LogisticNetClassifier)
    assert ("set).\n    convention : {\"paper\", \"openxai_code\"}" in doc) is openxai
    assert "    early_stopping : bool, default=True\n" in doc
    classes = "" if net is BEExAIMLPRegressor else (
        "    classes_ : ndarray of shape (n_classes,)\n")
    assert ("\n    Attributes\n    ----------\n" + classes + NET_ATTRIBUTES) in doc
    assert ("        Seed of the last initialisation.\n    selected_epoch_ : int\n"
            in doc) is openxai
    assert ("\n    References\n    ----------\n    .. [1] C. Agarwal et al., "
            "\"OpenXAI: Towards a Transparent Evaluation of\n       Post hoc Model "
            "Explanations\", NeurIPS Datasets and Benchmarks 2022;\n       code: "
            "``openxai/model.py``, ``train_model``.\n\n    Examples\n" in doc) is openxai
    assert "{" + "net_" not in doc


def test_tetromino_module_parameters_read_as_written_out():
    for module in (TetrominoMLP, TetrominoCNN):
        assert ("\n    Parameters\n    ----------\n    n_features : int\n"
                "        ``image_size ** 2``.\n    n_outputs : int, default=2\n"
                "    image_size : {8, 64}, default=8\n\n") in module.__doc__
