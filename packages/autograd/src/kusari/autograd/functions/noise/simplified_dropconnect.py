"""Simplified DropConnect: a linear layer with dropped weights."""
import math


from kusari.array import backend
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.functions.math import _mixed_dtypes
from kusari.autograd.functions.math.matmul import matmul
from kusari.autograd.functions.noise._arguments import check_ratio
from kusari.autograd.graph_optimizations.static_graph import static_code
from kusari.autograd.variable import as_array
from kusari.autograd.variable import as_variable
from kusari.autograd.utils import type_check

_NAME = 'simplified_dropconnect'


def _check_shapes(x, W, b, mask, use_batchwise_mask):
    if x.ndim < 2 or W.ndim != 2:
        raise ValueError(f'{_NAME}: x must have 2 or more axes and W 2, got '
                         f'shapes {x.shape} and {W.shape}')
    if x.dtype.kind != 'f' or W.dtype.kind != 'f':
        raise TypeError(f'{_NAME}: x and W must be float, got '
                        f'{x.dtype} and {W.dtype}')
    in_size = math.prod(x.shape[1:])
    if in_size != W.shape[1]:
        raise ValueError(f'{_NAME}: x has {in_size} features per sample '
                         f'but W has {W.shape[1]} columns')
    if b is not None and (b.shape != W.shape[:1] or b.dtype != x.dtype):
        raise ValueError(f'{_NAME}: b must be of shape {W.shape[:1]} and '
                         f'dtype {x.dtype}, got {b.shape} and {b.dtype}')
    mask_shape = (x.shape[:1] if use_batchwise_mask else ()) + W.shape
    if mask is not None and mask.shape != mask_shape:
        raise ValueError(f'{_NAME}: mask must be of shape {mask_shape}, got '
                         f'{mask.shape}')
    return mask_shape


@type_check.checks_inputs
def simplified_dropconnect(x, W, b=None, ratio=.5, train=True, mask=None,
                           use_batchwise_mask=True):
    """A linear layer whose weights are dropped at random (Wan et al.,
    2013, simplified): :math:`y = x (M \\odot W)^\\top / (1 - r) + b`,
    with each mask element :math:`M` 0 with probability ``ratio``.

    Unlike :func:`dropout` it follows its ``train`` argument, not
    ``config.train``: with ``train=False`` nothing is dropped or scaled
    (a given mask still applies). Built from differentiable functions:
    gradients flow to x, W and b, to any order.

    Args:
        x: Variable or array, float, of shape ``(N, ...)``; its axes after
            the first are flattened.
        W: Variable or array of shape ``(out_size, in_size)``, float (of
            any float dtype).
        b: Variable or array of shape ``(out_size,)`` and x's dtype, or
            None.
        ratio (float): the probability of dropping a weight, in [0, 1).
        train (bool): drop weights (True) or not.
        mask: an array of 0s and 1s to use instead of drawing (shape
            ``(N, out_size, in_size)``, or W's shape without
            ``use_batchwise_mask``); then the output is deterministic.
        use_batchwise_mask (bool): draw one mask per sample, or one for
            the whole batch.

    Returns:
        Variable of shape ``(N, out_size)`` and x's dtype.
    """
    ratio = check_ratio(_NAME, ratio) if train else 0.0
    x, W = as_variable(x), as_variable(W)
    mask = None if mask is None else as_array(mask)
    mask_shape = _check_shapes(x, W, b, mask, use_batchwise_mask)
    kept = _kept_weights(W.array, mask, mask_shape, ratio)
    rows = reshape(x, (x.shape[0], W.shape[1]))
    if use_batchwise_mask:
        y = matmul(W * kept, reshape(rows, rows.shape + (1,)))
        y = reshape(y, y.shape[:2])
    else:
        y = matmul(rows, W * kept, transb=True)
    y = _mixed_dtypes.as_dtype_of(x, y)
    return y if b is None else y + b


@static_code
def _kept_weights(W, mask, mask_shape, ratio):
    """The factor of each weight, ``mask / (1 - ratio)`` in W's dtype, with
    ``mask`` drawn (``mask_shape``, kept with probability ``1 - ratio``)
    where None: static code, so that a static chain's replay draws anew
    (or reads that call's mask)."""
    xp = backend.get_array_module(W)
    if mask is None:
        mask = xp.random.random_sample(mask_shape) >= ratio
    scale = W.dtype.type(1.0 / (1.0 - ratio))
    return xp.multiply(mask, scale, dtype=W.dtype)
