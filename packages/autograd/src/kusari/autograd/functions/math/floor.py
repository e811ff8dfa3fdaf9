"""Elementwise floor."""
from kusari.autograd.functions.math import _ufunc_nodes

floor = _ufunc_nodes.piecewise_constant(
    'floor', __name__,
    'Elementwise floor: the greatest integer :math:`\\leq x`.')
