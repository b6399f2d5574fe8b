"""Localisation of attributions on a ground-truth mask: pointing game, attribution localisation and top-k intersection."""

__all__ = []
