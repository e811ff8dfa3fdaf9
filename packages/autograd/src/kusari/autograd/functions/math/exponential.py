"""Exponential and logarithms."""
import math

from kusari.autograd.functions.math import _ufunc_nodes
# Re-exported: other one-input functions (tanh) check their input with it.
from kusari.autograd.functions.math._ufunc_nodes import check_float_input  # NOQA


class Exp(_ufunc_nodes.UnaryElementwise):
    """y = exp(x); dy/dx = y."""

    name = 'exp'
    retained = 'y'

    def gradient(self, gy, x, y):
        return gy * y


class Log(_ufunc_nodes.UnaryElementwise):
    """y = log(x); dy/dx = 1 / x."""

    name = 'log'

    def gradient(self, gy, x, y):
        return gy / x


class Log2(_ufunc_nodes.UnaryElementwise):
    """y = log2(x); dy/dx = 1 / (x log 2)."""

    name = 'log2'

    def gradient(self, gy, x, y):
        return gy / x * (1 / math.log(2))


class Log10(_ufunc_nodes.UnaryElementwise):
    """y = log10(x); dy/dx = 1 / (x log 10)."""

    name = 'log10'

    def gradient(self, gy, x, y):
        return gy / x * (1 / math.log(10))


def exp(x):
    """Elementwise exponential :math:`e^x`.

    Args:
        x: Variable or array, float.

    Returns:
        Variable of the same shape and dtype.
    """
    return Exp().apply((x,))[0]


def log(x):
    """Elementwise natural logarithm :math:`\\ln x`.

    Args:
        x: Variable or array, float.

    Returns:
        Variable of the same shape and dtype.
    """
    return Log().apply((x,))[0]


def log2(x):
    """Elementwise logarithm to the base 2, :math:`\\log_2 x`.

    Args:
        x: Variable or array, float.

    Returns:
        Variable of the same shape and dtype.
    """
    return Log2().apply((x,))[0]


def log10(x):
    """Elementwise logarithm to the base 10, :math:`\\log_{10} x`.

    Args:
        x: Variable or array, float.

    Returns:
        Variable of the same shape and dtype.
    """
    return Log10().apply((x,))[0]
