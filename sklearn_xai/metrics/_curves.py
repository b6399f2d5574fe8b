"""Removal and insertion curves (faithfulness): pixel flipping, region perturbation, selectivity, IROF and the insertion/deletion curves of shap.benchmark."""

__all__ = []
