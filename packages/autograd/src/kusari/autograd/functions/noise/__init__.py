"""Noise injections."""
