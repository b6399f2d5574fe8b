"""Text as token-id matrices: a codec and synthetic texts with known rules.

A batch of texts is a 2-D float array of token ids, ``(n_samples,
max_len)``, right-padded with the PAD id: the shape every explainer, masker
and metric of the package works on, with one column per token *position*.
:class:`TokenCodec` turns texts into that matrix and back;
:func:`make_text_classification` draws token sequences whose label follows a
known rule over planted tokens and returns the per-token ground truth.
"""

import json
import numbers
import os

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils import Bunch
from sklearn.utils.validation import check_is_fitted

from sklearn_xai.datasets._common import _finish, _generator
from sklearn_xai.utils._sklearn import (
    Interval,
    StrOptions,
    validate_estimator_params,
    validate_params,
)

__all__ = ["PAD_ID", "MASK_ID", "TokenCodec", "load_text_corpus",
           "make_text_classification"]

#: Id of the padding token ``"[PAD]"`` (dropped when decoding).
PAD_ID = 0
#: Id of the ``"[MASK]"`` token that replaces a removed token.
MASK_ID = 1
#: Id of ``"[UNK]"``, the tokens unseen at fit time.
UNK_ID = 2
_SPECIAL = ("[PAD]", "[MASK]", "[UNK]")


class TokenCodec(TransformerMixin, BaseEstimator):
    """Texts to a padded matrix of token ids, and back.

    A text is split on white space (lower-cased with ``lowercase=True``);
    :meth:`fit` builds the vocabulary (ids 0, 1 and 2 are ``"[PAD]"``,
    ``"[MASK]"`` and ``"[UNK]"``, then the tokens seen, sorted), and
    :meth:`transform` writes each text's ids left-aligned in a row of
    ``max_len_`` columns filled with :data:`PAD_ID` (longer texts are
    truncated).  The ids are stored as float64, the dtype every explainer
    and metric works in; they are exact integers.

    :meth:`inverse_transform` joins the tokens of each row with single
    spaces, dropping PAD (so a token replaced by PAD is *removed* from the
    text) and keeping ``"[MASK]"``: a scikit-learn text model fitted on the
    texts treats ``"[MASK]"`` as an unknown word.

    Parameters
    ----------
    max_len : int or None, default=None
        Number of columns (token positions); ``None`` takes the longest
        text seen by :meth:`fit`.
    lowercase : bool, default=True
        Lower-case the texts before splitting them.

    Attributes
    ----------
    vocabulary_ : dict
        Token -> id.
    tokens_ : ndarray of str
        Id -> token.
    max_len_ : int
        Number of columns of :meth:`transform`'s output.
    pad_id_, mask_id_, unk_id_ : int
        0, 1 and 2.

    Examples
    --------
    >>> from sklearn_xai.datasets import TokenCodec
    >>> codec = TokenCodec().fit(["a good film", "not good"])
    >>> X = codec.transform(["good film", "a bad film"])
    >>> X
    array([[5., 4., 0.],
           [3., 2., 4.]])
    >>> codec.inverse_transform(X)
    ['good film', 'a [UNK] film']
    """

    _parameter_constraints = {
        "max_len": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "lowercase": ["boolean"],
    }

    def __init__(self, max_len=None, *, lowercase=True):
        self.max_len = max_len
        self.lowercase = lowercase

    def _split(self, text):
        if not isinstance(text, str):
            raise TypeError(
                f"TokenCodec takes an iterable of strings; got an item of type "
                f"{type(text).__name__}."
            )
        return (text.lower() if self.lowercase else text).split()

    def fit(self, texts, y=None):
        """Build the vocabulary from ``texts``.

        Parameters
        ----------
        texts : iterable of str
        y : None
            Ignored.

        Returns
        -------
        self : TokenCodec
        """
        validate_estimator_params(self)
        if isinstance(texts, str):
            raise TypeError("texts must be an iterable of strings, not one string.")
        split = [self._split(t) for t in texts]
        seen = sorted({tok for toks in split for tok in toks} - set(_SPECIAL))
        self.tokens_ = np.array(list(_SPECIAL) + seen, dtype=object)
        self.vocabulary_ = {tok: i for i, tok in enumerate(self.tokens_)}
        longest = max((len(t) for t in split), default=1)
        self.max_len_ = (int(self.max_len) if self.max_len is not None
                         else max(longest, 1))
        self.pad_id_, self.mask_id_, self.unk_id_ = PAD_ID, MASK_ID, UNK_ID
        return self

    def transform(self, texts):
        """The padded id matrix of ``texts``.

        Parameters
        ----------
        texts : iterable of str

        Returns
        -------
        X : ndarray of shape (n_texts, max_len_), float64
        """
        check_is_fitted(self)
        if isinstance(texts, str):
            raise TypeError("texts must be an iterable of strings, not one string.")
        rows = [[self.vocabulary_.get(tok, UNK_ID) for tok in self._split(t)]
                [: self.max_len_] for t in texts]
        X = np.full((len(rows), self.max_len_), float(PAD_ID))
        for i, ids in enumerate(rows):
            X[i, : len(ids)] = ids
        return X

    def decode_tokens(self, X):
        """The tokens of each row, PAD dropped (a list of lists of str).

        Parameters
        ----------
        X : array-like of shape (n_texts, n_positions)
            Token ids.

        Returns
        -------
        tokens : list of list of str
        """
        check_is_fitted(self)
        ids = _check_ids(X, len(self.tokens_))
        return [self.tokens_[row[row != PAD_ID]].tolist() for row in ids]

    def inverse_transform(self, X):
        """The texts of an id matrix: tokens joined by spaces, PAD dropped.

        Parameters
        ----------
        X : array-like of shape (n_texts, n_positions)
            Token ids.

        Returns
        -------
        texts : list of str
        """
        return [" ".join(toks) for toks in self.decode_tokens(X)]

    def get_feature_names_out(self, input_features=None):
        """Names of the token positions, ``token_0``, ``token_1``, ...

        Parameters
        ----------
        input_features : None
            Ignored.

        Returns
        -------
        names : ndarray of str
        """
        check_is_fitted(self)
        return np.array([f"token_{j}" for j in range(self.max_len_)], dtype=object)


