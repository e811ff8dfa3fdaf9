"""Trigonometric functions and their inverses."""
from kusari.autograd.functions.math import _ufunc_nodes
from kusari.autograd.functions.math.sqrt import sqrt


class Sin(_ufunc_nodes.UnaryElementwise):
    """y = sin(x); dy/dx = cos(x)."""

    name = 'sin'

    def gradient(self, gy, x, y):
        return gy * cos(x)


class Cos(_ufunc_nodes.UnaryElementwise):
    """y = cos(x); dy/dx = -sin(x)."""

    name = 'cos'

    def gradient(self, gy, x, y):
        return -gy * sin(x)


class Tan(_ufunc_nodes.UnaryElementwise):
    """y = tan(x); dy/dx = 1 + y^2 (= 1 / cos(x)^2)."""

    name = 'tan'
    retained = 'y'

    def gradient(self, gy, x, y):
        return gy * (y * y + 1)


class Arcsin(_ufunc_nodes.UnaryElementwise):
    """y = arcsin(x); dy/dx = 1 / sqrt(1 - x^2)."""

    name = 'arcsin'

    def gradient(self, gy, x, y):
        return gy / sqrt(1 - x * x)


class Arccos(_ufunc_nodes.UnaryElementwise):
    """y = arccos(x); dy/dx = -1 / sqrt(1 - x^2)."""

    name = 'arccos'

    def gradient(self, gy, x, y):
        return -gy / sqrt(1 - x * x)


class Arctan(_ufunc_nodes.UnaryElementwise):
    """y = arctan(x); dy/dx = 1 / (1 + x^2)."""

    name = 'arctan'

    def gradient(self, gy, x, y):
        return gy / (x * x + 1)


class Arctan2(_ufunc_nodes.BinaryElementwise):
    """y = arctan2(x1, x2), the angle of the point (x2, x1);
    dy/dx1 = x2 / (x1^2 + x2^2), dy/dx2 = -x1 / (x1^2 + x2^2)."""

    name = 'arctan2'

    def gradients(self, gy, x1, x2):
        gy_scaled = gy / (x1 * x1 + x2 * x2)
        return gy_scaled * x2, -gy_scaled * x1


def sin(x):
    """Elementwise sine.

    Args:
        x: Variable or array, float.

    Returns:
        Variable of the same shape and dtype.
    """
    return Sin().apply((x,))[0]


def cos(x):
    """Elementwise cosine.

    Args:
        x: Variable or array, float.

    Returns:
        Variable of the same shape and dtype.
    """
    return Cos().apply((x,))[0]


def tan(x):
    """Elementwise tangent.

    Args:
        x: Variable or array, float.

    Returns:
        Variable of the same shape and dtype.
    """
    return Tan().apply((x,))[0]


def arcsin(x):
    """Elementwise arcsine, in :math:`[-\\pi/2, \\pi/2]`.

    Args:
        x: Variable or array, float, in :math:`[-1, 1]`.

    Returns:
        Variable of the same shape and dtype.
    """
    return Arcsin().apply((x,))[0]


def arccos(x):
    """Elementwise arccosine, in :math:`[0, \\pi]`.

    Args:
        x: Variable or array, float, in :math:`[-1, 1]`.

    Returns:
        Variable of the same shape and dtype.
    """
    return Arccos().apply((x,))[0]


def arctan(x):
    """Elementwise arctangent, in :math:`(-\\pi/2, \\pi/2)`.

    Args:
        x: Variable or array, float.

    Returns:
        Variable of the same shape and dtype.
    """
    return Arctan().apply((x,))[0]


def arctan2(x1, x2):
    """Elementwise arctangent of ``x1 / x2``, choosing the quadrant by the
    signs of both: the angle of the point ``(x2, x1)``, in
    :math:`[-\\pi, \\pi]`.

    Args:
        x1: Variable or array, float: the y-coordinates.
        x2: Variable or array of the same dtype, broadcastable with ``x1``:
            the x-coordinates.

    Returns:
        Variable of the broadcast shape and the inputs' dtype.
    """
    return Arctan2().apply((x1, x2))[0]
