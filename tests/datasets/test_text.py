"""TokenCodec and make_text_classification: the ground truth, checked
independently of the generator (from the texts, by the rules' closed forms,
and through models that implement or ignore the rule)."""

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.frozen import FrozenEstimator

from sklearn_xai.datasets import MASK_ID, PAD_ID, TokenCodec, make_text_classification
from sklearn_xai.explainers import FeatureAblation
from sklearn_xai.masking import TokenMasker
from sklearn_xai.metrics import token_f1


def test_codec_round_trip():
    codec = TokenCodec().fit(["The good film", "not good at all"])
    assert codec.tokens_[:3].tolist() == ["[PAD]", "[MASK]", "[UNK]"]
    assert codec.max_len_ == 4 and (PAD_ID, MASK_ID) == (0, 1)
    X = codec.transform(["good film", "a good film is not at all good"])
    assert X.shape == (2, 4) and X.dtype == np.float64
    assert X[0, 2:].tolist() == [0.0, 0.0]  # right-padded
    assert codec.inverse_transform(X) == ["good film", "[UNK] good film [UNK]"]
    X[0, 0] = MASK_ID
    X[1, 1] = PAD_ID  # a PAD inside the text deletes the token
    assert codec.inverse_transform(X) == ["[MASK] film", "[UNK] film [UNK]"]
    assert codec.get_feature_names_out().tolist() == [f"token_{j}" for j in range(4)]
    with pytest.raises(ValueError, match="integer token ids"):
        codec.inverse_transform([[0.5, 1.0, 0.0, 0.0]])
    with pytest.raises(TypeError, match="iterable of strings"):
        codec.transform("good film")


def _by_hand(tokens, rule):
    """Per-token importance and score of one document, from its tokens only."""
    g = np.zeros(len(tokens))
    if rule == "interaction":
        both = "alpha" in tokens and "beta" in tokens
        if both:
            g[[tokens.index("alpha"), tokens.index("beta")]] = 0.5
        return g, float(both) - 0.5
    for j, tok in enumerate(tokens):
        w = 1.0 if tok.startswith("good") else -1.0 if tok.startswith("bad") else 0.0
        if w and rule == "negation" and j > 0 and tokens[j - 1] == "not":
            g[j - 1] = g[j] = -w / 2
        elif w:
            g[j] = w
    return g, g.sum()


@pytest.mark.parametrize("rule", ["additive", "negation", "interaction"])
def test_ground_truth_closed_form(rule):
    data = make_text_classification(300, rule=rule, distractor_rate=0.8,
                                    random_state=0)
    assert data.data.shape == (300, 16)
    n_real = (data.data != PAD_ID).sum(axis=1)
    assert n_real.min() >= 8 and n_real.max() <= 16
    for i, text in enumerate(data.texts):
        tokens = text.split()
        g, score = _by_hand(tokens, rule)
        np.testing.assert_array_equal(data.ground_truth[i, : len(tokens)], g)
        assert not data.ground_truth[i, len(tokens):].any()  # padding gets 0
        assert data.score[i] == score and data.target[i] == int(score > 0)
    # the ids are the texts
    assert data.codec.inverse_transform(data.data) == data.texts
    np.testing.assert_array_equal(data.ground_truth_mask, data.ground_truth != 0)
    np.testing.assert_array_equal(data.label_function(data.data), data.score)
    # the classes are balanced and the distractors follow the label
    assert 0.35 < data.target.mean() < 0.65
    pos = np.array(["dpos0" in t.split() for t in data.texts])
    neg = np.array(["dneg0" in t.split() for t in data.texts])
    assert (data.target[pos] == 1).all() and (data.target[neg] == 0).all()
    assert not data.ground_truth[np.isin(data.data, [
        data.codec.vocabulary_["dpos0"], data.codec.vocabulary_["dneg0"]])].any()


def test_label_noise_and_reproducibility():
    a = make_text_classification(400, label_noise=0.2, random_state=3)
    b = make_text_classification(400, label_noise=0.2, random_state=3)
    np.testing.assert_array_equal(a.data, b.data)
    flipped = a.target != (a.score > 0)
    assert 0.12 < flipped.mean() < 0.28
    X, y = make_text_classification(10, random_state=0, return_X_y=True)
    assert X.shape == (10, 16) and y.shape == (10,)
    with pytest.raises(ValueError, match="min_len"):
        make_text_classification(10, min_len=20, max_len=16)


class _RuleClassifier(ClassifierMixin, BaseEstimator):
    """A model of id matrices whose decision is a given function of the ids."""

    def __init__(self, score):
        self.score = score

    def fit(self, X, y):
        self.classes_ = np.array([0, 1])
        return self

    def decision_function(self, X):
        return self.score(np.asarray(X))

    def predict(self, X):
        return (self.decision_function(X) > 0).astype(int)


