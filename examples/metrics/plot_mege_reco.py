"""
=======================================================================
Do explanations generalise across training folds? (MeGe and ReCo)
=======================================================================

Fel et al. (2022) borrow algorithmic stability to judge explanations
(:ref:`def-mege-reco`): the data are split into :math:`k` folds, a model is
trained on all folds but one, for each fold, and every row is explained by
every model.  For two models that both classify a row correctly (one of
them without having seen it) the explanations should rank the features
alike: MeGe is :math:`1 / (1 + \\text{mean distance})` over these pairs.
ReCo asks whether the distance tells such pairs from pairs where one model
is wrong.

Here two models, a logistic regression and a random forest, learn a
label decided by the first three of eight features, and occlusion explains
them.  The random control shows what MeGe alone rewards: its attributions
are a fixed function of the row, the same for every fold model, so its
MeGe is 1, but they do not tell agreeing models from disagreeing ones, so
its ReCo is 0.  Read the two together.
"""

import numpy as np
from sklearn.ensemble import RandomForestClassifier
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LogisticRegression

from sklearn_xai.explainers import FeatureAblation, RandomExplainer
from sklearn_xai.masking import BaselineMasker
from sklearn_xai.metrics import mege, reco

rng = np.random.default_rng(0)
X = rng.normal(size=(240, 8))
y = (X[:, :3] @ [2.0, -1.5, 1.0] + 0.8 * rng.normal(size=240) > 0).astype(int)
models = {
    "logistic": LogisticRegression(),
    "forest": RandomForestClassifier(n_estimators=30, min_samples_leaf=3, random_state=0),
}
print(f"{'':22s}{'MeGe':>8s}{'ReCo':>8s}")
for model_name, model in models.items():
    model.fit(X, y)
    frozen = FrozenEstimator(model)
    for name, explainer in [("occlusion", FeatureAblation(frozen, masker=BaselineMasker("mean"))),
                            ("random", RandomExplainer(frozen, random_state=0))]:
        explainer.fit(X, y)
        kw = dict(explainer=explainer, X_train=X, y_train=y, n_splits=4, random_state=0)
        # The scored rows are only validated: the measures are over X_train.
        A = explainer.transform(X[:1])
        g, r = mege(model, X[:1], A, **kw), reco(model, X[:1], A, **kw)
        print(f"{model_name + ', ' + name:22s}{g:8.3f}{r:8.3f}")
