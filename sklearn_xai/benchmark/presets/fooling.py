"""Explainers that can be fooled (Slack et al. 2020): a classifier biased on
the data and innocuous on each explainer's perturbations."""

import numpy as np

from sklearn_xai.benchmark._docstring import preset_fragments
from sklearn_xai.benchmark._spec import BenchmarkSpec
from sklearn_xai.benchmark.presets._available import available_explainers, pick
from sklearn_xai.utils._docstring import Substitution

__all__ = ["FOOLING_EXPLAINERS", "fooling", "fooling_models"]

_DOC = preset_fragments("""
.. [1] D. Slack, S. Hilgard, E. Jia, S. Singh and H. Lakkaraju, "Fooling
   LIME and SHAP: Adversarial Attacks on Post hoc Explanation Methods",
   AIES 2020.""")

# Columns of the preset's data: the sensitive one (the label's) and the one
# the innocuous model uses.
_SENSITIVE, _INNOCUOUS = 0, 1

_MASKERS = {
    "marginal": {"name": "MarginalMasker", "params": {"background": 50}},
    "conditional": {"name": "GaussianConditionalMasker", "params": {"n_draws": 20}},
    "on_manifold": {"name": "EmpiricalConditionalMasker",
                    "params": {"max_background": 100}},
}

#: Label -> explainer spec of the ``fooling`` preset: LIME (its own
#: sampling) and KernelSHAP with a marginal, a conditional and an
#: on-manifold masker; each ``scaffold_<label>`` model is trained against
#: the perturbations of the explainer of the same label.
FOOLING_EXPLAINERS = {
    "lime": {"name": "LimeTabular", "params": {"n_perturbations": 500}},
    **{f"kernel_shap_{label}": {"name": "KernelSHAP",
                                "params": {"n_perturbations": 64, "masker": masker}}
       for label, masker in _MASKERS.items()},
}


def _threshold(column, fitted_at=None):
    """A depth-1 tree of one column; with ``fitted_at``, fitted to the
    threshold 0 of that column and frozen (a fixed function, Slack et al.'s
    innocuous model ``1[x_column > 0]``)."""
    from sklearn.compose import make_column_transformer
    from sklearn.frozen import FrozenEstimator
    from sklearn.pipeline import make_pipeline
    from sklearn.tree import DecisionTreeClassifier

    model = make_pipeline(make_column_transformer(("passthrough", [column])),
                          DecisionTreeClassifier(max_depth=1))
    if fitted_at is None:
        return model
    X = np.zeros((2, fitted_at))
    X[:, column] = [-1.0, 1.0]
    return FrozenEstimator(model.fit(X, [0, 1]))


def fooling_models(n_features=4, *, n_explained=100, quick=False):
    """The models of the ``fooling`` preset: the biased model and one
    scaffold per explainer of :data:`FOOLING_EXPLAINERS`.

    Parameters
    ----------
    n_features : int, default=4
        Number of features of the data.
    n_explained : int, default=100
        Training rows whose perturbations train each scaffold's detector.
    quick : bool, default=False
        Smaller explainers for the scaffolds' perturbations.

    Returns
    -------
    models : dict
        ``"biased"``: a threshold of the sensitive feature (column 0)
        fitted to the label; ``"scaffold_<explainer>"``: a
        :class:`~sklearn_xai.compose.ScaffoldedClassifier` hiding it behind
        ``1[x_1 > 0]`` from that explainer.
    """
    from sklearn_xai.benchmark import resolve_component
    from sklearn_xai.compose import ScaffoldedClassifier

    models = {"biased": _threshold(_SENSITIVE)}
    for label, spec in _explainers(quick).items():
        models[f"scaffold_{label}"] = ScaffoldedClassifier(
            _threshold(_SENSITIVE), _threshold(_INNOCUOUS, fitted_at=n_features),
            perturbation=resolve_component(spec, "explainer"), n_explained=n_explained)
    return models


def _explainers(quick):
    explainers = pick(FOOLING_EXPLAINERS, available_explainers())
    if not quick:
        return explainers
    small = {"LimeTabular": {"n_perturbations": 100}, "KernelSHAP": {"n_perturbations": 32}}
    return {label: {"name": spec["name"], "params": {**spec["params"], **small[spec["name"]]}}
            for label, spec in explainers.items()}


@Substitution(**_DOC)
def fooling(quick=False):
    """Explainers that can be fooled: LIME and KernelSHAP (marginal,
    conditional, on-manifold maskers) on models scaffolded to hide their
    sensitive feature (Slack et al. 2020).

    Data: :func:`~sklearn_xai.datasets.make_gaussian_linear` with 4
    equicorrelated Gaussian features (rho = 0.8, 1000 rows) and the label
    ``1[x_0 > m]``: column 0 is the sensitive feature (the paper's race).
    Models (:func:`fooling_models`): ``biased``, a threshold of column 0,
    and ``scaffold_<explainer>``, a
    :class:`~sklearn_xai.compose.ScaffoldedClassifier` that answers with the
    biased model on rows its random-forest detector takes for data and with
    the innocuous ``1[x_1 > 0]`` on the perturbations of that explainer.
    Explainers: :data:`FOOLING_EXPLAINERS` and the random control.  Metric:
    ``feature_agreement`` at ``k = 1`` with the ground truth, whose only
    non-zero attribution is the sensitive feature's: the fraction of rows
    whose top feature is the sensitive one.  50 held-out rows, three seeds.

    Read the cells where the scaffold's label matches the explainer's: the
    paper's result is that LIME and marginal KernelSHAP are fooled (low
    agreement), the conditional and on-manifold maskers less, and the
    ``biased`` model's sensitive feature is found by all.  The other cells
    show what a scaffold trained against one explainer does to another.
    :func:`~sklearn_xai.benchmark.fooling_test` runs the matched cells alone
    and also reports the detectors' accuracy.

    Run time: a few minutes on two cores.  ``quick=True``: 400 rows, 20
    explained, smaller explainers, one seed; under a minute.

    {preset_parameters}

    {preset_returns}

    {preset_references}
    """
    n_features = 4
    explainers = {"random": "RandomExplainer", **_explainers(quick)}
    return BenchmarkSpec(
        name="fooling" + ("_quick" if quick else ""),
        description="Explainers against models scaffolded to hide their sensitive "
                    "feature (Slack et al. 2020).",
        datasets={"sensitive_gaussian": {
            "name": "make_gaussian_linear",
            "params": {"n_samples": 400 if quick else 1000, "n_features": n_features,
                       "weights": [1.0] + [0.0] * (n_features - 1), "rho": 0.8,
                       "task": "classification"}}},
        models=fooling_models(n_features, n_explained=40 if quick else 100,
                              quick=quick),
        explainers=explainers,
        metrics={"sensitive_top1": {"name": "feature_agreement", "params": {"k": 1}}},
        seeds=[0] if quick else [0, 1, 2], n_explain=20 if quick else 50,
    )
