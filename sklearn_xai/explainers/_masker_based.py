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

With ``groups`` (see :ref:`feature-groups`) the players of the game are
groups of columns: an explainer builds its coalitions over
``_n_players(d)`` players and evaluates them with :meth:`_evaluate`, which
keeps or removes every column of a group together (one gather,
``keep[..., owner]``), and returns one attribution per group.

A new masker-based explainer is one class: ``__init__`` with ``masker``
(and ``random_state`` for stochastic maskers; ``groups`` to offer groups),
``_explain`` building coalitions over ``self._n_players(d)`` players and
evaluating them with ``self._evaluate``, and ``_default_masker`` when
``None`` should not mean ``BaselineMasker("zero")``.
"""

import numpy as np
from sklearn.base import clone
from sklearn.frozen import FrozenEstimator
from sklearn.pipeline import Pipeline

from sklearn_xai.base import BaseExplainer, fit_model
from sklearn_xai.masking import (
    BaselineMasker,
    BaseMasker,
    check_groups,
    check_masker,
    encoding_step_index,
    onehot_groups,
)
from sklearn_xai.explainers._segmented import fit_segmentation, n_players
from sklearn_xai.utils._estimators import is_frozen, unfreeze
from sklearn_xai.utils._sklearn import StrOptions

# The ``groups`` parameter and ``groups_`` attribute, shared by the
# masker-based explainers' docstrings.
GROUPS_DOC = """
    groups : dict, list of lists, "onehot" or None, default=None
        The players of the game (see :ref:`feature-groups`).  ``None``: every
        column is a player.  A dict ``{name: columns}`` or a list of lists of
        columns (positions, or names of ``X``'s columns) that puts every
        column in exactly one group: a coalition keeps or removes whole
        groups and the attributions have one column per group, in the order
        given (named by :meth:`get_feature_names_out`).  ``"onehot"``: the
        one-hot blocks of a fitted Pipeline's preprocessing are the groups;
        ``estimator`` is then ``FrozenEstimator(pipeline)``, ``X`` holds the
        encoded rows (the output of the Pipeline's last ``ColumnTransformer``
        or ``OneHotEncoder`` step, dense) and the model explained is the
        rest of the Pipeline; a block is named by its source column, any
        other column is a group of its own."""

GROUPS_ATTRIBUTE_DOC = """
    groups_ : dict or None
        ``{name: ndarray of column positions}``, one entry per player, in the
        order of the attribution columns; ``None`` without groups."""


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
        "groups": [dict, list, tuple, StrOptions({"onehot"}), None],
    }

    def _default_masker(self):
        """The (unfitted) masker used when ``masker=None``."""
        return BaselineMasker("zero")

    def _masker(self):
        """The masker parameter, or the default when it is None (unfitted)."""
        return self._default_masker() if self.masker is None else self.masker

    def _groups_param(self):
        """The ``groups`` parameter (None for explainers without one)."""
        return getattr(self, "groups", None)

    def _fit_estimator(self, X, y, **fit_params):
        if not (isinstance(self._groups_param(), str) and self.groups == "onehot"):
            return super()._fit_estimator(X, y, **fit_params)
        # groups="onehot": X holds the encoded rows, so the Pipeline is used
        # as fitted and split after its encoding step.
        pipeline = unfreeze(self.estimator)
        k = encoding_step_index(pipeline) if isinstance(pipeline, Pipeline) else None
        if not is_frozen(self.estimator) or k is None or k == len(pipeline.steps) - 1:
            raise ValueError(
                "groups='onehot' reads the one-hot blocks from a fitted Pipeline "
                "whose preprocessing holds a ColumnTransformer or OneHotEncoder, "
                "followed by the model: pass estimator=FrozenEstimator(pipeline) "
                "and fit the explainer on the encoded rows, "
                "pipeline[:k + 1].transform(X_raw) for that step k; got "
                f"estimator={type(unfreeze(self.estimator)).__name__}"
                f"{'' if is_frozen(self.estimator) else ' (not frozen)'}. Or give "
                "the groups as a dict {name: [columns]}."
            )
        fit_model(self.estimator, X)  # a clear error if never fitted
        encoder = pipeline[: k + 1]
        self._onehot = onehot_groups(encoder)
        self._encoded_names = np.asarray(encoder.get_feature_names_out(), dtype=object)
        tail = pipeline[k + 1:]
        return FrozenEstimator(tail.steps[0][1] if len(tail.steps) == 1 else tail)

    def _fit_groups(self, n_features):
        """Set ``groups_`` and the group of each column from ``groups``."""
        groups = self._groups_param()
        self._feature_group = None
        if groups is None:
            self.groups_ = None
            return
        names = getattr(self, "feature_names_in_", None)
        if isinstance(groups, str):  # "onehot"
            encoded = self._encoded_names
            if n_features != len(encoded) or (
                    names is not None and not np.array_equal(names, encoded)):
                raise ValueError(
                    f"groups='onehot': the Pipeline's encoding gives {len(encoded)} "
                    f"columns ({list(encoded)[:4]}...), but X has {n_features}"
                    f"{'' if names is None else ' named ' + str(list(names)[:4])}. "
                    "Fit and explain the encoded rows: the output of the Pipeline's "
                    "last ColumnTransformer / OneHotEncoder step, as a dense array."
                )
            groups, names = self._onehot, None
        group_names, owner = check_groups(groups, n_features, names)
        self.groups_ = {name: np.flatnonzero(owner == g)
                        for g, name in enumerate(group_names)}
        self._feature_group = owner

    def _n_players(self, n_features):
        """Number of players: groups, or the ``n_features`` columns."""
        if getattr(self, "_segment_owner", None) is not None:  # segmentation=
            return n_players(self, n_features)
        groups = getattr(self, "groups_", None)
        return n_features if groups is None else len(groups)

    def _evaluate(self, f, X, keep, *, target_index, rngs, **kwargs):
        """``masker_.evaluate`` of coalitions ``keep`` (..., n_players):
        every column of a kept group is kept."""
        owner = getattr(self, "_feature_group", None)
        if owner is not None:
            keep = np.asarray(keep)[..., owner]
        return self.masker_.evaluate(f, X, keep, target_index=target_index,
                                     batch_size=self.batch_size, rngs=rngs, **kwargs)

    def _fit_explainer(self, X, y):
        masker = clone(self._masker())
        background = getattr(masker, "background", None)
        if getattr(self, "codec_", None) is not None and hasattr(background, "columns"):
            # A background given as raw rows is coded like the training rows.
            masker.set_params(background=self.codec_.encode(background).to_numpy())
        self._fit_groups(X.shape[1])
        fit_segmentation(self, X)
        self.masker_ = check_masker(masker, X)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.explainer_tags.raw_columns = self._masker().substitutes_values
        stochastic = not self._masker().is_deterministic
        tags.explainer_tags.stochastic = stochastic
        tags.non_deterministic = stochastic and getattr(self, "random_state", None) is None
        return tags
