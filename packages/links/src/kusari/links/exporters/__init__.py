"""Exporters of a model's computational graph to other frameworks'
formats (``chainer.exporters``): ``caffe`` writes a Caffe network."""
from kusari.links.layers.caffe import export as caffe  # NOQA
