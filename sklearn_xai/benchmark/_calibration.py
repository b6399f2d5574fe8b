"""Signal-strength calibration of the XAI-TRIS tetromino data sets.

XAI-TRIS (Clark et al. 2024, section 3) generates each scenario's data at a
range of 20 signal-to-noise ratios ``alpha`` and keeps the smallest at which
the mean test accuracy of 10 trained models reaches 80 %.
:func:`calibrate_signal_strength` runs that sweep for one scenario,
background and architecture.
"""

import numbers

import numpy as np
from sklearn.base import clone
from sklearn.utils import Bunch

from sklearn_xai.utils._device import resolve_device
from sklearn_xai.utils._docstring import Substitution, references
from sklearn_xai.utils._sklearn import HasMethods, Interval, StrOptions, validate_params

__all__ = ["calibrate_signal_strength"]

# A geometric grid of 20 signal strengths over the range of XAI-TRIS'
# published alphas (0.0125 to 0.70); the paper does not list its grid.
DEFAULT_ALPHAS = tuple(float(a) for a in np.round(np.geomspace(0.01, 0.8, 20), 4))


@validate_params(
    {
        "scenario": [StrOptions({"linear", "multiplicative", "rigid", "xor"})],
        "background": [StrOptions({"white", "correlated", "natural", "imagenet"})],
        "architecture": [StrOptions({"llr", "mlp", "cnn"}), HasMethods(["fit", "score"])],
        "target_accuracy": [Interval(numbers.Real, 0, 1, closed="right")],
        "alphas": ["array-like", None],
        "n_models": [Interval(numbers.Integral, 1, None, closed="left")],
        "image_size": [Interval(numbers.Integral, 1, None, closed="left")],
        "n_samples": [Interval(numbers.Integral, 10, None, closed="left"), None],
        "dataset_params": [dict, None],
        "model_params": [dict, None],
        "device": [str],
        "stop_at_target": ["boolean"],
        "random_state": [Interval(numbers.Integral, 0, None, closed="left")],
    },
    prefer_skip_nested_validation=True,
)
@Substitution(calibration_references=references("clark2024"))
def calibrate_signal_strength(scenario="linear", background="white", architecture="mlp",
                              *, target_accuracy=0.8, alphas=None, n_models=10,
                              image_size=64, n_samples=None, dataset_params=None,
                              model_params=None, device="auto", stop_at_target=True,
                              random_state=0):
    """Smallest signal strength ``alpha`` at which trained models reach a
    target test accuracy, as XAI-TRIS calibrates its data sets.

    For each ``alpha`` in increasing order, one data set
    :func:`~sklearn_xai.datasets.make_tetrominoes` ``(n_samples,
    scenario=scenario, background=background, image_size=image_size,
    alpha=alpha, random_state=random_state, **dataset_params)`` is drawn
    (the same backgrounds at every ``alpha``: the draw depends on the seed
    only), ``n_models`` models are fitted on its training rows
    (``train_indices``) and scored by accuracy on its test rows
    (``test_indices``); model ``k`` is fitted with
    ``random_state=random_state + k``.  The calibrated ``alpha`` is the
    first whose mean accuracy reaches ``target_accuracy``.  XAI-TRIS: 20
    alphas, 10 models, 80 % [1]_.

    Parameters
    ----------
    scenario : {"linear", "multiplicative", "rigid", "xor"}, default="linear"
        The tetromino scenario.
    background : {"white", "correlated", "natural", "imagenet"}, default="white"
        The background (``"natural"`` and ``"imagenet"`` take
        ``dataset_params={"background_images": ...}``, see
        :func:`~sklearn_xai.datasets.make_tetrominoes`).
    architecture : {"llr", "mlp", "cnn"} or estimator, default="mlp"
        XAI-TRIS' architecture, a
        :class:`~sklearn_xai.models.TetrominoNetClassifier` of that
        ``architecture`` and ``image_size`` on ``device`` with
        ``model_params``; or any classifier (cloned for each model, its
        ``random_state`` set when it has one).
    target_accuracy : float, default=0.8
        The mean test accuracy to reach.
    alphas : array-like of float, default=None
        Signal strengths to try (sorted increasingly); ``None``: 20 values
        geometrically spaced from 0.01 to 0.8 (XAI-TRIS' grid is not
        published; its chosen alphas lie between 0.0125 and 0.70).
    n_models : int, default=10
        Models trained per ``alpha``.
    image_size : int, default=64
        Side of the images (8 or 64).
    n_samples : int, default=None
        Images per data set (``None``: the generator's default, 10 000 at
        8 x 8, 40 000 at 64 x 64).
    dataset_params : dict, default=None
        Further parameters of :func:`~sklearn_xai.datasets.make_tetrominoes`.
    model_params : dict, default=None
        Further parameters of the
        :class:`~sklearn_xai.models.TetrominoNetClassifier` (e.g.
        ``{"max_epochs": 50}``); ignored with an estimator.
    device : str, default="auto"
        Torch device of the networks; ``"auto"``: ``"cuda"`` when torch
        sees a GPU, else ``"cpu"`` (resolved by each net at ``fit``).  A GPU
        torch does not see is refused before any training.  Ignored with
        an estimator.
    stop_at_target : bool, default=True
        Stop at the first ``alpha`` that reaches the target; ``False`` runs
        the whole grid (the full accuracy curve).
    random_state : int, default=0
        Seed of the data sets; model ``k`` uses ``random_state + k``.

    Returns
    -------
    result : Bunch
        ``alpha``: the calibrated signal strength (``None`` when no
        ``alpha`` reaches the target); ``alphas``: those tried, in order;
        ``accuracies``: ndarray (n_tried, n_models) of test accuracies;
        ``mean_accuracy``: their row means; ``target_accuracy``.

    {calibration_references}

    Examples
    --------
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_xai.benchmark import calibrate_signal_strength
    >>> result = calibrate_signal_strength(
    ...     "linear", architecture=LogisticRegression(), image_size=8,
    ...     n_samples=1000, alphas=[0.02, 0.1, 0.2, 0.3], n_models=2)
    >>> result.alpha, result.mean_accuracy.round(2).tolist()
    (0.2, [0.57, 0.74, 0.94])
    """
    from sklearn_xai.datasets import make_tetrominoes

    grid = np.sort(np.asarray(DEFAULT_ALPHAS if alphas is None else alphas, dtype=float))
    if grid.ndim != 1 or grid.size == 0 or not ((grid > 0) & (grid <= 1)).all():
        raise ValueError(f"alphas must be signal strengths in (0, 1]; got {alphas!r}.")
    if isinstance(architecture, str):
        from sklearn_xai.models import TetrominoNetClassifier

        resolve_device(device)  # a GPU torch does not see: refused before any work
        base = TetrominoNetClassifier(architecture=architecture, image_size=image_size,
                                      device=device, **(model_params or {}))
    else:
        base = architecture
    tried, accuracies, chosen = [], [], None
    for alpha in grid:
        data = make_tetrominoes(n_samples, scenario=scenario, background=background,
                                image_size=image_size, alpha=float(alpha),
                                random_state=random_state, **(dataset_params or {}))
        X, y = np.asarray(data.data), np.asarray(data.target)
        train, test = data.train_indices, data.test_indices
        row = []
        for k in range(n_models):
            model = clone(base)
            if "random_state" in model.get_params():
                model.set_params(random_state=random_state + k)
            model.fit(X[train], y[train])
            row.append(float(model.score(X[test], y[test])))
        tried.append(float(alpha))
        accuracies.append(row)
        if chosen is None and np.mean(row) >= target_accuracy:
            chosen = float(alpha)
            if stop_at_target:
                break
    accuracies = np.asarray(accuracies)
    return Bunch(alpha=chosen, alphas=np.asarray(tried), accuracies=accuracies,
                 mean_accuracy=accuracies.mean(axis=1), target_accuracy=target_accuracy)
