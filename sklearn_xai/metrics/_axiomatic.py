"""Axiomatic properties of attributions: completeness, non-sensitivity and input invariance."""

__all__ = []
