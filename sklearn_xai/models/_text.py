"""Text classifiers that take token-id matrices.

A text batch is a float matrix of token ids ``(n_samples, max_len)``,
right-padded with the PAD id (see :class:`sklearn_xai.datasets.TokenCodec`).
Two kinds of model read it:

* :class:`TokenIdClassifier` wraps a scikit-learn text classifier (a
  ``Pipeline`` of ``TfidfVectorizer`` / ``CountVectorizer`` and a linear
  model or gradient boosting): the ids are decoded to strings by the codec
  (PAD dropped) before the wrapped model sees them;
* :class:`TextNetClassifier` is a skorch net with an embedding layer, a 1-D
  CNN (:class:`TextCNN`) or a tiny transformer encoder
  (:class:`TinyTransformer`), whose ``module_.embedding`` the embedding
  gradient explainers differentiate.
"""

import numbers

import numpy as np
import torch
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted
from torch import nn

from sklearn_xai.models._estimators import _NetClassifier, _net_doc
from sklearn_xai.utils._sklearn import (
    HasMethods,
    Interval,
    StrOptions,
    validate_estimator_params,
)

__all__ = ["TextCNN", "TextNetClassifier", "TinyTransformer", "TokenIdClassifier"]


def _ids(X):
    """Long token ids of a float id batch, shape (n, L)."""
    return X.reshape(X.shape[0], -1).round().long()


