"""Triplet loss of anchor, positive and negative embeddings."""
from kusari.autograd.functions.activation.relu import relu
from kusari.autograd.functions.loss import _common
from kusari.autograd.functions.math.average import mean
from kusari.autograd.functions.math.sum import sum as sum_
from kusari.autograd.utils import type_check


def _check(in_types):
    _common.expect_same_float(*in_types)
    type_check.expect(in_types[0].ndim == 2)


def triplet(anchor, positive, negative, margin=0.2, reduce='mean'):
    """Triplet loss: the anchor should be nearer the positive than the
    negative by ``margin``, in squared Euclidean distance.

    :math:`l_i = \\max(0, \\|a_i - p_i\\|^2 - \\|a_i - n_i\\|^2 + m)`.

    Args:
        anchor: Variable or array ``(N, D)``, float.
        positive: Variable or array of the shape and dtype of ``anchor``.
        negative: Variable or array of the shape and dtype of ``anchor``.
        margin (float): :math:`m`, positive.
        reduce (str): ``'mean'`` or ``'no'`` (one value per row).

    Returns:
        Variable: a scalar, or ``(N,)``.
    """
    _common.check_option('triplet', 'reduce', reduce, ('mean', 'no'))
    if margin <= 0:
        raise ValueError(f'triplet: margin must be positive, got {margin}')
    _common.check_inputs('triplet', ('anchor', 'positive', 'negative'),
                         (anchor, positive, negative), _check)
    near, far = anchor - positive, anchor - negative
    loss = relu(sum_(near * near, axis=1) - sum_(far * far, axis=1) + margin)
    return mean(loss) if reduce == 'mean' else loss
