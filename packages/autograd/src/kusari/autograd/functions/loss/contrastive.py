"""Contrastive loss of pairs of embeddings."""
from kusari.autograd.functions.activation.relu import relu
from kusari.autograd.functions.array.cast import cast
from kusari.autograd.functions.loss import _common
from kusari.autograd.functions.math.sum import sum as sum_
from kusari.autograd.utils import type_check
from kusari.autograd.variable import as_array


def _check(in_types):
    x0_type, x1_type, y_type = in_types
    _common.expect_same_float(x0_type, x1_type)
    type_check.expect(x0_type.ndim == 2, y_type.dtype.kind == 'i',
                      y_type.ndim == 1)
    type_check.expect(x0_type.shape[0] == y_type.shape[0])


def contrastive(x0, x1, y, margin=1, reduce='mean'):
    """Contrastive loss: pulls similar pairs together and pushes
    dissimilar ones at least ``margin`` apart.

    With :math:`d_i = \\|x_{0i} - x_{1i}\\|_2`, the loss of pair ``i`` is
    :math:`\\frac{1}{2} (y_i d_i^2 + (1 - y_i) \\max(0, m - d_i)^2)`. At
    :math:`d_i = 0` the gradient of the second term is taken as 0.

    Args:
        x0: Variable or array ``(N, D)``, float.
        x1: Variable or array of the shape and dtype of ``x0``.
        y: array ``(N,)`` of ints: 1 for similar pairs, 0 for dissimilar.
        margin (float): :math:`m`, positive.
        reduce (str): ``'mean'`` (the sum divided by ``N``) or ``'no'``.

    Returns:
        Variable: a scalar, or ``(N,)``.
    """
    _common.check_option('contrastive', 'reduce', reduce, ('mean', 'no'))
    if margin <= 0:
        raise ValueError(f'contrastive: margin must be positive, got '
                         f'{margin}')
    _common.check_inputs('contrastive', ('x0', 'x1', 'y'), (x0, x1, y),
                         _check)
    diff = x0 - x1
    squared = sum_(diff * diff, axis=1)
    distance = _common.safe_sqrt(squared)
    # A cast (not astype) of the labels' array, so that a static graph's
    # replay reads that call's labels; as_array: they take no gradient.
    similar = cast(as_array(y), squared.dtype)
    shortfall = relu(margin - distance)
    loss = (squared * similar + shortfall * shortfall * (1 - similar)) * 0.5
    if reduce == 'mean':
        return sum_(loss) / max(similar.shape[0], 1)
    return loss
