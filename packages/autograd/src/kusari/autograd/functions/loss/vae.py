"""Losses of variational autoencoders: the KL divergence of a Gaussian
from the standard one, and the negative log-likelihoods of Bernoulli and
Gaussian distributions."""
import math

from kusari.autograd.functions.activation.softplus import softplus
from kusari.autograd.functions.loss import _common
from kusari.autograd.functions.math.exponential import exp
from kusari.autograd.variable import Variable

_REDUCE = ('sum', 'mean', 'no')


def gaussian_kl_divergence(mean, ln_var, reduce='sum'):
    """KL divergence of :math:`N(\\mu, \\sigma^2)` from :math:`N(0, 1)`,
    elementwise: :math:`\\frac{1}{2} (\\mu^2 + \\sigma^2 - \\log \\sigma^2
    - 1)`.

    Args:
        mean: Variable or array, float: :math:`\\mu`.
        ln_var: Variable or array of the shape and dtype of ``mean``:
            :math:`\\log \\sigma^2`.
        reduce (str): ``'sum'``, ``'mean'`` or ``'no'`` (elementwise).

    Returns:
        Variable: a scalar, or the shape of ``mean``.
    """
    _common.check_option('gaussian_kl_divergence', 'reduce', reduce, _REDUCE)
    _common.check_same_float('gaussian_kl_divergence', ('mean', 'ln_var'),
                         (mean, ln_var))
    loss = (mean * mean + exp(ln_var) - ln_var - 1) * 0.5
    return _common.reduce_loss(loss, reduce)


def bernoulli_nll(x, y, reduce='sum'):
    """Negative log-likelihood of ``x`` under Bernoulli distributions of
    logits ``y``: :math:`\\log(1 + e^{y}) - x y`, elementwise, computed
    without overflow.

    Args:
        x: Variable or array, float: observations in [0, 1] (an array
            may be of bools or ints too, as in Chainer).
        y: Variable or array of the shape and dtype of ``x``: the
            pre-sigmoid parameters.
        reduce (str): ``'sum'``, ``'mean'`` or ``'no'`` (elementwise).

    Returns:
        Variable: a scalar, or the shape of ``x``.
    """
    _common.check_option('bernoulli_nll', 'reduce', reduce, _REDUCE)
    if not isinstance(x, Variable) and getattr(
            getattr(x, 'dtype', None), 'kind', 'f') in 'biu' and hasattr(
            y, 'dtype'):
        # Observations given as bools or ints, as Chainer takes them: an
        # array gets no gradient, so it may be cast.
        x = x.astype(y.dtype)
    _common.check_same_float('bernoulli_nll', ('x', 'y'), (x, y))
    return _common.reduce_loss(softplus(y) - x * y, reduce)


def gaussian_nll(x, mean, ln_var, reduce='sum'):
    """Negative log-likelihood of ``x`` under :math:`N(\\mu, \\sigma^2)`,
    elementwise: :math:`\\frac{1}{2} (\\log 2\\pi + \\log \\sigma^2 +
    (x - \\mu)^2 / \\sigma^2)`.

    Args:
        x: Variable or array, float.
        mean: Variable or array of the shape and dtype of ``x``.
        ln_var: Variable or array of the shape and dtype of ``x``:
            :math:`\\log \\sigma^2`.
        reduce (str): ``'sum'``, ``'mean'`` or ``'no'`` (elementwise).

    Returns:
        Variable: a scalar, or the shape of ``x``.
    """
    _common.check_option('gaussian_nll', 'reduce', reduce, _REDUCE)
    _common.check_same_float('gaussian_nll', ('x', 'mean', 'ln_var'),
                         (x, mean, ln_var))
    diff = x - mean
    loss = (ln_var + diff * diff * exp(-ln_var) + math.log(2 * math.pi)) * 0.5
    return _common.reduce_loss(loss, reduce)
