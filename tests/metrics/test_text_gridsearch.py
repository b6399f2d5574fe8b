"""The text metrics as scorers inside GridSearchCV, checked by hand.

``GridSearchCV(ExplainedModel(text model, explainer), scoring=[text
metrics])`` must give, per fold, the metric of the fold's test rows computed
directly: leave-one-token-out attributions written out here (the token set
to PAD, the predicted class's probability drop) and the metric functions
called on them.  The verdict (occlusion beats the random control on AOPC,
token F1 and taucorr_loo) must follow from the same numbers.
"""

import numpy as np
import pytest
from sklearn import config_context
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, KFold

from sklearn_xai.compose import ExplainedModel
from sklearn_xai.datasets import make_text_classification
from sklearn_xai.explainers import FeatureAblation, RandomExplainer
from sklearn_xai.masking import TokenMasker
from sklearn_xai.metrics import (
    aopc_comprehensiveness,
    check_scoring,
    taucorr_loo,
    token_f1,
)
from sklearn_xai.models import TokenIdClassifier

METRICS = ["aopc_comprehensiveness", "token_f1", "taucorr_loo"]


def _leave_one_token_out(model, X):
    """a_j = p_c(x) - p_c(x with token j set to PAD), c the predicted class;
    0 at padding."""
    P = model.predict_proba(X)
    c = P.argmax(1)
    A = np.zeros(X.shape)
    for i, row in enumerate(X):
        for j in np.flatnonzero(row != 0):
            edited = row.copy()
            edited[j] = 0
            A[i, j] = P[i, c[i]] - model.predict_proba(edited[None])[0, c[i]]
    return A


def test_text_metrics_in_grid_search_match_direct_computation():
    data = make_text_classification(48, rule="additive", random_state=0)
    X, y, truth = data.data, data.target, data.ground_truth_mask
    model = TokenIdClassifier(LogisticRegression(C=5.0), data.codec,
                              vectorizer="count").fit(X, y)
    occlusion = FeatureAblation(masker=TokenMasker("pad"))
    control = RandomExplainer(random_state=0)
    cv = KFold(2)
    with config_context(enable_metadata_routing=True):
        search = GridSearchCV(
            ExplainedModel(FrozenEstimator(model), occlusion),
            {"explainer": [occlusion, control]},
            scoring=check_scoring(METRICS), refit=False, cv=cv,
            error_score="raise",
        ).fit(X, y, ground_truth=truth)

    for k, explainer in enumerate([occlusion, control]):
        for split, (train, test) in enumerate(cv.split(X)):
            if explainer is occlusion:
                A = _leave_one_token_out(model, X[test])
            else:  # the control: its own draws, fitted on the training fold
                A = RandomExplainer(random_state=0).fit(X[train]).transform(X[test])
            expected = {
                "aopc_comprehensiveness": np.nanmean(
                    aopc_comprehensiveness(model, X[test], A)),
                "token_f1": np.nanmean(token_f1(truth[test], A)),
                "taucorr_loo": np.nanmean(taucorr_loo(model, X[test], A)),
            }
            for name in METRICS:
                got = search.cv_results_[f"split{split}_test_{name}"][k]
                assert got == pytest.approx(expected[name], rel=1e-9, abs=1e-12), \
                    (name, k, split)
    # The verdict: occlusion beats the random control on every text metric
    # (leave-one-out agrees with itself on taucorr_loo: tau = 1 where defined).
    for name in METRICS:
        means = search.cv_results_[f"mean_test_{name}"]
        assert means[0] > means[1], name
    assert search.cv_results_["mean_test_taucorr_loo"][0] == pytest.approx(1.0)
