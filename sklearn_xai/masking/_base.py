"""Base classes of maskers and perturbers, and their resolvers.

A masker answers one question for every explainer and metric of the toolkit:
given rows ``X`` and, for each row, coalitions ``keep`` of features that are
*kept*, what inputs does the model see?  :meth:`BaseMasker.impute` returns them
as an array of shape ``(n_rows, n_coalitions, n_draws, n_features)``;
:meth:`BaseMasker.evaluate` evaluates the explained output on them in bounded
batches and averages over the draws, giving the value function
``v_x(S) = E[f(x')]`` (see :ref:`def-value-function` in the user guide).

A perturber (:class:`BasePerturber`) draws noisy copies of rows in which some
features are held fixed (see :ref:`def-perturbation`).

Both learn what they need from *training* rows in :meth:`fit`.
:func:`check_masker` and :func:`check_perturber` are the one place that
decides how an explainer or a metric gets a fitted one: a fitted object is
used as is, an unfitted one is fitted on the training rows, and without
training rows only an object that learns nothing from data is set up (a
metric never fits one on the rows it scores: a row's score would then depend
on the other rows of its batch).
"""

import numbers
from abc import ABCMeta, abstractmethod

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.externals.array_api_compat import array_namespace
from sklearn.exceptions import NotFittedError
from sklearn.utils.validation import check_is_fitted, validate_data

from sklearn_xai.utils._config import check_allocation
from sklearn_xai.utils._docstring import Substitution, references
from sklearn_xai.utils._output import (
    ExplainedOutput,
    affine_output,
    block_slices,
    to_numpy,
)
from sklearn_xai.utils._random import check_streams
from sklearn_xai.utils._sklearn import validate_estimator_params
from sklearn_xai.utils._validation import affine_params

__all__ = ["BaseMasker", "BasePerturber", "check_masker", "check_perturber"]


class _FittedOnRows(BaseEstimator):
    """What maskers and perturbers share: fitting on training rows, or a
    set-up without rows for what needs no data, and the row checks.

    Subclasses implement :meth:`_fit` and, when what they learn can also be
    given without data, :meth:`_learns_from_rows` and :meth:`_fit_data_free`.
    """

    _parameter_constraints: dict = {}
    # Name of the object in messages ("masker.fit(X_train)").
    _kind = "masker"
    # Extra way out proposed when fitting without rows is refused.
    _without_rows_alternative = ""

    def fit(self, X, y=None):
        """Learn what the object needs from training rows.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training rows.
        y : None
            Ignored.

        Returns
        -------
        self : object
        """
        validate_estimator_params(self)
        X = validate_data(self, X, dtype=np.float64, reset=True)
        self._fit(X)
        return self

    def _fit(self, X):
        """Hook for subclasses; ``X`` is a validated float64 array."""

    def _learns_from_rows(self):
        """What :meth:`fit` learns from the rows (a phrase), or ``None`` when
        the parameters alone determine the fitted state."""
        return "its state"

    def _fit_data_free(self, n_features):
        """Hook: set the fitted attributes without rows (only called when
        :meth:`_learns_from_rows` is None)."""

    def _fit_without_rows(self, n_features):
        """Fit without data, for a metric that has no training rows.

        A metric never fits a masker or perturber on the rows it scores: what
        it learns would then depend on which other rows share the batch, and
        so would every row's score.  Objects whose fitted state follows from
        their parameters alone (a zero or given baseline, a given background,
        a known distribution, noise in input units) are set up here; the
        others raise a ``ValueError`` that says how to fit them.

        Parameters
        ----------
        n_features : int
            Number of features of the rows to mask or perturb.

        Returns
        -------
        self : object

        Raises
        ------
        ValueError
            When the object learns something from training rows.
        """
        validate_estimator_params(self)
        learns = self._learns_from_rows()
        if learns is not None:
            raise ValueError(
                f"The unfitted {self!r} needs training rows for {learns}, and a "
                "metric never fits it on the rows it scores (a row's score would "
                "depend on the other rows). Fit it on training rows: "
                f"{self._kind}.fit(X_train), or pass the metric X_train=<training "
                f"rows>{self._without_rows_alternative}."
            )
        self._fit_data_free(int(n_features))
        self.n_features_in_ = int(n_features)
        return self

    def _check_rows(self, X):
        """``X`` as a float64 2-D array with the fitted number of features."""
        check_is_fitted(self)
        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2 or X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has shape {X.shape}, but {type(self).__name__} was fitted on "
                f"{self.n_features_in_} features: pass rows of shape (n_rows, "
                f"{self.n_features_in_})."
            )
        return X


