"""Elementwise sign."""
from kusari.autograd.functions.math import _ufunc_nodes

sign = _ufunc_nodes.piecewise_constant(
    'sign', __name__,
    'Elementwise sign: -1, 0 or 1 (0 for both zeros; NaN stays NaN).',
    kinds='iufc')
