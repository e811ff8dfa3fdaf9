"""Elementwise rounding towards zero."""
from kusari.autograd.functions.math import _ufunc_nodes

fix = _ufunc_nodes.piecewise_constant(
    'fix', __name__,
    'Elementwise rounding towards zero: ``floor`` for positive ``x``,\n'
    '    ``ceil`` for negative.')