class TextCNN(nn.Module):
    """Embedding, one 1-D convolution with ReLU, max-pooling over positions
    and a linear layer (Kim 2014 with one filter width).

    Parameters
    ----------
    n_features : int
        Sequence length (number of token positions).
    n_outputs : int
        Number of logits.
    vocab_size : int
        Number of token ids.
    embedding_dim : int, default=16
    n_filters : int, default=16
    kernel_size : int, default=3
    pad_id : int, default=0
        The padding id, whose embedding is fixed at zero.
    """

    def __init__(self, n_features, n_outputs, vocab_size, embedding_dim=16,
                 n_filters=16, kernel_size=3, pad_id=0):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embedding_dim, padding_idx=pad_id)
        self.conv = nn.Conv1d(embedding_dim, n_filters, kernel_size,
                              padding=kernel_size // 2)
        self.relu = nn.ReLU()
        self.out = nn.Linear(n_filters, n_outputs)

    def forward(self, X):
        return self.forward_embedded(self.embedding(_ids(X)))

    def forward_embedded(self, E):
        """Logits from the embedded sequence ``E`` of shape (n, L, embedding_dim)."""
        H = self.relu(self.conv(E.transpose(1, 2)))
        return self.out(H.amax(dim=2))


class TinyTransformer(nn.Module):
    """Embedding plus learned positions, a small transformer encoder (PAD
    positions masked out of attention) and a linear layer on the mean of
    the non-PAD positions.

    Parameters
    ----------
    n_features : int
        Sequence length (number of token positions).
    n_outputs : int
        Number of logits.
    vocab_size : int
        Number of token ids.
    embedding_dim : int, default=16
    n_heads : int, default=2
    n_layers : int, default=1
    dim_feedforward : int, default=32
    pad_id : int, default=0
        The padding id: its embedding is fixed at zero and its positions are
        ignored by attention and pooling (a row of PAD only is pooled over
        all positions).
    """

    def __init__(self, n_features, n_outputs, vocab_size, embedding_dim=16, n_heads=2,
                 n_layers=1, dim_feedforward=32, pad_id=0):
        super().__init__()
        self.pad_id = pad_id
        self.embedding = nn.Embedding(vocab_size, embedding_dim, padding_idx=pad_id)
        self.position = nn.Parameter(torch.randn(n_features, embedding_dim) * 0.1)
        layer = nn.TransformerEncoderLayer(embedding_dim, n_heads, dim_feedforward,
                                           dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, n_layers,
                                             enable_nested_tensor=False)
        self.out = nn.Linear(embedding_dim, n_outputs)

    def forward(self, X):
        ids = _ids(X)
        return self.forward_embedded(self.embedding(ids), ids == self.pad_id)

    def forward_embedded(self, E, pad=None):
        """Logits from the embedded sequence ``E`` (n, L, embedding_dim) and
        its PAD positions ``pad`` (n, L) boolean."""
        if pad is None:
            pad = torch.zeros(E.shape[:2], dtype=torch.bool, device=E.device)
        pad = pad & ~pad.all(dim=1, keepdim=True)  # an all-PAD row attends everywhere
        H = self.encoder(E + self.position[: E.shape[1]], src_key_padding_mask=pad)
        keep = (~pad).to(H.dtype).unsqueeze(2)
        pooled = (H * keep).sum(dim=1) / keep.sum(dim=1).clamp(min=1.0)
        return self.out(pooled)


_TEXT_MODULES = {"cnn": TextCNN, "transformer": TinyTransformer}


@_net_doc("classifier_attributes", params=("1e-2", 30, 64))
class TextNetClassifier(_NetClassifier):
    """A small torch text classifier on token-id matrices (skorch).

    ``X`` holds token ids, right-padded with ``pad_id`` (the output of
    :meth:`sklearn_xai.datasets.TokenCodec.transform`); the module embeds
    them (``module_.embedding``, the layer the embedding gradient explainers
    of :mod:`sklearn_xai.explainers` differentiate) and returns logits:
    ``"cnn"`` is :class:`TextCNN`, ``"transformer"`` :class:`TinyTransformer`.

    Parameters
    ----------
    module : torch module class or instance, default=None
        ``None`` uses the module named by ``architecture``.
    architecture : {"cnn", "transformer"}, default="cnn"
    vocab_size : int, default=None
        Number of token ids (``len(codec.tokens_)``); ``None`` takes the
        largest id seen in ``fit`` plus one, so ids unseen in training must
        not occur later.
    pad_id : int, default=0
    {net_params}

    {classifier_attributes}

    Examples
    --------
    >>> from sklearn_xai.datasets import make_text_classification
    >>> from sklearn_xai.models import TextNetClassifier
    >>> data = make_text_classification(200, random_state=0)
    >>> net = TextNetClassifier(vocab_size=len(data.codec.tokens_), max_epochs=5,
    ...                         random_state=0).fit(data.data, data.target)
    >>> net.predict_proba(data.data[:2]).shape
    (2, 2)
    """

    _parameter_constraints = {
        **_NetClassifier._parameter_constraints,
        "architecture": [StrOptions(set(_TEXT_MODULES))],
        "vocab_size": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "pad_id": [Interval(numbers.Integral, 0, None, closed="left")],
    }

    def __init__(self, module=None, *, architecture="cnn", vocab_size=None, pad_id=0,
                 lr=1e-2, max_epochs=30, batch_size=64, **kwargs):
        self.architecture = architecture
        self.vocab_size = vocab_size
        self.pad_id = pad_id
        super().__init__(module, lr=lr, max_epochs=max_epochs, batch_size=batch_size,
                         **kwargs)

    def _prepare_fit_data(self, X, y, *, reset, classes=None):
        X, y = super()._prepare_fit_data(X, y, reset=reset, classes=classes)
        if reset:
            self.vocab_size_ = (int(self.vocab_size) if self.vocab_size is not None
                                else int(np.max(X, initial=self.pad_id)) + 1)
        return X, y

    def _module_class(self):
        if self.module is not None:
            return self.module
        self._check_training_params()
        return _TEXT_MODULES[self.architecture]

    def _module_defaults(self):
        if self.module is not None:
            return {}
        return {"vocab_size": self.vocab_size_, "pad_id": self.pad_id}


def _estimator_has(name):
    def check(self):
        est = getattr(self, "estimator_", None)
        if est is None:
            est = LogisticRegression if self.estimator is None else self.estimator
        return hasattr(est, name)
    return check


class TokenIdClassifier(ClassifierMixin, BaseEstimator):
    """A scikit-learn text classifier fed with token-id matrices.

    ``codec.inverse_transform`` turns each row of ids into a string (tokens
    joined by spaces, PAD dropped, so a token replaced by PAD is removed
    from the text).  With ``vectorizer="tfidf"`` or ``"count"`` the model
    is the pipeline ``TfidfVectorizer`` / ``CountVectorizer`` (splitting on
    white space as the codec does: ``token_pattern=r"\S+"``,
    ``lowercase=False``) then ``estimator`` (a linear model, gradient
    boosting, ...); with ``vectorizer=None``, ``estimator`` reads the
    strings itself (a whole text ``Pipeline``).  Every explainer, masker
    and metric then works on the ids: a token is removed by setting it to
    the PAD id, masked by the MASK id (an unknown word to the vectorizer).

    Parameters
    ----------
    estimator : estimator, default=None
        The classifier; ``None`` is ``LogisticRegression()``.
    codec : TokenCodec
        A fitted :class:`sklearn_xai.datasets.TokenCodec` (any object with
        ``inverse_transform(ids) -> list of str``); in a benchmark spec,
        ``"@codec"`` (the text generators return it).
    vectorizer : {"tfidf", "count"} or None, default="tfidf"
        The vectorizer put before ``estimator``; None for none.

    Attributes
    ----------
    estimator_ : estimator
        The fitted model of the texts (the pipeline when ``vectorizer`` is
        set).
    classes_ : ndarray
    n_features_in_ : int
        Number of token positions.

    Examples
    --------
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_xai.datasets import make_text_classification
    >>> from sklearn_xai.models import TokenIdClassifier
    >>> data = make_text_classification(300, random_state=0)
    >>> model = TokenIdClassifier(LogisticRegression(), data.codec, vectorizer="count")
    >>> model = model.fit(data.data, data.target)
    >>> float(model.score(data.data, data.target)) > 0.9
    True
    """

    _parameter_constraints = {
        "estimator": [HasMethods(["fit"]), None],
        "codec": [HasMethods(["inverse_transform"])],
        "vectorizer": [StrOptions({"tfidf", "count"}), None],
    }

    def __init__(self, estimator=None, codec=None, *, vectorizer="tfidf"):
        self.estimator = estimator
        self.codec = codec
        self.vectorizer = vectorizer

    def _model(self):
        estimator = LogisticRegression() if self.estimator is None else self.estimator
        if self.vectorizer is None:
            return clone(estimator)
        vectorizer = {"tfidf": TfidfVectorizer,
                      "count": CountVectorizer}[self.vectorizer]
        return make_pipeline(vectorizer(token_pattern=r"\S+", lowercase=False),
                             clone(estimator))

    def _texts(self, X):
        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2:
            raise ValueError(
                f"X must be a 2-D matrix of token ids; got shape {X.shape}.")
        if hasattr(self, "n_features_in_") and X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {X.shape[1]} token positions, but {type(self).__name__} was "
                f"fitted with {self.n_features_in_}."
            )
        return self.codec.inverse_transform(X)

    def fit(self, X, y, **fit_params):
        """Fit ``estimator`` on the decoded texts of ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, max_len)
            Token ids.
        y : array-like of shape (n_samples,)
        **fit_params : dict
            Passed to ``estimator.fit``.

        Returns
        -------
        self : TokenIdClassifier
        """
        validate_estimator_params(self)
        for attr in ("estimator_", "n_features_in_", "classes_"):
            self.__dict__.pop(attr, None)
        texts = self._texts(X)
        self.n_features_in_ = np.shape(X)[1]
        self.estimator_ = self._model().fit(texts, y, **fit_params)
        self.classes_ = self.estimator_.classes_
        return self

    def predict(self, X):
        """Predicted labels.

        Parameters
        ----------
        X : array-like of shape (n_samples, max_len)

        Returns
        -------
        y : ndarray of shape (n_samples,)
        """
        check_is_fitted(self)
        return self.estimator_.predict(self._texts(X))

    @available_if(_estimator_has("predict_proba"))
    def predict_proba(self, X):
        """Class probabilities.

        Parameters
        ----------
        X : array-like of shape (n_samples, max_len)

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
        """
        check_is_fitted(self)
        return self.estimator_.predict_proba(self._texts(X))

    @available_if(_estimator_has("decision_function"))
    def decision_function(self, X):
        """Decision function of the wrapped classifier.

        Parameters
        ----------
        X : array-like of shape (n_samples, max_len)

        Returns
        -------
        scores : ndarray of shape (n_samples,) or (n_samples, n_classes)
        """
        check_is_fitted(self)
        return self.estimator_.decision_function(self._texts(X))

