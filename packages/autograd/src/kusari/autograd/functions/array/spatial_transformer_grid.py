"""Sampling grids of a 2-D spatial transformer."""
from kusari.array import backend
from kusari.autograd.functions.array import _axes
from kusari.autograd.functions.array._kwargs import reject_kwargs
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.functions.math.matmul import matmul
from kusari.autograd.utils import type_check
from kusari.autograd.variable import as_array


def target_coordinates(xp, dtype, height, width):
    """``(3, height * width)``: the x and y coordinates in ``[-1, 1]`` of
    every output pixel in C order, and a row of ones."""
    ys, xs = xp.meshgrid(xp.linspace(-1, 1, height),
                         xp.linspace(-1, 1, width), indexing='ij')
    return xp.stack([xs.ravel(), ys.ravel(),
                     xp.ones(height * width)]).astype(dtype)


@type_check.checks_inputs
def spatial_transformer_grid(theta, output_shape, **kwargs):
    """The grid a 2-D spatial transformer samples at: each output pixel's
    normalized coordinates ``(x_t, y_t)`` in ``[-1, 1]``, mapped by the
    affine transform ``theta @ (x_t, y_t, 1)``.

    Args:
        theta: Variable or array of shape ``(n, 2, 3)``, float.
        output_shape: ``(out_h, out_w)``, positive ints.

    Returns:
        Variable of shape ``(n, 2, out_h, out_w)``: channel 0 holds the x
        (width) coordinates, channel 1 the y (height) coordinates of the
        source points, for :func:`spatial_transformer_sampler`.
    """
    reject_kwargs('spatial_transformer_grid', kwargs)
    out_h, out_w = _axes.check_ints('spatial_transformer_grid',
                                    'output_shape', output_shape, 1)
    array = as_array(theta)
    if array.ndim != 3 or array.shape[1:] != (2, 3) or \
            array.dtype.kind != 'f':
        raise type_check.InvalidType(
            'theta of shape (n, 2, 3), float',
            f'shape {array.shape}, {array.dtype}',
            f'spatial_transformer_grid: theta must be a float array of '
            f'shape (n, 2, 3); got shape {array.shape} and dtype '
            f'{array.dtype}')
    xp = backend.get_array_module(array)
    points = target_coordinates(xp, array.dtype, out_h, out_w)
    grid = matmul(theta, points)
    return reshape(grid, (len(array), 2, out_h, out_w))