# --------------------------------------------------------------------------
# maskers
# --------------------------------------------------------------------------
class BaseMasker(_FittedOnRows, metaclass=ABCMeta):
    """Base class for maskers.

    Subclasses implement :meth:`_fit` (learn statistics from training rows),
    :meth:`_impute` and the :attr:`n_draws` property.  Optional hooks:

    * ``_learns_from_rows()`` / ``_fit_data_free(n_features)``: a masker
      whose parameters fix its state (e.g. a zero baseline) can be set up
      without training rows by :func:`check_masker`;
    * ``_draw_weights(X, keep)``: weights of the draws in the value function
      (default: their plain mean);
    * ``_expected_rows(X, keep)``: the exact mean of the imputed rows, which
      gives the values of an affine model in closed form (the default
      averages the draws of a deterministic masker).
    """

    #: Whether every imputed value of a feature is a value of that feature
    #: in some training (background) row, never a mean, a draw or a constant:
    #: such a masker also works on coded non-numeric columns (see
    #: :ref:`raw-dataframes`).
    substitutes_values = False

    @property
    @abstractmethod
    def n_draws(self):
        """Number of imputed copies per (row, coalition)."""

    def _draw_count(self):
        """Imputed copies per (row, coalition) of the fitted masker: what
        :meth:`evaluate` reshapes by (``n_draws`` unless a subclass resolves
        it at fit time)."""
        return self.n_draws

    @property
    def is_deterministic(self):
        """Whether :meth:`impute` ignores the random generators."""
        return True

    @abstractmethod
    def _impute(self, X, keep, rngs):
        """Return imputed rows of shape (n, m, n_draws, d); ``keep`` is (n, m, d).

        ``rngs`` is the rows' :class:`~sklearn_xai.utils.RowStreams` (``None``
        for a deterministic masker).  A masker draws from the rows'
        generators, ``rngs.generators()`` (a sub-stream of their own): the
        counter-based draws (``rngs.uniform(...)``, ``rngs.permutations(...)``)
        are left to the caller, an explainer or metric that draws its
        coalitions from the same streams, so the two stay independent.
        """

    def _draw_weights(self, X, keep):
        """Weights (n, m, n_draws) of the draws, summing to 1 over the draws,
        or ``None`` for their plain mean."""
        return None

    def _removed_values(self, X):
        """What a removed feature takes, for a masker that substitutes one
        value per feature and row (one draw, deterministic): an array of
        shape (d,) or (n, d) for the rows ``X``, or ``None``.

        A masker that gives it is imputed on the model's device by
        :meth:`evaluate` (``where(keep, x, values)``) when the model is a
        torch module; the others are imputed on the host.
        """
        return None

    def _expected_rows(self, X, keep):
        """Exact mean (n, m, d) of the imputed rows, or ``None`` if unknown."""
        if not self.is_deterministic:
            return None
        Z = self._impute(X, keep, None)
        weights = self._draw_weights(X, keep)
        if weights is None:
            return Z.mean(axis=2)
        return np.einsum("nmb,nmbd->nmd", weights, Z)

    def _check_keep(self, X, keep):
        keep = np.asarray(keep)
        if keep.dtype != bool:
            if not np.isin(keep, (0, 1)).all():
                raise ValueError("keep must be a boolean mask of kept features.")
            keep = keep.astype(bool)
        n, d = X.shape
        if keep.ndim == 1:
            keep = keep[None, :]
        if keep.ndim == 2:
            keep = np.broadcast_to(keep, (n,) + keep.shape)
        if keep.ndim != 3 or keep.shape[0] != n or keep.shape[2] != d:
            raise ValueError(
                f"keep must have shape (n_coalitions, {d}) or ({n}, n_coalitions, "
                f"{d}); got {keep.shape}."
            )
        return keep

    def _check_rngs(self, rngs, n_rows):
        if rngs is None:
            if not self.is_deterministic:
                raise ValueError(
                    f"{type(self).__name__} is stochastic: pass the rows' random "
                    "streams in rngs, sklearn_xai.utils.RowStreams(random_state, "
                    "row_keys(X))."
                )
            return
        check_streams(rngs, n_rows)

    def impute(self, X, keep, *, rngs=None, check_input=True):
        """Inputs the model sees when only the features in ``keep`` are known.

        Parameters
        ----------
        X : ndarray of shape (n_rows, n_features)
            The rows being explained or scored.
        keep : bool ndarray of shape (n_coalitions, n_features) or (n_rows, n_coalitions, n_features)
            ``True`` where the feature keeps its value in ``X``.
        rngs : RowStreams, optional
            The rows' random streams, a :class:`sklearn_xai.utils.RowStreams`
            over the rows of ``X`` (``RowStreams(random_state,
            row_keys(X))``); required by stochastic maskers, ignored by
            deterministic ones.  Row ``i``'s draws depend only on its stream.
        check_input : bool, default=True
            Validate the masker's state and the inputs.  Callers that already
            did (a fitted masker, float64 ``X`` with the fitted number of
            features, a boolean ``keep`` of shape (n_rows, n_coalitions,
            n_features)) may pass ``False`` to save the checks on every call.

        Returns
        -------
        Z : ndarray of shape (n_rows, n_coalitions, n_draws, n_features)
        """
        if not check_input:
            return self._impute(X, keep, rngs)
        X = self._check_rows(X)
        keep = self._check_keep(X, keep)
        self._check_rngs(rngs, X.shape[0])
        return self._impute(X, keep, rngs)

    def expected_rows(self, X, keep):
        """Exact mean of the imputed rows over the draws, when the masker knows it.

        For an affine model ``f(z) = w.z + c`` the value function is
        ``v_x(S) = f(E[x'])``, so ``expected_rows(X, keep) @ w + c`` gives
        it exactly, without calling the model: :meth:`evaluate` does so for
        an ``f`` exposing ``coef_`` and ``intercept_``.

        Parameters
        ----------
        X : ndarray of shape (n_rows, n_features)
        keep : bool ndarray, see :meth:`impute`

        Returns
        -------
        rows : ndarray of shape (n_rows, n_coalitions, n_features) or None
            ``None`` when the masker has no closed form (a stochastic masker
            without exact conditional means).
        """
        X = self._check_rows(X)
        return self._expected_rows(X, self._check_keep(X, keep))

    def evaluate(self, f, X, keep, *, target_index=None, batch_size=None, rngs=None,
                 include_x=False, raw=False):
        """Value function ``v_x(S)``: mean model output over the imputed rows.

        The rows' coalitions are evaluated in blocks of whole rows (all
        coalitions and draws of a row in the same model call).  When ``f``
        is affine (it exposes ``coef_`` and ``intercept_`` and no ``fit``)
        and the masker knows :meth:`expected_rows`, the values are computed
        in closed form without calling ``f``.  An
        :class:`~sklearn_xai.utils.ExplainedOutput` of a regressor whose
        predictions are ``X @ coef_ + intercept_`` (checked on a few of the
        rows, see :func:`~sklearn_xai.utils._output.affine_output`) counts as
        affine, so Shapley values of a linear model under an exact
        conditional masker are exact, not Monte-Carlo estimates.

        Parameters
        ----------
        f : callable
            ``f(Z, target_index) -> (len(Z),)``, typically an
            :class:`~sklearn_xai.utils.ExplainedOutput`.  ``raw=True`` needs
            its ``scores(Z)`` (every output of the model); with
            ``include_x=True`` an ``ExplainedOutput`` evaluates each block
            with :meth:`~sklearn_xai.utils.ExplainedOutput.blocks_with_x`.
        X : ndarray of shape (n_rows, n_features)
        keep : bool ndarray, see :meth:`impute`
        target_index : ndarray of shape (n_rows,) or None
            Class column of each row (``None`` for regression outputs; with
            ``include_x`` and an ``ExplainedOutput``, ``None`` explains the
            class ``f`` predicts at each row, read from the same model
            call).
        batch_size : int or None
            Maximum number of model rows per call, as in
            :func:`sklearn_xai.utils._output.block_slices`; ``None`` bounds
            a block to about ``BLOCK_ENTRIES`` (``2**17``) input entries.
            A block always holds whole rows (all coalitions and draws of a
            row, and ``x`` with ``include_x``), so a row with more model
            inputs than the bound is evaluated alone in a larger call.
            Values do not depend on it.  An ``ExplainedOutput`` evaluated
            with ``include_x`` uses its own ``batch_size``.
        rngs : RowStreams, optional
            The rows' random streams (see :meth:`impute`); required by
            stochastic maskers.
        include_x : bool, default=False
            Also evaluate ``f`` at ``X`` itself, in the same model call as
            the row's masked copies, and return it first.
        raw : bool, default=False
            Return the model's scores for every class, averaged over the
            draws, instead of the explained scalar.

        Returns
        -------
        values : ndarray of shape (n_rows, n_coalitions)
            Or (n_rows, n_coalitions, n_classes) with ``raw=True`` for a
            classifier.
        fx : ndarray of shape (n_rows,) or (n_rows, n_classes)
            Only with ``include_x=True``, returned as ``(fx, values)``.
        """
        X = self._check_rows(X)
        keep = self._check_keep(X, keep)
        n, m, d = keep.shape
        if not raw:
            if isinstance(f, ExplainedOutput) and not f.affine_checked:
                # A regressor that is affine (a linear model) is read through
                # its coefficients, whoever calls: explainers, metrics and
                # reference values share this closed form.
                f = affine_output(f, f.estimator, X)
            aff = affine_params(f, None, d)
            expected = None if aff is None else self._expected_rows(X, keep)
            if expected is not None:
                w, c = aff
                values = expected @ w + c
                return (X @ w + c, values) if include_x else values
        self._check_rngs(rngs, n)
        b = self._draw_count()
        if b > 1:  # a model call holds whole rows: all coalitions and draws of a row
            check_allocation(m * b * d,
                             what=f"the {m} coalition(s) x {b} draw(s) of one row",
                             parameter="n_draws", value=b)
        if target_index is not None:
            target_index = np.asarray(target_index)

        def imputed(sl):
            return self._impute(X[sl], keep[sl], None if rngs is None else rngs[sl])

        def generic_blocks():
            """(sl, None, f at X[sl] or None, f of the imputed rows (c, m * b))."""
            per_row = m * b + (1 if include_x else 0)
            for sl in block_slices(n, per_row, d, batch_size,
                                   getattr(f, "device", None)):
                c = len(X[sl])
                Z = imputed(sl).reshape(c * m * b, d)
                if include_x:
                    buf = np.empty((c + c * m * b, d))
                    buf[:c] = X[sl]
                    buf[c:] = Z
                else:
                    buf = Z
                if raw:
                    out = np.asarray(f.scores(buf), dtype=np.float64)
                else:
                    t = None
                    if target_index is not None:
                        t = np.repeat(target_index[sl], m * b)
                        if include_x:
                            t = np.concatenate([target_index[sl], t])
                    out = np.asarray(f(buf, t), dtype=np.float64).reshape(-1)
                    if out.shape != (len(buf),):
                        raise ValueError(
                            f"f must return one value per row; got {out.size} "
                            f"values for {len(buf)} rows."
                        )
                k = c if include_x else 0
                yield (sl, None, out[:c] if include_x else None,
                       out[k:].reshape((c, m * b) + out.shape[1:]))

        # The device path (a torch model on an accelerator, see
        # ExplainedOutput.device_path): a masker with one removed value per
        # feature imputes, and the model's scores are averaged and selected,
        # on the model's device, block by block; only (rows x coalitions)
        # values come back.
        on_device = (b == 1 and isinstance(f, ExplainedOutput) and f.device_path
                     and type(self)._removed_values is not BaseMasker._removed_values
                     # without x, a class must be given (or none needed): the
                     # predicted class of each masked copy is the host's rule
                     and (include_x or raw or target_index is not None
                          or f.output == "predict"))
        if on_device:
            import torch

            def build(sl, out):
                Xs = f.as_tensor(X[sl])
                fill = f.as_tensor(self._removed_values(X[sl]))
                kept = torch.as_tensor(np.ascontiguousarray(keep[sl]),
                                       device=out.device)
                torch.where(kept, Xs[:, None, :],
                            fill if fill.ndim == 1 else fill[:, None, :],
                            out=out)

            def device_blocks():
                """(sl, t, None, scores of the masked rows (c, m[, k])) on
                the device: the blocks of :func:`generic_blocks`."""
                for sl in block_slices(n, m, d, batch_size, f.device):
                    c = len(X[sl])
                    buf = torch.empty((c, m, d), dtype=f.torch_dtype,
                                      device=f.device)
                    build(sl, buf)
                    out = f.scores_tensor(buf.reshape(c * m, d))
                    t = None if target_index is None else f.as_tensor(
                        target_index[sl], dtype=torch.int64)
                    yield sl, t, None, out.reshape((c, m) + tuple(out.shape[1:]))

            if include_x:
                blocks = f.blocks_with_x(X, m, build, target_index=target_index,
                                         on_device=True)
            else:
                blocks = device_blocks()
            select = not raw
        elif include_x and hasattr(f, "blocks_with_x"):
            def build(sl, out):
                out[...] = imputed(sl).reshape(out.shape)

            blocks = f.blocks_with_x(X, m * b, build, target_index=target_index)
            select = not raw  # scores: averaged over the draws, then selected
        else:
            blocks, select = generic_blocks(), False
        fx = values = None
        for sl, t, out_x, out_z in blocks:
            c = out_z.shape[0]
            out_z = _average(out_z.reshape((c, m, b) + tuple(out_z.shape[2:])),
                             self._draw_weights(X[sl], keep[sl]))
            if select:
                out_z = f.select(out_z, t)
                if include_x:
                    out_x = f.select(out_x, t)
            if on_device:  # (rows x coalitions) values back to the host
                out_z = to_numpy(out_z)
                if include_x:
                    out_x = to_numpy(out_x)
            if values is None:
                values = np.empty((n,) + out_z.shape[1:])
                fx = np.empty((n,) + out_x.shape[1:]) if include_x else None
            values[sl] = out_z
            if include_x:
                fx[sl] = out_x
        if values is None:  # no rows
            values, fx = np.empty((0, m)), np.empty(0)
        return (fx, values) if include_x else values