def _occlusion(score, X):
    model = FrozenEstimator(_RuleClassifier(score).fit(X, None))
    ex = FeatureAblation(model, masker=TokenMasker("pad"), output="decision", target=1)
    return ex.fit(X).transform(X)


@pytest.mark.parametrize("rule", ["additive", "negation", "interaction"])
def test_rule_model_is_perfectly_plausible(rule):
    """Occlusion of a model implementing the rule exactly ranks the rule's
    tokens first: token F1 = 1 on every row with a rationale."""
    data = make_text_classification(120, rule=rule, random_state=1)
    A = _occlusion(data.label_function, data.data)
    has = data.ground_truth_mask.any(axis=1)
    f1 = token_f1(data.ground_truth_mask[has], A[has], order_by="abs")
    np.testing.assert_array_equal(f1, 1.0)
    if rule == "additive":  # occlusion of an additive score is the ground truth
        np.testing.assert_array_equal(A, data.ground_truth)


def test_rule_ignoring_model_is_at_chance():
    """A model that ignores the rule (its decision weighs the token
    *positions* at random, whatever the words) gets the chance level of
    token F1 at k = |T|: the |T| tokens it ranks first are a uniform draw of
    the row's n tokens, so E[F1] = E[|T| / n]."""
    data = make_text_classification(150, random_state=2)
    X, mask = data.data, data.ground_truth_mask
    f1 = []
    for seed in range(20):
        v = np.random.default_rng(seed).normal(size=X.shape[1])

        def score(ids, v=v):
            return (ids != PAD_ID) @ v

        A = _occlusion(score, X)
        np.testing.assert_allclose(A, np.where(X != PAD_ID, v, 0.0), atol=1e-12)
        f1.append(token_f1(mask, A, order_by="abs"))
    chance = (mask.sum(axis=1) / (X != PAD_ID).sum(axis=1)).mean()
    assert np.mean(f1) == pytest.approx(chance, abs=0.03)
    assert chance < 0.3


def test_load_text_corpus_csv_and_folders(tmp_path):
    from sklearn_xai.datasets import load_text_corpus

    csv = tmp_path / "corpus.csv"
    csv.write_text("body,y\nA good film,1\nbad,0\nnot good at all,0\n")
    corpus = load_text_corpus(csv, text_column="body", label_column="y")
    assert corpus.data.shape == (3, 4) and corpus.target.tolist() == [1, 0, 0]
    assert corpus.codec.inverse_transform(corpus.data) == [
        "a good film", "bad", "not good at all"]
    assert corpus.ground_truth_mask is None
    with pytest.raises(ValueError, match="no column 'text'"):
        load_text_corpus(csv)
    folder = tmp_path / "classes"
    for label, docs in {"neg": ["so bad", "awful"], "pos": ["great fun"]}.items():
        (folder / label).mkdir(parents=True)
        for k, doc in enumerate(docs):
            (folder / label / f"{k}.txt").write_text(doc)
    corpus = load_text_corpus(folder, max_len=2)
    assert corpus.texts == ["so bad", "awful", "great fun"]
    assert corpus.target_names.tolist() == ["neg", "pos"]
    assert corpus.target.tolist() == [0, 0, 1] and corpus.data.shape == (3, 2)


def test_load_text_corpus_eraser_rationales(tmp_path):
    """ERASER's format: the rationale spans index the white-space tokens of
    the document (spread over lines)."""
    import json

    from sklearn_xai.datasets import load_text_corpus

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "d1").write_text("the plot was dull .\nbut the cast shines\n")
    (tmp_path / "docs" / "d2").write_text("a fine film\n")
    lines = [
        {"annotation_id": "d1", "classification": "POS", "query": "?",
         "evidences": [[{"docid": "d1", "start_token": 5, "end_token": 9,
                         "text": "but the cast shines"}],
                       [{"docid": "d1", "start_token": 3, "end_token": 4,
                         "text": "dull"}]]},
        {"annotation_id": "d2", "classification": "NEG", "evidences": []},
    ]
    (tmp_path / "val.jsonl").write_text("\n".join(json.dumps(x) for x in lines))
    corpus = load_text_corpus(tmp_path, split="val")
    assert corpus.texts[0] == "the plot was dull . but the cast shines"
    expected = np.zeros((2, 9), dtype=bool)
    expected[0, [3, 5, 6, 7, 8]] = True
    np.testing.assert_array_equal(corpus.ground_truth_mask, expected)
    assert corpus.target_names.tolist() == ["NEG", "POS"]
    tokens = corpus.codec.decode_tokens(corpus.data[:1])[0]
    assert [tokens[j] for j in np.flatnonzero(expected[0])] == [
        "dull", "but", "the", "cast", "shines"]
    with pytest.raises(ValueError, match="no train.jsonl"):
        load_text_corpus(tmp_path)
