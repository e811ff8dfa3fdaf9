"""Elementwise ceiling."""
from kusari.autograd.functions.math import _elementwise

ceil = _elementwise.piecewise_constant(
    'ceil', __name__,
    'Elementwise ceiling: the least integer :math:`\\geq x`.')
