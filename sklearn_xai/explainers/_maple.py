"""MAPLE: a forest-weighted local linear model (Plumb et al. 2018; XAI-Bench)."""

import numbers

import numpy as np
import scipy.sparse as sp
from sklearn.ensemble import RandomForestRegressor
from sklearn.utils.validation import check_is_fitted, validate_data

from sklearn_xai.base import BaseExplainer
from sklearn_xai.explainers._docstring import explainer_doc
from sklearn_xai.explainers._surrogate import weighted_ridge
from sklearn_xai.utils import check_allocation, seed_entropy
from sklearn_xai.utils._output import block_slices
from sklearn_xai.utils._random import purpose_generator
from sklearn_xai.utils._sklearn import Interval, StrOptions

__all__ = ["MAPLE"]


@explainer_doc("explainer_output_params", "input_attributes", "regression_example",
               references=("plumb2018", "liu2021"))
class MAPLE(BaseExplainer):
    """MAPLE: local ridge regression of ``f`` on training rows weighted by a
    random forest's leaf co-occurrence (Plumb et al. 2018).

    In :meth:`fit`, a random forest (``n_estimators`` trees,
    ``min_samples_leaf``, ``max_features``) is fitted on
    ``(X_train, f(X_train))``.  For a query ``x`` the weight of training row
    ``i`` is

    ``w_i(x) = (1/T) sum_t 1[leaf_t(x_i) = leaf_t(x)] / |leaf_t(x)|``,

    with ``|leaf_t(x)|`` the number of training rows in ``x``'s leaf of tree
    ``t`` (the weights sum to one).  A ridge regression with intercept and
    penalty ``alpha`` of ``f`` on the training rows with weights ``w(x)``
    gives local coefficients ``beta(x)``, and the attribution is
    ``a_j = beta_j (x_j - mean_j)`` with ``mean`` the training mean
    (XAI-Bench's ``multiply_by_input=True``).

    For classifiers the forest is fitted on the outputs of all classes at
    once (one multi-output forest, so the weights do not depend on the
    class) and the local regression uses the row's target class.  The model
    is evaluated only in :meth:`fit`; :meth:`transform` needs no model call
    (besides choosing the predicted class).  Weights of a block of rows are
    one sparse matrix product and their ridge problems are solved together.

    ``convention="xai_bench_code"`` follows the MAPLE of XAI-Bench's code
    (``custom_explainers/maple.py``, the path every model there takes) and of
    Plumb et al.'s reference implementation, which select features:

    - the forest and the local regressions use a random 80 % of the training
      rows; the other 20 % are a validation set;
    - each feature scores the root impurity of the trees whose root splits on
      it (``feature_scores_``);
    - for ``k = 1, ..., d`` the ``k`` best-scoring features are kept, the
      local regression of every validation row is fitted on them and
      predicts that row; the ``k`` of the lowest root-mean-squared error
      (the first on ties) is kept (``support_``), and the other features'
      coefficients, hence attributions, are zero;
    - the weights sum over trees without the ``1/T`` factor, so the ridge
      penalty is ``alpha / n_estimators`` in the normalised weights used
      here;
    - ``mean_`` is still the mean of all training rows.

    XAI-Bench also has a "tree MAPLE" that uses a tree-ensemble model as its
    own forest, but its type test names module paths scikit-learn 0.24 no
    longer has, so its runs never took it; it is not reproduced.

    Parameters
    ----------
    estimator : estimator
        The model to explain (``FrozenEstimator(model)`` for a fitted one).
    n_estimators : int, default=200
        Trees of the weighting forest.
    min_samples_leaf : int, default=10
        Minimum leaf size of the forest.
    max_features : float or int, default=0.5
        Features considered per split (``RandomForestRegressor``).
    alpha : float, default=0.001
        Ridge penalty of the local regressions.
    convention : {"paper", "xai_bench_code"}, default="paper"
        ``"paper"``: every feature, all training rows, weights summing to
        one.  ``"xai_bench_code"``: the feature selection of XAI-Bench's code
        (see above), which its published MAPLE results come from.
    {explainer_output_params}
    random_state : int, RandomState instance or None, default=None
        Seeds the forest and, with ``convention="xai_bench_code"``, the
        validation split.

    Attributes
    ----------
    estimator_ : estimator
        The fitted model.
    forest_ : RandomForestRegressor
        The weighting forest.
    X_train_ : ndarray of shape (n_train, n_features)
        Training rows of the local regressions (80 % of the rows passed to
        :meth:`fit` with ``convention="xai_bench_code"``).
    y_train_ : ndarray of shape (n_train, n_outputs)
        Explained output at the training rows (one column per class).
    mean_ : ndarray of shape (n_features,)
        Mean of the rows passed to :meth:`fit`.
    feature_scores_ : ndarray of shape (n_features,)
        Root impurity of the trees whose root splits on each feature.
    support_ : ndarray of bool of shape (n_features,)
        Features of the local regressions (all with ``convention="paper"``).
    validation_rmse_ : ndarray of shape (n_features,) or None
        With ``convention="xai_bench_code"``, the validation error of keeping
        the ``k = 1, ..., d`` best-scoring features; ``None`` otherwise.
    {input_attributes}

    {explainer_references}

    Examples
    --------
    {regression_example}
    >>> from sklearn_xai.explainers import MAPLE
    >>> X = np.random.default_rng(0).normal(size=(200, 2))
    >>> ex = MAPLE(LinearRegression(), n_estimators=20, random_state=0)
    >>> A = ex.fit(X, X @ [2.0, -1.0]).transform([[1.0, 1.0]])
    >>> bool(np.allclose(A, [[2.0, -1.0]] * (1.0 - X.mean(axis=0)), rtol=0.05))
    True
    """

    _parameter_constraints = {
        **BaseExplainer._parameter_constraints,
        "n_estimators": [Interval(numbers.Integral, 1, None, closed="left")],
        "min_samples_leaf": [Interval(numbers.Integral, 1, None, closed="left")],
        "max_features": [
            Interval(numbers.Real, 0, 1, closed="right"),
            Interval(numbers.Integral, 1, None, closed="left"),
        ],
        "alpha": [Interval(numbers.Real, 0, None, closed="left")],
        "convention": [StrOptions({"paper", "xai_bench_code"})],
    }

    def __init__(self, estimator=None, *, n_estimators=200, min_samples_leaf=10,
                 max_features=0.5, alpha=0.001, convention="paper",
                 target="predicted", output="auto", batch_size=None, random_state=None):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.min_samples_leaf = min_samples_leaf
        self.max_features = max_features
        self.alpha = alpha
        self.convention = convention
        self.target = target
        self.output = output
        self.batch_size = batch_size
        self.random_state = random_state

    def _fit_estimator(self, X, y, **fit_params):
        # Before the model is trained: the forest's leaf memberships hold
        # one entry per (training row, tree), in five arrays of 8 bytes.
        n_rows = (X.shape if hasattr(X, "shape") else np.asarray(X).shape)[0]
        check_allocation(5 * n_rows * self.n_estimators,
                         what=f"the leaf memberships of {n_rows} training rows "
                         "in every tree", parameter="n_estimators",
                         value=self.n_estimators)
        return super()._fit_estimator(X, y, **fit_params)

    def _fit_explainer(self, X, y):
        Y = self._output().all_outputs(X)
        self.mean_ = X.mean(axis=0)
        code = self.convention == "xai_bench_code"
        if code:
            n_val = int(np.ceil(0.2 * X.shape[0]))  # train_test_split(test_size=0.2)
            if n_val < 1 or X.shape[0] - n_val < 1:
                raise ValueError(
                    'MAPLE(convention="xai_bench_code") holds out 20 % of the '
                    f"training rows for validation; got n_samples = {X.shape[0]}: "
                    "pass at least 2 rows."
                )
            order = purpose_generator(self.random_state, 1).permutation(X.shape[0])
            X_val, Y_val = X[order[:n_val]], Y[order[:n_val]]
            X, Y = X[order[n_val:]], Y[order[n_val:]]
        seed = seed_entropy(self.random_state) % (2**32)
        self.forest_ = RandomForestRegressor(
            n_estimators=self.n_estimators,
            min_samples_leaf=self.min_samples_leaf,
            max_features=self.max_features,
            random_state=seed,
        ).fit(X, Y[:, 0] if Y.shape[1] == 1 else Y)
        self.X_train_ = X.copy()
        self.y_train_ = Y
        # Leaf membership of the training rows as one sparse matrix whose
        # column (tree t, leaf l) holds 1/|leaf| for the rows in that leaf.
        node_counts = [tree.tree_.node_count for tree in self.forest_.estimators_]
        self._node_offsets = np.concatenate([[0], np.cumsum(node_counts)[:-1]])
        n_columns = int(np.sum(node_counts))
        cols = (self.forest_.apply(X) + self._node_offsets).ravel()
        sizes = np.bincount(cols, minlength=n_columns)
        rows = np.repeat(np.arange(X.shape[0]), len(node_counts))
        self._leaf_matrix = sp.csr_matrix(
            (1.0 / sizes[cols], (rows, cols)), shape=(X.shape[0], n_columns)
        )
        d = X.shape[1]
        self.feature_scores_ = np.zeros(d)
        for tree in self.forest_.estimators_:
            if tree.tree_.feature[0] >= 0:  # a root that splits
                self.feature_scores_[tree.tree_.feature[0]] += tree.tree_.impurity[0]
        self.support_ = np.ones(d, dtype=bool)
        self.validation_rmse_ = None
        if code:
            ranked = np.argsort(-self.feature_scores_, kind="stable")
            self.validation_rmse_ = self._validation_rmse(X_val, Y_val, ranked)
            k_best = int(np.argmin(self.validation_rmse_)) + 1  # first minimum
            self.support_ = np.isin(np.arange(d), ranked[:k_best])

    def _alpha(self):
        # XAI-Bench's weights sum to the number of trees, ours to one.
        if self.convention == "xai_bench_code":
            return self.alpha / self.n_estimators
        return self.alpha

    def _local_fits(self, X, y_columns, support):
        """Local ridge fits of the rows ``X`` on the features ``support``,
        response column ``y_columns[i]`` for row ``i``, in row blocks."""
        n = X.shape[0]
        coef = np.empty((n, int(support.sum())))
        intercept = np.empty(n)
        Z = self.X_train_[None][:, :, support]
        for block in block_slices(n, self.X_train_.shape[0], X.shape[1]):
            coef[block], intercept[block] = weighted_ridge(
                Z, self.y_train_[:, y_columns[block]].T, self._weights(X[block]),
                self._alpha())
        return coef, intercept

    def _validation_rmse(self, X_val, Y_val, ranked):
        """Root-mean-squared error (over every output column) of the local
        models' predictions at the validation rows, keeping the ``k = 1..d``
        best-ranked features; each block's weights serve every ``k``."""
        n, d = X_val.shape
        supports = [np.isin(np.arange(d), ranked[:k]) for k in range(1, d + 1)]
        squared = np.zeros(d)
        for block in block_slices(n, self.X_train_.shape[0], d):
            W = self._weights(X_val[block])
            for k, support in enumerate(supports):
                Z = self.X_train_[None][:, :, support]
                for column in range(Y_val.shape[1]):
                    coef, intercept = weighted_ridge(
                        Z, self.y_train_[None, :, column], W, self._alpha())
                    pred = intercept + np.einsum("nd,nd->n", X_val[block][:, support], coef)
                    squared[k] += np.sum((pred - Y_val[block, column]) ** 2)
        return np.sqrt(squared / (n * Y_val.shape[1]))

    def _weights(self, X):
        leaves = (self.forest_.apply(X) + self._node_offsets).ravel()
        n, T = X.shape[0], len(self._node_offsets)
        query = sp.csr_matrix(
            (np.full(n * T, 1.0 / T), (np.repeat(np.arange(n), T), leaves)),
            shape=(n, self._leaf_matrix.shape[1]),
        )
        return np.asarray((query @ self._leaf_matrix.T).toarray())

    def local_weights(self, X):
        """Weights of the training rows in the local regression of each row.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        weights : ndarray of shape (n_samples, n_train)
            ``w_i(x)`` of the class docstring; each row sums to one.
        """
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return self._weights(X)

    def _explain(self, X, f, target_index, rngs):
        n, d = X.shape
        columns = (
            np.zeros(n, dtype=np.intp) if target_index is None
            else np.asarray(target_index, dtype=np.intp)
        )
        coef = np.zeros((n, d), dtype=np.float64)
        coef[:, self.support_], _ = self._local_fits(X, columns, self.support_)
        return coef * (X - self.mean_)