def _average(values, weights):
    """Mean over the draws (axis 2) of (c, m, b[, k]) values (a numpy array
    or a tensor on the model's device), or their weighted sum with
    ``weights`` (c, m, b; host values only)."""
    if weights is None:
        if values.shape[2] == 1:
            return values[:, :, 0]
        return array_namespace(values).mean(values, axis=2)
    if values.ndim == 3:
        return np.einsum("cmb,cmb->cm", weights, values)
    return np.einsum("cmb,cmbk->cmk", weights, values)


# --------------------------------------------------------------------------
# perturbers
# --------------------------------------------------------------------------
@Substitution(masker_references=references("agarwal2022"))
class BasePerturber(_FittedOnRows, metaclass=ABCMeta):
    """Base class for perturbers: noisy copies of rows, some features fixed.

    Unlike a masker, a perturber does not define a value function: it draws
    neighbours of each row (OpenXAI's PGI / PGU and the relative-stability
    metrics use them).  Subclasses implement :meth:`_fit` and
    ``_perturb(X, fixed, n_perturbations, rngs)``, returning an array of shape
    (n_rows, n_masks, n_perturbations, n_features) for validated rows ``X``, a
    boolean ``fixed`` of shape (n_rows, n_masks, n_features) and the rows'
    random streams (a :class:`~sklearn_xai.utils.RowStreams`, drawn from
    vectorised or through ``rngs.generators()``); the same draws should serve every mask of a row.
    Like maskers they may implement ``_learns_from_rows`` and
    ``_fit_data_free`` to be usable without training rows.

    {masker_references}
    """

    _kind = "perturber"

    @abstractmethod
    def _perturb(self, X, fixed, n_perturbations, rngs):
        """Perturbed rows (n, m, n_perturbations, d) for fixed masks (n, m, d)."""

    def perturb(self, X, keep_fixed_mask, n_perturbations=None, rngs=None):
        """Draw ``n_perturbations`` noisy copies of each row.

        Parameters
        ----------
        X : array-like of shape (n_rows, n_features)
            Rows to perturb.
        keep_fixed_mask : bool array-like of shape (n_features,), (n_rows, n_features) or (n_rows, n_masks, n_features)
            ``True`` where a feature keeps its value.  With several masks per
            row the same random draws are used for every mask.
        n_perturbations : int
            Number of perturbed copies per row (and mask).
        rngs : RowStreams
            The rows' random streams, a :class:`sklearn_xai.utils.RowStreams`
            over the rows of ``X`` (``RowStreams(random_state,
            row_keys(X))``); row ``i``'s copies depend only on ``X[i]`` and
            its stream.

        Returns
        -------
        Z : ndarray of shape (n_rows, n_perturbations, n_features)
            Or ``(n_rows, n_masks, n_perturbations, n_features)`` for 3-D
            masks.
        """
        X = self._check_rows(X)
        n, d = X.shape
        if isinstance(n_perturbations, bool) \
                or not isinstance(n_perturbations, numbers.Integral) \
                or n_perturbations < 1:
            raise ValueError(
                f"n_perturbations must be a positive int; got {n_perturbations!r}."
            )
        check_streams(rngs, n)
        fixed = np.asarray(keep_fixed_mask)
        if fixed.dtype != bool:
            if not np.isin(fixed, (0, 1)).all():
                raise ValueError("keep_fixed_mask must be a boolean mask.")
            fixed = fixed.astype(bool)
        squeeze = fixed.ndim < 3
        if fixed.ndim == 1:
            fixed = fixed[None, :]
        if fixed.ndim == 2 and fixed.shape[0] in (1, n) and fixed.shape[1] == d:
            fixed = np.broadcast_to(fixed, (n, d))[:, None, :]
        if fixed.ndim != 3 or fixed.shape[0] != n or fixed.shape[2] != d:
            raise ValueError(
                f"keep_fixed_mask must have shape ({d},), ({n}, {d}) or ({n}, "
                f"n_masks, {d}); got {np.shape(keep_fixed_mask)}."
            )
        Z = self._perturb(X, fixed, int(n_perturbations), rngs)
        return Z[:, 0] if squeeze else Z


