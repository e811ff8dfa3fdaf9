"""Bilinear sampling of images at grid points (spatial transformer)."""
from kusari.array import backend
from kusari.autograd.functions.array._kwargs import reject_kwargs
from kusari.autograd.functions.array.expand_dims import expand_dims
from kusari.autograd.functions.array.get_item import get_item
from kusari.autograd.functions.array.pad import pad
from kusari.autograd.functions.array.transpose import transpose
from kusari.autograd.functions.array.where import where
from kusari.autograd.utils import type_check
from kusari.autograd.variable import as_variable


def _clip(coordinate, high):
    """``coordinate`` clipped to ``[0, high]``; constant there and beyond,
    so that no gradient flows from the bounds on (as in Chainer)."""
    array = coordinate.array
    xp = backend.get_array_module(array)
    inside = (array > 0) & (array < high)
    return where(inside, coordinate, xp.clip(array, 0, high))


def _pixel_coordinate(normalized, size):
    """From ``[-1, 1]`` to ``[1, size]``: pixels of the image padded by
    one zero pixel on each side, clipped to that padded image."""
    return _clip((normalized + 1) * ((size - 1) / 2) + 1, size + 1)


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
    n, _, h, w = x.shape
    xp = backend.get_array_module(x.array)
    u = _pixel_coordinate(grid[:, 0], w)
    v = _pixel_coordinate(grid[:, 1], h)
    u0 = xp.minimum(xp.floor(u.array), w).astype(x.dtype)
    v0 = xp.minimum(xp.floor(v.array), h).astype(x.dtype)
    u1, v1 = u0 + 1, v0 + 1
    # Pixels as (n, h, w, c) rows, so each gather gives (n, out_h, out_w, c).
    pixels = transpose(pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)), 'constant'),
                       (0, 2, 3, 1))
    batch = xp.arange(n).reshape(n, 1, 1)
    y = None
    for (rows, row_weight), (cols, col_weight) in (
            ((v0, v1 - v), (u0, u1 - u)), ((v0, v1 - v), (u1, u - u0)),
            ((v1, v - v0), (u0, u1 - u)), ((v1, v - v0), (u1, u - u0))):
        corner = get_item(pixels, (batch, rows.astype(xp.intp),
                                   cols.astype(xp.intp)))
        term = corner * expand_dims(row_weight * col_weight, 3)
        y = term if y is None else y + term
    return transpose(y, (0, 3, 1, 2))
