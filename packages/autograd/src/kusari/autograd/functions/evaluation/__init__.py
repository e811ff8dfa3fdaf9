"""Evaluation functions: metrics computed without a graph."""
