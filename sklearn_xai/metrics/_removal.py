"""Correlation-type removal metrics (faithfulness): sensitivity-n, faithfulness estimate, monotonicity correlation and ROAD."""

__all__ = []