# --------------------------------------------------------------------------
# resolvers
# --------------------------------------------------------------------------
def _unfitted_copy(obj):
    """A new unfitted instance with the same parameters.

    Unlike :func:`sklearn.base.clone` the parameter values are shared, not
    deep-copied: fitting never modifies them, and a distribution keeps its
    cache of conditional blocks.
    """
    return type(obj)(**obj.get_params(deep=False))


def _resolve(obj, X, n_features, *, default, base, examples):
    """The body of :func:`check_masker` and :func:`check_perturber`.

    Parameters
    ----------
    obj : instance of ``base`` or None
        The masker or perturber given; None uses ``default``.
    X : array-like of shape (n_samples, n_features) or None
        Training rows to fit an unfitted ``obj`` on.
    n_features : int or None
        Number of features of the rows ``obj`` will see.
    default : instance of ``base`` or None
        Used when ``obj`` is None.
    base : {BaseMasker, BasePerturber}
        The class ``obj`` must be an instance of; its ``_kind`` names the
        parameter in the error messages.
    examples : str
        Instances to suggest when ``obj`` is of another type.

    Returns
    -------
    obj : fitted instance of ``base``
        As is when fitted, else a copy fitted on ``X`` or set up without
        rows.
    """
    kind = base._kind
    if obj is None:
        obj = default
    if not isinstance(obj, base):
        raise TypeError(
            f"{kind} must be a sklearn_xai {kind} such as {examples}; got "
            f"{type(obj).__name__}."
        )
    try:
        check_is_fitted(obj)
    except NotFittedError:
        if X is not None:
            shape = np.shape(X)
            if n_features is not None and len(shape) == 2 and shape[1] != n_features:
                raise ValueError(
                    f"X_train has {shape[1]} features but X has {n_features}."
                ) from None
            return _unfitted_copy(obj).fit(X)
        if n_features is None:
            raise ValueError(
                f"{type(obj).__name__} is not fitted and no data was given to "
                f"fit it; call {kind}.fit(X_train) first."
            ) from None
        return _unfitted_copy(obj)._fit_without_rows(n_features)
    if n_features is not None and obj.n_features_in_ != n_features:
        raise ValueError(
            f"{kind} was fitted on {obj.n_features_in_} features but X has "
            f"{n_features}."
        )
    return obj


