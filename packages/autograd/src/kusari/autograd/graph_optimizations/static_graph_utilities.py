"""Chainer's home of :func:`static_code`, for code that imports it from
``chainer.graph_optimizations.static_graph_utilities``."""
from kusari.autograd.graph_optimizations.static_graph import \
    static_code  # NOQA
