"""Elementwise floor."""
from kusari.autograd.functions.math import _elementwise

floor = _elementwise.piecewise_constant(
    'floor', __name__,
    'Elementwise floor: the greatest integer :math:`\\leq x`.')