def check_masker(masker, X=None, *, default=None, n_features=None):
    """Return a fitted masker, never fitted on the rows being scored.

    Parameters
    ----------
    masker : BaseMasker or None
        A fitted masker is used as is; an unfitted one is copied and fitted
        on ``X``; ``None`` uses ``default``.  Without ``X``, an unfitted
        masker whose parameters fix its state (``BaselineMasker("zero")``, a
        given baseline or background array, a ``ConditionalMasker`` of a
        known distribution) is set up without rows, and one that learns from
        data (a mean, median, background sample or fitted distribution)
        raises a ``ValueError`` saying how to fit it.
    X : array-like of shape (n_samples, n_features), optional
        Training rows to fit an unfitted masker on.
    default : BaseMasker, optional
        Masker used when ``masker`` is None.
    n_features : int, optional
        Number of features of the rows the masker will see: checked against
        a fitted masker and ``X``, and needed to set a masker up without
        rows.

    Returns
    -------
    masker : fitted BaseMasker

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.masking import BaselineMasker, check_masker
    >>> X_train = np.array([[1.0, 2.0], [3.0, 4.0]])
    >>> check_masker(BaselineMasker("mean"), X_train).baseline_.tolist()
    [2.0, 3.0]
    >>> check_masker(None, default=BaselineMasker("zero"), n_features=2).baseline_.tolist()
    [0.0, 0.0]
    """
    return _resolve(masker, X, n_features, default=default, base=BaseMasker,
                    examples="BaselineMasker('zero') or MarginalMasker()")


