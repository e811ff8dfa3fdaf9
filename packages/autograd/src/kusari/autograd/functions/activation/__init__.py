"""Activation functions."""
