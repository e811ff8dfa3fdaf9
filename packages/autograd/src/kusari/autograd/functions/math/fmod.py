"""Elementwise floating-point remainder."""
from kusari.autograd.functions.math import _ufunc_nodes
from kusari.autograd.functions.math.fix import fix


class Fmod(_ufunc_nodes.BinaryElementwise):
    """y = fmod(x, d) = x - d fix(x / d), with the sign of x;
    dy/dx = 1, dy/dd = -fix(x / d)."""

    name = 'fmod'
    arguments = ('x', 'divisor')

    def gradients(self, gy, x, divisor):
        return gy, -gy * fix(x / divisor)


def fmod(x, divisor):
    """Elementwise remainder of ``x / divisor`` with the sign of ``x``
    (C's ``fmod``; unlike ``x % divisor``, whose sign is the divisor's).

    Args:
        x: Variable or array, float: the dividends.
        divisor: Variable or array of the same dtype, broadcastable with
            ``x``.

    Returns:
        Variable of the broadcast shape and the inputs' dtype.
    """
    return Fmod().apply((x, divisor))[0]
