"""Gumbel-softmax: a differentiable relaxation of categorical sampling."""
from kusari.array import backend
from kusari.autograd.functions.activation.softmax import softmax
from kusari.autograd.graph_optimizations.static_graph import static_code
from kusari.autograd.variable import Variable
from kusari.autograd.variable import as_variable
from kusari.autograd.utils import type_check


@type_check.checks_inputs
def gumbel_softmax(log_pi, tau=0.1, axis=1):
    """A relaxed one-hot draw from the categorical distribution of
    probabilities :math:`\\pi` (Jang et al., 2016):
    :math:`y = \\mathrm{softmax}((\\log\\pi + g) / \\tau)` along ``axis``,
    with :math:`g` drawn from the standard Gumbel distribution. Small
    :math:`\\tau` gives nearly one-hot outputs. It draws in training and
    testing alike; gradients flow to ``log_pi``, to any order.

    Args:
        log_pi: Variable or array, float, the log probabilities (or any
            unnormalized log weights).
        tau (float): the temperature, positive.
        axis (int): the axis of the categories.

    Returns:
        Variable of log_pi's shape and dtype; for a 0-d log_pi (a single
        category) the constant 1, as in Chainer.
    """
    if not tau > 0:
        raise ValueError(f'gumbel_softmax: tau must be positive, got {tau}')
    log_pi = as_variable(log_pi)
    xp = backend.get_array_module(log_pi.array)
    if log_pi.ndim == 0:
        return Variable(xp.ones((), log_pi.dtype))
    return softmax((log_pi + _gumbel_noise(log_pi.array)) / tau, axis=axis)


@static_code
def _gumbel_noise(log_pi):
    """Gumbel noise of ``log_pi``'s shape and dtype, drawn as static code:
    a static chain's replay draws anew."""
    xp = backend.get_array_module(log_pi)
    return xp.random.gumbel(size=log_pi.shape).astype(log_pi.dtype,
                                                      copy=False)
