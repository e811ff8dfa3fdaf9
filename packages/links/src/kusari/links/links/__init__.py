"""Layers: the concrete links (``chainer.links``), Linear, Convolution2D
and the others, each in its own module."""
from kusari.links.classifier import Classifier  # NOQA
