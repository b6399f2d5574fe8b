"""Text presets: synthetic token sequences with known per-token ground truth,
explained at the token level and scored with ERASER's and ferret's metrics."""

from sklearn_xai.benchmark._docstring import preset_fragments
from sklearn_xai.benchmark._spec import BenchmarkSpec
from sklearn_xai.utils._docstring import Substitution

__all__ = ["text_synthetic"]

# Docstring blocks of this module's presets (filled by Substitution).
_DOC = preset_fragments("""
.. [1] J. DeYoung et al., "ERASER: A Benchmark to Evaluate Rationalized NLP
   Models", ACL 2020.
.. [2] G. Attanasio, E. Pastor, C. Di Bonaventura and D. Nozza, "ferret: a
   Framework for Benchmarking Explainers on Transformers", EACL 2023.""")

_MASK = {"name": "TokenMasker", "params": {"replacement": "mask"}}
_ERASER_BINS = [0.01, 0.05, 0.1, 0.2, 0.5]


def _models(quick):
    net = {"vocab_size": "@vocab_size", "max_epochs": 5 if quick else 40,
           "lr": 1e-2}
    models = {
        "bow_logistic": {"name": "TokenIdClassifier",
                         "params": {"codec": "@codec", "vectorizer": "count"}},
        "tfidf_gboost": {"name": "TokenIdClassifier", "params": {
            "codec": "@codec", "vectorizer": "tfidf",
            "estimator": {"name": "sklearn.ensemble.GradientBoostingClassifier",
                          "params": {"n_estimators": 100}}}},
        "text_cnn": {"name": "TextNetClassifier",
                     "params": {"architecture": "cnn", **net}},
        "tiny_transformer": {"name": "TextNetClassifier",
                             "params": {"architecture": "transformer", **net}},
    }
    if quick:
        models = {k: models[k] for k in ("bow_logistic", "text_cnn")}
    return models


def _explainers(quick):
    explainers = {
        "random": "RandomExplainer",
        "occlusion": {"name": "FeatureAblation", "params": {"masker": _MASK}},
        "kernel_shap": {"name": "KernelSHAP",
                        "params": {"masker": _MASK, "n_perturbations": 200}},
        "lime": {"name": "TextLIME", "params": {"n_perturbations": 500}},
        "saliency": {"name": "EmbeddingAttribution", "params": {"method": "saliency"}},
        "input_x_gradient": {"name": "EmbeddingAttribution",
                             "params": {"method": "input_x_gradient"}},
        "ig_pad": {"name": "EmbeddingAttribution",
                   "params": {"method": "integrated_gradients", "baseline": "pad"}},
        "ig_mask": {"name": "EmbeddingAttribution",
                    "params": {"method": "integrated_gradients", "baseline": "mask"}},
    }
    if quick:
        explainers = {k: explainers[k]
                      for k in ("random", "occlusion", "lime", "ig_pad")}
        explainers["lime"] = {"name": "TextLIME", "params": {"n_perturbations": 50}}
        explainers["ig_pad"] = {"name": "EmbeddingAttribution",
                                "params": {"n_steps": 8}}
    return explainers


def _metrics():
    return {
        "aopc_comprehensiveness": {"name": "aopc_comprehensiveness",
                                   "params": {"ratios": _ERASER_BINS}},
        "neg_aopc_sufficiency": {"name": "neg_aopc_sufficiency",
                                 "params": {"ratios": _ERASER_BINS}},
        "taucorr_loo": {"name": "taucorr_loo", "nan_policy": "zero"},
        "token_f1": {"name": "token_f1",
                     "params": {"ground_truth": "@ground_truth_mask"}},
    }


@Substitution(**_DOC)
def text_synthetic(quick=False):
    """Synthetic texts with per-token ground truth, explained token by token.

    Data: :func:`~sklearn_xai.datasets.make_text_classification` for its three
    rules (additive keywords, negation that flips a keyword, the interaction
    of two tokens), 2000 documents of 8 to 16 tokens with label-correlated
    distractors; token-id matrices right-padded with PAD.  Models: bag of
    words + logistic regression and tf-idf + gradient boosting
    (:class:`~sklearn_xai.models.TokenIdClassifier`), a 1-D CNN and a tiny
    transformer (:class:`~sklearn_xai.models.TextNetClassifier`, 40
    epochs).  Explainers: random; occlusion, KernelSHAP (200 coalitions)
    and :class:`~sklearn_xai.explainers.TextLIME` (500 samples), removing
    tokens by ``[MASK]`` (:class:`~sklearn_xai.masking.TokenMasker`); and,
    on the torch models, saliency, input x gradient and integrated
    gradients (PAD and MASK baselines) at the embedding layer
    (:class:`~sklearn_xai.explainers.EmbeddingAttribution`).  Metrics: ERASER's
    AOPC comprehensiveness and sufficiency over its bins (1, 5, 10, 20 and
    50 % of the tokens, deleted), ferret's ``taucorr_loo`` and the token F1
    of the top-``|T|`` tokens against the ground-truth tokens.  100
    explained documents per cell.

    Run time: a few minutes on one core (measured 2026-11-27: 143 CPU
    seconds with ``--n-jobs 1``, 96 cells, 0.65 GB peak memory; the torch
    models and KernelSHAP dominate).  ``quick=True``: the negation rule, 200 documents, the bag of
    words and the CNN (5 epochs), 10 explained documents, four explainers;
    seconds.

    {preset_parameters}

    {preset_returns}

    {preset_references}
    """
    rules = ("negation",) if quick else ("additive", "negation", "interaction")
    return BenchmarkSpec(
        name="text_synthetic" + ("_quick" if quick else ""),
        description="Synthetic texts (additive, negation, interaction rules): "
                    "token-level explanations against per-token ground truth.",
        datasets={rule: {"name": "make_text_classification",
                         "params": {"n_samples": 200 if quick else 2000, "rule": rule},
                         "task": "classification"}
                  for rule in rules},
        models=_models(quick), explainers=_explainers(quick), metrics=_metrics(),
        seeds=[0], test_size=0.25, n_explain=10 if quick else 100,
    )
