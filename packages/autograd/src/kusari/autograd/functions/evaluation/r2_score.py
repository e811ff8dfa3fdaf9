"""Coefficient of determination."""
from kusari.array import backend
from kusari.autograd.functions.evaluation import _metric
from kusari.autograd.utils import type_check


def _check(in_types):
    pred_type, true_type = in_types
    type_check.expect(pred_type.dtype.kind == 'f',
                      pred_type.dtype == true_type.dtype,
                      pred_type.shape == true_type.shape,
                      pred_type.ndim >= 1)


def r2_score(pred, true, sample_weight=None, multioutput='uniform_average'):
    """R^2 of predictions, per output column (axis 0 holds the samples):
    :math:`1 - \\sum (t - p)^2 / \\sum (t - \\bar t)^2`, taken as 0 where
    the targets are constant.

    Args:
        pred: Variable or array, float: predicted values.
        true: Variable or array of the shape and dtype of ``pred``.
        sample_weight: must be None (as in Chainer; kept for the
            signature of scikit-learn's r2_score).
        multioutput (str): ``'uniform_average'`` (the mean over outputs)
            or ``'raw_values'`` (one score per output).

    Returns:
        Variable of the dtype of ``pred``: a scalar, or
        ``pred.shape[1:]``; it records no graph.
    """
    if sample_weight is not None:
        raise ValueError('r2_score: sample_weight must be None (weighted '
                         'scores are not supported, as in Chainer)')
    if multioutput not in ('uniform_average', 'raw_values'):
        raise ValueError(f"r2_score: multioutput must be "
                         f"'uniform_average' or 'raw_values', got "
                         f"{multioutput!r}")
    pred, true = _metric.checked_arrays('r2_score', ('pred', 'true'),
                                        (pred, true), _check)
    return _metric.computed(_r2_score, pred, true, multioutput=multioutput)


def _r2_score(pred, true, multioutput):
    xp = backend.get_array_module(pred)
    residual = ((true - pred) ** 2).sum(axis=0)
    total = ((true - true.mean(axis=0)) ** 2).sum(axis=0)
    varies = total != 0
    score = xp.where(varies, 1 - residual / xp.where(varies, total, 1), 0)
    if multioutput == 'uniform_average':
        score = score.mean()
    return xp.asarray(score, dtype=pred.dtype)
