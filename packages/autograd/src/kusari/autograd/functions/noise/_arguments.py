"""Argument checks of the noise functions: among them, the keyword
arguments Chainer v7 removed from the noise and normalization functions,
rejected with Chainer's pointer to the configuration."""
from kusari.autograd.utils import type_check


def reject_removed(func_name, kwargs):
    """Raise for any keyword argument left in ``kwargs``: ValueError for
    ``train`` (replaced by ``config.train``), TypeError for others."""
    if 'train' in kwargs:
        raise ValueError(
            f'{func_name}: the train argument is not supported anymore; '
            f"use chainer.using_config('train', ...) instead")
    if kwargs:
        raise TypeError(f'{func_name}: unexpected keyword arguments: '
                        f'{", ".join(sorted(kwargs))}')


def check_ratio(func_name, ratio):
    """Return ``ratio`` as a float in [0, 1), or raise ValueError."""
    ratio = float(ratio)
    if not 0.0 <= ratio < 1.0:
        raise ValueError(f'{func_name}: ratio must be in [0, 1), got '
                         f'{ratio}')
    return ratio


def expect_float_pair(in_types, names):
    """Type-check two inputs called ``names``: the first float, the second
    of its dtype and shape; returns the first's type."""
    type_check.argname(in_types, names)
    first, second = in_types
    type_check.expect(
        first.dtype.kind == 'f',
        second.dtype == first.dtype,
        second.shape == first.shape,
    )
    return first
