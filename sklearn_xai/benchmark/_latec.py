"""LATEC's released evaluation scores and saliency maps, read safely.

LATEC [1]_ releases, per data set, the saliency maps of 17 explainers on
three models and the scores of 20 metrics on those maps, as NumPy ``.npz``
archives written by ``np.savez(file, *per_model_arrays)``: ``arr_0``,
``arr_1``, ``arr_2`` are the three models of the modality, in the order of
LATEC's ``ModelsModule``.  Its ``main_eval.py`` stores, per model, an array
of shape ``(n_methods, n_metrics, n_observations)``; its ``main_explain.py``
an array of shape ``(n_observations, n_methods, *map_shape)``.  The
convolutional models have the first 14 methods, the transformer all 17
(the three attention methods apply to it alone).

The files are read with ``allow_pickle=False`` (LATEC's own ranking code
passes ``allow_pickle=True``; an archive holding objects is refused here),
after bounding the file size, and every array's shape is checked against
the layout above before anything is built from it.

References
----------
.. [1] L. Klein, C. T. Lüth, U. Schlegel, T. J. Bungert, M. El-Assady and
   P. F. Jäger, "Navigating the Maze of Explainable AI: A Systematic
   Approach to Evaluating Methods and Metrics", NeurIPS Datasets and
   Benchmarks 2024; code: ``src/main/main_eval.py``, ``main_explain.py``,
   ``main_rank.py``, ``configs/eval_metric/image_imagenet.yaml``.
"""

import os
import re
import zipfile

import numpy as np
import pandas as pd

from sklearn_xai.benchmark._results import PER_ROW_COLUMNS, TABLE_COLUMNS, BenchmarkResults

__all__ = ["LATEC_METHODS", "LATEC_METRICS", "LATEC_MODELS", "load_latec_saliency_maps",
           "load_latec_scores"]

#: LATEC's 17 explainers in the order of its ``configs/explain_method/*.yaml``
#: (the row labels of its ranking tables in brackets).
LATEC_METHODS = (
    "occlusion",           # OC
    "lime",                # LI
    "kernel_shap",         # KS
    "saliency",            # VG
    "input_x_gradient",    # IxG
    "guided_backprop",     # GB
    "grad_cam",            # GC
    "score_cam",           # SC
    "grad_cam_plus_plus",  # C+
    "integrated_gradients",  # IG
    "expected_gradients",  # EG
    "deep_lift",           # DL
    "deep_lift_shap",      # DLS
    "lrp",                 # LRP
    "attention",           # RA
    "attention_rollout",   # RoA
    "attention_lrp",       # LA
)

#: LATEC's 20 metrics in the order of its ``configs/eval_metric/*.yaml``,
#: with the orientation its ranking code gives them (``main_rank.py``:
#: ``bup_order = [0, 1, 2, 4, 5, 7, 9, 12, 17]`` are ranked larger-is-better,
#: all others smaller-is-better).  The orientation is LATEC's, as released;
#: note that it ranks max-sensitivity larger-is-better, unlike its
#: definition (Yeh et al. 2019), and pixel flipping, deletion, ROAD
#: smaller-is-better as area-under-the-removal-curve scores.
LATEC_METRICS = (
    ("faithfulness_correlation", True),
    ("faithfulness_estimate", True),
    ("monotonicity_correlation", True),
    ("pixel_flipping", False),
    ("region_perturbation", True),
    ("insertion", True),
    ("deletion", False),
    ("irof", True),
    ("road", False),
    ("sufficiency", True),
    ("infidelity", False),
    ("local_lipschitz_estimate", False),
    ("max_sensitivity", True),
    ("continuity", False),
    ("relative_input_stability", False),
    ("relative_output_stability", False),
    ("relative_representation_stability", False),
    ("sparseness", True),
    ("complexity", False),
    ("effective_complexity", False),
)

#: The three models of each modality, in the order of LATEC's ``ModelsModule``.
LATEC_MODELS = {
    "image": ("resnet50", "efficientnet_b0", "deit_small"),
    "volume": ("resnet3d", "efficientnet3d_b0", "simple3dformer"),
    "point_cloud": ("pointnet", "dgcnn", "pct"),
}

#: Largest archive read (bytes): LATEC's largest score file is a few MB;
#: saliency maps of 1000 ImageNet images x 17 methods are about 10 GB, so
#: the maps' bound is a parameter.
MAX_SCORES_BYTES = 256 * 2**20
_N_CNN_METHODS = 14


def _check_modality(modality):
    if modality not in LATEC_MODELS:
        raise ValueError(
            f"modality must be one of {sorted(LATEC_MODELS)} (LATEC's modalities); "
            f"got {modality!r}.")


