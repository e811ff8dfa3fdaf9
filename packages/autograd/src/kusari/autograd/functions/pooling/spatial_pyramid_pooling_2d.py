"""Spatial pyramid pooling: max pooling at several grid sizes, flattened
into one fixed-length vector per image."""
import math

from kusari.autograd.functions.array.concat import concat
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.functions.pooling.max_pooling_nd import max_pooling_2d


def spatial_pyramid_pooling_2d(x, pyramid_height, pooling=None):
    """Spatial pyramid pooling.

    Level ``l`` (``0 <= l < pyramid_height``) max-pools x over a grid of
    ``2^l x 2^l`` bins (windows of ``ceil(h / 2^l) x ceil(w / 2^l)``,
    padded evenly to cover the image); the pooled values of all levels are
    concatenated along the channel axis.

    Args:
        x: Variable or array ``(n, c, h, w)``, float.
        pyramid_height (int): Number of levels.
        pooling (str): The pooling of every bin; only ``'max'`` exists.

    Returns:
        Variable ``(n, c * sum_l 4^l, 1, 1)`` (when every level has its
        full grid).
    """
    func_name = 'spatial_pyramid_pooling_2d'
    if pooling != 'max':
        raise ValueError(f"{func_name}: pooling must be 'max'; got "
                         f"{pooling!r}")
    if isinstance(pyramid_height, bool) or not isinstance(
            pyramid_height, int) or pyramid_height < 1:
        raise ValueError(f'{func_name}: pyramid_height must be a positive '
                         f'int; got {pyramid_height!r}')
    if getattr(x, 'ndim', None) != 4:
        raise ValueError(f'{func_name}: x must be (n, c, h, w); got shape '
                         f'{getattr(x, "shape", None)}')
    n, _, h, w = x.shape
    ys = []
    for level in range(pyramid_height):
        bins = 2 ** level
        ksize = (math.ceil(h / bins), math.ceil(w / bins))
        pad = ((ksize[0] * bins - h) // 2, (ksize[1] * bins - w) // 2)
        y = max_pooling_2d(x, ksize, None, pad, cover_all=True)
        ys.append(reshape(y, (n, y.size // max(n, 1), 1, 1)))
    return concat(ys, axis=1)