def _check_ids(X, n_tokens):
    """Integer ids (n, L) of an id matrix, checked against the vocabulary."""
    X = np.asarray(X)
    if X.ndim == 1:
        X = X[None, :]
    if X.ndim != 2:
        raise ValueError(f"X must be a 2-D matrix of token ids; got shape {X.shape}.")
    ids = np.rint(X).astype(np.int64)
    if not np.array_equal(ids, X) or (ids.size and (ids.min() < 0
                                                    or ids.max() >= n_tokens)):
        raise ValueError(
            f"X must hold integer token ids in [0, {n_tokens}) (the codec's "
            "vocabulary); transform the texts with the same fitted TokenCodec."
        )
    return ids


# --------------------------------------------------------------- generator
_RULES = ("additive", "negation", "interaction")


def _vocabulary(n_filler, n_keywords, n_distractors):
    """Token strings of the generator's vocabulary, by role."""
    half = n_keywords // 2
    return dict(
        filler=[f"w{j:02d}" for j in range(n_filler)],
        positive=[f"good{j}" for j in range(n_keywords - half)],
        negative=[f"bad{j}" for j in range(half)],
        negator=["not"],
        interaction=["alpha", "beta"],
        distractor_pos=[f"dpos{j}" for j in range(n_distractors - n_distractors // 2)],
        distractor_neg=[f"dneg{j}" for j in range(n_distractors // 2)],
    )


@validate_params(
    {
        "n_samples": [Interval(numbers.Integral, 1, None, closed="left")],
        "rule": [StrOptions(set(_RULES))],
        "max_len": [Interval(numbers.Integral, 8, None, closed="left")],
        "min_len": [Interval(numbers.Integral, 8, None, closed="left"), None],
        "n_filler": [Interval(numbers.Integral, 1, None, closed="left")],
        "n_keywords": [Interval(numbers.Integral, 2, None, closed="left")],
        "n_distractors": [Interval(numbers.Integral, 0, None, closed="left")],
        "distractor_rate": [Interval(numbers.Real, 0, 1, closed="both")],
        "negation_rate": [Interval(numbers.Real, 0, 1, closed="both")],
        "label_noise": [Interval(numbers.Real, 0, 0.5, closed="both")],
        "shuffle": ["boolean"],
        "random_state": ["random_state"],
        "return_X_y": ["boolean"],
    },
    prefer_skip_nested_validation=True,
)
def make_text_classification(n_samples=500, *, rule="additive", max_len=16,
                             min_len=None, n_filler=40, n_keywords=4, n_distractors=2,
                             distractor_rate=0.5, negation_rate=0.3, label_noise=0.0,
                             shuffle=True, random_state=None, return_X_y=False):
    """Token sequences whose label follows a known rule over planted tokens.

    Each document is a sequence of ``l ~ U{min_len, ..., max_len}`` tokens:
    filler words ``w00, w01, ...`` around planted tokens, in random order.
    The rule gives a score ``s(x)`` and the label ``y = 1[s(x) > 0]``:

    * ``"additive"``: one or three keyword occurrences (equally likely, each
      drawn uniformly from the keywords) with weights ``+1`` (``good0``,
      ``good1``, ...) or ``-1`` (``bad0``, ...); ``s(x) = sum_j w(x_j)``,
      an odd number, never 0.
    * ``"negation"``: as ``"additive"``, but each occurrence is preceded by
      ``not`` with probability ``negation_rate``, which flips its weight:
      ``s(x) = sum_j w(x_j) (-1)^[x_{j-1} = not]``.
    * ``"interaction"``: ``alpha`` and ``beta`` are each planted with
      probability ``1 / sqrt(2)``, independently; ``s(x) = [alpha in x]
      [beta in x] - 1/2`` (the label is 1 exactly when both occur).

    Distractors: with probability ``distractor_rate`` a document also holds
    one token correlated with its label but read by no rule (``dpos*`` for
    label 1, ``dneg*`` for label 0).  ``label_noise`` flips each label with
    that probability (after the rule, before the distractors).

    Ground truth per token: every term of the score is split equally among
    the tokens it reads.  A keyword gets its weight ``w``; a negated keyword
    and its ``not`` get ``-w/2`` each; ``alpha`` and ``beta`` get ``1/2``
    each when both occur (the term ``[alpha in x][beta in x]``; its Shapley
    values under token removal), 0 otherwise.  Every other token, and every
    padding position, gets 0.  So ``sum_j g_j = s(x)`` for the additive and
    negation rules and ``s(x) + 1/2`` for the interaction.
    ``ground_truth_mask`` marks the tokens with ``g_j != 0``.

    Parameters
    ----------
    n_samples : int, default=500
    rule : {"additive", "negation", "interaction"}, default="additive"
    max_len : int, default=16
        Longest document, and the number of columns of ``data``.
    min_len : int, default=None
        Shortest document (default ``max_len // 2``, at least 8).
    n_filler : int, default=40
        Number of filler words.
    n_keywords : int, default=4
        Number of keywords, half of them positive (``good*``, one more when
        odd) and half negative (``bad*``).
    n_distractors : int, default=2
        Number of distractor tokens (``dpos*`` and ``dneg*``); 0 for none.
    distractor_rate : float, default=0.5
        Probability that a document holds a distractor.
    negation_rate : float, default=0.3
        Probability that a keyword is negated (``rule="negation"``).
    label_noise : float, default=0.0
        Probability of flipping a label.
    shuffle : bool, default=True
        Shuffle the documents.
    random_state : int, RandomState instance or None, default=None
    return_X_y : bool, default=False
        Return ``(data, target)``.

    Returns
    -------
    data : Bunch
        ``data`` (n_samples, max_len) float64 token ids, right-padded with
        :data:`PAD_ID`; ``target``; ``texts`` (the documents as strings);
        ``ground_truth`` (n_samples, max_len) per-token importance and
        ``ground_truth_mask`` (its non-zero entries); ``score`` the rule's
        ``s(x)``; ``lengths``; ``codec`` the fitted :class:`TokenCodec`
        (whose vocabulary holds every token of the generator);
        ``weights`` the keyword weights; ``label_function`` maps an id
        matrix to ``s(x)``; ``feature_names`` (``token_0``, ...),
        ``pad_id``, ``mask_id``, ``DESCR``, ``parameters``.
    (data, target) : tuple if ``return_X_y`` is True.

    Examples
    --------
    >>> from sklearn_xai.datasets import make_text_classification
    >>> data = make_text_classification(4, rule="negation", random_state=0)
    >>> data.data.shape
    (4, 16)
    >>> bool((data.ground_truth.sum(axis=1) == data.score).all())
    True
    """
    rng = _generator(random_state)
    min_len = max(8, max_len // 2) if min_len is None else min_len
    if min_len > max_len:
        raise ValueError(f"min_len={min_len} must be at most max_len={max_len}.")
    roles = _vocabulary(n_filler, n_keywords, n_distractors)
    keywords = roles["positive"] + roles["negative"]
    weights = {t: 1.0 for t in roles["positive"]} | {t: -1.0 for t in roles["negative"]}
    vocab_text = " ".join(tok for group in roles.values() for tok in group)
    codec = TokenCodec(max_len=max_len, lowercase=False).fit([vocab_text])

    docs, gts, scores, labels = [], [], [], []
    for _ in range(n_samples):
        length = int(rng.integers(min_len, max_len + 1))
        units = []  # (tokens, importances)
        if rule == "interaction":
            both = True
            for tok in roles["interaction"]:
                if rng.random() < 2 ** -0.5:
                    units.append(([tok], [0.0]))
                else:
                    both = False
            if both:
                units = [(toks, [0.5]) for toks, _ in units]
            score = float(both) - 0.5
        else:
            score = 0.0
            for _ in range(1 if rng.random() < 0.5 else 3):
                kw = keywords[int(rng.integers(len(keywords)))]
                w = weights[kw]
                if rule == "negation" and rng.random() < negation_rate:
                    units.append((["not", kw], [-w / 2, -w / 2]))
                    score -= w
                else:
                    units.append(([kw], [w]))
                    score += w
        y = int(score > 0)
        if label_noise and rng.random() < label_noise:
            y = 1 - y
        pool = roles["distractor_pos"] if y == 1 else roles["distractor_neg"]
        if pool and rng.random() < distractor_rate:
            units.append(([pool[int(rng.integers(len(pool)))]], [0.0]))
        n_fill = length - sum(len(toks) for toks, _ in units)
        fill = rng.integers(n_filler, size=n_fill)
        units += [([roles["filler"][j]], [0.0]) for j in fill]
        order = rng.permutation(len(units))
        tokens = [tok for k in order for tok in units[k][0]]
        imps = [g for k in order for g in units[k][1]]
        docs.append(" ".join(tokens))
        gts.append(imps + [0.0] * (max_len - len(imps)))
        scores.append(score)
        labels.append(y)

    X = codec.transform(docs)
    G = np.asarray(gts, dtype=np.float64)
    lengths = (X != PAD_ID).sum(axis=1)

    def label_function(ids):
        """The rule's score ``s(x)`` of an id matrix (independent of the
        generator's bookkeeping)."""
        return _rule_score(codec.decode_tokens(ids), rule, weights)

    parameters = dict(n_samples=n_samples, rule=rule, max_len=max_len, min_len=min_len,
                      n_filler=n_filler, n_keywords=n_keywords,
                      n_distractors=n_distractors, distractor_rate=distractor_rate,
                      negation_rate=negation_rate, label_noise=label_noise,
                      random_state=random_state)
    descr = (
        f"Synthetic texts, {rule} rule: label 1[s(x) > 0] over planted tokens, "
        f"{min_len}-{max_len} tokens per document, right-padded with [PAD] (id "
        f"{PAD_ID}). Ground truth: each term of s(x) split equally among the tokens "
        "it reads; distractors (dpos*, dneg*) follow the label but no rule."
    )
    result, _ = _finish(
        X=X, y=np.asarray(labels, dtype=np.int64), ground_truth=G,
        ground_truth_mask=G != 0, distribution=None, label_function=label_function,
        feature_names=[f"token_{j}" for j in range(max_len)], descr=descr,
        parameters=parameters, rng=rng, shuffle=shuffle, return_X_y=return_X_y,
        as_frame=False, per_row=("texts", "score", "lengths"),
        texts=np.asarray(docs, dtype=object), score=np.asarray(scores),
        lengths=lengths, codec=codec, vocab_size=len(codec.tokens_), weights=weights,
        pad_id=PAD_ID, mask_id=MASK_ID,
    )
    if return_X_y:
        return result
    result.texts = result.texts.tolist()
    result.feature_info = {name: "token" for name in result.feature_names}
    return result


def _rule_score(token_lists, rule, weights):
    """``s(x)`` of each document from its tokens."""
    out = np.empty(len(token_lists))
    for i, toks in enumerate(token_lists):
        if rule == "interaction":
            out[i] = float("alpha" in toks and "beta" in toks) - 0.5
            continue
        s = 0.0
        for j, tok in enumerate(toks):
            w = weights.get(tok, 0.0)
            if rule == "negation" and j > 0 and toks[j - 1] == "not":
                w = -w
            s += w
        out[i] = s
    return out


# ------------------------------------------------------------------ loader
def _read(path, encoding):
    with open(path, encoding=encoding) as fh:
        return fh.read()


def _eraser(folder, split, encoding):
    """Texts, labels and rationale spans of an ERASER data set folder."""
    annotations = os.path.join(folder, f"{split}.jsonl")
    texts, labels, spans = [], [], []
    with open(annotations, encoding=encoding) as fh:
        for line in fh:
            if not line.strip():
                continue
            item = json.loads(line)
            evidences = [ev for group in item.get("evidences") or [] for ev in group]
            docids = {ev["docid"] for ev in evidences} or {item["annotation_id"]}
            if len(docids) != 1:
                raise ValueError(
                    f"annotation {item['annotation_id']!r} of {annotations!r} cites "
                    f"{len(docids)} documents; load_text_corpus reads one document per "
                    "annotation (ERASER's single-document tasks)."
                )
            docid = docids.pop()
            texts.append(" ".join(_read(os.path.join(folder, "docs", docid),
                                        encoding).split()))
            labels.append(item["classification"])
            spans.append([(int(ev["start_token"]), int(ev["end_token"]))
                          for ev in evidences])
    return texts, labels, spans


@validate_params(
    {
        "path": [str, os.PathLike],
        "text_column": [str],
        "label_column": [str],
        "split": [StrOptions({"train", "val", "test"})],
        "max_len": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "lowercase": ["boolean"],
        "encoding": [str],
    },
    prefer_skip_nested_validation=True,
)
def load_text_corpus(path, *, text_column="text", label_column="label", split="train",
                     max_len=None, lowercase=True, encoding="utf-8"):
    """Load a labelled corpus as a token-id matrix, with ERASER rationales.

    ``path`` is one of:

    * a CSV file with a text and a label column;
    * a folder with one sub-folder per class, one text file per document
      (as :func:`sklearn.datasets.load_files`);
    * an ERASER data set folder (DeYoung et al. 2020): ``docs/`` with one
      pre-tokenised document per file and ``train.jsonl`` / ``val.jsonl`` /
      ``test.jsonl`` annotations, whose ``classification`` is the label and
      whose ``evidences`` give the rationale as token spans
      ``[start_token, end_token)`` of the document's white-space tokens.

    The texts are encoded by a :class:`TokenCodec` fitted on them.

    Parameters
    ----------
    path : str or path-like
    text_column, label_column : str, default="text", "label"
        The CSV file's columns.
    split : {"train", "val", "test"}, default="train"
        The annotation file of an ERASER folder.
    max_len : int, default=None
        Token positions kept (longer texts are truncated); ``None`` keeps
        the longest text.
    lowercase : bool, default=True
        Lower-case the texts (the tokens, hence the rationale positions,
        are unchanged).
    encoding : str, default="utf-8"

    Returns
    -------
    data : Bunch
        ``data`` (n_documents, max_len) token ids, right-padded with PAD;
        ``target`` the label indices into ``target_names``; ``texts``;
        ``codec``; ``vocab_size``; ``ground_truth_mask`` (n_documents,
        max_len) boolean rationale of an ERASER folder, else None;
        ``ground_truth`` None; ``feature_names``; ``DESCR``.

    References
    ----------
    .. [1] J. DeYoung et al., "ERASER: A Benchmark to Evaluate Rationalized
       NLP Models", ACL 2020.

    Examples
    --------
    >>> import os, tempfile
    >>> from sklearn_xai.datasets import load_text_corpus
    >>> folder = tempfile.mkdtemp()
    >>> with open(os.path.join(folder, "reviews.csv"), "w") as fh:
    ...     _ = fh.write("text,label\\ngood film,pos\\nnot a good film,neg\\n")
    >>> corpus = load_text_corpus(os.path.join(folder, "reviews.csv"))
    >>> corpus.data.shape, corpus.target.tolist(), corpus.target_names.tolist()
    ((2, 4), [1, 0], ['neg', 'pos'])
    """
    path = os.fspath(path)
    spans = None
    if os.path.isfile(path):
        import pandas as pd

        frame = pd.read_csv(path, encoding=encoding)
        missing = [c for c in (text_column, label_column) if c not in frame.columns]
        if missing:
            raise ValueError(
                f"{path!r} has no column {missing[0]!r} (its columns: "
                f"{list(frame.columns)}); pass text_column= and label_column=."
            )
        texts = frame[text_column].fillna("").astype(str).tolist()
        labels = frame[label_column].tolist()
        kind = "CSV file"
    elif os.path.isdir(os.path.join(path, "docs")):
        if not os.path.isfile(os.path.join(path, f"{split}.jsonl")):
            raise ValueError(
                f"{path!r} looks like an ERASER folder (it has docs/) but has no "
                f"{split}.jsonl; pass split='train', 'val' or 'test'."
            )
        texts, labels, spans = _eraser(path, split, encoding)
        kind = f"ERASER folder, {split} split"
    elif os.path.isdir(path):
        classes = sorted(d for d in os.listdir(path)
                         if os.path.isdir(os.path.join(path, d)))
        texts, labels = [], []
        for label in classes:
            sub = os.path.join(path, label)
            for name in sorted(os.listdir(sub)):
                if os.path.isfile(os.path.join(sub, name)):
                    texts.append(_read(os.path.join(sub, name), encoding))
                    labels.append(label)
        kind = "folder of class folders"
    else:
        raise ValueError(f"path={path!r} is neither a CSV file nor a folder.")
    if not texts:
        raise ValueError(f"{path!r} holds no document.")
    codec = TokenCodec(max_len=max_len, lowercase=lowercase).fit(texts)
    X = codec.transform(texts)
    target_names, target = np.unique(np.asarray(labels, dtype=object).astype(str),
                                     return_inverse=True)
    mask = None
    if spans is not None:
        mask = np.zeros(X.shape, dtype=bool)
        for i, row in enumerate(spans):
            for start, end in row:
                mask[i, max(start, 0):min(end, codec.max_len_)] = True
        mask &= X != PAD_ID
    return Bunch(
        data=X, target=target.astype(np.int64), target_names=target_names,
        texts=texts, codec=codec, vocab_size=len(codec.tokens_), ground_truth=None,
        ground_truth_mask=mask, feature_names=codec.get_feature_names_out().tolist(),
        DESCR=f"Text corpus from {path!r} ({kind}): {len(texts)} documents, "
              f"{len(target_names)} classes, {codec.max_len_} token positions.",
    )