def _open_archive(path, max_bytes, what):
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise FileNotFoundError(
            f"No LATEC {what} file at {path!r}: download LATEC's released {what} "
            "(see its README) and name the .npz file.")
    size = os.path.getsize(path)
    if size > max_bytes:
        raise ValueError(
            f"{path!r} is {size} bytes, over the bound of {max_bytes} bytes for LATEC "
            f"{what}; pass a larger max_bytes if the file is what you expect.")
    if not zipfile.is_zipfile(path):
        raise ValueError(f"{path!r} is not a NumPy .npz archive.")
    try:
        archive = np.load(path, allow_pickle=False)
    except Exception as exc:  # noqa: BLE001 - any unreadable file is refused
        raise ValueError(f"{path!r} is not a readable .npz archive ({exc}).") from None
    names = sorted(archive.files)
    if names != ["arr_0", "arr_1", "arr_2"]:
        archive.close()
        raise ValueError(
            f"{path!r} holds the arrays {names[:10]}; LATEC's {what} files hold "
            "arr_0, arr_1 and arr_2 (one per model).")
    return archive


def _load_array(archive, name, path):
    try:
        array = archive[name]
    except ValueError as exc:  # object arrays need pickles: refused
        raise ValueError(
            f"{path!r}: {name} cannot be read without unpickling objects ({exc}); "
            "LATEC's files hold numeric arrays only.") from None
    if not np.issubdtype(array.dtype, np.number):
        raise ValueError(f"{path!r}: {name} has dtype {array.dtype}, not a numeric one.")
    return array


def _method_names(n_methods, path, name):
    if n_methods not in (_N_CNN_METHODS, len(LATEC_METHODS)):
        raise ValueError(
            f"{path!r}: {name} has {n_methods} methods; LATEC's models have "
            f"{_N_CNN_METHODS} (convolutional) or {len(LATEC_METHODS)} (transformer).")
    return LATEC_METHODS[:n_methods]


def _dataset_name(path):
    base = os.path.basename(os.fspath(path))
    for pattern in (r"eval_scores_([A-Za-z0-9_]+)\.npz", r"eval_([A-Za-z0-9]+?)(?:DataModule)?"
                    r"_dataset.*\.npz", r"explain_([A-Za-z0-9]+?)(?:DataModule)?_.*\.npz"):
        match = re.fullmatch(pattern, base)
        if match:
            return match.group(1).lower()
    return os.path.splitext(base)[0]


def load_latec_scores(path, *, modality="image", dataset=None,
                      max_bytes=MAX_SCORES_BYTES):
    """LATEC's released evaluation scores as :class:`BenchmarkResults`.

    Each (model, method, metric) becomes one row of the results table (the
    mean over LATEC's observations, with its standard error) and each
    observation one per-row score, so the leaderboard, the decisions
    (ties with the best, Friedman test, critical-difference diagrams), the
    report and :func:`~sklearn_xai.benchmark.write_report` run on them as on
    a run of ours.  Metrics keep LATEC's names and the orientation LATEC's
    ranking gives them (:data:`LATEC_METRICS`).  LATEC ranks by the median
    over observations; our leaderboard ranks by the mean and tests pairs
    on the per-row scores.  LATEC has no random control, so the results
    have none (``control=None``).  What needs the models (re-scoring,
    :func:`~sklearn_xai.benchmark.meta_evaluate`) needs LATEC's weights,
    which are not read here.

    Parameters
    ----------
    path : str or path-like
        LATEC's ``eval_scores_<dataset>.npz`` (or the ``eval_<DataModule>_
        dataset<time>.npz`` its ``main_eval.py`` writes).
    modality : {"image", "volume", "point_cloud"}, default="image"
        Names the three models (:data:`LATEC_MODELS`).
    dataset : str or None, default=None
        Label of the data set; None reads it from the file name.
    max_bytes : int, default=268435456
        Largest file read.

    Returns
    -------
    results : BenchmarkResults

    Raises
    ------
    ValueError
        When the file is not an ``.npz`` of three numeric arrays of shape
        ``(14 or 17 methods, 20 metrics, n_observations)``, holds objects
        (pickles are never loaded) or exceeds ``max_bytes``.

    References
    ----------
    .. [1] L. Klein et al., "Navigating the Maze of Explainable AI: A
       Systematic Approach to Evaluating Methods and Metrics", NeurIPS
       Datasets and Benchmarks 2024.

    Examples
    --------
    >>> import os, tempfile
    >>> import numpy as np
    >>> from sklearn_xai.benchmark import load_latec_scores
    >>> rng = np.random.default_rng(0)
    >>> path = os.path.join(tempfile.mkdtemp(), "eval_scores_toy.npz")
    >>> np.savez(path, rng.random((14, 20, 8)), rng.random((14, 20, 8)),
    ...          rng.random((17, 20, 8)))
    >>> results = load_latec_scores(path)
    >>> results.table.groupby("model")["explainer"].nunique().to_dict()
    {'deit_small': 17, 'efficientnet_b0': 14, 'resnet50': 14}
    """
    _check_modality(modality)
    if dataset is None:
        dataset = _dataset_name(path)
    rows, per_row = [], []
    with _open_archive(path, max_bytes, "evaluation scores") as archive:
        for k, model in enumerate(LATEC_MODELS[modality]):
            name = f"arr_{k}"
            scores = _load_array(archive, name, path)
            if scores.ndim != 3 or scores.shape[1] != len(LATEC_METRICS):
                raise ValueError(
                    f"{path!r}: {name} has shape {scores.shape}; LATEC's scores are "
                    f"(n_methods, {len(LATEC_METRICS)} metrics, n_observations).")
            methods = _method_names(scores.shape[0], path, name)
            scores = scores.astype(np.float64)
            for i, method in enumerate(methods):
                for j, (metric, greater) in enumerate(LATEC_METRICS):
                    values = scores[i, j]
                    ok = np.isfinite(values)
                    n = int(ok.sum())
                    rows.append({
                        "dataset": dataset, "model": model, "explainer": method,
                        "explainer_class": method, "metric": metric,
                        "metric_name": metric, "seed": 0,
                        "value": float(values[ok].mean()) if n else np.nan,
                        "greater_is_better": greater,
                        "se": float(values[ok].std(ddof=1) / np.sqrt(n)) if n > 1
                        else np.nan,
                        "n_rows": n, "n_nan": int(values.size - n),
                        "status": "ok" if n else "error",
                        "error": "" if n else "no finite score in LATEC's file",
                        "failed_in": "" if n else "metric", "warnings": "",
                        "cached": False,
                    })
                    per_row.append((model, method, metric, values))
    table = pd.DataFrame.from_records(rows, columns=TABLE_COLUMNS)
    sizes = [len(values) for *_, values in per_row]

    def repeated(k):
        return np.repeat(np.array([block[k] for block in per_row], dtype=object), sizes)

    per_row = pd.DataFrame({
        "dataset": dataset, "model": repeated(0), "explainer": repeated(1),
        "metric": repeated(2), "seed": 0,
        "row": np.concatenate([np.arange(n) for n in sizes]),
        "value": np.concatenate([values for *_, values in per_row]),
    }, columns=PER_ROW_COLUMNS)
    spec = {"name": f"latec_{dataset}", "source": "LATEC released evaluation scores",
            "file": os.path.basename(os.fspath(path)), "modality": modality}
    return BenchmarkResults(table, per_row, spec=spec, control=None)


