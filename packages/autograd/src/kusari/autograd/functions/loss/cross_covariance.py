"""Cross-covariance penalty between two sets of features."""
from kusari.autograd.functions.loss import _common
from kusari.autograd.functions.math.average import mean
from kusari.autograd.functions.math.matmul import matmul
from kusari.autograd.functions.math.sum import sum as sum_
from kusari.autograd.utils import type_check

REDUCE = ('half_squared_sum', 'no')


def covariance(y, z):
    """The ``(M, K)`` covariance of the columns of ``y (N, M)`` with those
    of ``z (N, K)``, over the ``N`` rows."""
    y_centered = y - mean(y, axis=0, keepdims=True)
    z_centered = z - mean(z, axis=0, keepdims=True)
    return matmul(y_centered, z_centered, transa=True) / max(y.shape[0], 1)


def half_squared_sum(x):
    return sum_(x * x) * 0.5


def _check(in_types):
    y_type, z_type = in_types
    type_check.expect(y_type.dtype.kind == 'f', y_type.dtype == z_type.dtype,
                      y_type.ndim == 2, z_type.ndim == 2)
    type_check.expect(y_type.shape[0] == z_type.shape[0])


def cross_covariance(y, z, reduce='half_squared_sum'):
    """Cross-covariance penalty :math:`\\frac{1}{2} \\sum_{ij} C_{ij}^2`,
    where :math:`C` is the covariance of the columns of ``y`` with those of
    ``z``: decorrelates two sets of features.

    Args:
        y: Variable or array ``(N, M)``, float.
        z: Variable or array ``(N, K)`` of the dtype of ``y``.
        reduce (str): ``'half_squared_sum'`` or ``'no'`` (the ``(M, K)``
            matrix :math:`C`).

    Returns:
        Variable: a scalar, or ``(M, K)``.
    """
    _common.check_option('cross_covariance', 'reduce', reduce, REDUCE)
    _common.check_inputs('cross_covariance', ('y', 'z'), (y, z), _check)
    cov = covariance(y, z)
    return half_squared_sum(cov) if reduce == 'half_squared_sum' else cov
