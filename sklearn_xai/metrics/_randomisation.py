"""Randomisation sanity checks: model parameter randomisation (cascading and independent, smooth and efficient variants), random logit and data randomisation."""

__all__ = []
