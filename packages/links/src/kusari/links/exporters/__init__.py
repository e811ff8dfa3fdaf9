"""Exporters of a model's computational graph to other frameworks'
formats (``chainer.exporters``): ``caffe`` writes a Caffe network."""
from kusari.links.links.caffe import export as caffe  # NOQA
