"""Square root and reciprocal square root."""
from kusari.autograd.functions.math import _ufunc_nodes


class Sqrt(_ufunc_nodes.UnaryElementwise):
    """y = sqrt(x); dy/dx = 1 / (2 y)."""

    name = 'sqrt'
    retained = 'y'

    def gradient(self, gy, x, y):
        return gy / y * 0.5


class Rsqrt(_ufunc_nodes.UnaryElementwise):
    """y = 1 / sqrt(x); dy/dx = -y^3 / 2."""

    name = 'rsqrt'
    retained = 'y'

    def compute(self, xp, inputs):
        x, = inputs
        y = xp.empty_like(x)
        xp.sqrt(x, out=y)
        return xp.reciprocal(y, out=y)

    def gradient(self, gy, x, y):
        return gy * y ** 3 * -0.5


def sqrt(x):
    """Elementwise square root :math:`\\sqrt{x}`.

    Args:
        x: Variable or array, float.

    Returns:
        Variable of the same shape and dtype.
    """
    return Sqrt().apply((x,))[0]


def rsqrt(x):
    """Elementwise reciprocal square root :math:`1 / \\sqrt{x}`.

    Args:
        x: Variable or array, float.

    Returns:
        Variable of the same shape and dtype.
    """
    return Rsqrt().apply((x,))[0]
