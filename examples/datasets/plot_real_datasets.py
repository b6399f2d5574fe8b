"""
=====================================================================
German credit through OpenXAI's preprocessing, explained by ablation
=====================================================================

The German credit data ship with sklearn_xai (no download). OpenXAI one-hot
encodes its qualitative attributes, min-max scales everything and splits
80/20; :func:`~sklearn_xai.datasets.openxai_preprocessor` and
:func:`~sklearn_xai.datasets.openxai_split` do the same as scikit-learn
objects, so the preprocessing is fitted on the training rows only and the
feature names survive. A logistic regression is explained by
:class:`~sklearn_xai.explainers.FeatureAblation`, and the attributions are
averaged per sex, the group OpenXAI's fairness analysis compares.
"""

import matplotlib.pyplot as plt
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline

from sklearn_xai.datasets import (
    load_german_credit,
    openxai_preprocessor,
    openxai_split,
)
from sklearn_xai.explainers import FeatureAblation
from sklearn_xai.masking import BaselineMasker

# %%
# Load the data: 1000 applicants, target 1 = good credit risk. The group
# attribute (sex) comes separately; ``personal_status_sex``, which encodes
# it, is left out of the features by default.
bunch = load_german_credit(as_frame=True, sensitive="sex")
print(bunch.data.shape, "features;", bunch.categories["checking_status"])

X_train, X_test, y_train, y_test, sex_train, sex_test = openxai_split(
    bunch.data, bunch.target, bunch.sensitive
)

# %%
# OpenXAI's preprocessing then the explainer, in one pipeline. The explainer
# fits the model on the preprocessed training rows and removes one feature
# at a time by setting it to its training mean.
pipe = make_pipeline(
    openxai_preprocessor(),
    FeatureAblation(LogisticRegression(max_iter=1000), masker=BaselineMasker("mean")),
)
pipe.set_output(transform="pandas")
pipe.fit(X_train, y_train)
model = pipe[-1].estimator_
Z_test = pipe[0].transform(X_test)
print("test accuracy:", round(model.score(Z_test, y_test), 3))

attributions = pipe.transform(X_test)
print(attributions.shape, "attributions, columns like", list(attributions.columns[:3]))

# %%
# Sum the one-hot columns back to the original attributes, then compare the
# mean absolute attribution of each attribute between women and men.
preprocessor = pipe[0]
original = {name: name for name in preprocessor.named_transformers_["numeric"]
            .get_feature_names_out()}
encoder = preprocessor.named_transformers_["categorical"]
for feature, levels in zip(encoder.feature_names_in_, encoder.categories_):
    original.update({f"{feature}_{level}": feature for level in levels})
per_attribute = attributions.T.groupby(original).sum().T
by_sex = per_attribute.abs().groupby(pd.Series(sex_test, index=per_attribute.index)).mean()
order = by_sex.mean().sort_values().index
print(by_sex[order[::-1]].T.round(3).head(8))

ax = by_sex[order].T.plot.barh(figsize=(6, 6))
ax.set_xlabel("mean |attribution| (probability of the predicted class)")
ax.set_title("German credit: feature ablation per sex")
plt.tight_layout()
