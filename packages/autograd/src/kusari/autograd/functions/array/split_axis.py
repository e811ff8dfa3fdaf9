"""Splitting along an axis; the adjoint of concatenation."""
import numbers

import numpy

from kusari.array import backend
from kusari.array import lazy_cupy
from kusari.autograd.functions.array import _axes
from kusari.autograd.functions.array._concat_split import SplitAxis


def split_axis(x, indices_or_sections, axis, force_tuple=True):
    """Split ``x`` along ``axis``.

    Args:
        x: Variable or array.
        indices_or_sections: an int N (split into N equal parts; the axis
            length must be divisible by N), or a sequence (or 1-D integer
            array) of non-negative indices in ascending order where the
            pieces begin, as ``numpy.split``.
        axis: the axis to split.
        force_tuple: return a tuple even when there is a single piece;
            otherwise a single piece is returned as a Variable.

    Returns:
        A tuple of Variables (or one Variable, see ``force_tuple``).
    """
    axis = _axes.check_int('split_axis', 'axis', axis)
    if isinstance(indices_or_sections, numbers.Integral) and not \
            isinstance(indices_or_sections, bool):
        indices_or_sections = _axes.check_int(
            'split_axis', 'indices_or_sections', indices_or_sections, 1)
    else:
        if isinstance(indices_or_sections, numpy.ndarray) or \
                lazy_cupy.is_cupy_array(indices_or_sections):
            indices_or_sections = backend.CpuDevice().send_array(
                indices_or_sections).tolist()
        indices_or_sections = list(_axes.check_ints(
            'split_axis', 'indices_or_sections', indices_or_sections, 0))
        if any(a > b for a, b in zip(indices_or_sections,
                                     indices_or_sections[1:])):
            # The pieces would overlap, and concatenating their gradients
            # would not give x's shape (Chainer checks this in debug mode).
            raise ValueError(
                f'split_axis: indices_or_sections must be sorted; got '
                f'{indices_or_sections}')
    ys = SplitAxis(indices_or_sections, axis).apply((x,))
    if len(ys) == 1 and not force_tuple:
        return ys[0]
    return ys