def load_latec_saliency_maps(path, *, modality="image", max_bytes=16 * 2**30):
    """LATEC's released saliency maps, per model and method.

    Parameters
    ----------
    path : str or path-like
        LATEC's ``explain_<DataModule>_<n>_methods_<time>.npz``.
    modality : {"image", "volume", "point_cloud"}, default="image"
        Names the three models (:data:`LATEC_MODELS`).
    max_bytes : int, default=17179869184
        Largest file read.

    Returns
    -------
    maps : dict
        ``{model: {method: ndarray of shape (n_observations, n_features)}}``,
        each map flattened row-major (the layout of our attribution
        matrices, so every metric of :mod:`sklearn_xai.metrics` takes it);
        ``maps["_shape"]`` is the shape of one map.

    Examples
    --------
    >>> import os, tempfile
    >>> import numpy as np
    >>> from sklearn_xai.benchmark import load_latec_saliency_maps
    >>> path = os.path.join(tempfile.mkdtemp(), "explain_toy.npz")
    >>> np.savez(path, np.zeros((4, 14, 3, 8, 8)), np.zeros((4, 14, 3, 8, 8)),
    ...          np.zeros((4, 17, 3, 8, 8)))
    >>> maps = load_latec_saliency_maps(path)
    >>> maps["deit_small"]["attention_rollout"].shape, maps["_shape"]
    ((4, 192), (3, 8, 8))
    """
    _check_modality(modality)
    out, shape = {}, None
    with _open_archive(path, max_bytes, "saliency maps") as archive:
        for k, model in enumerate(LATEC_MODELS[modality]):
            name = f"arr_{k}"
            maps = _load_array(archive, name, path)
            if maps.ndim < 3:
                raise ValueError(
                    f"{path!r}: {name} has shape {maps.shape}; LATEC's maps are "
                    "(n_observations, n_methods, *map_shape).")
            if shape is None:
                shape = maps.shape[2:]
            elif maps.shape[2:] != shape:
                raise ValueError(f"{path!r}: {name}'s maps have shape {maps.shape[2:]}, "
                                 f"arr_0's {shape}.")
            methods = _method_names(maps.shape[1], path, name)
            out[model] = {method: maps[:, i].reshape(len(maps), -1)
                          for i, method in enumerate(methods)}
    out["_shape"] = tuple(int(s) for s in shape)
    return out
