"""The shared base of explainers that read the model through a masker.

A masker (:mod:`sklearn_xai.masking`) says what removing features means; its
:meth:`~sklearn_xai.masking.BaseMasker.evaluate` gives the value function
``v_x(S)``, the mean explained output when only the features in ``S`` are
known (see :ref:`def-value-function`).  Occlusion, break-down and the
Shapley estimators differ only in which coalitions they evaluate and how they
combine the values; :class:`_MaskerExplainer` holds everything else: the
``masker`` parameter and its default, fitting a clone of it on the training
rows, and the tags (the explainer is stochastic exactly when its masker is,
or when the subclass samples coalitions itself).

A new masker-based explainer is one class: ``__init__`` with ``masker``
(and ``random_state`` for stochastic maskers), ``_explain`` evaluating
``self.masker_`` on its coalitions, and ``_default_masker`` when ``None``
should not mean ``BaselineMasker("zero")``.
"""

from sklearn.base import clone

from sklearn_xai.base import BaseExplainer
from sklearn_xai.masking import BaselineMasker, BaseMasker, check_masker


class _MaskerExplainer(BaseExplainer):
    """Base class of the explainers built on a masker's value function.

    ``fit`` clones ``masker`` (or :meth:`_default_masker` when it is None)
    and fits the clone on the training rows as ``masker_``: the user's masker
    is never modified, and a masker fitted elsewhere is refitted on the
    explainer's training rows, as scikit-learn meta-estimators refit their
    sub-estimators.  The explainer is tagged stochastic when the masker is
    (it then draws from the per-row random streams, seeded by
    ``random_state``); subclasses that sample coalitions set the tag
    themselves.
    """

    _parameter_constraints = {
        **BaseExplainer._parameter_constraints,
        "masker": [BaseMasker, None],
    }

    def _default_masker(self):
        """The (unfitted) masker used when ``masker=None``."""
        return BaselineMasker("zero")

    def _masker(self):
        """The masker parameter, or the default when it is None (unfitted)."""
        return self._default_masker() if self.masker is None else self.masker

    def _fit_explainer(self, X, y):
        masker = clone(self._masker())
        background = getattr(masker, "background", None)
        if getattr(self, "codec_", None) is not None and hasattr(background, "columns"):
            # A background given as raw rows is coded like the training rows.
            masker.set_params(background=self.codec_.encode(background).to_numpy())
        self.masker_ = check_masker(masker, X)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.explainer_tags.raw_columns = self._masker().substitutes_values
        stochastic = not self._masker().is_deterministic
        tags.explainer_tags.stochastic = stochastic
        tags.non_deterministic = stochastic and getattr(self, "random_state", None) is None
        return tags
