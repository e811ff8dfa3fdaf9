"""Elementwise rounding towards zero."""
from kusari.autograd.functions.math import _elementwise

fix = _elementwise.piecewise_constant(
    'fix', __name__,
    'Elementwise rounding towards zero: ``floor`` for positive ``x``,\n'
    '    ``ceil`` for negative.')
