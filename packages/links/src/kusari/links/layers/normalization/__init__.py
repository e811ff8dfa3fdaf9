"""Normalization layers: batch, batch re-, decorrelated batch, group and
layer normalization, with their learnt scale and shift."""
