"""Bilinear sampling of images at grid points (spatial transformer)."""
import numpy

from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.array._kwargs import reject_kwargs
from kusari.autograd.functions.array.expand_dims import expand_dims
from kusari.autograd.functions.array.pad import pad
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.functions.array.stack import stack
from kusari.autograd.functions.array.transpose import transpose
from kusari.autograd.functions.array.where import where
from kusari.autograd.functions.connection.embed_id import embed_id
from kusari.autograd.functions.math.sum import sum as sum_
from kusari.autograd.utils import type_check
from kusari.autograd.variable import as_variable


class _Clamp(function_node.FunctionNode):
    """``x`` clipped to ``[0, high]``; constant there and beyond, so that
    no gradient flows from the bounds on (as in Chainer). The mask of the
    points inside is found in forward, so a static graph's replay finds it
    anew."""

    def __init__(self, high):
        self.high = high

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        self._inside = (x > 0) & (x < self.high)
        return xp.clip(x, 0, self.high),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        xp = backend.get_array_module(gy.array)
        return where(self._inside, gy, xp.zeros((), gy.dtype)),


class _Cells(function_node.FunctionNode):
    """The cell of the padded image ``(n, h + 2, w + 2)`` around each
    sampling point ``(u, v)``: its bounds ``u0 <= u <= u1 = u0 + 1`` and
    ``v0 <= v <= v1``, then the rows of its corners in the pixel table
    ``(n (h + 2) (w + 2), c)``, stacked: top-left, top-right,
    bottom-left, bottom-right. Found in forward, so a static graph's
    replay finds them anew; not differentiable."""

    def __init__(self, h, w):
        self.h, self.w = h, w

    def forward(self, inputs):
        u, v = inputs
        xp = backend.get_array_module(u)
        u0 = xp.minimum(xp.floor(u), self.w)
        v0 = xp.minimum(xp.floor(v), self.h)
        n = u.shape[0]
        width = self.w + 2
        image = xp.arange(n, dtype=numpy.intp).reshape(n, 1, 1) * (
            (self.h + 2) * width)
        top_left = image + v0.astype(numpy.intp) * width + u0.astype(
            numpy.intp)
        corners = xp.stack((top_left, top_left + 1, top_left + width,
                            top_left + width + 1))
        return u0, u0 + 1, v0, v0 + 1, corners

    def backward(self, indexes, grad_outputs):
        return (None,) * len(indexes)


def _pixel_coordinate(normalized, size):
    """From ``[-1, 1]`` to ``[1, size]``: pixels of the image padded by
    one zero pixel on each side, clipped to that padded image."""
    coordinate = (normalized + 1) * ((size - 1) / 2) + 1
    return _Clamp(size + 1).apply((coordinate,))[0]


def _check(x, grid):
    x_shape, g_shape = x.shape, grid.shape
    ok = (x.ndim == 4 and grid.ndim == 4 and g_shape[1] == 2 and
          x_shape[0] == g_shape[0] and x.dtype == grid.dtype and
          x.dtype.kind == 'f')
    if not ok:
        raise type_check.InvalidType(
            'x of shape (n, c, h, w) and grid of shape (n, 2, out_h, '
            'out_w), of one float dtype',
            f'x: {x_shape} {x.dtype}, grid: {g_shape} {grid.dtype}',
            f'spatial_transformer_sampler: x must have shape (n, c, h, w) '
            f'and grid (n, 2, out_h, out_w), both of one float dtype; got '
            f'x {x_shape} {x.dtype} and grid {g_shape} {grid.dtype}')


@type_check.checks_inputs
def spatial_transformer_sampler(x, grid, **kwargs):
    """Sample ``x`` bilinearly at the points of ``grid`` (zero outside
    the image).

    A point ``(-1, -1)`` is the center of the top-left pixel, ``(1, 1)``
    that of the bottom-right one; ``grid[:, 0]`` holds x (width)
    coordinates and ``grid[:, 1]`` y (height) coordinates, as made by
    :func:`spatial_transformer_grid`.

    Args:
        x: Variable or array of shape ``(n, c, h, w)``, float.
        grid: Variable or array of shape ``(n, 2, out_h, out_w)``.

    Returns:
        Variable of shape ``(n, c, out_h, out_w)``; differentiable in both
        ``x`` and ``grid`` (twice).
    """
    reject_kwargs('spatial_transformer_sampler', kwargs)
    x, grid = as_variable(x), as_variable(grid)
    _check(x, grid)
    n, c, h, w = x.shape
    u = _pixel_coordinate(grid[:, 0], w)
    v = _pixel_coordinate(grid[:, 1], h)
    # (On the arrays of u and v: the cells take no gradient.)
    u0, u1, v0, v1, corners = _Cells(h, w).apply((u.array, v.array))
    # Pixels as rows of a table, and the four corners' values and weights
    # stacked: (4, n, out_h, out_w, c) and (4, n, out_h, out_w, 1).
    pixels = reshape(
        pad(transpose(x, (0, 2, 3, 1)), ((0, 0), (1, 1), (1, 1), (0, 0)),
            'constant'), (n * (h + 2) * (w + 2), c))
    weights = stack(((v1 - v) * (u1 - u), (v1 - v) * (u - u0),
                     (v - v0) * (u1 - u), (v - v0) * (u - u0)))
    y = sum_(embed_id(corners, pixels) * expand_dims(weights, 4), axis=0)
    return transpose(y, (0, 3, 1, 2))
