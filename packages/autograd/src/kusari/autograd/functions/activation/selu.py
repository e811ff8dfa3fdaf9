"""Scaled exponential linear unit."""
from kusari.autograd.functions.activation.elu import elu


def selu(x, alpha=1.6732632423543772848170429916717,
         scale=1.0507009873554804934193349852946):
    """Scaled exponential linear unit: :math:`y = \\lambda x` where
    :math:`x > 0`, :math:`y = \\lambda \\alpha (e^x - 1)` elsewhere.

    The default constants make the activations of a suitably initialised
    network self-normalizing (Klambauer et al., 2017).

    Args:
        x: Variable or array, float.
        alpha (float): :math:`\\alpha`.
        scale (float): :math:`\\lambda`.

    Returns:
        Variable of the same shape and dtype.
    """
    return elu(x, alpha) * float(scale)
