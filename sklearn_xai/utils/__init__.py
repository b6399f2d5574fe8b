"""Utilities shared by explainers, maskers and metrics."""

from sklearn_xai.utils._config import (
    check_allocation,
    config_context,
    get_config,
    set_config,
)
from sklearn_xai.utils._exceptions import NotApplicableError
from sklearn_xai.utils._output import (
    ExplainedOutput,
    class_index,
    explained_output,
    model_input_dtype,
)
from sklearn_xai.utils._random import (
    RowStreams,
    row_generators,
    row_integers,
    row_keys,
    row_normal,
    row_permutations,
    row_uniform,
    seed_entropy,
)
from sklearn_xai.utils._validation import (
    check_attributions,
    check_reference,
    dense_rank,
    magnitude_order,
    resolve_k,
    top_k_mask,
)

__all__ = [
    "ExplainedOutput",
    "NotApplicableError",
    "RowStreams",
    "check_allocation",
    "check_attributions",
    "check_reference",
    "class_index",
    "config_context",
    "dense_rank",
    "explained_output",
    "get_config",
    "magnitude_order",
    "model_input_dtype",
    "resolve_k",
    "row_generators",
    "row_integers",
    "row_keys",
    "row_normal",
    "row_permutations",
    "row_uniform",
    "seed_entropy",
    "set_config",
    "top_k_mask",
]
