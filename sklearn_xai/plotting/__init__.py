"""Plots of explanations: per-row waterfalls, beeswarms, importance bars and
image overlays, in scikit-learn's ``Display`` style.

Each display is built from a fitted explainer (``from_explainer``) or from an
attribution matrix (``from_attributions``); ``plot`` draws it and stores the
matplotlib artists.  matplotlib is imported only when a display draws.
"""

from sklearn_xai.plotting._bar import MeanAbsAttributionDisplay
from sklearn_xai.plotting._beeswarm import BeeswarmDisplay
from sklearn_xai.plotting._image import ImageOverlayDisplay
from sklearn_xai.plotting._waterfall import WaterfallDisplay

__all__ = [
    "BeeswarmDisplay",
    "ImageOverlayDisplay",
    "MeanAbsAttributionDisplay",
    "WaterfallDisplay",
]
