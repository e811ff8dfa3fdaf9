"""Elementwise ceiling."""
from kusari.autograd.functions.math import _ufunc_nodes

ceil = _ufunc_nodes.piecewise_constant(
    'ceil', __name__,
    'Elementwise ceiling: the least integer :math:`\\geq x`.')
