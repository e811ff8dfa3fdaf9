"""Utilities of the autograd package: input type checks, array helpers."""