def check_perturber(perturber, X=None, *, default=None, n_features=None):
    """Return a fitted perturber, never fitted on the rows being scored.

    Parameters
    ----------
    perturber : BasePerturber or None
        A fitted perturber is used as is; an unfitted one (or ``default``
        for None) is copied and fitted on ``X``; without ``X`` it is set up
        without data (for :class:`GaussianNoisePerturber`: noise in input
        units and only the listed binary columns), or a ``ValueError`` says
        what needs training rows.
    X : array-like of shape (n_samples, n_features), optional
        Training rows to fit an unfitted perturber on.
    default : BasePerturber, optional
        Perturber used when ``perturber`` is None.
    n_features : int, optional
        Number of features of the rows to perturb: checked against a fitted
        perturber and ``X``, and needed to set one up without rows.

    Returns
    -------
    perturber : fitted BasePerturber

    Examples
    --------
    >>> from sklearn_xai.masking import GaussianNoisePerturber, check_perturber
    >>> p = check_perturber(GaussianNoisePerturber(0.1, sigma_scale="absolute",
    ...                                            binary_features=None), n_features=2)
    >>> p.scale_.tolist()
    [0.1, 0.1]
    """
    return _resolve(perturber, X, n_features, default=default, base=BasePerturber,
                    examples="sklearn_xai.masking.GaussianNoisePerturber(0.1)")
