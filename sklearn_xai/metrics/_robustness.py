"""Robustness of explanations to small input changes: average sensitivity, local Lipschitz estimate, continuity and consistency."""

__all__ = []
